//! Texture painting into the alpha maps, at 8-bit precision (saving quantises per target).
//!
//! Layers blend as the 3.3.5 client does: each texel's layer weights add up to 255, the base
//! layer taking what the others leave. Painting a texture raises its weight toward 255 and scales
//! the others down; erasing lowers it and gives the rest to the base. A chunk holds at most four
//! layers: painting reuses the layer that has the texture, else adds one, else takes over a layer
//! that no longer shows anywhere, else refuses (the stroke lists the chunk so the UI can say so).

use super::brush::Brush;
use crate::edit::lattice::{STEPS_PER_CHUNK, chunks_near};
use crate::edit::stroke::Stroke;
use crate::model::alpha::{ALPHA_SIDE, AlphaMap};
use crate::model::chunk::{Chunk, Layer};
use crate::model::{Map, Tile, TileCoord};

/// Most layers a chunk can have.
pub const MAX_LAYERS: usize = 4;

/// Paint or erase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaintMode {
    /// Raise the texture's weight.
    Paint,
    /// Lower the texture's weight (the base layer takes it).
    Erase,
}

/// What a paint stroke lays down.
#[derive(Debug, Clone, PartialEq)]
pub struct Paint {
    /// Texture path.
    pub texture: String,
    /// The most a dab changes at the brush centre, 0..1.
    pub opacity: f32,
    /// Paint or erase.
    pub mode: PaintMode,
}

/// One paint dab at world (`x`, `y`). Returns the chunks changed.
pub fn dab(
    map: &mut Map,
    brush: &Brush,
    paint: &Paint,
    x: f64,
    y: f64,
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    let (texture, opacity, mode) = (paint.texture.as_str(), paint.opacity, paint.mode);
    let ([cx, cy], radius, inner) = brush.on_lattice(x, y);
    let mut changed = Vec::new();
    for (tile, chunk, ccol, crow) in chunks_near(map, cx, cy, radius) {
        // Brush weight of each texel; texel (row, col) centres sit at eighths of a lattice step.
        let texel_step = STEPS_PER_CHUNK as f64 / ALPHA_SIDE as f64;
        let (ox, oy) = (
            (ccol * STEPS_PER_CHUNK) as f64,
            (crow * STEPS_PER_CHUNK) as f64,
        );
        let mut weights = vec![0f32; ALPHA_SIDE * ALPHA_SIDE];
        let mut any = false;
        for row in 0..ALPHA_SIDE {
            for col in 0..ALPHA_SIDE {
                let dx = ox + (col as f64 + 0.5) * texel_step - cx;
                let dy = oy + (row as f64 + 0.5) * texel_step - cy;
                let w = brush.weight_at(dx, dy, radius, inner) * opacity.clamp(0.0, 1.0);
                weights[row * ALPHA_SIDE + col] = w;
                any |= w > 0.0;
            }
        }
        if any && weigh_chunk(map, (tile, chunk), &weights, texture, mode, stroke) {
            changed.push((tile, chunk));
        }
    }
    changed
}

/// Paints (or erases) `texture` into one chunk by per-texel `weights` (0..=1, 64×64, row by
/// row, opacity included): the same layer rules as a dab, for tools that work out their own
/// weights (a road). Returns whether the chunk changed; a chunk with four layers and none free
/// is listed in `stroke.refused`.
pub fn weigh_chunk(
    map: &mut Map,
    (tile, chunk): (TileCoord, usize),
    weights: &[f32],
    texture: &str,
    mode: PaintMode,
    stroke: &mut Stroke,
) -> bool {
    if !map.tiles.contains_key(&tile) {
        return false;
    }
    let big_alpha = map.big_alpha();
    let existing = map.tiles[&tile]
        .textures
        .iter()
        .position(|t| t.eq_ignore_ascii_case(texture));
    let layer_with = existing.and_then(|i| {
        map.tiles[&tile].chunks[chunk]
            .layers
            .iter()
            .position(|l| l.texture as usize == i)
    });
    if mode == PaintMode::Erase {
        let Some(k) = layer_with.filter(|&k| k > 0) else {
            return false;
        };
        stroke.snapshot(map, tile, chunk);
        let c = &mut map
            .tiles
            .get_mut(&tile)
            .expect("checked loaded above")
            .chunks[chunk];
        if let Some(alpha) = c.layers[k].alpha.as_mut() {
            let texels = alpha.texels_mut();
            for (t, w) in texels.iter_mut().zip(weights) {
                *t = (*t as f32 * (1.0 - w)).round() as u8;
            }
        }
        return true;
    }
    let k = match layer_with {
        Some(k) => k,
        None => {
            let Some(k) = free_layer(&map.tiles[&tile].chunks[chunk]) else {
                stroke.refused.push((tile, chunk));
                return false;
            };
            stroke.snapshot(map, tile, chunk);
            let index = match existing {
                Some(i) => i,
                None => {
                    stroke.snapshot_textures(map, tile);
                    let t = map.tiles.get_mut(&tile).expect("loaded");
                    t.textures.push(texture.to_string());
                    t.textures.len() - 1
                }
            };
            let effect_id =
                crate::edit::derived::ground_effects::usual_effect(map, texture).unwrap_or(0);
            let c = &mut map.tiles.get_mut(&tile).expect("loaded").chunks[chunk];
            let flags = super::layer_flags::gaining_alpha(0, big_alpha);
            if k == c.layers.len() {
                c.layers.push(Layer {
                    texture: index as u32,
                    flags,
                    effect_id,
                    alpha: Some(AlphaMap::filled(0)),
                });
            } else {
                let layer = &mut c.layers[k];
                layer.texture = index as u32;
                layer.effect_id = effect_id;
                if k > 0 {
                    layer.flags = flags;
                    layer.alpha = Some(AlphaMap::filled(0));
                }
            }
            k
        }
    };
    stroke.snapshot(map, tile, chunk);
    let c = &mut map.tiles.get_mut(&tile).expect("loaded").chunks[chunk];
    paint_layer(c, k, weights);
    true
}

