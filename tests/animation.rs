//! Living models: a corpus M2 (3.3.5) and a 0.5.3 MDX posed by loam at two times of their stand
//! sequence match bone transforms computed here, independently, from the files' own tracks
//! (wowdev wiki "M2" for the M2 layout; barncastle/wow-mdx-viewer for the MDX one): the track
//! read, the key search, linear and spherical interpolation and the parent chain are all
//! written again below rather than borrowed from loam.

use glam::{Mat4, Quat, Vec3};
use loam::assets::models::{AnyModel, read_model_bytes};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");

fn corpus(path: &str) -> Vec<u8> {
    let p = std::path::Path::new(CORPUS).join(path);
    let p = if p.exists() {
        p
    } else {
        std::path::Path::new("/work/shared/corpus").join(path)
    };
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
