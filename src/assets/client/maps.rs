//! The maps a client holds, for File ▸ Open from client: every `World\Maps\Name\Name.wdt` the
//! client serves, named from `DBFilesClient\Map.dbc` where that table can be read.
//!
//! Map.dbc is read with the `wow_dbc` crate, whose typed tables cover 1.12, 2.4.3 and 3.3.5.
//! The 0.5.3 – 0.6.0 table, which the crate does not know, is read from WoWDBDefs' layout
//! (`definitions/Map.dbd`, `BUILD 0.5.3.3368-0.6.0.3592`: ID, Directory, PVP, IsInMap,
//! MapName_lang — 13 fields, the localized name 8 strings and a flags word); a table of any
//! other shape there lists its maps by folder name only rather than guessed at.
//!
//! Not for: copying a map out of the client to open it (see `doc::client_maps`).

use std::collections::BTreeMap;
use std::fmt;

use wow_dbc::DbcTable;

use super::dbc::first_locale;
use super::path::normalise;
use super::{ClientData, ClientGeneration};

/// Where the client keeps the map table.
pub const MAP_DBC: &str = "DBFilesClient\\Map.dbc";

/// One map of the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientMap {
    /// The folder name under `World\Maps\` (also the WDT's name).
    pub directory: String,
    /// Its id and display name from Map.dbc, when the table names it.
    pub table: Option<(i64, String)>,
    /// The WDT's game path.
    pub wdt: String,
}

/// The maps a client serves, and where their display names came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapListing {
    /// The maps, sorted by folder name.
    pub maps: Vec<ClientMap>,
    /// Whether Map.dbc named them, and if not, why not.
    pub names: MapNames,
}

/// Where the maps' display names came from, or why there are none: a map maker whose custom
/// map shows without its name needs to know whether the table is missing, unreadable or in a
/// layout loam cannot read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapNames {
    /// Read from Map.dbc with this client generation's layout (the one named).
    Read(ClientGeneration),
    /// The client holds no Map.dbc.
    NoTable,
    /// Map.dbc is there but could not be read out of its archive (the error says why).
    Unreadable(String),
    /// Map.dbc is there but fits none of the layouts tried: a table another tool wrote, or a
    /// client of another generation than its archives suggest.
    NoLayoutFits(ClientGeneration),
}

impl fmt::Display for MapNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read(g) => write!(f, "names from {MAP_DBC} ({g} layout)"),
            Self::NoTable => write!(f, "no display names: the client has no {MAP_DBC}"),
            Self::Unreadable(why) => {
                write!(f, "no display names: {MAP_DBC} could not be read: {why}")
            }
            Self::NoLayoutFits(ClientGeneration::Unknown(_)) => write!(
                f,
                "no display names: {MAP_DBC} fits none of the 1.12, 2.4.3 and 3.3.5 layouts"
            ),
            Self::NoLayoutFits(g) => write!(
                f,
                "no display names: {MAP_DBC} does not fit the {g} layout (written by another \
                 tool, or from another client?)"
            ),
        }
    }
}

/// One Map.dbc row: the map's id, its folder under `World\Maps\` and its display name.
pub type MapRow = (i64, String, String);

/// The game path of a map's WDT.
pub fn wdt_path(directory: &str) -> String {
    format!("World\\Maps\\{directory}\\{directory}.wdt")
}

/// The rows of a Map.dbc as (id, directory, display name), read with the layout of
/// `generation` (every known layout when the generation is unknown). `None` when no layout
/// fits the bytes.
pub fn read_map_table(bytes: &[u8], generation: &ClientGeneration) -> Option<Vec<MapRow>> {
    read_with_layout(bytes, generation).map(|(_, rows)| rows)
}

/// As [`read_map_table`], also naming the generation whose layout fitted.
fn read_with_layout(
    bytes: &[u8],
    generation: &ClientGeneration,
) -> Option<(ClientGeneration, Vec<MapRow>)> {
    use wow_dbc::{tbc_tables, vanilla_tables, wrath_tables};
    // The three typed tables differ only in their field names.
    macro_rules! rows {
        ($table:ty, $layout:expr, $directory:ident, $name:ident) => {
            || {
                super::dbc::read_guarded(bytes, |bytes| <$table>::read(&mut &bytes[..]).ok()).map(
                    |t| {
                        let rows = t
                            .rows()
                            .iter()
                            .map(|r| {
                                (
                                    i64::from(r.id.id),
                                    r.$directory.clone(),
                                    first_locale!(r.$name),
                                )
                            })
                            .collect::<Vec<_>>();
                        ($layout, rows)
                    },
                )
            }
        };
    }
    let vanilla = rows!(
        vanilla_tables::map::Map,
        ClientGeneration::V112,
        internal_name,
        map_name
    );
    let tbc = rows!(
        tbc_tables::map::Map,
        ClientGeneration::V243,
        directory,
        map_name_lang
    );
    let wrath = rows!(
        wrath_tables::map::Map,
        ClientGeneration::V335,
        directory,
        map_name_lang
    );
    match generation {
        ClientGeneration::V112 => vanilla(),
        ClientGeneration::V243 => tbc(),
        ClientGeneration::V335 => wrath(),
        ClientGeneration::Unknown(_) => wrath().or_else(tbc).or_else(vanilla),
        ClientGeneration::Alpha | ClientGeneration::V060 => {
            alpha_rows(bytes).map(|rows| (generation.clone(), rows))
        }
    }
}

