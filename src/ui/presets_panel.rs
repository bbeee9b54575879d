//! The tool panel's brush presets: the list (a click puts a preset's settings in the panel),
//! a name field, and Save, Rename, Delete, Export… and Import….
//!
//! Not for: what the buttons do (`app::toolbox::presets`) or what a preset holds
//! (`edit::presets`).

use crate::command::{Intent, PresetsIntent};

/// The accessible name of the presets' name field.
pub const PRESET_NAME_LABEL: &str = "Preset name";
/// The header's text, which opens and closes the list.
pub const PRESETS_HEADER: &str = "Presets";

/// What the section shows.
#[derive(Debug, Clone, Default)]
pub struct PresetsView {
    /// The presets' names, in order.
    pub names: Vec<String>,
    /// The preset last picked or saved, highlighted.
    pub chosen: Option<usize>,
    /// The name field's text.
    pub name: String,
    /// True while the list is shown.
    pub open: bool,
}

/// Draws the section; returns what it asks for.
pub fn show(ui: &mut egui::Ui, view: &PresetsView) -> Vec<Intent> {
    let mut out = Vec::new();
    let header = egui::CollapsingHeader::new(PRESETS_HEADER)
        .id_salt("loam-presets")
        .open(Some(view.open))
        .show(ui, |ui| {
            for (i, name) in view.names.iter().enumerate() {
                if ui.selectable_label(view.chosen == Some(i), name).clicked() {
                    out.push(Intent::Presets(PresetsIntent::Pick(i)));
                }
            }
            if view.names.is_empty() {
                ui.weak("No presets: save the current tool's settings under a name.");
            }
            let mut name = view.name.clone();
            ui.horizontal(|ui| {
                let r = ui.add(
                    egui::TextEdit::singleline(&mut name)
                        .hint_text("name")
                        .desired_width(140.0),
                );
                r.widget_info(|| {
                    egui::WidgetInfo::labeled(egui::Role::TextInput, true, PRESET_NAME_LABEL)
                });
                if ui
                    .button("Save")
                    .on_hover_text("Keep the current tool's settings under this name")
                    .clicked()
                {
                    out.push(Intent::Presets(PresetsIntent::Save));
                }
            });
            if name != view.name {
                out.insert(0, Intent::Presets(PresetsIntent::Name(name)));
            }
            ui.horizontal_wrapped(|ui| {
                if let Some(i) = view.chosen {
                    if ui
                        .button("Rename")
                        .on_hover_text("Give the highlighted preset the typed name")
                        .clicked()
                    {
                        out.push(Intent::Presets(PresetsIntent::Rename(i)));
                    }
                    if ui.button("Delete").clicked() {
                        out.push(Intent::Presets(PresetsIntent::Delete(i)));
                    }
                }
                if ui
                    .button("Export…")
                    .on_hover_text("Write the presets to a file in a folder you pick")
                    .clicked()
                {
                    out.push(Intent::Presets(PresetsIntent::Export));
                }
                if ui
                    .button("Import…")
                    .on_hover_text("Add the presets of a file")
                    .clicked()
                {
                    out.push(Intent::Presets(PresetsIntent::Import));
                }
            });
        });
    if header.header_response.clicked() {
        out.push(Intent::Presets(PresetsIntent::Show(!view.open)));
    }
    out
}
