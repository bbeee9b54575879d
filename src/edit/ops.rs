//! Operations as data: the whole `OPS.json` format of `loam apply` (the file, each operation's
//! fields and their checks) and the dispatch of every operation to the code that runs it. The
//! brush operations (sculpt, paint, holes, shade, area, flags, liquids) run here through the
//! same dab functions the editor's tools call; the others in their rooms: objects and scatter
//! (`edit::objects`), textures (`edit::terrain::texture_ops`), images (`edit::images`), roads
//! (`edit::shapes::road_ops`), paste (`edit::copy::paste`), erosion (`edit::terrain::erosion`),
//! texture rules (`edit::terrain::rules`). Each operation is one stroke and one
//! undo step; the operations of one list are told apart by their `tool`.
//!
//! Not for: reading the tiles an operation reaches before it runs (`doc::runner`).

use serde::{Deserialize, Deserializer};

use super::history::History;
pub use super::outcome::OpResult;
use super::stroke::Stroke;
use crate::edit::images::image_ops::{self, ImageOp, ImageReader, ImageTool};
use crate::edit::lattice;
use crate::edit::objects::ModelBox;
use crate::edit::objects::object_ops::{self, ObjectOp, ObjectTool};
use crate::edit::terrain::brush::{Brush, Falloff, Shape};
use crate::edit::terrain::cells::{self, CellEdit};
use crate::edit::terrain::liquid::{self, LiquidEdit, LiquidKind, LiquidStyle, Surface};
use crate::edit::terrain::paint::{self, PaintMode};
use crate::edit::terrain::plane::Plane;
use crate::edit::terrain::sculpt::{self, FlattenMode, Sculpt};
use crate::edit::terrain::shade;
use crate::model::objects::UidTiles;
use crate::model::{Map, TileCoord};

/// An `OPS.json` document.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpsFile {
    /// Operations, applied in order.
    pub ops: Vec<Operation>,
    /// The folder the file was read from, when it was: image paths in it are relative to it.
    #[serde(skip)]
    pub folder: Option<std::path::PathBuf>,
}

/// One entry of `ops`: a brush stroke or an object operation, told apart by `tool`.
#[derive(Debug, Clone)]
pub enum Operation {
    /// A brush stroke.
    Brush(Op),
    /// Placing, moving, turning, scaling or deleting an object.
    Object(ObjectOp),
    /// Importing heights, an alpha map or vertex colours from an image.
    Image(ImageOp),
    /// Swapping one texture for another, alpha kept.
    Texture(crate::edit::terrain::texture_ops::TextureOp),
    /// Copying a rectangle of terrain and pasting it at points.
    Paste(crate::edit::copy::paste::PasteOp),
    /// A road along a curve: its bed, shoulders and texture.
    Road(crate::edit::shapes::road_ops::RoadOp),
    /// Scattering a palette's models under a brush, or erasing the objects under it.
    ObjectBrush(crate::edit::objects::scatter_ops::ObjectBrushOp),
    /// Thermal or hydraulic erosion under a brush.
    Erode(crate::edit::terrain::erosion::ErodeOp),
    /// Texturing under a brush by rules of slope, height and noise.
    Rules(crate::edit::terrain::rules_ops::RulesOp),
    /// Laying a biome (erosion, texture rules, a palette's objects) under a brush.
    Biome(crate::edit::biome::BiomeOp),
}

impl Operation {
    /// The brush stroke, if this is one.
    pub fn brush(&self) -> Option<&Op> {
        match self {
            Operation::Brush(op) => Some(op),
            Operation::Object(_)
            | Operation::Image(_)
            | Operation::Texture(_)
            | Operation::Paste(_)
            | Operation::Road(_)
            | Operation::ObjectBrush(_)
            | Operation::Erode(_)
            | Operation::Rules(_)
            | Operation::Biome(_) => None,
        }
    }