/// The rows of a 0.5.3 – 0.6.0 Map.dbc (WoWDBDefs' layout, see the module's doc): `None`
/// unless the header says 13 four-byte fields and every string offset is inside the block.
fn alpha_rows(bytes: &[u8]) -> Option<Vec<MapRow>> {
    let table = super::dbc::RawTable::read(bytes, 13)?;
    (0..table.records())
        .map(|r| {
            let id = i64::from(table.word(r, 0));
            let directory = table.string(r, 1)?;
            // MapName_lang: fields 4 to 11, the first filled locale.
            Some((id, directory, table.first_locale(r, 4)?))
        })
        .collect()
}

/// Reads the client's Map.dbc: its rows, and what to tell the user about them.
fn map_table(client: &ClientData) -> (Vec<MapRow>, MapNames) {
    let generation = client.generation();
    let bytes = match client.read(MAP_DBC) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return (Vec::new(), MapNames::NoTable),
        Err(e) => return (Vec::new(), MapNames::Unreadable(e.to_string())),
    };
    match read_with_layout(&bytes, generation) {
        Some((layout, rows)) => (rows, MapNames::Read(layout)),
        None => (Vec::new(), MapNames::NoLayoutFits(generation.clone())),
    }
}

impl ClientData {
    /// The maps this client serves a WDT for: those its listfiles name and those Map.dbc
    /// names (found by name even in archives without a listfile), sorted by folder name.
    /// A Map.dbc that cannot be read only costs the display names; the listing says why.
    pub fn maps(&self) -> MapListing {
        let mut found: BTreeMap<String, ClientMap> = BTreeMap::new();
        for name in self.names() {
            let key = normalise(&name);
            let mut parts = key.split('\\');
            if let (Some("world"), Some("maps"), Some(_), Some(file), None) = (
                parts.next(),
                parts.next(),
                parts.next(),
                parts.next(),
                parts.next(),
            ) && file.ends_with(".wdt")
            {
                // The spelling of the folder as the listfile has it.
                let directory = name.split(['\\', '/']).nth(2).unwrap_or_default();
                if normalise(&wdt_path(directory)) == key {
                    found.insert(
                        directory.to_ascii_lowercase(),
                        ClientMap {
                            directory: directory.to_string(),
                            table: None,
                            wdt: name.clone(),
                        },
                    );
                }
            }
        }
        let (table, names) = map_table(self);
        for (id, directory, display) in table {
            let wdt = wdt_path(&directory);
            let key = directory.to_ascii_lowercase();
            if !found.contains_key(&key) && self.served_by(&wdt).is_none() {
                continue;
            }
            let entry = found.entry(key).or_insert_with(|| ClientMap {
                directory: directory.clone(),
                table: None,
                wdt,
            });
            entry.table = Some((id, display));
        }
        MapListing {
            maps: found.into_values().collect(),
            names,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alpha_map_table_reads_in_wowdbdefs_layout_and_another_shape_does_not() {
        // ID, Directory, PVP, IsInMap, MapName_lang (8 strings + flags): 13 fields.
        let mut strings = b"\0Azeroth\0Eastern Kingdoms\0".to_vec();
        let mut table = b"WDBC".to_vec();
        for v in [1u32, 13, 52, strings.len() as u32] {
            table.extend_from_slice(&v.to_le_bytes());
        }
        let mut record = [0u32; 13];
        record[1] = 1;
        record[5] = 9; // the enGB slot is empty; the next one names it
        for v in record {
            table.extend_from_slice(&v.to_le_bytes());
        }
        table.append(&mut strings);
        let rows = read_map_table(&table, &ClientGeneration::Alpha).unwrap();
        assert_eq!(
            rows,
            [(0, "Azeroth".to_string(), "Eastern Kingdoms".to_string())]
        );
        assert_eq!(read_map_table(&table, &ClientGeneration::V060), Some(rows));
        // A 1.12 table (42 fields) in an alpha client is not misread.
        let mut vanilla = table.clone();
        vanilla[8..12].copy_from_slice(&42u32.to_le_bytes());
        assert_eq!(read_map_table(&vanilla, &ClientGeneration::Alpha), None);
        // Nor is a string offset past the block.
        let mut bad = table.clone();
        bad[20 + 4..20 + 8].copy_from_slice(&999u32.to_le_bytes());
        assert_eq!(read_map_table(&bad, &ClientGeneration::Alpha), None);
    }
}
