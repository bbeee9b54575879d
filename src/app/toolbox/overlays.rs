//! What the 3D view draws over the terrain this frame: the View menu's grids, tints and
//! liquids, the brush circle (at the cursor, or where a script's last stroke ended), and the
//! Copy & paste tool's outline in its place.
//!
//! Not for: drawing them (`render::terrain`) or the tools' own state.

use super::terrain_clipboard::TerrainClipboard;
use crate::app::context::AppCtx;
use crate::doc::editing::Tool;
use crate::render::frame::Overlays;

/// The overlays for the view as `cx` stands, with `clipboard`'s outline under the Copy &
/// paste tool.
pub fn overlays(cx: &AppCtx, clipboard: &TerrainClipboard) -> Overlays {
    let copy_paste = cx.doc.editing.settings.tool == Tool::CopyPaste;
    let toggles = &cx.settings.view;
    Overlays {
        rect: copy_paste
            .then(|| {
                let hover = cx.view.hover.map(|p| p.world).or(cx.view.shown_cursor);
                clipboard.outline(hover)
            })
            .flatten(),
        chunk_grid: toggles.chunk_grid,
        tile_grid: toggles.tile_grid,
        layer_count: toggles.layer_count,
        areas: toggles.area_overlay,
        ground_effects: toggles.effects_overlay,
        liquids: toggles.liquids,
        brush: cx
            .view
            .hover
            // A screenshot shows where a script's stroke ended, not where the mouse is.
            .filter(|_| !cx.shell.screenshot)
            .map(|p| p.world)
            .or(cx.view.shown_cursor)
            .filter(|_| !copy_paste)
            .map(|p| {
                (
                    [p[0] as f32, p[1] as f32],
                    cx.doc.editing.settings.brush.radius,
                )
            }),
    }
}

/// Paints a shaping tool's marks (points, curves) over the view while `tool` is the tool:
/// `marks` works them out from the open map and the camera's view-projection.
pub fn paint_tool_marks(
    ui: &egui::Ui,
    view: egui::Rect,
    cx: &AppCtx,
    tool: Tool,
    marks: impl FnOnce(&crate::model::Map, glam::Mat4) -> crate::render::marks::Marks,
) {
    if cx.doc.editing.settings.tool != tool {
        return;
    }
    if let Some(s) = &cx.doc.session {
        let aspect = view.width() / view.height().max(1.0);
        let marks = marks(&s.map, cx.view.camera.view_projection(aspect));
        crate::ui::marks::paint(ui.painter(), view, &marks);
    }
}
