//! The brush: how strongly a dab acts at each distance from its centre, where the dabs of a
//! dragged stroke fall, and the fields every brush operation shares (checked, defaulted, the
//! tiles a stroke reaches).

use serde::{Deserialize, Serialize};

use crate::model::TileCoord;

/// How a brush's strength fades between its inner and outer radius.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Falloff {
    /// Straight line down to zero.
    Linear,
    /// Smoothstep: soft start and end.
    #[default]
    Smooth,
    /// Bell curve, reaching zero at the outer radius.
    Gaussian,
    /// Full strength everywhere inside the radius.
    Flat,
}

/// The brush outline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Distance measured as a circle.
    #[default]
    Circle,
    /// Distance measured as a square (the larger axis offset).
    Square,
}

/// A grey image as a brush's shape and strength: black nothing, white full strength.
#[derive(Debug, Clone, PartialEq)]
pub struct StampMask {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Strengths 0..=1, row by row (row 0 the image's top: north when unturned).
    pub values: Vec<f32>,
}

impl StampMask {
    /// Channel 0 of `raster` as a mask (a colour image's red channel, as Noggit Red reads its
    /// stamps' mean of the three; a grey stamp is the same either way).
    pub fn from_raster(raster: &crate::edit::raster::Raster) -> StampMask {
        let mut values = Vec::with_capacity(raster.width * raster.height);
        for y in 0..raster.height {
            for x in 0..raster.width {
                let v = (0..raster.channels.min(3))
                    .map(|c| raster.at(x, y, c))
                    .sum::<f64>()
                    / raster.channels.clamp(1, 3) as f64;
                values.push(v as f32);
            }
        }
        StampMask {
            width: raster.width,
            height: raster.height,
            values,
        }
    }

    /// The strength at (`u`, `v`), each 0..=1 across the image (u east, v south), sampled
    /// bilinearly; 0 outside.
    pub fn at(&self, u: f64, v: f64) -> f32 {
        if !(0.0..=1.0).contains(&u) || !(0.0..=1.0).contains(&v) || self.values.is_empty() {
            return 0.0;
        }
        let px = u * (self.width - 1) as f64;
        let py = v * (self.height - 1) as f64;
        let (x0, y0) = (px.floor() as usize, py.floor() as usize);
        let (x1, y1) = ((x0 + 1).min(self.width - 1), (y0 + 1).min(self.height - 1));
        let (fx, fy) = ((px - x0 as f64) as f32, (py - y0 as f64) as f32);
        let at = |x: usize, y: usize| self.values[y * self.width + x];
        let top = at(x0, y0) * (1.0 - fx) + at(x1, y0) * fx;
        let bottom = at(x0, y1) * (1.0 - fx) + at(x1, y1) * fx;
        top * (1.0 - fy) + bottom * fy
    }
}

/// A stamp: the image file a brush takes its shape from, and its pixels once read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stamp {
    /// The image file.
    pub path: String,
    /// Its pixels; read by the editor (or `loam apply`) when missing, which is how a stamp
    /// comes back from the saved settings.
    #[serde(skip)]
    pub mask: Option<std::sync::Arc<StampMask>>,
}

/// A brush's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Brush {
    /// Outer radius in yards.
    pub radius: f32,
    /// Radius in yards inside which the brush acts at full strength (hardness).
    pub inner_radius: f32,
    /// Strength: yards per dab for raise/lower, a 0..1 fraction for flatten, smooth, paint, shade.
    pub strength: f32,
    /// Fade between inner and outer radius.
    pub falloff: Falloff,
    /// Outline.
    pub shape: Shape,
    /// Distance between dabs of a dragged stroke, as a fraction of the radius.
    pub spacing: f32,
    /// An image as the brush's shape and strength, covering the square the radius spans
    /// (falloff and outline then do not apply).
    #[serde(default)]
    pub stamp: Option<Stamp>,
    /// How far the stamp is turned, in degrees clockwise seen from above.
    #[serde(default)]
    pub rotation: f32,
}

impl Default for Brush {
    fn default() -> Self {
        Brush {
            radius: 15.0,
            inner_radius: 5.0,
            strength: 1.0,
            falloff: Falloff::Smooth,
            shape: Shape::Circle,
            spacing: 0.25,
            stamp: None,
            rotation: 0.0,
        }
    }
}

impl Brush {
    /// The brush centred on world (`x`, `y`), in lattice steps: its centre, its radius and its
    /// inner (full-strength) radius.
    pub fn on_lattice(&self, x: f64, y: f64) -> ([f64; 2], f64, f64) {
        (
            crate::model::coords::world_to_lattice(x, y),
            crate::model::coords::yards_to_steps(self.radius as f64),
            crate::model::coords::yards_to_steps(self.inner_radius as f64),
        )
    }

