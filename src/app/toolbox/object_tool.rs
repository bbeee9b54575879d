//! The object tool: selecting doodads and WMOs with the mouse, dragging the selection over the
//! terrain, placing the model chosen in the asset browser with a click, copy, paste and
//! duplicate, and editing the selection from the object panel (typed position, rotation, scale,
//! doodad set; snap to ground; delete). Each change is one undo step in the brushes' history.
//!
//! The selection and the uids of new objects are the document's (`doc::Document::selection`,
//! `doc::uids`); this component holds what only the tool needs: the drag, the transform, the
//! rubber band, the clipboard and the placing options.
//!
//! Not for: the edits themselves (`edit::objects`), drawing the selection (`render`) or the
//! panel's widgets (`ui::object_panel`).

use std::sync::Arc;

use glam::Vec3;

use crate::app::scene::object_scene::ObjectScene;
use crate::command::{Command, Intent};
use crate::doc::Document;
use crate::doc::editing::Touched;
use crate::doc::session::Session;
use crate::edit::objects::transform::{self, Axis, GizmoMotion, MouseTravel};
use crate::edit::objects::{self, ObjectRecord, ObjectStroke};
use crate::model::ObjectKind;
use crate::model::placement::doodad_scale_record;
use crate::render::camera::Camera;
use crate::render::gizmo::{self, Handle};
use crate::render::pick::TerrainPoint;
use crate::render::scene::ObjectFilter;
use crate::ui::viewport::ViewportInput;

/// What the object tool holds between frames.
#[derive(Debug, Default)]
pub struct ObjectTool {
    /// The model a click places (chosen in the asset browser), and the placing options.
    pub place: PlaceOptions,
    /// The selection being dragged over the terrain.
    drag: Option<Drag>,
    /// A keyboard transform (G, R, S) under way.
    transform: Option<Transform>,
    /// A rubber band being dragged from an empty spot: where it began (NDC) and where the
    /// cursor is now.
    band: Option<([f32; 2], [f32; 2], bool)>,
    /// Records copied with Ctrl+C.
    clipboard: Vec<ObjectRecord>,
    /// A counter for the random turns and scales of placed objects.
    seed: u64,
}

/// What the object tool works with on each call: the document, the placed objects, the view,
/// and where its message and changed chunks go (the app marks and redraws them after).
pub struct ObjectCtx<'a> {
    /// The open document.
    pub doc: &'a mut Document,
    /// The placed objects and their models.
    pub scene: &'a mut ObjectScene,
    /// The view's camera.
    pub camera: &'a Camera,
    /// The terrain point under the cursor, as of the last frame.
    pub hover: Option<TerrainPoint>,
    /// Which objects are shown (and so can be picked).
    pub filter: &'a ObjectFilter,
    /// The status line.
    pub message: &'a mut Option<String>,
    /// Wakes the window (the uid scan's worker calls it when done).
    pub repaint: &'a Arc<dyn Fn() + Send + Sync>,
    /// Chunks the tool changed, for the app to mark edited and redraw.
    pub touched: Touched,
}

impl ObjectCtx<'_> {
    /// What the cursor is aimed at, for picking.
    fn aim(&self) -> super::object_view::Aim<'_> {
        super::object_view::Aim {
            camera: self.camera,
            hover: self.hover.as_ref(),
            filter: self.filter,
        }
    }
}

impl ObjectTool {
    /// True while the selection is being dragged or transformed (undo waits for the end).
    pub fn is_dragging(&self) -> bool {
        self.drag.is_some() || self.transform.is_some()
    }

    /// What the shortcut table's conditions look at, with `active` saying whether the object
    /// tool is the tool.
    pub fn shortcut_state(&self, doc: &Document, active: bool) -> crate::command::shortcuts::State {
        crate::command::shortcuts::State {
            object_tool: active,
            selected: !doc.selection.is_empty(),
            dragging: self.drag.is_some(),
            transforming: self.transform.is_some(),
            terrain_clipboard: false,
        }
    }

    /// The keyboard transform under way and its axis lock, for the panel.
    pub fn transform(&self) -> Option<(TransformMode, Option<Axis>)> {
        self.transform.as_ref().map(|t| (t.mode, t.axis))
    }
}

