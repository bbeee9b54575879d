//! The scatter and object-erase brushes: the `scatter` and `erase_objects` operations of an
//! `OPS.json` (`loam apply`) and the strokes the editor's scatter tool drags, each one undo step.
//!
//! A stroke is a run of dabs, each a circle; the brush area is their union. Each dab places
//! the density's share of the ground it newly covers (what earlier dabs of the stroke did not),
//! so a script's points and an editor drag place alike. New objects stand with their placement
//! point on the triangle the client draws ([`lattice::surface_at`]) and take uids as placing
//! does ([`objects::next_unique_id_in`], inside the map's range).
//!
//! Not for: the maths of darts, spacing, limits and tilt (`scatter`), single objects
//! (`object_ops`).

use std::collections::{BTreeSet, HashSet};

use serde::Deserialize;

use super::scatter::{self, Circle, Limits, Rng, SpacingGrid};
use crate::edit::history::History;
use crate::edit::lattice;
use crate::edit::objects::{self, ModelBox, NewUids, ObjectRecord, ObjectStroke};
use crate::edit::outcome::OpResult;
use crate::edit::stroke::TerrainEdit;
use crate::edit::terrain::brush::validate_circles;
use crate::model::coords::{self, CHUNK_SIZE};
use crate::model::placement::doodad_scale_fits;
use crate::model::{Map, ObjectKind, TileCoord};

/// The `tool` names that select a scatter or object-erase operation.
pub const NAMES: [&str; 2] = ["scatter", "erase_objects"];

/// The tool of a scatter operation (only `scatter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScatterToolName {
    /// Scatter the palette's models under the brush.
    Scatter,
}

/// The tool of an object-erase operation (only `erase_objects`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EraseToolName {
    /// Remove the objects under the brush.
    EraseObjects,
}

/// One model of a palette: its path, how often it is chosen and its own scale range.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct PaletteModel {
    /// The model path (`.m2` or `.mdx`).
    pub model: String,
    /// How often it is chosen, relative to the others (default 1).
    #[serde(default = "one")]
    pub weight: f64,
    /// Its own scale range, overriding the brush's (default: the brush's).
    #[serde(default)]
    pub scale: Option<[f64; 2]>,
}

fn one() -> f64 {
    1.0
}

/// The `scatter` operation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScatterOp {
    /// Always `scatter`.
    pub tool: ScatterToolName,
    /// World (x, y) centres of the brush's circles.
    pub points: Vec<[f64; 2]>,
    /// The circles' radius, yards.
    pub radius: f64,
    /// The models placed, each with its weight and scale range.
    pub models: Vec<PaletteModel>,
    /// Objects per 1,000 square yards of brush area.
    pub density: f64,
    /// Least distance between placed objects and to objects of the same models already
    /// there, yards (default 0).
    pub spacing: Option<f64>,
    /// Scale range (default [1, 1]); a model's own range overrides it.
    pub scale: Option<[f64; 2]>,
    /// Turn range about the up axis, degrees (default [0, 360]).
    pub yaw: Option<[f64; 2]>,
    /// 0 upright, 1 follow the ground's slope (default 0).
    pub tilt: Option<f64>,
    /// Steepest ground that takes an object, degrees.
    pub max_slope: Option<f64>,
    /// Lowest and highest ground that takes an object, yards.
    pub heights: Option<[f64; 2]>,
    /// Place only where this texture's weight is at least `texture_min`.
    pub texture: Option<String>,
    /// The least weight of `texture`, 0..1 (default 0.5).
    pub texture_min: Option<f64>,
    /// The random stream's seed: the same seed places the same objects (default 0).
    pub seed: Option<u64>,
}

/// The `erase_objects` operation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EraseObjectsOp {
    /// Always `erase_objects`.
    pub tool: EraseToolName,
    /// World (x, y) centres of the brush's circles.
    pub points: Vec<[f64; 2]>,
    /// The circles' radius, yards.
    pub radius: f64,
    /// Only objects of these models (default: every doodad).
    pub models: Option<Vec<String>>,
    /// WMOs too (default false).
    pub wmos: Option<bool>,
}

