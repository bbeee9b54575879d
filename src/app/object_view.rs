//! The app's side of showing objects: restarting the object scene with the map's byte source,
//! feeding it each frame, the status line, and the hover text of the object under the cursor.
//!
//! Not for: the scene itself (`app::objects`) or placing objects (a tool of its own).

use glam::Vec3;

use super::LoamApp;
use crate::assets::textures::ByteSource;
use crate::ui::viewport::ViewportInput;

impl LoamApp {
    /// Starts the object scene over with a new byte source and forgets the GPU's models.
    pub(super) fn restart_objects(&mut self, source: ByteSource) {
        self.streams.objects.start(source);
        self.view.object_hover = None;
        self.clear_object_selection();
        self.gl.lock().queue_clear_models();
    }

    /// Collects the loaded tiles' objects, takes in the models read and sends them to the GPU.
    /// True when nothing asked for is still being read or waiting for the GPU.
    pub(super) fn stream_objects(&mut self) -> bool {
        let Some(s) = &self.doc.session else {
            return true;
        };
        // Without GL (kittest) the scene still reads models, so that objects can be picked.
        let mut gl = self.gl.lock();
        self.streams.objects.sync_map(&s.map);
        self.streams.objects.poll(&mut gl);
        // Only a drawn view waits for its models (a screenshot); without GL nothing is drawn.
        !gl.has_renderer() || (self.streams.objects.is_settled() && gl.pending_models() == 0)
    }

    /// The object under the cursor (the scene's index), unless the terrain in front hides it.
    pub(super) fn object_index_under(&self, input: &ViewportInput) -> Option<usize> {
        let ndc = input.hover_ndc?;
        let (origin, dir) = self.view.camera.ray(ndc, input.aspect());
        let (index, t) = self
            .streams
            .objects
            .pick(origin, dir, &self.settings.objects)?;
        if let Some(h) = &self.view.hover {
            let ground = Vec3::new(h.world[0] as f32, h.world[1] as f32, h.world[2] as f32);
            // A yard of slack: objects stand on the ground they are placed on.
            if t > (ground - origin).length() + 1.0 {
                return None;
            }
        }
        Some(index)
    }

    /// The object under the cursor, described, unless the terrain hides it.
    pub(super) fn hover_object(&self, input: &ViewportInput) -> Option<String> {
        self.streams
            .objects
            .describe(self.object_index_under(input)?)
    }

    /// The status bar's object line: objects of the loaded tiles, instances drawn, draw calls,
    /// and models without a real one.
    pub(super) fn object_status(&self) -> Option<String> {
        self.doc.session.as_ref()?;
        let (doodads, wmos) = self.streams.objects.counts();
        let stats = self.gl.lock().object_stats;
        let mut line = format!(
            "objects {doodads} doodads + {wmos} WMOs: {} drawn, {} boxes, {} draw calls",
            stats.instances, stats.boxes, stats.draw_calls
        );
        if let Some(s) = self.streams.objects.status() {
            line.push_str("; ");
            line.push_str(&s);
        }
        Some(line)
    }
}
