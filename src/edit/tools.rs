//! The tools' settings as the tool panel shows them and the intents carry them: which tool,
//! the brush, and each tool's own values; how a click places a model. Plain data with the
//! conversion to the operations `edit` runs, so that the panel, the app and `loam apply` agree.
//!
//! Not for: running strokes (`doc::editing`) or drawing the panel (`ui::tool_panel`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::edit::Brush;
use crate::edit::ops::{self, Op};
use crate::edit::terrain::erosion::{Erosion, Hydraulic};
use crate::edit::terrain::liquid::{self, LiquidEdit, LiquidKind, Surface};
use crate::edit::terrain::rules::Rule;
use crate::edit::terrain::sculpt::FlattenMode;
use crate::model::Map;

/// The tools of the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tool {
    /// Raise terrain.
    Raise,
    /// Lower terrain.
    Lower,
    /// Flatten toward a height (typed, or the height under the first click).
    Flatten,
    /// Smooth toward the neighbours' mean.
    Smooth,
    /// Add smooth noise.
    Noise,
    /// Flatten along the slope from where the drag starts to where it ends.
    Ramp,
    /// Erode the ground under the brush, thermally or by water (`terrain::erosion`).
    Erode,
    /// Paint the chosen texture.
    Paint,
    /// Erase the chosen texture.
    EraseTexture,
    /// Swap one texture for the chosen one in the chunks under the brush, alpha kept.
    SwapTexture,
    /// Paint the chosen texture in small splotches scattered inside the brush.
    SprayTexture,
    /// Texture the ground under the brush by rules of slope, height and noise
    /// (`terrain::rules`).
    TextureRules,
    /// Lay a biome under the brush: its erosion, texture rules and palette's objects
    /// (`edit::biome`).
    Biome,
    /// Cut holes.
    HoleAdd,
    /// Fill holes.
    HoleRemove,
    /// Tint vertex colours.
    Shade,
    /// Erase vertex colours back to neutral.
    EraseShade,
    /// Set the area id.
    Area,
    /// Set the impassable flag.
    Impassable,
    /// Clear the impassable flag.
    Passable,
    /// Switch ground effects (detail doodads) off in the cells under the brush.
    EffectsOff,
    /// Let ground effects grow again in the cells under the brush.
    EffectsOn,
    /// Put liquid on the quads under the brush.
    LiquidAdd,
    /// Take liquid off the quads under the brush.
    LiquidRemove,
    /// Move the liquid surface under the brush to a height.
    LiquidHeight,
    /// Add liquid along a drag, its surface sloping from the press to the release (rivers).
    River,
    /// Paint the deep and fishable flags of the liquid under the brush.
    LiquidFlags,
    /// A brush a Lua script declares (`doc::script`): the settings' `script` names which; its
    /// strokes run through the script (`app::toolbox::script_tool`), not `doc::editing`.
    Script,
    /// Select, edit and delete doodads and WMOs (not a brush).
    Objects,
    /// Select a rectangle of ground, copy it and paste it elsewhere (not a brush).
    CopyPaste,
    /// Scatter a palette's models under the brush, or erase objects (an object brush, its
    /// strokes run as `scatter` / `erase_objects` operations).
    Scatter,
    /// Select terrain vertices (box, lasso or brush) and raise, set, plane or smooth them
    /// (not a brush: `app::toolbox::vertex_selection`).
    SelectVertices,
    /// Lay a road along a curve through clicked points (not a brush: `app::toolbox::road_tool`).
    Road,
    /// Select, move, resize, add and delete the zone's lights and edit their colours over the
    /// day (not a brush: `app::toolbox::zone_tool`).
    Lights,
    /// Select, move, resize, turn, add and delete the zone's area triggers (not a brush:
    /// `app::toolbox::zone_tool`).
    Triggers,
}

/// A kind of work: the tool bar's buttons, each with its tools as modes, and the groups the
/// keys show the tools in. Declared in the bar's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ToolKind {
    /// Heights: raise, lower, flatten, smooth, noise, ramp.
    Sculpt,
    /// Texture layers: paint, erase, swap.
    Texture,
    /// Holes in the ground.
    Holes,
    /// Vertex colours.
    Shade,
    /// Per-cell properties: area id, impassable, ground effects.
    AreaAndFlags,
    /// Liquids.
    Water,
    /// Doodads and WMOs: the object tool and the scatter brush.
    Objects,
    /// Terrain vertices chosen and edited together.
    SelectVertices,
    /// Roads along a curve.
    Road,
    /// Ground copied and pasted.
    CopyPaste,
    /// The user's Lua brushes (`doc::script`).
    Scripts,
    /// The zone's own light and area triggers (the client's tables, `doc::zone`).
    Zone,
}