/// A scatter or object-erase operation.
#[derive(Debug, Clone)]
pub enum ObjectBrushOp {
    /// `scatter`.
    Scatter(ScatterOp),
    /// `erase_objects`.
    Erase(EraseObjectsOp),
}

impl<'de> Deserialize<'de> for ObjectBrushOp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = serde_json::Value::deserialize(d)?;
        match value.get("tool").and_then(|t| t.as_str()) {
            Some("erase_objects") => serde_json::from_value(value)
                .map(ObjectBrushOp::Erase)
                .map_err(D::Error::custom),
            _ => serde_json::from_value(value)
                .map(ObjectBrushOp::Scatter)
                .map_err(D::Error::custom),
        }
    }
}

/// Checks a range: two finite numbers, the first not above the second.
fn validate_range(field: &str, [lo, hi]: [f64; 2]) -> Result<(), String> {
    if !(lo.is_finite() && hi.is_finite()) || lo > hi {
        return Err(format!(
            "scatter: `{field}` must be [MIN, MAX] with MIN ≤ MAX, not [{lo}, {hi}]"
        ));
    }
    Ok(())
}

/// Checks a scale range: a range whose ends an MDDF scale holds.
fn validate_scale(field: &str, range: [f64; 2]) -> Result<(), String> {
    validate_range(field, range)?;
    if !(doodad_scale_fits(range[0]) && doodad_scale_fits(range[1])) {
        return Err(format!(
            "scatter: `{field}` [{}, {}] is outside 1/1024 to 63.99",
            range[0], range[1]
        ));
    }
    Ok(())
}

/// The tiles within a chunk's margin of the circles (objects' boxes reach a little past
/// their placement points).
fn circles_reach(points: &[[f64; 2]], radius: f64) -> Vec<TileCoord> {
    if points.is_empty() || !radius.is_finite() {
        return Vec::new();
    }
    let r = radius.max(0.0) + CHUNK_SIZE;
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        for axis in 0..2 {
            lo[axis] = lo[axis].min(p[axis]);
            hi[axis] = hi[axis].max(p[axis]);
        }
    }
    coords::tiles_overlapping(([lo[0] - r, lo[1] - r, 0.0], [hi[0] + r, hi[1] + r, 0.0]))
}

impl ObjectBrushOp {
    /// The tiles the operation reads or changes.
    pub fn reach(&self) -> Vec<TileCoord> {
        match self {
            ObjectBrushOp::Scatter(op) => circles_reach(&op.points, op.radius),
            ObjectBrushOp::Erase(op) => circles_reach(&op.points, op.radius),
        }
    }

    /// Rejects malformed operations with the field at fault.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            ObjectBrushOp::Scatter(op) => op.settings().map(|_| ()),
            ObjectBrushOp::Erase(op) => {
                validate_circles("erase_objects", &op.points, op.radius)?;
                if op.models.as_ref().is_some_and(|m| m.is_empty()) {
                    return Err(
                        "erase_objects: `models` is empty (leave it out to erase every doodad)"
                            .into(),
                    );
                }
                Ok(())
            }
        }
    }
}

/// What a scatter brush lays down, whichever drives it (a script or the editor's tool).
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterSettings {
    /// The palette: models, weights and their own scale ranges.
    pub models: Vec<PaletteModel>,
    /// Brush radius, yards.
    pub radius: f64,
    /// Objects per 1,000 square yards.
    pub density: f64,
    /// Least distance between objects of the palette's models, yards.
    pub spacing: f64,
    /// Scale range of models without their own.
    pub scale: [f64; 2],
    /// Turn range, degrees.
    pub yaw: [f64; 2],
    /// 0 upright, 1 the ground's normal.
    pub tilt: f64,
    /// Where the ground takes objects.
    pub limits: Limits,
    /// The texture the limit reads (with `limits.texture_min`).
    pub texture: Option<String>,
}

