//! Shadows cast by placed models (doodads and WMOs) onto the terrain: what Blizzard's own baked
//! maps hold (docs/shadows.md: their MCSH bits trail away from trees and walls, not hills).
//!
//! Each model triangle, placed in the world (`coords::placement_matrix`), is carried along the
//! sun's rays down onto the terrain (each corner separately, a few steps of "how far above the
//! ground under me is this point"), and the shadow cells whose centres the carried triangle
//! covers are set. Shadows only add: a bake of the terrain first ([`super::shadows`]), then the
//! models over it. The triangles come from the caller (`shape`), which reads the model files:
//! this module knows no file formats.
//!
//! Approximation: a corner carried onto the ground lands where the ground is, but the straight
//! edges between carried corners ignore the terrain in between; on rolling ground under small
//! models the difference is a fraction of a cell.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::shadows::Sun;
use crate::edit::lattice;
use crate::model::chunk::{FLAG_HAS_SHADOW, ShadowMap};
use crate::model::coords::{self, CHUNKS_PER_SIDE};
use crate::model::objects::{Placement, placements};
use crate::model::{Chunk, Map, ObjectKind, Tile, TileCoord};

/// A model's triangles in model space (z up), as the caller read them.
pub type Shape = Arc<Vec<[[f32; 3]; 3]>>;

/// Where a bake finds a model's triangles by its path (`None`: it cannot).
pub type ShapeOf<'a> = &'a dyn Fn(&str) -> Option<Shape>;

/// Shadow cells along a tile's side (64 a chunk).
const CELLS: usize = 64 * CHUNKS_PER_SIDE;

/// One placed object that can cast: its model and where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Caster {
    /// The model path (`.m2`, `.mdx` or `.wmo`).
    pub model: String,
    /// uniqueId, so that an object listed by several tiles casts once.
    pub unique_id: u32,
    /// World position (x north, y west, z up).
    pub position: [f64; 3],
    /// Rotation in degrees as the record stores it.
    pub rotation: [f32; 3],
    /// Scale factor.
    pub scale: f32,
}

/// The objects `tile` lists, as casters (records naming a model the tile lacks are skipped).
pub fn casters_of(tile: &Tile) -> Vec<Caster> {
    [ObjectKind::Doodad, ObjectKind::Wmo]
        .into_iter()
        .flat_map(|kind| placements(tile, kind))
        .filter_map(|p| {
            Some(Caster {
                model: p.model(tile)?.clone(),
                unique_id: p.unique_id(),
                position: p.position(),
                rotation: p.rotation(),
                // A WMO record's last word is padding in 3.3.5, not a scale.
                scale: match p {
                    Placement::Doodad(d) => d.scale_factor(),
                    Placement::Wmo(_) => 1.0,
                },
            })
        })
        .collect()
}

/// What casting did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cast {
    /// Objects whose model was found and cast.
    pub objects: usize,
    /// Objects whose model `shape` could not give (not cast).
    pub missing: BTreeSet<String>,
    /// Cells newly shadowed.
    pub cells: u64,
    /// Chunks whose shadow map (or its presence) changed, by their index in their tile.
    pub changed: Vec<usize>,
}

impl Cast {
    /// Adds another tile's casting to these totals (an object near a tile border counts once
    /// for each tile it casts into).
    pub fn add(&mut self, other: Cast) {
        self.objects += other.objects;
        self.cells += other.cells;
        self.missing.extend(other.missing);
        self.changed.extend(other.changed);
    }
}

