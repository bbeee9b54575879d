//! The View and Settings menus' setters as a component: grids, tints and liquids shown, which
//! objects are drawn, the fly speed, the autosave interval, the left panel's page, and the
//! tile map's Go to tile.
//!
//! Not for: the settings' storage (`app::settings`) or the camera's moves (`app::view`,
//! `app::scene::camera_control`).

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::app::view::go_to_tile;
use crate::command::Intent;

/// The view's setters (the values are the context's settings).
#[derive(Debug, Default)]
pub struct ViewSettings;

impl Component for ViewSettings {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        let view = &mut cx.settings.view;
        match intent {
            Intent::GoToTile(t) => go_to_tile(&mut cx.view, cx.doc.session.as_ref(), t),
            Intent::ShowChunkGrid(v) => view.chunk_grid = v,
            Intent::ShowTileGrid(v) => view.tile_grid = v,
            Intent::ShowLayerCount(v) => view.layer_count = v,
            Intent::ShowAreas(v) => view.area_overlay = v,
            Intent::ShowGroundEffects(v) => view.effects_overlay = v,
            Intent::ShowLiquids(v) => view.liquids = v,
            Intent::ShowLights(v) => view.lights = v,
            Intent::ShowAreaTriggers(v) => view.area_triggers = v,
            Intent::ShowFog(v) => view.fog = v,
            Intent::ShowHorizon(v) => view.horizon = v,
            Intent::SetObjectFilter(f) => cx.settings.objects = f,
            Intent::AutosaveSecs(v) => cx.settings.autosave_secs = v,
            Intent::MeasurePasses => {
                cx.gl.lock().want_gpu_times();
                // The queries' results come a frame or two later: keep drawing while the
                // breakdown shows, even over a still scene.
                cx.egui.request_repaint();
            }
            Intent::CameraSpeed(v) => cx.settings.input.camera_speed = v,
            Intent::SetTimeOfDay(t) => cx.settings.time_of_day = t,
            Intent::ShowLeftPanel(p) => cx.settings.left_panel = p,
            Intent::PenPressure(v) => cx.settings.input.pen_pressure = v,
            other => return Some(other),
        }
        None
    }
}