/// The weight (0..=255) `texture` has at texel `i` of `chunk` of `tile`: its layer's alpha, or
/// for the base layer what the others leave (the 3.3.5 client's blend); 0 where the chunk does
/// not paint it.
pub fn texel_weight(tile: &Tile, chunk: &Chunk, texture: &str, i: usize) -> u32 {
    let is_it = |k: u32| {
        tile.textures
            .get(k as usize)
            .is_some_and(|n| n.eq_ignore_ascii_case(texture))
    };
    let (mut others, mut weight) = (0u32, 0u32);
    for layer in chunk.layers.iter().skip(1) {
        let a = u32::from(layer.alpha.as_ref().map_or(0, |m| m.texels()[i]));
        others += a;
        if is_it(layer.texture) {
            weight += a;
        }
    }
    if chunk.layers.first().is_some_and(|l| is_it(l.texture)) {
        weight += 255u32.saturating_sub(others);
    }
    weight.min(255)
}

/// A layer slot for a new texture: a new one while fewer than four, else a layer whose weight is
/// zero everywhere (the base layer counts when the others cover it completely).
fn free_layer(c: &Chunk) -> Option<usize> {
    if c.layers.len() < MAX_LAYERS {
        return Some(c.layers.len());
    }
    if let Some(k) =
        (1..c.layers.len()).find(|&k| c.layers[k].alpha.as_ref().is_none_or(|a| a.is_empty()))
    {
        return Some(k);
    }
    let base_hidden = (0..ALPHA_SIDE * ALPHA_SIDE).all(|i| others_sum(c, i, usize::MAX) >= 255);
    base_hidden.then_some(0)
}

/// Sum of the non-base layers' weights at texel `i`, leaving out layer `skip`.
fn others_sum(c: &Chunk, i: usize, skip: usize) -> u32 {
    c.layers
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(k, _)| *k != skip)
        .filter_map(|(_, l)| l.alpha.as_ref())
        .map(|a| a.texels()[i] as u32)
        .sum()
}

/// Raises layer `k`'s weight toward 255 by `weights[i]` of what is missing, scaling the other
/// layers (base included) down so the weights still add up to 255.
fn paint_layer(c: &mut Chunk, k: usize, weights: &[f32]) {
    let n = c.layers.len();
    let mut maps: Vec<Option<Box<[u8; 4096]>>> = c
        .layers
        .iter()
        .map(|l| l.alpha.as_ref().map(|a| Box::new(*a.texels())))
        .collect();
    for (i, &p) in weights.iter().enumerate() {
        if p <= 0.0 {
            continue;
        }
        // Current weights, base first.
        let mut w = [0f32; MAX_LAYERS];
        let mut rest = 255f32;
        for j in 1..n {
            w[j] = maps[j].as_ref().map_or(0.0, |m| m[i] as f32);
            rest -= w[j];
        }
        w[0] = rest.max(0.0);
        let old = w[k];
        let new = old + (255.0 - old) * p;
        let scale = if 255.0 - old > 0.0 {
            (255.0 - new) / (255.0 - old)
        } else {
            0.0
        };
        for (j, wj) in w.iter_mut().enumerate().take(n) {
            *wj = if j == k { new } else { *wj * scale };
        }
        // Round the non-base layers, then trim the painted one so the sum never passes 255.
        let mut sum = 0u32;
        for j in 1..n {
            if j != k {
                let v = w[j].round().clamp(0.0, 255.0) as u8;
                if let Some(m) = maps[j].as_mut() {
                    m[i] = v;
                }
                sum += v as u32;
            }
        }
        if k > 0 {
            let v = (w[k].round() as u32).min(255 - sum.min(255)) as u8;
            if let Some(m) = maps[k].as_mut() {
                m[i] = v;
            }
        }
    }
    for (layer, m) in c.layers.iter_mut().zip(maps) {
        if let (Some(alpha), Some(m)) = (layer.alpha.as_mut(), m)
            && alpha.texels()[..] != m[..]
        {
            *alpha.texels_mut() = *m;
        }
    }
}

/// Checks the layer invariants of a chunk: at most four layers, every layer but the base has an
/// alpha map, and at every texel the non-base weights add up to at most 255.
pub fn layers_consistent(c: &Chunk) -> Result<(), String> {
    if c.layers.len() > MAX_LAYERS {
        return Err(format!("{} layers", c.layers.len()));
    }
    if let Some(k) = (1..c.layers.len()).find(|&k| c.layers[k].alpha.is_none()) {
        return Err(format!("layer {k} has no alpha map"));
    }
    if let Some(i) = (0..ALPHA_SIDE * ALPHA_SIDE).find(|&i| others_sum(c, i, usize::MAX) > 255) {
        return Err(format!(
            "texel {i}: layer weights add up to {}",
            others_sum(c, i, usize::MAX)
        ));
    }
    Ok(())
}
