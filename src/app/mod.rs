//! The eframe shell: owns the document (`doc`), the settings, the view, the GL bridge, the
//! streams and the components (object tool, brushes, asset browser, Save as, Export, Open from
//! client, recovery, missing models); runs the frame loop, lays out the panels from `ui`, and
//! hands each intent they return (or the shortcut table gives) to the component it is for.
//!
//! Not for: widgets (see `ui`), GL (see `render`), the document's own logic (see `doc`) or
//! files (see `pipeline`, `disk`).

pub mod browser;
mod browsing;
pub mod brushes;
pub mod camera_control;
pub mod dialogs;
pub mod export;
mod images;
mod new_map;
pub use crate::command::intent;
mod missing_models;
pub mod object_loader;
pub mod object_tool;
mod object_view;
pub mod objects;
pub mod open_from_client;
mod panels;
pub mod recovery;
mod save_as;
mod save_as_report;
pub mod screenshot;
pub mod settings;
mod stamps;
pub mod startup;
pub mod streaming;
pub mod streams;
mod terrain_clipboard;
mod texture_tools;
pub mod textures;
pub mod view;
pub mod viewport;
mod worker;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::edit::liquid::LiquidStyle;
use crate::format::Generation;
use crate::model::TileCoord;
use crate::model::coords::TILE_SIZE;
use crate::render::camera::Camera;

use crate::render::terrain::{FrameParams, Overlays};
use crate::ui;

use crate::doc::editing::{Editing, Tool, Touched};
use crate::doc::session::Session;
use crate::doc::{Document, client, client_maps};
use dialogs::FileDialogs;
use intent::Intent;
use screenshot::{ScreenshotJob, ScreenshotRequest};
use settings::Settings;
use streaming::TileLoader;
use streams::{LOAD_RADIUS_TILES, Streams};
use view::{View, initial_camera, mean_ground, tiles_near, view_points};
use viewport::{GlState, SharedGl};

/// How the app starts.
pub struct StartOptions {
    /// The map to open; `None` opens the bundled sample.
    pub open: Option<PathBuf>,
    /// The file dialogs to ask.
    pub dialogs: Box<dyn FileDialogs>,
    /// Take a screenshot and close, instead of running interactively.
    pub screenshot: Option<ScreenshotRequest>,
    /// Read the map as this generation (`--from`) instead of as remembered or decided.
    pub read_as: Option<Generation>,
    /// Read textures from this game client (`--client`) instead of the one in the settings,
    /// for this run only.
    pub client: Option<PathBuf>,
}

/// The window around the document: file dialogs, the status message, quitting, the title and
/// a screenshot run.
struct Shell {
    dialogs: Box<dyn FileDialogs>,
    message: Option<String>,
    /// The unsaved-changes question is up.
    confirm_quit: bool,
    /// The user answered it with Quit.
    quit_confirmed: bool,
    /// The window title last sent.
    title: String,
    /// Take a screenshot and close, when running as `loam screenshot`.
    screenshot: Option<ScreenshotJob>,
    /// How long the last frame took.
    frame_ms: f32,
}

/// The editor: a shell of components around the document.
pub struct LoamApp {
    settings: Settings,
    /// The open map, the client's data and the edit history.
    doc: Document,
    view: View,
    gl: SharedGl,
    streams: Streams,
    shell: Shell,
    /// The dialogs that write map files: Save as…, Export for client, New map….
    map_dialogs: MapDialogs,
    /// The asset browser (left panel, Assets page).
    browser: browser::AssetBrowser,
    /// The Open from client dialog, when up, and a map being copied out of the client.
    open_from_client: open_from_client::OpenFromClient,
    /// The notice over the view and the list of models drawn as placeholders.
    missing_models: missing_models::MissingModels,
    /// The object tool (the selection itself is the document's).
    object_tool: object_tool::ObjectTool,
    /// The Copy & paste tool and its clipboard (kept across maps).
    terrain_clipboard: terrain_clipboard::TerrainClipboard,
    /// Autosave and the recovered maps to offer (off unless [`LoamApp::with_recovery`]).
    recovery: Option<recovery::Recovery>,
}

/// The dialogs that write a map's files, each a component of its own.
#[derive(Default)]
struct MapDialogs {
    /// File ▸ Save as….
    save_as: save_as::SaveAs,
    /// File ▸ Export for client….
    export: export::Export,
    /// File ▸ New map….
    new_map: new_map::NewMap,
    /// File ▸ Import image… and Export images….
    images: images::TerrainImages,
    /// Edit ▸ Textures….
    textures: texture_tools::TextureTools,
}

impl MapDialogs {
    /// Carries out the Export for client, image and New map intents; hands every other intent back
    /// (Save as… is carried out with the session it needs).
    fn handle(&mut self, intent: Intent, c: &mut dialogs::DialogCtx) -> Option<Intent> {
        let intent = self.export.handle(intent, c)?;
        let intent = self.images.handle(intent, c)?;
        let intent = self
            .textures
            .handle(intent, c.doc, c.hover_tile, c.message)?;
        self.new_map.handle(intent, c)
    }
}

