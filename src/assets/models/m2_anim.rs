//! The animated parts of an M2 (`MD20`, versions 256–264): global sequences, the stand
//! sequence, bones and their translation, rotation and scale tracks, and each vertex's bone
//! weights, as an [`animation::Rig`](super::animation::Rig).
//!
//! Layouts (wowdev wiki, "M2": `M2Sequence`, `M2CompBone`, `M2Track`, "Animation files"):
//! - 264 (3.3.5): 64-byte sequences with a duration; 88-byte bones; tracks hold one
//!   `(timestamps, values)` sub-array pair per sequence, whose offsets point into the M2 when the
//!   sequence has flag 0x20 and otherwise into `<model><id:04>-<variation:02>.anim`; rotations
//!   are `M2CompQuat` (four i16).
//! - 260–263 (2.x): 68-byte sequences with start and end times on one shared timeline; 112-byte
//!   bones whose 28-byte tracks hold ranges, one timestamp array and one value array; rotations
//!   `M2CompQuat`.
//! - 256–259 (1.x): as 260 but bones without the 4-byte `boneNameCRC` (108 bytes) and rotations
//!   as four f32.
//!
//! Everything here is read on a best-effort basis: `m2::read` drops the rig, never the model,
//! when these parts are damaged.

use glam::{Quat, Vec3};

use super::Fetch;
use super::animation::{Bone, Influence, Interpolation, Key, Rig, Skeleton, Track};
use super::bytes::{Label, counted, f32_at, u16_at, u32_at};
use super::error::{ModelErrorKind, Result};

/// Sequence flag 0x20: the sequence's track data lies in the M2 itself (not an `.anim`).
const IN_M2: u32 = 0x20;

/// The animation id of "Stand" (AnimationData.dbc row 0).
const STAND: u16 = 0;

/// Where one version's records lie.
struct Layout {
    bones_at: usize,
    sequence_size: usize,
    bone_size: usize,
    /// Offsets in a bone record of the parent, the three tracks and the pivot.
    parent: usize,
    tracks: [usize; 3],
    pivot: usize,
    /// Rotations as four i16 (`M2CompQuat`) instead of four f32.
    compressed: bool,
}

fn layout(version: u32) -> Layout {
    match version {
        264.. => Layout {
            bones_at: 0x2C,
            sequence_size: 64,
            bone_size: 88,
            parent: 8,
            tracks: [16, 36, 56],
            pivot: 76,
            compressed: true,
        },
        260..=263 => Layout {
            bones_at: 0x34,
            sequence_size: 68,
            bone_size: 112,
            parent: 8,
            tracks: [16, 44, 72],
            pivot: 100,
            compressed: true,
        },
        _ => Layout {
            bones_at: 0x34,
            sequence_size: 68,
            bone_size: 108,
            parent: 8,
            tracks: [12, 40, 68],
            pivot: 96,
            compressed: false,
        },
    }
}

/// The stand sequence: its index among the sequences, its time window on the track clock and
/// (264) the `.anim` file holding its data when not the M2.
struct Stand {
    index: usize,
    start: u32,
    end: u32,
    external: Option<Vec<u8>>,
}

/// Reads the rig of an M2 whose skin profile maps mesh vertex `k` to M2 vertex
/// `skin_vertices[k]`; `None` when the model has no bones. `path` names `.anim` files.
pub(super) fn read(
    path: &str,
    bytes: &[u8],
    version: u32,
    vertices_at: usize,
    skin_vertices: &[u16],
    fetch: Fetch,
) -> Result<Option<Rig>> {
    let l = layout(version);
    let (_, loops) = counted(bytes, 0, 0x14, 4, "global sequences")?;
    let global_sequences: Vec<u32> = loops.chunks_exact(4).map(|r| u32_at(r, 0)).collect();
    let (_, records) = counted(bytes, 0, l.bones_at, l.bone_size, "bones")?;
    if records.is_empty() {
        return Ok(None);
    }
    let stand = stand(path, bytes, version, &l, fetch)?;
    let mut bones = Vec::with_capacity(records.len() / l.bone_size);
    for r in records.chunks_exact(l.bone_size) {
        let parent = u16_at(r, l.parent) as i16;
        let at = |i: usize| offset_in(bytes, r) + l.tracks[i];
        bones.push(Bone {
            parent: usize::try_from(parent).ok(),
            pivot: Vec3::new(
                f32_at(r, l.pivot),
                f32_at(r, l.pivot + 4),
                f32_at(r, l.pivot + 8),
            ),
            translation: track(bytes, at(0), version, stand.as_ref(), 12, vec3)?,
            rotation: if l.compressed {
                track(bytes, at(1), version, stand.as_ref(), 8, comp_quat)?
            } else {
                track(bytes, at(1), version, stand.as_ref(), 16, float_quat)?
            },
            scale: track(bytes, at(2), version, stand.as_ref(), 12, vec3)?,
        });
    }
    let duration = stand.as_ref().map_or(0, |s| s.end.saturating_sub(s.start));
    let skeleton = Skeleton::new(bones, global_sequences, duration);

    // Weights (4 × u8 at 12) and bone indices (4 × u8 at 16) of each M2 vertex.
    let (_, m2_vertices) = counted(bytes, 0, vertices_at, 48, "vertices")?;
    let influences = skin_vertices
        .iter()
        .map(|&v| {
            let at = usize::from(v) * 48;
            let r = m2_vertices.get(at..at + 48).unwrap_or(&[0; 48]);
            let weights: [f32; 4] = std::array::from_fn(|i| f32::from(r[12 + i]) / 255.0);
            let total: f32 = weights.iter().sum();
            Influence {
                bones: std::array::from_fn(|i| u16::from(r[16 + i])),
                weights: if total > 0.0 {
                    weights.map(|w| w / total)
                } else {
                    [0.0; 4]
                },
            }
        })
        .collect();
    Ok(Some(Rig {
        skeleton,
        influences,
    }))
}