impl ScatterOp {
    /// The brush settings this operation names, or what is wrong with it.
    pub fn settings(&self) -> Result<ScatterSettings, String> {
        validate_circles("scatter", &self.points, self.radius)?;
        if self.models.is_empty() {
            return Err("scatter: `models` needs at least one model".into());
        }
        for m in &self.models {
            if objects_kind(&m.model) == ObjectKind::Wmo {
                return Err(format!(
                    "scatter: {} is a WMO; the scatter brush places doodads",
                    m.model
                ));
            }
            if !(m.weight >= 0.0 && m.weight.is_finite()) {
                return Err(format!(
                    "scatter: the `weight` of {} must be 0 or more, not {}",
                    m.model, m.weight
                ));
            }
            if let Some(s) = m.scale {
                validate_scale("models[].scale", s)?;
            }
        }
        if self.models.iter().all(|m| m.weight == 0.0) {
            return Err("scatter: every model's `weight` is 0".into());
        }
        if !(self.density >= 0.0 && self.density.is_finite()) {
            return Err(format!(
                "scatter: `density` must be 0 or more objects per 1,000 square yards, not {}",
                self.density
            ));
        }
        let spacing = self.spacing.unwrap_or(0.0);
        if !(spacing >= 0.0 && spacing.is_finite()) {
            return Err(format!(
                "scatter: `spacing` must be 0 or more yards, not {spacing}"
            ));
        }
        let scale = self.scale.unwrap_or([1.0, 1.0]);
        validate_scale("scale", scale)?;
        let yaw = self.yaw.unwrap_or([0.0, 360.0]);
        validate_range("yaw", yaw)?;
        let tilt = self.tilt.unwrap_or(0.0);
        if !(0.0..=1.0).contains(&tilt) {
            return Err(format!("scatter: `tilt` must lie in 0..1, not {tilt}"));
        }
        if let Some(s) = self.max_slope
            && !(0.0..=90.0).contains(&s)
        {
            return Err(format!(
                "scatter: `max_slope` is in degrees, 0 to 90, not {s}"
            ));
        }
        if let Some(h) = self.heights {
            validate_range("heights", h)?;
        }
        if self.texture_min.is_some() && self.texture.is_none() {
            return Err("scatter: `texture_min` needs `texture`".into());
        }
        let texture_min = self
            .texture
            .as_ref()
            .map(|_| self.texture_min.unwrap_or(0.5));
        if let Some(t) = texture_min
            && !(0.0..=1.0).contains(&t)
        {
            return Err(format!("scatter: `texture_min` must lie in 0..1, not {t}"));
        }
        Ok(ScatterSettings {
            models: self.models.clone(),
            radius: self.radius,
            density: self.density,
            spacing,
            scale,
            yaw,
            tilt,
            limits: Limits {
                max_slope: self.max_slope,
                heights: self.heights,
                texture_min,
            },
            texture: self.texture.clone(),
        })
    }
}

fn objects_kind(path: &str) -> ObjectKind {
    super::object_ops::kind_of_model(path)
}

/// The weight (0..1) texture `texture` has at world (x, y): its layer's alpha, or for the base
/// layer what the others leave (the 3.3.5 client's blend); 0 where no loaded chunk is.
pub fn texture_weight(map: &Map, texture: &str, x: f64, y: f64) -> f64 {
    let Some((tile, cx, cy, [south, east])) = coords::world_to_chunk_grid(x, y) else {
        return 0.0;
    };
    let Some(t) = map.tiles.get(&tile) else {
        return 0.0;
    };
    let chunk = &t.chunks[cy * coords::CHUNKS_PER_SIDE + cx];
    let side = crate::model::alpha::ALPHA_SIDE;
    // Quad units 0..8 across a chunk; 8 alpha texels per quad.
    let texel = |q: f32| ((q * 8.0) as usize).min(side - 1);
    let (row, col) = (texel(south), texel(east));
    let weight = crate::edit::terrain::paint::texel_weight(t, chunk, texture, row * side + col);
    f64::from(weight) / 255.0
}

