//! Screenshots of the real window: set the view up as asked (a tile, a camera, a selection,
//! overlays, a dialog, the asset browser, a staged road, selected vertices), wait until the tiles in view are on the GPU and
//! drawn, ask egui for the next frame's pixels, write them as PNG and close the window.
//!
//! Not for: offscreen rendering (the EGL test draws without a window).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::context::AppCtx;
use super::view::go_to_tile;
use crate::command::{Command, Intent, LeftPanel, RoadIntent, SelectionIntent};
use crate::edit::tools::Tool;
use crate::model::TileCoord;
use crate::render::pass_timer::PassTimes;

/// Frames to draw after every wanted tile is on the GPU, so the picture has settled.
const SETTLE_FRAMES: u32 = 3;
/// Give up when the tiles are not drawn by then.
const TIMEOUT: Duration = Duration::from_secs(120);

/// A View menu overlay a screenshot turns on (`loam screenshot --overlay NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ShotOverlay {
    /// Chunk borders.
    ChunkGrid,
    /// Chunks tinted by layer count.
    LayerCount,
    /// Chunks tinted by area id, with the legend.
    Areas,
    /// Where ground effects grow, and where they are switched off.
    GroundEffects,
    /// The map's zone lights as their spheres (needs `--client`).
    Lights,
    /// The map's area triggers as their spheres and boxes (needs `--client`).
    AreaTriggers,
}

/// A dialog a screenshot shows (`loam screenshot --dialog NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ShotDialog {
    /// File ▸ Export for client….
    Export,
    /// File ▸ Save as….
    SaveAs,
    /// File ▸ New map….
    NewMap,
    /// File ▸ Open from client… (with `--client`).
    OpenFromClient,
    /// The list of models drawn as placeholders.
    MissingModels,
    /// File ▸ Import image….
    ImportImage,
    /// File ▸ Export images….
    ExportImages,
    /// Edit ▸ Textures….
    Textures,
    /// Settings ▸ Keys, with a clash shown (W asked of the Smooth tool, which the camera has).
    Keys,
    /// The command palette with "sti" typed.
    CommandPalette,
    /// The tool panel's brush presets, listed.
    Presets,
}

impl ShotDialog {
    /// The intent that shows the dialog.
    pub fn intent(self) -> Intent {
        let command = match self {
            ShotDialog::Export => Command::ExportForClient,
            ShotDialog::SaveAs => Command::SaveAs,
            ShotDialog::NewMap => Command::NewMap,
            ShotDialog::OpenFromClient => Command::OpenFromClient,
            ShotDialog::MissingModels => return Intent::ShowMissingModels(true),
            ShotDialog::ImportImage => Command::ImportImage,
            ShotDialog::ExportImages => Command::ExportImages,
            ShotDialog::Textures => Command::Textures,
            ShotDialog::Keys => Command::KeySettings,
            ShotDialog::CommandPalette => return Intent::PaletteQuery("sti".into()),
            ShotDialog::Presets => {
                return Intent::Presets(crate::command::PresetsIntent::Show(true));
            }
        };
        Intent::Command(command)
    }

    /// The intents that show the dialog as its picture wants it: the opener, then what stages
    /// it (Keys: a key pressed that another action has, so the clash is shown).
    pub fn intents(self) -> Vec<Intent> {
        let mut out = vec![self.intent()];
        if self == ShotDialog::Keys {
            use crate::command::KeysIntent;
            use crate::command::keymap::Action;
            let w = egui::KeyboardShortcut::new(egui::Modifiers::NONE, egui::Key::W);
            out.push(Intent::Keys(KeysIntent::Listen(Action::Tool(Tool::Smooth))));
            out.push(Intent::Keys(KeysIntent::Pressed(w)));
        }
        out
    }
}

/// What `loam screenshot` asked for.
#[derive(Debug, Clone)]
pub struct ScreenshotRequest {
    /// Where the PNG goes.
    pub out: PathBuf,
    /// Where the camera looks.
    pub camera: ShotCamera,
    /// The light and what of it is drawn.
    pub light: ShotLight,
    /// What is shown over and beside the view.
    pub shown: ShotShown,
    /// What is done to the map or staged in a tool before the shot.
    pub operations: ShotOperations,
    /// Frames to time before the shot.
    pub measure: ShotMeasure,
    /// Filled in when the job ends: `Ok` once the PNG is written.
    pub outcome: Arc<Mutex<Option<Result<(), String>>>>,
}

/// Where a screenshot's camera looks.
#[derive(Debug, Clone, Default)]
pub struct ShotCamera {
    /// A tile to frame instead of the default view.
    pub tile: Option<TileCoord>,
    /// Put the camera here (world x, y, z) looking at the second point, instead of the
    /// default view or the framed tile.
    pub view: Option<([f64; 3], [f64; 3])>,
    /// Fly over every present tile in this many seconds first (`app::tour`).
    pub tour: Option<f64>,
}

