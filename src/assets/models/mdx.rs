//! MDX (`MDLX`, versions 1300 and 1400: the 0.5.x clients' models, Warcraft III's format as
//! World of Warcraft's alpha used it). Chunks are `tag + u32 size + payload` with tags in reading
//! order. Read: VERS, MODL (name, extent), TEXS (paths, replaceable ids), MTLS (layers: filter
//! mode, shading flags, texture), GEOS (VRTX, NRMS, UVAS, PTYP/PCNT/PVTX, GNDX/MTGC/MATS, material
//! id); bones, helpers, pivots and sequences go to `mdx_anim` for the rig, on a best-effort
//! basis; every other chunk (particles, collision…) is skipped by its size.
//!
//! Sources: barncastle/wow-mdx-viewer (`src/formats/mdx/modelreader.ts`, `model.ts`), checked
//! against the three 0.5.3 corpus files: every chunk walk ends exactly at the end of the file,
//! every geoset's sub-chunks end exactly at its inclusive size.

use super::animation::Influence;
use super::bytes::{Chunk, Cursor, Label, c_string, chunks, f32_records, u16s, u32_at};
use super::error::{ModelErrorKind, Result};
use super::mdx_anim::{self, AnimChunks};
use super::{
    Aabb, Batch, BlendMode, Material, MeshBuilder, Model, ModelFormat, TextureRef, Vertex,
};

/// A TEXS record: replaceable id, 260-byte path, flags.
const TEXTURE_SIZE: usize = 268;

/// PTYP value for a triangle list (the only primitive the corpus, and the client's exporter,
/// writes).
const TRIANGLES: u8 = 4;

/// A TEXS entry.
struct Texture {
    source: TextureRef,
    /// 0x1 wraps in s (width), 0x2 in t (height); clamped otherwise.
    flags: u32,
}

/// The static state of one MTLS layer.
struct Layer {
    filter_mode: u32,
    shading: u32,
    texture: u32,
    /// Absolute offset of the layer (for errors about its texture id).
    at: usize,
}

pub(super) fn read(bytes: &[u8]) -> Result<Model> {
    match bytes.get(0..4) {
        Some(b"MDLX") => {}
        Some(m) => {
            return Err(Label::Part("file")
                .error(0, ModelErrorKind::UnknownMagic([m[0], m[1], m[2], m[3]])));
        }
        None => {
            return Err(Label::Part("file").error(
                0,
                ModelErrorKind::Truncated {
                    needed: 4,
                    available: bytes.len() as u64,
                },
            ));
        }
    }
    let mut version = None;
    let mut modl = None;
    let mut texs = None;
    let mut mtls = None;
    let mut geos = None;
    let mut anim = AnimChunks::default();
    for chunk in chunks(&bytes[4..], 4, false) {
        let chunk = chunk?;
        match &chunk.tag {
            b"VERS" => version = Some(chunk.complete()?.cursor().u32()?),
            b"MODL" => modl = Some(chunk.complete()?),
            b"TEXS" => texs = Some(chunk.complete()?),
            b"MTLS" => mtls = Some(chunk.complete()?),
            b"GEOS" => geos = Some(chunk.complete()?),
            // Animation chunks cut short lose the model its motion only.
            b"SEQS" => anim.sequences = chunk.complete().ok(),
            b"GLBS" => anim.global_sequences = chunk.complete().ok(),
            b"BONE" => anim.bones = chunk.complete().ok(),
            b"HELP" => anim.helpers = chunk.complete().ok(),
            b"PIVT" => anim.pivots = chunk.complete().ok(),
            // Everything else (particles, collision…) is skipped, even cut short at the end of
            // the file.
            _ => {}
        }
    }
    let version =
        version.ok_or_else(|| Label::Part("file").error(4, ModelErrorKind::Missing("VERS")))?;
    if !(1300..=1400).contains(&version) {
        return Err(Label::Tag(*b"VERS").error(12, ModelErrorKind::UnsupportedVersion(version)));
    }
    let modl = modl.ok_or_else(|| Label::Part("file").error(4, ModelErrorKind::Missing("MODL")))?;
    let (name, file_bounds) = model_info(&modl)?;
    let textures = match texs {
        Some(c) => textures(&c)?,
        None => Vec::new(),
    };
    let materials = match mtls {
        Some(c) => materials(&c)?,
        None => Vec::new(),
    };
    let mut mesh = MeshBuilder::default();
    let mut groups = Vec::new();
    if let Some(c) = geos {
        geosets(&c, &textures, &materials, &mut mesh, &mut groups)?;
    }
    let rig = mdx_anim::read(&anim, &groups).ok().flatten();
    let (mesh, rig) = super::settle(mesh.finish(), rig);
    Ok(Model {
        format: ModelFormat::Mdx,
        version,
        name,
        mesh,
        file_bounds,
        rig,
    })
}

/// MODL: an 80-byte name, a 260-byte animation file name, then the extent (radius, min, max).
fn model_info(chunk: &Chunk) -> Result<(String, Aabb)> {
    let mut c = chunk.cursor();
    let name = c_string(c.bytes(80)?);
    c.skip(260)?;
    let (_, bounds) = extent(&mut c)?;
    Ok((name, bounds))
}

