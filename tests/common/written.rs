//! A sample map's tiles as the `wow-adt` crate reads them (a reader that is not loam's): doodads
//! by uid, chunks with absolute heights and layers, and the ground and texture weights the
//! client would draw from them. Shared by the scatter and Lua script tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

pub const TILE: f64 = 1600.0 / 3.0;
pub const CHUNK: f64 = TILE / 16.0;
pub const UNIT: f64 = CHUNK / 8.0;
pub const ORIGIN: f64 = 32.0 * TILE;
/// The sample's tiles, as (X, Y) of their file names.
pub const TILES: [(usize, usize); 4] = [(31, 31), (32, 31), (31, 32), (32, 32)];

/// One placed doodad as a file says it: world position (x north, y west, z up), record
/// rotation, scale (1024 = 1) and model.
#[derive(Debug, Clone, PartialEq)]
pub struct Doodad {
    pub model: String,
    pub at: [f64; 3],
    pub rotation: [f32; 3],
    pub scale: u16,
}

/// One chunk as `wow-adt` reads it: absolute heights, layers (texture name, alpha or none).
pub struct Chunk {
    pub heights: Vec<f32>,
    pub layers: Vec<(String, Option<Vec<u8>>)>,
}

/// A map's doodads by uid (checking that every tile listing a uid says the same) and its
/// WMO uids, and its chunks by (tile X, tile Y, chunk X, chunk Y).
pub struct Written {
    pub doodads: BTreeMap<u32, Doodad>,
    pub wmos: BTreeSet<u32>,
    pub chunks: BTreeMap<(usize, usize, usize, usize), Chunk>,
}

/// A layer's 64×64 alpha map from MCAL, decoded here: RLE, 8-bit or 4-bit.
pub fn alpha(data: &[u8], flags: u32, offset: usize) -> Vec<u8> {
    if flags & 0x200 != 0 {
        return super::decode_rle_alpha(&data[offset..]);
    }
    if data.len() >= offset + 4096 {
        return data[offset..offset + 4096].to_vec();
    }
    data[offset..offset + 2048]
        .iter()
        .flat_map(|b| [(b & 0xF) * 17, (b >> 4) * 17])
        .collect()
}

pub fn read(dir: &Path) -> Written {
    let mut w = Written {
        doodads: BTreeMap::new(),
        wmos: BTreeSet::new(),
        chunks: BTreeMap::new(),
    };
    for (tx, ty) in TILES {
        let root = super::root_adt(&dir.join(format!("Sample_{tx}_{ty}.adt")));
        for d in &root.doodad_placements {
            let doodad = Doodad {
                model: root.models[d.name_id as usize].clone(),
                at: [
                    ORIGIN - f64::from(d.position[2]),
                    ORIGIN - f64::from(d.position[0]),
                    f64::from(d.position[1]),
                ],
                rotation: d.rotation,
                scale: d.scale,
            };
            let old = w.doodads.insert(d.unique_id, doodad.clone());
            assert!(
                old.is_none_or(|o| o == doodad),
                "uid {} names two different doodads",
                d.unique_id
            );
        }
        w.wmos
            .extend(root.wmo_placements.iter().map(|p| p.unique_id));
        for m in &root.mcnk_chunks {
            let data = m.alpha.as_ref().map(|a| a.data.clone()).unwrap_or_default();
            let layers = m
                .layers
                .as_ref()
                .map(|l| {
                    l.layers
                        .iter()
                        .enumerate()
                        .map(|(k, l)| {
                            let name = root.textures[l.texture_id as usize].clone();
                            let a = (k > 0)
                                .then(|| alpha(&data, l.flags.value, l.offset_in_mcal as usize));
                            (name, a)
                        })
                        .collect()
                })
                .unwrap_or_default();
            w.chunks.insert(
                (tx, ty, m.header.index_x as usize, m.header.index_y as usize),
                Chunk {
                    heights: super::absolute_heights(m),
                    layers,
                },
            );
        }
    }
    w
}

/// Where world (x, y) falls: the chunk's key, the position in it in quads (east, south).
pub fn locate(x: f64, y: f64) -> ((usize, usize, usize, usize), f64, f64) {
    let (e, s) = (ORIGIN - y, ORIGIN - x);
    let (tx, ty) = ((e / TILE).floor() as usize, (s / TILE).floor() as usize);
    let (e, s) = (e - tx as f64 * TILE, s - ty as f64 * TILE);
    let (cx, cy) = (
        ((e / CHUNK).floor() as usize).min(15),
        ((s / CHUNK).floor() as usize).min(15),
    );
    (
        (tx, ty, cx, cy),
        (e - cx as f64 * CHUNK) / UNIT,
        (s - cy as f64 * CHUNK) / UNIT,
    )
}

