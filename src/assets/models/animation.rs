//! Skeletal animation without GL: key-framed tracks and their interpolation, a skeleton's bone
//! matrices at a time in its stand sequence, and skinning the bind-pose vertices with them.
//! The M2 and MDX readers fill these from their files (`m2_anim`, `mdx_anim`); `render/` calls
//! [`Rig::pose`] and [`Rig::skin`] once per visible animated model per frame.
//!
//! The maths (wowdev wiki, "M2", sections "M2Track", "M2CompBone" and "Animation"; the same
//! for MDX in barncastle/wow-mdx-viewer's `renderer/model`): a bone's local matrix is
//! `T(pivot) · T(translation) · R(rotation) · S(scale) · T(−pivot)`, its world matrix its
//! parent's times that (parents first), and a vertex is the weighted sum of its bones'
//! matrices applied to its bind position. Times are milliseconds: a track of a global sequence
//! runs on the wall clock modulo that sequence's length, every other track on the stand
//! sequence's clock modulo its duration.
//!
//! Not for: blending between sequences, billboarded bones, texture, colour or visibility
//! tracks, particles, attachments, or which sequence the game would play beyond "Stand".

use glam::{Mat4, Quat, Vec3};

use super::Vertex;

/// How a track's values change between two keys (M2 `interpolation_type`, MDX line type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Interpolation {
    /// The earlier key's value until the next key.
    #[default]
    None,
    /// Straight line (spherical for rotations).
    Linear,
    /// Cubic Hermite with the keys' tangents.
    Hermite,
    /// Cubic Bézier with the keys' tangents as control points.
    Bezier,
}

impl Interpolation {
    /// From an M2 track's `interpolation_type` (0 none, 1 linear, 2 Bézier, 3 Hermite per the
    /// wiki). M2 bone tracks store no tangents, so the cubic kinds fall back to linear.
    pub fn from_m2(value: u16) -> Interpolation {
        match value {
            0 => Interpolation::None,
            _ => Interpolation::Linear,
        }
    }

    /// From an MDX track's line type (0 don't interpolate, 1 linear, 2 Hermite, 3 Bézier);
    /// unknown values are linear.
    pub fn from_mdx(value: u32) -> Interpolation {
        match value {
            0 => Interpolation::None,
            2 => Interpolation::Hermite,
            3 => Interpolation::Bezier,
            _ => Interpolation::Linear,
        }
    }

    /// True when every key carries an in and an out tangent.
    pub fn has_tangents(self) -> bool {
        matches!(self, Interpolation::Hermite | Interpolation::Bezier)
    }
}

/// A value a track can hold: a vector (translation, scale) or a rotation.
pub trait Animated: Copy + std::fmt::Debug + PartialEq {
    /// Between `a` (at 0) and `b` (at 1).
    fn linear(a: Self, b: Self, t: f32) -> Self;
    /// Cubic through `a` and `b` with `a`'s out tangent and `b`'s in tangent.
    fn cubic(kind: Interpolation, a: Self, out_tan: Self, in_tan: Self, b: Self, t: f32) -> Self;
}

impl Animated for Vec3 {
    fn linear(a: Vec3, b: Vec3, t: f32) -> Vec3 {
        a.lerp(b, t)
    }

    fn cubic(kind: Interpolation, a: Vec3, out_tan: Vec3, in_tan: Vec3, b: Vec3, t: f32) -> Vec3 {
        let (f1, f2, f3, f4) = cubic_factors(kind, t);
        a * f1 + out_tan * f2 + in_tan * f3 + b * f4
    }
}

impl Animated for Quat {
    fn linear(a: Quat, b: Quat, t: f32) -> Quat {
        a.slerp(b, t)
    }

    /// Spherical quadrangle interpolation, as wow-mdx-viewer does for both cubic kinds.
    fn cubic(_: Interpolation, a: Quat, out_tan: Quat, in_tan: Quat, b: Quat, t: f32) -> Quat {
        a.slerp(b, t)
            .slerp(out_tan.slerp(in_tan, t), 2.0 * t * (1.0 - t))
    }
}

