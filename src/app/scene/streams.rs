//! What streams from the open map's source to the screen, each on a worker of its own: tiles
//! read from disk near the camera (and dropped far from it), layer textures, and the placed
//! objects with their models; and which tiles go to the GPU each frame.
//!
//! Not for: reading a tile (`tile_loader`, `pipeline::source`) or GL (`render`, `viewport`).

use std::collections::BTreeSet;

use super::gl_bridge::{GlState, SharedGl};
use super::object_scene;
use super::textures;
use super::tile_loader::TileLoader;
use crate::app::view::tiles_near;
use crate::doc::session::Session;
use crate::model::{Tile, TileCoord};
use crate::render::mesh::build_tile_mesh;

/// Tiles whose centre is within this many tiles of the camera are kept on the GPU.
const DRAW_RADIUS_TILES: f64 = 1.6;
/// Tiles within this many tiles of the camera are read from disk.
pub(in crate::app) const LOAD_RADIUS_TILES: f64 = 2.2;
/// Unedited tiles farther than this are dropped from memory (a margin over the load radius,
/// so that a camera moving back and forth does not reload the same tiles).
const UNLOAD_RADIUS_TILES: f64 = 3.5;
/// Tiles uploaded per frame at most, so that a frame never stalls long.
const UPLOADS_PER_FRAME: usize = 2;

/// What streams from the open map's source to the screen, each on a worker of its own: tiles
/// from disk, layer textures, and the placed objects with their models.
pub struct Streams {
    /// Tiles read from disk on a worker.
    pub loader: TileLoader,
    /// Counts opened maps, so that a worker's late answer for the previous map is dropped.
    pub session_id: u64,
    /// Layer textures decoding on the worker, and which are missing.
    pub textures: textures::TextureLoader,
    /// The placed objects and the models behind them.
    pub objects: object_scene::ObjectScene,
    /// Asks egui for a repaint (workers call it when they have something).
    pub repaint: std::sync::Arc<dyn Fn() + Send + Sync>,
    /// Tiles read from disk since the editor started (`--tour`'s figures).
    pub loaded_count: u64,
    /// Tiles dropped from memory, far from the camera, since the editor started.
    pub dropped_count: u64,
}

impl Streams {
    /// Starts the workers, each waking `egui` when it has something.
    pub fn new(egui: &egui::Context) -> Streams {
        let wake = || {
            let ctx = egui.clone();
            move || ctx.request_repaint()
        };
        Streams {
            loader: TileLoader::new(wake()),
            session_id: 0,
            textures: textures::TextureLoader::new(wake()),
            objects: object_scene::ObjectScene::new(std::sync::Arc::new(wake())),
            repaint: std::sync::Arc::new(wake()),
            loaded_count: 0,
            dropped_count: 0,
        }
    }

    /// Sends `tile`'s mesh to the GPU and asks for the textures it names (the liquids' too).
    fn upload(&mut self, gl: &mut GlState, tile: &Tile) {
        self.textures.want(&tile.textures);
        if tile.liquid_chunk_count() > 0 {
            self.textures.want(&gl.liquid_textures);
            if let Some(patterns) = &gl.liquid_patterns {
                // The animation's other frames, asked for once (the loader skips repeats).
                let frames: Vec<String> = patterns
                    .iter()
                    .flat_map(|p| crate::assets::client::frame_paths(p))
                    .collect();
                self.textures.want(&frames);
            }
        }
        gl.queue_upload(build_tile_mesh(tile), tile.textures.clone());
    }

    /// Rebuilds and re-sends the meshes of `session`'s loaded `tiles`.
    pub(in crate::app) fn redraw(
        &mut self,
        session: &Session,
        gl: &SharedGl,
        tiles: BTreeSet<TileCoord>,
    ) {
        if tiles.is_empty() {
            return;
        }
        let mut gl = gl.lock();
        if !gl.has_renderer() {
            return;
        }
        for t in tiles {
            if let Some(tile) = session.map.tiles.get(&t) {
                self.upload(&mut gl, tile);
            }
        }
    }

    /// Takes in the tiles the loader read, asks for the next ones near `points` (the camera
    /// and where it looks) and drops unedited ones far away. Returns what the status line says
    /// about a tile that could not be read.
    pub(in crate::app) fn pull_from_disk(
        &mut self,
        s: &mut Session,
        points: &[[f64; 2]; 2],
    ) -> Option<String> {
        let mut message = None;
        for loaded in self.loader.poll() {
            match loaded.result {
                Ok((tile, view)) => {
                    self.loaded_count += 1;
                    s.insert_tile(tile, view);
                }
                Err(e) => {
                    message = Some(format!(
                        "tile {}_{} could not be read: {e}",
                        loaded.coord.x, loaded.coord.y
                    ));
                    s.failed.insert(loaded.coord, e);
                }
            }
        }
        let near = tiles_near(&s.on_disk, points, LOAD_RADIUS_TILES);
        if let Some(source) = &s.tiles {
            for c in near {
                if !self.loader.has_room() {
                    break;
                }
                if !s.map.tiles.contains_key(&c)
                    && !self.loader.is_loading(c)
                    && !s.failed.contains_key(&c)
                {
                    self.loader.request(c, source.clone());
                }
            }
        }
        let keep = tiles_near(&s.on_disk, points, UNLOAD_RADIUS_TILES);
        let far: Vec<TileCoord> = s
            .map
            .tiles
            .keys()
            .filter(|c| !keep.contains(c))
            .copied()
            .collect();
        for c in far {
            if s.unload(c) {
                self.dropped_count += 1;
            }
        }
        message
    }

    /// Sends the loaded tiles near `points` and the textures that arrived to the GPU and
    /// drops far tiles; edited tiles are re-sent by the edit tools. Returns true when every
    /// wanted tile is drawn with every texture it names decoded or known missing (or there is
    /// nothing to draw with).
    pub(in crate::app) fn push_to_gpu(
        &mut self,
        session: Option<&Session>,
        gl: &SharedGl,
        points: &[[f64; 2]; 2],
    ) -> bool {
        let Some(session) = session else {
            return true;
        };
        let loaded = session.map.tiles.keys().copied().collect();
        let wanted = tiles_near(&loaded, points, DRAW_RADIUS_TILES);
        let mut gl = gl.lock();
        if !gl.has_renderer() {
            return true;
        }
        for texture in self.textures.poll() {
            gl.queue_texture(texture);
        }
        for c in gl.uploaded.clone() {
            if !wanted.contains(&c) {
                gl.queue_removal(c);
            }
        }
        if gl.pending_count() == 0 {
            let missing: Vec<TileCoord> = wanted
                .iter()
                .filter(|c| !gl.uploaded.contains(c))
                .copied()
                .collect();
            for c in missing.iter().take(UPLOADS_PER_FRAME) {
                if let Some(tile) = session.map.tiles.get(c) {
                    self.upload(&mut gl, tile);
                }
            }
        }
        gl.pending_count() == 0
            && gl.pending_textures() == 0
            && self.textures.is_settled()
            && wanted.iter().all(|c| gl.uploaded.contains(c))
    }
}
