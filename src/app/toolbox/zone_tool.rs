//! The Lights and Area triggers tools as one component: which light or trigger is chosen, the
//! band the panel shows, the gizmo that moves the chosen one (its ring turns a box trigger),
//! Ctrl+click adding one on the ground, and the panel's changes, each made on the client's
//! tables the map holds (`doc::zone`) and recorded as one undo step when the gesture ends.
//!
//! Not for: what a change does to the rows (`doc::zone`, `assets::client::light_rows`,
//! `area_triggers`), drawing every light and trigger (`view_options::zone_marks`), or the
//! panel's widgets (`ui::zone_panel`).

use glam::Vec3;

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::assets::client::{
    AREA_TRIGGER_DBC, AreaTrigger, COLOUR_BAND_NAMES, ClientData, LightTableRows, TriggerRows,
    TriggerShape,
};
use crate::command::{Intent, ZoneIntent};
use crate::doc::zone::{self, Gesture, LIGHT_TABLES, LightChange};
use crate::edit::lattice;
use crate::edit::tools::Tool;
use crate::render::gizmo::{self, Handle};
use crate::render::marks::Marks;
use crate::ui::viewport::ViewportInput;
use crate::ui::zone_panel::ZoneView;

/// How near (screen points) a click must be to a light's or trigger's centre to choose it.
const PICK_POINTS: f32 = 14.0;
/// The chosen light or trigger's colour over the view.
const CHOSEN: [u8; 4] = [90, 255, 120, 255];

/// A gizmo drag: the handle, the centre and arrow at the press, where along the arrow (or
/// round the ring) the drag began, and the chosen one as it was then.
#[derive(Debug, Clone, Copy)]
struct Grip {
    handle: Handle,
    centre: Vec3,
    arrow: Vec3,
    start: f32,
    /// A box's yaw (radians) at the press: the ring turns it from there.
    yaw: f32,
}

/// What the panel's view was worked out for: the tables' revision, the choice, the band, the
/// tool and the time of day.
type ViewKey = (u64, Option<u32>, usize, Tool, u32);

/// The tools' state.
#[derive(Debug, Default)]
pub struct ZoneTool {
    light: Option<u32>,
    trigger: Option<u32>,
    band: usize,
    gesture: Option<Gesture>,
    changed_this_frame: bool,
    grip: Option<Grip>,
    view: Option<(ViewKey, ZoneView)>,
    /// The tool, map and client the tables were last read for (once each: a client whose
    /// tables cannot be read is not read again every frame).
    read_for: Option<(Tool, String, Option<std::path::PathBuf>)>,
}

/// What the tools need of the open map and client: the client and the map's Map.dbc id.
fn client_and_map(cx: &AppCtx) -> Result<(std::sync::Arc<ClientData>, u32), String> {
    let client = cx
        .doc
        .client
        .as_ref()
        .ok_or("set the game client (Settings ▸ Client data…): the zone's lights and triggers are its tables")?;
    let data = client
        .opened
        .as_ref()
        .map_err(|e| format!("the client folder cannot be read as a client: {e}"))?;
    let s = cx.doc.session.as_ref().ok_or("no map is open")?;
    let id = client.map_id(&s.map.name).ok_or_else(|| {
        format!(
            "the client's Map.dbc has no map in folder {}: register the map first (loam \
             convert --client, or File ▸ Export for client)",
            s.map.name
        )
    })?;
    Ok((data.clone(), id))
}

impl ZoneTool {
    /// The tool the component follows now, if it is one of its two.
    fn tool(cx: &AppCtx) -> Option<Tool> {
        let t = cx.doc.editing.settings.tool;
        matches!(t, Tool::Lights | Tool::Triggers).then_some(t)
    }

    /// The chosen light or trigger of `tool`.
    fn chosen(&self, tool: Tool) -> Option<u32> {
        if tool == Tool::Lights {
            self.light
        } else {
            self.trigger
        }
    }