    /// The tiles this operation reads or changes, as far as `map` (perhaps partly in memory)
    /// shows: a stroke's [`Op::reach`]; for an object, the tiles listing its uid on disk
    /// (`on_disk`) and, once it is in memory, those its box overlaps where the operation
    /// leaves it ([`object_ops::box_reach`]). Load them and ask again until nothing new is
    /// needed: the operation then does what it does on the whole map.
    pub fn reach(
        &self,
        map: &Map,
        on_disk: Option<&UidTiles>,
        model_box: &dyn Fn(&str) -> Option<ModelBox>,
    ) -> Vec<TileCoord> {
        match self {
            Operation::Brush(op) => op.reach(),
            Operation::Image(op) => op.reach(),
            Operation::Texture(op) => op.reach(),
            Operation::Paste(op) => op.reach(map, model_box),
            Operation::Road(op) => op.reach(),
            Operation::ObjectBrush(op) => op.reach(),
            Operation::Erode(op) => op.reach(),
            Operation::Rules(op) => op.reach(),
            Operation::Biome(op) => op.reach(),
            Operation::Object(op) => {
                let listed = op.uid.and_then(|u| on_disk?.get(&u));
                let mut tiles = listed.cloned().unwrap_or_default();
                tiles.extend(object_ops::box_reach(map, op, model_box));
                tiles
            }
        }
    }

    /// Rejects missing and misplaced fields.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            Operation::Brush(op) => op.validate(),
            Operation::Object(op) => op.validate(),
            Operation::Image(op) => op.validate(),
            Operation::Texture(op) => op.validate(),
            Operation::Paste(op) => op.validate(),
            Operation::Road(op) => op.validate(),
            Operation::ObjectBrush(op) => op.validate(),
            Operation::Erode(op) => op.validate(),
            Operation::Rules(op) => op.validate(),
            Operation::Biome(op) => op.validate(),
        }
    }
}

impl<'de> Deserialize<'de> for Operation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = serde_json::Value::deserialize(d)?;
        let tool = value.get("tool").and_then(|t| t.as_str());
        if tool.is_some_and(|t| crate::edit::terrain::erosion::NAMES.contains(&t)) {
            return serde_json::from_value(value)
                .map(Operation::Erode)
                .map_err(D::Error::custom);
        }
        if tool.is_some_and(|t| crate::edit::biome::op::NAMES.contains(&t)) {
            return serde_json::from_value(value)
                .map(Operation::Biome)
                .map_err(D::Error::custom);
        }
        if tool.is_some_and(|t| crate::edit::terrain::rules_ops::NAMES.contains(&t)) {
            return serde_json::from_value(value)
                .map(Operation::Rules)
                .map_err(D::Error::custom);
        }
        if tool.is_some_and(|t| crate::edit::objects::scatter_ops::NAMES.contains(&t)) {
            return serde_json::from_value(value)
                .map(Operation::ObjectBrush)
                .map_err(D::Error::custom);
        }
        if tool.is_some_and(|t| crate::edit::shapes::road_ops::NAMES.contains(&t)) {
            return serde_json::from_value(value)
                .map(Operation::Road)
                .map_err(D::Error::custom);
        }
        if tool.is_some_and(|t| crate::edit::copy::paste::NAMES.contains(&t)) {
            return serde_json::from_value(value)
                .map(Operation::Paste)
                .map_err(D::Error::custom);
        }
        if tool.is_some_and(|t| crate::edit::terrain::texture_ops::NAMES.contains(&t)) {
            return serde_json::from_value(value)
                .map(Operation::Texture)
                .map_err(D::Error::custom);
        }
        if tool.is_some_and(|t| ImageTool::NAMES.contains(&t)) {
            return serde_json::from_value(value)
                .map(Operation::Image)
                .map_err(D::Error::custom);
        }
        if tool.is_some_and(|t| ObjectTool::NAMES.contains(&t)) {
            serde_json::from_value(value)
                .map(Operation::Object)
                .map_err(D::Error::custom)
        } else {
            serde_json::from_value(value)
                .map(Operation::Brush)
                .map_err(D::Error::custom)
        }
    }
}

/// What running operations needs besides the map: each model path's own box (object
/// operations), where new uids come from, the structure new liquid takes (the map's
/// generation's), and how to read an image an import names.
pub struct OpContext<'a> {
    /// Each model path's own box.
    pub model_box: &'a dyn Fn(&str) -> Option<ModelBox>,
    /// Where new objects' uids come from.
    pub uids: &'a crate::edit::objects::NewUids<'a>,
    /// The structure new liquid takes.
    pub style: LiquidStyle,
    /// Reads the image an import names.
    pub read_image: ImageReader<'a>,
}

