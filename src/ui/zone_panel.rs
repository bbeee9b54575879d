//! The Lights and Area triggers tools' panels: the map's lights or triggers to pick from, the
//! buttons that add, copy and delete, the chosen one's place and size, and (lights) the keys of
//! one band of its clear-weather colours over the day, each with its time and a colour picker.
//! It shows plain data and returns intents; a dragged value or a picked colour is one undo
//! step when the mouse is let go.

use egui::{ComboBox, DragValue};

use crate::assets::client::{AreaTrigger, COLOUR_BAND_NAMES, FLOAT_BAND_NAMES, TriggerShape};
use crate::command::{Intent, ZoneIntent};
use crate::doc::zone::LightChange;

/// Half-minutes in a day: a band key's time runs 0 – 2879.
const DAY: u32 = 2880;

/// What the panels show.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ZoneView {
    /// Why the tool cannot edit (no client, tables it cannot read); `None` when it can.
    pub unavailable: Option<String>,
    /// The map's placed lights: id, centre (world), inner and outer radius (yards).
    pub lights: Vec<(u32, [f64; 3], f32, f32)>,
    /// The map's area triggers.
    pub triggers: Vec<AreaTrigger>,
    /// True when the client's AreaTrigger.dbc holds boxes.
    pub holds_boxes: bool,
    /// The chosen light or trigger.
    pub selected: Option<u32>,
    /// The chosen light's parameter set ids.
    pub sets: Vec<u32>,
    /// The band shown: the colour bands by index, then the float bands.
    pub band: usize,
    /// The chosen light's keys of that band: time in half-minutes, value (`0x00RRGGBB`, or a
    /// float's bits).
    pub keys: Vec<(u32, u32)>,
    /// View ▸ Time of day now, in half-minutes: where Add key puts a key.
    pub now: u32,
}

/// The name of band `band` (colour bands first).
pub fn band_name(band: usize) -> &'static str {
    COLOUR_BAND_NAMES
        .get(band)
        .or_else(|| FLOAT_BAND_NAMES.get(band - COLOUR_BAND_NAMES.len()))
        .copied()
        .unwrap_or("?")
}

/// `HH:MM` for a time in half-minutes.
fn clock(half_minutes: u32) -> String {
    let m = half_minutes / 2;
    format!("{:02}:{:02}", m / 60, m % 60)
}

/// `widget` after a label `name` that names it for screen readers (and tests).
fn named(ui: &mut egui::Ui, name: &str, widget: impl egui::Widget) -> egui::Response {
    let label = ui.label(name);
    ui.add(widget).labelled_by(label.id)
}

/// The list of what can be chosen, the chosen one highlighted.
fn pick_list(ui: &mut egui::Ui, items: &[(u32, String)], selected: Option<u32>) -> Option<u32> {
    let mut chosen = None;
    egui::ScrollArea::vertical()
        .id_salt("zone-list")
        .max_height(140.0)
        .show(ui, |ui| {
            for (id, text) in items {
                if ui.selectable_label(selected == Some(*id), text).clicked() {
                    chosen = Some(*id);
                }
            }
        });
    chosen
}

/// The add, copy and delete buttons.
fn buttons(ui: &mut egui::Ui, what: &str, view: &ZoneView, out: &mut Vec<Intent>) {
    ui.horizontal(|ui| {
        let like = if what == "light" { view.selected } else { None };
        if ui
            .button(format!("Add {what}"))
            .on_hover_text("At the ground the view looks at (or Ctrl+click the ground)")
            .clicked()
        {
            out.push(Intent::Zone(ZoneIntent::Add { at: None, like }));
        }
        ui.add_enabled_ui(view.selected.is_some(), |ui| {
            if ui.button("Copy").clicked() {
                out.push(Intent::Zone(ZoneIntent::Copy));
            }
            if ui.button("Delete").clicked() {
                out.push(Intent::Zone(ZoneIntent::Delete));
            }
        });
    });
}

/// A centre's three fields; true when one changed.
fn centre_fields(ui: &mut egui::Ui, centre: &mut [f64; 3]) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        for (v, name) in centre.iter_mut().zip(["x", "y", "z"]) {
            changed |= named(ui, name, DragValue::new(v).speed(0.5).max_decimals(1)).changed();
        }
    });
    changed
}

