//! The "unsaved changes" question on quit.

use crate::command::Intent;

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