/// Runs one entry of an `OPS.json` as one undo step: brushes through [`apply`], objects through
/// `object_ops::apply_in`, image imports through `image_ops::apply`.
pub fn run(
    map: &mut Map,
    operation: &Operation,
    history: &mut History,
    cx: &OpContext,
) -> Result<OpResult, String> {
    match operation {
        Operation::Brush(op) if op.stamp.is_some() && op.stamp_mask.is_none() => {
            let path = op.stamp.as_deref().unwrap_or_default();
            let input = (cx.read_image)(path).map_err(|e| format!("stamp: {e}"))?;
            let mut op = op.clone();
            op.stamp_mask = Some(std::sync::Arc::new(
                crate::edit::terrain::brush::StampMask::from_raster(&input.raster),
            ));
            apply(map, &op, history, cx.style)
        }
        Operation::Brush(op) => apply(map, op, history, cx.style),
        Operation::Object(op) => object_ops::apply_in(map, op, history, cx.model_box, cx.uids),
        Operation::Image(op) => image_ops::apply(map, op, history, cx.read_image),
        Operation::Texture(op) => crate::edit::terrain::texture_ops::apply(map, op, history),
        Operation::Paste(op) => crate::edit::copy::paste::apply(
            map,
            op,
            history,
            &crate::edit::copy::paste::PasteContext {
                model_box: cx.model_box,
                uids: cx.uids,
                style: cx.style,
            },
        ),
        Operation::Road(op) => crate::edit::shapes::road_ops::apply(map, op, history),
        Operation::ObjectBrush(op) => {
            crate::edit::objects::scatter_ops::apply(map, op, history, cx.model_box, cx.uids)
        }
        Operation::Erode(op) => crate::edit::terrain::erosion::apply(map, op, history),
        Operation::Rules(op) => crate::edit::terrain::rules_ops::apply(map, op, history),
        Operation::Biome(op) => {
            let biome = op.biome()?;
            let seed = op.seed.unwrap_or(biome.scatter.seed);
            let brush = op.brush();
            crate::edit::biome::apply(
                map,
                &biome,
                (&brush, &op.points),
                seed,
                history,
                (cx.model_box, cx.uids),
            )
        }
    }
}

/// The tools an operation can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpTool {
    /// Raise terrain by `strength` yards at the centre.
    Raise,
    /// Lower terrain by `strength` yards at the centre.
    Lower,
    /// Flatten toward `height` (or the height under the first point), or toward the plane
    /// through that height at the first point rising `slope` degrees toward `direction`.
    Flatten,
    /// Flatten toward the plane `through` three points (world x, y, height).
    Plane,
    /// Smooth toward the neighbours' mean.
    Smooth,
    /// Flatten along the slope from the first point to the last (heights from the terrain there).
    Ramp,
    /// Add value noise of amplitude `strength` yards.
    Noise,
    /// Paint `texture` with `opacity`.
    Paint,
    /// Erase `texture`.
    EraseTexture,
    /// Cut holes.
    HoleAdd,
    /// Fill holes.
    HoleRemove,
    /// Tint vertex colours toward `color` ([r, g, b]); without `color`, erase to neutral.
    Shade,
    /// Set the area id to `area_id`.
    Area,
    /// Set (`on`: true) or clear the impassable flag.
    Impassable,
    /// Let ground effects (detail doodads) grow in the cells under the brush (`on`: true) or
    /// switch them off (`on`: false).
    GroundEffects,
    /// Put liquid of `kind` (or LiquidType `liquid_type`) on the quads under the brush, at
    /// `height` (or the height under the first point), sloping to `end_height` at the last
    /// point when given.
    LiquidAdd,
    /// Take the liquid off the quads under the brush.
    LiquidRemove,
    /// Move the surface of the liquid under the brush to `height` (sloping to `end_height`).
    LiquidHeight,
    /// Set or clear the `deep` and `fishable` flags of the liquid under the brush.
    LiquidFlags,
}

impl OpTool {
    /// The tools a stamp shapes (those whose strength varies over the brush).
    pub const STAMPED: &'static [OpTool] = &[
        OpTool::Raise,
        OpTool::Lower,
        OpTool::Flatten,
        OpTool::Plane,
        OpTool::Smooth,
        OpTool::Noise,
        OpTool::Paint,
        OpTool::EraseTexture,
        OpTool::Shade,
    ];
}

