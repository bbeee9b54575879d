//! The vertex selection tool's panel: how a drag selects (box, lasso, brush), how many
//! vertices are selected, the soft ring, and the edits of the selection (raise, lower, set a
//! height, onto a plane, smooth), each a button that asks for one undo step. It shows plain
//! data and returns intents.

use egui::{ComboBox, DragValue, Slider};

use super::labelled;
use crate::command::{Intent, SelectionIntent};
use crate::edit::tools::{PlaneFrom, SelectShape, SelectionAction, SelectionOptions};

/// What the panel shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelectionView {
    /// Vertices selected.
    pub count: usize,
    /// The tool's settings.
    pub options: SelectionOptions,
    /// Clicks pick the plane's points instead of selecting.
    pub picking_plane: bool,
    /// Plane points picked so far (the last three count).
    pub plane_points: usize,
}

/// Each way of selecting, its button and what it does.
const SHAPES: [(SelectShape, &str, &str); 3] = [
    (SelectShape::Box, "Box", "Drag a rectangle on the ground"),
    (SelectShape::Lasso, "Lasso", "Draw a loop on the ground"),
    (
        SelectShape::Brush,
        "Brush select",
        "Paint the selection with the brush's circle",
    ),
];

/// Shows the panel.
pub fn show(ui: &mut egui::Ui, view: &SelectionView) -> Vec<Intent> {
    let mut out = Vec::new();
    let mut o = view.options;
    ui.horizontal_wrapped(|ui| {
        for (shape, name, hint) in SHAPES {
            ui.selectable_value(&mut o.shape, shape, name)
                .on_hover_text(hint);
        }
    });
    ui.label("Shift adds to the selection, Ctrl takes away from it.");
    ui.horizontal_wrapped(|ui| {
        if view.count == 0 {
            ui.weak("No vertices selected");
        } else {
            ui.label(format!("{} vertices selected", view.count));
        }
        if ui
            .add_enabled(view.count > 0, egui::Button::new("Clear selection"))
            .clicked()
        {
            out.push(Intent::Selection(SelectionIntent::Clear));
        }
    });
    ui.add(Slider::new(&mut o.ring, 0.0..=100.0).text("Soft ring (yd)"))
        .on_hover_text("Each edit eases off across this many yards outside the selection");
    ui.separator();
    let mut actions = Vec::new();
    let mut act = |ui: &mut egui::Ui, label: &str, action: SelectionAction| {
        if ui
            .add_enabled(view.count > 0, egui::Button::new(label))
            .clicked()
        {
            actions.push(Intent::Selection(SelectionIntent::Apply(action)));
        }
    };
    ui.horizontal_wrapped(|ui| {
        labelled(
            ui,
            "By (yd)",
            DragValue::new(&mut o.amount).speed(0.1).range(0.0..=500.0),
        );
        act(ui, "Raise selection", SelectionAction::Raise);
        act(ui, "Lower selection", SelectionAction::Lower);
    });
    ui.horizontal_wrapped(|ui| {
        labelled(ui, "Height (yd)", DragValue::new(&mut o.height).speed(0.5));
        act(ui, "Set selection's height", SelectionAction::SetHeight);
    });
    ui.horizontal_wrapped(|ui| {
        labelled(
            ui,
            "Strength",
            DragValue::new(&mut o.smooth).speed(0.01).range(0.0..=1.0),
        );
        act(ui, "Smooth selection", SelectionAction::Smooth);
    });
    ui.separator();
    ComboBox::from_label("Plane")
        .selected_text(match o.plane_from {
            PlaneFrom::ThreePoints => "Through three points",
            PlaneFrom::Slope => "Point, slope, direction",
        })
        .show_ui(ui, |ui| {
            ui.selectable_value(
                &mut o.plane_from,
                PlaneFrom::ThreePoints,
                "Through three points",
            );
            ui.selectable_value(
                &mut o.plane_from,
                PlaneFrom::Slope,
                "Point, slope, direction",
            );
        });
    if o.plane_from == PlaneFrom::Slope {
        ui.horizontal_wrapped(|ui| {
            labelled(
                ui,
                "Slope",
                DragValue::new(&mut o.slope).range(0.0..=89.0).suffix("°"),
            );
            labelled(
                ui,
                "Toward",
                DragValue::new(&mut o.direction)
                    .range(0.0..=359.9)
                    .suffix("°"),
            )
            .on_hover_text("The compass direction it rises toward: 0 north, 90 east");
        });
    }
    ui.horizontal_wrapped(|ui| {
        let picking = ui
            .selectable_label(view.picking_plane, "Pick plane points")
            .on_hover_text(match o.plane_from {
                PlaneFrom::ThreePoints => "Clicks on the ground pick the plane's three points",
                PlaneFrom::Slope => {
                    "A click on the ground picks the point the plane passes through (else: the selection's middle)"
                }
            });
        if picking.clicked() {
            out.push(Intent::Selection(SelectionIntent::PickPlane(
                !view.picking_plane,
            )));
        }
        ui.label(format!("{} picked", view.plane_points.min(3)));
        if view.plane_points > 0 && ui.small_button("Forget points").clicked() {
            out.push(Intent::Selection(SelectionIntent::ClearPlanePoints));
        }
    });
    act(ui, "Onto plane", SelectionAction::OntoPlane);
    if o != view.options {
        out.push(Intent::Selection(SelectionIntent::Options(o)));
    }
    // After the options, so that a value typed this frame counts.
    out.extend(actions);
    out
}
