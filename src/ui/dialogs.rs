//! The editor's dialogs: Save as… (target generation, folder, the conversion report before
//! writing) and the "unsaved changes" question on quit.

use std::path::PathBuf;

use crate::app::intent::Intent;
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
                        out.push(Intent::SaveAsTarget(g));
                    }
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Choose folder…").clicked() {
                    out.push(Intent::SaveAsPickFolder);
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
                    for line in &view.report {
                        ui.label(line);
                    }
                });
            ui.separator();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(view.folder.is_some(), egui::Button::new("Write"))
                    .clicked()
                {
                    out.push(Intent::SaveAsWrite);
                }
                if ui.button("Cancel").clicked() {
                    out.push(Intent::SaveAsCancel);
                }
            });
        });
    out
}

/// Asks whether to quit with `unsaved` changed tiles.
pub fn confirm_quit(ui: &mut egui::Ui, unsaved: usize) -> Vec<Intent> {
    let mut out = Vec::new();
    egui::Modal::new(egui::Id::unique("loam-confirm-quit")).show(ui.ctx(), |ui| {
        ui.heading("Unsaved changes");
        ui.label(format!(
            "{unsaved} tile(s) have changes that are not saved. Quit anyway?"
        ));
        ui.horizontal(|ui| {
            if ui.button("Discard and quit").clicked() {
                out.push(Intent::ConfirmQuit(true));
            }
            if ui.button("Keep editing").clicked() {
                out.push(Intent::ConfirmQuit(false));
            }
        });
    });
    out
}

/// The Open from client window's title.
pub const OPEN_FROM_CLIENT_TITLE: &str = "Open from client";

/// Lists the client's maps (folder name, and Map.dbc's id and name where known), filtered by
/// `filter`; a click opens one.
pub fn open_from_client(
    ui: &mut egui::Ui,
    maps: &[crate::assets::client::ClientMap],
    filter: &mut String,
) -> Vec<Intent> {
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new(OPEN_FROM_CLIENT_TITLE)
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .default_width(420.0)
        .show(ui.ctx(), |ui| {
            ui.label(format!(
                "{} map(s). The map's files are copied to loam's cache and opened from there; \
                 File > Save as… writes it to a folder of your choice.",
                maps.len()
            ));
            ui.horizontal(|ui| {
                let label = ui.label("Filter");
                ui.text_edit_singleline(filter).labelled_by(label.id);
            });
            let words = filter.to_ascii_lowercase();
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for m in maps {
                        let shown = match &m.table {
                            Some((id, name)) => format!("{}  {name} (map {id})", m.directory),
                            None => m.directory.clone(),
                        };
                        if !words.is_empty() && !shown.to_ascii_lowercase().contains(&words) {
                            continue;
                        }
                        if ui
                            .selectable_label(false, shown)
                            .on_hover_text(&m.wdt)
                            .clicked()
                        {
                            out.push(Intent::OpenFromClient(m.directory.clone()));
                        }
                    }
                });
        });
    if !open {
        out.push(Intent::CloseOpenFromClient);
    }
    out
}

/// What the restore dialog shows about one recovered map.
#[derive(Debug, Clone, PartialEq)]
pub struct RestoreView {
    /// The map's name.
    pub map: String,
    /// Where the map is.
    pub source: PathBuf,
    /// The generation it was read as.
    pub generation: String,
    /// How many unsaved tiles were autosaved.
    pub tiles: usize,
    /// When, in words ("3 minutes ago").
    pub age: String,
    /// The map's files that changed on disk since the autosave.
    pub changed: Vec<PathBuf>,
}

/// The restore dialog's heading (and accessible name).
pub const RESTORE_TITLE: &str = "Recovered edits";

/// Asks whether to restore a map's autosaved edits after loam did not quit cleanly: Restore,
/// Discard, or Later (asked again on the next start).
pub fn restore(ui: &mut egui::Ui, view: &RestoreView) -> Vec<Intent> {
    let mut out = Vec::new();
    egui::Modal::new(egui::Id::unique("loam-restore")).show(ui.ctx(), |ui| {
        ui.set_max_width(560.0);
        ui.heading(RESTORE_TITLE);
        ui.label(format!(
            "loam did not quit cleanly while {} had unsaved changes. {} tile(s) were autosaved \
             {}.",
            view.map, view.tiles, view.age
        ));
        ui.label(format!("{} ({})", view.source.display(), view.generation));
        if !view.changed.is_empty() {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "Changed on disk since the autosave (saving the restored tiles writes over \
                 these changes):",
            );
            for p in &view.changed {
                ui.label(format!("  {}", p.display()));
            }
        }
        ui.label(
            "Restore opens the map with these tiles as unsaved edits: Save writes them. \
             The undo history is not restored.",
        );
        ui.horizontal(|ui| {
            if ui.button("Restore").clicked() {
                out.push(Intent::RestoreRecovered(0));
            }
            if ui.button("Discard").clicked() {
                out.push(Intent::DiscardRecovered(0));
            }
            if ui
                .button("Later")
                .on_hover_text("Ask again on the next start")
                .clicked()
            {
                out.push(Intent::RecoverLater(0));
            }
        });
    });
    out
}
