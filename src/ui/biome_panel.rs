//! The Biome tool's own settings: which biome (the kept list: loam's own and the user's),
//! and the biome laid, edited in place — its erosion, texture rules, palette and scattering —
//! with Keep, Delete, Export… and Import… for the list.
//!
//! Not for: what the buttons do (`app::toolbox::biomes`) or laying a biome (`edit::biome`).

use egui::{ComboBox, DragValue};

use super::labelled;
use crate::command::{BiomesIntent, Intent};
use crate::edit::biome::Biome;
use crate::edit::objects::scatter_ops::PaletteModel;

/// The accessible name of the biome picker.
pub const BIOME_PICKER: &str = "Kept biomes";
/// The accessible name of the biome's name field.
pub const BIOME_NAME: &str = "Biome name";

/// Shows the biome's settings, editing `biome` in place; `kept` are the kept biomes' names,
/// `textures` the tile's to pick from. Returns the list's intents.
pub fn show(
    ui: &mut egui::Ui,
    biome: &mut Biome,
    kept: &[String],
    textures: &[String],
) -> Vec<Intent> {
    let mut out = Vec::new();
    ComboBox::from_label(BIOME_PICKER)
        .selected_text(biome.name.clone())
        .show_ui(ui, |ui| {
            for (i, name) in kept.iter().enumerate() {
                if ui.selectable_label(*name == biome.name, name).clicked() {
                    out.push(Intent::Biomes(BiomesIntent::Pick(i)));
                }
            }
        });
    ui.horizontal(|ui| {
        labelled(
            ui,
            BIOME_NAME,
            egui::TextEdit::singleline(&mut biome.name).desired_width(140.0),
        );
    });
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Keep")
            .on_hover_text(
                "Keep this biome in the list under its name (replacing one of that name)",
            )
            .clicked()
        {
            out.push(Intent::Biomes(BiomesIntent::Keep));
        }
        if let Some(i) = kept.iter().position(|n| *n == biome.name)
            && ui
                .button("Delete")
                .on_hover_text("Take the kept biome of this name out of the list")
                .clicked()
        {
            out.push(Intent::Biomes(BiomesIntent::Delete(i)));
        }
        if ui
            .button("Export…")
            .on_hover_text("Write the kept biomes to a file in a folder you pick")
            .clicked()
        {
            out.push(Intent::Biomes(BiomesIntent::Export));
        }
        if ui
            .button("Import…")
            .on_hover_text("Add the biomes of a biome file to the list")
            .clicked()
        {
            out.push(Intent::Biomes(BiomesIntent::Import));
        }
    });
    ui.separator();
    let mut erodes = biome.erosion.is_some();
    ui.checkbox(&mut erodes, "Erode first");
    match (&mut biome.erosion, erodes) {
        (Some(e), true) => super::erosion_panel::show(ui, e),
        (None, true) => biome.erosion = Some(crate::edit::tools::default_erosion()),
        (Some(_), false) => biome.erosion = None,
        (None, false) => {}
    }
    ui.separator();
    if biome.rules.is_empty() {
        ui.weak("No rules: the texturing is left alone.");
    }
    super::rules_panel::show(ui, &mut biome.rules, textures);
    ui.separator();
    palette(ui, biome, &mut out);
    out
}

/// The biome's palette and how it is scattered.
fn palette(ui: &mut egui::Ui, biome: &mut Biome, out: &mut Vec<Intent>) {
    ui.label("Objects scattered (none: no objects)");
    let mut remove = None;
    for (i, m) in biome.palette.iter_mut().enumerate() {
        ui.push_id(("biome-palette", i), |ui| {
            ui.horizontal(|ui| {
                let label = ui.label(format!("Model {}", i + 1));
                ui.add(
                    egui::TextEdit::singleline(&mut m.model).desired_width(ui.available_width()),
                )
                .labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                ui.add(
                    DragValue::new(&mut m.weight)
                        .prefix("weight ")
                        .speed(0.1)
                        .range(0.0..=100.0),
                );
                if ui.small_button("Remove").clicked() {
                    remove = Some(i);
                }
            });
        });
    }
    if let Some(i) = remove {
        biome.palette.remove(i);
    }
    ui.horizontal(|ui| {
        if ui
            .button("Add selected doodads")
            .on_hover_text("Add the models of the doodads the Objects tool has selected")
            .clicked()
        {
            out.push(Intent::Biomes(BiomesIntent::AddSelected));
        }
        if ui.button("Add model").clicked() {
            biome.palette.push(PaletteModel {
                model: String::new(),
                weight: 1.0,
                scale: None,
            });
        }
    });
    if biome.palette.is_empty() {
        return;
    }
    let s = &mut biome.scatter;
    ui.add(
        DragValue::new(&mut s.density)
            .prefix("density ")
            .suffix(" per 1,000 yd²")
            .speed(0.1)
            .range(0.0..=100.0),
    );
    ui.add(
        DragValue::new(&mut s.spacing)
            .prefix("spacing ")
            .suffix(" yd")
            .speed(0.1)
            .range(0.0..=100.0),
    );
    let mut limited = s.max_slope.is_some();
    ui.horizontal(|ui| {
        ui.checkbox(&mut limited, "Steepest ground");
        match (&mut s.max_slope, limited) {
            (Some(m), true) => {
                ui.add(DragValue::new(m).suffix("°").range(0.0..=90.0));
            }
            (None, true) => s.max_slope = Some(30.0),
            (Some(_), false) => s.max_slope = None,
            (None, false) => {}
        }
    });
    ui.add(DragValue::new(&mut s.seed).prefix("seed "));
}
