//! The 0.6.0 (build 3592) codec: the first split WDT + `Map_X_Y.adt` layout. The WDT is the v18
//! one (MVER, MPHD, MAIN of 4096 × 8 bytes, which the client reads as 0x8000 bytes, MWMO,
//! MODF); the ADT has the v18 top level (MHDR, MCIN, MTEX, MMDX/MMID, MWMO/MWID, MDDF, MODF,
//! 256 MCNK) with the 0.6.0 MCNK of [`mcnk`].
//!
//! Not for: the v18 MCNK (`v18`) or the monolithic WDT (`alpha`). Disputed choices are the
//! `pub const`s of [`mcnk`], documented in `docs/formats.md`, "0.6.0".

pub mod mcnk;

use crate::format::chunk::Result;
use crate::format::v18::adt::{AdtFlavor, read_adt_as, write_adt_as};
use crate::format::v18::{self, AlphaDepth, AlphaTarget};
use crate::model::coords::TileCoord;
use crate::model::map::Map;
use crate::model::tile::Tile;

/// The 0.6.0 ADT: v18 top level, 0.6.0 MCNKs, no MH2O.
pub const FLAVOR: AdtFlavor = AdtFlavor {
    read_mcnk: mcnk::read,
    write_mcnk: mcnk::write,
    mh2o: false,
};

/// Decodes a 0.6.0 ADT. `coord` as in [`v18::read_adt`].
pub fn read_adt(bytes: &[u8], coord: Option<TileCoord>) -> Result<Tile> {
    read_adt_as(bytes, coord, AlphaDepth::Nibble, FLAVOR)
}

/// Encodes a tile as a 0.6.0 ADT (every liquid layer as MCLQ, 4-bit alpha, no MCCV or MH2O).
pub fn write_adt(tile: &Tile) -> Vec<u8> {
    write_adt_as(tile, AlphaTarget { big: false }, FLAVOR)
}

/// Decodes a 0.6.0 WDT (the v18 layout; MAIN must be 0x8000 bytes).
pub fn read_wdt(bytes: &[u8], name: &str) -> Result<Map> {
    v18::read_wdt(bytes, name)
}

/// Encodes a map's 0.6.0 WDT: the v18 layout with MAIN as 4096 entries of 8 bytes (0x8000).
/// MPHD flags for 8-bit alpha and vertex colours are cleared: 0.6.0 has neither.
pub fn write_wdt(map: &Map) -> Vec<u8> {
    let mut header = Map::new(&map.name);
    header.flags = map.flags
        & !(crate::model::map::MAP_FLAG_BIG_ALPHA
            | crate::model::map::MAP_FLAG_VERTEX_COLORS
            | crate::model::map::MAP_FLAG_HEIGHT_TEXTURING);
    header.header_extra = map.header_extra;
    header.tile_flags = map.tile_flags.clone();
    header.global_wmo = map.global_wmo.clone();
    header.empty_wmo_names_chunk = map.empty_wmo_names_chunk;
    v18::write_wdt(&header)
}
