//! Seams: a vertex on a chunk border is stored once in each chunk that shares it (twice along an
//! edge, four times at a chunk corner, across tiles too). When the copies disagree the terrain
//! has a crack: float noise left by other tools (thousandths of a yard) or a real tear (yards).
//! This module measures seams (for `loam check`) and closes them (`loam fix --seams`, the
//! editor's Edit ▸ Stitch seams).
//!
//! The rule: every shared vertex takes the **mean of its loaded copies**. The mean does not
//! depend on which tile was read first or which side is "right" (neither is: a tear is as likely
//! a bad edit on one side as on the other), moves no copy by more than the spread of the copies,
//! and leaves a vertex whose copies already agree exactly as it is, so stitching twice changes
//! nothing. The mean is then moved to the nearest float that every sharing chunk stores exactly:
//! the 1.12 to 3.3.5 and 0.6.0 files keep heights relative to a per-chunk base, and a height that
//! does not survive `base + (h - base)` would reopen the seam by a few millionths of a yard on
//! save (the storing rule is `exact`'s, which the brushes use too). Some bases admit no common float near the mean (two bases whose last bits disagree, as
//! other tools leave them, allow alternate floats each): then every chunk sharing that vertex
//! gets base 0, which stores any height exactly (its absolute heights are unchanged; only the
//! stored values change). Which chunks are rebased is decided from the bases as read, never from
//! the order vertices are visited, so a tile stitched on its own against its neighbours' strips
//! (`tile_stitch`) comes out as the whole map does. Only heights are stitched; the normals of every vertex sharing a triangle with a
//! changed vertex are then recomputed (and so also agree). Borders with tiles that are not
//! loaded are left alone, and so are vertices with a copy that is not a finite number (`check`
//! reports those on their own).
//!
//! Not for: how problems are printed (`cli::check`) or files (`cli::fix`).

use std::collections::{BTreeMap, BTreeSet};

use crate::edit::lattice::Vertex;
use crate::edit::lattice::exact;
use crate::edit::lattice::normals;
use crate::edit::stroke::{Stroke, TerrainEdit};
use crate::model::coords::{self, CHUNKS_PER_SIDE, TileCoord};
use crate::model::{Chunk, Map, Tile};

/// One chunk of one tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ChunkAt {
    /// The tile.
    pub tile: TileCoord,
    /// Chunk column (0..16, eastward with the file's X).
    pub x: usize,
    /// Chunk row (0..16, southward with the file's Y).
    pub y: usize,
}

/// The border shared by two neighbouring chunks, where their copies of the border vertices
/// disagree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seam {
    /// The west or north chunk.
    pub a: ChunkAt,
    /// Its east or south neighbour.
    pub b: ChunkAt,
    /// The largest height difference (yards) between the two copies of a vertex on the border.
    pub size: f32,
}

impl Seam {
    /// True when the two chunks are in different tiles.
    pub fn crosses_tiles(&self) -> bool {
        self.a.tile != self.b.tile
    }
}

/// Every border between loaded neighbouring chunks whose copies differ, largest first (ties in
/// map order, so the list is stable).
pub fn find(map: &Map) -> Vec<Seam> {
    let edges: BTreeMap<TileCoord, TileEdges> = map
        .tiles
        .iter()
        .map(|(c, t)| (*c, TileEdges::of(t)))
        .collect();
    let mut out: Vec<Seam> = map.tiles.values().flat_map(within).collect();
    out.extend(between_tiles(&edges));
    sort(&mut out);
    out
}

/// Orders seams as [`find`] lists them: largest first, ties in map order.
pub fn sort(seams: &mut [Seam]) {
    seams.sort_by(|p, q| {
        q.size
            .total_cmp(&p.size)
            .then_with(|| (p.a, p.b).cmp(&(q.a, q.b)))
    });
}

/// The seams between chunks of one tile, in no particular order.
pub fn within(tile: &Tile) -> Vec<Seam> {
    let mut out = Vec::new();
    let at = |x, y| ChunkAt {
        tile: tile.coord,
        x,
        y,
    };
    for y in 0..CHUNKS_PER_SIDE {
        for x in 0..CHUNKS_PER_SIDE {
            let here = tile.chunk(x, y);
            if x + 1 < CHUNKS_PER_SIDE {
                let east = tile.chunk(x + 1, y);
                out.extend(
                    border(&edge(here, Side::East), &edge(east, Side::West)).map(|size| Seam {
                        a: at(x, y),
                        b: at(x + 1, y),
                        size,
                    }),
                );
            }
            if y + 1 < CHUNKS_PER_SIDE {
                let south = tile.chunk(x, y + 1);
                out.extend(
                    border(&edge(here, Side::South), &edge(south, Side::North)).map(|size| Seam {
                        a: at(x, y),
                        b: at(x, y + 1),
                        size,
                    }),
                );
            }
        }
    }
    out
}

