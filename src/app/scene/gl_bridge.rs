//! The bridge between the app and the GL renderers: tiles, layer textures, models and model
//! textures waiting to be uploaded or dropped, the frame's object draw list, and the egui paint
//! callback that applies them and draws the terrain and objects inside the central panel.
//!
//! Not for: building meshes or choosing tiles (the app) or the GL code itself (`render`).

use std::collections::BTreeSet;
use std::sync::Arc;

use egui::mutex::Mutex;

use super::object_loader::PreparedModel;
use super::textures::Decoded;
use crate::assets::blp::Image;
use crate::model::TileCoord;
use crate::render::frame::FrameParams;
use crate::render::horizon::HorizonRenderer;
use crate::render::horizon_mesh::HorizonMesh;
use crate::render::liquid::LiquidRenderer;
use crate::render::mesh::TileMesh;
use crate::render::objects::{DrawStats, ObjectRenderer};
use crate::render::pass_timer::{Pass, PassTimer, PassTimes};
use crate::render::scene::{DrawList, ModelId};
use crate::render::sky::SkyRenderer;
use crate::render::terrain::TerrainRenderer;

/// Tiles, textures and models waiting for the next paint callback to reach the GPU, and
/// what it should forget first.
#[derive(Default)]
struct UploadQueue {
    pending: Vec<(TileMesh, Vec<String>)>,
    removals: Vec<TileCoord>,
    textures: Vec<Decoded>,
    clear_textures: bool,
    models: Vec<(ModelId, Arc<PreparedModel>)>,
    model_textures: Vec<(String, Image)>,
    clear_models: bool,
    horizon: Option<HorizonMesh>,
}

/// GL-side state shared with the paint callback (which runs on the painter, after `ui`).
#[derive(Default)]
pub struct GlState {
    /// The renderers, one a pass; none when GL could not start.
    passes: Passes,
    /// Each pass's GPU and CPU time (made with the renderers).
    timer: Option<PassTimer>,
    /// Why the renderer could not start, to show instead of the terrain.
    pub error: Option<String>,
    /// What waits for the next paint callback to reach the GPU.
    queue: UploadQueue,
    /// Tiles on the GPU, as of the last callback.
    pub uploaded: BTreeSet<TileCoord>,
    /// Frames drawn so far.
    pub frames_drawn: u64,
    /// The objects to draw in the next frame.
    pub draw_list: DrawList,
    /// What the last frame drew of the objects.
    pub object_stats: DrawStats,
    /// The texture path of each liquid kind (water, ocean, magma, slime), drawn once the
    /// texture worker has put it in the terrain's store.
    pub liquid_textures: [String; 4],
    /// Each kind's texture animation (`…\\lake_a.%d.blp`) when a client is open: its frames
    /// are asked for with the first, and drawn in turn as they arrive.
    pub liquid_patterns: Option<[String; 4]>,
    /// Seconds into the models' and liquids' animations that the next frame shows (the app's
    /// clock, `app::animation_clock`).
    pub anim_time: f64,
}

/// The renderer of each pass of a frame, all made together when GL starts.
#[derive(Default)]
struct Passes {
    terrain: Option<TerrainRenderer>,
    objects: Option<ObjectRenderer>,
    liquid: Option<LiquidRenderer>,
    sky: Option<SkyRenderer>,
    horizon: Option<HorizonRenderer>,
}

/// The shared handle.
pub type SharedGl = Arc<Mutex<GlState>>;

impl GlState {
    /// Creates the renderer on `gl`; on failure the viewport shows the error instead.
    pub fn new(gl: Option<&glow::Context>) -> SharedGl {
        let mut state = GlState::default();
        let renderers = |gl| {
            Ok::<_, String>((
                TerrainRenderer::new(gl)?,
                ObjectRenderer::new(gl)?,
                LiquidRenderer::new(gl)?,
                SkyRenderer::new(gl)?,
                HorizonRenderer::new(gl)?,
            ))
        };
        match gl.map(renderers) {
            Some(Ok((terrain, objects, liquid, sky, horizon))) => {
                state.passes.horizon = Some(horizon);
                state.passes.terrain = Some(terrain);
                state.passes.objects = Some(objects);
                state.passes.liquid = Some(liquid);
                state.passes.sky = Some(sky);
                state.timer = gl.map(PassTimer::new);
            }
            Some(Err(e)) => state.error = Some(e),
            None => state.error = Some("no OpenGL context (headless)".into()),
        }
        Arc::new(Mutex::new(state))
    }

