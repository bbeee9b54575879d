//! The view's light and horizon as a component: the open map's lights, found once per map and
//! client (`doc::light::ZoneLights`, the default light without them), the clock run on while
//! it plays, the frame's [`SceneLight`] at the eye, and the horizon's mesh (`doc::horizon`),
//! built again when the tiles the terrain draws change.
//!
//! Not for: the blending rules (`doc::light`) or drawing (`render`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::Intent;
use crate::doc::horizon::{horizon_tiles, read_wdl};
use crate::doc::light::{SceneLight, ZoneLights};
use crate::format::wdl::Wdl;
use crate::model::TileCoord;
use crate::render::horizon_mesh::HorizonMesh;

/// Where the fog starts (yards) with View ▸ Fog off: beyond the horizon's far plane.
const NO_FOG: f32 = 1.0e6;

/// Which map and client the cached WDL belongs to.
type LightsKey = (Option<PathBuf>, Option<String>);

/// The open map's lights and WDL, cached, and what the horizon was last built for.
#[derive(Debug, Default)]
pub struct Daylight {
    /// The lights, and the map, client and table revision they were found for (the Light
    /// tool's edits change the tables the map holds).
    lights: Option<((LightsKey, u64), ZoneLights)>,
    wdl: Option<(LightsKey, Option<Wdl>)>,
    horizon_for: Option<(LightsKey, BTreeSet<TileCoord>, bool)>,
}

impl Daylight {
    /// The map's lights: the tables the map holds (as the Light tool edits them), else the
    /// client's, for the map's Map.dbc id (found by its folder name, as the Area tool's
    /// picker finds it); else the default light.
    fn lights(&mut self, cx: &AppCtx) -> &ZoneLights {
        let client = cx.doc.client.as_ref();
        let session = cx.doc.session.as_ref();
        let map = session.map(|s| s.map.name.clone());
        let revision = session.map_or(0, |s| s.map.client_tables.revision());
        let key = ((client.map(|c| c.dir.clone()), map.clone()), revision);
        if self.lights.as_ref().is_some_and(|(k, _)| *k != key) {
            self.lights = None;
        }
        let found = || {
            let from_client = client.and_then(|c| {
                let id = c.map_id(map.as_deref()?)?;
                let held = (c.opened.as_ref().ok())
                    .zip(session)
                    .and_then(|(d, s)| crate::doc::zone::held_lights(&s.map, d));
                if let Some(tables) = held {
                    return ZoneLights::from_tables(&tables, id);
                }
                let tables = c.lights.as_ref().ok()?.as_ref()?;
                ZoneLights::from_tables(tables, id)
            });
            (key, from_client.unwrap_or_else(ZoneLights::default_day))
        };
        &self.lights.get_or_insert_with(found).1
    }

    /// The sky box model to draw around the camera, with its light's weight there
    /// (`ZoneLights::skybox_at`).
    pub fn skybox(&mut self, cx: &AppCtx) -> Option<(String, f32)> {
        let eye = cx.view.camera.position;
        let underwater = cx.doc.session.as_ref().is_some_and(|s| {
            crate::edit::terrain::liquid::surface_at(&s.map, eye[0], eye[1])
                .is_some_and(|(h, _)| eye[2] < f64::from(h))
        });
        (self.lights(cx).skybox_at(eye, underwater)).map(|(name, w)| (name.to_string(), w))
    }

    /// The light at the camera at the view's time of day; the underwater set when the eye is
    /// below a liquid surface of a loaded tile.
    pub fn scene_light(&mut self, cx: &AppCtx) -> SceneLight {
        let eye = cx.view.camera.position;
        let underwater = cx.doc.session.as_ref().is_some_and(|s| {
            crate::edit::terrain::liquid::surface_at(&s.map, eye[0], eye[1])
                .is_some_and(|(h, _)| eye[2] < f64::from(h))
        });
        let time = cx.settings.time_of_day.time();
        let mut light = self.lights(cx).at(eye, time, underwater);
        if !cx.settings.view.fog {
            // View ▸ Fog off: the fog starts beyond anything drawn (the horizon reaches
            // 50,000 yards), so nothing fades.
            light.fog_range = [NO_FOG, NO_FOG + 1.0];
        }
        light
    }
}

impl Daylight {
    /// Builds the horizon again when the map, the client or the tiles the terrain draws
    /// changed: the WDL (read once per map) with the tiles in memory as they are now.
    fn update_horizon(&mut self, cx: &AppCtx) {
        let Some(session) = cx.doc.session.as_ref() else {
            return;
        };
        let client = cx.doc.client.as_ref();
        let key = (
            client.map(|c| c.dir.clone()),
            Some(session.map.name.clone()),
        );
        let drawn = cx.gl.lock().uploaded.clone();
        let shown = cx.settings.view.horizon;
        let wanted = (key.clone(), drawn, shown);
        if self.horizon_for.as_ref() == Some(&wanted) {
            return;
        }
        if self.wdl.as_ref().is_none_or(|(k, _)| *k != key) {
            self.wdl = Some((key, read_wdl(session, client)));
        }
        let wdl = self.wdl.as_ref().and_then(|(_, w)| w.as_ref());
        // The tiles the terrain draws are left out of the mesh (the renderer skips them in
        // the frames before the next rebuild), so the horizon costs nothing where the
        // terrain is.
        // View ▸ Horizon off: an empty mesh, so nothing is drawn and the sky fills the view.
        let tiles = if shown {
            horizon_tiles(wdl, session)
        } else {
            Default::default()
        };
        let mesh = HorizonMesh::build(&tiles, &wanted.1);
        cx.gl.lock().queue_horizon(mesh);
        self.horizon_for = Some(wanted);
    }
}

impl Component for Daylight {
    fn handle(&mut self, intent: Intent, _cx: &mut AppCtx) -> Option<Intent> {
        Some(intent)
    }

    fn poll(&mut self, cx: &mut AppCtx) -> Vec<Intent> {
        self.update_horizon(cx);
        let dt = cx.egui.input(|i| i.stable_dt);
        if cx.settings.time_of_day.advance(dt) {
            cx.egui.request_repaint();
        }
        Vec::new()
    }
}
