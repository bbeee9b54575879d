//! WMO v16 (0.6.0) and v17 (1.x to 3.3.5): a root file (materials, textures, group list,
//! doodads, bounding box) and one `<name>_NNN.wmo` per group (MOGP: vertices, normals, UVs,
//! indices, batches, colours). Also the parts every version shares: the root's chunks as this
//! module decodes them are the ones v14 wraps in MOMO, and a v14 MOGP differs only in its
//! header and record layouts (see `wmo_v14`).
//!
//! Source: wowdev wiki, WMO (`../shared/specs/001_*.txt`). Record sizes that the wiki says
//! changed between versions are chosen per version and checked against the chunk sizes:
//! MOMT 44 bytes in v14 (a version word first, no shader) and possibly v16, 64 in v17; MOGI 40
//! in v14, 32 later; MOPY 4 bytes before v17, 2 in v17; MOBA 24 bytes, possibly 32 in v16.
//!
//! Not for: portals, lights, fog, BSP, liquids, lightmaps, LOD groups (`_lodN`), or WMOs of 8.1
//! and later (texture and doodad file data ids instead of names): those are refused.

use super::bytes::{
    Chunk, Label, c_string, chunks, f32_at, f32_records, string_at, u16_at, u16s, u32_at,
};
use super::error::{ModelErrorKind, Result};
use super::{
    Aabb, Batch, BlendMode, Doodad, DoodadSet, Fetch, Material, MeshBuilder, TextureRef, Vertex,
    WmoGroup, WmoModel,
};

/// The client's hard limit on groups per root.
pub const MAX_GROUPS: u32 = 512;

/// The version in the leading MVER chunk.
pub(super) fn version(bytes: &[u8]) -> Result<u32> {
    let first = chunks(bytes, 0, true)
        .next()
        .ok_or_else(|| Label::Part("file").error(0, ModelErrorKind::Missing("MVER")))??
        .complete()?;
    if &first.tag != b"MVER" {
        return Err(first
            .label()
            .error(0, ModelErrorKind::Invalid("a WMO starts with MVER".into())));
    }
    let version = first.cursor().u32()?;
    if !matches!(version, 14 | 16 | 17) {
        return Err(first.error(0, ModelErrorKind::UnsupportedVersion(version)));
    }
    Ok(version)
}

/// What the root chunks give, whatever the version.
pub(super) struct Root {
    /// MOHD group count.
    pub n_groups: u32,
    /// MOHD's box (absent in v14).
    pub bounds: Option<Aabb>,
    /// MOHD ambColor (RGBA: a `CArgb`), the light of interior groups.
    pub ambient: [u8; 4],
    /// MOHD flags (v17; 0 where the version has none).
    pub flags: u16,
    /// MOMT, resolved to neutral materials with textures from MOTX.
    pub materials: Vec<(Material, Option<TextureRef>)>,
    /// MOGN.
    pub group_names: Vec<u8>,
    /// MOGI boxes.
    pub group_boxes: Vec<Aabb>,
    /// MODS.
    pub doodad_sets: Vec<DoodadSet>,
    /// MODD with MODN names.
    pub doodads: Vec<Doodad>,
}

