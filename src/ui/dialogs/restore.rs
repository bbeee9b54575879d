//! The recovered edits a crash left: restore, discard, or ask again on the next start.

use std::path::PathBuf;

use crate::command::Intent;

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
    /// How many undo steps were autosaved with them.
    pub steps: usize,
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
        ui.label(format!(
            "Restore opens the map with these tiles as unsaved edits: Save writes them. \
             The undo history comes back with them ({} step(s)).",
            view.steps
        ));
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
