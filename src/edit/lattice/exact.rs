//! Heights that every copy of a shared vertex stores alike. The 1.12 to 3.3.5 and 0.6.0 files
//! keep a chunk's heights relative to its own base (MCNK position + MCVT offsets), so one
//! absolute height written to two chunks with different bases can read back as two floats a few
//! millionths of a yard apart: a seam `loam check --seam-threshold 0` sees. Each written shared
//! vertex therefore takes the nearest float that survives `base + (h - base)` for the base of
//! every chunk holding it; where the bases' grids never meet near it, those chunks get base 0,
//! which stores any height exactly (their absolute heights stay as they are).
//!
//! The brushes (through `patch`), `import_heightmap` and `loam fix --seams` (`seams`) all store
//! heights through here. Which chunks are rebased is decided from the bases as they were before
//! any is changed, so the result does not depend on the order vertices are visited.

use std::collections::BTreeSet;

use crate::edit::lattice::Vertex;
use crate::model::{Map, TileCoord};

/// The float nearest `h` that survives being stored relative to each of `bases` and read back
/// (`base + (h - base)`), or `None` when none is near (the bases' grids do not meet there).
pub fn storable(h: f32, bases: &[f32]) -> Option<f32> {
    let keeps = |h: f32| {
        bases
            .iter()
            .all(|&b| (b + (h - b)).to_bits() == h.to_bits())
    };
    if keeps(h) {
        return Some(h);
    }
    // What a file would give back is the natural candidate: a fixed point after a step or two.
    let mut c = h;
    for _ in 0..4 {
        for &b in bases {
            c = b + (c - b);
        }
        if keeps(c) {
            return Some(c);
        }
    }
    // Otherwise the floats around `h`, nearest first; the spacing of storable heights is at
    // most the largest base's step, a few hundred of `h`'s steps when `h` is near zero.
    let (mut up, mut down) = (h, h);
    for _ in 0..1024 {
        up = next_float(up, true);
        if keeps(up) {
            return Some(up);
        }
        down = next_float(down, false);
        if keeps(down) {
            return Some(down);
        }
    }
    None
}

/// The next float above (`up`) or below `h` (`f32::next_up` is newer than the crate's MSRV).
pub(crate) fn next_float(h: f32, up: bool) -> f32 {
    if h == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let bits = h.to_bits();
    // Away from zero the magnitude, and so the bits, grow.
    f32::from_bits(if (h > 0.0) == up { bits + 1 } else { bits - 1 })
}

/// Gives the chunks `chunks` base 0, which stores any height exactly; their absolute heights
/// are unchanged, only what the file will store. The caller has snapshotted them.
pub fn rebase(map: &mut Map, chunks: impl IntoIterator<Item = (TileCoord, usize)>) {
    for (tile, chunk) in chunks {
        if let Some(c) = map.tiles.get_mut(&tile).map(|t| &mut t.chunks[chunk]) {
            c.base_height = 0.0;
            c.quirks.relative_heights = None;
        }
    }
}

