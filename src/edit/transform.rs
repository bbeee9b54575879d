//! Object transforms as pure functions over placement records: turning and scaling a group
//! about its centre, moving it. The gizmo's handles and the keyboard's G, R and T use the same
//! functions, so that the two ways of turning a selection cannot drift apart.
//!
//! Not for: putting the result into tiles (`edit::objects::put`) or reading the mouse (the
//! app's object tool).

use super::objects::ObjectRecord;
use crate::model::ObjectKind;

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
    r.scale = (f64::from(o.scale) * factor).round().clamp(1.0, 65535.0) as u16;
    r.position[0] = centre[0] + (o.position[0] - centre[0]) * factor;
    r.position[1] = centre[1] + (o.position[1] - centre[1]) * factor;
    Some(r)
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
}