/// Offset of `part` (a subslice of `data`) in `data`.
fn offset_in(data: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize).saturating_sub(data.as_ptr() as usize)
}

/// The first sequence with animation id 0 (its first variant: variations follow it).
fn stand(
    path: &str,
    bytes: &[u8],
    version: u32,
    l: &Layout,
    fetch: Fetch,
) -> Result<Option<Stand>> {
    let (_, records) = counted(bytes, 0, 0x1C, l.sequence_size, "sequences")?;
    let Some((index, r)) = records
        .chunks_exact(l.sequence_size)
        .enumerate()
        .find(|(_, r)| u16_at(r, 0) == STAND)
    else {
        return Ok(None);
    };
    if version >= 264 {
        let flags = u32_at(r, 12);
        let external = if flags & IN_M2 == 0 {
            let stem = path.rfind('.').map_or(path, |dot| &path[..dot]);
            fetch(&format!("{stem}{STAND:04}-{:02}.anim", u16_at(r, 2)))
        } else {
            None
        };
        Ok(Some(Stand {
            index,
            start: 0,
            end: u32_at(r, 4),
            external,
        }))
    } else {
        Ok(Some(Stand {
            index,
            start: u32_at(r, 4),
            end: u32_at(r, 8),
            external: None,
        }))
    }
}

fn vec3(r: &[u8]) -> Vec3 {
    Vec3::new(f32_at(r, 0), f32_at(r, 4), f32_at(r, 8))
}

fn comp_quat(r: &[u8]) -> Quat {
    let c = |i: usize| super::animation::comp_quat_component(u16_at(r, 2 * i) as i16);
    Quat::from_xyzw(c(0), c(1), c(2), c(3))
}

fn float_quat(r: &[u8]) -> Quat {
    Quat::from_xyzw(f32_at(r, 0), f32_at(r, 4), f32_at(r, 8), f32_at(r, 12))
}

/// The keys of the `M2Track` at `at` that the stand sequence plays (all keys of a global
/// sequence's track), times from the start of that sequence.
fn track<T>(
    bytes: &[u8],
    at: usize,
    version: u32,
    stand: Option<&Stand>,
    size: usize,
    value: fn(&[u8]) -> T,
) -> Result<Track<T>> {
    let interpolation = Interpolation::from_m2(u16_at(&bytes[at..], 0));
    let global = u16_at(&bytes[at..], 2) as i16;
    let global_sequence = usize::try_from(global).ok();
    let mut out = Track {
        interpolation,
        global_sequence,
        keys: Vec::new(),
    };
    if version >= 264 {
        // One sub-array pair per sequence; a global sequence's track has just the first.
        let index = match (global_sequence, stand) {
            (Some(_), _) => 0,
            (None, Some(s)) => s.index,
            (None, None) => return Ok(out),
        };
        let (times_n, times) = counted(bytes, 0, at + 4, 8, "track timestamps")?;
        let (values_n, values) = counted(bytes, 0, at + 12, 8, "track values")?;
        if index >= times_n.min(values_n) {
            return Ok(out);
        }
        // Sub-arrays of the stand's own data may live in its `.anim` file.
        let data = match (global_sequence, stand.and_then(|s| s.external.as_deref())) {
            (None, Some(anim)) => anim,
            _ => bytes,
        };
        let t_at = offset_in(bytes, times) + 8 * index;
        let v_at = offset_in(bytes, values) + 8 * index;
        let stamps = sub_array(bytes, t_at, data, 4, "timestamps")?;
        let vals = sub_array(bytes, v_at, data, size, "key values")?;
        out.keys = stamps
            .chunks_exact(4)
            .zip(vals.chunks_exact(size))
            .map(|(t, v)| Key {
                time: u32_at(t, 0),
                value: value(v),
                tangents: None,
            })
            .collect();
    } else {
        let (_, stamps) = counted(bytes, 0, at + 12, 4, "timestamps")?;
        let (_, vals) = counted(bytes, 0, at + 20, size, "key values")?;
        let (start, end) = match (global_sequence, stand) {
            (Some(_), _) => (0, u32::MAX),
            (None, Some(s)) => (s.start, s.end),
            (None, None) => return Ok(out),
        };
        out.keys = stamps
            .chunks_exact(4)
            .zip(vals.chunks_exact(size))
            .map(|(t, v)| (u32_at(t, 0), v))
            .filter(|(t, _)| (start..=end).contains(t))
            .map(|(t, v)| Key {
                time: t - start,
                value: value(v),
                tangents: None,
            })
            .collect();
    }
    Ok(out)
}

/// The records named by the `count, offset` pair at `at` of `bytes`, read from `data` (the M2
/// itself, or the `.anim` file the offset points into).
fn sub_array<'a>(
    bytes: &[u8],
    at: usize,
    data: &'a [u8],
    size: usize,
    label: &'static str,
) -> Result<&'a [u8]> {
    let pair = bytes.get(at..at + 8).unwrap_or(&[0; 8]);
    let (count, offset) = (u32_at(pair, 0) as usize, u32_at(pair, 4) as usize);
    if count == 0 {
        return Ok(&[]);
    }
    count
        .checked_mul(size)
        .and_then(|n| n.checked_add(offset))
        .and_then(|end| data.get(offset..end))
        .ok_or_else(|| {
            Label::Part(label).error(
                at,
                ModelErrorKind::OutOfRange {
                    what: "array end",
                    index: (offset as u64).saturating_add(count.saturating_mul(size) as u64),
                    limit: data.len() as u64,
                },
            )
        })
}