impl LoamApp {
    /// Builds the app: restores the settings, starts the renderer when there is a GL context
    /// and opens the requested map (or the sample).
    pub fn new(cc: &eframe::CreationContext<'_>, options: StartOptions) -> LoamApp {
        let mut settings = if options.screenshot.is_some() {
            // Screenshots must not depend on (or change) what a user left behind.
            Settings::default()
        } else {
            cc.storage
                .and_then(|s| eframe::get_value::<Settings>(s, settings::STORAGE_KEY))
                .unwrap_or_default()
        };
        settings.sanitize();
        let client = options
            .client
            .as_deref()
            .or(settings.client_data.as_deref())
            .map(client::Client::open);
        let repaint = |ctx: &egui::Context| {
            let ctx = ctx.clone();
            move || ctx.request_repaint()
        };
        let mut app = LoamApp {
            doc: Document {
                client,
                ..Document::default()
            },
            settings,
            view: View {
                camera: Camera::default(),
                hover: None,
                object_hover: None,
                shown_cursor: None,
                gone_to: None,
            },
            gl: GlState::new(cc.gl.as_deref()),
            streams: Streams {
                loader: TileLoader::new(repaint(&cc.egui_ctx)),
                session_id: 0,
                textures: textures::TextureLoader::new(repaint(&cc.egui_ctx)),
                objects: objects::ObjectScene::new(std::sync::Arc::new(repaint(&cc.egui_ctx))),
                repaint: std::sync::Arc::new(repaint(&cc.egui_ctx)),
            },
            shell: Shell {
                dialogs: options.dialogs,
                message: None,
                confirm_quit: false,
                quit_confirmed: false,
                title: String::new(),
                screenshot: options.screenshot.map(ScreenshotJob::new),
                frame_ms: 0.0,
            },
            map_dialogs: MapDialogs::default(),
            browser: browser::AssetBrowser::new(repaint(&cc.egui_ctx)),
            open_from_client: Default::default(),
            missing_models: Default::default(),
            object_tool: Default::default(),
            terrain_clipboard: Default::default(),
            recovery: None,
        };
        match (options.open, options.read_as) {
            (Some(path), Some(from)) => app.open_as(&path, Some(from)),
            (Some(path), None) => app.open(&path),
            (None, _) => app.open_sample(),
        }
        if let Some(ops) = app
            .shell
            .screenshot
            .as_ref()
            .and_then(ScreenshotJob::ops)
            .cloned()
        {
            app.apply_ops(&ops);
        }
        if let Some(tile) = app.shell.screenshot.as_ref().and_then(ScreenshotJob::tile) {
            app.go_to_tile(tile);
        }
        let select: Vec<u32> = app
            .shell
            .screenshot
            .as_ref()
            .map(|j| j.select().to_vec())
            .unwrap_or_default();
        if !select.is_empty() {
            app.doc.editing.settings.tool = Tool::Objects;
            app.select_by_uid(&select);
        }
        if let Some((eye, target)) = app.shell.screenshot.as_ref().and_then(ScreenshotJob::view) {
            app.view.camera.position = eye;
            app.view.camera.look_at(target);
        }
        if app
            .shell
            .screenshot
            .as_ref()
            .is_some_and(ScreenshotJob::hide_objects)
        {
            app.settings.objects.doodads = false;
            app.settings.objects.wmos = false;
        }
        let overlays = app
            .shell
            .screenshot
            .as_ref()
            .map(|s| s.overlays().to_vec())
            .unwrap_or_default();
        for o in overlays {
            match o.as_str() {
                "chunk-grid" => app.settings.view.chunk_grid = true,
                "layer-count" => app.settings.view.layer_count = true,
                "areas" => app.settings.view.area_overlay = true,
                "ground-effects" => app.settings.view.effects_overlay = true,
                _ => {}
            }
        }
        use crate::command::{ImagesIntent, NewMapIntent, TexturesIntent};
        let dialog = app
            .shell
            .screenshot
            .as_ref()
            .and_then(ScreenshotJob::dialog)
            .and_then(|name| match name {
                "export" => Some(Intent::Export(export::ExportIntent::Open)),
                "save-as" => Some(Intent::SaveAsDialog),
                "import-image" => Some(Intent::Images(ImagesIntent::OpenImport)),
                "export-images" => Some(Intent::Images(ImagesIntent::OpenExport)),
                "textures" => Some(Intent::Textures(TexturesIntent::Open)),
                "new-map" => Some(Intent::NewMap(NewMapIntent::Open)),
                "missing-models" => Some(Intent::ShowMissingModels(true)),
                "open-from-client" => Some(Intent::OpenFromClientDialog),
                _ => None,
            });
        if let Some(intent) = dialog {
            app.handle(&cc.egui_ctx, intent);
        }
        if let Some(filter) = app
            .shell
            .screenshot
            .as_ref()
            .and_then(ScreenshotJob::browse)
        {
            app.settings.left_panel = settings::LeftPanel::Assets;
            app.browser.set_filter(filter.to_string());
        }
        app
    }

    /// Turns on the autosave into `r`'s folder and offers the maps recovered there.
    pub fn with_recovery(mut self, r: recovery::Recovery) -> LoamApp {
        self.recovery = Some(r);
        self
    }

    /// Keeps exported minimaps under `root` between exports, so that only the changed tiles are
    /// drawn again.
    pub fn with_minimap_cache(mut self, root: PathBuf) -> LoamApp {
        self.map_dialogs.export.minimap_root = Some(root);
        self
    }

    /// The autosave and the recovered maps not answered yet, when on.
    pub fn recovery(&self) -> Option<&recovery::Recovery> {
        self.recovery.as_ref()
    }

    /// The open map, if any.
    pub fn session(&self) -> Option<&Session> {
        self.doc.session.as_ref()
    }

    /// The open map for changes that go around the ui (tests saving or loading directly).
    pub fn session_mut(&mut self) -> Option<&mut Session> {
        self.doc.session.as_mut()
    }

    /// The camera.
    pub fn camera(&self) -> &Camera {
        &self.view.camera
    }

    /// The camera, to point it from a script or a test.
    pub fn camera_mut(&mut self) -> &mut Camera {
        &mut self.view.camera
    }

    /// What the hover text says about the object under the cursor, as of the last frame.
    pub fn object_hover(&self) -> Option<&str> {
        self.view.object_hover.as_deref()
    }

    /// The settings as they would be saved.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The edit tools and the undo history.
    pub fn editing(&self) -> &Editing {
        &self.doc.editing
    }

    /// True when there are changes a save would write: edits since the saved point of the
    /// history (undoing back to it leaves nothing unsaved), or tiles marked otherwise.
    pub fn has_unsaved(&self) -> bool {
        self.doc.has_unsaved()
    }

    /// The asset browser.
    pub fn browser(&self) -> &browser::AssetBrowser {
        &self.browser
    }

    /// True while a map is being copied out of the client (File ▸ Open from client).
    pub fn is_copying(&self) -> bool {
        self.open_from_client.is_copying()
    }

    /// True while the Save as… dialog is up.
    pub fn save_as_shown(&self) -> bool {
        self.map_dialogs.save_as.is_shown()
    }

    /// The status bar's message, if any.
    pub fn message(&self) -> Option<&str> {
        self.shell.message.as_deref()
    }

    /// Marks a tile changed, as the edit tools will (tests use it to exercise save and quit).
    pub fn mark_edited(&mut self, tile: TileCoord) {
        if let Some(s) = &mut self.doc.session {
            s.mark_edited(tile);
        }
    }

    /// After tiles were added to or removed from the open map's files: opens it again (the
    /// camera where it was) and says what happened.
    fn change_tiles(&mut self, done: Result<String, String>) {
        match done {
            Ok(said) => {
                let camera = self.view.camera;
                if let Some(path) = self.doc.session.as_ref().map(|s| s.source.clone()) {
                    self.open(&path);
                }
                self.view.camera = camera;
                self.shell.message = Some(said);
            }
            Err(e) => self.shell.message = Some(e),
        }
    }