    /// True when there is a renderer to draw with.
    pub fn has_renderer(&self) -> bool {
        self.passes.terrain.is_some()
    }

    /// Queues a tile to upload (replacing an older copy) with its texture list (game paths).
    pub fn queue_upload(&mut self, mesh: TileMesh, textures: Vec<String>) {
        self.queue.removals.retain(|c| *c != mesh.coord);
        self.queue.pending.retain(|(m, _)| m.coord != mesh.coord);
        self.queue.pending.push((mesh, textures));
    }

    /// Queues a tile to drop from the GPU.
    pub fn queue_removal(&mut self, coord: TileCoord) {
        self.queue.pending.retain(|(m, _)| m.coord != coord);
        self.queue.removals.push(coord);
    }

    /// Queues the horizon's mesh (replacing one not yet on the GPU).
    pub fn queue_horizon(&mut self, mesh: HorizonMesh) {
        if self.passes.terrain.is_some() {
            self.queue.horizon = Some(mesh);
        }
    }

    /// Queues a decoded layer texture for the store.
    pub fn queue_texture(&mut self, texture: Decoded) {
        self.queue.textures.push(texture);
    }

    /// Queues forgetting every layer texture (and so every tile: re-upload them after).
    pub fn queue_clear_textures(&mut self) {
        self.queue.textures.clear();
        self.queue.clear_textures = true;
    }

    /// Queues a model read by the workers for upload under `id`.
    pub fn queue_model(&mut self, id: ModelId, model: Arc<PreparedModel>) {
        // Without GL (kittest) nothing would take them off the queue.
        if self.passes.terrain.is_none() {
            return;
        }
        self.queue.models.push((id, model));
    }

    /// Queues a decoded model texture.
    pub fn queue_model_texture(&mut self, name: String, image: Image) {
        if self.passes.terrain.is_none() {
            return;
        }
        self.queue.model_textures.push((name, image));
    }

    /// Queues forgetting every model and model texture (a new map or byte source).
    pub fn queue_clear_models(&mut self) {
        self.queue.models.clear();
        self.queue.model_textures.clear();
        self.draw_list = DrawList::default();
        self.queue.clear_models = true;
    }

    /// Models and model textures queued but not yet on the GPU.
    pub fn pending_models(&self) -> usize {
        self.queue.models.len() + self.queue.model_textures.len()
    }

    /// Tiles queued but not yet on the GPU.
    pub fn pending_count(&self) -> usize {
        self.queue.pending.len()
    }

    /// Layer textures queued but not yet on the GPU.
    pub fn pending_textures(&self) -> usize {
        self.queue.textures.len()
    }

    /// Applies queued uploads and removals.
    pub fn sync(&mut self, gl: &glow::Context) {
        let Some(renderer) = self.passes.terrain.as_mut() else {
            self.queue.pending.clear();
            self.queue.removals.clear();
            self.queue.textures.clear();
            self.queue.models.clear();
            self.queue.model_textures.clear();
            return;
        };
        if std::mem::take(&mut self.queue.clear_textures) {
            renderer.clear_textures(gl);
        }
        for coord in self.queue.removals.drain(..) {
            renderer.remove(gl, coord);
            if let Some(l) = self.passes.liquid.as_mut() {
                l.remove(gl, coord);
            }
        }
        for (mesh, textures) in self.queue.pending.drain(..) {
            if let Err(e) = renderer.upload(gl, &mesh, &textures) {
                self.error = Some(e);
            }
            if let Some(l) = self.passes.liquid.as_mut()
                && let Err(e) = l.upload(gl, mesh.coord, &mesh.liquid)
            {
                self.error = Some(e);
            }
        }
        for t in self.queue.textures.drain(..) {
            if let Err(e) = renderer.set_texture(gl, &t.name, &t.levels) {
                self.error = Some(e);
            }
        }
        self.uploaded = renderer.tile_coords().into_iter().collect();
        if let Some(h) = self.passes.horizon.as_mut() {
            if let Some(mesh) = self.queue.horizon.take() {
                h.upload(gl, &mesh);
            }
            h.set_drawn(self.uploaded.iter().copied());
        }
        let Some(objects) = self.passes.objects.as_mut() else {
            return;
        };
        if std::mem::take(&mut self.queue.clear_models) {
            objects.clear(gl);
        }
        for (id, m) in self.queue.models.drain(..) {
            let uploaded = match &m.rig {
                Some(rig) => objects.upload_rigged(gl, id, &m.mesh, &m.lights, rig.clone()),
                None => objects.upload(gl, id, &m.mesh, &m.lights),
            };
            if let Err(e) = uploaded {
                self.error = Some(e);
            }
        }
        for (name, image) in self.queue.model_textures.drain(..) {
            if let Err(e) = objects.set_texture(gl, &name, image.width, image.height, &image.rgba) {
                self.error = Some(e);
            }
        }
    }

