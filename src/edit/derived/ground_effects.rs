//! Ground effects: which texture layer's effect grows in each of a chunk's 8×8 cells.
//!
//! Each MCLY layer names a GroundEffectTexture row (its detail doodads — grass, pebbles — and
//! footstep sounds). The client does not work out which layer covers a cell: it reads the MCNK
//! header's "low quality texture map" (`predTex`, 0x40: 8×8 two-bit layer numbers) and grows
//! that layer's effect there, unless the cell's bit of `noEffectDoodad` (0x50: 8×8 bits) is set
//! (wowdev wiki, ADT/v18, MCNK header and MCLY `effectId`). Painting changes which layer
//! covers a cell, so the map has to be recomputed from the alpha maps; nothing else does it.
//!
//! **Layout.** Row `r` (south) of the texture map is the little-endian u16 at bytes `2r, 2r+1`,
//! column `c` (east) its bits `2c, 2c+1`; row `r` of `noEffectDoodad` is byte `r`, column `c`
//! its bit `c` — as Noggit Red's `TextureSet` reads them (`_doodadMapping[y] >> (x * 2)`,
//! `_doodadStencil[y] & (1 << x)`), and as Blizzard's maps agree with (below).
//!
//! **The rule.** A cell is the 8×8 alpha texels over one quad. Each layer's share of the cell is
//! summed over its 64 texels and the largest share names the cell; a tie goes to the upper
//! layer (Noggit Red's `updateDoodadMapping` does the same). How a texel's shares follow from
//! the alpha values depends on how the chunk was painted, and the corpus shows both ways
//! (`cargo run --example ground_effect_rule`, docs/ground-effects.md):
//!
//! - where every texel's alphas add up to at most 255 (3.3.5-era painting, and loam's own), the
//!   alpha of layer *i* is its share and the base layer has what is left — this reproduces
//!   98.8% of Blizzard's cells on Northrend_37_25;
//! - a chunk with a texel whose alphas add up to more than 255 cannot mean that: there each
//!   layer is blended over those below it (layer *i*'s share is its alpha times what the layers
//!   above leave), which reproduces 97.7% and 96.4% of the cells of the two older corpus tiles.
//!
//! The rest are near ties that Blizzard's tool broke another way; [`stale_cells`] only reports
//! cells whose named layer is far from the largest (see [`STALE_SHARE`]).

use crate::model::Map;
use crate::model::alpha::ALPHA_SIDE;
use crate::model::chunk::{Chunk, Layer};
pub use crate::model::chunk::{
    NO_EFFECT, effect_at, effects_off, named_layer, set_effects_off, set_named_layer,
};

/// Cells along a chunk's side.
pub const CELLS: usize = 8;

/// Alpha texels along a cell's side.
const TEXELS_PER_CELL: usize = ALPHA_SIDE / CELLS;

/// A cell's named layer is stale when its share of the cell is below this fraction of the
/// largest layer's share. Blizzard's own maps in the corpus name no layer with less than 0.67
/// of the largest share (a near tie broken another way); a layer painted over or erased has
/// next to nothing left.
pub const STALE_SHARE: f64 = 0.25;

/// Each layer's share of each cell (cell `row * 8 + col`), in alpha units summed over the
/// cell's texels, by the rule in the module's doc.
pub fn cell_shares(chunk: &Chunk) -> [[f64; 4]; CELLS * CELLS] {
    let layers: Vec<&Layer> = chunk.layers.iter().take(4).collect();
    let mut shares = [[0.0; 4]; CELLS * CELLS];
    if layers.len() <= 1 {
        for s in &mut shares {
            s[0] = 1.0;
        }
        return shares;
    }
    let alpha = |i: usize, row: usize, col: usize| -> f64 {
        layers[i]
            .alpha
            .as_ref()
            .map_or(0.0, |m| f64::from(m.get(row, col)))
    };
    let overfull = (0..ALPHA_SIDE).any(|row| {
        (0..ALPHA_SIDE)
            .any(|col| (1..layers.len()).map(|i| alpha(i, row, col)).sum::<f64>() > 255.0)
    });
    for row in 0..ALPHA_SIDE {
        for col in 0..ALPHA_SIDE {
            let cell = &mut shares[row / TEXELS_PER_CELL * CELLS + col / TEXELS_PER_CELL];
            if overfull {
                // Blended upward: what each layer leaves of those below it.
                let mut left = 255.0;
                for i in (1..layers.len()).rev() {
                    let a = alpha(i, row, col);
                    cell[i] += a * left / 255.0;
                    left -= a * left / 255.0;
                }
                cell[0] += left;
            } else {
                let mut left = 255.0;
                for (i, share) in cell.iter_mut().enumerate().take(layers.len()).skip(1) {
                    let a = alpha(i, row, col);
                    *share += a;
                    left -= a;
                }
                cell[0] += left;
            }
        }
    }
    shares
}

