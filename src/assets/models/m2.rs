//! M2 (`MD20`, versions 256–264: 1.12 to 3.3.5): header, vertices, textures, render flags,
//! texture lookup, bounding box and one skin profile, read by offset from the header's
//! `count, offset` pairs; the bones and stand sequence through `m2_anim`, on a best-effort
//! basis. Particles, ribbons, lights, cameras and attachments are never touched, and damage in
//! the animation data drops only the motion, so that a layout this reader does not know there
//! cannot cost a model its geometry; that is where `wow-m2` 0.7 fails on two of the three
//! corpus models (docs/formats.md, "Models").
//!
//! Layout (wowdev wiki, M2): up to 263 the header has `playable_animation_lookup` (8 bytes)
//! after the animation lookup, an array of embedded skin profiles where 264 has a skin count,
//! and `texture_flipbooks` (8 bytes) after the texture weights: 20 bytes in all, which moves
//! every later field.

use super::bytes::{Cursor, Label, c_string, counted, f32_at, u16_at, u16s, u32_at};
use super::error::{ModelError, ModelErrorKind, Result};
use super::m2_anim;
use super::skin::{self, Profile};
use super::{
    Aabb, Batch, BlendMode, Fetch, Material, MeshBuilder, Model, ModelFormat, TextureRef, Vertex,
};

/// Where the fields this reader needs lie, per header layout.
struct Layout {
    vertices: usize,
    /// 264: a `u32` skin count; up to 263: an array of embedded profiles.
    skins: usize,
    textures: usize,
    render_flags: usize,
    texture_lookup: usize,
    bounding_box: usize,
}

const WOTLK: Layout = Layout {
    vertices: 0x3C,
    skins: 0x44,
    textures: 0x50,
    render_flags: 0x70,
    texture_lookup: 0x80,
    bounding_box: 0xA0,
};

const CLASSIC: Layout = Layout {
    vertices: 0x44,
    skins: 0x4C,
    textures: 0x5C,
    render_flags: 0x84,
    texture_lookup: 0x94,
    bounding_box: 0xB4,
};

/// Size of an M2 vertex record: position, 4 bone weights, 4 bone indices, normal, 2 UV sets.
const VERTEX_SIZE: usize = 48;

/// Skin files tried beyond `00` (the header's count is capped: the client has at most 4).
const MAX_SKINS: u32 = 4;

