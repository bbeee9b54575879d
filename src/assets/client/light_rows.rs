//! The client's four light tables as rows to edit: lights added, moved, resized and removed,
//! their parameter sets copied and their bands rewritten, every row not edited kept as read
//! (`model::table_rows`).
//!
//! The rules the client follows, and loam with it (docs/client-data.md, "Light rows"):
//! - a Light row names up to 5 (1.12, 2.4.3) or 8 (3.3.5) LightParams ids: clear weather,
//!   clear underwater, storm, storm underwater, death, and three more in 3.3.5; 0 for none;
//! - parameter set `p` owns LightIntBand rows `(p − 1)·18 + 1 …` (its 18 colour bands) and
//!   LightFloatBand rows `(p − 1)·6 + 1 …` (its 6 float bands); the table holds no pointer
//!   to them, so a new set takes an id whose band rows are free in both tables;
//! - a band row is ID, Num, Time[16] (half-minutes after midnight), Data[16] (`0x00RRGGBB`,
//!   or a float's bits).
//!
//! A set several lights share is copied before one of them changes it, so that an edit never
//! reaches a light the user did not choose.
//!
//! Not for: reading the tables to draw them (`light_tables`), their axes
//! (`model::coords::light_to_world`), where the rows are written (`pipeline::table_archive`).

use super::{
    ClientGeneration, LIGHT_DBC, LIGHT_FLOAT_BAND_DBC, LIGHT_INT_BAND_DBC, LIGHT_PARAMS_DBC,
};
use crate::model::table_rows::{ClientTables, DbcRows};

/// The colour bands of a parameter set, by index, as the command line and the Light tool
/// name them: Noggit Red's names (`ui/tools/LightEditor`), lower case with hyphens.
pub const COLOUR_BAND_NAMES: [&str; 18] = [
    "direct",
    "ambient",
    "sky-top",
    "sky-middle",
    "sky-band-1",
    "sky-band-2",
    "sky-smog",
    "fog",
    "shadow-opacity",
    "sun",
    "cloud-sun",
    "cloud-emissive",
    "cloud-layer-1-ambient",
    "cloud-layer-2-ambient",
    "ocean-shallow",
    "ocean-deep",
    "river-shallow",
    "river-deep",
];

/// The float bands of a parameter set, by index (Noggit Red's names).
pub const FLOAT_BAND_NAMES: [&str; 6] = [
    "fog-end",
    "fog-multiplier",
    "celestial-glow",
    "cloud-density",
    "unused-1",
    "unused-2",
];

/// Keys a band row holds at most.
pub const MAX_BAND_KEYS: usize = 16;
const COLOUR_BANDS: u32 = COLOUR_BAND_NAMES.len() as u32;
const FLOAT_BANDS: u32 = FLOAT_BAND_NAMES.len() as u32;
/// Fields of a band row: ID, Num, Time[16], Data[16].
const BAND_FIELDS: usize = 2 + 2 * MAX_BAND_KEYS;
/// Fields of a LightParams row (1.9 – 3.3.5).
const PARAMS_FIELDS: usize = 9;

/// A light's place and reach as stored: GameCoords in the placement axes × 36
/// (`model::coords::world_to_light`), radii in inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightPlace {
    /// GameCoords as stored.
    pub coords: [f32; 3],
    /// GameFalloffStart: inside it the light is whole.
    pub inner: f32,
    /// GameFalloffEnd: beyond it the light gives nothing.
    pub outer: f32,
}

/// The four light tables, to edit.
#[derive(Debug, Clone, PartialEq)]
pub struct LightTableRows {
    /// LightParams ids a Light row holds (5 or 8).
    sets: usize,
    light: DbcRows,
    params: DbcRows,
    int_bands: DbcRows,
    float_bands: DbcRows,
}

