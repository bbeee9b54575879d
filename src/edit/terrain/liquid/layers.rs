//! The upkeep of a chunk's liquid layers after any edit of them, shared by the liquid brush,
//! paste (`edit::copy::paste`) and sculpting under water (`edit::terrain::sculpt`): putting liquid on quads
//! and taking it off, the deep and fishable flags, surface heights written to every copy of a
//! shared vertex, and depths re-derived from the ground.
//!
//! Liquid lives on each chunk's 8×8 quads and 9×9 vertices, the same grid as the terrain's outer
//! vertices, so a surface vertex on a chunk or tile border has a copy in each neighbour; every
//! height written goes to every copy that has liquid, so edits open no seams in the water either.
//! Edited layers keep the form their generation stores ([`LiquidStyle`]): MH2O layers are shrunk
//! to the rectangle their quads span, MCLQ instances keep the full grid with tile bytes and MCNK
//! liquid flags that match what they hold — removing the last liquid clears the flags, the mark
//! Noggit left stale.
//!
//! Not for: what a dab reaches (the liquid `brush`), bytes (the MCLQ and MH2O codecs in
//! `format`) or what a conversion folds (see `convert::liquid`).

use std::collections::HashMap;

use crate::edit::lattice::Vertex;
use crate::edit::stroke::Stroke;
use crate::format::Generation;
use crate::format::mclq;
use crate::model::chunk::{Chunk, FLAG_LIQUID_ANY};
use crate::model::coords::outer_vertex;
use crate::model::liquid::{
    ChunkLiquid, LIQUID_QUADS, LiquidAttributes, LiquidLayer, LiquidOrigin, MclqExtras,
    classic_kind, liquid_type,
};
use crate::model::{Map, TileCoord};

/// Vertices along one side of a chunk's liquid grid.
const SIDE: usize = LIQUID_QUADS + 1;

/// MCLQ tile byte of a quad without liquid.
pub(super) const TILE_NONE: u8 = 0x0F;
/// MCLQ tile bit: fatigue ("deep") water.
const TILE_FATIGUE: u8 = 0x80;

/// Depth bytes per yard of water above the ground. Measured on the corpus: every MH2O vertex of
/// Northrend_37_25 stores `⌊9 × (surface − ground)⌋`, clamped to 0..=255 (tests/liquid_edit.rs
/// checks the rule against the file).
pub const DEPTH_PER_YARD: f32 = 9.0;

/// Which structure new liquid takes: the generation's own, so a same-generation save writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LiquidStyle {
    /// 3.3.5: MH2O layers of any LiquidType over partial rectangles.
    #[default]
    Mh2o,
    /// 0.5.x, 0.6.0 and 1.12: one full MCLQ instance per classic kind.
    Mclq,
}

impl LiquidStyle {
    /// The style a generation's files store.
    pub fn of(generation: Generation) -> LiquidStyle {
        if generation == Generation::V335 {
            LiquidStyle::Mh2o
        } else {
            LiquidStyle::Mclq
        }
    }
}

/// Writes surface `heights` (by lattice vertex) into every loaded copy of each vertex, in every
/// chunk with liquid there, adding each chunk it changes to `changed` (once).
pub(super) fn write_surface_heights(
    map: &mut Map,
    heights: &HashMap<(i32, i32), f32>,
    stroke: &mut Stroke,
    changed: &mut Vec<(TileCoord, usize)>,
) {
    // Heights go to every copy of each vertex, in every loaded chunk with liquid there, so
    // neighbouring chunks and tiles share their border heights.
    let mut per_chunk: HashMap<(TileCoord, usize), Vec<(usize, f32)>> = HashMap::new();
    for (&(gx, gy), &h) in heights {
        let v = Vertex {
            gx,
            gy,
            inner: false,
        };
        for copy in v.copies() {
            let (row, col) = (copy.index / 17, copy.index % 17);
            per_chunk
                .entry((copy.tile, copy.chunk))
                .or_default()
                .push((row * SIDE + col, h));
        }
    }
    for ((tile, chunk), values) in per_chunk {
        let Some(t) = map.tiles.get(&tile) else {
            continue;
        };
        let before = &t.chunks[chunk];
        if before.liquid.is_none() {
            continue;
        }
        let mut after = before.clone();
        set_heights(&mut after, &values);
        if after != *before {
            stroke.snapshot(map, tile, chunk);
            map.tiles.get_mut(&tile).expect("loaded").chunks[chunk] = after;
            if !changed.contains(&(tile, chunk)) {
                changed.push((tile, chunk));
            }
        }
    }
}

