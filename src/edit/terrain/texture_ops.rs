//! Texture operations of an `OPS.json` (`loam apply`) and the editor's texture tools, each one
//! undo step:
//!
//! - `texture_swap`: one texture replaced by another in every layer that paints it, its alpha
//!   map kept byte for byte, over whole tiles (`tiles`) or the chunks a brush reaches (`points`
//!   and `radius`). Where the new texture is already a layer of the chunk, that chunk is left
//!   as it is and reported (two layers of one texture would paint it twice, and which alpha to
//!   keep is the map maker's call). The old texture stays in the tile's texture list (MTEX),
//!   so that no other layer's index moves; `texture_remove_unused` tidies it.
//! - `texture_remove`: the layer painting `texture` taken out of each chunk, over tiles or a
//!   stroke. A layer above the base goes with its alpha map; when the base goes, the next layer
//!   becomes the base and covers the chunk (a base layer has no alpha map); a chunk whose only
//!   layer it is keeps it and is reported (every chunk needs a base).
//! - `texture_remove_unused`: the textures no chunk of the tile paints taken out of its list
//!   (with their MTXF flags), the layers' indices renumbered; per tile (`tiles`).
//! - `texture_effect`: the ground effect (MCLY effect id, a GroundEffectTexture row; -1 for
//!   none) of every layer painting `texture`, over tiles or a stroke (`ground_effects`).

use serde::Deserialize;

use crate::edit::history::History;
use crate::edit::lattice::{STEPS_PER_CHUNK, chunks_near};
use crate::edit::outcome::OpResult;
use crate::edit::stroke::Stroke;
use crate::model::coords::{self, CHUNKS_PER_SIDE};
use crate::model::{Map, TileCoord};

/// The `tool` names that select a texture operation.
pub const NAMES: [&str; 4] = [
    "texture_swap",
    "texture_remove",
    "texture_remove_unused",
    "texture_effect",
];

/// One texture operation (see the module's doc).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureOp {
    /// `texture_swap`, `texture_remove`, `texture_remove_unused` or `texture_effect`.
    pub tool: String,
    /// Swap: the texture replaced (any case).
    #[serde(default)]
    pub from: String,
    /// Swap: the texture put in its place.
    #[serde(default)]
    pub to: String,
    /// Remove, effect: the texture whose layers go or get the effect.
    #[serde(default)]
    pub texture: String,
    /// Effect: the GroundEffectTexture id, or -1 for none.
    pub effect: Option<i64>,
    /// Whole tiles, [[X, Y], …].
    pub tiles: Option<Vec<[u8; 2]>>,
    /// World (x, y) points of a brush stroke (with `radius`).
    pub points: Option<Vec<[f64; 2]>>,
    /// The brush radius in yards: a chunk swaps when the circle around a point overlaps it.
    pub radius: Option<f32>,
}

impl TextureOp {
    /// The MCLY effect id `effect` asks for (-1: none), `None` when missing or out of range.
    pub fn effect_id(&self) -> Option<u32> {
        match self.effect? {
            -1 => Some(crate::edit::derived::ground_effects::NO_EFFECT),
            e => u32::try_from(e).ok(),
        }
    }

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

