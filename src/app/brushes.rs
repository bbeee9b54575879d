//! The brush tools as the view drives them, liquids included: a press on the terrain starts a
//! stroke, holding drags it, releasing records it as one undo step; Ctrl+click with the area or
//! a liquid tool picks the area id or the liquid under the cursor instead, and with flatten the
//! ground's plane there (locked as the target). The object tool has
//! a component of its own (`object_tool`); both take the same frame of viewport input.
//!
//! As a component ([`Brushes`]) it also takes the tool panel's settings and the stamp image.
//!
//! Not for: what a dab does (`doc::editing`, `edit::ops`) or the tool panel (`ui::tools`).

use super::component::Component;
use super::context::AppCtx;
use crate::command::{Command, Intent};
use crate::doc::editing::{Editing, Touched};
use crate::edit::liquid::LiquidKind;
use crate::edit::objects::ModelBox;
use crate::edit::tools::Tool;
use crate::model::{Map, TileCoord};
use crate::ui::viewport::ViewportInput;

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
/// `model_box` gives placed models' boxes (objects follow the ground a stroke moves).
pub fn drive(
    editing: &mut Editing,
    map: &mut Map,
    at: Option<[f64; 3]>,
    input: &ViewportInput,
    model_box: &dyn Fn(&str) -> Option<ModelBox>,
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
            Some(p) => frame.redraw = editing.begin(map, p),
            None => {}
        }
    } else if editing.is_stroking()
        && input.brush_held
        && let Some(p) = at
    {
        frame.redraw = editing.drag(map, p);
    }
    if editing.is_stroking() && !input.brush_held {
        frame.touched = editing.end(map, at, model_box);
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
pub struct Brushes;

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
                    settings.brush.stamp = Some(crate::edit::brush::Stamp {
                        path: path.to_string_lossy().into_owned(),
                        mask: None,
                    });
                    Brushes::set_tools(cx, settings);
                }
            }
            other => return Some(other),
        }
        None
    }

    /// With a brush as the tool (not the object tool, Copy & paste, vertex selection or
    /// roads): this frame's dabs,
    /// redrawn at once, and a finished stroke's chunks marked.
    fn drive(&mut self, input: &ViewportInput, cx: &mut AppCtx) {
        if !cx.doc.editing.settings.tool.is_brush() {
            return;
        }
        let Some(s) = &mut cx.doc.session else {
            return;
        };
        let scene = &cx.streams.objects;
        let model_box = |name: &str| scene.model_box(name);
        let at = cx.view.hover.map(|p| p.world);
        let frame = drive(&mut cx.doc.editing, &mut s.map, at, input, &model_box);
        if frame.message.is_some() {
            cx.shell.message = frame.message;
        }
        cx.redraw(frame.redraw.into_iter().collect());
        cx.after_edit(frame.touched);
    }
}
