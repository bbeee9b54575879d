//! The editor as tests and scripts reach it: starting it with settings, a recovery folder or a
//! minimap cache, and reading or poking its state (the session, the camera, the selection, a
//! staged road…) without going through the window. Kept apart from the frame loop so that
//! `app/mod.rs` stays the shell; nothing in the editor itself calls these.

use std::path::PathBuf;

use super::LoamApp;
use super::recovery;
use super::settings::Settings;
use super::{scene, toolbox};
use crate::doc::editing::Editing;
use crate::doc::session::Session;
use crate::model::TileCoord;
use crate::render::camera::Camera;

impl LoamApp {
    /// Starts over with `settings` (sanitized) as if a previous run had left them: how a test
    /// restarts the editor with what the last one saved.
    pub fn with_settings(mut self, mut settings: Settings) -> LoamApp {
        settings.sanitize();
        self.cx.settings = settings;
        self
    }

    /// Turns on the autosave into `r`'s folder and offers the maps recovered there.
    pub fn with_recovery(mut self, r: recovery::Recovery) -> LoamApp {
        self.cx.recovery = Some(r);
        self
    }

    /// Keeps exported minimaps under `root` between exports, so that only the changed tiles are
    /// drawn again.
    pub fn with_minimap_cache(mut self, root: PathBuf) -> LoamApp {
        self.parts.files.export.minimap_root = Some(root);
        self
    }

    /// The autosave and the recovered maps not answered yet, when on.
    pub fn recovery(&self) -> Option<&recovery::Recovery> {
        self.cx.recovery.as_ref()
    }

    /// The open map, if any.
    pub fn session(&self) -> Option<&Session> {
        self.cx.doc.session.as_ref()
    }

    /// The open map for changes that go around the ui (tests saving or loading directly).
    pub fn session_mut(&mut self) -> Option<&mut Session> {
        self.cx.doc.session.as_mut()
    }

    /// The camera.
    pub fn camera(&self) -> &Camera {
        &self.cx.view.camera
    }

    /// The camera, to point it from a script or a test.
    pub fn camera_mut(&mut self) -> &mut Camera {
        &mut self.cx.view.camera
    }

    /// What the hover text says about the object under the cursor, as of the last frame.
    pub fn object_hover(&self) -> Option<&str> {
        self.cx.view.object_hover.as_deref()
    }

    /// The settings as they would be saved.
    pub fn settings(&self) -> &Settings {
        &self.cx.settings
    }

    /// The light the view draws with now (sky, fog, sun) at the camera, for tests and
    /// scripts.
    pub fn scene_light(&mut self) -> crate::doc::light::SceneLight {
        self.parts.view.daylight.scene_light(&self.cx)
    }

    /// The edit tools and the undo history.
    pub fn editing(&self) -> &Editing {
        &self.cx.doc.editing
    }

    /// True when there are changes a save would write: edits since the saved point of the
    /// history (undoing back to it leaves nothing unsaved), or tiles marked otherwise.
    pub fn has_unsaved(&self) -> bool {
        self.cx.has_unsaved()
    }

    /// The asset browser.
    pub fn browser(&self) -> &toolbox::asset_browser::AssetBrowser {
        &self.parts.toolbox.browser
    }

    /// True while a map is being copied out of the client (File ▸ Open from client).
    pub fn is_copying(&self) -> bool {
        self.parts.files.open_from_client.is_copying()
    }

    /// True while the Save as… dialog is up.
    pub fn save_as_shown(&self) -> bool {
        self.parts.files.save_as.is_shown()
    }

    /// The status bar's message, if any.
    pub fn message(&self) -> Option<&str> {
        self.cx.shell.message.as_deref()
    }

    /// Marks a tile changed, as the edit tools will (tests use it to exercise save and quit).
    pub fn mark_edited(&mut self, tile: TileCoord) {
        if let Some(s) = &mut self.cx.doc.session {
            s.mark_edited(tile);
        }
    }

    /// The selected objects as their first listing tile records them (objects no longer in a
    /// loaded tile are left out).
    pub fn selected_objects(&self) -> Vec<crate::edit::objects::ObjectRecord> {
        self.cx.doc.selected_objects()
    }

    /// The terrain point under the mouse, as of the last frame.
    pub fn hover_point(&self) -> Option<crate::render::pick::TerrainPoint> {
        self.cx.view.hover
    }

    /// The placed objects as the view shows them.
    pub fn object_scene(&self) -> &scene::object_scene::ObjectScene {
        &self.cx.streams.objects
    }

    /// The selection as (kind, uniqueId) pairs.
    pub fn selection(&self) -> &[(crate::model::ObjectKind, u32)] {
        &self.cx.doc.selection
    }

    /// Selects the objects with these uniqueIds (a doodad, else a WMO), those a loaded tile lists.
    pub fn select_by_uid(&mut self, uids: &[u32]) {
        self.cx.doc.select_uids(uids);
    }

    /// The vertex selection tool's selected vertices.
    pub fn selected_vertices(&self) -> &std::collections::BTreeSet<crate::edit::lattice::Vertex> {
        self.parts.toolbox.shaping.vertex_selection.selected()
    }

    /// The road tool's control points (world x, y), not yet laid.
    pub fn road_points(&self) -> &[[f64; 2]] {
        self.parts.toolbox.shaping.road_tool.points()
    }

    /// The `road` operation Lay road would run now on the open map.
    pub fn road_op(&self) -> Result<crate::edit::shapes::road_ops::RoadOp, String> {
        let s = self.cx.doc.session.as_ref().ok_or("no map is open")?;
        self.parts.toolbox.shaping.road_tool.op(&s.map)
    }

    /// Where the object tool's gizmo stands (see [`toolbox::object_tool::ObjectTool::gizmo_centre`]).
    pub fn gizmo_centre(&self) -> Option<(glam::Vec3, Option<f32>)> {
        self.parts.toolbox.object_tool.gizmo_centre(&self.cx.doc)
    }

    /// Moves the camera over a tile (loaded or not), above its highest point.
    pub fn go_to_tile(&mut self, tile: TileCoord) {
        super::view::go_to_tile(&mut self.cx.view, self.cx.doc.session.as_ref(), tile);
    }
}
