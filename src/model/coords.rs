//! The one place that converts between world, tile, chunk, vertex and placement-record coordinates.
//!
//! World space follows the ADT documents: +x points north, +y points west, +z up, origin in the
//! middle of the 64×64 tile grid. A tile file `Map_X_Y.adt` has `X` growing westward-to-eastward
//! (against world y) and `Y` growing north-to-south (against world x). Placement records (MDDF,
//! MODF) store positions as `(ORIGIN - y, z, ORIGIN - x)`; nothing outside this module needs to
//! know that.

/// The direction sunlight travels in loam's pictures of the world (the editor's view and the
/// minimaps), world axes (x north, y west, z up), not normalised: from the north-west, high.
pub const SUN: [f32; 3] = [-0.35, -0.45, -0.82];

/// Edge length of one ADT tile in yards (1600 feet).
pub const TILE_SIZE: f64 = 1600.0 / 3.0;
/// Edge length of one map chunk (MCNK) in yards: a tile holds 16×16 chunks.
pub const CHUNK_SIZE: f64 = TILE_SIZE / 16.0;
/// Distance between two outer vertices of a chunk: a chunk holds 8×8 quads.
pub const UNIT_SIZE: f64 = CHUNK_SIZE / 8.0;
/// Distance from the world origin to the map's north-west corner along both axes.
pub const MAP_ORIGIN: f64 = 32.0 * TILE_SIZE;
/// Tiles along one side of a map.
pub const TILES_PER_SIDE: usize = 64;
/// Chunks along one side of a tile.
pub const CHUNKS_PER_SIDE: usize = 16;
/// Height samples per chunk: 9×9 outer plus 8×8 inner vertices.
pub const VERTICES_PER_CHUNK: usize = 145;

/// Position of a tile in the map's 64×64 grid, as in the file name `Map_X_Y.adt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileCoord {
    /// Column, 0..64, the first number of the file name; grows as world y falls (eastward).
    pub x: u8,
    /// Row, 0..64, the second number of the file name; grows as world x falls (southward).
    pub y: u8,
}

impl TileCoord {
    /// A tile coordinate, or `None` outside the 64×64 grid.
    pub fn new(x: usize, y: usize) -> Option<TileCoord> {
        (x < TILES_PER_SIDE && y < TILES_PER_SIDE).then_some(TileCoord {
            x: x as u8,
            y: y as u8,
        })
    }

    /// Index into a 4096-entry table ordered row by row (MAIN's order).
    pub fn index(self) -> usize {
        self.y as usize * TILES_PER_SIDE + self.x as usize
    }

    /// The coordinate of MAIN entry `index`.
    pub fn from_index(index: usize) -> Option<TileCoord> {
        TileCoord::new(index % TILES_PER_SIDE, index / TILES_PER_SIDE)
    }

    /// World (x, y) of the tile's north-west corner, the largest x and y it covers.
    pub fn north_west(self) -> [f64; 2] {
        [
            MAP_ORIGIN - self.y as f64 * TILE_SIZE,
            MAP_ORIGIN - self.x as f64 * TILE_SIZE,
        ]
    }

    /// World (x, y) of the tile's middle.
    pub fn centre(self) -> [f64; 2] {
        let [nx, ny] = self.north_west();
        [nx - TILE_SIZE / 2.0, ny - TILE_SIZE / 2.0]
    }

    /// The tile under a world position, if it lies on the map.
    pub fn containing(world_x: f64, world_y: f64) -> Option<TileCoord> {
        let col = ((MAP_ORIGIN - world_y) / TILE_SIZE).floor();
        let row = ((MAP_ORIGIN - world_x) / TILE_SIZE).floor();
        if col < 0.0 || row < 0.0 {
            return None;
        }
        TileCoord::new(col as usize, row as usize)
    }
}

/// World (x, y) of a point on the map's vertex lattice: `gx` outer-vertex steps east (with the
/// tile file's X) and `gy` steps south of the map's north-west corner; inner vertices sit at
/// half steps, alpha texels at eighths.
pub fn lattice_to_world(gx: f64, gy: f64) -> [f64; 2] {
    [MAP_ORIGIN - gy * UNIT_SIZE, MAP_ORIGIN - gx * UNIT_SIZE]
}

