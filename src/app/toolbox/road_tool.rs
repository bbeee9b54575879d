//! The road tool as a component: clicks on the ground place a road's control points (a drag
//! moves one, Shift+click inserts one into the curve, Ctrl+click deletes one), the panel sets
//! widths, heights and texture, and the view shows the curve with its bed and shoulder edges
//! while it is edited. Laying it hands the `road` operation to the shell, which runs it through
//! the one op runner (`doc::runner`, the same runner as `loam apply`) as one undo step.
//!
//! Not for: the road's geometry (`edit::shapes::road`), shaping the ground
//! (`edit::shapes::road_ops`), or the panel (`ui::road_panel`).

use super::vertex_selection::on_ground;
use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::{Intent, RoadIntent};
use crate::edit::lattice;
use crate::edit::ops::{Operation, OpsFile};
use crate::edit::shapes::road::{Centreline, Road};
use crate::edit::shapes::road_ops::{RoadOp, RoadToolName};
use crate::edit::tools::{RoadOptions, Tool};
use crate::model::Map;
use crate::render::marks::Marks;
use crate::ui::road_panel::RoadView;
use crate::ui::viewport::ViewportInput;

/// How near (screen points) a click must be to a control point to take it.
const GRAB_POINTS: f32 = 10.0;

/// The tool's state: the road being edited, not yet laid.
#[derive(Debug, Default)]
pub struct RoadTool {
    /// Control points (world x, y).
    points: Vec<[f64; 2]>,
    /// Typed bed height at each point (`None`: the terrain's there).
    heights: Vec<Option<f32>>,
    options: RoadOptions,
    /// The point being dragged.
    dragging: Option<usize>,
    /// The point last clicked or dragged.
    selected: Option<usize>,
    pending: Option<OpsFile>,
}

impl RoadTool {
    /// The control points.
    pub fn points(&self) -> &[[f64; 2]] {
        &self.points
    }

    /// What the panel shows, offering `textures`.
    pub fn view(&self, textures: Vec<String>) -> RoadView {
        RoadView {
            points: self
                .points
                .iter()
                .copied()
                .zip(self.heights.iter().copied())
                .collect(),
            selected: self.selected,
            options: self.options.clone(),
            textures,
        }
    }

    /// The `road` operation for the points as they stand on `map`: the typed heights, the
    /// terrain's under the others (none given when none is typed, as `loam apply` reads it).
    pub fn op(&self, map: &Map) -> Result<RoadOp, String> {
        let heights = if self.heights.iter().all(Option::is_none) {
            None
        } else {
            let mut out = Vec::new();
            for (i, (p, h)) in self.points.iter().zip(&self.heights).enumerate() {
                match h.or_else(|| lattice::height_at(map, p[0], p[1])) {
                    Some(h) => out.push(h),
                    None => return Err(format!("no loaded ground under point {}", i + 1)),
                }
            }
            Some(out)
        };
        let o = &self.options;
        let op = RoadOp {
            tool: RoadToolName::Road,
            points: self.points.clone(),
            width: o.width,
            shoulder: Some(o.shoulder),
            heights,
            texture: o.texture.clone().filter(|t| !t.is_empty()),
            texture_width: o.texture.as_ref().map(|_| o.texture_width),
        };
        op.validate()?;
        Ok(op)
    }

    /// The bed height at each point: typed, else the terrain's (`None` when some is unknown).
    fn bed_heights(&self, map: &Map) -> Option<Vec<f64>> {
        self.points
            .iter()
            .zip(&self.heights)
            .map(|(p, h)| {
                h.or_else(|| lattice::height_at(map, p[0], p[1]))
                    .map(f64::from)
            })
            .collect()
    }

    /// Where control point `i` is drawn (and grabbed): at its typed bed height, else on the
    /// terrain, a little above so that the ground does not hide it.
    fn drawn_at(&self, map: &Map, i: usize) -> [f64; 3] {
        let [x, y] = self.points[i];
        let h = self.heights[i]
            .or_else(|| lattice::height_at(map, x, y))
            .unwrap_or(0.0);
        [x, y, f64::from(h) + 0.3]
    }

