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

use std::collections::BTreeSet;

use super::lattice::{STEPS_PER_CHUNK, Vertex};
use super::seams;
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

/// Stitches `tile` as [`seams::stitch`] stitches it in the whole map; `neighbours` are the border
/// strips of the map's tiles around it that are loaded (others are ignored).
pub fn stitch_tile(tile: &mut Tile, neighbours: &[&BorderStrip]) -> TileStitched {
    let me = tile.coord;
    let mut block = Map::new("");
    block
        .tiles
        .insert(me, std::mem::replace(tile, Tile::flat(me, "", 0.0)));
    for n in neighbours {
        let near = (n.coord.x as i32 - me.x as i32).abs() <= 1
            && (n.coord.y as i32 - me.y as i32).abs() <= 1;
        if near && n.coord != me {
            block.tiles.insert(n.coord, n.stand_in());
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