/// The Lights tool's panel.
pub fn show_lights(ui: &mut egui::Ui, view: &ZoneView) -> Vec<Intent> {
    let mut out = Vec::new();
    if let Some(why) = &view.unavailable {
        ui.label(why);
        return out;
    }
    ui.label(format!(
        "{} light(s). Click one in the view to choose it, drag its arrows to move it, \
         Ctrl+click the ground to add one.",
        view.lights.len()
    ));
    let items: Vec<(u32, String)> = (view.lights.iter())
        .map(|(id, c, _, outer)| {
            (
                *id,
                format!("light {id}  ({:.0}, {:.0})  {outer:.0} yd", c[0], c[1]),
            )
        })
        .collect();
    if let Some(id) = pick_list(ui, &items, view.selected) {
        out.push(Intent::Zone(ZoneIntent::Select(Some(id))));
    }
    buttons(ui, "light", view, &mut out);
    let Some(&(id, centre, inner, outer)) = view
        .selected
        .and_then(|s| view.lights.iter().find(|l| l.0 == s))
    else {
        return out;
    };
    ui.separator();
    ui.strong(format!("Light {id}"));
    let (mut c, mut i, mut o) = (centre, inner, outer);
    let mut changed = centre_fields(ui, &mut c);
    ui.horizontal(|ui| {
        changed |= named(
            ui,
            "Inner",
            DragValue::new(&mut i).speed(0.5).range(0.0..=o),
        )
        .changed();
        let outer = DragValue::new(&mut o)
            .speed(0.5)
            .range(i.max(0.1)..=20_000.0);
        changed |= named(ui, "Outer", outer).changed();
        ui.label("yd");
    });
    if changed {
        out.push(Intent::Zone(ZoneIntent::Light(LightChange::Place {
            centre: c,
            inner: i,
            outer: o,
        })));
    }
    ui.label(format!(
        "Parameter sets: {}",
        (view.sets.iter().map(u32::to_string))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    band_keys(ui, view, &mut out);
    out
}

/// The chosen band's keys: time, colour (or value), remove; and Add key.
fn band_keys(ui: &mut egui::Ui, view: &ZoneView, out: &mut Vec<Intent>) {
    let mut band = view.band;
    ComboBox::from_label("Band (clear weather)")
        .selected_text(band_name(band))
        .show_ui(ui, |ui| {
            for b in 0..COLOUR_BAND_NAMES.len() + FLOAT_BAND_NAMES.len() {
                ui.selectable_value(&mut band, b, band_name(b));
            }
        });
    if band != view.band {
        out.push(Intent::Zone(ZoneIntent::Band(band)));
    }
    let colour = view.band < COLOUR_BAND_NAMES.len();
    let mut keys = view.keys.clone();
    let mut changed = false;
    let mut remove = None;
    for (k, (time, value)) in keys.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            let mut minutes = *time / 2;
            let r = named(
                ui,
                &format!("Key {}", k + 1),
                DragValue::new(&mut minutes)
                    .range(0..=(DAY / 2 - 1))
                    .custom_formatter(|m, _| format!("{:02}:{:02}", m as u32 / 60, m as u32 % 60))
                    .custom_parser(|s| {
                        let (h, m) = s.split_once(':')?;
                        Some(f64::from(
                            h.trim().parse::<u32>().ok()? * 60 + m.trim().parse::<u32>().ok()?,
                        ))
                    }),
            );
            if r.changed() {
                *time = minutes * 2;
                changed = true;
            }
            if colour {
                let mut rgb = [(*value >> 16) as u8, (*value >> 8) as u8, *value as u8];
                let picked = ui.color_edit_button_srgb(&mut rgb);
                let picked = picked.on_hover_text(format!("Key {} colour", k + 1));
                if picked.changed() {
                    *value = u32::from(rgb[0]) << 16 | u32::from(rgb[1]) << 8 | u32::from(rgb[2]);
                    changed = true;
                }
                ui.monospace(format!("#{:06X}", *value & 0xFF_FFFF));
            } else {
                let mut v = f32::from_bits(*value);
                if named(ui, "value", DragValue::new(&mut v).speed(1.0)).changed() {
                    *value = v.to_bits();
                    changed = true;
                }
            }
            if keys_len_above_one(&view.keys)
                && ui
                    .small_button("Remove")
                    .on_hover_text("Remove this key")
                    .clicked()
            {
                remove = Some(k);
            }
        });
    }
    if let Some(k) = remove {
        keys.remove(k);
        changed = true;
    }
    let now_taken = keys.iter().any(|(t, _)| *t == view.now);
    if ui
        .add_enabled(
            !now_taken && keys.len() < crate::assets::client::MAX_BAND_KEYS,
            egui::Button::new(format!("Add key at {}", clock(view.now))),
        )
        .on_hover_text("At View ▸ Time of day's time, with the band's value then")
        .clicked()
    {
        let value = keys
            .iter()
            .rfind(|(t, _)| *t <= view.now)
            .or(keys.last())
            .map_or(0, |(_, v)| *v);
        keys.push((view.now, value));
        changed = true;
    }
    let mut times: Vec<u32> = keys.iter().map(|(t, _)| *t).collect();
    times.sort_unstable();
    times.dedup();
    // Two keys at one time are refused (the client's bands hold one value a time): the drag
    // that would make them is not sent.
    if changed && times.len() == keys.len() {
        keys.sort_by_key(|(t, _)| *t);
        let change = if colour {
            LightChange::Colours {
                band: view.band,
                keys,
            }
        } else {
            LightChange::Floats {
                band: view.band - COLOUR_BAND_NAMES.len(),
                keys: keys.iter().map(|(t, v)| (*t, f32::from_bits(*v))).collect(),
            }
        };
        out.push(Intent::Zone(ZoneIntent::Light(change)));
    }
}