/// Decodes root chunks (top level in v16/v17, inside MOMO in v14).
pub(super) fn root<'a>(
    root_chunks: impl Iterator<Item = Result<Chunk<'a>>>,
    version: u32,
) -> Result<Root> {
    let mut found: [Option<Chunk>; 8] = [None; 8];
    const NAMES: [&[u8; 4]; 8] = [
        b"MOHD", b"MOTX", b"MOMT", b"MOGN", b"MOGI", b"MODS", b"MODN", b"MODD",
    ];
    let mut modi = None;
    for chunk in root_chunks {
        let chunk = chunk?;
        if let Some(i) = NAMES.iter().position(|n| **n == chunk.tag) {
            // The first of each counts, as in the client.
            if found[i].is_none() {
                found[i] = Some(chunk.complete()?);
            }
        } else if &chunk.tag == b"MODI" {
            modi = Some(chunk);
        }
    }
    let [mohd, motx, momt, mogn, mogi, mods, modn, modd] = found;
    let mohd = mohd.ok_or_else(|| Label::Part("root").error(0, ModelErrorKind::Missing("MOHD")))?;
    let mut h = mohd.cursor();
    let n_materials = h.u32()?;
    let n_groups = h.u32()?;
    if n_groups > MAX_GROUPS {
        return Err(mohd.error(
            4,
            ModelErrorKind::OutOfRange {
                what: "group count",
                index: u64::from(n_groups),
                limit: u64::from(MAX_GROUPS) + 1,
            },
        ));
    }
    h.skip(0x1C - 8)?;
    let ambient = h.array::<4>()?;
    h.skip(4)?;
    let bounds = if version >= 16 {
        Some(Aabb {
            min: h.vec3()?,
            max: h.vec3()?,
        })
    } else {
        None
    };
    // The flags word follows the box in v17 (v16's MOHD may end before it).
    let flags = if version == 17 && h.remaining() >= 2 {
        h.u16()?
    } else {
        0
    };
    let materials = match momt {
        Some(momt) => materials(&momt, motx.as_ref(), n_materials, version)?,
        None => Vec::new(),
    };
    let group_boxes = match mogi {
        Some(mogi) => {
            let (size, bbox) = if version == 14 { (40, 12) } else { (32, 4) };
            records(&mogi, size)?
                .map(|r| Aabb {
                    min: [f32_at(r, bbox), f32_at(r, bbox + 4), f32_at(r, bbox + 8)],
                    max: [
                        f32_at(r, bbox + 12),
                        f32_at(r, bbox + 16),
                        f32_at(r, bbox + 20),
                    ],
                })
                .collect()
        }
        None => Vec::new(),
    };
    let doodads = match modd {
        Some(modd) => {
            if modn.is_none() && modi.is_some() && !modd.payload.is_empty() {
                return Err(modd.error(
                    0,
                    ModelErrorKind::Invalid(
                        "doodads name file data ids (MODI, 8.1 and later): not a classic WMO"
                            .into(),
                    ),
                ));
            }
            doodads(&modd, modn.as_ref())?
        }
        None => Vec::new(),
    };
    let doodad_sets = match mods {
        Some(mods) => doodad_sets(&mods, doodads.len())?,
        None => Vec::new(),
    };
    Ok(Root {
        n_groups,
        bounds,
        ambient,
        flags,
        materials,
        group_names: mogn.map(|c| c.payload.to_vec()).unwrap_or_default(),
        group_boxes,
        doodad_sets,
        doodads,
    })
}

/// Fixed-size records of a chunk, refusing a size that is not a whole number of them.
fn records<'a>(chunk: &Chunk<'a>, size: usize) -> Result<std::slice::ChunksExact<'a, u8>> {
    whole(chunk, size).map(|p| p.chunks_exact(size))
}

/// A chunk's payload, refusing a size that is not a whole number of `size`-byte records.
fn whole<'a>(chunk: &Chunk<'a>, size: usize) -> Result<&'a [u8]> {
    if !chunk.payload.len().is_multiple_of(size) {
        return Err(chunk.error(
            0,
            ModelErrorKind::Invalid(format!(
                "size {} is not a multiple of {size}",
                chunk.payload.len()
            )),
        ));
    }
    Ok(chunk.payload)
}

/// MOMT: flags (0x1 unlit, 0x2 unfogged, 0x4 two-sided, 0x40/0x80 clamp s/t), blend mode and the
/// first texture's offset in MOTX. v14 puts a version word before the flags and has no shader;
/// blend mode and texture offset land at 8 and 12 either way.
fn materials(
    momt: &Chunk,
    motx: Option<&Chunk>,
    declared: u32,
    version: u32,
) -> Result<Vec<(Material, Option<TextureRef>)>> {
    let size = if version == 14 || (declared > 0 && momt.payload.len() == 44 * declared as usize) {
        44
    } else {
        64
    };
    let flags_at = if version == 14 { 4 } else { 0 };
    records(momt, size)?
        .enumerate()
        .map(|(i, r)| {
            let flags = u32_at(r, flags_at);
            let texture_offset = u32_at(r, 12) as usize;
            let texture = match motx {
                Some(motx) => {
                    let name = string_at(motx.payload, texture_offset).ok_or_else(|| {
                        momt.error(
                            size * i + 12,
                            ModelErrorKind::OutOfRange {
                                what: "MOTX offset",
                                index: texture_offset as u64,
                                limit: motx.payload.len() as u64,
                            },
                        )
                    })?;
                    (!name.is_empty()).then_some(TextureRef::File(name))
                }
                // 8.1 and later name textures by file data id and drop MOTX.
                None if texture_offset != 0 => {
                    return Err(momt.error(
                        size * i + 12,
                        ModelErrorKind::Invalid(
                            "texture file data ids without MOTX (8.1 and later): not a classic WMO"
                                .into(),
                        ),
                    ));
                }
                None => None,
            };
            let material = Material {
                texture: None,
                blend: BlendMode::from_egx(u32_at(r, 8)),
                unlit: flags & 0x1 != 0,
                unfogged: flags & 0x2 != 0,
                two_sided: flags & 0x4 != 0,
                clamp_s: flags & 0x40 != 0,
                clamp_t: flags & 0x80 != 0,
            };
            Ok((material, texture))
        })
        .collect()
}

