//! Texture swap as an operation of an `OPS.json` (`loam apply`): one texture replaced by
//! another in every layer that paints it, its alpha map kept byte for byte, over whole tiles
//! (`tiles`) or the chunks a brush reaches (`points` and `radius`), one undo step.
//!
//! The rule where the new texture is already a layer of the chunk: that chunk is left as it is
//! and reported (two layers of one texture would paint it twice, and which alpha to keep is the
//! map maker's call). The old texture stays in the tile's texture list (MTEX) even when no
//! chunk paints it any more, so that no other layer's index moves.

use serde::Deserialize;

use super::history::History;
use super::lattice::{STEPS_PER_CHUNK, chunks_near};
use super::outcome::OpResult;
use super::stroke::Stroke;
use crate::model::coords::{self, CHUNKS_PER_SIDE};
use crate::model::{Map, TileCoord};

/// The `tool` names that select a texture operation.
pub const NAMES: [&str; 1] = ["texture_swap"];

/// One texture swap.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureOp {
    /// Always `texture_swap`.
    pub tool: String,
    /// The texture replaced (any case).
    pub from: String,
    /// The texture put in its place.
    pub to: String,
    /// Whole tiles, [[X, Y], …].
    pub tiles: Option<Vec<[u8; 2]>>,
    /// World (x, y) points of a brush stroke (with `radius`).
    pub points: Option<Vec<[f64; 2]>>,
    /// The brush radius in yards: a chunk swaps when the circle around a point overlaps it.
    pub radius: Option<f32>,
}

impl TextureOp {
    /// The tiles named, checked to lie on the map.
    fn tile_list(&self) -> Result<Vec<TileCoord>, String> {
        self.tiles
            .iter()
            .flatten()
            .map(|&[x, y]| {
                TileCoord::new(usize::from(x), usize::from(y))
                    .ok_or_else(|| format!("tile [{x}, {y}] is off the map (0 … 63)"))
            })
            .collect()
    }

    /// Rejects a swap that names neither tiles nor a stroke, or both.
    pub fn validate(&self) -> Result<(), String> {
        if self.tool != "texture_swap" {
            return Err(format!("unknown tool {}", self.tool));
        }
        if self.from.trim().is_empty() || self.to.trim().is_empty() {
            return Err("texture_swap needs `from` and `to`".into());
        }
        match (&self.tiles, &self.points, self.radius) {
            (Some(_), None, None) => self.tile_list().map(drop),
            (None, Some(p), Some(r)) if !p.is_empty() && r > 0.0 && r.is_finite() => Ok(()),
            _ => Err(
                "texture_swap takes `tiles` [[X, Y], …], or `points` with a positive `radius`"
                    .into(),
            ),
        }
    }