/// The lattice position (gx, gy) of a world (x, y).
pub fn world_to_lattice(x: f64, y: f64) -> [f64; 2] {
    [(MAP_ORIGIN - y) / UNIT_SIZE, (MAP_ORIGIN - x) / UNIT_SIZE]
}

/// Lattice steps from a distance in yards.
pub fn yards_to_steps(yards: f64) -> f64 {
    yards / UNIT_SIZE
}

/// Chunk `chunk` (row-major index) of `tile` on the map-wide chunk grid: its column (east) and
/// row (south), 0 to 1023 each.
pub fn map_chunk(tile: TileCoord, chunk: usize) -> [usize; 2] {
    [
        tile.x as usize * CHUNKS_PER_SIDE + chunk % CHUNKS_PER_SIDE,
        tile.y as usize * CHUNKS_PER_SIDE + chunk / CHUNKS_PER_SIDE,
    ]
}

/// The tile and row-major chunk index of the map-wide chunk at `column`, `row` ([`map_chunk`]'s
/// inverse); `None` off the map.
pub fn chunk_of_map_chunk(column: usize, row: usize) -> Option<(TileCoord, usize)> {
    let tile = TileCoord::new(column / CHUNKS_PER_SIDE, row / CHUNKS_PER_SIDE)?;
    Some((
        tile,
        (row % CHUNKS_PER_SIDE) * CHUNKS_PER_SIDE + column % CHUNKS_PER_SIDE,
    ))
}

/// World (x, y) of the north-west corner of chunk (`chunk_x`, `chunk_y`) of a tile.
pub fn chunk_north_west(tile: TileCoord, chunk_x: usize, chunk_y: usize) -> [f64; 2] {
    let [x, y] = tile.north_west();
    [
        x - chunk_y as f64 * CHUNK_SIZE,
        y - chunk_x as f64 * CHUNK_SIZE,
    ]
}

/// The chunk header's stored position (x, y) for a chunk: the f32 values Blizzard's tools
/// write. They compute in f32, `origin - global_chunk_index * chunk_size`, which differs from
/// the correctly rounded value in the last bit for about nine chunks in ten; this formula matches
/// every chunk of every corpus tile.
pub fn chunk_header_xy(tile: TileCoord, chunk_x: usize, chunk_y: usize) -> [f32; 2] {
    let origin = MAP_ORIGIN as f32;
    let chunk = CHUNK_SIZE as f32;
    let row = (tile.y as usize * CHUNKS_PER_SIDE + chunk_y) as f32;
    let col = (tile.x as usize * CHUNKS_PER_SIDE + chunk_x) as f32;
    [origin - row * chunk, origin - col * chunk]
}

/// Where vertex `index` (0..145, MCVT order: rows of 9 outer then 8 inner) sits in a chunk, in
/// quad units from the chunk's north-west corner: (south, east), each 0.0..=8.0.
pub fn vertex_grid_position(index: usize) -> [f32; 2] {
    let row = index / 17;
    let rem = index % 17;
    if rem < 9 {
        [row as f32, rem as f32]
    } else {
        [row as f32 + 0.5, (rem - 9) as f32 + 0.5]
    }
}

/// MCVT index of outer vertex (`row`, `col`), each 0..=8.
pub fn outer_vertex(row: usize, col: usize) -> usize {
    row * 17 + col
}

/// MCVT index of inner vertex (`row`, `col`), each 0..8.
pub fn inner_vertex(row: usize, col: usize) -> usize {
    row * 17 + 9 + col
}

/// Model (MCVT, interleaved) index of the `k`-th vertex (0..145) of the non-interleaved order
/// that the 0.5.x and 0.6.0 files use: the 81 outer vertices row by row, then the 64 inner ones
/// row by row.
pub fn outer_then_inner_vertex(k: usize) -> usize {
    if k < 81 {
        outer_vertex(k / 9, k % 9)
    } else {
        let k = k - 81;
        inner_vertex((k / 8) % 8, k % 8)
    }
}

/// World (x, y) of vertex `index` of a chunk.
pub fn vertex_world_xy(tile: TileCoord, chunk_x: usize, chunk_y: usize, index: usize) -> [f64; 2] {
    let [x, y] = chunk_north_west(tile, chunk_x, chunk_y);
    let [south, east] = vertex_grid_position(index);
    [x - south as f64 * UNIT_SIZE, y - east as f64 * UNIT_SIZE]
}

