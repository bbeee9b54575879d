//! The light at a place and a time of day: which of the map's lights cover the camera and how
//! much, their colour and distance bands at that time, blended into one [`SceneLight`] the
//! renderer draws the sky, the fog and the lit terrain with. Without a client (or with tables
//! loam cannot read) the [default light](ZoneLights::default_day) gives a day sky.
//!
//! The rules and their sources:
//! - **Which rows.** A Light.dbc row lights the map whose Map.dbc id is its ContinentID; the
//!   one at GameCoords (0, 0, 0) is the map's global light. A map without one borrows the
//!   row with id 1 (Noggit Red, `src/noggit/Sky.cpp`, `Skies::Skies`).
//! - **Where.** GameCoords are stored in the placement records' axes (as MDDF stores a
//!   doodad: x the offset west of the map's corner, y the height, z the offset north), in
//!   inches, 36 to the yard, as are the falloff radii (`model::coords::light_to_world`). Noggit's
//!   `Sky::Sky` divides all five by `skymul = 36` and `Skies::findSkyWeights` compares the
//!   result unchanged with its camera, which lives in those axes; Blizzard's 3.3.5 table puts
//!   Stormwind's small lights at about (16518, 81, 25547) × 36, game (−8480, 549, 81), inside the
//!   city. Read as game axes instead, every local light of the Eastern Kingdoms falls outside
//!   the map (loam did so before 2026-11; docs/client-data.md).
//! - **How much.** Noggit3's `Skies::findSkyWeights` (`src/noggit/Sky.cpp`): local lights sorted
//!   smallest outer radius first, the global light last with weight 1; walking from the
//!   largest local light to the smallest, a light whose inner radius holds the camera gets 1
//!   and every light after it 0; one whose falloff ring holds it (r = (d − inner) / (outer −
//!   inner)) gets 1 − r and every light after it is scaled by r; otherwise 0. The weights sum
//!   to 1, and each band is the weighted sum of the lights' bands.
//! - **Which set.** A row's LightParamsID[0] is its clear-weather set and [1] the same under
//!   water (MaNGOS' Light.dbc page; WoWDBDefs numbers the columns); an underwater camera uses
//!   [1] where the row has one, else [0].
//! - **Which bands.** Set `p`'s colours are LightIntBand rows `(p − 1) · 18 + 1 … + 18` and its
//!   floats LightFloatBand rows `(p − 1) · 6 + 1 … + 6` (Noggit Red's `Sky::Sky`:
//!   `light_param_0 * NUM_SkyColorNames - 17`, as the wowdev wiki's LightIntBand page gives
//!   it; Noggit3's older `p * 18 + i` is 17 rows off and is not used). The colours, in order
//!   (Noggit Red's `SkyColorNames`, `src/noggit/Sky.h`): global diffuse, global ambient, sky
//!   top, sky middle, sky middle-to-horizon, sky above the horizon, horizon (smog), fog,
//!   shadow opacity, sun, sun halo, cloud edge, cloud, unknown, ocean shallow, ocean deep,
//!   river shallow, river deep. The floats: fog end (inches), fog start as a fraction of the
//!   fog end (Noggit Red's `fog_distance_end() = _fog_distance / 36`), then four loam does
//!   not use.
//! - **When.** A band's keys are half-minutes after midnight (0 – 2879); between two keys the
//!   value is linear, and after the last key it runs on to the first key of the next day
//!   (Noggit's `Sky::colorFor`). A band with no keys gives black, as in the client.
//!
//! The sun's direction is loam's own: the clients take it from a file loam does not read
//! (`dnc.db` in Noggit), so [`sun_direction`] runs the sun east to west over a day, highest at
//! noon, and leaves a low moon over the night.
//!
//! Not for: reading the tables (`assets::client::light_tables`) or drawing (`render`).

use crate::assets::client::{BandRow, LightTables};
use crate::model::coords::{LIGHT_UNITS_PER_YARD, light_to_world};

/// Half-minutes in a day: the tables' clock.
pub const DAY: u32 = 2880;