/// MODD (40 bytes: 24-bit MODN offset + flags, position, quaternion, scale, BGRA colour).
fn doodads(modd: &Chunk, modn: Option<&Chunk>) -> Result<Vec<Doodad>> {
    let names: &[u8] = modn.map_or(&[], |c| c.payload);
    records(modd, 40)?
        .enumerate()
        .map(|(i, r)| {
            let word = u32_at(r, 0);
            let offset = (word & 0x00ff_ffff) as usize;
            let model = string_at(names, offset).ok_or_else(|| {
                modd.error(
                    40 * i,
                    ModelErrorKind::OutOfRange {
                        what: "MODN offset",
                        index: offset as u64,
                        limit: names.len() as u64,
                    },
                )
            })?;
            Ok(Doodad {
                model,
                position: [f32_at(r, 4), f32_at(r, 8), f32_at(r, 12)],
                rotation: [f32_at(r, 16), f32_at(r, 20), f32_at(r, 24), f32_at(r, 28)],
                scale: f32_at(r, 32),
                color: [r[38], r[37], r[36], r[39]],
                flags: (word >> 24) as u8,
            })
        })
        .collect()
}

/// MODS (32 bytes: 20-byte name, first doodad, count, padding).
fn doodad_sets(mods: &Chunk, doodads: usize) -> Result<Vec<DoodadSet>> {
    records(mods, 32)?
        .enumerate()
        .map(|(i, r)| {
            let set = DoodadSet {
                name: c_string(&r[..20]),
                first: u32_at(r, 20),
                count: u32_at(r, 24),
            };
            let end = u64::from(set.first) + u64::from(set.count);
            if end > doodads as u64 {
                return Err(mods.error(
                    32 * i + 20,
                    ModelErrorKind::OutOfRange {
                        what: "doodad set end",
                        index: end,
                        limit: doodads as u64 + 1,
                    },
                ));
            }
            Ok(set)
        })
        .collect()
}

/// One group's geometry as its MOGP holds it, before it joins the model's mesh.
pub(super) struct GroupData {
    pub flags: u32,
    pub bounds: Aabb,
    pub name_offset: u32,
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub uvs: Vec<[f32; 2]>,
    pub uvs2: Vec<[f32; 2]>,
    pub colors: Option<Vec<[u8; 4]>>,
    /// Leading vertices of transition batches (the MOCV fix-up treats them apart).
    pub trans_vertices: usize,
    pub indices: Vec<u16>,
    /// Absolute offset of the index list (MOVI, or MOIN in v14).
    pub indices_at: usize,
    pub batches: Vec<RawBatch>,
    /// Per triangle material id (0xFF: collision only), for groups without MOBA.
    pub triangle_materials: Vec<u8>,
    /// Absolute offset of MOPY.
    pub triangle_materials_at: usize,
    pub doodad_refs: Vec<u16>,
}

/// A MOBA record as far as drawing needs it.
pub(super) struct RawBatch {
    pub start: u32,
    pub count: u32,
    pub material: u8,
    /// The last vertex the batch uses (MOBA maxIndex).
    pub max_vertex: u16,
    /// Absolute offset of the record.
    pub at: usize,
}

