//! The map's vertices as one lattice, so that a vertex shared by neighbouring chunks (and tiles)
//! is computed once and written to every copy: edits cannot open seams.
//!
//! Outer vertices sit on an integer lattice `(gx, gy)` over the whole map (`gx` eastward with the
//! tile file's X, `gy` southward with its Y, 8 steps per chunk); a vertex on a chunk border has
//! two copies, a chunk corner four. Inner vertices sit at `(gx + ½, gy + ½)` and belong to one
//! chunk. World positions come from `model::coords`.
//!
//! The room: this module is the lattice itself; beside it, [`patch`] (a window of the lattice
//! read once per dab), [`exact`] (heights every copy of a shared vertex stores alike) and
//! [`normals`] (vertex normals across borders).
//!
//! Not for: edits over the lattice (`edit::terrain`, `edit::shapes`) or the seams between
//! chunk copies (`edit::terrain::seams`).

pub mod exact;
pub mod normals;
pub mod patch;

use crate::model::Map;
use crate::model::coords::{self, CHUNKS_PER_SIDE, TILES_PER_SIDE, TileCoord};

/// Outer-vertex steps per chunk.
pub const STEPS_PER_CHUNK: i32 = 8;
/// Outer-vertex steps across the whole map.
pub const MAP_STEPS: i32 = (TILES_PER_SIDE * CHUNKS_PER_SIDE) as i32 * STEPS_PER_CHUNK;

/// A vertex of the map: outer (on the lattice) or inner (centre of the quad right-down of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    /// Lattice column (eastward).
    pub gx: i32,
    /// Lattice row (southward).
    pub gy: i32,
    /// True for the inner vertex of quad (`gx`, `gy`).
    pub inner: bool,
}

/// One stored copy of a vertex: which tile, chunk index (row × 16 + column) and MCVT index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copy {
    /// The tile.
    pub tile: TileCoord,
    /// Chunk index in the tile.
    pub chunk: usize,
    /// Index in the chunk's 145 vertices.
    pub index: usize,
}

impl Vertex {
    /// World (x, y) of the vertex.
    pub fn world_xy(self) -> [f64; 2] {
        let half = if self.inner { 0.5 } else { 0.0 };
        coords::lattice_to_world(self.gx as f64 + half, self.gy as f64 + half)
    }

    /// Every place this vertex is stored (loaded or not), at most four.
    pub fn copies(self) -> impl Iterator<Item = Copy> {
        let cols = chunk_spans(self.gx, self.inner);
        let rows = chunk_spans(self.gy, self.inner);
        let inner = self.inner;
        rows.into_iter().flatten().flat_map(move |(crow, r)| {
            cols.into_iter().flatten().filter_map(move |(ccol, c)| {
                let tile = TileCoord::new(
                    ccol as usize / CHUNKS_PER_SIDE,
                    crow as usize / CHUNKS_PER_SIDE,
                )?;
                let chunk = (crow as usize % CHUNKS_PER_SIDE) * CHUNKS_PER_SIDE
                    + ccol as usize % CHUNKS_PER_SIDE;
                let index = if inner {
                    coords::inner_vertex(r, c)
                } else {
                    coords::outer_vertex(r, c)
                };
                Some(Copy { tile, chunk, index })
            })
        })
    }

    /// The vertex stored at `index` of chunk `chunk` of `tile`.
    pub fn of(tile: TileCoord, chunk: usize, index: usize) -> Vertex {
        let [ccol, crow] = coords::map_chunk(tile, chunk).map(|v| v as i32);
        let (row, rem) = ((index / 17) as i32, index % 17);
        let (col, inner) = if rem < 9 {
            (rem as i32, false)
        } else {
            ((rem - 9) as i32, true)
        };
        Vertex {
            gx: ccol * STEPS_PER_CHUNK + col,
            gy: crow * STEPS_PER_CHUNK + row,
            inner,
        }
    }
}

/// The chunks (global chunk column or row, offset inside it) that hold lattice line `g`: one, or
/// two on a chunk border.
fn chunk_spans(g: i32, inner: bool) -> [Option<(i32, usize)>; 2] {
    if !(0..=MAP_STEPS).contains(&g) || (inner && g == MAP_STEPS) {
        return [None, None];
    }
    let c = g.div_euclid(STEPS_PER_CHUNK);
    let off = g.rem_euclid(STEPS_PER_CHUNK) as usize;
    let last_chunk = MAP_STEPS / STEPS_PER_CHUNK - 1;
    if inner {
        return [Some((c, off)), None];
    }
    let here = (c <= last_chunk).then_some((c, off));
    let before = (off == 0 && c > 0).then_some((c - 1, STEPS_PER_CHUNK as usize));
    [here, before]
}