impl LightTableRows {
    /// The tables in the four files' bytes, with `generation`'s Light layout (see
    /// `light_tables`); an error naming the table that fits no layout loam can write.
    pub fn read(
        light: &[u8],
        params: &[u8],
        int_band: &[u8],
        float_band: &[u8],
        generation: &ClientGeneration,
    ) -> Result<LightTableRows, String> {
        let sets = sets_of(generation)?;
        let layout = |bytes: &[u8], fields: usize, name: &str| {
            DbcRows::read(bytes, fields).ok_or_else(|| {
                format!("{name} does not fit the {generation} layout ({fields} fields a row)")
            })
        };
        Ok(LightTableRows {
            sets,
            light: layout(light, 7 + sets, LIGHT_DBC)?,
            params: layout(params, PARAMS_FIELDS, LIGHT_PARAMS_DBC)?,
            int_bands: layout(int_band, BAND_FIELDS, LIGHT_INT_BAND_DBC)?,
            float_bands: layout(float_band, BAND_FIELDS, LIGHT_FLOAT_BAND_DBC)?,
        })
    }

    /// The four tables as `held` holds them (the map's copies, `Map::client_tables`), read
    /// with `generation`'s Light layout; an error naming a table not held or of another
    /// layout.
    pub fn from_held(
        held: &ClientTables,
        generation: &ClientGeneration,
    ) -> Result<LightTableRows, String> {
        let sets = sets_of(generation)?;
        let table = |name: &str, fields: usize| {
            let t = held
                .get(name)
                .ok_or_else(|| format!("{name} is not read from the client yet"))?;
            if t.fields() != fields {
                return Err(format!(
                    "{name} does not fit the {generation} layout ({fields} fields a row)"
                ));
            }
            Ok(t.clone())
        };
        Ok(LightTableRows {
            sets,
            light: table(LIGHT_DBC, 7 + sets)?,
            params: table(LIGHT_PARAMS_DBC, PARAMS_FIELDS)?,
            int_bands: table(LIGHT_INT_BAND_DBC, BAND_FIELDS)?,
            float_bands: table(LIGHT_FLOAT_BAND_DBC, BAND_FIELDS)?,
        })
    }

    /// The four tables' game paths and rows, to hold in the map or compare with it.
    pub fn held(&self) -> [(&'static str, &DbcRows); 4] {
        [
            (LIGHT_DBC, &self.light),
            (LIGHT_PARAMS_DBC, &self.params),
            (LIGHT_INT_BAND_DBC, &self.int_bands),
            (LIGHT_FLOAT_BAND_DBC, &self.float_bands),
        ]
    }

    /// The ids of map `map`'s placed lights (its global light, at the origin, left out), in
    /// the table's order.
    pub fn placed(&self, map: u32) -> Vec<u32> {
        (self.light.rows().iter())
            .filter(|r| r[1] == map && r[2..5].iter().any(|w| f32::from_bits(*w) != 0.0))
            .map(|r| r[0])
            .collect()
    }

    /// The four tables' game paths and bytes, to write.
    pub fn tables(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            (LIGHT_DBC, self.light.to_bytes()),
            (LIGHT_PARAMS_DBC, self.params.to_bytes()),
            (LIGHT_INT_BAND_DBC, self.int_bands.to_bytes()),
            (LIGHT_FLOAT_BAND_DBC, self.float_bands.to_bytes()),
        ]
    }

    /// Light `id`'s map, place and parameter set ids.
    pub fn light(&self, id: u32) -> Option<(u32, LightPlace, Vec<u32>)> {
        let r = self.light.get(id)?;
        let f = |k: usize| f32::from_bits(r[k]);
        let place = LightPlace {
            coords: [f(2), f(3), f(4)],
            inner: f(5),
            outer: f(6),
        };
        Some((r[1], place, r[7..].to_vec()))
    }

