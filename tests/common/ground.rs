//! A sample map's vertices as the `wow-adt` crate reads them: each vertex once, keyed by its
//! place in the world, with every copy's height (so that a seam shows as two heights). Shared
//! by the erosion and Lua script tests.

use std::collections::BTreeMap;
use std::path::Path;

pub const TILE: f64 = 1600.0 / 3.0;
pub const CHUNK: f64 = TILE / 16.0;
pub const UNIT: f64 = CHUNK / 8.0;
/// The sample's tiles, as (X, Y) of their file names.
pub const TILES: [(u8, u8); 4] = [(31, 31), (32, 31), (31, 32), (32, 32)];

/// A vertex by its place in the world: world (x, y) in hundredths of a yard and whether it is
/// an inner vertex. Shared copies in neighbouring chunks and tiles are one key.
pub type Key = (i64, i64, bool);

/// A map folder's vertices as `wow-adt` reads them: each vertex once, with every copy's
/// height (so that a seam shows as two heights).
pub struct Ground {
    pub heights: BTreeMap<Key, Vec<f32>>,
    /// Each chunk's 145 keys, in MCVT order, for walking the triangles' edges.
    pub chunks: Vec<Vec<Key>>,
}

impl Ground {
    pub fn read(dir: &Path) -> Ground {
        let mut heights: BTreeMap<Key, Vec<f32>> = BTreeMap::new();
        let mut chunks = Vec::new();
        for (tx, ty) in TILES {
            let root = super::root_adt(&dir.join(format!("Sample_{tx}_{ty}.adt")));
            for m in &root.mcnk_chunks {
                let (cx, cy) = (m.header.index_x as usize, m.header.index_y as usize);
                let mut keys = Vec::with_capacity(145);
                for (i, h) in super::absolute_heights(m).into_iter().enumerate() {
                    let (row, rem) = ((i / 17) as f64, i % 17);
                    let (south, east, inner) = if rem < 9 {
                        (row, rem as f64, false)
                    } else {
                        (row + 0.5, (rem - 9) as f64 + 0.5, true)
                    };
                    let x = (32.0 - f64::from(ty)) * TILE - cy as f64 * CHUNK - south * UNIT;
                    let y = (32.0 - f64::from(tx)) * TILE - cx as f64 * CHUNK - east * UNIT;
                    let key = (
                        (x * 100.0).round() as i64,
                        (y * 100.0).round() as i64,
                        inner,
                    );
                    heights.entry(key).or_default().push(h);
                    keys.push(key);
                }
                chunks.push(keys);
            }
        }
        Ground { heights, chunks }
    }

    pub fn height(&self, k: &Key) -> f32 {
        self.heights[k][0]
    }

    /// The edges of the triangles the client draws: outer to outer along rows and columns,
    /// each inner vertex to its quad's four corners.
    pub fn edges(&self) -> Vec<(Key, Key)> {
        let mut out = Vec::new();
        for keys in &self.chunks {
            let outer = |r: usize, c: usize| keys[r * 17 + c];
            for r in 0..9 {
                for c in 0..9 {
                    if c < 8 {
                        out.push((outer(r, c), outer(r, c + 1)));
                    }
                    if r < 8 {
                        out.push((outer(r, c), outer(r + 1, c)));
                    }
                    if r < 8 && c < 8 {
                        let inner = keys[r * 17 + 9 + c];
                        for (dr, dc) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                            out.push((inner, outer(r + dr, c + dc)));
                        }
                    }
                }
            }
        }
        out
    }
}

pub fn world(k: &Key) -> [f64; 2] {
    [k.0 as f64 / 100.0, k.1 as f64 / 100.0]
}

pub fn distance(k: &Key, p: [f64; 2]) -> f64 {
    let [x, y] = world(k);
    ((x - p[0]).powi(2) + (y - p[1]).powi(2)).sqrt()
}