/// Every (tile, chunk index, global chunk column, global chunk row) whose vertices overlap lattice
/// columns `gx0..=gx1` and rows `gy0..=gy1`.
pub fn chunks_in(
    gx0: i32,
    gy0: i32,
    gx1: i32,
    gy1: i32,
) -> impl Iterator<Item = (TileCoord, usize, i32, i32)> {
    let last = MAP_STEPS / STEPS_PER_CHUNK - 1;
    let (c0, c1) = (
        (gx0 - 1).div_euclid(STEPS_PER_CHUNK).max(0),
        gx1.div_euclid(STEPS_PER_CHUNK).min(last),
    );
    let (r0, r1) = (
        (gy0 - 1).div_euclid(STEPS_PER_CHUNK).max(0),
        gy1.div_euclid(STEPS_PER_CHUNK).min(last),
    );
    (r0..=r1).flat_map(move |r| {
        (c0..=c1).filter_map(move |c| {
            let (tile, index) = coords::chunk_of_map_chunk(c as usize, r as usize)?;
            Some((tile, index, c, r))
        })
    })
}

/// Every loaded chunk a brush of `radius` lattice steps around (`cx`, `cy`) may reach.
pub fn chunks_near(map: &Map, cx: f64, cy: f64, radius: f64) -> Vec<(TileCoord, usize, i32, i32)> {
    let (gx0, gy0) = ((cx - radius).floor() as i32, (cy - radius).floor() as i32);
    let (gx1, gy1) = ((cx + radius).ceil() as i32, (cy + radius).ceil() as i32);
    chunks_in(
        gx0.max(0),
        gy0.max(0),
        gx1.min(MAP_STEPS),
        gy1.min(MAP_STEPS),
    )
    .filter(|(t, ..)| map.tiles.contains_key(t))
    .collect()
}

/// Reads the height of `v` from its first loaded copy.
pub fn height(map: &Map, v: Vertex) -> Option<f32> {
    v.copies().find_map(|c| {
        map.tiles
            .get(&c.tile)
            .map(|t| t.chunks[c.chunk].heights[c.index])
    })
}

/// Every vertex whose world position lies within `radius` (square half-size for square brushes
/// is handled by the caller's weight) of (`x`, `y`), outer and inner, with its distance offsets.
pub fn vertices_near(x: f64, y: f64, radius: f64) -> impl Iterator<Item = (Vertex, [f64; 2])> {
    let [gx_c, gy_c] = coords::world_to_lattice(x, y);
    let r = coords::yards_to_steps(radius) + 1.0;
    let (gx0, gx1) = (
        (gx_c - r).floor().max(0.0) as i32,
        ((gx_c + r).ceil() as i32).min(MAP_STEPS),
    );
    let (gy0, gy1) = (
        (gy_c - r).floor().max(0.0) as i32,
        ((gy_c + r).ceil() as i32).min(MAP_STEPS),
    );
    (gy0..=gy1).flat_map(move |gy| {
        (gx0..=gx1).flat_map(move |gx| {
            [false, true].into_iter().filter_map(move |inner| {
                let v = Vertex { gx, gy, inner };
                let [vx, vy] = v.world_xy();
                let d = [vx - x, vy - y];
                (d[0].abs() <= radius
                    && d[1].abs() <= radius
                    && !(inner && (gx == MAP_STEPS || gy == MAP_STEPS)))
                    .then_some((v, d))
            })
        })
    })
}

/// The terrain height at world (`x`, `y`), interpolated on the triangle of the quad it falls in
/// (each quad is four triangles around its inner vertex), if the tile is loaded.
pub fn height_at(map: &Map, x: f64, y: f64) -> Option<f32> {
    surface_at(map, x, y).map(|(h, _)| h)
}

