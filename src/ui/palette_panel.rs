//! The Scatter tool's panel: the palette (each model with its thumbnail, its weight and its own
//! scale range),
//! ways to add models (the map's own, the selected objects', the asset browser's pick), the
//! brush's settings (scatter or erase, density, spacing, scale, turn, tilt, slope limit,
//! seed) and the palettes saved by name. It shows plain data and returns intents.

use egui::{DragValue, Slider};

use super::labelled;

use crate::command::{Intent, ScatterIntent};
use crate::edit::objects::scatter_ops::{PaletteModel, ScatterBrush};

/// The side a palette thumbnail is shown at in its row, in points: large enough to tell a tree
/// from a bush (the tool panel scrolls, so taller rows push nothing out of reach).
const THUMB_SHOWN: f32 = 40.0;

/// The side of the thumbnail shown when the pointer rests on it, in points.
const THUMB_HOVER: f32 = 96.0;

/// A palette model's thumbnail as the panel shows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum PaletteThumb {
    /// Still being drawn: a placeholder shows.
    #[default]
    Drawing,
    /// Drawn: the egui texture.
    Ready(egui::TextureId),
    /// The model could not be read: why.
    Missing(String),
}

/// What the panel shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PaletteView {
    /// The palette.
    pub palette: Vec<PaletteModel>,
    /// Each palette model's thumbnail, in the palette's order.
    pub thumbnails: Vec<PaletteThumb>,
    /// The brush's settings.
    pub brush: ScatterBrush,
    /// The open map's doodad models, to add from.
    pub map_models: Vec<String>,
    /// The names palettes are saved under.
    pub saved: Vec<String>,
}

/// The last part of a model path ("Tree01.m2").
pub fn short_name(path: &str) -> &str {
    path.rsplit(['\\', '/']).next().unwrap_or(path)
}

/// Shows the panel.
pub fn show(ui: &mut egui::Ui, view: &PaletteView) -> Vec<Intent> {
    let mut out = Vec::new();
    let mut brush = view.brush.clone();
    ui.horizontal(|ui| {
        if ui
            .selectable_label(!brush.erase, "Scatter objects")
            .clicked()
        {
            brush.erase = false;
        }
        if ui.selectable_label(brush.erase, "Erase objects").clicked() {
            brush.erase = true;
        }
    });
    ui.label("Palette");
    if view.palette.is_empty() {
        ui.weak("No models yet: pick one in the asset browser, or add the map's own below.");
    }
    for (i, m) in view.palette.iter().enumerate() {
        let mut e = m.clone();
        ui.horizontal(|ui| {
            thumbnail(ui, view.thumbnails.get(i), &m.model);
            ui.label(short_name(&m.model)).on_hover_text(&m.model);
            ui.add(
                DragValue::new(&mut e.weight)
                    .range(0.0..=100.0)
                    .speed(0.1)
                    .prefix("weight "),
            );
            let mut own = e.scale.is_some();
            if ui
                .checkbox(&mut own, "own scale")
                .on_hover_text("A scale range of its own instead of the brush's")
                .changed()
            {
                e.scale = own.then_some(brush.scale);
            }
            if ui
                .small_button("Remove")
                .on_hover_text(format!("Remove {}", short_name(&m.model)))
                .clicked()
            {
                out.push(Intent::Scatter(ScatterIntent::Remove(i)));
            }
        });
        if let Some(s) = &mut e.scale {
            ui.horizontal(|ui| {
                labelled(
                    ui,
                    "scale",
                    DragValue::new(&mut s[0]).range(0.01..=10.0).speed(0.01),
                );
                labelled(
                    ui,
                    "to",
                    DragValue::new(&mut s[1]).range(0.01..=10.0).speed(0.01),
                );
            });
        }
        if e != *m {
            out.push(Intent::Scatter(ScatterIntent::Entry(i, e)));
        }
    }
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Add selected objects' models")
            .on_hover_text("The models of the doodads selected with the Objects tool")
            .clicked()
        {
            out.push(Intent::Scatter(ScatterIntent::AddSelected));
        }
    });
    egui::CollapsingHeader::new("The map's models")
        .default_open(true)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for m in &view.map_models {
                    if ui
                        .button(format!("+ {}", short_name(m)))
                        .on_hover_text(m)
                        .clicked()
                    {
                        out.push(Intent::Scatter(ScatterIntent::Add(m.clone())));
                    }
                }
            });
        });
    ui.separator();
    if brush.erase {
        ui.checkbox(&mut brush.erase_palette_only, "Only the palette's models");
        ui.checkbox(&mut brush.erase_wmos, "WMOs too");
    } else {
        ui.add(
            Slider::new(&mut brush.density, 0.1..=100.0)
                .logarithmic(true)
                .text("Density (per 1,000 yd²)"),
        );
        ui.add(Slider::new(&mut brush.spacing, 0.0..=30.0).text("Spacing (yd)"));
        ui.horizontal(|ui| {
            labelled(
                ui,
                "Scale",
                DragValue::new(&mut brush.scale[0])
                    .range(0.01..=10.0)
                    .speed(0.01),
            );
            labelled(
                ui,
                "to",
                DragValue::new(&mut brush.scale[1])
                    .range(0.01..=10.0)
                    .speed(0.01),
            );
        });
        ui.horizontal(|ui| {
            labelled(
                ui,
                "Turn",
                DragValue::new(&mut brush.yaw[0])
                    .range(0.0..=360.0)
                    .suffix("°"),
            );
            labelled(
                ui,
                "to",
                DragValue::new(&mut brush.yaw[1])
                    .range(0.0..=360.0)
                    .suffix("°"),
            );
        });
        ui.add(Slider::new(&mut brush.tilt, 0.0..=1.0).text("Tilt to the slope"));
        let mut limit = brush.max_slope.is_some();
        ui.horizontal(|ui| {
            ui.checkbox(&mut limit, "Steepest slope");
            let mut s = brush.max_slope.unwrap_or(30.0);
            ui.add_enabled(
                limit,
                Slider::new(&mut s, 0.0..=90.0)
                    .suffix("°")
                    .text("from level"),
            );
            brush.max_slope = limit.then_some(s);
        });
        ui.horizontal(|ui| {
            labelled(ui, "Seed", DragValue::new(&mut brush.seed));
        });
    }
    // A stroke's ranges must run low to high.
    brush.scale[1] = brush.scale[1].max(brush.scale[0]);
    brush.yaw[1] = brush.yaw[1].max(brush.yaw[0]);
    if brush != view.brush {
        out.push(Intent::Scatter(ScatterIntent::Brush(brush)));
    }
    ui.separator();
    out.extend(saved_palettes(ui, view));
    out
}

