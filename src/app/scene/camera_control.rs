//! Turns the 3D view's input into camera moves: fly with WASD/Q/E, look with a right drag, orbit
//! with a middle (or Alt + left) drag around the terrain point ahead, zoom with the wheel, Shift
//! faster and Ctrl slower, and a double click frames the clicked point.
//!
//! Not for: reading devices (see `ui::viewport`) or the camera's maths (see `render::camera`).

use crate::model::Map;
use crate::render::camera::Camera;
use crate::render::pick::{self, TerrainPoint};
use crate::ui::viewport::ViewportInput;

/// Radians per point of mouse drag.
const LOOK_RATE: f32 = 0.005;
/// How far a picking ray reaches, in yards.
pub const PICK_DISTANCE: f32 = 5000.0;

/// The terrain point under normalised device coordinates.
pub fn pick(map: &Map, camera: &Camera, ndc: [f32; 2], aspect: f32) -> Option<TerrainPoint> {
    let (origin, dir) = camera.ray(ndc, aspect);
    // Holes count as surface: the brush must reach a hole to fill it, and the status bar still
    // names the chunk under the cursor.
    pick::raycast(map, origin, dir, PICK_DISTANCE, true)
}

/// Applies one frame of input. `speed` is the fly speed in yards per second.
pub fn apply(camera: &mut Camera, map: Option<&Map>, input: &ViewportInput, speed: f32) {
    let aspect = input.aspect();
    if input.look != egui::Vec2::ZERO {
        camera.look(-input.look.x * LOOK_RATE, -input.look.y * LOOK_RATE);
    }
    if input.orbit != egui::Vec2::ZERO {
        let pivot = map
            .and_then(|m| pick(m, camera, [0.0, 0.0], aspect))
            .map(|p| p.world)
            .unwrap_or_else(|| {
                let ahead = camera.eye() + camera.forward() * 200.0;
                [ahead.x as f64, ahead.y as f64, ahead.z as f64]
            });
        camera.orbit(
            pivot,
            -input.orbit.x * LOOK_RATE,
            -input.orbit.y * LOOK_RATE,
        );
    }
    let factor = if input.fast {
        4.0
    } else if input.slow {
        0.25
    } else {
        1.0
    };
    let step = speed * factor * input.dt;
    if input.fly != [0.0; 3] {
        camera.fly(
            input.fly[0] * step,
            input.fly[1] * step,
            input.fly[2] * step,
        );
    }
    if input.scroll != 0.0 {
        // Zoom toward what is under the mouse, by a share of the distance to it.
        let distance = map
            .and_then(|m| pick(m, camera, input.hover_ndc.unwrap_or([0.0, 0.0]), aspect))
            .map(|p| {
                let e = camera.eye();
                ((p.world[0] - e.x as f64).powi(2)
                    + (p.world[1] - e.y as f64).powi(2)
                    + (p.world[2] - e.z as f64).powi(2))
                .sqrt() as f32
            })
            .unwrap_or(200.0);
        camera.zoom((input.scroll / 400.0).clamp(-0.5, 0.5), distance);
    }
    if let (Some(ndc), Some(map)) = (input.double_click_ndc, map)
        && let Some(p) = pick(map, camera, ndc, aspect)
    {
        camera.frame(p.world, 150.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> ViewportInput {
        ViewportInput {
            rect: egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(400.0, 300.0)),
            dt: 0.1,
            ..ViewportInput::default()
        }
    }

    #[test]
    fn keys_fly_and_shift_is_faster() {
        let mut c = Camera {
            pitch: 0.0,
            ..Camera::default()
        };
        let start = c.position;
        apply(
            &mut c,
            None,
            &ViewportInput {
                fly: [1.0, 0.0, 0.0],
                ..input()
            },
            100.0,
        );
        assert!((c.position[0] - start[0] - 10.0).abs() < 1e-3);
        apply(
            &mut c,
            None,
            &ViewportInput {
                fly: [0.0, 0.0, 1.0],
                fast: true,
                ..input()
            },
            100.0,
        );
        assert!((c.position[2] - start[2] - 40.0).abs() < 1e-3);
    }

    #[test]
    fn a_right_drag_turns_the_view() {
        let mut c = Camera::default();
        let yaw = c.yaw;
        apply(
            &mut c,
            None,
            &ViewportInput {
                look: egui::vec2(-100.0, 0.0),
                ..input()
            },
            100.0,
        );
        assert!((c.yaw - yaw - 0.5).abs() < 1e-4);
    }
}
