//! What every component of the app works with, in one struct apart from the components: the
//! document, the settings, the view, the GL bridge, the streams, the autosave, the window's
//! file dialogs and status line. A component is handed it with each call (see
//! `app::component`), so that no component holds another; what only the shell can do (open a
//! map and tell every component, reload the textures) a component asks for with a request.
//!
//! Not for: any component's own state, or carrying requests out (the shell in `app/mod.rs`).

use std::collections::{BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::file_picker::FileDialogs;
use super::recovery::Recovery;
use super::settings::Settings;
use super::view::{View, mean_ground, view_points};
use crate::app::scene::gl_bridge::SharedGl;
use crate::app::scene::streams::Streams;
use crate::doc::Document;
use crate::doc::editing::Touched;
use crate::doc::session::Session;
use crate::format::Generation;
use crate::model::TileCoord;

/// The window around the document: file dialogs, the status message, quitting and the title.
pub struct Shell {
    /// The file dialogs to ask.
    pub dialogs: Box<dyn FileDialogs>,
    /// The status bar's message.
    pub message: Option<String>,
    /// The unsaved-changes question is up.
    pub confirm_quit: bool,
    /// The user answered it with Quit.
    pub quit_confirmed: bool,
    /// The window title last sent.
    pub title: String,
    /// A `loam screenshot` run: nobody answers questions, no brush circle follows the mouse.
    pub screenshot: bool,
    /// How long the last frame took.
    pub frame_ms: f32,
    /// The CPU time of the app's own work in the last frame (its `ui` call: the components,
    /// the panels, the view's set-up), in milliseconds.
    pub cpu_frame_ms: f32,
}

impl Shell {
    /// The window as it opens: nothing said, nothing asked; `screenshot` for a `loam
    /// screenshot` run.
    pub fn new(dialogs: Box<dyn FileDialogs>, screenshot: bool) -> Shell {
        Shell {
            dialogs,
            message: None,
            confirm_quit: false,
            quit_confirmed: false,
            title: String::new(),
            screenshot,
            frame_ms: 0.0,
            cpu_frame_ms: 0.0,
        }
    }
}

/// What a component asks of the shell, carried out in order once the component's call returns.
pub enum Request {
    /// Open this map read as this generation (`None`: as its bytes decide).
    Open(PathBuf, Option<Generation>),
    /// Make this session, already read from this path as this generation, the open map.
    Install(PathBuf, Option<Generation>, Box<Session>),
    /// Read the layer textures, the models and the browser's names again (another client).
    Reload,
    /// Then do this (after the requests before it: a note once a map opened).
    Then(Box<dyn FnOnce(&mut AppCtx)>),
}

/// Everything in the app that is not a component.
pub struct AppCtx {
    /// What the editor remembers between runs.
    pub settings: Settings,
    /// The open map, the client's data and the edit history.
    pub doc: Document,
    /// The camera and what the cursor is over.
    pub view: View,
    /// The GL bridge.
    pub gl: SharedGl,
    /// Tiles, textures and objects streaming from the map's source.
    pub streams: Streams,
    /// File dialogs, the status line, quitting and the title.
    pub shell: Shell,
    /// Autosave and the recovered maps to offer (off unless the app was given a folder).
    pub recovery: Option<Recovery>,
    /// The window's egui context (to close it, or to wake it later).
    pub egui: egui::Context,
    /// An edit under way that undo and autosave wait for (a drag of objects), as of this call.
    pub busy: bool,
    requests: VecDeque<Request>,
}

/// What a dialog component needs to carry out its intents: the open document, the file
/// dialogs and the status line.
pub struct DialogCtx<'a> {
    /// The open document.
    pub doc: &'a Document,
    /// The file dialogs.
    pub dialogs: &'a mut dyn FileDialogs,
    /// The status line's text.
    pub message: &'a mut Option<String>,
    /// Asks for a frame (workers call it when they have something).
    pub repaint: Arc<dyn Fn() + Send + Sync>,
    /// The tile under the cursor, which a dialog about one tile opens on.
    pub hover_tile: Option<TileCoord>,
}

impl AppCtx {
    /// The context around `doc` with nothing open, drawing through `gl`.
    pub fn new(
        settings: Settings,
        doc: Document,
        view: View,
        gl: SharedGl,
        streams: Streams,
        shell: Shell,
        egui: egui::Context,
    ) -> AppCtx {
        AppCtx {
            settings,
            doc,
            view,
            gl,
            streams,
            shell,
            recovery: None,
            egui,
            busy: false,
            requests: VecDeque::new(),
        }
    }

    /// Puts `text` in the status line.
    pub fn say(&mut self, text: impl Into<String>) {
        self.shell.message = Some(text.into());
    }

    /// Asks the shell to open `path`, read as remembered for it ("Read as"), else as its bytes
    /// decide.
    pub fn open(&mut self, path: &Path) {
        let from = self.settings.read_as_for(path);
        self.open_as(path, from);
    }

    /// Asks the shell to open `path` read as `from` (`None`: as its bytes decide).
    pub fn open_as(&mut self, path: &Path, from: Option<Generation>) {
        self.requests
            .push_back(Request::Open(path.to_path_buf(), from));
    }

    /// Asks the shell to make `session` (read from `path` as `from`) the open map.
    pub fn install(&mut self, path: &Path, from: Option<Generation>, session: Session) {
        self.requests.push_back(Request::Install(
            path.to_path_buf(),
            from,
            Box::new(session),
        ));
    }

    /// Asks the shell to read textures, models and names again (the client changed).
    pub fn reload(&mut self) {
        self.requests.push_back(Request::Reload);
    }

    /// Asks the shell to run `then` once the requests asked before it are carried out.
    pub fn then(&mut self, then: impl FnOnce(&mut AppCtx) + 'static) {
        self.requests.push_back(Request::Then(Box::new(then)));
    }

    /// The oldest request not carried out yet.
    pub fn next_request(&mut self) -> Option<Request> {
        self.requests.pop_front()
    }

    /// True when there are changes a save would write.
    pub fn has_unsaved(&self) -> bool {
        self.doc.has_unsaved()
    }

    /// The document, the file dialogs and the status line, as a dialog component sees them.
    pub fn dialog_ctx(&mut self) -> DialogCtx<'_> {
        DialogCtx {
            doc: &self.doc,
            dialogs: self.shell.dialogs.as_mut(),
            message: &mut self.shell.message,
            repaint: self.streams.repaint.clone(),
            hover_tile: self.view.hover.map(|p| p.tile),
        }
    }

    /// Marks the tiles of changed chunks edited and re-sends them to the GPU.
    pub fn after_edit(&mut self, touched: Touched) {
        let tiles: BTreeSet<TileCoord> = touched.into_iter().map(|(t, _)| t).collect();
        if !tiles.is_empty() {
            // Objects may have moved with the step: collect them again.
            self.streams.objects.invalidate();
        }
        if let Some(s) = &mut self.doc.session {
            for t in &tiles {
                s.mark_edited(*t);
            }
        }
        self.redraw(tiles);
    }

    /// Rebuilds and re-sends the meshes of the loaded `tiles`.
    pub fn redraw(&mut self, tiles: BTreeSet<TileCoord>) {
        if let Some(s) = &self.doc.session {
            self.streams.redraw(s, &self.gl, tiles);
        }
    }

    /// The camera's position and where it looks, on the tile grid.
    pub fn view_points(&self) -> [[f64; 2]; 2] {
        let ground = self
            .doc
            .session
            .as_ref()
            .map_or(0.0, |s| mean_ground(&s.map));
        view_points(&self.view.camera, ground)
    }
}