/// World position of a placement record's stored `(a, b, c)` position.
pub fn placement_to_world(record: [f32; 3]) -> [f64; 3] {
    [
        MAP_ORIGIN - record[2] as f64,
        MAP_ORIGIN - record[0] as f64,
        record[1] as f64,
    ]
}

/// A placement record's stored position for a world position.
pub fn world_to_placement(world: [f64; 3]) -> [f32; 3] {
    [
        (MAP_ORIGIN - world[1]) as f32,
        world[2] as f32,
        (MAP_ORIGIN - world[0]) as f32,
    ]
}

/// Light.dbc's unit of distance: its GameCoords and falloff radii are in inches, 36 to the yard
/// (Noggit's `skymul = 36`, `src/noggit/Sky.cpp`).
pub const LIGHT_UNITS_PER_YARD: f64 = 36.0;

/// World position of a Light.dbc row's stored GameCoords. They are in the placement records'
/// axes (as MDDF stores them: x = west offset, y = height, z = north offset, each from the
/// map's corner), times 36: Noggit compares them unchanged with its camera, which lives in
/// those axes, and Blizzard's own 3.3.5 table stores Stormwind's lights at about
/// (16518, 81, 25547) × 36, which is game (−8480, 549, 81), inside the city.
pub fn light_to_world(stored: [f32; 3]) -> [f64; 3] {
    let [a, b, c] = stored.map(|v| f64::from(v) / LIGHT_UNITS_PER_YARD);
    [MAP_ORIGIN - c, MAP_ORIGIN - a, b]
}

/// A Light.dbc row's GameCoords for world position `world` (the inverse of
/// [`light_to_world`]).
pub fn world_to_light(world: [f64; 3]) -> [f32; 3] {
    [MAP_ORIGIN - world[1], world[2], MAP_ORIGIN - world[0]]
        .map(|v| (v * LIGHT_UNITS_PER_YARD) as f32)
}

/// World-space bounding box (min, max) of a placement record's stored extents (min, max).
pub fn placement_box_to_world(min: [f32; 3], max: [f32; 3]) -> ([f64; 3], [f64; 3]) {
    let a = placement_to_world(min);
    let b = placement_to_world(max);
    (
        [a[0].min(b[0]), a[1].min(b[1]), a[2].min(b[2])],
        [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2])],
    )
}

/// A placement record's stored extents (min, max) for a world-space box (min, max).
pub fn world_box_to_placement(min: [f64; 3], max: [f64; 3]) -> ([f32; 3], [f32; 3]) {
    let a = world_to_placement(min);
    let b = world_to_placement(max);
    (
        [a[0].min(b[0]), a[1].min(b[1]), a[2].min(b[2])],
        [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2])],
    )
}

/// Fractional position on the 64×64 tile grid of a world position: (column, row), so that
/// tile (X, Y) covers X..X+1 and Y..Y+1.
pub fn tile_grid_position(world_x: f64, world_y: f64) -> [f64; 2] {
    [
        (MAP_ORIGIN - world_y) / TILE_SIZE,
        (MAP_ORIGIN - world_x) / TILE_SIZE,
    ]
}

/// Height samples per tile in a WDL low-resolution grid (MARE): 17×17 outer then 16×16 inner.
pub const LOW_RES_SAMPLES: usize = 17 * 17 + 16 * 16;

/// Where WDL sample `index` (0..545: the 17×17 outer points row by row, then the 16×16 inner
/// points row by row) takes its height in a tile: `(chunk_x, chunk_y, vertex)`, `vertex` an MCVT
/// index. The outer points are the chunk corners, one chunk apart (the 17th row and column are
/// the far edges of the last chunks); the inner points are the chunk centres. Every point is a
/// vertex of the full grid, so no interpolation is needed.
pub fn low_res_sample(index: usize) -> (usize, usize, usize) {
    let last = CHUNKS_PER_SIDE - 1;
    if index < 17 * 17 {
        let (row, col) = (index / 17, index % 17);
        let edge = |i: usize| if i > last { (last, 8) } else { (i, 0) };
        let ((chunk_y, vr), (chunk_x, vc)) = (edge(row), edge(col));
        (chunk_x, chunk_y, outer_vertex(vr, vc))
    } else {
        let k = (index - 17 * 17).min(16 * 16 - 1);
        (k % 16, k / 16, outer_vertex(4, 4))
    }
}