/// The heights a tile shares with its four neighbours: the copies on its border, which are all
/// [`between_tiles`] needs, so that seams across a map can be measured without holding its tiles
/// (`loam check` reads a map tile by tile).
#[derive(Debug, Clone, PartialEq)]
pub struct TileEdges {
    /// The tile.
    pub coord: TileCoord,
    /// Per chunk row, the 9 heights of its westmost chunk's west edge, north to south.
    pub west: [[f32; 9]; CHUNKS_PER_SIDE],
    /// Per chunk row, the 9 heights of its eastmost chunk's east edge.
    pub east: [[f32; 9]; CHUNKS_PER_SIDE],
    /// Per chunk column, the 9 heights of its northmost chunk's north edge, west to east.
    pub north: [[f32; 9]; CHUNKS_PER_SIDE],
    /// Per chunk column, the 9 heights of its southmost chunk's south edge.
    pub south: [[f32; 9]; CHUNKS_PER_SIDE],
}

impl TileEdges {
    /// The border heights of `tile`.
    pub fn of(tile: &Tile) -> TileEdges {
        let last = CHUNKS_PER_SIDE - 1;
        TileEdges {
            coord: tile.coord,
            west: std::array::from_fn(|y| edge(tile.chunk(0, y), Side::West)),
            east: std::array::from_fn(|y| edge(tile.chunk(last, y), Side::East)),
            north: std::array::from_fn(|x| edge(tile.chunk(x, 0), Side::North)),
            south: std::array::from_fn(|x| edge(tile.chunk(x, last), Side::South)),
        }
    }
}

/// The seams between neighbouring tiles of `edges` (each tile with its east and south
/// neighbour, when that is there), in no particular order.
pub fn between_tiles(edges: &BTreeMap<TileCoord, TileEdges>) -> Vec<Seam> {
    let mut out = Vec::new();
    for (&coord, here) in edges {
        let neighbour = |dx, dy| {
            TileCoord::new(coord.x as usize + dx, coord.y as usize + dy).and_then(|c| edges.get(&c))
        };
        let at = |tile, x, y| ChunkAt { tile, x, y };
        let last = CHUNKS_PER_SIDE - 1;
        if let Some(east) = neighbour(1, 0) {
            for y in 0..CHUNKS_PER_SIDE {
                out.extend(border(&here.east[y], &east.west[y]).map(|size| Seam {
                    a: at(coord, last, y),
                    b: at(east.coord, 0, y),
                    size,
                }));
            }
        }
        if let Some(south) = neighbour(0, 1) {
            for x in 0..CHUNKS_PER_SIDE {
                out.extend(border(&here.south[x], &south.north[x]).map(|size| Seam {
                    a: at(coord, x, last),
                    b: at(south.coord, x, 0),
                    size,
                }));
            }
        }
    }
    out
}

/// A side of a chunk.
#[derive(Clone, Copy)]
enum Side {
    West,
    East,
    North,
    South,
}

/// The 9 outer heights along one side of `chunk`, north to south or west to east.
fn edge(chunk: &Chunk, side: Side) -> [f32; 9] {
    std::array::from_fn(|k| {
        chunk.heights[match side {
            Side::West => coords::outer_vertex(k, 0),
            Side::East => coords::outer_vertex(k, 8),
            Side::North => coords::outer_vertex(0, k),
            Side::South => coords::outer_vertex(8, k),
        }]
    })
}

/// The largest difference between two copies of one border, when any copy differs.
fn border(a: &[f32; 9], b: &[f32; 9]) -> Option<f32> {
    let mut differs = false;
    let mut worst = 0f32;
    for (ha, hb) in a.iter().zip(b) {
        if ha != hb {
            differs = true;
            worst = worst.max((ha - hb).abs());
        }
    }
    differs.then_some(worst)
}

/// What a stitch did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stitched {
    /// Shared vertices whose copies were made equal (each counted once, however many copies).
    pub vertices: usize,
    /// The largest change to any one copy, in yards.
    pub largest: f32,
    /// The chunks written (heights or normals), in the order first written.
    pub chunks: Vec<(TileCoord, usize)>,
}

