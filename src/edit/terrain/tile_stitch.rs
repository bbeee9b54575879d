//! Stitching seams one tile at a time, for `loam fix --seams` on a map too large to hold: each
//! tile is stitched against the border strips of its (up to eight) neighbours, and comes out
//! exactly as [`seams::stitch`] of the whole map leaves it.
//!
//! Why a tile and its neighbours' strips suffice: a vertex of the tile has all its copies in the
//! tile and in the chunks of its neighbours that touch it (the strips), so its mean is the whole
//! map's; and a normal depends only on the heights one lattice step around it, which are the
//! tile's own, the strips', and stitched (when they are shared vertices) from copies that are
//! again all in the strips. Vertices further out are neither stitched nor read.
//!
//! The counts of a stitch add up over the tiles to the whole map's: a shared vertex is counted by
//! the first (in map order) of the tiles that hold a copy of it, and a tile counts its own chunks.
//!
//! Not for: the rule itself (`seams`), reading or writing files (`cli::fix`).

use std::collections::{BTreeMap, BTreeSet};

use super::seams;
use crate::edit::lattice::{STEPS_PER_CHUNK, Vertex};
use crate::model::coords::{CHUNKS_PER_SIDE, TileCoord, VERTICES_PER_CHUNK};
use crate::model::{Map, Tile};

/// What a tile's neighbours need of it to stitch themselves: the heights and base heights of its
/// chunks on the tile's border (60 of its 256), about 35 KB.
#[derive(Debug, Clone, PartialEq)]
pub struct BorderStrip {
    /// The tile.
    pub coord: TileCoord,
    /// Each border chunk's index (row × 16 + column), heights and base height.
    chunks: Vec<(usize, Box<[f32; VERTICES_PER_CHUNK]>, f32)>,
}

impl BorderStrip {
    /// The border strip of `tile`.
    pub fn of(tile: &Tile) -> BorderStrip {
        let last = CHUNKS_PER_SIDE - 1;
        let chunks = (0..CHUNKS_PER_SIDE * CHUNKS_PER_SIDE)
            .filter(|i| {
                let (x, y) = (i % CHUNKS_PER_SIDE, i / CHUNKS_PER_SIDE);
                x == 0 || y == 0 || x == last || y == last
            })
            .map(|i| {
                let c = &tile.chunks[i];
                (i, c.heights.clone(), c.base_height)
            })
            .collect();
        BorderStrip {
            coord: tile.coord,
            chunks,
        }
    }

    /// A stand-in tile with the strip's heights on its border chunks and flat ground inside,
    /// which is never read (see the module's doc).
    fn stand_in(&self) -> Tile {
        let mut t = Tile::flat(self.coord, "", 0.0);
        for (i, heights, base) in &self.chunks {
            t.chunks[*i].heights = heights.clone();
            t.chunks[*i].base_height = *base;
        }
        t
    }
}

/// What stitching one tile did; summed over a map's tiles, the whole map's [`seams::Stitched`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TileStitched {
    /// Shared vertices made equal that this tile counts (it is the first holding a copy).
    pub vertices: usize,
    /// The largest change to one of this tile's heights, in yards.
    pub largest: f32,
    /// This tile's chunks written (heights or normals).
    pub chunks: usize,
}

impl TileStitched {
    /// Adds another tile's counts, as the whole map's stitch counts them.
    pub fn add(&mut self, other: TileStitched) {
        self.vertices += other.vertices;
        self.largest = self.largest.max(other.largest);
        self.chunks += other.chunks;
    }
}

/// Stitches `tile` as [`seams::stitch`] stitches it in the whole map whose loaded tiles' border
/// strips are `strips` (only the eight around the tile are used; the tile's own is ignored).
pub fn stitch_tile(tile: &mut Tile, strips: &BTreeMap<TileCoord, BorderStrip>) -> TileStitched {
    let me = tile.coord;
    let mut block = Map::new("");
    block
        .tiles
        .insert(me, std::mem::replace(tile, Tile::flat(me, "", 0.0)));
    for dy in -1i32..=1 {
        for dx in -1i32..=1 {
            let (x, y) = (me.x as i32 + dx, me.y as i32 + dy);
            let Some(c) = (x >= 0 && y >= 0)
                .then(|| TileCoord::new(x as usize, y as usize))
                .flatten()
            else {
                continue;
            };
            if let Some(n) = strips.get(&c).filter(|_| c != me) {
                block.tiles.insert(c, n.stand_in());
            }
        }
    }
    let before: Vec<Box<[f32; VERTICES_PER_CHUNK]>> = block.tiles[&me]
        .chunks
        .iter()
        .map(|c| c.heights.clone())
        .collect();
    // The shared vertices in the tile and one step around it: all that its heights and normals
    // depend on.
    let span = STEPS_PER_CHUNK * CHUNKS_PER_SIDE as i32;
    let (x0, y0) = (me.x as i32 * span, me.y as i32 * span);
    let near = |v: &Vertex| {
        (x0 - 1..=x0 + span + 1).contains(&v.gx) && (y0 - 1..=y0 + span + 1).contains(&v.gy)
    };
    let vertices: BTreeSet<Vertex> = seams::border_vertices(&block)
        .into_iter()
        .filter(near)
        .collect();
    let (stitched, changed) = seams::stitch_vertices(&mut block, vertices, |_, _, _| {});
    let first_holder = |v: &Vertex| {
        v.copies()
            .map(|c| c.tile)
            .filter(|t| block.tiles.contains_key(t))
            .min()
    };
    let vertices = changed
        .iter()
        .filter(|v| first_holder(v) == Some(me))
        .count();
    *tile = block.tiles.remove(&me).expect("the tile is in its block");
    let largest = before
        .iter()
        .zip(&tile.chunks)
        .flat_map(|(a, b)| a.iter().zip(b.heights.iter()))
        .map(|(a, b)| (a - b).abs())
        .fold(0f32, f32::max);
    TileStitched {
        vertices,
        largest,
        chunks: stitched.chunks.iter().filter(|(t, _)| *t == me).count(),
    }
}