    /// Clears the callback's rectangle, draws the horizon and the sky around it, then the
    /// terrain, objects and liquids, each pass timed; then starts timing the overlays, which
    /// [`GlState::end_overlays`] ends once egui has drawn over the view.
    pub fn paint(&mut self, gl: &glow::Context, params: &FrameParams) {
        use glow::HasContext;
        self.sync(gl);
        let mut timer = self.timer.take();
        // Begun by the frame's first callback ([`under_callback`]), unless it did not run.
        if let Some(t) = &mut timer
            && !t.frame_open()
        {
            t.begin_frame(gl);
        }
        // SAFETY: plain GL calls on egui's current context; egui set viewport and scissor to
        // the callback's rectangle, so the clear touches only the 3D view.
        unsafe {
            let fog = params.light.fog;
            gl.clear_color(fog[0], fog[1], fog[2], 1.0);
            gl.clear_depth_f32(1.0);
            gl.depth_mask(true);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
        }
        // The horizon first, nearest tiles first, then the sky only where it left the far
        // depth (each pixel shaded about once), then depth cleared: the terrain and the
        // objects, in their own nearer projection, always lie over both.
        if let Some(h) = &mut self.passes.horizon {
            timed(&mut timer, gl, Pass::Horizon, || h.draw(gl, params));
        }
        if let Some(s) = &self.passes.sky {
            let floor = self
                .passes
                .horizon
                .as_ref()
                .and_then(|h| h.sky_floor(params.eye));
            // The zone's sky box over the sky, under everything else: the depth clear below
            // puts the terrain and objects in front of it wherever they are.
            let skybox = (self.draw_list.skybox)
                .filter(|(id, _)| {
                    self.passes
                        .objects
                        .as_ref()
                        .is_some_and(|o| o.has_model(*id))
                })
                .map(|(id, matrix)| DrawList {
                    models: vec![(id, vec![matrix])],
                    ..DrawList::default()
                });
            let (objects, anim_time) = (&mut self.passes.objects, self.anim_time);
            timed(&mut timer, gl, Pass::Sky, || {
                s.draw(gl, params, floor);
                if let (Some(list), Some(o)) = (&skybox, objects) {
                    o.pose(gl, list, anim_time);
                    o.draw(gl, params, list);
                }
            });
        }
        // SAFETY: a plain GL call on egui's current context.
        unsafe {
            gl.depth_mask(true);
            gl.clear(glow::DEPTH_BUFFER_BIT);
        }
        if let Some(r) = &self.passes.terrain {
            timed(&mut timer, gl, Pass::Terrain, || r.draw(gl, params));
        }
        if let Some(o) = &mut self.passes.objects
            && self.draw_list.is_empty()
        {
            self.object_stats = o.draw(gl, params, &self.draw_list);
            if let Some(t) = &mut timer {
                t.skipped(gl, Pass::Objects);
            }
        } else if let Some(o) = &mut self.passes.objects {
            let (list, anim_time) = (&self.draw_list, self.anim_time);
            self.object_stats = timed(&mut timer, gl, Pass::Objects, || {
                o.pose(gl, list, anim_time);
                o.draw(gl, params, list)
            });
        }
        // Translucent, so after everything opaque.
        let frame = self.liquid_frame();
        if let Some(l) = &mut self.passes.liquid
            && l.is_empty()
        {
            if let Some(t) = &mut timer {
                t.skipped(gl, Pass::Liquids);
            }
        } else if let Some(l) = &mut self.passes.liquid {
            let terrain = self.passes.terrain.as_ref().map(|r| (r, &frame));
            timed(&mut timer, gl, Pass::Liquids, || {
                l.set_time(self.anim_time);
                l.draw(gl, params, terrain);
            });
        }
        if let Some(t) = &mut timer {
            t.begin(gl, Pass::Overlays);
        }
        self.timer = timer;
        self.frames_drawn += 1;
    }