/// Decodes a MOGP chunk: its header (0x80 bytes in v14, 0x44 later) and its sub-chunks.
pub(super) fn group(mogp: &Chunk, version: u32) -> Result<GroupData> {
    let header_size = if version == 14 { 0x80 } else { 0x44 };
    let mut h = mogp.cursor();
    let header = h.bytes(header_size)?;
    let bounds = Aabb {
        min: [
            f32_at(header, 0x0C),
            f32_at(header, 0x10),
            f32_at(header, 0x14),
        ],
        max: [
            f32_at(header, 0x18),
            f32_at(header, 0x1C),
            f32_at(header, 0x20),
        ],
    };
    // transBatchCount, intBatchCount, extBatchCount (v14's header has none).
    let (trans_batches, batch_total) = if version == 14 {
        (0, 0)
    } else {
        let trans = u16_at(header, 0x28);
        (
            usize::from(trans),
            u32::from(trans) + u32::from(u16_at(header, 0x2A)) + u32::from(u16_at(header, 0x2C)),
        )
    };
    let mut g = GroupData {
        flags: u32_at(header, 8),
        bounds,
        name_offset: u32_at(header, 0),
        positions: Vec::new(),
        normals: Vec::new(),
        uvs: Vec::new(),
        uvs2: Vec::new(),
        colors: None,
        trans_vertices: 0,
        indices: Vec::new(),
        indices_at: 0,
        batches: Vec::new(),
        triangle_materials: Vec::new(),
        triangle_materials_at: 0,
        doodad_refs: Vec::new(),
    };
    let mut mopy = None;
    let mut moba = None;
    let mut have_indices = false;
    for chunk in chunks(
        &mogp.payload[header_size..],
        mogp.payload_offset() + header_size,
        true,
    ) {
        let chunk = chunk?;
        // BSP, lights, liquids and later-expansion chunks are skipped, even cut short.
        const READ: [&[u8; 4]; 9] = [
            b"MOVT", b"MONR", b"MOTV", b"MOVI", b"MOIN", b"MOCV", b"MOPY", b"MOBA", b"MODR",
        ];
        let chunk = if READ.contains(&&chunk.tag) {
            chunk.complete()?
        } else {
            continue;
        };
        match &chunk.tag {
            b"MOVT" => g.positions = f32_records::<3>(whole(&chunk, 12)?),
            b"MONR" => g.normals = f32_records::<3>(whole(&chunk, 12)?),
            // A second MOTV (TVERTS2) is the second UV set.
            b"MOTV" if g.uvs.is_empty() => g.uvs = f32_records::<2>(whole(&chunk, 8)?),
            b"MOTV" if g.uvs2.is_empty() => g.uvs2 = f32_records::<2>(whole(&chunk, 8)?),
            b"MOVI" | b"MOIN" if !have_indices => {
                g.indices = u16s(whole(&chunk, 2)?);
                g.indices_at = chunk.payload_offset();
                have_indices = true;
            }
            b"MOCV" if g.colors.is_none() => {
                g.colors = Some(
                    records(&chunk, 4)?
                        .map(|c| [c[2], c[1], c[0], c[3]])
                        .collect(),
                )
            }
            b"MOPY" => mopy = Some(chunk),
            b"MOBA" => moba = Some(chunk),
            b"MODR" => g.doodad_refs = u16s(whole(&chunk, 2)?),
            _ => {}
        }
    }
    let n = g.positions.len();
    if !have_indices {
        // v14 lists every triangle's corners in order when MOIN is absent.
        g.indices = (0..n.min(1 << 16) as u32).map(|i| i as u16).collect();
        g.indices_at = mogp.payload_offset();
    }
    if g.colors.as_ref().is_some_and(Vec::is_empty) {
        g.colors = None;
    }
    // A missing (empty) normal or UV list reads as zeros; a list of another length is damage.
    for (what, len, chunk) in [
        ("MONR", g.normals.len(), b"MONR"),
        ("MOTV", g.uvs.len(), b"MOTV"),
        ("MOTV", g.uvs2.len(), b"MOTV"),
        ("MOCV", g.colors.as_ref().map_or(n, Vec::len), b"MOCV"),
    ] {
        if len != n && len != 0 {
            return Err(Label::Tag(*chunk).error(
                mogp.offset,
                ModelErrorKind::Invalid(format!("{len} {what} entries for {n} vertices")),
            ));
        }
    }
    if let Some(moba) = moba {
        g.batches = batches(&moba, version, batch_total)?;
        // As the client: the vertices up to the last transition batch's maxIndex.
        if let Some(last) = trans_batches.checked_sub(1).and_then(|i| g.batches.get(i)) {
            g.trans_vertices = usize::from(last.max_vertex) + 1;
        }
    }
    if let Some(mopy) = mopy {
        let triangles = g.indices.len() / 3;
        let (size, material) =
            if version < 17 || (triangles > 0 && mopy.payload.len() == 4 * triangles) {
                (4, 2)
            } else {
                (2, 1)
            };
        g.triangle_materials = records(&mopy, size)?.map(|r| r[material]).collect();
        g.triangle_materials_at = mopy.payload_offset();
    }
    Ok(g)
}

