//! Object transforms as pure functions over placement records: turning and scaling a group
//! about its centre, moving it, and what one frame of a drag does to each record, whether the
//! drag is a gizmo handle's or the keyboard's G, R and T. Both ways go through the same
//! functions, so that they cannot drift apart.
//!
//! Not for: putting the result into tiles (`edit::objects::put`), reading the mouse or finding
//! where the cursor's ray meets a handle (the app's object tool, `render::gizmo`).

use glam::Vec3;

use crate::edit::objects::ObjectRecord;
use crate::model::ObjectKind;
use crate::model::placement::{doodad_scale_factor, doodad_scale_record};

/// What a keyboard transform does with the mouse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransformMode {
    /// G: move over the ground (X or Y: along that world axis only; Z: up and down).
    Move,
    /// R: turn about the up axis (X: about north, Y: about west), a multi-selection about its
    /// centre.
    Turn,
    /// T: scale doodads (a multi-selection spreads from its centre). Not S: S flies the
    /// camera back.
    Scale,
}

impl TransformMode {
    /// The panel's words for a transform under way.
    pub fn describe(self, axis: Option<Axis>) -> String {
        let what = match self {
            TransformMode::Move => "Moving",
            TransformMode::Turn => "Turning",
            TransformMode::Scale => "Scaling",
        };
        let lock = axis.map_or(String::new(), |a| format!(" (axis {})", a.letter()));
        format!("{what}{lock}: click to confirm, Esc to cancel, X/Y/Z lock an axis")
    }
}

/// The world axis a keyboard transform is locked to (the X, Y and Z keys while one is under
/// way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// North.
    X,
    /// West.
    Y,
    /// Up.
    Z,
}

impl Axis {
    /// The key's letter, as the panel names the lock.
    pub fn letter(self) -> char {
        match self {
            Axis::X => 'x',
            Axis::Y => 'y',
            Axis::Z => 'z',
        }
    }
}

/// `o` turned by `degrees` about the vertical axis through `centre` (world x, y): its place
/// swings round the centre and its heading turns with it. The record's heading turns
/// counter-clockwise seen from above, as the place does.
pub fn turned_about(o: &ObjectRecord, centre: [f64; 2], degrees: f64) -> ObjectRecord {
    let mut r = o.clone();
    r.rotation[1] = (f64::from(o.rotation[1]) + degrees) as f32;
    let (sin, cos) = degrees.to_radians().sin_cos();
    let (px, py) = (o.position[0] - centre[0], o.position[1] - centre[1]);
    r.position[0] = centre[0] + cos * px - sin * py;
    r.position[1] = centre[1] + sin * px + cos * py;
    r
}

/// `o` scaled by `factor` about `centre`: its size and its distance from the centre. `None`
/// for a WMO, whose record has no scale in these generations.
pub fn scaled_about(o: &ObjectRecord, centre: [f64; 2], factor: f64) -> Option<ObjectRecord> {
    if o.kind == ObjectKind::Wmo {
        return None;
    }
    let mut r = o.clone();
    r.scale = doodad_scale_record(doodad_scale_factor(o.scale) * factor);
    r.position[0] = centre[0] + (o.position[0] - centre[0]) * factor;
    r.position[1] = centre[1] + (o.position[1] - centre[1]) * factor;
    Some(r)
}

/// The point a group turns and scales about: the mean of its places over the ground (world x,
/// y).
pub fn centre(records: &[ObjectRecord]) -> [f64; 2] {
    let n = records.len() as f64;
    [0, 1].map(|i| records.iter().map(|r| r.position[i]).sum::<f64>() / n)
}

/// The size factor of a drag `across` the view sideways (NDC, the view being 2 wide): half the
/// view's width doubles the size, and nothing shrinks below 1 %.
pub fn scale_factor(across: f64) -> f64 {
    (1.0 + across * 2.0).max(0.01)
}

/// The degrees a ring drag has turned, from the angle where it began to the angle now: the
/// shorter way round, so crossing 0° does not spin the selection.
pub fn turn_since(start: f32, now: f32) -> f32 {
    (now - start + 540.0).rem_euclid(360.0) - 180.0
}

/// How far a keyboard move up the view lifts: the camera's distance from the group's `centre`
/// over the ground (at least 10 yards), so the lift feels the same near and far.
pub fn reach(eye: [f64; 2], centre: [f64; 2]) -> f64 {
    (eye[0] - centre[0]).hypot(eye[1] - centre[1]).max(10.0)
}

/// How far the mouse has gone since a keyboard transform began.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MouseTravel {
    /// Across and up the view, in NDC (the view is 2 wide and 2 high).
    pub screen: [f64; 2],
    /// Over the ground, world x and y, between the points under the cursor then and now (0
    /// where either had no ground under it).
    pub ground: [f64; 2],
    /// How far a move up the view lifts ([`reach`]).
    pub reach: f64,
}

