//! The object panel (right, under the tools, with the object tool): what is selected, and the
//! selected object's record to edit by typing: position, rotation, scale, doodad set; snap to the
//! ground and delete. A typed value becomes one edit when the field is left or a drag ends.
//!
//! Not for: applying edits (the app does, through `edit::objects`) or picking objects.

use egui::DragValue;

use super::labelled;
use crate::command::PlaceOptions;
use crate::command::{Command, Intent};
use crate::edit::objects::ObjectRecord;
use crate::model::ObjectKind;
use crate::model::placement::{doodad_scale_factor, doodad_scale_record};

/// The label of the selection line, also how tests find the panel.
pub const SELECTION_LABEL: &str = "Selection";

/// Shows the panel for `selected` (the selection's records, in selection order) and the
/// placing options.
pub fn show(
    ui: &mut egui::Ui,
    selected: &[ObjectRecord],
    place: &PlaceOptions,
    transform: Option<&str>,
) -> Vec<Intent> {
    let mut out = Vec::new();
    if let Some(t) = transform {
        ui.colored_label(egui::Color32::from_rgb(240, 200, 90), t);
    }
    ui.separator();
    if let Some(p) = place_options(ui, place) {
        out.push(Intent::SetPlaceOptions(p));
    }
    ui.separator();
    let summary = match selected {
        [] => "nothing: click an object in the view".to_string(),
        [one] => format!(
            "{} uid {}",
            match one.kind {
                ObjectKind::Doodad => "doodad",
                ObjectKind::Wmo => "WMO",
            },
            one.unique_id
        ),
        many => format!("{} objects", many.len()),
    };
    ui.horizontal(|ui| {
        ui.label(SELECTION_LABEL);
        ui.label(summary);
    });
    if let [one] = selected {
        ui.label(&one.model)
            .on_hover_text("Model path as the tiles name it");
        if ui.button("Select all of this model").clicked() {
            out.push(Intent::SelectSameModel(one.model.clone()));
        }
        if let Some(edited) = record_fields(ui, one) {
            out.push(Intent::EditObject(edited));
        }
    }
    if !selected.is_empty() {
        ui.horizontal_wrapped(|ui| {
            if ui.button("Snap to ground").clicked() {
                out.push(Intent::Command(Command::SnapSelectionToGround));
            }
            if ui
                .button("Align to slope")
                .on_hover_text("Tip each object square to the ground under it, keeping its turn")
                .clicked()
            {
                out.push(Intent::Command(Command::AlignSelectionToGround));
            }
            if ui.button("Delete").on_hover_text("Delete key").clicked() {
                out.push(Intent::Command(Command::DeleteSelection));
            }
            if ui.button("Select none").clicked() {
                out.push(Intent::Command(Command::ClearSelection));
            }
        });
        let mut local = place.local_axes;
        if ui
            .checkbox(&mut local, "Gizmo on the object's own axes")
            .changed()
        {
            out.push(Intent::SetPlaceOptions(PlaceOptions {
                local_axes: local,
                ..place.clone()
            }));
        }
        ui.small(
            "Drag a selected object, or the gizmo's arrows, ring and square. G move, R turn, T scale (X/Y/Z lock an axis); \
             Ctrl+C, Ctrl+V at the cursor, Ctrl+D duplicate; Delete.",
        );
    }
    out
}