    /// Adds a point at `p`: into the curve where it passes nearest when `insert`, else at the
    /// end.
    fn add(&mut self, p: [f64; 2], insert: bool) {
        if self.points.contains(&p) {
            return;
        }
        let at = match Centreline::through(&self.points) {
            Some(line) if insert => {
                let (mut best, mut arc) = (f64::INFINITY, 0.0);
                for (q, a) in line.points.iter().zip(&line.arc) {
                    let d = (q[0] - p[0]).hypot(q[1] - p[1]);
                    if d < best {
                        (best, arc) = (d, *a);
                    }
                }
                // After the last control point at or before that arc.
                line.knots
                    .iter()
                    .filter(|k| **k <= arc)
                    .count()
                    .clamp(1, self.points.len() - 1)
            }
            _ => self.points.len(),
        };
        self.points.insert(at, p);
        self.heights.insert(at, None);
        self.selected = Some(at);
    }

    /// Deletes point `i`.
    fn delete(&mut self, i: usize) {
        if i < self.points.len() {
            self.points.remove(i);
            self.heights.remove(i);
            self.selected = None;
            self.dragging = None;
        }
    }

    /// The control point within grab distance of the pointer, if any: its index. `px` maps a
    /// world point to screen points.
    fn grabbed(
        &self,
        map: &Map,
        pointer: egui::Pos2,
        px: &dyn Fn([f64; 3]) -> Option<egui::Pos2>,
    ) -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for i in 0..self.points.len() {
            let Some(s) = px(self.drawn_at(map, i)) else {
                continue;
            };
            let d = s.distance(pointer);
            if d <= GRAB_POINTS && best.is_none_or(|(_, b)| d < b) {
                best = Some((i, d));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Follows this frame's pointer (the ground under it `at`).
    fn follow_pointer(&mut self, input: &ViewportInput, at: Option<[f64; 3]>, cx: &AppCtx) {
        let Some(s) = &cx.doc.session else {
            return;
        };
        let rect = input.rect;
        let vp = cx.view.camera.view_projection(input.aspect());
        let px = |w: [f64; 3]| {
            let p = glam::Vec3::new(w[0] as f32, w[1] as f32, w[2] as f32);
            crate::render::gizmo::project(vp, p).map(|n| {
                egui::pos2(
                    rect.center().x + n[0] * rect.width() / 2.0,
                    rect.center().y - n[1] * rect.height() / 2.0,
                )
            })
        };
        let pointer = input.hover_ndc.map(|n| {
            egui::pos2(
                rect.center().x + n[0] * rect.width() / 2.0,
                rect.center().y - n[1] * rect.height() / 2.0,
            )
        });
        if input.brush_pressed {
            let grabbed = pointer.and_then(|p| self.grabbed(&s.map, p, &px));
            match (grabbed, at) {
                (Some(i), _) if input.slow => self.delete(i),
                (Some(i), _) => {
                    self.dragging = Some(i);
                    self.selected = Some(i);
                }
                (None, Some(p)) => self.add([p[0], p[1]], input.fast && self.points.len() >= 2),
                (None, None) => {}
            }
        } else if input.brush_held
            && let (Some(i), Some(p)) = (self.dragging, at)
        {
            let p = [p[0], p[1]];
            let clash = |j: Option<usize>| j.and_then(|j| self.points.get(j)) == Some(&p);
            if !clash(i.checked_sub(1)) && !clash(Some(i + 1)) {
                self.points[i] = p;
            }
        }
        if !input.brush_held {
            self.dragging = None;
        }
    }

    /// The marks over the view: the centreline at the bed's height, the bed's edges, the
    /// shoulders' outer edges on the ground, and the control points.
    fn marks(&self, map: &Map, vp: glam::Mat4) -> Marks {
        let mut m = Marks::default();
        let o = &self.options;
        let road = self
            .bed_heights(map)
            .and_then(|h| Road::new(&self.points, &h, o.width.into(), o.shoulder.into(), None));
        if let Some(road) = road {
            let pts = &road.line.points;
            let centre: Vec<[f64; 3]> = pts
                .iter()
                .zip(&road.line.arc)
                .map(|(p, a)| [p[0], p[1], road.bed_height(*a) + 0.3])
                .collect();
            let side = |offset: f64| -> Vec<[f64; 2]> {
                (0..pts.len())
                    .map(|i| {
                        let (a, b) = (pts[i.saturating_sub(1)], pts[(i + 1).min(pts.len() - 1)]);
                        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
                        let len = dx.hypot(dy).max(1e-9);
                        [pts[i][0] - dy / len * offset, pts[i][1] + dx / len * offset]
                    })
                    .collect()
            };
            for sign in [-1.0, 1.0] {
                let bed: Vec<[f64; 3]> = side(sign * road.half_width)
                    .into_iter()
                    .zip(&centre)
                    .map(|(p, c)| [p[0], p[1], c[2]])
                    .collect();
                m.line(vp, &bed, 2.0, [255, 255, 255, 230]);
                if road.shoulder > 0.0 {
                    let outer = side(sign * (road.half_width + road.shoulder));
                    m.line(vp, &on_ground(map, &outer), 1.5, [255, 150, 60, 220]);
                }
            }
            m.line(vp, &centre, 2.5, [255, 220, 60, 255]);
        }
        for i in 0..self.points.len() {
            let colour = if self.selected == Some(i) {
                [80, 200, 255, 255]
            } else {
                [255, 90, 60, 255]
            };
            m.dot(vp, self.drawn_at(map, i), 5.0, colour);
        }
        m
    }

    /// Lays the road on the open map: hands its operation to the shell and starts over.
    fn lay(&mut self, cx: &mut AppCtx) -> Result<(), String> {
        let s = cx.doc.session.as_ref().ok_or("no map is open")?;
        let op = self.op(&s.map)?;
        self.pending = Some(OpsFile {
            ops: vec![Operation::Road(op)],
            folder: None,
        });
        *self = RoadTool {
            options: self.options.clone(),
            pending: self.pending.take(),
            ..RoadTool::default()
        };
        Ok(())
    }
}

impl Component for RoadTool {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        let Intent::Road(i) = intent else {
            return Some(intent);
        };
        match i {
            RoadIntent::Options(o) => self.options = o,
            RoadIntent::PointHeight(i, h) => {
                if let Some(slot) = self.heights.get_mut(i) {
                    *slot = h;
                    self.selected = Some(i);
                }
            }
            RoadIntent::Delete(i) => self.delete(i),
            RoadIntent::Points(points) => {
                cx.doc.editing.settings.tool = Tool::Road;
                *self = RoadTool {
                    heights: vec![None; points.len()],
                    points,
                    options: self.options.clone(),
                    ..RoadTool::default()
                };
            }
            RoadIntent::Apply => {
                if let Err(e) = self.lay(cx) {
                    cx.say(format!("cannot lay the road: {e}"));
                }
            }
            RoadIntent::Clear => {
                *self = RoadTool {
                    options: self.options.clone(),
                    ..RoadTool::default()
                };
            }
        }
        None
    }

    fn over_view(&mut self, ui: &mut egui::Ui, view: egui::Rect, cx: &mut AppCtx) -> Vec<Intent> {
        super::overlays::paint_tool_marks(ui, view, cx, Tool::Road, |map, vp| self.marks(map, vp));
        Vec::new()
    }

    /// With the tool: clicks place, drag, insert and delete control points.
    fn drive(&mut self, input: &ViewportInput, cx: &mut AppCtx) {
        if cx.doc.editing.settings.tool == Tool::Road {
            self.follow_pointer(input, cx.view.hover.map(|p| p.world), cx);
        } else {
            self.dragging = None;
        }
    }

    /// The road Lay road asked for, once: the shell runs it as one undo step.
    fn take_ops(&mut self) -> Option<OpsFile> {
        self.pending.take()
    }

    fn opened(&mut self, _cx: &mut AppCtx) {
        *self = RoadTool {
            options: self.options.clone(),
            ..RoadTool::default()
        };
    }
}