/// `o`, of a group centred on `centre`, after a keyboard transform in `mode` locked to `axis`
/// with the mouse moved by `travel`: G follows the ground (X or Y: along that axis only; Z: up
/// by the mouse's height on the view), R turns 180° per half view about the up axis (X: about
/// north, Y: about west, each on the record's own angle), T scales. `None` for a WMO being
/// scaled.
pub fn keyboard_step(
    o: &ObjectRecord,
    centre: [f64; 2],
    mode: TransformMode,
    axis: Option<Axis>,
    travel: &MouseTravel,
) -> Option<ObjectRecord> {
    let mut r = o.clone();
    match mode {
        TransformMode::Move => match axis {
            Some(Axis::Z) => r.position[2] += travel.screen[1] * travel.reach * 0.5,
            Some(Axis::X) => r.position[0] += travel.ground[0],
            Some(Axis::Y) => r.position[1] += travel.ground[1],
            None => {
                r.position[0] += travel.ground[0];
                r.position[1] += travel.ground[1];
            }
        },
        TransformMode::Turn => {
            let degrees = travel.screen[0] * 180.0;
            match axis {
                Some(Axis::X) => r.rotation[2] = (f64::from(o.rotation[2]) + degrees) as f32,
                Some(Axis::Y) => r.rotation[0] = (f64::from(o.rotation[0]) + degrees) as f32,
                Some(Axis::Z) | None => r = turned_about(o, centre, degrees),
            }
        }
        TransformMode::Scale => r = scaled_about(o, centre, scale_factor(travel.screen[0]))?,
    }
    Some(r)
}

/// How far a gizmo drag has gone since the press, by the handle held.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GizmoMotion {
    /// A move arrow: `distance` yards along the arrow's world `direction`.
    Along {
        /// The arrow's world direction (unit length).
        direction: Vec3,
        /// Yards along it.
        distance: f32,
    },
    /// The ring: degrees turned about the up axis ([`turn_since`]).
    Round(f32),
    /// The scale square: how far sideways across the view (NDC).
    Sideways(f32),
}