    /// Starts timing a frame and the overlays egui draws before the 3D view (the menu bar,
    /// the side panels): from the frame's first callback ([`under_callback`]).
    pub fn begin_frame_timing(&mut self, gl: &glow::Context) {
        if let Some(t) = &mut self.timer {
            t.begin_frame(gl);
            t.begin_under(gl);
        }
    }

    /// Ends the frame's timing: called after egui has drawn everything over the 3D view
    /// ([`overlays_end_callback`]).
    pub fn end_overlays(&mut self, gl: &glow::Context) {
        if let Some(t) = &mut self.timer {
            t.end_frame(gl);
        }
    }

    /// Times the passes on the GPU in the next frames (`PassTimer::want_gpu`): for a frame
    /// whose figures someone reads.
    pub fn want_gpu_times(&mut self) {
        if let Some(t) = &mut self.timer {
            t.want_gpu();
        }
    }

    /// The latest complete frame's per-pass figures, when the renderer runs.
    pub fn pass_times(&self) -> Option<PassTimes> {
        self.timer.as_ref().and_then(PassTimer::last)
    }

    /// Each liquid kind's texture for this frame's time: its animation's current frame when
    /// that is on the GPU, else its first frame.
    fn liquid_frame(&self) -> [String; 4] {
        let frame = crate::assets::client::liquid_frame(self.anim_time);
        std::array::from_fn(|k| {
            let first = &self.liquid_textures[k];
            match (&self.liquid_patterns, &self.passes.terrain) {
                (Some(p), Some(r)) => {
                    let now = crate::assets::client::frame_path(&p[k], frame);
                    if r.has_texture(&now) {
                        now
                    } else {
                        first.clone()
                    }
                }
                _ => first.clone(),
            }
        })
    }

    /// Frees the GL objects (from `on_exit`).
    pub fn destroy(&mut self, gl: &glow::Context) {
        if let Some(mut r) = self.passes.terrain.take() {
            r.destroy(gl);
        }
        if let Some(mut o) = self.passes.objects.take() {
            o.destroy(gl);
        }
        if let Some(mut l) = self.passes.liquid.take() {
            l.destroy(gl);
        }
        if let Some(mut s) = self.passes.sky.take() {
            s.destroy(gl);
        }
        if let Some(mut h) = self.passes.horizon.take() {
            h.destroy(gl);
        }
        if let Some(mut t) = self.timer.take() {
            t.destroy(gl);
        }
    }
}

/// Runs `draw` as `pass` under `timer`, when there is one.
fn timed<R>(
    timer: &mut Option<PassTimer>,
    gl: &glow::Context,
    pass: Pass,
    draw: impl FnOnce() -> R,
) -> R {
    match timer {
        Some(t) => t.time(gl, pass, draw),
        None => draw(),
    }
}

/// The paint callback that starts a frame's timing: added first of a frame, to the background
/// layer before any panel, so that it runs before egui draws anything.
pub fn under_callback(shared: &SharedGl, rect: egui::Rect) -> egui::PaintCallback {
    let shared = shared.clone();
    egui::PaintCallback {
        rect,
        callback: Arc::new(egui_glow::CallbackFn::new(move |_info, painter| {
            shared.lock().begin_frame_timing(painter.gl());
        })),
    }
}

/// The paint callback that ends the overlays' timing: added last of a frame, over the whole
/// window, so that it runs after egui has drawn the marks, windows and menus over the view.
pub fn overlays_end_callback(shared: &SharedGl, rect: egui::Rect) -> egui::PaintCallback {
    let shared = shared.clone();
    egui::PaintCallback {
        rect,
        callback: Arc::new(egui_glow::CallbackFn::new(move |_info, painter| {
            shared.lock().end_overlays(painter.gl());
        })),
    }
}

/// The paint callback for one frame of the 3D view.
pub fn paint_callback(
    shared: &SharedGl,
    rect: egui::Rect,
    params: FrameParams,
) -> egui::PaintCallback {
    let shared = shared.clone();
    egui::PaintCallback {
        rect,
        callback: Arc::new(egui_glow::CallbackFn::new(move |_info, painter| {
            shared.lock().paint(painter.gl(), &params);
        })),
    }
}