/// Colour bands a parameter set holds (LightIntBand rows per LightParams id).
pub const COLOUR_BANDS: usize = 18;
/// Float bands a parameter set holds (LightFloatBand rows per LightParams id).
pub const FLOAT_BANDS: usize = 6;

/// The colour bands' meanings, by index (see the module's doc).
pub mod band {
    /// The sun's (or moon's) light on lit surfaces.
    pub const DIFFUSE: usize = 0;
    /// The light every surface gets.
    pub const AMBIENT: usize = 1;
    /// The sky straight up.
    pub const SKY_TOP: usize = 2;
    /// The sky between the top and the horizon.
    pub const SKY_MIDDLE: usize = 3;
    /// The sky from the middle toward the horizon.
    pub const SKY_BAND1: usize = 4;
    /// The sky just above the horizon.
    pub const SKY_BAND2: usize = 5;
    /// The horizon itself.
    pub const SKY_SMOG: usize = 6;
    /// The fog, and the sky below the horizon.
    pub const FOG: usize = 7;
    /// Shallow ocean.
    pub const OCEAN_SHALLOW: usize = 14;
    /// Deep ocean.
    pub const OCEAN_DEEP: usize = 15;
    /// Shallow river and lake water.
    pub const RIVER_SHALLOW: usize = 16;
    /// Deep river and lake water.
    pub const RIVER_DEEP: usize = 17;
}

/// A time of day in the tables' half-minutes after midnight (0 – 2879).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct DayTime(u32);

impl DayTime {
    /// Noon.
    pub const NOON: DayTime = DayTime(DAY / 2);

    /// The time `half_minutes` after midnight, wrapped into one day.
    pub fn from_half_minutes(half_minutes: u32) -> DayTime {
        DayTime(half_minutes % DAY)
    }

    /// The time at `hours`:`minutes` (wrapped into one day).
    pub fn from_hm(hours: u32, minutes: u32) -> DayTime {
        DayTime::from_half_minutes((hours * 60 + minutes) * 2)
    }

    /// Parses "HH:MM" (00:00 – 23:59).
    pub fn parse(s: &str) -> Result<DayTime, String> {
        let bad = || format!("time '{s}' is not HH:MM (00:00 to 23:59)");
        let (h, m) = s.trim().split_once(':').ok_or_else(bad)?;
        let h: u32 = h.parse().map_err(|_| bad())?;
        let m: u32 = m.parse().map_err(|_| bad())?;
        if h > 23 || m > 59 {
            return Err(bad());
        }
        Ok(DayTime::from_hm(h, m))
    }

    /// Half-minutes after midnight.
    pub fn half_minutes(self) -> u32 {
        self.0
    }

    /// "HH:MM".
    pub fn label(self) -> String {
        format!("{:02}:{:02}", self.0 / 120, self.0 / 2 % 60)
    }
}

/// The view's clock (View ▸ Time of day, kept with the settings): the time shown, whether
/// it runs and how fast, and "Always noon".
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TimeOfDay {
    /// Minutes after midnight (0 – 1440, fractions while it runs).
    pub minutes: f32,
    /// The clock runs.
    pub playing: bool,
    /// How fast it runs: game minutes per real second.
    pub speed: f32,
    /// Draw noon whatever the clock says.
    pub always_noon: bool,
}

impl Default for TimeOfDay {
    fn default() -> Self {
        TimeOfDay {
            minutes: 720.0,
            playing: false,
            speed: 10.0,
            always_noon: false,
        }
    }
}

impl TimeOfDay {
    /// The clock set to `time`, stopped.
    pub fn at(time: DayTime) -> TimeOfDay {
        TimeOfDay {
            minutes: time.half_minutes() as f32 / 2.0,
            ..TimeOfDay::default()
        }
    }

    /// The time the view draws: noon when "Always noon" is on.
    pub fn time(&self) -> DayTime {
        if self.always_noon {
            return DayTime::NOON;
        }
        let half = (self.minutes.rem_euclid(1440.0) * 2.0).floor();
        DayTime::from_half_minutes(half as u32)
    }