/// Gives every shared border vertex of the loaded tiles one height, the mean of its loaded
/// copies, and recomputes the normals around the changed ones. `before_write(map, tile, chunk)`
/// runs once per chunk before its first change (so that a [`Stroke`] can snapshot it).
pub fn stitch(map: &mut Map, before_write: impl FnMut(&Map, TileCoord, usize)) -> Stitched {
    let vertices = border_vertices(map);
    stitch_vertices(map, vertices, before_write).0
}

/// [`stitch`] of the shared vertices `vertices` only; also returns the vertices it changed.
pub(crate) fn stitch_vertices(
    map: &mut Map,
    vertices: BTreeSet<Vertex>,
    mut before_write: impl FnMut(&Map, TileCoord, usize),
) -> (Stitched, Vec<Vertex>) {
    let mut report = Stitched::default();
    let mut written: BTreeSet<(TileCoord, usize)> = BTreeSet::new();
    let mut changed = Vec::new();
    // Chunks that get base 0: one of their vertices has no float every sharing base stores.
    let mut rebase: BTreeSet<(TileCoord, usize)> = BTreeSet::new();
    for v in vertices {
        let (heights, bases): (Vec<f32>, Vec<f32>) = v
            .copies()
            .filter_map(|c| {
                let chunk = &map.tiles.get(&c.tile)?.chunks[c.chunk];
                Some((chunk.heights[c.index], chunk.base_height))
            })
            .unzip();
        if heights.len() < 2
            || heights.iter().all(|&h| h == heights[0])
            || heights.iter().any(|h| !h.is_finite())
        {
            continue;
        }
        // In f64 so that copies that already agree give back exactly their height.
        let mean = (heights.iter().map(|&h| h as f64).sum::<f64>() / heights.len() as f64) as f32;
        // Bases are only changed after the loop, so `bases` are always those read.
        let mean = match exact::storable(mean, &bases) {
            Some(h) => h,
            None => {
                rebase.extend(
                    v.copies()
                        .filter(|c| map.tiles.contains_key(&c.tile))
                        .map(|c| (c.tile, c.chunk)),
                );
                mean
            }
        };
        for c in v.copies() {
            if !map.tiles.contains_key(&c.tile) {
                continue;
            }
            if written.insert((c.tile, c.chunk)) {
                before_write(map, c.tile, c.chunk);
                report.chunks.push((c.tile, c.chunk));
            }
            if let Some(t) = map.tiles.get_mut(&c.tile) {
                let h = &mut t.chunks[c.chunk].heights[c.index];
                report.largest = report.largest.max((*h - mean).abs());
                *h = mean;
            }
        }
        report.vertices += 1;
        changed.push(v);
    }
    // Already written: every rebased chunk holds a changed vertex.
    exact::rebase(map, rebase);
    for (tile, chunk) in normals::recompute_around(map, &changed, |m, t, c| {
        if !written.contains(&(t, c)) {
            before_write(m, t, c);
        }
    }) {
        if written.insert((tile, chunk)) {
            report.chunks.push((tile, chunk));
        }
    }
    (report, changed)
}

/// [`stitch`] as one undo step ("Stitch seams, N chunks"), holding each touched chunk before and
/// after; `None` when there was nothing to stitch. The map already holds the result.
pub fn stitch_step(map: &mut Map) -> (Stitched, Option<TerrainEdit>) {
    let mut stroke = Stroke::new("Stitch seams");
    let stitched = stitch(map, |m, t, c| stroke.snapshot(m, t, c));
    (stitched, stroke.finish(map))
}

/// The outer vertices on chunk borders of the loaded tiles, each once, in lattice order.
pub(crate) fn border_vertices(map: &Map) -> BTreeSet<Vertex> {
    let mut out = BTreeSet::new();
    for &coord in map.tiles.keys() {
        for chunk in 0..CHUNKS_PER_SIDE * CHUNKS_PER_SIDE {
            for k in 0..9 {
                for (row, col) in [(0, k), (8, k), (k, 0), (k, 8)] {
                    out.insert(Vertex::of(coord, chunk, coords::outer_vertex(row, col)));
                }
            }
        }
    }
    out
}

