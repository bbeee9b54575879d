//! Edits of a chosen set of vertices (the editor's vertex selection): raise or lower by a
//! value, set to a height, put onto a plane, smooth inside. Each eases off across a soft ring
//! of a chosen width outside the selection, so that the edit leaves no step at its border.
//! Vertices are map-wide lattice vertices (`lattice::Vertex`), so a vertex on a chunk or tile
//! border is one vertex and all its copies move together, and the heights are stored as every
//! copy reads back alike (`patch`, `exact`).
//!
//! Also which loaded vertices a box, a loop or a circle on the ground covers, for the editor's
//! selection to take.
//!
//! Not for: following the mouse (the editor), the plane's maths (`plane`).

use std::collections::{BTreeSet, HashMap};

use crate::edit::lattice::patch::Patch;
use crate::edit::lattice::{self, MAP_STEPS, Vertex};
use crate::edit::stroke::Stroke;
use crate::edit::terrain::plane::Plane;
use crate::edit::terrain::sculpt;
use crate::model::coords;
use crate::model::{Map, TileCoord};

/// What to do to the selected vertices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SelectionEdit {
    /// Add this many yards (negative lowers).
    Raise(f32),
    /// Set to this height.
    SetHeight(f32),
    /// Put onto the plane.
    OntoPlane(Plane),
    /// Move toward the mean of each vertex's neighbours by this fraction (0..1).
    Smooth(f32),
}

impl SelectionEdit {
    /// The name an undo step shows.
    pub fn name(&self) -> &'static str {
        match self {
            SelectionEdit::Raise(d) if *d < 0.0 => "Lower selection",
            SelectionEdit::Raise(_) => "Raise selection",
            SelectionEdit::SetHeight(_) => "Set selection's height",
            SelectionEdit::OntoPlane(_) => "Selection onto plane",
            SelectionEdit::Smooth(_) => "Smooth selection",
        }
    }
}

/// How strongly each vertex takes the edit: 1 for the selected ones, easing (smoothstep) to 0
/// across the `ring` yards around them (by the distance to the nearest selected vertex).
pub fn weights(selected: &BTreeSet<Vertex>, ring: f64) -> HashMap<Vertex, f32> {
    let mut out: HashMap<Vertex, f32> = selected.iter().map(|&v| (v, 1.0)).collect();
    if !(ring > 0.0 && ring.is_finite()) {
        return out;
    }
    let steps = coords::yards_to_steps(ring).ceil() as i32 + 1;
    for &s in selected {
        let [sx, sy] = s.world_xy();
        for gy in (s.gy - steps).max(0)..=(s.gy + steps).min(MAP_STEPS) {
            for gx in (s.gx - steps).max(0)..=(s.gx + steps).min(MAP_STEPS) {
                for inner in [false, true] {
                    if inner && (gx == MAP_STEPS || gy == MAP_STEPS) {
                        continue;
                    }
                    let v = Vertex { gx, gy, inner };
                    let [x, y] = v.world_xy();
                    let d = (x - sx).hypot(y - sy);
                    if d >= ring {
                        continue;
                    }
                    let t = d / ring;
                    let w = (1.0 - t * t * (3.0 - 2.0 * t)) as f32;
                    let slot = out.entry(v).or_insert(0.0);
                    *slot = slot.max(w);
                }
            }
        }
    }
    out
}

/// Applies `edit` to the vertices `selected` of `map` (those loaded), easing off across `ring`
/// yards around them, into `stroke`; returns the chunks written (normals included).
pub fn apply(
    map: &mut Map,
    selected: &BTreeSet<Vertex>,
    edit: SelectionEdit,
    ring: f64,
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    let weights = weights(selected, ring);
    let Some((gx0, gy0, gx1, gy1)) = weights.keys().fold(None, |b, v| {
        let (x0, y0, x1, y1) = b.unwrap_or((v.gx, v.gy, v.gx, v.gy));
        Some((x0.min(v.gx), y0.min(v.gy), x1.max(v.gx), y1.max(v.gy)))
    }) else {
        return Vec::new();
    };
    // One step more around, so that smoothing sees the neighbours of the ring's rim.
    let clamp = |g: i32| g.clamp(0, MAP_STEPS);
    let mut patch = Patch::read(
        map,
        clamp(gx0 - 1),
        clamp(gy0 - 1),
        clamp(gx1 + 2),
        clamp(gy1 + 2),
    );
    let reading = patch.clone();
    let mut order: Vec<(&Vertex, &f32)> = weights.iter().collect();
    order.sort_unstable_by_key(|(v, _)| **v);
    for (&v, &w) in order {
        let Some(h) = reading.get(v) else { continue };
        let toward = |target: f32| {
            if w >= 1.0 {
                target
            } else {
                h + (target - h) * w
            }
        };
        let new = match edit {
            SelectionEdit::Raise(d) => h + d * w,
            SelectionEdit::SetHeight(target) => toward(target),
            SelectionEdit::OntoPlane(plane) => {
                let [x, y] = v.world_xy();
                toward(plane.height_at(x, y) as f32)
            }
            SelectionEdit::Smooth(strength) => match sculpt::neighbour_mean(&reading, v) {
                Some(mean) => h + (mean - h) * (strength * w).clamp(0.0, 1.0),
                None => h,
            },
        };
        patch.set(v, new);
    }
    sculpt::commit_heights(map, &patch, stroke)
}