/// The liquid of one quad as copy and paste carry it: its LiquidType and flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuadLiquid {
    /// LiquidType.dbc id of the layer holding the quad.
    pub liquid_type: u16,
    /// Deep (fatigue) water.
    pub deep: bool,
    /// Fishing works (MH2O only; always false in MCLQ chunks).
    pub fishable: bool,
}

/// The liquid on quad `bit` (row × 8 + column) of `chunk`, or `None` when it is dry.
pub fn quad_liquid(chunk: &Chunk, bit: usize) -> Option<QuadLiquid> {
    let liquid = chunk.liquid.as_ref()?;
    let layer = liquid
        .layers
        .iter()
        .find(|l| l.wet_quads() >> bit & 1 == 1)?;
    let attributes = liquid.attributes.unwrap_or_default();
    let deep = match &layer.origin {
        LiquidOrigin::Mclq(extras) => extras.tiles[bit] & TILE_FATIGUE != 0,
        LiquidOrigin::Mh2o => attributes.deep >> bit & 1 == 1,
    };
    Some(QuadLiquid {
        liquid_type: layer.liquid_type,
        deep,
        fishable: attributes.fishable >> bit & 1 == 1,
    })
}

/// The liquid surface height at vertex (`row`, `col`) of `chunk`'s 9×9 grid, from the first
/// layer with a wet quad around it; `None` where no quad around it is wet.
pub fn vertex_surface(chunk: &Chunk, row: usize, col: usize) -> Option<f32> {
    let layer = chunk
        .liquid
        .as_ref()?
        .layers
        .iter()
        .find(|l| corner_of_any(l.wet_quads(), row, col))?;
    Some(layer.surface_height_at(&layer.surface_heights(), row, col))
}

/// Sets the liquid of single quads, as a paste does: each `(tile, chunk, bit, liquid)` makes
/// quad `bit` dry (`None`) or wet with that liquid (taking it from another layer), in `style`
/// where the chunk has no liquid yet; then the surface `heights` (by lattice vertex) go to
/// every copy as the brush writes them. Returns the chunks changed.
pub fn set_quads(
    map: &mut Map,
    quads: &[(TileCoord, usize, usize, Option<QuadLiquid>)],
    heights: &HashMap<(i32, i32), f32>,
    style: LiquidStyle,
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    let mut per_chunk = std::collections::BTreeMap::<(TileCoord, usize), Vec<_>>::new();
    for &(tile, chunk, bit, q) in quads {
        per_chunk.entry((tile, chunk)).or_default().push((bit, q));
    }
    let mut changed = Vec::new();
    for ((tile, chunk), list) in per_chunk {
        let Some(before) = map.tiles.get(&tile).map(|t| &t.chunks[chunk]) else {
            continue;
        };
        let mut after = before.clone();
        let mut by_type: std::collections::BTreeMap<u16, u64> = std::collections::BTreeMap::new();
        let mut dry = 0u64;
        for &(bit, q) in &list {
            match q {
                Some(q) => *by_type.entry(q.liquid_type).or_default() |= 1 << bit,
                None => dry |= 1 << bit,
            }
        }
        for (&t, &mask) in &by_type {
            add(&mut after, mask, t, style);
        }
        remove(&mut after, dry);
        let mask_of = |f: &dyn Fn(&QuadLiquid) -> bool| {
            list.iter()
                .filter(|(_, q)| q.as_ref().is_some_and(f))
                .fold(0u64, |m, (bit, _)| m | 1 << bit)
        };
        let wet = by_type.values().fold(0, |m, v| m | v);
        let (deep, fishable) = (mask_of(&|q| q.deep), mask_of(&|q| q.fishable));
        set_flags(&mut after, deep, Some(true), None);
        set_flags(&mut after, wet & !deep, Some(false), None);
        set_flags(&mut after, fishable, None, Some(true));
        set_flags(&mut after, wet & !fishable, None, Some(false));
        if after != *before {
            stroke.snapshot(map, tile, chunk);
            map.tiles.get_mut(&tile).expect("loaded").chunks[chunk] = after;
            changed.push((tile, chunk));
        }
    }
    write_surface_heights(map, heights, stroke, &mut changed);
    changed
}

