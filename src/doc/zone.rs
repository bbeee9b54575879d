//! The zone's tables as the Light and Triggers tools edit them: read from the client into the
//! map (`Map::client_tables`) when a tool first needs them, changed on a working copy while a
//! gesture lasts (a gizmo drag, a colour picked), each gesture recorded as the rows it changed
//! (one undo step), and written at Save into the archive where loam puts the client's tables
//! (`pipeline::table_archive`, the rule `loam light add` follows).
//!
//! Not for: what the rows mean (`assets::client::light_rows`, `area_triggers`), drawing them
//! (`app::view_options::zone_marks`), or the tools' widgets.

use crate::assets::client::light_rows::{BAND_ROW_FIELDS, PARAMS_ROW_FIELDS, sets_of};
use crate::assets::client::{
    AREA_TRIGGER_DBC, ClientData, ClientGeneration, LIGHT_DBC, LIGHT_FLOAT_BAND_DBC,
    LIGHT_INT_BAND_DBC, LIGHT_PARAMS_DBC, LIGHT_SKYBOX_DBC, LightPlace, LightTableRows,
    LightTables, TriggerRows,
};
use crate::disk::LoamError;
use crate::edit::stroke::TerrainEdit;
use crate::model::Map;
use crate::model::coords::{LIGHT_UNITS_PER_YARD, light_to_world, world_to_light};
use crate::model::table_rows::{DbcRows, TableChange};
use crate::pipeline::table_archive::{TablesWritten, write_tables};

/// The four light tables, in the order `LightTableRows::held` gives them.
pub const LIGHT_TABLES: [&str; 4] = [
    LIGHT_DBC,
    LIGHT_PARAMS_DBC,
    LIGHT_INT_BAND_DBC,
    LIGHT_FLOAT_BAND_DBC,
];

/// The field counts table `table` may have in `generation`'s client (WoWDBDefs' layouts, as
/// `light_tables` and `area_triggers` read them).
fn layouts(table: &str, generation: &ClientGeneration) -> Result<Vec<usize>, String> {
    if table.eq_ignore_ascii_case(AREA_TRIGGER_DBC) {
        return Ok(match generation {
            ClientGeneration::Alpha | ClientGeneration::V060 => vec![6],
            ClientGeneration::Unknown(_) => vec![10, 6],
            _ => vec![10],
        });
    }
    let sets = sets_of(generation)?;
    Ok(vec![match table {
        LIGHT_DBC => 7 + sets,
        LIGHT_PARAMS_DBC => PARAMS_ROW_FIELDS,
        _ => BAND_ROW_FIELDS,
    }])
}

/// Reads into `map` each of `tables` it does not hold yet, as `client` has it. A client
/// without AreaTrigger.dbc gets an empty one (a trigger added there makes the table); a
/// missing light table, or one of another layout, is an error naming it.
pub fn hold(map: &mut Map, client: &ClientData, tables: &[&str]) -> Result<(), String> {
    let generation = client.generation();
    for &table in tables {
        if map.client_tables.get(table).is_some() {
            continue;
        }
        let fields = layouts(table, generation)?;
        let bytes = client.read(table).map_err(|e| e.to_string())?;
        let rows = match bytes {
            None if table == AREA_TRIGGER_DBC => DbcRows::empty(fields[0]),
            None => return Err(format!("the client has no {table}")),
            Some(b) => fields
                .iter()
                .find_map(|f| DbcRows::read(&b, *f))
                .ok_or_else(|| format!("{table} does not fit the {generation} layout"))?,
        };
        map.client_tables.insert(table, rows);
    }
    Ok(())
}

/// The light tables as `map` holds them, for drawing its light and its overlay (the sky box
/// names from `client`'s LightSkybox.dbc, which no tool edits); `None` until a tool read them
/// (the client's are drawn then).
pub fn held_lights(map: &Map, client: &ClientData) -> Option<LightTables> {
    let bytes: Vec<Vec<u8>> = LIGHT_TABLES
        .iter()
        .map(|t| map.client_tables.get(t).map(DbcRows::to_bytes))
        .collect::<Option<_>>()?;
    let skyboxes = client.read(LIGHT_SKYBOX_DBC).ok().flatten();
    LightTables::read(
        &bytes[0],
        &bytes[1],
        &bytes[2],
        &bytes[3],
        client.generation(),
    )
    .map(|t| t.with_skyboxes(skyboxes.as_deref()))
}

/// AreaTrigger.dbc as `map` holds it; `None` until a tool read it.
pub fn held_triggers(map: &Map) -> Option<TriggerRows> {
    map.client_tables
        .get(AREA_TRIGGER_DBC)
        .map(|t| TriggerRows::from_rows(t.clone()))
}

/// A change of the held tables under way: the tables as they were when it began. While it
/// lasts each new state goes into the map at once (the view shows it); [`Gesture::finish`]
/// makes the whole of it one undo step.
#[derive(Debug, Clone)]
pub struct Gesture {
    /// What the step will be called in the history.
    pub label: String,
    before: Vec<(String, DbcRows)>,
}

