//! The animated parts of a 0.5.x MDX: SEQS (the stand sequence's time window), GLBS (global
//! sequence lengths), BONE and HELP nodes (parents, KGTR/KGRT/KGSC tracks), PIVT (each node's
//! pivot by object id), and the geosets' vertex groups (GNDX/MTGC/MATS, gathered by `mdx`) as
//! an [`animation::Rig`](super::animation::Rig).
//!
//! Layout (barncastle/wow-mdx-viewer, `formats/mdx/modelreader.ts` and `formats/reader.ts`,
//! checked against the three 0.5.3 corpus files: every node's tracks end exactly at its
//! inclusive size, every BONE chunk at its end): SEQS is `count` then 140-byte records (name
//! 80, start, end, …); BONE and HELP are `count` then nodes of `inclusive size, name[80],
//! object id, parent id, flags` and tracks `tag, key count, line type, global sequence id` with
//! keys `time, value[, in tangent, out tangent]` (the tangents for Hermite and Bézier); a BONE
//! node is followed by its geoset and geoset-animation ids. Rotations are 8-byte packed
//! quaternions ([`super::animation::packed_quat`]), not the four f32 of Warcraft III.
//!
//! A vertex follows every matrix of its group equally, as the client's MDX skinning does.

use glam::{Quat, Vec3};

use super::animation::{Bone, Influence, Interpolation, Key, Rig, Skeleton, Track, packed_quat};
use super::bytes::{Chunk, Cursor, Label, c_string};
use super::error::{ModelErrorKind, Result};

/// A node's fixed part: inclusive size, name, object id, parent id, flags.
const NODE_HEADER: usize = 96;
/// A SEQS record.
const SEQUENCE_SIZE: usize = 140;

/// The chunks the rig comes from, as `mdx::read` found them.
#[derive(Default)]
pub(super) struct AnimChunks<'a> {
    pub sequences: Option<Chunk<'a>>,
    pub global_sequences: Option<Chunk<'a>>,
    pub bones: Option<Chunk<'a>>,
    pub helpers: Option<Chunk<'a>>,
    pub pivots: Option<Chunk<'a>>,
}

/// One node as read: its object id, parent's object id and tracks.
struct Node {
    object: i32,
    parent: i32,
    bone: Bone,
}

/// The rig of an MDX whose mesh vertices follow the object ids in `groups` (one entry per
/// mesh vertex: up to four object ids with their weights); `None` without bones.
pub(super) fn read(chunks: &AnimChunks, groups: &[Influence]) -> Result<Option<Rig>> {
    let Some(bone_chunk) = chunks.bones else {
        return Ok(None);
    };
    let mut nodes = Vec::new();
    read_nodes(&bone_chunk, true, &mut nodes)?;
    if let Some(h) = &chunks.helpers {
        read_nodes(h, false, &mut nodes)?;
    }
    let pivots: Vec<Vec3> = match &chunks.pivots {
        Some(c) => c
            .payload
            .chunks_exact(12)
            .map(|r| {
                let mut c = Cursor::new(r, 0, Label::Tag(*b"PIVT"));
                c.vec3().map(Vec3::from).unwrap_or(Vec3::ZERO)
            })
            .collect(),
        None => Vec::new(),
    };
    let index_of = |object: i32| nodes.iter().position(|n| n.object == object && object >= 0);
    let parents: Vec<Option<usize>> = nodes.iter().map(|n| index_of(n.parent)).collect();
    let objects: Vec<i32> = nodes.iter().map(|n| n.object).collect();
    let (start, end) = stand(chunks.sequences.as_ref())?;
    let global_sequences = match &chunks.global_sequences {
        Some(c) => c
            .payload
            .chunks_exact(4)
            .map(|r| u32::from_le_bytes([r[0], r[1], r[2], r[3]]))
            .collect(),
        None => Vec::new(),
    };
    let bones: Vec<Bone> = nodes
        .into_iter()
        .zip(parents)
        .map(|(n, parent)| {
            let mut b = n.bone;
            b.parent = parent;
            b.pivot = usize::try_from(n.object)
                .ok()
                .and_then(|i| pivots.get(i))
                .copied()
                .unwrap_or(Vec3::ZERO);
            for t in [&mut b.translation, &mut b.scale] {
                window(t, start, end);
            }
            window(&mut b.rotation, start, end);
            b
        })
        .collect();
    let skeleton = Skeleton::new(bones, global_sequences, end.saturating_sub(start));
    let influences = groups
        .iter()
        .map(|g| {
            let mut out = *g;
            for (b, w) in out.bones.iter_mut().zip(out.weights.iter_mut()) {
                match objects.iter().position(|&o| i32::from(*b) == o) {
                    Some(i) if *w > 0.0 => *b = i as u16,
                    _ => *w = 0.0,
                }
            }
            out
        })
        .collect();
    Ok(Some(Rig {
        skeleton,
        influences,
    }))
}