/// A screenshot's light.
#[derive(Debug, Clone, Default)]
pub struct ShotLight {
    /// Draw the light at this time of day (the clock stopped there).
    pub time: Option<crate::doc::light::DayTime>,
    /// Pin the models' and liquids' animation at this many seconds (two shots at different
    /// times show what moves).
    pub anim_time: Option<f64>,
    /// Draw without the fog (View ▸ Fog off).
    pub no_fog: bool,
    /// Draw without the horizon (View ▸ Horizon off).
    pub no_horizon: bool,
}

/// What a screenshot shows over and beside the view.
#[derive(Debug, Clone, Default)]
pub struct ShotShown {
    /// View overlays to turn on.
    pub overlays: Vec<ShotOverlay>,
    /// Hide doodads and WMOs (View ▸ Doodads and WMOs off), e.g. to compare frame times.
    pub hide_objects: bool,
    /// Show this dialog.
    pub dialog: Option<ShotDialog>,
    /// Show the asset browser's textures with this filter (its folders open), and wait for
    /// their thumbnails.
    pub browse: Option<String>,
}

/// What a screenshot does to the map, or stages in a tool, before it is taken.
#[derive(Debug, Clone, Default)]
pub struct ShotOperations {
    /// Operations to run through the editor first (as strokes with undo steps), so the shot
    /// shows a tool in use.
    pub ops: Option<crate::edit::ops::OpsFile>,
    /// Select these objects by uniqueId (a doodad, else a WMO) with the object tool.
    pub select: Vec<u32>,
    /// Stage a road with these control points (world x, y) in the road tool, not laid.
    pub road: Vec<[f64; 2]>,
    /// Select the loaded vertices in this world box (x0, y0, x1, y1) with the vertex
    /// selection tool.
    pub select_box: Option<[f64; 4]>,
    /// Choose the Script tool with this script file's brush of this name.
    pub script: Option<(std::path::PathBuf, String)>,
    /// Choose the Lights or Area triggers tool, with this light or trigger chosen and (Lights)
    /// this band shown.
    pub zone: Option<(Tool, Option<u32>, usize)>,
}

/// One measured frame: the renderer's latest per-pass figures and the app's own CPU time (ms).
pub type MeasuredFrame = (Option<PassTimes>, f32);

/// The frames a screenshot times once the view is settled.
#[derive(Debug, Clone, Default)]
pub struct ShotMeasure {
    /// Frames to draw and time before the shot (0: none).
    pub frames: u32,
    /// The measured frames' times in milliseconds, filled in as they are drawn.
    pub frame_times: Arc<Mutex<Vec<f32>>>,
    /// Each measured frame's per-pass figures (the latest the GPU had finished) and the app's
    /// own CPU time, filled in with the frame times.
    pub passes: Arc<Mutex<Vec<MeasuredFrame>>>,
}

/// The job while the window runs.
#[derive(Debug)]
pub struct ScreenshotJob {
    request: ScreenshotRequest,
    tour: Option<super::tour::Tour>,
    started: Instant,
    settled: u32,
    requested: bool,
}

impl ScreenshotJob {
    /// The operations to run before the shot, if any.
    pub fn ops(&self) -> Option<&crate::edit::ops::OpsFile> {
        self.request.operations.ops.as_ref()
    }

    /// Starts waiting.
    pub fn new(request: ScreenshotRequest) -> ScreenshotJob {
        ScreenshotJob {
            tour: request.camera.tour.map(super::tour::Tour::new),
            request,
            started: Instant::now(),
            settled: 0,
            requested: false,
        }
    }

    /// True when the shot measures frames (`--measure`), so the passes are timed on the GPU.
    pub fn measures(&self) -> bool {
        self.request.measure.frames > 0
    }

    /// Moves the camera along the tour, when there is one; true once there is none left to
    /// fly (the shot may be taken).
    pub fn fly(&mut self, cx: &mut AppCtx) -> bool {
        match &mut self.tour {
            Some(t) => {
                t.fly(cx);
                t.is_done()
            }
            None => true,
        }
    }