/// One operation: a tool dragged through `points` (world x north, y west).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Op {
    /// The tool.
    pub tool: OpTool,
    /// World (x, y) points of the stroke; dabs are spaced along the lines between them.
    pub points: Vec<[f64; 2]>,
    /// Brush radius in yards.
    pub radius: f32,
    /// Full-strength radius in yards (default: a third of `radius`).
    pub inner_radius: Option<f32>,
    /// Tool strength (default 1).
    pub strength: Option<f32>,
    /// Falloff (default smooth).
    pub falloff: Option<Falloff>,
    /// Outline (default circle).
    pub shape: Option<Shape>,
    /// Dab spacing as a fraction of the radius (default 0.25).
    pub spacing: Option<f32>,
    /// flatten: target height.
    pub height: Option<f32>,
    /// flatten, plane: both, raiseonly or loweronly.
    pub mode: Option<FlattenMode>,
    /// flatten: the slope of the plane flattened to, in degrees (with `direction`).
    pub slope: Option<f32>,
    /// flatten: the compass direction the plane rises toward, degrees (0 north, 90 east).
    pub direction: Option<f32>,
    /// plane: three points (world x, y, height) the plane passes through.
    pub through: Option<[[f64; 3]; 3]>,
    /// noise: seed.
    pub seed: Option<u32>,
    /// noise: wavelength in yards (default 20).
    pub scale: Option<f32>,
    /// paint, erase_texture: texture path.
    pub texture: Option<String>,
    /// paint, erase_texture: most a dab changes at the centre, 0..1 (default 1).
    pub opacity: Option<f32>,
    /// shade: colour.
    pub color: Option<[u8; 3]>,
    /// area: the area id.
    pub area_id: Option<u32>,
    /// impassable: set or clear.
    pub on: Option<bool>,
    /// liquid_add: water, ocean, magma or slime (default water).
    pub kind: Option<LiquidKind>,
    /// liquid_add: an exact LiquidType.dbc id instead of `kind` (3.3.5 keeps it; older
    /// generations fold it to its classic kind).
    pub liquid_type: Option<u16>,
    /// liquid_add, liquid_height: the surface height at the last point; the surface then slopes
    /// from `height` at the first point (a river).
    pub end_height: Option<f32>,
    /// liquid_flags: set (true) or clear (false) deep (fatigue) water.
    pub deep: Option<bool>,
    /// liquid_flags: set (true) or clear (false) fishable water (MH2O only).
    pub fishable: Option<bool>,
    /// A grey image as the brush's shape and strength (raise, lower, flatten, smooth, noise,
    /// paint, erase_texture, shade): its path, relative to the operations file.
    pub stamp: Option<String>,
    /// stamp: degrees it is turned, clockwise seen from above (default 0).
    pub rotation: Option<f32>,
    /// paint, erase_texture: scatter small splotches inside the brush instead of one dab
    /// (Noggit Red's texture spray), for broken edges and scree.
    pub spray: Option<Spray>,
    /// The stamp's pixels, once read (the editor hands them over; `run` reads them for a
    /// script).
    #[serde(skip)]
    pub stamp_mask: Option<std::sync::Arc<crate::edit::terrain::brush::StampMask>>,
}

/// A texture spray: each dab of the stroke lays `rate` splotches of radius `size` at random
/// places inside the brush (uniform over its circle), from a stream the seed and the dab's
/// place repeat exactly.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spray {
    /// Splotches a dab, 1 to 64.
    pub rate: u32,
    /// Each splotch's radius, yards (its inner half at full strength).
    pub size: f32,
    /// The random stream's seed (default 0).
    #[serde(default)]
    pub seed: u32,
}

impl Spray {
    /// The splotches' centres for a dab at (`x`, `y`) of a brush of `radius`.
    pub fn splotches(&self, x: f64, y: f64, radius: f64) -> Vec<[f64; 2]> {
        // The dab's place joins the seed, so that each dab of a stroke scatters anew and the
        // same stroke scatters the same way again.
        let place = (x.to_bits().rotate_left(17)) ^ y.to_bits();
        let mut rng = crate::edit::objects::scatter::Rng::new(u64::from(self.seed) ^ place);
        (0..self.rate)
            .map(|_| {
                let r = radius * rng.unit().sqrt();
                let a = std::f64::consts::TAU * rng.unit();
                [x + r * a.cos(), y + r * a.sin()]
            })
            .collect()
    }
}

impl Op {
    /// The tiles this stroke can read or change: those within its radius (and a chunk's
    /// margin) of the lines through its points. A partly loaded map needs them in memory for
    /// the stroke to do what it does on the whole map.
    pub fn reach(&self) -> Vec<TileCoord> {
        crate::edit::terrain::brush::stroke_reach(&self.points, self.radius)
    }

