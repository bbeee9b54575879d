//! The client's light tables (`DBFilesClient\Light.dbc`, `LightParams.dbc`,
//! `LightIntBand.dbc`, `LightFloatBand.dbc`): where each light of a map stands and the colours
//! and distances it gives over the day, read row by row for `doc::light` to choose and blend.
//!
//! Layouts, from WoWDBDefs (`definitions/Light.dbd`, `LightParams.dbd`, `LightIntBand.dbd`,
//! `LightFloatBand.dbd`), every field four bytes:
//! - Light, `BUILD 1.9.0.4937-1.12.3.6141` and `2.0.0.5610-2.4.3.8606`: ID, ContinentID,
//!   GameCoords[3], GameFalloffStart, GameFalloffEnd, LightParamsID[5]: 12 fields (MaNGOS'
//!   Light.dbc page lists the same twelve for 1.12).
//!   `BUILD 3.0.1.8622-3.3.5.12340`: the same with LightParamsID[8]: 15 fields.
//! - LightParams, 1.9 – 3.3.5: ID, HighlightSky, LightSkyboxID, Glow, WaterShallowAlpha,
//!   WaterDeepAlpha, OceanShallowAlpha, OceanDeepAlpha, Flags: 9 fields.
//! - LightIntBand and LightFloatBand, 1.9 – 3.3.5: ID, Num, Time[16], Data[16]: 34 fields
//!   (colours `0x00RRGGBB` in the int table, floats in the float table).
//!
//! WoWDBDefs publishes no layout of these tables for 0.5.3, 0.5.5 or 0.6.0 (the earliest build
//! listed is 1.9.0), so those clients give no tables here and the editor draws its default
//! light; a table of any other shape does the same rather than being guessed at (the rule of
//! `area_names`).
//!
//! Not for: which light covers a place, or the colours at a time (`doc::light`).

use std::collections::BTreeMap;

use super::dbc::RawTable;
use super::{ClientData, ClientGeneration};

/// Where the client keeps the lights' positions.
pub const LIGHT_DBC: &str = "DBFilesClient\\Light.dbc";
/// Where the client keeps each light parameter set's sky box and water alphas.
pub const LIGHT_PARAMS_DBC: &str = "DBFilesClient\\LightParams.dbc";
/// Where the client keeps the colour bands.
pub const LIGHT_INT_BAND_DBC: &str = "DBFilesClient\\LightIntBand.dbc";
/// Where the client keeps the distance and scale bands.
pub const LIGHT_FLOAT_BAND_DBC: &str = "DBFilesClient\\LightFloatBand.dbc";
/// Where the client keeps the sky box models a parameter set may name.
pub const LIGHT_SKYBOX_DBC: &str = "DBFilesClient\\LightSkybox.dbc";

/// Most keys a band holds (Time[16], Data[16]).
const BAND_KEYS: usize = 16;

/// One row of Light.dbc.
#[derive(Debug, Clone, PartialEq)]
pub struct LightRow {
    /// The row id.
    pub id: u32,
    /// The Map.dbc id of the map it lights.
    pub map: u32,
    /// GameCoords as stored: in the placement records' axes (x west offset, y height, z north
    /// offset from the map's corner) in inches, 36 a yard (`model::coords::light_to_world`);
    /// all zero for the map's global light.
    pub coords: [f32; 3],
    /// Inside this distance (inches) the light is whole.
    pub falloff_start: f32,
    /// Beyond this distance (inches) the light gives nothing.
    pub falloff_end: f32,
    /// The LightParams ids: clear weather, clear underwater, storm, storm underwater, death
    /// (and three more in 3.3.5); 0 where none.
    pub params: Vec<u32>,
}

/// One row of LightIntBand.dbc or LightFloatBand.dbc: up to 16 keys over the day.
#[derive(Debug, Clone, PartialEq)]
pub struct BandRow<T> {
    /// Each key's time in half-minutes after midnight (0 – 2879), ascending.
    pub times: Vec<u32>,
    /// Each key's value (a colour `0x00RRGGBB`, or a float).
    pub values: Vec<T>,
}

