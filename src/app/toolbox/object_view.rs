//! The app's side of showing objects: feeding the object scene each frame, the status line,
//! and which object is under the cursor.
//!
//! Not for: the scene itself (`app::scene::object_scene`) or placing objects (a tool of its own).

use glam::Vec3;

use crate::app::context::AppCtx;
use crate::app::scene::gl_bridge::SharedGl;
use crate::app::scene::object_scene::ObjectScene;
use crate::doc::session::Session;
use crate::render::camera::Camera;
use crate::render::pick::TerrainPoint;
use crate::render::scene::ObjectFilter;
use crate::ui::viewport::ViewportInput;

/// Collects the loaded tiles' objects, takes in the models read and sends them to the GPU.
/// True when nothing asked for is still being read or waiting for the GPU.
pub(in crate::app) fn stream_objects(
    objects: &mut ObjectScene,
    session: Option<&Session>,
    gl: &SharedGl,
) -> bool {
    let Some(s) = session else {
        return true;
    };
    // Without GL (kittest) the scene still reads models, so that objects can be picked.
    let mut gl = gl.lock();
    objects.sync_map(&s.map);
    objects.poll(&mut gl);
    // Only a drawn view waits for its models (a screenshot); without GL nothing is drawn.
    !gl.has_renderer() || (objects.is_settled() && gl.pending_models() == 0)
}

/// What the cursor is aimed at: the camera, the terrain point under the cursor and which
/// kinds of objects are shown.
pub(in crate::app) struct Aim<'a> {
    pub camera: &'a Camera,
    pub hover: Option<&'a TerrainPoint>,
    pub filter: &'a ObjectFilter,
}

/// The object under the cursor (the scene's index) as `cx`'s view stands, unless the terrain
/// in front hides it.
pub(in crate::app) fn under_cursor(cx: &AppCtx, input: &ViewportInput) -> Option<usize> {
    let aim = Aim {
        camera: &cx.view.camera,
        hover: cx.view.hover.as_ref(),
        filter: &cx.settings.objects,
    };
    object_index_under(&cx.streams.objects, &aim, input)
}

/// The object under the cursor (the scene's index), unless the terrain in front hides it.
pub(in crate::app) fn object_index_under(
    objects: &ObjectScene,
    aim: &Aim,
    input: &ViewportInput,
) -> Option<usize> {
    let ndc = input.hover_ndc?;
    let (origin, dir) = aim.camera.ray(ndc, input.aspect());
    let (index, t) = objects.pick(origin, dir, aim.filter)?;
    if let Some(h) = aim.hover {
        let ground = Vec3::new(h.world[0] as f32, h.world[1] as f32, h.world[2] as f32);
        // A yard of slack: objects stand on the ground they are placed on.
        if t > (ground - origin).length() + 1.0 {
            return None;
        }
    }
    Some(index)
}

/// The status bar's object line: objects of the loaded tiles, instances drawn, draw calls,
/// and models without a real one.
pub(in crate::app) fn object_status(
    objects: &ObjectScene,
    session: Option<&Session>,
    gl: &SharedGl,
) -> Option<String> {
    session?;
    let (doodads, wmos) = objects.counts();
    let stats = gl.lock().object_stats;
    let mut line = format!(
        "objects {doodads} doodads + {wmos} WMOs: {} drawn, {} boxes, {} draw calls",
        stats.instances, stats.boxes, stats.draw_calls
    );
    if let Some(s) = objects.status() {
        line.push_str("; ");
        line.push_str(&s);
    }
    Some(line)
}