/// The terrain at world (`x`, `y`) as the client draws it: the height on the triangle the point
/// falls in (each quad is four triangles around its inner vertex) and that triangle's unit
/// normal (world axes, pointing up), if the tile is loaded. Objects stand on this and tilt to
/// it, so that they meet the ground the player sees, not a nearby vertex.
pub fn surface_at(map: &Map, x: f64, y: f64) -> Option<(f32, [f64; 3])> {
    let [gx, gy] = coords::world_to_lattice(x, y);
    let (qx, qy) = (gx.floor() as i32, gy.floor() as i32);
    let (fx, fy) = (gx - qx as f64, gy - qy as f64);
    let corner = |dx, dy| {
        height(
            map,
            Vertex {
                gx: qx + dx,
                gy: qy + dy,
                inner: false,
            },
        )
    };
    let m = height(
        map,
        Vertex {
            gx: qx,
            gy: qy,
            inner: true,
        },
    )? as f64;
    // Pick the triangle (centre + one edge) the point is in, then interpolate barycentrically.
    let (a, b, pa, pb) = if fy <= fx && fy <= 1.0 - fx {
        (corner(0, 0)?, corner(1, 0)?, (0.0, 0.0), (1.0, 0.0))
    } else if fy >= fx && fy >= 1.0 - fx {
        (corner(0, 1)?, corner(1, 1)?, (0.0, 1.0), (1.0, 1.0))
    } else if fx < 0.5 {
        (corner(0, 0)?, corner(0, 1)?, (0.0, 0.0), (0.0, 1.0))
    } else {
        (corner(1, 0)?, corner(1, 1)?, (1.0, 0.0), (1.0, 1.0))
    };
    let (pm, p) = ((0.5, 0.5), (fx, fy));
    let det = (pb.1 - pm.1) * (pa.0 - pm.0) + (pm.0 - pb.0) * (pa.1 - pm.1);
    let la = ((pb.1 - pm.1) * (p.0 - pm.0) + (pm.0 - pb.0) * (p.1 - pm.1)) / det;
    let lb = ((pm.1 - pa.1) * (p.0 - pm.0) + (pa.0 - pm.0) * (p.1 - pm.1)) / det;
    let lm = 1.0 - la - lb;
    let h = (la * a as f64 + lb * b as f64 + lm * m) as f32;
    // The triangle in world space (x = north, y = west): lattice steps run south and east.
    let world = |(u, v): (f64, f64), z: f64| {
        let [wx, wy] = coords::lattice_to_world(qx as f64 + u, qy as f64 + v);
        glam::DVec3::new(wx, wy, z)
    };
    let (wa, wb, wm) = (world(pa, a as f64), world(pb, b as f64), world(pm, m));
    let n = (wb - wa).cross(wm - wa);
    let n = if n.z < 0.0 { -n } else { n };
    Some((h, n.normalize_or(glam::DVec3::Z).to_array()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn border_vertices_have_every_copy() {
        // A chunk corner inside a tile: four copies.
        let v = Vertex {
            gx: 8,
            gy: 8,
            inner: false,
        };
        assert_eq!(v.copies().count(), 4);
        // A tile corner: four copies in four tiles.
        let t = Vertex {
            gx: 128,
            gy: 128,
            inner: false,
        };
        let tiles: std::collections::BTreeSet<_> = t.copies().map(|c| c.tile).collect();
        assert_eq!(tiles.len(), 4);
        // An inner vertex: one copy.
        assert_eq!(
            Vertex {
                gx: 8,
                gy: 8,
                inner: true
            }
            .copies()
            .count(),
            1
        );
        // The map's edge: one copy.
        assert_eq!(
            Vertex {
                gx: 0,
                gy: 0,
                inner: false
            }
            .copies()
            .count(),
            1
        );
    }

    #[test]
    fn of_inverts_copies() {
        let tile = TileCoord::new(31, 40).unwrap();
        for chunk in [0, 17, 255] {
            for index in [0, 8, 9, 16, 136, 144] {
                let v = Vertex::of(tile, chunk, index);
                assert!(
                    v.copies().any(|c| c == Copy { tile, chunk, index }),
                    "{chunk} {index} {v:?}"
                );
                let [x, y] = v.world_xy();
                let [ex, ey] = coords::vertex_world_xy(tile, chunk % 16, chunk / 16, index);
                assert!((x - ex).abs() < 1e-6 && (y - ey).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn the_surface_normal_is_the_drawn_triangles() {
        // A tile rising 1 yd per yard northward (x): every triangle has the normal (-1, 0, 1)/√2.
        let tile = TileCoord::new(31, 31).unwrap();
        let mut map = Map::new("T");
        let mut t = crate::model::Tile::flat(tile, "a.blp", 0.0);
        for (ci, chunk) in t.chunks.iter_mut().enumerate() {
            for i in 0..145 {
                let [x, _] = coords::vertex_world_xy(tile, ci % 16, ci / 16, i);
                chunk.heights[i] = x as f32;
            }
        }
        map.tiles.insert(tile, t);
        let [nx, ny] = tile.north_west();
        let (h, n) = surface_at(&map, nx - 100.3, ny - 77.7).unwrap();
        assert!((f64::from(h) - (nx - 100.3)).abs() < 1e-2, "{h}");
        let s = std::f64::consts::FRAC_1_SQRT_2;
        assert!(
            (n[0] + s).abs() < 1e-4 && n[1].abs() < 1e-4 && (n[2] - s).abs() < 1e-4,
            "{n:?}"
        );
    }
}
