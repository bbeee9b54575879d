//! File ▸ Save as…: the target generation, the folder, the WDL, and the conversion report
//! before writing.

use std::path::PathBuf;

use crate::command::{Intent, SaveAsIntent};
use crate::format::Generation;

/// What the Save as… dialog shows.
#[derive(Debug, Clone, PartialEq)]
pub struct SaveAsView {
    /// Generations loam can write.
    pub targets: Vec<Generation>,
    /// The chosen one.
    pub target: Generation,
    /// The generation the map has now.
    pub current: Generation,
    /// The chosen folder.
    pub folder: Option<PathBuf>,
    /// The conversion report for the chosen target, one line per change.
    pub report: Vec<String>,
    /// While the report reads the map's tiles from disk: tiles read so far, of how many.
    pub reading: Option<(usize, usize)>,
    /// The map's WDL is written with it.
    pub wdl: bool,
}

/// The dialog's window title (and accessible name).
pub const SAVE_AS_TITLE: &str = "Save as";

/// Shows the Save as… window.
pub fn save_as(ui: &mut egui::Ui, view: &SaveAsView) -> Vec<Intent> {
    let mut out = Vec::new();
    egui::Window::new(SAVE_AS_TITLE)
        .collapsible(false)
        .resizable(true)
        .default_width(420.0)
        .show(ui.ctx(), |ui| {
            ui.label(format!("The map is {} now. Write it as:", view.current));
            ui.horizontal(|ui| {
                for &g in &view.targets {
                    if ui
                        .selectable_label(view.target == g, format!("Target {g}"))
                        .clicked()
                    {
                        out.push(Intent::SaveAs(SaveAsIntent::Target(g)));
                    }
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Choose folder…").clicked() {
                    out.push(Intent::SaveAs(SaveAsIntent::PickFolder));
                }
                match &view.folder {
                    Some(f) => ui.label(f.display().to_string()),
                    None => ui.label("(no folder chosen)"),
                };
            });
            ui.separator();
            ui.label("Conversion report:");
            egui::ScrollArea::vertical()
                .max_height(200.0)
                .show(ui, |ui| {
                    if let Some((read, total)) = view.reading {
                        ui.label(format!(
                            "Reading the map's tiles for the report: {read} of {total}…"
                        ));
                        ui.add(
                            egui::ProgressBar::new(read as f32 / total.max(1) as f32)
                                .show_percentage(),
                        );
                    }
                    for line in &view.report {
                        ui.label(line);
                    }
                });
            let mut wdl = view.wdl;
            if ui
                .checkbox(&mut wdl, "Write the WDL (distant terrain)")
                .changed()
            {
                out.push(Intent::SaveAs(SaveAsIntent::Wdl(wdl)));
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(view.folder.is_some(), egui::Button::new("Write"))
                    .clicked()
                {
                    out.push(Intent::SaveAs(SaveAsIntent::Write));
                }
                if ui.button("Cancel").clicked() {
                    out.push(Intent::SaveAs(SaveAsIntent::Cancel));
                }
            });
        });
    out
}