/// The placing options: the model the asset browser chose, whether clicks place it, random
/// turn, tilt and scale. Returns the options when one changed.
fn place_options(ui: &mut egui::Ui, place: &PlaceOptions) -> Option<PlaceOptions> {
    let mut p = place.clone();
    // The path typed so far lives in egui's memory; Enter makes it the model to place.
    let id = egui::Id::unique("loam-place-path");
    let mut typed: String = ui
        .data(|d| d.get_temp::<String>(id))
        .unwrap_or_else(|| place.model.clone().unwrap_or_default());
    let resp = ui
        .horizontal(|ui| {
            labelled(
                ui,
                "Place",
                egui::TextEdit::singleline(&mut typed).hint_text("pick in Assets, or type a path"),
            )
        })
        .inner;
    if resp.changed() {
        ui.data_mut(|d| d.insert_temp(id, typed.clone()));
    }
    if resp.lost_focus() && !typed.trim().is_empty() && Some(typed.trim()) != place.model.as_deref()
    {
        p.model = Some(typed.trim().to_string());
        p.active = true;
        ui.data_mut(|d| d.remove::<String>(id));
    }
    let model = p.model.clone()?;
    ui.checkbox(&mut p.active, "Click places (else: selects)");
    ui.checkbox(&mut p.random_turn, "Random turn about up");
    ui.add(egui::Slider::new(&mut p.random_tilt, 0.0..=30.0).text("Random tilt (°)"));
    if !model.to_ascii_lowercase().ends_with(".wmo") {
        ui.horizontal(|ui| {
            for (text, value) in [("Scale from", &mut p.scale.0), ("to", &mut p.scale.1)] {
                labelled(
                    ui,
                    text,
                    DragValue::new(value).speed(0.01).range(0.01..=63.0),
                );
            }
        });
    }
    (p != *place).then_some(p)
}

/// The record's editable fields. The value being typed or dragged lives in egui's memory until
/// the field is left or the drag ends; then the whole record is returned, once.
fn record_fields(ui: &mut egui::Ui, record: &ObjectRecord) -> Option<ObjectRecord> {
    let id = egui::Id::unique(("loam-object-edit", record.kind, record.unique_id));
    let mut r: ObjectRecord = ui
        .data(|d| d.get_temp::<ObjectRecord>(id))
        .unwrap_or_else(|| record.clone());
    let mut changed = false;
    let mut done = false;
    let mut field =
        |ui: &mut egui::Ui, name: &str, value: &mut f64, speed: f64, decimals: usize| {
            ui.horizontal(|ui| {
                let resp = labelled(
                    ui,
                    name,
                    DragValue::new(value).speed(speed).max_decimals(decimals),
                );
                changed |= resp.changed();
                done |= resp.drag_stopped() || resp.lost_focus();
            });
        };
    ui.label("Position (yards)");
    let [mut x, mut y, mut z] = r.position;
    field(ui, "X (north)", &mut x, 0.1, 3);
    field(ui, "Y (west)", &mut y, 0.1, 3);
    field(ui, "Z (up)", &mut z, 0.1, 3);
    r.position = [x, y, z];
    ui.label("Rotation (degrees, as the record stores it)");
    let [mut a, mut b, mut c] = r.rotation.map(f64::from);
    field(ui, "A (about west)", &mut a, 0.5, 3);
    field(ui, "B (about up)", &mut b, 0.5, 3);
    field(ui, "C (about north)", &mut c, 0.5, 3);
    r.rotation = [a as f32, b as f32, c as f32];
    match r.kind {
        ObjectKind::Doodad => {
            let mut s = doodad_scale_factor(r.scale);
            field(ui, "Scale", &mut s, 0.01, 3);
            r.scale = doodad_scale_record(s);
        }
        ObjectKind::Wmo => {
            ui.label("Scale: 1 (WMOs have no scale before Legion)");
            let mut set = f64::from(r.doodad_set);
            field(ui, "Doodad set", &mut set, 0.05, 0);
            r.doodad_set = set.round().clamp(0.0, 65535.0) as u16;
            let mut names = f64::from(r.name_set);
            field(ui, "Name set", &mut names, 0.05, 0);
            r.name_set = names.round().clamp(0.0, 65535.0) as u16;
        }
    }
    let mut flags = f64::from(r.flags);
    field(ui, "Flags", &mut flags, 0.05, 0);
    r.flags = flags.round().clamp(0.0, 65535.0) as u16;
    if changed {
        ui.data_mut(|d| d.insert_temp(id, r.clone()));
    }
    if done {
        ui.data_mut(|d| d.remove::<ObjectRecord>(id));
        return (r != *record).then_some(r);
    }
    None
}
