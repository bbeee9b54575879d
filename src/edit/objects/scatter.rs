//! The pure maths of the scatter brush: a seeded random stream, the brush's circles and the
//! share of each that earlier dabs left uncovered, dart throwing inside them, the spacing grid,
//! the ground limits and the tilt toward the ground's normal.
//!
//! Density is what is placed: a dart that lands too close to another object is thrown again
//! elsewhere (dart throwing, the simple form of Poisson-disk sampling), so the count falls
//! short only where the spacing leaves no room. A dart that lands where a limit says no (too
//! steep, too high, the wrong texture) uses up its share of the area, so that the count over
//! the allowed ground is the density there.
//!
//! Not for: the map (`scatter_ops` reads the ground and writes the objects).

use std::collections::HashMap;

/// A small seeded random stream (splitmix64). The crate has no `rand` dependency and the
/// scatter brush needs only uniform numbers that a seed repeats on every platform, byte for
/// byte; splitmix64 gives that in a few lines (as `assets::procedural` already does).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The stream for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in 0..1 (53 random bits).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A number in `lo..=hi` (either order).
    pub fn between(&mut self, [lo, hi]: [f64; 2]) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// One dab's circle (world x, y and radius, yards).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    /// Centre, world (x, y).
    pub centre: [f64; 2],
    /// Radius, yards.
    pub radius: f64,
}

impl Circle {
    /// True when world (x, y) lies inside (or on) the circle.
    pub fn contains(&self, [x, y]: [f64; 2]) -> bool {
        let (dx, dy) = (x - self.centre[0], y - self.centre[1]);
        dx * dx + dy * dy <= self.radius * self.radius
    }

    /// The circle's area, square yards.
    pub fn area(&self) -> f64 {
        std::f64::consts::PI * self.radius * self.radius
    }

    /// A point uniformly inside the circle.
    pub fn sample(&self, rng: &mut Rng) -> [f64; 2] {
        let r = self.radius * rng.unit().sqrt();
        let a = std::f64::consts::TAU * rng.unit();
        [self.centre[0] + r * a.cos(), self.centre[1] + r * a.sin()]
    }
}

/// Stratified points per side of the grid [`uncovered_area`] measures with: 256² cells keep
/// the error far under a percent of any circle.
const AREA_GRID: usize = 256;

/// The area of `circle` that none of `earlier` covers (the new ground a dab reaches), measured
/// on a fixed grid so that it is the same on every run.
pub fn uncovered_area(circle: &Circle, earlier: &[Circle]) -> f64 {
    let near: Vec<&Circle> = earlier
        .iter()
        .filter(|c| {
            let d = (c.centre[0] - circle.centre[0]).hypot(c.centre[1] - circle.centre[1]);
            d < c.radius + circle.radius
        })
        .collect();
    if near.is_empty() {
        return circle.area();
    }
    let step = 2.0 * circle.radius / AREA_GRID as f64;
    let (mut inside, mut free) = (0usize, 0usize);
    for i in 0..AREA_GRID {
        for j in 0..AREA_GRID {
            let p = [
                circle.centre[0] - circle.radius + (i as f64 + 0.5) * step,
                circle.centre[1] - circle.radius + (j as f64 + 0.5) * step,
            ];
            if !circle.contains(p) {
                continue;
            }
            inside += 1;
            if !near.iter().any(|c| c.contains(p)) {
                free += 1;
            }
        }
    }
    if inside == 0 {
        return 0.0;
    }
    circle.area() * free as f64 / inside as f64
}

/// A grid of cells one spacing wide holding the objects placed so far, so that "is anything
/// closer than the spacing?" looks at nine cells, not every object.
#[derive(Debug, Clone)]
pub struct SpacingGrid {
    spacing: f64,
    cells: HashMap<(i64, i64), Vec<[f64; 2]>>,
}

impl SpacingGrid {
    /// An empty grid for objects at least `spacing` yards apart (0: no spacing).
    pub fn new(spacing: f64) -> SpacingGrid {
        SpacingGrid {
            spacing,
            cells: HashMap::new(),
        }
    }

