//! The object tool's gizmo: three move arrows (world or local x, y, z) and a turning ring about
//! the up axis, laid out in normalised device coordinates around the selection's centre, and
//! which handle a screen point is on.
//!
//! Not for: drawing (the viewport paints the layout with egui) or what a drag does (the app's
//! object tool).

use glam::{Mat4, Vec3};

/// A handle of the gizmo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handle {
    /// The move arrow along axis 0 (x, north), 1 (y, west) or 2 (z, up), world or local.
    Axis(usize),
    /// The ring that turns the selection about the up axis.
    Ring,
    /// The square at the centre: dragging it sideways scales the selection.
    Scale,
}

/// The gizmo as it lies on screen, in normalised device coordinates (-1..1, y up).
#[derive(Debug, Clone, PartialEq)]
pub struct Gizmo {
    /// The selection's centre.
    pub centre: [f32; 2],
    /// Each arrow's tip on screen and its world direction (unit).
    pub axes: [([f32; 2], Vec3); 3],
    /// The ring, a closed polyline.
    pub ring: Vec<[f32; 2]>,
    /// The arrows' length in yards (a tenth of the distance to the eye).
    pub arm: f32,
    /// The selection's centre in world space.
    pub world_centre: Vec3,
}

/// Segments around the ring.
const RING_SEGMENTS: usize = 48;

/// Projects a world point to normalised device coordinates, `None` behind the eye.
pub fn project(vp: Mat4, p: Vec3) -> Option<[f32; 2]> {
    let c = vp * p.extend(1.0);
    (c.w > 1e-4).then(|| [c.x / c.w, c.y / c.w])
}

/// The gizmo around `centre` seen through `vp` from `eye`, its arrows turned by `yaw` degrees
/// about the up axis (local axes) or not (world axes); `None` when the centre is behind the eye.
pub fn layout(centre: Vec3, yaw: Option<f32>, vp: Mat4, eye: Vec3) -> Option<Gizmo> {
    let arm = ((centre - eye).length() * 0.1).max(0.5);
    let turn = glam::Quat::from_rotation_z(yaw.unwrap_or(0.0).to_radians());
    let dirs = [Vec3::X, Vec3::Y, Vec3::Z].map(|d| if d == Vec3::Z { d } else { turn * d });
    let c = project(vp, centre)?;
    let mut axes = [([0.0; 2], Vec3::ZERO); 3];
    for (i, d) in dirs.into_iter().enumerate() {
        axes[i] = (project(vp, centre + d * arm)?, d);
    }
    let ring = (0..=RING_SEGMENTS)
        .filter_map(|k| {
            let a = k as f32 / RING_SEGMENTS as f32 * std::f32::consts::TAU;
            project(vp, centre + Vec3::new(a.cos(), a.sin(), 0.0) * arm * 0.8)
        })
        .collect();
    Some(Gizmo {
        centre: c,
        axes,
        ring,
        arm,
        world_centre: centre,
    })
}

/// Distance in pixels from `p` to the segment `a`–`b` (all in pixels).
fn to_segment(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (qx, qy) = (a[0] + t * dx - p[0], a[1] + t * dy - p[1]);
    (qx * qx + qy * qy).sqrt()
}

/// The handle within `tolerance` pixels of the point `p` (NDC), arrows before the ring;
/// `half_size` is the view's half width and height in pixels.
pub fn hit(g: &Gizmo, p: [f32; 2], half_size: [f32; 2], tolerance: f32) -> Option<Handle> {
    let px = |q: [f32; 2]| [q[0] * half_size[0], q[1] * half_size[1]];
    let p = px(p);
    let centre = px(g.centre);
    // The centre square first: every arrow starts there.
    if (p[0] - centre[0]).abs() <= tolerance && (p[1] - centre[1]).abs() <= tolerance {
        return Some(Handle::Scale);
    }
    let mut best: Option<(f32, Handle)> = None;
    for (i, (tip, _)) in g.axes.iter().enumerate() {
        let d = to_segment(p, centre, px(*tip));
        if d <= tolerance && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, Handle::Axis(i)));
        }
    }
    if best.is_some() {
        return best.map(|(_, h)| h);
    }
    g.ring
        .windows(2)
        .map(|w| to_segment(p, px(w[0]), px(w[1])))
        .any(|d| d <= tolerance)
        .then_some(Handle::Ring)
}

