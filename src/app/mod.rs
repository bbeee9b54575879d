//! The eframe shell: the context every component works with (`context`: the document, the
//! settings, the view, the GL bridge, the streams, the autosave, the status line) and the
//! components themselves (each dialog, the object tool, the asset browser, the brushes…),
//! reached through one trait (`component`) from one list. It runs the frame loop, lays out the
//! panels from `ui`, hands each intent they return (or the shortcut table gives) down the list
//! of components, and carries out what the components ask of it: opening a map (and telling
//! every component), reloading textures, running scripted operations.
//!
//! Not for: widgets (see `ui`), GL (see `render`), the document's own logic (see `doc`),
//! files (see `pipeline`, `disk`) or any component's work (its own file).

mod access;
pub mod animation_clock;
pub mod component;
mod components;
pub mod context;
pub mod file_picker;
mod keys;
pub use crate::command::intent;
pub mod files;
mod palette;
mod panels;
pub mod recovery;
pub mod scene;
pub mod screenshot;
pub mod settings;
pub mod startup;
pub mod toolbox;
pub mod tour;
pub mod view;
pub mod view_options;
mod window;

use std::path::{Path, PathBuf};

use crate::command::shortcuts::{clipboard_intents, shortcuts_for};
use crate::doc::editing::Tool;
use crate::doc::session::Session;
use crate::doc::{Document, client};
use crate::format::Generation;
use crate::render::frame::FrameParams;
use crate::ui;
use components::Components;
use context::{AppCtx, Request, Shell};
use file_picker::FileDialogs;
use intent::Intent;
use scene::gl_bridge::GlState;
use scene::streams::Streams;
use screenshot::{ScreenshotJob, ScreenshotRequest};
use settings::Settings;
use view::View;

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

/// The editor: a shell of components around the context.
pub struct LoamApp {
    /// Everything the components work with.
    cx: AppCtx,
    /// The components, reached through [`Component`].
    parts: Components,
    /// Take a screenshot and close, when running as `loam screenshot`.
    screenshot: Option<ScreenshotJob>,
}

impl LoamApp {
    /// Builds the app: restores the settings, starts the renderer when there is a GL context,
    /// opens the requested map (or the sample) and, for a screenshot, sets the view up.
    pub fn new(cc: &eframe::CreationContext<'_>, options: StartOptions) -> LoamApp {
        let screenshot = options.screenshot.map(ScreenshotJob::new);
        // The tool bar's icons are SVGs (resources/icons), rasterised at the size shown.
        egui_extras::install_image_loaders(&cc.egui_ctx);
        let settings = Settings::restored(cc.storage, screenshot.is_some());
        if screenshot.is_some() {
            // eframe has already put the user's egui memory (panel widths, scroll places) in
            // place; a screenshot must be the same picture on every machine (issue 26's Windows
            // check compares one with the Linux build's), so it starts from egui's defaults.
            cc.egui_ctx.memory_mut(|m| *m = egui::Memory::default());
        }
        let client = (options.client.as_deref())
            .or(settings.client_data.as_deref())
            .map(client::Client::open);
        let doc = Document {
            client,
            ..Document::default()
        };
        let egui = cc.egui_ctx.clone();
        let (gl, view) = (GlState::new(cc.gl.as_deref()), View::default());
        let shell = Shell::new(options.dialogs, screenshot.is_some());
        let streams = Streams::new(&egui);
        let cx = AppCtx::new(settings, doc, view, gl, streams, shell, egui.clone());
        let browser = toolbox::asset_browser::AssetBrowser::new(move || egui.request_repaint());
        let parts = Components::new(browser);
        let mut app = LoamApp {
            cx,
            parts,
            screenshot: None,
        };
        match (options.open, options.read_as) {
            (Some(path), Some(from)) => app.open_as(&path, Some(from)),
            (Some(path), None) => app.open(&path),
            (None, _) => app.open_sample(),
        }
        if let Some(job) = screenshot {
            if let Some(ops) = job.ops() {
                app.apply_ops(ops);
            }
            for intent in job.set_up(&mut app.cx) {
                app.handle(&cc.egui_ctx, intent);
            }
            app.screenshot = Some(job);
        }
        app
    }

