//! Vertex normals from the height field, across chunk and tile borders.
//!
//! Each quad of the terrain is drawn as four triangles around its inner vertex; a vertex's normal
//! is the area-weighted sum of the normals of the triangles it belongs to, stored as MCNR does:
//! world (x north, y west, z up) scaled to ±127. On unedited Blizzard tiles this reproduces the
//! stored normals to within a few units (a test holds it to that).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::patch::Patch;
use crate::edit::lattice::{MAP_STEPS, STEPS_PER_CHUNK, Vertex};
use crate::model::Map;
use crate::model::coords::{self, TileCoord};

fn position(v: Vertex, h: f32) -> [f64; 3] {
    let [x, y] = v.world_xy();
    [x, y, h as f64]
}

fn triangle_normal(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> [f64; 3] {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
    ];
    // Orientation depends on the corner order; terrain normals point up.
    if n[2] < 0.0 { [-n[0], -n[1], -n[2]] } else { n }
}

/// The four triangles of quad (`qx`, `qy`) as vertex triples, corners clockwise around the centre.
fn quad_triangles(qx: i32, qy: i32) -> [[Vertex; 3]; 4] {
    let o = |dx, dy| Vertex {
        gx: qx + dx,
        gy: qy + dy,
        inner: false,
    };
    let m = Vertex {
        gx: qx,
        gy: qy,
        inner: true,
    };
    [
        [o(0, 0), o(1, 0), m],
        [o(1, 0), o(1, 1), m],
        [o(1, 1), o(0, 1), m],
        [o(0, 1), o(0, 0), m],
    ]
}

/// The quads (offsets from `v`) whose triangles may have `v` as a corner: the quad an inner
/// vertex centres, the four around an outer one.
fn quads_around(v: Vertex) -> &'static [(i32, i32)] {
    if v.inner {
        &[(0, 0)]
    } else {
        &[(-1, -1), (0, -1), (-1, 0), (0, 0)]
    }
}

/// A sum of triangle normals as MCNR stores a normal: unit length scaled to ±127 (straight up
/// when the sum is nothing).
fn stored(sum: [f64; 3]) -> [i8; 3] {
    let len = (sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]).sqrt();
    if len < 1e-12 {
        return [0, 0, 127];
    }
    sum.map(|c| (c / len * 127.0).round().clamp(-127.0, 127.0) as i8)
}

/// The normal of `v` from the heights in `patch`, or `None` when `v` is not loaded.
pub fn normal_at(patch: &Patch, v: Vertex) -> Option<[i8; 3]> {
    patch.get(v)?;
    Some(summed(v, |qx, qy, k| {
        triangle_of(patch, quad_triangles(qx, qy)[k])
    }))
}

/// The normal of triangle `tri` from the heights in `patch`; `None` when a corner is not
/// loaded.
fn triangle_of(patch: &Patch, tri: [Vertex; 3]) -> Option<[f64; 3]> {
    let (a, b, c) = (patch.get(tri[0])?, patch.get(tri[1])?, patch.get(tri[2])?);
    Some(triangle_normal(
        position(tri[0], a),
        position(tri[1], b),
        position(tri[2], c),
    ))
}

/// The stored normal of `v`: the sum of the normals of the triangles it is a corner of, in
/// quad and triangle order, `triangle(qx, qy, k)` giving triangle `k` of quad (`qx`, `qy`).
fn summed(v: Vertex, triangle: impl Fn(i32, i32, usize) -> Option<[f64; 3]>) -> [i8; 3] {
    let mut sum = [0f64; 3];
    for &(dx, dy) in quads_around(v) {
        let (qx, qy) = (v.gx + dx, v.gy + dy);
        if qx < 0 || qy < 0 || qx >= MAP_STEPS || qy >= MAP_STEPS {
            continue;
        }
        for (k, tri) in quad_triangles(qx, qy).iter().enumerate() {
            if let Some(n) = tri.contains(&v).then(|| triangle(qx, qy, k)).flatten() {
                for c in 0..3 {
                    sum[c] += n[c];
                }
            }
        }
    }
    stored(sum)
}