/// The shadow maps of `tile`'s chunks with the shadows of `casters` added (only the chunks that
/// change, with their index). `shape` gives a model's triangles; `ground` the terrain height at a
/// world (x, y), `None` where it has none (the corner then stays where it was carried last).
/// Objects are cast once per uniqueId.
pub fn shadows_of(
    tile: &Tile,
    casters: &[Caster],
    sun: Sun,
    shape: ShapeOf<'_>,
    ground: &dyn Fn(f64, f64) -> Option<f32>,
) -> (Vec<(usize, ShadowMap)>, Cast) {
    let mut cells = vec![0u64; CELLS * CELLS / 64];
    let mut cast = Cast::default();
    let to_sun = sun.toward();
    let (tx, ty) = (tile.coord.x as f64, tile.coord.y as f64);
    let mut seen = BTreeSet::new();
    for c in casters {
        if !seen.insert(c.unique_id) {
            continue;
        }
        let Some(triangles) = shape(&c.model) else {
            cast.missing.insert(c.model.clone());
            continue;
        };
        cast.objects += 1;
        let m = coords::placement_matrix(c.position, c.rotation, c.scale);
        for t in triangles.iter() {
            let flat = t.map(|v| {
                let p = m.transform_point3(glam::DVec3::new(
                    f64::from(v[0]),
                    f64::from(v[1]),
                    f64::from(v[2]),
                ));
                carry(p.to_array(), to_sun, ground)
            });
            // Tile cells (row south, column east) of the carried corners.
            let rc = flat.map(|[x, y]| {
                let [col, row] = coords::tile_grid_position(x, y);
                let cells = CELLS as f64;
                [(row - ty) * cells - 0.5, (col - tx) * cells - 0.5]
            });
            fill_triangle(&mut cells, rc);
        }
    }
    let mut out = Vec::new();
    for (index, chunk) in tile
        .chunks
        .iter()
        .enumerate()
        .take(CHUNKS_PER_SIDE * CHUNKS_PER_SIDE)
    {
        let (cx, cy) = (index % CHUNKS_PER_SIDE, index / CHUNKS_PER_SIDE);
        let mut rows = chunk
            .shadow
            .as_ref()
            .map_or(Box::new([0u64; 64]), |s| s.rows.clone());
        let mut added = 0;
        for (r, row) in rows.iter_mut().enumerate() {
            let bits = cells[(cy * 64 + r) * CHUNKS_PER_SIDE + cx];
            added += (bits & !*row).count_ones() as u64;
            *row |= bits;
        }
        if added > 0 {
            cast.cells += added;
            cast.changed.push(index);
            out.push((index, ShadowMap { rows }));
        }
    }
    (out, cast)
}

/// Adds the shadows of `casters` to `tile`'s maps (setting each changed chunk's shadow flag).
pub fn cast_onto(
    tile: &mut Tile,
    casters: &[Caster],
    sun: Sun,
    shape: ShapeOf<'_>,
    ground: &dyn Fn(f64, f64) -> Option<f32>,
) -> Cast {
    let (maps, cast) = shadows_of(tile, casters, sun, shape, ground);
    for (index, map) in maps {
        put_shadow(&mut tile.chunks[index], map);
    }
    cast
}

/// Adds the placed models' shadows to the loaded tiles `tiles` of `map`: each is cast on by
/// the objects of the tile and its neighbours, carried onto the map's ground. `write` is asked
/// before each changed chunk (tile, index) is written: it may remember the chunk first (an undo
/// step) or refuse it (a chunk outside a selection).
pub fn cast_over(
    map: &mut Map,
    tiles: impl IntoIterator<Item = TileCoord>,
    sun: Sun,
    shape: ShapeOf<'_>,
    mut write: impl FnMut(&Map, TileCoord, usize) -> bool,
) -> Cast {
    let mut total = Cast::default();
    for coord in tiles {
        let Some(tile) = map.tiles.get(&coord) else {
            continue;
        };
        let casters = casters_around(map, coord);
        let ground = |x: f64, y: f64| lattice::height_at(map, x, y);
        let (maps, cast) = shadows_of(tile, &casters, sun, shape, &ground);
        for (index, s) in maps {
            if write(map, coord, index)
                && let Some(t) = map.tiles.get_mut(&coord)
            {
                put_shadow(&mut t.chunks[index], s);
            }
        }
        total.add(cast);
    }
    total
}

/// Gives `chunk` the shadow map `shadow`, with the MCNK flag that says it has one.
fn put_shadow(chunk: &mut Chunk, shadow: ShadowMap) {
    chunk.shadow = Some(shadow);
    chunk.flags |= FLAG_HAS_SHADOW;
}

