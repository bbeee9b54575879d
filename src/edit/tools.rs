//! The tools' settings as the tool panel shows them and the intents carry them: which tool,
//! the brush, and each tool's own values; how a click places a model. Plain data with the
//! conversion to the operations `edit` runs, so that the panel, the app and `loam apply` agree.
//!
//! Not for: running strokes (`doc::editing`) or drawing the panel (`ui::tools`).

use serde::{Deserialize, Serialize};

use crate::edit::Brush;
use crate::edit::liquid::{self, LiquidEdit, LiquidKind, Surface};
use crate::edit::ops::{self, Op};
use crate::edit::sculpt::FlattenMode;
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
    /// Paint the chosen texture.
    Paint,
    /// Erase the chosen texture.
    EraseTexture,
    /// Swap one texture for the chosen one in the chunks under the brush, alpha kept.
    SwapTexture,
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
    /// Select a rectangle of ground, copy it and paste it elsewhere (not a brush).
    CopyPaste,
    /// Select, edit and delete doodads and WMOs (not a brush).
    Objects,
    /// Scatter a palette's models under the brush, or erase objects (an object brush, its
    /// strokes run as `scatter` / `erase_objects` operations).
    Scatter,
    /// Select terrain vertices (box, lasso or brush) and raise, set, plane or smooth them
    /// (not a brush: `app::vertex_selection`).
    SelectVertices,
    /// Lay a road along a curve through clicked points (not a brush: `app::road_tool`).
    Road,
}

impl Tool {
    /// Every brush tool, in the order the tool panel lists them (the object tool follows).
    pub const ALL: [Tool; 23] = [
        Tool::Raise,
        Tool::Lower,
        Tool::Flatten,
        Tool::Smooth,
        Tool::Noise,
        Tool::Ramp,
        Tool::Paint,
        Tool::EraseTexture,
        Tool::SwapTexture,
        Tool::HoleAdd,
        Tool::HoleRemove,
        Tool::Shade,
        Tool::EraseShade,
        Tool::Area,
        Tool::Impassable,
        Tool::Passable,
        Tool::EffectsOff,
        Tool::EffectsOn,
        Tool::LiquidAdd,
        Tool::LiquidRemove,
        Tool::LiquidHeight,
        Tool::River,
        Tool::LiquidFlags,
    ];

    /// The name shown on its button and in the history.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Raise => "Raise",
            Tool::Lower => "Lower",
            Tool::Flatten => "Flatten",
            Tool::Smooth => "Smooth",
            Tool::Noise => "Noise",
            Tool::Ramp => "Ramp",
            Tool::Paint => "Paint",
            Tool::EraseTexture => "Erase texture",
            Tool::SwapTexture => "Swap texture",
            Tool::HoleAdd => "Add holes",
            Tool::HoleRemove => "Remove holes",
            Tool::Shade => "Shade",
            Tool::EraseShade => "Erase shade",
            Tool::Area => "Area",
            Tool::Impassable => "Impassable",
            Tool::Passable => "Passable",
            Tool::EffectsOff => "No ground effects",
            Tool::EffectsOn => "Ground effects",
            Tool::LiquidAdd => "Add liquid",
            Tool::LiquidRemove => "Remove liquid",
            Tool::LiquidHeight => "Liquid height",
            Tool::River => "River",
            Tool::LiquidFlags => "Liquid flags",
            Tool::CopyPaste => "Copy & paste",
            Tool::Objects => "Objects",
            Tool::Scatter => "Scatter",
            Tool::SelectVertices => "Select vertices",
            Tool::Road => "Road",
        }
    }

    /// True for the liquid tools.
    pub fn is_liquid(self) -> bool {
        matches!(
            self,
            Tool::LiquidAdd
                | Tool::LiquidRemove
                | Tool::LiquidHeight
                | Tool::River
                | Tool::LiquidFlags
        )
    }

    /// The tools that are not brushes, each driven by its own app component, in the order
    /// the tool panel lists them after the brushes.
    pub const OTHERS: [Tool; 5] = [
        Tool::Objects,
        Tool::CopyPaste,
        Tool::Scatter,
        Tool::SelectVertices,
        Tool::Road,
    ];

    /// True for the brushes (a press starts a stroke of dabs); false for [`Tool::OTHERS`].
    pub fn is_brush(self) -> bool {
        !Tool::OTHERS.contains(&self)
    }
}

/// Everything the tool panel sets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSettings {
    /// The chosen tool.
    pub tool: Tool,
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
    /// them, again at `shadow_sun` (`edit::shadows`), in the same undo step.
    #[serde(default)]
    pub rebake_shadows: bool,
    /// The sun Edit ▸ Bake shadows and the re-bake after sculpting use (default: 315° 55°,
    /// docs/shadows.md).
    #[serde(default)]
    pub shadow_sun: crate::edit::shadows::Sun,
    /// Edit ▸ Bake shadows adds the shadows the placed models cast (their files read from the
    /// map's folder and the client).
    #[serde(default)]
    pub shadow_models: bool,
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
}

