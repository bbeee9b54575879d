//! Writers of WMO files the corpus lacks, byte by byte from the wowdev wiki's WMO page
//! (`../shared/specs/001_*.txt`): the single-file v14 of 0.5.x (no real one could be found) and
//! a v16 root and group. They share nothing with the readers under test: every offset and
//! record layout here is written out from the spec's structs.
#![allow(dead_code)]

/// A chunk as WMO files store it: byte-reversed tag, size, payload.
pub fn chunk(tag: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    let mut out = vec![tag[3], tag[2], tag[1], tag[0]];
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

fn u32s(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn u16s(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A material as the builders take it.
#[derive(Debug, Clone, Copy)]
pub struct Mat {
    /// SMOMaterial flags (0x1 unlit, 0x4 two-sided, 0x40 clamp s…).
    pub flags: u32,
    /// EGxBlend.
    pub blend: u32,
    /// Offset of the first texture in MOTX.
    pub texture: u32,
}

/// A group as the builders take it: triangle corners (positions), per-corner normal and UV,
/// optional colours (BGRA), optional index list, batches `(material, start, count)`.
#[derive(Debug, Clone)]
pub struct Group {
    pub name_offset: u32,
    pub flags: u32,
    /// The box the MOGP header declares.
    pub header_box: [f32; 6],
    /// The box MOGI declares.
    pub info_box: [f32; 6],
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub uvs: Vec<[f32; 2]>,
    pub colors_bgra: Option<Vec<[u8; 4]>>,
    /// MOIN (v14) / MOVI (v16); `None` writes no index chunk.
    pub indices: Option<Vec<u16>>,
    /// (material, first index, index count).
    pub batches: Vec<(u8, u16, u16)>,
    /// Per triangle material id for MOPY.
    pub triangle_materials: Vec<u8>,
}

/// MOTX of the test files: two names at offsets 0 and 8 (padded to 4 bytes, as exporters do).
pub const MOTX: &[u8] = b"A.BLP\0\0\0DIR\\B.BLP\0\0";
/// Offset of `DIR\B.BLP` in [`MOTX`].
pub const TEXTURE_B: u32 = 8;
/// MODN of the test files.
pub const MODN: &[u8] = b"\0WORLD\\CHAIR.MDX\0\0\0";

/// Root chunks shared by both versions, in the order the client writes them.
fn root_chunks(version: u32, materials: &[Mat], groups: &[Group], mohd_box: [f32; 6]) -> Vec<u8> {
    let mut out = Vec::new();
    // MOHD: nTextures (materials), nGroups, nPortals, nLights, nDoodadNames, nDoodadDefs,
    // nDoodadSets, ambColor, wmoID; v14 pads 0x1c bytes where later versions keep the box and
    // flags.
    let mut mohd = u32s(&[
        materials.len() as u32,
        groups.len() as u32,
        0,
        0,
        1,
        1,
        2,
        0xff10_2030,
        77,
    ]);
    if version == 14 {
        mohd.extend_from_slice(&[0; 0x1c]);
    } else {
        mohd.extend(f32s(&mohd_box));
        mohd.extend_from_slice(&[0; 4]);
    }
    assert_eq!(mohd.len(), 64);
    out.extend(chunk(b"MOHD", &mohd));
    out.extend(chunk(b"MOTX", MOTX));
    // MOMT: v14 = version, flags, blendMode, texture_1, sidnColor, frameSidnColor, texture_2,
    // diffColor, ground_type, inMemPad[8] (44 bytes); v16 = flags, shader, blendMode,
    // texture_1, … the same 44 bytes.
    let mut momt = Vec::new();
    for m in materials {
        let first = if version == 14 {
            [1, m.flags]
        } else {
            [m.flags, 0]
        };
        let mut rec = u32s(&[
            first[0],
            first[1],
            m.blend,
            m.texture,
            0,
            0,
            0,
            0xffff_ffff,
            0,
        ]);
        rec.extend_from_slice(&[0; 8]);
        assert_eq!(rec.len(), 44);
        momt.extend(rec);
    }
    out.extend(chunk(b"MOMT", &momt));
    out.extend(chunk(b"MOGN", b"\0hall\0cellar\0\0\0\0"));
    // MOGI: v14 = offset, size, flags, bounding box, name offset (40 bytes); later 32 bytes
    // without the first two. Offsets are left 0: nothing reads them.
    let mut mogi = Vec::new();
    for g in groups {
        if version == 14 {
            mogi.extend(u32s(&[0, 0]));
        }
        mogi.extend(u32s(&[g.flags]));
        mogi.extend(f32s(&g.info_box));
        mogi.extend(u32s(&[g.name_offset]));
    }
    out.extend(chunk(b"MOGI", &mogi));
    // MODS: name[20], startIndex, count, pad.
    let mut mods = Vec::new();
    for (name, start, count) in [("Set_$DefaultGlobal", 0u32, 1u32), ("Set_Empty", 1, 0)] {
        let mut n = [0u8; 20];
        n[..name.len()].copy_from_slice(name.as_bytes());
        mods.extend_from_slice(&n);
        mods.extend(u32s(&[start, count, 0]));
    }
    out.extend(chunk(b"MODS", &mods));
    out.extend(chunk(b"MODN", MODN));
    // MODD: nameIndex (24 bits) | flags << 24, position, orientation (x, y, z, w), scale,
    // colour as B, G, R, A bytes.
    let mut modd = u32s(&[1 | (0x1 << 24)]);
    let half_turn_z = std::f32::consts::FRAC_1_SQRT_2; // 90° about z: (0, 0, sin 45°, cos 45°)
    modd.extend(f32s(&[
        1.0,
        2.0,
        3.0,
        0.0,
        0.0,
        half_turn_z,
        half_turn_z,
        1.5,
    ]));
    modd.extend_from_slice(&[10, 20, 30, 255]);
    out.extend(chunk(b"MODD", &modd));
    out
}

/// A MOGP chunk. v14 header (0x80 bytes): groupName, descriptiveGroupName, flags, box,
/// portalStart (u32), portalCount (u32), fogIds[4], groupLiquid, intBatch[4], extBatch[4]
/// (8 bytes each), uniqueID, padding[8]. v16 header (0x44): … box, portalStart (u16),
/// portalCount (u16), transBatchCount, intBatchCount, extBatchCount, padding (u16 each),
/// fogIds[4], groupLiquid, uniqueID, flags2, unknown.
pub fn mogp(version: u32, g: &Group) -> Vec<u8> {
    let mut p = u32s(&[g.name_offset, 0, g.flags]);
    p.extend(f32s(&g.header_box));
    if version == 14 {
        p.extend(u32s(&[0, 0])); // portals
        p.extend_from_slice(&[0; 4]); // fogs
        p.extend(u32s(&[0])); // liquid
        p.extend_from_slice(&[0; 64]); // intBatch, extBatch
        p.extend(u32s(&[0])); // uniqueID
        p.extend_from_slice(&[0; 8]);
        assert_eq!(p.len(), 0x80);
    } else {
        p.extend(u16s(&[0, 0, 0, g.batches.len() as u16, 0, 0]));
        p.extend_from_slice(&[0; 4]);
        p.extend(u32s(&[0, 0, 0, 0]));
        assert_eq!(p.len(), 0x44);
    }
    // MOPY: 4 bytes per triangle before v17: flags, lightmapTex, material_id, padding.
    let mopy: Vec<u8> = g
        .triangle_materials
        .iter()
        .flat_map(|&m| [0x20, 0, m, 0])
        .collect();
    p.extend(chunk(b"MOPY", &mopy));
    if version != 14
        && let Some(ix) = &g.indices
    {
        p.extend(chunk(b"MOVI", &u16s(ix)));
    }
    p.extend(chunk(
        b"MOVT",
        &f32s(&g.positions.iter().flatten().copied().collect::<Vec<_>>()),
    ));
    p.extend(chunk(
        b"MONR",
        &f32s(&g.normals.iter().flatten().copied().collect::<Vec<_>>()),
    ));
    p.extend(chunk(
        b"MOTV",
        &f32s(&g.uvs.iter().flatten().copied().collect::<Vec<_>>()),
    ));
    if version == 14
        && let Some(ix) = &g.indices
    {
        p.extend(chunk(b"MOIN", &u16s(ix)));
    }
    // MOBA, 24 bytes. v14: lightMap, texture (material), box (6 × i16), startIndex (u16),
    // count, minIndex, maxIndex (u16 each), flags, padding. v16: box, startIndex (u32), count,
    // minIndex, maxIndex, flags, material_id.
    let mut moba = Vec::new();
    for &(material, start, count) in &g.batches {
        let max = g.positions.len().saturating_sub(1) as u16;
        if version == 14 {
            moba.extend_from_slice(&[0, material]);
            moba.extend_from_slice(&[0; 12]);
            moba.extend(u16s(&[start, count, 0, max]));
            moba.extend_from_slice(&[0, 0]);
        } else {
            moba.extend_from_slice(&[0; 12]);
            moba.extend(u32s(&[u32::from(start)]));
            moba.extend(u16s(&[count, 0, max]));
            moba.extend_from_slice(&[0, material]);
        }
    }
    p.extend(chunk(b"MOBA", &moba));
    if let Some(c) = &g.colors_bgra {
        p.extend(chunk(
            b"MOCV",
            &c.iter().flatten().copied().collect::<Vec<_>>(),
        ));
    }
    chunk(b"MOGP", &p)
}

/// The two materials of the test files: unlit + two-sided alpha-keyed `A.BLP`, and additive
/// clamped `DIR\B.BLP`.
pub fn materials() -> Vec<Mat> {
    vec![
        Mat {
            flags: 0x1 | 0x4,
            blend: 1,
            texture: 0,
        },
        Mat {
            flags: 0x40 | 0x80,
            blend: 3,
            texture: TEXTURE_B,
        },
    ]
}

/// Two groups: a quad of two triangles written as six corners with an index list and colours,
/// and a single triangle without an index list (v14 then draws the corners in order).
pub fn groups() -> Vec<Group> {
    let quad = vec![
        [0.0, 0.0, 0.0],
        [4.0, 0.0, 0.0],
        [4.0, 4.0, 0.0],
        [0.0, 0.0, 0.0],
        [4.0, 4.0, 0.0],
        [0.0, 4.0, 0.0],
    ];
    let tri = vec![[10.0, 0.0, 1.0], [12.0, 0.0, 1.0], [10.0, 2.0, 5.0]];
    vec![
        Group {
            name_offset: 1,
            flags: 0x2000 | 0x4,
            header_box: [0.0, 0.0, 0.0, 4.0, 4.0, 0.0],
            info_box: [-1.0, -1.0, -1.0, 5.0, 5.0, 1.0],
            normals: vec![[0.0, 0.0, 1.0]; 6],
            uvs: quad.iter().map(|p| [p[0] / 4.0, p[1] / 4.0]).collect(),
            positions: quad,
            colors_bgra: Some(vec![[1, 2, 3, 4]; 6]),
            indices: Some(vec![0, 1, 2, 3, 4, 5]),
            batches: vec![(0, 0, 6)],
            triangle_materials: vec![0, 0],
        },
        Group {
            name_offset: 6,
            flags: 0x8,
            header_box: [10.0, 0.0, 1.0, 12.0, 2.0, 5.0],
            info_box: [9.0, -2.0, 0.0, 13.0, 3.0, 6.0],
            normals: vec![[0.0, -1.0, 0.0]; 3],
            uvs: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
            positions: tri,
            colors_bgra: None,
            indices: None,
            batches: vec![(1, 0, 3)],
            triangle_materials: vec![1],
        },
    ]
}

/// A v14 file: MVER 14, MOMO wrapping the root chunks, then every group's MOGP.
pub fn v14_file(groups: &[Group]) -> Vec<u8> {
    let mut out = chunk(b"MVER", &u32s(&[14]));
    out.extend(chunk(
        b"MOMO",
        &root_chunks(14, &materials(), groups, [0.0; 6]),
    ));
    for g in groups {
        out.extend(mogp(14, g));
    }
    out
}

/// A v16 root (with `mohd_box`) and its group files, `[root, _000, _001…]`.
pub fn v16_files(groups: &[Group], mohd_box: [f32; 6]) -> Vec<Vec<u8>> {
    let mut root = chunk(b"MVER", &u32s(&[16]));
    root.extend(root_chunks(16, &materials(), groups, mohd_box));
    let mut files = vec![root];
    for g in groups {
        let mut gf = chunk(b"MVER", &u32s(&[16]));
        let mut g = g.clone();
        // v16 has MOVI; give the second group one too (v16 has no v14-style corner order).
        g.indices
            .get_or_insert_with(|| (0..g.positions.len() as u16).collect());
        gf.extend(mogp(16, &g));
        files.push(gf);
    }
    files
}

/// A 3.3.5 (version 264) M2 and its `.skin` rewritten as an M2 of `version` (256–263) with the
/// skin embedded, following the wowdev wiki's header: up to 263 `playable_animation_lookup`
/// follows the animation lookup, `views` (an array of skin profiles) takes the place of the
/// skin count, and `texture_flipbooks` follows the texture weights, moving vertices from 0x3C to
/// 0x44, textures from 0x50 to 0x5C, render flags from 0x70 to 0x84, the texture lookup from
/// 0x80 to 0x94 and the bounding box from 0xA0 to 0xB4. Embedded profiles have no `SKIN` magic
/// and their offsets count from the M2's start; before 260 submeshes are 32 bytes (no sort
/// centre and radius), from 260 48. Only what a static reader needs is carried over.
pub fn m2_with_embedded_skin(m2: &[u8], skin: &[u8], version: u32) -> Vec<u8> {
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    // (count, bytes) of the 264 array whose (count, offset) pair is at `at`.
    let array = |b: &[u8], at: usize, size: usize| -> (u32, Vec<u8>) {
        let (n, o) = (u32_at(b, at), u32_at(b, at + 4) as usize);
        (n, b[o..o + n as usize * size].to_vec())
    };
    let mut out = vec![0u8; 0x150];
    out[..4].copy_from_slice(b"MD20");
    out[4..8].copy_from_slice(&version.to_le_bytes());
    // Appends `data` 16-byte aligned and writes (count, offset) at header offset `at`.
    fn put(out: &mut Vec<u8>, at: usize, count: u32, data: &[u8]) -> usize {
        while !out.len().is_multiple_of(16) {
            out.push(0);
        }
        let offset = out.len();
        out.extend_from_slice(data);
        out[at..at + 4].copy_from_slice(&count.to_le_bytes());
        out[at + 4..at + 8].copy_from_slice(&(offset as u32).to_le_bytes());
        offset
    }
    let (n, name) = array(m2, 0x08, 1);
    put(&mut out, 0x08, n, &name);
    let (n, vertices) = array(m2, 0x3C, 48);
    put(&mut out, 0x44, n, &vertices);
    // Textures: type, flags, then the name's (count, offset), which must point into the new file.
    let (n, textures) = array(m2, 0x50, 16);
    let mut records = Vec::new();
    let mut names = Vec::new();
    for r in textures.chunks(16) {
        let (len, o) = (u32_at(r, 8) as usize, u32_at(r, 12) as usize);
        names.push((r[..8].to_vec(), len as u32, m2[o..o + len].to_vec()));
    }
    for (head, len, name) in names {
        let at = out.len();
        out.extend_from_slice(&[0; 8]);
        let o = put(&mut out, at, len, &name);
        records.extend_from_slice(&head);
        records.extend_from_slice(&len.to_le_bytes());
        records.extend_from_slice(&(o as u32).to_le_bytes());
    }
    put(&mut out, 0x5C, n, &records);
    let (n, flags) = array(m2, 0x70, 4);
    put(&mut out, 0x84, n, &flags);
    let (n, lookup) = array(m2, 0x80, 2);
    put(&mut out, 0x94, n, &lookup);
    out[0xB4..0xB4 + 28].copy_from_slice(&m2[0xA0..0xA0 + 28]);
    // The profile: 'SKIN' dropped, arrays re-homed.
    let profile = put(&mut out, 0x4C, 1, &[0; 44]);
    let submesh_size = if version >= 260 { 48 } else { 32 };
    for (i, size) in [(0usize, 2usize), (1, 2), (2, 4), (3, 48), (4, 24)] {
        let (n, mut data) = array(skin, 4 + 8 * i, size);
        if i == 3 && submesh_size == 32 {
            // Vanilla sections end after the centre position (byte 32).
            data = data.chunks(48).flat_map(|r| r[..32].to_vec()).collect();
        }
        put(&mut out, profile + 8 * i, n, &data);
    }
    out[profile + 40..profile + 44].copy_from_slice(&skin[44..48]);
    out
}