    /// Rejects fields that do not belong to the tool and missing required ones.
    pub fn validate(&self) -> Result<(), String> {
        const LIQUID_SURFACE: &[OpTool] =
            &[OpTool::Flatten, OpTool::LiquidAdd, OpTool::LiquidHeight];
        let specific: [(&str, bool, &[OpTool]); 19] = [
            ("stamp", self.stamp.is_some(), OpTool::STAMPED),
            ("rotation", self.rotation.is_some(), OpTool::STAMPED),
            ("height", self.height.is_some(), LIQUID_SURFACE),
            ("kind", self.kind.is_some(), &[OpTool::LiquidAdd]),
            (
                "liquid_type",
                self.liquid_type.is_some(),
                &[OpTool::LiquidAdd],
            ),
            (
                "end_height",
                self.end_height.is_some(),
                &[OpTool::LiquidAdd, OpTool::LiquidHeight],
            ),
            ("deep", self.deep.is_some(), &[OpTool::LiquidFlags]),
            ("fishable", self.fishable.is_some(), &[OpTool::LiquidFlags]),
            (
                "mode",
                self.mode.is_some(),
                &[OpTool::Flatten, OpTool::Plane],
            ),
            ("slope", self.slope.is_some(), &[OpTool::Flatten]),
            ("direction", self.direction.is_some(), &[OpTool::Flatten]),
            ("through", self.through.is_some(), &[OpTool::Plane]),
            ("seed", self.seed.is_some(), &[OpTool::Noise]),
            ("scale", self.scale.is_some(), &[OpTool::Noise]),
            (
                "texture",
                self.texture.is_some(),
                &[OpTool::Paint, OpTool::EraseTexture],
            ),
            (
                "opacity",
                self.opacity.is_some(),
                &[OpTool::Paint, OpTool::EraseTexture],
            ),
            ("color", self.color.is_some(), &[OpTool::Shade]),
            ("area_id", self.area_id.is_some(), &[OpTool::Area]),
            (
                "on",
                self.on.is_some(),
                &[OpTool::Impassable, OpTool::GroundEffects],
            ),
        ];
        for (name, present, tools) in specific {
            if present && !tools.contains(&self.tool) {
                return Err(format!(
                    "field `{name}` does not apply to tool {:?}",
                    self.tool
                ));
            }
        }
        let required: &[(&str, bool)] = match self.tool {
            OpTool::Paint | OpTool::EraseTexture => &[("texture", self.texture.is_some())],
            OpTool::Area => &[("area_id", self.area_id.is_some())],
            OpTool::Impassable | OpTool::GroundEffects => &[("on", self.on.is_some())],
            OpTool::LiquidHeight => &[("height", self.height.is_some())],
            OpTool::Plane => &[("through", self.through.is_some())],
            _ => &[],
        };
        if let Some(spray) = &self.spray {
            if !matches!(self.tool, OpTool::Paint | OpTool::EraseTexture) {
                return Err("`spray` belongs to paint and erase_texture".into());
            }
            if !(1..=64).contains(&spray.rate) {
                return Err(format!("spray: `rate` is 1 to 64, not {}", spray.rate));
            }
            // A splotch reaches past the brush by its size; the tiles a stroke reads reach a
            // chunk (33 yards) past it, so 20 yards stays inside what was read.
            if !(spray.size > 0.0 && spray.size <= 20.0) {
                return Err(format!(
                    "spray: `size` is over 0 and at most 20 yards, not {}",
                    spray.size
                ));
            }
        }
        if self.rotation.is_some() && self.stamp.is_none() {
            return Err("`rotation` turns a stamp: give `stamp` too".into());
        }
        if self.slope.is_some() != self.direction.is_some() {
            return Err("give both `slope` and `direction`, or neither".into());
        }
        if let Some(slope) = self.slope
            && !(0.0..90.0).contains(&slope.abs())
        {
            return Err(format!(
                "`slope` is in degrees and must lie between -90 and 90, not {slope}"
            ));
        }
        if self.direction.is_some_and(|d| !d.is_finite()) {
            return Err("`direction` must be a number of degrees".into());
        }
        if let Some(through) = self.through
            && Plane::through(through).is_none()
        {
            return Err(
                "the three `through` points must not lie on one line seen from above".into(),
            );
        }
        if self.kind.is_some() && self.liquid_type.is_some() {
            return Err("give `kind` or `liquid_type`, not both".into());
        }
        if self.tool == OpTool::LiquidFlags && self.deep.is_none() && self.fishable.is_none() {
            return Err("tool LiquidFlags needs `deep` or `fishable`".into());
        }
        if self.end_height.is_some() && self.points.len() < 2 {
            return Err("`end_height` needs two points: the start and the end of the slope".into());
        }
        if let Some((name, _)) = required.iter().find(|(_, present)| !present) {
            return Err(format!("tool {:?} needs field `{name}`", self.tool));
        }
        if self.points.is_empty() {
            return Err("an operation needs at least one point".into());
        }
        if self.tool == OpTool::Ramp && self.points.len() < 2 {
            return Err("tool Ramp needs two points: the start and the end of the slope".into());
        }
        if !(self.radius > 0.0 && self.radius.is_finite()) {
            return Err(format!("radius must be positive, not {}", self.radius));
        }
        Ok(())
    }