    /// Sets the view up as asked, once the map is open (and the operations ran): the tile
    /// framed or the camera placed, the objects selected with the object tool, objects hidden,
    /// overlays on. Returns the intents the components carry out: the dialog to show, and the
    /// asset browser's page with its filter.
    pub fn set_up(&self, cx: &mut AppCtx) -> Vec<Intent> {
        let (c, l, v, o) = (
            &self.request.camera,
            &self.request.light,
            &self.request.shown,
            &self.request.operations,
        );
        if let Some(tile) = c.tile {
            go_to_tile(&mut cx.view, cx.doc.session.as_ref(), tile);
        }
        if !o.select.is_empty() {
            cx.doc.editing.settings.tool = Tool::Objects;
            cx.doc.select_uids(&o.select);
        }
        if let Some((eye, target)) = c.view {
            cx.view.camera.position = eye;
            cx.view.camera.look_at(target);
        }
        if let Some(t) = l.anim_time {
            cx.view.clock.pin(t);
        }
        if let Some(time) = l.time {
            cx.settings.time_of_day = crate::doc::light::TimeOfDay::at(time);
        }
        if v.hide_objects {
            cx.settings.objects.doodads = false;
            cx.settings.objects.wmos = false;
        }
        let view = &mut cx.settings.view;
        view.fog &= !l.no_fog;
        view.horizon &= !l.no_horizon;
        for o in &v.overlays {
            match o {
                ShotOverlay::ChunkGrid => view.chunk_grid = true,
                ShotOverlay::LayerCount => view.layer_count = true,
                ShotOverlay::Areas => view.area_overlay = true,
                ShotOverlay::GroundEffects => view.effects_overlay = true,
                ShotOverlay::Lights => view.lights = true,
                ShotOverlay::AreaTriggers => view.area_triggers = true,
            }
        }
        let mut intents: Vec<Intent> = v.dialog.map(ShotDialog::intents).unwrap_or_default();
        if let Some((file, brush)) = &o.script {
            intents.push(Intent::Scripts(crate::command::ScriptsIntent::Choose(
                file.clone(),
                brush.clone(),
            )));
        }
        if let Some((tool, chosen, band)) = o.zone {
            cx.doc.editing.settings.tool = tool;
            intents.push(Intent::Zone(crate::command::ZoneIntent::Select(chosen)));
            intents.push(Intent::Zone(crate::command::ZoneIntent::Band(band)));
        }
        if let Some(b) = o.select_box {
            intents.push(Intent::Selection(SelectionIntent::SelectBox(b)));
        }
        if !o.road.is_empty() {
            intents.push(Intent::Road(RoadIntent::Points(o.road.clone())));
        }
        if let Some(filter) = &v.browse {
            intents.push(Intent::ShowLeftPanel(LeftPanel::Assets));
            intents.push(Intent::BrowserFilter(filter.clone()));
        }
        intents
    }

    /// Called once a frame; `ready` says every wanted tile is drawn, `failure` why there is
    /// nothing to take (no map, no renderer). Asks for the screenshot when ready, closes the
    /// window when the PNG is written, something failed or the wait timed out.
    /// `measured`: the renderer's latest per-pass figures and the last frame's CPU time.
    pub fn step(
        &mut self,
        ctx: &egui::Context,
        ready: bool,
        failure: Option<String>,
        measured: (Option<PassTimes>, f32),
    ) {
        ctx.request_repaint();
        if let Some(e) = failure {
            self.finish(Err(e));
        }
        let done = self
            .request
            .outcome
            .lock()
            .map(|o| o.is_some())
            .unwrap_or(true);
        if done {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        let tour = Duration::from_secs_f64(self.request.camera.tour.unwrap_or(0.0));
        if self.started.elapsed() > TIMEOUT + tour {
            self.finish(Err("timed out waiting for the tiles to be drawn".into()));
            return;
        }
        if self.requested {
            return;
        }
        self.settled = if ready { self.settled + 1 } else { 0 };
        if self.settled > SETTLE_FRAMES
            && let Ok(mut times) = self.request.measure.frame_times.lock()
            && times.len() < self.request.measure.frames as usize
        {
            // Time from the last frame to this one: what a user sees as the frame rate.
            times.push(ctx.input(|i| i.unstable_dt) * 1000.0);
            if let Ok(mut p) = self.request.measure.passes.lock() {
                p.push(measured);
            }
            return;
        }
        if self.settled >= SETTLE_FRAMES
            && self
                .request
                .measure
                .frame_times
                .lock()
                .map_or(true, |t| t.len() >= self.request.measure.frames as usize)
        {
            self.requested = true;
            let out = self.request.out.clone();
            let outcome = self.request.outcome.clone();
            let repaint = ctx.clone();
            ctx.request_screenshot(move |image| {
                let result = write_png(
                    &out,
                    image.size[0],
                    image.size[1],
                    &image
                        .pixels
                        .iter()
                        .flat_map(|c| c.to_srgba_unmultiplied())
                        .collect::<Vec<u8>>(),
                );
                if let Ok(mut o) = outcome.lock() {
                    *o = Some(result);
                }
                repaint.request_repaint();
            });
        }
    }

    fn finish(&self, result: Result<(), String>) {
        if let Ok(mut o) = self.request.outcome.lock() {
            *o = Some(result);
        }
    }
}

/// Writes RGBA8 pixels as a PNG file.
pub fn write_png(path: &Path, width: usize, height: usize, rgba: &[u8]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, width as u32, height as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| err(&e))?;
        w.write_image_data(rgba).map_err(|e| err(&e))?;
    }
    crate::disk::write_atomic(path, &bytes).map_err(|e| e.to_string())
}