impl Gesture {
    /// A gesture called `label` over `tables`, as `map` holds them now.
    pub fn begin(map: &Map, label: &str, tables: &[&str]) -> Gesture {
        Gesture {
            label: label.to_string(),
            before: tables
                .iter()
                .filter_map(|t| Some((t.to_string(), map.client_tables.get(t)?.clone())))
                .collect(),
        }
    }

    /// Puts `now` (tables by game path) into `map`, row by row.
    pub fn update(&self, map: &mut Map, now: &[(&str, &DbcRows)]) {
        let changes = changes_from(map, now);
        map.client_tables.apply(&changes, true);
    }

    /// The undo step from the tables as they were at the start to how `map` holds them now
    /// (which the map already shows); `None` when they are the same again.
    pub fn finish(self, map: &Map) -> Option<TerrainEdit> {
        let changes: Vec<TableChange> = (self.before.iter())
            .filter_map(|(t, before)| {
                Some(TableChange::between(t, before, map.client_tables.get(t)?))
            })
            .flatten()
            .collect();
        (!changes.is_empty()).then(|| {
            let mut edit = TerrainEdit::of_tables(self.label, changes);
            edit.already_applied = true;
            edit
        })
    }
}

/// The rows that differ between what `map` holds and `now`.
fn changes_from(map: &Map, now: &[(&str, &DbcRows)]) -> Vec<TableChange> {
    now.iter()
        .filter_map(|(t, rows)| Some(TableChange::between(t, map.client_tables.get(t)?, rows)))
        .flatten()
        .collect()
}

/// The held tables whose bytes differ from the client's: what Save must write.
pub fn changed_tables(map: &Map, client: &ClientData) -> Vec<(String, Vec<u8>)> {
    map.client_tables
        .iter()
        .map(|(t, rows)| (t.to_string(), rows.to_bytes()))
        .filter(|(t, bytes)| client.read(t).ok().flatten().as_deref() != Some(bytes.as_slice()))
        .collect()
}

/// Writes the held tables that differ from the client's into the client's table archive
/// (`write_tables`: `patch-<locale>-4.MPQ` in 3.3.5, the first free `patch-N.MPQ` in 1.12,
/// every file the archive held kept); `None` when none differs.
pub fn save_tables(map: &Map, client: &ClientData) -> Result<Option<TablesWritten>, LoamError> {
    let changed = changed_tables(map, client);
    if changed.is_empty() {
        return Ok(None);
    }
    let tables: Vec<(&str, Vec<u8>)> = changed
        .iter()
        .map(|(t, b)| (t.as_str(), b.clone()))
        .collect();
    write_tables(client.data_dir(), None, &tables).map(Some)
}

/// A change of one light, as the Light tool makes it.
#[derive(Debug, Clone, PartialEq)]
pub enum LightChange {
    /// Its centre (world: x north, y west, z up, as `.go xyz`) and radii (yards).
    Place {
        /// The centre.
        centre: [f64; 3],
        /// Inside it the light is whole.
        inner: f32,
        /// Beyond it the light gives nothing.
        outer: f32,
    },
    /// The keys of colour band `band` of its clear-weather set (half-minutes, `0x00RRGGBB`).
    Colours {
        /// The band's index (`COLOUR_BAND_NAMES`).
        band: usize,
        /// The keys.
        keys: Vec<(u32, u32)>,
    },
    /// The keys of float band `band` of its clear-weather set (half-minutes, values).
    Floats {
        /// The band's index (`FLOAT_BAND_NAMES`).
        band: usize,
        /// The keys.
        keys: Vec<(u32, f32)>,
    },
}

/// The stored place of a light at world `centre` with radii `inner`, `outer` in yards.
pub fn light_place(centre: [f64; 3], inner: f32, outer: f32) -> LightPlace {
    let inches = LIGHT_UNITS_PER_YARD as f32;
    LightPlace {
        coords: world_to_light(centre),
        inner: inner * inches,
        outer: outer * inches,
    }
}

/// Light `id`'s centre in the world and radii in yards.
pub fn light_in_world(place: &LightPlace) -> ([f64; 3], f32, f32) {
    let inches = LIGHT_UNITS_PER_YARD as f32;
    (
        light_to_world(place.coords),
        place.inner / inches,
        place.outer / inches,
    )
}

/// Makes `change` to light `id` of `rows` (a set another light shares is copied first, so
/// that no other light changes).
pub fn change_light(
    rows: &mut LightTableRows,
    id: u32,
    change: &LightChange,
) -> Result<(), String> {
    match change {
        LightChange::Place {
            centre,
            inner,
            outer,
        } => {
            if !(*inner >= 0.0 && inner <= outer && *outer > 0.0) {
                return Err(format!(
                    "the radii must be 0 ≤ inner ≤ outer and outer above 0, not {inner} and \
                     {outer}"
                ));
            }
            rows.set_place(id, light_place(*centre, *inner, *outer))
        }
        LightChange::Colours { band, keys } => rows.set_colour_band(id, *band, keys),
        LightChange::Floats { band, keys } => rows.set_float_band(id, *band, keys),
    }
}