    /// The brush this operation uses.
    pub fn brush(&self) -> Brush {
        let stroke = crate::edit::terrain::brush::stroke_brush(
            self.radius,
            self.inner_radius,
            self.strength,
            self.falloff,
            self.shape,
            self.spacing,
        );
        Brush {
            stamp: self
                .stamp
                .as_ref()
                .map(|path| crate::edit::terrain::brush::Stamp {
                    path: path.clone(),
                    mask: self.stamp_mask.clone(),
                }),
            rotation: self.rotation.unwrap_or(0.0),
            ..stroke
        }
    }

    /// The dab centres: the first point, then spaced along each segment.
    pub fn dabs(&self) -> Vec<[f64; 2]> {
        crate::edit::terrain::brush::stroke_dabs(&self.brush(), &self.points)
    }

    fn name(&self) -> &'static str {
        match self.tool {
            OpTool::Raise => "Raise",
            OpTool::Lower => "Lower",
            OpTool::Flatten => "Flatten",
            OpTool::Plane => "Plane",
            OpTool::Smooth => "Smooth",
            OpTool::Ramp => "Ramp",
            OpTool::Noise => "Noise",
            OpTool::Paint if self.spray.is_some() => "Spray texture",
            OpTool::Paint => "Paint",
            OpTool::EraseTexture => "Erase texture",
            OpTool::HoleAdd => "Add holes",
            OpTool::HoleRemove => "Remove holes",
            OpTool::Shade if self.color.is_none() => "Erase shade",
            OpTool::Shade => "Shade",
            OpTool::Area => "Area",
            OpTool::Impassable if self.on == Some(false) => "Passable",
            OpTool::Impassable => "Impassable",
            OpTool::GroundEffects if self.on == Some(false) => "Ground effects off",
            OpTool::GroundEffects => "Ground effects on",
            OpTool::LiquidAdd => "Add liquid",
            OpTool::LiquidRemove => "Remove liquid",
            OpTool::LiquidHeight => "Liquid height",
            OpTool::LiquidFlags => "Liquid flags",
        }
    }

    /// The liquid edit this operation makes, with heights it leaves out taken from under its
    /// first and last points; `None` for the other tools.
    pub fn liquid_edit(&self, map: &Map) -> Result<Option<LiquidEdit>, String> {
        let surface = || -> Result<Surface, String> {
            let first = self.points[0];
            let start = given_or_under(self.height, "liquid", first, || {
                liquid::height_under(map, first[0], first[1])
            })?;
            Ok(match self.end_height {
                Some(end) => {
                    let last = self.points[self.points.len() - 1];
                    Surface::Slope {
                        from: [first[0], first[1], start as f64],
                        to: [last[0], last[1], end as f64],
                    }
                }
                None => Surface::Flat(start),
            })
        };
        Ok(Some(match self.tool {
            OpTool::LiquidAdd => LiquidEdit::Add {
                liquid_type: self
                    .liquid_type
                    .unwrap_or_else(|| self.kind.unwrap_or_default().liquid_type()),
                surface: surface()?,
            },
            OpTool::LiquidRemove => LiquidEdit::Remove,
            OpTool::LiquidHeight => LiquidEdit::Height(surface()?),
            OpTool::LiquidFlags => LiquidEdit::Flags {
                deep: self.deep,
                fishable: self.fishable,
            },
            _ => return Ok(None),
        }))
    }
}