/// Keeps the keys of a non-global track inside the stand's window, times from its start (a
/// global sequence's track keeps all its keys).
fn window<T>(track: &mut Track<T>, start: u32, end: u32) {
    if track.global_sequence.is_some() {
        return;
    }
    track.keys.retain(|k| (start..=end).contains(&k.time));
    for k in &mut track.keys {
        k.time -= start;
    }
}

/// The window of the first sequence whose name starts with "Stand" (the 0.5.x files name
/// variants "Stand - Var1"…), or of the first sequence; `(0, 0)` without sequences.
fn stand(chunk: Option<&Chunk>) -> Result<(u32, u32)> {
    let Some(chunk) = chunk else {
        return Ok((0, 0));
    };
    let mut c = chunk.cursor();
    let count = c.count(SEQUENCE_SIZE)?;
    let mut first = None;
    for _ in 0..count {
        let record = c.bytes(SEQUENCE_SIZE)?;
        let mut r = Cursor::new(record, 0, Label::Tag(*b"SEQS"));
        let name = c_string(r.bytes(80)?);
        let window = (r.u32()?, r.u32()?);
        if name.to_ascii_lowercase().starts_with("stand") {
            return Ok(window);
        }
        first.get_or_insert(window);
    }
    Ok(first.unwrap_or((0, 0)))
}

/// Reads a BONE or HELP chunk's nodes.
fn read_nodes(chunk: &Chunk, bones: bool, out: &mut Vec<Node>) -> Result<()> {
    let mut c = chunk.cursor();
    let count = c.count(NODE_HEADER)?;
    for _ in 0..count {
        let at = c.offset();
        let size = c.u32()? as usize;
        if size < NODE_HEADER {
            return Err(chunk
                .label()
                .error(at, ModelErrorKind::Invalid(format!("node size {size}"))));
        }
        let mut n = Cursor::new(c.bytes(size - 4)?, at + 4, chunk.label());
        n.skip(80)?;
        let object = n.u32()? as i32;
        let parent = n.u32()? as i32;
        n.u32()?; // flags
        let mut bone = Bone::default();
        while n.remaining() > 0 {
            let tag = n.array::<4>()?;
            match &tag {
                b"KGTR" => bone.translation = track(&mut n, 12, vec3)?,
                b"KGSC" => bone.scale = track(&mut n, 12, vec3)?,
                b"KGRT" => bone.rotation = track(&mut n, 8, quat)?,
                _ => {
                    return Err(chunk.label().error(
                        n.offset() - 4,
                        ModelErrorKind::Invalid(format!(
                            "unknown node track {}",
                            Label::Tag(tag).name()
                        )),
                    ));
                }
            }
        }
        if bones {
            c.skip(8)?; // geoset id, geoset animation id
        }
        out.push(Node {
            object,
            parent,
            bone,
        });
    }
    Ok(())
}

fn vec3(r: &[u8]) -> Vec3 {
    let f = |i: usize| f32::from_le_bytes([r[i], r[i + 1], r[i + 2], r[i + 3]]);
    Vec3::new(f(0), f(4), f(8))
}

fn quat(r: &[u8]) -> Quat {
    packed_quat(u64::from_le_bytes([
        r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
    ]))
}

/// One track: key count, line type, global sequence id, then the keys.
fn track<T>(n: &mut Cursor, size: usize, value: fn(&[u8]) -> T) -> Result<Track<T>> {
    let count = n.u32()? as usize;
    let interpolation = Interpolation::from_mdx(n.u32()?);
    let global_sequence = usize::try_from(n.u32()? as i32).ok();
    let key_size = 4 + size * if interpolation.has_tangents() { 3 } else { 1 };
    let data = n.records(count, key_size)?;
    let keys = data
        .chunks_exact(key_size)
        .map(|k| Key {
            time: u32::from_le_bytes([k[0], k[1], k[2], k[3]]),
            value: value(&k[4..]),
            tangents: interpolation
                .has_tangents()
                .then(|| (value(&k[4 + size..]), value(&k[4 + 2 * size..]))),
        })
        .collect();
    Ok(Track {
        interpolation,
        global_sequence,
        keys,
    })
}
