//! Height sculpting: raise, lower, flatten (level or onto a plane), smooth, noise and ramp, one dab at a time, followed by
//! the normals of every touched vertex and its neighbours.

use serde::{Deserialize, Serialize};

use super::brush::Brush;
use super::plane::Plane;
use super::ramp_line::ramp_height;
use crate::edit::lattice::Vertex;
use crate::edit::lattice::normals;
use crate::edit::lattice::patch::Patch;
use crate::edit::stroke::Stroke;
use crate::model::Map;

/// Which heights flatten may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FlattenMode {
    /// Up and down.
    #[default]
    Both,
    /// Only up (fills hollows).
    RaiseOnly,
    /// Only down (cuts bumps).
    LowerOnly,
}

/// A sculpting tool.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sculpt {
    /// Adds `strength × weight` yards.
    Raise,
    /// Subtracts `strength × weight` yards.
    Lower,
    /// Moves heights toward `target` by a fraction `strength × weight` per dab.
    Flatten {
        /// The height flattened to.
        target: f32,
        /// Which way heights may move.
        mode: FlattenMode,
    },
    /// Moves heights toward their neighbours' mean by a fraction `strength × weight` per dab.
    Smooth,
    /// Adds smooth value noise of amplitude `strength × weight` yards, wavelength `scale` yards.
    Noise {
        /// Seed of the noise field.
        seed: u32,
        /// Wavelength in yards.
        scale: f32,
    },
    /// Flattens toward a sloping plane (the `plane` operation, the flatten brush's slope),
    /// moving heights only as `mode` lets it.
    Plane {
        /// The plane flattened to.
        plane: Plane,
        /// Which way heights may move.
        mode: FlattenMode,
    },
    /// Flattens toward the straight slope from `from` to `to` (world x, y, height).
    Ramp {
        /// Start of the slope.
        from: [f64; 3],
        /// End of the slope.
        to: [f64; 3],
    },
}

impl Sculpt {
    /// The name shown in the history ("Raise").
    pub fn name(&self) -> &'static str {
        match self {
            Sculpt::Raise => "Raise",
            Sculpt::Lower => "Lower",
            Sculpt::Flatten { .. } => "Flatten",
            Sculpt::Plane { .. } => "Plane",
            Sculpt::Smooth => "Smooth",
            Sculpt::Noise { .. } => "Noise",
            Sculpt::Ramp { .. } => "Ramp",
        }
    }
}

/// Applies one dab centred on world (`x`, `y`); returns the chunks changed.
pub fn dab(
    map: &mut Map,
    brush: &Brush,
    tool: Sculpt,
    x: f64,
    y: f64,
    stroke: &mut Stroke,
) -> Vec<(crate::model::TileCoord, usize)> {
    let ([cx, cy], radius, inner) = brush.on_lattice(x, y);
    // One step more than the radius, so smoothing sees the neighbours of the rim.
    let mut patch = Patch::around(map, cx, cy, radius + 1.0);
    let reading = patch.clone();
    let targets: Vec<(Vertex, f32)> = patch
        .vertices(cx, cy)
        .filter_map(|(v, dx, dy)| {
            let w = brush.weight_at(dx, dy, radius, inner);
            (w > 0.0).then_some((v, w))
        })
        .collect();
    for (v, w) in targets {
        let Some(h) = reading.get(v) else { continue };
        let new = match tool {
            Sculpt::Raise => h + brush.strength * w,
            Sculpt::Lower => h - brush.strength * w,
            Sculpt::Flatten { target, mode } => flatten(h, target, brush.strength * w, mode),
            Sculpt::Plane { plane, mode } => {
                let [wx, wy] = v.world_xy();
                flatten(h, plane.height_at(wx, wy) as f32, brush.strength * w, mode)
            }
            Sculpt::Smooth => match neighbour_mean(&reading, v) {
                Some(mean) => h + (mean - h) * (brush.strength * w).clamp(0.0, 1.0),
                None => h,
            },
            Sculpt::Noise { seed, scale } => {
                let [wx, wy] = v.world_xy();
                h + brush.strength
                    * w
                    * value_noise(seed, wx / scale.max(0.1) as f64, wy / scale.max(0.1) as f64)
            }
            Sculpt::Ramp { from, to } => {
                let [wx, wy] = v.world_xy();
                let target = ramp_height(from, to, wx, wy);
                h + (target - h) * (brush.strength * w).clamp(0.0, 1.0)
            }
        };
        patch.set(v, new);
    }
    commit_heights(map, &patch, stroke)
}