pub use crate::command::PlaceOptions;

pub use crate::edit::objects::transform::TransformMode;

/// A keyboard transform: the records when it began, where the mouse and ground were, the
/// axis lock, and the edit so far (reverted on Esc).
#[derive(Debug)]
struct Transform {
    mode: TransformMode,
    axis: Option<Axis>,
    stroke: ObjectStroke,
    originals: Vec<ObjectRecord>,
    start_ndc: Option<[f32; 2]>,
    start_ground: Option<[f64; 3]>,
    /// A gizmo drag's grip. Released, it is confirmed.
    grip: Option<Grip>,
}

/// Where a gizmo drag took hold: the handle, the gizmo's centre and the arrow's direction at
/// the press, and the arrow position or ring angle where the drag began.
#[derive(Debug, Clone, Copy)]
struct Grip {
    handle: Handle,
    centre: Vec3,
    arrow: Vec3,
    start: f32,
}

/// A drag of the selection: the records when it began and the ground point it began on.
#[derive(Debug)]
struct Drag {
    stroke: ObjectStroke,
    start: [f64; 3],
    originals: Vec<ObjectRecord>,
    moved: bool,
}

impl ObjectTool {
    /// The view's mouse with the object tool: a click selects the object under the cursor
    /// (Shift adds it, Ctrl toggles it, nothing under it clears the selection), or places the
    /// chosen model while placing is on; a drag that starts on a selected object moves the
    /// selection over the terrain as one undo step.
    pub fn click(&mut self, ctx: &mut ObjectCtx, input: &ViewportInput) {
        if self.band.is_some() {
            self.drag_band(ctx, input);
            return;
        }
        if self.transform.is_some() {
            self.transform_step(ctx, input);
            return;
        }
        if self.drag.is_some() {
            self.drag_selection(ctx, input);
            return;
        }
        if !input.brush_pressed {
            return;
        }
        if self.place.active && self.place.model.is_some() {
            self.place_at_cursor(ctx);
            return;
        }
        if self.begin_gizmo_drag(ctx, input) {
            return;
        }
        let picked = self.object_under(ctx, input);
        let sel = &mut ctx.doc.selection;
        match picked {
            Some(key) if input.slow => {
                if let Some(i) = sel.iter().position(|k| *k == key) {
                    sel.remove(i);
                } else {
                    sel.push(key);
                }
            }
            Some(key) if input.fast => {
                if !sel.contains(&key) {
                    sel.push(key);
                }
            }
            Some(key) => {
                if !sel.contains(&key) {
                    *sel = vec![key];
                }
                self.begin_drag(ctx);
            }
            // Nothing under the cursor: a rubber band starts (a click without a drag clears
            // the selection, unless Shift or Ctrl add to it).
            None => {
                if let Some(ndc) = input.hover_ndc {
                    self.band = Some((ndc, ndc, input.fast || input.slow));
                }
            }
        }
    }

    /// The rubber band under way, for the view to draw.
    pub fn band(&self) -> Option<([f32; 2], [f32; 2])> {
        self.band.map(|(a, b, _)| (a, b))
    }

    /// Follows the rubber band; on release selects the objects inside it (added to the
    /// selection with Shift or Ctrl), or clears the selection after a mere click.
    fn drag_band(&mut self, ctx: &mut ObjectCtx, input: &ViewportInput) {
        let Some((start, mut end, adding)) = self.band.take() else {
            return;
        };
        if let Some(ndc) = input.hover_ndc {
            end = ndc;
        }
        if input.brush_held {
            self.band = Some((start, end, adding));
            return;
        }
        let (w, h) = (input.rect.width() / 2.0, input.rect.height() / 2.0);
        let tiny = ((end[0] - start[0]) * w).abs() < 4.0 && ((end[1] - start[1]) * h).abs() < 4.0;
        let sel = &mut ctx.doc.selection;
        if tiny {
            if !adding {
                sel.clear();
            }
            return;
        }
        let lo = [start[0].min(end[0]), start[1].min(end[1])];
        let hi = [start[0].max(end[0]), start[1].max(end[1])];
        let vp = ctx.camera.view_projection(input.aspect());
        let inside = ctx.scene.objects_in(vp, lo, hi, ctx.filter);
        if !adding {
            sel.clear();
        }
        for key in inside {
            if !sel.contains(&key) {
                sel.push(key);
            }
        }
    }

