//! Texture rules: which texture the ground shows by its shape. A rule names a texture and may
//! limit it to a range of slope (degrees from level, of the triangle the client draws at that
//! place), of height (yards) and to where a noise field passes a threshold. Its mask is 1
//! inside every limit and falls to 0 across `blend` (degrees for slope, yards for height)
//! centred on each limit (smoothstep); a rule without limits covers everything.
//!
//! What a texel shows ([`compose`]): the first rule is the ground wherever its limits allow,
//! each later rule lies over what is below it by its mask, and where the rules leave part of
//! a texel uncovered the rules' textures already there keep their share. The brush then blends
//! from what the texel showed to that by its weight, so textures no rule names fade out under
//! the brush's falloff.
//!
//! Not for: writing the result into layers and alpha maps, and the four-layer limit
//! (`rules_ops`).

use serde::{Deserialize, Serialize};

use crate::model::coords::UNIT_SIZE;

/// A noise limit: the rule holds where smooth value noise of wavelength `scale` yards, in
/// 0..1, is at least `threshold`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleNoise {
    /// Wavelength, yards.
    pub scale: f32,
    /// The least noise value (0..1) where the rule holds: higher, fewer patches.
    pub threshold: f32,
    /// The noise field's seed (default 0).
    #[serde(default)]
    pub seed: u32,
}

/// One texture rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// The texture path.
    pub texture: String,
    /// Slope range, degrees from level (`None`: any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slope: Option<[f32; 2]>,
    /// Height range, yards (`None`: any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<[f32; 2]>,
    /// Noise limit (`None`: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<RuleNoise>,
    /// Width of the soft edge centred on each limit: degrees for slope, yards for height
    /// (default 0: a hard edge).
    #[serde(default)]
    pub blend: f32,
}

/// Half the width of the noise limit's soft edge, in noise units.
const NOISE_EDGE: f32 = 0.05;

