//! The 3D view's camera: a position and a heading in world axes (x north, y west, z up) with
//! fly, orbit, zoom and framing moves, and the matrices and picking rays derived from it.
//!
//! Not for: reading input devices (the app turns keys and drags into these calls) or GL.

use glam::{Mat4, Vec3, Vec4};
use serde::{Deserialize, Serialize};

use crate::model::TileCoord;
use crate::model::coords::TILE_SIZE;

/// Lowest pitch (looking straight down would make the up vector degenerate).
const PITCH_LIMIT: f32 = 1.55;
/// Near clipping plane in yards.
const NEAR: f32 = 0.5;
/// Far clipping plane in yards: a little over three tiles.
const FAR: f32 = 4000.0;

/// Where the camera is and where it looks; plain data so that it persists per map.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// Eye position in world coordinates.
    pub position: [f64; 3],
    /// Heading in radians: 0 looks north (+x), π/2 looks west (+y).
    pub yaw: f32,
    /// Elevation in radians: negative looks down.
    pub pitch: f32,
    /// Vertical field of view in radians.
    pub fov_y: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            position: [0.0, 0.0, 200.0],
            yaw: 0.0,
            pitch: -0.5,
            fov_y: 60f32.to_radians(),
        }
    }
}

impl Camera {
    /// The unit vector the camera looks along.
    pub fn forward(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(cy * cp, sy * cp, sp)
    }

    /// The unit vector to the camera's right, level with the ground.
    pub fn right(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        // Facing north (+x), right is east (-y).
        Vec3::new(sy, -cy, 0.0)
    }

    /// The eye as f32, for the matrices.
    pub fn eye(&self) -> Vec3 {
        Vec3::new(
            self.position[0] as f32,
            self.position[1] as f32,
            self.position[2] as f32,
        )
    }

    /// World → clip space for a viewport of `aspect` = width / height.
    pub fn view_projection(&self, aspect: f32) -> Mat4 {
        let eye = self.eye();
        let view = glam::camera::rh::view::look_to_mat4(eye, self.forward(), Vec3::Z);
        let proj =
            glam::camera::rh::proj::opengl::perspective(self.fov_y, aspect.max(1e-3), NEAR, FAR);
        proj * view
    }

    /// World → clip space with other clipping planes (`near`, `far` yards): the horizon's,
    /// which reaches far beyond the terrain's [`FAR`].
    pub fn view_projection_between(&self, aspect: f32, near: f32, far: f32) -> Mat4 {
        let view = glam::camera::rh::view::look_to_mat4(self.eye(), self.forward(), Vec3::Z);
        glam::camera::rh::proj::opengl::perspective(self.fov_y, aspect.max(1e-3), near, far) * view
    }