    /// Where the gizmo stands: the selection's centre, and the first selected object's turn
    /// when the arrows follow local axes. `None` without a selection or the object tool.
    pub fn gizmo_centre(&self, doc: &Document) -> Option<(Vec3, Option<f32>)> {
        if doc.editing.settings.tool != crate::doc::editing::Tool::Objects {
            return None;
        }
        let records = doc.selected_objects();
        let first = records.first()?;
        let n = records.len() as f64;
        let c = [0, 1, 2].map(|i| records.iter().map(|r| r.position[i]).sum::<f64>() / n);
        let yaw = self.place.local_axes.then_some(first.rotation[1]);
        Some((Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32), yaw))
    }

    /// A press on one of the gizmo's handles starts a drag of the selection along that arrow
    /// or round the ring; true when it did.
    fn begin_gizmo_drag(&mut self, ctx: &mut ObjectCtx, input: &ViewportInput) -> bool {
        let (Some(ndc), Some((centre, yaw))) = (input.hover_ndc, self.gizmo_centre(ctx.doc)) else {
            return false;
        };
        let vp = ctx.camera.view_projection(input.aspect());
        let Some(g) = gizmo::layout(centre, yaw, vp, ctx.camera.eye()) else {
            return false;
        };
        let half = [input.rect.width() / 2.0, input.rect.height() / 2.0];
        let Some(handle) = gizmo::hit(&g, ndc, half, 7.0) else {
            return false;
        };
        let (origin, dir) = ctx.camera.ray(ndc, input.aspect());
        let (axis, start) = match handle {
            Handle::Axis(i) => (
                g.axes[i].1,
                gizmo::along_axis(centre, g.axes[i].1, origin, dir),
            ),
            Handle::Ring => (Vec3::Z, gizmo::angle_on_ground(centre, origin, dir)),
            Handle::Scale => (Vec3::Z, Some(0.0)),
        };
        let Some(start) = start else {
            return false;
        };
        self.transform = Some(Transform {
            mode: match handle {
                Handle::Axis(_) => TransformMode::Move,
                Handle::Ring => TransformMode::Turn,
                Handle::Scale => TransformMode::Scale,
            },
            axis: None,
            stroke: ObjectStroke::default(),
            originals: {
                let records = ctx.doc.selected_objects();
                self.load_tiles_for(ctx, &records);
                records
            },
            start_ndc: Some(ndc),
            start_ground: None,
            grip: Some(Grip {
                handle,
                centre,
                arrow: axis,
                start,
            }),
        });
        true
    }

    /// The object under the cursor, unless the terrain in front of it hides it.
    fn object_under(&self, ctx: &ObjectCtx, input: &ViewportInput) -> Option<(ObjectKind, u32)> {
        let index = super::object_view::object_index_under(ctx.scene, &ctx.aim(), input)?;
        ctx.scene.object(index).map(|o| (o.kind, o.unique_id))
    }

    /// Starts dragging the selection from the ground point under the cursor.
    fn begin_drag(&mut self, ctx: &mut ObjectCtx) {
        let Some(start) = ctx.hover.map(|h| h.world) else {
            return;
        };
        let originals = ctx.doc.selected_objects();
        self.load_tiles_for(ctx, &originals);
        if originals.is_empty() {
            return;
        }
        self.drag = Some(Drag {
            stroke: ObjectStroke::default(),
            start,
            originals,
            moved: false,
        });
    }

    /// Moves the dragged selection with the cursor, keeping each object's height above the
    /// ground; on release, records the whole drag as one undo step.
    fn drag_selection(&mut self, ctx: &mut ObjectCtx, input: &ViewportInput) {
        let Some(mut drag) = self.drag.take() else {
            return;
        };
        let moved: Vec<ObjectRecord> = match (&ctx.doc.session, ctx.hover) {
            (Some(s), Some(h)) if input.brush_held => {
                let (dx, dy) = (h.world[0] - drag.start[0], h.world[1] - drag.start[1]);
                if dx == 0.0 && dy == 0.0 {
                    Vec::new()
                } else {
                    let ground = |x: f64, y: f64| {
                        crate::edit::lattice::height_at(&s.map, x, y).map(f64::from)
                    };
                    drag.originals
                        .iter()
                        .map(|o| {
                            let mut r = o.clone();
                            let above = ground(o.position[0], o.position[1])
                                .map_or(0.0, |g| o.position[2] - g);
                            r.position[0] += dx;
                            r.position[1] += dy;
                            if let Some(g) = ground(r.position[0], r.position[1]) {
                                r.position[2] = g + above;
                            }
                            r
                        })
                        .collect()
                }
            }
            _ => Vec::new(),
        };
        if !moved.is_empty() {
            self.load_tiles_for(ctx, &moved);
            drag.moved = true;
        }
        let Some(s) = put_records(&mut ctx.doc.session, ctx.scene, &mut drag.stroke, &moved) else {
            return;
        };
        if !moved.is_empty() {
            ctx.scene.invalidate();
        }
        if input.brush_held {
            self.drag = Some(drag);
            return;
        }
        let n = drag.originals.len();
        if !drag.moved {
            return;
        }
        let Some(edit) = drag.stroke.finish(&s.map, &format!("Move {n} object(s)")) else {
            return;
        };
        let touched = edit.touched();
        ctx.doc.editing.history.push(&mut s.map, edit);
        ctx.touched.extend(touched);
    }

    /// One frame of a keyboard transform: the selection follows the mouse from where the
    /// transform began; a click confirms it as one undo step.
    fn transform_step(&mut self, ctx: &mut ObjectCtx, input: &ViewportInput) {
        let Some(mut t) = self.transform.take() else {
            return;
        };
        let Some(ndc) = input.hover_ndc else {
            self.transform = Some(t);
            return;
        };
        let start = *t.start_ndc.get_or_insert(ndc);
        if t.start_ground.is_none() {
            t.start_ground = ctx.hover.map(|h| h.world);
        }
        let (dx_ndc, dy_ndc) = (f64::from(ndc[0] - start[0]), f64::from(ndc[1] - start[1]));
        let centre = transform::centre(&t.originals);
        let eye = ctx.camera.eye();
        let reach = transform::reach([f64::from(eye.x), f64::from(eye.y)], centre);
        if ctx.doc.session.is_none() {
            return;
        }
        let ground_delta = match (t.start_ground, ctx.hover) {
            (Some(a), Some(b)) => [b.world[0] - a[0], b.world[1] - a[1]],
            _ => [0.0, 0.0],
        };
        // A gizmo drag: how far along its arrow, or how far round its ring, the cursor is now.
        let (ray_origin, ray_dir) = ctx.camera.ray(ndc, input.aspect());
        let motion = t.grip.and_then(|g| match g.handle {
            Handle::Axis(_) => {
                gizmo::along_axis(g.centre, g.arrow, ray_origin, ray_dir).map(|now| {
                    GizmoMotion::Along {
                        direction: g.arrow,
                        distance: now - g.start,
                    }
                })
            }
            Handle::Ring => gizmo::angle_on_ground(g.centre, ray_origin, ray_dir)
                .map(|now| GizmoMotion::Round(transform::turn_since(g.start, now))),
            Handle::Scale => Some(GizmoMotion::Sideways(dx_ndc as f32)),
        });
        let travel = MouseTravel {
            screen: [dx_ndc, dy_ndc],
            ground: ground_delta,
            reach,
        };
        let targets: Vec<ObjectRecord> = t
            .originals
            .iter()
            .filter_map(|o| match (t.grip, motion) {
                (Some(_), Some(m)) => transform::gizmo_step(o, centre, m),
                // No answer this frame (the ray runs along the arrow): stay where it was.
                (Some(_), None) => None,
                (None, _) => transform::keyboard_step(o, centre, t.mode, t.axis, &travel),
            })
            .collect();
        // Every tile the objects' new places touch is in memory before they go there.
        self.load_tiles_for(ctx, &targets);
        let Some(s) = put_records(&mut ctx.doc.session, ctx.scene, &mut t.stroke, &targets) else {
            return;
        };
        ctx.scene.invalidate();
        // A gizmo drag ends when the button is let go, a keyboard transform with a click.
        let confirmed = if t.grip.is_some() {
            !input.brush_held
        } else {
            input.brush_pressed
        };
        if !confirmed {
            self.transform = Some(t);
            return;
        }
        let what = match t.mode {
            TransformMode::Move => "Move",
            TransformMode::Turn => "Turn",
            TransformMode::Scale => "Scale",
        };
        let label = format!("{what} {} object(s)", t.originals.len());
        if let Some(edit) = t.stroke.finish(&s.map, &label) {
            let touched = edit.touched();
            ctx.doc.editing.history.push(&mut s.map, edit);
            ctx.touched.extend(touched);
        }
    }

    /// Ends a keyboard transform without recording it: the objects go back.
    fn cancel_transform(&mut self, ctx: &mut ObjectCtx) {
        let Some(t) = self.transform.take() else {
            return;
        };
        if let Some(s) = &mut ctx.doc.session {
            t.stroke.revert(&mut s.map);
        }
        ctx.scene.invalidate();
    }

    /// Loads every tile on disk that an edit of `records` could touch: the tiles their boxes
    /// overlap and the tiles the disk scan saw listing their uids. A tile left on disk would keep
    /// a stale copy of a moved or deleted object (a duplicate in the client), and would miss a
    /// placed one.
    fn load_tiles_for(&self, ctx: &mut ObjectCtx, records: &[ObjectRecord]) {
        let listed = ctx.doc.uids.disk_uids();
        let mut coords = Vec::new();
        for r in records {
            coords.extend(objects::tiles_overlapping(
                r.world_box(ctx.scene.model_box(&r.model)),
            ));
            if let Some(tiles) = listed.as_ref().and_then(|l| l.get(&r.unique_id)) {
                coords.extend(tiles.iter().copied());
            }
        }
        let Some(s) = &mut ctx.doc.session else {
            return;
        };
        let missing: Vec<_> = coords
            .into_iter()
            .filter(|c| s.on_disk.contains(c) && !s.map.tiles.contains_key(c))
            .collect();
        if !missing.is_empty() {
            s.load_now(&missing);
            ctx.scene.invalidate();
        }
    }

    /// Sets the map's uniqueId range and stores it beside the map (`None` removes it).
    fn set_uid_range(&mut self, ctx: &mut ObjectCtx, range: Option<(u32, u32)>) {
        if let Some(s) = &ctx.doc.session {
            *ctx.message = Some(ctx.doc.uids.set_range(s, range));
        }
    }

    /// A number in 0..1 from the tool's counter (splitmix64): random turns and scales need
    /// no more than this.
    fn next_random(&mut self) -> f64 {
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as f64 / u64::MAX as f64
    }

    /// Places the chosen model on the terrain under the cursor, as one undo step, and selects it.
    fn place_at_cursor(&mut self, ctx: &mut ObjectCtx) {
        let (Some(model), Some(at)) = (self.place.model.clone(), ctx.hover) else {
            return;
        };
        let uid = match ctx.doc.uids.fresh(ctx.doc.session.as_ref(), &[]) {
            Ok(u) => u,
            Err(e) => {
                *ctx.message = Some(e);
                return;
            }
        };
        let kind = crate::edit::objects::object_ops::kind_of_model(&model);
        let opts = self.place.clone();
        let turn = if opts.random_turn {
            (self.next_random() * 360.0) as f32
        } else {
            0.0
        };
        let tilt = [self.next_random(), self.next_random()]
            .map(|r| ((r * 2.0 - 1.0) * f64::from(opts.random_tilt)) as f32);
        let (lo, hi) = (
            opts.scale.0.min(opts.scale.1),
            opts.scale.0.max(opts.scale.1),
        );
        let scale = lo + (hi - lo) * self.next_random() as f32;
        let record = ObjectRecord {
            kind,
            model: model.clone(),
            unique_id: uid,
            position: at.world,
            rotation: [tilt[0], turn, tilt[1]],
            scale: match kind {
                ObjectKind::Doodad => doodad_scale_record(f64::from(scale)),
                // MODF has no scale before Legion.
                ObjectKind::Wmo => 0,
            },
            flags: 0,
            doodad_set: 0,
            name_set: 0,
        };
        self.load_tiles_for(ctx, std::slice::from_ref(&record));
        self.edit_objects(
            ctx,
            &format!("Place {} (uid {uid})", short(&model)),
            |map, stroke, model_box| {
                objects::put(map, stroke, &record, model_box(&record.model));
            },
        );
        ctx.doc.selection = vec![(kind, uid)];
    }

    /// Puts copies of `records` at their positions moved by `offset` (x, y; standing on the
    /// terrain when `on_ground`), each with a fresh uid, as one undo step; selects the copies.
    fn add_copies(
        &mut self,
        ctx: &mut ObjectCtx,
        records: Vec<ObjectRecord>,
        offset: [f64; 2],
        on_ground: bool,
        label: &str,
    ) {
        let mut uids: Vec<u32> = Vec::new();
        for _ in &records {
            match ctx.doc.uids.fresh(ctx.doc.session.as_ref(), &uids) {
                Ok(u) => uids.push(u),
                Err(e) => {
                    *ctx.message = Some(e);
                    return;
                }
            }
        }
        let copies: Vec<ObjectRecord> = records
            .into_iter()
            .zip(&uids)
            .map(|(mut r, &uid)| {
                r.unique_id = uid;
                r.position[0] += offset[0];
                r.position[1] += offset[1];
                r
            })
            .collect();
        let keys: Vec<(ObjectKind, u32)> = copies.iter().map(|r| (r.kind, r.unique_id)).collect();
        self.load_tiles_for(ctx, &copies);
        self.edit_objects(ctx, label, |map, stroke, model_box| {
            for mut r in copies {
                if on_ground
                    && let Some(z) =
                        crate::edit::lattice::height_at(map, r.position[0], r.position[1])
                {
                    r.position[2] = f64::from(z);
                }
                objects::put(map, stroke, &r, model_box(&r.model));
            }
        });
        ctx.doc.selection = keys;
    }

    /// Starts a keyboard transform of the selection (G, R, T): it follows the mouse until a
    /// click confirms it.
    fn begin_transform(&mut self, ctx: &mut ObjectCtx, mode: TransformMode) {
        if self.drag.is_some() || self.transform.is_some() || ctx.doc.selection.is_empty() {
            return;
        }
        let originals = ctx.doc.selected_objects();
        self.load_tiles_for(ctx, &originals);
        self.transform = Some(Transform {
            mode,
            axis: None,
            stroke: ObjectStroke::default(),
            originals,
            start_ndc: None,
            start_ground: None,
            grip: None,
        });
    }

    /// Locks the transform under way to `axis` (X, Y, Z), or unlocks it when it already is.
    fn toggle_axis(&mut self, axis: Axis) {
        if let Some(t) = &mut self.transform {
            t.axis = if t.axis == Some(axis) {
                None
            } else {
                Some(axis)
            };
            // The new lock starts from where the transform began.
            t.start_ground = None;
            t.start_ndc = None;
        }
    }

    /// Ctrl+D: copies of the selection in place, as one undo step.
    fn duplicate(&mut self, ctx: &mut ObjectCtx) {
        let records = ctx.doc.selected_objects();
        let n = records.len();
        if n > 0 {
            let label = format!("Duplicate {n} object(s)");
            self.add_copies(ctx, records, [0.0, 0.0], false, &label);
        }
    }

    /// Ctrl+C: the selection to the clipboard.
    fn copy(&mut self, ctx: &mut ObjectCtx) {
        let records = ctx.doc.selected_objects();
        if !records.is_empty() {
            *ctx.message = Some(format!("{} object(s) copied", records.len()));
            self.clipboard = records;
        }
    }

    /// Ctrl+V: the clipboard's objects at the cursor, keeping their places relative to their
    /// centre, standing on the terrain.
    fn paste(&mut self, ctx: &mut ObjectCtx) {
        let Some(at) = ctx.hover else { return };
        if self.clipboard.is_empty() {
            return;
        }
        let records = self.clipboard.clone();
        let n = records.len() as f64;
        let cx = records.iter().map(|r| r.position[0]).sum::<f64>() / n;
        let cy = records.iter().map(|r| r.position[1]).sum::<f64>() / n;
        let label = format!("Paste {} object(s)", records.len());
        self.add_copies(
            ctx,
            records,
            [at.world[0] - cx, at.world[1] - cy],
            true,
            &label,
        );
    }

    /// Carries out the object tool's intents; returns the intent back when it is none of them.
    pub fn handle(&mut self, ctx: &mut ObjectCtx, intent: Intent) -> Option<Intent> {
        match intent {
            Intent::EditObject(record) => {
                let mut touching = vec![record.clone()];
                if let Some(s) = &ctx.doc.session {
                    touching.extend(objects::find(&s.map, record.kind, record.unique_id));
                }
                self.load_tiles_for(ctx, &touching);
                let label = format!("Edit {} (uid {})", short(&record.model), record.unique_id);
                self.edit_objects(ctx, &label, |map, stroke, model_box| {
                    objects::put(map, stroke, &record, model_box(&record.model));
                });
            }
            Intent::Command(Command::SnapSelectionToGround) => {
                self.edit_selection(ctx, "Snap", |map, r| {
                    let z = crate::edit::lattice::height_at(map, r.position[0], r.position[1])?;
                    r.position[2] = f64::from(z);
                    Some(())
                })
            }
            Intent::Command(Command::AlignSelectionToGround) => {
                self.edit_selection(ctx, "Align", |map, r| {
                    let normal = objects::ground_normal(map, r.position[0], r.position[1])?;
                    r.rotation = objects::aligned_to(r.rotation, normal);
                    Some(())
                })
            }
            Intent::Command(Command::DeleteSelection) => {
                let records = ctx.doc.selected_objects();
                self.load_tiles_for(ctx, &records);
                let selection = std::mem::take(&mut ctx.doc.selection);
                let n = selection.len();
                self.edit_objects(ctx, &format!("Delete {n} object(s)"), |map, stroke, _| {
                    for (kind, uid) in selection {
                        objects::remove(map, stroke, kind, uid);
                    }
                });
            }
            Intent::Command(Command::ClearSelection) => ctx.doc.selection.clear(),
            Intent::TransformSelection(mode) => self.begin_transform(ctx, mode),
            Intent::TransformAxis(axis) => self.toggle_axis(axis),
            Intent::Command(Command::CancelTransform) => self.cancel_transform(ctx),
            Intent::Command(Command::DuplicateSelection) => self.duplicate(ctx),
            Intent::Command(Command::CopySelection) => self.copy(ctx),
            Intent::Command(Command::PasteSelection) => self.paste(ctx),
            Intent::SelectSameModel(model) => {
                if let Some(s) = &ctx.doc.session {
                    let all = crate::model::objects::collect(&s.map);
                    ctx.doc.selection = all
                        .iter()
                        .filter(|o| {
                            o.model
                                .as_ref()
                                .is_some_and(|m| m.eq_ignore_ascii_case(&model))
                        })
                        .map(|o| (o.kind, o.unique_id))
                        .collect();
                }
            }
            Intent::SetPlaceOptions(p) => self.place = p,
            Intent::SetUidRange(r) => self.set_uid_range(ctx, r),
            other => return Some(other),
        }
        None
    }

    /// Changes each selected object with `change` (which says `None` to leave one as it is),
    /// as one undo step "{verb} N object(s) to the ground".
    fn edit_selection(
        &self,
        ctx: &mut ObjectCtx,
        verb: &str,
        change: impl Fn(&crate::model::Map, &mut ObjectRecord) -> Option<()>,
    ) {
        let records = ctx.doc.selected_objects();
        self.load_tiles_for(ctx, &records);
        let label = format!("{verb} {} object(s) to the ground", records.len());
        self.edit_objects(ctx, &label, |map, stroke, model_box| {
            for mut r in records {
                if change(map, &mut r).is_some() {
                    objects::put(map, stroke, &r, model_box(&r.model));
                }
            }
        });
    }

    /// Runs `change` on the map as one undo step labelled `label` (nothing is recorded when it
    /// changed nothing), then marks and redraws what it touched.
    fn edit_objects(
        &self,
        ctx: &mut ObjectCtx,
        label: &str,
        change: impl FnOnce(
            &mut crate::model::Map,
            &mut ObjectStroke,
            &dyn Fn(&str) -> Option<objects::ModelBox>,
        ),
    ) {
        let scene = &ctx.scene;
        let model_box = |name: &str| scene.model_box(name);
        let Some(s) = &mut ctx.doc.session else {
            return;
        };
        if ctx.doc.editing.is_stroking() {
            return;
        }
        let mut stroke = ObjectStroke::default();
        change(&mut s.map, &mut stroke, &model_box);
        let Some(edit) = stroke.finish(&s.map, label) else {
            return;
        };
        let touched = edit.touched();
        ctx.doc.editing.history.push(&mut s.map, edit);
        ctx.touched.extend(touched);
    }

    /// Forgets the selection, a drag and the clipboard's claim to uids (a new map), and starts
    /// reading the new map's uniqueIds.
    pub fn clear(&mut self, ctx: &mut ObjectCtx) {
        ctx.doc.selection.clear();
        self.drag = None;
        let wake = ctx.repaint.clone();
        if let Some(why) = ctx.doc.uids.start(ctx.doc.session.as_ref(), wake) {
            *ctx.message = Some(why);
        }
    }
}