/// Serde's default for settings that start on.
fn yes() -> bool {
    true
}

impl Default for ToolSettings {
    fn default() -> Self {
        ToolSettings {
            tool: Tool::Raise,
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
            shadow_sun: crate::edit::shadows::Sun::DEFAULT,
            shadow_models: false,
            liquid_kind: LiquidKind::Water,
            liquid_type: None,
            liquid_height: None,
            liquid_deep: false,
            liquid_fishable: true,
        }
    }
}

impl ToolSettings {
    /// The settings that show `op`'s tool and brush, taking from `base` what `op` leaves out.
    pub fn for_op(op: &Op, base: ToolSettings) -> ToolSettings {
        let tool = match op.tool {
            ops::Tool::Raise => Tool::Raise,
            ops::Tool::Lower => Tool::Lower,
            // The editor's flatten tool shows a plane as its nearest setting until it has one.
            ops::Tool::Flatten | ops::Tool::Plane => Tool::Flatten,
            ops::Tool::Smooth => Tool::Smooth,
            ops::Tool::Ramp => Tool::Ramp,
            ops::Tool::Noise => Tool::Noise,
            ops::Tool::Paint => Tool::Paint,
            ops::Tool::EraseTexture => Tool::EraseTexture,
            ops::Tool::HoleAdd => Tool::HoleAdd,
            ops::Tool::HoleRemove => Tool::HoleRemove,
            ops::Tool::Shade if op.color.is_none() => Tool::EraseShade,
            ops::Tool::Shade => Tool::Shade,
            ops::Tool::Area => Tool::Area,
            ops::Tool::Impassable if op.on == Some(false) => Tool::Passable,
            ops::Tool::Impassable => Tool::Impassable,
            ops::Tool::GroundEffects if op.on == Some(false) => Tool::EffectsOff,
            ops::Tool::GroundEffects => Tool::EffectsOn,
            ops::Tool::LiquidAdd if op.end_height.is_some() => Tool::River,
            ops::Tool::LiquidAdd => Tool::LiquidAdd,
            ops::Tool::LiquidRemove => Tool::LiquidRemove,
            ops::Tool::LiquidHeight => Tool::LiquidHeight,
            ops::Tool::LiquidFlags => Tool::LiquidFlags,
        };
        let liquid_tool = tool.is_liquid();
        ToolSettings {
            tool,
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
            liquid_kind: op.kind.unwrap_or(base.liquid_kind),
            liquid_type: op.liquid_type.or(base.liquid_type),
            liquid_height: if liquid_tool {
                op.height.or(base.liquid_height)
            } else {
                base.liquid_height
            },
            liquid_deep: op.deep.unwrap_or(base.liquid_deep),
            liquid_fishable: op.fishable.unwrap_or(base.liquid_fishable),
        }
    }

    /// The operation one dab of this tool performs, as `loam apply` would read it from JSON.
    pub fn op(&self) -> Op {
        let tool = match self.tool {
            Tool::Raise => ops::Tool::Raise,
            Tool::Lower => ops::Tool::Lower,
            Tool::Flatten | Tool::Ramp => ops::Tool::Flatten,
            Tool::Smooth => ops::Tool::Smooth,
            Tool::Noise => ops::Tool::Noise,
            Tool::Paint => ops::Tool::Paint,
            Tool::EraseTexture => ops::Tool::EraseTexture,
            // Its dabs are `texture_ops::swap_dab` (`doc::editing`), not an `ops::dab`; the op
            // carries only the brush.
            Tool::SwapTexture => ops::Tool::EraseTexture,
            Tool::HoleAdd => ops::Tool::HoleAdd,
            Tool::HoleRemove => ops::Tool::HoleRemove,
            Tool::Shade | Tool::EraseShade => ops::Tool::Shade,
            Tool::Area => ops::Tool::Area,
            Tool::Impassable | Tool::Passable => ops::Tool::Impassable,
            Tool::EffectsOff | Tool::EffectsOn => ops::Tool::GroundEffects,
            Tool::LiquidAdd | Tool::River => ops::Tool::LiquidAdd,
            Tool::LiquidRemove => ops::Tool::LiquidRemove,
            Tool::LiquidHeight => ops::Tool::LiquidHeight,
            Tool::LiquidFlags => ops::Tool::LiquidFlags,
            // Never stroked: the app sends the object tool's clicks to `object_tool`, and
            // `Editing::begin` refuses it.
            Tool::Objects | Tool::CopyPaste | Tool::Scatter | Tool::SelectVertices | Tool::Road => {
                ops::Tool::Raise
            }
        };
        let b = &self.brush;
        let stamp = b
            .stamp
            .as_ref()
            .filter(|_| ops::Tool::STAMPED.contains(&tool));
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

/// An edit of the selected vertices the panel's buttons ask for (`edit::selection` does it).
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
