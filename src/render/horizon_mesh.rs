//! The horizon's geometry on the CPU: each WDL tile a 9 × 9 grid with a lowered copy for its
//! skirts (`HorizonMesh`), and each frame's triangles (`frame_indices`): the tiles in view,
//! nearest first, at a level of detail that falls with distance, skirted where a tile meets a
//! coarser or finer one or the real terrain; and how steeply a view ray must fall to be sure
//! of meeting the ground (`sky_floor`), so the sky need not be drawn there.
//!
//! Not for: drawing (`render::horizon`) or where the heights come from (`doc::horizon`).

use std::collections::{BTreeMap, BTreeSet};

use crate::doc::horizon::HorizonTiles;
use crate::model::TileCoord;
use crate::model::coords::{CHUNK_SIZE, MAP_ORIGIN, TILE_SIZE, TILES_PER_SIDE};

/// Floats a vertex takes: position and normal.
pub(super) const STRIDE: usize = 6;
/// Vertices along a tile's side: every other one of the WDL's 17.
const SIDE: usize = 9;
/// Vertices a tile takes: its grid, then the same grid lowered for the skirts.
const TILE_VERTICES: usize = 2 * SIDE * SIDE;

/// One tile of the horizon's mesh: where it is, its first vertex and its bounding box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct MeshTile {
    coord: TileCoord,
    first: u32,
    bounds: [glam::Vec3; 2],
}

/// The horizon's vertices (position, normal), built on the CPU: each tile a 9 × 9 grid and
/// the same grid lowered below the tile's lowest point, which the skirts hang down to; and
/// the ground it and the terrain cover, for [`sky_floor`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HorizonMesh {
    pub(super) vertices: Vec<f32>,
    pub(super) tiles: Vec<MeshTile>,
    pub(super) ground: Ground,
}

/// The tiles with ground (the horizon's and the terrain's) and the lowest WDL height among
/// them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Ground {
    covered: BTreeSet<TileCoord>,
    lowest: f32,
}

/// The WDL's outer heights as one grid over the map: global sample row and column (17 a
/// tile, the last of one tile the first of the next).
struct Samples<'a>(&'a HorizonTiles);

impl Samples<'_> {
    /// The height at global sample (`row`, `col`), from whichever tile holds it: a sample on
    /// a tile's north or west edge is also the last row or column of the tile before.
    fn at(&self, row: i64, col: i64) -> Option<f32> {
        if row < 0 || col < 0 {
            return None;
        }
        let look = |ty: i64, r: i64, tx: i64, c: i64| -> Option<f32> {
            let coord = TileCoord::new(usize::try_from(tx).ok()?, usize::try_from(ty).ok()?)?;
            self.0.get(&coord).map(|h| h[(r * 17 + c) as usize])
        };
        let (ty, r, tx, c) = (row / 16, row % 16, col / 16, col % 16);
        look(ty, r, tx, c)
            .or_else(|| {
                if r == 0 {
                    look(ty - 1, 16, tx, c)
                } else {
                    None
                }
            })
            .or_else(|| {
                if c == 0 {
                    look(ty, r, tx - 1, 16)
                } else {
                    None
                }
            })
            .or_else(|| {
                if r == 0 && c == 0 {
                    look(ty - 1, 16, tx - 1, 16)
                } else {
                    None
                }
            })
    }
}