/// Runs one dab of `op` at (`x`, `y`) into `stroke`.
pub fn dab(
    map: &mut Map,
    op: &Op,
    sculpt_tool: Option<Sculpt>,
    x: f64,
    y: f64,
    stroke: &mut Stroke,
) {
    let brush = op.brush();
    match op.tool {
        OpTool::Raise
        | OpTool::Lower
        | OpTool::Flatten
        | OpTool::Plane
        | OpTool::Smooth
        | OpTool::Noise
        | OpTool::Ramp => {
            if let Some(tool) = sculpt_tool {
                sculpt::dab(map, &brush, tool, x, y, stroke);
            }
        }
        OpTool::Paint | OpTool::EraseTexture => {
            let mode = if op.tool == OpTool::Paint {
                PaintMode::Paint
            } else {
                PaintMode::Erase
            };
            let paint = paint::Paint {
                texture: op.texture.clone().unwrap_or_default(),
                opacity: op.opacity.unwrap_or(1.0),
                mode,
            };
            match &op.spray {
                Some(spray) => {
                    // Small soft splotches inside the brush; a spray has no stamp.
                    let splotch = Brush {
                        radius: spray.size,
                        inner_radius: spray.size * 0.5,
                        stamp: None,
                        ..brush.clone()
                    };
                    for [sx, sy] in spray.splotches(x, y, f64::from(brush.radius)) {
                        drop(paint::dab(map, &splotch, &paint, sx, sy, stroke));
                    }
                }
                None => drop(paint::dab(map, &brush, &paint, x, y, stroke)),
            }
        }
        OpTool::HoleAdd => drop(cells::dab(map, &brush, CellEdit::AddHoles, x, y, stroke)),
        OpTool::HoleRemove => drop(cells::dab(map, &brush, CellEdit::RemoveHoles, x, y, stroke)),
        OpTool::Area => drop(cells::dab(
            map,
            &brush,
            CellEdit::Area(op.area_id.unwrap_or(0)),
            x,
            y,
            stroke,
        )),
        OpTool::Impassable => drop(cells::dab(
            map,
            &brush,
            CellEdit::Impassable(op.on.unwrap_or(true)),
            x,
            y,
            stroke,
        )),
        OpTool::GroundEffects => drop(cells::dab(
            map,
            &brush,
            CellEdit::GroundEffects(op.on.unwrap_or(true)),
            x,
            y,
            stroke,
        )),
        OpTool::Shade => drop(shade::dab(map, &brush, op.color, x, y, stroke)),
        // Liquid dabs need the edit resolved once per stroke: see `liquid_dab`.
        OpTool::LiquidAdd | OpTool::LiquidRemove | OpTool::LiquidHeight | OpTool::LiquidFlags => {}
    }
}

/// Runs one dab of a liquid edit (resolved by [`Op::liquid_edit`]) in the map's liquid
/// style at world point `[x, y]` into `stroke`.
pub fn liquid_dab(
    map: &mut Map,
    op: &Op,
    (edit, style): (LiquidEdit, LiquidStyle),
    [x, y]: [f64; 2],
    stroke: &mut Stroke,
) {
    liquid::dab(map, &op.brush(), edit, style, x, y, stroke);
}

/// Applies one operation as one stroke and records it in `history`.
/// `style` is the structure new liquid takes (the map's generation's).
pub fn apply(
    map: &mut Map,
    op: &Op,
    history: &mut History,
    style: LiquidStyle,
) -> Result<OpResult, String> {
    op.validate()?;
    let liquid_edit = op.liquid_edit(map)?;
    let first = op.points[0];
    let sculpt_tool = match op.tool {
        OpTool::Raise => Some(Sculpt::Raise),
        OpTool::Lower => Some(Sculpt::Lower),
        OpTool::Smooth => Some(Sculpt::Smooth),
        OpTool::Noise => Some(Sculpt::Noise {
            seed: op.seed.unwrap_or(0),
            scale: op.scale.unwrap_or(20.0),
        }),
        OpTool::Flatten => {
            let target = given_or_under(op.height, "flatten", first, || {
                lattice::height_at(map, first[0], first[1])
            })?;
            let mode = op.mode.unwrap_or_default();
            match (op.slope, op.direction) {
                (Some(slope), Some(direction)) => {
                    let origin = [first[0], first[1], f64::from(target)];
                    let plane = Plane::sloping(origin, slope.into(), direction.into())
                        .ok_or_else(|| format!("flatten: no plane of slope {slope}°"))?;
                    Some(Sculpt::Plane { plane, mode })
                }
                _ => Some(Sculpt::Flatten { target, mode }),
            }
        }
        OpTool::Plane => {
            let plane = op.through.and_then(Plane::through).ok_or_else(|| {
                "plane: the three `through` points must not lie on one line seen from above"
                    .to_string()
            })?;
            Some(Sculpt::Plane {
                plane,
                mode: op.mode.unwrap_or_default(),
            })
        }
        OpTool::Ramp => {
            let end = op.points[op.points.len() - 1];
            let height = |p: [f64; 2]| {
                lattice::height_at(map, p[0], p[1])
                    .map(|h| h as f64)
                    .ok_or_else(|| format!("ramp: no loaded terrain under ({}, {})", p[0], p[1]))
            };
            Some(Sculpt::Ramp {
                from: [first[0], first[1], height(first)?],
                to: [end[0], end[1], height(end)?],
            })
        }
        _ => None,
    };
    let mut stroke = Stroke::new(op.name());
    for [x, y] in op.dabs() {
        match liquid_edit {
            Some(edit) => liquid_dab(map, op, (edit, style), [x, y], &mut stroke),
            None => dab(map, op, sculpt_tool, x, y, &mut stroke),
        }
    }
    let refused = std::mem::take(&mut stroke.refused);
    Ok(OpResult::record(map, stroke, history, op.name(), refused))
}

