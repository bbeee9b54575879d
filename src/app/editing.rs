//! The edit tools as the editor drives them: the chosen tool and brush, the stroke under way
//! while the mouse button is held, and the undo history. A stroke's dabs go through
//! `edit::ops::dab`, the same code `loam apply` runs, and a stroke becomes one undo step.
//!
//! Not for: widgets (see `ui::tools`, `ui::history`) or GL (the app re-sends changed tiles).

use serde::{Deserialize, Serialize};

use crate::edit::liquid::{self, LiquidEdit, LiquidKind, LiquidStyle, Surface};
use crate::edit::ops::{self, Op};
use crate::edit::sculpt::{FlattenMode, Sculpt};
use crate::edit::seams::{self, Stitched};
use crate::edit::{Brush, History, Stroke};
use crate::model::coords;
use crate::model::{Map, TileCoord};

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
    /// Select, edit and delete doodads and WMOs (not a brush).
    Objects,
}

impl Tool {
    /// Every brush tool, in the order the tool panel lists them (the object tool follows).
    pub const ALL: [Tool; 20] = [
        Tool::Raise,
        Tool::Lower,
        Tool::Flatten,
        Tool::Smooth,
        Tool::Noise,
        Tool::Ramp,
        Tool::Paint,
        Tool::EraseTexture,
        Tool::HoleAdd,
        Tool::HoleRemove,
        Tool::Shade,
        Tool::EraseShade,
        Tool::Area,
        Tool::Impassable,
        Tool::Passable,
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
            Tool::HoleAdd => "Add holes",
            Tool::HoleRemove => "Remove holes",
            Tool::Shade => "Shade",
            Tool::EraseShade => "Erase shade",
            Tool::Area => "Area",
            Tool::Impassable => "Impassable",
            Tool::Passable => "Passable",
            Tool::LiquidAdd => "Add liquid",
            Tool::LiquidRemove => "Remove liquid",
            Tool::LiquidHeight => "Liquid height",
            Tool::River => "River",
            Tool::LiquidFlags => "Liquid flags",
            Tool::Objects => "Objects",
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
}

/// Everything the tool panel sets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSettings {
    /// The chosen tool.
    pub tool: Tool,
    /// The brush.
    pub brush: Brush,
    /// Texture path for paint and erase.
    pub texture: String,
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
    /// Noise seed.
    pub noise_seed: u32,
    /// Noise wavelength in yards.
    pub noise_scale: f32,
    /// Sculpting moves the objects standing on the changed ground up or down with it.
    #[serde(default)]
    pub objects_follow_ground: bool,
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
            opacity: 0.5,
            color: [230, 150, 80],
            area_id: 0,
            flatten_height: None,
            flatten_mode: FlattenMode::Both,
            noise_seed: 1,
            noise_scale: 20.0,
            objects_follow_ground: false,
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
            ops::Tool::Flatten => Tool::Flatten,
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
            opacity: op.opacity.unwrap_or(base.opacity),
            color: op.color.unwrap_or(base.color),
            area_id: op.area_id.unwrap_or(base.area_id),
            flatten_height: if liquid_tool {
                base.flatten_height
            } else {
                op.height.or(base.flatten_height)
            },
            flatten_mode: op.mode.unwrap_or(base.flatten_mode),
            noise_seed: op.seed.unwrap_or(base.noise_seed),
            noise_scale: op.scale.unwrap_or(base.noise_scale),
            objects_follow_ground: base.objects_follow_ground,
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
    fn op(&self) -> Op {
        let tool = match self.tool {
            Tool::Raise => ops::Tool::Raise,
            Tool::Lower => ops::Tool::Lower,
            Tool::Flatten | Tool::Ramp => ops::Tool::Flatten,
            Tool::Smooth => ops::Tool::Smooth,
            Tool::Noise => ops::Tool::Noise,
            Tool::Paint => ops::Tool::Paint,
            Tool::EraseTexture => ops::Tool::EraseTexture,
            Tool::HoleAdd => ops::Tool::HoleAdd,
            Tool::HoleRemove => ops::Tool::HoleRemove,
            Tool::Shade | Tool::EraseShade => ops::Tool::Shade,
            Tool::Area => ops::Tool::Area,
            Tool::Impassable | Tool::Passable => ops::Tool::Impassable,
            Tool::LiquidAdd | Tool::River => ops::Tool::LiquidAdd,
            Tool::LiquidRemove => ops::Tool::LiquidRemove,
            Tool::LiquidHeight => ops::Tool::LiquidHeight,
            Tool::LiquidFlags => ops::Tool::LiquidFlags,
            // Never stroked: the app sends the object tool's clicks to `object_tool`, and
            // `Editing::begin` refuses it.
            Tool::Objects => ops::Tool::Raise,
        };
        let b = self.brush;
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
            seed: None,
            scale: None,
            texture: Some(self.texture.clone()),
            opacity: Some(self.opacity),
            color: (self.tool == Tool::Shade).then_some(self.color),
            area_id: Some(self.area_id),
            on: Some(self.tool == Tool::Impassable),
            kind: Some(self.liquid_kind),
            liquid_type: self.liquid_type,
            end_height: None,
            deep: Some(self.liquid_deep),
            fishable: Some(self.liquid_fishable),
        }
    }

    /// The liquid edit a stroke of a liquid tool starting at world `at` makes; the river's
    /// slope is set when the drag ends.
    fn liquid_edit(&self, map: &Map, at: [f64; 3]) -> Option<LiquidEdit> {
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

/// A stroke while the mouse button is held.
struct Active {
    stroke: Stroke,
    op: Op,
    sculpt: Option<Sculpt>,
    liquid: Option<LiquidEdit>,
    last: [f64; 2],
    start: [f64; 3],
}

/// The editor's editing state: tool settings, the stroke under way, the history.
#[derive(Default)]
pub struct Editing {
    /// What the tool panel set.
    pub settings: ToolSettings,
    /// Undo and redo.
    pub history: History,
    active: Option<Active>,
    /// Chunks a paint stroke could not paint (four layers, none free), for the status bar.
    pub refused: Vec<(TileCoord, usize)>,
    /// The structure new liquid takes: the open map's generation's.
    pub liquid_style: LiquidStyle,
}

/// Chunks changed by an action, for the app to re-send and mark edited.
pub type Touched = Vec<(TileCoord, usize)>;

impl Editing {
    /// A fresh history with these tool settings (a newly opened map).
    pub fn with_settings(settings: ToolSettings) -> Editing {
        Editing {
            settings,
            ..Editing::default()
        }
    }

    /// True while a stroke is under way.
    pub fn is_stroking(&self) -> bool {
        self.active.is_some()
    }

    /// Starts a stroke at world `at` (x, y, terrain height) and lays its first dab (the ramp
    /// lays its dabs when the drag ends).
    pub fn begin(&mut self, map: &mut Map, at: [f64; 3]) -> Vec<TileCoord> {
        let s = &self.settings;
        if s.tool == Tool::Objects {
            return Vec::new();
        }
        let sculpt = match s.tool {
            Tool::Raise => Some(Sculpt::Raise),
            Tool::Lower => Some(Sculpt::Lower),
            Tool::Smooth => Some(Sculpt::Smooth),
            Tool::Noise => Some(Sculpt::Noise {
                seed: s.noise_seed,
                scale: s.noise_scale,
            }),
            Tool::Flatten => Some(Sculpt::Flatten {
                target: s.flatten_height.unwrap_or(at[2] as f32),
                mode: s.flatten_mode,
            }),
            _ => None,
        };
        self.refused.clear();
        self.active = Some(Active {
            stroke: Stroke::new(s.tool.name()),
            op: s.op(),
            sculpt,
            liquid: s.liquid_edit(map, at),
            last: [at[0], at[1]],
            start: at,
        });
        if matches!(s.tool, Tool::Ramp | Tool::River) {
            return Vec::new();
        }
        self.dab(map, [at[0], at[1]])
    }

    /// Continues the stroke to world `at`: dabs spaced along the way. Returns the tiles to redraw.
    pub fn drag(&mut self, map: &mut Map, at: [f64; 3]) -> Vec<TileCoord> {
        let Some(a) = &mut self.active else {
            return Vec::new();
        };
        if matches!(self.settings.tool, Tool::Ramp | Tool::River) {
            return Vec::new();
        }
        let points = self.settings.brush.dabs_between(a.last, [at[0], at[1]]);
        a.last = [at[0], at[1]];
        let mut tiles: Vec<TileCoord> = Vec::new();
        for p in points {
            for t in self.dab(map, p) {
                if !tiles.contains(&t) {
                    tiles.push(t);
                }
            }
        }
        tiles
    }

    /// One dab; returns the tiles it can have changed, for the app to redraw: those under its
    /// footprint, widened by a chunk for the normals of the vertices around the rim.
    fn dab(&mut self, map: &mut Map, p: [f64; 2]) -> Vec<TileCoord> {
        let Some(a) = &mut self.active else {
            return Vec::new();
        };
        match a.liquid {
            Some(edit) => ops::liquid_dab(
                map,
                &a.op,
                edit,
                self.liquid_style,
                p[0],
                p[1],
                &mut a.stroke,
            ),
            None => ops::dab(map, &a.op, a.sculpt, p[0], p[1], &mut a.stroke),
        }
        let reach = a.op.radius as f64 + coords::CHUNK_SIZE;
        let mut tiles = Vec::new();
        for (dx, dy) in [
            (-reach, -reach),
            (-reach, reach),
            (reach, -reach),
            (reach, reach),
        ] {
            if let Some(t) = TileCoord::containing(p[0] + dx, p[1] + dy)
                && !tiles.contains(&t)
            {
                tiles.push(t);
            }
        }
        tiles
    }

    /// Ends the stroke at world `at` and records it as one undo step; returns the chunks it
    /// changed (none when it changed nothing).
    pub fn end(
        &mut self,
        map: &mut Map,
        at: Option<[f64; 3]>,
        model_box: &dyn Fn(&str) -> Option<crate::edit::objects::ModelBox>,
    ) -> Touched {
        let Some(mut a) = self.active.take() else {
            return Vec::new();
        };
        if self.settings.tool == Tool::Ramp
            && let Some(end) = at
        {
            let ramp = Sculpt::Ramp {
                from: a.start,
                to: end,
            };
            let mut points = vec![[a.start[0], a.start[1]]];
            points.extend(
                self.settings
                    .brush
                    .dabs_between([a.start[0], a.start[1]], [end[0], end[1]]),
            );
            for p in points {
                ops::dab(map, &a.op, Some(ramp), p[0], p[1], &mut a.stroke);
            }
        }
        if self.settings.tool == Tool::River
            && let (
                Some(end),
                Some(LiquidEdit::Add {
                    liquid_type,
                    surface,
                }),
            ) = (at, a.liquid)
        {
            // The surface falls from the height at the press (typed, or under it) to the
            // liquid surface or ground under the release.
            let from = surface.height_at(a.start[0], a.start[1]) as f64;
            let to = liquid::height_under(map, end[0], end[1]).map_or(end[2], f64::from);
            let edit = LiquidEdit::Add {
                liquid_type,
                surface: Surface::Slope {
                    from: [a.start[0], a.start[1], from],
                    to: [end[0], end[1], to],
                },
            };
            let mut points = vec![[a.start[0], a.start[1]]];
            points.extend(
                self.settings
                    .brush
                    .dabs_between([a.start[0], a.start[1]], [end[0], end[1]]),
            );
            for p in points {
                ops::liquid_dab(
                    map,
                    &a.op,
                    edit,
                    self.liquid_style,
                    p[0],
                    p[1],
                    &mut a.stroke,
                );
            }
        }
        self.refused = std::mem::take(&mut a.stroke.refused);
        match a.stroke.finish(map) {
            Some(mut edit) => {
                let sculpting = matches!(
                    self.settings.tool,
                    Tool::Raise
                        | Tool::Lower
                        | Tool::Flatten
                        | Tool::Smooth
                        | Tool::Noise
                        | Tool::Ramp
                );
                if self.settings.objects_follow_ground && sculpting {
                    crate::edit::objects::follow_ground(map, &mut edit, model_box);
                }
                let touched = edit.touched();
                self.history.push(map, edit);
                touched
            }
            None => Vec::new(),
        }
    }

    /// Stitches the seams of the loaded tiles (`edit::seams`) as one undo step; returns what it
    /// did and the chunks it changed. Nothing happens while a stroke is under way.
    pub fn stitch_seams(&mut self, map: &mut Map) -> (Stitched, Touched) {
        if self.is_stroking() {
            return (Stitched::default(), Vec::new());
        }
        let (stitched, edit) = seams::stitch_step(map);
        let touched = match edit {
            Some(edit) => {
                let touched = edit.touched();
                self.history.push(map, edit);
                touched
            }
            None => Vec::new(),
        };
        (stitched, touched)
    }

    /// Undoes the last step.
    pub fn undo(&mut self, map: &mut Map) -> Touched {
        self.history.undo(map).unwrap_or_default()
    }

    /// Redoes the next step.
    pub fn redo(&mut self, map: &mut Map) -> Touched {
        self.history.redo(map).unwrap_or_default()
    }

    /// Undoes or redoes until `applied` steps are applied.
    pub fn go_to(&mut self, map: &mut Map, applied: usize) -> Touched {
        let mut touched = Vec::new();
        loop {
            let (_, head) = self.history.labels();
            if head > applied {
                touched.extend(self.undo(map));
            } else if head < applied && self.history.can_redo() {
                touched.extend(self.redo(map));
            } else {
                break;
            }
        }
        touched
    }

    /// The liquid surface height and LiquidType under world (x, y), for the liquid tools'
    /// picker (Ctrl+click).
    pub fn pick_liquid(map: &Map, x: f64, y: f64) -> Option<(f32, u16)> {
        liquid::surface_at(map, x, y)
    }

    /// The area id under world (x, y), for the area tool's picker.
    pub fn pick_area(map: &Map, x: f64, y: f64) -> Option<u32> {
        crate::edit::cells::pick_area(map, x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scripted_operation_shows_as_its_tool_and_settings() {
        let file = ops::parse(
            r#"{"ops": [{"tool": "noise", "points": [[0, 0]], "radius": 50, "strength": 12, "seed": 3, "scale": 12}]}"#,
        )
        .unwrap();
        let s = ToolSettings::for_op(file.ops[0].brush().unwrap(), ToolSettings::default());
        assert_eq!(
            (s.tool, s.noise_seed, s.noise_scale),
            (Tool::Noise, 3, 12.0)
        );
        assert_eq!((s.brush.radius, s.brush.strength), (50.0, 12.0));
        let erase =
            ops::parse(r#"{"ops": [{"tool": "shade", "points": [[0, 0]], "radius": 5}]}"#).unwrap();
        assert_eq!(
            ToolSettings::for_op(erase.ops[0].brush().unwrap(), ToolSettings::default()).tool,
            Tool::EraseShade
        );
    }
}