/// A scatter stroke under way: the dabs so far, the objects placed, one undo step at the end.
pub struct ScatterStroke {
    settings: ScatterSettings,
    /// Each model's lower-case path, to know objects of the palette already there.
    palette: Vec<String>,
    weights: Vec<f64>,
    rng: Rng,
    circles: Vec<Circle>,
    grid: SpacingGrid,
    /// Objects already there that are in the grid.
    seen: HashSet<u32>,
    /// The objects the density asks of the dabs so far (fractional) and as whole numbers.
    owed: f64,
    asked: usize,
    placed: usize,
    short: usize,
    limited: usize,
    last_uid: Option<u32>,
    uid_error: Option<String>,
    skipped: BTreeSet<TileCoord>,
    objects: ObjectStroke,
}

/// What a scatter stroke did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScatterSummary {
    /// Objects placed.
    pub placed: usize,
    /// Objects the density asked for (over the ground the limits allow and off it).
    pub asked: usize,
    /// Objects the spacing left no room for.
    pub short: usize,
    /// Objects not placed because their place was off the loaded ground or a limit said no.
    pub limited: usize,
}

impl ScatterStroke {
    /// A stroke with these settings; `seed` starts its random stream.
    pub fn new(settings: ScatterSettings, seed: u64) -> ScatterStroke {
        let palette = settings
            .models
            .iter()
            .map(|m| m.model.to_ascii_lowercase())
            .collect();
        let weights = settings.models.iter().map(|m| m.weight).collect();
        let grid = SpacingGrid::new(settings.spacing);
        ScatterStroke {
            settings,
            palette,
            weights,
            rng: Rng::new(seed),
            circles: Vec::new(),
            grid,
            seen: HashSet::new(),
            owed: 0.0,
            asked: 0,
            placed: 0,
            short: 0,
            limited: 0,
            last_uid: None,
            uid_error: None,
            skipped: BTreeSet::new(),
            objects: ObjectStroke::default(),
        }
    }

    /// What the stroke has done so far.
    pub fn summary(&self) -> ScatterSummary {
        ScatterSummary {
            placed: self.placed,
            asked: self.asked,
            short: self.short,
            limited: self.limited,
        }
    }

    /// Puts the palette's objects already standing near `circle` into the spacing grid.
    fn note_existing(&mut self, map: &Map, circle: &Circle) {
        if self.settings.spacing <= 0.0 {
            return;
        }
        let reach = circle.radius + self.settings.spacing;
        let [x, y] = circle.centre;
        for coord in
            coords::tiles_overlapping(([x - reach, y - reach, 0.0], [x + reach, y + reach, 0.0]))
        {
            let Some(t) = map.tiles.get(&coord) else {
                continue;
            };
            let ours: Vec<bool> = t
                .doodad_names
                .iter()
                .map(|n| self.palette.contains(&n.to_ascii_lowercase()))
                .collect();
            for d in &t.doodads {
                if !ours.get(d.name_index as usize).copied().unwrap_or(false)
                    || self.seen.contains(&d.unique_id)
                {
                    continue;
                }
                let p = [d.position[0], d.position[1]];
                if (p[0] - x).hypot(p[1] - y) <= reach {
                    self.seen.insert(d.unique_id);
                    self.grid.insert(p);
                }
            }
        }
    }

    /// The uid of the next new object, as placing chooses it; `None` once none is left.
    fn next_uid(&mut self, map: &Map, uids: &NewUids) -> Option<u32> {
        if self.uid_error.is_some() {
            return None;
        }
        let next = match self.last_uid {
            None => uids.next(map),
            Some(last) => match uids.range {
                Some(r) if last >= r.last => Err(format!(
                    "the uniqueId range {}-{} is used up: choose another in Settings",
                    r.first, r.last
                )),
                _ => last
                    .checked_add(1)
                    .ok_or_else(|| "every uniqueId is used".to_string()),
            },
        };
        match next {
            Ok(u) => {
                self.last_uid = Some(u);
                Some(u)
            }
            Err(e) => {
                self.uid_error = Some(e);
                None
            }
        }
    }