    /// The brush's weight (0..=1) at offset (`dx`, `dy`) from its centre, in any unit, given the
    /// radius and inner radius in that same unit.
    pub fn weight_at(&self, dx: f64, dy: f64, radius: f64, inner_radius: f64) -> f32 {
        if let Some(mask) = self.stamp.as_ref().and_then(|s| s.mask.as_deref()) {
            return self.stamp_weight(mask, dx, dy, radius);
        }
        let d = match self.shape {
            Shape::Circle => (dx * dx + dy * dy).sqrt(),
            Shape::Square => dx.abs().max(dy.abs()),
        };
        if d > radius {
            return 0.0;
        }
        let inner = inner_radius.clamp(0.0, radius);
        if d <= inner || radius - inner < 1e-9 {
            return 1.0;
        }
        let t = ((d - inner) / (radius - inner)) as f32;
        match self.falloff {
            Falloff::Linear => 1.0 - t,
            Falloff::Smooth => 1.0 - t * t * (3.0 - 2.0 * t),
            Falloff::Gaussian => {
                let floor = (-4.0f32).exp();
                (((-4.0 * t * t).exp()) - floor) / (1.0 - floor)
            }
            Falloff::Flat => 1.0,
        }
    }

    /// The stamp's strength at offset (`dx` east, `dy` south) from the centre: the image spans
    /// the square of side twice `radius`, turned by `rotation`.
    fn stamp_weight(&self, mask: &StampMask, dx: f64, dy: f64, radius: f64) -> f32 {
        if radius <= 0.0 {
            return 0.0;
        }
        // Turn the offset back by the rotation to find the image's own axes.
        let (sin, cos) = (-f64::from(self.rotation)).to_radians().sin_cos();
        let (ix, iy) = (dx * cos - dy * sin, dx * sin + dy * cos);
        mask.at(0.5 + ix / (2.0 * radius), 0.5 + iy / (2.0 * radius))
    }

    /// The dabs of a straight line stroke from `start` to `end` (x, y; heights ignored): the
    /// press point, then every dab spaced along the way (the ramp and river tools).
    pub fn dabs_along(&self, start: [f64; 3], end: [f64; 3]) -> Vec<[f64; 2]> {
        let mut points = vec![[start[0], start[1]]];
        points.extend(self.dabs_between([start[0], start[1]], [end[0], end[1]]));
        points
    }

    /// Dab centres along a dragged segment from `from` to `to` (world x, y), spaced by
    /// `spacing × radius`, excluding `from` itself (the previous dab) and always ending at `to`.
    pub fn dabs_between(&self, from: [f64; 2], to: [f64; 2]) -> Vec<[f64; 2]> {
        let step = (self.spacing.max(0.01) * self.radius.max(0.01)) as f64;
        let (dx, dy) = (to[0] - from[0], to[1] - from[1]);
        let len = (dx * dx + dy * dy).sqrt();
        let n = (len / step).floor() as usize;
        let mut out: Vec<[f64; 2]> = (1..=n)
            .map(|i| i as f64 * step / len)
            .map(|f| [from[0] + dx * f, from[1] + dy * f])
            .collect();
        if out
            .last()
            .is_none_or(|p| (p[0] - to[0]).abs() + (p[1] - to[1]).abs() > 1e-9)
            && len > 0.0
        {
            out.push(to);
        }
        out
    }
}

/// Checks a stroke's common fields: at least one finite point, a positive radius, a
/// strength in 0..=1.
pub fn validate_stroke(
    tool: &str,
    points: &[[f64; 2]],
    radius: f32,
    strength: Option<f32>,
) -> Result<(), String> {
    validate_circles(tool, points, f64::from(radius))?;
    if let Some(s) = strength
        && !(0.0..=1.0).contains(&s)
    {
        return Err(format!("{tool}: `strength` is 0 to 1, not {s}"));
    }
    Ok(())
}

/// Checks the circles a stroke covers: at least one point, all finite, a positive radius.
pub fn validate_circles(tool: &str, points: &[[f64; 2]], radius: f64) -> Result<(), String> {
    if points.is_empty() {
        return Err(format!("{tool}: `points` needs at least one point"));
    }
    if points.iter().flatten().any(|c| !c.is_finite()) {
        return Err(format!("{tool}: every point needs finite coordinates"));
    }
    if !(radius > 0.0 && radius.is_finite()) {
        return Err(format!("{tool}: `radius` must be positive, not {radius}"));
    }
    Ok(())
}

/// The brush a stroke's common fields describe (the defaults of every brush operation).
pub fn stroke_brush(
    radius: f32,
    inner_radius: Option<f32>,
    strength: Option<f32>,
    falloff: Option<Falloff>,
    shape: Option<Shape>,
    spacing: Option<f32>,
) -> Brush {
    Brush {
        radius,
        inner_radius: inner_radius.unwrap_or(radius / 3.0),
        strength: strength.unwrap_or(1.0),
        falloff: falloff.unwrap_or_default(),
        shape: shape.unwrap_or_default(),
        spacing: spacing.unwrap_or(0.25),
        stamp: None,
        rotation: 0.0,
    }
}

