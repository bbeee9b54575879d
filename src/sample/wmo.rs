//! WMO v17 bytes for the sample's tower: a root file and one group file (`_000.wmo`), from a
//! [`Mesh`], one material per part and the doodad sets.
//!
//! The root has every chunk the wowdev wiki's WMO page lists for v17 in its order (MVER,
//! MOHD, MOTX, MOMT, MOGN, MOGI, MOSB, MOPV, MOPT, MOPR, MOVV, MOVB, MOLT, MODS, MODN, MODD,
//! MFOG), empty where the tower has nothing (portals, lights, skybox). The group is one
//! exterior group with the mandatory chunks (MOPY, MOVI, MOVT, MONR, MOTV, MOBA) and the
//! optional ones its flags announce: MODR (0x800, so the client places the doodads) and a
//! one-leaf BSP, MOBN + MOBR (0x1, so the walls collide). Values the wiki leaves open (MOGN's
//! two leading NULs, MFOG's default fog, MOPY's 0x20 "render" flag) copy the corpus's
//! `trolltent.wmo`.
//!
//! Not for: interior groups, portals, lights, liquids, vertex colours or reading (see
//! `assets::models`).

use super::mesh::{self, Mesh};

/// One material of the tower and the texture it draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WmoMaterial {
    /// Game path of the texture.
    pub texture: &'static str,
    /// MOMT flags (0x1 unlit, 0x4 two-sided…).
    pub flags: u32,
    /// MOMT blend mode (`EGxBlend`: 0 opaque, 1 alpha key…).
    pub blend: u32,
}

/// One doodad placed in the WMO, in its model space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WmoDoodad {
    /// Model path as MODN holds it.
    pub model: &'static str,
    /// Position.
    pub position: [f32; 3],
    /// Rotation quaternion (x, y, z, w).
    pub rotation: [f32; 4],
    /// Uniform scale.
    pub scale: f32,
}

/// A named doodad set (MODS) and its doodads, which MODD stores in set order.
#[derive(Debug, Clone, PartialEq)]
pub struct WmoDoodadSet {
    /// Set name, at most 19 bytes (`Set_$DefaultGlobal` is the one always shown).
    pub name: &'static str,
    /// Its doodads.
    pub doodads: Vec<WmoDoodad>,
}

/// MOGP flags of the group: has a BSP (0x1), exterior (0x8), has doodads (0x800).
pub const GROUP_FLAGS: u32 = 0x1 | 0x8 | 0x800;

/// The group's name in MOGN.
const GROUP_NAME: &str = "Tower";

/// MOPY flags of every triangle: rendered (and so collided with).
const TRIANGLE_RENDER: u8 = 0x20;