/// One row of [`TOOLS`]: what the panel, the keys, the strokes and the re-bake rules read of a
/// tool, so that adding a tool is one row here (and its dab).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToolRow {
    /// The tool.
    pub tool: Tool,
    /// The name shown on its button and in the history.
    pub name: &'static str,
    /// The kind of work it belongs to.
    pub kind: ToolKind,
    /// True for the brushes (a press starts a stroke of dabs); the others are driven by an app
    /// component of their own.
    pub brush: bool,
    /// True for the tools that change heights: their strokes re-bake shadows and carry objects
    /// with the ground when those settings are on, and the panel offers both.
    pub sculpts: bool,
    /// The strength slider's top and its label.
    pub strength: (f32, &'static str),
}

/// A strength from 0 to 1.
const FRACTION: (f32, &str) = (1.0, "Strength");
/// A strength in yards, up to 20.
const YARDS: (f32, &str) = (20.0, "Strength (yd)");

/// A brush of `kind` that leaves the heights alone.
const fn brush(tool: Tool, name: &'static str, kind: ToolKind) -> ToolRow {
    ToolRow {
        tool,
        name,
        kind,
        brush: true,
        sculpts: false,
        strength: FRACTION,
    }
}

/// A brush that changes heights, its strength as given.
const fn sculpt(tool: Tool, name: &'static str, strength: (f32, &'static str)) -> ToolRow {
    ToolRow {
        tool,
        name,
        kind: ToolKind::Sculpt,
        brush: true,
        sculpts: true,
        strength,
    }
}

/// A tool that is not a brush.
const fn other(tool: Tool, name: &'static str, kind: ToolKind) -> ToolRow {
    ToolRow {
        tool,
        name,
        kind,
        brush: false,
        sculpts: false,
        strength: FRACTION,
    }
}

/// Every tool, in the order of the [`Tool`] enum, which is the order the tool panel lists
/// them: the brushes, then the tools that are not brushes.
pub const TOOLS: [ToolRow; 35] = {
    use ToolKind as K;
    [
        sculpt(Tool::Raise, "Raise", YARDS),
        sculpt(Tool::Lower, "Lower", YARDS),
        sculpt(Tool::Flatten, "Flatten", FRACTION),
        sculpt(Tool::Smooth, "Smooth", FRACTION),
        sculpt(Tool::Noise, "Noise", (20.0, "Amplitude (yd)")),
        sculpt(Tool::Ramp, "Ramp", FRACTION),
        sculpt(Tool::Erode, "Erode", FRACTION),
        brush(Tool::Paint, "Paint", K::Texture),
        brush(Tool::EraseTexture, "Erase texture", K::Texture),
        brush(Tool::SwapTexture, "Swap texture", K::Texture),
        brush(Tool::SprayTexture, "Spray texture", K::Texture),
        brush(Tool::TextureRules, "Rules", K::Texture),
        brush(Tool::Biome, "Biome", K::Texture),
        brush(Tool::HoleAdd, "Add holes", K::Holes),
        brush(Tool::HoleRemove, "Remove holes", K::Holes),
        brush(Tool::Shade, "Shade", K::Shade),
        brush(Tool::EraseShade, "Erase shade", K::Shade),
        brush(Tool::Area, "Area", K::AreaAndFlags),
        brush(Tool::Impassable, "Impassable", K::AreaAndFlags),
        brush(Tool::Passable, "Passable", K::AreaAndFlags),
        brush(Tool::EffectsOff, "No ground effects", K::AreaAndFlags),
        brush(Tool::EffectsOn, "Ground effects", K::AreaAndFlags),
        brush(Tool::LiquidAdd, "Add liquid", K::Water),
        brush(Tool::LiquidRemove, "Remove liquid", K::Water),
        brush(Tool::LiquidHeight, "Liquid height", K::Water),
        brush(Tool::River, "River", K::Water),
        brush(Tool::LiquidFlags, "Liquid flags", K::Water),
        brush(Tool::Script, "Script brush", K::Scripts),
        other(Tool::Objects, "Objects", K::Objects),
        other(Tool::CopyPaste, "Copy & paste", K::CopyPaste),
        other(Tool::Scatter, "Scatter", K::Objects),
        other(Tool::SelectVertices, "Select vertices", K::SelectVertices),
        other(Tool::Road, "Road", K::Road),
        other(Tool::Lights, "Lights", K::Zone),
        other(Tool::Triggers, "Area triggers", K::Zone),
    ]
};