/// True when vertex (`r`, `k`) of the 9×9 grid is a corner of a quad in `mask`.
pub(super) fn corner_of_any(mask: u64, r: usize, k: usize) -> bool {
    [(0, 0), (0, 1), (1, 0), (1, 1)].iter().any(|&(dr, dk)| {
        let (qr, qk) = (r as i32 - dr, k as i32 - dk);
        (0..8).contains(&qr)
            && (0..8).contains(&qk)
            && mask >> (qr as usize * LIQUID_QUADS + qk as usize) & 1 == 1
    })
}

/// Quads of a chunk holding liquid of any layer.
pub fn wet_quads(chunk: &Chunk) -> u64 {
    chunk.liquid.as_ref().map_or(0, |l| {
        l.layers.iter().fold(0, |m, layer| m | layer.wet_quads())
    })
}

/// Puts liquid of `liquid_type` on the quads of `mask`, taking them from other layers.
pub(super) fn add(chunk: &mut Chunk, mask: u64, liquid_type: u16, style: LiquidStyle) {
    let ground: Vec<f32> = (0..SIDE * SIDE)
        .map(|i| chunk.heights[outer_vertex(i / SIDE, i % SIDE)])
        .collect();
    let liquid = chunk.liquid.get_or_insert_with(ChunkLiquid::default);
    // A chunk keeps the style it already has; a dry chunk takes the generation's.
    let style = match liquid.layers.first().map(|l| &l.origin) {
        Some(LiquidOrigin::Mh2o) => LiquidStyle::Mh2o,
        Some(LiquidOrigin::Mclq(_)) => LiquidStyle::Mclq,
        None => style,
    };
    let liquid_type = match style {
        LiquidStyle::Mh2o => liquid_type,
        LiquidStyle::Mclq => classic_kind(liquid_type),
    };
    let index = match liquid
        .layers
        .iter()
        .position(|l| l.liquid_type == liquid_type)
    {
        Some(i) => i,
        None => {
            liquid.layers.push(new_layer(liquid_type, style, &ground));
            liquid.layers.len() - 1
        }
    };
    for (i, layer) in liquid.layers.iter_mut().enumerate() {
        widen(layer);
        if i == index {
            layer.exists |= mask;
        } else {
            layer.exists &= !mask;
        }
    }
    finish(chunk);
}

/// Takes the liquid off the quads of `mask`.
pub(super) fn remove(chunk: &mut Chunk, mask: u64) {
    let Some(liquid) = chunk.liquid.as_mut() else {
        return;
    };
    if liquid
        .layers
        .iter()
        .all(|l| l.exists & l.rectangle_mask() & mask == 0)
    {
        return;
    }
    for layer in &mut liquid.layers {
        widen(layer);
        layer.exists &= !mask;
    }
    finish(chunk);
}

/// Sets or clears the deep and fishable flags of the wet quads of `mask`.
pub(super) fn set_flags(chunk: &mut Chunk, mask: u64, deep: Option<bool>, fishable: Option<bool>) {
    let wet = wet_quads(chunk) & mask;
    let Some(liquid) = chunk.liquid.as_mut() else {
        return;
    };
    if wet == 0 {
        return;
    }
    let bits = |value: u64, on: Option<bool>| match on {
        Some(true) => value | wet,
        Some(false) => value & !wet,
        None => value,
    };
    let mh2o = liquid
        .layers
        .iter()
        .any(|l| matches!(l.origin, LiquidOrigin::Mh2o));
    if mh2o {
        let a = liquid.attributes.unwrap_or_default();
        let next = LiquidAttributes {
            fishable: bits(a.fishable, fishable),
            deep: bits(a.deep, deep),
        };
        if liquid.attributes.is_some() || next != LiquidAttributes::default() {
            liquid.attributes = Some(next);
        }
    }
    if let Some(on) = deep {
        for layer in &mut liquid.layers {
            if let LiquidOrigin::Mclq(extras) = &mut layer.origin {
                for (i, tile) in extras.tiles.iter_mut().enumerate() {
                    if wet >> i & 1 == 1 && layer.exists >> i & 1 == 1 {
                        *tile = if on {
                            *tile | TILE_FATIGUE
                        } else {
                            *tile & !TILE_FATIGUE
                        };
                    }
                }
            }
        }
    }
}

/// Writes surface heights (index into the 9×9 grid) into every layer with liquid at the vertex,
/// and re-derives depths and height ranges.
fn set_heights(chunk: &mut Chunk, values: &[(usize, f32)]) {
    let Some(liquid) = chunk.liquid.as_mut() else {
        return;
    };
    let mut any = false;
    for layer in &mut liquid.layers {
        let wet = layer.exists & layer.rectangle_mask();
        let touched: Vec<(usize, f32)> = values
            .iter()
            .copied()
            .filter(|&(i, _)| corner_of_any(wet, i / SIDE, i % SIDE))
            .collect();
        if touched.is_empty() {
            continue;
        }
        widen(layer);
        if let Some(h) = layer.heights.as_mut() {
            for (i, value) in touched {
                h[i] = value;
            }
        }
        any = true;
    }
    if any {
        finish(chunk);
    }
}