/// Where a world position falls: its tile, the chunk (`chunk_x`, `chunk_y`) in it and the
/// position inside that chunk in quad units (south, east), each 0.0..8.0. `None` off the map.
pub fn world_to_chunk_grid(
    world_x: f64,
    world_y: f64,
) -> Option<(TileCoord, usize, usize, [f32; 2])> {
    let tile = TileCoord::containing(world_x, world_y)?;
    let [nx, ny] = tile.north_west();
    let south = (nx - world_x) / CHUNK_SIZE;
    let east = (ny - world_y) / CHUNK_SIZE;
    let chunk_y = (south.floor() as usize).min(CHUNKS_PER_SIDE - 1);
    let chunk_x = (east.floor() as usize).min(CHUNKS_PER_SIDE - 1);
    let in_chunk = |v: f64, c: usize| (((v - c as f64) * 8.0) as f32).clamp(0.0, 8.0);
    Some((
        tile,
        chunk_x,
        chunk_y,
        [in_chunk(south, chunk_y), in_chunk(east, chunk_x)],
    ))
}

/// The matrix that takes a placed model's vertices (model space: x forward, y left, z up, as
/// M2, MDX and WMO files store them) to world space, for a placement at world `position` with
/// a record's `rotation` (degrees) and `scale` factor.
///
/// The ADT page of the wowdev wiki (`../shared/specs/000_*`, MDDF/MODF) builds this matrix in
/// placement space: Rx(90°)·Ry(90°)·T(record)·Ry(rot.y − 270°)·Rz(−rot.x)·Rx(rot.z − 90°)·S.
/// Carried into loam's world axes (x north, y west, z up; [`placement_to_world`]) that product
/// is T(world)·Rz(rot.y)·Ry(rot.x)·Rx(rot.z)·S: the record's y angle turns the model about the
/// up axis, then x about the west axis, then z about the north axis, as the wiki's prose says
/// ("x: around West/East, y: around Up, z: around North/South"). A test checks the two forms
/// agree, since getting this order wrong is the classic placement mistake.
pub fn placement_matrix(position: [f64; 3], rotation: [f32; 3], scale: f32) -> glam::DMat4 {
    let [rx, ry, rz] = rotation.map(|d| (d as f64).to_radians());
    glam::DMat4::from_translation(glam::DVec3::from_array(position))
        * glam::DMat4::from_rotation_z(ry)
        * glam::DMat4::from_rotation_y(rx)
        * glam::DMat4::from_rotation_x(rz)
        * glam::DMat4::from_scale(glam::DVec3::splat(scale as f64))
}

/// The world box (min, max) around a model's box `(min, max)` placed at `position` with a
/// record's `rotation` and `scale`: its eight corners through [`placement_matrix`]. What MODF
/// extents and the tiles and chunks listing an object are derived from.
pub fn placed_box(
    (min, max): ([f32; 3], [f32; 3]),
    position: [f64; 3],
    rotation: [f32; 3],
    scale: f32,
) -> ([f64; 3], [f64; 3]) {
    let m = placement_matrix(position, rotation, scale);
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for corner in 0..8 {
        let pick = |i: usize| f64::from(if corner >> i & 1 == 0 { min[i] } else { max[i] });
        let p = m.transform_point3(glam::DVec3::new(pick(0), pick(1), pick(2)));
        for (i, v) in p.to_array().into_iter().enumerate() {
            lo[i] = lo[i].min(v);
            hi[i] = hi[i].max(v);
        }
    }
    (lo, hi)
}

/// True when the square with north-west corner `nw` and side `side` overlaps a world box's x, y
/// (touching an edge does not count).
fn square_overlaps(nw: [f64; 2], side: f64, lo: [f64; 3], hi: [f64; 3]) -> bool {
    lo[0] < nw[0] && hi[0] > nw[0] - side && lo[1] < nw[1] && hi[1] > nw[1] - side
}