impl ToolKind {
    /// Every kind, in the tool bar's order.
    pub const ALL: [ToolKind; 12] = [
        ToolKind::Sculpt,
        ToolKind::Texture,
        ToolKind::Holes,
        ToolKind::Shade,
        ToolKind::AreaAndFlags,
        ToolKind::Water,
        ToolKind::Objects,
        ToolKind::SelectVertices,
        ToolKind::Road,
        ToolKind::CopyPaste,
        ToolKind::Scripts,
        ToolKind::Zone,
    ];

    /// The name on its button's tooltip and in the Keys window.
    pub fn name(self) -> &'static str {
        match self {
            ToolKind::Sculpt => "Sculpt",
            ToolKind::Texture => "Texture",
            ToolKind::Holes => "Holes",
            ToolKind::Shade => "Shade",
            ToolKind::AreaAndFlags => "Area & flags",
            ToolKind::Water => "Water",
            ToolKind::Objects => "Objects",
            ToolKind::SelectVertices => "Select vertices",
            ToolKind::Road => "Road",
            ToolKind::CopyPaste => "Copy & paste",
            ToolKind::Scripts => "Scripts",
            ToolKind::Zone => "Zone",
        }
    }

    /// Its tools (its modes), in the panel's order.
    pub fn tools(self) -> impl Iterator<Item = Tool> {
        TOOLS.iter().filter(move |r| r.kind == self).map(|r| r.tool)
    }

    /// The tool the kind starts with, before the user chose one of its modes.
    pub fn first_tool(self) -> Tool {
        self.tools().next().unwrap_or(Tool::Raise)
    }
}

impl Tool {
    /// This tool's row of [`TOOLS`].
    pub fn row(self) -> &'static ToolRow {
        // The table is in the enum's order (a unit test holds it there).
        &TOOLS[self as usize]
    }

    /// Every tool, in the panel's order.
    pub fn every() -> impl Iterator<Item = Tool> {
        TOOLS.iter().map(|r| r.tool)
    }

    /// The brush tools, in the panel's order.
    pub fn brushes() -> impl Iterator<Item = Tool> {
        TOOLS.iter().filter(|r| r.brush).map(|r| r.tool)
    }

    /// The tools that are not brushes, each driven by its own app component, in the order the
    /// tool panel lists them after the brushes.
    pub fn others() -> impl Iterator<Item = Tool> {
        TOOLS.iter().filter(|r| !r.brush).map(|r| r.tool)
    }

    /// The name shown on its button and in the history.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The kind of work it belongs to.
    pub fn kind(self) -> ToolKind {
        self.row().kind
    }

    /// True for the liquid tools.
    pub fn is_liquid(self) -> bool {
        self.kind() == ToolKind::Water
    }

    /// True for the brushes (a press starts a stroke of dabs); false for [`Tool::others`].
    pub fn is_brush(self) -> bool {
        self.row().brush
    }

    /// True for the tools that change heights (see [`ToolRow::sculpts`]).
    pub fn sculpts(self) -> bool {
        self.row().sculpts
    }

    /// The strength slider's top and label.
    pub fn strength(self) -> (f32, &'static str) {
        self.row().strength
    }
}