/// A chunk: tag stored byte-reversed (as every WMO does), size, payload.
fn chunk(out: &mut Vec<u8>, tag: &[u8; 4], payload: &[u8]) {
    out.extend(tag.iter().rev());
    out.extend((payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
}

fn f32s(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(f32::to_le_bytes).collect()
}

fn u16s(values: impl IntoIterator<Item = u16>) -> Vec<u8> {
    values.into_iter().flat_map(u16::to_le_bytes).collect()
}

/// A block of NUL-terminated strings, each padded with NULs to a multiple of four bytes, and
/// the offset of each.
fn string_block(names: &[&str]) -> (Vec<u8>, Vec<u32>) {
    let mut block = Vec::new();
    let mut offsets = Vec::with_capacity(names.len());
    for name in names {
        offsets.push(block.len() as u32);
        block.extend_from_slice(name.as_bytes());
        block.push(0);
        block.resize(block.len().next_multiple_of(4), 0);
    }
    (block, offsets)
}

/// The root file: materials (texture `i` for material `i`), one group whose box is `mesh`'s,
/// and the doodad sets in order (the first should be `Set_$DefaultGlobal`).
pub fn root(mesh: &Mesh, materials: &[WmoMaterial], sets: &[WmoDoodadSet]) -> Vec<u8> {
    let (min, max) = mesh::bounds(mesh);
    let doodads: Vec<&WmoDoodad> = sets.iter().flat_map(|s| &s.doodads).collect();
    let mut models: Vec<&str> = Vec::new();
    for d in &doodads {
        if !models.contains(&d.model) {
            models.push(d.model);
        }
    }
    let mut out = Vec::new();
    chunk(&mut out, b"MVER", &17u32.to_le_bytes());

    let mut mohd = Vec::with_capacity(64);
    for count in [
        materials.len(),
        1, // groups
        0, // portals
        0, // lights
        models.len(),
        doodads.len(),
        sets.len(),
    ] {
        mohd.extend((count as u32).to_le_bytes());
    }
    mohd.extend([0x7F, 0x7F, 0x7F, 0xFF]); // ambient colour (BGRA)
    mohd.extend(0u32.to_le_bytes()); // WMOAreaTable id
    mohd.extend(f32s(min.into_iter().chain(max)));
    mohd.extend(0u16.to_le_bytes()); // flags
    mohd.extend(0u16.to_le_bytes()); // LOD count
    chunk(&mut out, b"MOHD", &mohd);

    let textures: Vec<&str> = materials.iter().map(|m| m.texture).collect();
    let (motx, texture_offsets) = string_block(&textures);
    chunk(&mut out, b"MOTX", &motx);
    let mut momt = Vec::with_capacity(64 * materials.len());
    for (m, &texture) in materials.iter().zip(&texture_offsets) {
        momt.extend(m.flags.to_le_bytes());
        momt.extend(0u32.to_le_bytes()); // shader: diffuse
        momt.extend(m.blend.to_le_bytes());
        momt.extend(texture.to_le_bytes()); // texture 1
        momt.extend(0xFF00_0000u32.to_le_bytes()); // emissive colour: black
        momt.extend(0u32.to_le_bytes()); // emissive colour at run time
        momt.extend(0u32.to_le_bytes()); // texture 2 (the diffuse shader uses none)
        momt.extend(0xFF7F_7F7Fu32.to_le_bytes()); // diffuse colour
        momt.extend([0u8; 64 - 32]); // ground type, texture 3, colour 2, flags 2, run time
    }
    chunk(&mut out, b"MOMT", &momt);

    // Two NULs first, as Blizzard's files have them; the group's name follows.
    let mut mogn = vec![0u8, 0];
    mogn.extend_from_slice(GROUP_NAME.as_bytes());
    mogn.push(0);
    mogn.resize(mogn.len().next_multiple_of(4), 0);
    chunk(&mut out, b"MOGN", &mogn);
    let mut mogi = Vec::with_capacity(32);
    // The root lists the group's flags without the BSP bit, as the corpus's roots do.
    mogi.extend((GROUP_FLAGS & !0x1).to_le_bytes());
    mogi.extend(f32s(min.into_iter().chain(max)));
    mogi.extend((-1i32).to_le_bytes()); // name: in the group file
    chunk(&mut out, b"MOGI", &mogi);
    chunk(&mut out, b"MOSB", &[0; 4]); // no skybox
    for tag in [b"MOPV", b"MOPT", b"MOPR", b"MOVV", b"MOVB", b"MOLT"] {
        chunk(&mut out, tag, &[]);
    }

    let mut mods = Vec::with_capacity(32 * sets.len());
    let mut first = 0u32;
    for s in sets {
        let mut name = [0u8; 20];
        let len = s.name.len().min(19);
        name[..len].copy_from_slice(&s.name.as_bytes()[..len]);
        mods.extend(name);
        mods.extend(first.to_le_bytes());
        mods.extend((s.doodads.len() as u32).to_le_bytes());
        mods.extend(0u32.to_le_bytes());
        first += s.doodads.len() as u32;
    }
    chunk(&mut out, b"MODS", &mods);
    let (modn, model_offsets) = string_block(&models);
    chunk(&mut out, b"MODN", &modn);
    let mut modd = Vec::with_capacity(40 * doodads.len());
    for d in &doodads {
        let name = models.iter().position(|m| *m == d.model).unwrap_or(0);
        modd.extend((model_offsets[name] & 0x00FF_FFFF).to_le_bytes()); // no flags
        modd.extend(f32s(d.position));
        modd.extend(f32s(d.rotation));
        modd.extend(d.scale.to_le_bytes());
        modd.extend([0x7F, 0x7F, 0x7F, 0xFF]); // colour (BGRA)
    }
    chunk(&mut out, b"MODD", &modd);

    // One fog entry with no radius: the client's defaults (trolltent.wmo's values).
    let mut mfog = Vec::with_capacity(48);
    mfog.extend(0u32.to_le_bytes());
    mfog.extend(f32s([0.0; 5])); // position, small and large radius
    mfog.extend(f32s([4000.0 / 9.0, 0.25]));
    mfog.extend([0xFF; 4]);
    mfog.extend(f32s([2000.0 / 9.0, -0.5]));
    mfog.extend([0xFF, 0, 0, 0xFF]);
    chunk(&mut out, b"MFOG", &mfog);
    out
}

/// The group file: MVER and one MOGP holding `mesh` (one batch per part, material `k` of the
/// root for a part of material `k`) and references to the first `doodads` doodads.
pub fn group(mesh: &Mesh, doodads: u16) -> Vec<u8> {
    let (min, max) = mesh::bounds(mesh);
    let triangles = mesh.indices.len() / 3;
    let mut header = Vec::with_capacity(0x44);
    header.extend(2u32.to_le_bytes()); // name: after MOGN's two leading NULs
    header.extend(0u32.to_le_bytes()); // descriptive name: none
    header.extend(GROUP_FLAGS.to_le_bytes());
    header.extend(f32s(min.into_iter().chain(max)));
    header.extend(u16s([
        0,                       // first portal
        0,                       // portal count
        0,                       // transition batches
        0,                       // interior batches
        mesh.parts.len() as u16, // exterior batches
        0,                       // padding
    ]));
    header.extend([0u8; 4]); // fog ids
    header.extend(0u32.to_le_bytes()); // liquid
    header.extend(0u32.to_le_bytes()); // WMOAreaTable id
    header.extend(0u32.to_le_bytes()); // flags 2
    header.extend(0u32.to_le_bytes()); // unused
    let mut mogp = header;

    let mut mopy = vec![0u8; 2 * triangles];
    for p in &mesh.parts {
        for t in p.first_index / 3..(p.first_index + p.index_count) / 3 {
            mopy[2 * t] = TRIANGLE_RENDER;
            mopy[2 * t + 1] = p.material as u8;
        }
    }
    chunk(&mut mogp, b"MOPY", &mopy);
    chunk(&mut mogp, b"MOVI", &u16s(mesh.indices.iter().copied()));
    chunk(
        &mut mogp,
        b"MOVT",
        &f32s(mesh.positions.iter().flatten().copied()),
    );
    chunk(
        &mut mogp,
        b"MONR",
        &f32s(mesh.normals.iter().flatten().copied()),
    );
    chunk(
        &mut mogp,
        b"MOTV",
        &f32s(mesh.uvs.iter().flatten().copied()),
    );
    let mut moba = Vec::with_capacity(24 * mesh.parts.len());
    for p in &mesh.parts {
        let part_mesh = Mesh {
            positions: mesh.positions[p.first_vertex..p.first_vertex + p.vertex_count].to_vec(),
            ..Mesh::default()
        };
        let (lo, hi) = mesh::bounds(&part_mesh);
        // The batch's box for culling, in whole yards rounded outward.
        moba.extend(
            lo.iter()
                .map(|v| v.floor() as i16)
                .chain(hi.iter().map(|v| v.ceil() as i16))
                .flat_map(i16::to_le_bytes),
        );
        moba.extend((p.first_index as u32).to_le_bytes());
        moba.extend(u16s([
            p.index_count as u16,
            p.first_vertex as u16,
            (p.first_vertex + p.vertex_count).saturating_sub(1) as u16,
        ]));
        moba.extend([0, p.material as u8]); // flags, material
    }
    chunk(&mut mogp, b"MOBA", &moba);
    chunk(&mut mogp, b"MODR", &u16s(0..doodads));
    // A BSP of one leaf holding every triangle: enough for the client's collision queries.
    let mut mobn = Vec::with_capacity(16);
    mobn.extend(4u16.to_le_bytes()); // flags: leaf
    mobn.extend((-1i16).to_le_bytes()); // negative child
    mobn.extend((-1i16).to_le_bytes()); // positive child
    mobn.extend((triangles as u16).to_le_bytes()); // face count
    mobn.extend(0u32.to_le_bytes()); // first face in MOBR
    mobn.extend(0f32.to_le_bytes()); // plane distance
    chunk(&mut mogp, b"MOBN", &mobn);
    chunk(&mut mogp, b"MOBR", &u16s(0..triangles as u16));

    let mut out = Vec::new();
    chunk(&mut out, b"MVER", &17u32.to_le_bytes());
    chunk(&mut out, b"MOGP", &mogp);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Top-level chunk tags in reading order.
    fn tags(bytes: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        let mut p = 0;
        while p + 8 <= bytes.len() {
            let tag: Vec<u8> = bytes[p..p + 4].iter().rev().copied().collect();
            out.push(String::from_utf8_lossy(&tag).into_owned());
            p += 8 + u32::from_le_bytes(bytes[p + 4..p + 8].try_into().unwrap()) as usize;
        }
        assert_eq!(p, bytes.len(), "chunks end where the file ends");
        out
    }

    #[test]
    fn root_and_group_have_the_chunks_of_a_v17_wmo_in_order() {
        let mesh = mesh::tower();
        let material = WmoMaterial {
            texture: "A.blp",
            flags: 0,
            blend: 0,
        };
        let root = root(&mesh, &[material, material], &[]);
        assert_eq!(
            tags(&root).join(" "),
            "MVER MOHD MOTX MOMT MOGN MOGI MOSB MOPV MOPT MOPR MOVV MOVB MOLT MODS MODN MODD MFOG"
        );
        let group = group(&mesh, 0);
        assert_eq!(tags(&group), ["MVER", "MOGP"]);
        let sub = tags(&group[8 + 4 + 8 + 0x44..]);
        assert_eq!(
            sub.join(" "),
            "MOPY MOVI MOVT MONR MOTV MOBA MODR MOBN MOBR"
        );
        assert_eq!(
            string_block(&["ab", "cdef"]),
            (b"ab\0\0cdef\0\0\0\0".to_vec(), vec![0, 4])
        );
    }
}
