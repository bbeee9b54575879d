//! Living models: a corpus M2 (3.3.5) and a 0.5.3 MDX posed by loam at two times of their stand
//! sequence match bone transforms computed here, independently, from the files' own tracks
//! (wowdev wiki "M2" for the M2 layout; barncastle/wow-mdx-viewer for the MDX one): the track
//! read, the key search, linear and spherical interpolation and the parent chain are all
//! written again below rather than borrowed from loam.

mod common;

use glam::{Mat4, Quat, Vec3};
use loam::assets::models::{AnyModel, read_model_bytes};

fn corpus(path: &str) -> Vec<u8> {
    let p = common::corpus_file(path);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn vec3_at(b: &[u8], at: usize) -> Vec3 {
    Vec3::new(f32_at(b, at), f32_at(b, at + 4), f32_at(b, at + 8))
}

/// Spherical interpolation along the shorter arc, written out.
fn slerp(a: Quat, b: Quat, t: f32) -> Quat {
    let mut dot = a.dot(b);
    let b = if dot < 0.0 {
        dot = -dot;
        -b
    } else {
        b
    };
    if dot > 0.9995 {
        return (a * (1.0 - t) + b * t).normalize();
    }
    let theta = dot.acos();
    let s = theta.sin();
    (a * (((1.0 - t) * theta).sin() / s) + b * ((t * theta).sin() / s)).normalize()
}

/// Keys as (time, value), value at `ms` with linear (or step) interpolation, clamped at the ends.
fn sample<T: Copy>(
    keys: &[(u32, T)],
    ms: f32,
    step: bool,
    lerp: impl Fn(T, T, f32) -> T,
) -> Option<T> {
    let (first, last) = (keys.first()?, keys.last()?);
    if ms <= first.0 as f32 {
        return Some(first.1);
    }
    if ms >= last.0 as f32 {
        return Some(last.1);
    }
    for w in keys.windows(2) {
        let (a, b) = (w[0], w[1]);
        if ms >= a.0 as f32 && ms < b.0 as f32 {
            if step || b.0 == a.0 {
                return Some(a.1);
            }
            return Some(lerp(a.1, b.1, (ms - a.0 as f32) / (b.0 - a.0) as f32));
        }
    }
    Some(last.1)
}

/// One bone as the test reads it.
struct TestBone {
    parent: i32,
    pivot: Vec3,
    step: [bool; 3],
    global: [i32; 3],
    translation: Vec<(u32, Vec3)>,
    rotation: Vec<(u32, Quat)>,
    scale: Vec<(u32, Vec3)>,
}

/// World matrices of `bones` at `seconds`, parents resolved by recursion.
fn world_matrices(bones: &[TestBone], seconds: f64, stand_ms: u32, globals: &[u32]) -> Vec<Mat4> {
    let clock = |g: i32| {
        let len = if g >= 0 {
            globals[g as usize]
        } else {
            stand_ms
        };
        if len == 0 {
            0.0
        } else {
            ((seconds * 1000.0) % len as f64) as f32
        }
    };
    let local: Vec<Mat4> = bones
        .iter()
        .map(|b| {
            let t = sample(&b.translation, clock(b.global[0]), b.step[0], |a, c, f| {
                a + (c - a) * f
            })
            .unwrap_or(Vec3::ZERO);
            let r = sample(&b.rotation, clock(b.global[1]), b.step[1], slerp)
                .unwrap_or(Quat::IDENTITY)
                .normalize();
            let s = sample(&b.scale, clock(b.global[2]), b.step[2], |a, c, f| {
                a + (c - a) * f
            })
            .unwrap_or(Vec3::ONE);
            Mat4::from_translation(b.pivot)
                * Mat4::from_translation(t)
                * Mat4::from_quat(r)
                * Mat4::from_scale(s)
                * Mat4::from_translation(-b.pivot)
        })
        .collect();
    fn world(i: usize, bones: &[TestBone], local: &[Mat4], depth: usize) -> Mat4 {
        let p = bones[i].parent;
        if p < 0 || depth > bones.len() {
            local[i]
        } else {
            world(p as usize, bones, local, depth + 1) * local[i]
        }
    }
    (0..bones.len())
        .map(|i| world(i, bones, &local, 0))
        .collect()
}

/// The M2 (3.3.5) stand sequence's bones, read the wiki's way: sequences at 0x1C (64 bytes,
/// id at 0, duration at 4), bones at 0x2C (88 bytes: parent at 8, tracks at 16/36/56, pivot
/// at 76), each track `interpolation, global sequence, timestamps[seq], values[seq]`.
fn m2_bones(m2: &[u8]) -> (Vec<TestBone>, u32, Vec<u32>) {
    let (n_seq, seq_at) = (u32_at(m2, 0x1C) as usize, u32_at(m2, 0x20) as usize);
    let stand = (0..n_seq)
        .find(|&i| u16_at(m2, seq_at + 64 * i) == 0)
        .expect("a Stand sequence");
    let stand_ms = u32_at(m2, seq_at + 64 * stand + 4);
    let globals: Vec<u32> = (0..u32_at(m2, 0x14) as usize)
        .map(|i| u32_at(m2, u32_at(m2, 0x18) as usize + 4 * i))
        .collect();
    let (n_bones, bones_at) = (u32_at(m2, 0x2C) as usize, u32_at(m2, 0x30) as usize);
    let keys = |track: usize, size: usize| -> Vec<(u32, usize)> {
        let global = u16_at(m2, track + 2) as i16;
        let sub = if global >= 0 { 0 } else { stand };
        if u32_at(m2, track + 4) as usize <= sub {
            return Vec::new();
        }
        let times = u32_at(m2, track + 8) as usize + 8 * sub;
        let values = u32_at(m2, track + 16) as usize + 8 * sub;
        let n = u32_at(m2, times) as usize;
        (0..n)
            .map(|k| {
                (
                    u32_at(m2, u32_at(m2, times + 4) as usize + 4 * k),
                    u32_at(m2, values + 4) as usize + size * k,
                )
            })
            .collect()
    };
    let quat = |at: usize| {
        // M2CompQuat: each i16 stored offset by 32767 (identity reads 32767, 32767, 32767, -1).
        let c = |i: usize| {
            let v = u16_at(m2, at + 2 * i) as i16 as i32;
            (if v < 0 { v + 32768 } else { v - 32767 }) as f32 / 32767.0
        };
        Quat::from_xyzw(c(0), c(1), c(2), c(3))
    };
    let bones = (0..n_bones)
        .map(|i| {
            let b = bones_at + 88 * i;
            let tr = [b + 16, b + 36, b + 56];
            TestBone {
                parent: u16_at(m2, b + 8) as i16 as i32,
                pivot: vec3_at(m2, b + 76),
                step: tr.map(|t| u16_at(m2, t) == 0),
                global: tr.map(|t| u16_at(m2, t + 2) as i16 as i32),
                translation: keys(tr[0], 12)
                    .into_iter()
                    .map(|(t, at)| (t, vec3_at(m2, at)))
                    .collect(),
                rotation: keys(tr[1], 8)
                    .into_iter()
                    .map(|(t, at)| (t, quat(at)))
                    .collect(),
                scale: keys(tr[2], 12)
                    .into_iter()
                    .map(|(t, at)| (t, vec3_at(m2, at)))
                    .collect(),
            }
        })
        .collect();
    (bones, stand_ms, globals)
}

#[test]
fn an_m2_moves_its_vertices_as_its_bones_say() {
    let m2 = corpus("blizzardry/Rabbit.m2");
    let skin = corpus("blizzardry/Rabbit00.skin");
    let fetch = |p: &str| p.ends_with("Rabbit00.skin").then(|| skin.clone());
    let AnyModel::Model(model) = read_model_bytes("Rabbit.m2", &m2, &fetch).unwrap() else {
        panic!("not an M2");
    };
    let rig = model
        .rig
        .as_ref()
        .expect("the rabbit's stand sequence moves");
    let (bones, stand_ms, globals) = m2_bones(&m2);
    assert_eq!(stand_ms, 667, "Rabbit's Stand lasts 667 ms");
    // Mesh vertex k is M2 vertex skin.vertices[k] (the skin's first array).
    let skin_vertices: Vec<usize> = {
        let (n, at) = (u32_at(&skin, 4) as usize, u32_at(&skin, 8) as usize);
        (0..n).map(|k| u16_at(&skin, at + 2 * k) as usize).collect()
    };
    assert_eq!(skin_vertices.len(), model.mesh.vertices.len());
    let vertices_at = u32_at(&m2, 0x40) as usize;
    let mut moved = 0;
    let mut previous: Option<Vec<[f32; 3]>> = None;
    for seconds in [0.2, 0.45] {
        let expected = world_matrices(&bones, seconds, stand_ms, &globals);
        let mut posed = Vec::new();
        rig.skin(&model.mesh.vertices, &rig.pose(seconds), &mut posed);
        for (k, &v) in skin_vertices.iter().enumerate() {
            let r = vertices_at + 48 * v;
            let bind = vec3_at(&m2, r);
            let mut want = Vec3::ZERO;
            let mut total = 0.0;
            for i in 0..4 {
                let w = m2[r + 12 + i] as f32 / 255.0;
                want += expected[m2[r + 16 + i] as usize].transform_point3(bind) * w;
                total += w;
            }
            let want = want / total;
            let got = Vec3::from(posed[k].position);
            assert!(
                (got - want).length() < 1e-4,
                "vertex {k} at {seconds} s: loam {got}, bones {want}"
            );
        }
        let now: Vec<[f32; 3]> = posed.iter().map(|v| v.position).collect();
        if let Some(p) = &previous {
            moved = p
                .iter()
                .zip(&now)
                .filter(|(a, b)| Vec3::from(**a).distance(Vec3::from(**b)) > 1e-3)
                .count();
        }
        previous = Some(now);
    }
    assert!(
        moved > 10,
        "only {moved} vertices moved between the two times"
    );
}

#[test]
fn a_model_whose_bones_never_move_has_no_rig() {
    // The tank's two bones have no keys: nothing to do per frame.
    let m2 = corpus("wowserhq-format/model/tank.m2");
    let skin = corpus("wowserhq-format/model/tank00.skin");
    let fetch = |p: &str| p.ends_with("tank00.skin").then(|| skin.clone());
    let AnyModel::Model(model) = read_model_bytes("tank.m2", &m2, &fetch).unwrap() else {
        panic!("not an M2");
    };
    assert!(model.rig.is_none());
}

/// The 0.5.3 MDX's stand sequence read the wow-mdx-viewer way: chunks `tag, size`; SEQS
/// `count` then 140-byte records (name 80, start, end); BONE and HELP `count` then nodes
/// (`inclusive size, name 80, object id, parent id, flags`, tracks `tag, count, line type,
/// global id` with keys `time, value`), a BONE node followed by two ids; PIVT a vec3 per
/// object id; rotations 64-bit packed quaternions.
struct MdxRead {
    bones: Vec<TestBone>,
    objects: Vec<i32>,
    stand_ms: u32,
    globals: Vec<u32>,
    /// Per mesh vertex, in geoset order: bind position and the object ids of its group.
    vertices: Vec<(Vec3, Vec<u32>)>,
}

fn packed_quat(v: u64) -> Quat {
    if v == 0 {
        return Quat::IDENTITY;
    }
    let step = 1.0 / 1_048_576.0_f64; // 2^-20
    let v = v as i64;
    let x = (v >> 42) as f64 * step / 2.0;
    let y = ((v << 22) >> 43) as f64 * step;
    let z = (((v << 43) >> 43) as f64) * step;
    let w = (1.0 - (x * x + y * y + z * z)).max(0.0).sqrt();
    Quat::from_xyzw(x as f32, y as f32, z as f32, w as f32)
}

fn read_mdx(b: &[u8]) -> MdxRead {
    let mut chunks = std::collections::HashMap::new();
    let mut p = 4;
    while p + 8 <= b.len() {
        let tag: [u8; 4] = b[p..p + 4].try_into().unwrap();
        let size = u32_at(b, p + 4) as usize;
        chunks.insert(tag, (p + 8, size));
        p += 8 + size;
    }
    let (seqs, _) = chunks[b"SEQS"];
    let (start, end) = (0..u32_at(b, seqs) as usize)
        .map(|i| seqs + 4 + 140 * i)
        .find(|&r| b[r..r + 5].eq_ignore_ascii_case(b"stand"))
        .map(|r| (u32_at(b, r + 80), u32_at(b, r + 84)))
        .expect("a Stand sequence");
    let globals = chunks.get(b"GLBS").map_or(Vec::new(), |&(at, size)| {
        (0..size / 4).map(|i| u32_at(b, at + 4 * i)).collect()
    });
    let (pivt, pivt_size) = chunks[b"PIVT"];
    let pivots: Vec<Vec3> = (0..pivt_size / 12)
        .map(|i| vec3_at(b, pivt + 12 * i))
        .collect();
    let mut nodes: Vec<(i32, i32, TestBone)> = Vec::new();
    for (tag, trailer) in [(b"BONE", 8), (b"HELP", 0)] {
        let Some(&(at, _)) = chunks.get(tag) else {
            continue;
        };
        let mut q = at + 4;
        for _ in 0..u32_at(b, at) {
            let size = u32_at(b, q) as usize;
            let object = u32_at(b, q + 84) as i32;
            let parent = u32_at(b, q + 88) as i32;
            let mut bone = TestBone {
                parent: -1,
                pivot: pivots.get(object as usize).copied().unwrap_or(Vec3::ZERO),
                step: [false; 3],
                global: [-1; 3],
                translation: Vec::new(),
                rotation: Vec::new(),
                scale: Vec::new(),
            };
            let mut k = q + 96;
            while k < q + size {
                let (count, line, global) = (
                    u32_at(b, k + 4) as usize,
                    u32_at(b, k + 8),
                    u32_at(b, k + 12) as i32,
                );
                assert!(line <= 1, "the boar's tracks are step or linear");
                let which = match &b[k..k + 4] {
                    b"KGTR" => 0,
                    b"KGRT" => 1,
                    _ => 2,
                };
                let size = if which == 1 { 8 } else { 12 };
                let keys = (0..count).map(|i| k + 16 + (4 + size) * i);
                let in_stand = |t: u32| global >= 0 || (start..=end).contains(&t);
                let rebase = |t: u32| if global >= 0 { t } else { t - start };
                bone.step[which] = line == 0;
                bone.global[which] = global;
                match which {
                    0 | 2 => {
                        let v: Vec<(u32, Vec3)> = keys
                            .filter(|&a| in_stand(u32_at(b, a)))
                            .map(|a| (rebase(u32_at(b, a)), vec3_at(b, a + 4)))
                            .collect();
                        if which == 0 {
                            bone.translation = v
                        } else {
                            bone.scale = v
                        }
                    }
                    _ => {
                        bone.rotation = keys
                            .filter(|&a| in_stand(u32_at(b, a)))
                            .map(|a| {
                                let bits = u64::from_le_bytes(b[a + 4..a + 12].try_into().unwrap());
                                (rebase(u32_at(b, a)), packed_quat(bits))
                            })
                            .collect()
                    }
                }
                k += 16 + (4 + size) * count;
            }
            nodes.push((object, parent, bone));
            q += size + trailer;
        }
    }
    let objects: Vec<i32> = nodes.iter().map(|n| n.0).collect();
    let bones = nodes
        .into_iter()
        .map(|(_, parent, mut bone)| {
            bone.parent = objects
                .iter()
                .position(|&o| o == parent && parent >= 0)
                .map_or(-1, |i| i as i32);
            bone
        })
        .collect();
    // GEOS: per geoset `size`, then sub-chunks `tag, count, data` (UVAS: sets of per-vertex
    // pairs), the vertex groups GNDX, their sizes MTGC and their object ids MATS.
    let (geos, _) = chunks[b"GEOS"];
    let mut vertices = Vec::new();
    let mut g = geos + 4;
    for _ in 0..u32_at(b, geos) {
        let size = u32_at(b, g) as usize;
        let mut k = g + 4;
        let (mut positions, mut groups, mut sizes, mut mats) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        loop {
            let n = u32_at(b, k + 4) as usize;
            let (data, item) = (
                k + 8,
                match &b[k..k + 4] {
                    b"VRTX" | b"NRMS" => 12,
                    b"UVAS" => 8 * positions.len(),
                    b"PTYP" | b"GNDX" => 1,
                    b"PVTX" => 2,
                    b"PCNT" | b"MTGC" | b"MATS" | b"BIDX" | b"BWGT" => 4,
                    _ => break,
                },
            );
            match &b[k..k + 4] {
                b"VRTX" => positions = (0..n).map(|i| vec3_at(b, data + 12 * i)).collect(),
                b"GNDX" => groups = b[data..data + n].to_vec(),
                b"MTGC" => sizes = (0..n).map(|i| u32_at(b, data + 4 * i) as usize).collect(),
                b"MATS" => mats = (0..n).map(|i| u32_at(b, data + 4 * i)).collect(),
                _ => {}
            }
            k = data + n * item;
        }
        for (i, p) in positions.iter().enumerate() {
            let group = groups[i] as usize;
            let first: usize = sizes[..group].iter().sum();
            vertices.push((*p, mats[first..first + sizes[group]].to_vec()));
        }
        g += size;
    }
    MdxRead {
        bones,
        objects,
        stand_ms: end - start,
        globals,
        vertices,
    }
}

#[test]
fn an_alpha_mdx_moves_its_vertices_as_its_bones_say() {
    let bytes = corpus("alpha-mdx/Boar.mdx");
    let AnyModel::Model(model) = read_model_bytes("Boar.mdx", &bytes, &|_| None).unwrap() else {
        panic!("not an MDX");
    };
    let rig = model.rig.as_ref().expect("the boar's stand sequence moves");
    let read = read_mdx(&bytes);
    assert_eq!(
        read.stand_ms,
        8333 - 6667,
        "Boar's first Stand is 'Stand - Var1'"
    );
    assert_eq!(read.vertices.len(), model.mesh.vertices.len());
    let mut previous: Option<Vec<Vec3>> = None;
    let mut moved = 0;
    for seconds in [0.2, 0.9] {
        let m = world_matrices(&read.bones, seconds, read.stand_ms, &read.globals);
        let mut posed = Vec::new();
        rig.skin(&model.mesh.vertices, &rig.pose(seconds), &mut posed);
        let mut now = Vec::new();
        for (k, (bind, ids)) in read.vertices.iter().enumerate() {
            assert_eq!(Vec3::from(model.mesh.vertices[k].position), *bind);
            // Every matrix of the vertex's group, equally.
            let bones: Vec<usize> = ids
                .iter()
                .filter_map(|&id| read.objects.iter().position(|&o| o == id as i32))
                .collect();
            let want = bones
                .iter()
                .map(|&i| m[i].transform_point3(*bind))
                .sum::<Vec3>()
                / bones.len() as f32;
            let got = Vec3::from(posed[k].position);
            assert!(
                (got - want).length() < 1e-3,
                "vertex {k} at {seconds} s: loam {got}, bones {want}"
            );
            now.push(got);
        }
        if let Some(p) = &previous {
            moved = p
                .iter()
                .zip(&now)
                .filter(|(a, b)| a.distance(**b) > 1e-3)
                .count();
        }
        previous = Some(now);
    }
    assert!(
        moved > 50,
        "only {moved} vertices moved between the two times"
    );
}