    /// Reads the tool's tables into the map when it does not hold them yet; the client and
    /// the map's id.
    fn ready(cx: &mut AppCtx, tool: Tool) -> Result<(std::sync::Arc<ClientData>, u32), String> {
        let (client, id) = client_and_map(cx)?;
        let s = cx.doc.session.as_mut().ok_or("no map is open")?;
        let tables: &[&str] = if tool == Tool::Lights {
            &LIGHT_TABLES
        } else {
            &[AREA_TRIGGER_DBC]
        };
        zone::hold(&mut s.map, &client, tables)?;
        Ok((client, id))
    }

    /// Makes a change of the light tables, `label` naming the undo step: the gesture under
    /// way when it has that name, else a new one (the last one recorded first).
    fn light_edit<T>(
        &mut self,
        cx: &mut AppCtx,
        label: String,
        change: impl FnOnce(&mut LightTableRows, u32) -> Result<T, String>,
    ) -> Result<T, String> {
        let (client, map_id) = Self::ready(cx, Tool::Lights)?;
        self.begin(cx, &label, &LIGHT_TABLES);
        let s = cx.doc.session.as_mut().ok_or("no map is open")?;
        let mut rows = LightTableRows::from_held(&s.map.client_tables, client.generation())?;
        let out = change(&mut rows, map_id)?;
        if let Some(g) = &self.gesture {
            g.update(&mut s.map, &rows.held());
        }
        self.changed_this_frame = true;
        Ok(out)
    }

    /// Makes a change of AreaTrigger.dbc, as [`ZoneTool::light_edit`] does of the lights.
    fn trigger_edit<T>(
        &mut self,
        cx: &mut AppCtx,
        label: String,
        change: impl FnOnce(&mut TriggerRows, u32) -> Result<T, String>,
    ) -> Result<T, String> {
        let (_, map_id) = Self::ready(cx, Tool::Triggers)?;
        self.begin(cx, &label, &[AREA_TRIGGER_DBC]);
        let s = cx.doc.session.as_mut().ok_or("no map is open")?;
        let mut rows = zone::held_triggers(&s.map).ok_or("AreaTrigger.dbc is not read")?;
        let out = change(&mut rows, map_id)?;
        if let Some(g) = &self.gesture {
            g.update(&mut s.map, &[(AREA_TRIGGER_DBC, rows.rows())]);
        }
        self.changed_this_frame = true;
        Ok(out)
    }

    /// Starts a gesture called `label` over `tables` unless one of that name is under way.
    fn begin(&mut self, cx: &mut AppCtx, label: &str, tables: &[&str]) {
        if self.gesture.as_ref().is_some_and(|g| g.label == label) {
            return;
        }
        self.finish(cx);
        if let Some(s) = &cx.doc.session {
            self.gesture = Some(Gesture::begin(&s.map, label, tables));
        }
    }

    /// Ends the gesture under way: what it changed becomes one undo step.
    fn finish(&mut self, cx: &mut AppCtx) {
        let Some(g) = self.gesture.take() else {
            return;
        };
        if let Some(s) = &mut cx.doc.session
            && let Some(edit) = g.finish(&s.map)
        {
            cx.doc.editing.history.push(&mut s.map, edit);
            cx.after_edit(Vec::new());
        }
    }

    /// The ground the view looks at (or the cursor's point), a little above it.
    fn spot(cx: &AppCtx, at: Option<[f64; 3]>) -> Option<[f64; 3]> {
        if at.is_some() {
            return at;
        }
        let s = cx.doc.session.as_ref()?;
        let [_, look] = cx.view_points();
        let h = lattice::height_at(&s.map, look[0], look[1]).unwrap_or(0.0);
        Some([look[0], look[1], f64::from(h) + 5.0])
    }