/// The tiles within a stroke's radius and a chunk's margin of its points: smoothing averages
/// a vertex's neighbours and normals are recomputed a vertex beyond what moved, and a chunk
/// covers both. A partly loaded map needs these tiles in memory for the stroke to do what it
/// does on the whole map.
pub fn stroke_reach(points: &[[f64; 2]], radius: f32) -> Vec<TileCoord> {
    if points.is_empty() || !radius.is_finite() {
        return Vec::new();
    }
    let r = f64::from(radius.max(0.0)) + crate::model::coords::CHUNK_SIZE;
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        for axis in 0..2 {
            lo[axis] = lo[axis].min(p[axis]);
            hi[axis] = hi[axis].max(p[axis]);
        }
    }
    crate::model::coords::tiles_overlapping((
        [lo[0] - r, lo[1] - r, 0.0],
        [hi[0] + r, hi[1] + r, 0.0],
    ))
}

/// The dab centres of a stroke through `points`: the first point, then spaced along each
/// segment.
pub fn stroke_dabs(brush: &Brush, points: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut out: Vec<[f64; 2]> = points.first().copied().into_iter().collect();
    for pair in points.windows(2) {
        out.extend(brush.dabs_between(pair[0], pair[1]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_is_the_shape_turned_and_scaled_with_the_brush() {
        // A 3×3 image lit only in its top-right pixel (north-east, unturned).
        let mut values = vec![0.0; 9];
        values[2] = 1.0;
        let brush = Brush {
            stamp: Some(Stamp {
                path: "corner.png".into(),
                mask: Some(std::sync::Arc::new(StampMask {
                    width: 3,
                    height: 3,
                    values,
                })),
            }),
            ..Brush::default()
        };
        // Offsets in lattice units: east is +dx, south is +dy; the image spans ±radius.
        assert_eq!(
            brush.weight_at(10.0, -10.0, 10.0, 0.0),
            1.0,
            "north-east corner"
        );
        assert_eq!(brush.weight_at(-10.0, -10.0, 10.0, 0.0), 0.0);
        assert_eq!(
            brush.weight_at(11.0, -11.0, 10.0, 0.0),
            0.0,
            "outside the square"
        );
        assert_eq!(
            brush.weight_at(20.0, -20.0, 20.0, 0.0),
            1.0,
            "scaled with the radius"
        );
        let turned = Brush {
            rotation: 90.0,
            ..brush.clone()
        };
        // Turned a quarter clockwise, the north-east corner lies south-east.
        assert!((turned.weight_at(10.0, 10.0, 10.0, 0.0) - 1.0).abs() < 1e-5);
        assert!(turned.weight_at(10.0, -10.0, 10.0, 0.0) < 1e-5);
    }

    #[test]
    fn weights_fall_from_one_to_zero() {
        for falloff in [Falloff::Linear, Falloff::Smooth, Falloff::Gaussian] {
            let b = Brush {
                falloff,
                ..Brush::default()
            };
            assert_eq!(b.weight_at(0.0, 0.0, 10.0, 2.0), 1.0);
            assert_eq!(b.weight_at(2.0, 0.0, 10.0, 2.0), 1.0);
            let mid = b.weight_at(6.0, 0.0, 10.0, 2.0);
            assert!(mid > 0.0 && mid < 1.0, "{falloff:?} {mid}");
            assert!(b.weight_at(9.99, 0.0, 10.0, 2.0) < 0.01);
            assert_eq!(b.weight_at(10.01, 0.0, 10.0, 2.0), 0.0);
        }
        let flat = Brush {
            falloff: Falloff::Flat,
            ..Brush::default()
        };
        assert_eq!(flat.weight_at(9.0, 0.0, 10.0, 2.0), 1.0);
    }

    #[test]
    fn square_brush_reaches_the_corners() {
        let b = Brush {
            shape: Shape::Square,
            falloff: Falloff::Flat,
            ..Brush::default()
        };
        assert_eq!(b.weight_at(9.0, 9.0, 10.0, 0.0), 1.0);
        let c = Brush {
            falloff: Falloff::Flat,
            ..Brush::default()
        };
        assert_eq!(c.weight_at(9.0, 9.0, 10.0, 0.0), 0.0);
    }

    #[test]
    fn dabs_are_spaced_and_end_at_the_target() {
        let b = Brush {
            radius: 10.0,
            spacing: 0.5,
            ..Brush::default()
        };
        let d = b.dabs_between([0.0, 0.0], [0.0, 12.0]);
        assert_eq!(d, vec![[0.0, 5.0], [0.0, 10.0], [0.0, 12.0]]);
        assert!(b.dabs_between([1.0, 1.0], [1.0, 1.0]).is_empty());
    }
}