    fn cell(&self, [x, y]: [f64; 2]) -> (i64, i64) {
        let s = self.spacing.max(1e-3);
        ((x / s).floor() as i64, (y / s).floor() as i64)
    }

    /// True when no object of the grid is closer to `p` than the spacing.
    pub fn fits(&self, p: [f64; 2]) -> bool {
        if self.spacing <= 0.0 {
            return true;
        }
        let (cx, cy) = self.cell(p);
        let s2 = self.spacing * self.spacing;
        (-1..=1).all(|dx| {
            (-1..=1).all(|dy| {
                self.cells.get(&(cx + dx, cy + dy)).is_none_or(|v| {
                    v.iter().all(|q| {
                        let (ex, ey) = (q[0] - p[0], q[1] - p[1]);
                        ex * ex + ey * ey >= s2
                    })
                })
            })
        })
    }

    /// Adds an object at `p`.
    pub fn insert(&mut self, p: [f64; 2]) {
        if self.spacing <= 0.0 {
            return;
        }
        let c = self.cell(p);
        self.cells.entry(c).or_default().push(p);
    }
}

/// Where the ground lets the brush place: the steepest slope, a height range and a texture's
/// least weight (each optional).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Limits {
    /// Steepest ground, degrees from level.
    pub max_slope: Option<f64>,
    /// Lowest and highest ground, yards.
    pub heights: Option<[f64; 2]>,
    /// The least weight (0..1) the named texture must have under the object.
    pub texture_min: Option<f64>,
}

impl Limits {
    /// True when ground of height `z`, normal `normal` and texture weight `weight` (0..1;
    /// only read when a texture limit is set) takes an object.
    pub fn allow(&self, z: f64, normal: [f64; 3], weight: impl FnOnce() -> f64) -> bool {
        if let Some(max) = self.max_slope
            && slope_degrees(normal) > max
        {
            return false;
        }
        if let Some([lo, hi]) = self.heights
            && !(lo..=hi).contains(&z)
        {
            return false;
        }
        match self.texture_min {
            Some(min) => weight() >= min,
            None => true,
        }
    }
}

/// The ground's slope in degrees from level, from its unit normal.
pub fn slope_degrees(normal: [f64; 3]) -> f64 {
    normal[2].clamp(-1.0, 1.0).acos().to_degrees()
}

/// The up axis of an object tilted `tilt` of the way from upright (0) to the ground's
/// `normal` (1).
pub fn tilted_up(normal: [f64; 3], tilt: f64) -> [f64; 3] {
    let t = tilt.clamp(0.0, 1.0);
    let n = glam::DVec3::from(normal).normalize_or(glam::DVec3::Z);
    glam::DVec3::Z
        .lerp(n, t)
        .normalize_or(glam::DVec3::Z)
        .to_array()
}

/// The record rotation (degrees) of an object turned `yaw` degrees about the up axis and
/// tilted `tilt` of the way toward the ground's `normal`; upright (`tilt` 0) it is exactly
/// (0, yaw, 0).
pub fn rotation(yaw: f64, normal: [f64; 3], tilt: f64) -> [f32; 3] {
    if tilt <= 0.0 {
        return [0.0, yaw as f32, 0.0];
    }
    super::aligned_to([0.0, yaw as f32, 0.0], tilted_up(normal, tilt))
}

/// An index into `weights` drawn in proportion to them (the first when all are 0).
pub fn weighted_pick(weights: &[f64], rng: &mut Rng) -> usize {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 0;
    }
    let mut r = rng.unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if r < *w {
            return i;
        }
        r -= w;
    }
    weights.len().saturating_sub(1)
}