/// The tiles whose square a world box overlaps (touching an edge does not count).
pub fn tiles_overlapping((lo, hi): ([f64; 3], [f64; 3])) -> Vec<TileCoord> {
    // Just inside the map, so that a box reaching past its edge still finds the edge tiles.
    let inside = |v: f64| v.clamp(-MAP_ORIGIN + 1e-6, MAP_ORIGIN - 1e-6);
    // Tile rows run south (x falls), columns east (y falls); see `TileCoord::north_west`.
    let (Some(nw), Some(se)) = (
        TileCoord::containing(inside(hi[0]), inside(hi[1])),
        TileCoord::containing(inside(lo[0]), inside(lo[1])),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for y in nw.y..=se.y {
        for x in nw.x..=se.x {
            if let Some(t) = TileCoord::new(x as usize, y as usize)
                && square_overlaps(t.north_west(), TILE_SIZE, lo, hi)
            {
                out.push(t);
            }
        }
    }
    out
}

/// The chunks (index y·16 + x) of `tile` that a world box overlaps.
pub fn chunks_overlapping(tile: TileCoord, (lo, hi): ([f64; 3], [f64; 3])) -> Vec<usize> {
    (0..CHUNKS_PER_SIDE * CHUNKS_PER_SIDE)
        .filter(|&i| {
            let nw = chunk_north_west(tile, i % CHUNKS_PER_SIDE, i / CHUNKS_PER_SIDE);
            square_overlaps(nw, CHUNK_SIZE, lo, hi)
        })
        .collect()
}

#[cfg(test)]
mod tests {

    #[test]
    fn light_positions_are_stored_in_placement_axes_times_36() {
        // Blizzard's 3.3.5 Light.dbc stores one of Stormwind's lights at about this place
        // (the reading of the real table); the city is near game (-8480, 549, 81).
        let world = light_to_world([16518.0 * 36.0, 81.0 * 36.0, 25547.0 * 36.0]);
        assert!((world[0] - -8480.33).abs() < 0.01, "{world:?}");
        assert!((world[1] - 548.67).abs() < 0.01, "{world:?}");
        assert!((world[2] - 81.0).abs() < 1e-9, "{world:?}");
        // The same axes as a placement record, times 36.
        let placed = placement_to_world([16518.0, 81.0, 25547.0]);
        for k in 0..3 {
            assert!((placed[k] - world[k]).abs() < 1e-3);
        }
        let back = world_to_light(world);
        assert_eq!(back, [16518.0 * 36.0, 81.0 * 36.0, 25547.0 * 36.0]);
    }
    use super::*;

    #[test]
    fn tile_corner_matches_a_real_chunk_header() {
        // continent4229.adt is Azeroth_42_29; its first MCNK stores (1600.0, -5333.334).
        let t = TileCoord::new(42, 29).unwrap();
        assert_eq!(chunk_header_xy(t, 0, 0), [1600.0, -5333.334]);
        assert_eq!(chunk_header_xy(t, 1, 0), [1600.0, -5366.666]);
        // Northrend_37_25 chunk 0 stores (3733.333, -2666.666).
        let n = TileCoord::new(37, 25).unwrap();
        assert_eq!(chunk_header_xy(n, 0, 0), [3733.333, -2666.666]);
    }

    #[test]
    fn map_chunks_and_tile_chunks_convert_both_ways() {
        let tile = TileCoord::new(31, 30).unwrap();
        // Chunk 17: row 1, column 1 of the tile.
        assert_eq!(map_chunk(tile, 17), [31 * 16 + 1, 30 * 16 + 1]);
        for index in [0, 15, 16, 255] {
            let [c, r] = map_chunk(tile, index);
            assert_eq!(chunk_of_map_chunk(c, r), Some((tile, index)));
        }
        assert_eq!(chunk_of_map_chunk(1024, 0), None);
    }

    #[test]
    fn containing_inverts_north_west() {
        for (x, y) in [(0, 0), (42, 29), (63, 63), (31, 32)] {
            let t = TileCoord::new(x, y).unwrap();
            let [wx, wy] = t.north_west();
            assert_eq!(TileCoord::containing(wx - 1.0, wy - 1.0), Some(t));
        }
        assert_eq!(TileCoord::containing(MAP_ORIGIN + 1.0, 0.0), None);
    }

    #[test]
    fn placement_positions_round_trip_bit_exactly() {
        for rec in [
            [1.5f32, 20.25, 17000.1],
            [0.001, -3.0, 34133.0],
            [9000.123, 55.5, 12.75],
        ] {
            let back = world_to_placement(placement_to_world(rec));
            assert_eq!(back.map(f32::to_bits), rec.map(f32::to_bits));
        }
    }

    #[test]
    fn world_to_chunk_grid_inverts_vertex_world_xy() {
        let t = TileCoord::new(42, 29).unwrap();
        let [x, y] = vertex_world_xy(t, 3, 5, inner_vertex(2, 6));
        let (tile, cx, cy, [s, e]) = world_to_chunk_grid(x, y).unwrap();
        assert_eq!((tile, cx, cy), (t, 3, 5));
        assert!((s - 2.5).abs() < 1e-3 && (e - 6.5).abs() < 1e-3);
    }

    #[test]
    fn outer_then_inner_order_is_a_permutation() {
        let mut seen = [false; VERTICES_PER_CHUNK];
        for k in 0..VERTICES_PER_CHUNK {
            seen[outer_then_inner_vertex(k)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(outer_then_inner_vertex(9), outer_vertex(1, 0));
        assert_eq!(outer_then_inner_vertex(81), inner_vertex(0, 0));
        assert_eq!(outer_then_inner_vertex(144), inner_vertex(7, 7));
    }

    #[test]
    fn vertex_layout_is_outer_then_inner() {
        assert_eq!(vertex_grid_position(0), [0.0, 0.0]);
        assert_eq!(vertex_grid_position(8), [0.0, 8.0]);
        assert_eq!(vertex_grid_position(9), [0.5, 0.5]);
        assert_eq!(vertex_grid_position(144), [8.0, 8.0]);
        assert_eq!(outer_vertex(8, 8), 144);
        assert_eq!(inner_vertex(7, 7), 135);
    }

    #[test]
    fn placement_matrices_follow_the_wiki_s_product() {
        use glam::{DMat4, DVec3};
        // The wiki's gl-matrix code, literally (each call multiplies on the right), then its
        // placement space carried to world space: world = (O − z, O − x, y).
        let wiki = |record: [f32; 3], rot: [f32; 3], scale: f64| {
            let d = |a: f64| a.to_radians();
            let r = rot.map(f64::from);
            let placement = DMat4::from_rotation_x(d(90.0))
                * DMat4::from_rotation_y(d(90.0))
                * DMat4::from_translation(DVec3::new(
                    record[0] as f64,
                    record[1] as f64,
                    record[2] as f64,
                ))
                * DMat4::from_rotation_y(d(r[1] - 270.0))
                * DMat4::from_rotation_z(d(-r[0]))
                * DMat4::from_rotation_x(d(r[2] - 90.0))
                * DMat4::from_scale(DVec3::splat(scale));
            // Rx(90°)·Ry(90°) took placement (x, y, z) to (z, x, y); the world flips x and y
            // about the map origin.
            DMat4::from_translation(DVec3::new(MAP_ORIGIN, MAP_ORIGIN, 0.0))
                * DMat4::from_rotation_z(std::f64::consts::PI)
                * placement
        };
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        for _ in 0..200 {
            let record = [next() * 34_000.0, next() * 400.0 - 200.0, next() * 34_000.0];
            let rot = [
                next() * 720.0 - 360.0,
                next() * 720.0 - 360.0,
                next() * 720.0 - 360.0,
            ];
            // Scales a record can hold exactly (1/1024 steps), so both sides scale alike.
            let scale = (256.0 + (next() * 3072.0).floor()) as f64 / 1024.0;
            let ours = placement_matrix(placement_to_world(record), rot, scale as f32);
            let theirs = wiki(record, rot, scale);
            for (a, b) in ours.to_cols_array().iter().zip(theirs.to_cols_array()) {
                assert!(
                    (a - b).abs() < 1e-6 * (1.0 + b.abs()),
                    "{rot:?}: {ours} vs {theirs}"
                );
            }
        }
        // No rotation: the model's axes are the world's (forward north, left west, up up).
        let m = placement_matrix([0.0; 3], [0.0; 3], 1.0);
        assert!(m.abs_diff_eq(DMat4::IDENTITY, 1e-12), "{m}");
        // 90° about the up axis turns forward (north) to west.
        let m = placement_matrix([0.0; 3], [0.0, 90.0, 0.0], 1.0);
        assert!(m.transform_vector3(DVec3::X).abs_diff_eq(DVec3::Y, 1e-12));
    }
}