    /// The tiles it reads or changes.
    pub fn reach(&self) -> Vec<TileCoord> {
        if self.tiles.is_some() {
            return self.tile_list().unwrap_or_default();
        }
        let r = f64::from(self.radius.unwrap_or(0.0).max(0.0));
        let mut out: Vec<TileCoord> = self
            .points
            .iter()
            .flatten()
            .flat_map(|p| {
                coords::tiles_overlapping(([p[0] - r, p[1] - r, 0.0], [p[0] + r, p[1] + r, 0.0]))
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The loaded chunks it covers, each once.
    fn chunks(&self, map: &Map) -> Vec<(TileCoord, usize)> {
        let mut out = Vec::new();
        if self.tiles.is_some() {
            for c in self.tile_list().unwrap_or_default() {
                if map.tiles.contains_key(&c) {
                    out.extend((0..CHUNKS_PER_SIDE * CHUNKS_PER_SIDE).map(|i| (c, i)));
                }
            }
            return out;
        }
        let r = coords::yards_to_steps(f64::from(self.radius.unwrap_or(0.0)));
        for p in self.points.iter().flatten() {
            let [cx, cy] = coords::world_to_lattice(p[0], p[1]);
            for (tile, chunk, ccol, crow) in chunks_near(map, cx, cy, r) {
                // The nearest point of the chunk's square to the centre.
                let (x0, y0) = (
                    f64::from(ccol * STEPS_PER_CHUNK),
                    f64::from(crow * STEPS_PER_CHUNK),
                );
                let s = f64::from(STEPS_PER_CHUNK);
                let (nx, ny) = (cx.clamp(x0, x0 + s), cy.clamp(y0, y0 + s));
                if (nx - cx).hypot(ny - cy) <= r && !out.contains(&(tile, chunk)) {
                    out.push((tile, chunk));
                }
            }
        }
        out
    }
}

/// Runs one texture swap as one undo step in `history`; the chunks that already paint `to`
/// come back as refused.
pub fn apply(map: &mut Map, op: &TextureOp, history: &mut History) -> Result<OpResult, String> {
    op.validate()?;
    let mut stroke = Stroke::new("Swap texture");
    let mut refused = Vec::new();
    for (coord, chunk) in op.chunks(map) {
        let tile = &map.tiles[&coord];
        let index_of = |name: &str| {
            tile.textures
                .iter()
                .position(|t| t.eq_ignore_ascii_case(name))
                .map(|i| i as u32)
        };
        let Some(from) = index_of(&op.from) else {
            continue;
        };
        let layers = &tile.chunks[chunk].layers;
        if !layers.iter().any(|l| l.texture == from) {
            continue;
        }
        if let Some(to) = index_of(&op.to)
            && layers.iter().any(|l| l.texture == to)
        {
            refused.push((coord, chunk));
            continue;
        }
        stroke.snapshot_textures(map, coord);
        stroke.snapshot(map, coord, chunk);
        let tile = map.tiles.get_mut(&coord).expect("a chunk of a loaded tile");
        let to = match tile
            .textures
            .iter()
            .position(|t| t.eq_ignore_ascii_case(&op.to))
        {
            Some(i) => i as u32,
            None => {
                tile.textures.push(op.to.clone());
                (tile.textures.len() - 1) as u32
            }
        };
        for layer in &mut tile.chunks[chunk].layers {
            if layer.texture == from {
                layer.texture = to;
            }
        }
    }
    Ok(OpResult::record(
        map,
        stroke,
        history,
        "Swap texture",
        refused,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Tile;

    fn swap(json: &str) -> TextureOp {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_whole_tile_swap_keeps_alpha_refuses_a_chunk_with_both_and_undoes() {
        let c = TileCoord::new(5, 6).unwrap();
        let mut map = Map::new("Swap");
        let mut tile = Tile::flat(c, "a.blp", 0.0);
        tile.textures.push("b.blp".into());
        // Chunk 3 already paints b.blp as a second layer.
        tile.chunks[3].layers.push(crate::model::chunk::Layer {
            texture: 1,
            flags: 0x100,
            effect_id: 0,
            alpha: Some(crate::model::alpha::AlphaMap::filled(9)),
        });
        map.tiles.insert(c, tile);
        let before = map.tiles[&c].clone();
        let mut history = History::default();
        let op =
            swap(r#"{"tool": "texture_swap", "from": "A.BLP", "to": "b.blp", "tiles": [[5, 6]]}"#);
        let r = apply(&mut map, &op, &mut history).unwrap();
        assert_eq!(r.refused, [(c, 3)]);
        assert_eq!(r.chunks, 255);
        let t = &map.tiles[&c];
        assert_eq!(t.chunks[0].layers[0].texture, 1);
        assert_eq!(
            t.chunks[3], before.chunks[3],
            "the refused chunk is as it was"
        );
        assert_eq!(t.textures, ["a.blp", "b.blp"], "no index moves");
        history.undo(&mut map);
        assert_eq!(map.tiles[&c], before);
    }

    #[test]
    fn a_stroke_swaps_only_the_chunks_its_circle_overlaps() {
        let c = TileCoord::new(31, 31).unwrap();
        let mut map = Map::new("Swap");
        map.tiles.insert(c, Tile::flat(c, "a.blp", 0.0));
        // The centre of chunk (0, 0), 5 yd: that chunk only (chunks are 33⅓ yd a side).
        let [x, y] = coords::chunk_north_west(c, 0, 0);
        let op = swap(&format!(
            r#"{{"tool": "texture_swap", "from": "a.blp", "to": "c.blp", "points": [[{}, {}]], "radius": 5}}"#,
            x - 16.0,
            y - 16.0
        ));
        let r = apply(&mut map, &op, &mut History::default()).unwrap();
        assert_eq!(r.chunks, 1);
        assert_eq!(map.tiles[&c].chunks[0].layers[0].texture, 1);
        assert_eq!(map.tiles[&c].chunks[1].layers[0].texture, 0);
        let bad = swap(r#"{"tool": "texture_swap", "from": "a", "to": "b", "points": [[0, 0]]}"#);
        assert!(bad.validate().is_err(), "a stroke needs a radius");
    }
}
