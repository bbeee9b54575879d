//! M2 bytes for the sample's doodads: an `MD20` file of version 264 (3.3.5) and its one
//! external skin profile (`NN.skin`), from a [`Mesh`] and one material per part.
//!
//! The file fills what the 3.3.5 client reads before it draws a static doodad, not just what
//! loam's reader needs: one "Stand" sequence whose data lives in the file (flag 0x20, so no
//! `.anim` file is looked for) and its lookup, one root bone with empty tracks that every
//! vertex is weighted to, the bone and key-bone lookups, a one-key texture weight track
//! (opaque) with its lookup, "no UV animation" in the UV-animation lookup, bounding and
//! collision volumes. Field order and record sizes follow the wowdev wiki's M2 page; values
//! not dictated by it (batch flags 0x10, `boneCountMax` 21, blend time 150) copy the corpus's
//! `tank.m2` / `tank00.skin`.
//!
//! Not for: animated models, other M2 versions or reading (see `assets::models`).

use super::mesh::{self, Mesh};

/// The M2 version written (3.3.5: skins in external files).
pub const VERSION: u32 = 264;

/// One material of a sample M2 and the texture it draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct M2Material {
    /// Game path of the texture (`World\Loam\Sample\Bark.blp`).
    pub texture: &'static str,
    /// M2 render flags (0x1 unlit, 0x2 unfogged, 0x4 two-sided…).
    pub render_flags: u16,
    /// M2 blending mode (0 opaque, 1 alpha key, 2 alpha…).
    pub blend: u16,
}

/// Size of the version-264 header (up to `particle_emitters`; no blend map overrides).
const HEADER_SIZE: usize = 0x130;

// Header fields (count, offset pairs unless noted), wowdev wiki M2 "Header", 3.3.5 layout.
const NAME: usize = 0x08;
const SEQUENCES: usize = 0x1C;
const SEQUENCE_LOOKUP: usize = 0x24;
const BONES: usize = 0x2C;
const KEY_BONE_LOOKUP: usize = 0x34;
const VERTICES: usize = 0x3C;
const SKIN_COUNT: usize = 0x44; // a plain u32
const TEXTURES: usize = 0x50;
const TEXTURE_WEIGHTS: usize = 0x58;
const REPLACEABLE_LOOKUP: usize = 0x68;
const MATERIALS: usize = 0x70;
const BONE_LOOKUP: usize = 0x78;
const TEXTURE_LOOKUP: usize = 0x80;
const TEXTURE_UNIT_LOOKUP: usize = 0x88;
const WEIGHT_LOOKUP: usize = 0x90;
const UV_ANIMATION_LOOKUP: usize = 0x98;
const BOUNDING_BOX: usize = 0xA0; // 6 floats, then the radius
const COLLISION_BOX: usize = 0xBC; // 6 floats, then the radius
const COLLISION_TRIANGLES: usize = 0xD8;
const COLLISION_VERTICES: usize = 0xE0;
const COLLISION_NORMALS: usize = 0xE8;