    /// Carries out one of the panel's or the view's asks.
    fn act(&mut self, intent: ZoneIntent, cx: &mut AppCtx) -> Result<(), String> {
        let Some(tool) = Self::tool(cx) else {
            return Ok(());
        };
        let lights = tool == Tool::Lights;
        match intent {
            ZoneIntent::Select(id) => {
                self.finish(cx);
                if lights {
                    self.light = id;
                } else {
                    self.trigger = id;
                }
            }
            ZoneIntent::Band(b) => self.band = b,
            ZoneIntent::Add { at, like } => {
                self.finish(cx);
                let at = Self::spot(cx, at).ok_or("no ground to put it on")?;
                if lights {
                    let id = self.light_edit(cx, "Add light".into(), |rows, map| {
                        let like = match like {
                            Some(l) => l,
                            None => rows
                                .global_light(map)
                                .ok_or("the map has no global light whose colours to copy")?,
                        };
                        rows.add_light(map, zone::light_place(at, 20.0, 60.0), like)
                    })?;
                    self.light = Some(id);
                } else {
                    let id = self.trigger_edit(cx, "Add area trigger".into(), |rows, map| {
                        rows.add(AreaTrigger {
                            id: 0,
                            map,
                            at: at.map(|v| v as f32),
                            shape: TriggerShape::Sphere { radius: 5.0 },
                        })
                    })?;
                    self.trigger = Some(id);
                }
                self.finish(cx);
            }
            ZoneIntent::Copy => {
                self.finish(cx);
                let chosen = self.chosen(tool).ok_or("nothing is chosen")?;
                if lights {
                    let id = self.light_edit(cx, format!("Copy light {chosen}"), |rows, map| {
                        let (_, place, _) = rows.light(chosen).ok_or("no such light")?;
                        let (mut c, inner, outer) = zone::light_in_world(&place);
                        // East is −y.
                        c[1] -= f64::from(outer.max(10.0));
                        rows.add_light(map, zone::light_place(c, inner, outer), chosen)
                    })?;
                    self.light = Some(id);
                } else {
                    let id =
                        self.trigger_edit(cx, format!("Copy area trigger {chosen}"), |rows, _| {
                            let mut t = rows.get(chosen).ok_or("no such trigger")?;
                            t.at[1] -= 10.0;
                            rows.add(t)
                        })?;
                    self.trigger = Some(id);
                }
                self.finish(cx);
            }
            ZoneIntent::Delete => {
                self.finish(cx);
                let chosen = self.chosen(tool).ok_or("nothing is chosen")?;
                if lights {
                    self.light_edit(cx, format!("Delete light {chosen}"), |rows, _| {
                        rows.remove_light(chosen)
                    })?;
                    self.light = None;
                } else {
                    self.trigger_edit(cx, format!("Delete area trigger {chosen}"), |rows, _| {
                        rows.remove(chosen)
                            .then_some(())
                            .ok_or_else(|| format!("no trigger {chosen}"))
                    })?;
                    self.trigger = None;
                }
                self.finish(cx);
            }
            ZoneIntent::Light(change) => {
                let id = self.light.ok_or("no light is chosen")?;
                let label = match &change {
                    LightChange::Place { .. } => format!("Move or resize light {id}"),
                    LightChange::Colours { band, .. } => {
                        format!("Light {id} {}", COLOUR_BAND_NAMES[*band])
                    }
                    LightChange::Floats { band, .. } => format!(
                        "Light {id} {}",
                        crate::ui::zone_panel::band_name(band + COLOUR_BAND_NAMES.len())
                    ),
                };
                self.light_edit(cx, label, |rows, _| zone::change_light(rows, id, &change))?;
            }
            ZoneIntent::Trigger(t) => {
                self.trigger_edit(cx, format!("Edit area trigger {}", t.id), |rows, _| {
                    rows.put(t)
                })?;
            }
        }
        Ok(())
    }

