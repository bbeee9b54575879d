//! File ▸ Export for client…: the target, the client folder, the WDL and the minimap, and
//! the archive's name.

use std::path::PathBuf;

use super::fixed_window;
use crate::command::Intent;
use crate::format::Generation;

/// What the Export for client dialog shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportView {
    /// Generations with a client archive layout.
    pub targets: Vec<Generation>,
    /// The chosen one.
    pub target: Generation,
    /// The map's name.
    pub map: String,
    /// The chosen client (or output) folder.
    pub folder: Option<PathBuf>,
    /// Where the archives go: the client's `Data` folder, or the chosen folder.
    pub destination: Option<PathBuf>,
    /// The target reads per-file archives (0.5.x) rather than one patch.
    pub per_file: bool,
    /// The patch name used when none is typed.
    pub default_patch: Option<String>,
    /// The WDL is written with the map.
    pub wdl: bool,
    /// The minimap is drawn and packed with the map.
    pub minimap: bool,
    /// The map has unsaved edits (the export reads the files on disk).
    pub unsaved: bool,
    /// The folder is a client whose servers' map extractors loam knows (1.12, 3.3.5).
    pub server_client: bool,
    /// The servers' copy of the client is written too.
    pub server_copy: bool,
    /// Where the servers' copy goes.
    pub server_folder: Option<PathBuf>,
    /// What the last export said that the user must know (what the servers will not see).
    pub warnings: Vec<String>,
}

/// The Export for client window's title.
pub const EXPORT_TITLE: &str = "Export for client";

/// Shows the Export for client window; `patch_name` is the text field's contents.
pub fn export_for_client(
    ui: &mut egui::Ui,
    view: &ExportView,
    patch_name: &mut String,
) -> Vec<Intent> {
    use crate::command::ExportIntent as E;
    let mut out = Vec::new();
    fixed_window(EXPORT_TITLE, 440.0).show(ui.ctx(), |ui| {
        ui.label("Client generation:");
        ui.horizontal(|ui| {
            for &g in &view.targets {
                if ui.selectable_label(view.target == g, g.label()).clicked() {
                    out.push(Intent::Export(E::Target(g)));
                }
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Client folder…").clicked() {
                out.push(Intent::Export(E::PickFolder));
            }
            match &view.folder {
                Some(f) => ui.label(f.display().to_string()),
                None => ui.label("(none chosen: the game folder, or any folder)"),
            };
        });
        if view.per_file {
            ui.label(format!(
                "Writes World\\Maps\\{0}\\{0}.wdt.MPQ and {0}.wdl.MPQ, the per-file archives \
                     the 0.5.x client reads.",
                view.map
            ));
        } else {
            ui.horizontal(|ui| {
                let label = ui.label("Patch name");
                let hint = view.default_patch.as_deref().unwrap_or("patch-4.MPQ");
                ui.add(egui::TextEdit::singleline(patch_name).hint_text(hint))
                    .labelled_by(label.id);
            });
        }
        let mut wdl = view.wdl;
        if ui
            .checkbox(&mut wdl, "Write the WDL (distant terrain)")
            .changed()
        {
            out.push(Intent::Export(E::Wdl(wdl)));
        }
        let mut minimap = view.minimap;
        if ui
            .checkbox(
                &mut minimap,
                "Draw the minimap (256×256 a tile, changed tiles only)",
            )
            .on_hover_text(
                "Each tile drawn from above and named in textures\\Minimap\\md5translate, \
                     which keeps the client's other maps.",
            )
            .changed()
        {
            out.push(Intent::Export(E::Minimap(minimap)));
        }
        if view.server_client {
            let mut copy = view.server_copy;
            ui.horizontal(|ui| {
                if ui
                    .checkbox(&mut copy, "Write the servers' copy")
                    .on_hover_text(
                        "The client's Data folder as the servers' map extractors read it \
                         (loam server-data): run the extractor on this folder.",
                    )
                    .changed()
                {
                    out.push(Intent::Export(E::ServerCopy(copy)));
                }
                if copy {
                    if ui.button("Folder…").clicked() {
                        out.push(Intent::Export(E::PickServerFolder));
                    }
                    match &view.server_folder {
                        Some(f) => ui.label(f.display().to_string()),
                        None => ui.label("(a new folder)"),
                    };
                }
            });
        }
        if let Some(d) = &view.destination {
            ui.label(format!("Into {}", d.display()));
        }
        ui.label("An archive loam did not write is never replaced.");
        for w in &view.warnings {
            ui.colored_label(ui.visuals().warn_fg_color, w);
        }
        if view.unsaved {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "Save first: the export reads the map's files on disk.",
            );
        }
        ui.separator();
        ui.horizontal(|ui| {
            let ready = view.folder.is_some()
                && !view.unsaved
                && !(view.server_copy && view.server_folder.is_none());
            if ui.add_enabled(ready, egui::Button::new("Export")).clicked() {
                out.push(Intent::Export(E::Write));
            }
            let close = if view.warnings.is_empty() {
                "Cancel"
            } else {
                "Close"
            };
            if ui.button(close).clicked() {
                out.push(Intent::Export(E::Cancel));
            }
        });
    });
    out
}
