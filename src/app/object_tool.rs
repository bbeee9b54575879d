//! The object tool: selecting doodads and WMOs with the mouse, and editing the selection from the
//! object panel (typed position, rotation, scale, doodad set; snap to ground; delete), each
//! change one undo step in the brushes' history.
//!
//! Not for: the edits themselves (`edit::objects`), drawing the selection (`render`) or the
//! panel's widgets (`ui::object_panel`).

use glam::Vec3;

use super::LoamApp;
use super::intent::Intent;
use crate::edit::objects::{self, ObjectRecord, ObjectStroke};
use crate::model::ObjectKind;
use crate::ui::viewport::ViewportInput;

/// What the object tool holds between frames.
#[derive(Debug, Clone, Default)]
pub struct ObjectTool {
    /// Selected objects by (kind, uniqueId), in the order they were picked.
    pub selection: Vec<(ObjectKind, u32)>,
}

impl LoamApp {
    /// The selected objects as their first listing tile records them (objects no longer in a
    /// loaded tile are left out).
    pub fn selected_objects(&self) -> Vec<ObjectRecord> {
        let Some(s) = &self.session else {
            return Vec::new();
        };
        self.object_tool
            .selection
            .iter()
            .filter_map(|&(kind, uid)| objects::find(&s.map, kind, uid))
            .collect()
    }

    /// The placed objects as the view shows them.
    pub fn object_scene(&self) -> &super::objects::ObjectScene {
        &self.objects
    }

    /// The selection as (kind, uniqueId) pairs.
    pub fn selection(&self) -> &[(ObjectKind, u32)] {
        &self.object_tool.selection
    }

    /// A click in the view with the object tool: the object under the cursor becomes the
    /// selection (Shift adds it, Ctrl toggles it); a click on nothing clears the selection.
    pub(super) fn object_click(&mut self, input: &ViewportInput) {
        if !input.brush_pressed {
            return;
        }
        let picked = input.hover_ndc.and_then(|ndc| {
            let (origin, dir) = self.camera.ray(ndc, input.aspect());
            let (index, t) = self.objects.pick(origin, dir, &self.settings.objects)?;
            // The terrain in front of an object hides it (a yard of slack: objects stand on it).
            if let Some(h) = &self.hover {
                let ground = Vec3::new(h.world[0] as f32, h.world[1] as f32, h.world[2] as f32);
                if t > (ground - origin).length() + 1.0 {
                    return None;
                }
            }
            self.objects.object(index).map(|o| (o.kind, o.unique_id))
        });
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
            Some(key) => *sel = vec![key],
            None if input.fast || input.slow => {}
            None => sel.clear(),
        }
    }

    /// Carries out the object tool's intents; returns the intent back when it is none of them.
    pub(super) fn handle_objects(&mut self, intent: Intent) -> Option<Intent> {
        match intent {
            Intent::EditObject(record) => {
                let label = format!("Edit {} (uid {})", short(&record.model), record.unique_id);
                self.edit_objects(&label, |map, stroke, model_box| {
                    objects::put(map, stroke, &record, model_box(&record.model));
                });
            }
            Intent::SnapSelectionToGround => {
                let records = self.selected_objects();
                let n = records.len();
                self.edit_objects(
                    &format!("Snap {n} object(s) to the ground"),
                    |map, stroke, model_box| {
                        for mut r in records {
                            if let Some(z) =
                                crate::edit::lattice::height_at(map, r.position[0], r.position[1])
                            {
                                r.position[2] = f64::from(z);
                                objects::put(map, stroke, &r, model_box(&r.model));
                            }
                        }
                    },
                );
            }
            Intent::DeleteSelection => {
                let selection = std::mem::take(&mut self.object_tool.selection);
                let n = selection.len();
                self.edit_objects(&format!("Delete {n} object(s)"), |map, stroke, _| {
                    for (kind, uid) in selection {
                        objects::remove(map, stroke, kind, uid);
                    }
                });
            }
            Intent::ClearSelection => self.object_tool.selection.clear(),
            other => return Some(other),
        }
        None
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
        let scene = &self.objects;
        let model_box = |name: &str| scene.model_box(name);
        let Some(s) = &mut self.session else { return };
        if self.editing.is_stroking() {
            return;
        }
        let mut stroke = ObjectStroke::default();
        change(&mut s.map, &mut stroke, &model_box);
        let Some(edit) = stroke.finish(&s.map, label) else {
            return;
        };
        let touched = edit.touched();
        self.editing.history.push(&mut s.map, edit);
        self.after_edit(touched);
    }

    /// Selects the objects with these uniqueIds (a doodad, else a WMO), those a loaded tile lists.
    pub fn select_by_uid(&mut self, uids: &[u32]) {
        let Some(s) = &self.session else { return };
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

    /// Forgets the selection (a new map).
    pub(super) fn clear_object_selection(&mut self) {
        self.object_tool.selection.clear();
    }
}

/// The file name of a model path, for history labels.
fn short(path: &str) -> &str {
    path.rsplit(['\\', '/']).next().unwrap_or(path)
}