impl Written {
    /// The ground at world (x, y) as the client draws it: each quad is four triangles around
    /// its centre vertex; the height on the one holding the point, and its up normal in world
    /// axes.
    pub fn ground(&self, x: f64, y: f64) -> (f64, [f64; 3]) {
        let (key, u, v) = locate(x, y);
        let c = &self.chunks[&key];
        let (qx, qy) = ((u.floor() as usize).min(7), (v.floor() as usize).min(7));
        let h = |i: usize| f64::from(c.heights[i]);
        // (east, south) in quads and height.
        let tl = (qx as f64, qy as f64, h(qy * 17 + qx));
        let tr = (qx as f64 + 1.0, qy as f64, h(qy * 17 + qx + 1));
        let bl = (qx as f64, qy as f64 + 1.0, h((qy + 1) * 17 + qx));
        let br = (qx as f64 + 1.0, qy as f64 + 1.0, h((qy + 1) * 17 + qx + 1));
        let m = (qx as f64 + 0.5, qy as f64 + 0.5, h(qy * 17 + 9 + qx));
        let side = |a: (f64, f64, f64), b: (f64, f64, f64)| {
            (b.0 - a.0) * (v - a.1) - (b.1 - a.1) * (u - a.0)
        };
        let tri = [(tl, tr), (tr, br), (br, bl), (bl, tl)]
            .into_iter()
            .find(|&(a, b)| {
                let s = [side(a, b), side(b, m), side(m, a)];
                s.iter().all(|&k| k >= -1e-9) || s.iter().all(|&k| k <= 1e-9)
            })
            .expect("the point lies in one of the quad's triangles");
        let (a, b) = tri;
        // World positions of the three corners.
        let (tx, ty, cx, cy) = key;
        let world = |p: (f64, f64, f64)| {
            [
                ORIGIN - (ty as f64 * TILE + cy as f64 * CHUNK + p.1 * UNIT),
                ORIGIN - (tx as f64 * TILE + cx as f64 * CHUNK + p.0 * UNIT),
                p.2,
            ]
        };
        let (pa, pb, pm) = (world(a), world(b), world(m));
        let e1 = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
        let e2 = [pm[0] - pa[0], pm[1] - pa[1], pm[2] - pa[2]];
        let mut n = [
            e1[1] * e2[2] - e1[2] * e2[1],
            e1[2] * e2[0] - e1[0] * e2[2],
            e1[0] * e2[1] - e1[1] * e2[0],
        ];
        if n[2] < 0.0 {
            n = n.map(|k| -k);
        }
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        let n = n.map(|k| k / len);
        // The plane through the three: n · (p − pa) = 0.
        let z = pa[2] - (n[0] * (x - pa[0]) + n[1] * (y - pa[1])) / n[2];
        (z, n)
    }

    /// The weight 0..1 of `texture` at world (x, y): its layer's alpha, for the base layer
    /// what the others leave.
    pub fn texture_weight(&self, texture: &str, x: f64, y: f64) -> f64 {
        let (key, u, v) = locate(x, y);
        let c = &self.chunks[&key];
        let (col, row) = (((u * 8.0) as usize).min(63), ((v * 8.0) as usize).min(63));
        let mut others = 0u32;
        let mut weight = 0u32;
        for (name, a) in c.layers.iter().skip(1) {
            let a = u32::from(a.as_ref().unwrap()[row * 64 + col]);
            others += a;
            if name.eq_ignore_ascii_case(texture) {
                weight += a;
            }
        }
        if c.layers[0].0.eq_ignore_ascii_case(texture) {
            weight += 255u32.saturating_sub(others);
        }
        f64::from(weight.min(255)) / 255.0
    }
}

/// The doodads `after` has that `before` lacks.
pub fn new_doodads(before: &Written, after: &Written) -> BTreeMap<u32, Doodad> {
    after
        .doodads
        .iter()
        .filter(|(u, _)| !before.doodads.contains_key(u) && !before.wmos.contains(u))
        .map(|(u, d)| (*u, d.clone()))
        .collect()
}