/// MOBA. v14: material id in byte 1, u16 start index at 14; later: u32 start index at 12 and
/// the material id in byte 23. Count at 16 and maxIndex at 20 either way.
fn batches(moba: &Chunk, version: u32, declared: u32) -> Result<Vec<RawBatch>> {
    let size = if version == 16 && declared > 0 && moba.payload.len() == 32 * declared as usize {
        32
    } else {
        24
    };
    Ok(records(moba, size)?
        .enumerate()
        .map(|(i, r)| {
            let (start, material) = if version == 14 {
                (u32::from(u16_at(r, 14)), r[1])
            } else {
                (u32_at(r, 12), r[23])
            };
            RawBatch {
                start,
                count: u32::from(u16_at(r, 16)),
                material,
                max_vertex: u16_at(r, 20),
                at: moba.payload_offset() + size * i,
            }
        })
        .collect())
}

/// Reads a v16/v17 root and fetches its groups.
pub(super) fn read(path: &str, bytes: &[u8], version: u32, fetch: Fetch) -> Result<WmoModel> {
    let root = root(chunks(bytes, 0, true), version)?;
    let (stem, ext) = path
        .rfind('.')
        .map_or((path, ".wmo"), |dot| path.split_at(dot));
    let mut groups = Vec::new();
    let mut missing = Vec::new();
    for i in 0..root.n_groups {
        let name = format!("{stem}_{i:03}{ext}");
        let Some(group_bytes) = fetch(&name) else {
            missing.push(i);
            continue;
        };
        let data = group_file(&group_bytes, version).map_err(|e| e.in_file(&name))?;
        groups.push((i, name, data));
    }
    assemble(version, root, groups, missing)
}

/// A group file: MVER, then one MOGP (other top-level chunks are skipped).
fn group_file(bytes: &[u8], version: u32) -> Result<GroupData> {
    for chunk in chunks(bytes, 0, true) {
        let chunk = chunk?;
        if &chunk.tag == b"MOGP" {
            return group(&chunk.complete()?, version);
        }
    }
    Err(Label::Part("file").error(0, ModelErrorKind::Missing("MOGP")))
}

/// Joins the groups into one mesh and gathers what placing the WMO needs. `groups` holds each
/// group's number, the file it came from (for errors) and its data.
pub(super) fn assemble(
    version: u32,
    root: Root,
    groups: Vec<(u32, String, GroupData)>,
    missing_groups: Vec<u32>,
) -> Result<WmoModel> {
    let mut mesh = MeshBuilder::default();
    let materials: Vec<Material> = root
        .materials
        .iter()
        .map(|(m, t)| Material {
            texture: t.clone().map(|t| mesh.texture(t)),
            ..*m
        })
        .collect();
    let mut out_groups = Vec::with_capacity(groups.len());
    let mut colors: Vec<(usize, Option<Vec<[u8; 4]>>)> = Vec::new();
    for (index, file, g) in groups {
        let group = add_group(&mut mesh, &materials, index, &root.group_names, &g)
            .map_err(|e| e.in_file(&file))?;
        colors.push((g.positions.len(), g.colors));
        out_groups.push(group);
    }
    if colors.iter().any(|(_, c)| c.is_some()) {
        let mut all = Vec::with_capacity(mesh.vertices.len());
        for (n, c) in colors {
            match c {
                Some(c) => all.extend(c),
                None => all.extend(std::iter::repeat_n([255, 255, 255, 255], n)),
            }
        }
        mesh.colors = Some(all);
    }
    let mesh = mesh.finish();
    // v14 has no MOHD box: the client computed it from the group boxes on load.
    let bounds = root.bounds.unwrap_or_else(|| {
        let boxes = if root.group_boxes.is_empty() {
            out_groups.iter().map(|g| g.bounds).collect()
        } else {
            root.group_boxes.clone()
        };
        boxes.into_iter().reduce(Aabb::union).unwrap_or(mesh.bounds)
    });
    Ok(WmoModel {
        version,
        mesh,
        groups: out_groups,
        missing_groups,
        doodad_sets: root.doodad_sets,
        doodads: root.doodads,
        bounds,
        ambient: root.ambient,
        flags: root.flags,
    })
}