/// The weights of the four control values of a cubic at `t`.
fn cubic_factors(kind: Interpolation, t: f32) -> (f32, f32, f32, f32) {
    let t2 = t * t;
    if kind == Interpolation::Bezier {
        let u = 1.0 - t;
        (u * u * u, 3.0 * t * u * u, 3.0 * t2 * u, t2 * t)
    } else {
        (
            t2 * (2.0 * t - 3.0) + 1.0,
            t2 * (t - 2.0) + t,
            t2 * (t - 1.0),
            t2 * (3.0 - 2.0 * t),
        )
    }
}

/// One key of a track.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key<T> {
    /// Milliseconds from the start of its sequence (or global sequence).
    pub time: u32,
    /// The value at that time.
    pub value: T,
    /// In and out tangents (Hermite and Bézier tracks only).
    pub tangents: Option<(T, T)>,
}

/// A key-framed value over one sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Track<T> {
    /// How values change between keys.
    pub interpolation: Interpolation,
    /// The global sequence whose clock this track runs on, if any.
    pub global_sequence: Option<usize>,
    /// Keys in time order.
    pub keys: Vec<Key<T>>,
}

impl<T> Default for Track<T> {
    fn default() -> Self {
        Track {
            interpolation: Interpolation::None,
            global_sequence: None,
            keys: Vec::new(),
        }
    }
}

impl<T: Animated> Track<T> {
    /// The value at `ms` into the track's sequence; `None` for a track without keys. Before the
    /// first key the first value holds, after the last the last.
    pub fn at(&self, ms: f32) -> Option<T> {
        let first = self.keys.first()?;
        let last = self.keys.last()?;
        if ms <= first.time as f32 {
            return Some(first.value);
        }
        if ms >= last.time as f32 {
            return Some(last.value);
        }
        let next = self.keys.partition_point(|k| k.time as f32 <= ms);
        let (a, b) = (self.keys.get(next.checked_sub(1)?)?, self.keys.get(next)?);
        let span = b.time.saturating_sub(a.time) as f32;
        if span <= 0.0 || self.interpolation == Interpolation::None {
            return Some(a.value);
        }
        let t = ((ms - a.time as f32) / span).clamp(0.0, 1.0);
        Some(match (self.interpolation, a.tangents, b.tangents) {
            (kind, Some((_, out_tan)), Some((in_tan, _))) if kind.has_tangents() => {
                T::cubic(kind, a.value, out_tan, in_tan, b.value, t)
            }
            _ => T::linear(a.value, b.value, t),
        })
    }

    /// True when the track's value changes over time (two or more distinct keys).
    pub fn moves(&self) -> bool {
        self.keys.windows(2).any(|w| w[0].value != w[1].value)
    }
}

/// One bone (an MDX node).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bone {
    /// The parent bone's index, `None` for a root.
    pub parent: Option<usize>,
    /// The point the bone turns and scales about, in model space.
    pub pivot: Vec3,
    /// Translation track.
    pub translation: Track<Vec3>,
    /// Rotation track.
    pub rotation: Track<Quat>,
    /// Scale track.
    pub scale: Track<Vec3>,
}

/// A model's bones with the clocks their tracks run on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skeleton {
    /// The bones, in the file's order.
    pub bones: Vec<Bone>,
    /// Lengths of the global sequences in milliseconds.
    pub global_sequences: Vec<u32>,
    /// Length of the stand sequence in milliseconds (0: a still pose).
    pub stand_duration: u32,
    /// Bone indices with every parent before its children.
    order: Vec<usize>,
}