    /// Opens a map (a .wdt, an .adt or a folder of tiles), replacing the current one, read as
    /// the generation remembered for it ("Read as"), else as its bytes decide; failures become
    /// the status message. The tiles around the first view are read at once, the rest stream in
    /// as the camera moves.
    pub fn open(&mut self, path: &Path) {
        self.cx.open(path);
        self.settle();
    }

    /// Opens a map read as `from` (`None`: as its bytes decide) and remembers the choice for
    /// this map.
    pub fn open_as(&mut self, path: &Path, from: Option<Generation>) {
        self.cx.open_as(path, from);
        self.settle();
    }

    /// Opens the bundled sample map.
    pub fn open_sample(&mut self) {
        files::opening::open_sample(&mut self.cx);
        self.settle();
    }

    /// Carries out one intent: it passes down the list of components until one takes it;
    /// then what they asked of the shell is carried out.
    pub fn handle(&mut self, ctx: &egui::Context, intent: Intent) {
        self.cx.egui = ctx.clone();
        self.cx.busy = self.parts.busy();
        let mut intent = Some(intent);
        for c in self.parts.all() {
            let Some(i) = intent.take() else { break };
            intent = c.handle(i, &mut self.cx);
        }
        self.settle();
    }

    /// Runs scripted operations as strokes, each an undo step (`loam edit --apply` and the
    /// screenshot command's `--apply`), reading first the tiles each one reaches; the tool
    /// panel then shows the last operation's tool and brush, and the brush cursor sits on its
    /// last point.
    pub fn apply_ops(&mut self, file: &crate::edit::ops::OpsFile) {
        toolbox::operation_runs::run(
            &mut self.cx,
            file,
            &mut self.parts.toolbox.terrain_clipboard,
        );
        self.parts
            .toolbox
            .scatter_tool
            .follow_script(&mut self.cx, file);
    }

    /// Carries out what the components asked for, in order: the operations they hand over,
    /// then the maps to open, the reloads and what follows them.
    fn settle(&mut self) {
        loop {
            let ops: Vec<_> = self
                .parts
                .all()
                .into_iter()
                .filter_map(|c| c.take_ops())
                .collect();
            for file in &ops {
                self.apply_ops(file);
            }
            let Some(request) = self.cx.next_request() else {
                return;
            };
            match request {
                Request::Open(path, from) => {
                    if let Some(s) = files::opening::read(&mut self.cx, &path, from) {
                        self.install(&path, from, s);
                    }
                }
                Request::Install(path, from, s) => self.install(&path, from, *s),
                Request::Reload => {
                    self.restart_sources();
                    files::opening::resend_tiles(&mut self.cx);
                }
                Request::Then(then) => then(&mut self.cx),
            }
        }
    }

    /// Makes `session` (opened from `path` read as `from`) the open map, and tells every
    /// component.
    fn install(&mut self, path: &Path, from: Option<Generation>, session: Session) {
        files::opening::install(&mut self.cx, path, from, session);
        for c in self.parts.all() {
            c.opened(&mut self.cx);
        }
        self.restart_sources();
        files::opening::resend_tiles(&mut self.cx);
    }

    /// The open map's bytes now come from a new source (a map opened, another client): every
    /// component and the streams start over with it.
    fn restart_sources(&mut self) {
        // One source for the terrain and the browser: building it indexes the map's folder.
        let source = self.cx.doc.byte_source();
        for c in self.parts.all() {
            c.sources_changed(&mut self.cx, &source);
        }
        files::opening::restart_streams(&mut self.cx, source);
    }