fn add_group(
    mesh: &mut MeshBuilder,
    materials: &[Material],
    index: u32,
    group_names: &[u8],
    g: &GroupData,
) -> Result<WmoGroup> {
    let base = mesh.vertices.len() as u32;
    let first_index = mesh.indices.len() as u32;
    let first_batch = mesh.batches.len();
    let n = g.positions.len();
    let at = |v: &[[f32; 2]], i: usize| v.get(i).copied().unwrap_or_default();
    mesh.vertices.extend((0..n).map(|i| Vertex {
        position: g.positions[i],
        normal: g.normals.get(i).copied().unwrap_or_default(),
        uv: at(&g.uvs, i),
        uv2: at(&g.uvs2, i),
    }));
    let triangles = g.indices.len() / 3 * 3;
    for (k, &i) in g.indices[..triangles].iter().enumerate() {
        if usize::from(i) >= n {
            return Err(Label::Part("indices").error(
                g.indices_at + 2 * k,
                ModelErrorKind::OutOfRange {
                    what: "vertex",
                    index: u64::from(i),
                    limit: n as u64,
                },
            ));
        }
        mesh.indices.push(base + u32::from(i));
    }
    let material = |id: u8, at: usize, label: &'static [u8; 4]| {
        materials.get(usize::from(id)).copied().ok_or_else(|| {
            Label::Tag(*label).error(
                at,
                ModelErrorKind::OutOfRange {
                    what: "material",
                    index: u64::from(id),
                    limit: materials.len() as u64,
                },
            )
        })
    };
    if !g.batches.is_empty() {
        for b in &g.batches {
            let end = u64::from(b.start) + u64::from(b.count);
            if end > triangles as u64 || !b.count.is_multiple_of(3) {
                return Err(Label::Tag(*b"MOBA").error(
                    b.at,
                    ModelErrorKind::Invalid(format!(
                        "batch spans indices {}..{end} of {triangles}",
                        b.start
                    )),
                ));
            }
            mesh.batches.push(Batch {
                first_index: first_index + b.start,
                index_count: b.count,
                material: material(b.material, b.at, b"MOBA")?,
            });
        }
    } else {
        // No MOBA: runs of triangles with one MOPY material, collision-only (0xFF) left out.
        let mut t = 0;
        let per_triangle = &g.triangle_materials;
        while t < triangles / 3 {
            let id = per_triangle.get(t).copied().unwrap_or(0xFF);
            let run = per_triangle
                .get(t..)
                .unwrap_or(&[])
                .iter()
                .take(triangles / 3 - t)
                .take_while(|&&m| m == id)
                .count()
                .max(1);
            if id != 0xFF {
                mesh.batches.push(Batch {
                    first_index: first_index + 3 * t as u32,
                    index_count: 3 * run as u32,
                    material: material(id, g.triangle_materials_at, b"MOPY")?,
                });
            }
            t += run;
        }
    }
    Ok(WmoGroup {
        index,
        name: string_at(group_names, g.name_offset as usize).unwrap_or_default(),
        flags: g.flags,
        bounds: g.bounds,
        batches: first_batch..mesh.batches.len(),
        vertices: base..base + n as u32,
        has_vertex_colors: g.colors.is_some(),
        trans_vertices: g.trans_vertices as u32,
        doodad_refs: g.doodad_refs.clone(),
    })
}
