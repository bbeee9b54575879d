//! The area ids a client's `DBFilesClient\AreaTable.dbc` defines, for `loam check --client`:
//! a chunk whose area id the table lacks has no name, music or zone rules in the client.
//!
//! Read with the `wow_dbc` crate's typed tables (1.12 and 3.3.5, as `maps` reads Map.dbc).
//!
//! Not for: writing the table.

use std::collections::BTreeSet;

use wow_dbc::DbcTable;

use super::ClientGeneration;

/// Where the client keeps the area table.
pub const AREA_TABLE_DBC: &str = "DBFilesClient\\AreaTable.dbc";

/// The ids of an AreaTable.dbc read with `generation`'s layout; `None` when loam knows no
/// layout for it or the bytes do not fit.
pub fn read_area_ids(bytes: &[u8], generation: &ClientGeneration) -> Option<BTreeSet<u32>> {
    use wow_dbc::{vanilla_tables, wrath_tables};
    match generation {
        ClientGeneration::V112 => super::dbc::read_guarded(bytes, |b| {
            vanilla_tables::area_table::AreaTable::read(&mut &b[..]).ok()
        })
        .map(|t| t.rows().iter().map(|r| r.id.id).collect()),
        ClientGeneration::V335 => super::dbc::read_guarded(bytes, |b| {
            wrath_tables::area_table::AreaTable::read(&mut &b[..]).ok()
        })
        .map(|t| {
            t.rows()
                .iter()
                .filter_map(|r| u32::try_from(r.id.id).ok())
                .collect()
        }),
        _ => None,
    }
}