/// Makes each of `vertices` (just written, every loaded copy holding the same height) read
/// back alike from every chunk holding it: its height moves to the nearest float every base
/// stores (a few of its last bits at most), or its chunks are rebased. Vertices held by one
/// loaded chunk only are left as they are: they have no copy to disagree with. The chunks
/// changed here all hold one of `vertices`, so whoever wrote them has snapshotted them.
pub fn settle(map: &mut Map, vertices: &[Vertex]) {
    let mut rebased: BTreeSet<(TileCoord, usize)> = BTreeSet::new();
    for &v in vertices {
        let (held, bases): (Vec<(TileCoord, usize, usize)>, Vec<f32>) = v
            .copies()
            .filter_map(|c| {
                let chunk = &map.tiles.get(&c.tile)?.chunks[c.chunk];
                Some(((c.tile, c.chunk, c.index), chunk.base_height))
            })
            .unzip();
        let Some(&(tile, chunk, index)) = held.first() else {
            continue;
        };
        let h = map.tiles[&tile].chunks[chunk].heights[index];
        if held.len() < 2 || !h.is_finite() {
            continue;
        }
        match storable(h, &bases) {
            Some(s) if s.to_bits() == h.to_bits() => {}
            Some(s) => {
                for &(t, c, i) in &held {
                    if let Some(tile) = map.tiles.get_mut(&t) {
                        tile.chunks[c].heights[i] = s;
                    }
                }
            }
            None => rebased.extend(held.iter().map(|&(t, c, _)| (t, c))),
        }
    }
    rebase(map, rebased);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Tile;
    use crate::model::coords;

    #[test]
    fn next_float_steps_one_float() {
        for h in [1.0f32, -1.0, 0.3, -1e-30, 0.0] {
            let (up, down) = (next_float(h, true), next_float(h, false));
            assert!(up > h && down < h, "{h}");
            assert_eq!(next_float(up, false), h);
            assert_eq!(next_float(down, true), h);
        }
    }

    #[test]
    fn storable_heights_survive_storage_relative_to_each_chunk_base() {
        for (h, bases) in [
            (0.3f32, vec![100.0f32, -250.0]),
            (12.345, vec![12.0, 900.0, -3.0, 0.0]),
            (-0.001, vec![4000.0, 1.0]),
            (57.1, vec![57.1, 57.1]),
        ] {
            let s = storable(h, &bases).expect("a storable float near");
            for b in &bases {
                assert_eq!((b + (s - b)).to_bits(), s.to_bits(), "{h} over {b}");
            }
            assert!((s - h).abs() < 1e-3, "{h} moved to {s}");
        }
    }

    #[test]
    fn bases_whose_grids_never_meet_store_no_common_float() {
        // Two bases of other tools' making whose last bits disagree: near 238.06 one keeps the
        // even floats only and the other the odd ones.
        let bases = [102.24699f32, -244.99013];
        assert_eq!(storable(238.05565, &bases), None);
        assert_eq!(
            storable(238.05565, &[0.0]),
            Some(238.05565),
            "base 0 stores anything"
        );
    }

    #[test]
    fn settled_vertices_read_back_alike_from_every_chunk() {
        let coord = TileCoord::new(31, 31).unwrap();
        let mut map = Map::new("Test");
        map.tiles.insert(coord, Tile::flat(coord, "T.blp", 0.0));
        // Chunks 0 and 1 share their border; their bases are ones no common float meets near
        // 238.06, chunks 16 and 17 have bases that merely round differently.
        let bases = [(0, 102.24699f32), (1, -244.99013), (16, 0.3), (17, 12.5)];
        for (chunk, base) in bases {
            map.tiles.get_mut(&coord).unwrap().chunks[chunk].base_height = base;
        }
        let a = Vertex::of(coord, 0, coords::outer_vertex(4, 8));
        let b = Vertex::of(coord, 16, coords::outer_vertex(4, 8));
        for (v, h) in [(a, 238.05565f32), (b, 0.123_456_79)] {
            for c in v.copies() {
                map.tiles.get_mut(&c.tile).unwrap().chunks[c.chunk].heights[c.index] = h;
            }
        }
        settle(&mut map, &[a, b]);
        let tile = &map.tiles[&coord];
        assert_eq!(
            (tile.chunks[0].base_height, tile.chunks[1].base_height),
            (0.0, 0.0),
            "no float meets both bases: both chunks rebased"
        );
        assert_eq!(tile.chunks[16].base_height, 0.3, "a near float was enough");
        for v in [a, b] {
            let read: Vec<u32> = v
                .copies()
                .map(|c| {
                    let chunk = &tile.chunks[c.chunk];
                    let h = chunk.heights[c.index];
                    let base = chunk.base_height;
                    (base + (h - base)).to_bits()
                })
                .collect();
            assert!(read.iter().all(|&r| r == read[0]), "{v:?}: {read:?}");
        }
        assert!((tile.chunks[16].heights[coords::outer_vertex(4, 8)] - 0.123_456_79).abs() < 1e-5);
    }
}