/// A new layer over the whole grid, without quads yet, in `style`'s structure.
fn new_layer(liquid_type: u16, style: LiquidStyle, ground: &[f32]) -> LiquidLayer {
    let magma = classic_kind(liquid_type) == liquid_type::MAGMA;
    let origin = match style {
        LiquidStyle::Mh2o => LiquidOrigin::Mh2o,
        LiquidStyle::Mclq => LiquidOrigin::Mclq(MclqExtras {
            vertex_heads: Box::new([[0; 4]; 81]),
            tiles: [TILE_NONE; 64],
            flow_count: 0,
            flows: Box::new([0; mclq::FLOW_BYTES]),
        }),
    };
    let level = ground.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    LiquidLayer {
        liquid_type,
        // Magma stores texture coordinates where water stores depths (MH2O formats 1 and 0).
        vertex_format: if magma { 1 } else { 0 },
        min_height: level,
        max_height: level,
        x: 0,
        y: 0,
        width: 8,
        height: 8,
        exists: 0,
        exists_omitted: false,
        exists_padding: 0,
        heights: Some(vec![level; 81]),
        depths: (!magma).then(|| vec![0; 81]),
        uvs: magma.then(|| vec![[0, 0]; 81]),
        origin,
    }
}

/// Spreads a layer's grids to the whole 9×9 grid (vertices outside its rectangle take the
/// nearest edge value), with heights stored, so an edit can address any vertex.
fn widen(layer: &mut LiquidLayer) {
    let full = layer.x == 0 && layer.y == 0 && layer.width == 8 && layer.height == 8;
    if full && layer.heights.is_some() {
        return;
    }
    let cols = layer.vertex_columns();
    let (x0, y0, w, h) = (
        layer.x as usize,
        layer.y as usize,
        layer.width as usize,
        layer.height as usize,
    );
    let pick = |i: usize| {
        let (r, c) = (i / SIDE, i % SIDE);
        (r.clamp(y0, y0 + h) - y0) * cols + (c.clamp(x0, x0 + w) - x0)
    };
    let heights = layer.surface_heights();
    layer.heights = Some((0..81).map(|i| heights[pick(i)]).collect());
    if let Some(d) = &layer.depths {
        layer.depths = Some((0..81).map(|i| d[pick(i)]).collect());
    }
    if let Some(u) = &layer.uvs {
        layer.uvs = Some((0..81).map(|i| u[pick(i)]).collect());
    }
    if layer.vertex_format == 2 {
        // Depth-only data cannot hold the heights an edit sets.
        layer.vertex_format = 0;
    }
    layer.cover_whole_chunk();
}

/// Makes an edited chunk's liquid consistent: empty layers dropped, depths and height ranges
/// re-derived, MH2O layers shrunk to their quads, MCLQ tile bytes and the MCNK liquid flags
/// matching the instances, and no liquid at all when no quad is wet.
fn finish(chunk: &mut Chunk) {
    let ground: Vec<f32> = (0..SIDE * SIDE)
        .map(|i| chunk.heights[outer_vertex(i / SIDE, i % SIDE)])
        .collect();
    // What the file said of the old liquid no longer describes it.
    chunk.quirks.liquid_size_field = None;
    chunk.quirks.liquid_size_without_chunk = None;
    chunk.flags &= !FLAG_LIQUID_ANY;
    let Some(liquid) = chunk.liquid.as_mut() else {
        return;
    };
    liquid.layers.retain(|l| l.exists & l.rectangle_mask() != 0);
    if liquid.layers.is_empty() {
        chunk.liquid = None;
        return;
    }
    let wet_all = liquid.layers.iter().fold(0, |m, l| m | l.exists);
    if let Some(a) = liquid.attributes.as_mut() {
        a.fishable &= wet_all;
        a.deep &= wet_all;
    }
    for layer in &mut liquid.layers {
        widen(layer);
        let heights = layer.heights.clone().unwrap_or_default();
        if let Some(d) = layer.depths.as_mut() {
            for (i, depth) in d.iter_mut().enumerate() {
                *depth = depth_byte(heights[i], ground[i]);
            }
        }
        let mut range = (f32::INFINITY, f32::NEG_INFINITY);
        for (i, &h) in heights.iter().enumerate() {
            if corner_of_any(layer.exists, i / SIDE, i % SIDE) {
                range = (range.0.min(h), range.1.max(h));
            }
        }
        (layer.min_height, layer.max_height) = range;
        match &mut layer.origin {
            LiquidOrigin::Mclq(extras) => {
                let nibble = mclq::tile_kind(classic_kind(layer.liquid_type));
                for (i, tile) in extras.tiles.iter_mut().enumerate() {
                    let wet = layer.exists >> i & 1 == 1;
                    let shown = *tile & 0x08 == 0;
                    if wet && !shown {
                        *tile = nibble;
                    } else if !wet {
                        *tile = TILE_NONE;
                    }
                }
                if let Some(d) = &layer.depths {
                    for (head, depth) in extras.vertex_heads.iter_mut().zip(d) {
                        head[0] = *depth;
                    }
                }
            }
            LiquidOrigin::Mh2o => shrink(layer),
        }
    }
    for layer in &liquid.layers {
        if matches!(layer.origin, LiquidOrigin::Mclq(_)) {
            chunk.flags |= mclq::flag_for_type(layer.liquid_type);
        }
    }
}

