//! Liquid between MH2O (3.3.5) and MCLQ (1.12 and older).
//!
//! MCLQ holds one full 9×9 instance per classic liquid kind (water, ocean, magma, slime);
//! MH2O holds any number of layers of any LiquidType row over partial rectangles. Going down,
//! each layer is widened to the chunk (quads outside its rectangle or exists mask are marked
//! "no liquid" in the tile bytes) and its type folded to the nearest classic kind; a second
//! layer of a kind already present cannot be stored and is dropped.

use super::Report;
use crate::model::chunk::{Chunk, FLAG_LIQUID_ANY};
use crate::model::liquid::{LiquidLayer, LiquidOrigin, liquid_type};

pub use crate::model::liquid::classic_kind;

/// Turns a chunk's MH2O layers into MCLQ instances.
pub fn to_mclq(chunk: &mut Chunk, report: &mut Report) {
    let Some(liquid) = chunk.liquid.as_mut() else {
        return;
    };
    if liquid.attributes.take().is_some() {
        report.note("liquid: MH2O fishable/deep masks dropped", 1);
    }
    let mut kept: Vec<LiquidLayer> = Vec::new();
    for mut layer in liquid.layers.drain(..) {
        if matches!(layer.origin, LiquidOrigin::Mh2o) {
            let kind = classic_kind(layer.liquid_type);
            if kind != layer.liquid_type {
                report.note(
                    format!(
                        "liquid: type {} stored as classic type {kind}",
                        layer.liquid_type
                    ),
                    1,
                );
            }
            widen_to_chunk(&mut layer);
            layer.liquid_type = kind;
            layer.vertex_format = if kind == liquid_type::MAGMA { 1 } else { 0 };
            report.note("liquid: MH2O layers rewritten as MCLQ", 1);
        }
        if kept.iter().any(|k| k.liquid_type == layer.liquid_type) {
            report.note(
                "liquid: second layer of the same kind dropped (MCLQ holds one per kind)",
                1,
            );
            continue;
        }
        kept.push(layer);
    }
    chunk.flags &= !FLAG_LIQUID_ANY;
    if kept.is_empty() {
        chunk.liquid = None;
    } else {
        liquid.layers = kept;
    }
}

/// The 81 values of a whole chunk's 9×9 vertices from a layer's own: vertex `i` takes value
/// `pick(i)`, or `missing` when the layer has none there.
fn spread<T: Copy>(values: Option<&[T]>, pick: &impl Fn(usize) -> usize, missing: T) -> Vec<T> {
    (0..81)
        .map(|i| {
            values
                .and_then(|v| v.get(pick(i)))
                .copied()
                .unwrap_or(missing)
        })
        .collect()
}

/// Widens a layer to the whole 9×9 grid, filling vertices outside its rectangle from the nearest
/// edge, and marks it as MCLQ.
fn widen_to_chunk(layer: &mut LiquidLayer) {
    let cols = layer.vertex_columns();
    let pick = |i: usize| -> usize {
        let (row, col) = (i / 9, i % 9);
        let r = row.clamp(layer.y as usize, layer.y as usize + layer.height as usize)
            - layer.y as usize;
        let c =
            col.clamp(layer.x as usize, layer.x as usize + layer.width as usize) - layer.x as usize;
        r * cols + c
    };
    let heights = spread(layer.heights.as_deref(), &pick, layer.max_height);
    let depths = spread(layer.depths.as_deref(), &pick, 0);
    let uvs = layer.uvs.as_deref().map(|u| spread(Some(u), &pick, [0, 0]));
    layer.cover_whole_chunk();
    layer.heights = Some(heights);
    layer.depths = Some(depths);
    layer.uvs = uvs;
    layer.origin = LiquidOrigin::Mclq(crate::model::liquid::MclqExtras {
        vertex_heads: Box::new([[0; 4]; 81]),
        tiles: [0x0F; 64],
        flow_count: 0,
        flows: Box::new([0; 80]),
    });
}

/// Turns a chunk's MCLQ instances into MH2O layers (3.3.5 reads both; MH2O is what its tools
/// edit).
pub fn to_mh2o(chunk: &mut Chunk, report: &mut Report) {
    let Some(liquid) = chunk.liquid.as_mut() else {
        return;
    };
    for layer in &mut liquid.layers {
        if let LiquidOrigin::Mclq(_) = layer.origin {
            layer.origin = LiquidOrigin::Mh2o;
            layer.exists_omitted = layer.exists == layer.rectangle_mask();
            layer.vertex_format = if layer.liquid_type == liquid_type::MAGMA {
                1
            } else {
                0
            };
            report.note(
                "liquid: MCLQ instances rewritten as MH2O (flow data dropped)",
                1,
            );
        }
    }
    chunk.flags &= !FLAG_LIQUID_ANY;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn liquid_types_fold_to_their_classic_kind() {
        assert_eq!(classic_kind(1), liquid_type::WATER);
        assert_eq!(classic_kind(5), liquid_type::WATER);
        assert_eq!(classic_kind(6), liquid_type::OCEAN);
        assert_eq!(classic_kind(7), liquid_type::MAGMA);
        assert_eq!(classic_kind(14), liquid_type::OCEAN);
        assert_eq!(classic_kind(20), liquid_type::SLIME);
        assert_eq!(classic_kind(100), liquid_type::WATER);
    }
}