    /// The chosen light's or trigger's centre and (for a box) its yaw in degrees.
    fn chosen_centre(&self, tool: Tool) -> Option<(Vec3, Option<f32>)> {
        let id = self.chosen(tool)?;
        let view = self.view.as_ref().map(|(_, v)| v)?;
        let v3 = |c: [f64; 3]| Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32);
        if tool == Tool::Lights {
            let l = view.lights.iter().find(|l| l.0 == id)?;
            Some((v3(l.1), None))
        } else {
            let t = view.triggers.iter().find(|t| t.id == id)?;
            let yaw = match t.shape {
                TriggerShape::Box { yaw, .. } => Some(yaw.to_degrees()),
                TriggerShape::Sphere { .. } => None,
            };
            Some((Vec3::from(t.at), yaw))
        }
    }

    /// The press in the view: a gizmo handle of the chosen one starts a drag; Ctrl+click
    /// on the ground adds one; else the light or trigger under the cursor is chosen.
    fn press(&mut self, input: &ViewportInput, cx: &mut AppCtx, tool: Tool) -> Result<(), String> {
        let Some(ndc) = input.hover_ndc else {
            return Ok(());
        };
        let aspect = input.aspect();
        let vp = cx.view.camera.view_projection(aspect);
        let eye = cx.view.camera.eye();
        let half = [input.rect.width() / 2.0, input.rect.height() / 2.0];
        if let Some((centre, yaw)) = self.chosen_centre(tool)
            && let Some(g) = gizmo::layout(centre, yaw, vp, eye)
            && let Some(handle) = gizmo::hit(&g, ndc, half, 7.0)
        {
            let (origin, dir) = cx.view.camera.ray(ndc, aspect);
            let start = match handle {
                Handle::Axis(i) => gizmo::along_axis(centre, g.axes[i].1, origin, dir),
                Handle::Ring if yaw.is_some() => gizmo::angle_on_ground(centre, origin, dir),
                _ => None,
            };
            if let Some(start) = start {
                let arrow = match handle {
                    Handle::Axis(i) => g.axes[i].1,
                    _ => Vec3::Z,
                };
                self.grip = Some(Grip {
                    handle,
                    centre,
                    arrow,
                    start,
                    yaw: yaw.unwrap_or(0.0).to_radians(),
                });
                return Ok(());
            }
        }
        if input.slow {
            let at = cx
                .view
                .hover
                .map(|h| [h.world[0], h.world[1], h.world[2] + 5.0]);
            if at.is_some() {
                let like = (tool == Tool::Lights).then_some(self.light).flatten();
                return self.act(ZoneIntent::Add { at, like }, cx);
            }
        }
        let picked = self.view.as_ref().and_then(|(_, v)| {
            let centres: Vec<(u32, [f64; 3])> = if tool == Tool::Lights {
                v.lights.iter().map(|l| (l.0, l.1)).collect()
            } else {
                v.triggers
                    .iter()
                    .map(|t| (t.id, t.at.map(f64::from)))
                    .collect()
            };
            let mut best: Option<(u32, f32)> = None;
            for (id, c) in centres {
                let Some(p) = gizmo::project(vp, Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32))
                else {
                    continue;
                };
                let d = ((p[0] - ndc[0]) * half[0]).hypot((p[1] - ndc[1]) * half[1]);
                if d <= PICK_POINTS && best.is_none_or(|(_, b)| d < b) {
                    best = Some((id, d));
                }
            }
            best.map(|(id, _)| id)
        });
        self.act(ZoneIntent::Select(picked), cx)
    }

    /// Follows a gizmo drag: the chosen one moved along its arrow or turned by its ring.
    fn follow_grip(
        &mut self,
        input: &ViewportInput,
        cx: &mut AppCtx,
        tool: Tool,
        g: Grip,
    ) -> Result<(), String> {
        let Some(ndc) = input.hover_ndc else {
            return Ok(());
        };
        let (origin, dir) = cx.view.camera.ray(ndc, input.aspect());
        let Some(id) = self.chosen(tool) else {
            return Ok(());
        };
        match g.handle {
            Handle::Axis(_) => {
                let Some(now) = gizmo::along_axis(g.centre, g.arrow, origin, dir) else {
                    return Ok(());
                };
                let c = g.centre + g.arrow * (now - g.start);
                let centre = [f64::from(c.x), f64::from(c.y), f64::from(c.z)];
                if tool == Tool::Lights {
                    let label = format!("Move light {id}");
                    self.light_edit(cx, label, |rows, _| {
                        let (_, place, _) = rows.light(id).ok_or("no such light")?;
                        let (_, inner, outer) = zone::light_in_world(&place);
                        zone::change_light(
                            rows,
                            id,
                            &LightChange::Place {
                                centre,
                                inner,
                                outer,
                            },
                        )
                    })
                } else {
                    self.trigger_edit(cx, format!("Move area trigger {id}"), |rows, _| {
                        let mut t = rows.get(id).ok_or("no such trigger")?;
                        t.at = centre.map(|v| v as f32);
                        rows.put(t)
                    })
                }
            }
            Handle::Ring => {
                let Some(now) = gizmo::angle_on_ground(g.centre, origin, dir) else {
                    return Ok(());
                };
                let turned = g.yaw + (now - g.start).to_radians();
                self.trigger_edit(cx, format!("Turn area trigger {id}"), |rows, _| {
                    let mut t = rows.get(id).ok_or("no such trigger")?;
                    if let TriggerShape::Box { yaw, .. } = &mut t.shape {
                        *yaw = turned;
                    }
                    rows.put(t)
                })
            }
            Handle::Scale => Ok(()),
        }
    }

    /// What the panel shows, worked out again when the tables, the choice or the band
    /// changed.
    pub fn view(&mut self, cx: &AppCtx) -> ZoneView {
        let Some(tool) = Self::tool(cx) else {
            return ZoneView::default();
        };
        let revision = cx
            .doc
            .session
            .as_ref()
            .map_or(0, |s| s.map.client_tables.revision());
        let now = cx.settings.time_of_day.time().half_minutes();
        let key = (revision, self.chosen(tool), self.band, tool, now);
        if let Some((k, v)) = &self.view
            && *k == key
        {
            return v.clone();
        }
        let view = self
            .build_view(cx, tool, now)
            .unwrap_or_else(|why| ZoneView {
                unavailable: Some(why),
                ..ZoneView::default()
            });
        self.view = Some((key, view.clone()));
        view
    }

    fn build_view(&self, cx: &AppCtx, tool: Tool, now: u32) -> Result<ZoneView, String> {
        let (client, map_id) = client_and_map(cx)?;
        let s = cx.doc.session.as_ref().ok_or("no map is open")?;
        let mut view = ZoneView {
            band: self.band,
            now,
            selected: self.chosen(tool),
            ..ZoneView::default()
        };
        if tool == Tool::Lights {
            let rows = LightTableRows::from_held(&s.map.client_tables, client.generation())?;
            for id in rows.placed(map_id) {
                if let Some((_, place, _)) = rows.light(id) {
                    let (c, i, o) = zone::light_in_world(&place);
                    view.lights.push((id, c, i, o));
                }
            }
            if let Some((_, _, sets)) = self.light.and_then(|id| rows.light(id)) {
                let clear = sets.first().copied().unwrap_or(0);
                view.keys = if self.band < COLOUR_BAND_NAMES.len() {
                    rows.colour_band(clear, self.band)
                } else {
                    rows.float_band(clear, self.band - COLOUR_BAND_NAMES.len())
                };
                view.sets = sets;
            }
        } else {
            let rows = zone::held_triggers(&s.map).ok_or("AreaTrigger.dbc is not read")?;
            view.holds_boxes = rows.holds_boxes();
            view.triggers = rows
                .triggers()
                .into_iter()
                .filter(|t| t.map == map_id)
                .collect();
        }
        Ok(view)
    }

    /// The chosen one's marks: its spheres or box in green.
    fn marks(&self, vp: glam::Mat4, tool: Tool) -> Marks {
        let mut m = Marks::default();
        let (Some(id), Some((_, view))) = (self.chosen(tool), &self.view) else {
            return m;
        };
        if let Some(&(_, c, inner, outer)) = view.lights.iter().find(|l| l.0 == id) {
            m.sphere(vp, c, f64::from(outer), 3.0, CHOSEN);
            if inner > 0.0 {
                m.sphere(vp, c, f64::from(inner), 3.0, CHOSEN);
            }
        }
        if let Some(t) = view.triggers.iter().find(|t| t.id == id) {
            let at = t.at.map(f64::from);
            match t.shape {
                TriggerShape::Sphere { radius } => m.sphere(vp, at, f64::from(radius), 3.0, CHOSEN),
                TriggerShape::Box {
                    length,
                    width,
                    height,
                    yaw,
                } => m.oriented_box(
                    vp,
                    at,
                    [length, width, height].map(f64::from),
                    f64::from(yaw),
                    3.0,
                    CHOSEN,
                ),
            }
        }
        m
    }
}

