//! The `paint_rules` operation and the Texture rules brush: under each dab, every chunk's
//! texturing moves toward what the rules (`rules`) say its ground shows, by the brush's
//! weight, and is written back as layers and alpha maps as painting writes them (weights
//! adding up to 255, the base layer taking the rest; `layer_flags` for the flags).
//!
//! The four-layer limit: where more than four textures would show in a chunk, the weakest
//! (least weight over the chunk) goes, the others share its weight, and the stroke lists the
//! chunk and the texture so the operation can say where. Layers whose texels end as they were
//! are kept as they were, their file bytes included.
//!
//! Not for: the rules and masks themselves (`rules`), painting one texture (`paint`).

use std::collections::HashMap;

use rayon::prelude::*;
use serde::Deserialize;

use super::brush::{Brush, Falloff, Shape};
use super::brush::{stroke_brush, stroke_dabs, stroke_reach, validate_stroke};
use super::layer_flags;
use super::paint::MAX_LAYERS;
use super::rules::{Rule, compose, ground_at};
use crate::edit::history::History;
use crate::edit::lattice::{STEPS_PER_CHUNK, chunks_near};
use crate::edit::outcome::OpResult;
use crate::edit::stroke::Stroke;
use crate::model::alpha::{ALPHA_SIDE, ALPHA_TEXELS, AlphaMap};
use crate::model::chunk::Layer;
use crate::model::coords;
use crate::model::{Map, TileCoord};

/// The `tool` names that select a texture-rules operation.
pub const NAMES: [&str; 1] = ["paint_rules"];

/// The tool of a texture-rules operation (only `paint_rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RulesToolName {
    /// Texture the ground under the brush by rules.
    PaintRules,
}

/// The `paint_rules` operation: a brush stroke through `points` that textures the ground
/// under it by `rules`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesOp {
    /// Always `paint_rules`.
    pub tool: RulesToolName,
    /// The rules, the ground first.
    pub rules: Vec<Rule>,
    /// World (x, y) points of the stroke; dabs are spaced along the lines between them.
    pub points: Vec<[f64; 2]>,
    /// Brush radius in yards.
    pub radius: f32,
    /// Full-strength radius in yards (default: a third of `radius`).
    pub inner_radius: Option<f32>,
    /// How far toward the rules the brush's centre moves a texel, 0..1 (default 1).
    pub strength: Option<f32>,
    /// Falloff (default smooth).
    pub falloff: Option<Falloff>,
    /// Outline (default circle).
    pub shape: Option<Shape>,
    /// Dab spacing as a fraction of the radius (default 0.25).
    pub spacing: Option<f32>,
}

impl RulesOp {
    /// Rejects malformed operations with the field at fault.
    pub fn validate(&self) -> Result<(), String> {
        validate_stroke("paint_rules", &self.points, self.radius, self.strength)?;
        check_rules(&self.rules).map_err(|e| format!("paint_rules: {e}"))
    }

    /// The brush this operation uses.
    pub fn brush(&self) -> Brush {
        stroke_brush(
            self.radius,
            self.inner_radius,
            self.strength,
            self.falloff,
            self.shape,
            self.spacing,
        )
    }

    /// The tiles this stroke can read or change.
    pub fn reach(&self) -> Vec<TileCoord> {
        stroke_reach(&self.points, self.radius)
    }
}

/// Checks a list of rules: at least one, each well formed (the error names the rule).
pub fn check_rules(rules: &[Rule]) -> Result<(), String> {
    if rules.is_empty() {
        return Err("`rules` needs at least one rule".into());
    }
    for (i, r) in rules.iter().enumerate() {
        r.check().map_err(|e| format!("rules[{i}]: {e}"))?;
    }
    Ok(())
}

/// A chunk where more than four textures would have shown: the texture left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// The tile.
    pub tile: TileCoord,
    /// Chunk index in the tile.
    pub chunk: usize,
    /// The texture left out (the weakest there).
    pub texture: String,
}

/// A chunk's layers as the rules leave them: each layer's texture and the old layer it
/// continues (if any), and the non-base layers' texels.
struct Plan {
    tile: TileCoord,
    chunk: usize,
    layers: Vec<(String, Option<usize>)>,
    texels: Vec<Box<[u8; ALPHA_TEXELS]>>,
    dropped: Vec<String>,
}