    /// Runs the clock on by `seconds` of real time when it is playing; true when it moved.
    pub fn advance(&mut self, seconds: f32) -> bool {
        if !self.playing || self.always_noon || !seconds.is_finite() {
            return false;
        }
        self.minutes = (self.minutes + seconds * self.speed).rem_euclid(1440.0);
        true
    }

    /// Makes stored values usable (a hand-edited or old settings file may hold nonsense).
    pub fn sanitize(&mut self) {
        if !self.minutes.is_finite() {
            self.minutes = 720.0;
        }
        self.minutes = self.minutes.rem_euclid(1440.0);
        if !self.speed.is_finite() || self.speed <= 0.0 {
            self.speed = TimeOfDay::default().speed;
        }
    }
}

/// One band over the day: keys (time, value) in time order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Band<T> {
    keys: Vec<(u32, T)>,
}

/// What a band's value can be blended as.
pub trait Blend: Copy {
    /// `a` weighted `1 − t` plus `b` weighted `t`.
    fn lerp(a: Self, b: Self, t: f32) -> Self;
    /// The value of an empty band.
    fn none() -> Self;
}

impl Blend for f32 {
    fn lerp(a: f32, b: f32, t: f32) -> f32 {
        a * (1.0 - t) + b * t
    }
    fn none() -> f32 {
        0.0
    }
}

impl Blend for [f32; 3] {
    fn lerp(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
        std::array::from_fn(|k| a[k] * (1.0 - t) + b[k] * t)
    }
    fn none() -> [f32; 3] {
        [0.0; 3]
    }
}

impl<T: Blend> Band<T> {
    /// A band from keys (time in half-minutes, value); they are put in time order and times
    /// wrapped into one day.
    pub fn new(keys: impl IntoIterator<Item = (u32, T)>) -> Band<T> {
        let mut keys: Vec<(u32, T)> = keys.into_iter().map(|(t, v)| (t % DAY, v)).collect();
        keys.sort_by_key(|k| k.0);
        Band { keys }
    }

    /// The value at `time`: linear between the keys around it, across midnight after the
    /// last key; black (zero) for a band with no keys.
    pub fn at(&self, time: DayTime) -> T {
        let t = time.half_minutes();
        let (Some(first), Some(last)) = (self.keys.first(), self.keys.last()) else {
            return T::none();
        };
        let (a, b, t) = match self.keys.iter().rposition(|k| k.0 <= t) {
            None => (last, first, t + DAY),
            Some(i) => match self.keys.get(i + 1) {
                Some(next) => (&self.keys[i], next, t),
                None => (last, first, t),
            },
        };
        let (ta, mut tb) = (a.0, b.0);
        if tb <= ta {
            tb += DAY;
        }
        let f = if tb == ta {
            0.0
        } else {
            (t - ta) as f32 / (tb - ta) as f32
        };
        T::lerp(a.1, b.1, f.clamp(0.0, 1.0))
    }
}

/// One LightParams set: its colour and float bands.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParamSet {
    /// The 18 colour bands (see [`band`]).
    pub colours: Vec<Band<[f32; 3]>>,
    /// The 6 float bands: fog end (inches), fog start fraction, then four unused.
    pub floats: Vec<Band<f32>>,
    /// The sky box model its LightParams row names (LightSkybox.dbc), where the client has
    /// the table and the row.
    pub skybox: Option<String>,
}

