//! Helpers for the alpha-era codec tests: a minimal model-level down-conversion of a 3.3.5 tile
//! to what the 0.5.x and 0.6.0 files can hold, and comparisons with tolerances.
//!
//! `prepare_for_old_target` is deliberately tiny and test-only; the real conversion policy (what
//! a target keeps, drops and reports) belongs to `convert`.
#![allow(dead_code)]

use loam::edit::objects::{ObjectRecord, record_of};
use loam::format::{mcal, mclq};
use loam::model::chunk::{FLAG_DO_NOT_FIX_ALPHA, FLAG_HAS_VERTEX_COLORS};
use loam::model::liquid::{LiquidLayer, rectangle_mask};
use loam::model::objects::{ObjectKind, placements};
use loam::model::{AlphaMap, Tile};

/// Makes `tile` storable in 0.5.x / 0.6.0: 8-bit alpha rounded to 4-bit steps, no vertex
/// colours, one liquid layer per classic liquid kind (typed as that kind), no MH2O attributes,
/// no sound emitters (3.3.5's 28-byte records have no older form), no MTXF/MFBO/unknown chunks.
pub fn prepare_for_old_target(tile: &mut Tile) {
    tile.texture_flags = None;
    tile.flight_bounds = None;
    tile.unknown_chunks.clear();
    for chunk in &mut tile.chunks {
        chunk.vertex_colors = None;
        chunk.flags &= !(FLAG_HAS_VERTEX_COLORS | FLAG_DO_NOT_FIX_ALPHA);
        chunk.sound_emitters.clear();
        for layer in &mut chunk.layers {
            if let Some(a) = &mut layer.alpha {
                let mut t = *a.texels();
                for v in t.iter_mut() {
                    *v = mcal::to_nibble(*v) * 17;
                }
                *a = AlphaMap::from_texels(Box::new(t));
            }
        }
        if let Some(liquid) = &mut chunk.liquid {
            liquid.attributes = None;
            let mut kept: Vec<LiquidLayer> = Vec::new();
            for (flag, ty) in mclq::FLAG_ORDER {
                if let Some(l) = liquid
                    .layers
                    .iter()
                    .find(|l| mclq::flag_for_type(l.liquid_type) == flag)
                {
                    let mut l = l.clone();
                    l.liquid_type = ty;
                    kept.push(l);
                }
            }
            liquid.layers = kept;
        }
        if chunk.liquid.as_ref().is_some_and(|l| l.layers.is_empty()) {
            chunk.liquid = None;
        }
    }
}

/// Asserts that `back` (read from an old-format file) holds what `orig` (prepared) held, within
/// the formats' precision.
pub fn assert_tile_matches(what: &str, orig: &Tile, back: &Tile) {
    assert_eq!(back.coord, orig.coord, "{what}: coord");
    assert_eq!(back.chunks.len(), 256, "{what}");
    for (i, (a, b)) in orig.chunks.iter().zip(&back.chunks).enumerate() {
        let at = format!("{what} chunk {i}");
        for (k, (x, y)) in a.heights.iter().zip(b.heights.iter()).enumerate() {
            assert!((x - y).abs() <= 0.001, "{at}: height {k}: {x} vs {y}");
        }
        assert_eq!(a.holes, b.holes, "{at}: holes");
        assert_eq!(a.area_id, b.area_id, "{at}: area");
        assert_eq!(a.normals, b.normals, "{at}: normals");
        assert_eq!(a.layers.len(), b.layers.len(), "{at}: layers");
        for (k, (la, lb)) in a.layers.iter().zip(&b.layers).enumerate() {
            assert_eq!(
                orig.texture_name(la.texture),
                back.texture_name(lb.texture),
                "{at}: layer {k} texture"
            );
            match (&la.alpha, &lb.alpha) {
                (Some(x), Some(y)) => {
                    for (t, (p, q)) in x.texels().iter().zip(y.texels().iter()).enumerate() {
                        assert!(
                            (*p as i32 - *q as i32).abs() <= 17,
                            "{at}: layer {k} texel {t}: {p} vs {q}"
                        );
                    }
                }
                (None, None) => {}
                (x, y) => panic!(
                    "{at}: layer {k} alpha presence {} vs {}",
                    x.is_some(),
                    y.is_some()
                ),
            }
        }
        assert_eq!(a.doodad_refs, b.doodad_refs, "{at}: doodad refs");
        assert_eq!(a.wmo_refs, b.wmo_refs, "{at}: wmo refs");
        assert_eq!(a.shadow, b.shadow, "{at}: shadow");
        assert_liquid_matches(&at, a, b);
    }
    // Every placement's record, model named, in record order; WMO boxes besides.
    for kind in [ObjectKind::Doodad, ObjectKind::Wmo] {
        let records = |t: &'_ Tile| -> Vec<ObjectRecord> {
            placements(t, kind).map(|p| record_of(t, p)).collect()
        };
        assert_eq!(records(orig), records(back), "{what}: {kind:?} placements");
    }
    for (p, q) in orig.wmos.iter().zip(&back.wmos) {
        assert_eq!((p.bounds_min, p.bounds_max), (q.bounds_min, q.bounds_max));
    }
}

