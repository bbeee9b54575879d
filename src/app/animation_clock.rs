//! The clock the models' stand animations and the liquids run on: it advances with the frames
//! while View ▸ Animate models is on, stands still while it is off, and a screenshot can pin
//! it to a time (`loam screenshot --anim-time`), so that two pictures half a second apart
//! can be compared.
//!
//! Not for: the animation maths (`assets::models::animation`) or posing models
//! (`render::objects`).

/// Longest step one frame may advance the clock: a frame after a stall (a dialog, a long load)
/// does not jump the animations ahead.
const MAX_STEP: f64 = 0.25;

/// Seconds of animation shown, and whether they are pinned.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AnimationClock {
    seconds: f64,
    pinned: Option<f64>,
}

impl AnimationClock {
    /// Pins the clock at `seconds` for good (screenshots).
    pub fn pin(&mut self, seconds: f64) {
        self.pinned = Some(seconds);
    }

    /// True when the clock is pinned (it never advances, so it needs no frames).
    pub fn is_pinned(&self) -> bool {
        self.pinned.is_some()
    }

    /// Advances by `dt` seconds when `running` (and not pinned); returns the time to show.
    pub fn advance(&mut self, dt: f64, running: bool) -> f64 {
        if let Some(p) = self.pinned {
            return p;
        }
        if running && dt.is_finite() {
            self.seconds += dt.clamp(0.0, MAX_STEP);
        }
        self.seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_runs_stops_and_pins() {
        let mut c = AnimationClock::default();
        assert_eq!(c.advance(0.1, true), 0.1);
        assert_eq!(c.advance(0.1, false), 0.1);
        assert_eq!(c.advance(5.0, true), 0.1 + MAX_STEP);
        assert_eq!(c.advance(f64::NAN, true), 0.1 + MAX_STEP);
        c.pin(2.5);
        assert!(c.is_pinned());
        assert_eq!(c.advance(0.1, true), 2.5);
        assert_eq!(c.advance(0.1, false), 2.5);
    }
}