impl ParamSet {
    /// Set `id`'s bands from the tables (see the module's doc for the rows); a missing row is
    /// an empty band.
    fn from_tables(tables: &LightTables, id: u32) -> ParamSet {
        let colour = |row: &BandRow<u32>| {
            Band::new(row.times.iter().zip(&row.values).map(|(t, c)| {
                let rgb = [(c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF];
                (*t, rgb.map(|v| v as f32 / 255.0))
            }))
        };
        let first = |per: usize| (id.saturating_sub(1) as usize * per + 1) as u32;
        ParamSet {
            colours: (0..COLOUR_BANDS as u32)
                .map(|i| {
                    (tables.int_bands.get(&(first(COLOUR_BANDS) + i)))
                        .map_or_else(Band::default, colour)
                })
                .collect(),
            floats: (0..FLOAT_BANDS as u32)
                .map(|i| {
                    tables
                        .float_bands
                        .get(&(first(FLOAT_BANDS) + i))
                        .map_or_else(Band::default, |r| {
                            Band::new(r.times.iter().copied().zip(r.values.iter().copied()))
                        })
                })
                .collect(),
            skybox: (tables.param_skyboxes.get(&id))
                .and_then(|s| tables.skyboxes.get(s))
                .cloned(),
        }
    }

    fn colour(&self, band: usize, time: DayTime) -> [f32; 3] {
        self.colours.get(band).map_or([0.0; 3], |b| b.at(time))
    }

    fn float(&self, band: usize, time: DayTime) -> f32 {
        self.floats.get(band).map_or(0.0, |b| b.at(time))
    }
}

/// One light of the map, in loam's world.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoneLight {
    /// Its Light.dbc row id (0 for loam's default light).
    pub id: u32,
    /// Where it stands (world yards).
    pub centre: [f64; 3],
    /// Inside this distance (yards) it is whole.
    pub inner: f64,
    /// Beyond this distance (yards) it gives nothing.
    pub outer: f64,
    /// The map's global light (everywhere, under the local ones).
    pub global: bool,
    /// Its clear-weather set.
    pub clear: ParamSet,
    /// Its underwater set, where it has one.
    pub underwater: Option<ParamSet>,
}

/// The light the renderer draws one frame with: sky, fog, surface light and water colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SceneLight {
    /// The sky from the top down: top, middle, band 1, band 2, horizon (smog).
    pub sky: [[f32; 3]; 5],
    /// The fog, and the sky below the horizon.
    pub fog: [f32; 3],
    /// Where the fog starts and where it is whole (yards from the eye).
    pub fog_range: [f32; 2],
    /// The light every surface gets.
    pub ambient: [f32; 3],
    /// The sun's light on surfaces facing it.
    pub diffuse: [f32; 3],
    /// The direction the sunlight travels (from the sun toward the ground), unit length.
    pub sun: [f32; 3],
    /// Ocean colours, shallow and deep.
    pub ocean: [[f32; 3]; 2],
    /// River and lake colours, shallow and deep.
    pub river: [[f32; 3]; 2],
}

/// The map's lights, smallest first and the global one last.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoneLights {
    lights: Vec<ZoneLight>,
}

/// Where the default light's fog starts and is whole (yards): the haze loam drew before it
/// read the client's lights.
const DEFAULT_FOG: [f32; 2] = [1200.0, 3800.0];

impl ZoneLights {
    /// The lights of map `map` (its Map.dbc id) in the tables; `None` when neither the map
    /// nor the table has a global light to draw with.
    pub fn from_tables(tables: &LightTables, map: u32) -> Option<ZoneLights> {
        let is_global = |c: &[f32; 3]| c.iter().all(|v| *v == 0.0);
        let mut rows: Vec<_> = tables.lights.iter().filter(|l| l.map == map).collect();
        if !rows.iter().any(|l| is_global(&l.coords)) {
            rows.extend(tables.lights.iter().filter(|l| l.id == 1));
        }
        let set = |id: Option<&u32>| {
            id.filter(|p| **p != 0 && tables.params.contains_key(p))
                .map(|p| ParamSet::from_tables(tables, *p))
        };
        let mut lights: Vec<ZoneLight> = rows
            .into_iter()
            .filter_map(|l| {
                let yards = |v: f32| f64::from(v) / LIGHT_UNITS_PER_YARD;
                Some(ZoneLight {
                    id: l.id,
                    centre: light_to_world(l.coords),
                    inner: yards(l.falloff_start),
                    outer: yards(l.falloff_end),
                    global: is_global(&l.coords) || l.map != map,
                    clear: set(l.params.first())?,
                    underwater: set(l.params.get(1)),
                })
            })
            .collect();
        // One global light: the map's own when it has several.
        let first_global = lights.iter().position(|l| l.global)?;
        let global = lights.remove(first_global);
        lights.retain(|l| !l.global);
        lights.sort_by(|a, b| a.outer.total_cmp(&b.outer));
        lights.push(global);
        Some(ZoneLights { lights })
    }