/// The MDDF scale record of a size factor drawn in `range`, kept inside the range after
/// rounding to 1/1024 where the range holds such a step.
pub fn scale_record(range: [f64; 2], rng: &mut Rng) -> u16 {
    let (lo, hi) = (range[0].min(range[1]), range[0].max(range[1]));
    let record = crate::model::placement::doodad_scale_record(rng.between([lo, hi]));
    let (first, last) = ((lo * 1024.0).ceil(), (hi * 1024.0).floor());
    if first <= last {
        (f64::from(record).clamp(first, last)) as u16
    } else {
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_repeats_its_stream_and_another_does_not() {
        let a: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..5)
            .scan(Rng::new(8), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut r = Rng::new(1);
        assert!((0..1000).map(|_| r.unit()).all(|u| (0.0..1.0).contains(&u)));
    }

    #[test]
    fn circle_samples_are_inside_and_spread_over_the_area() {
        let c = Circle {
            centre: [100.0, -50.0],
            radius: 20.0,
        };
        let mut rng = Rng::new(3);
        let points: Vec<_> = (0..4000).map(|_| c.sample(&mut rng)).collect();
        assert!(points.iter().all(|p| c.contains(*p)));
        // Uniform: the inner half radius holds a quarter of the area.
        let inner = points
            .iter()
            .filter(|p| (p[0] - 100.0).hypot(p[1] + 50.0) < 10.0)
            .count();
        assert!((800..1200).contains(&inner), "{inner}");
    }

    #[test]
    fn the_uncovered_area_leaves_out_earlier_circles() {
        let a = Circle {
            centre: [0.0, 0.0],
            radius: 10.0,
        };
        assert_eq!(uncovered_area(&a, &[]), a.area());
        assert!(uncovered_area(&a, &[a]) < 1e-9);
        // Half a circle behind a far larger one whose edge runs through the centre.
        let wall = Circle {
            centre: [-1000.0, 0.0],
            radius: 1000.0,
        };
        let half = uncovered_area(&a, &[wall]);
        assert!((half / a.area() - 0.5).abs() < 0.01, "{half}");
    }

    #[test]
    fn the_grid_refuses_points_closer_than_the_spacing() {
        let mut g = SpacingGrid::new(2.0);
        g.insert([10.0, 10.0]);
        assert!(!g.fits([11.5, 10.0]));
        assert!(!g.fits([10.0, 8.1]));
        assert!(g.fits([12.01, 10.0]));
        assert!(g.fits([8.5, 8.5]));
        assert!(SpacingGrid::new(0.0).fits([10.0, 10.0]));
    }

    #[test]
    fn limits_say_no_to_steep_high_or_wrongly_textured_ground() {
        let limits = Limits {
            max_slope: Some(30.0),
            heights: Some([0.0, 50.0]),
            texture_min: Some(0.5),
        };
        let level = [0.0, 0.0, 1.0];
        let s = 40f64.to_radians();
        let steep = [s.sin(), 0.0, s.cos()];
        assert!(limits.allow(10.0, level, || 0.6));
        assert!(!limits.allow(10.0, steep, || 0.6));
        assert!(!limits.allow(60.0, level, || 0.6));
        assert!(!limits.allow(10.0, level, || 0.4));
        assert!((slope_degrees(steep) - 40.0).abs() < 1e-9);
    }

    #[test]
    fn tilt_blends_upright_to_the_normal() {
        let n = [0.6, 0.0, 0.8];
        assert_eq!(tilted_up(n, 0.0), [0.0, 0.0, 1.0]);
        let full = tilted_up(n, 1.0);
        assert!((full[0] - 0.6).abs() < 1e-12 && (full[2] - 0.8).abs() < 1e-12);
        let half = tilted_up(n, 0.5);
        assert!(half[0] > 0.0 && half[0] < 0.6);
        assert_eq!(rotation(33.0, n, 0.0), [0.0, 33.0, 0.0]);
        let r = rotation(33.0, n, 1.0);
        let m = crate::model::coords::placement_matrix([0.0; 3], r, 1.0);
        let up = m.transform_vector3(glam::DVec3::Z);
        assert!((up - glam::DVec3::from(n)).length() < 1e-5, "{up:?}");
        assert_eq!(r[1], 33.0);
    }

    #[test]
    fn picks_follow_the_weights_and_scales_stay_in_range() {
        let mut rng = Rng::new(11);
        let mut counts = [0usize; 3];
        for _ in 0..3000 {
            counts[weighted_pick(&[1.0, 0.0, 3.0], &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!((600..900).contains(&counts[0]), "{counts:?}");
        for _ in 0..1000 {
            let r = scale_record([0.8, 1.2], &mut rng);
            assert!((820..=1228).contains(&r), "{r}");
        }
    }
}