impl HorizonMesh {
    /// A 9 × 9 grid of each tile's outer heights (every other sample) but those in `terrain`
    /// (the terrain renderer draws them), normals from the samples either side, across tile
    /// edges where the neighbour is there (so the light shows no seam between tiles), and the
    /// lowered copy for the skirts.
    pub fn build(tiles: &HorizonTiles, terrain: &BTreeSet<TileCoord>) -> HorizonMesh {
        let samples = Samples(tiles);
        let mut mesh = HorizonMesh {
            ground: Ground {
                covered: tiles.keys().copied().collect(),
                lowest: (tiles.values().flatten().copied()).fold(f32::INFINITY, f32::min),
            },
            ..HorizonMesh::default()
        };
        mesh.vertices.reserve(tiles.len() * TILE_VERTICES * STRIDE);
        for (coord, h) in tiles.iter().filter(|(c, _)| !terrain.contains(c)) {
            let first = (mesh.vertices.len() / STRIDE) as u32;
            let [north, west] = coord.north_west();
            let (row0, col0) = (i64::from(coord.y) * 16, i64::from(coord.x) * 16);
            let lowest = h.iter().copied().fold(f32::MAX, f32::min);
            let highest = h.iter().copied().fold(f32::MIN, f32::max);
            // Deep enough to close the widest gap a coarser neighbour's edge can leave.
            let skirt = lowest - (highest - lowest) - 10.0;
            let mut grid = Vec::with_capacity(SIDE * SIDE * STRIDE);
            for r in (0..17i64).step_by(2) {
                for c in (0..17i64).step_by(2) {
                    let here = h[(r * 17 + c) as usize];
                    let height = |dr: i64, dc: i64| samples.at(row0 + r + dr, col0 + c + dc);
                    // Rows run south (−x), columns east (−y).
                    let slope = |before: Option<f32>, after: Option<f32>| match (before, after) {
                        (Some(b), Some(a)) => (b - a) / (2.0 * CHUNK_SIZE as f32),
                        (Some(b), None) => (b - here) / CHUNK_SIZE as f32,
                        (None, Some(a)) => (here - a) / CHUNK_SIZE as f32,
                        (None, None) => 0.0,
                    };
                    let dx = slope(height(-1, 0), height(1, 0));
                    let dy = slope(height(0, -1), height(0, 1));
                    let n = glam::Vec3::new(-dx, -dy, 1.0).normalize();
                    let x = (north - r as f64 * CHUNK_SIZE) as f32;
                    let y = (west - c as f64 * CHUNK_SIZE) as f32;
                    grid.push([x, y, here, n.x, n.y, n.z]);
                }
            }
            for v in &grid {
                mesh.vertices.extend(v);
            }
            for v in &grid {
                mesh.vertices.extend([v[0], v[1], skirt, v[3], v[4], v[5]]);
            }
            let (n, w) = (north as f32, west as f32);
            let size = TILE_SIZE as f32;
            mesh.tiles.push(MeshTile {
                coord: *coord,
                first,
                bounds: [
                    glam::Vec3::new(n - size, w - size, skirt),
                    glam::Vec3::new(n, w, highest),
                ],
            });
        }
        mesh
    }

    /// True when there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }
}

/// The grid step (in the 9 × 9 grid's vertices: 1, 2, 4 or 8) of a tile whose nearest point
/// lies `distance` yards from the eye: the full grid within about three tiles, one quad
/// beyond about nineteen, where the fog has all but covered it.
pub fn detail_step(distance: f32) -> usize {
    match distance {
        d if d < 3.0 * TILE_SIZE as f32 => 1,
        d if d < 8.0 * TILE_SIZE as f32 => 2,
        d if d < 19.0 * TILE_SIZE as f32 => 4,
        _ => 8,
    }
}

/// How far (yards) `bounds` lies from `eye` across the ground (0 inside it).
fn ground_distance(eye: glam::Vec3, [min, max]: &[glam::Vec3; 2]) -> f32 {
    let dx = (min.x - eye.x).max(eye.x - max.x).max(0.0);
    let dy = (min.y - eye.y).max(eye.y - max.y).max(0.0);
    dx.hypot(dy)
}