    /// The menu, the status bar, the left panel (tile map or asset browser) and the right
    /// panel (tools, objects, history); returns what they ask for.
    fn draw_panels(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        let mut intents = Vec::new();
        let cx = &self.cx;
        let menu_state = panels::menu_state(&cx.doc, &cx.settings);
        egui::Panel::top("loam-menu").show(ui, |ui| {
            intents.extend(ui::menu::show(ui, &menu_state));
        });
        let status = panels::status(cx);
        egui::Panel::bottom("loam-status").show(ui, |ui| {
            intents.extend(ui::status::show(ui, &status));
        });
        let tile_map = panels::tile_map(cx);
        egui::Panel::left("loam-tiles")
            .resizable(true)
            .default_size(280.0)
            .show(ui, |ui| {
                let left = panels::Left {
                    page: cx.settings.left_panel,
                    doc: &cx.doc,
                    tile_map: &tile_map,
                    browser: &mut self.parts.toolbox.browser,
                };
                intents.extend(panels::left(ui, left));
            });
        let mut right = panels::right_view(
            &cx.doc,
            &self.parts.toolbox.object_tool,
            self.parts.toolbox.terrain_clipboard.view(),
            self.parts.toolbox.scatter_tool.view(
                ui.ctx(),
                &self.cx,
                toolbox::scatter_tool::map_models(&self.cx),
            ),
            cx.view.hover,
        );
        panels::with_shaping_tools(
            &mut right,
            self.parts.toolbox.shaping.vertex_selection.view(),
            &self.parts.toolbox.shaping.road_tool,
        );
        let scripts = self.parts.toolbox.script_tool.view(&self.cx);
        panels::with_presets(
            &mut right,
            self.parts.toolbox.presets.view(&self.cx),
            &self.cx.settings,
            scripts,
        );
        panels::with_zone(&mut right, self.parts.toolbox.zone_tool.view(&self.cx));
        egui::Panel::right("loam-tools")
            .resizable(true)
            .default_size(270.0)
            .show(ui, |ui| intents.extend(panels::right(ui, &right)));
        intents
    }

    /// Moves the animation clock on by this frame's time (View ▸ Animate models) and hands the
    /// time to the renderer; while it runs and a map is open, asks for the next frame.
    fn advance_animation(&mut self, ctx: &egui::Context) {
        let cx = &mut self.cx;
        let running = cx.settings.objects.animate;
        let dt = f64::from(ctx.input(|i| i.stable_dt));
        let seconds = cx.view.clock.advance(dt, running);
        cx.gl.lock().anim_time = seconds;
        if running && !cx.view.clock.is_pinned() && cx.doc.session.is_some() {
            // About 30 frames a second: enough for the stand animations and the water's 60 ms
            // frames, without keeping a core busy at the display's rate.
            ctx.request_repaint_after(std::time::Duration::from_millis(33));
        }
    }