/// Everything the tool panel sets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSettings {
    /// The chosen tool.
    pub tool: Tool,
    /// The mode each kind had last (its tool), so that choosing the kind again comes back to
    /// it; kinds not chosen yet start on their first tool.
    #[serde(default)]
    pub modes: BTreeMap<ToolKind, Tool>,
    /// The brush.
    pub brush: Brush,
    /// Texture path for paint and erase, and what the swap tool puts in.
    pub texture: String,
    /// The texture the swap tool replaces.
    #[serde(default)]
    pub swap_from: String,
    /// Most a paint dab changes at the centre, 0..1.
    pub opacity: f32,
    /// Shade colour (RGB).
    pub color: [u8; 3],
    /// Area id for the area tool.
    pub area_id: u32,
    /// Flatten target; `None` takes the height under the first click.
    pub flatten_height: Option<f32>,
    /// Which way flatten may move heights.
    pub flatten_mode: FlattenMode,
    /// Flatten toward a plane instead of a level height: its slope and the compass direction
    /// it rises toward, degrees (through the typed height, else the ground under the click).
    #[serde(default)]
    pub flatten_slope: Option<[f32; 2]>,
    /// Flatten keeps the first stroke's target (height or plane) for the strokes after it,
    /// until unlocked.
    #[serde(default)]
    pub flatten_lock: bool,
    /// Noise seed.
    pub noise_seed: u32,
    /// Noise wavelength in yards.
    pub noise_scale: f32,
    /// Sculpting moves the objects standing on the changed ground up or down with it.
    #[serde(default)]
    pub objects_follow_ground: bool,
    /// A sculpt stroke bakes the shadow maps of the chunks it changed, and of the ring around
    /// them, again at `shadow_sun` (`edit::derived::shadows`), in the same undo step.
    #[serde(default)]
    pub rebake_shadows: bool,
    /// The sun Edit ▸ Bake shadows and the re-bake after sculpting use (default: 315° 55°,
    /// docs/shadows.md).
    #[serde(default)]
    pub shadow_sun: crate::edit::derived::shadows::Sun,
    /// Edit ▸ Bake shadows adds the shadows the placed models cast (their files read from the
    /// map's folder and the client).
    #[serde(default)]
    pub shadow_models: bool,
    /// The textures last painted with, newest first (at most [`RECENT_TEXTURES`]): the quick
    /// palette beside Paint.
    #[serde(default)]
    pub recent_textures: Vec<String>,
    /// The spray's splotches a dab.
    #[serde(default = "spray_rate")]
    pub spray_rate: u32,
    /// The spray's splotch radius, yards.
    #[serde(default = "spray_size")]
    pub spray_size: f32,
    /// The liquid the liquid tools add.
    #[serde(default)]
    pub liquid_kind: LiquidKind,
    /// An exact LiquidType.dbc id to add instead of `liquid_kind`'s plain row (3.3.5 keeps it;
    /// older generations fold it to its classic kind).
    #[serde(default)]
    pub liquid_type: Option<u16>,
    /// The liquid surface height; `None` takes the height under the first click (the liquid
    /// surface there, else the ground).
    #[serde(default)]
    pub liquid_height: Option<f32>,
    /// What the flags tool paints: deep (fatigue) water.
    #[serde(default)]
    pub liquid_deep: bool,
    /// What the flags tool paints: fishable water (MH2O only).
    #[serde(default = "yes")]
    pub liquid_fishable: bool,
    /// The Erode tool's erosion and its settings.
    #[serde(default = "default_erosion")]
    pub erosion: Erosion,
    /// The Texture rules tool's rules, the ground first.
    #[serde(default = "default_rules")]
    pub rules: Vec<Rule>,
    /// The biome the Biome tool lays.
    #[serde(default = "default_biome")]
    pub biome: crate::edit::biome::Biome,
    /// The Lua brush the Script tool strokes with, and its parameters.
    #[serde(default)]
    pub script: ScriptChoice,
}

/// Which Lua brush the Script tool strokes with: the script file, the brush's name, and the
/// parameters the panel set (the others take their defaults).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScriptChoice {
    /// The script file.
    pub file: Option<std::path::PathBuf>,
    /// The brush's name, as the script declares it.
    pub brush: String,
    /// Parameter values by key, as `loam script --param KEY=VALUE` takes them (numbers and
    /// switches as text, read by the brush's declaration).
    pub params: BTreeMap<String, String>,
}

/// The Erode tool's erosion to start with: water, a few hundred droplets a dab (a 20 yd brush
/// covers about 70 lattice quads).
pub fn default_erosion() -> Erosion {
    Erosion::Hydraulic(Hydraulic {
        droplets: 300,
        seed: 1,
        ..Hydraulic::default()
    })
}