impl Component for ZoneTool {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        let Intent::Zone(i) = intent else {
            return Some(intent);
        };
        if let Err(e) = self.act(i, cx) {
            cx.say(e);
        }
        None
    }

    fn over_view(&mut self, ui: &mut egui::Ui, view: egui::Rect, cx: &mut AppCtx) -> Vec<Intent> {
        let Some(tool) = Self::tool(cx) else {
            return Vec::new();
        };
        self.view(cx);
        let aspect = view.width() / view.height().max(1.0);
        let vp = cx.view.camera.view_projection(aspect);
        crate::ui::marks::paint(ui.painter(), view, &self.marks(vp, tool));
        if let Some((centre, yaw)) = self.chosen_centre(tool)
            && let Some(g) = gizmo::layout(centre, yaw, vp, cx.view.camera.eye())
        {
            crate::ui::viewport::paint_gizmo(ui.painter(), view, &g);
        }
        Vec::new()
    }

    fn poll(&mut self, cx: &mut AppCtx) -> Vec<Intent> {
        // The tool's tables are read into the map when it is chosen, so that its panel lists
        // what the client holds before the first edit.
        if let (Some(tool), Some(s)) = (Self::tool(cx), &cx.doc.session) {
            let wanted = (
                tool,
                s.map.name.clone(),
                cx.doc.client.as_ref().map(|c| c.dir.clone()),
            );
            if self.read_for.as_ref() != Some(&wanted) {
                self.read_for = Some(wanted);
                self.view = None;
                if let Err(e) = Self::ready(cx, tool) {
                    cx.say(e);
                }
            }
        }
        // A gesture ends when nothing changed it in the last frame and no button is held (a
        // dragged value, a colour dragged in the picker): then it is one undo step.
        let held = cx.egui.input(|i| i.pointer.any_down());
        if self.gesture.is_some() && !self.changed_this_frame && !held && self.grip.is_none() {
            self.finish(cx);
        }
        self.changed_this_frame = false;
        Vec::new()
    }

    fn drive(&mut self, input: &ViewportInput, cx: &mut AppCtx) {
        let Some(tool) = Self::tool(cx) else {
            self.grip = None;
            return;
        };
        let result = if let Some(g) = self.grip {
            if input.brush_held {
                self.follow_grip(input, cx, tool, g)
            } else {
                self.grip = None;
                self.finish(cx);
                Ok(())
            }
        } else if input.brush_pressed {
            self.press(input, cx, tool)
        } else {
            Ok(())
        };
        if let Err(e) = result {
            cx.say(e);
        }
    }

    fn is_busy(&self) -> bool {
        self.gesture.is_some()
    }

    fn opened(&mut self, _cx: &mut AppCtx) {
        *self = ZoneTool {
            band: self.band,
            ..ZoneTool::default()
        };
    }
}