/// Liquid survives as full 9×9 MCLQ instances: same kinds in the same order, the same quads
/// with liquid, and the same surface height at every vertex of the original rectangle.
fn assert_liquid_matches(at: &str, a: &loam::model::Chunk, b: &loam::model::Chunk) {
    let la: Vec<&LiquidLayer> = a.liquid.iter().flat_map(|l| &l.layers).collect();
    let lb: Vec<&LiquidLayer> = b.liquid.iter().flat_map(|l| &l.layers).collect();
    assert_eq!(la.len(), lb.len(), "{at}: liquid layers");
    let flags = |l: &[&LiquidLayer]| {
        l.iter()
            .fold(0, |f, l| f | mclq::flag_for_type(l.liquid_type))
    };
    assert_eq!(flags(&la), flags(&lb), "{at}: liquid flags");
    assert_eq!(flags(&lb), b.flags & 0x3C, "{at}: chunk liquid flags");
    for (x, y) in la.iter().zip(&lb) {
        assert_eq!(x.liquid_type, y.liquid_type, "{at}: liquid type");
        let rect = rectangle_mask(x.x, x.y, x.width, x.height);
        assert_eq!(x.exists & rect, y.exists, "{at}: liquid quads");
        let yh = y.heights.as_ref().expect("MCLQ stores heights");
        for r in x.y as usize..=(x.y + x.height) as usize {
            for c in x.x as usize..=(x.x + x.width) as usize {
                let li = (r - x.y as usize) * x.vertex_columns() + (c - x.x as usize);
                let expect = x
                    .heights
                    .as_ref()
                    .and_then(|h| h.get(li))
                    .copied()
                    .unwrap_or(x.max_height);
                assert_eq!(yh[r * 9 + c], expect, "{at}: liquid height ({r}, {c})");
            }
        }
        assert_eq!((x.min_height, x.max_height), (y.min_height, y.max_height));
    }
}

/// Every corpus ADT opened through `loam::pipeline::open_map`: (name, as read, prepared).
pub fn corpus_tiles(adts: &[&'static str]) -> Vec<(&'static str, Tile, Tile)> {
    adts.iter()
        .map(|rel| {
            let path = crate::common::corpus().join(rel);
            let opened = loam::pipeline::open_map(&path).unwrap();
            let original = opened.map.tiles.into_values().next().unwrap();
            let mut prepared = original.clone();
            prepare_for_old_target(&mut prepared);
            (*rel, original, prepared)
        })
        .collect()
}

/// Asserts every alpha texel of `back` lies within one 4-bit step (17) of the texel the
/// original, unprepared tile had; returns how many alpha maps were compared.
pub fn assert_alpha_within_one_step(what: &str, original: &Tile, back: &Tile) -> usize {
    let mut compared = 0usize;
    for (i, (a, b)) in original.chunks.iter().zip(&back.chunks).enumerate() {
        for (k, (la, lb)) in a.layers.iter().zip(&b.layers).enumerate() {
            if let (Some(x), Some(y)) = (&la.alpha, &lb.alpha) {
                for (t, (p, q)) in x.texels().iter().zip(y.texels().iter()).enumerate() {
                    assert!(
                        (*p as i32 - *q as i32).abs() <= 17,
                        "{what} chunk {i} layer {k} texel {t}: {p} vs {q}"
                    );
                }
                compared += 1;
            }
        }
    }
    compared
}
