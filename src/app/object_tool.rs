//! The object tool: selecting doodads and WMOs with the mouse, dragging the selection over the
//! terrain, placing the model chosen in the asset browser with a click, copy, paste and
//! duplicate, and editing the selection from the object panel (typed position, rotation, scale,
//! doodad set; snap to ground; delete). Each change is one undo step in the brushes' history.
//!
//! New objects take uniqueIds above every uid the map uses on disk, loaded or not: a worker
//! reads the placements of every tile when the map opens (`TileSource::unique_ids`), and
//! placing waits for it.
//!
//! Not for: the edits themselves (`edit::objects`), drawing the selection (`render`) or the
//! panel's widgets (`ui::object_panel`).

use std::sync::{Arc, Mutex};

use glam::Vec3;

use super::LoamApp;
use super::intent::Intent;
use crate::edit::objects::{self, ObjectRecord, ObjectStroke};
use crate::edit::transform;
use crate::model::ObjectKind;
use crate::render::gizmo::{self, Handle};
use crate::ui::viewport::ViewportInput;

/// What the object tool holds between frames.
#[derive(Debug, Default)]
pub struct ObjectTool {
    /// Selected objects by (kind, uniqueId), in the order they were picked.
    pub selection: Vec<(ObjectKind, u32)>,
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
    /// Every uid the map's tiles on disk use, with the tiles that list it, once the worker has
    /// read them all (`None` until then).
    disk_uids: Arc<Mutex<Option<Arc<DiskUids>>>>,
    /// The map's uniqueId range (its range file), when it has one.
    uid_range: Option<objects::UidRange>,
    /// A counter for the random turns and scales of placed objects.
    seed: u64,
}

impl ObjectTool {
    /// The map's uniqueId range, when it has one.
    pub fn uid_range(&self) -> Option<objects::UidRange> {
        self.uid_range
    }

    /// The uids of the map's tiles on disk, once the scan started when the map opened is done.
    pub fn disk_uids(&self) -> Option<Arc<DiskUids>> {
        self.disk_uids.lock().ok().and_then(|g| g.clone())
    }

    /// True while the selection is being dragged or transformed (undo waits for the end).
    pub fn is_dragging(&self) -> bool {
        self.drag.is_some() || self.transform.is_some()
    }

    /// The keyboard transform under way and its axis lock, for the panel.
    pub fn transform(&self) -> Option<(TransformMode, Option<char>)> {
        self.transform.as_ref().map(|t| (t.mode, t.axis))
    }
}

/// The uids of the tiles on disk and the tiles listing each (doodads and WMOs together: a uid
/// the two kinds share lists the tiles of both, which only means a tile more is loaded).
pub type DiskUids = crate::model::objects::UidTiles;

pub use crate::command::PlaceOptions;

/// What a keyboard transform does with the mouse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransformMode {
    /// G: move over the ground (X or Y: along that world axis only; Z: up and down).
    Move,
    /// R: turn about the up axis (X: about north, Y: about west), a multi-selection about its
    /// centre.
    Turn,
    /// T: scale doodads (a multi-selection spreads from its centre). Not S: S flies the
    /// camera back.
    Scale,
}

impl TransformMode {
    /// The panel's words for a transform under way.
    pub fn describe(self, axis: Option<char>) -> String {
        let what = match self {
            TransformMode::Move => "Moving",
            TransformMode::Turn => "Turning",
            TransformMode::Scale => "Scaling",
        };
        let lock = axis.map_or(String::new(), |a| format!(" (axis {a})"));
        format!("{what}{lock}: click to confirm, Esc to cancel, X/Y/Z lock an axis")
    }
}

/// A keyboard transform: the records when it began, where the mouse and ground were, the
/// axis lock, and the edit so far (reverted on Esc).
#[derive(Debug)]
struct Transform {
    mode: TransformMode,
    axis: Option<char>,
    stroke: ObjectStroke,
    originals: Vec<ObjectRecord>,
    start_ndc: Option<[f32; 2]>,
    start_ground: Option<[f64; 3]>,
    /// A gizmo drag: the handle, the gizmo's centre and arrow direction, and the arrow
    /// position or ring angle where the drag began. Released, it is confirmed.
    handle: Option<(Handle, Vec3, Vec3, f32)>,
}