    /// Opens a map (a .wdt, an .adt or a folder of tiles), replacing the current one, read as
    /// the generation remembered for it ("Read as"), else as its bytes decide; failures become
    /// the status message. The tiles around the first view are read at once, the rest stream in
    /// as the camera moves.
    pub fn open(&mut self, path: &Path) {
        let from = self.settings.read_as_for(path);
        self.open_as(path, from);
    }

    /// Opens a map read as `from` (`None`: as its bytes decide) and remembers the choice for
    /// this map.
    pub fn open_as(&mut self, path: &Path, from: Option<Generation>) {
        match Session::open_as(path, from) {
            Ok(s) => self.install(path, from, s),
            Err(e) => self.shell.message = Some(format!("could not open: {e}")),
        }
    }

    /// Makes `session` (opened from `path` read as `from`) the open map.
    fn install(&mut self, path: &Path, from: Option<Generation>, mut session: Session) {
        self.leave_session();
        self.remember_camera();
        self.streams.session_id += 1;
        self.streams.loader.start_session(self.streams.session_id);
        self.settings.add_recent(path);
        self.settings.set_read_as(path, from);
        let remembered = self.settings.camera_for(&session.key());
        let first = remembered.unwrap_or_else(|| initial_camera(&session));
        let near = tiles_near(
            &session.known_tiles(),
            &view_points(&first, mean_ground(&session.map)),
            LOAD_RADIUS_TILES,
        );
        session.load_now(&near.into_iter().collect::<Vec<_>>());
        self.view.camera = remembered.unwrap_or_else(|| initial_camera(&session));
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
        self.shell.message = (!notes.is_empty()).then(|| notes.join("; "));
        self.doc.session = Some(session);
        self.view.gone_to = None;
        self.map_dialogs.save_as.close();
        // A new map starts a new history; the tool settings stay.
        self.doc.editing = Editing::with_settings(self.doc.editing.settings.clone());
        if let Some(s) = &self.doc.session {
            self.doc.editing.liquid_style = LiquidStyle::of(s.generation);
        }
        self.restart_textures();
        let mut gl = self.gl.lock();
        for c in gl.uploaded.clone() {
            gl.queue_removal(c);
        }
    }

    /// Opens the bundled sample map.
    pub fn open_sample(&mut self) {
        match startup::sample_path() {
            Ok(path) => self.open(&path),
            Err(e) => self.shell.message = Some(format!("no sample map: {e}")),
        }
    }

    fn remember_camera(&mut self) {
        if let Some(s) = &self.doc.session {
            self.settings.cameras.insert(s.key(), self.view.camera);
        }
    }

    /// Moves the camera over a tile (loaded or not), above its highest point.
    pub fn go_to_tile(&mut self, tile: TileCoord) {
        self.view.gone_to = Some(tile);
        let range = self
            .doc
            .session
            .as_ref()
            .and_then(|s| s.map.tiles.get(&tile))
            .map(|t| {
                t.chunks
                    .iter()
                    .map(|c| c.height_range())
                    .fold((f32::MAX, f32::MIN), |(l, h), (a, b)| (l.min(a), h.max(b)))
            });
        let (lo, hi) = range.unwrap_or_else(|| {
            let z = self.view.camera.position[2] as f32 - 200.0;
            (z, z)
        });
        let ground = lo + (hi - lo) * 0.4;
        self.view.camera.frame_tile(tile, ground);
        // Mountains must not stand between the camera and the tile: rise above the top.
        let clear = hi as f64 + 120.0;
        if self.view.camera.position[2] < clear {
            let [nx, ny] = tile.north_west();
            let half = TILE_SIZE / 2.0;
            self.view.camera.position[2] = clear;
            self.view
                .camera
                .look_at([nx - half, ny - half, ground as f64]);
        }
    }

