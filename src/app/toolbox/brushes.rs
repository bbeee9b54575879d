//! The brush tools as the view drives them, liquids included: a press on the terrain starts a
//! stroke, holding drags it, releasing records it as one undo step; Ctrl+click with the area or
//! a liquid tool picks the area id or the liquid under the cursor instead, and with flatten the
//! ground's plane there (locked as the target). The object tool has
//! a component of its own (`object_tool`); both take the same frame of viewport input.
//!
//! As a component ([`Brushes`]) it also takes the tool panel's settings and the stamp image.
//!
//! Not for: what a dab does (`doc::editing`, `edit::ops`) or the tool panel (`ui::tool_panel`).

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::keymap::BrushAdjust;
use crate::command::{Command, Intent};
use crate::doc::editing::{Editing, Touched};
use std::collections::HashMap;

use crate::edit::biome::ObjectSources;
use crate::edit::objects::{ModelBox, NewUids};
use crate::edit::terrain::liquid::LiquidKind;
use crate::edit::tools::Tool;
use crate::edit::tools::ToolSettings;
use crate::model::{Map, TileCoord};
use crate::ui::viewport::{ViewportInput, WheelTarget};

/// The share of the set strength a pen pressed this hard (0..1) gives: never nothing, so that
/// a light touch still marks.
pub fn pressed(pressure: f32) -> f32 {
    pressure.clamp(0.05, 1.0)
}

/// Steps a brush setting `times` times (a wheel's notches may be fractions): the radius by an
/// eighth of itself each step within the panel's 1 to 200 yd, the strength by a twentieth of
/// the tool's range, the inner radius by a twentieth of the outer one.
pub fn adjust(settings: &mut ToolSettings, step: BrushAdjust, times: f32) {
    let b = &mut settings.brush;
    let (strength_max, _) = settings.tool.strength();
    match step {
        BrushAdjust::RadiusUp => b.radius *= 1.125f32.powf(times),
        BrushAdjust::RadiusDown => b.radius /= 1.125f32.powf(times),
        BrushAdjust::StrengthUp => b.strength += strength_max / 20.0 * times,
        BrushAdjust::StrengthDown => b.strength -= strength_max / 20.0 * times,
        BrushAdjust::InnerUp => b.inner_radius += b.radius / 20.0 * times,
        BrushAdjust::InnerDown => b.inner_radius -= b.radius / 20.0 * times,
    }
    b.radius = b.radius.clamp(1.0, 200.0);
    b.strength = b.strength.clamp(0.0, strength_max);
    b.inner_radius = b.inner_radius.clamp(0.0, b.radius);
}

/// What a frame of brush input did.
#[derive(Debug, Default)]
pub struct BrushFrame {
    /// Tiles under this frame's dabs, to redraw now.
    pub redraw: Vec<TileCoord>,
    /// Chunks a stroke that ended changed, to mark edited.
    pub touched: Touched,
    /// What the status line says, if anything.
    pub message: Option<String>,
}

/// Runs the chosen brush for this frame's `input` on `map`, the cursor at terrain point `at`;
/// `objects` gives models' boxes (objects follow the ground a stroke moves; a biome places its
/// palette's) and new objects' uids.
pub fn drive(
    editing: &mut Editing,
    map: &mut Map,
    at: Option<[f64; 3]>,
    input: &ViewportInput,
    objects: ObjectSources,
) -> BrushFrame {
    let mut frame = BrushFrame::default();
    if input.brush_pressed && !editing.is_stroking() {
        match at {
            Some(p) if editing.settings.tool == Tool::Area && input.slow => {
                if let Some(id) = Editing::pick_area(map, p[0], p[1]) {
                    editing.settings.area_id = id;
                }
            }
            Some(p) if editing.settings.tool == Tool::Flatten && input.slow => {
                let picked = editing.pick_flatten_plane(map, p[0], p[1]);
                frame.message = (!picked).then(|| "no loaded ground to take a plane from".into());
            }
            Some(p) if editing.settings.tool.is_liquid() && input.slow => {
                if let Some((h, t)) = Editing::pick_liquid(map, p[0], p[1]) {
                    let settings = &mut editing.settings;
                    settings.liquid_height = Some(h);
                    settings.liquid_kind = LiquidKind::of_type(t);
                    settings.liquid_type = (t != settings.liquid_kind.liquid_type()).then_some(t);
                }
            }
            Some(p) => {
                frame.redraw = editing.begin(map, p);
                frame.message = editing.refusal.clone();
            }
            None => {}
        }
    } else if editing.is_stroking()
        && input.brush_held
        && let Some(p) = at
    {
        frame.redraw = editing.drag(map, p);
    }
    if editing.is_stroking() && !input.brush_held {
        frame.touched = editing.end(map, at, objects);
        if !editing.refused.is_empty() {
            frame.message = Some(format!(
                "{} chunk(s) already show four textures: painting there was refused",
                editing.refused.len()
            ));
        }
    }
    frame
}

/// The brushes as a component: the tool panel's settings, the stamp, and the strokes the view
/// drives (the strokes and settings themselves are the document's).
#[derive(Debug, Default)]
pub struct Brushes {
    /// The Biome tool's palette models' placement boxes (`None`: a stand-in), read once per
    /// path as the Scatter tool reads them, so that its strokes place what scattering would.
    boxes: HashMap<String, Option<ModelBox>>,
}