/// `o`, of a group centred on `centre`, after a gizmo drag of `motion`. `None` for a WMO being
/// scaled.
pub fn gizmo_step(o: &ObjectRecord, centre: [f64; 2], motion: GizmoMotion) -> Option<ObjectRecord> {
    match motion {
        GizmoMotion::Along {
            direction,
            distance,
        } => {
            let mut r = o.clone();
            let distance = f64::from(distance);
            for i in 0..3 {
                r.position[i] += f64::from(direction[i]) * distance;
            }
            Some(r)
        }
        GizmoMotion::Round(degrees) => Some(turned_about(o, centre, f64::from(degrees))),
        GizmoMotion::Sideways(across) => scaled_about(o, centre, scale_factor(f64::from(across))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doodad(x: f64, y: f64) -> ObjectRecord {
        ObjectRecord {
            kind: ObjectKind::Doodad,
            model: "World\\Tree.m2".into(),
            unique_id: 7,
            position: [x, y, 30.0],
            rotation: [0.0, 10.0, 0.0],
            scale: 1024,
            flags: 0,
            doodad_set: 0,
            name_set: 0,
        }
    }

    #[test]
    fn a_quarter_turn_swings_the_place_round_the_centre_and_turns_the_heading() {
        let r = turned_about(&doodad(110.0, 50.0), [100.0, 50.0], 90.0);
        assert!((r.position[0] - 100.0).abs() < 1e-9 && (r.position[1] - 60.0).abs() < 1e-9);
        assert_eq!(r.position[2], 30.0);
        assert_eq!(r.rotation, [0.0, 100.0, 0.0]);
        let back = turned_about(&r, [100.0, 50.0], -90.0);
        assert!((back.position[0] - 110.0).abs() < 1e-9 && (back.position[1] - 50.0).abs() < 1e-9);
    }

    #[test]
    fn scaling_grows_size_and_distance_and_leaves_wmos_alone() {
        let r = scaled_about(&doodad(110.0, 50.0), [100.0, 50.0], 2.0).unwrap();
        assert_eq!(r.scale, 2048);
        assert_eq!(r.position[..2], [120.0, 50.0]);
        let tiny = scaled_about(&doodad(110.0, 50.0), [100.0, 50.0], 0.0).unwrap();
        assert_eq!(tiny.scale, 1, "never 0: the client would not draw it");
        let wmo = ObjectRecord {
            kind: ObjectKind::Wmo,
            ..doodad(0.0, 0.0)
        };
        assert_eq!(scaled_about(&wmo, [0.0, 0.0], 2.0), None);
    }

    fn travel(screen: [f64; 2], ground: [f64; 2]) -> MouseTravel {
        MouseTravel {
            screen,
            ground,
            reach: 40.0,
        }
    }

    #[test]
    fn a_keyboard_move_follows_the_ground_or_the_locked_axis() {
        let o = doodad(110.0, 50.0);
        let t = travel([0.5, 0.25], [3.0, -4.0]);
        let step = |axis| keyboard_step(&o, [0.0, 0.0], TransformMode::Move, axis, &t).unwrap();
        assert_eq!(step(None).position, [113.0, 46.0, 30.0]);
        assert_eq!(step(Some(Axis::X)).position, [113.0, 50.0, 30.0]);
        assert_eq!(step(Some(Axis::Y)).position, [110.0, 46.0, 30.0]);
        // Z: a quarter of the view up at 40 yards lifts 0.25 × 40 / 2 = 5 yards.
        assert_eq!(step(Some(Axis::Z)).position, [110.0, 50.0, 35.0]);
    }

    #[test]
    fn a_keyboard_turn_swings_the_group_or_turns_the_locked_angle_only() {
        let o = doodad(110.0, 50.0);
        // Half the view across is 90 degrees.
        let t = travel([0.5, 0.0], [0.0, 0.0]);
        let step = |axis| keyboard_step(&o, [100.0, 50.0], TransformMode::Turn, axis, &t).unwrap();
        assert_eq!(step(None), turned_about(&o, [100.0, 50.0], 90.0));
        assert_eq!(step(Some(Axis::Z)), step(None));
        let about_north = step(Some(Axis::X));
        assert_eq!(
            (about_north.rotation, about_north.position),
            ([0.0, 10.0, 90.0], o.position)
        );
        let about_west = step(Some(Axis::Y));
        assert_eq!(
            (about_west.rotation, about_west.position),
            ([90.0, 10.0, 0.0], o.position)
        );
    }

    #[test]
    fn a_keyboard_scale_doubles_at_half_the_view_and_skips_wmos() {
        let t = travel([0.5, 0.0], [0.0, 0.0]);
        let r = keyboard_step(
            &doodad(110.0, 50.0),
            [100.0, 50.0],
            TransformMode::Scale,
            None,
            &t,
        );
        assert_eq!(r.map(|r| (r.scale, r.position[0])), Some((2048, 120.0)));
        let wmo = ObjectRecord {
            kind: ObjectKind::Wmo,
            ..doodad(0.0, 0.0)
        };
        assert_eq!(
            keyboard_step(&wmo, [0.0, 0.0], TransformMode::Scale, None, &t),
            None
        );
        assert_eq!(
            scale_factor(-3.0),
            0.01,
            "never shrinks to nothing or below"
        );
    }

    #[test]
    fn gizmo_handles_move_along_their_arrow_turn_and_scale() {
        let o = doodad(110.0, 50.0);
        let along = GizmoMotion::Along {
            direction: Vec3::new(0.0, 0.0, 1.0),
            distance: 2.5,
        };
        assert_eq!(
            gizmo_step(&o, [100.0, 50.0], along).unwrap().position,
            [110.0, 50.0, 32.5]
        );
        assert_eq!(
            gizmo_step(&o, [100.0, 50.0], GizmoMotion::Round(90.0)),
            Some(turned_about(&o, [100.0, 50.0], 90.0))
        );
        let scaled = gizmo_step(&o, [100.0, 50.0], GizmoMotion::Sideways(0.25)).unwrap();
        assert_eq!(scaled.scale, 1536);
    }

    #[test]
    fn a_ring_drag_turns_the_shorter_way_across_zero() {
        assert_eq!(turn_since(350.0, 10.0), 20.0);
        assert_eq!(turn_since(10.0, 350.0), -20.0);
        assert_eq!(turn_since(90.0, 180.0), 90.0);
    }

    #[test]
    fn the_centre_is_the_mean_place_and_the_reach_at_least_ten_yards() {
        assert_eq!(
            centre(&[doodad(100.0, 50.0), doodad(110.0, 70.0)]),
            [105.0, 60.0]
        );
        assert_eq!(reach([3.0, 4.0], [0.0, 0.0]), 10.0);
        assert_eq!(reach([30.0, 40.0], [0.0, 0.0]), 50.0);
    }

    #[test]
    fn the_panel_names_the_locked_axis() {
        assert!(
            TransformMode::Turn
                .describe(Some(Axis::Z))
                .starts_with("Turning (axis z):")
        );
        assert!(TransformMode::Move.describe(None).starts_with("Moving:"));
    }
}