/// An M2 track with no keys: no interpolation, no global sequence, empty per-sequence arrays.
const EMPTY_TRACK: [u8; 20] = [
    0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

fn put_u32(out: &mut [u8], at: usize, v: u32) {
    out[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_f32s(out: &mut [u8], at: usize, values: &[f32]) {
    for (i, v) in values.iter().enumerate() {
        out[at + 4 * i..at + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// Appends `data` at the next 16-byte boundary (as Blizzard's exporter aligns blocks) and
/// returns its offset.
fn append(out: &mut Vec<u8>, data: &[u8]) -> u32 {
    out.resize(out.len().next_multiple_of(16), 0);
    let at = out.len() as u32;
    out.extend_from_slice(data);
    at
}

/// Appends an array's records and points the header's `count, offset` pair at `field` to it
/// (`0, 0` for none, as the client expects of an empty array).
fn array(out: &mut Vec<u8>, field: usize, count: usize, data: &[u8]) {
    let at = if count == 0 { 0 } else { append(out, data) };
    put_u32(out, field, count as u32);
    put_u32(out, field + 4, at);
}

fn u16s(values: impl IntoIterator<Item = u16>) -> Vec<u8> {
    values.into_iter().flat_map(u16::to_le_bytes).collect()
}

fn f32s(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// The M2 file and its `00.skin` for `mesh`, named `name` in the header. Part `k` is drawn
/// with `materials[mesh.parts[k].material]`, whose texture is the M2's texture of the same
/// index. The triangles of the parts listed in `collision` become the collision mesh.
pub fn encode(
    name: &str,
    mesh: &Mesh,
    materials: &[M2Material],
    collision: &[usize],
) -> (Vec<u8>, Vec<u8>) {
    let mut out = vec![0u8; HEADER_SIZE];
    out[0..4].copy_from_slice(b"MD20");
    put_u32(&mut out, 4, VERSION);
    let (min, max) = mesh::bounds(mesh);
    let radius = mesh::bounding_radius(min, max);
    let mut name_bytes = name.as_bytes().to_vec();
    name_bytes.push(0);
    array(&mut out, NAME, name_bytes.len(), &name_bytes);

    // One sequence, "Stand" (animation id 0), looping, its (empty) keys in this file.
    let mut sequence = Vec::with_capacity(64);
    sequence.extend(0u16.to_le_bytes()); // id: Stand
    sequence.extend(0u16.to_le_bytes()); // variation index
    sequence.extend(3000u32.to_le_bytes()); // duration, ms
    sequence.extend(0f32.to_le_bytes()); // move speed
    sequence.extend(0x20u32.to_le_bytes()); // flags: data in the .m2, no .anim file
    sequence.extend(0x7FFFi16.to_le_bytes()); // frequency: always
    sequence.extend(0u16.to_le_bytes()); // padding
    sequence.extend([0u8; 8]); // replay range
    sequence.extend(150u32.to_le_bytes()); // blend time
    sequence.extend(f32s(min.into_iter().chain(max).chain([radius])));
    sequence.extend((-1i16).to_le_bytes()); // next variation: none
    sequence.extend(0u16.to_le_bytes()); // alias: itself
    array(&mut out, SEQUENCES, 1, &sequence);
    array(&mut out, SEQUENCE_LOOKUP, 1, &u16s([0]));

    // One root bone: no key bone, no parent, every track empty, pivot at the origin.
    let mut bone = Vec::with_capacity(88);
    bone.extend((-1i32).to_le_bytes()); // key bone id
    bone.extend(0u32.to_le_bytes()); // flags
    bone.extend((-1i16).to_le_bytes()); // parent
    bone.extend(0u16.to_le_bytes()); // submesh id
    bone.extend(0u32.to_le_bytes()); // bone name CRC
    for _ in 0..3 {
        bone.extend(EMPTY_TRACK); // translation, rotation, scale
    }
    bone.extend(f32s([0.0; 3])); // pivot
    array(&mut out, BONES, 1, &bone);
    array(&mut out, KEY_BONE_LOOKUP, 1, &u16s([0xFFFF]));

    // Vertices: position, weights (all on bone 0), bone indices, normal, two UV sets.
    let mut vertices = Vec::with_capacity(48 * mesh.positions.len());
    for i in 0..mesh.positions.len() {
        vertices.extend(f32s(mesh.positions[i]));
        vertices.extend([255, 0, 0, 0, 0, 0, 0, 0]);
        vertices.extend(f32s(mesh.normals[i]));
        vertices.extend(f32s(mesh.uvs[i]));
        vertices.extend(f32s([0.0, 0.0]));
    }
    array(&mut out, VERTICES, mesh.positions.len(), &vertices);
    put_u32(&mut out, SKIN_COUNT, 1);

    // Textures: hard-coded files (type 0), wrapping in both directions (flags 0x1 | 0x2).
    let mut textures = Vec::with_capacity(16 * materials.len());
    for m in materials {
        let mut path = m.texture.as_bytes().to_vec();
        path.push(0);
        let at = append(&mut out, &path);
        textures.extend(0u32.to_le_bytes());
        textures.extend(3u32.to_le_bytes());
        textures.extend((path.len() as u32).to_le_bytes());
        textures.extend(at.to_le_bytes());
    }
    array(&mut out, TEXTURES, materials.len(), &textures);

    // One texture weight, fully opaque: a track with one key (time 0, 0x7FFF = 1.0) for the
    // one sequence, as static doodads from Blizzard have it.
    let time = append(&mut out, &0u32.to_le_bytes());
    let value = append(&mut out, &0x7FFFi16.to_le_bytes());
    let times = append(&mut out, &[1u32.to_le_bytes(), time.to_le_bytes()].concat());
    let values = append(
        &mut out,
        &[1u32.to_le_bytes(), value.to_le_bytes()].concat(),
    );
    let mut weight = Vec::with_capacity(20);
    weight.extend(0u16.to_le_bytes()); // interpolation: none
    weight.extend((-1i16).to_le_bytes()); // global sequence: none
    for (count, at) in [(1u32, times), (1, values)] {
        weight.extend(count.to_le_bytes());
        weight.extend(at.to_le_bytes());
    }
    array(&mut out, TEXTURE_WEIGHTS, 1, &weight);
    // No replaceable textures: the lookup's one entry says so.
    array(&mut out, REPLACEABLE_LOOKUP, 1, &u16s([0xFFFF]));

    let flags: Vec<u8> = materials
        .iter()
        .flat_map(|m| [m.render_flags.to_le_bytes(), m.blend.to_le_bytes()].concat())
        .collect();
    array(&mut out, MATERIALS, materials.len(), &flags);
    array(&mut out, BONE_LOOKUP, 1, &u16s([0]));
    let lookup = u16s((0..materials.len()).map(|i| i as u16));
    array(&mut out, TEXTURE_LOOKUP, materials.len(), &lookup);
    array(&mut out, TEXTURE_UNIT_LOOKUP, 1, &u16s([0]));
    array(&mut out, WEIGHT_LOOKUP, 1, &u16s([0]));
    array(&mut out, UV_ANIMATION_LOOKUP, 1, &u16s([0xFFFF]));
    put_f32s(&mut out, BOUNDING_BOX, &[min, max].concat());
    put_f32s(&mut out, BOUNDING_BOX + 24, &[radius]);

    // Collision: the listed parts' vertices and triangles, one normal per triangle.
    let mut points: Vec<[f32; 3]> = Vec::new();
    let mut triangles: Vec<u16> = Vec::new();
    for &k in collision {
        let Some(p) = mesh.parts.get(k) else { continue };
        let base = points.len() as i64 - p.first_vertex as i64;
        points.extend(&mesh.positions[p.first_vertex..p.first_vertex + p.vertex_count]);
        triangles.extend(
            mesh.indices[p.first_index..p.first_index + p.index_count]
                .iter()
                .map(|&i| (i64::from(i) + base) as u16),
        );
    }
    let normals: Vec<f32> = triangles
        .chunks_exact(3)
        .flat_map(|t| {
            let p = |i: u16| points[usize::from(i)].map(f64::from);
            let (a, b, c) = (p(t[0]), p(t[1]), p(t[2]));
            let (e, f) = (
                [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
                [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
            );
            let n = [
                e[1] * f[2] - e[2] * f[1],
                e[2] * f[0] - e[0] * f[2],
                e[0] * f[1] - e[1] * f[0],
            ];
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
                .sqrt()
                .max(f64::MIN_POSITIVE);
            n.map(|c| (c / len) as f32)
        })
        .collect();
    let collision_mesh = Mesh {
        positions: points.clone(),
        ..Mesh::default()
    };
    let (cmin, cmax) = mesh::bounds(&collision_mesh);
    put_f32s(&mut out, COLLISION_BOX, &[cmin, cmax].concat());
    put_f32s(
        &mut out,
        COLLISION_BOX + 24,
        &[mesh::bounding_radius(cmin, cmax)],
    );
    array(
        &mut out,
        COLLISION_TRIANGLES,
        triangles.len(),
        &u16s(triangles),
    );
    array(
        &mut out,
        COLLISION_VERTICES,
        points.len(),
        &f32s(points.into_iter().flatten()),
    );
    array(
        &mut out,
        COLLISION_NORMALS,
        normals.len() / 3,
        &f32s(normals),
    );
    (out, skin(mesh))
}

/// The skin profile: every vertex, every triangle, one submesh and one texture unit (batch)
/// per part.
fn skin(mesh: &Mesh) -> Vec<u8> {
    let mut out = vec![0u8; 48];
    out[0..4].copy_from_slice(b"SKIN");
    // Skin arrays are offsets into the skin file; 4-byte alignment keeps the u16 arrays apart.
    let block = |out: &mut Vec<u8>, field: usize, count: usize, data: &[u8]| {
        out.resize(out.len().next_multiple_of(4), 0);
        let at = out.len() as u32;
        out.extend_from_slice(data);
        put_u32(out, field, count as u32);
        put_u32(out, field + 4, if count == 0 { 0 } else { at });
    };
    let n = mesh.positions.len();
    block(&mut out, 4, n, &u16s((0..n).map(|i| i as u16)));
    block(
        &mut out,
        12,
        mesh.indices.len(),
        &u16s(mesh.indices.iter().copied()),
    );
    // Bone indices per vertex, into the submesh's bones (all the one root bone).
    block(&mut out, 20, n, &vec![0u8; 4 * n]);
    let mut submeshes = Vec::with_capacity(48 * mesh.parts.len());
    let mut units = Vec::with_capacity(24 * mesh.parts.len());
    for (k, p) in mesh.parts.iter().enumerate() {
        let part_mesh = Mesh {
            positions: mesh.positions[p.first_vertex..p.first_vertex + p.vertex_count].to_vec(),
            ..Mesh::default()
        };
        let (lo, hi) = mesh::bounds(&part_mesh);
        let sum = part_mesh.positions.iter().fold([0.0f64; 3], |s, v| {
            [s[0] + v[0] as f64, s[1] + v[1] as f64, s[2] + v[2] as f64]
        });
        let count = p.vertex_count.max(1) as f64;
        let centre = sum.map(|c| (c / count) as f32);
        let sort_centre: [f32; 3] = std::array::from_fn(|i| (lo[i] + hi[i]) / 2.0);
        submeshes.extend(u16s([
            0,                     // skin section id (mesh part id): always shown
            0,                     // level (high word of the starts)
            p.first_vertex as u16, // vertex start
            p.vertex_count as u16, // vertex count
            p.first_index as u16,  // index start
            p.index_count as u16,  // index count
            1,                     // bone count
            0,                     // first bone in the bone lookup
            1,                     // bone influences per vertex
            0,                     // centre bone
        ]));
        submeshes.extend(f32s(centre));
        submeshes.extend(f32s(sort_centre));
        submeshes.extend(f32s([mesh::bounding_radius(lo, hi)]));
        units.extend([0x10, 0]); // flags, priority plane
        units.extend(u16s([0, k as u16, k as u16])); // shader, submesh, geoset
        units.extend((-1i16).to_le_bytes()); // colour: none
        units.extend(u16s([
            p.material as u16, // material (render flags)
            0,                 // material layer
            1,                 // texture count
            p.material as u16, // texture lookup entry
            0,                 // texture unit lookup entry
            0,                 // texture weight lookup entry
            0,                 // UV animation lookup entry
        ]));
    }
    block(&mut out, 28, mesh.parts.len(), &submeshes);
    block(&mut out, 36, mesh.parts.len(), &units);
    put_u32(&mut out, 44, 21); // bone count max, as the corpus's 3.3.5 skins have it
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32_at(b: &[u8], at: usize) -> usize {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
    }

    #[test]
    fn every_header_array_lies_inside_the_file() {
        let mesh = mesh::boulder();
        let material = M2Material {
            texture: "A\\B.blp",
            render_flags: 0,
            blend: 0,
        };
        let (m2, skin) = encode("Rock", &mesh, &[material], &[0]);
        assert_eq!(&m2[..8], b"MD20\x08\x01\0\0");
        // (field, record size) for every array the writer fills.
        for (field, size) in [
            (NAME, 1),
            (SEQUENCES, 64),
            (BONES, 88),
            (VERTICES, 48),
            (TEXTURES, 16),
            (TEXTURE_WEIGHTS, 20),
            (MATERIALS, 4),
            (COLLISION_TRIANGLES, 2),
            (COLLISION_VERTICES, 12),
            (COLLISION_NORMALS, 12),
        ] {
            let (count, at) = (u32_at(&m2, field), u32_at(&m2, field + 4));
            assert!(count > 0 && at >= HEADER_SIZE && at + count * size <= m2.len());
        }
        assert_eq!(u32_at(&m2, VERTICES), 66);
        assert_eq!(u32_at(&m2, COLLISION_TRIANGLES), 128 * 3);
        assert_eq!(&skin[..4], b"SKIN");
        assert_eq!(u32_at(&skin, 12), 128 * 3);
        assert_eq!((u32_at(&skin, 28), u32_at(&skin, 36)), (1, 1));
        assert!(u32_at(&skin, 36 + 4) + 24 <= skin.len());
    }
}