    /// One dab at world `centre`: places the density's share of the ground the dab newly
    /// covers. Returns the objects it placed.
    pub fn dab(
        &mut self,
        map: &mut Map,
        centre: [f64; 2],
        model_box: &dyn Fn(&str) -> Option<ModelBox>,
        uids: &NewUids,
    ) -> usize {
        let circle = Circle {
            centre,
            radius: self.settings.radius,
        };
        let earlier: Vec<Circle> = self
            .circles
            .iter()
            .filter(|c| {
                (c.centre[0] - centre[0]).hypot(c.centre[1] - centre[1]) < c.radius + circle.radius
            })
            .copied()
            .collect();
        let area = scatter::uncovered_area(&circle, &earlier);
        self.circles.push(circle);
        self.owed += self.settings.density * area / 1000.0;
        let target = (self.owed.round() as usize).saturating_sub(self.asked);
        self.asked += target;
        if target == 0 {
            return 0;
        }
        self.note_existing(map, &circle);
        let boxes: Vec<Option<ModelBox>> = self
            .settings
            .models
            .iter()
            .map(|m| model_box(&m.model))
            .collect();
        let (mut done, mut placed) = (0usize, 0usize);
        // Darts thrown at spacing before giving up (the spacing leaves no room), and darts
        // landing on ground earlier dabs covered (thrown again, not counted).
        let (mut tries, max_tries) = (0usize, 30 * target + 100);
        let (mut covered, max_covered) = (0usize, 1000 * target + 1000);
        while done < target && tries < max_tries && covered < max_covered {
            let p = circle.sample(&mut self.rng);
            if earlier.iter().any(|c| c.contains(p)) {
                covered += 1;
                continue;
            }
            // Where the files will say it stands (their records keep f32 offsets from the
            // map's corner), so that the spacing and the ground hold for the written numbers.
            let w = coords::placement_to_world(coords::world_to_placement([p[0], p[1], 0.0]));
            let p = [w[0], w[1]];
            let Some((z, normal)) = lattice::surface_at(map, p[0], p[1]) else {
                done += 1;
                self.limited += 1;
                continue;
            };
            let texture = self.settings.texture.as_deref().unwrap_or_default();
            if !self.settings.limits.allow(f64::from(z), normal, || {
                texture_weight(map, texture, p[0], p[1])
            }) {
                done += 1;
                self.limited += 1;
                continue;
            }
            if !self.grid.fits(p) {
                tries += 1;
                continue;
            }
            let Some(uid) = self.next_uid(map, uids) else {
                break;
            };
            let k = scatter::weighted_pick(&self.weights, &mut self.rng);
            let model = &self.settings.models[k];
            let scale =
                scatter::scale_record(model.scale.unwrap_or(self.settings.scale), &mut self.rng);
            let yaw = self.rng.between(self.settings.yaw);
            let record = ObjectRecord {
                kind: ObjectKind::Doodad,
                model: model.model.clone(),
                unique_id: uid,
                position: [p[0], p[1], f64::from(z)],
                rotation: scatter::rotation(yaw, normal, self.settings.tilt),
                scale,
                flags: 0,
                doodad_set: 0,
                name_set: 0,
            };
            let put = objects::put_new(map, &mut self.objects, &record, boxes[k]);
            self.skipped.extend(put.skipped);
            self.grid.insert(p);
            done += 1;
            placed += 1;
        }
        self.short += target - done;
        self.placed += placed;
        placed
    }

    /// Takes every object back out (a cancelled stroke), recording nothing.
    pub fn cancel(self, map: &mut Map) {
        self.objects.revert(map);
    }