    /// loam's default light, for maps opened without a client or with tables it cannot read:
    /// a clear day sky from 08:00 to 16:00 (today's blue and haze), dawn at 06:00, dusk at
    /// 18:00 and a dark blue night from 20:00 to 04:00, never black.
    pub fn default_day() -> ZoneLights {
        // Key times (half-minutes) and per key: sky top, middle, band 1, band 2, horizon,
        // fog, ambient, diffuse.
        const NIGHT: [[f32; 3]; 8] = [
            [0.02, 0.04, 0.12],
            [0.04, 0.07, 0.18],
            [0.06, 0.10, 0.22],
            [0.08, 0.12, 0.25],
            [0.10, 0.13, 0.26],
            [0.07, 0.09, 0.18],
            [0.22, 0.24, 0.34],
            [0.16, 0.18, 0.30],
        ];
        const DAWN: [[f32; 3]; 8] = [
            [0.25, 0.35, 0.60],
            [0.45, 0.50, 0.70],
            [0.75, 0.60, 0.55],
            [0.95, 0.65, 0.40],
            [1.00, 0.72, 0.42],
            [0.80, 0.66, 0.56],
            [0.36, 0.34, 0.36],
            [0.70, 0.56, 0.40],
        ];
        const DAY_SKY: [[f32; 3]; 8] = [
            [0.25, 0.45, 0.78],
            [0.36, 0.55, 0.82],
            [0.45, 0.62, 0.82],
            [0.50, 0.65, 0.80],
            [0.58, 0.70, 0.82],
            [0.52, 0.66, 0.80],
            [0.40, 0.40, 0.40],
            [0.60, 0.60, 0.60],
        ];
        const DUSK: [[f32; 3]; 8] = [
            [0.18, 0.22, 0.48],
            [0.42, 0.38, 0.60],
            [0.80, 0.50, 0.45],
            [0.95, 0.55, 0.35],
            [1.00, 0.60, 0.35],
            [0.75, 0.55, 0.50],
            [0.33, 0.30, 0.36],
            [0.70, 0.50, 0.35],
        ];
        let keys: [(u32, &[[f32; 3]; 8]); 6] = [
            (480, &NIGHT),
            (720, &DAWN),
            (960, &DAY_SKY),
            (1920, &DAY_SKY),
            (2160, &DUSK),
            (2400, &NIGHT),
        ];
        let slots = [
            band::SKY_TOP,
            band::SKY_MIDDLE,
            band::SKY_BAND1,
            band::SKY_BAND2,
            band::SKY_SMOG,
            band::FOG,
            band::AMBIENT,
            band::DIFFUSE,
        ];
        let mut colours = vec![Band::default(); COLOUR_BANDS];
        for (k, slot) in slots.iter().enumerate() {
            colours[*slot] = Band::new(keys.iter().map(|(t, c)| (*t, c[k])));
        }
        let water = |c: [f32; 3]| Band::new([(0, c)]);
        colours[band::OCEAN_SHALLOW] = water([0.20, 0.52, 0.66]);
        colours[band::OCEAN_DEEP] = water([0.02, 0.12, 0.30]);
        colours[band::RIVER_SHALLOW] = water([0.30, 0.62, 0.72]);
        colours[band::RIVER_DEEP] = water([0.05, 0.20, 0.38]);
        let yards = f64::from(DEFAULT_FOG[1]) * LIGHT_UNITS_PER_YARD;
        let mut floats = vec![Band::default(); FLOAT_BANDS];
        floats[0] = Band::new([(0, yards as f32)]);
        floats[1] = Band::new([(0, DEFAULT_FOG[0] / DEFAULT_FOG[1])]);
        let set = ParamSet {
            colours,
            floats,
            skybox: None,
        };
        ZoneLights {
            lights: vec![ZoneLight {
                id: 0,
                centre: [0.0; 3],
                inner: 0.0,
                outer: 0.0,
                global: true,
                clear: set,
                underwater: None,
            }],
        }
    }

