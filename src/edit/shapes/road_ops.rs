//! The `road` operation of an `OPS.json` (`loam apply`): a road along a Catmull-Rom curve laid
//! as one undo step. Its bed takes the bed height (`road`) within half the width, its shoulders
//! ease back to the terrain, and a texture, when named, is painted along it with a soft edge.
//! Heights are written through the lattice (`patch`), so every copy of a shared vertex holds
//! one float that reads back alike from every chunk once saved, and normals follow.
//!
//! Not for: the geometry (`road`), the brush operations (`ops`).

use serde::Deserialize;

use super::road::Road;
use crate::edit::history::History;
use crate::edit::lattice::patch::Patch;
use crate::edit::lattice::{self, MAP_STEPS, STEPS_PER_CHUNK};
use crate::edit::outcome::OpResult;
use crate::edit::stroke::Stroke;
use crate::edit::terrain::paint::{self, PaintMode};
use crate::edit::terrain::sculpt;
use crate::model::alpha::ALPHA_SIDE;
use crate::model::coords;
use crate::model::{Map, TileCoord};

/// The `tool` names that select a road operation.
pub const NAMES: [&str; 1] = ["road"];

/// The tool of a road operation (only `road`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoadToolName {
    /// A road along the curve through `points`.
    Road,
}

/// One road.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoadOp {
    /// Always `road`.
    pub tool: RoadToolName,
    /// World (x, y) points the centreline passes through, at least two.
    pub points: Vec<[f64; 2]>,
    /// Width of the level bed, yards.
    pub width: f32,
    /// Width of each shoulder beyond the bed, where the ground eases back to the terrain
    /// (default 0).
    pub shoulder: Option<f32>,
    /// The bed height at each point (default: the terrain's there).
    pub heights: Option<Vec<f32>>,
    /// A texture painted along the road.
    pub texture: Option<String>,
    /// Width the texture covers at full weight (default `width`); it fades out to the
    /// shoulder's outer edge.
    pub texture_width: Option<f32>,
}

/// How far past the road a run reads the terrain: normals are recomputed a vertex beyond
/// what moved; a chunk covers it.
const REACH_MARGIN: f64 = coords::CHUNK_SIZE;

impl RoadOp {
    /// The road's geometry with bed heights `heights` (one per point).
    fn road(&self, heights: &[f64]) -> Option<Road> {
        Road::new(
            &self.points,
            heights,
            self.width.into(),
            self.shoulder.unwrap_or(0.0).into(),
            self.texture_width.map(f64::from),
        )
    }

    /// The tiles the road can read or change: those within its reach (and a chunk's margin)
    /// of its centreline.
    pub fn reach(&self) -> Vec<TileCoord> {
        let Some(road) = self.road(&vec![0.0; self.points.len()]) else {
            return Vec::new();
        };
        let [x0, y0, x1, y1] = road.bounds();
        let m = REACH_MARGIN;
        coords::tiles_overlapping(([x0 - m, y0 - m, 0.0], [x1 + m, y1 + m, 0.0]))
    }

    /// Rejects roads that cannot be laid: too few or repeated points, widths that are not
    /// positive, a height count that is not the point count, a texture width without a
    /// texture.
    pub fn validate(&self) -> Result<(), String> {
        if self.points.len() < 2 {
            return Err("a road needs at least two points".into());
        }
        if let Some(i) = self.points.windows(2).position(|w| w[0] == w[1]) {
            return Err(format!("road: points {i} and {} are the same", i + 1));
        }
        if self.points.iter().flatten().any(|c| !c.is_finite()) {
            return Err("road: every point needs finite coordinates".into());
        }
        if !(self.width > 0.0 && self.width.is_finite()) {
            return Err(format!(
                "road: `width` must be positive, not {}",
                self.width
            ));
        }
        if let Some(s) = self.shoulder.filter(|s| !(*s >= 0.0 && s.is_finite())) {
            return Err(format!("road: `shoulder` must be 0 or more, not {s}"));
        }
        if let Some(h) = &self.heights {
            if h.len() != self.points.len() {
                return Err(format!(
                    "road: `heights` needs one height per point ({}), not {}",
                    self.points.len(),
                    h.len()
                ));
            }
            if h.iter().any(|h| !h.is_finite()) {
                return Err("road: every height must be a finite number".into());
            }
        }
        if let Some(w) = self.texture_width {
            if self.texture.is_none() {
                return Err("road: `texture_width` needs `texture`".into());
            }
            if !(w > 0.0 && w.is_finite()) {
                return Err(format!("road: `texture_width` must be positive, not {w}"));
            }
        }
        if self.texture.as_deref() == Some("") {
            return Err("road: `texture` must name a texture".into());
        }
        Ok(())
    }