/// 0 below `edge − blend/2`, 1 above `edge + blend/2`, smoothstep between.
fn rise(v: f32, edge: f32, blend: f32) -> f32 {
    if blend <= 0.0 {
        return if v >= edge { 1.0 } else { 0.0 };
    }
    let t = ((v - edge) / blend + 0.5).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// 1 inside `[lo, hi]`, falling to 0 across `blend` centred on each end.
fn within(v: f32, [lo, hi]: [f32; 2], blend: f32) -> f32 {
    rise(v, lo, blend) * (1.0 - rise(v, hi, blend))
}

impl Rule {
    /// The rule's mask (0..=1) at a place of `slope` degrees and `height` yards, world
    /// (`x`, `y`).
    pub fn mask(&self, slope: f32, height: f32, x: f64, y: f64) -> f32 {
        let mut m = 1.0;
        if let Some(range) = self.slope {
            m *= within(slope, range, self.blend);
        }
        if let Some(range) = self.height {
            m *= within(height, range, self.blend);
        }
        if let Some(n) = &self.noise
            && m > 0.0
        {
            let scale = f64::from(n.scale.max(0.1));
            let v = (super::sculpt::value_noise(n.seed, x / scale, y / scale) + 1.0) * 0.5;
            m *= rise(v, n.threshold, 2.0 * NOISE_EDGE);
        }
        m
    }

    /// What is wrong with the rule, if anything.
    pub fn check(&self) -> Result<(), String> {
        if self.texture.trim().is_empty() {
            return Err("`texture` is empty".into());
        }
        if !(self.blend >= 0.0 && self.blend.is_finite()) {
            return Err(format!("`blend` is 0 or more, not {}", self.blend));
        }
        for (name, range) in [("slope", self.slope), ("height", self.height)] {
            if let Some([lo, hi]) = range
                && !(lo.is_finite() && hi.is_finite() && lo <= hi)
            {
                return Err(format!(
                    "`{name}` must be [MIN, MAX] with MIN ≤ MAX, not [{lo}, {hi}]"
                ));
            }
        }
        if let Some(n) = &self.noise {
            if !(n.scale > 0.0 && n.scale.is_finite()) {
                return Err(format!("noise: `scale` is over 0 yards, not {}", n.scale));
            }
            if !(0.0..=1.0).contains(&n.threshold) {
                return Err(format!("noise: `threshold` is 0 to 1, not {}", n.threshold));
            }
        }
        Ok(())
    }
}

/// The ground at a place of a chunk: the slope (degrees) and height (yards) of the triangle
/// the client draws there. `heights` are the chunk's 145 (absolute) heights; (`u`, `v`) is
/// the place in quads from the chunk's north-west corner (east, south), 0..8.
pub fn ground_at(heights: &[f32; 145], u: f32, v: f32) -> (f32, f32) {
    let (qx, qy) = ((u as usize).min(7), (v as usize).min(7));
    let (fx, fy) = (u - qx as f32, v - qy as f32);
    let outer = |dx: usize, dy: usize| heights[(qy + dy) * 17 + qx + dx];
    let m = heights[qy * 17 + 9 + qx];
    // Gradient (yards per step) of the triangle: the quad's centre and one of its edges.
    let (ha, pa, g) = if fy <= fx && fy <= 1.0 - fx {
        let (ha, hb) = (outer(0, 0), outer(1, 0));
        let gx = hb - ha;
        (ha, (0.0, 0.0), [gx, 2.0 * (m - ha) - gx])
    } else if fy >= fx && fy >= 1.0 - fx {
        let (ha, hb) = (outer(0, 1), outer(1, 1));
        let gx = hb - ha;
        (ha, (0.0, 1.0), [gx, gx - 2.0 * (m - ha)])
    } else if fx < 0.5 {
        let (ha, hb) = (outer(0, 0), outer(0, 1));
        let gy = hb - ha;
        (ha, (0.0, 0.0), [2.0 * (m - ha) - gy, gy])
    } else {
        let (ha, hb) = (outer(1, 0), outer(1, 1));
        let gy = hb - ha;
        (ha, (1.0, 0.0), [gy - 2.0 * (m - ha), gy])
    };
    let height = ha + g[0] * (fx - pa.0) + g[1] * (fy - pa.1);
    let tan = (g[0] * g[0] + g[1] * g[1]).sqrt() / UNIT_SIZE as f32;
    (tan.atan().to_degrees(), height)
}

/// What one texel shows after the rules: `shown[k]` is the weight (adding up to 1) of texture
/// `k` of the chunk's texture list now, `masks[r]` each rule's mask there, `slot[r]` the
/// index of rule `r`'s texture in that list, `named[k]` whether any rule names texture `k`,
/// `weight` the brush's (0..=1). Writes the new weights into `out`.
pub fn compose(
    shown: &[f32],
    masks: &[f32],
    slot: &[usize],
    named: &[bool],
    weight: f32,
    out: &mut [f32],
) {
    // The rules, lowest first, each over what is below it by its mask.
    out.iter_mut().for_each(|o| *o = 0.0);
    let mut covered = 0f32;
    for (&m, &k) in masks.iter().zip(slot) {
        if m <= 0.0 {
            continue;
        }
        out.iter_mut().for_each(|o| *o *= 1.0 - m);
        out[k] += m;
        covered = covered * (1.0 - m) + m;
    }
    // Where the rules leave part uncovered, the rules' own textures already there share it;
    // failing those, the rules stretch over it; failing any rule, nothing changes.
    let left = 1.0 - covered;
    if left > 1e-6 {
        let mine: f32 = shown
            .iter()
            .zip(named)
            .filter(|(_, n)| **n)
            .map(|(s, _)| s)
            .sum();
        if mine > 1e-6 {
            for k in 0..out.len() {
                if named[k] {
                    out[k] += left * shown[k] / mine;
                }
            }
        } else if covered > 1e-6 {
            out.iter_mut().for_each(|o| *o /= covered);
        } else {
            out.copy_from_slice(shown);
        }
    }
    for k in 0..out.len() {
        out[k] = shown[k] + (out[k] - shown[k]) * weight;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(json: &str) -> Rule {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_mask_is_one_inside_and_falls_across_the_blend() {
        let r = rule(r#"{"texture": "rock.blp", "slope": [30, 90], "blend": 10}"#);
        assert_eq!(r.mask(50.0, 0.0, 0.0, 0.0), 1.0);
        assert_eq!(r.mask(20.0, 0.0, 0.0, 0.0), 0.0);
        assert_eq!(r.mask(25.0, 0.0, 0.0, 0.0), 0.0);
        assert!((r.mask(30.0, 0.0, 0.0, 0.0) - 0.5).abs() < 1e-6);
        assert_eq!(r.mask(35.0, 0.0, 0.0, 0.0), 1.0);
        let all = rule(r#"{"texture": "grass.blp"}"#);
        assert_eq!(all.mask(80.0, -500.0, 1.0, 2.0), 1.0);
        let sand = rule(r#"{"texture": "sand.blp", "height": [-1000, 10], "blend": 4}"#);
        assert_eq!(sand.mask(0.0, 5.0, 0.0, 0.0), 1.0);
        assert_eq!(sand.mask(0.0, 13.0, 0.0, 0.0), 0.0);
    }

    #[test]
    fn the_ground_is_the_drawn_triangles() {
        // A quad rising one step (4.17 yd) per step eastward: 45° wherever one looks.
        let mut h = [0f32; 145];
        for (i, v) in h.iter_mut().enumerate() {
            // Outer vertices at whole columns, inner ones half a step east of theirs.
            let rem = i % 17;
            let col = if rem < 9 {
                rem as f32
            } else {
                rem as f32 - 9.0 + 0.5
            };
            *v = col * UNIT_SIZE as f32;
        }
        for (u, v) in [(0.2, 0.1), (3.5, 3.9), (7.9, 0.5), (0.1, 7.9)] {
            let (slope, height) = ground_at(&h, u, v);
            assert!((slope - 45.0).abs() < 1e-3, "{u},{v}: {slope}");
            assert!((height - u * UNIT_SIZE as f32).abs() < 1e-3);
        }
    }

    #[test]
    fn later_rules_lie_over_earlier_ones_and_unnamed_textures_fade() {
        // Texture 0 unnamed (what was there), 1 the ground rule, 2 the rock over it.
        let shown = [1.0, 0.0, 0.0];
        let named = [false, true, true];
        let mut out = [0.0; 3];
        compose(&shown, &[1.0, 0.25], &[1, 2], &named, 1.0, &mut out);
        assert_eq!(out, [0.0, 0.75, 0.25]);
        compose(&shown, &[1.0, 0.25], &[1, 2], &named, 0.5, &mut out);
        assert_eq!(out, [0.5, 0.375, 0.125]);
        // A rule that leaves part uncovered: the rules' textures there keep their share.
        compose(&[0.5, 0.5, 0.0], &[0.5], &[2], &named, 1.0, &mut out);
        assert_eq!(out, [0.0, 0.5, 0.5]);
    }
}
