//! The brush tools as the view drives them, liquids included: a press on the terrain starts a
//! stroke, holding drags it, releasing records it as one undo step; Ctrl+click with the area or
//! a liquid tool picks the area id or the liquid under the cursor instead. The object tool has
//! a component of its own (`object_tool`); both take the same frame of viewport input.
//!
//! Not for: what a dab does (`doc::editing`, `edit::ops`) or the tool panel (`ui::tools`).

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