/// Carries world point `p` away from the sun until it meets the ground: (x, y) where its
/// shadow falls. A point under the ground casts where it is.
fn carry(p: [f64; 3], to_sun: [f64; 3], ground: &dyn Fn(f64, f64) -> Option<f32>) -> [f64; 2] {
    let mut t = 0.0f64;
    let mut last = p[2];
    for _ in 0..6 {
        let (x, y) = (p[0] - t * to_sun[0], p[1] - t * to_sun[1]);
        let h = ground(x, y).map_or(last, f64::from);
        last = h;
        let z = p[2] - t * to_sun[2];
        // How much further along the ray the ground lies, were it level from here.
        let step = (z - h) / to_sun[2];
        t = (t + step).max(0.0);
        if step.abs() < 0.01 {
            break;
        }
    }
    [p[0] - t * to_sun[0], p[1] - t * to_sun[1]]
}

/// Sets, in the tile-wide bit grid `cells` (a row of `CELLS` bits as `CHUNKS_PER_SIDE` words),
/// every cell whose centre lies in the triangle with corners `rc` (fractional row, column of
/// cell centres).
fn fill_triangle(cells: &mut [u64], rc: [[f64; 2]; 3]) {
    let lo = |k: usize| rc.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min);
    let hi = |k: usize| rc.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max);
    let last = (CELLS - 1) as f64;
    if hi(0) < 0.0 || hi(1) < 0.0 || lo(0) > last || lo(1) > last {
        return;
    }
    let (r0, r1) = (
        lo(0).max(0.0).ceil() as usize,
        hi(0).min(last).floor() as usize,
    );
    let (c0, c1) = (
        lo(1).max(0.0).ceil() as usize,
        hi(1).min(last).floor() as usize,
    );
    let edge = |a: [f64; 2], b: [f64; 2], p: [f64; 2]| {
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    };
    let [a, b, c] = rc;
    if edge(a, b, c).abs() < 1e-12 || r0 > r1 || c0 > c1 {
        return;
    }
    for r in r0..=r1 {
        for k in c0..=c1 {
            let p = [r as f64, k as f64];
            let (e0, e1, e2) = (edge(a, b, p), edge(b, c, p), edge(c, a, p));
            let inside =
                (e0 >= 0.0 && e1 >= 0.0 && e2 >= 0.0) || (e0 <= 0.0 && e1 <= 0.0 && e2 <= 0.0);
            if inside {
                cells[r * CHUNKS_PER_SIDE + k / 64] |= 1 << (k % 64);
            }
        }
    }
}

/// The casters of `tile` and its loaded neighbours (an object beside the tile casts into it).
pub fn casters_around(map: &Map, coord: TileCoord) -> Vec<Caster> {
    let mut out = Vec::new();
    for dy in -1i32..=1 {
        for dx in -1i32..=1 {
            let (x, y) = (coord.x as i32 + dx, coord.y as i32 + dy);
            let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
                continue;
            };
            if let Some(t) = TileCoord::new(x, y).and_then(|c| map.tiles.get(&c)) {
                out.extend(casters_of(t));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_triangle_fills_the_cells_whose_centres_it_covers() {
        let mut cells = vec![0u64; CELLS * CELLS / 64];
        fill_triangle(&mut cells, [[0.0, 0.0], [0.0, 10.0], [10.0, 0.0]]);
        let set = |r: usize, k: usize| cells[r * CHUNKS_PER_SIDE + k / 64] >> (k % 64) & 1 == 1;
        assert!(set(0, 0) && set(5, 5) && set(0, 10) && set(10, 0));
        assert!(!set(6, 5) && !set(11, 0) && !set(0, 11));
        let n: u32 = cells.iter().map(|w| w.count_ones()).sum();
        assert_eq!(n, 66, "the 11 + 10 + … + 1 cells of the half square");
    }

    #[test]
    fn a_point_is_carried_away_from_the_sun_onto_level_ground() {
        // Sun in the north (azimuth 0) at 45°: a point 10 yd up falls 10 yd south.
        let sun = Sun::new(0.0, 45.0).unwrap();
        let (sa, ca) = sun.azimuth.to_radians().sin_cos();
        let (se, ce) = sun.elevation.to_radians().sin_cos();
        let to_sun = [ca * ce, -sa * ce, se];
        let [x, y] = carry([100.0, 50.0, 10.0], to_sun, &|_, _| Some(0.0));
        assert!(
            (x - 90.0).abs() < 1e-9 && (y - 50.0).abs() < 1e-9,
            "{x} {y}"
        );
    }
}
