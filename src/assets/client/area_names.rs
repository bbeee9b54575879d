//! Zone and subzone names for the area ids a map's chunks store, from the client's
//! `DBFilesClient\AreaTable.dbc`: what the status bar, the Area tool's picker, `loam info` and
//! the conversion report show beside a bare number.
//!
//! Layouts: 1.12, 2.4.3 and 3.3.5 through the `wow_dbc` crate's typed tables (key: the row id,
//! zone: `ParentAreaID`, 0 for a zone). The crate has no 0.5.x or 0.6.0 table; those are read
//! from WoWDBDefs' `definitions/AreaTable.dbd`:
//! - `BUILD 0.5.3.3368`: ID, AreaNumber, ContinentID, ParentAreaNum, AreaBit, Flags,
//!   SoundProviderPref, SoundProviderPrefUnderwater, MIDIAmbience, MIDIAmbienceUnderwater,
//!   ZoneMusic, IntroSound, IntroPriority, AreaName_lang (8 strings and a flags word): 22
//!   fields. `BUILD 0.5.5.3494` adds ExplorationLevel before the name: 23.
//!   An alpha chunk stores the AreaNumber (`zone << 16 | subzone`, `specs/alpha-0.5.3.md`,
//!   MCNK 0x38), so that is the key, and a subzone's zone is the row whose number is its own
//!   with the low half cleared.
//! - `BUILD 0.6.0.3592`: ID, ContinentID, ParentAreaID, Flags, SoundProviderPref,
//!   SoundProviderPrefUnderwater, MIDIAmbience, MIDIAmbienceUnderwater, ZoneMusic, IntroSound,
//!   IntroPriority, ExplorationLevel, AreaName_lang: 21 fields, keyed by ID as later clients.
//!
//! A table of any other shape gives no names rather than guessed ones.
//!
//! Not for: the set of ids alone or adding rows (`area_table`).

use std::collections::BTreeMap;

use wow_dbc::DbcTable;

use super::dbc::{RawTable, first_locale, read_guarded};
use super::{AREA_TABLE_DBC, ClientData, ClientGeneration};

/// One row of the area table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Area {
    /// The number a chunk stores for it (the row id; the AreaNumber in 0.5.x).
    pub key: u32,
    /// Its name in the client's locale ("Goldshire").
    pub name: String,
    /// The zone it lies in (its key), `None` for a zone itself.
    pub zone: Option<u32>,
    /// The Map.dbc id of the map it belongs to.
    pub map: u32,
}

/// A zone and its subzones, for the Area tool's picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone<'a> {
    /// The zone's row.
    pub area: &'a Area,
    /// Its subzones, by name.
    pub subzones: Vec<&'a Area>,
}

/// The client's area names, by the key chunks store.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AreaNames {
    areas: BTreeMap<u32, Area>,
}

impl AreaNames {
    /// The names in `bytes` (an AreaTable.dbc) read with `generation`'s layout (every later
    /// layout when the generation is unknown); `None` when no layout loam knows fits.
    pub fn read(bytes: &[u8], generation: &ClientGeneration) -> Option<AreaNames> {
        let rows = match generation {
            ClientGeneration::Alpha => {
                alpha_rows(bytes, 22, 13).or_else(|| alpha_rows(bytes, 23, 14))
            }
            ClientGeneration::V060 => beta_rows(bytes),
            ClientGeneration::V112 => vanilla_rows(bytes),
            ClientGeneration::V243 => tbc_rows(bytes),
            ClientGeneration::V335 => wrath_rows(bytes),
            ClientGeneration::Unknown(_) => wrath_rows(bytes)
                .or_else(|| tbc_rows(bytes))
                .or_else(|| vanilla_rows(bytes)),
        }?;
        Some(AreaNames {
            areas: rows.into_iter().map(|a| (a.key, a)).collect(),
        })
    }

    /// How many areas the table names.
    pub fn len(&self) -> usize {
        self.areas.len()
    }

    /// True when the table names no area (no client, or its table could not be read).
    pub fn is_empty(&self) -> bool {
        self.areas.is_empty()
    }

    /// The row a chunk's area id names.
    pub fn get(&self, key: u32) -> Option<&Area> {
        self.areas.get(&key)
    }

    /// The zone and subzone an area id names: "Elwynn Forest › Goldshire", or the zone alone
    /// for a zone's own id; `None` when the table lacks it.
    pub fn describe(&self, key: u32) -> Option<String> {
        let area = self.get(key)?;
        Some(match area.zone.and_then(|z| self.get(z)) {
            Some(zone) if zone.key != area.key => format!("{} › {}", zone.name, area.name),
            _ => area.name.clone(),
        })
    }