/// How far along world direction `dir` (through `origin`) the cursor's ray comes closest:
/// what dragging a move arrow moves the selection by, in yards from `origin`.
pub fn along_axis(origin: Vec3, dir: Vec3, ray_origin: Vec3, ray_dir: Vec3) -> Option<f32> {
    // Closest points of two lines: solve for the parameter on the axis line.
    let w = origin - ray_origin;
    let (a, b, c) = (dir.dot(dir), dir.dot(ray_dir), ray_dir.dot(ray_dir));
    let (d, e) = (dir.dot(w), ray_dir.dot(w));
    let denom = a * c - b * b;
    // Looking straight along the axis, the drag has no meaning.
    (denom.abs() > 1e-6 * a * c).then(|| (b * e - c * d) / denom)
}

/// The angle in degrees (counter-clockwise seen from above) of the point where the cursor's
/// ray meets the horizontal plane through `centre`, about `centre`.
pub fn angle_on_ground(centre: Vec3, ray_origin: Vec3, ray_dir: Vec3) -> Option<f32> {
    if ray_dir.z.abs() < 1e-6 {
        return None;
    }
    let t = (centre.z - ray_origin.z) / ray_dir.z;
    if t <= 0.0 {
        return None;
    }
    let p = ray_origin + ray_dir * t - centre;
    Some(p.y.atan2(p.x).to_degrees())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::camera::Camera;

    fn camera() -> Camera {
        let mut c = Camera {
            position: [-50.0, -50.0, 60.0],
            ..Camera::default()
        };
        c.look_at([0.0, 0.0, 0.0]);
        c
    }

    #[test]
    fn the_arrows_point_where_their_axes_go_and_are_hit_near_their_middle() {
        let cam = camera();
        let vp = cam.view_projection(1.0);
        let g = layout(Vec3::ZERO, None, vp, cam.eye()).unwrap();
        let half = [200.0, 200.0];
        for i in 0..3 {
            let (tip, dir) = g.axes[i];
            assert_eq!(dir, [Vec3::X, Vec3::Y, Vec3::Z][i]);
            assert_eq!(project(vp, dir * g.arm).unwrap(), tip);
            let mid = [(g.centre[0] + tip[0]) / 2.0, (g.centre[1] + tip[1]) / 2.0];
            assert_eq!(hit(&g, mid, half, 6.0), Some(Handle::Axis(i)));
        }
        assert_eq!(hit(&g, g.centre, half, 6.0), Some(Handle::Scale));
        // A point on the ring, away from the arrows.
        let on_ring = project(vp, Vec3::new(-0.8, -0.0001, 0.0) * g.arm).unwrap();
        assert_eq!(hit(&g, on_ring, half, 6.0), Some(Handle::Ring));
        assert_eq!(hit(&g, [0.9, 0.9], half, 6.0), None);
        // Local axes turn with the yaw.
        let local = layout(Vec3::ZERO, Some(90.0), vp, cam.eye()).unwrap();
        assert!((local.axes[0].1 - Vec3::Y).length() < 1e-6);
    }

    #[test]
    fn dragging_along_an_axis_and_round_the_ring_reads_back_the_cursor() {
        let eye = Vec3::new(-30.0, -40.0, 50.0);
        // A ray through (7, 0, 0) on the x axis: 7 yards along it.
        let target = Vec3::new(7.0, 0.0, 0.0);
        let t = along_axis(Vec3::ZERO, Vec3::X, eye, (target - eye).normalize()).unwrap();
        assert!((t - 7.0).abs() < 1e-3, "{t}");
        // A ray meeting the ground at (0, 5, 0): 90 degrees.
        let a = angle_on_ground(
            Vec3::ZERO,
            eye,
            (Vec3::new(0.0, 5.0, 0.0) - eye).normalize(),
        );
        assert!((a.unwrap() - 90.0).abs() < 1e-3);
        // Looking along the axis, no answer.
        assert_eq!(
            along_axis(Vec3::ZERO, Vec3::X, Vec3::new(-10.0, 0.0, 0.0), Vec3::X),
            None
        );
    }
}