/// The sine of the elevation below which every view ray from `eye` meets the ground of
/// `ground` (the horizon's or the terrain's): a ray falling at least that steeply reaches the
/// lowest height before it leaves the disc of covered tiles around the eye, so it crossed the
/// ground on the way. The sky need not be drawn there. `None` when the eye is not above that
/// ground's lowest point inside the map.
pub(super) fn sky_floor(ground: &Ground, eye: glam::Vec3) -> Option<f32> {
    let above = eye.z - ground.lowest;
    let far_edge = MAP_ORIGIN as f32 - TILES_PER_SIDE as f32 * TILE_SIZE as f32;
    let to_map_edge = [
        eye.x - far_edge,
        MAP_ORIGIN as f32 - eye.x,
        eye.y - far_edge,
        MAP_ORIGIN as f32 - eye.y,
    ]
    .into_iter()
    .fold(f32::INFINITY, f32::min);
    if !(above > 0.0 && to_map_edge > 0.0) {
        return None;
    }
    let mut reach = to_map_edge;
    for y in 0..TILES_PER_SIDE {
        for x in 0..TILES_PER_SIDE {
            let Some(c) = TileCoord::new(x, y) else {
                continue;
            };
            if !ground.covered.contains(&c) {
                let [n, w] = c.north_west().map(|v| v as f32);
                let size = TILE_SIZE as f32;
                let bounds = [
                    glam::Vec3::new(n - size, w - size, 0.0),
                    glam::Vec3::new(n, w, 0.0),
                ];
                reach = reach.min(ground_distance(eye, &bounds));
            }
        }
    }
    (reach > 0.0).then(|| -above / above.hypot(reach))
}

/// What lies across one edge of a tile, for its skirt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Across {
    /// Nothing of the horizon or the terrain: the map's edge, or a tile the WDL lacks.
    Nothing,
    /// The real terrain.
    Terrain,
    /// A horizon tile drawn with this grid step.
    Horizon(usize),
}

/// Appends one tile's triangles at grid step `step` to `out`: its grid, then a skirt down
/// each edge whose neighbour is the real terrain or a horizon tile drawn at another step.
/// Where two steps meet, the edges differ between the shared vertices and either may be the
/// higher, so both tiles hang a skirt: together they fill the gap from the lower edge up
/// to the higher. `across` is north, south, west, east (rows run south).
pub fn tile_indices(first: u32, step: usize, across: [Across; 4], out: &mut Vec<u32>) {
    let side = SIDE as u32;
    let s = step as u32;
    let v = |r: u32, c: u32| first + r * side + c;
    let low = |r: u32, c: u32| first + (SIDE * SIDE) as u32 + r * side + c;
    let last = side - 1;
    for r in (0..last).step_by(step) {
        for c in (0..last).step_by(step) {
            out.extend([v(r, c), v(r + s, c), v(r, c + s)]);
            out.extend([v(r, c + s), v(r + s, c), v(r + s, c + s)]);
        }
    }
    let needs_skirt = |a: Across| match a {
        Across::Nothing => false,
        Across::Terrain => true,
        Across::Horizon(theirs) => theirs != step,
    };
    // Each edge as the (row, column) of its k-th vertex.
    let edges: [&dyn Fn(u32) -> (u32, u32); 4] =
        [&|k| (0, k), &|k| (last, k), &|k| (k, 0), &|k| (k, last)];
    for (edge, a) in edges.iter().zip(across) {
        if !needs_skirt(a) {
            continue;
        }
        for k in (0..last).step_by(step) {
            let (p, q) = (edge(k), edge(k + s));
            let (tp, tq) = (v(p.0, p.1), v(q.0, q.1));
            let (bp, bq) = (low(p.0, p.1), low(q.0, q.1));
            out.extend([tp, bp, tq, tq, bp, bq]);
        }
    }
}

/// True when the box (`min`, `max`) may show through `view_projection`: false only when all
/// its corners lie beyond one side of the view.
fn may_show(view_projection: &glam::Mat4, [min, max]: &[glam::Vec3; 2]) -> bool {
    let corners = (0..8).map(|k| {
        let pick = |bit: usize, lo: f32, hi: f32| if k & bit == 0 { lo } else { hi };
        *view_projection
            * glam::Vec4::new(
                pick(1, min.x, max.x),
                pick(2, min.y, max.y),
                pick(4, min.z, max.z),
                1.0,
            )
    });
    let corners: Vec<glam::Vec4> = corners.collect();
    let outside = |test: &dyn Fn(&glam::Vec4) -> bool| corners.iter().all(test);
    !(outside(&|c| c.x < -c.w)
        || outside(&|c| c.x > c.w)
        || outside(&|c| c.y < -c.w)
        || outside(&|c| c.y > c.w)
        || outside(&|c| c.z < -c.w)
        || outside(&|c| c.z > c.w))
}

