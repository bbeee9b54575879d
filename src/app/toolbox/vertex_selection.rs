//! The vertex selection tool as a component: a drag on the ground selects vertices (box, lasso
//! or the brush's circle; Shift adds, Ctrl takes away), clicks pick a plane's points while
//! asked to, and the panel's buttons edit the selection through `edit::shapes::selection` (raise,
//! lower, set, onto a plane, smooth, eased off across a soft ring), each one undo step.
//! Selected vertices are map-wide lattice vertices, so a shared vertex is one and all its
//! copies move together.
//!
//! Not for: the edits' maths (`edit::shapes::selection`, `edit::terrain::plane`) or the panel
//! (`ui::selection_panel`).

use std::collections::BTreeSet;

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::{Intent, SelectionIntent};
use crate::edit::Stroke;
use crate::edit::lattice::{self, Vertex};
use crate::edit::outcome::OpResult;
use crate::edit::shapes::selection::{self, SelectionEdit};
use crate::edit::terrain::plane::Plane;
use crate::edit::tools::{PlaneFrom, SelectShape, SelectionAction, SelectionOptions, Tool};
use crate::model::Map;
use crate::render::marks::Marks;
use crate::ui::selection_panel::SelectionView;
use crate::ui::viewport::ViewportInput;

/// Most selected vertices drawn as points; beyond it every n-th is drawn.
const MOST_DOTS: usize = 30_000;

/// How a drag's vertices meet the selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Combine {
    /// They become the selection.
    Replace,
    /// They join it (Shift).
    Add,
    /// They leave it (Ctrl).
    Subtract,
}

/// The tool's state.
#[derive(Debug, Default)]
pub struct VertexSelection {
    selected: BTreeSet<Vertex>,
    options: SelectionOptions,
    /// The drag under way: the ground points it passed (a box: press and latest) and how it
    /// combines.
    drag: Option<(Vec<[f64; 2]>, Combine)>,
    /// Clicks pick plane points.
    picking_plane: bool,
    /// Picked plane points (world x, y, height), the last three kept.
    plane_points: Vec<[f64; 3]>,
}

impl VertexSelection {
    /// The selected vertices.
    pub fn selected(&self) -> &BTreeSet<Vertex> {
        &self.selected
    }

    /// What the panel shows.
    pub fn view(&self) -> SelectionView {
        SelectionView {
            count: self.selected.len(),
            options: self.options,
            picking_plane: self.picking_plane,
            plane_points: self.plane_points.len(),
        }
    }

    /// True when the brush circle belongs in the view (brush selecting).
    pub fn shows_brush(&self) -> bool {
        self.options.shape == SelectShape::Brush && !self.picking_plane
    }

    /// Takes `found` into the selection as `how` says.
    fn combine(&mut self, found: Vec<Vertex>, how: Combine) {
        match how {
            Combine::Replace => self.selected = found.into_iter().collect(),
            Combine::Add => self.selected.extend(found),
            Combine::Subtract => {
                for v in found {
                    self.selected.remove(&v);
                }
            }
        }
    }