impl Skeleton {
    /// A skeleton over `bones`; a parent index out of range, or a cycle, makes a root.
    pub fn new(mut bones: Vec<Bone>, global_sequences: Vec<u32>, stand_duration: u32) -> Self {
        let n = bones.len();
        for b in &mut bones {
            if b.parent.is_some_and(|p| p >= n) {
                b.parent = None;
            }
        }
        // Depth-first from each bone up to its first placed ancestor; a chain longer than the
        // bone count is a cycle, cut at the bone that closes it.
        let mut placed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for start in 0..n {
            let mut chain = Vec::new();
            let mut at = Some(start);
            while let Some(i) = at {
                if placed[i] || chain.contains(&i) {
                    if chain.contains(&i) {
                        bones[i].parent = None;
                    }
                    break;
                }
                chain.push(i);
                at = bones[i].parent;
            }
            for &i in chain.iter().rev() {
                if !placed[i] {
                    placed[i] = true;
                    order.push(i);
                }
            }
        }
        Skeleton {
            bones,
            global_sequences,
            stand_duration,
            order,
        }
    }

    /// True when some bone moves over time (a still skeleton is posed once, on load).
    pub fn moves(&self) -> bool {
        self.bones
            .iter()
            .any(|b| b.translation.moves() || b.rotation.moves() || b.scale.moves())
    }

    /// Milliseconds into the clock a track runs on, `seconds` after the animation started.
    pub fn track_time(&self, global_sequence: Option<usize>, seconds: f64) -> f32 {
        let length = match global_sequence {
            Some(g) => self.global_sequences.get(g).copied().unwrap_or(0),
            None => self.stand_duration,
        };
        if length == 0 {
            return 0.0;
        }
        ((seconds * 1000.0).rem_euclid(f64::from(length))) as f32
    }

    /// Each bone's local matrix at `seconds`.
    pub fn local(&self, bone: &Bone, seconds: f64) -> Mat4 {
        let t = |g| self.track_time(g, seconds);
        let translation = (bone.translation)
            .at(t(bone.translation.global_sequence))
            .unwrap_or(Vec3::ZERO);
        let rotation = (bone.rotation)
            .at(t(bone.rotation.global_sequence))
            .unwrap_or(Quat::IDENTITY)
            .normalize();
        let scale = (bone.scale)
            .at(t(bone.scale.global_sequence))
            .unwrap_or(Vec3::ONE);
        Mat4::from_translation(bone.pivot + translation)
            * Mat4::from_quat(rotation)
            * Mat4::from_scale(scale)
            * Mat4::from_translation(-bone.pivot)
    }

    /// Every bone's model-space matrix at `seconds` into the animation, parents first.
    pub fn pose(&self, seconds: f64) -> Vec<Mat4> {
        let mut out = vec![Mat4::IDENTITY; self.bones.len()];
        for &i in &self.order {
            let bone = &self.bones[i];
            let local = self.local(bone, seconds);
            out[i] = match bone.parent {
                Some(p) => out[p] * local,
                None => local,
            };
        }
        out
    }
}

/// The bones that move one vertex and how much (weights sum to 1; unused slots weigh 0).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Influence {
    /// Bone indices.
    pub bones: [u16; 4],
    /// Their weights.
    pub weights: [f32; 4],
}

/// A skeleton and the bones each mesh vertex follows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rig {
    /// The bones.
    pub skeleton: Skeleton,
    /// One per [`super::ModelMesh::vertices`].
    pub influences: Vec<Influence>,
}

impl Rig {
    /// The bone matrices at `seconds` into the stand animation.
    pub fn pose(&self, seconds: f64) -> Vec<Mat4> {
        self.skeleton.pose(seconds)
    }

    /// `bind` moved by the bones' `matrices` into `out` (cleared first). A vertex without
    /// influences, or whose bones are out of range, keeps its bind pose.
    pub fn skin(&self, bind: &[Vertex], matrices: &[Mat4], out: &mut Vec<Vertex>) {
        out.clear();
        out.extend(bind.iter().enumerate().map(|(i, v)| {
            let Some(inf) = self.influences.get(i) else {
                return *v;
            };
            skin_vertex(v, inf, matrices)
        }));
    }
}