/// The Texture rules tool's rules to start with: the shipped first biome's.
pub fn default_rules() -> Vec<Rule> {
    crate::edit::biome::shipped()
        .into_iter()
        .next()
        .map(|b| b.rules)
        .unwrap_or_default()
}

/// The Biome tool's biome to start with: the first shipped one.
pub fn default_biome() -> crate::edit::biome::Biome {
    let mut shipped = crate::edit::biome::shipped();
    shipped.remove(0)
}

/// Serde's default for settings that start on.
fn yes() -> bool {
    true
}

/// How many textures the quick palette remembers.
pub const RECENT_TEXTURES: usize = 10;

impl ToolSettings {
    /// Puts `texture` first among the recent textures, once, keeping [`RECENT_TEXTURES`].
    pub fn remember_texture(&mut self, texture: &str) {
        if texture.trim().is_empty() {
            return;
        }
        self.recent_textures.retain(|t| t != texture);
        self.recent_textures.insert(0, texture.to_string());
        self.recent_textures.truncate(RECENT_TEXTURES);
    }
}

/// The spray's splotches a dab, to start with.
fn spray_rate() -> u32 {
    12
}

/// The spray's splotch radius to start with, yards.
fn spray_size() -> f32 {
    3.0
}

impl Default for ToolSettings {
    fn default() -> Self {
        ToolSettings {
            tool: Tool::Raise,
            modes: BTreeMap::new(),
            brush: Brush {
                radius: 20.0,
                inner_radius: 6.0,
                strength: 1.0,
                ..Brush::default()
            },
            texture: String::new(),
            swap_from: String::new(),
            opacity: 0.5,
            color: [230, 150, 80],
            area_id: 0,
            flatten_height: None,
            flatten_mode: FlattenMode::Both,
            flatten_slope: None,
            flatten_lock: false,
            noise_seed: 1,
            noise_scale: 20.0,
            objects_follow_ground: false,
            rebake_shadows: false,
            shadow_sun: crate::edit::derived::shadows::Sun::DEFAULT,
            shadow_models: false,
            recent_textures: Vec::new(),
            spray_rate: spray_rate(),
            spray_size: spray_size(),
            liquid_kind: LiquidKind::Water,
            liquid_type: None,
            liquid_height: None,
            liquid_deep: false,
            liquid_fishable: true,
            erosion: default_erosion(),
            rules: default_rules(),
            biome: default_biome(),
            script: ScriptChoice::default(),
        }
    }
}

impl ToolSettings {
    /// Chooses `tool`, and remembers it as its kind's mode.
    pub fn choose(&mut self, tool: Tool) {
        self.tool = tool;
        self.modes.insert(tool.kind(), tool);
    }

    /// The tool `kind` comes back to: its last mode, else its first tool.
    pub fn mode_of(&self, kind: ToolKind) -> Tool {
        self.modes
            .get(&kind)
            .copied()
            .filter(|t| t.kind() == kind)
            .unwrap_or_else(|| kind.first_tool())
    }