/// The file name of a model path, for history labels.
fn short(path: &str) -> &str {
    path.rsplit(['\\', '/']).next().unwrap_or(path)
}

/// Writes each of `records` into the open map (of `session`) as part of `stroke`, with its
/// model's box from `scene`; the session, or `None` when no map is open.
fn put_records<'s>(
    session: &'s mut Option<Session>,
    scene: &ObjectScene,
    stroke: &mut ObjectStroke,
    records: &[ObjectRecord],
) -> Option<&'s mut Session> {
    let s = session.as_mut()?;
    for r in records {
        objects::put(&mut s.map, stroke, r, scene.model_box(&r.model));
    }
    Some(s)
}

/// The tool as the shell reaches it: each call sees the document, the scene and the view
/// through an [`ObjectCtx`], and the chunks it changed are marked and redrawn after.
impl crate::app::component::Component for ObjectTool {
    fn handle(&mut self, intent: Intent, cx: &mut crate::app::context::AppCtx) -> Option<Intent> {
        // A model picked in the asset browser is what clicks place.
        if let Intent::PickAsset(kind, path) = intent {
            if kind == crate::assets::catalog::AssetKind::Texture {
                return Some(Intent::PickAsset(kind, path));
            }
            self.place.model = Some(path);
            self.place.active = true;
            return None;
        }
        self.with_ctx(cx, |tool, c| ObjectTool::handle(tool, c, intent))
    }