/// The four tables as read, keyed by row id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LightTables {
    /// Light.dbc's rows.
    pub lights: Vec<LightRow>,
    /// LightParams ids the client's table holds (a Light row naming another id is skipped).
    pub params: BTreeMap<u32, [f32; 4]>,
    /// Each LightParams id's LightSkyboxID, where it names one (field 2, WoWDBDefs'
    /// `LightParams.dbd`).
    pub param_skyboxes: BTreeMap<u32, u32>,
    /// LightSkybox.dbc's model paths by id, where the client has the table: 1.9 – 1.12 ID,
    /// Name; 2.0.0.6080 – 3.3.5 ID, Name, Flags (WoWDBDefs' `LightSkybox.dbd`).
    pub skyboxes: BTreeMap<u32, String>,
    /// LightIntBand.dbc's rows.
    pub int_bands: BTreeMap<u32, BandRow<u32>>,
    /// LightFloatBand.dbc's rows.
    pub float_bands: BTreeMap<u32, BandRow<f32>>,
}

impl LightTables {
    /// The tables in the four files' bytes, read with `generation`'s layout (the 3.3.5, then
    /// the 1.12 one when the generation is unknown); `None` when one of them fits no layout
    /// loam knows.
    pub fn read(
        light: &[u8],
        params: &[u8],
        int_band: &[u8],
        float_band: &[u8],
        generation: &ClientGeneration,
    ) -> Option<LightTables> {
        let lights = match generation {
            ClientGeneration::Alpha | ClientGeneration::V060 => None,
            ClientGeneration::V112 | ClientGeneration::V243 => light_rows(light, 5),
            ClientGeneration::V335 => light_rows(light, 8),
            ClientGeneration::Unknown(_) => light_rows(light, 8).or_else(|| light_rows(light, 5)),
        }?;
        Some(LightTables {
            lights,
            params: params_rows(params)?,
            param_skyboxes: params_skyboxes(params)?,
            skyboxes: BTreeMap::new(),
            int_bands: band_rows(int_band, |w| w)?,
            float_bands: band_rows(float_band, f32::from_bits)?,
        })
    }
}

/// Light.dbc with `sets` LightParams ids a row.
fn light_rows(bytes: &[u8], sets: usize) -> Option<Vec<LightRow>> {
    let t = RawTable::read(bytes, 7 + sets)?;
    let float = |r, f| f32::from_bits(t.word(r, f));
    Some(
        (0..t.records())
            .map(|r| LightRow {
                id: t.word(r, 0),
                map: t.word(r, 1),
                coords: [float(r, 2), float(r, 3), float(r, 4)],
                falloff_start: float(r, 5),
                falloff_end: float(r, 6),
                params: (0..sets).map(|k| t.word(r, 7 + k)).collect(),
            })
            .collect(),
    )
}

impl LightTables {
    /// These tables with LightSkybox.dbc's model names (`bytes`, in its 3- or 2-field
    /// layout); a table of neither layout leaves them without, so no sky box is drawn.
    pub fn with_skyboxes(mut self, bytes: Option<&[u8]>) -> LightTables {
        let table = bytes.and_then(|b| RawTable::read(b, 3).or_else(|| RawTable::read(b, 2)));
        if let Some(t) = table {
            self.skyboxes = (0..t.records())
                .filter_map(|r| Some((t.word(r, 0), t.string(r, 1)?)))
                .filter(|(_, name)| !name.is_empty())
                .collect();
        }
        self
    }
}

/// LightParams.dbc: each id's LightSkyboxID, where not 0.
fn params_skyboxes(bytes: &[u8]) -> Option<BTreeMap<u32, u32>> {
    let t = RawTable::read(bytes, 9)?;
    Some(
        (0..t.records())
            .filter(|r| t.word(*r, 2) != 0)
            .map(|r| (t.word(r, 0), t.word(r, 2)))
            .collect(),
    )
}

/// LightParams.dbc: each id's water alphas (shallow and deep river, shallow and deep ocean).
fn params_rows(bytes: &[u8]) -> Option<BTreeMap<u32, [f32; 4]>> {
    let t = RawTable::read(bytes, 9)?;
    Some(
        (0..t.records())
            .map(|r| {
                let alphas = std::array::from_fn(|k| f32::from_bits(t.word(r, 4 + k)));
                (t.word(r, 0), alphas)
            })
            .collect(),
    )
}