    /// The stroke's undo step (`None` when it placed nothing) and what it did.
    pub fn finish(self, map: &Map) -> (Option<TerrainEdit>, ScatterSummary, String) {
        let summary = self.summary();
        let mut label = format!("Scatter {} objects", summary.placed);
        if summary.short > 0 {
            label.push_str(&format!(
                "; {} fewer than the density asks: the spacing leaves no room for them",
                summary.short
            ));
        }
        if summary.limited > 0 {
            label.push_str(&format!(
                "; {} of the places drawn were off the loaded ground or where a limit says no",
                summary.limited
            ));
        }
        if let Some(e) = &self.uid_error {
            label.push_str(&format!("; stopped: {e}"));
        }
        if !self.skipped.is_empty() {
            label.push_str(&format!(
                "; not in {} tile(s) their boxes overlap that the map lacks",
                self.skipped.len()
            ));
        }
        let edit = self.objects.finish(map, &label);
        (edit, summary, label)
    }
}

/// Which objects an erase brush takes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EraseFilter {
    /// Only these models (lower-case paths); `None`: every one.
    pub models: Option<Vec<String>>,
    /// WMOs too.
    pub wmos: bool,
}

impl EraseFilter {
    /// A filter for `models` (any case), WMOs when `wmos`.
    pub fn new(models: Option<&[String]>, wmos: bool) -> EraseFilter {
        EraseFilter {
            models: models.map(|m| m.iter().map(|s| s.to_ascii_lowercase()).collect()),
            wmos,
        }
    }

    fn takes(&self, kind: ObjectKind, model: Option<&String>) -> bool {
        if kind == ObjectKind::Wmo && !self.wmos {
            return false;
        }
        match (&self.models, model) {
            (None, _) => true,
            (Some(list), Some(m)) => list.contains(&m.to_ascii_lowercase()),
            (Some(_), None) => false,
        }
    }
}

/// Removes the objects whose placement point lies inside `circle` and that `filter` takes
/// (each once, from every loaded tile listing it). Returns how many.
pub fn erase_dab(
    map: &mut Map,
    stroke: &mut ObjectStroke,
    circle: &Circle,
    filter: &EraseFilter,
) -> usize {
    let [x, y] = circle.centre;
    let r = circle.radius;
    let mut doomed: BTreeSet<(ObjectKind, u32)> = BTreeSet::new();
    for coord in coords::tiles_overlapping(([x - r, y - r, 0.0], [x + r, y + r, 0.0])) {
        let Some(t) = map.tiles.get(&coord) else {
            continue;
        };
        for d in &t.doodads {
            if circle.contains([d.position[0], d.position[1]])
                && filter.takes(
                    ObjectKind::Doodad,
                    t.doodad_names.get(d.name_index as usize),
                )
            {
                doomed.insert((ObjectKind::Doodad, d.unique_id));
            }
        }
        for w in &t.wmos {
            if circle.contains([w.position[0], w.position[1]])
                && filter.takes(ObjectKind::Wmo, t.wmo_names.get(w.name_index as usize))
            {
                doomed.insert((ObjectKind::Wmo, w.unique_id));
            }
        }
    }
    for (kind, uid) in &doomed {
        objects::remove(map, stroke, *kind, *uid);
    }
    doomed.len()
}

/// Applies a `scatter` or `erase_objects` operation as one undo step in `history`. `model_box`
/// gives each model's own box (`None`: a stand-in), `uids` where new uids come from.
pub fn apply(
    map: &mut Map,
    op: &ObjectBrushOp,
    history: &mut History,
    model_box: &dyn Fn(&str) -> Option<ModelBox>,
    uids: &NewUids,
) -> Result<OpResult, String> {
    op.validate()?;
    let (edit, label) = match op {
        ObjectBrushOp::Scatter(op) => {
            let mut stroke = ScatterStroke::new(op.settings()?, op.seed.unwrap_or(0));
            for p in &op.points {
                stroke.dab(map, *p, model_box, uids);
            }
            let (edit, _, label) = stroke.finish(map);
            (edit, label)
        }
        ObjectBrushOp::Erase(op) => {
            let filter = EraseFilter::new(op.models.as_deref(), op.wmos.unwrap_or(false));
            let mut stroke = ObjectStroke::default();
            let mut erased = 0;
            for p in &op.points {
                let circle = Circle {
                    centre: *p,
                    radius: op.radius,
                };
                erased += erase_dab(map, &mut stroke, &circle, &filter);
            }
            let label = format!("Erase {erased} objects");
            (stroke.finish(map, &label), label)
        }
    };
    Ok(super::object_ops::push_object_edit(
        map, history, edit, label,
    ))
}