    /// The settings that show `op`'s tool and brush, taking from `base` what `op` leaves out.
    pub fn for_op(op: &Op, base: ToolSettings) -> ToolSettings {
        let tool = match op.tool {
            ops::OpTool::Raise => Tool::Raise,
            ops::OpTool::Lower => Tool::Lower,
            // The editor's flatten tool shows a plane as its nearest setting until it has one.
            ops::OpTool::Flatten | ops::OpTool::Plane => Tool::Flatten,
            ops::OpTool::Smooth => Tool::Smooth,
            ops::OpTool::Ramp => Tool::Ramp,
            ops::OpTool::Noise => Tool::Noise,
            ops::OpTool::Paint if op.spray.is_some() => Tool::SprayTexture,
            ops::OpTool::Paint => Tool::Paint,
            ops::OpTool::EraseTexture => Tool::EraseTexture,
            ops::OpTool::HoleAdd => Tool::HoleAdd,
            ops::OpTool::HoleRemove => Tool::HoleRemove,
            ops::OpTool::Shade if op.color.is_none() => Tool::EraseShade,
            ops::OpTool::Shade => Tool::Shade,
            ops::OpTool::Area => Tool::Area,
            ops::OpTool::Impassable if op.on == Some(false) => Tool::Passable,
            ops::OpTool::Impassable => Tool::Impassable,
            ops::OpTool::GroundEffects if op.on == Some(false) => Tool::EffectsOff,
            ops::OpTool::GroundEffects => Tool::EffectsOn,
            ops::OpTool::LiquidAdd if op.end_height.is_some() => Tool::River,
            ops::OpTool::LiquidAdd => Tool::LiquidAdd,
            ops::OpTool::LiquidRemove => Tool::LiquidRemove,
            ops::OpTool::LiquidHeight => Tool::LiquidHeight,
            ops::OpTool::LiquidFlags => Tool::LiquidFlags,
        };
        let liquid_tool = tool.is_liquid();
        ToolSettings {
            tool,
            modes: base.modes.clone(),
            brush: op.brush(),
            texture: op.texture.clone().unwrap_or(base.texture.clone()),
            swap_from: base.swap_from.clone(),
            opacity: op.opacity.unwrap_or(base.opacity),
            color: op.color.unwrap_or(base.color),
            area_id: op.area_id.unwrap_or(base.area_id),
            flatten_height: if liquid_tool {
                base.flatten_height
            } else {
                op.height.or(base.flatten_height)
            },
            flatten_mode: op.mode.unwrap_or(base.flatten_mode),
            flatten_slope: match (op.slope, op.direction) {
                (Some(slope), Some(direction)) => Some([slope, direction]),
                _ if tool == Tool::Flatten => None,
                _ => base.flatten_slope,
            },
            flatten_lock: base.flatten_lock,
            noise_seed: op.seed.unwrap_or(base.noise_seed),
            noise_scale: op.scale.unwrap_or(base.noise_scale),
            objects_follow_ground: base.objects_follow_ground,
            rebake_shadows: base.rebake_shadows,
            shadow_sun: base.shadow_sun,
            shadow_models: base.shadow_models,
            recent_textures: base.recent_textures.clone(),
            spray_rate: op.spray.map_or(base.spray_rate, |s| s.rate),
            spray_size: op.spray.map_or(base.spray_size, |s| s.size),
            liquid_kind: op.kind.unwrap_or(base.liquid_kind),
            liquid_type: op.liquid_type.or(base.liquid_type),
            liquid_height: if liquid_tool {
                op.height.or(base.liquid_height)
            } else {
                base.liquid_height
            },
            liquid_deep: op.deep.unwrap_or(base.liquid_deep),
            liquid_fishable: op.fishable.unwrap_or(base.liquid_fishable),
            erosion: base.erosion,
            rules: base.rules.clone(),
            biome: base.biome.clone(),
            script: base.script.clone(),
        }
    }

