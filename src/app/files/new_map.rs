//! File ▸ New map…: the dialog's state and what its buttons do (`doc::new_map` writes the
//! files); once written, the map opens. Also the tile map's Add tile / Remove tile, which
//! change the open map's files and open it again.
//!
//! Not for: the window's widgets (`ui::dialogs::new_map`) or what a blank tile holds.

use std::path::{Path, PathBuf};

use crate::app::component::Component;
use crate::app::context::{AppCtx, DialogCtx};
use crate::command::{Command, Intent, NewMapIntent};
use crate::convert::blank::{DEFAULT_TEXTURE, blank_tile};
use crate::doc::Document;
use crate::doc::new_map::{self as create, NewMap as NewMapSpec};
use crate::format::Generation;
use crate::model::TileCoord;
use crate::model::blank::TileRect;
use crate::ui;
use crate::ui::dialogs::{NewMapFields, NewMapView};

/// The dialog's state.
#[derive(Debug, Clone)]
struct NewMapDialog {
    fields: NewMapFields,
    generation: Generation,
    folder: Option<PathBuf>,
}

/// The New map component: the dialog, when up, and the map being written.
#[derive(Debug, Default)]
pub struct NewMap {
    dialog: Option<NewMapDialog>,
    writing: Option<create::Creating>,
}

impl NewMap {
    /// Carries out the New map intents (the status line's text goes to `message`); hands
    /// every other intent back, and once a map is written, an [`Intent::Open`] of it.
    fn handle_new_map(&mut self, intent: Intent, c: &mut DialogCtx) -> Option<Intent> {
        let Intent::NewMap(n) = intent else {
            return Some(intent);
        };
        let doc = c.doc;
        match n {
            NewMapIntent::Open => {
                let open = doc.session.as_ref();
                self.dialog = Some(NewMapDialog {
                    fields: NewMapFields {
                        name: "NewMap".into(),
                        tiles: [31, 31, 32, 32],
                        height: 0.0,
                        texture: DEFAULT_TEXTURE.into(),
                    },
                    // The open map's generation, when loam writes it.
                    generation: open
                        .map(|s| s.generation)
                        .filter(|g| g.writable())
                        .unwrap_or(Generation::V335),
                    // Beside the open map's folder, where the user keeps maps; the new map
                    // gets a folder of its own in it.
                    folder: open.and_then(|s| s.folder.parent().map(Path::to_path_buf)),
                });
            }
            NewMapIntent::Generation(g) => {
                if let Some(d) = &mut self.dialog {
                    d.generation = g;
                }
            }
            NewMapIntent::PickFolder => {
                if let Some(f) = c.dialogs.pick_folder()
                    && let Some(d) = &mut self.dialog
                {
                    d.folder = Some(f);
                }
            }
            NewMapIntent::Cancel => self.dialog = None,
            NewMapIntent::Create if self.writing.is_none() => {
                let d = self.dialog.as_ref()?;
                let spec = spec(d);
                // The map gets a folder of its own in the one chosen.
                let folder = d.folder.as_ref()?.join(&spec.name);
                if let Err(e) = create::preflight(&spec, &folder) {
                    *c.message = Some(format!("could not make the map: {e}"));
                    return None;
                }
                let repaint = c.repaint.clone();
                self.writing = Some(create::Creating::start(spec, folder, move || repaint()));
            }
            NewMapIntent::Create => {}
        }
        None
    }

    /// Once the map being written is done: closes the dialog and hands back an
    /// [`Intent::Open`] of it (or says why it could not be made).
    fn poll_writing(&mut self, message: &mut Option<String>) -> Option<Intent> {
        let made = self.writing.as_ref()?.poll()?;
        self.writing = None;
        match made {
            Ok(made) => {
                self.dialog = None;
                *message = Some(format!(
                    "made {} ({} tile(s))",
                    made.wdt.display(),
                    made.tiles
                ));
                Some(Intent::Open(made.wdt))
            }
            Err(e) => {
                *message = Some(format!("could not make the map: {e}"));
                None
            }
        }
    }

    /// Draws the dialog when it is up.
    fn draw(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        let Some(d) = &mut self.dialog else {
            return Vec::new();
        };
        let problem = d
            .folder
            .as_ref()
            .and_then(|f| create::preflight(&spec(d), &f.join(d.fields.name.trim())).err())
            .or_else(|| create::check_name(&d.fields.name).err())
            .map(|e| e.to_string());
        let view = NewMapView {
            targets: Generation::ALL
                .into_iter()
                .filter(|g| g.writable() && *g != Generation::Alpha055)
                .collect(),
            generation: d.generation,
            folder: d.folder.clone(),
            into: d.folder.as_ref().map(|f| f.join(d.fields.name.trim())),
            problem,
            writing: self
                .writing
                .as_ref()
                .map(|w| (w.done.load(std::sync::atomic::Ordering::Relaxed), w.total)),
        };
        ui::dialogs::new_map(ui, &view, &mut d.fields)
    }
}