/// Re-derives the depth bytes of a chunk's liquid from its surfaces and the ground under them,
/// after the ground moved (sculpting under water). Heights, masks and kinds stay; a chunk
/// without liquid, or whose layers store no depths, is left as it is.
pub fn refresh_depths(chunk: &mut Chunk) {
    let Some(liquid) = chunk.liquid.as_mut() else {
        return;
    };
    for layer in &mut liquid.layers {
        let Some(depths) = layer.depths.as_ref() else {
            continue;
        };
        let heights = layer.surface_heights();
        let cols = layer.vertex_columns();
        let fresh: Vec<u8> = (0..depths.len())
            .map(|i| {
                let (r, k) = (layer.y as usize + i / cols, layer.x as usize + i % cols);
                let surface = layer.surface_height_at(&heights, r, k);
                depth_byte(surface, chunk.heights[outer_vertex(r.min(8), k.min(8))])
            })
            .collect();
        if let LiquidOrigin::Mclq(extras) = &mut layer.origin
            && fresh.len() == extras.vertex_heads.len()
        {
            for (head, d) in extras.vertex_heads.iter_mut().zip(&fresh) {
                head[0] = *d;
            }
        }
        if *depths != fresh {
            layer.depths = Some(fresh);
        }
    }
}

/// The depth byte of a vertex whose surface is at `surface` over ground at `ground`.
pub fn depth_byte(surface: f32, ground: f32) -> u8 {
    ((surface - ground) * DEPTH_PER_YARD)
        .floor()
        .clamp(0.0, 255.0) as u8
}

/// Shrinks a full-grid MH2O layer to the rectangle its wet quads span.
fn shrink(layer: &mut LiquidLayer) {
    let (mut x0, mut y0, mut x1, mut y1) = (8, 8, 0, 0);
    for i in 0..64 {
        if layer.exists >> i & 1 == 1 {
            let (r, c) = (i / 8, i % 8);
            (x0, y0, x1, y1) = (x0.min(c), y0.min(r), x1.max(c + 1), y1.max(r + 1));
        }
    }
    if x0 >= x1 {
        return;
    }
    let pick = |grid_index: usize| {
        let (r, c) = (grid_index / (x1 - x0 + 1), grid_index % (x1 - x0 + 1));
        (y0 + r) * SIDE + x0 + c
    };
    let count = (x1 - x0 + 1) * (y1 - y0 + 1);
    if let Some(h) = &layer.heights {
        layer.heights = Some((0..count).map(|i| h[pick(i)]).collect());
    }
    if let Some(d) = &layer.depths {
        layer.depths = Some((0..count).map(|i| d[pick(i)]).collect());
    }
    if let Some(u) = &layer.uvs {
        layer.uvs = Some((0..count).map(|i| u[pick(i)]).collect());
    }
    (layer.x, layer.y) = (x0 as u8, y0 as u8);
    (layer.width, layer.height) = ((x1 - x0) as u8, (y1 - y0) as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_follows_the_measured_rule() {
        assert_eq!(depth_byte(161.36, 153.20), 73);
        assert_eq!(depth_byte(157.66, 157.13), 4);
        assert_eq!(depth_byte(10.0, 12.0), 0);
        assert_eq!(depth_byte(100.0, 0.0), 255);
    }
}
