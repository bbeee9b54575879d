//! A sloping plane of the ground, height as a function of world (x, y): the surface the
//! `plane` operation, the flatten brush's slope and a vertex selection's "onto a plane" put
//! heights on. Given through three points, or as a point with a slope and the direction it
//! rises toward.
//!
//! Not for: applying it (`sculpt`, `selection`).

/// A non-vertical plane: `height(x, y) = origin.z + gradient · ((x, y) − origin.xy)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane {
    /// A point on the plane (world x, y, height).
    pub origin: [f64; 3],
    /// How many yards the plane rises per yard along world x and along world y.
    pub gradient: [f64; 2],
}

impl Plane {
    /// The level plane at `height`.
    pub fn level(height: f64) -> Plane {
        Plane {
            origin: [0.0, 0.0, height],
            gradient: [0.0, 0.0],
        }
    }

    /// The plane through three points (world x, y, height); `None` when they lie on one line
    /// seen from above (no plane, or a vertical one) or are not finite.
    pub fn through(points: [[f64; 3]; 3]) -> Option<Plane> {
        let [a, b, c] = points;
        let (u, v) = (
            [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
            [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
        );
        // Solve gx·u.x + gy·u.y = u.z and gx·v.x + gy·v.y = v.z.
        let det = u[0] * v[1] - u[1] * v[0];
        let span = (u[0].hypot(u[1]) * v[0].hypot(v[1])).max(f64::MIN_POSITIVE);
        if points.iter().flatten().any(|c| !c.is_finite()) || det.abs() <= 1e-9 * span {
            return None;
        }
        let gx = (u[2] * v[1] - u[1] * v[2]) / det;
        let gy = (u[0] * v[2] - u[2] * v[0]) / det;
        Some(Plane {
            origin: a,
            gradient: [gx, gy],
        })
    }

    /// The plane through `origin` (world x, y, height) rising at `slope` degrees (0 level,
    /// under 90) toward the compass `direction` in degrees (0 north, 90 east, 180 south, 270
    /// west); `None` for a slope of 90° or more, or numbers that are not finite.
    pub fn sloping(origin: [f64; 3], slope: f64, direction: f64) -> Option<Plane> {
        if !(0.0..90.0).contains(&slope.abs()) || !direction.is_finite() {
            return None;
        }
        let rise = slope.to_radians().tan();
        let (sin, cos) = direction.to_radians().sin_cos();
        // World x points north and world y west, so east is −y.
        Some(Plane {
            origin,
            gradient: [rise * cos, -rise * sin],
        })
    }

    /// The plane's height above world (`x`, `y`).
    pub fn height_at(&self, x: f64, y: f64) -> f64 {
        self.origin[2]
            + self.gradient[0] * (x - self.origin[0])
            + self.gradient[1] * (y - self.origin[1])
    }

    /// Its slope in degrees (0 level).
    pub fn slope(&self) -> f64 {
        self.gradient[0].hypot(self.gradient[1]).atan().to_degrees()
    }

    /// The compass direction (degrees, 0 north, 90 east) it rises toward; 0 when level.
    pub fn direction(&self) -> f64 {
        let [gx, gy] = self.gradient;
        if gx == 0.0 && gy == 0.0 {
            return 0.0;
        }
        (-gy).atan2(gx).to_degrees().rem_euclid(360.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plane_through_three_points_holds_them() {
        let points = [[10.0, 20.0, 5.0], [-30.0, 4.0, 12.5], [7.0, -50.0, -3.0]];
        let p = Plane::through(points).expect("not on one line");
        for [x, y, z] in points {
            assert!((p.height_at(x, y) - z).abs() < 1e-9, "{x} {y}");
        }
        assert_eq!(
            Plane::through([[0.0, 0.0, 0.0], [1.0, 1.0, 5.0], [2.0, 2.0, 1.0]]),
            None,
            "on one line from above"
        );
        assert_eq!(
            Plane::through([[0.0, 0.0, 0.0], [1.0, 0.0, 5.0], [f64::NAN, 2.0, 1.0]]),
            None
        );
    }

    #[test]
    fn a_slope_rises_toward_its_direction() {
        // 45° toward the east: one yard east (world y − 1) is one yard higher.
        let p = Plane::sloping([100.0, 50.0, 10.0], 45.0, 90.0).unwrap();
        assert!((p.height_at(100.0, 49.0) - 11.0).abs() < 1e-9);
        assert!(
            (p.height_at(101.0, 50.0) - 10.0).abs() < 1e-9,
            "level across"
        );
        assert!((p.slope() - 45.0).abs() < 1e-9);
        assert!((p.direction() - 90.0).abs() < 1e-9);
        // 10° toward the north-west.
        let q = Plane::sloping([0.0, 0.0, 0.0], 10.0, 315.0).unwrap();
        assert!((q.direction() - 315.0).abs() < 1e-9);
        let up = q.height_at(1.0, 1.0);
        assert!((up - 2f64.sqrt() * 10f64.to_radians().tan()).abs() < 1e-9);
        assert_eq!(Plane::sloping([0.0; 3], 90.0, 0.0), None);
        assert_eq!(Plane::level(7.0).height_at(1e4, -3e3), 7.0);
    }
}