/// The layer with the largest share of a cell, ties going to the upper layer.
fn dominant(share: &[f64; 4], layers: usize) -> u8 {
    let mut best = 0;
    for i in 1..layers.min(4) {
        if share[i] >= share[best] {
            best = i;
        }
    }
    best as u8
}

/// The texture map `chunk`'s alpha maps call for (see the module's doc).
pub fn texture_map(chunk: &Chunk) -> [u8; 16] {
    let shares = cell_shares(chunk);
    let mut map = [0u8; 16];
    for row in 0..CELLS {
        for col in 0..CELLS {
            let layer = dominant(&shares[row * CELLS + col], chunk.layers.len());
            set_named_layer(&mut map, row, col, layer);
        }
    }
    map
}

/// Recomputes `chunk`'s texture map from its alpha maps; true when it changed.
pub fn refresh(chunk: &mut Chunk) -> bool {
    let map = texture_map(chunk);
    let changed = map != chunk.low_quality_texture_map;
    chunk.low_quality_texture_map = map;
    changed
}

/// True when an edit from `before` to `after` changed what covers the chunk (its alpha maps
/// or its number of layers), so that its texture map must be worked out again. A texture
/// swapped in place or an effect id changed leaves every cell on the same layer.
pub fn coverage_changed(before: &Chunk, after: &Chunk) -> bool {
    before.layers.len() != after.layers.len()
        || before.layers.iter().zip(&after.layers).any(|(a, b)| {
            a.alpha.as_ref().map(|m| m.texels()) != b.alpha.as_ref().map(|m| m.texels())
        })
}

/// The cells (row, col) whose named layer does not exist or has less than [`STALE_SHARE`] of
/// the largest layer's share: a texture map left behind by an edit that changed the alpha maps.
pub fn stale_cells(chunk: &Chunk) -> Vec<(usize, usize)> {
    if chunk.layers.is_empty() {
        return Vec::new();
    }
    let shares = cell_shares(chunk);
    let mut out = Vec::new();
    for row in 0..CELLS {
        for col in 0..CELLS {
            let share = &shares[row * CELLS + col];
            let named = usize::from(named_layer(&chunk.low_quality_texture_map, row, col));
            let best = share[usize::from(dominant(share, chunk.layers.len()))];
            if named >= chunk.layers.len().min(4) || share[named] < STALE_SHARE * best {
                out.push((row, col));
            }
        }
    }
    out
}

/// What grows at world (`x`, `y`), for the tool panel: "layer 2 (Tileset\\…\\Grass.blp):
/// effect 1963", or that the cell's effects are switched off; `None` off the loaded tiles.
/// `name` turns an effect id into words (the client's table), when one is set.
pub fn describe_at(map: &Map, x: f64, y: f64, name: &dyn Fn(u32) -> String) -> Option<String> {
    let coord = crate::model::TileCoord::containing(x, y)?;
    let tile = map.tiles.get(&coord)?;
    // Lattice steps (8 a chunk, one a cell) across the map, then within the tile.
    let [gx, gy] = crate::model::coords::world_to_lattice(x, y);
    let steps = CELLS * crate::model::coords::CHUNKS_PER_SIDE;
    let (sx, sy) = (
        gx.floor().max(0.0) as usize % steps,
        gy.floor().max(0.0) as usize % steps,
    );
    let (cx, cy) = ((sx / CELLS).min(15), (sy / CELLS).min(15));
    let (col, row) = (sx % CELLS, sy % CELLS);
    let chunk = tile.chunk(cx, cy);
    let at = format!("chunk {cx},{cy} cell {row},{col}");
    if effects_off(&chunk.no_effect_doodad, row, col) {
        return Some(format!("{at}: ground effects switched off"));
    }
    let k = usize::from(named_layer(&chunk.low_quality_texture_map, row, col));
    let Some(layer) = chunk.layers.get(k) else {
        return Some(format!(
            "{at}: the map names layer {k}, which the chunk lacks"
        ));
    };
    let texture = tile
        .textures
        .get(layer.texture as usize)
        .map_or("?", String::as_str);
    let effect = match layer.effect_id {
        NO_EFFECT | 0 => "no effect".to_string(),
        id => format!("effect {}", name(id)),
    };
    Some(format!("{at}: layer {k} ({texture}): {effect}"))
}