/// One vertex skinned: the weighted sum of its bones' matrices applied to position and normal.
pub fn skin_vertex(v: &Vertex, inf: &Influence, matrices: &[Mat4]) -> Vertex {
    let p = Vec3::from(v.position);
    let n = Vec3::from(v.normal);
    let (mut pos, mut nor, mut total) = (Vec3::ZERO, Vec3::ZERO, 0.0);
    for (&b, &w) in inf.bones.iter().zip(&inf.weights) {
        if w <= 0.0 {
            continue;
        }
        let Some(m) = matrices.get(usize::from(b)) else {
            continue;
        };
        pos += m.transform_point3(p) * w;
        nor += m.transform_vector3(n) * w;
        total += w;
    }
    if total <= 0.0 {
        return *v;
    }
    Vertex {
        position: (pos / total).to_array(),
        normal: nor.normalize_or(n).to_array(),
        ..*v
    }
}

/// An M2CompQuat component as a float: the file stores `v + 32767` wrapped into an i16, so
/// identity's w reads −1 and its x, y, z 32767 (WoW Model Viewer's conversion; checked on the
/// corpus's Rabbit.m2, whose still bones store exactly those).
pub fn comp_quat_component(v: i16) -> f32 {
    let v = i32::from(v);
    (if v < 0 { v + 32768 } else { v - 32767 }) as f32 / 32767.0
}