/// The brush's weight at each texel of a chunk, or `None` where it reaches none.
fn texel_weights(brush: &Brush, [ccol, crow]: [i32; 2], [cx, cy]: [f64; 2]) -> Option<Vec<f32>> {
    let (radius, inner) = (
        coords::yards_to_steps(f64::from(brush.radius)),
        coords::yards_to_steps(f64::from(brush.inner_radius)),
    );
    let strength = brush.strength.clamp(0.0, 1.0);
    let step = STEPS_PER_CHUNK as f64 / ALPHA_SIDE as f64;
    let (ox, oy) = (
        f64::from(ccol * STEPS_PER_CHUNK),
        f64::from(crow * STEPS_PER_CHUNK),
    );
    let mut any = false;
    let mut out = vec![0f32; ALPHA_TEXELS];
    for row in 0..ALPHA_SIDE {
        for col in 0..ALPHA_SIDE {
            let dx = ox + (col as f64 + 0.5) * step - cx;
            let dy = oy + (row as f64 + 0.5) * step - cy;
            let w = brush.weight_at(dx, dy, radius, inner) * strength;
            any |= w > 0.0;
            out[row * ALPHA_SIDE + col] = w;
        }
    }
    any.then_some(out)
}

/// What the rules make of one chunk under the brush (`None`: the brush misses it).
fn plan_chunk(
    map: &Map,
    (tile, chunk, ccol, crow): (TileCoord, usize, i32, i32),
    rules: &[Rule],
    brush: &Brush,
    centre: [f64; 2],
) -> Option<Plan> {
    let weights = texel_weights(brush, [ccol, crow], centre)?;
    let t = map.tiles.get(&tile)?;
    let c = &t.chunks[chunk];
    // The chunk's textures (one entry per name, any case), then the rules' new ones.
    let mut list: Vec<(String, Option<usize>)> = Vec::new();
    let find = |list: &[(String, Option<usize>)], name: &str| {
        list.iter().position(|(n, _)| n.eq_ignore_ascii_case(name))
    };
    let mut layer_slot = Vec::with_capacity(c.layers.len());
    for (j, layer) in c.layers.iter().enumerate() {
        let name = t
            .textures
            .get(layer.texture as usize)
            .cloned()
            .unwrap_or_default();
        let k = match find(&list, &name) {
            Some(k) => k,
            None => {
                list.push((name, Some(j)));
                list.len() - 1
            }
        };
        layer_slot.push(k);
    }
    let slot: Vec<usize> = rules
        .iter()
        .map(|r| match find(&list, &r.texture) {
            Some(k) => k,
            None => {
                list.push((r.texture.clone(), None));
                list.len() - 1
            }
        })
        .collect();
    let n = list.len();
    let mut named = vec![false; n];
    for &k in &slot {
        named[k] = true;
    }
    // Each texel's weights now and after, texture by texture.
    let mut shown = vec![0f32; n];
    let mut after = vec![0f32; n * ALPHA_TEXELS];
    let mut masks = vec![0f32; rules.len()];
    let mut out = vec![0f32; n];
    let [gx0, gy0] = [ccol * STEPS_PER_CHUNK, crow * STEPS_PER_CHUNK];
    for i in 0..ALPHA_TEXELS {
        shown.iter_mut().for_each(|s| *s = 0.0);
        let mut others = 0f32;
        for (j, layer) in c.layers.iter().enumerate().skip(1) {
            let a = layer
                .alpha
                .as_ref()
                .map_or(0.0, |a| f32::from(a.texels()[i]));
            shown[layer_slot[j]] += a / 255.0;
            others += a;
        }
        if !c.layers.is_empty() {
            shown[layer_slot[0]] += (255.0 - others).max(0.0) / 255.0;
        }
        let w = weights[i];
        if w > 0.0 {
            let (row, col) = (i / ALPHA_SIDE, i % ALPHA_SIDE);
            let u = (col as f32 + 0.5) / 8.0;
            let v = (row as f32 + 0.5) / 8.0;
            let (slope, height) = ground_at(&c.heights, u, v);
            let [x, y] = coords::lattice_to_world(
                f64::from(gx0) + f64::from(u),
                f64::from(gy0) + f64::from(v),
            );
            for (m, r) in masks.iter_mut().zip(rules) {
                *m = r.mask(slope, height, x, y);
            }
            compose(&shown, &masks, &slot, &named, w, &mut out);
        } else {
            out.copy_from_slice(&shown);
        }
        for k in 0..n {
            after[k * ALPHA_TEXELS + i] = out[k];
        }
    }
    // Which textures still show (a byte's worth somewhere), and the four-layer limit.
    let total = |k: usize| -> f64 {
        after[k * ALPHA_TEXELS..(k + 1) * ALPHA_TEXELS]
            .iter()
            .map(|&v| f64::from(v))
            .sum()
    };
    let mut kept: Vec<usize> = (0..n)
        .filter(|&k| {
            after[k * ALPHA_TEXELS..(k + 1) * ALPHA_TEXELS]
                .iter()
                .any(|&v| v * 255.0 >= 0.5)
        })
        .collect();
    let mut dropped = Vec::new();
    while kept.len() > MAX_LAYERS {
        let (at, _) = kept
            .iter()
            .enumerate()
            .map(|(at, &k)| (at, total(k)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("more than four kept");
        let k = kept.remove(at);
        dropped.push(list[k].0.clone());
    }
    if kept.is_empty() {
        return None;
    }
    if !dropped.is_empty() {
        // The others share what the dropped ones showed.
        let strongest = *kept
            .iter()
            .max_by(|a, b| total(**a).total_cmp(&total(**b)))
            .expect("kept");
        for i in 0..ALPHA_TEXELS {
            let sum: f32 = kept.iter().map(|&k| after[k * ALPHA_TEXELS + i]).sum();
            for &k in &kept {
                let v = &mut after[k * ALPHA_TEXELS + i];
                *v = if sum > 0.0 {
                    *v / sum
                } else if k == strongest {
                    1.0
                } else {
                    0.0
                };
            }
        }
    }
    // Layers: the old ones that stay, in their order (so the base stays the base when it
    // stays), then the new ones in the rules' order.
    kept.sort_by_key(|&k| (list[k].1.is_none(), list[k].1, k));
    let mut texels: Vec<Box<[u8; ALPHA_TEXELS]>> = Vec::new();
    for _ in 1..kept.len() {
        texels.push(Box::new([0u8; ALPHA_TEXELS]));
    }
    // Where the old layers keep their slots, texels the brush misses keep their bytes exactly
    // (whatever blend wrote them), new layers nothing there.
    let kept_slots = dropped.is_empty()
        && c.layers.len() <= kept.len()
        && (0..c.layers.len()).all(|j| list[kept[j]].1 == Some(j));
    for i in 0..ALPHA_TEXELS {
        if kept_slots && weights[i] <= 0.0 {
            for (j, layer) in c.layers.iter().enumerate().skip(1) {
                texels[j - 1][i] = layer.alpha.as_ref().map_or(0, |a| a.texels()[i]);
            }
            continue;
        }
        let mut sum = 0u32;
        for (s, &k) in kept.iter().enumerate().skip(1) {
            let b = (after[k * ALPHA_TEXELS + i] * 255.0)
                .round()
                .clamp(0.0, 255.0) as u8;
            texels[s - 1][i] = b;
            sum += u32::from(b);
        }
        // Rounding may pass 255 by a little: trim the largest until it does not.
        while sum > 255 {
            let s = (0..texels.len())
                .max_by_key(|&s| texels[s][i])
                .expect("a layer over the base");
            texels[s][i] -= 1;
            sum -= 1;
        }
    }
    Some(Plan {
        tile,
        chunk,
        layers: kept.iter().map(|&k| list[k].clone()).collect(),
        texels,
        dropped,
    })
}

/// Writes a plan's layers into the map (snapshotting the chunk and, when a texture is new to
/// the tile, its texture list). `effects` caches each new texture's usual ground effect.
fn write_plan(map: &mut Map, plan: Plan, effects: &mut HashMap<String, u32>, stroke: &mut Stroke) {
    let (tile, chunk) = (plan.tile, plan.chunk);
    let big = map.big_alpha();
    let mut indices = Vec::new();
    for (name, _) in &plan.layers {
        let t = &map.tiles[&tile];
        let index = match t.textures.iter().position(|n| n.eq_ignore_ascii_case(name)) {
            Some(i) => i,
            None => {
                stroke.snapshot_textures(map, tile);
                let t = map.tiles.get_mut(&tile).expect("planned on a loaded tile");
                t.textures.push(name.clone());
                t.textures.len() - 1
            }
        };
        indices.push(index as u32);
    }
    for (name, old) in &plan.layers {
        if old.is_none() && !effects.contains_key(&name.to_ascii_lowercase()) {
            let e = crate::edit::derived::ground_effects::usual_effect(map, name).unwrap_or(0);
            effects.insert(name.to_ascii_lowercase(), e);
        }
    }
    let old_layers = map.tiles[&tile].chunks[chunk].layers.clone();
    let mut layers = Vec::with_capacity(plan.layers.len());
    let mut texels = plan.texels.into_iter();
    for (s, ((name, old), &index)) in plan.layers.iter().zip(&indices).enumerate() {
        let mut layer = match old {
            Some(j) => old_layers[*j].clone(),
            None => Layer {
                texture: index,
                flags: 0,
                effect_id: effects[&name.to_ascii_lowercase()],
                alpha: None,
            },
        };
        layer.texture = index;
        if s == 0 {
            layer.flags = layer_flags::as_base(layer.flags);
            layer.alpha = None;
        } else {
            let new = texels.next().expect("a texel map per layer over the base");
            layer.flags = if layer.alpha.is_some() {
                layer_flags::at_slot(layer.flags, s, big)
            } else {
                layer_flags::gaining_alpha(layer.flags, big)
            };
            // Unchanged texels keep the map as it was, file bytes and all.
            if layer
                .alpha
                .as_ref()
                .is_none_or(|a| a.texels()[..] != new[..])
            {
                layer.alpha = Some(AlphaMap::from_texels(new));
            }
        }
        layers.push(layer);
    }
    if layers != old_layers {
        stroke.snapshot(map, tile, chunk);
        map.tiles.get_mut(&tile).expect("loaded").chunks[chunk].layers = layers;
    }
}

/// One dab of texture rules at world (`x`, `y`) into `stroke`. Returns the chunks changed and
/// where a texture was left out for the four-layer limit.
pub fn dab(
    map: &mut Map,
    brush: &Brush,
    rules: &[Rule],
    x: f64,
    y: f64,
    stroke: &mut Stroke,
) -> (Vec<(TileCoord, usize)>, Vec<Dropped>) {
    let ([cx, cy], radius, _) = brush.on_lattice(x, y);
    let chunks = chunks_near(map, cx, cy, radius);
    let shared: &Map = map;
    let plans: Vec<Plan> = chunks
        .par_iter()
        .filter_map(|&c| plan_chunk(shared, c, rules, brush, [cx, cy]))
        .collect();
    let mut effects = HashMap::new();
    let (mut changed, mut dropped) = (Vec::new(), Vec::new());
    for plan in plans {
        let (tile, chunk) = (plan.tile, plan.chunk);
        dropped.extend(plan.dropped.iter().map(|texture| Dropped {
            tile,
            chunk,
            texture: texture.clone(),
        }));
        let before = stroke.touched().len();
        write_plan(map, plan, &mut effects, stroke);
        if stroke.touched().len() != before {
            changed.push((tile, chunk));
        }
    }
    (changed, dropped)
}

/// The history label's note on the chunks that would have shown more than four textures.
pub fn dropped_note(dropped: &[Dropped]) -> Option<String> {
    if dropped.is_empty() {
        return None;
    }
    let mut names: Vec<&str> = dropped.iter().map(|d| d.texture.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let mut chunks: Vec<(TileCoord, usize)> = dropped.iter().map(|d| (d.tile, d.chunk)).collect();
    chunks.sort_unstable();
    chunks.dedup();
    Some(format!(
        "more than four textures in {} chunk{}: the weakest left out ({})",
        chunks.len(),
        if chunks.len() == 1 { "" } else { "s" },
        names.join(", ")
    ))
}

/// Applies a `paint_rules` operation as one undo step in `history`; the chunks where a texture
/// was left out are listed as refused and named in the label.
pub fn apply(map: &mut Map, op: &RulesOp, history: &mut History) -> Result<OpResult, String> {
    op.validate()?;
    let brush = op.brush();
    let mut stroke = Stroke::new("Texture rules");
    let mut dropped = Vec::new();
    for [x, y] in stroke_dabs(&brush, &op.points) {
        let (_, d) = dab(map, &brush, &op.rules, x, y, &mut stroke);
        dropped.extend(d);
    }
    let mut result = OpResult::record(map, stroke, history, "Texture rules", Vec::new());
    if let Some(note) = dropped_note(&dropped) {
        result.label = format!("{}; {note}", result.label);
    }
    let mut refused: Vec<(TileCoord, usize)> = dropped.iter().map(|d| (d.tile, d.chunk)).collect();
    refused.sort_unstable();
    refused.dedup();
    result.refused = refused;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_rules_are_refused_by_name() {
        let base = r#""tool": "paint_rules", "points": [[0, 0]], "radius": 10"#;
        for (rules, says) in [
            ("[]", "at least one rule"),
            (
                r#"[{"texture": "a.blp", "slope": [40, 10]}]"#,
                "rules[0]: `slope`",
            ),
            (
                r#"[{"texture": "a.blp"}, {"texture": "b.blp", "blend": -1}]"#,
                "rules[1]: `blend`",
            ),
            (
                r#"[{"texture": "a.blp", "noise": {"scale": 10, "threshold": 2}}]"#,
                "`threshold`",
            ),
        ] {
            let op: RulesOp =
                serde_json::from_str(&format!("{{{base}, \"rules\": {rules}}}")).unwrap();
            let e = op.validate().unwrap_err();
            assert!(e.contains(says), "{rules}: {e}");
        }
        assert!(
            serde_json::from_str::<RulesOp>(&format!(
                "{{{base}, \"rules\": [{{\"texture\": \"a.blp\", \"slopes\": [1, 2]}}]}}"
            ))
            .is_err()
        );
    }
}