/// LightIntBand.dbc or LightFloatBand.dbc, each Data word turned into a value by `value`; a
/// row's Num beyond 16 is taken as 16.
fn band_rows<T>(bytes: &[u8], value: impl Fn(u32) -> T) -> Option<BTreeMap<u32, BandRow<T>>> {
    let t = RawTable::read(bytes, 2 + 2 * BAND_KEYS)?;
    Some(
        (0..t.records())
            .map(|r| {
                let n = (t.word(r, 1) as usize).min(BAND_KEYS);
                let row = BandRow {
                    times: (0..n).map(|k| t.word(r, 2 + k)).collect(),
                    values: (0..n)
                        .map(|k| value(t.word(r, 2 + BAND_KEYS + k)))
                        .collect(),
                };
                (t.word(r, 0), row)
            })
            .collect(),
    )
}

impl ClientData {
    /// The client's light tables: `Ok(None)` when it holds no Light.dbc (nothing to say),
    /// `Err` naming the table when one cannot be read or fits no published layout (the
    /// status bar says so and the default light is drawn).
    pub fn light_tables(&self) -> Result<Option<LightTables>, String> {
        let read = |name: &str| match self.read(name) {
            Ok(Some(b)) => Ok(b),
            Ok(None) => Err(format!("{name} is missing")),
            Err(e) => Err(format!("{name} could not be read: {e}")),
        };
        let light = match self.read(LIGHT_DBC) {
            Ok(None) => return Ok(None),
            Ok(Some(b)) => b,
            Err(e) => return Err(format!("{LIGHT_DBC} could not be read: {e}")),
        };
        let (params, int, float) = (
            read(LIGHT_PARAMS_DBC)?,
            read(LIGHT_INT_BAND_DBC)?,
            read(LIGHT_FLOAT_BAND_DBC)?,
        );
        let skyboxes = self.read(LIGHT_SKYBOX_DBC).ok().flatten();
        LightTables::read(&light, &params, &int, &float, self.generation())
            .map(|t| Some(t.with_skyboxes(skyboxes.as_deref())))
            .ok_or_else(|| {
                format!(
                    "the light tables fit no published {} layout",
                    self.generation()
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::client::dbc::test_table;

    fn words(rows: &[Vec<u32>]) -> Vec<Vec<Result<u32, usize>>> {
        rows.iter()
            .map(|r| r.iter().map(|w| Ok(*w)).collect())
            .collect()
    }

    fn band(id: u32, keys: &[(u32, u32)]) -> Vec<u32> {
        let mut row = vec![0u32; 34];
        row[0] = id;
        row[1] = keys.len() as u32;
        for (k, (t, v)) in keys.iter().enumerate() {
            row[2 + k] = *t;
            row[18 + k] = *v;
        }
        row
    }

    #[test]
    fn a_wrath_and_a_vanilla_light_table_read_with_their_own_layouts() {
        let light = |sets: usize| {
            let mut row = vec![7, 1, 3600f32.to_bits(), 0, 0, 360f32.to_bits()];
            row.push(720f32.to_bits());
            row.extend((0..sets as u32).map(|k| 10 + k));
            test_table(7 + sets, &words(&[row]), &[])
        };
        let params = test_table(9, &words(&[vec![10, 0, 0, 0, 0, 0, 0, 0, 0]]), &[]);
        let int = test_table(
            34,
            &words(&[band(1, &[(0, 0xFF0000), (1440, 0x0000FF)])]),
            &[],
        );
        let float = test_table(34, &words(&[band(1, &[(0, 1000f32.to_bits())])]), &[]);
        let wrath = LightTables::read(&light(8), &params, &int, &float, &ClientGeneration::V335)
            .expect("3.3.5 layout");
        assert_eq!(wrath.lights[0].params, (10..18).collect::<Vec<u32>>());
        assert_eq!(wrath.lights[0].coords, [3600.0, 0.0, 0.0]);
        assert_eq!(wrath.lights[0].falloff_end, 720.0);
        assert_eq!(wrath.int_bands[&1].values, [0xFF0000, 0x0000FF]);
        assert_eq!(wrath.float_bands[&1].values, [1000.0]);
        let vanilla = LightTables::read(&light(5), &params, &int, &float, &ClientGeneration::V112)
            .expect("1.12 layout");
        assert_eq!(vanilla.lights[0].params.len(), 5);
        // Each generation's layout only: the shapes are not interchangeable.
        assert!(
            LightTables::read(&light(8), &params, &int, &float, &ClientGeneration::V112).is_none()
        );
        // No layout is published for the alpha and 0.6.0 clients.
        assert!(
            LightTables::read(&light(5), &params, &int, &float, &ClientGeneration::V060).is_none()
        );
    }
}