/// The loaded vertices, outer and inner, whose world (x, y) lies in the lattice window
/// covering `[x0, y0, x1, y1]` (any order) and for which `inside` holds.
fn loaded_within(
    map: &Map,
    [x0, y0, x1, y1]: [f64; 4],
    inside: impl Fn(f64, f64) -> bool,
) -> Vec<Vertex> {
    let [ga, gb] = [
        coords::world_to_lattice(x0, y0),
        coords::world_to_lattice(x1, y1),
    ];
    let lo = |a: f64, b: f64| (a.min(b).floor() as i32).clamp(0, MAP_STEPS);
    let hi = |a: f64, b: f64| (a.max(b).ceil() as i32).clamp(0, MAP_STEPS);
    let (gx0, gx1, gy0, gy1) = (
        lo(ga[0], gb[0]),
        hi(ga[0], gb[0]),
        lo(ga[1], gb[1]),
        hi(ga[1], gb[1]),
    );
    let mut out = Vec::new();
    for gy in gy0..=gy1 {
        for gx in gx0..=gx1 {
            for inner in [false, true] {
                if inner && (gx == MAP_STEPS || gy == MAP_STEPS) {
                    continue;
                }
                let v = Vertex { gx, gy, inner };
                let [x, y] = v.world_xy();
                if inside(x, y) && lattice::height(map, v).is_some() {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// The loaded vertices inside the world rectangle with corners `a` and `b` (a box dragged on
/// the ground).
pub fn in_box(map: &Map, a: [f64; 2], b: [f64; 2]) -> Vec<Vertex> {
    let (x0, x1) = (a[0].min(b[0]), a[0].max(b[0]));
    let (y0, y1) = (a[1].min(b[1]), a[1].max(b[1]));
    loaded_within(map, [x0, y0, x1, y1], |x, y| {
        (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
    })
}

/// The loaded vertices inside the closed loop `outline` (world x, y; a lasso drawn on the
/// ground), by the even-odd rule; none for fewer than three points.
pub fn in_loop(map: &Map, outline: &[[f64; 2]]) -> Vec<Vertex> {
    if outline.len() < 3 {
        return Vec::new();
    }
    let bounds = outline.iter().fold(
        [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ],
        |b, p| {
            [
                b[0].min(p[0]),
                b[1].min(p[1]),
                b[2].max(p[0]),
                b[3].max(p[1]),
            ]
        },
    );
    loaded_within(map, bounds, |x, y| {
        let mut inside = false;
        let mut j = outline.len() - 1;
        for (i, a) in outline.iter().enumerate() {
            let b = outline[j];
            if (a[1] > y) != (b[1] > y) && x < (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]) + a[0] {
                inside = !inside;
            }
            j = i;
        }
        inside
    })
}

/// The loaded vertices within `radius` yards of world `centre` (a brush over the ground).
pub fn in_circle(map: &Map, centre: [f64; 2], radius: f64) -> Vec<Vertex> {
    let [cx, cy] = centre;
    let r = radius.max(0.0);
    loaded_within(map, [cx - r, cy - r, cx + r, cy + r], |x, y| {
        (x - cx).hypot(y - cy) <= r
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::lattice;
    use crate::model::Tile;

    /// Two tiles side by side, bumpy, every copy of a shared vertex alike; chunk bases that do
    /// not all store the same floats.
    fn map() -> Map {
        let mut map = Map::new("Test");
        for x in [31, 32] {
            let coord = TileCoord::new(x, 32).unwrap();
            let mut tile = Tile::flat(coord, "T.blp", 0.0);
            for (i, chunk) in tile.chunks.iter_mut().enumerate() {
                chunk.base_height = 3.7 * (i % 5) as f32 - 2.1;
                for k in 0..145 {
                    let [wx, wy] = Vertex::of(coord, i, k).world_xy();
                    chunk.heights[k] = (5.0 * (wx * 0.05).sin() + 0.3 * wy) as f32;
                }
            }
            map.tiles.insert(coord, tile);
        }
        map
    }

    /// The vertices around the tile border between 31_32 and 32_32, a few chunks tall.
    fn across_the_border() -> BTreeSet<Vertex> {
        let border = 32 * 128;
        let mut out = BTreeSet::new();
        for gy in 32 * 128 + 20..32 * 128 + 40 {
            for gx in border - 5..=border + 5 {
                out.insert(Vertex {
                    gx,
                    gy,
                    inner: false,
                });
                out.insert(Vertex {
                    gx,
                    gy,
                    inner: true,
                });
            }
        }
        out
    }

    fn every_copy_alike(map: &Map, v: Vertex) -> bool {
        let read: Vec<u32> = v
            .copies()
            .filter_map(|c| {
                let chunk = &map.tiles.get(&c.tile)?.chunks[c.chunk];
                let (h, base) = (chunk.heights[c.index], chunk.base_height);
                Some((base + (h - base)).to_bits())
            })
            .collect();
        read.iter().all(|&r| r == read[0])
    }

    #[test]
    fn each_edit_moves_the_selection_and_eases_off_across_the_ring() {
        let selected = across_the_border();
        let plane =
            Plane::through([[-10.0, 0.0, 40.0], [-30.0, 5.0, 42.0], [-12.0, 20.0, 39.0]]).unwrap();
        for edit in [
            SelectionEdit::Raise(12.5),
            SelectionEdit::Raise(-4.0),
            SelectionEdit::SetHeight(77.25),
            SelectionEdit::OntoPlane(plane),
            SelectionEdit::Smooth(1.0),
        ] {
            let mut map = map();
            let before = map.clone();
            let mut stroke = Stroke::new(edit.name());
            apply(&mut map, &selected, edit, 10.0, &mut stroke);
            let ring = weights(&selected, 10.0);
            for (&v, &w) in &ring {
                let (Some(was), Some(now)) =
                    (lattice::height(&before, v), lattice::height(&map, v))
                else {
                    continue;
                };
                assert!(every_copy_alike(&map, v), "{edit:?} {v:?}");
                let [x, y] = v.world_xy();
                let want = match edit {
                    SelectionEdit::Raise(d) => was + d * w,
                    SelectionEdit::SetHeight(t) => was + (t - was) * w,
                    SelectionEdit::OntoPlane(p) => was + (p.height_at(x, y) as f32 - was) * w,
                    SelectionEdit::Smooth(_) => {
                        let around: &[(i32, i32)] = if v.inner {
                            &[(0, 0), (1, 0), (0, 1), (1, 1)]
                        } else {
                            &[(-1, 0), (1, 0), (0, -1), (0, 1)]
                        };
                        let hs: Vec<f32> = around
                            .iter()
                            .filter_map(|(dx, dy)| {
                                let n = Vertex {
                                    gx: v.gx + dx,
                                    gy: v.gy + dy,
                                    inner: false,
                                };
                                lattice::height(&before, n)
                            })
                            .collect();
                        let mean = hs.iter().sum::<f32>() / hs.len() as f32;
                        was + (mean - was) * w
                    }
                };
                assert!((now - want).abs() < 1e-3, "{edit:?} {v:?}: {now} vs {want}");
                if w < 1.0 {
                    assert!(!selected.contains(&v));
                }
            }
            // Outside the ring nothing moves.
            let far = Vertex {
                gx: 32 * 128 + 9,
                gy: 32 * 128 + 10,
                inner: false,
            };
            assert!(!ring.contains_key(&far));
            assert_eq!(lattice::height(&before, far), lattice::height(&map, far));
            assert!(stroke.finish(&mut map).is_some(), "{edit:?} is one step");
        }
    }

    #[test]
    fn a_box_a_loop_and_a_circle_take_the_loaded_vertices_inside_them() {
        let map = map();
        let west = TileCoord::new(31, 32).unwrap();
        // A box straddling the border between the two tiles, and one half off the map's
        // loaded tiles.
        let [nx, ny] = Vertex::of(west, 0, 0).world_xy();
        let (a, b) = ([nx - 10.0, ny - 30.0], [nx - 30.0, ny + 30.0]);
        let boxed = in_box(&map, a, b);
        assert!(!boxed.is_empty());
        for v in &boxed {
            let [x, y] = v.world_xy();
            assert!((nx - 30.0..=nx - 10.0).contains(&x) && (ny - 30.0..=ny + 30.0).contains(&y));
            assert!(lattice::height(&map, *v).is_some(), "{v:?} is loaded");
        }
        // Every vertex of the window that lies inside and is loaded is taken.
        let all: BTreeSet<Vertex> = boxed.iter().copied().collect();
        let inside_loaded = lattice::vertices_near(nx - 20.0, ny, 40.0)
            .map(|(v, _)| v)
            .filter(|v| {
                let [x, y] = v.world_xy();
                (nx - 30.0..=nx - 10.0).contains(&x)
                    && (ny - 30.0..=ny + 30.0).contains(&y)
                    && lattice::height(&map, *v).is_some()
            })
            .count();
        assert_eq!(all.len(), inside_loaded);
        // A triangle takes fewer than its bounding box, all of them inside that box.
        let tri = in_loop(&map, &[a, [nx - 30.0, ny - 30.0], b]);
        assert!(!tri.is_empty() && tri.len() < boxed.len());
        assert!(tri.iter().all(|v| all.contains(v)));
        assert!(
            in_loop(&map, &[a, b]).is_empty(),
            "two points close no loop"
        );
        let round = in_circle(&map, [nx - 20.0, ny], 10.0);
        assert!(!round.is_empty());
        for v in &round {
            let [x, y] = v.world_xy();
            assert!((x - (nx - 20.0)).hypot(y - ny) <= 10.0);
        }
    }
}
