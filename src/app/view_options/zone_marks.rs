//! View ▸ Lights and View ▸ Area triggers: the open map's zone lights (Light.dbc) drawn as their
//! inner and outer spheres, the ones the camera is inside highlighted, and its area triggers
//! (AreaTrigger.dbc) as their spheres and boxes, each labelled with its row id (the id
//! `loam light edit` and `loam trigger remove` take).
//!
//! The rows are those the map holds when the Light or Triggers tool read them (edits show at
//! once), else the client's, read once per map and client; the global light has no place and
//! is not drawn. The two tools show theirs whatever the View menu says.
//!
//! Not for: choosing the light the view is drawn with (`view_options::daylight`, `doc::light`)
//! or editing the rows (`loam light`, `loam trigger`).

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::assets::client::{AreaTrigger, TriggerShape};
use crate::command::Intent;
use crate::doc::zone::{held_lights, held_triggers};
use crate::edit::tools::Tool;
use crate::model::coords::{LIGHT_UNITS_PER_YARD, light_to_world};
use crate::render::marks::{Marks, Rgba};

/// A light's place and reach in the world: id, centre, inner and outer radius (yards).
pub type LightSphere = (u32, [f64; 3], f64, f64);

/// Which map, client and revision of the tables the map holds the cached rows belong to.
type Key = (Option<std::path::PathBuf>, Option<String>, u64);

/// The open map's lights and triggers, cached per map and client.
#[derive(Debug, Default)]
pub struct ZoneMarks {
    rows: Option<(Key, Vec<LightSphere>, Vec<AreaTrigger>)>,
}

const OUTER: Rgba = [255, 220, 120, 150];
const INNER: Rgba = [255, 170, 40, 220];
const CURRENT: Rgba = [255, 255, 255, 255];
const SPHERE_TRIGGER: Rgba = [80, 220, 255, 230];
const BOX_TRIGGER: Rgba = [240, 90, 240, 230];

impl ZoneMarks {
    /// The map's lights and triggers: the tables the map holds (as the Light and Triggers
    /// tools edit them), else `cx`'s client's (none without one).
    fn rows(&mut self, cx: &AppCtx) -> (&[LightSphere], &[AreaTrigger]) {
        let client = cx.doc.client.as_ref();
        let session = cx.doc.session.as_ref();
        let map = session.map(|s| s.map.name.clone());
        let revision = session.map_or(0, |s| s.map.client_tables.revision());
        let key = (client.map(|c| c.dir.clone()), map.clone(), revision);
        if self.rows.as_ref().is_some_and(|(k, ..)| *k != key) {
            self.rows = None;
        }
        let (_, lights, triggers) = self.rows.get_or_insert_with(|| {
            let id = client.and_then(|c| c.map_id(map.as_deref()?));
            let data = client.and_then(|c| c.opened.as_ref().ok());
            let held = session.zip(data).and_then(|(s, d)| held_lights(&s.map, d));
            let lights = client
                .zip(id)
                .and_then(|(c, id)| {
                    if let Some(t) = &held {
                        return Some(map_lights(&t.lights, id));
                    }
                    let tables = c.lights.as_ref().ok()?.as_ref()?;
                    Some(map_lights(&tables.lights, id))
                })
                .unwrap_or_default();
            let held = session.and_then(|s| held_triggers(&s.map));
            let triggers = client
                .zip(id)
                .map(|(c, id)| match &held {
                    Some(rows) => rows
                        .triggers()
                        .into_iter()
                        .filter(|t| t.map == id)
                        .collect(),
                    None => c.triggers.iter().filter(|t| t.map == id).copied().collect(),
                })
                .unwrap_or_default();
            (key, lights, triggers)
        });
        (lights, triggers)
    }
}

/// The placed lights of map `map` among `rows`.
pub fn map_lights(rows: &[crate::assets::client::LightRow], map: u32) -> Vec<LightSphere> {
    let yards = |v: f32| f64::from(v) / LIGHT_UNITS_PER_YARD;
    rows.iter()
        .filter(|l| l.map == map && l.coords != [0.0; 3])
        .map(|l| {
            let centre = light_to_world(l.coords);
            (l.id, centre, yards(l.falloff_start), yards(l.falloff_end))
        })
        .collect()
}