/// Parses an `OPS.json` document.
pub fn parse(json: &str) -> Result<OpsFile, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let list = match &value {
        serde_json::Value::Array(_) => {
            return Err(format!("the file is a bare list; an OPS.json is {SHAPE}"));
        }
        serde_json::Value::Object(top) => {
            if let Some(k) = top.keys().find(|k| *k != "ops") {
                return Err(format!(
                    "unknown top-level field `{k}`; an OPS.json is {SHAPE}"
                ));
            }
            match top.get("ops") {
                Some(serde_json::Value::Array(list)) => list,
                Some(_) => return Err(format!("`ops` is not a list; an OPS.json is {SHAPE}")),
                None => return Err(format!("there is no `ops` field; an OPS.json is {SHAPE}")),
            }
        }
        _ => return Err(format!("the file is not an object; an OPS.json is {SHAPE}")),
    };
    let mut ops = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = || {
            let tool = v.get("tool").and_then(|t| t.as_str());
            let tool = tool.map(|t| format!(", tool \"{t}\"")).unwrap_or_default();
            format!("ops[{i}] (operation {} of {}{tool})", i + 1, list.len())
        };
        if !v.is_object() {
            return Err(format!("{}: an operation is an object with a `tool`", at()));
        }
        if v.get("tool").is_none() {
            return Err(format!("{}: missing field `tool`", at()));
        }
        let op: Operation = serde_json::from_value(v.clone()).map_err(|e| {
            let e = e.to_string();
            if e.contains("unknown variant") {
                format!(
                    "{}: {e}, or an operation's: {}",
                    at(),
                    other_tools().join(", ")
                )
            } else {
                format!("{}: {e}", at())
            }
        })?;
        op.validate().map_err(|e| format!("{}: {e}", at()))?;
        ops.push(op);
    }
    Ok(OpsFile { ops, folder: None })
}

/// The shape of an `OPS.json`, for errors about a file of another shape.
const SHAPE: &str = r#"{"ops": [{"tool": ..., ...}, ...]}"#;

/// The `tool` names of the operations that are not brush strokes (the brushes' names are in
/// serde's own message).
fn other_tools() -> Vec<&'static str> {
    use crate::edit::terrain::{erosion, rules_ops};
    use crate::edit::{copy::paste, objects::scatter_ops, shapes::road_ops, terrain::texture_ops};
    ObjectTool::NAMES
        .iter()
        .chain(&ImageTool::NAMES)
        .chain(&texture_ops::NAMES)
        .chain(&paste::NAMES)
        .chain(&road_ops::NAMES)
        .chain(&scatter_ops::NAMES)
        .chain(&erosion::NAMES)
        .chain(&rules_ops::NAMES)
        .chain(&crate::edit::biome::op::NAMES)
        .copied()
        .collect()
}

/// The `given` height, else the one `under` finds at `at` (the operation's first point); an
/// error naming `tool` when no loaded terrain is there.
fn given_or_under(
    given: Option<f32>,
    tool: &str,
    at: [f64; 2],
    under: impl FnOnce() -> Option<f32>,
) -> Result<f32, String> {
    match given {
        Some(h) => Ok(h),
        None => {
            under().ok_or_else(|| format!("{tool}: no loaded terrain under ({}, {})", at[0], at[1]))
        }
    }
}
