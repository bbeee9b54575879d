//! The Edit menu's steps over the loaded map as a component: undo, redo and going to a step
//! of the history, stitching the seams, and baking shadows (everywhere, or in the Copy & paste
//! tool's selection) with the sun and models the menu sets; each change one undo step.
//!
//! Not for: the edits themselves (`doc::editing`, `edit::terrain::seams`, `edit::derived::shadows`) or brush
//! strokes (`app::toolbox::brushes`).

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::{Command, Intent};
use crate::doc::editing::{Editing, Touched};
use crate::model::TileCoord;

/// The Edit menu's component (the history is the document's).
#[derive(Debug, Default)]
pub struct MapEdits;

impl Component for MapEdits {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Command(Command::Undo) => history_step(cx, |e, m| e.undo(m)),
            Intent::Command(Command::Redo) => history_step(cx, |e, m| e.redo(m)),
            Intent::HistoryGoTo(n) => history_step(cx, |e, m| e.go_to(m, n)),
            Intent::Command(Command::StitchSeams) => stitch_seams(cx),
            Intent::Command(Command::BakeShadows) => bake_shadows(cx, None),
            Intent::BakeShadowsIn(chunks) => bake_shadows(cx, Some(&chunks)),
            Intent::SetShadowSun(sun) => cx.doc.editing.settings.shadow_sun = sun,
            Intent::ShadowModels(on) => cx.doc.editing.settings.shadow_models = on,
            other => return Some(other),
        }
        None
    }
}

/// Undoes or redoes through `step`, then re-sends and marks what changed; waits while a
/// stroke or a drag is under way.
fn history_step(
    cx: &mut AppCtx,
    step: impl FnOnce(&mut Editing, &mut crate::model::Map) -> Touched,
) {
    let Some(s) = &mut cx.doc.session else {
        return;
    };
    if cx.doc.editing.is_stroking() || cx.busy {
        return;
    }
    let touched = step(&mut cx.doc.editing, &mut s.map);
    cx.after_edit(touched);
}

/// Stitches the seams of the loaded tiles as one undo step and says how many vertices changed.
fn stitch_seams(cx: &mut AppCtx) {
    let Some(s) = &mut cx.doc.session else {
        return;
    };
    if cx.doc.editing.is_stroking() {
        return;
    }
    let (stitched, touched) = cx.doc.editing.stitch_seams(&mut s.map);
    cx.shell.message = Some(if stitched.vertices == 0 {
        "Stitch seams: no seams among the loaded tiles".to_string()
    } else {
        format!(
            "Stitch seams: {} vertices changed (largest change {:.3} yd)",
            stitched.vertices, stitched.largest
        )
    });
    cx.after_edit(touched);
}

/// Bakes the shadow maps of `chunks` (a selection), or of the loaded tiles without, as one
/// undo step and says what changed.
fn bake_shadows(cx: &mut AppCtx, chunks: Option<&[(TileCoord, usize)]>) {
    // The models' files: the map's folder, then the client.
    let source = cx.doc.byte_source();
    let cache = crate::assets::models::ShapeCache::new(move |p| source(p).ok().flatten());
    let Some(s) = &mut cx.doc.session else {
        return;
    };
    if cx.doc.editing.is_stroking() {
        return;
    }
    let shapes = |p: &str| cache.get(p);
    let ((baked, touched), cast) =
        cx.doc
            .editing
            .bake_shadows_of(&mut s.map, chunks, Some(&shapes));
    let models = cast.map_or(String::new(), |c| {
        let missing = if c.missing.is_empty() {
            String::new()
        } else {
            format!(" ({} model(s) not found)", c.missing.len())
        };
        format!("; models: {} cast{missing}", c.objects)
    });
    cx.shell.message = Some(format!(
        "Bake shadows: {} chunks baked, {} changed, {:.1}% of cells in shadow{models}",
        baked.chunks,
        baked.changed.len(),
        100.0 * baked.shadowed as f64 / (baked.chunks.max(1) as f64 * 4096.0)
    ));
    cx.after_edit(touched);
}
