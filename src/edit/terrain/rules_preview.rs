//! What texture rules would lay under a brush, before painting: at points spread over the
//! brush, which rule would show on top there (the rule with the largest share once each later
//! rule lies over the earlier by its mask, as `rules::compose` lays them) and how much of the
//! brush's weight reaches it. The Rules and Biome tools draw these as coloured dots over the
//! ground under the cursor.
//!
//! Not for: painting the rules (`rules_ops`).

use super::brush::Brush;
use super::rules::Rule;
use crate::model::Map;
use crate::model::coords::UNIT_SIZE;

/// Most points a preview takes: the spacing widens with the brush to keep within it.
const MOST_POINTS: f64 = 2500.0;

/// One point of a preview.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PreviewPoint {
    /// World x, y and the ground's height there.
    pub at: [f64; 3],
    /// The rule on top there (its index in the list).
    pub rule: usize,
    /// Its share of the texel (0..=1) times the brush's weight there.
    pub strength: f32,
}

/// The rule on top at a place of `slope` degrees and `height` yards, world (`x`, `y`): its
/// index and its share of what the rules lay (each rule's mask times what every later rule
/// leaves of it). `None` where no rule's mask reaches.
pub fn leading_rule(
    rules: &[Rule],
    slope: f32,
    height: f32,
    x: f64,
    y: f64,
) -> Option<(usize, f32)> {
    let masks: Vec<f32> = rules.iter().map(|r| r.mask(slope, height, x, y)).collect();
    let mut best = None;
    let mut above = 1.0f32;
    for (i, &m) in masks.iter().enumerate().rev() {
        let share = m * above;
        if share > 0.0 && best.is_none_or(|(_, s)| share > s) {
            best = Some((i, share));
        }
        above *= 1.0 - m;
    }
    best
}

/// The preview of `rules` under `brush` centred on world (`x`, `y`): points on a square grid
/// (half a unit apart, wider for big brushes) where the brush weighs and the ground is loaded.
pub fn preview(map: &Map, brush: &Brush, rules: &[Rule], [x, y]: [f64; 2]) -> Vec<PreviewPoint> {
    let radius = f64::from(brush.radius.max(0.1));
    let inner = f64::from(brush.inner_radius);
    let step = (UNIT_SIZE / 2.0).max(2.0 * radius / MOST_POINTS.sqrt());
    let n = (radius / step).ceil() as i32;
    let mut out = Vec::new();
    for j in -n..=n {
        for i in -n..=n {
            let (dx, dy) = (f64::from(i) * step, f64::from(j) * step);
            let weight = brush.weight_at(dx, dy, radius, inner) * brush.strength.clamp(0.0, 1.0);
            if weight <= 0.0 {
                continue;
            }
            let (px, py) = (x + dx, y + dy);
            let Some((h, normal)) = crate::edit::lattice::surface_at(map, px, py) else {
                continue;
            };
            let slope = normal[2].clamp(-1.0, 1.0).acos().to_degrees() as f32;
            if let Some((rule, share)) = leading_rule(rules, slope, h, px, py) {
                out.push(PreviewPoint {
                    at: [px, py, f64::from(h)],
                    rule,
                    strength: share * weight,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(slope: Option<[f32; 2]>, height: Option<[f32; 2]>) -> Rule {
        Rule {
            texture: "t.blp".into(),
            slope,
            height,
            noise: None,
            blend: 0.0,
        }
    }

    #[test]
    fn the_last_rule_whose_limits_hold_is_on_top() {
        let rules = [
            rule(None, None),
            rule(Some([30.0, 90.0]), None),
            rule(None, Some([-100.0, 5.0])),
        ];
        // Gentle and high: the ground.
        assert_eq!(leading_rule(&rules, 10.0, 50.0, 0.0, 0.0), Some((0, 1.0)));
        // Steep and high: the rock.
        assert_eq!(leading_rule(&rules, 40.0, 50.0, 0.0, 0.0), Some((1, 1.0)));
        // Steep and low: the sand lies over the rock.
        assert_eq!(leading_rule(&rules, 40.0, 0.0, 0.0, 0.0), Some((2, 1.0)));
        // No rule reaches: none.
        assert_eq!(leading_rule(&rules[1..2], 10.0, 0.0, 0.0, 0.0), None);
    }

    #[test]
    fn a_half_mask_on_top_shares_with_the_ground_and_the_larger_share_leads() {
        let mut soft = rule(Some([30.0, 90.0]), None);
        soft.blend = 20.0;
        let rules = [rule(None, None), soft];
        // At the limit the blend is half way: rock 0.5, ground 0.5 × (1 − 0.5).
        let (i, share) = leading_rule(&rules, 30.0, 0.0, 0.0, 0.0).unwrap();
        assert_eq!(i, 1);
        assert!((share - 0.5).abs() < 1e-4, "{share}");
        // Below the blend's middle the ground has more.
        assert_eq!(leading_rule(&rules, 25.0, 0.0, 0.0, 0.0).unwrap().0, 0);
    }

    #[test]
    fn the_preview_covers_the_brush_on_loaded_ground_only() {
        let map = crate::sample::sample_map();
        let brush = Brush {
            radius: 20.0,
            inner_radius: 10.0,
            ..Brush::default()
        };
        let rules = [rule(None, None)];
        let [x, y] = map.tiles.keys().next().unwrap().centre();
        let points = preview(&map, &brush, &rules, [x, y]);
        assert!(points.len() > 100, "{}", points.len());
        for p in &points {
            let d = (p.at[0] - x).hypot(p.at[1] - y);
            assert!(d <= 20.0 + 1e-9, "{d}");
            assert_eq!(p.rule, 0);
            let h = crate::edit::lattice::height_at(&map, p.at[0], p.at[1]).unwrap();
            assert_eq!(p.at[2], f64::from(h));
        }
        // A huge brush keeps to the cap.
        let big = Brush {
            radius: 200.0,
            ..brush
        };
        assert!(preview(&map, &big, &rules, [x, y]).len() <= 2600);
    }
}