    fn drive(&mut self, input: &ViewportInput, cx: &mut crate::app::context::AppCtx) {
        if cx.doc.editing.settings.tool == crate::edit::tools::Tool::Objects {
            self.with_ctx(cx, |tool, c| tool.click(c, input));
        }
    }

    fn is_busy(&self) -> bool {
        self.is_dragging()
    }

    /// The selection, a drag and the uids belonged to the old map (or source).
    fn sources_changed(
        &mut self,
        cx: &mut crate::app::context::AppCtx,
        _source: &crate::assets::textures::ByteSource,
    ) {
        if cx.doc.session.is_some() {
            self.with_ctx(cx, |tool, c| tool.clear(c));
        }
    }
}

impl ObjectTool {
    /// Runs `f` with this tool and what it works with, then marks and redraws the chunks it
    /// changed.
    fn with_ctx<R>(
        &mut self,
        cx: &mut crate::app::context::AppCtx,
        f: impl FnOnce(&mut ObjectTool, &mut ObjectCtx) -> R,
    ) -> R {
        let mut c = ObjectCtx {
            doc: &mut cx.doc,
            scene: &mut cx.streams.objects,
            camera: &cx.view.camera,
            hover: cx.view.hover,
            filter: &cx.settings.objects,
            message: &mut cx.shell.message,
            repaint: &cx.streams.repaint,
            touched: Vec::new(),
        };
        let r = f(self, &mut c);
        let touched = c.touched;
        cx.after_edit(touched);
        r
    }
}