    /// The 3D view in the central panel: the terrain and objects drawn through GL (or what to
    /// do when nothing can be drawn), the gizmo and the rubber band; returns its input.
    fn draw_view(&mut self, ui: &mut egui::Ui) -> ui::viewport::ViewportInput {
        let light = self.parts.view.daylight.scene_light(&self.cx);
        let skybox = (self.parts.view.daylight.skybox(&self.cx))
            .and_then(|(name, _)| self.cx.streams.objects.skybox_model(&name));
        let cx = &self.cx;
        let gl = cx.gl.clone();
        let has_gl = gl.lock().has_renderer();
        let placeholder = match (&cx.doc.session, has_gl) {
            (None, _) => Some("File > Open… a .wdt or .adt, or drop one here".to_string()),
            (Some(_), false) => gl.lock().error.clone(),
            _ => None,
        };
        let camera = cx.view.camera;
        let mut overlays = toolbox::overlays::overlays(cx, &self.parts.toolbox.terrain_clipboard);
        let tool = cx.doc.editing.settings.tool;
        if matches!(tool, Tool::Road | Tool::Lights | Tool::Triggers)
            || (tool == Tool::SelectVertices
                && !self.parts.toolbox.shaping.vertex_selection.shows_brush())
        {
            overlays.brush = None;
        }
        let scene = &cx.streams.objects;
        let filter = cx.settings.objects;
        let selected = cx.doc.selection.clone();
        let gizmo_at = self.gizmo_centre();
        let band = self.parts.toolbox.object_tool.band();
        let fly_keys = cx.settings.input.keys.camera_keys();
        egui::CentralPanel::no_frame()
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
                                far_view_projection: camera.view_projection_between(
                                    aspect,
                                    crate::render::horizon::HORIZON_NEAR,
                                    crate::render::horizon::HORIZON_FAR,
                                ),
                                eye: camera.eye(),
                                overlays,
                                light,
                            };
                            let mut list =
                                scene.draw_list(params.view_projection, params.eye, &filter);
                            list.selected = scene.selection_boxes(&selected);
                            list.skybox = skybox.map(|id| {
                                let at = params.eye;
                                let scale = crate::render::scene::SKYBOX_SCALE;
                                (
                                    id,
                                    glam::Mat4::from_translation(at)
                                        * glam::Mat4::from_scale(glam::Vec3::splat(scale)),
                                )
                            });
                            gl.lock().draw_list = list;
                            scene::gl_bridge::paint_callback(&gl, rect, params)
                        })
                    },
                    placeholder.as_deref(),
                    cx.view.object_hover.as_deref(),
                    &ui::viewport::ViewMarks { gizmo, band },
                    &fly_keys,
                )
            })
            .inner
    }

    /// This frame's shortcuts (one table, `command::shortcuts`), unless a text field has the
    /// keyboard.
    fn shortcut_intents(&self, ctx: &egui::Context) -> Vec<Intent> {
        if ctx.egui_wants_keyboard_input() {
            return Vec::new();
        }
        let tool = self.cx.doc.editing.settings.tool;
        let mut state =
            (self.parts.toolbox.object_tool).shortcut_state(&self.cx.doc, tool == Tool::Objects);
        state.terrain_clipboard = tool == Tool::CopyPaste;
        let mut intents = Vec::new();
        for s in shortcuts_for(&self.cx.settings.input.keys) {
            if s.when.applies(&state) && ctx.input_mut(|i| i.consume_shortcut(&s.keys)) {
                intents.push(s.intent);
            }
        }
        intents.extend(ctx.input(|i| clipboard_intents(&i.events, &state)));
        intents
    }
}