    /// The operation one dab of this tool performs, as `loam apply` would read it from JSON.
    pub fn op(&self) -> Op {
        let tool = match self.tool {
            Tool::Raise => ops::OpTool::Raise,
            Tool::Lower => ops::OpTool::Lower,
            Tool::Flatten | Tool::Ramp => ops::OpTool::Flatten,
            Tool::Smooth => ops::OpTool::Smooth,
            Tool::Noise => ops::OpTool::Noise,
            Tool::Paint | Tool::SprayTexture => ops::OpTool::Paint,
            Tool::EraseTexture => ops::OpTool::EraseTexture,
            // Its dabs are `texture_ops::swap_dab` (`doc::editing`), not an `ops::dab`; the op
            // carries only the brush.
            Tool::SwapTexture => ops::OpTool::EraseTexture,
            // Their dabs are `erosion::dab`, `rules_ops::dab` and `biome::lay::dab`
            // (`doc::editing`); the op
            // carries only the brush (of a tool no stamp shapes).
            Tool::Erode | Tool::TextureRules | Tool::Biome | Tool::Script => ops::OpTool::HoleAdd,
            Tool::HoleAdd => ops::OpTool::HoleAdd,
            Tool::HoleRemove => ops::OpTool::HoleRemove,
            Tool::Shade | Tool::EraseShade => ops::OpTool::Shade,
            Tool::Area => ops::OpTool::Area,
            Tool::Impassable | Tool::Passable => ops::OpTool::Impassable,
            Tool::EffectsOff | Tool::EffectsOn => ops::OpTool::GroundEffects,
            Tool::LiquidAdd | Tool::River => ops::OpTool::LiquidAdd,
            Tool::LiquidRemove => ops::OpTool::LiquidRemove,
            Tool::LiquidHeight => ops::OpTool::LiquidHeight,
            Tool::LiquidFlags => ops::OpTool::LiquidFlags,
            // Never stroked: the app sends the object tool's clicks to `object_tool`, and
            // `Editing::begin` refuses it.
            Tool::Objects
            | Tool::CopyPaste
            | Tool::Scatter
            | Tool::SelectVertices
            | Tool::Road
            | Tool::Lights
            | Tool::Triggers => ops::OpTool::Raise,
        };
        let b = &self.brush;
        let stamp = b
            .stamp
            .as_ref()
            .filter(|_| ops::OpTool::STAMPED.contains(&tool) && self.tool != Tool::SprayTexture);
        Op {
            tool,
            points: vec![[0.0, 0.0]],
            radius: b.radius,
            inner_radius: Some(b.inner_radius),
            strength: Some(b.strength),
            falloff: Some(b.falloff),
            shape: Some(b.shape),
            spacing: Some(b.spacing),
            height: None,
            mode: None,
            slope: None,
            direction: None,
            through: None,
            seed: None,
            scale: None,
            texture: Some(self.texture.clone()),
            opacity: Some(self.opacity),
            color: (self.tool == Tool::Shade).then_some(self.color),
            area_id: Some(self.area_id),
            on: Some(matches!(self.tool, Tool::Impassable | Tool::EffectsOn)),
            kind: Some(self.liquid_kind),
            liquid_type: self.liquid_type,
            end_height: None,
            deep: Some(self.liquid_deep),
            fishable: Some(self.liquid_fishable),
            stamp: stamp.map(|s| s.path.clone()),
            rotation: stamp.map(|_| b.rotation),
            stamp_mask: stamp.and_then(|s| s.mask.clone()),
            spray: (self.tool == Tool::SprayTexture).then_some(ops::Spray {
                rate: self.spray_rate,
                size: self.spray_size,
                seed: self.noise_seed,
            }),
        }
    }

    /// The liquid edit a stroke of a liquid tool starting at world `at` makes; the river's
    /// slope is set when the drag ends.
    pub fn liquid_edit(&self, map: &Map, at: [f64; 3]) -> Option<LiquidEdit> {
        let height = || {
            self.liquid_height
                .or_else(|| liquid::height_under(map, at[0], at[1]))
                .unwrap_or(at[2] as f32)
        };
        let liquid_type = self
            .liquid_type
            .unwrap_or_else(|| self.liquid_kind.liquid_type());
        Some(match self.tool {
            Tool::LiquidAdd | Tool::River => LiquidEdit::Add {
                liquid_type,
                surface: Surface::Flat(height()),
            },
            Tool::LiquidRemove => LiquidEdit::Remove,
            // Moving a surface to where it already is would do nothing: untyped, the height
            // tool takes the ground under the click (a click on the shore sets the level).
            Tool::LiquidHeight => {
                LiquidEdit::Height(Surface::Flat(self.liquid_height.unwrap_or(at[2] as f32)))
            }
            Tool::LiquidFlags => LiquidEdit::Flags {
                deep: Some(self.liquid_deep),
                fishable: Some(self.liquid_fishable),
            },
            _ => return None,
        })
    }
}

/// How a click places the asset browser's model.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaceOptions {
    /// The model path (`.m2`, `.mdx` or `.wmo`), when one is chosen.
    pub model: Option<String>,
    /// Clicks place instead of selecting.
    pub active: bool,
    /// Turn each placed object by a random angle about the up axis.
    pub random_turn: bool,
    /// Most degrees a placed object tips at random (0: upright).
    pub random_tilt: f32,
    /// The range a doodad's scale is drawn from (equal ends: that scale).
    pub scale: (f32, f32),
    /// The gizmo's arrows follow the first selected object's turn (else the world's axes).
    pub local_axes: bool,
}

impl Default for PlaceOptions {
    fn default() -> Self {
        PlaceOptions {
            model: None,
            active: false,
            random_turn: true,
            random_tilt: 0.0,
            scale: (1.0, 1.0),
            local_axes: false,
        }
    }
}