    /// Follows this frame's pointer, the ground under it at `at`, with the brush's `radius`.
    fn follow_pointer(
        &mut self,
        input: &ViewportInput,
        at: Option<[f64; 3]>,
        map: &Map,
        radius: f64,
    ) {
        if self.picking_plane {
            if input.brush_pressed
                && let Some(p) = at
            {
                self.plane_points.push(p);
                let extra = self.plane_points.len().saturating_sub(3);
                self.plane_points.drain(..extra);
            }
            return;
        }
        let how = if input.slow {
            Combine::Subtract
        } else if input.fast {
            Combine::Add
        } else {
            Combine::Replace
        };
        let at2 = at.map(|p| [p[0], p[1]]);
        if self.options.shape == SelectShape::Brush {
            if input.brush_pressed {
                if how == Combine::Replace {
                    self.selected.clear();
                }
                self.drag = Some((Vec::new(), how));
            }
            if input.brush_held
                && let (Some(how), Some(p)) = (self.drag.as_ref().map(|d| d.1), at2)
            {
                let how = if how == Combine::Subtract {
                    how
                } else {
                    Combine::Add
                };
                self.combine(selection::in_circle(map, p, radius), how);
            }
            if !input.brush_held {
                self.drag = None;
            }
            return;
        }
        if input.brush_pressed
            && let Some(p) = at2
        {
            self.drag = Some((vec![p], how));
        } else if input.brush_held
            && let (Some((points, _)), Some(p)) = (&mut self.drag, at2)
        {
            match self.options.shape {
                SelectShape::Box => {
                    points.truncate(1);
                    points.push(p);
                }
                _ => {
                    let last = points[points.len() - 1];
                    if (last[0] - p[0]).hypot(last[1] - p[1]) > 0.5 {
                        points.push(p);
                    }
                }
            }
        }
        if !input.brush_held
            && let Some((points, how)) = self.drag.take()
        {
            let found = match self.options.shape {
                SelectShape::Box => match points.as_slice() {
                    [a, .., b] => selection::in_box(map, *a, *b),
                    _ => Vec::new(),
                },
                _ => selection::in_loop(map, &points),
            };
            self.combine(found, how);
        }
    }

    /// Selects the loaded vertices in a world box, as a drag would.
    fn select_box(&mut self, map: &Map, [x0, y0, x1, y1]: [f64; 4]) {
        self.selected = selection::in_box(map, [x0, y0], [x1, y1])
            .into_iter()
            .collect();
    }

    /// The plane the selection goes onto: through the three picked points, or through the
    /// last picked point (else the selection's middle) at the typed slope and direction.
    fn plane(&self, map: &Map) -> Result<Plane, String> {
        let o = &self.options;
        match o.plane_from {
            PlaneFrom::ThreePoints => match self.plane_points.as_slice() {
                [a, b, c] => Plane::through([*a, *b, *c])
                    .ok_or_else(|| "the three points lie on one line seen from above".into()),
                _ => Err("pick three points on the ground first (Pick plane points)".into()),
            },
            PlaneFrom::Slope => {
                let origin = match self.plane_points.last() {
                    Some(p) => *p,
                    None => self.middle(map).ok_or("nothing is selected")?,
                };
                Plane::sloping(origin, o.slope.into(), o.direction.into())
                    .ok_or_else(|| format!("no plane of slope {}°", o.slope))
            }
        }
    }

    /// The selection's middle: mean world x, y and height.
    fn middle(&self, map: &Map) -> Option<[f64; 3]> {
        let mut sum = [0.0; 3];
        let mut n = 0.0;
        for v in &self.selected {
            let h = lattice::height(map, *v)?;
            let [x, y] = v.world_xy();
            sum = [sum[0] + x, sum[1] + y, sum[2] + f64::from(h)];
            n += 1.0;
        }
        (n > 0.0).then(|| sum.map(|s| s / n))
    }

    /// Does `action` to the selection of the open map as one undo step.
    fn apply(&mut self, action: SelectionAction, cx: &mut AppCtx) -> Result<(), String> {
        if self.selected.is_empty() {
            return Err("no vertices are selected".into());
        }
        if cx.doc.editing.is_stroking() {
            return Err("a stroke is under way".into());
        }
        let s = cx.doc.session.as_mut().ok_or("no map is open")?;
        let o = &self.options;
        let edit = match action {
            SelectionAction::Raise => SelectionEdit::Raise(o.amount),
            SelectionAction::Lower => SelectionEdit::Raise(-o.amount),
            SelectionAction::SetHeight => SelectionEdit::SetHeight(o.height),
            SelectionAction::Smooth => SelectionEdit::Smooth(o.smooth),
            SelectionAction::OntoPlane => SelectionEdit::OntoPlane(self.plane(&s.map)?),
        };
        let mut stroke = Stroke::new(edit.name());
        let touched =
            selection::apply(&mut s.map, &self.selected, edit, o.ring.into(), &mut stroke);
        let history = &mut cx.doc.editing.history;
        OpResult::record(&mut s.map, stroke, history, edit.name(), Vec::new());
        cx.after_edit(touched);
        Ok(())
    }

