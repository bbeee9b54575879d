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

/// The table `bytes` (a client's AreaTable.dbc of `generation`) with a row for each of `ids`
/// it lacks, on map `map_id`, named `name` in every locale column, each with the next free
/// exploration bit (`area_bit`, one above the largest) and every other field 0: no parent
/// zone, no flags, no sounds, music, light or liquid of its own, exploration level 0. Returns
/// the new table (`None` when every id was there) and the ids added.
pub fn add_areas(
    bytes: &[u8],
    generation: &ClientGeneration,
    map_id: u32,
    ids: &[u32],
    name: &str,
) -> Result<(Option<Vec<u8>>, Vec<u32>), String> {
    let have = read_area_ids(bytes, generation).ok_or_else(|| {
        format!("the client's {AREA_TABLE_DBC} does not fit loam's {generation} layout")
    })?;
    let wanted: Vec<u32> = ids
        .iter()
        .copied()
        .filter(|id| *id != 0 && !have.contains(id))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if wanted.is_empty() {
        return Ok((None, Vec::new()));
    }
    let written = match generation {
        ClientGeneration::V335 => wrath_areas(bytes, map_id, &wanted, name),
        ClientGeneration::V112 => vanilla_areas(bytes, map_id, &wanted, name),
        other => Err(format!(
            "loam writes AreaTable for 1.12 and 3.3.5, not {other}"
        )),
    }?;
    Ok((Some(written), wanted))
}

/// The exploration bits a client has room for: 128 words of 32 bits (the player's explored
/// zones field).
const AREA_BITS: i32 = 128 * 32;

/// The next free exploration bit after `largest`, for `count` new areas.
fn next_bits(largest: i32, count: usize) -> Result<i32, String> {
    let first = largest + 1;
    if first + count as i32 > AREA_BITS {
        return Err(format!(
            "no exploration bit is free for {count} new area(s) (the table uses up to {largest})"
        ));
    }
    Ok(first)
}

fn wrath_areas(bytes: &[u8], map_id: u32, ids: &[u32], name: &str) -> Result<Vec<u8>, String> {
    use wow_dbc::wrath_tables::area_table::{AreaTable, AreaTableKey, AreaTableRow};
    use wow_dbc::wrath_tables::{
        light::LightKey, map::MapKey, sound_ambience::SoundAmbienceKey,
        sound_provider_preferences::SoundProviderPreferencesKey,
        zone_intro_music_table::ZoneIntroMusicTableKey, zone_music::ZoneMusicKey,
    };
    let mut t = super::dbc::read_guarded(bytes, |b| AreaTable::read(&mut &b[..]).ok())
        .ok_or("the client's AreaTable.dbc cannot be read")?;
    let largest = t.rows.iter().map(|r| r.area_bit).max().unwrap_or(0);
    let first = next_bits(largest, ids.len())?;
    let map = i32::try_from(map_id).map_err(|_| "map id too large".to_string())?;
    for (k, &id) in ids.iter().enumerate() {
        let id = i32::try_from(id).map_err(|_| format!("area id {id} too large"))?;
        t.rows.push(AreaTableRow {
            id: AreaTableKey::new(id),
            continent_id: MapKey::new(map),
            parent_area_id: AreaTableKey::new(0),
            area_bit: first + k as i32,
            flags: 0,
            sound_provider_pref: SoundProviderPreferencesKey::new(0),
            sound_provider_pref_underwater: SoundProviderPreferencesKey::new(0),
            ambience_id: SoundAmbienceKey::new(0),
            zone_music: ZoneMusicKey::new(0),
            intro_sound: ZoneIntroMusicTableKey::new(0),
            exploration_level: 0,
            area_name_lang: super::map_table::extended(name),
            faction_group_mask: 0,
            liquid_type_id: [0; 4],
            min_elevation: 0.0,
            ambient_multiplier: 0.0,
            light_id: LightKey::new(0),
        });
    }
    let mut out = Vec::new();
    t.write(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

fn vanilla_areas(bytes: &[u8], map_id: u32, ids: &[u32], name: &str) -> Result<Vec<u8>, String> {
    use wow_dbc::vanilla_tables::area_table::{AreaTable, AreaTableKey, AreaTableRow};
    use wow_dbc::vanilla_tables::{
        faction_group::FactionGroupKey, light::LightKey, liquid_type::LiquidTypeKey, map::MapKey,
        sound_ambience::SoundAmbienceKey, sound_provider_preferences::SoundProviderPreferencesKey,
        zone_intro_music_table::ZoneIntroMusicTableKey, zone_music::ZoneMusicKey,
    };
    let mut t = super::dbc::read_guarded(bytes, |b| AreaTable::read(&mut &b[..]).ok())
        .ok_or("the client's AreaTable.dbc cannot be read")?;
    let largest = t.rows.iter().map(|r| r.area_bit).max().unwrap_or(0);
    let first = next_bits(largest, ids.len())?;
    for (k, &id) in ids.iter().enumerate() {
        t.rows.push(AreaTableRow {
            id: AreaTableKey::new(id),
            map: MapKey::new(map_id),
            parent_area_table: AreaTableKey::new(0),
            area_bit: first + k as i32,
            flags: wow_world_base::vanilla::AreaFlags::new(0),
            sound_preferences: SoundProviderPreferencesKey::new(0),
            sound_preferences_underwater: SoundProviderPreferencesKey::new(0),
            sound_ambience: SoundAmbienceKey::new(0),
            zone_music: ZoneMusicKey::new(0),
            zone_music_intro: ZoneIntroMusicTableKey::new(0),
            exploration_level: 0,
            area_name: super::map_table::localized(name),
            faction_group: FactionGroupKey::new(0),
            liquid_type: LiquidTypeKey::new(0),
            min_elevation: 0,
            ambient_multiplier: 0.0,
            light: LightKey::new(0),
        });
    }
    let mut out = Vec::new();
    t.write(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3.3.5 AreaTable (36 fields) with rows `ids`, exploration bits 1, 2, ….
    fn table(ids: &[u32]) -> Vec<u8> {
        let mut b = b"WDBC".to_vec();
        for v in [ids.len() as u32, 36, 144, 1] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for (k, id) in ids.iter().enumerate() {
            let mut rec = [0u32; 36];
            rec[0] = *id;
            rec[3] = k as u32 + 1;
            rec.iter()
                .for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
        }
        b.push(0);
        b
    }

    #[test]
    fn missing_areas_are_added_on_the_map_with_free_exploration_bits_and_old_rows_stay() {
        let g = ClientGeneration::V335;
        let (bytes, added) =
            add_areas(&table(&[12, 40]), &g, 901, &[0, 40, 7000, 7001], "Isle").unwrap();
        assert_eq!(added, [7000, 7001]);
        let bytes = bytes.unwrap();
        assert_eq!(
            read_area_ids(&bytes, &g)
                .unwrap()
                .into_iter()
                .collect::<Vec<_>>(),
            [12, 40, 7000, 7001]
        );
        let t = wow_dbc::wrath_tables::area_table::AreaTable::read(&mut &bytes[..]).unwrap();
        let new: Vec<(i32, i32, &str)> = t.rows()[2..]
            .iter()
            .map(|r| {
                (
                    r.continent_id.id,
                    r.area_bit,
                    r.area_name_lang.en_gb.as_str(),
                )
            })
            .collect();
        assert_eq!(new, [(901, 3, "Isle"), (901, 4, "Isle")]);
        assert_eq!(
            add_areas(&bytes, &g, 901, &[7000], "Isle").unwrap(),
            (None, vec![])
        );
    }
}
