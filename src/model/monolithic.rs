//! What the 0.5.x monolithic WDT keeps map-wide that the model otherwise keeps per tile: the
//! doodad (MDNM) and WMO (MONM) name lists, and which of their entries each tile's own name
//! list stands for.
//!
//! The model's tiles carry their own `doodad_names`/`wmo_names` (as every later generation
//! does); a 0.5.x reader fills them from the map-wide lists and records the mapping here, so that
//! a save of an unchanged map writes the map-wide lists in their original order, duplicates and
//! unused names included. Not for: editing; a tile whose names changed is re-mapped by name.

use std::collections::BTreeMap;

use super::coords::TileCoord;

/// The map-wide name lists of a 0.5.x WDT and each tile's view of them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapWideNames {
    /// MDNM: every doodad model path of the map, in file order.
    pub doodad_names: Vec<String>,
    /// MONM: every WMO path of the map, in file order.
    pub wmo_names: Vec<String>,
    /// For each tile, the MDNM index of each entry of that tile's `doodad_names`.
    pub tile_doodad_indices: BTreeMap<TileCoord, Vec<u32>>,
    /// For each tile, the MONM index of each entry of that tile's `wmo_names`.
    pub tile_wmo_indices: BTreeMap<TileCoord, Vec<u32>>,
}