impl Brushes {
    /// Takes the tool panel's settings, reading a newly chosen stamp's pixels.
    fn set_tools(cx: &mut AppCtx, settings: crate::edit::tools::ToolSettings) {
        cx.doc.editing.settings = settings;
        if let Err(e) = super::stamps::load(&mut cx.doc.editing.settings) {
            cx.shell.message = Some(e);
        }
    }
}

impl Component for Brushes {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::SetTools(settings) => Brushes::set_tools(cx, *settings),
            Intent::Command(Command::PickStamp) => {
                if let Some(path) = cx.shell.dialogs.pick_image() {
                    let mut settings = cx.doc.editing.settings.clone();
                    settings.brush.stamp = Some(crate::edit::terrain::brush::Stamp {
                        path: path.to_string_lossy().into_owned(),
                        mask: None,
                    });
                    Brushes::set_tools(cx, settings);
                }
            }
            Intent::SelectTool(tool) => cx.doc.editing.settings.choose(tool),
            Intent::SelectKind(kind) => {
                let settings = &mut cx.doc.editing.settings;
                settings.choose(settings.mode_of(kind));
            }
            Intent::AdjustBrush(step, times) => adjust(&mut cx.doc.editing.settings, step, times),
            other => return Some(other),
        }
        None
    }

    fn opened(&mut self, _cx: &mut AppCtx) {
        // Another map: its files may hold other models under the same paths.
        self.boxes.clear();
    }

    /// With a brush as the tool (not the object tool, Copy & paste, vertex selection or
    /// roads): this frame's dabs,
    /// redrawn at once, and a finished stroke's chunks marked.
    fn drive(&mut self, input: &ViewportInput, cx: &mut AppCtx) {
        // A script's strokes are the script tool's.
        if !cx.doc.editing.settings.tool.is_brush() || cx.doc.editing.settings.tool == Tool::Script
        {
            return;
        }
        if cx.doc.session.is_none() {
            return;
        }
        if cx.doc.editing.settings.tool == Tool::Biome {
            let palette = cx.doc.editing.settings.biome.palette.iter();
            super::operation_runs::cache_boxes(
                cx,
                palette.map(|m| m.model.as_str()),
                &mut self.boxes,
            );
        }
        let on_disk = super::operation_runs::disk_uids(cx);
        let uids = NewUids {
            range: cx.doc.uids.range(),
            on_disk: on_disk.as_deref(),
        };
        let Some(s) = &mut cx.doc.session else {
            return;
        };
        let scene = &cx.streams.objects;
        let boxes = &self.boxes;
        let model_box = |name: &str| match boxes.get(name) {
            Some(b) => *b,
            None => scene.model_box(name),
        };
        if let Some((target, notches)) = input.brush_wheel {
            let step = match (target, notches > 0.0) {
                (WheelTarget::Radius, true) => BrushAdjust::RadiusUp,
                (WheelTarget::Radius, false) => BrushAdjust::RadiusDown,
                (WheelTarget::Strength, true) => BrushAdjust::StrengthUp,
                (WheelTarget::Strength, false) => BrushAdjust::StrengthDown,
                (WheelTarget::Inner, true) => BrushAdjust::InnerUp,
                (WheelTarget::Inner, false) => BrushAdjust::InnerDown,
            };
            adjust(&mut cx.doc.editing.settings, step, notches.abs());
        }
        let at = cx.view.hover.map(|p| p.world);
        // A pen's pressure scales the strength of this frame's dabs only: the panel keeps
        // the strength the user set.
        let pressure = input.pressure.filter(|_| cx.settings.input.pen_pressure);
        let set = cx.doc.editing.settings.brush.strength;
        if let Some(p) = pressure {
            cx.doc.editing.settings.brush.strength = set * pressed(p);
        }
        let frame = drive(
            &mut cx.doc.editing,
            &mut s.map,
            at,
            input,
            (&model_box, &uids),
        );
        cx.doc.editing.settings.brush.strength = set;
        if frame.message.is_some() {
            cx.shell.message = frame.message;
        }
        cx.redraw(frame.redraw.into_iter().collect());
        cx.after_edit(frame.touched);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brush_steps_stay_within_the_panels_ranges() {
        let mut s = ToolSettings::default();
        let r = s.brush.radius;
        adjust(&mut s, BrushAdjust::RadiusUp, 1.0);
        assert!((s.brush.radius - r * 1.125).abs() < 1e-4);
        adjust(&mut s, BrushAdjust::RadiusDown, 1.0);
        assert!((s.brush.radius - r).abs() < 1e-4);
        adjust(&mut s, BrushAdjust::StrengthUp, 1000.0);
        assert_eq!(s.brush.strength, 20.0, "raise tops out at 20 yd");
        adjust(&mut s, BrushAdjust::InnerUp, 1000.0);
        assert_eq!(s.brush.inner_radius, s.brush.radius);
        adjust(&mut s, BrushAdjust::RadiusDown, 1000.0);
        assert_eq!(s.brush.radius, 1.0);
        assert!(s.brush.inner_radius <= 1.0);
        assert_eq!(pressed(0.5), 0.5);
        assert_eq!(pressed(0.0), 0.05);
    }
}