/// The editor's scatter brush: what the Scatter tool's panel sets besides the palette and
/// the radius (the brush's), made into the same operation a script runs.
#[derive(Debug, Clone, PartialEq, serde::Serialize, Deserialize)]
#[serde(default)]
pub struct ScatterBrush {
    /// Objects per 1,000 square yards.
    pub density: f64,
    /// Least distance between objects of the palette's models, yards.
    pub spacing: f64,
    /// Scale range of models without their own.
    pub scale: [f64; 2],
    /// Turn range, degrees.
    pub yaw: [f64; 2],
    /// 0 upright, 1 the ground's normal.
    pub tilt: f64,
    /// Steepest ground that takes an object, degrees (`None`: any).
    pub max_slope: Option<f64>,
    /// Strokes erase instead of scattering.
    pub erase: bool,
    /// Erasing takes only the palette's models.
    pub erase_palette_only: bool,
    /// Erasing takes WMOs too.
    pub erase_wmos: bool,
    /// The first stroke's seed; each later stroke takes the next.
    pub seed: u64,
}

impl Default for ScatterBrush {
    fn default() -> Self {
        ScatterBrush {
            density: 5.0,
            spacing: 3.0,
            scale: [0.8, 1.2],
            yaw: [0.0, 360.0],
            tilt: 0.0,
            max_slope: None,
            erase: false,
            erase_palette_only: true,
            erase_wmos: false,
            seed: 1,
        }
    }
}