/// An extent: bounds radius, then the box.
fn extent(c: &mut Cursor) -> Result<(f32, Aabb)> {
    let radius = c.f32()?;
    let min = c.vec3()?;
    let max = c.vec3()?;
    Ok((radius, Aabb { min, max }))
}

fn textures(chunk: &Chunk) -> Result<Vec<Texture>> {
    if !chunk.payload.len().is_multiple_of(TEXTURE_SIZE) {
        return Err(chunk.error(
            0,
            ModelErrorKind::Invalid(format!(
                "size {} is not a multiple of {TEXTURE_SIZE}",
                chunk.payload.len()
            )),
        ));
    }
    Ok(chunk
        .payload
        .chunks_exact(TEXTURE_SIZE)
        .map(|r| {
            let replaceable = u32_at(r, 0);
            let path = c_string(&r[4..264]);
            // A replaceable id names the texture; the path is then empty (Boar: id 11).
            let source = if replaceable != 0 {
                TextureRef::Replaceable(replaceable)
            } else {
                TextureRef::File(path)
            };
            Texture {
                source,
                flags: u32_at(r, 264),
            }
        })
        .collect())
}

/// MTLS: `count, unused`, then materials of `inclusive size, priority plane, layer count` and
/// layers of `inclusive size, filter mode, shading, texture id, …` followed by animation tracks
/// (KMTA, KMTF) that the sizes let us skip.
fn materials(chunk: &Chunk) -> Result<Vec<Vec<Layer>>> {
    let mut c = chunk.cursor();
    let count = c.count(12)?;
    c.u32()?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let at = c.offset();
        let size = c.u32()? as usize;
        let body = c.bytes(size.checked_sub(4).ok_or_else(|| {
            Label::Tag(chunk.tag)
                .error(at, ModelErrorKind::Invalid(format!("material size {size}")))
        })?)?;
        let mut m = Cursor::new(body, at + 4, Label::Tag(chunk.tag));
        m.u32()?; // priority plane
        let layers = m.count(28)?;
        let mut material = Vec::with_capacity(layers);
        for _ in 0..layers {
            let layer_at = m.offset();
            let layer_size = m.u32()? as usize;
            if layer_size < 28 {
                return Err(Label::Tag(chunk.tag).error(
                    layer_at,
                    ModelErrorKind::Invalid(format!("layer size {layer_size}")),
                ));
            }
            let mut l = Cursor::new(
                m.bytes(layer_size - 4)?,
                layer_at + 4,
                Label::Tag(chunk.tag),
            );
            material.push(Layer {
                filter_mode: l.u32()?,
                shading: l.u32()?,
                texture: l.u32()?,
                at: layer_at,
            });
        }
        out.push(material);
    }
    Ok(out)
}

/// GEOS: `count`, then geosets of `inclusive size` and sub-chunks `tag + count + data`, then
/// material id, selection group, flags, extent and per-animation extents.
fn geosets(
    chunk: &Chunk,
    textures: &[Texture],
    materials: &[Vec<Layer>],
    mesh: &mut MeshBuilder,
    groups: &mut Vec<Influence>,
) -> Result<()> {
    let mut c = chunk.cursor();
    let count = c.count(4)?;
    for _ in 0..count {
        let at = c.offset();
        let size = c.u32()? as usize;
        let body = c.bytes(size.checked_sub(4).ok_or_else(|| {
            Label::Tag(*b"GEOS").error(at, ModelErrorKind::Invalid(format!("geoset size {size}")))
        })?)?;
        geoset(
            &mut Cursor::new(body, at + 4, Label::Tag(*b"GEOS")),
            at,
            textures,
            materials,
            mesh,
            groups,
        )?;
    }
    Ok(())
}