/// Writes the heights `patch` changed to every loaded copy (snapshotting each chunk into
/// `stroke` first), refreshes the depth of water over them and recomputes the normals around
/// them. Returns the chunks written.
pub fn commit_heights(
    map: &mut Map,
    patch: &Patch,
    stroke: &mut Stroke,
) -> Vec<(crate::model::TileCoord, usize)> {
    let changed = patch.changed();
    if changed.is_empty() {
        return Vec::new();
    }
    let mut touched = patch.store(map, |m, t, c| stroke.snapshot(m, t, c));
    // Water over changed ground is now deeper or shallower (already snapshotted above).
    for (tile, chunk) in &touched {
        if let Some(c) = map
            .tiles
            .get_mut(tile)
            .and_then(|t| t.chunks.get_mut(*chunk))
        {
            super::liquid::refresh_depths(c);
        }
    }
    let (gx0, gx1) = changed.iter().fold((i32::MAX, i32::MIN), |(a, b), v| {
        (a.min(v.gx), b.max(v.gx + v.inner as i32))
    });
    let (gy0, gy1) = changed.iter().fold((i32::MAX, i32::MIN), |(a, b), v| {
        (a.min(v.gy), b.max(v.gy + v.inner as i32))
    });
    let mut seen: std::collections::HashSet<_> = touched.iter().copied().collect();
    for c in normals::recompute(map, gx0 - 1, gy0 - 1, gx1 + 1, gy1 + 1, |m, t, c| {
        stroke.snapshot(m, t, c)
    }) {
        if seen.insert(c) {
            touched.push(c);
        }
    }
    touched
}

/// Height `h` moved toward `target` by `amount` (0..1 of the way; 1 lands on it exactly),
/// in the directions `mode` allows.
fn flatten(h: f32, target: f32, amount: f32, mode: FlattenMode) -> f32 {
    let amount = amount.clamp(0.0, 1.0);
    let moved = if amount >= 1.0 {
        target
    } else {
        h + (target - h) * amount
    };
    match mode {
        FlattenMode::Both => moved,
        FlattenMode::RaiseOnly => moved.max(h),
        FlattenMode::LowerOnly => moved.min(h),
    }
}

/// Mean height of a vertex's lattice neighbours: the four outer vertices one step away for an
/// outer vertex, the quad's four corners for an inner one.
pub(in crate::edit) fn neighbour_mean(p: &Patch, v: Vertex) -> Option<f32> {
    let around: [(i32, i32); 4] = if v.inner {
        [(0, 0), (1, 0), (0, 1), (1, 1)]
    } else {
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
    };
    let hs: Vec<f32> = around
        .iter()
        .filter_map(|(dx, dy)| {
            p.get(Vertex {
                gx: v.gx + dx,
                gy: v.gy + dy,
                inner: false,
            })
        })
        .collect();
    (!hs.is_empty()).then(|| hs.iter().sum::<f32>() / hs.len() as f32)
}

/// Smooth value noise in -1..1: hashed lattice values, bilinearly blended with smoothstep.
pub fn value_noise(seed: u32, x: f64, y: f64) -> f32 {
    let hash = |ix: i64, iy: i64| -> f32 {
        let mut h = (ix as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (iy as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ seed as u64;
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        (h >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = ((x - x0) as f32, (y - y0) as f32);
    let s = |t: f32| t * t * (3.0 - 2.0 * t);
    let (ix, iy) = (x0 as i64, y0 as i64);
    let top = hash(ix, iy) + (hash(ix + 1, iy) - hash(ix, iy)) * s(fx);
    let bottom = hash(ix, iy + 1) + (hash(ix + 1, iy + 1) - hash(ix, iy + 1)) * s(fx);
    top + (bottom - top) * s(fy)
}