    /// Carries out one intent.
    pub fn handle(&mut self, ctx: &egui::Context, intent: Intent) {
        let Some(intent) = self.open_from_client.handle(
            intent,
            self.doc.client_data(),
            self.streams.repaint.clone(),
            &mut self.shell.message,
        ) else {
            return;
        };
        let Some(intent) = self.with_object_tool(|tool, c| tool.handle(c, intent)) else {
            return;
        };
        let Some(intent) =
            self.terrain_clipboard
                .handle(intent, &self.doc, &mut self.shell.message)
        else {
            return;
        };
        let mut c = dialogs::DialogCtx {
            doc: &self.doc,
            dialogs: self.shell.dialogs.as_mut(),
            message: &mut self.shell.message,
            repaint: self.streams.repaint.clone(),
            hover_tile: self.view.hover.map(|p| p.tile),
        };
        let handed_back = self.map_dialogs.handle(intent, &mut c);
        // An image import runs through the one op runner, as one undo step.
        if let Some(ops) = self.map_dialogs.images.take_ops() {
            self.apply_ops(&ops);
        }
        // So does Edit ▸ Textures….
        if let Some(ops) = self.map_dialogs.textures.take_ops() {
            self.apply_ops(&ops);
        }
        let Some(intent) = handed_back else {
            return;
        };
        match intent {
            Intent::ShowMissingModels(_) | Intent::DismissModelNotice => {
                let shown = missing_models::MissingModels::shown(
                    self.streams.objects.missing_model_count(),
                    self.doc.client.is_some(),
                    self.streams.textures.missing_count(),
                );
                self.missing_models.handle(&intent, shown);
            }
            Intent::OpenDialog => {
                if let Some(p) = self.shell.dialogs.pick_map() {
                    self.open(&p);
                }
            }
            Intent::OpenFolderDialog => {
                if let Some(p) = self.shell.dialogs.pick_map_folder() {
                    self.open(&p);
                }
            }
            Intent::Open(p) => self.open(&p),
            Intent::ReadAs(from) => {
                if let Some(path) = self.doc.session.as_ref().map(|s| s.source.clone()) {
                    self.open_as(&path, from);
                }
            }
            Intent::OpenSample => self.open_sample(),
            Intent::Save => self.save(),
            Intent::SaveAsWrite => self.save_as_write(),
            Intent::SaveAsDialog
            | Intent::SaveAsTarget(_)
            | Intent::SaveAsPickFolder
            | Intent::SaveAsCancel
            | Intent::SaveAsWdl(_) => {
                if let Some(s) = &self.doc.session {
                    self.map_dialogs
                        .save_as
                        .handle(intent, s, self.shell.dialogs.as_mut());
                }
            }
            Intent::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Intent::ConfirmQuit(quit) => {
                self.shell.confirm_quit = false;
                if quit {
                    self.shell.quit_confirmed = true;
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            }
            Intent::GoToTile(t) => self.go_to_tile(t),
            Intent::ShowChunkGrid(v) => self.settings.view.chunk_grid = v,
            Intent::ShowTileGrid(v) => self.settings.view.tile_grid = v,
            Intent::ShowLayerCount(v) => self.settings.view.layer_count = v,
            Intent::ShowAreas(v) => self.settings.view.area_overlay = v,
            Intent::ShowGroundEffects(v) => self.settings.view.effects_overlay = v,
            Intent::ShowLiquids(v) => self.settings.view.liquids = v,
            Intent::SetObjectFilter(f) => self.settings.objects = f,
            Intent::AutosaveSecs(v) => self.settings.autosave_secs = v,
            Intent::RestoreRecovered(i) => self.restore(i),
            Intent::DiscardRecovered(i) => {
                if let Some(why) = self.recovery.as_mut().and_then(|r| r.discard_offer(i)) {
                    self.shell.message = Some(why);
                }
            }
            Intent::RecoverLater(i) => {
                if let Some(r) = &mut self.recovery {
                    r.take_offer(i);
                }
            }
            Intent::CameraSpeed(v) => self.settings.camera_speed = v,
            Intent::PickClientData => {
                if let Some(f) = self.shell.dialogs.pick_folder() {
                    let c = client::Client::open(&f);
                    self.shell.message = Some(match &c.opened {
                        Ok(_) => c.describe(),
                        Err(why) => format!("{why}; reading it as extracted files"),
                    });
                    self.settings.client_data = Some(f);
                    self.doc.client = Some(c);
                    self.reload_textures();
                }
            }
            Intent::ClearClientData => {
                self.settings.client_data = None;
                self.doc.client = None;
                self.reload_textures();
            }
            Intent::DismissMessage => self.shell.message = None,
            Intent::ShowLeftPanel(p) => self.settings.left_panel = p,
            Intent::BrowserTab(k) => self.browser.set_kind(k),
            Intent::BrowserFilter(f) => self.browser.set_filter(f),
            Intent::BrowserToggleFolder(key) => self.browser.toggle_folder(key),
            Intent::PickAsset(kind, path) => {
                self.browser.selected = Some((kind, path.clone()));
                browsing::pick_asset(
                    kind,
                    path,
                    &mut self.doc.editing.settings,
                    &mut self.object_tool.place,
                );
            }
            Intent::PickListfile => {
                if let Some(f) = self.shell.dialogs.pick_listfile() {
                    self.settings.listfile = Some(f);
                    self.restart_browser_with(self.doc.byte_source());
                }
            }
            Intent::ClearListfile => {
                self.settings.listfile = None;
                self.restart_browser_with(self.doc.byte_source());
            }
            Intent::SetTools(settings) => {
                self.doc.editing.settings = *settings;
                if let Err(e) = stamps::load(&mut self.doc.editing.settings) {
                    self.shell.message = Some(e);
                }
            }
            Intent::PickStamp => {
                if let Some(path) = self.shell.dialogs.pick_image() {
                    let mut settings = self.doc.editing.settings.clone();
                    settings.brush.stamp = Some(crate::edit::brush::Stamp {
                        path: path.to_string_lossy().into_owned(),
                        mask: None,
                    });
                    self.handle(ctx, Intent::SetTools(Box::new(settings)));
                }
            }
            Intent::Undo => self.history_step(|e, m| e.undo(m)),
            Intent::Redo => self.history_step(|e, m| e.redo(m)),
            Intent::HistoryGoTo(n) => self.history_step(|e, m| e.go_to(m, n)),
            Intent::StitchSeams => self.stitch_seams(),
            Intent::BakeShadows => self.bake_shadows(None),
            Intent::BakeShadowsIn(chunks) => self.bake_shadows(Some(&chunks)),
            Intent::SetShadowSun(sun) => self.doc.editing.settings.shadow_sun = sun,
            Intent::ShadowModels(on) => self.doc.editing.settings.shadow_models = on,
            // Carried out by the open-from-client and object components.
            Intent::OpenFromClientDialog
            | Intent::OpenFromClient(_)
            | Intent::CloseOpenFromClient
            | Intent::EditObject(_)
            | Intent::SnapSelectionToGround
            | Intent::AlignSelectionToGround
            | Intent::DeleteSelection
            | Intent::ClearSelection
            | Intent::TransformSelection(_)
            | Intent::TransformAxis(_)
            | Intent::CancelTransform
            | Intent::DuplicateSelection
            | Intent::CopySelection
            | Intent::PasteSelection
            | Intent::SelectSameModel(_)
            | Intent::SetUidRange(_)
            | Intent::SetPlaceOptions(_) => {}
            // Carried out by the export and new map components.
            Intent::Export(_)
            | Intent::NewMap(_)
            | Intent::Images(_)
            | Intent::Textures(_)
            | Intent::Clipboard(_) => {}
            Intent::AddTile(c) => self.change_tiles(new_map::add_tile(&self.doc, c)),
            Intent::RemoveTile(c) => self.change_tiles(new_map::remove_tile(&self.doc, c)),
        }
    }

    /// Runs scripted operations as strokes, each an undo step (`loam edit --apply` and the
    /// screenshot command's `--apply`), reading first the tiles each one reaches; the tool
    /// panel then shows the last operation's tool and brush, and the brush cursor sits on its
    /// last point.
    pub fn apply_ops(&mut self, file: &crate::edit::ops::OpsFile) {
        let source = self.doc.byte_source();
        let model_box = |path: &str| {
            crate::assets::models::placement_box(path, &|p: &str| source(p).ok().flatten())
        };
        // The uid scan started when the map opened may still be running; a script runs now,
        // so it reads the uids itself rather than go without them.
        let on_disk = self.doc.uids.disk_uids().or_else(|| {
            let s = self.doc.session.as_ref()?;
            let coords: Vec<_> = s.on_disk.iter().copied().collect();
            Some(std::sync::Arc::new(s.tiles.as_ref()?.uid_tiles(&coords)))
        });
        let uids = crate::edit::objects::NewUids {
            range: self.doc.uids.range(),
            on_disk: on_disk.as_deref(),
        };
        let Some(s) = &mut self.doc.session else {
            return;
        };
        let folder = file.folder.clone();
        let read_image = |p: &str| crate::images::read_input(folder.as_deref(), p);
        let script = crate::doc::runner::Script {
            ops: &file.ops,
            cx: crate::edit::ops::OpContext {
                model_box: &model_box,
                uids: &uids,
                style: LiquidStyle::of(s.generation),
                read_image: &read_image,
            },
        };
        let mut touched = Vec::new();
        let mut failure = None;
        let loaded = crate::doc::runner::run(s, &script, &mut self.doc.editing.history, |_, r| {
            match r {
                Ok(r) => touched.extend(r.tiles.into_iter().map(|t| (t, 0))),
                Err(e) => failure = Some(e),
            }
            true
        });
        if let Some(e) = failure {
            self.shell.message = Some(e);
        }
        if loaded {
            self.streams.objects.invalidate();
        }
        self.after_edit(touched);
        let Some(s) = &mut self.doc.session else {
            return;
        };
        if let Some(crate::edit::ops::Operation::Paste(op)) = file.ops.last()
            && op.clipboard.is_none()
        {
            if let Err(e) = self.terrain_clipboard.follow_script(&self.doc, op) {
                self.shell.message = Some(e);
            }
            self.doc.editing.settings.tool = Tool::CopyPaste;
            let last = op.points[op.points.len() - 1];
            let map = self.doc.session.as_ref().map(|s| &s.map);
            let z = map
                .and_then(|m| crate::edit::lattice::height_at(m, last[0], last[1]))
                .unwrap_or(0.0) as f64;
            self.view.shown_cursor = Some([last[0], last[1], z]);
            return;
        }
        if let Some(op) = file.ops.iter().rev().find_map(|o| o.brush()) {
            self.doc.editing.settings =
                crate::edit::tools::ToolSettings::for_op(op, self.doc.editing.settings.clone());
            let last = op.points[op.points.len() - 1];
            let z = crate::edit::lattice::height_at(&s.map, last[0], last[1]).unwrap_or(0.0) as f64;
            self.view.shown_cursor = Some([last[0], last[1], z]);
        }
    }

    /// Rebuilds the asset browser's names for the open map and client, its thumbnails read
    /// through `source` (the bytes the terrain reads).
    fn restart_browser_with(&mut self, source: crate::assets::textures::ByteSource) {
        let sources = browsing::name_sources(&self.doc, self.settings.listfile.clone());
        self.browser.restart(sources, source);
    }

    /// Runs `f` with the object tool and what it works with, then marks and redraws the
    /// chunks it changed.
    fn with_object_tool<R>(
        &mut self,
        f: impl FnOnce(&mut object_tool::ObjectTool, &mut object_tool::ObjectCtx) -> R,
    ) -> R {
        let mut ctx = object_tool::ObjectCtx {
            doc: &mut self.doc,
            scene: &mut self.streams.objects,
            camera: &self.view.camera,
            hover: self.view.hover,
            filter: &self.settings.objects,
            message: &mut self.shell.message,
            repaint: &self.streams.repaint,
            touched: Vec::new(),
        };
        let r = f(&mut self.object_tool, &mut ctx);
        let touched = ctx.touched;
        self.after_edit(touched);
        r
    }

    /// The selected objects as their first listing tile records them (objects no longer in a
    /// loaded tile are left out).
    pub fn selected_objects(&self) -> Vec<crate::edit::objects::ObjectRecord> {
        self.doc.selected_objects()
    }

    /// The terrain point under the mouse, as of the last frame.
    pub fn hover_point(&self) -> Option<crate::render::pick::TerrainPoint> {
        self.view.hover
    }

    /// The placed objects as the view shows them.
    pub fn object_scene(&self) -> &objects::ObjectScene {
        &self.streams.objects
    }

    /// The selection as (kind, uniqueId) pairs.
    pub fn selection(&self) -> &[(crate::model::ObjectKind, u32)] {
        &self.doc.selection
    }

    /// Selects the objects with these uniqueIds (a doodad, else a WMO), those a loaded tile lists.
    pub fn select_by_uid(&mut self, uids: &[u32]) {
        self.doc.select_uids(uids);
    }

    /// Where the object tool's gizmo stands (see [`object_tool::ObjectTool::gizmo_centre`]).
    pub fn gizmo_centre(&self) -> Option<(glam::Vec3, Option<f32>)> {
        self.object_tool.gizmo_centre(&self.doc)
    }

    /// The object under the cursor (the scene's index), unless the terrain in front hides it.
    fn object_index_under(&self, input: &ui::viewport::ViewportInput) -> Option<usize> {
        let aim = object_view::Aim {
            camera: &self.view.camera,
            hover: self.view.hover.as_ref(),
            filter: &self.settings.objects,
        };
        object_view::object_index_under(&self.streams.objects, &aim, input)
    }

    /// Stitches the seams of the loaded tiles as one undo step and says how many vertices changed.
    fn stitch_seams(&mut self) {
        let Some(s) = &mut self.doc.session else {
            return;
        };
        if self.doc.editing.is_stroking() {
            return;
        }
        let (stitched, touched) = self.doc.editing.stitch_seams(&mut s.map);
        self.shell.message = Some(if stitched.vertices == 0 {
            "Stitch seams: no seams among the loaded tiles".to_string()
        } else {
            format!(
                "Stitch seams: {} vertices changed (largest change {:.3} yd)",
                stitched.vertices, stitched.largest
            )
        });
        self.after_edit(touched);
    }

    /// Bakes the shadow maps of `chunks` (a selection), or of the loaded tiles without, as one
    /// undo step and says what changed.
    fn bake_shadows(&mut self, chunks: Option<&[(TileCoord, usize)]>) {
        // The models' files: the map's folder, then the client.
        let source = self.doc.byte_source();
        let cache = crate::assets::models::ShapeCache::new(move |p| source(p).ok().flatten());
        let Some(s) = &mut self.doc.session else {
            return;
        };
        if self.doc.editing.is_stroking() {
            return;
        }
        let shapes = |p: &str| cache.get(p);
        let ((baked, touched), cast) =
            self.doc
                .editing
                .bake_shadows_of(&mut s.map, chunks, Some(&shapes));
        let models = cast.map_or(String::new(), |c| {
            let missing = if c.missing.is_empty() {
                String::new()
            } else {
                format!(" ({} model(s) not found)", c.missing.len())
            };
            format!("; models: {} cast{missing}", c.objects)
        });
        self.shell.message = Some(format!(
            "Bake shadows: {} chunks baked, {} changed, {:.1}% of cells in shadow{models}",
            baked.chunks,
            baked.changed.len(),
            100.0 * baked.shadowed as f64 / (baked.chunks.max(1) as f64 * 4096.0)
        ));
        self.after_edit(touched);
    }

    /// Before the open map is replaced: its unsaved edits go to the autosave (see
    /// [`recovery::Recovery::leave`]).
    fn leave_session(&mut self) {
        let unsaved = self.has_unsaved();
        if let (Some(r), Some(s)) = (&mut self.recovery, &mut self.doc.session)
            && let Err(e) = r.leave(s, unsaved)
        {
            self.shell.message = Some(e);
        }
    }

    /// Autosaves when due and wakes the window for the next.
    fn autosave_tick(&mut self, ctx: &egui::Context) {
        let busy = self.doc.editing.is_stroking() || self.object_tool.is_dragging();
        let Some(r) = &mut self.recovery else { return };
        let (message, next) = r.tick(
            self.doc.session.as_mut(),
            self.streams.session_id,
            busy,
            self.settings.autosave_secs,
        );
        if message.is_some() {
            self.shell.message = message;
        }
        if let Some(next) = next {
            ctx.request_repaint_after(next);
        }
    }

    /// Opens the map of recovered offer `index` with its autosaved tiles as unsaved edits.
    fn restore(&mut self, index: usize) {
        let restored = match self.recovery.as_mut().and_then(|r| r.restore(index)) {
            None => return,
            Some(Err(why)) => {
                self.shell.message = Some(why);
                return;
            }
            Some(Ok(r)) => r,
        };
        // Read as the autosave's generation; the remembered "Read as" choice stays as it was.
        let remembered = self.settings.read_as_for(&restored.source);
        self.install(&restored.source, remembered, restored.session);
        let Some(s) = &mut self.doc.session else {
            return;
        };
        let touched = s.take_recovered(restored.tiles);
        if let Some(r) = &mut self.recovery {
            r.adopt(restored.dir);
        }
        self.after_edit(touched);
        self.shell.message = Some(restored.note);
    }

    /// Undoes or redoes through `step`, then re-sends and marks what changed.
    fn history_step(&mut self, step: impl FnOnce(&mut Editing, &mut crate::model::Map) -> Touched) {
        let Some(s) = &mut self.doc.session else {
            return;
        };
        if self.doc.editing.is_stroking() || self.object_tool.is_dragging() {
            return;
        }
        let touched = step(&mut self.doc.editing, &mut s.map);
        self.after_edit(touched);
    }

    /// Hands this frame's viewport input to the tool in use: the object tool, or the brushes
    /// (see `brushes::drive`); then redraws and marks what changed.
    fn drive_tool(&mut self, input: &ui::viewport::ViewportInput) {
        if self.doc.editing.settings.tool == Tool::Objects {
            self.with_object_tool(|tool, c| tool.click(c, input));
            return;
        }
        if self.doc.editing.settings.tool == Tool::CopyPaste {
            self.terrain_clipboard
                .drive(input, self.view.hover.map(|p| p.world));
            if let Some(ops) = self.terrain_clipboard.take_ops() {
                self.apply_ops(&ops);
            }
            return;
        }
        let Some(s) = &mut self.doc.session else {
            return;
        };
        let scene = &self.streams.objects;
        let model_box = |name: &str| scene.model_box(name);
        let at = self.view.hover.map(|p| p.world);
        let frame = brushes::drive(&mut self.doc.editing, &mut s.map, at, input, &model_box);
        if frame.message.is_some() {
            self.shell.message = frame.message;
        }
        self.redraw(frame.redraw.into_iter().collect());
        self.after_edit(frame.touched);
    }

    /// Marks the tiles of changed chunks edited and re-sends them to the GPU.
    fn after_edit(&mut self, touched: Touched) {
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
    fn redraw(&mut self, tiles: BTreeSet<TileCoord>) {
        if let Some(s) = &self.doc.session {
            self.streams.redraw(s, &self.gl, tiles);
        }
    }

    /// Starts the texture worker over for the open map's byte source (loose files under the
    /// client data folder and the map's folders) and forgets the textures on the GPU.
    fn restart_textures(&mut self) {
        // One source for the terrain and the browser: building it indexes the map's folder.
        let source = self.doc.byte_source();
        self.restart_browser_with(source.clone());
        if self.doc.session.is_none() {
            return;
        }
        self.streams.textures.start(source.clone());
        // The object scene starts over with the new byte source; the GPU forgets its models.
        self.streams.objects.start(source);
        self.view.object_hover = None;
        self.with_object_tool(|tool, c| tool.clear(c));
        self.gl.lock().queue_clear_models();
        let liquid_types = self
            .doc
            .client
            .as_ref()
            .map_or(&[][..], |c| c.liquid_types.as_slice());
        let mut gl = self.gl.lock();
        gl.queue_clear_textures();
        gl.liquid_textures = crate::assets::client::kind_textures(liquid_types);
    }

    /// Forgets the layer textures and re-sends the drawn tiles, so that a new client data
    /// folder shows.
    fn reload_textures(&mut self) {
        self.restart_textures();
        let mut gl = self.gl.lock();
        for c in gl.uploaded.clone() {
            gl.queue_removal(c);
        }
    }

    fn save(&mut self) {
        let Some(s) = &mut self.doc.session else {
            return;
        };
        if client_maps::is_client_copy(&s.source) {
            // Opened from the client: never written back there; ask for a folder.
            self.shell.message =
                Some("opened from the client: choose a folder to save into".into());
            self.map_dialogs.save_as.open(s);
            return;
        }
        let edited = s.edited.clone();
        let saved = s.save();
        let everything = s.edited.is_empty();
        let unsaved = s.edited.len();
        self.shell.message = Some(match saved {
            Ok(sum) => {
                self.doc.editing.history.set_saved();
                let wdl = s.refresh_wdl(&edited).unwrap_or_default();
                format!(
                    "saved {} file(s) to {}{wdl}",
                    sum.files,
                    sum.folder.display()
                )
            }
            Err(e) => format!("save failed: {e}; {unsaved} tile(s) still unsaved, kept in memory"),
        });
        if everything && let Some(r) = &mut self.recovery {
            // Everything is on disk: nothing left to recover.
            if let Err(e) = r.discard_owned() {
                self.shell.message = Some(e);
            }
        }
    }

    fn save_as_write(&mut self) {
        let Some(s) = &mut self.doc.session else {
            return;
        };
        match self.map_dialogs.save_as.write(s) {
            None => {}
            Some(Err(why)) => self.shell.message = Some(why),
            Some(Ok(note)) => {
                self.shell.message = Some(note);
                let path = s.source.clone();
                self.settings.add_recent(&path);
                if let Some(r) = &mut self.recovery
                    && let Err(e) = r.discard_owned()
                {
                    self.shell.message = Some(e);
                }
            }
        }
    }

    /// The camera's position and where it looks, on the tile grid.
    fn view_points(&self) -> [[f64; 2]; 2] {
        let ground = self
            .doc
            .session
            .as_ref()
            .map_or(0.0, |s| mean_ground(&s.map));
        view_points(&self.view.camera, ground)
    }

    /// Takes in the tiles the loader read, asks for the next ones near the camera and drops
    /// unedited ones far away.
    fn stream_from_disk(&mut self) {
        let points = self.view_points();
        if let Some(s) = &mut self.doc.session
            && let Some(why) = self.streams.pull_from_disk(s, &points)
        {
            self.shell.message = Some(why);
        }
    }

    /// Sends near tiles and the textures that arrived to the GPU and drops far tiles (see
    /// [`streams::Streams::push_to_gpu`]).
    fn stream_tiles(&mut self) -> bool {
        let points = self.view_points();
        self.streams
            .push_to_gpu(self.doc.session.as_ref(), &self.gl, &points)
    }

    fn overlays(&self) -> Overlays {
        let copy_paste = self.doc.editing.settings.tool == Tool::CopyPaste;
        Overlays {
            rect: copy_paste
                .then(|| {
                    let hover = self.view.hover.map(|p| p.world).or(self.view.shown_cursor);
                    self.terrain_clipboard.outline(hover)
                })
                .flatten(),
            chunk_grid: self.settings.view.chunk_grid,
            tile_grid: self.settings.view.tile_grid,
            layer_count: self.settings.view.layer_count,
            areas: self.settings.view.area_overlay,
            ground_effects: self.settings.view.effects_overlay,
            liquids: self.settings.view.liquids,
            brush: self
                .view
                .hover
                .filter(|_| self.shell.screenshot.is_none())
                .map(|p| p.world)
                .or(self.view.shown_cursor)
                .filter(|_| !copy_paste)
                .map(|p| {
                    (
                        [p[0] as f32, p[1] as f32],
                        self.doc.editing.settings.brush.radius,
                    )
                }),
        }
    }

    fn tile_map_state(&self) -> ui::tile_map::TileMapState {
        let mut state = ui::tile_map::TileMapState {
            camera: Some((
                [self.view.camera.position[0], self.view.camera.position[1]],
                self.view.camera.yaw,
            )),
            drawn: self.gl.lock().uploaded.clone(),
            gone_to: self.view.gone_to,
            ..Default::default()
        };
        if let Some(s) = &self.doc.session {
            state.present = s.map.present_tiles().into_iter().collect();
            state.loaded = s.map.tiles.keys().copied().collect();
            state.edited = s.edited.clone();
            state.unreadable = s.failed.clone();
        }
        state
    }

    fn draw_panels(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        let mut intents = Vec::new();
        let menu_state = panels::menu_state(&self.doc, &self.settings);
        egui::Panel::top("loam-menu").show(ui, |ui| {
            intents.extend(ui::menu::show(ui, &menu_state));
        });
        // Read before the struct literal: a lock taken inside it would live to the end of the
        // statement, and `object_status` locks the same state.
        let uploaded = self.gl.lock().uploaded.len();
        let status = ui::status::StatusInfo {
            hover: self.view.hover,
            area_name: self.view.hover.and_then(|p| {
                let names = &self.doc.client.as_ref()?.areas;
                names.describe(p.area_id)
            }),
            frame_ms: self.shell.frame_ms,
            unsaved: if self.has_unsaved() {
                self.doc.session.as_ref().map_or(0, |s| s.edited.len())
            } else {
                0
            },
            tiles_loaded: (
                self.doc.session.as_ref().map_or(0, |s| s.map.tiles.len()),
                uploaded,
            ),
            message: self.shell.message.clone(),
            textures: self.streams.textures.status(),
            objects: object_view::object_status(
                &self.streams.objects,
                self.doc.session.as_ref(),
                &self.gl,
            ),
        };
        egui::Panel::bottom("loam-status").show(ui, |ui| {
            intents.extend(ui::status::show(ui, &status));
        });
        let tile_map = self.tile_map_state();
        let page = self.settings.left_panel;
        egui::Panel::left("loam-tiles")
            .resizable(true)
            .default_size(280.0)
            .show(ui, |ui| {
                let left = panels::Left {
                    page,
                    doc: &self.doc,
                    tile_map: &tile_map,
                    browser: &mut self.browser,
                };
                intents.extend(panels::left(ui, left));
            });
        let right = panels::right_view(
            &self.doc,
            &self.object_tool,
            self.terrain_clipboard.view(),
            self.view.hover,
        );
        egui::Panel::right("loam-tools")
            .resizable(true)
            .default_size(270.0)
            .show(ui, |ui| intents.extend(panels::right(ui, &right)));
        intents
    }
}

impl eframe::App for LoamApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.shell.frame_ms = ctx.input(|i| i.unstable_dt) * 1000.0;

        // Files dropped onto the window open.
        let dropped = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .find(|p| !p.as_os_str().is_empty())
        });
        if let Some(p) = dropped {
            self.open(&p);
        }
        // Closing with unsaved changes asks first.
        if ctx.input(|i| i.viewport().close_requested())
            && !self.shell.quit_confirmed
            && self.has_unsaved()
            // A screenshot run closes by itself; there is nobody to answer.
            && self.shell.screenshot.is_none()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.shell.confirm_quit = true;
        }

        let title = match &self.doc.session {
            Some(s) => format!("loam — {} ({})", s.map.name, s.generation),
            None => "loam".to_string(),
        };
        if title != self.shell.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shell.title = title;
        }

        let mut intents = self.draw_panels(ui);
        if let Some(s) = &self.doc.session {
            intents.extend(self.map_dialogs.save_as.ui(ui, s));
        }
        intents.extend(self.open_from_client.ui(ui));
        intents.extend(self.map_dialogs.export.ui(ui, self.doc.session.as_ref()));
        intents.extend(self.map_dialogs.new_map.ui(ui));
        intents.extend(self.map_dialogs.images.ui(ui, &self.doc));
        intents.extend(self.map_dialogs.textures.ui(ui, &self.doc));
        self.map_dialogs.images.poll(&mut self.shell.message);
        intents.extend(self.map_dialogs.new_map.poll(&mut self.shell.message));
        match self.open_from_client.poll() {
            Some(open_from_client::Copied::Open(wdt, name)) => {
                self.open(&wdt);
                if self.doc.session.is_some() && self.shell.message.is_none() {
                    self.shell.message = Some(format!(
                        "{name} opened from the client; File > Save as… writes it to a folder"
                    ));
                }
            }
            Some(open_from_client::Copied::Failed(why)) => self.shell.message = Some(why),
            None => {}
        }
        if self.shell.confirm_quit {
            let unsaved = self.doc.session.as_ref().map_or(0, |s| s.edited.len());
            intents.extend(ui::dialogs::confirm_quit(ui, unsaved));
        } else if let Some(offer) = self.recovery.as_ref().and_then(|r| r.offers.first()) {
            intents.extend(ui::dialogs::restore(ui, &recovery::restore_view(offer)));
        }

        self.stream_from_disk();
        let objects_ready = object_view::stream_objects(
            &mut self.streams.objects,
            self.doc.session.as_ref(),
            &self.gl,
        );
        let ready = self.stream_tiles()
            && objects_ready
            && (self.settings.left_panel != settings::LeftPanel::Assets
                || (!self.browser.is_building() && self.browser.thumbnails_settled()));
        let gl = self.gl.clone();
        let has_gl = gl.lock().has_renderer();
        let placeholder = match (&self.doc.session, has_gl) {
            (None, _) => Some("File > Open… a .wdt or .adt, or drop one here".to_string()),
            (Some(_), false) => gl.lock().error.clone(),
            _ => None,
        };
        let camera = self.view.camera;
        let overlays = self.overlays();
        let scene = &self.streams.objects;
        let filter = self.settings.objects;
        let selected = self.doc.selection.clone();
        let gizmo_at = self.gizmo_centre();
        let band = self.object_tool.band();
        let input = egui::CentralPanel::no_frame()
            .show(ui, |ui| {
                let view = ui.available_rect_before_wrap();
                let gizmo = gizmo_at.and_then(|(centre, yaw)| {
                    let aspect = view.width() / view.height().max(1.0);
                    crate::render::gizmo::layout(
                        centre,
                        yaw,
                        camera.view_projection(aspect),
                        camera.eye(),
                    )
                });
                ui::viewport::show(
                    ui,
                    |rect| {
                        has_gl.then(|| {
                            let aspect = rect.width() / rect.height().max(1.0);
                            let params = FrameParams {
                                view_projection: camera.view_projection(aspect),
                                eye: camera.eye(),
                                overlays,
                            };
                            let mut list =
                                scene.draw_list(params.view_projection, params.eye, &filter);
                            list.selected = scene.selection_boxes(&selected);
                            gl.lock().draw_list = list;
                            viewport::paint_callback(&gl, rect, params)
                        })
                    },
                    placeholder.as_deref(),
                    self.view.object_hover.as_deref(),
                    &ui::viewport::ViewMarks { gizmo, band },
                )
            })
            .inner;

        // The list is the notice opened up: one or the other.
        let list = self.missing_models.list(&self.streams.objects);
        if self.doc.session.is_some()
            && list.is_none()
            && let Some(n) = self.missing_models.notice(
                &self.streams.objects,
                self.doc.client.as_ref(),
                self.streams.textures.missing_count(),
            )
        {
            intents.extend(ui::viewport::notice(ui, input.rect, &n));
        }
        if let Some(view) = list {
            intents.extend(ui::dialogs::missing_models(ui, &view));
        }
        if self.settings.view.area_overlay && self.doc.session.is_some() {
            ui::area_legend::show(ui, input.rect, &panels::area_legend(&self.doc));
        }
        let map = self.doc.session.as_ref().map(|s| &s.map);
        camera_control::apply(
            &mut self.view.camera,
            map,
            &input,
            self.settings.camera_speed,
        );
        self.view.hover = match (map, input.hover_ndc) {
            (Some(m), Some(ndc)) => camera_control::pick(m, &self.view.camera, ndc, input.aspect()),
            _ => None,
        };
        self.view.object_hover = self
            .object_index_under(&input)
            .and_then(|i| self.streams.objects.describe(i));
        self.drive_tool(&input);
        // Shortcuts (one table, `command::shortcuts`), unless a text field has the keyboard.
        if !ctx.egui_wants_keyboard_input() {
            use crate::command::shortcuts::{clipboard_intents, shortcuts};
            let tool = self.doc.editing.settings.tool;
            let mut state = self
                .object_tool
                .shortcut_state(&self.doc, tool == Tool::Objects);
            state.terrain_clipboard = tool == Tool::CopyPaste;
            for s in shortcuts() {
                if s.when.applies(&state) && ctx.input_mut(|i| i.consume_shortcut(&s.keys)) {
                    intents.push(s.intent);
                }
            }
            intents.extend(ctx.input(|i| clipboard_intents(&i.events, &state)));
        }
        if input.is_active() || !ready {
            ctx.request_repaint();
        }
        for intent in intents {
            self.handle(&ctx, intent);
        }
        self.autosave_tick(&ctx);
        if let Some(job) = &mut self.shell.screenshot {
            // A map that did not open is a failure, not a picture of an empty window.
            let failure = match &self.doc.session {
                None => Some(
                    self.shell
                        .message
                        .clone()
                        .unwrap_or_else(|| "no map is open".into()),
                ),
                Some(_) => self.gl.lock().error.clone(),
            };
            job.step(&ctx, ready, failure);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.shell.screenshot.is_some() {
            return;
        }
        self.remember_camera();
        eframe::set_value(storage, settings::STORAGE_KEY, &self.settings);
    }

    fn on_exit(&mut self, gl: Option<&glow::Context>) {
        // A clean quit: the edits were saved or the user chose to drop them.
        if let Some(r) = &mut self.recovery
            && let Err(e) = r.discard_owned()
        {
            eprintln!("loam: {e}");
        }
        if let Some(gl) = gl {
            self.gl.lock().destroy(gl);
        }
    }
}
