//! Points and lines on the ground as the view sees them (a vertex selection's points, a road's
//! curve and edges, a lasso): world points projected through the camera to normalised device
//! coordinates, lines cut where they pass behind the eye. The ui paints them over the view.
//!
//! Not for: painting (`ui::marks`) or what to mark (the tools in `app`).

use glam::{Mat4, Vec3};

use super::gizmo::project;

/// A colour as red, green, blue, alpha.
pub type Rgba = [u8; 4];

/// Dots and lines to paint over the view, in normalised device coordinates (-1..1, y up).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Marks {
    /// Dots: where, radius in screen points, colour.
    pub dots: Vec<([f32; 2], f32, Rgba)>,
    /// Polylines: their points, width in screen points, colour.
    pub lines: Vec<(Vec<[f32; 2]>, f32, Rgba)>,
    /// Words beside a point: where, the text, colour.
    pub labels: Vec<([f32; 2], String, Rgba)>,
}

/// Segments in each circle of [`Marks::sphere`].
const CIRCLE_SEGMENTS: usize = 48;

/// World (x, y, height) as the renderer's vector.
fn world(p: [f64; 3]) -> Vec3 {
    Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32)
}

impl Marks {
    /// Adds a dot at world `at` seen through `vp`, unless it is behind the eye.
    pub fn dot(&mut self, vp: Mat4, at: [f64; 3], radius: f32, colour: Rgba) {
        if let Some(p) = project(vp, world(at)) {
            self.dots.push((p, radius, colour));
        }
    }

    /// Adds the polyline through world `points` seen through `vp`, in pieces where it passes
    /// behind the eye.
    pub fn line(&mut self, vp: Mat4, points: &[[f64; 3]], width: f32, colour: Rgba) {
        let mut piece = Vec::new();
        for &p in points {
            match project(vp, world(p)) {
                Some(q) => piece.push(q),
                None => {
                    if piece.len() > 1 {
                        self.lines.push((std::mem::take(&mut piece), width, colour));
                    }
                    piece.clear();
                }
            }
        }
        if piece.len() > 1 {
            self.lines.push((piece, width, colour));
        }
    }

    /// Adds `text` at world `at` seen through `vp`, unless it is behind the eye.
    pub fn label(&mut self, vp: Mat4, at: [f64; 3], text: String, colour: Rgba) {
        if let Some(p) = project(vp, world(at)) {
            self.labels.push((p, text, colour));
        }
    }

    /// Adds a sphere of `radius` around world `centre` as its three great circles (level,
    /// north–south upright, west–east upright), which read as a ball from any side.
    pub fn sphere(&mut self, vp: Mat4, centre: [f64; 3], radius: f64, width: f32, colour: Rgba) {
        for plane in 0..3 {
            let points: Vec<[f64; 3]> = (0..=CIRCLE_SEGMENTS)
                .map(|k| {
                    let a = k as f64 / CIRCLE_SEGMENTS as f64 * std::f64::consts::TAU;
                    let (u, v) = (radius * a.cos(), radius * a.sin());
                    let [x, y, z] = centre;
                    match plane {
                        0 => [x + u, y + v, z],
                        1 => [x + u, y, z + v],
                        _ => [x, y + u, z + v],
                    }
                })
                .collect();
            self.line(vp, &points, width, colour);
        }
    }

    /// Adds the twelve edges of a box centred on world `centre`: `size` is its length along
    /// `yaw` (radians from north toward west), its width across it and its height.
    pub fn oriented_box(
        &mut self,
        vp: Mat4,
        centre: [f64; 3],
        size: [f64; 3],
        yaw: f64,
        width: f32,
        colour: Rgba,
    ) {
        let (s, c) = yaw.sin_cos();
        let corner = |i: usize, j: usize, k: usize| {
            let (l, w, h) = (
                size[0] / 2.0 * if i == 0 { -1.0 } else { 1.0 },
                size[1] / 2.0 * if j == 0 { -1.0 } else { 1.0 },
                size[2] / 2.0 * if k == 0 { -1.0 } else { 1.0 },
            );
            [
                centre[0] + l * c - w * s,
                centre[1] + l * s + w * c,
                centre[2] + h,
            ]
        };
        for k in 0..2 {
            let ring = [
                corner(0, 0, k),
                corner(1, 0, k),
                corner(1, 1, k),
                corner(0, 1, k),
                corner(0, 0, k),
            ];
            self.line(vp, &ring, width, colour);
        }
        for (i, j) in [(0, 0), (1, 0), (1, 1), (0, 1)] {
            self.line(vp, &[corner(i, j, 0), corner(i, j, 1)], width, colour);
        }
    }

    /// True when there is nothing to paint.
    pub fn is_empty(&self) -> bool {
        self.dots.is_empty() && self.lines.is_empty() && self.labels.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_behind_the_eye_is_cut_out() {
        // Looking north (+x) from the origin.
        let camera = crate::render::camera::Camera {
            position: [0.0; 3],
            yaw: 0.0,
            pitch: 0.0,
            ..Default::default()
        };
        let vp = camera.view_projection(1.0);
        let mut m = Marks::default();
        m.line(
            vp,
            &[
                [10.0, 0.0, 0.0],
                [20.0, 1.0, 0.0],
                [-5.0, 0.0, 0.0],
                [30.0, 0.0, 1.0],
                [40.0, 0.0, 2.0],
            ],
            2.0,
            [255; 4],
        );
        assert_eq!(m.lines.len(), 2, "{m:?}");
        assert_eq!(m.lines[0].0.len(), 2);
        assert!(
            m.lines[0].0[0][0].abs() < 1e-5,
            "straight ahead is the middle"
        );
        m.dot(vp, [-1.0, 0.0, 0.0], 3.0, [255; 4]);
        assert!(m.dots.is_empty(), "behind the eye");
        m.dot(vp, [5.0, 0.0, 0.0], 3.0, [255; 4]);
        assert_eq!(m.dots.len(), 1);
    }

    /// Through the identity matrix a point's marks are its world x and y.
    fn extent(m: &Marks) -> [f32; 4] {
        let pts = m.lines.iter().flat_map(|l| l.0.iter());
        pts.fold([f32::MAX, f32::MAX, f32::MIN, f32::MIN], |a, p| {
            [
                a[0].min(p[0]),
                a[1].min(p[1]),
                a[2].max(p[0]),
                a[3].max(p[1]),
            ]
        })
    }

    #[test]
    fn a_box_turned_a_quarter_lies_along_west_and_a_sphere_reaches_its_radius() {
        let mut m = Marks::default();
        // 10 long, 2 wide, turned 90° from north toward west: ±1 north, ±5 west of (3, 4).
        m.oriented_box(
            Mat4::IDENTITY,
            [3.0, 4.0, 0.0],
            [10.0, 2.0, 1.0],
            90f64.to_radians(),
            1.0,
            [255; 4],
        );
        assert_eq!(m.lines.len(), 6, "two rings and four uprights");
        let e = extent(&m);
        let want = [2.0, -1.0, 4.0, 9.0];
        assert!((0..4).all(|k| (e[k] - want[k]).abs() < 1e-5), "{e:?}");
        let mut s = Marks::default();
        s.sphere(Mat4::IDENTITY, [1.0, 2.0, 3.0], 5.0, 1.0, [255; 4]);
        assert_eq!(s.lines.len(), 3);
        let e = extent(&s);
        let want = [-4.0, -3.0, 6.0, 7.0];
        assert!((0..4).all(|k| (e[k] - want[k]).abs() < 1e-4), "{e:?}");
    }
}