    /// The bed height at each point: those given, else the terrain's under each.
    fn bed_heights(&self, map: &Map) -> Result<Vec<f64>, String> {
        if let Some(h) = &self.heights {
            return Ok(h.iter().map(|&h| f64::from(h)).collect());
        }
        self.points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                lattice::height_at(map, p[0], p[1])
                    .map(f64::from)
                    .ok_or_else(|| {
                        format!(
                            "road: no loaded terrain under point {i} ({}, {})",
                            p[0], p[1]
                        )
                    })
            })
            .collect()
    }
}

/// Lays one road as one undo step in `history`.
pub fn apply(map: &mut Map, op: &RoadOp, history: &mut History) -> Result<OpResult, String> {
    op.validate()?;
    let heights = op.bed_heights(map)?;
    let road = op
        .road(&heights)
        .ok_or_else(|| "road: the points give no curve".to_string())?;
    let mut stroke = Stroke::new("Road");
    let window = lattice_window(&road);
    shape(map, &road, window, &mut stroke);
    if let Some(texture) = &op.texture {
        paint_along(map, &road, window, texture, &mut stroke);
    }
    let refused = std::mem::take(&mut stroke.refused);
    Ok(OpResult::record(map, stroke, history, "Road", refused))
}

/// The lattice columns and rows (gx0, gy0, gx1, gy1) the road can change.
fn lattice_window(road: &Road) -> (i32, i32, i32, i32) {
    let [x0, y0, x1, y1] = road.bounds();
    // World x runs against the lattice rows and world y against its columns.
    let [gxa, gya] = coords::world_to_lattice(x1, y1);
    let [gxb, gyb] = coords::world_to_lattice(x0, y0);
    let clamp = |g: f64| (g as i32).clamp(0, MAP_STEPS);
    (
        clamp(gxa.min(gxb).floor()),
        clamp(gya.min(gyb).floor()),
        clamp(gxa.max(gxb).ceil()),
        clamp(gya.max(gyb).ceil()),
    )
}

/// Moves every vertex near the road toward its bed height: all the way on the bed, easing off
/// across the shoulders; vertices beyond are not touched.
fn shape(
    map: &mut Map,
    road: &Road,
    (gx0, gy0, gx1, gy1): (i32, i32, i32, i32),
    stroke: &mut Stroke,
) {
    let mut patch = Patch::read(map, gx0, gy0, gx1, gy1);
    let targets: Vec<_> = patch
        .vertices(0.0, 0.0)
        .filter_map(|(v, _, _)| {
            let [x, y] = v.world_xy();
            let near = road.nearest(x, y)?;
            let w = road.height_weight(near.distance);
            (w > 0.0).then(|| (v, road.bed_height(near.arc), w))
        })
        .collect();
    for (v, bed, w) in targets {
        let Some(h) = patch.get(v) else { continue };
        let new = if w >= 1.0 {
            bed as f32
        } else {
            (f64::from(h) + (bed - f64::from(h)) * w) as f32
        };
        patch.set(v, new);
    }
    sculpt::commit_heights(map, &patch, stroke);
}