    /// An area id as the user reads it: "12 (Elwynn Forest)", or the bare number when the
    /// table does not name it.
    pub fn label(&self, key: u32) -> String {
        match self.describe(key) {
            Some(name) => format!("{key} ({name})"),
            None => key.to_string(),
        }
    }

    /// The zones (areas in no other zone) with their subzones, by name; those of map
    /// `map` only when given. A subzone whose zone the table lacks is listed as a zone.
    pub fn zones(&self, map: Option<u32>) -> Vec<Zone<'_>> {
        let on_map = |a: &&Area| map.is_none_or(|m| a.map == m);
        let mut zones: BTreeMap<u32, Zone> = self
            .areas
            .values()
            .filter(on_map)
            .filter(|a| a.zone.is_none_or(|z| z == a.key || self.get(z).is_none()))
            .map(|a| {
                let zone = Zone {
                    area: a,
                    subzones: Vec::new(),
                };
                (a.key, zone)
            })
            .collect();
        for a in self.areas.values().filter(on_map) {
            if let Some(z) = a.zone.filter(|z| *z != a.key)
                && let Some(zone) = zones.get_mut(&z)
            {
                zone.subzones.push(a);
            }
        }
        let mut out: Vec<Zone> = zones.into_values().collect();
        for z in &mut out {
            z.subzones.sort_by(|a, b| by_name(a, b));
        }
        out.sort_by(|a, b| by_name(a.area, b.area));
        out
    }
}

/// Areas in name order (case-insensitive), then by key.
fn by_name(a: &Area, b: &Area) -> std::cmp::Ordering {
    a.name
        .to_lowercase()
        .cmp(&b.name.to_lowercase())
        .then(a.key.cmp(&b.key))
}

/// A zone link as the tables store it: 0 (and a negative number) is none.
fn zone_of(parent: i64) -> Option<u32> {
    u32::try_from(parent).ok().filter(|p| *p != 0)
}

fn vanilla_rows(bytes: &[u8]) -> Option<Vec<Area>> {
    use wow_dbc::vanilla_tables::area_table::AreaTable;
    let t = read_guarded(bytes, |b| AreaTable::read(&mut &b[..]).ok())?;
    Some(
        t.rows()
            .iter()
            .map(|r| Area {
                key: r.id.id,
                name: first_locale!(r.area_name),
                zone: zone_of(i64::from(r.parent_area_table.id)),
                map: r.map.id,
            })
            .collect(),
    )
}

/// The 2.4.3 and 3.3.5 rows: the two typed tables differ only in a trailing field.
macro_rules! later_rows {
    ($name:ident, $table:ty) => {
        fn $name(bytes: &[u8]) -> Option<Vec<Area>> {
            let t = read_guarded(bytes, |b| <$table>::read(&mut &b[..]).ok())?;
            Some(
                t.rows()
                    .iter()
                    .filter_map(|r| {
                        Some(Area {
                            key: u32::try_from(r.id.id).ok()?,
                            name: first_locale!(r.area_name_lang),
                            zone: zone_of(i64::from(r.parent_area_id.id)),
                            map: u32::try_from(r.continent_id.id).unwrap_or(u32::MAX),
                        })
                    })
                    .collect(),
            )
        }
    };
}
later_rows!(tbc_rows, wow_dbc::tbc_tables::area_table::AreaTable);
later_rows!(wrath_rows, wow_dbc::wrath_tables::area_table::AreaTable);

/// A 0.5.x table of `fields` fields whose name starts at field `name` (see the module's doc).
fn alpha_rows(bytes: &[u8], fields: usize, name: usize) -> Option<Vec<Area>> {
    let t = RawTable::read(bytes, fields)?;
    (0..t.records())
        .map(|r| {
            let key = t.word(r, 1);
            let zone = (key & 0xFFFF != 0).then_some(key & 0xFFFF_0000);
            Some(Area {
                key,
                name: t.first_locale(r, name)?,
                zone,
                map: t.word(r, 2),
            })
        })
        .collect()
}

/// A 0.6.0 table (see the module's doc).
fn beta_rows(bytes: &[u8]) -> Option<Vec<Area>> {
    let t = RawTable::read(bytes, 21)?;
    (0..t.records())
        .map(|r| {
            Some(Area {
                key: t.word(r, 0),
                name: t.first_locale(r, 12)?,
                zone: zone_of(i64::from(t.word(r, 2))),
                map: t.word(r, 1),
            })
        })
        .collect()
}