/// How the vertex selection tool selects with the mouse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SelectShape {
    /// A drag selects the rectangle on the ground between press and release.
    #[default]
    Box,
    /// A drag selects the ground inside the loop it draws.
    Lasso,
    /// The brush's circle selects what it passes over.
    Brush,
}

/// Where the vertex selection's plane comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlaneFrom {
    /// Three points picked on the ground.
    #[default]
    ThreePoints,
    /// The last picked point (else the selection's middle), a slope and a direction.
    Slope,
}

/// The vertex selection tool's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelectionOptions {
    /// How a drag selects.
    pub shape: SelectShape,
    /// Width of the soft ring outside the selection that eases each edit off, yards.
    pub ring: f32,
    /// Raise and Lower move by this many yards.
    pub amount: f32,
    /// Set height puts the vertices at this height.
    pub height: f32,
    /// Smooth moves each vertex this fraction toward its neighbours' mean (0..1).
    pub smooth: f32,
    /// Where the plane comes from.
    pub plane_from: PlaneFrom,
    /// The plane's slope in degrees, with `PlaneFrom::Slope`.
    pub slope: f32,
    /// The compass direction the plane rises toward, degrees (0 north, 90 east).
    pub direction: f32,
}

impl Default for SelectionOptions {
    fn default() -> Self {
        SelectionOptions {
            shape: SelectShape::Box,
            ring: 8.0,
            amount: 2.0,
            height: 0.0,
            smooth: 0.5,
            plane_from: PlaneFrom::ThreePoints,
            slope: 10.0,
            direction: 0.0,
        }
    }
}

/// An edit of the selected vertices the panel's buttons ask for (`edit::shapes::selection` does it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectionAction {
    /// Raise by the amount.
    Raise,
    /// Lower by the amount.
    Lower,
    /// Set to the height.
    SetHeight,
    /// Put onto the plane.
    OntoPlane,
    /// Smooth inside.
    Smooth,
}

/// The road tool's settings: what the `road` operation takes besides the points and heights.
#[derive(Debug, Clone, PartialEq)]
pub struct RoadOptions {
    /// Width of the level bed, yards.
    pub width: f32,
    /// Width of each shoulder easing back to the terrain, yards.
    pub shoulder: f32,
    /// A texture to paint along the road, if any.
    pub texture: Option<String>,
    /// Width the texture covers at full weight, yards (it fades out to the shoulders' edge).
    pub texture_width: f32,
}

impl Default for RoadOptions {
    fn default() -> Self {
        RoadOptions {
            width: 8.0,
            shoulder: 6.0,
            texture: None,
            texture_width: 8.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tool_table_is_in_the_enums_order_and_names_each_tool_once() {
        for (i, r) in TOOLS.iter().enumerate() {
            assert_eq!(r.tool as usize, i, "{:?} is out of place", r.tool);
        }
        // The last variant is the last row: no tool is missing from the table.
        assert_eq!(Tool::Triggers as usize, TOOLS.len() - 1);
        let names: std::collections::BTreeSet<_> = TOOLS.iter().map(|r| r.name).collect();
        assert_eq!(names.len(), TOOLS.len());
        // The panel lists every brush before the first tool that is not one.
        let first_other = TOOLS.iter().position(|r| !r.brush).unwrap();
        assert!(TOOLS[first_other..].iter().all(|r| !r.brush));
        // Every kind has a tool, and the bar lists every kind a tool has.
        for kind in ToolKind::ALL {
            assert_eq!(kind.first_tool().kind(), kind, "{kind:?}");
        }
        assert!(TOOLS.iter().all(|r| ToolKind::ALL.contains(&r.kind)));
    }

    #[test]
    fn a_kind_comes_back_to_its_last_mode() {
        let mut s = ToolSettings::default();
        assert_eq!(s.mode_of(ToolKind::Sculpt), Tool::Raise);
        s.choose(Tool::Flatten);
        s.choose(Tool::LiquidHeight);
        assert_eq!(s.tool, Tool::LiquidHeight);
        assert_eq!(s.mode_of(ToolKind::Sculpt), Tool::Flatten);
        assert_eq!(s.mode_of(ToolKind::Water), Tool::LiquidHeight);
        assert_eq!(s.mode_of(ToolKind::Road), Tool::Road);
        // Kept with the settings.
        let back: ToolSettings = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back.mode_of(ToolKind::Sculpt), Tool::Flatten);
    }
}