/// The effect id most layers painting `texture` carry in the loaded map (`None` when no layer
/// paints it): a texture painted into a new chunk brings the grass it grows elsewhere.
pub fn usual_effect(map: &Map, texture: &str) -> Option<u32> {
    let mut counts: std::collections::BTreeMap<u32, usize> = Default::default();
    for tile in map.tiles.values() {
        let Some(index) = tile
            .textures
            .iter()
            .position(|t| t.eq_ignore_ascii_case(texture))
        else {
            continue;
        };
        for layer in tile.chunks.iter().flat_map(|c| &c.layers) {
            if layer.texture as usize == index {
                *counts.entry(layer.effect_id).or_default() += 1;
            }
        }
    }
    counts.into_iter().max_by_key(|&(_, n)| n).map(|(id, _)| id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::alpha::AlphaMap;

    fn two_layers(alpha: impl Fn(usize, usize) -> u8) -> Chunk {
        let mut c = Chunk::flat(0.0);
        let texels = Box::new(std::array::from_fn(|i| {
            alpha(i / ALPHA_SIDE, i % ALPHA_SIDE)
        }));
        c.layers.push(Layer {
            texture: 1,
            flags: 0x100,
            effect_id: 7,
            alpha: Some(AlphaMap::from_texels(texels)),
        });
        c
    }

    #[test]
    fn bits_round_trip_in_the_documented_places() {
        let mut map = [0u8; 16];
        set_named_layer(&mut map, 3, 5, 2);
        // Row 3 is bytes 6 and 7; column 5 is bits 10, 11 of that u16: byte 7, bits 2 and 3.
        assert_eq!(map[7], 0b1000);
        assert_eq!(named_layer(&map, 3, 5), 2);
        let mut bits = [0u8; 8];
        set_effects_off(&mut bits, 6, 1, true);
        assert_eq!(bits[6], 0b10);
        assert!(effects_off(&bits, 6, 1));
        set_effects_off(&mut bits, 6, 1, false);
        assert_eq!(bits, [0; 8]);
    }

    #[test]
    fn the_east_half_painted_names_layer_one_there() {
        let c = two_layers(|_, k| if k >= 32 { 255 } else { 0 });
        let map = texture_map(&c);
        for row in 0..8 {
            for col in 0..8 {
                assert_eq!(
                    named_layer(&map, row, col),
                    u8::from(col >= 4),
                    "{row},{col}"
                );
            }
        }
    }

    #[test]
    fn a_tie_goes_to_the_upper_layer_and_stale_maps_are_found() {
        // Half the texels of every cell at 255: equal shares.
        let mut c = two_layers(|r, _| if r % 2 == 0 { 255 } else { 0 });
        assert!(refresh(&mut c));
        assert!((0..8).all(|r| (0..8).all(|k| named_layer(&c.low_quality_texture_map, r, k) == 1)));
        assert!(stale_cells(&c).is_empty());
        c.layers[1].alpha = Some(AlphaMap::filled(0));
        assert_eq!(stale_cells(&c).len(), 64);
        assert!(refresh(&mut c));
        assert!(stale_cells(&c).is_empty());
    }

    #[test]
    fn overfull_chunks_blend_upward() {
        // Three layers: layer 1 and layer 2 both at 200 everywhere (sum 400 > 255). Blended
        // upward, layer 2 shows 200/255, layer 1 200/255 of the 55 left, the base the rest.
        let mut c = two_layers(|_, _| 200);
        c.layers.push(Layer {
            texture: 2,
            flags: 0x100,
            effect_id: 9,
            alpha: Some(AlphaMap::filled(200)),
        });
        let s = cell_shares(&c)[0];
        assert!((s[2] - 64.0 * 200.0).abs() < 1e-6);
        assert!((s[1] - 64.0 * 200.0 * 55.0 / 255.0).abs() < 1e-6);
        assert_eq!(named_layer(&texture_map(&c), 0, 0), 2);
    }

    #[test]
    fn effect_at_respects_the_off_bits() {
        let mut c = two_layers(|_, _| 255);
        refresh(&mut c);
        assert_eq!(effect_at(&c, 2, 2), Some(7));
        set_effects_off(&mut c.no_effect_doodad, 2, 2, true);
        assert_eq!(effect_at(&c, 2, 2), None);
    }
}
