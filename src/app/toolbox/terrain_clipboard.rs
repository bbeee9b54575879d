//! The Copy & paste tool as a component: the rectangle dragged on the ground, the clipboard
//! (kept when another map opens, so that ground moves between maps), the paste options, and
//! the paste a click asks for, run by the app through the one op runner as `loam apply`'s
//! `paste` operation with this clipboard in it (one undo step).

use std::sync::Arc;

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::{ClipboardIntent, Intent};
use crate::doc::Document;
use crate::doc::editing::Tool;
use crate::edit::copy::clipboard::{self, Clipboard, LatticeRect};
use crate::edit::copy::paste::{PasteOp, PasteOptions, Placement};
use crate::edit::ops::{Operation, OpsFile};
use crate::model::coords;
use crate::ui::clipboard_panel::ClipboardView;
use crate::ui::viewport::ViewportInput;

/// The tool's state.
#[derive(Debug, Default)]
pub struct TerrainClipboard {
    /// The rectangle's corners (world x, y) as dragged: press and latest point.
    selection: Option<[[f64; 2]; 2]>,
    /// True while the primary button that started a selection is held.
    dragging: bool,
    /// What was copied, and from which map.
    held: Option<(Arc<Clipboard>, String)>,
    /// Clicks paste.
    pasting: bool,
    options: PasteOptions,
    pending: Option<OpsFile>,
}

impl TerrainClipboard {
    /// Carries out the tool's intents (a problem goes to `message`); hands every other
    /// intent back, and Bake shadows in the selection on as the bake of its chunks.
    fn handle_clipboard(
        &mut self,
        intent: Intent,
        doc: &Document,
        message: &mut Option<String>,
    ) -> Option<Intent> {
        let Intent::Clipboard(c) = intent else {
            return Some(intent);
        };
        match c {
            ClipboardIntent::Copy => match self.copy(doc) {
                Ok(()) => self.pasting = true,
                Err(e) => *message = Some(format!("cannot copy: {e}")),
            },
            ClipboardIntent::Pasting(on) => self.pasting = on && self.held.is_some(),
            ClipboardIntent::Options(o) => self.options = o,
            ClipboardIntent::BakeShadows => match self.selected_chunks(doc) {
                // The app bakes them: the document's history takes the step.
                Ok(chunks) => return Some(Intent::BakeShadowsIn(chunks)),
                Err(e) => *message = Some(format!("cannot bake shadows: {e}")),
            },
        }
        None
    }

    /// The loaded chunks the selection overlaps.
    fn selected_chunks(
        &self,
        doc: &Document,
    ) -> Result<Vec<(crate::model::TileCoord, usize)>, String> {
        let s = doc.session.as_ref().ok_or("no map is open")?;
        let [a, b] = self.selection.ok_or("nothing is selected")?;
        Ok(LatticeRect::from_world(a, b)?.chunks(&s.map))
    }

    /// Copies the selection of the open map.
    fn copy(&mut self, doc: &Document) -> Result<(), String> {
        let s = doc.session.as_ref().ok_or("no map is open")?;
        let [a, b] = self.selection.ok_or("nothing is selected")?;
        let clip = clipboard::copy(&s.map, LatticeRect::from_world(a, b)?)?;
        self.held = Some((Arc::new(clip), s.map.name.clone()));
        Ok(())
    }

    /// Follows the view's pointer: a drag selects, a click pastes (while pasting). `at` is
    /// the ground under the pointer.
    fn follow_pointer(&mut self, input: &ViewportInput, at: Option<[f64; 3]>) {
        let at = at.map(|p| [p[0], p[1]]);
        if self.pasting {
            if input.brush_pressed
                && let (Some(p), Some((clip, _))) = (at, &self.held)
            {
                let op = PasteOp {
                    tool: "paste".into(),
                    from: [[0.0; 2]; 2],
                    points: vec![p],
                    rotate: Some(i32::from(self.options.turns) * 90),
                    mirror: Some(self.options.mirror),
                    heights: Some(self.options.heights),
                    blend: Some(self.options.blend),
                    layers: Some(self.options.layers.clone()),
                    clipboard: Some(clip.clone()),
                };
                self.pending = Some(OpsFile {
                    ops: vec![Operation::Paste(op)],
                    folder: None,
                });
            }
            return;
        }
        match at {
            Some(p) if input.brush_pressed => {
                self.selection = Some([p, p]);
                self.dragging = true;
            }
            Some(p) if self.dragging && input.brush_held => {
                if let Some(sel) = &mut self.selection {
                    sel[1] = p;
                }
            }
            _ => {}
        }
        if !input.brush_held {
            self.dragging = false;
        }
    }

    /// Takes up a script's last `paste` (`--apply`): its `from` copied into the clipboard,
    /// its options chosen, pasting on, so the view shows where the next would land.
    pub fn follow_script(&mut self, doc: &Document, op: &PasteOp) -> Result<(), String> {
        self.selection = Some(op.from);
        self.copy(doc)?;
        self.options = op.options();
        self.pasting = true;
        Ok(())
    }

    /// What the panel shows.
    pub fn view(&self) -> ClipboardView {
        let rect = self
            .selection
            .and_then(|[a, b]| LatticeRect::from_world(a, b).ok());
        ClipboardView {
            selection: rect.map(|r| [r.width(), r.height()]),
            held: self.held.as_ref().map(|(c, map)| {
                format!(
                    "{}×{} quads of {map}, {} object(s)",
                    c.width(),
                    c.height(),
                    c.objects.len()
                )
            }),
            pasting: self.pasting,
            options: self.options.clone(),
        }
    }

    /// The rectangle to outline on the ground (world x0, y0, x1, y1, smallest first): where a
    /// paste at `hover` would land while pasting, else the selection.
    pub fn outline(&self, hover: Option<[f64; 3]>) -> Option<[f32; 4]> {
        let (lo, hi) = if self.pasting {
            let (clip, _) = self.held.as_ref()?;
            let h = hover?;
            let at = clipboard::snap([h[0], h[1]]).ok()?;
            let place = Placement {
                at,
                size: [clip.width(), clip.height()],
                turns: self.options.turns,
                mirror: self.options.mirror,
            };
            let [fw, fh] = place.footprint();
            let hi = coords::lattice_to_world(f64::from(at[0]), f64::from(at[1]));
            let lo = coords::lattice_to_world(
                f64::from(at[0]) + fw as f64,
                f64::from(at[1]) + fh as f64,
            );
            (lo, hi)
        } else {
            let [a, b] = self.selection?;
            let (lo, hi) = LatticeRect::from_world(a, b).ok()?.world_box();
            ([lo[0], lo[1]], [hi[0], hi[1]])
        };
        Some([lo[0] as f32, lo[1] as f32, hi[0] as f32, hi[1] as f32])
    }
}

impl Component for TerrainClipboard {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        self.handle_clipboard(intent, &cx.doc, &mut cx.shell.message)
    }

    /// With the Copy & paste tool: a drag selects, a click pastes (while pasting).
    fn drive(&mut self, input: &ViewportInput, cx: &mut AppCtx) {
        if cx.doc.editing.settings.tool == Tool::CopyPaste {
            self.follow_pointer(input, cx.view.hover.map(|p| p.world));
        }
    }

    /// The paste a click asked for, once: the shell runs it.
    fn take_ops(&mut self) -> Option<OpsFile> {
        self.pending.take()
    }
}