    /// The global light of map `map`: its row stored at (0, 0, 0), else row 1 (the light the
    /// client falls back to, as `doc::light` does).
    pub fn global_light(&self, map: u32) -> Option<u32> {
        let at_origin = |r: &&Vec<u32>| r[2..5].iter().all(|w| f32::from_bits(*w) == 0.0);
        (self.light.rows().iter())
            .filter(|r| r[1] == map)
            .find(at_origin)
            .map(|r| r[0])
            .or_else(|| self.light.get(1).map(|r| r[0]))
    }

    /// Adds a light to map `map` at `place` with copies of light `like`'s parameter sets
    /// (so editing the new light's bands changes no other); returns its id, one above the
    /// table's largest.
    pub fn add_light(&mut self, map: u32, place: LightPlace, like: u32) -> Result<u32, String> {
        let (_, _, sets) = self
            .light(like)
            .ok_or_else(|| format!("{LIGHT_DBC} has no light {like} to copy"))?;
        let copies: Vec<u32> = sets
            .iter()
            .map(|s| if *s == 0 { 0 } else { self.copy_set(*s) })
            .collect();
        let id = self.light.largest_id() + 1;
        let mut row = vec![id, map];
        row.extend(place.coords.map(f32::to_bits));
        row.extend([place.inner.to_bits(), place.outer.to_bits()]);
        row.extend(copies);
        self.light.push(row);
        Ok(id)
    }

    /// Moves or resizes light `id`.
    pub fn set_place(&mut self, id: u32, place: LightPlace) -> Result<(), String> {
        let r = self.light_row(id)?;
        r[2..5].copy_from_slice(&place.coords.map(f32::to_bits));
        r[5] = place.inner.to_bits();
        r[6] = place.outer.to_bits();
        Ok(())
    }

    /// Removes light `id`, and the parameter sets (with their band rows) no other light names.
    pub fn remove_light(&mut self, id: u32) -> Result<(), String> {
        let (_, _, sets) = self
            .light(id)
            .ok_or_else(|| format!("{LIGHT_DBC} has no light {id}"))?;
        self.light.remove(id);
        for s in sets.into_iter().filter(|s| *s != 0) {
            if self.users(s) == 0 {
                self.remove_set(s);
            }
        }
        Ok(())
    }

    /// Sets colour band `band` of light `id`'s clear-weather set (its first) to `keys`
    /// (half-minutes, `0x00RRGGBB`), copying the set first when another light shares it.
    pub fn set_colour_band(
        &mut self,
        id: u32,
        band: usize,
        keys: &[(u32, u32)],
    ) -> Result<(), String> {
        let set = self.own_clear_set(id)?;
        let row = band_row(first_row(set, COLOUR_BANDS) + band as u32, keys)?;
        self.int_bands.put(row);
        Ok(())
    }

    /// Sets float band `band` of light `id`'s clear-weather set to `keys` (half-minutes,
    /// values), copying the set first when another light shares it.
    pub fn set_float_band(
        &mut self,
        id: u32,
        band: usize,
        keys: &[(u32, f32)],
    ) -> Result<(), String> {
        let set = self.own_clear_set(id)?;
        let words: Vec<(u32, u32)> = keys.iter().map(|(t, v)| (*t, v.to_bits())).collect();
        let row = band_row(first_row(set, FLOAT_BANDS) + band as u32, &words)?;
        self.float_bands.put(row);
        Ok(())
    }

    /// The keys of colour band `band` of parameter set `set` (empty when the row is missing).
    pub fn colour_band(&self, set: u32, band: usize) -> Vec<(u32, u32)> {
        band_keys(&self.int_bands, first_row(set, COLOUR_BANDS) + band as u32)
    }

    /// The keys of float band `band` of parameter set `set`, as float bits.
    pub fn float_band(&self, set: u32, band: usize) -> Vec<(u32, u32)> {
        band_keys(&self.float_bands, first_row(set, FLOAT_BANDS) + band as u32)
    }

    fn light_row(&mut self, id: u32) -> Result<&mut Vec<u32>, String> {
        self.light
            .get_mut(id)
            .ok_or_else(|| format!("{LIGHT_DBC} has no light {id}"))
    }