/// Heights of every loaded copy of `v` (a helper for tests and tools that verify a stitch).
pub fn copies_of(map: &Map, v: Vertex) -> Vec<f32> {
    v.copies()
        .filter_map(|c| Some(map.tiles.get(&c.tile)?.chunks[c.chunk].heights[c.index]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::v18;
    use crate::model::Tile;
    use proptest::prelude::*;

    /// A 2×2-tile map (so it has a 4-way tile corner) of gently sloping terrain, seamless.
    fn map() -> Map {
        let mut map = Map::new("Test");
        for (x, y) in [(31, 31), (32, 31), (31, 32), (32, 32)] {
            let coord = TileCoord::new(x, y).unwrap();
            let mut tile = Tile::flat(coord, "Tileset\\Test\\Base.blp", 0.0);
            for (i, chunk) in tile.chunks.iter_mut().enumerate() {
                for v in 0..145 {
                    // From the lattice vertex, so that every copy gets the same bits.
                    let [wx, wy] = Vertex::of(coord, i, v).world_xy();
                    chunk.heights[v] = (0.05 * wx + 0.02 * wy) as f32;
                }
            }
            map.tiles.insert(coord, tile);
        }
        map
    }

    /// Every shared vertex of the loaded tiles has identical copies.
    fn assert_seamless(map: &Map) {
        for v in border_vertices(map) {
            let h = copies_of(map, v);
            assert!(
                h.iter().all(|x| x.to_bits() == h[0].to_bits()),
                "{v:?}: {h:?}"
            );
        }
        assert!(find(map).is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// Random nudges of random copies (noise and tears, at edges, chunk corners and the
        /// 4-way tile corner): one stitch closes every seam, a second changes nothing.
        #[test]
        fn stitching_makes_every_copy_equal_and_is_idempotent(
            nudges in proptest::collection::vec(
                (0usize..4, 0usize..256, 0usize..9, 0usize..4, -60.0f32..60.0),
                1..40,
            )
        ) {
            let mut map = map();
            let tiles: Vec<TileCoord> = map.tiles.keys().copied().collect();
            for (t, chunk, k, side, dh) in nudges {
                let (row, col) = [(0, k), (8, k), (k, 0), (k, 8)][side];
                let tile = map.tiles.get_mut(&tiles[t]).unwrap();
                tile.chunks[chunk].heights[coords::outer_vertex(row, col)] += dh;
            }
            // The tile corner itself, all four copies apart.
            for (i, t) in tiles.iter().enumerate() {
                let chunk = [255, 240, 15, 0][i];
                let index = [coords::outer_vertex(8, 8), coords::outer_vertex(8, 0),
                    coords::outer_vertex(0, 8), coords::outer_vertex(0, 0)][i];
                map.tiles.get_mut(t).unwrap().chunks[chunk].heights[index] += i as f32 * 7.0;
            }
            let inner_before: Vec<u32> = map.tiles.values().flat_map(|t| t.chunks.iter())
                .flat_map(|c| (0..8).map(move |r| c.heights[coords::inner_vertex(r, r)].to_bits()))
                .collect();

            let first = stitch(&mut map, |_, _, _| {});
            prop_assert!(first.vertices >= 1);
            assert_seamless(&map);
            let corner = Vertex { gx: 32 * 128, gy: 32 * 128, inner: false };
            prop_assert_eq!(copies_of(&map, corner).len(), 4);

            let inner_after: Vec<u32> = map.tiles.values().flat_map(|t| t.chunks.iter())
                .flat_map(|c| (0..8).map(move |r| c.heights[coords::inner_vertex(r, r)].to_bits()))
                .collect();
            prop_assert_eq!(inner_before, inner_after, "inner heights are not stitched");

            let stitched = map.clone();
            let second = stitch(&mut map, |_, _, _| {});
            prop_assert_eq!(second, Stitched::default());
            prop_assert!(map.tiles == stitched.tiles, "a second stitch changes nothing");
        }
    }

    #[test]
    fn the_mean_of_the_copies_is_the_rule_and_normals_follow() {
        let mut map = map();
        assert!(find(&map).is_empty(), "the test map starts seamless");
        let c = TileCoord::new(31, 31).unwrap();
        // A tear of 50 yd on one copy of an edge vertex between chunks 0 and 1 of one tile.
        let v = Vertex::of(c, 0, coords::outer_vertex(4, 8));
        let base = copies_of(&map, v)[0];
        map.tiles.get_mut(&c).unwrap().chunks[0].heights[coords::outer_vertex(4, 8)] += 50.0;
        let seams = find(&map);
        assert_eq!(seams.len(), 1);
        assert_eq!((seams[0].a.x, seams[0].b.x), (0, 1));
        assert!((seams[0].size - 50.0).abs() < 1e-3, "{}", seams[0].size);

        let normals_before = map.tiles[&c].chunks[1].normals.clone();
        let (stitched, edit) = stitch_step(&mut map);
        assert_eq!(stitched.vertices, 1);
        assert!((stitched.largest - 25.0).abs() < 1e-3);
        let after = copies_of(&map, v);
        assert_eq!(after.len(), 2);
        assert_eq!(after[0].to_bits(), after[1].to_bits());
        assert!(
            (after[0] - base - 25.0).abs() < 1e-3,
            "{after:?} from {base}"
        );
        assert_ne!(map.tiles[&c].chunks[1].normals, normals_before);
        let edit = edit.expect("one undo step");
        assert!(edit.label.starts_with("Stitch seams, "));
        // Normals changed around the vertex only: chunks 0 and 1 of the tile, nothing else.
        let mut touched = edit.touched();
        touched.sort();
        assert_eq!(touched, vec![(c, 0), (c, 1)]);
        // The undo step restores the tear exactly.
        let mut history = crate::edit::History::default();
        history.push(&mut map, edit);
        history.undo(&mut map);
        assert_eq!(find(&map).len(), 1);
        assert!(
            (map.tiles[&c].chunks[0].heights[coords::outer_vertex(4, 8)] - base - 50.0).abs()
                < 1e-3
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Chunk bases as other tools leave them (any value, either sign, far from the heights)
        /// and float noise on the borders: after one stitch and a save, every copy of every
        /// shared vertex reads back with the same bits. Chunks whose bases admit no common float
        /// are rebased to 0, with their absolute heights unchanged.
        #[test]
        fn stitched_maps_read_back_seamless_whatever_the_bases(
            bases in proptest::collection::vec(-400.0f32..400.0, 1024),
            noise in proptest::collection::vec(-0.004f32..0.004, 1024),
        ) {
            // Saved and read back as 3.3.5: heights as a file gives them, `base + stored`.
            let save_and_read = |map: &mut Map| {
                for tile in map.tiles.values_mut() {
                    let bytes = v18::write_adt(tile, v18::AlphaTarget { big: false });
                    *tile = v18::read_adt(&bytes, Some(tile.coord), v18::AlphaDepth::Nibble)
                        .unwrap();
                }
            };
            let mut map = map();
            for (t, tile) in map.tiles.values_mut().enumerate() {
                for (i, chunk) in tile.chunks.iter_mut().enumerate() {
                    chunk.base_height = bases[t * 256 + i];
                    for k in 0..9 {
                        for (n, (r, c)) in [(0, k), (8, k), (k, 0), (k, 8)].into_iter().enumerate() {
                            chunk.heights[coords::outer_vertex(r, c)] +=
                                noise[(t * 256 + i * 4 + n + k * 16) % 1024];
                        }
                    }
                }
            }
            save_and_read(&mut map);
            let absolute: Vec<Vec<f32>> = map.tiles.values()
                .flat_map(|t| t.chunks.iter().map(|c| c.heights.to_vec()))
                .collect();
            stitch(&mut map, |_, _, _| {});
            assert_seamless(&map);
            // Rebasing moves no absolute height: vertices off the borders are as they were.
            for (before, c) in absolute.iter().zip(map.tiles.values().flat_map(|t| t.chunks.iter())) {
                for r in 1..8 {
                    let k = coords::outer_vertex(r, r);
                    prop_assert_eq!(before[k].to_bits(), c.heights[k].to_bits());
                }
            }
            // Not even a millionth of a yard reopens on save.
            save_and_read(&mut map);
            assert_seamless(&map);
        }
    }

    #[test]
    fn a_lone_tile_stitches_inside_itself_and_leaves_its_edges() {
        let mut map = map();
        map.tiles
            .retain(|c, _| *c == TileCoord::new(31, 31).unwrap());
        let c = TileCoord::new(31, 31).unwrap();
        // The east edge of the tile has one copy only: nothing to stitch there.
        map.tiles.get_mut(&c).unwrap().chunks[15].heights[coords::outer_vertex(3, 8)] += 9.0;
        assert_eq!(stitch(&mut map, |_, _, _| {}), Stitched::default());
        map.tiles.get_mut(&c).unwrap().chunks[17].heights[coords::outer_vertex(0, 0)] += 9.0;
        let s = stitch(&mut map, |_, _, _| {});
        assert_eq!(s.vertices, 1, "a chunk corner inside the tile");
        assert_eq!(copies_of(&map, Vertex::of(c, 17, 0)).len(), 4);
        assert_seamless(&map);
    }
}