impl ClientData {
    /// The client's area names; empty when it has no AreaTable.dbc or loam cannot read it
    /// (the ids then show as bare numbers, as without a client).
    pub fn area_names(&self) -> AreaNames {
        self.read(AREA_TABLE_DBC)
            .ok()
            .flatten()
            .and_then(|b| AreaNames::read(&b, self.generation()))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WDBC table of `fields` four-byte fields: `rows` of (numbers before the name, name),
    /// the name written into the first locale column at `name_at`.
    fn table(fields: usize, name_at: usize, rows: &[(&[u32], &str)]) -> Vec<u8> {
        let records: Vec<Vec<Result<u32, usize>>> = rows
            .iter()
            .enumerate()
            .map(|(k, (numbers, _))| {
                let mut rec = vec![Ok(0); fields];
                for (field, n) in rec.iter_mut().zip(*numbers) {
                    *field = Ok(*n);
                }
                rec[name_at] = Err(k);
                rec
            })
            .collect();
        let names: Vec<&str> = rows.iter().map(|(_, name)| *name).collect();
        crate::assets::client::dbc::test_table(fields, &records, &names)
    }

    #[test]
    fn a_wrath_table_names_zones_and_subzones_and_lists_them_as_a_tree() {
        // 3.3.5: ID, ContinentID, ParentAreaID, …, AreaName_lang at 11 (17 strings + flags).
        let t = table(
            36,
            11,
            &[
                (&[12, 0, 0], "Elwynn Forest"),
                (&[87, 0, 12], "Goldshire"),
                (&[9, 0, 12], "Northshire Valley"),
                (&[14, 1, 0], "Durotar"),
            ],
        );
        let names = AreaNames::read(&t, &ClientGeneration::V335).unwrap();
        assert_eq!(names.len(), 4);
        assert_eq!(
            names.describe(87).as_deref(),
            Some("Elwynn Forest › Goldshire")
        );
        assert_eq!(names.describe(12).as_deref(), Some("Elwynn Forest"));
        assert_eq!(names.label(14), "14 (Durotar)");
        assert_eq!(names.label(5000), "5000");
        let zones = names.zones(Some(0));
        assert_eq!(zones.len(), 1);
        assert_eq!(zones[0].area.name, "Elwynn Forest");
        let subs: Vec<&str> = zones[0].subzones.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(subs, ["Goldshire", "Northshire Valley"]);
        assert_eq!(names.zones(None).len(), 2);
        // The same bytes are not a 1.12 or 0.5.3 table.
        assert_eq!(AreaNames::read(&t, &ClientGeneration::V112), None);
        assert_eq!(AreaNames::read(&t, &ClientGeneration::Alpha), None);
    }

    #[test]
    fn an_alpha_table_is_keyed_by_area_number_and_a_subzone_finds_its_zone_by_the_high_half() {
        let elwynn = 12 << 16;
        let goldshire = elwynn | 3;
        let t = table(
            22,
            13,
            &[
                (&[1, elwynn, 0, 0], "Elwynn Forest"),
                (&[2, goldshire, 0, elwynn], "Goldshire"),
            ],
        );
        let names = AreaNames::read(&t, &ClientGeneration::Alpha).unwrap();
        assert_eq!(
            names.describe(goldshire).as_deref(),
            Some("Elwynn Forest › Goldshire")
        );
        assert_eq!(names.get(2), None, "the row id is not what chunks store");
        // 0.5.5's table has one more field before the name.
        let t = table(23, 14, &[(&[1, elwynn, 0, 0], "Elwynn Forest")]);
        let names = AreaNames::read(&t, &ClientGeneration::Alpha).unwrap();
        assert_eq!(names.describe(elwynn).as_deref(), Some("Elwynn Forest"));
    }

    #[test]
    fn a_beta_table_is_keyed_by_row_id() {
        let t = table(
            21,
            12,
            &[(&[12, 0, 0], "Elwynn Forest"), (&[87, 0, 12], "Goldshire")],
        );
        let names = AreaNames::read(&t, &ClientGeneration::V060).unwrap();
        assert_eq!(
            names.describe(87).as_deref(),
            Some("Elwynn Forest › Goldshire")
        );
    }

    #[test]
    fn a_table_with_a_string_past_its_block_gives_no_names() {
        let mut t = table(22, 13, &[(&[1, 12 << 16], "Elwynn Forest")]);
        t[20 + 13 * 4..20 + 14 * 4].copy_from_slice(&999u32.to_le_bytes());
        assert_eq!(AreaNames::read(&t, &ClientGeneration::Alpha), None);
    }
}