    /// How many Light rows name set `set`.
    fn users(&self, set: u32) -> usize {
        (self.light.rows().iter())
            .filter(|r| r[7..].contains(&set))
            .count()
    }

    /// Light `id`'s clear-weather set, copied first (and the light pointed at the copy) when
    /// another light names it too; an error when the light has none.
    fn own_clear_set(&mut self, id: u32) -> Result<u32, String> {
        let set = self.light_row(id)?[7];
        if set == 0 {
            return Err(format!("light {id} has no clear-weather parameter set"));
        }
        if self.users(set) <= 1 {
            return Ok(set);
        }
        let copy = self.copy_set(set);
        self.light_row(id)?[7] = copy;
        Ok(copy)
    }

    /// A new parameter set with set `from`'s LightParams row and band rows; its id is one
    /// above the largest whose rows are taken in any of the three tables.
    fn copy_set(&mut self, from: u32) -> u32 {
        let taken = |t: &DbcRows, per: u32| t.largest_id().div_ceil(per);
        let id = (self.params.largest_id())
            .max(taken(&self.int_bands, COLOUR_BANDS))
            .max(taken(&self.float_bands, FLOAT_BANDS))
            + 1;
        let mut params = self
            .params
            .get(from)
            .map_or_else(|| vec![0; PARAMS_FIELDS], <[u32]>::to_vec);
        params[0] = id;
        self.params.push(params);
        for (table, per) in [
            (&mut self.int_bands, COLOUR_BANDS),
            (&mut self.float_bands, FLOAT_BANDS),
        ] {
            for b in 0..per {
                // A band the source set lacks becomes an empty one (Num 0), so that the copy
                // has every row the client may ask for.
                let mut row = (table.get(first_row(from, per) + b))
                    .map_or_else(|| vec![0; BAND_FIELDS], <[u32]>::to_vec);
                row[0] = first_row(id, per) + b;
                table.push(row);
            }
        }
        id
    }

    /// Removes set `set`'s LightParams row and band rows.
    fn remove_set(&mut self, set: u32) {
        self.params.remove(set);
        for b in 0..COLOUR_BANDS {
            self.int_bands.remove(first_row(set, COLOUR_BANDS) + b);
        }
        for b in 0..FLOAT_BANDS {
            self.float_bands.remove(first_row(set, FLOAT_BANDS) + b);
        }
    }
}

/// How many LightParams ids a Light row of `generation` holds; an error for the clients
/// WoWDBDefs publishes no layout of.
pub fn sets_of(generation: &ClientGeneration) -> Result<usize, String> {
    match generation {
        ClientGeneration::V112 | ClientGeneration::V243 => Ok(5),
        ClientGeneration::V335 => Ok(8),
        other => Err(format!(
            "loam writes light tables for 1.12, 2.4.3 and 3.3.5 clients; WoWDBDefs publishes \
             no layout of them for {other}"
        )),
    }
}

/// Fields of a LightIntBand or LightFloatBand row: ID, Num, Time[16], Data[16].
pub const BAND_ROW_FIELDS: usize = BAND_FIELDS;
/// Fields of a LightParams row.
pub const PARAMS_ROW_FIELDS: usize = PARAMS_FIELDS;

/// The first band row of parameter set `set`, with `per` rows a set.
fn first_row(set: u32, per: u32) -> u32 {
    set.saturating_sub(1) * per + 1
}

/// A band row `id` holding `keys` (sorted by time; at most 16).
fn band_row(id: u32, keys: &[(u32, u32)]) -> Result<Vec<u32>, String> {
    if keys.len() > MAX_BAND_KEYS {
        return Err(format!(
            "a band holds at most {MAX_BAND_KEYS} keys, not {}",
            keys.len()
        ));
    }
    let mut keys = keys.to_vec();
    keys.sort_by_key(|k| k.0);
    if keys.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err("a band has two keys at the same time".into());
    }
    let mut row = vec![0; BAND_FIELDS];
    row[0] = id;
    row[1] = keys.len() as u32;
    for (k, (t, v)) in keys.iter().enumerate() {
        row[2 + k] = *t;
        row[2 + MAX_BAND_KEYS + k] = *v;
    }
    Ok(row)
}