pub(super) fn read(path: &str, bytes: &[u8], fetch: Fetch) -> Result<Model> {
    let mut header = Cursor::new(bytes, 0, Label::Part("header"));
    let magic = header.array::<4>()?;
    if &magic != b"MD20" {
        return Err(Label::Part("header").error(0, ModelErrorKind::UnknownMagic(magic)));
    }
    let version = header.u32()?;
    if !(256..=264).contains(&version) {
        return Err(Label::Part("header").error(4, ModelErrorKind::UnsupportedVersion(version)));
    }
    let layout = if version >= 264 { &WOTLK } else { &CLASSIC };
    // The whole header this reader uses must be there before any offset is followed.
    let header_end = layout.bounding_box + 28;
    if bytes.len() < header_end {
        return Err(Label::Part("header").error(
            0,
            ModelErrorKind::Truncated {
                needed: header_end as u64,
                available: bytes.len() as u64,
            },
        ));
    }
    let (_, name) = counted(bytes, 0, 0x08, 1, "name")?;
    let (_, vertex_records) = counted(bytes, 0, layout.vertices, VERTEX_SIZE, "vertices")?;
    let vertices: Vec<Vertex> = vertex_records
        .chunks_exact(VERTEX_SIZE)
        .map(|r| Vertex {
            position: [f32_at(r, 0), f32_at(r, 4), f32_at(r, 8)],
            normal: [f32_at(r, 20), f32_at(r, 24), f32_at(r, 28)],
            uv: [f32_at(r, 32), f32_at(r, 36)],
            uv2: [f32_at(r, 40), f32_at(r, 44)],
        })
        .collect();
    let textures = textures(bytes, layout.textures)?;
    let (_, flags) = counted(bytes, 0, layout.render_flags, 4, "render flags")?;
    let render_flags: Vec<(u16, u16)> = flags
        .chunks_exact(4)
        .map(|r| (u16_at(r, 0), u16_at(r, 2)))
        .collect();
    let (_, lookup) = counted(bytes, 0, layout.texture_lookup, 2, "texture lookup")?;
    let texture_lookup = u16s(lookup);
    let b = layout.bounding_box;
    let file_bounds = Aabb {
        min: [f32_at(bytes, b), f32_at(bytes, b + 4), f32_at(bytes, b + 8)],
        max: [
            f32_at(bytes, b + 12),
            f32_at(bytes, b + 16),
            f32_at(bytes, b + 20),
        ],
    };

    // Errors in the profile's records name the skin file they are in (the M2 up to 263).
    let (skin_name, profile) = if version >= 264 {
        let count = u32_at(bytes, layout.skins);
        skin_file(path, count, fetch)?
    } else {
        let (count, _) = counted(bytes, 0, layout.skins, skin::PROFILE_SIZE, "skin profiles")?;
        if count == 0 {
            return Err(Label::Part("skin profiles").error(
                layout.skins,
                ModelErrorKind::Missing("embedded skin profile"),
            ));
        }
        let at = u32_at(bytes, layout.skins + 4) as usize;
        let submesh_size = if version >= 260 { 48 } else { 32 };
        (path.to_string(), skin::profile(bytes, at, submesh_size)?)
    };

    let parts = Parts {
        vertices: &vertices,
        textures: &textures,
        render_flags: &render_flags,
        texture_lookup: &texture_lookup,
    };
    let mesh = build(&parts, &profile).map_err(|e| e.in_file(&skin_name))?;
    // Damaged or unknown animation data costs the model its motion, never its geometry.
    let rig = m2_anim::read(
        path,
        bytes,
        version,
        layout.vertices,
        &profile.vertices,
        fetch,
    )
    .ok()
    .flatten();
    let (mesh, rig) = super::settle(mesh.finish(), rig);
    Ok(Model {
        format: ModelFormat::M2,
        version,
        name: c_string(name),
        mesh,
        file_bounds,
        rig,
    })
}

/// A texture as the M2 declares it.
struct M2Texture {
    source: TextureRef,
    /// `M2Texture.flags`: 0x1 wraps in s, 0x2 wraps in t (clamped otherwise).
    flags: u32,
}

fn textures(bytes: &[u8], at: usize) -> Result<Vec<M2Texture>> {
    let (_, records) = counted(bytes, 0, at, 16, "textures")?;
    let first = u32_at(bytes, at + 4) as usize;
    records
        .chunks_exact(16)
        .enumerate()
        .map(|(i, r)| {
            let kind = u32_at(r, 0);
            let flags = u32_at(r, 4);
            let source = if kind == 0 {
                let (_, name) = counted(bytes, 0, first + 16 * i + 8, 1, "texture name")?;
                TextureRef::File(c_string(name))
            } else {
                TextureRef::Replaceable(kind)
            };
            Ok(M2Texture { source, flags })
        })
        .collect()
}

/// Fetches `<stem>NN.skin`: `00` first, then the other profiles the header counts (a copy of
/// a model may ship only some of its levels of detail).
fn skin_file(path: &str, count: u32, fetch: Fetch) -> Result<(String, Profile)> {
    let stem = path.rfind('.').map_or(path, |dot| &path[..dot]);
    let first = format!("{stem}00.skin");
    for n in 0..count.clamp(1, MAX_SKINS) {
        let name = format!("{stem}{n:02}.skin");
        if let Some(skin) = fetch(&name) {
            let profile = skin::read_file(&skin).map_err(|e| e.in_file(&name))?;
            return Ok((name, profile));
        }
    }
    Err(ModelError::not_found(&first))
}

