//! The low-resolution view of a tile that a WDL stores: the heights at the WDL's sample points
//! and which chunks are all hole. Plain numbers; `format::wdl` rounds and encodes them.
//!
//! Not for: the sample points' positions (`coords::low_res_sample`) or the file's bytes.

use super::Tile;
use super::coords::{LOW_RES_SAMPLES, low_res_sample};

/// Every hole bit of a chunk's 4×4 hole grid.
const ALL_HOLES: u16 = 0xFFFF;

/// A tile's low-resolution heights and hole masks.
#[derive(Debug, Clone, PartialEq)]
pub struct LowRes {
    /// Heights (yards) at the 545 sample points, in WDL order.
    pub heights: Box<[f32; LOW_RES_SAMPLES]>,
    /// One mask per chunk row: bit `x` of row `y` is set when chunk `x`,`y` is all hole.
    pub holes: [u16; 16],
}

/// Samples `tile` at the WDL's points (a missing chunk reads as height 0).
pub fn low_res(tile: &Tile) -> LowRes {
    let mut heights = Box::new([0f32; LOW_RES_SAMPLES]);
    for (i, h) in heights.iter_mut().enumerate() {
        let (cx, cy, v) = low_res_sample(i);
        *h = tile.chunks.get(cy * 16 + cx).map_or(0.0, |c| c.heights[v]);
    }
    let mut holes = [0u16; 16];
    for (i, c) in tile.chunks.iter().enumerate().take(256) {
        if c.holes == ALL_HOLES {
            holes[i / 16] |= 1 << (i % 16);
        }
    }
    LowRes { heights, holes }
}