impl eframe::App for LoamApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let started = std::time::Instant::now();
        let ctx = ui.ctx().clone();
        // First of the frame, before any panel: starts the frame's per-pass timing
        // (`render::pass_timer`), whose overlays include what egui draws before the view.
        if self.cx.gl.lock().has_renderer() {
            let begin = scene::gl_bridge::under_callback(&self.cx.gl, ctx.content_rect());
            ctx.layer_painter(egui::LayerId::background()).add(begin);
        }
        self.cx.egui = ctx.clone();
        self.cx.shell.frame_ms = ctx.input(|i| i.unstable_dt) * 1000.0;
        // Menus and tooltips read the user's keys from egui (`Keymap::current`).
        self.cx.settings.input.keys.publish(&ctx);

        let mut intents = self.draw_panels(ui);
        self.cx.busy = self.parts.busy();
        for c in self.parts.all() {
            intents.extend(c.ui(ui, &mut self.cx));
        }
        for c in self.parts.all() {
            intents.extend(c.poll(&mut self.cx));
        }
        self.settle();

        let points = self.cx.view_points();
        if let Some(s) = &mut self.cx.doc.session
            && let Some(why) = self.cx.streams.pull_from_disk(s, &points)
        {
            self.cx.shell.message = Some(why);
        }
        let points = self.cx.view_points();
        let cx = &mut self.cx;
        let objects_ready = toolbox::object_view::stream_objects(
            &mut cx.streams.objects,
            cx.doc.session.as_ref(),
            &cx.gl,
        );
        let tiles_ready = (cx.streams).push_to_gpu(cx.doc.session.as_ref(), &cx.gl, &points);
        let browser = &self.parts.toolbox.browser;
        let ready = tiles_ready
            && objects_ready
            && self.parts.toolbox.scatter_tool.thumbnails_settled()
            && (cx.settings.left_panel != settings::LeftPanel::Assets
                || (!browser.is_building() && browser.thumbnails_settled()));
        self.advance_animation(&ctx);
        let input = self.draw_view(ui);

        for c in self.parts.all() {
            intents.extend(c.over_view(ui, input.rect, &mut self.cx));
        }
        let cx = &mut self.cx;
        if cx.settings.view.area_overlay && cx.doc.session.is_some() {
            ui::area_legend::show(ui, input.rect, &panels::area_legend(&cx.doc));
        }
        // Last of the frame, over the whole window: ends the overlays' timing once egui has
        // drawn everything over the view (`render::pass_timer`).
        if cx.gl.lock().has_renderer() {
            let end = scene::gl_bridge::overlays_end_callback(&cx.gl, ctx.content_rect());
            ctx.layer_painter(egui::LayerId::debug()).add(end);
        }
        let map = cx.doc.session.as_ref().map(|s| &s.map);
        scene::camera_control::apply(
            &mut cx.view.camera,
            map,
            &input,
            cx.settings.input.camera_speed,
        );
        cx.view.hover = match (map, input.hover_ndc) {
            (Some(m), Some(ndc)) => {
                scene::camera_control::pick(m, &cx.view.camera, ndc, input.aspect())
            }
            _ => None,
        };
        let under = toolbox::object_view::under_cursor(&self.cx, &input);
        self.cx.view.object_hover = under.and_then(|i| self.cx.streams.objects.describe(i));
        for c in self.parts.all() {
            c.drive(&input, &mut self.cx);
        }
        self.settle();
        intents.extend(self.shortcut_intents(&ctx));
        if input.is_active() || !ready {
            ctx.request_repaint();
        }
        for intent in intents {
            self.handle(&ctx, intent);
        }
        if let Some(job) = &mut self.screenshot {
            // A map that did not open is a failure, not a picture of an empty window.
            let failure = match &self.cx.doc.session {
                None => {
                    Some((self.cx.shell.message.clone()).unwrap_or_else(|| "no map is open".into()))
                }
                Some(_) => self.cx.gl.lock().error.clone(),
            };
            if job.measures() {
                self.cx.gl.lock().want_gpu_times();
            }
            let measured = (self.cx.gl.lock().pass_times(), self.cx.shell.cpu_frame_ms);
            // A tour flies first; the shot is its last frame.
            let ready = ready && job.fly(&mut self.cx);
            job.step(&ctx, ready, failure, measured);
        }
        self.cx.shell.cpu_frame_ms = started.elapsed().as_secs_f32() * 1000.0;
    }

    fn persist_egui_memory(&self) -> bool {
        // A screenshot's panels must not become the user's next session's.
        self.screenshot.is_none()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_some() {
            return;
        }
        files::opening::remember_camera(&mut self.cx);
        eframe::set_value(storage, settings::STORAGE_KEY, &self.cx.settings);
    }

    fn on_exit(&mut self, gl: Option<&glow::Context>) {
        // A clean quit: the edits were saved or the user chose to drop them.
        if let Some(r) = &mut self.cx.recovery
            && let Err(e) = r.discard_owned()
        {
            eprintln!("loam: {e}");
        }
        if let Some(gl) = gl {
            self.cx.gl.lock().destroy(gl);
        }
    }
}
