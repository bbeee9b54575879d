//! The models drawn as placeholders: path, why, and the tiles that place them; copyable.

use crate::command::Intent;

/// What the missing-models window shows.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingModelsView {
    /// One row a model: its path, why it is not drawn, how many objects place it where.
    pub rows: Vec<[String; 3]>,
    /// The same as text, one model a line, tab-separated: what "Copy the list" copies.
    pub text: String,
}

/// The missing-models window's title.
pub const MISSING_MODELS_TITLE: &str = "Models not found";

/// Shows the models drawn as placeholders; the list can be copied whole.
pub fn missing_models(ui: &mut egui::Ui, view: &MissingModelsView) -> Vec<Intent> {
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new(MISSING_MODELS_TITLE)
        .open(&mut open)
        .default_width(720.0)
        .resizable(true)
        .show(ui.ctx(), |ui| {
            ui.label(
                "Each model's path, why it is not drawn, and the tiles that place it. Models the \
                 client does not have are usually custom ones: put them in the map's folder or a \
                 patch archive under the same path.",
            );
            ui.horizontal(|ui| {
                if ui.button("Copy the list").clicked() {
                    ui.ctx().copy_text(view.text.clone());
                }
                if ui.button("Close").clicked() {
                    out.push(Intent::ShowMissingModels(false));
                }
            });
            egui::ScrollArea::both().max_height(360.0).show(ui, |ui| {
                egui::Grid::new("loam-missing-models")
                    .striped(true)
                    .show(ui, |ui| {
                        // Where and why first: the paths are long and run off to the right.
                        for [path, why, placed] in &view.rows {
                            ui.label(placed);
                            ui.label(why);
                            ui.monospace(path);
                            ui.end_row();
                        }
                    });
            });
        });
    if !open {
        out.push(Intent::ShowMissingModels(false));
    }
    out
}