/// A drag of the selection: the records when it began and the ground point it began on.
#[derive(Debug)]
struct Drag {
    stroke: ObjectStroke,
    start: [f64; 3],
    originals: Vec<ObjectRecord>,
    moved: bool,
}

impl LoamApp {
    /// The selected objects as their first listing tile records them (objects no longer in a
    /// loaded tile are left out).
    pub fn selected_objects(&self) -> Vec<ObjectRecord> {
        let Some(s) = &self.doc.session else {
            return Vec::new();
        };
        self.object_tool
            .selection
            .iter()
            .filter_map(|&(kind, uid)| objects::find(&s.map, kind, uid))
            .collect()
    }

    /// The terrain point under the mouse, as of the last frame.
    pub fn hover_point(&self) -> Option<crate::render::pick::TerrainPoint> {
        self.view.hover
    }

    /// The placed objects as the view shows them.
    pub fn object_scene(&self) -> &super::objects::ObjectScene {
        &self.streams.objects
    }

    /// The selection as (kind, uniqueId) pairs.
    pub fn selection(&self) -> &[(ObjectKind, u32)] {
        &self.object_tool.selection
    }

    /// The view's mouse with the object tool: a click selects the object under the cursor
    /// (Shift adds it, Ctrl toggles it, nothing under it clears the selection), or places the
    /// chosen model while placing is on; a drag that starts on a selected object moves the
    /// selection over the terrain as one undo step.
    pub(super) fn object_click(&mut self, input: &ViewportInput) {
        if self.object_tool.band.is_some() {
            self.drag_band(input);
            return;
        }
        if self.object_tool.transform.is_some() {
            self.transform_step(input);
            return;
        }
        if self.object_tool.drag.is_some() {
            self.drag_selection(input);
            return;
        }
        if !input.brush_pressed {
            return;
        }
        if self.object_tool.place.active && self.object_tool.place.model.is_some() {
            self.place_at_cursor();
            return;
        }
        if self.begin_gizmo_drag(input) {
            return;
        }
        let picked = self.object_under(input);
        let sel = &mut self.object_tool.selection;
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
                self.begin_drag();
            }
            // Nothing under the cursor: a rubber band starts (a click without a drag clears
            // the selection, unless Shift or Ctrl add to it).
            None => {
                if let Some(ndc) = input.hover_ndc {
                    self.object_tool.band = Some((ndc, ndc, input.fast || input.slow));
                }
            }
        }
    }

    /// The rubber band under way, for the view to draw.
    pub(super) fn band(&self) -> Option<([f32; 2], [f32; 2])> {
        self.object_tool.band.map(|(a, b, _)| (a, b))
    }

    /// Follows the rubber band; on release selects the objects inside it (added to the
    /// selection with Shift or Ctrl), or clears the selection after a mere click.
    fn drag_band(&mut self, input: &ViewportInput) {
        let Some((start, mut end, adding)) = self.object_tool.band.take() else {
            return;
        };
        if let Some(ndc) = input.hover_ndc {
            end = ndc;
        }
        if input.brush_held {
            self.object_tool.band = Some((start, end, adding));
            return;
        }
        let (w, h) = (input.rect.width() / 2.0, input.rect.height() / 2.0);
        let tiny = ((end[0] - start[0]) * w).abs() < 4.0 && ((end[1] - start[1]) * h).abs() < 4.0;
        let sel = &mut self.object_tool.selection;
        if tiny {
            if !adding {
                sel.clear();
            }
            return;
        }
        let lo = [start[0].min(end[0]), start[1].min(end[1])];
        let hi = [start[0].max(end[0]), start[1].max(end[1])];
        let vp = self.view.camera.view_projection(input.aspect());
        let inside = self
            .streams
            .objects
            .objects_in(vp, lo, hi, &self.settings.objects);
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
    pub fn gizmo_centre(&self) -> Option<(Vec3, Option<f32>)> {
        if self.doc.editing.settings.tool != crate::doc::editing::Tool::Objects {
            return None;
        }
        let records = self.selected_objects();
        let first = records.first()?;
        let n = records.len() as f64;
        let c = [0, 1, 2].map(|i| records.iter().map(|r| r.position[i]).sum::<f64>() / n);
        let yaw = self
            .object_tool
            .place
            .local_axes
            .then_some(first.rotation[1]);
        Some((Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32), yaw))
    }

    /// A press on one of the gizmo's handles starts a drag of the selection along that arrow
    /// or round the ring; true when it did.
    fn begin_gizmo_drag(&mut self, input: &ViewportInput) -> bool {
        let (Some(ndc), Some((centre, yaw))) = (input.hover_ndc, self.gizmo_centre()) else {
            return false;
        };
        let vp = self.view.camera.view_projection(input.aspect());
        let Some(g) = gizmo::layout(centre, yaw, vp, self.view.camera.eye()) else {
            return false;
        };
        let half = [input.rect.width() / 2.0, input.rect.height() / 2.0];
        let Some(handle) = gizmo::hit(&g, ndc, half, 7.0) else {
            return false;
        };
        let (origin, dir) = self.view.camera.ray(ndc, input.aspect());
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
        self.object_tool.transform = Some(Transform {
            mode: match handle {
                Handle::Axis(_) => TransformMode::Move,
                Handle::Ring => TransformMode::Turn,
                Handle::Scale => TransformMode::Scale,
            },
            axis: None,
            stroke: ObjectStroke::default(),
            originals: {
                let records = self.selected_objects();
                self.load_tiles_for(&records);
                records
            },
            start_ndc: Some(ndc),
            start_ground: None,
            handle: Some((handle, centre, axis, start)),
        });
        true
    }

    /// The object under the cursor, unless the terrain in front of it hides it.
    fn object_under(&self, input: &ViewportInput) -> Option<(ObjectKind, u32)> {
        let index = self.object_index_under(input)?;
        self.streams
            .objects
            .object(index)
            .map(|o| (o.kind, o.unique_id))
    }

    /// Starts dragging the selection from the ground point under the cursor.
    fn begin_drag(&mut self) {
        let Some(start) = self.view.hover.map(|h| h.world) else {
            return;
        };
        let originals = self.selected_objects();
        self.load_tiles_for(&originals);
        if originals.is_empty() {
            return;
        }
        self.object_tool.drag = Some(Drag {
            stroke: ObjectStroke::default(),
            start,
            originals,
            moved: false,
        });
    }

    /// Moves the dragged selection with the cursor, keeping each object's height above the
    /// ground; on release, records the whole drag as one undo step.
    fn drag_selection(&mut self, input: &ViewportInput) {
        let Some(mut drag) = self.object_tool.drag.take() else {
            return;
        };
        let moved: Vec<ObjectRecord> = match (&self.doc.session, self.view.hover) {
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
            self.load_tiles_for(&moved);
            drag.moved = true;
        }
        let scene = &self.streams.objects;
        let model_box = |name: &str| scene.model_box(name);
        let Some(s) = &mut self.doc.session else {
            return;
        };
        for r in &moved {
            objects::put(&mut s.map, &mut drag.stroke, r, model_box(&r.model));
        }
        if !moved.is_empty() {
            self.streams.objects.invalidate();
        }
        if input.brush_held {
            self.object_tool.drag = Some(drag);
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
        self.doc.editing.history.push(&mut s.map, edit);
        self.after_edit(touched);
    }

    /// One frame of a keyboard transform: the selection follows the mouse from where the
    /// transform began; a click confirms it as one undo step.
    fn transform_step(&mut self, input: &ViewportInput) {
        let Some(mut t) = self.object_tool.transform.take() else {
            return;
        };
        let Some(ndc) = input.hover_ndc else {
            self.object_tool.transform = Some(t);
            return;
        };
        let start = *t.start_ndc.get_or_insert(ndc);
        if t.start_ground.is_none() {
            t.start_ground = self.view.hover.map(|h| h.world);
        }
        let (dx_ndc, dy_ndc) = (f64::from(ndc[0] - start[0]), f64::from(ndc[1] - start[1]));
        let n = t.originals.len() as f64;
        let centre = [0, 1].map(|i| t.originals.iter().map(|r| r.position[i]).sum::<f64>() / n);
        let eye = self.view.camera.eye();
        let reach = ((eye.x as f64 - centre[0]).hypot(eye.y as f64 - centre[1])).max(10.0);
        if self.doc.session.is_none() {
            return;
        }
        let ground_delta = match (t.start_ground, self.view.hover) {
            (Some(a), Some(b)) => [b.world[0] - a[0], b.world[1] - a[1]],
            _ => [0.0, 0.0],
        };
        // A gizmo drag: how far along its arrow, or how far round its ring, the cursor is now.
        let (ray_origin, ray_dir) = self.view.camera.ray(ndc, input.aspect());
        let handle_delta = t.handle.and_then(|(handle, c, axis, start)| match handle {
            Handle::Axis(_) => {
                gizmo::along_axis(c, axis, ray_origin, ray_dir).map(|now| now - start)
            }
            Handle::Ring => gizmo::angle_on_ground(c, ray_origin, ray_dir).map(|now| {
                // The shorter way round from where the drag began.
                (now - start + 540.0).rem_euclid(360.0) - 180.0
            }),
            // Sideways on screen: half the view's width doubles the size.
            Handle::Scale => Some(dx_ndc as f32),
        });
        let mut targets = Vec::with_capacity(t.originals.len());
        for o in &t.originals {
            let mut r = o.clone();
            if let (Some((handle, _, axis, _)), Some(delta)) = (t.handle, handle_delta) {
                let delta = f64::from(delta);
                match handle {
                    Handle::Axis(_) => {
                        for i in 0..3 {
                            r.position[i] += f64::from(axis[i]) * delta;
                        }
                    }
                    Handle::Scale => {
                        let factor = (1.0 + delta * 2.0).max(0.01);
                        let Some(scaled) = transform::scaled_about(o, centre, factor) else {
                            continue;
                        };
                        r = scaled;
                    }
                    Handle::Ring => r = transform::turned_about(o, centre, delta),
                }
                targets.push(r);
                continue;
            }
            if t.handle.is_some() {
                // No answer this frame (the ray runs along the arrow): stay where it was.
                continue;
            }
            match t.mode {
                TransformMode::Move => match t.axis {
                    // Up and down by the mouse's height on screen, scaled by the distance.
                    Some('z') => r.position[2] += dy_ndc * reach * 0.5,
                    Some('x') => r.position[0] += ground_delta[0],
                    Some('y') => r.position[1] += ground_delta[1],
                    _ => {
                        r.position[0] += ground_delta[0];
                        r.position[1] += ground_delta[1];
                    }
                },
                TransformMode::Turn => {
                    let degrees = dx_ndc * 180.0;
                    match t.axis {
                        Some('x') => r.rotation[2] = (f64::from(o.rotation[2]) + degrees) as f32,
                        Some('y') => r.rotation[0] = (f64::from(o.rotation[0]) + degrees) as f32,
                        _ => r = transform::turned_about(o, centre, degrees),
                    }
                }
                TransformMode::Scale => {
                    let factor = (1.0 + dx_ndc * 2.0).max(0.01);
                    let Some(scaled) = transform::scaled_about(o, centre, factor) else {
                        continue;
                    };
                    r = scaled;
                }
            }
            targets.push(r);
        }
        // Every tile the objects' new places touch is in memory before they go there.
        self.load_tiles_for(&targets);
        let scene = &self.streams.objects;
        let model_box = |name: &str| scene.model_box(name);
        let Some(s) = &mut self.doc.session else {
            return;
        };
        for r in &targets {
            objects::put(&mut s.map, &mut t.stroke, r, model_box(&r.model));
        }
        self.streams.objects.invalidate();
        // A gizmo drag ends when the button is let go, a keyboard transform with a click.
        let confirmed = if t.handle.is_some() {
            !input.brush_held
        } else {
            input.brush_pressed
        };
        if !confirmed {
            self.object_tool.transform = Some(t);
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
            self.doc.editing.history.push(&mut s.map, edit);
            self.after_edit(touched);
        }
    }

    /// Ends a keyboard transform without recording it: the objects go back.
    fn cancel_transform(&mut self) {
        let Some(t) = self.object_tool.transform.take() else {
            return;
        };
        if let Some(s) = &mut self.doc.session {
            t.stroke.revert(&mut s.map);
        }
        self.streams.objects.invalidate();
    }

    /// A uniqueId for a new object: above every uid the map's tiles use, on disk or in memory
    /// (inside the map's range when it has one); an error while the worker is still reading
    /// the tiles on disk, or when the range is used up.
    fn fresh_uid(&self, taken: &[u32]) -> Result<u32, String> {
        let s = self.doc.session.as_ref().ok_or("no map is open")?;
        let disk = self
            .object_tool
            .disk_uids()
            .ok_or("still reading the map's uniqueIds: try again in a moment")?;
        let memory = objects::unique_ids(&s.map);
        objects::next_unique_id_in(
            disk.keys()
                .copied()
                .chain(memory.into_iter().map(|(_, u)| u))
                .chain(taken.iter().copied()),
            self.object_tool.uid_range,
        )
    }

    /// Loads every tile on disk that an edit of `records` could touch: the tiles their boxes
    /// overlap and the tiles the disk scan saw listing their uids. A tile left on disk would keep
    /// a stale copy of a moved or deleted object (a duplicate in the client), and would miss a
    /// placed one.
    fn load_tiles_for(&mut self, records: &[ObjectRecord]) {
        let listed = self.object_tool.disk_uids();
        let mut coords = Vec::new();
        for r in records {
            coords.extend(objects::tiles_overlapping(
                r.world_box(self.streams.objects.model_box(&r.model)),
            ));
            if let Some(tiles) = listed.as_ref().and_then(|l| l.get(&r.unique_id)) {
                coords.extend(tiles.iter().copied());
            }
        }
        let Some(s) = &mut self.doc.session else {
            return;
        };
        let missing: Vec<_> = coords
            .into_iter()
            .filter(|c| s.on_disk.contains(c) && !s.map.tiles.contains_key(c))
            .collect();
        if !missing.is_empty() {
            s.load_now(&missing);
            self.streams.objects.invalidate();
        }
    }

    /// Sets the map's uniqueId range and stores it beside the map (`None` removes it).
    fn set_uid_range(&mut self, range: Option<(u32, u32)>) {
        let Some(s) = &self.doc.session else { return };
        let range = match range.map(|(a, b)| objects::UidRange::new(a, b)).transpose() {
            Ok(r) => r,
            Err(e) => {
                self.shell.message = Some(e);
                return;
            }
        };
        match crate::disk::uid_range::write(&s.folder, &s.map.name, range) {
            Ok(()) => {
                self.object_tool.uid_range = range;
                self.shell.message = Some(match range {
                    Some(r) => format!(
                        "new objects take uniqueIds {}-{} (kept in {})",
                        r.first,
                        r.last,
                        crate::disk::uid_range::path(&s.folder, &s.map.name).display()
                    ),
                    None => "new objects take uniqueIds above every one in the map".into(),
                });
            }
            Err(e) => self.shell.message = Some(e.to_string()),
        }
    }

    /// A number in 0..1 from the tool's counter (splitmix64): random turns and scales need
    /// no more than this.
    fn next_random(&mut self) -> f64 {
        self.object_tool.seed = self.object_tool.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.object_tool.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as f64 / u64::MAX as f64
    }

    /// Places the chosen model on the terrain under the cursor, as one undo step, and selects it.
    fn place_at_cursor(&mut self) {
        let (Some(model), Some(at)) = (self.object_tool.place.model.clone(), self.view.hover)
        else {
            return;
        };
        let uid = match self.fresh_uid(&[]) {
            Ok(u) => u,
            Err(e) => {
                self.shell.message = Some(e);
                return;
            }
        };
        let kind = crate::edit::object_ops::kind_of_model(&model);
        let opts = self.object_tool.place.clone();
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
                ObjectKind::Doodad => (scale * 1024.0).round().clamp(1.0, 65535.0) as u16,
                // MODF has no scale before Legion.
                ObjectKind::Wmo => 0,
            },
            flags: 0,
            doodad_set: 0,
            name_set: 0,
        };
        self.load_tiles_for(std::slice::from_ref(&record));
        self.edit_objects(
            &format!("Place {} (uid {uid})", short(&model)),
            |map, stroke, model_box| {
                objects::put(map, stroke, &record, model_box(&record.model));
            },
        );
        self.object_tool.selection = vec![(kind, uid)];
    }

    /// Puts copies of `records` at their positions moved by `offset` (x, y; standing on the
    /// terrain when `on_ground`), each with a fresh uid, as one undo step; selects the copies.
    fn add_copies(
        &mut self,
        records: Vec<ObjectRecord>,
        offset: [f64; 2],
        on_ground: bool,
        label: &str,
    ) {
        let mut uids: Vec<u32> = Vec::new();
        for _ in &records {
            match self.fresh_uid(&uids) {
                Ok(u) => uids.push(u),
                Err(e) => {
                    self.shell.message = Some(e);
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
        self.load_tiles_for(&copies);
        self.edit_objects(label, |map, stroke, model_box| {
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
        self.object_tool.selection = keys;
    }

    /// Ctrl+C, Ctrl+V and Ctrl+D with the object tool: copy the selection, paste it at the
    /// cursor (keeping the objects' places relative to their centre), duplicate it in place.
    pub(super) fn object_shortcuts(&mut self, ctx: &egui::Context) {
        use egui::{Key, Modifiers};
        let plain = |key| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, key));
        if self.object_tool.transform.is_some() {
            if plain(Key::Escape) {
                self.cancel_transform();
            }
            for (key, axis) in [(Key::X, 'x'), (Key::Y, 'y'), (Key::Z, 'z')] {
                if plain(key)
                    && let Some(t) = &mut self.object_tool.transform
                {
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
            return;
        }
        if self.object_tool.drag.is_none() && !self.object_tool.selection.is_empty() {
            for (key, mode) in [
                (Key::G, TransformMode::Move),
                (Key::R, TransformMode::Turn),
                (Key::T, TransformMode::Scale),
            ] {
                if plain(key) {
                    self.object_tool.transform = Some(Transform {
                        mode,
                        axis: None,
                        stroke: ObjectStroke::default(),
                        originals: {
                            let records = self.selected_objects();
                            self.load_tiles_for(&records);
                            records
                        },
                        start_ndc: None,
                        start_ground: None,
                        handle: None,
                    });
                    return;
                }
            }
        }
        let pressed = |key| ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, key));
        if pressed(Key::D) {
            let records = self.selected_objects();
            let n = records.len();
            if n > 0 {
                self.add_copies(
                    records,
                    [0.0, 0.0],
                    false,
                    &format!("Duplicate {n} object(s)"),
                );
            }
        }
        // egui turns Ctrl+C and Ctrl+V into clipboard events rather than key presses.
        let (copy, paste) = ctx.input(|i| {
            (
                i.events.iter().any(|e| matches!(e, egui::Event::Copy)),
                i.events.iter().any(|e| matches!(e, egui::Event::Paste(_))),
            )
        });
        if copy {
            let records = self.selected_objects();
            if !records.is_empty() {
                self.shell.message = Some(format!("{} object(s) copied", records.len()));
                self.object_tool.clipboard = records;
            }
        }
        if paste
            && !self.object_tool.clipboard.is_empty()
            && let Some(at) = self.view.hover
        {
            let records = self.object_tool.clipboard.clone();
            let n = records.len() as f64;
            let cx = records.iter().map(|r| r.position[0]).sum::<f64>() / n;
            let cy = records.iter().map(|r| r.position[1]).sum::<f64>() / n;
            let label = format!("Paste {} object(s)", records.len());
            self.add_copies(records, [at.world[0] - cx, at.world[1] - cy], true, &label);
        }
    }

    /// Starts reading the uniqueIds of every tile on disk (a map was opened).
    pub(super) fn start_uid_scan(&mut self) {
        let cell = Arc::new(Mutex::new(None));
        self.object_tool.disk_uids = cell.clone();
        let Some(s) = &self.doc.session else {
            return;
        };
        self.object_tool.uid_range = match crate::disk::uid_range::read(&s.folder, &s.map.name) {
            Ok(r) => r,
            Err(e) => {
                self.shell.message = Some(e.to_string());
                None
            }
        };
        let source = s.tiles.clone();
        let coords: Vec<_> = s.on_disk.iter().copied().collect();
        let wake = self.streams.repaint.clone();
        let spawned = std::thread::Builder::new()
            .name("loam-uid-scan".into())
            .spawn(move || {
                let all = source.map(|s| s.uid_tiles(&coords)).unwrap_or_default();
                if let Ok(mut g) = cell.lock() {
                    *g = Some(Arc::new(all));
                }
                wake();
            });
        if spawned.is_err() {
            self.shell.message =
                Some("could not start reading the map's uniqueIds: placing is off".into());
        }
    }

    /// Carries out the object tool's intents; returns the intent back when it is none of them.
    pub(super) fn handle_objects(&mut self, intent: Intent) -> Option<Intent> {
        match intent {
            Intent::EditObject(record) => {
                let mut touching = vec![record.clone()];
                if let Some(s) = &self.doc.session {
                    touching.extend(objects::find(&s.map, record.kind, record.unique_id));
                }
                self.load_tiles_for(&touching);
                let label = format!("Edit {} (uid {})", short(&record.model), record.unique_id);
                self.edit_objects(&label, |map, stroke, model_box| {
                    objects::put(map, stroke, &record, model_box(&record.model));
                });
            }
            Intent::SnapSelectionToGround => self.edit_selection("Snap", |map, r| {
                let z = crate::edit::lattice::height_at(map, r.position[0], r.position[1])?;
                r.position[2] = f64::from(z);
                Some(())
            }),
            Intent::AlignSelectionToGround => self.edit_selection("Align", |map, r| {
                let normal = objects::ground_normal(map, r.position[0], r.position[1])?;
                r.rotation = objects::aligned_to(r.rotation, normal);
                Some(())
            }),
            Intent::DeleteSelection => {
                let records = self.selected_objects();
                self.load_tiles_for(&records);
                let selection = std::mem::take(&mut self.object_tool.selection);
                let n = selection.len();
                self.edit_objects(&format!("Delete {n} object(s)"), |map, stroke, _| {
                    for (kind, uid) in selection {
                        objects::remove(map, stroke, kind, uid);
                    }
                });
            }
            Intent::ClearSelection => self.object_tool.selection.clear(),
            Intent::SelectSameModel(model) => {
                if let Some(s) = &self.doc.session {
                    let all = crate::model::objects::collect(&s.map);
                    self.object_tool.selection = all
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
            Intent::SetPlaceOptions(p) => self.object_tool.place = p,
            Intent::SetUidRange(r) => self.set_uid_range(r),
            other => return Some(other),
        }
        None
    }

    /// Changes each selected object with `change` (which says `None` to leave one as it is),
    /// as one undo step "{verb} N object(s) to the ground".
    fn edit_selection(
        &mut self,
        verb: &str,
        change: impl Fn(&crate::model::Map, &mut ObjectRecord) -> Option<()>,
    ) {
        let records = self.selected_objects();
        self.load_tiles_for(&records);
        let label = format!("{verb} {} object(s) to the ground", records.len());
        self.edit_objects(&label, |map, stroke, model_box| {
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
        &mut self,
        label: &str,
        change: impl FnOnce(
            &mut crate::model::Map,
            &mut ObjectStroke,
            &dyn Fn(&str) -> Option<objects::ModelBox>,
        ),
    ) {
        let scene = &self.streams.objects;
        let model_box = |name: &str| scene.model_box(name);
        let Some(s) = &mut self.doc.session else {
            return;
        };
        if self.doc.editing.is_stroking() {
            return;
        }
        let mut stroke = ObjectStroke::default();
        change(&mut s.map, &mut stroke, &model_box);
        let Some(edit) = stroke.finish(&s.map, label) else {
            return;
        };
        let touched = edit.touched();
        self.doc.editing.history.push(&mut s.map, edit);
        self.after_edit(touched);
    }

    /// Selects the objects with these uniqueIds (a doodad, else a WMO), those a loaded tile lists.
    pub fn select_by_uid(&mut self, uids: &[u32]) {
        let Some(s) = &self.doc.session else { return };
        self.object_tool.selection = uids
            .iter()
            .filter_map(|&uid| {
                [ObjectKind::Doodad, ObjectKind::Wmo]
                    .into_iter()
                    .find(|&k| objects::find(&s.map, k, uid).is_some())
                    .map(|k| (k, uid))
            })
            .collect();
    }

    /// Forgets the selection, a drag and the clipboard's claim to uids (a new map), and starts
    /// reading the new map's uniqueIds.
    pub(super) fn clear_object_selection(&mut self) {
        self.object_tool.selection.clear();
        self.object_tool.drag = None;
        self.start_uid_scan();
    }

    /// The placing options, for the object panel.
    pub fn place_options(&self) -> &PlaceOptions {
        &self.object_tool.place
    }
}

/// The file name of a model path, for history labels.
fn short(path: &str) -> &str {
    path.rsplit(['\\', '/']).next().unwrap_or(path)
}
