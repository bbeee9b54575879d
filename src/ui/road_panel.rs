//! The road tool's panel: the road's widths, the texture it may paint, its control points with
//! their heights (the terrain's, or typed) and the buttons that lay it (one undo step) or drop
//! it. It shows plain data and returns intents.

use egui::{ComboBox, DragValue, Slider};

use super::labelled;
use crate::command::{Intent, RoadIntent};
use crate::edit::tools::RoadOptions;

/// What the panel shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoadView {
    /// The control points (world x, y) and their typed bed heights (`None`: the terrain's).
    pub points: Vec<([f64; 2], Option<f32>)>,
    /// The point last clicked or dragged.
    pub selected: Option<usize>,
    /// Widths and texture.
    pub options: RoadOptions,
    /// Texture paths of the tile under the cursor, to pick the road's from.
    pub textures: Vec<String>,
}

/// The file name of a texture path.
fn short(path: &str) -> &str {
    path.rsplit(['\\', '/']).next().unwrap_or(path)
}

/// Shows the panel.
pub fn show(ui: &mut egui::Ui, view: &RoadView) -> Vec<Intent> {
    let mut out = Vec::new();
    ui.label(
        "Click on the ground to add control points; drag a point to move it, Shift+click \
         inserts one into the curve, Ctrl+click on a point deletes it.",
    );
    let mut o = view.options.clone();
    ui.add(Slider::new(&mut o.width, 1.0..=60.0).text("Width (yd)"));
    ui.add(Slider::new(&mut o.shoulder, 0.0..=60.0).text("Shoulder (yd)"));
    let mut painted = o.texture.is_some();
    ui.checkbox(&mut painted, "Paint a texture along it");
    if painted {
        let mut path = o.texture.clone().unwrap_or_default();
        ComboBox::from_label("Road texture")
            .selected_text(short(&path).to_string())
            .show_ui(ui, |ui| {
                for t in &view.textures {
                    ui.selectable_value(&mut path, t.clone(), short(t));
                }
            });
        ui.horizontal(|ui| {
            labelled(
                ui,
                "Road texture path",
                egui::TextEdit::singleline(&mut path),
            );
        });
        ui.add(Slider::new(&mut o.texture_width, 1.0..=80.0).text("Texture width (yd)"));
        o.texture = Some(path);
    } else {
        o.texture = None;
    }
    if o != view.options {
        out.push(Intent::Road(RoadIntent::Options(o)));
    }
    ui.separator();
    if view.points.is_empty() {
        ui.weak("No control points");
    }
    for (i, (p, height)) in view.points.iter().enumerate() {
        ui.horizontal(|ui| {
            let name = format!("Point {}", i + 1);
            let text = if view.selected == Some(i) {
                egui::RichText::new(name).strong()
            } else {
                egui::RichText::new(name)
            };
            ui.label(text)
                .on_hover_text(format!("x {:.1}, y {:.1}", p[0], p[1]));
            let mut typed = height.is_some();
            ui.checkbox(&mut typed, "typed");
            let mut h = height.unwrap_or(0.0);
            if typed {
                ui.add(DragValue::new(&mut h).speed(0.25).suffix(" yd"));
            } else {
                ui.weak("terrain");
            }
            let now = typed.then_some(h);
            if now != *height {
                out.push(Intent::Road(RoadIntent::PointHeight(i, now)));
            }
            if ui
                .small_button("Remove")
                .on_hover_text("Delete this point")
                .clicked()
            {
                out.push(Intent::Road(RoadIntent::Delete(i)));
            }
        });
    }
    ui.horizontal(|ui| {
        if ui
            .add_enabled(view.points.len() >= 2, egui::Button::new("Lay road"))
            .on_hover_text("Shape the ground (and paint) along the curve, as one undo step")
            .clicked()
        {
            out.push(Intent::Road(RoadIntent::Apply));
        }
        if ui
            .add_enabled(!view.points.is_empty(), egui::Button::new("Clear road"))
            .clicked()
        {
            out.push(Intent::Road(RoadIntent::Clear));
        }
    });
    out
}