impl ScatterBrush {
    /// The operation one stroke through `points` (dab centres, world x, y) of `radius` yards
    /// performs with `palette`, seeded `seed`.
    pub fn op(
        &self,
        palette: &[PaletteModel],
        points: Vec<[f64; 2]>,
        radius: f64,
        seed: u64,
    ) -> ObjectBrushOp {
        if self.erase {
            return ObjectBrushOp::Erase(EraseObjectsOp {
                tool: EraseToolName::EraseObjects,
                points,
                radius,
                models: self
                    .erase_palette_only
                    .then(|| palette.iter().map(|m| m.model.clone()).collect()),
                wmos: Some(self.erase_wmos),
            });
        }
        ObjectBrushOp::Scatter(ScatterOp {
            tool: ScatterToolName::Scatter,
            points,
            radius,
            models: palette.to_vec(),
            density: self.density,
            spacing: Some(self.spacing),
            scale: Some(self.scale),
            yaw: Some(self.yaw),
            tilt: Some(self.tilt),
            max_slope: self.max_slope,
            heights: None,
            texture: None,
            texture_min: None,
            seed: Some(seed),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Tile;

    fn flat_map() -> (Map, [f64; 2]) {
        let c = TileCoord::new(31, 31).unwrap();
        let mut map = Map::new("T");
        map.tiles.insert(c, Tile::flat(c, "A.blp", 5.0));
        let [nx, ny] = c.north_west();
        (map, [nx - 266.0, ny - 266.0])
    }

    fn op(json: &str) -> ObjectBrushOp {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn bad_fields_are_refused_by_name() {
        let base = r#""tool": "scatter", "points": [[0, 0]], "radius": 10, "models": [{"model": "a.m2"}], "density": 5"#;
        for (extra, says) in [
            (r#", "spacing": -1"#, "`spacing`"),
            (r#", "tilt": 2"#, "`tilt`"),
            (r#", "scale": [2, 1]"#, "`scale`"),
            (r#", "texture_min": 0.5"#, "`texture_min` needs `texture`"),
            (r#", "max_slope": 120"#, "`max_slope`"),
            (r#", "heights": [5, 1]"#, "`heights`"),
        ] {
            let e = op(&format!("{{{base}{extra}}}")).validate().unwrap_err();
            assert!(e.contains(says), "{extra}: {e}");
        }
        let e = op(r#"{"tool": "scatter", "points": [], "radius": 10, "models": [{"model": "a.m2"}], "density": 5}"#)
            .validate()
            .unwrap_err();
        assert!(e.contains("`points`"), "{e}");
        let e = op(r#"{"tool": "scatter", "points": [[0, 0]], "radius": 10, "models": [{"model": "a.wmo"}], "density": 5}"#)
            .validate()
            .unwrap_err();
        assert!(e.contains("WMO"), "{e}");
        assert!(
            serde_json::from_str::<ObjectBrushOp>(&format!("{{{base}, \"colour\": 1}}")).is_err()
        );
        assert!(op(&format!("{{{base}}}")).validate().is_ok());
    }

    #[test]
    fn a_dab_places_the_density_on_the_ground_and_one_undo_takes_it_back() {
        let (mut map, centre) = flat_map();
        let before = map.clone();
        let json = format!(
            r#"{{"tool": "scatter", "points": [[{}, {}]], "radius": 40, "models": [{{"model": "a.m2"}}, {{"model": "b.m2", "weight": 3}}], "density": 20, "spacing": 2, "seed": 9}}"#,
            centre[0], centre[1]
        );
        let mut history = History::default();
        let r = apply(
            &mut map,
            &op(&json),
            &mut history,
            &|_| None,
            &NewUids::default(),
        )
        .unwrap();
        let tile = map.tiles.values().next().unwrap();
        let want = (20.0 * std::f64::consts::PI * 1600.0 / 1000.0).round() as usize;
        assert_eq!(tile.doodads.len(), want, "{}", r.label);
        assert!(
            tile.doodads
                .iter()
                .all(|d| (d.position[2] - 5.0).abs() < 1e-6)
        );
        history.undo(&mut map);
        assert_eq!(map, before);
    }

    #[test]
    fn the_spacing_cannot_fit_everything_and_says_so() {
        let (mut map, centre) = flat_map();
        let settings = ScatterOp {
            tool: ScatterToolName::Scatter,
            points: vec![centre],
            radius: 10.0,
            models: vec![PaletteModel {
                model: "a.m2".into(),
                weight: 1.0,
                scale: None,
            }],
            density: 500.0,
            spacing: Some(5.0),
            scale: None,
            yaw: None,
            tilt: None,
            max_slope: None,
            heights: None,
            texture: None,
            texture_min: None,
            seed: None,
        }
        .settings()
        .unwrap();
        let mut stroke = ScatterStroke::new(settings, 1);
        stroke.dab(&mut map, centre, &|_| None, &NewUids::default());
        let (_, summary, label) = stroke.finish(&map);
        assert!(summary.short > 0 && summary.placed > 0, "{summary:?}");
        assert_eq!(
            summary.placed + summary.short + summary.limited,
            summary.asked
        );
        assert!(label.contains("no room"), "{label}");
    }

    #[test]
    fn erase_takes_only_the_chosen_models_inside_the_circle() {
        let (mut map, centre) = flat_map();
        let mut stroke = ObjectStroke::default();
        for (uid, model, dx) in [(1, "a.m2", 0.0), (2, "b.m2", 1.0), (3, "a.m2", 30.0)] {
            let r = ObjectRecord {
                kind: ObjectKind::Doodad,
                model: model.into(),
                unique_id: uid,
                position: [centre[0] + dx, centre[1], 5.0],
                rotation: [0.0; 3],
                scale: 1024,
                flags: 0,
                doodad_set: 0,
                name_set: 0,
            };
            objects::put(&mut map, &mut stroke, &r, None);
        }
        let circle = Circle {
            centre,
            radius: 10.0,
        };
        let filter = EraseFilter::new(Some(&["A.M2".to_string()]), false);
        let mut erase = ObjectStroke::default();
        assert_eq!(erase_dab(&mut map, &mut erase, &circle, &filter), 1);
        let left: Vec<u32> = map
            .tiles
            .values()
            .next()
            .unwrap()
            .doodads
            .iter()
            .map(|d| d.unique_id)
            .collect();
        assert_eq!(left, [2, 3]);
    }
}