/// The lights' marks seen through `vp` from `eye`: each outer and inner sphere, those holding
/// the eye in white.
pub fn light_marks(lights: &[LightSphere], eye: [f64; 3], vp: glam::Mat4) -> Marks {
    let mut m = Marks::default();
    for &(id, centre, inner, outer) in lights {
        let d = (0..3)
            .map(|k| (eye[k] - centre[k]).powi(2))
            .sum::<f64>()
            .sqrt();
        let current = d < outer;
        let (w, outer_colour, inner_colour) = if current {
            (2.5, CURRENT, CURRENT)
        } else {
            (1.5, OUTER, INNER)
        };
        m.sphere(vp, centre, outer, w, outer_colour);
        if inner > 0.0 {
            m.sphere(vp, centre, inner, w, inner_colour);
        }
        m.dot(vp, centre, 4.0, inner_colour);
        m.label(vp, centre, format!(" light {id}"), inner_colour);
    }
    m
}

/// The triggers' marks seen through `vp`: spheres in cyan, boxes in magenta.
pub fn trigger_marks(triggers: &[AreaTrigger], vp: glam::Mat4) -> Marks {
    let mut m = Marks::default();
    for t in triggers {
        let at = t.at.map(f64::from);
        let colour = match t.shape {
            TriggerShape::Sphere { radius } => {
                m.sphere(vp, at, f64::from(radius), 2.0, SPHERE_TRIGGER);
                SPHERE_TRIGGER
            }
            TriggerShape::Box {
                length,
                width,
                height,
                yaw,
            } => {
                let size = [length, width, height].map(f64::from);
                m.oriented_box(vp, at, size, f64::from(yaw), 2.0, BOX_TRIGGER);
                BOX_TRIGGER
            }
        };
        m.dot(vp, at, 4.0, colour);
        m.label(vp, at, format!(" trigger {}", t.id), colour);
    }
    m
}

impl Component for ZoneMarks {
    fn handle(&mut self, intent: Intent, _cx: &mut AppCtx) -> Option<Intent> {
        Some(intent)
    }

    fn over_view(&mut self, ui: &mut egui::Ui, view: egui::Rect, cx: &mut AppCtx) -> Vec<Intent> {
        // The Lights and Area triggers tools show theirs whatever the View menu says.
        let tool = cx.doc.editing.settings.tool;
        let show_lights = cx.settings.view.lights || tool == Tool::Lights;
        let show_triggers = cx.settings.view.area_triggers || tool == Tool::Triggers;
        if !(show_lights || show_triggers) || cx.doc.session.is_none() {
            return Vec::new();
        }
        let aspect = view.width() / view.height().max(1.0);
        let vp = cx.view.camera.view_projection(aspect);
        let eye = cx.view.camera.position;
        let (lights, triggers) = self.rows(cx);
        if show_lights {
            crate::ui::marks::paint(ui.painter(), view, &light_marks(lights, eye, vp));
        }
        if show_triggers {
            crate::ui::marks::paint(ui.painter(), view, &trigger_marks(triggers, vp));
        }
        Vec::new()
    }

    fn opened(&mut self, _cx: &mut AppCtx) {
        self.rows = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_light_the_eye_is_in_is_drawn_white_and_the_others_in_their_colours() {
        let lights = [
            (7, [0.0, 0.0, 0.0], 10.0, 50.0),
            (8, [500.0, 0.0, 0.0], 10.0, 50.0),
        ];
        let m = light_marks(&lights, [20.0, 0.0, 0.0], glam::Mat4::IDENTITY);
        // Each light: three circles for each of its two spheres.
        assert_eq!(m.lines.len(), 12);
        assert!(m.lines[..6].iter().all(|l| l.2 == CURRENT));
        assert!(m.lines[6..].iter().all(|l| l.2 != CURRENT));
        let labels: Vec<&str> = m.labels.iter().map(|l| l.1.as_str()).collect();
        assert_eq!(labels, [" light 7", " light 8"]);
    }

    #[test]
    fn only_the_maps_placed_lights_are_drawn() {
        use crate::assets::client::LightRow;
        let row = |id, map, coords| LightRow {
            id,
            map,
            coords,
            falloff_start: 36.0,
            falloff_end: 72.0,
            params: vec![1],
        };
        let rows = [
            row(1, 5, [0.0; 3]),
            row(2, 5, [36.0, 36.0, 36.0]),
            row(3, 6, [36.0, 36.0, 36.0]),
        ];
        let got = map_lights(&rows, 5);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].0, got[0].2, got[0].3), (2, 1.0, 2.0));
        assert_eq!(got[0].1, light_to_world([36.0, 36.0, 36.0]));
    }
}