/// The frame's triangles: the tiles in view and not drawn by the terrain, nearest first,
/// each at the step its distance gives, with the skirts their neighbours call for.
pub(super) fn frame_indices(
    tiles: &[MeshTile],
    drawn: &BTreeSet<TileCoord>,
    view_projection: &glam::Mat4,
    eye: glam::Vec3,
    out: &mut Vec<u32>,
) {
    out.clear();
    let steps: BTreeMap<TileCoord, usize> = tiles
        .iter()
        .filter(|t| !drawn.contains(&t.coord))
        .map(|t| (t.coord, detail_step(ground_distance(eye, &t.bounds))))
        .collect();
    let mut shown: Vec<(f32, &MeshTile)> = tiles
        .iter()
        .filter(|t| steps.contains_key(&t.coord) && may_show(view_projection, &t.bounds))
        .map(|t| (ground_distance(eye, &t.bounds), t))
        .collect();
    shown.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, t) in shown {
        let across = [(0, -1), (0, 1), (-1, 0), (1, 0)].map(|(dx, dy): (i16, i16)| {
            let x = usize::try_from(i16::from(t.coord.x) + dx).ok();
            let y = usize::try_from(i16::from(t.coord.y) + dy).ok();
            let near = x.zip(y).and_then(|(x, y)| TileCoord::new(x, y));
            match near {
                Some(n) if drawn.contains(&n) => Across::Terrain,
                Some(n) => steps
                    .get(&n)
                    .map_or(Across::Nothing, |s| Across::Horizon(*s)),
                None => Across::Nothing,
            }
        });
        tile_indices(t.first, steps[&t.coord], across, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::horizon::OUTER;

    fn vertex(m: &HorizonMesh, k: usize) -> &[f32] {
        &m.vertices[k * STRIDE..(k + 1) * STRIDE]
    }

    #[test]
    fn a_tile_is_a_9_by_9_grid_on_the_tile_with_its_skirt_copy_below() {
        let c = TileCoord::new(32, 32).unwrap();
        let mut tiles = HorizonTiles::new();
        tiles.insert(c, [10.0; OUTER]);
        let m = HorizonMesh::build(&tiles, &BTreeSet::new());
        assert_eq!(m.vertices.len(), TILE_VERTICES * STRIDE);
        let [north, west] = c.north_west();
        assert_eq!(
            vertex(&m, 0),
            &[north as f32, west as f32, 10.0, 0.0, 0.0, 1.0]
        );
        // The south-east corner, a tile's size away on both axes.
        let corner = vertex(&m, 80);
        assert_eq!(corner[0], (north - TILE_SIZE) as f32);
        assert_eq!(corner[1], (west - TILE_SIZE) as f32);
        // The skirt's copy: same place, below the tile (flat: 10 yards below).
        assert_eq!(&vertex(&m, 81)[..2], &vertex(&m, 0)[..2]);
        assert_eq!(vertex(&m, 81)[2], 0.0);
        assert_eq!(m.tiles.len(), 1);
        assert_eq!(m.tiles[0].bounds[1].z, 10.0);
    }

    /// Heights `k·col²` over two tiles side by side: the normal on their shared edge is the
    /// surface's own (the derivative `2·k·col` per sample) from both tiles, not two one-sided
    /// guesses that differ (which drew a seam down every tile edge).
    #[test]
    fn normals_on_a_shared_edge_agree_and_follow_the_surface() {
        let k = 0.05f32;
        let (west_tile, east_tile) = (
            TileCoord::new(32, 30).unwrap(),
            TileCoord::new(33, 30).unwrap(),
        );
        let heights = |tile: TileCoord| -> [f32; OUTER] {
            std::array::from_fn(|i| {
                let col = i64::from(tile.x) * 16 + (i % 17) as i64 - 32 * 16;
                k * (col * col) as f32
            })
        };
        let mut tiles = HorizonTiles::new();
        tiles.insert(west_tile, heights(west_tile));
        tiles.insert(east_tile, heights(east_tile));
        let m = HorizonMesh::build(&tiles, &BTreeSet::new());
        // Row 4 of the grid: the west tile's last column, the east tile's first.
        let from_west = vertex(&m, 4 * SIDE + 8);
        let from_east = vertex(&m, TILE_VERTICES + 4 * SIDE);
        assert_eq!(&from_west[..3], &from_east[..3], "the same point");
        // At the shared edge col = 16: dh/dcol = 2·k·16 per sample; columns run toward −y.
        let dh_dy = -(2.0 * k * 16.0) / CHUNK_SIZE as f32;
        let expected = glam::Vec3::new(0.0, -dh_dy, 1.0).normalize();
        for n in [&from_west[3..6], &from_east[3..6]] {
            let n = glam::Vec3::from_slice(n);
            assert!((n - expected).length() < 1e-5, "{n} against {expected}");
        }
    }

    #[test]
    fn detail_falls_with_distance() {
        let tile = TILE_SIZE as f32;
        assert_eq!(detail_step(0.0), 1);
        assert_eq!(detail_step(2.9 * tile), 1);
        assert_eq!(detail_step(3.1 * tile), 2);
        assert_eq!(detail_step(10.0 * tile), 4);
        assert_eq!(detail_step(30.0 * tile), 8);
    }

    #[test]
    fn a_tile_has_skirts_only_toward_the_terrain_and_tiles_of_another_step() {
        let count = |step: usize, across: [Across; 4]| {
            let mut out = Vec::new();
            tile_indices(0, step, across, &mut out);
            out
        };
        let none = [Across::Nothing; 4];
        assert_eq!(count(1, none).len(), 8 * 8 * 6);
        assert_eq!(count(8, none).len(), 6);
        // Neighbours at the same step: no skirt (their edges are this one's).
        assert_eq!(count(2, [Across::Horizon(2); 4]).len(), 4 * 4 * 6);
        // A finer and a coarser neighbour and the terrain: one skirt each, a quad per step.
        let skirted = count(
            2,
            [
                Across::Horizon(4),
                Across::Horizon(1),
                Across::Terrain,
                Across::Nothing,
            ],
        );
        assert_eq!(skirted.len(), 4 * 4 * 6 + 3 * 4 * 6);
        let lowered = skirted
            .iter()
            .filter(|&&i| i as usize >= SIDE * SIDE)
            .count();
        assert_eq!(
            lowered,
            3 * 4 * 3,
            "each skirt quad has two lowered corners"
        );
        assert!(skirted.iter().all(|&i| (i as usize) < TILE_VERTICES));
    }

    /// The gap between a fine tile's edge and a coarse neighbour's is closed: at every point
    /// of the shared edge, the two skirts together run from below the lower edge up to the
    /// higher one, whichever tile's that is.
    #[test]
    fn the_skirts_close_the_gap_between_a_fine_and_a_coarse_tile() {
        let (fine, coarse) = (
            TileCoord::new(20, 20).unwrap(),
            TileCoord::new(21, 20).unwrap(),
        );
        let mut state = 7u32;
        let mut next = || {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (state >> 16) as f32 / 65_536.0 * 200.0
        };
        let mut tiles = HorizonTiles::new();
        let fine_heights: [f32; OUTER] = std::array::from_fn(|_| next());
        let mut coarse_heights: [f32; OUTER] = std::array::from_fn(|_| next());
        for r in 0..17 {
            coarse_heights[r * 17] = fine_heights[r * 17 + 16];
        }
        tiles.insert(fine, fine_heights);
        tiles.insert(coarse, coarse_heights);
        let m = HorizonMesh::build(&tiles, &BTreeSet::new());
        let skirt_bottom = |tile: usize| vertex(&m, tile * TILE_VERTICES + SIDE * SIDE)[2];
        // The shared edge at a grid step, from north (t = 0) to south (t = 1).
        let edge = |t: f32, step: usize| {
            let k = (t * 8.0).min(7.999);
            let k0 = (k / step as f32).floor() as usize * step;
            let f = (k - k0 as f32) / step as f32;
            let h = |k: usize| fine_heights[(2 * k) * 17 + 16];
            h(k0) * (1.0 - f) + h(k0 + step) * f
        };
        let mut higher_on_each_side = [false; 2];
        for i in 0..=100 {
            let t = i as f32 / 100.0;
            let (fine_edge, coarse_edge) = (edge(t, 1), edge(t, 8));
            higher_on_each_side[usize::from(coarse_edge > fine_edge)] = true;
            // Each skirt hangs from its own edge; the higher edge's skirt spans the gap.
            let bottom = skirt_bottom(0).max(skirt_bottom(1));
            assert!(
                bottom <= fine_edge.min(coarse_edge),
                "at {t}: gap below the skirts"
            );
        }
        assert_eq!(
            higher_on_each_side,
            [true, true],
            "the test crosses both cases"
        );
        let skirts_toward = |step: usize, theirs: usize| {
            let mut out = Vec::new();
            let across = [
                Across::Nothing,
                Across::Nothing,
                Across::Nothing,
                Across::Horizon(theirs),
            ];
            tile_indices(0, step, across, &mut out);
            out.len() - (8 / step) * (8 / step) * 6
        };
        assert_eq!(
            skirts_toward(1, 8),
            8 * 6,
            "the fine tile's east edge is skirted"
        );
        assert_eq!(skirts_toward(8, 1), 6, "and the coarse tile's west edge");
    }

    #[test]
    fn a_frame_draws_the_nearest_tile_first_and_skips_the_terrains() {
        // Three tiles in a row eastward; the eye above the first, looking down at all three.
        let row: Vec<TileCoord> = (30..33).map(|x| TileCoord::new(x, 31).unwrap()).collect();
        let mut tiles = HorizonTiles::new();
        for c in &row {
            tiles.insert(*c, [0.0; OUTER]);
        }
        let m = HorizonMesh::build(&tiles, &BTreeSet::new());
        let [north, west] = row[0].north_west();
        let eye = glam::Vec3::new(north as f32 - 266.0, west as f32 - 266.0, 3000.0);
        let view = glam::camera::rh::view::look_at_mat4(
            eye,
            eye - glam::Vec3::new(0.0, 800.0, 3000.0),
            glam::Vec3::X,
        );
        let proj = glam::camera::rh::proj::opengl::perspective(1.4, 1.0, 20.0, 50_000.0);
        let mut out = Vec::new();
        let drawn = BTreeSet::from([row[1]]);
        frame_indices(&m.tiles, &drawn, &(proj * view), eye, &mut out);
        let first_of = |i: u32| i / TILE_VERTICES as u32;
        let order: Vec<u32> = out
            .iter()
            .map(|&i| first_of(i))
            .fold(Vec::new(), |mut v, t| {
                if v.last() != Some(&t) {
                    v.push(t);
                }
                v
            });
        assert_eq!(
            order,
            vec![0, 2],
            "the nearest first, the terrain's tile skipped"
        );
        // Tile 0 at full detail with a skirt toward the terrain's tile (east).
        let of_first = out.iter().filter(|&&i| first_of(i) == 0).count();
        assert_eq!(of_first, 8 * 8 * 6 + 8 * 6);
    }
}

#[cfg(test)]
mod sky_floor_tests {
    use super::*;
    use crate::doc::horizon::OUTER;

    fn all_tiles(height: f32) -> HorizonTiles {
        (0..TILES_PER_SIDE)
            .flat_map(|x| (0..TILES_PER_SIDE).map(move |y| TileCoord::new(x, y).unwrap()))
            .map(|c| (c, [height; OUTER]))
            .collect()
    }

    #[test]
    fn the_terrains_tiles_are_ground_but_get_no_horizon_vertices() {
        let mut tiles = HorizonTiles::new();
        let (drawn, far) = (
            TileCoord::new(32, 32).unwrap(),
            TileCoord::new(40, 32).unwrap(),
        );
        tiles.insert(drawn, [-50.0; OUTER]);
        tiles.insert(far, [10.0; OUTER]);
        let m = HorizonMesh::build(&tiles, &BTreeSet::from([drawn]));
        assert_eq!(m.tiles.len(), 1);
        assert_eq!(m.tiles[0].coord, far);
        assert_eq!(m.ground.covered, BTreeSet::from([drawn, far]));
        assert_eq!(m.ground.lowest, -50.0);
    }

    /// Over a map covered edge to edge at height 0, from 100 yards up at its centre: a ray
    /// falling just more steeply than the floor reaches the ground inside the map, one falling
    /// just less steeply leaves it first.
    #[test]
    fn rays_below_the_floor_meet_the_ground_before_leaving_it() {
        let m = HorizonMesh::build(&all_tiles(0.0), &BTreeSet::new());
        let eye = glam::Vec3::new(0.0, 0.0, 100.0);
        let floor = sky_floor(&m.ground, eye).unwrap();
        let to_edge = MAP_ORIGIN as f32;
        assert!((floor - (-100.0 / 100f32.hypot(to_edge))).abs() < 1e-6);
        // Where a ray of elevation sine `s` (< 0) reaches height 0, across the ground.
        let reach = |s: f32| 100.0 * (1.0 - s * s).sqrt() / -s;
        assert!(reach(floor * 1.01) < to_edge);
        assert!(reach(floor * 0.99) > to_edge);
    }

    #[test]
    fn a_missing_tile_near_the_eye_lowers_the_floor_and_none_when_below_the_ground() {
        let mut tiles = all_tiles(0.0);
        let hole = TileCoord::new(34, 32).unwrap();
        tiles.remove(&hole);
        let m = HorizonMesh::build(&tiles, &BTreeSet::new());
        let eye = glam::Vec3::new(-10.0, -10.0, 100.0);
        // The missing tile's nearest edge is at y = MAP_ORIGIN − 34 tiles, straight east.
        let gap = -10.0 - (MAP_ORIGIN - 34.0 * TILE_SIZE) as f32;
        let floor = sky_floor(&m.ground, eye).unwrap();
        assert!(
            (floor - (-100.0 / 100f32.hypot(gap))).abs() < 1e-5,
            "{floor}"
        );
        assert_eq!(sky_floor(&m.ground, glam::Vec3::new(0.0, 0.0, -5.0)), None);
        assert_eq!(sky_floor(&Ground::default(), eye), None, "no ground at all");
    }
}

#[cfg(test)]
mod culling {
    use super::*;

    #[test]
    fn a_tile_behind_the_eye_is_skipped_and_one_ahead_drawn() {
        let eye = glam::Vec3::new(0.0, 0.0, 100.0);
        let view = glam::camera::rh::view::look_to_mat4(eye, glam::Vec3::X, glam::Vec3::Z);
        let proj = glam::camera::rh::proj::opengl::perspective(1.0, 1.6, 20.0, 50_000.0);
        let vp = proj * view;
        let tile = |x: f32| {
            [
                glam::Vec3::new(x, -250.0, 0.0),
                glam::Vec3::new(x + 500.0, 250.0, 50.0),
            ]
        };
        assert!(may_show(&vp, &tile(1000.0)));
        assert!(!may_show(&vp, &tile(-2000.0)));
    }
}
