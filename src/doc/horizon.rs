//! The map's distant terrain: the low-resolution heights of every tile, for the horizon drawn
//! beyond the loaded tiles. They come from the map's own WDL (beside its WDT), else the
//! client's (`World\Maps\Name\Name.wdl`), and the tiles held in memory (edited ones among
//! them) give their heights as they are now, sampled as a WDL would (`model::low_res`).
//!
//! Not for: the WDL's bytes (`format::wdl`), writing it (`pipeline::wdl`) or drawing
//! (`render::horizon`).

use std::collections::BTreeMap;

use super::client::{Client, byte_source};
use super::session::Session;
use crate::format::wdl::{self, Wdl};
use crate::model::TileCoord;
use crate::model::low_res::low_res;

/// Outer samples of a WDL tile: 17 × 17, one chunk apart, row by row from the north-west.
pub const OUTER: usize = 17 * 17;

/// Each tile's 17 × 17 outer heights (yards).
pub type HorizonTiles = BTreeMap<TileCoord, [f32; OUTER]>;

/// The WDL of the open map: its own beside the WDT, else the client's; `None` when neither
/// is there or readable (the horizon then shows the loaded tiles only).
pub fn read_wdl(session: &Session, client: Option<&Client>) -> Option<Wdl> {
    let name = &session.map.name;
    if let Some(path) = crate::pipeline::wdl::find_beside(&session.folder, name)
        && let Ok(w) = crate::pipeline::wdl::read_wdl(&path)
    {
        return Some(w);
    }
    let read = byte_source(client, &session.folder);
    let bytes = read(&format!("World\\Maps\\{name}\\{name}.wdl")).ok()??;
    wdl::read(&bytes).ok()
}

/// The horizon's heights: `wdl`'s tiles, with every tile in memory sampled as it is now.
pub fn horizon_tiles(wdl: Option<&Wdl>, session: &Session) -> HorizonTiles {
    let mut out: HorizonTiles = wdl
        .map(|w| {
            w.tiles
                .iter()
                .map(|(c, t)| (*c, std::array::from_fn(|i| f32::from(t.heights[i]))))
                .collect()
        })
        .unwrap_or_default();
    for (c, tile) in &session.map.tiles {
        let l = low_res(tile);
        out.insert(*c, std::array::from_fn(|i| l.heights[i]));
    }
    out
}