fn geoset(
    g: &mut Cursor,
    at: usize,
    textures: &[Texture],
    materials: &[Vec<Layer>],
    mesh: &mut MeshBuilder,
    groups: &mut Vec<Influence>,
) -> Result<()> {
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut normals: Vec<[f32; 3]> = Vec::new();
    let mut uv_sets: Vec<Vec<[f32; 2]>> = Vec::new();
    let mut kinds: &[u8] = &[];
    let mut faces: Vec<u16> = Vec::new();
    let mut faces_at = 0;
    let mut vertex_groups: &[u8] = &[];
    let mut group_sizes: Vec<u32> = Vec::new();
    let mut matrices: Vec<u32> = Vec::new();
    // Sub-chunks in the order the exporter writes them; the first word that is no known tag is
    // the material id that ends them.
    loop {
        let tag_at = g.offset();
        let mut peek = g.clone();
        let Ok(tag) = peek.array::<4>() else { break };
        let size = match &tag {
            b"VRTX" | b"NRMS" => 12,
            b"UVAS" => 0,
            b"PTYP" | b"GNDX" => 1,
            b"PVTX" => 2,
            b"PCNT" | b"MTGC" | b"MATS" | b"BIDX" | b"BWGT" => 4,
            _ => break,
        };
        let mut sub = peek.relabel(Label::Tag(tag));
        if &tag == b"UVAS" {
            // v1300: a set count, then per set one UV pair per vertex (the count is checked
            // against what is left even for a geoset without vertices).
            let vertices = positions.len();
            let sets = sub.count((8 * vertices).max(1))?;
            for _ in 0..sets {
                uv_sets.push(f32_records::<2>(sub.records(vertices, 8)?));
            }
            *g = sub.relabel(Label::Tag(*b"GEOS"));
            continue;
        }
        let n = sub.count(size)?;
        let data = sub.records(n, size)?;
        match &tag {
            b"VRTX" => positions = f32_records::<3>(data),
            b"NRMS" => normals = f32_records::<3>(data),
            b"PTYP" => kinds = data,
            b"GNDX" => vertex_groups = data,
            b"MTGC" => group_sizes = u32s(data),
            b"MATS" => matrices = u32s(data),
            b"PVTX" => {
                faces = u16s(data);
                faces_at = tag_at + 8;
            }
            _ => {}
        }
        *g = sub.relabel(Label::Tag(*b"GEOS"));
    }
    let material_at = g.offset();
    let material_id = g.u32()?;

    if let Some(&kind) = kinds.iter().find(|&&k| k != TRIANGLES) {
        return Err(Label::Tag(*b"PTYP").error(
            at,
            ModelErrorKind::Invalid(format!(
                "primitive type {kind} (only triangle lists are read)"
            )),
        ));
    }
    if normals.len() != positions.len() {
        return Err(Label::Tag(*b"NRMS").error(
            at,
            ModelErrorKind::Invalid(format!(
                "{} normals for {} vertices",
                normals.len(),
                positions.len()
            )),
        ));
    }
    let base = mesh.vertices.len() as u32;
    let first_index = mesh.indices.len() as u32;
    let uv = |set: usize, i: usize| {
        uv_sets
            .get(set)
            .and_then(|s| s.get(i))
            .copied()
            .unwrap_or_default()
    };
    mesh.vertices.extend(
        positions
            .iter()
            .zip(&normals)
            .enumerate()
            .map(|(i, (&p, &n))| Vertex {
                position: p,
                normal: n,
                uv: uv(0, i),
                uv2: uv(1, i),
            }),
    );
    groups.extend(
        (0..positions.len())
            .map(|i| group_influence(vertex_groups.get(i), &group_sizes, &matrices)),
    );
    let triangles = faces.len() / 3 * 3;
    for (k, &f) in faces[..triangles].iter().enumerate() {
        if usize::from(f) >= positions.len() {
            return Err(Label::Tag(*b"PVTX").error(
                faces_at + 2 * k,
                ModelErrorKind::OutOfRange {
                    what: "vertex",
                    index: u64::from(f),
                    limit: positions.len() as u64,
                },
            ));
        }
        mesh.indices.push(base + u32::from(f));
    }
    let layers = materials.get(material_id as usize).ok_or_else(|| {
        Label::Tag(*b"GEOS").error(
            material_at,
            ModelErrorKind::OutOfRange {
                what: "material id",
                index: u64::from(material_id),
                limit: materials.len() as u64,
            },
        )
    })?;
    // One batch per layer: a layered material draws the geoset once per layer, in order.
    for layer in layers {
        let texture = textures.get(layer.texture as usize).ok_or_else(|| {
            Label::Tag(*b"MTLS").error(
                layer.at + 12,
                ModelErrorKind::OutOfRange {
                    what: "texture id",
                    index: u64::from(layer.texture),
                    limit: textures.len() as u64,
                },
            )
        })?;
        let material = Material {
            texture: Some(mesh.texture(texture.source.clone())),
            blend: BlendMode::from_m2(layer.filter_mode),
            unlit: layer.shading & 0x1 != 0,
            two_sided: layer.shading & 0x10 != 0,
            unfogged: layer.shading & 0x20 != 0,
            clamp_s: texture.flags & 0x1 == 0,
            clamp_t: texture.flags & 0x2 == 0,
        };
        mesh.batches.push(Batch {
            first_index,
            index_count: triangles as u32,
            material,
        });
    }
    Ok(())
}

/// Packed little-endian u32s.
fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|r| u32_at(r, 0)).collect()
}

/// The object ids a vertex in matrix group `group` follows, equally weighted (at most four:
/// the corpus's groups have one to three). No group: no influence (the bind pose stays).
fn group_influence(group: Option<&u8>, sizes: &[u32], matrices: &[u32]) -> Influence {
    let Some(&g) = group else {
        return Influence::default();
    };
    let g = usize::from(g);
    let Some(&size) = sizes.get(g) else {
        return Influence::default();
    };
    let start: usize = sizes[..g].iter().map(|&s| s as usize).sum();
    let ids: Vec<u32> = matrices
        .iter()
        .skip(start)
        .take((size as usize).min(4))
        .copied()
        .collect();
    let mut out = Influence::default();
    for (i, &id) in ids.iter().enumerate() {
        out.bones[i] = u16::try_from(id).unwrap_or(u16::MAX);
        out.weights[i] = 1.0 / ids.len() as f32;
    }
    out
}