/// Recomputes the normals of every vertex in lattice columns `gx0..=gx1`, rows `gy0..=gy1`, and
/// writes each to all its loaded copies. `before_write(map, tile, chunk)` runs once per chunk
/// before its first change. Returns the chunks written.
pub fn recompute(
    map: &mut Map,
    gx0: i32,
    gy0: i32,
    gx1: i32,
    gy1: i32,
    before_write: impl FnMut(&Map, TileCoord, usize),
) -> Vec<(TileCoord, usize)> {
    let patch = Patch::read(
        map,
        (gx0 - 1).max(0),
        (gy0 - 1).max(0),
        (gx1 + 1).min(MAP_STEPS),
        (gy1 + 1).min(MAP_STEPS),
    );
    let (x0, y0, x1, y1) = (
        gx0.max(0),
        gy0.max(0),
        gx1.min(MAP_STEPS),
        gy1.min(MAP_STEPS),
    );
    // Each triangle's normal once (a triangle has three corners, and `normal_at` would work
    // it out for each): the quads from one before the first column and row to the last.
    let quads = QuadNormals::of(&patch, x0 - 1, y0 - 1, x1, y1);
    let mut updates = Vec::new();
    for gy in y0..=y1 {
        for gx in x0..=x1 {
            for inner in [false, true] {
                let v = Vertex { gx, gy, inner };
                if let Some(n) = quads.normal_at(&patch, v) {
                    updates.push((v, n));
                }
            }
        }
    }
    write(map, updates, before_write)
}

/// The normals of the four triangles of each quad of a window (`None` where a corner is not
/// loaded), so that [`recompute`] sums them per vertex as [`normal_at`] does, in the same
/// order, for the same result.
struct QuadNormals {
    qx0: i32,
    qy0: i32,
    width: i32,
    normals: Vec<[Option<[f64; 3]>; 4]>,
}

impl QuadNormals {
    /// The quads `qx0..=qx1` × `qy0..=qy1` of `patch` (those off the map left empty).
    fn of(patch: &Patch, qx0: i32, qy0: i32, qx1: i32, qy1: i32) -> QuadNormals {
        let width = qx1 - qx0 + 1;
        let mut normals = Vec::with_capacity((width * (qy1 - qy0 + 1)).max(0) as usize);
        for qy in qy0..=qy1 {
            for qx in qx0..=qx1 {
                let mut four = [None; 4];
                if qx >= 0 && qy >= 0 && qx < MAP_STEPS && qy < MAP_STEPS {
                    for (k, tri) in quad_triangles(qx, qy).into_iter().enumerate() {
                        four[k] = triangle_of(patch, tri);
                    }
                }
                normals.push(four);
            }
        }
        QuadNormals {
            qx0,
            qy0,
            width,
            normals,
        }
    }

    /// `normal_at(patch, v)` from the kept triangle normals.
    fn normal_at(&self, patch: &Patch, v: Vertex) -> Option<[i8; 3]> {
        patch.get(v)?;
        Some(summed(v, |qx, qy, k| {
            let at = ((qy - self.qy0) * self.width + (qx - self.qx0)) as usize;
            self.normals[at][k]
        }))
    }
}

/// Recomputes the normals of every vertex whose triangles have one of `changed` as a corner
/// (the vertices themselves and those one lattice step around them), and nothing else: unlike
/// [`recompute`] over a rectangle, normals of untouched terrain keep their stored values, which
/// matters where the changed vertices are scattered along chunk borders (stitching seams).
/// `before_write` and the result are as for [`recompute`].
pub fn recompute_around(
    map: &mut Map,
    changed: &[Vertex],
    before_write: impl FnMut(&Map, TileCoord, usize),
) -> Vec<(TileCoord, usize)> {
    let last_chunk = MAP_STEPS / STEPS_PER_CHUNK - 1;
    // The affected vertices, grouped by the chunk whose window covers them, so that each chunk's
    // heights are read once.
    let mut groups: BTreeMap<(i32, i32), BTreeSet<Vertex>> = BTreeMap::new();
    for v in changed {
        for w in sharing_triangles(*v) {
            if !(0..=MAP_STEPS).contains(&w.gx) || !(0..=MAP_STEPS).contains(&w.gy) {
                continue;
            }
            if w.inner && (w.gx == MAP_STEPS || w.gy == MAP_STEPS) {
                continue;
            }
            let key = (
                w.gx.div_euclid(STEPS_PER_CHUNK).min(last_chunk),
                w.gy.div_euclid(STEPS_PER_CHUNK).min(last_chunk),
            );
            groups.entry(key).or_default().insert(w);
        }
    }
    let mut updates = Vec::new();
    for ((c, r), vertices) in groups {
        let (x0, y0) = (c * STEPS_PER_CHUNK, r * STEPS_PER_CHUNK);
        let patch = Patch::read(
            map,
            (x0 - 1).max(0),
            (y0 - 1).max(0),
            (x0 + STEPS_PER_CHUNK + 1).min(MAP_STEPS),
            (y0 + STEPS_PER_CHUNK + 1).min(MAP_STEPS),
        );
        updates.extend(
            vertices
                .into_iter()
                .filter_map(|v| Some((v, normal_at(&patch, v)?))),
        );
    }
    write(map, updates, before_write)
}