/// What the batches refer to.
struct Parts<'a> {
    vertices: &'a [Vertex],
    textures: &'a [M2Texture],
    render_flags: &'a [(u16, u16)],
    texture_lookup: &'a [u16],
}

/// The mesh of one skin profile: its vertices gathered from the M2's, its triangles, and one
/// batch per texture unit (a submesh drawn twice, e.g. with an additive reflection layer, is
/// two batches, in the file's order).
fn build(parts: &Parts, profile: &Profile) -> Result<MeshBuilder> {
    let vertices = profile
        .vertices
        .iter()
        .enumerate()
        .map(|(k, &v)| {
            parts.vertices.get(usize::from(v)).copied().ok_or_else(|| {
                Label::Part("skin vertices").error(
                    profile.vertices_at + 2 * k,
                    ModelErrorKind::OutOfRange {
                        what: "vertex",
                        index: u64::from(v),
                        limit: parts.vertices.len() as u64,
                    },
                )
            })
        })
        .collect::<Result<_>>()?;
    let mut mesh = MeshBuilder {
        vertices,
        ..MeshBuilder::default()
    };
    let triangles = profile.indices.len() / 3 * 3;
    mesh.indices = Vec::with_capacity(triangles);
    for (k, &i) in profile.indices[..triangles].iter().enumerate() {
        if usize::from(i) >= mesh.vertices.len() {
            return Err(Label::Part("skin indices").error(
                profile.indices_at + 2 * k,
                ModelErrorKind::OutOfRange {
                    what: "skin vertex",
                    index: u64::from(i),
                    limit: mesh.vertices.len() as u64,
                },
            ));
        }
        mesh.indices.push(u32::from(i));
    }
    for (n, unit) in profile.units.iter().enumerate() {
        let at = profile.units_at + 24 * n;
        let unit_error = |what, index: u16, limit: usize| {
            Label::Part("texture units").error(
                at,
                ModelErrorKind::OutOfRange {
                    what,
                    index: u64::from(index),
                    limit: limit as u64,
                },
            )
        };
        let submesh = profile
            .submeshes
            .get(usize::from(unit.submesh))
            .ok_or_else(|| unit_error("submesh", unit.submesh, profile.submeshes.len()))?;
        let end = u64::from(submesh.index_start) + u64::from(submesh.index_count);
        if end > mesh.indices.len() as u64 || !submesh.index_count.is_multiple_of(3) {
            return Err(Label::Part("submeshes").error(
                profile.submeshes_at,
                ModelErrorKind::Invalid(format!(
                    "submesh {} spans indices {}..{end} of {}",
                    unit.submesh,
                    submesh.index_start,
                    mesh.indices.len()
                )),
            ));
        }
        let &(flags, blend) = parts
            .render_flags
            .get(usize::from(unit.material))
            .ok_or_else(|| unit_error("material", unit.material, parts.render_flags.len()))?;
        let texture = if unit.texture_count == 0 {
            None
        } else {
            let t = *parts
                .texture_lookup
                .get(usize::from(unit.texture_combo))
                .ok_or_else(|| {
                    unit_error(
                        "texture combo",
                        unit.texture_combo,
                        parts.texture_lookup.len(),
                    )
                })?;
            let texture = parts
                .textures
                .get(usize::from(t))
                .ok_or_else(|| unit_error("texture", t, parts.textures.len()))?;
            Some(texture)
        };
        let material = Material {
            texture: texture.map(|t| mesh.texture(t.source.clone())),
            blend: BlendMode::from_m2(u32::from(blend)),
            unlit: flags & 0x1 != 0,
            unfogged: flags & 0x2 != 0,
            two_sided: flags & 0x4 != 0,
            clamp_s: texture.is_some_and(|t| t.flags & 0x1 == 0),
            clamp_t: texture.is_some_and(|t| t.flags & 0x2 == 0),
        };
        mesh.batches.push(Batch {
            first_index: submesh.index_start,
            index_count: submesh.index_count,
            material,
        });
    }
    Ok(mesh)
}
