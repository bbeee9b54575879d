//! The bridge between the app and the GL renderer: tiles and layer textures waiting to be
//! uploaded or dropped, and the egui paint callback that applies them and draws the terrain inside the central panel.
//!
//! Not for: building meshes or choosing tiles (the app) or the GL code itself (`render`).

use std::collections::BTreeSet;
use std::sync::Arc;

use egui::mutex::Mutex;

use super::textures::Decoded;
use crate::model::TileCoord;
use crate::render::mesh::TileMesh;
use crate::render::terrain::{FrameParams, SKY_COLOR, TerrainRenderer};

/// GL-side state shared with the paint callback (which runs on the painter, after `ui`).
#[derive(Default)]
pub struct GlState {
    renderer: Option<TerrainRenderer>,
    /// Why the renderer could not start, to show instead of the terrain.
    pub error: Option<String>,
    pending: Vec<(TileMesh, Vec<String>)>,
    removals: Vec<TileCoord>,
    textures: Vec<Decoded>,
    clear_textures: bool,
    /// Tiles on the GPU, as of the last callback.
    pub uploaded: BTreeSet<TileCoord>,
    /// Frames drawn so far.
    pub frames_drawn: u64,
}

/// The shared handle.
pub type SharedGl = Arc<Mutex<GlState>>;

impl GlState {
    /// Creates the renderer on `gl`; on failure the viewport shows the error instead.
    pub fn new(gl: Option<&glow::Context>) -> SharedGl {
        let mut state = GlState::default();
        match gl.map(TerrainRenderer::new) {
            Some(Ok(r)) => state.renderer = Some(r),
            Some(Err(e)) => state.error = Some(e),
            None => state.error = Some("no OpenGL context (headless)".into()),
        }
        Arc::new(Mutex::new(state))
    }

    /// True when there is a renderer to draw with.
    pub fn has_renderer(&self) -> bool {
        self.renderer.is_some()
    }

    /// Queues a tile to upload (replacing an older copy) with its texture list (game paths).
    pub fn queue_upload(&mut self, mesh: TileMesh, textures: Vec<String>) {
        self.removals.retain(|c| *c != mesh.coord);
        self.pending.retain(|(m, _)| m.coord != mesh.coord);
        self.pending.push((mesh, textures));
    }

    /// Queues a tile to drop from the GPU.
    pub fn queue_removal(&mut self, coord: TileCoord) {
        self.pending.retain(|(m, _)| m.coord != coord);
        self.removals.push(coord);
    }

    /// Queues a decoded layer texture for the store.
    pub fn queue_texture(&mut self, texture: Decoded) {
        self.textures.push(texture);
    }

    /// Queues forgetting every layer texture (and so every tile: re-upload them after).
    pub fn queue_clear_textures(&mut self) {
        self.textures.clear();
        self.clear_textures = true;
    }

    /// Tiles queued but not yet on the GPU.
    pub fn pending_count(&self) -> usize {
        self.pending.len()
    }

    /// Layer textures queued but not yet on the GPU.
    pub fn pending_textures(&self) -> usize {
        self.textures.len()
    }

    /// Applies queued uploads and removals.
    pub fn sync(&mut self, gl: &glow::Context) {
        let Some(renderer) = self.renderer.as_mut() else {
            self.pending.clear();
            self.removals.clear();
            self.textures.clear();
            return;
        };
        if std::mem::take(&mut self.clear_textures) {
            renderer.clear_textures(gl);
        }
        for coord in self.removals.drain(..) {
            renderer.remove(gl, coord);
        }
        for (mesh, textures) in self.pending.drain(..) {
            if let Err(e) = renderer.upload(gl, &mesh, &textures) {
                self.error = Some(e);
            }
        }
        for t in self.textures.drain(..) {
            if let Err(e) = renderer.set_texture(gl, &t.name, &t.levels) {
                self.error = Some(e);
            }
        }
        self.uploaded = renderer.tile_coords().into_iter().collect();
    }

    /// Clears the callback's rectangle to the sky colour and draws the terrain.
    pub fn paint(&mut self, gl: &glow::Context, params: &FrameParams) {
        use glow::HasContext;
        self.sync(gl);
        // SAFETY: plain GL calls on egui's current context; egui set viewport and scissor to
        // the callback's rectangle, so the clear touches only the 3D view.
        unsafe {
            gl.clear_color(SKY_COLOR[0], SKY_COLOR[1], SKY_COLOR[2], 1.0);
            gl.clear_depth_f32(1.0);
            gl.depth_mask(true);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
        }
        if let Some(r) = &self.renderer {
            r.draw(gl, params);
        }
        self.frames_drawn += 1;
    }

    /// Frees the GL objects (from `on_exit`).
    pub fn destroy(&mut self, gl: &glow::Context) {
        if let Some(mut r) = self.renderer.take() {
            r.destroy(gl);
        }
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