/// `v` and every vertex it shares a triangle with (whose normal its height changes).
fn sharing_triangles(v: Vertex) -> Vec<Vertex> {
    let at = |dx: i32, dy: i32, inner: bool| Vertex {
        gx: v.gx + dx,
        gy: v.gy + dy,
        inner,
    };
    if v.inner {
        // Its own quad: the four corners and itself.
        vec![
            at(0, 0, false),
            at(1, 0, false),
            at(0, 1, false),
            at(1, 1, false),
            v,
        ]
    } else {
        // The four quads around it: the eight outer neighbours, itself, and their centres.
        let mut out: Vec<Vertex> = (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
            .map(|(dx, dy)| at(dx, dy, false))
            .collect();
        out.extend([
            at(-1, -1, true),
            at(0, -1, true),
            at(-1, 0, true),
            at(0, 0, true),
        ]);
        out
    }
}

/// Writes each normal to every loaded copy of its vertex, calling `before_write` once per chunk
/// before its first change; returns the chunks written.
fn write(
    map: &mut Map,
    updates: Vec<(Vertex, [i8; 3])>,
    mut before_write: impl FnMut(&Map, TileCoord, usize),
) -> Vec<(TileCoord, usize)> {
    let mut written: Vec<(TileCoord, usize)> = Vec::new();
    // Membership in a set: a map-wide stitch writes thousands of chunks.
    let mut seen: HashSet<(TileCoord, usize)> = HashSet::new();
    for (v, n) in updates {
        for c in v.copies() {
            let Some(tile) = map.tiles.get(&c.tile) else {
                continue;
            };
            if tile.chunks[c.chunk].normals[c.index] == n {
                continue;
            }
            if seen.insert((c.tile, c.chunk)) {
                before_write(map, c.tile, c.chunk);
                written.push((c.tile, c.chunk));
            }
            if let Some(tile) = map.tiles.get_mut(&c.tile) {
                tile.chunks[c.chunk].normals[c.index] = n;
            }
        }
    }
    written
}

/// Recomputes every normal of one tile (after generating or converting terrain).
pub fn recompute_tile(map: &mut Map, tile: TileCoord) {
    let v0 = Vertex::of(tile, 0, coords::outer_vertex(0, 0));
    let v1 = Vertex::of(tile, 255, coords::outer_vertex(8, 8));
    recompute(map, v0.gx, v0.gy, v1.gx, v1.gy, |_, _, _| {});
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_kept_triangle_normals_give_what_normal_at_gives() {
        let mut map = crate::sample::sample_map();
        // The sample's tiles are 31 and 32 in both directions: 128 steps a tile. The window
        // crosses the border between its tiles.
        let patch = Patch::read(&map, 4040, 4040, 4150, 4150);
        let quads = QuadNormals::of(&patch, 4049, 4049, 4140, 4140);
        let mut checked = 0;
        for gy in 4050..=4140 {
            for gx in 4050..=4140 {
                for inner in [false, true] {
                    let v = Vertex { gx, gy, inner };
                    assert_eq!(quads.normal_at(&patch, v), normal_at(&patch, v), "{v:?}");
                    checked += usize::from(normal_at(&patch, v).is_some());
                }
            }
        }
        assert!(checked > 7000, "{checked} vertices checked");
        // And recompute writes what normal_at gives.
        let touched = recompute(&mut map, 4090, 4090, 4110, 4110, |_, _, _| {});
        assert!(!touched.is_empty());
    }
    use super::*;

    #[test]
    fn recomputed_normals_match_blizzards_on_a_real_tile() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpus/warcraft-net/ADT/Northrend_37_25.adt");
        let opened = crate::pipeline::open_map(&path).unwrap_or_else(|e| {
            panic!(
                "the corpus tile could not be read: looked for {} ({e})",
                path.display()
            )
        });
        let mut map = opened.map;
        let coord = *map.tiles.keys().next().unwrap();
        let before = map.tiles[&coord].clone();
        recompute_tile(&mut map, coord);
        let after = &map.tiles[&coord];
        let (mut total, mut n, mut worst) = (0f64, 0usize, 0i32);
        for (a, b) in before.chunks.iter().zip(&after.chunks) {
            for (p, q) in a.normals.iter().zip(b.normals.iter()) {
                let d = (0..3)
                    .map(|k| (p[k] as i32 - q[k] as i32).abs())
                    .max()
                    .unwrap();
                total += d as f64;
                n += 1;
                worst = worst.max(d);
            }
        }
        let mean = total / n as f64;
        // Tile-edge vertices lack their neighbours' triangles here, so allow a few outliers.
        assert!(
            mean < 2.5,
            "mean component difference {mean}, worst {worst}"
        );
    }
}
