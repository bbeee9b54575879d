//! A map with seams for the seam tests: the bundled sample with float noise on the border
//! vertices of every other chunk and three tears (75, 60 and 50 yd: inside a tile, across a
//! vertical tile border and across a horizontal one).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use loam::disk;
use loam::model::coords::outer_vertex;
use loam::pipeline;

/// A tear: one copy of a border vertex in the first tile raised by `yards`.
pub struct Tear {
    /// Chunk (x, y) in the first tile.
    pub chunk: (usize, usize),
    /// Vertex (row, column) in the chunk, on its border.
    pub vertex: (usize, usize),
    /// How far it is raised.
    pub yards: f32,
}

/// The tears, largest first: inside the tile, across its east border, across its south border.
/// Each is on a chunk of odd parity (global column + row), in the middle of a border, so it
/// makes exactly one seam.
pub const TEARS: [Tear; 3] = [
    Tear {
        chunk: (1, 0),
        vertex: (4, 0),
        yards: 75.0,
    },
    Tear {
        chunk: (15, 4),
        vertex: (3, 8),
        yards: 60.0,
    },
    Tear {
        chunk: (6, 15),
        vertex: (8, 5),
        yards: 50.0,
    },
];

/// Neighbouring chunk pairs of a 2×2-tile map: 480 inside each tile, 16 along each of the four
/// tile borders.
pub const BORDERS: usize = 4 * 480 + 4 * 16;

/// Shared outer vertices of a 2×2-tile map: 31 inner chunk lines each way, 257 vertices long,
/// crossing 31 × 31 times.
pub const SHARED_VERTICES: usize = 2 * 31 * 257 - 31 * 31;

/// Writes the sample map into `dir`, perturbs it as the module says and writes it back; returns
/// the WDT.
pub fn write(dir: &Path) -> PathBuf {
    loam::sample::write_sample(dir).expect("sample written");
    let wdt = dir.join("Sample.wdt");
    let mut opened = pipeline::open_map(&wdt).expect("sample opens");
    let map = &mut opened.map;
    let first = *map.tiles.keys().next().unwrap();
    let mut next = xorshift(0x2545_f491);
    for (coord, tile) in map.tiles.iter_mut() {
        for (i, chunk) in tile.chunks.iter_mut().enumerate() {
            let (cx, cy) = (i % 16, i / 16);
            let global = coord.x as usize * 16 + cx + coord.y as usize * 16 + cy;
            if !global.is_multiple_of(2) {
                continue;
            }
            for k in 0..9 {
                for (r, c) in [(0, k), (8, k), (k, 0), (k, 8)] {
                    // 0.001 to 0.004 yd, either way: never zero, never over the threshold.
                    let n = 0.001 + 0.003 * next();
                    let sign = if next() < 0.5 { -1.0 } else { 1.0 };
                    chunk.heights[outer_vertex(r, c)] += sign * n;
                }
            }
        }
    }
    for t in TEARS {
        let ((cx, cy), (r, c)) = (t.chunk, t.vertex);
        let tile = map.tiles.get_mut(&first).unwrap();
        tile.chunk_mut(cx, cy).heights[outer_vertex(r, c)] += t.yards;
    }
    let files = pipeline::encode_map(map, opened.generation, true, None).expect("encodes");
    disk::write_files(dir, &files, |_| {}).expect("written");
    wdt
}

/// [`write`], then every chunk given a base z of the kind other tools leave: anywhere within
/// ±400 yd of nothing in particular, either sign, with every last bit used. Heights are stored
/// relative to it, so many shared vertices have no float near their mean that every sharing
/// chunk stores exactly (`edit::terrain::seams`). Returns the WDT.
pub fn write_with_scattered_bases(dir: &Path) -> PathBuf {
    let wdt = write(dir);
    let mut opened = pipeline::open_map(&wdt).expect("seamy map opens");
    let mut seed = 0x9e37_79b9_u32;
    for tile in opened.map.tiles.values_mut() {
        for chunk in tile.chunks.iter_mut() {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            chunk.base_height = (seed as f32 / u32::MAX as f32 - 0.5) * 800.0;
        }
    }
    let files = pipeline::encode_map(&opened.map, opened.generation, true, None).expect("encodes");
    disk::write_files(dir, &files, |_| {}).expect("written");
    wdt
}

/// A xorshift32 generator from `seed`: each call gives the next number, in 0..=1.
pub fn xorshift(mut seed: u32) -> impl FnMut() -> f32 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed as f32 / u32::MAX as f32
    }
}
