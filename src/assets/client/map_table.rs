//! A new map's row in the client's `DBFilesClient\Map.dbc`: without one the client never loads
//! the map, and the servers' extractors never extract it.
//!
//! Read and written with the `wow_dbc` crate's typed tables (1.12 and 3.3.5; its writer lays
//! the string block out anew, which the client does not mind: rows point into it by offset).
//! The row's other fields come from one template, the same every time (docs/client-data.md,
//! "Map.dbc rows"): an open-world map (instance type 0, as the continents' rows), no PvP, no
//! loading screen, no corpse map (-1), no time-of-day override (-1), the base game (expansion 0),
//! no player limit; the name in every locale column, so the client of any locale shows it.
//!
//! Not for: which archive the table goes into (`pipeline::pack`), reading the maps (`maps`).

use wow_dbc::{DbcTable, ExtendedLocalizedString, LocalizedString};

use super::ClientGeneration;
use super::maps::read_map_table;

/// The map to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapEntry {
    /// Its folder under `World\Maps\` (the WDT's name).
    pub directory: String,
    /// The name the client shows.
    pub name: String,
    /// The id to give it; the next free one (one above the largest) when `None`.
    pub id: Option<u32>,
    /// The AreaTable row of the map as a whole (0: none).
    pub area_table_id: u32,
}

/// What [`add_map`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapRowOutcome {
    /// The table had no row for the folder; this one was added with this id.
    Added(u32),
    /// The table already names the folder, with this id; nothing changed.
    Present(u32),
}

/// The table `bytes` (a client's Map.dbc of `generation`) with a row for `entry` added, or
/// `None` when it already has one (and the id it has). Errors say why the table cannot take
/// the row: a layout loam cannot write, an id already taken by another map.
pub fn add_map(
    bytes: &[u8],
    generation: &ClientGeneration,
    entry: &MapEntry,
) -> Result<(Option<Vec<u8>>, MapRowOutcome), String> {
    let rows = read_map_table(bytes, generation).ok_or_else(|| {
        format!("the client's Map.dbc does not fit loam's {generation} layout of the table")
    })?;
    if let Some((id, ..)) = rows
        .iter()
        .find(|(_, dir, _)| dir.eq_ignore_ascii_case(&entry.directory))
    {
        return match entry.id {
            Some(want) if i64::from(want) != *id => Err(format!(
                "Map.dbc already has {} as map {id}, not {want}",
                entry.directory
            )),
            _ => Ok((None, MapRowOutcome::Present(*id as u32))),
        };
    }
    let largest = rows.iter().map(|(id, ..)| *id).max().unwrap_or(-1);
    let id = match entry.id {
        Some(want) => {
            if let Some((_, dir, _)) = rows.iter().find(|(id, ..)| *id == i64::from(want)) {
                return Err(format!("map id {want} is taken by {dir}"));
            }
            want
        }
        None => u32::try_from(largest + 1).map_err(|_| "no free map id".to_string())?,
    };
    let bytes = match generation {
        ClientGeneration::V335 => wrath_with(bytes, entry, id),
        ClientGeneration::V112 => vanilla_with(bytes, entry, id),
        other => {
            return Err(format!(
                "loam writes Map.dbc for 1.12 and 3.3.5 clients, not {other}"
            ));
        }
    }?;
    Ok((Some(bytes), MapRowOutcome::Added(id)))
}

/// `name` in all eight columns of a 1.12 localized string.
pub(super) fn localized(name: &str) -> LocalizedString {
    LocalizedString {
        en_gb: name.into(),
        ko_kr: name.into(),
        fr_fr: name.into(),
        de_de: name.into(),
        en_cn: name.into(),
        en_tw: name.into(),
        es_es: name.into(),
        es_mx: name.into(),
        // The flags word Blizzard's tables hold for the filled locales; unused by the client.
        flags: 0,
    }
}

/// `name` in all sixteen columns of a 3.3.5 localized string.
pub(super) fn extended(name: &str) -> ExtendedLocalizedString {
    let n = || name.to_string();
    ExtendedLocalizedString {
        en_gb: n(),
        ko_kr: n(),
        fr_fr: n(),
        de_de: n(),
        en_cn: n(),
        en_tw: n(),
        es_es: n(),
        es_mx: n(),
        ru_ru: n(),
        ja_jp: n(),
        pt_pt: n(),
        it_it: n(),
        unknown_12: n(),
        unknown_13: n(),
        unknown_14: n(),
        unknown_15: n(),
        flags: 0,
    }
}