    /// The lights, smallest first, the global one last.
    pub fn lights(&self) -> &[ZoneLight] {
        &self.lights
    }

    /// Each light's weight at world `at` (yards), in [`lights`](Self::lights)' order (see the
    /// module's doc for the rule); they sum to 1.
    pub fn weights(&self, at: [f64; 3]) -> Vec<f32> {
        let n = self.lights.len();
        let mut w = vec![0.0f32; n];
        let Some(last) = n.checked_sub(1) else {
            return w;
        };
        w[last] = 1.0;
        for i in (0..last).rev() {
            let l = &self.lights[i];
            let d = (0..3)
                .map(|k| (at[k] - l.centre[k]).powi(2))
                .sum::<f64>()
                .sqrt();
            if d < l.inner {
                w[i] = 1.0;
                w[i + 1..].iter_mut().for_each(|x| *x = 0.0);
            } else if d < l.outer {
                let r = ((d - l.inner) / (l.outer - l.inner)) as f32;
                w[i] = 1.0 - r;
                w[i + 1..].iter_mut().for_each(|x| *x *= r);
            }
        }
        w
    }

    /// The sky box to draw around an eye at world `at`: the model of the light with the
    /// largest weight there among those whose parameter set names one, with that weight
    /// (`underwater`: the underwater sets'). Noggit Red draws each weighted light's sky box
    /// at the eye (`Skies::draw`); loam draws the strongest one whole.
    pub fn skybox_at(&self, at: [f64; 3], underwater: bool) -> Option<(&str, f32)> {
        self.lights
            .iter()
            .zip(self.weights(at))
            .filter(|(_, w)| *w > 0.0)
            .filter_map(|(l, w)| {
                let set = match (&l.underwater, underwater) {
                    (Some(u), true) => u,
                    _ => &l.clear,
                };
                Some((set.skybox.as_deref()?, w))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The light at world `at` (yards) at `time`; `underwater` when the eye is below a
    /// liquid surface.
    pub fn at(&self, at: [f64; 3], time: DayTime, underwater: bool) -> SceneLight {
        let weights = self.weights(at);
        let sets: Vec<(&ParamSet, f32)> = self
            .lights
            .iter()
            .zip(weights)
            .filter(|(_, w)| *w > 0.0)
            .map(|(l, w)| {
                let set = match (&l.underwater, underwater) {
                    (Some(u), true) => u,
                    _ => &l.clear,
                };
                (set, w)
            })
            .collect();
        let colour = |band: usize| {
            sets.iter().fold([0.0f32; 3], |acc, (s, w)| {
                let c = s.colour(band, time);
                std::array::from_fn(|k| acc[k] + c[k] * w)
            })
        };
        let float = |band: usize| sets.iter().map(|(s, w)| s.float(band, time) * w).sum();
        let fog_end = float(0) / LIGHT_UNITS_PER_YARD as f32;
        let fog_range = if fog_end > 1.0 {
            [fog_end * f32::clamp(float(1), 0.0, 0.95), fog_end]
        } else {
            DEFAULT_FOG
        };
        SceneLight {
            sky: [
                band::SKY_TOP,
                band::SKY_MIDDLE,
                band::SKY_BAND1,
                band::SKY_BAND2,
                band::SKY_SMOG,
            ]
            .map(colour),
            fog: colour(band::FOG),
            fog_range,
            ambient: colour(band::AMBIENT),
            diffuse: colour(band::DIFFUSE),
            sun: sun_direction(time),
            ocean: [colour(band::OCEAN_SHALLOW), colour(band::OCEAN_DEEP)],
            river: [colour(band::RIVER_SHALLOW), colour(band::RIVER_DEEP)],
        }
    }
}

/// The direction sunlight travels at `time` (unit length, pointing down): from the east at
/// dawn, from high in the south at noon, from the west at dusk; at night a moon low in the
/// north-west (loam's own path, see the module's doc).
pub fn sun_direction(time: DayTime) -> [f32; 3] {
    // 0 at noon, ±π at midnight.
    let hour_angle = (time.half_minutes() as f32 / DAY as f32 - 0.5) * std::f32::consts::TAU;
    let height = hour_angle.cos().max(0.3);
    // World +y is west: the sun stands east (−y) in the morning.
    let across = hour_angle.sin();
    let towards_sun = [-0.35, 0.9 * across, height];
    let length = towards_sun.iter().map(|v| v * v).sum::<f32>().sqrt();
    towards_sun.map(|v| -v / length)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn colour_set(sky_top: [f32; 3]) -> ParamSet {
        let mut colours = vec![Band::default(); COLOUR_BANDS];
        colours[band::SKY_TOP] = Band::new([(0, sky_top)]);
        ParamSet {
            colours,
            floats: vec![Band::default(); FLOAT_BANDS],
            skybox: None,
        }
    }

    #[test]
    fn the_sky_box_is_the_one_of_the_heaviest_light_that_names_one() {
        let mut boxed = light(0.0, 10.0, 50.0, [1.0, 0.0, 0.0]);
        boxed.clear.skybox = Some("Environments\\Stars\\A.mdx".into());
        let mut bigger = light(0.0, 100.0, 400.0, [0.0, 1.0, 0.0]);
        bigger.clear.skybox = Some("Environments\\Stars\\B.mdx".into());
        let mut global = light(0.0, 0.0, 0.0, [0.0, 0.0, 1.0]);
        global.global = true;
        let zone = ZoneLights {
            lights: vec![boxed, bigger, global],
        };
        // Inside the small light's inner sphere it alone weighs.
        let (name, w) = zone.skybox_at([5.0, 0.0, 0.0], false).unwrap();
        assert_eq!((name, w), ("Environments\\Stars\\A.mdx", 1.0));
        // In its falloff, 40 yd out, it weighs 0.25 and the bigger light 0.75.
        let (name, w) = zone.skybox_at([40.0, 0.0, 0.0], false).unwrap();
        assert_eq!(name, "Environments\\Stars\\B.mdx");
        assert!((w - 0.75).abs() < 1e-6, "{w}");
        // Beyond both, the global light names none.
        assert!(zone.skybox_at([1000.0, 0.0, 0.0], false).is_none());
    }

    fn light(x: f64, inner: f64, outer: f64, sky_top: [f32; 3]) -> ZoneLight {
        ZoneLight {
            id: 0,
            centre: [x, 0.0, 0.0],
            inner,
            outer,
            global: false,
            clear: colour_set(sky_top),
            underwater: None,
        }
    }

    #[test]
    fn a_band_runs_linearly_between_keys_and_across_midnight() {
        let b = Band::new([(600, 0.0f32), (1200, 60.0), (2400, 0.0)]);
        assert_eq!(b.at(DayTime::from_half_minutes(600)), 0.0);
        assert_eq!(b.at(DayTime::from_half_minutes(900)), 30.0);
        assert_eq!(b.at(DayTime::from_half_minutes(1800)), 30.0);
        // 2400 → 600 of the next day: 1080 half-minutes, all at 0.
        assert_eq!(b.at(DayTime::from_half_minutes(0)), 0.0);
        let wrap = Band::new([(720, 10.0f32), (2160, 20.0)]);
        // From 2160 (20) to 720 + 2880 (10): midnight is 720 of 1440 along.
        assert_eq!(wrap.at(DayTime::from_half_minutes(0)), 15.0);
        assert_eq!(wrap.at(DayTime::from_half_minutes(2880 - 360)), 17.5);
        assert_eq!(Band::<f32>::default().at(DayTime::NOON), 0.0);
    }

    #[test]
    fn a_camera_between_two_local_lights_gets_the_documented_mix() {
        // Light A (smaller, centre x = 0, inner 10, outer 30) and B (centre x = 50, inner 10,
        // outer 40), the global light last.
        let lights = ZoneLights {
            lights: vec![
                light(0.0, 10.0, 30.0, [1.0, 0.0, 0.0]),
                light(50.0, 10.0, 40.0, [0.0, 1.0, 0.0]),
                ZoneLight {
                    global: true,
                    ..light(0.0, 0.0, 0.0, [0.0, 0.0, 1.0])
                },
            ],
        };
        // At x = 25: 25 from A (ring, r = 15/20 = 0.75) and 25 from B (ring, r = 15/30 = 0.5).
        // B first: B = 0.5, global = 0.5; then A = 0.25, B and global × 0.75.
        let w = lights.weights([25.0, 0.0, 0.0]);
        let expected = [0.25, 0.375, 0.375];
        for (got, want) in w.iter().zip(expected) {
            assert!((got - want).abs() < 1e-6, "{w:?}");
        }
        let sky = lights.at([25.0, 0.0, 0.0], DayTime::NOON, false).sky[0];
        assert!(
            (sky[0] - 0.25).abs() < 1e-6 && (sky[1] - 0.375).abs() < 1e-6,
            "{sky:?}"
        );
        // Inside A's inner radius only A counts.
        assert_eq!(lights.weights([5.0, 0.0, 0.0]), [1.0, 0.0, 0.0]);
        // Far from both: the global light.
        assert_eq!(lights.weights([500.0, 0.0, 0.0]), [0.0, 0.0, 1.0]);
    }

    #[test]
    fn the_default_light_is_a_day_sky_at_noon_and_never_black() {
        let d = ZoneLights::default_day();
        let noon = d.at([0.0; 3], DayTime::NOON, false);
        assert_eq!(noon.sky[0], [0.25, 0.45, 0.78]);
        assert_eq!(noon.fog_range, DEFAULT_FOG);
        for t in (0..DAY).step_by(60) {
            let l = d.at([0.0; 3], DayTime::from_half_minutes(t), false);
            assert!(l.sky[0].iter().sum::<f32>() > 0.1, "black sky at {t}");
            assert!(l.ambient.iter().sum::<f32>() > 0.3, "no ambient at {t}");
        }
        let midnight = d.at([0.0; 3], DayTime::from_hm(0, 0), false);
        assert_ne!(midnight.sky[0], noon.sky[0]);
    }

    #[test]
    fn the_clock_runs_wraps_at_midnight_and_always_noon_holds_noon() {
        let mut clock = TimeOfDay {
            minutes: 1430.0,
            playing: true,
            speed: 10.0,
            always_noon: false,
        };
        assert!(clock.advance(2.0));
        assert_eq!(clock.time(), DayTime::from_hm(0, 10));
        clock.always_noon = true;
        assert_eq!(clock.time(), DayTime::NOON);
        assert!(!clock.advance(1.0), "noon does not run");
        let old: TimeOfDay = serde_json::from_str("{}").unwrap();
        assert_eq!(old, TimeOfDay::default());
    }

    #[test]
    fn times_parse_and_print() {
        assert_eq!(DayTime::parse("06:30").map(DayTime::half_minutes), Ok(780));
        assert_eq!(
            DayTime::parse("23:59").map(DayTime::label).as_deref(),
            Ok("23:59")
        );
        assert!(DayTime::parse("24:00").is_err());
        assert!(DayTime::parse("noon").is_err());
    }

    #[test]
    fn the_sun_is_high_at_noon_and_points_down_all_day() {
        let noon = sun_direction(DayTime::NOON);
        let dawn = sun_direction(DayTime::from_hm(6, 0));
        assert!(noon[2] < dawn[2], "higher sun, steeper light");
        for t in (0..DAY).step_by(120) {
            assert!(sun_direction(DayTime::from_half_minutes(t))[2] < -0.2);
        }
    }
}