/// Paints `texture` along the road: full weight within half the texture width, fading to the
/// shoulder's outer edge.
fn paint_along(
    map: &mut Map,
    road: &Road,
    (gx0, gy0, gx1, gy1): (i32, i32, i32, i32),
    texture: &str,
    stroke: &mut Stroke,
) {
    let chunks: Vec<(TileCoord, usize, i32, i32)> = lattice::chunks_in(gx0, gy0, gx1, gy1)
        .filter(|(t, ..)| map.tiles.contains_key(t))
        .collect();
    // Texel (row, col) centres sit at eighths of a lattice step.
    let texel = f64::from(STEPS_PER_CHUNK) / ALPHA_SIDE as f64;
    for (tile, chunk, ccol, crow) in chunks {
        let (ox, oy) = (
            f64::from(ccol * STEPS_PER_CHUNK),
            f64::from(crow * STEPS_PER_CHUNK),
        );
        let mut weights = vec![0f32; ALPHA_SIDE * ALPHA_SIDE];
        let mut any = false;
        for row in 0..ALPHA_SIDE {
            for col in 0..ALPHA_SIDE {
                let [x, y] = coords::lattice_to_world(
                    ox + (col as f64 + 0.5) * texel,
                    oy + (row as f64 + 0.5) * texel,
                );
                let w = road
                    .nearest(x, y)
                    .map_or(0.0, |n| road.texture_weight(n.distance) as f32);
                weights[row * ALPHA_SIDE + col] = w;
                any |= w > 0.0;
            }
        }
        if any {
            paint::weigh_chunk(
                map,
                (tile, chunk),
                &weights,
                texture,
                PaintMode::Paint,
                stroke,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Tile as FlatTile;

    fn op(json: &str) -> Result<RoadOp, String> {
        let op: RoadOp = serde_json::from_str(json).map_err(|e| e.to_string())?;
        op.validate().map(|_| op)
    }

    #[test]
    fn bad_roads_are_refused_with_a_reason() {
        for (json, says) in [
            (
                r#"{"tool": "road", "points": [[0, 0]], "width": 4}"#,
                "two points",
            ),
            (
                r#"{"tool": "road", "points": [[0, 0], [0, 0]], "width": 4}"#,
                "the same",
            ),
            (
                r#"{"tool": "road", "points": [[0, 0], [9, 0]], "width": 0}"#,
                "width",
            ),
            (
                r#"{"tool": "road", "points": [[0, 0], [9, 0]], "width": 4, "shoulder": -1}"#,
                "shoulder",
            ),
            (
                r#"{"tool": "road", "points": [[0, 0], [9, 0]], "width": 4, "heights": [1]}"#,
                "one height per point",
            ),
            (
                r#"{"tool": "road", "points": [[0, 0], [9, 0]], "width": 4, "texture_width": 3}"#,
                "needs `texture`",
            ),
            (
                r#"{"tool": "road", "points": [[0, 0], [9, 0]], "width": 4, "radius": 3}"#,
                "unknown field",
            ),
        ] {
            let e = op(json).expect_err(json);
            assert!(e.contains(says), "{json}: {e}");
        }
    }

    #[test]
    fn a_road_levels_its_bed_and_leaves_the_ground_beyond_its_shoulders() {
        let coord = TileCoord::new(32, 32).unwrap();
        let mut map = Map::new("Test");
        let mut tile = FlatTile::flat(coord, "T.blp", 0.0);
        // A slope across the road, from the lattice so that every copy agrees.
        for (i, chunk) in tile.chunks.iter_mut().enumerate() {
            for k in 0..145 {
                let [_, y] = lattice::Vertex::of(coord, i, k).world_xy();
                chunk.heights[k] = (0.2 * y) as f32;
            }
        }
        map.tiles.insert(coord, tile);
        let road = op(
            r#"{"tool": "road", "points": [[-20, -60], [-120, -60]], "width": 10,
            "shoulder": 6, "heights": [5, 25], "texture": "Road.blp"}"#,
        )
        .unwrap();
        let before = map.clone();
        let mut history = History::default();
        let result = apply(&mut map, &road, &mut history).unwrap();
        assert!(result.label.starts_with("Road, "), "{}", result.label);
        for (i, chunk) in map.tiles[&coord].chunks.iter().enumerate() {
            for k in 0..145 {
                let [x, y] = lattice::Vertex::of(coord, i, k).world_xy();
                let (h, was) = (chunk.heights[k], before.tiles[&coord].chunks[i].heights[k]);
                let d = (y + 60.0).abs();
                if (-120.0..=-20.0).contains(&x) && d <= 5.0 {
                    let bed = 5.0 + 20.0 * (-20.0 - x) / 100.0;
                    assert!((f64::from(h) - bed).abs() < 1e-3, "{x} {y}: {h} vs {bed}");
                } else if d > 11.0 || !(-131.0..=-9.0).contains(&x) {
                    assert_eq!(h.to_bits(), was.to_bits(), "{x} {y} is beyond the road");
                }
            }
        }
        assert!(map.tiles[&coord].textures.iter().any(|t| t == "Road.blp"));
        history.undo(&mut map);
        assert!(map.tiles == before.tiles, "one undo step takes it all back");
    }
}