    /// Rejects an operation without the names it needs, or that names neither tiles nor a
    /// stroke, or both.
    pub fn validate(&self) -> Result<(), String> {
        let tool = self.tool.as_str();
        let named = |s: &str| !s.trim().is_empty();
        match tool {
            "texture_swap" if !named(&self.from) || !named(&self.to) => {
                return Err("texture_swap needs `from` and `to`".into());
            }
            "texture_remove" | "texture_effect" if !named(&self.texture) => {
                return Err(format!("{tool} needs `texture`"));
            }
            "texture_effect" if self.effect_id().is_none() => {
                return Err(
                    "texture_effect needs `effect`: a GroundEffectTexture id, or -1 for none"
                        .into(),
                );
            }
            "texture_remove_unused" => {
                return match (&self.tiles, &self.points) {
                    (Some(_), None) => self.tile_list().map(drop),
                    _ => Err("texture_remove_unused takes `tiles` [[X, Y], …]".into()),
                };
            }
            "texture_swap" | "texture_remove" | "texture_effect" => {}
            _ => return Err(format!("unknown tool {tool}")),
        }
        match (&self.tiles, &self.points, self.radius) {
            (Some(_), None, None) => self.tile_list().map(drop),
            (None, Some(p), Some(r)) if !p.is_empty() && r > 0.0 && r.is_finite() => Ok(()),
            _ => Err(format!(
                "{tool} takes `tiles` [[X, Y], …], or `points` with a positive `radius`"
            )),
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
        for p in self.points.iter().flatten() {
            for c in chunks_in_circle(map, *p, self.radius.unwrap_or(0.0)) {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    }
}

/// The loaded chunks whose square the circle of `radius` yards around world `p` overlaps.
fn chunks_in_circle(map: &Map, p: [f64; 2], radius: f32) -> Vec<(TileCoord, usize)> {
    let r = coords::yards_to_steps(f64::from(radius));
    let [cx, cy] = coords::world_to_lattice(p[0], p[1]);
    let mut out = Vec::new();
    for (tile, chunk, ccol, crow) in chunks_near(map, cx, cy, r) {
        // The nearest point of the chunk's square to the centre.
        let (x0, y0) = (
            f64::from(ccol * STEPS_PER_CHUNK),
            f64::from(crow * STEPS_PER_CHUNK),
        );
        let s = f64::from(STEPS_PER_CHUNK);
        let (nx, ny) = (cx.clamp(x0, x0 + s), cy.clamp(y0, y0 + s));
        if (nx - cx).hypot(ny - cy) <= r {
            out.push((tile, chunk));
        }
    }
    out
}

/// One dab of the editor's swap brush: `from` becomes `to` in the chunks the circle around
/// `p` overlaps, by the same rule as `texture_swap`. Chunks it refuses go to
/// `stroke.refused` (once each).
pub fn swap_dab(
    map: &mut Map,
    from: &str,
    to: &str,
    p: [f64; 2],
    radius: f32,
    stroke: &mut Stroke,
) {
    if from.trim().is_empty() || to.trim().is_empty() {
        return;
    }
    for (coord, chunk) in chunks_in_circle(map, p, radius) {
        if swap_chunk(map, coord, chunk, from, to, stroke) == Swapped::Refused
            && !stroke.refused.contains(&(coord, chunk))
        {
            stroke.refused.push((coord, chunk));
        }
    }
}

/// What [`swap_chunk`] did.
#[derive(Debug, PartialEq, Eq)]
enum Swapped {
    /// The chunk does not paint `from`.
    Nothing,
    /// It paints `to` already: left as it is.
    Refused,
    /// Its `from` layers paint `to` now.
    Done,
}

/// Swaps `from` for `to` in one chunk (see the module's doc for the rule), remembering it in
/// `stroke` first.
fn swap_chunk(
    map: &mut Map,
    coord: TileCoord,
    chunk: usize,
    from: &str,
    to: &str,
    stroke: &mut Stroke,
) -> Swapped {
    let Some(old) = index_in(map, coord, from) else {
        return Swapped::Nothing;
    };
    let layers = &map.tiles[&coord].chunks[chunk].layers;
    if !layers.iter().any(|l| l.texture == old) {
        return Swapped::Nothing;
    }
    if let Some(new) = index_in(map, coord, to)
        && layers.iter().any(|l| l.texture == new)
    {
        return Swapped::Refused;
    }
    stroke.snapshot_textures(map, coord);
    stroke.snapshot(map, coord, chunk);
    let new = match index_in(map, coord, to) {
        Some(i) => i,
        None => {
            let tile = map.tiles.get_mut(&coord).expect("a chunk of a loaded tile");
            tile.textures.push(to.to_string());
            (tile.textures.len() - 1) as u32
        }
    };
    let tile = map.tiles.get_mut(&coord).expect("a chunk of a loaded tile");
    for layer in &mut tile.chunks[chunk].layers {
        if layer.texture == old {
            layer.texture = new;
        }
    }
    Swapped::Done
}

/// Runs one texture operation as one undo step in `history`; the chunks it leaves as they
/// were by its rule come back as refused.
pub fn apply(map: &mut Map, op: &TextureOp, history: &mut History) -> Result<OpResult, String> {
    op.validate()?;
    match op.tool.as_str() {
        "texture_remove" => remove(map, op, history),
        "texture_remove_unused" => remove_unused(map, op, history),
        "texture_effect" => set_effect(map, op, history),
        _ => swap(map, op, history),
    }
}

/// The index of `name` (any case) in the texture list of `coord`.
fn index_in(map: &Map, coord: TileCoord, name: &str) -> Option<u32> {
    map.tiles[&coord]
        .textures
        .iter()
        .position(|t| t.eq_ignore_ascii_case(name))
        .map(|i| i as u32)
}

/// `texture_effect` (see the module's doc).
fn set_effect(map: &mut Map, op: &TextureOp, history: &mut History) -> Result<OpResult, String> {
    let effect = op.effect_id().ok_or("texture_effect needs `effect`")?;
    let mut stroke = Stroke::new("Ground effect");
    for (coord, chunk) in op.chunks(map) {
        let Some(index) = index_in(map, coord, &op.texture) else {
            continue;
        };
        let layers = &map.tiles[&coord].chunks[chunk].layers;
        if !layers
            .iter()
            .any(|l| l.texture == index && l.effect_id != effect)
        {
            continue;
        }
        stroke.snapshot(map, coord, chunk);
        let tile = map.tiles.get_mut(&coord).expect("a chunk of a loaded tile");
        for layer in &mut tile.chunks[chunk].layers {
            if layer.texture == index {
                layer.effect_id = effect;
            }
        }
    }
    Ok(OpResult::record(
        map,
        stroke,
        history,
        "Ground effect",
        Vec::new(),
    ))
}

/// `texture_remove` (see the module's doc).
fn remove(map: &mut Map, op: &TextureOp, history: &mut History) -> Result<OpResult, String> {
    let mut stroke = Stroke::new("Remove texture");
    let mut refused = Vec::new();
    for (coord, chunk) in op.chunks(map) {
        let Some(gone) = index_in(map, coord, &op.texture) else {
            continue;
        };
        let layers = &map.tiles[&coord].chunks[chunk].layers;
        if !layers.iter().any(|l| l.texture == gone) {
            continue;
        }
        if layers.iter().all(|l| l.texture == gone) {
            refused.push((coord, chunk));
            continue;
        }
        stroke.snapshot(map, coord, chunk);
        let tile = map.tiles.get_mut(&coord).expect("a chunk of a loaded tile");
        let layers = &mut tile.chunks[chunk].layers;
        layers.retain(|l| l.texture != gone);
        // The new base covers the chunk: a base layer has no alpha map.
        let base = &mut layers[0];
        base.alpha = None;
        base.flags = super::layer_flags::as_base(base.flags);
    }
    Ok(OpResult::record(
        map,
        stroke,
        history,
        "Remove texture",
        refused,
    ))
}

/// `texture_remove_unused` (see the module's doc).
fn remove_unused(map: &mut Map, op: &TextureOp, history: &mut History) -> Result<OpResult, String> {
    let mut stroke = Stroke::new("Remove unused textures");
    for coord in op.tile_list()? {
        let Some(tile) = map.tiles.get(&coord) else {
            continue;
        };
        let used: Vec<bool> = (0..tile.textures.len() as u32)
            .map(|i| {
                tile.chunks
                    .iter()
                    .any(|c| c.layers.iter().any(|l| l.texture == i))
            })
            .collect();
        if used.iter().all(|u| *u) {
            continue;
        }
        // Old index → new index, for the textures that stay.
        let mut renumber = Vec::with_capacity(used.len());
        let mut next = 0u32;
        for u in &used {
            renumber.push(next);
            next += u32::from(*u);
        }
        stroke.snapshot_textures(map, coord);
        for chunk in 0..tile.chunks.len() {
            stroke.snapshot(map, coord, chunk);
        }
        let tile = map.tiles.get_mut(&coord).expect("a loaded tile");
        let mut keep = used.iter();
        tile.textures.retain(|_| *keep.next().unwrap_or(&true));
        if let Some(flags) = &mut tile.texture_flags {
            let mut k = 0;
            flags.retain(|_| {
                k += 1;
                used.get(k - 1).copied().unwrap_or(true)
            });
        }
        for layer in tile.chunks.iter_mut().flat_map(|c| &mut c.layers) {
            if let Some(&n) = renumber.get(layer.texture as usize) {
                layer.texture = n;
            }
        }
    }
    Ok(OpResult::record(
        map,
        stroke,
        history,
        "Remove unused textures",
        Vec::new(),
    ))
}

/// `texture_swap` (see the module's doc).
fn swap(map: &mut Map, op: &TextureOp, history: &mut History) -> Result<OpResult, String> {
    let mut stroke = Stroke::new("Swap texture");
    let mut refused = Vec::new();
    for (coord, chunk) in op.chunks(map) {
        if swap_chunk(map, coord, chunk, &op.from, &op.to, &mut stroke) == Swapped::Refused {
            refused.push((coord, chunk));
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
    use crate::model::chunk::LAYER_USE_ALPHA;

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

    fn layer(texture: u32, alpha: u8) -> crate::model::chunk::Layer {
        crate::model::chunk::Layer {
            texture,
            flags: LAYER_USE_ALPHA,
            effect_id: 0,
            alpha: Some(crate::model::alpha::AlphaMap::filled(alpha)),
        }
    }

    #[test]
    fn removing_a_base_promotes_the_next_layer_and_an_only_layer_is_kept_and_said() {
        let c = TileCoord::new(5, 6).unwrap();
        let mut map = Map::new("Remove");
        let mut tile = Tile::flat(c, "a.blp", 0.0);
        tile.textures.extend(["b.blp".into(), "c.blp".into()]);
        // Chunk 0: a, b, c. Chunk 1: a only.
        tile.chunks[0].layers.extend([layer(1, 9), layer(2, 40)]);
        map.tiles.insert(c, tile);
        let before = map.tiles[&c].clone();
        let mut history = History::default();
        let op = swap(r#"{"tool": "texture_remove", "texture": "A.blp", "tiles": [[5, 6]]}"#);
        let r = apply(&mut map, &op, &mut history).unwrap();
        assert!(r.refused.contains(&(c, 1)), "chunk 1's only layer stays");
        let layers = &map.tiles[&c].chunks[0].layers;
        assert_eq!(layers.len(), 2);
        assert_eq!((layers[0].texture, layers[0].alpha.is_none()), (1, true));
        assert_eq!(layers[0].flags & LAYER_USE_ALPHA, 0);
        assert_eq!(
            layers[1], before.chunks[0].layers[2],
            "the layer above keeps its alpha"
        );
        assert_eq!(map.tiles[&c].chunks[1], before.chunks[1]);
        history.undo(&mut map);
        assert_eq!(map.tiles[&c], before);

        // Taking out the top layer leaves the others as they were.
        let op = swap(r#"{"tool": "texture_remove", "texture": "c.blp", "tiles": [[5, 6]]}"#);
        apply(&mut map, &op, &mut history).unwrap();
        assert_eq!(
            map.tiles[&c].chunks[0].layers[..],
            before.chunks[0].layers[..2]
        );
    }

    #[test]
    fn unused_textures_leave_the_list_with_their_flags_and_the_layers_follow() {
        let c = TileCoord::new(5, 6).unwrap();
        let mut map = Map::new("Tidy");
        let mut tile = Tile::flat(c, "a.blp", 0.0);
        tile.textures.extend(["unused.blp".into(), "c.blp".into()]);
        tile.texture_flags = Some(vec![10, 11, 12]);
        tile.chunks[7].layers.push(layer(2, 30));
        map.tiles.insert(c, tile);
        let before = map.tiles[&c].clone();
        let mut history = History::default();
        let op = swap(r#"{"tool": "texture_remove_unused", "tiles": [[5, 6]]}"#);
        apply(&mut map, &op, &mut history).unwrap();
        let t = &map.tiles[&c];
        assert_eq!(t.textures, ["a.blp", "c.blp"]);
        assert_eq!(t.texture_flags.as_deref(), Some(&[10, 12][..]));
        assert_eq!(t.chunks[7].layers[1].texture, 1);
        assert_eq!(t.texture_name(t.chunks[7].layers[1].texture), Some("c.blp"));
        history.undo(&mut map);
        assert_eq!(map.tiles[&c], before);
        let bad = swap(r#"{"tool": "texture_remove_unused", "points": [[0, 0]], "radius": 3}"#);
        assert!(bad.validate().is_err(), "per tile only");
    }
}