/// An MDX (0.5.x) packed rotation: 64 bits holding x (21 bits, half the step), y and z (21 bits
/// each), w derived so the quaternion is unit (barncastle/wow-mdx-viewer, `formats/reader.ts`).
pub fn packed_quat(bits: u64) -> Quat {
    const STEP: f64 = 0.000_000_953_674_32;
    if bits == 0 {
        return Quat::IDENTITY;
    }
    let v = bits as i64;
    let x = (v >> 42) as f64 * (STEP / 2.0);
    let y = ((v << 22) >> 43) as f64 * STEP;
    let z = ((((v << 11) as i32) as i64) >> 11) as f64 * STEP;
    let rest = 1.0 - (x * x + y * y + z * z);
    let w = if rest >= STEP { rest.sqrt() } else { 0.0 };
    Quat::from_xyzw(x as f32, y as f32, z as f32, w as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(kind: Interpolation, keys: &[(u32, f32)]) -> Track<Vec3> {
        Track {
            interpolation: kind,
            global_sequence: None,
            keys: keys
                .iter()
                .map(|&(time, x)| Key {
                    time,
                    value: Vec3::new(x, 0.0, 0.0),
                    tangents: kind.has_tangents().then_some((Vec3::ZERO, Vec3::ZERO)),
                })
                .collect(),
        }
    }

    #[test]
    fn tracks_hold_step_and_interpolate() {
        let linear = track(Interpolation::Linear, &[(0, 0.0), (100, 10.0), (200, 0.0)]);
        assert_eq!(linear.at(50.0).unwrap().x, 5.0);
        assert_eq!(linear.at(150.0).unwrap().x, 5.0);
        assert_eq!(linear.at(-5.0).unwrap().x, 0.0);
        assert_eq!(linear.at(999.0).unwrap().x, 0.0);
        let step = track(Interpolation::None, &[(0, 1.0), (100, 3.0)]);
        assert_eq!(step.at(99.0).unwrap().x, 1.0);
        assert_eq!(step.at(100.0).unwrap().x, 3.0);
        assert_eq!(Track::<Vec3>::default().at(1.0), None);
        // Hermite with flat tangents eases: slower than linear near the keys, equal midway.
        let hermite = track(Interpolation::Hermite, &[(0, 0.0), (100, 10.0)]);
        assert!((hermite.at(50.0).unwrap().x - 5.0).abs() < 1e-5);
        assert!(hermite.at(10.0).unwrap().x < 1.0);
        let bezier = track(Interpolation::Bezier, &[(0, 0.0), (100, 10.0)]);
        // Control points at 0: 10·t³ at t = 0.5.
        assert!((bezier.at(50.0).unwrap().x - 1.25).abs() < 1e-5);
    }

    #[test]
    fn clocks_wrap_on_the_stand_and_global_lengths() {
        let s = Skeleton::new(Vec::new(), vec![500], 1000);
        assert_eq!(s.track_time(None, 1.25), 250.0);
        assert_eq!(s.track_time(Some(0), 1.25), 250.0);
        assert_eq!(s.track_time(Some(0), 0.7), 200.0);
        assert_eq!(s.track_time(Some(7), 0.7), 0.0);
        assert_eq!(Skeleton::default().track_time(None, 3.0), 0.0);
    }

    #[test]
    fn children_follow_their_parents_about_their_pivots() {
        let turn = Track {
            interpolation: Interpolation::Linear,
            global_sequence: None,
            keys: vec![
                Key {
                    time: 0,
                    value: Quat::IDENTITY,
                    tangents: None,
                },
                Key {
                    time: 500,
                    value: Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
                    tangents: None,
                },
            ],
        };
        let lift = track(Interpolation::Linear, &[(0, 0.0), (1000, 2.0)]);
        // The child comes first in the file: the order must still put its parent first.
        let bones = vec![
            Bone {
                parent: Some(1),
                pivot: Vec3::new(1.0, 0.0, 0.0),
                rotation: turn,
                ..Bone::default()
            },
            Bone {
                translation: lift,
                ..Bone::default()
            },
        ];
        let s = Skeleton::new(bones, Vec::new(), 1000);
        assert!(s.moves());
        let m = s.pose(0.5);
        // Parent moved 1 along x; child turned 90° about (1, 0, 0) before that.
        let p = m[0].transform_point3(Vec3::new(2.0, 0.0, 0.0));
        assert!((p - Vec3::new(2.0, 1.0, 0.0)).length() < 1e-5, "{p}");
        let rig = Rig {
            skeleton: s,
            influences: vec![Influence {
                bones: [0, 1, 0, 0],
                weights: [0.5, 0.5, 0.0, 0.0],
            }],
        };
        let mut out = Vec::new();
        let bind = [Vertex {
            position: [2.0, 0.0, 0.0],
            normal: [1.0, 0.0, 0.0],
            ..Vertex::default()
        }];
        rig.skin(&bind, &m, &mut out);
        // Half the child's (2, 1, 0), half the parent's (3, 0, 0).
        assert!((Vec3::from(out[0].position) - Vec3::new(2.5, 0.5, 0.0)).length() < 1e-5);
    }

    #[test]
    fn a_parent_cycle_is_cut() {
        let bones = vec![
            Bone {
                parent: Some(1),
                ..Bone::default()
            },
            Bone {
                parent: Some(0),
                ..Bone::default()
            },
            Bone {
                parent: Some(9),
                ..Bone::default()
            },
        ];
        let s = Skeleton::new(bones, Vec::new(), 0);
        assert_eq!(s.pose(0.0).len(), 3);
        assert_eq!(s.bones[2].parent, None);
        assert!(s.bones.iter().any(|b| b.parent.is_none()));
        assert!(!s.moves());
    }

    #[test]
    fn packed_rotations_decode() {
        assert_eq!(comp_quat_component(32767), 0.0);
        assert_eq!(comp_quat_component(-1), 1.0);
        assert_eq!(packed_quat(0), Quat::IDENTITY);
        // z = 0.5: 0.5 / STEP in the low 21 bits.
        let z = (0.5f64 / 0.000_000_953_674_32).round() as u64;
        let q = packed_quat(z);
        assert!((q.z - 0.5).abs() < 1e-4 && q.x.abs() < 1e-6 && q.y.abs() < 1e-6);
        assert!((q.length() - 1.0).abs() < 1e-4);
    }
}