/// True when a band has more than one key (its last key is not removed: a band with none
/// gives the client nothing to draw).
fn keys_len_above_one(keys: &[(u32, u32)]) -> bool {
    keys.len() > 1
}

/// The Area triggers tool's panel.
pub fn show_triggers(ui: &mut egui::Ui, view: &ZoneView) -> Vec<Intent> {
    let mut out = Vec::new();
    if let Some(why) = &view.unavailable {
        ui.label(why);
        return out;
    }
    ui.label(format!(
        "{} trigger(s). Click one in the view to choose it, drag its arrows to move it (its \
         ring turns a box), Ctrl+click the ground to add one.",
        view.triggers.len()
    ));
    let items: Vec<(u32, String)> = (view.triggers.iter())
        .map(|t| {
            let shape = match t.shape {
                TriggerShape::Sphere { radius } => format!("sphere {radius:.0} yd"),
                TriggerShape::Box { .. } => "box".to_string(),
            };
            (
                t.id,
                format!(
                    "trigger {}  ({:.0}, {:.0})  {shape}",
                    t.id, t.at[0], t.at[1]
                ),
            )
        })
        .collect();
    if let Some(id) = pick_list(ui, &items, view.selected) {
        out.push(Intent::Zone(ZoneIntent::Select(Some(id))));
    }
    buttons(ui, "trigger", view, &mut out);
    let Some(t) = view
        .selected
        .and_then(|s| view.triggers.iter().find(|t| t.id == s))
    else {
        return out;
    };
    ui.separator();
    ui.strong(format!("Trigger {}", t.id));
    let mut t = *t;
    let mut centre = t.at.map(f64::from);
    let mut changed = centre_fields(ui, &mut centre);
    t.at = centre.map(|v| v as f32);
    let mut is_box = matches!(t.shape, TriggerShape::Box { .. });
    ui.horizontal(|ui| {
        changed |= ui.radio_value(&mut is_box, false, "Sphere").changed();
        ui.add_enabled_ui(view.holds_boxes, |ui| {
            changed |= ui.radio_value(&mut is_box, true, "Box").changed();
        });
    });
    t.shape = match (t.shape, is_box) {
        (TriggerShape::Sphere { radius }, true) => TriggerShape::Box {
            length: radius * 2.0,
            width: radius * 2.0,
            height: radius * 2.0,
            yaw: 0.0,
        },
        (TriggerShape::Box { length, width, .. }, false) => TriggerShape::Sphere {
            radius: length.max(width) / 2.0,
        },
        (shape, _) => shape,
    };
    match &mut t.shape {
        TriggerShape::Sphere { radius } => {
            ui.horizontal(|ui| {
                let field = DragValue::new(radius).speed(0.2).range(0.1..=5000.0);
                changed |= named(ui, "Radius (yd)", field).changed();
            });
        }
        TriggerShape::Box {
            length,
            width,
            height,
            yaw,
        } => {
            ui.horizontal(|ui| {
                for (v, name) in [(length, "Length"), (width, "Width"), (height, "Height")] {
                    let field = DragValue::new(v).speed(0.2).range(0.1..=5000.0);
                    changed |= named(ui, name, field).changed();
                }
            });
            let mut degrees = yaw.to_degrees();
            ui.horizontal(|ui| {
                let field = DragValue::new(&mut degrees)
                    .speed(1.0)
                    .range(-360.0..=360.0);
                if named(ui, "Yaw (°)", field).changed() {
                    *yaw = degrees.to_radians();
                    changed = true;
                }
            });
        }
    }
    if changed {
        out.push(Intent::Zone(ZoneIntent::Trigger(t)));
    }
    out
}