/// Writes a typed table to bytes.
fn written(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    write(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// The 3.3.5 table with the new row appended.
fn wrath_with(bytes: &[u8], entry: &MapEntry, id: u32) -> Result<Vec<u8>, String> {
    use wow_dbc::wrath_tables::area_table::AreaTableKey;
    use wow_dbc::wrath_tables::loading_screens::LoadingScreensKey;
    use wow_dbc::wrath_tables::map::{Map, MapKey, MapRow};
    let mut table = super::dbc::read_guarded(bytes, |b| Map::read(&mut &b[..]).ok())
        .ok_or("the client's Map.dbc cannot be read")?;
    let id = i32::try_from(id).map_err(|_| format!("map id {id} is too large"))?;
    let area = i32::try_from(entry.area_table_id).map_err(|_| "area id too large".to_string())?;
    table.rows.push(MapRow {
        id: MapKey::new(id),
        directory: entry.directory.clone(),
        instance_type: 0,
        flags: 0,
        p_v_p: 0,
        map_name_lang: extended(&entry.name),
        area_table_id: AreaTableKey::new(area),
        map_description0_lang: ExtendedLocalizedString::default(),
        map_description1_lang: ExtendedLocalizedString::default(),
        loading_screen_id: LoadingScreensKey::new(0),
        minimap_icon_scale: 1.0,
        corpse_map_id: MapKey::new(-1),
        corpse: [0.0, 0.0],
        time_of_day_override: -1,
        expansion_id: 0,
        raid_offset: 0,
        max_players: 0,
    });
    written(|out| table.write(out))
}

/// The 1.12 table with the new row appended.
fn vanilla_with(bytes: &[u8], entry: &MapEntry, id: u32) -> Result<Vec<u8>, String> {
    use wow_dbc::vanilla_tables::area_table::AreaTableKey;
    use wow_dbc::vanilla_tables::loading_screens::LoadingScreensKey;
    use wow_dbc::vanilla_tables::map::{Map, MapKey, MapRow};
    let mut table = super::dbc::read_guarded(bytes, |b| Map::read(&mut &b[..]).ok())
        .ok_or("the client's Map.dbc cannot be read")?;
    table.rows.push(MapRow {
        id: MapKey::new(id),
        internal_name: entry.directory.clone(),
        instance_type: wow_world_base::vanilla::InstanceType::Normal,
        battleground: false,
        map_name: localized(&entry.name),
        min_level: 0,
        max_level: 0,
        max_players: 0,
        unknown: [0; 3],
        // The crate calls this field AreaTable, WoWDBDefs' Map.dbd (1.12.1.5875) ParentMapID:
        // the two disagree, so it stays 0, as no area and no parent map alike.
        area_table: AreaTableKey::new(0),
        map_description_horde: LocalizedString::default(),
        map_description_alliance: LocalizedString::default(),
        loading_screen: LoadingScreensKey::new(0),
        raid_offset: 0,
        unknown_2: [0; 2],
    });
    written(|out| table.write(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3.3.5 Map.dbc of the crate's own writing with Azeroth (0) and Kalimdor (1).
    fn wrath_table() -> Vec<u8> {
        let mut bytes = Vec::new();
        for (id, dir) in [(0, "Azeroth"), (1, "Kalimdor")] {
            let entry = MapEntry {
                directory: dir.into(),
                name: dir.into(),
                id: Some(id),
                area_table_id: 0,
            };
            let base = if bytes.is_empty() {
                empty_wrath()
            } else {
                bytes.clone()
            };
            bytes = add_map(&base, &ClientGeneration::V335, &entry)
                .unwrap()
                .0
                .unwrap();
        }
        bytes
    }

    fn empty_wrath() -> Vec<u8> {
        let mut b = b"WDBC".to_vec();
        for v in [0u32, 66, 264, 1] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.push(0);
        b
    }

    fn entry(id: Option<u32>) -> MapEntry {
        MapEntry {
            directory: "Isle".into(),
            name: "The Isle".into(),
            id,
            area_table_id: 0,
        }
    }

    #[test]
    fn a_new_row_gets_the_next_free_id_and_the_old_rows_stay() {
        let base = wrath_table();
        let (bytes, outcome) = add_map(&base, &ClientGeneration::V335, &entry(None)).unwrap();
        assert_eq!(outcome, MapRowOutcome::Added(2));
        let rows = read_map_table(&bytes.unwrap(), &ClientGeneration::V335).unwrap();
        assert_eq!(
            rows,
            [
                (0, "Azeroth".into(), "Azeroth".into()),
                (1, "Kalimdor".into(), "Kalimdor".into()),
                (2, "Isle".into(), "The Isle".into()),
            ]
        );
    }

    #[test]
    fn a_folder_the_table_names_is_not_added_twice_and_ids_are_not_reused() {
        let base = wrath_table();
        let (bytes, _) = add_map(&base, &ClientGeneration::V335, &entry(Some(900))).unwrap();
        let bytes = bytes.unwrap();
        let again = add_map(&bytes, &ClientGeneration::V335, &entry(None)).unwrap();
        assert_eq!(again, (None, MapRowOutcome::Present(900)));
        let taken = add_map(
            &base,
            &ClientGeneration::V335,
            &MapEntry {
                directory: "Other".into(),
                ..entry(Some(1))
            },
        );
        assert_eq!(taken.unwrap_err(), "map id 1 is taken by Kalimdor");
        let e = add_map(&bytes, &ClientGeneration::V335, &entry(Some(5))).unwrap_err();
        assert!(e.contains("already has Isle as map 900"), "{e}");
    }
}
