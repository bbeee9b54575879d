//! A whole map: its WDT header, which of the 64×64 tiles exist, and the tiles loaded so far.

use std::collections::BTreeMap;

use super::coords::{TILES_PER_SIDE, TileCoord};
use super::monolithic::MapWideNames;
use super::placement::WmoPlacement;
use super::quirks::FileQuirk;
use super::tile::Tile;

/// MPHD flag: the map is a single global WMO with no terrain.
pub const MAP_FLAG_GLOBAL_WMO: u32 = 0x1;
/// MPHD flag: tiles have vertex colours (MCCV).
pub const MAP_FLAG_VERTEX_COLORS: u32 = 0x2;
/// MPHD flag: alpha maps are 8-bit ("big alpha").
pub const MAP_FLAG_BIG_ALPHA: u32 = 0x4;
/// MPHD flag: doodad references are sorted by size category.
pub const MAP_FLAG_SORTED_DOODAD_REFS: u32 = 0x8;
/// MPHD flag: height texturing, which also implies 8-bit alpha.
pub const MAP_FLAG_HEIGHT_TEXTURING: u32 = 0x80;
/// MAIN flag: the tile has an ADT.
pub const TILE_PRESENT: u32 = 0x1;

/// The map-wide WMO of a WMO-only map.
#[derive(Debug, Clone, PartialEq)]
pub struct GlobalWmo {
    /// WMO path.
    pub name: String,
    /// Its placement (name index 0).
    pub placement: WmoPlacement,
}

/// One map.
#[derive(Debug, Clone, PartialEq)]
pub struct Map {
    /// Map directory name ("Azeroth").
    pub name: String,
    /// MPHD flags.
    pub flags: u32,
    /// The MPHD words after the flags, kept verbatim.
    pub header_extra: [u32; 7],
    /// MAIN flags for each tile, row by row; bit 0 = the tile exists.
    pub tile_flags: Box<[u32; TILES_PER_SIDE * TILES_PER_SIDE]>,
    /// The global WMO of a WMO-only map.
    pub global_wmo: Option<GlobalWmo>,
    /// A WDT MWMO that is present but empty (3.3.5 terrain maps write one).
    pub empty_wmo_names_chunk: bool,
    /// Tiles loaded so far.
    pub tiles: BTreeMap<TileCoord, Tile>,
    /// The map-wide MDNM/MONM lists of a map read from a 0.5.x WDT (or its 0.5.5 prototype
    /// ADTs), kept so that an unchanged map saves with the same name order; `None` otherwise.
    pub map_wide_names: Option<MapWideNames>,
    /// What the WDT had that Blizzard's files do not, for `loam check` to warn about.
    pub wdt_quirks: Vec<FileQuirk>,
    /// The client's tables the zone tools edit (Light, LightParams, the light bands,
    /// AreaTrigger), by game path, as read from the client when a tool first needed them and
    /// as edited since; Save writes those that differ from the client's
    /// (`pipeline::table_archive`). Empty for a map whose zone was not edited.
    pub client_tables: crate::model::table_rows::ClientTables,
}

impl Map {
    /// The loaded tiles in row order (MAIN's order: north to south, then west to east),
    /// which is how "the first tile listing an object" is meant everywhere; the map's own
    /// order is by column first.
    pub fn tiles_by_row(&self) -> Vec<&Tile> {
        let mut tiles: Vec<&Tile> = self.tiles.values().collect();
        tiles.sort_by_key(|t| t.coord.index());
        tiles
    }

    /// An empty map with no tiles.
    pub fn new(name: &str) -> Map {
        Map {
            name: name.to_string(),
            flags: 0,
            header_extra: [0; 7],
            tile_flags: Box::new([0; TILES_PER_SIDE * TILES_PER_SIDE]),
            global_wmo: None,
            empty_wmo_names_chunk: true,
            tiles: BTreeMap::new(),
            map_wide_names: None,
            wdt_quirks: Vec::new(),
            client_tables: Default::default(),
        }
    }

    /// A copy of the map without its tiles (what a streamed save starts from: the tiles come
    /// one at a time).
    pub fn header_only(&self) -> Map {
        Map {
            name: self.name.clone(),
            flags: self.flags,
            header_extra: self.header_extra,
            tile_flags: self.tile_flags.clone(),
            global_wmo: self.global_wmo.clone(),
            empty_wmo_names_chunk: self.empty_wmo_names_chunk,
            tiles: BTreeMap::new(),
            map_wide_names: self.map_wide_names.clone(),
            wdt_quirks: self.wdt_quirks.clone(),
            client_tables: self.client_tables.clone(),
        }
    }

    /// Every tile MAIN lists, row by row.
    pub fn present_tiles(&self) -> Vec<TileCoord> {
        (0..TILES_PER_SIDE * TILES_PER_SIDE)
            .filter(|&i| self.tile_flags[i] & TILE_PRESENT != 0)
            .filter_map(TileCoord::from_index)
            .collect()
    }

    /// True when alpha maps are stored at 8 bits.
    pub fn big_alpha(&self) -> bool {
        self.flags & (MAP_FLAG_BIG_ALPHA | MAP_FLAG_HEIGHT_TEXTURING) != 0
    }
}