    /// Turns the view by mouse deltas (radians).
    pub fn look(&mut self, d_yaw: f32, d_pitch: f32) {
        self.yaw = (self.yaw + d_yaw).rem_euclid(std::f32::consts::TAU);
        self.pitch = (self.pitch + d_pitch).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Moves in the camera's own frame: `forward` along the view, `right` sideways, `up` along
    /// world z, each in yards.
    pub fn fly(&mut self, forward: f32, right: f32, up: f32) {
        let d = self.forward() * forward + self.right() * right + Vec3::Z * up;
        self.translate(d);
    }

    /// Moves by a world-space offset.
    pub fn translate(&mut self, d: Vec3) {
        self.position[0] += d.x as f64;
        self.position[1] += d.y as f64;
        self.position[2] += d.z as f64;
    }

    /// Circles around `pivot` by the given angles, keeping the distance.
    pub fn orbit(&mut self, pivot: [f64; 3], d_yaw: f32, d_pitch: f32) {
        let to_eye = Vec3::new(
            (self.position[0] - pivot[0]) as f32,
            (self.position[1] - pivot[1]) as f32,
            (self.position[2] - pivot[2]) as f32,
        );
        let distance = to_eye.length().max(1.0);
        self.look(d_yaw, d_pitch);
        self.back_off(pivot, distance);
    }

    /// Puts the camera `distance` yards behind `target` along its view direction.
    fn back_off(&mut self, target: [f64; 3], distance: f32) {
        let back = -self.forward() * distance;
        self.position = [
            target[0] + back.x as f64,
            target[1] + back.y as f64,
            target[2] + back.z as f64,
        ];
    }

    /// Moves toward (positive) or away from what is ahead by a fraction of `distance`.
    pub fn zoom(&mut self, amount: f32, distance: f32) {
        let step = amount * distance.max(5.0);
        self.translate(self.forward() * step);
    }

    /// Places the camera to look at `target` from `distance` yards away, keeping its heading.
    pub fn frame(&mut self, target: [f64; 3], distance: f32) {
        if self.pitch > -0.2 {
            self.pitch = -0.6;
        }
        self.back_off(target, distance);
    }

    /// Looks down at the middle of a tile from the north-west, high enough to see all of it.
    pub fn frame_tile(&mut self, tile: TileCoord, ground: f32) {
        let [cx, cy] = tile.centre();
        // Look south-east so that north is up-left, as on the tile map.
        self.yaw = -std::f32::consts::FRAC_PI_4 * 3.0;
        self.pitch = -0.75;
        self.frame([cx, cy, ground as f64], TILE_SIZE as f32 * 1.1);
    }

    /// Turns to look at `target` from where the camera is.
    pub fn look_at(&mut self, target: [f64; 3]) {
        let d = [
            target[0] - self.position[0],
            target[1] - self.position[1],
            target[2] - self.position[2],
        ];
        let flat = (d[0] * d[0] + d[1] * d[1]).sqrt();
        if flat < 1e-6 && d[2].abs() < 1e-6 {
            return;
        }
        self.yaw = d[1].atan2(d[0]) as f32;
        self.pitch = (d[2].atan2(flat) as f32).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// The picking ray through a point of the viewport given in normalised device coordinates
    /// (-1..1, y up): origin and unit direction in world space.
    pub fn ray(&self, ndc: [f32; 2], aspect: f32) -> (Vec3, Vec3) {
        let inv = self.view_projection(aspect).inverse();
        let near = inv * Vec4::new(ndc[0], ndc[1], -1.0, 1.0);
        let far = inv * Vec4::new(ndc[0], ndc[1], 1.0, 1.0);
        let near = near.truncate() / near.w;
        let far = far.truncate() / far.w;
        (self.eye(), (far - near).normalize_or(self.forward()))
    }

    /// True when every value is finite (a persisted camera may be garbage).
    pub fn is_valid(&self) -> bool {
        self.position.iter().all(|v| v.is_finite())
            && self.yaw.is_finite()
            && self.pitch.is_finite()
            && self.fov_y.is_finite()
            && self.fov_y > 0.1
            && self.fov_y < 3.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaw_zero_looks_north_and_right_is_east() {
        let c = Camera {
            pitch: 0.0,
            ..Camera::default()
        };
        assert!((c.forward() - Vec3::X).length() < 1e-6);
        assert!((c.right() + Vec3::Y).length() < 1e-6);
    }

    #[test]
    fn the_centre_ray_is_the_forward_vector() {
        let c = Camera::default();
        let (o, d) = c.ray([0.0, 0.0], 1.5);
        assert!((o - c.eye()).length() < 1e-3);
        assert!((d - c.forward()).length() < 1e-3);
    }

    #[test]
    fn a_point_ahead_projects_to_the_centre() {
        let c = Camera::default();
        let p = c.eye() + c.forward() * 100.0;
        let clip = c.view_projection(1.0) * p.extend(1.0);
        assert!((clip.x / clip.w).abs() < 1e-4 && (clip.y / clip.w).abs() < 1e-4);
        // A point to the right lands right of centre.
        let r = p + c.right() * 10.0;
        let clip = c.view_projection(1.0) * r.extend(1.0);
        assert!(clip.x / clip.w > 0.0);
    }

    #[test]
    fn look_at_points_the_camera_at_the_target() {
        let mut c = Camera::default();
        let target = [
            c.position[0] - 50.0,
            c.position[1] + 80.0,
            c.position[2] - 30.0,
        ];
        c.look_at(target);
        let t = Vec3::new(target[0] as f32, target[1] as f32, target[2] as f32);
        assert!(((t - c.eye()).normalize() - c.forward()).length() < 1e-4);
    }

    #[test]
    fn orbit_keeps_the_distance_and_frame_looks_at_the_target() {
        let mut c = Camera::default();
        let target = [100.0, 50.0, 10.0];
        c.frame(target, 200.0);
        let ahead = c.eye() + c.forward() * 200.0;
        assert!((ahead - Vec3::new(100.0, 50.0, 10.0)).length() < 1e-2);
        c.orbit(target, 0.7, 0.1);
        let d = (c.eye() - Vec3::new(100.0, 50.0, 10.0)).length();
        assert!((d - 200.0).abs() < 1e-2);
    }
}
