//! A straight slope between two points, clamped to its ends: the surface the ramp tool
//! sculpts toward and a river's sloping water, so that both tilt the same way.
//!
//! Not for: applying it (`sculpt`, `liquid`).

/// Height of the slope from `from` to `to` at world (x, y), clamped to its ends.
pub fn ramp_height(from: [f64; 3], to: [f64; 3], x: f64, y: f64) -> f32 {
    let (dx, dy) = (to[0] - from[0], to[1] - from[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 < 1e-12 {
        0.0
    } else {
        (((x - from[0]) * dx + (y - from[1]) * dy) / len2).clamp(0.0, 1.0)
    };
    (from[2] + (to[2] - from[2]) * t) as f32
}