/// A palette model's thumbnail, or a placeholder of the same size while it is drawn.
fn thumbnail(ui: &mut egui::Ui, thumb: Option<&PaletteThumb>, model: &str) {
    let size = egui::Vec2::splat(THUMB_SHOWN);
    match thumb {
        Some(PaletteThumb::Ready(id)) => {
            ui.add(
                egui::Image::new((*id, size))
                    .alt_text(format!("Thumbnail of {}", short_name(model))),
            )
            .on_hover_ui(|ui| {
                ui.image((*id, egui::Vec2::splat(THUMB_HOVER)));
            });
        }
        Some(PaletteThumb::Missing(why)) => {
            ui.add_sized(size, egui::Label::new("?")).on_hover_text(why);
        }
        Some(PaletteThumb::Drawing) | None => {
            ui.add_sized(size, egui::Spinner::new())
                .on_hover_text("Drawing the thumbnail");
        }
    }
}

/// The palettes saved by name: save this one, load or forget another.
fn saved_palettes(ui: &mut egui::Ui, view: &PaletteView) -> Vec<Intent> {
    let mut out = Vec::new();
    let id = ui.scope_id().with("palette-name");
    let mut name = ui.data_mut(|d| d.get_temp::<String>(id).unwrap_or_default());
    ui.horizontal(|ui| {
        labelled(
            ui,
            "Palette name",
            egui::TextEdit::singleline(&mut name)
                .hint_text("forest")
                .desired_width(100.0),
        );
        if ui.button("Save palette").clicked() {
            out.push(Intent::Scatter(ScatterIntent::Save(name.clone())));
        }
    });
    ui.horizontal(|ui| {
        if ui
            .button("Export…")
            .on_hover_text("Write the palette to a file, named as above, in a folder")
            .clicked()
        {
            out.push(Intent::Scatter(ScatterIntent::Export(name.clone())));
        }
        if ui
            .button("Import…")
            .on_hover_text("Make a palette file (an export) the palette")
            .clicked()
        {
            out.push(Intent::Scatter(ScatterIntent::Import));
        }
    });
    ui.data_mut(|d| d.insert_temp(id, name));
    for n in &view.saved {
        ui.horizontal(|ui| {
            ui.label(n);
            if ui.small_button("Load").clicked() {
                out.push(Intent::Scatter(ScatterIntent::Load(n.clone())));
            }
            if ui.small_button("Forget").clicked() {
                out.push(Intent::Scatter(ScatterIntent::Delete(n.clone())));
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_drop_the_folders() {
        assert_eq!(short_name("World\\Loam\\Sample\\Tree01.m2"), "Tree01.m2");
        assert_eq!(short_name("tree.m2"), "tree.m2");
    }
}
