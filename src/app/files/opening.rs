//! Opening maps: the File menu's open commands (a map, a folder of tiles, the sample, Read
//! as), files dropped onto the window and the client folder (Settings), as a component; and
//! what opening a map or changing the client does to the context (the shell calls
//! [`install`] and [`restart_streams`], and tells every component).
//!
//! Not for: reading a map (`doc::session`) or the other components' part in it (their
//! `opened` and `sources_changed`).

use std::path::Path;

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::app::scene::streams::LOAD_RADIUS_TILES;
use crate::app::view::{initial_camera, mean_ground, tiles_near, view_points};
use crate::assets::textures::ByteSource;
use crate::command::{Command, Intent};
use crate::doc::client;
use crate::doc::editing::Editing;
use crate::doc::session::Session;
use crate::edit::terrain::liquid::LiquidStyle;
use crate::format::Generation;

/// The open commands' component (it holds nothing: what it opens is the context's).
#[derive(Debug, Default)]
pub struct Opening;

impl Component for Opening {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Command(Command::OpenMap) => {
                if let Some(p) = cx.shell.dialogs.pick_map() {
                    cx.open(&p);
                }
            }
            Intent::Command(Command::OpenFolder) => {
                if let Some(p) = cx.shell.dialogs.pick_map_folder() {
                    cx.open(&p);
                }
            }
            Intent::Open(p) => cx.open(&p),
            Intent::ReadAs(from) => {
                if let Some(path) = cx.doc.session.as_ref().map(|s| s.source.clone()) {
                    cx.open_as(&path, from);
                }
            }
            Intent::Command(Command::OpenSample) => open_sample(cx),
            Intent::Command(Command::PickClientData) => {
                if let Some(f) = cx.shell.dialogs.pick_folder() {
                    let c = client::Client::open(&f);
                    cx.say(match &c.opened {
                        Ok(_) => c.describe(),
                        Err(why) => format!("{why}; reading it as extracted files"),
                    });
                    cx.settings.client_data = Some(f);
                    cx.doc.client = Some(c);
                    cx.reload();
                }
            }
            Intent::Command(Command::ClearClientData) => {
                cx.settings.client_data = None;
                cx.doc.client = None;
                cx.reload();
            }
            other => return Some(other),
        }
        None
    }

    /// Files dropped onto the window open.
    fn poll(&mut self, cx: &mut AppCtx) -> Vec<Intent> {
        let dropped = cx.egui.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .find(|p| !p.as_os_str().is_empty())
        });
        if let Some(p) = dropped {
            cx.open(&p);
        }
        Vec::new()
    }
}

/// Asks for the bundled sample map to open.
pub fn open_sample(cx: &mut AppCtx) {
    match crate::app::startup::sample_path() {
        Ok(path) => cx.open(&path),
        Err(e) => cx.say(format!("no sample map: {e}")),
    }
}

/// Reads the map at `path` as `from` (`None`: as its bytes decide); a failure becomes the
/// status message.
pub fn read(cx: &mut AppCtx, path: &Path, from: Option<Generation>) -> Option<Session> {
    match Session::open_as(path, from) {
        Ok(s) => Some(s),
        Err(e) => {
            cx.say(format!("could not open: {e}"));
            None
        }
    }
}

/// Makes `session` (read from `path` as `from`) the open map: the old one's unsaved edits go
/// to the autosave, its camera is remembered, the tiles around the first view are read at
/// once (the rest stream in), what the opening noticed is said, and a new history starts
/// (the tool settings stay). The shell then tells the components and restarts the streams.
pub fn install(cx: &mut AppCtx, path: &Path, from: Option<Generation>, mut session: Session) {
    leave_session(cx);
    remember_camera(cx);
    cx.streams.session_id += 1;
    cx.streams.loader.start_session(cx.streams.session_id);
    cx.settings.add_recent(path);
    cx.settings.set_read_as(path, from);
    let remembered = cx.settings.camera_for(&session.key());
    let first = remembered.unwrap_or_else(|| initial_camera(&session));
    let near = tiles_near(
        &session.known_tiles(),
        &view_points(&first, mean_ground(&session.map)),
        LOAD_RADIUS_TILES,
    );
    session.load_now(&near.into_iter().collect::<Vec<_>>());
    cx.view.camera = remembered.unwrap_or_else(|| initial_camera(&session));
    let mut notes = Vec::new();
    if !session.missing_tiles.is_empty() {
        notes.push(format!(
            "{}: {} of {} tiles the WDT lists are missing",
            session.map.name,
            session.missing_tiles.len(),
            session.map.present_tiles().len()
        ));
    }
    if let Some((c, why)) = session.failed.iter().next() {
        notes.push(format!("tile {}_{} could not be read: {why}", c.x, c.y));
    }
    if session.decision.assumed {
        notes.push(format!(
            "read as {}: {} (File > Read as to change)",
            session.generation, session.decision.reason
        ));
    }
    cx.shell.message = (!notes.is_empty()).then(|| notes.join("; "));
    cx.doc.session = Some(session);
    cx.view.gone_to = None;
    cx.doc.editing = Editing::with_settings(cx.doc.editing.settings.clone());
    if let Some(s) = &cx.doc.session {
        cx.doc.editing.liquid_style = LiquidStyle::of(s.generation);
    }
}

/// Before the open map is replaced: its unsaved edits go to the autosave (see
/// [`crate::app::recovery::Recovery::leave`]).
fn leave_session(cx: &mut AppCtx) {
    let unsaved = cx.has_unsaved();
    if let (Some(r), Some(s)) = (&mut cx.recovery, &mut cx.doc.session)
        && let Err(e) = r.leave(s, &cx.doc.editing.history, unsaved)
    {
        cx.shell.message = Some(e);
    }
}

/// Keeps the open map's camera in the settings, for the next time it opens.
pub fn remember_camera(cx: &mut AppCtx) {
    if let Some(s) = &cx.doc.session {
        cx.settings.per_map.cameras.insert(s.key(), cx.view.camera);
    }
}

/// Starts the texture worker and the object scene over for `source` (the open map's bytes:
/// loose files under the client data folder and the map's folders) and forgets the textures
/// and models on the GPU.
pub fn restart_streams(cx: &mut AppCtx, source: ByteSource) {
    if cx.doc.session.is_none() {
        return;
    }
    cx.streams.textures.start(source.clone());
    cx.streams.objects.start(source);
    cx.view.object_hover = None;
    cx.gl.lock().queue_clear_models();
    let has_client = cx.doc.client.is_some();
    let liquid_types = cx
        .doc
        .client
        .as_ref()
        .map_or(&[][..], |c| c.liquid_types.as_slice());
    let mut gl = cx.gl.lock();
    gl.queue_clear_textures();
    gl.liquid_textures = crate::assets::client::kind_textures(liquid_types);
    // Without a client there are no frames to cycle: the stand-ins move in the shader.
    gl.liquid_patterns = has_client.then(|| crate::assets::client::kind_patterns(liquid_types));
}

/// Forgets the tiles on the GPU, so that they are sent again.
pub fn resend_tiles(cx: &mut AppCtx) {
    let mut gl = cx.gl.lock();
    for c in gl.uploaded.clone() {
        gl.queue_removal(c);
    }
}
