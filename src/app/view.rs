//! Where the 3D view looks: the camera and what the cursor is over, the camera a newly opened
//! map starts with, and which tiles are near what the camera sees (for streaming and drawing).
//!
//! Not for: moving the camera from input (`app::scene::camera_control`) or GL (`render`).

use std::collections::BTreeSet;

use crate::doc::session::Session;
use crate::model::TileCoord;
use crate::model::coords::{TILE_SIZE, tile_grid_position};
use crate::render::camera::Camera;
use crate::render::pick::TerrainPoint;

/// The 3D view's state besides the GL objects: the camera and what the cursor is over.
#[derive(Default)]
pub struct View {
    /// The camera.
    pub camera: Camera,
    /// The terrain point under the cursor, as of the last frame.
    pub hover: Option<TerrainPoint>,
    /// What the hover text says about the object under the cursor, as of the last frame.
    pub object_hover: Option<String>,
    /// Where the brush cursor is drawn when there is no mouse (screenshots of a tool in use).
    pub shown_cursor: Option<[f64; 3]>,
    /// The tile the camera last went to in this map (the tile map's Go to tile fields show it).
    pub gone_to: Option<TileCoord>,
    /// The models' and liquids' animation time.
    pub clock: super::animation_clock::AnimationClock,
}

/// A camera's position and the point it looks at (on a plane at `ground`, at most three tiles
/// ahead), both on the tile grid.
pub(super) fn view_points(camera: &Camera, ground: f64) -> [[f64; 2]; 2] {
    let eye = camera.position;
    let f = camera.forward();
    let reach = 3.0 * TILE_SIZE;
    let d = if f.z < -1e-3 {
        ((ground - eye[2]) / f.z as f64).clamp(0.0, reach)
    } else {
        reach
    };
    [
        tile_grid_position(eye[0], eye[1]),
        tile_grid_position(eye[0] + f.x as f64 * d, eye[1] + f.y as f64 * d),
    ]
}

/// The tiles of `set` whose centre is within `radius` tiles of any of `points`.
pub(super) fn tiles_near(
    set: &BTreeSet<TileCoord>,
    points: &[[f64; 2]],
    radius: f64,
) -> BTreeSet<TileCoord> {
    set.iter()
        .filter(|t| {
            points.iter().any(|[col, row]| {
                let dc = t.x as f64 + 0.5 - col;
                let dr = t.y as f64 + 0.5 - row;
                (dc * dc + dr * dr).sqrt() <= radius
            })
        })
        .copied()
        .collect()
}

/// The mean of the chunks' lowest heights over the loaded tiles.
pub(super) fn mean_ground(map: &crate::model::Map) -> f64 {
    let (sum, n) = map
        .tiles
        .values()
        .flat_map(|t| t.chunks.iter().map(|c| c.height_range().0 as f64))
        .fold((0.0, 0usize), |(s, n), h| (s + h, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// A camera that shows the map's tiles (the first three by three of a large map) from the
/// north-west, looking south-east.
pub fn initial_camera(session: &Session) -> Camera {
    let tiles: Vec<TileCoord> = session.known_tiles().into_iter().collect();
    let mut camera = Camera::default();
    let Some(first) = tiles.first() else {
        return camera;
    };
    let (mut lo, mut hi) = ((first.x, first.y), (first.x, first.y));
    for t in &tiles {
        lo = (lo.0.min(t.x), lo.1.min(t.y));
        hi = (hi.0.max(t.x), hi.1.max(t.y));
    }
    // Large maps: look at the first few tiles rather than at all of them from far away.
    let span = ((hi.0 - lo.0).max(hi.1 - lo.1) as f64 + 1.0).min(3.0);
    let ground = mean_ground(&session.map);
    let Some(nw) = TileCoord::new(lo.0 as usize, lo.1 as usize) else {
        return camera;
    };
    let [nx, ny] = nw.north_west();
    let (cx, cy) = (
        nx - ((hi.1 - lo.1 + 1) as f64).min(span) * TILE_SIZE / 2.0,
        ny - ((hi.0 - lo.0 + 1) as f64).min(span) * TILE_SIZE / 2.0,
    );
    camera.yaw = -std::f32::consts::FRAC_PI_4 * 3.0;
    camera.pitch = -0.7;
    // A lone tile needs more room around it than a group, whose neighbours fill the view.
    let factor = if span <= 1.0 { 1.15 } else { 0.8 };
    camera.frame([cx, cy, ground], (span * TILE_SIZE * factor) as f32);
    // Mountains must not stand between the camera and the map: rise above the top.
    let top = session
        .map
        .tiles
        .values()
        .flat_map(|t| t.chunks.iter().map(|c| c.height_range().1))
        .fold(f32::MIN, f32::max);
    if top > f32::MIN && camera.position[2] < top as f64 + 120.0 {
        camera.position[2] = top as f64 + 120.0;
        camera.look_at([cx, cy, ground]);
    }
    camera
}

/// Moves `view`'s camera over a tile of `session`'s map (loaded or not), above its highest
/// point, and remembers the tile as the one gone to.
pub fn go_to_tile(view: &mut View, session: Option<&Session>, tile: TileCoord) {
    view.gone_to = Some(tile);
    let range = session.and_then(|s| s.map.tiles.get(&tile)).map(|t| {
        t.chunks
            .iter()
            .map(|c| c.height_range())
            .fold((f32::MAX, f32::MIN), |(l, h), (a, b)| (l.min(a), h.max(b)))
    });
    let (lo, hi) = range.unwrap_or_else(|| {
        let z = view.camera.position[2] as f32 - 200.0;
        (z, z)
    });
    let ground = lo + (hi - lo) * 0.4;
    view.camera.frame_tile(tile, ground);
    // Mountains must not stand between the camera and the tile: rise above the top.
    let clear = hi as f64 + 120.0;
    if view.camera.position[2] < clear {
        let [cx, cy] = tile.centre();
        view.camera.position[2] = clear;
        view.camera.look_at([cx, cy, ground as f64]);
    }
}