/// The map the dialog describes.
fn spec(d: &NewMapDialog) -> NewMapSpec {
    let [x0, y0, x1, y1] = d.fields.tiles.map(usize::from);
    NewMapSpec {
        name: d.fields.name.trim().to_string(),
        generation: d.generation,
        tiles: TileRect::new(x0, y0, x1, y1)
            .map(|r| r.coords())
            .unwrap_or_default(),
        blank: blank_tile(d.generation, d.fields.texture.trim(), d.fields.height, 0),
    }
}

/// Adds tile `c` to the open map's files (see `doc::new_map::add_tiles`): its ground is the
/// first texture and mean height of a loaded tile beside it, else the default texture at 0.
/// Returns the message for the status line.
fn add_tile(doc: &Document, c: TileCoord) -> Result<String, String> {
    let s = doc.session.as_ref().ok_or("no map is open")?;
    if doc.has_unsaved() {
        return Err("save first: adding a tile writes the map's files".into());
    }
    let beside = crate::edit::copy::new_map::neighbours(c)
        .into_iter()
        .find_map(|n| s.map.tiles.get(&n));
    let texture = beside
        .and_then(|t| t.textures.first().cloned())
        .unwrap_or_else(|| DEFAULT_TEXTURE.to_string());
    let height = beside.map_or(0.0, |t| {
        t.chunks.iter().map(|ch| ch.base_height).sum::<f32>() / t.chunks.len().max(1) as f32
    });
    let wdt = wdt_of(s)?;
    let done = create::add_tiles(&wdt, &[c], &texture, height, 0).map_err(|e| e.to_string())?;
    Ok(format!(
        "added tile {}_{} ({} border vertices met the tiles beside it)",
        c.x, c.y, done.met
    ))
}

/// Removes tile `c` from the open map's files. Returns the message for the status line.
fn remove_tile(doc: &Document, c: TileCoord) -> Result<String, String> {
    let s = doc.session.as_ref().ok_or("no map is open")?;
    if doc.has_unsaved() {
        return Err("save first: removing a tile writes the map's files".into());
    }
    let wdt = wdt_of(s)?;
    create::remove_tiles(&wdt, &[c]).map_err(|e| e.to_string())?;
    Ok(format!("removed tile {}_{}", c.x, c.y))
}

/// The open map's WDT, which adding and removing tiles change.
fn wdt_of(s: &crate::doc::session::Session) -> Result<PathBuf, String> {
    let is_wdt = s
        .source
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wdt"));
    if is_wdt && !s.wdt_inferred && s.source.is_file() {
        Ok(s.source.clone())
    } else {
        Err("tiles are added to a map with a WDT; Save as… writes one".into())
    }
}

/// After tiles were added to or removed from the open map's files (`done`: what happened, or
/// why not): asks for it to open again, the camera where it was, and says what happened.
fn change_tiles(cx: &mut AppCtx, done: Result<String, String>) {
    match done {
        Ok(said) => {
            let camera = cx.view.camera;
            if let Some(path) = cx.doc.session.as_ref().map(|s| s.source.clone()) {
                cx.open(&path);
            }
            cx.then(move |cx| {
                cx.view.camera = camera;
                cx.shell.message = Some(said);
            });
        }
        Err(e) => cx.shell.message = Some(e),
    }
}

impl Component for NewMap {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Command(Command::NewMap) => {
                self.handle_new_map(Intent::NewMap(NewMapIntent::Open), &mut cx.dialog_ctx())
            }
            Intent::AddTile(c) => {
                change_tiles(cx, add_tile(&cx.doc, c));
                None
            }
            Intent::RemoveTile(c) => {
                change_tiles(cx, remove_tile(&cx.doc, c));
                None
            }
            other => self.handle_new_map(other, &mut cx.dialog_ctx()),
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut AppCtx) -> Vec<Intent> {
        self.draw(ui)
    }

    fn poll(&mut self, cx: &mut AppCtx) -> Vec<Intent> {
        self.poll_writing(&mut cx.shell.message)
            .into_iter()
            .collect()
    }
}
