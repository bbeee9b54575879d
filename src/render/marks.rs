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
}

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

    /// True when there is nothing to paint.
    pub fn is_empty(&self) -> bool {
        self.dots.is_empty() && self.lines.is_empty()
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
}