/// The keys of band row `id` of `table`.
fn band_keys(table: &DbcRows, id: u32) -> Vec<(u32, u32)> {
    table.get(id).map_or_else(Vec::new, |r| {
        let n = (r[1] as usize).min(MAX_BAND_KEYS);
        (0..n)
            .map(|k| (r[2 + k], r[2 + MAX_BAND_KEYS + k]))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tables with the global light 1 (set 1) and a local light 2 sharing set 1.
    fn rows() -> LightTableRows {
        let mut light = DbcRows::empty(15);
        light.push(vec![1, 0, 0, 0, 0, 0, 0, 1]);
        light.push(vec![2, 0, 1f32.to_bits(), 0, 0, 0, 0, 1]);
        let mut params = DbcRows::empty(PARAMS_FIELDS);
        params.push(vec![1, 0, 7]);
        let mut int_bands = DbcRows::empty(BAND_FIELDS);
        for b in 1..=18 {
            int_bands.push(band_row(b, &[(0, b)]).unwrap());
        }
        let mut float_bands = DbcRows::empty(BAND_FIELDS);
        for b in 1..=6 {
            float_bands.push(band_row(b, &[(0, b)]).unwrap());
        }
        LightTableRows {
            sets: 8,
            light,
            params,
            int_bands,
            float_bands,
        }
    }

    #[test]
    fn a_new_light_gets_its_own_copies_of_the_sets_at_the_band_rows_the_rule_gives() {
        let mut t = rows();
        let place = LightPlace {
            coords: [1.0, 2.0, 3.0],
            inner: 36.0,
            outer: 72.0,
        };
        let id = t.add_light(0, place, 1).unwrap();
        assert_eq!(id, 3);
        let (map, got, sets) = t.light(id).unwrap();
        assert_eq!((map, got), (0, place));
        assert_eq!(sets, [2, 0, 0, 0, 0, 0, 0, 0]);
        // Set 2's rows: 19 … 36 and 7 … 12, copies of set 1's; its LightParams row keeps the
        // sky box (7).
        assert_eq!(t.colour_band(2, 2), [(0, 3)]);
        assert_eq!(t.float_band(2, 5), [(0, 6)]);
        assert_eq!(t.params.get(2).unwrap()[2], 7);
        // Editing the new light leaves the global light's set alone.
        t.set_colour_band(id, 2, &[(1440, 0xFF0000), (0, 0x00FF00)])
            .unwrap();
        assert_eq!(t.colour_band(2, 2), [(0, 0x00FF00), (1440, 0xFF0000)]);
        assert_eq!(t.colour_band(1, 2), [(0, 3)]);
    }

    #[test]
    fn a_shared_set_is_copied_before_an_edit_and_removal_keeps_sets_others_use() {
        let mut t = rows();
        t.set_colour_band(2, 7, &[(0, 0xABCDEF)]).unwrap();
        let (_, _, sets) = t.light(2).unwrap();
        assert_eq!(sets[0], 2, "light 2 now has its own set");
        assert_eq!(
            t.colour_band(1, 7),
            [(0, 8)],
            "the global light's fog is unchanged"
        );
        assert_eq!(t.colour_band(2, 7), [(0, 0xABCDEF)]);
        // Light 2's own set goes with it; the global light's stays.
        t.remove_light(2).unwrap();
        assert!(t.params.get(2).is_none() && t.int_bands.get(19).is_none());
        assert!(t.params.get(1).is_some() && t.int_bands.get(1).is_some());
        assert!(t.remove_light(2).is_err());
        assert!(t.set_colour_band(1, 0, &[(0, 0); 17]).is_err());
    }
}