    /// The marks over the view: the selected vertices as points, the picked plane points, the
    /// box or loop being dragged.
    fn marks(&self, map: &Map, vp: glam::Mat4) -> Marks {
        let mut m = Marks::default();
        let step = self.selected.len().div_ceil(MOST_DOTS).max(1);
        for v in self.selected.iter().step_by(step) {
            if let Some(h) = lattice::height(map, *v) {
                let [x, y] = v.world_xy();
                m.dot(vp, [x, y, f64::from(h)], 1.6, [255, 220, 60, 230]);
            }
        }
        for p in &self.plane_points {
            m.dot(vp, *p, 5.0, [80, 200, 255, 255]);
        }
        if let Some((points, _)) = &self.drag {
            let outline: Vec<[f64; 2]> = match (self.options.shape, points.as_slice()) {
                (SelectShape::Box, [a, .., b]) => {
                    vec![*a, [a[0], b[1]], *b, [b[0], a[1]], *a]
                }
                (SelectShape::Lasso, [first, ..]) => {
                    points.iter().copied().chain([*first]).collect()
                }
                _ => Vec::new(),
            };
            m.line(vp, &on_ground(map, &outline), 1.5, [255, 255, 255, 220]);
        }
        m
    }
}

/// The polyline through `points` (world x, y) laid on the ground, a point every couple of yards
/// (those over unloaded ground left out).
pub fn on_ground(map: &Map, points: &[[f64; 2]]) -> Vec<[f64; 3]> {
    let mut out = Vec::new();
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let n = ((b[0] - a[0]).hypot(b[1] - a[1]) / 2.0).ceil().max(1.0) as usize;
        for k in 0..=n {
            let t = k as f64 / n as f64;
            let (x, y) = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
            if let Some(h) = lattice::height_at(map, x, y) {
                out.push([x, y, f64::from(h) + 0.3]);
            }
        }
    }
    out
}

impl Component for VertexSelection {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        let Intent::Selection(i) = intent else {
            return Some(intent);
        };
        match i {
            SelectionIntent::Options(o) => self.options = o,
            SelectionIntent::Apply(action) => {
                if let Err(e) = self.apply(action, cx) {
                    cx.say(format!("cannot edit the selection: {e}"));
                }
            }
            SelectionIntent::PickPlane(on) => self.picking_plane = on,
            SelectionIntent::ClearPlanePoints => self.plane_points.clear(),
            SelectionIntent::Clear => self.selected.clear(),
            SelectionIntent::SelectBox(b) => {
                cx.doc.editing.settings.tool = Tool::SelectVertices;
                if let Some(s) = &cx.doc.session {
                    self.select_box(&s.map, b);
                }
            }
        }
        None
    }

    fn over_view(&mut self, ui: &mut egui::Ui, view: egui::Rect, cx: &mut AppCtx) -> Vec<Intent> {
        super::overlays::paint_tool_marks(ui, view, cx, Tool::SelectVertices, |map, vp| {
            self.marks(map, vp)
        });
        Vec::new()
    }

    /// With the tool: drags select, or clicks pick plane points.
    fn drive(&mut self, input: &ViewportInput, cx: &mut AppCtx) {
        if cx.doc.editing.settings.tool != Tool::SelectVertices {
            self.drag = None;
            return;
        }
        if let Some(s) = &cx.doc.session {
            let radius = cx.doc.editing.settings.brush.radius.into();
            self.follow_pointer(input, cx.view.hover.map(|p| p.world), &s.map, radius);
        }
    }

    fn opened(&mut self, _cx: &mut AppCtx) {
        self.selected.clear();
        self.plane_points.clear();
        self.drag = None;
    }
}
