//! Screenshots of the real window: wait until the tiles in view are on the GPU and drawn, ask
//! egui for the next frame's pixels, write them as PNG and close the window.
//!
//! Not for: offscreen rendering (the EGL test draws without a window).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::model::TileCoord;

/// Frames to draw after every wanted tile is on the GPU, so the picture has settled.
const SETTLE_FRAMES: u32 = 3;
/// Give up when the tiles are not drawn by then.
const TIMEOUT: Duration = Duration::from_secs(120);

/// What `loam screenshot` asked for.
#[derive(Debug, Clone)]
pub struct ScreenshotRequest {
    /// Where the PNG goes.
    pub out: PathBuf,
    /// A tile to frame instead of the default view.
    pub tile: Option<TileCoord>,
    /// Brush operations to run through the editor first (as strokes with undo steps), so the
    /// shot shows a tool in use.
    pub ops: Option<crate::edit::ops::OpsFile>,
    /// Show the asset browser's textures with this filter (its folders open), and wait for
    /// their thumbnails.
    pub browse: Option<String>,
    /// Put the camera here (world x, y, z) looking at the second point, instead of the
    /// default view or the framed tile.
    pub view: Option<([f64; 3], [f64; 3])>,
    /// Select these objects by uniqueId (a doodad, else a WMO) with the object tool.
    pub select: Vec<u32>,
    /// Frames to draw and time once the view is settled, before the shot (0: none).
    pub measure: u32,
    /// The measured frames' times in milliseconds, filled in as they are drawn.
    pub frame_times: Arc<Mutex<Vec<f32>>>,
    /// Hide doodads and WMOs (View ▸ Doodads and WMOs off), e.g. to compare frame times.
    pub hide_objects: bool,
    /// View overlays to turn on: `chunk-grid`, `layer-count`, `areas`.
    pub overlays: Vec<String>,
    /// Show this dialog: `export` (File ▸ Export for client…) or `save-as` (File ▸ Save as…).
    pub dialog: Option<String>,
    /// Filled in when the job ends: `Ok` once the PNG is written.
    pub outcome: Arc<Mutex<Option<Result<(), String>>>>,
}

/// The job while the window runs.
#[derive(Debug)]
pub struct ScreenshotJob {
    request: ScreenshotRequest,
    started: Instant,
    settled: u32,
    requested: bool,
}

impl ScreenshotJob {
    /// The operations to run before the shot, if any.
    pub fn ops(&self) -> Option<&crate::edit::ops::OpsFile> {
        self.request.ops.as_ref()
    }

    /// Starts waiting.
    pub fn new(request: ScreenshotRequest) -> ScreenshotJob {
        ScreenshotJob {
            request,
            started: Instant::now(),
            settled: 0,
            requested: false,
        }
    }

    /// The asset browser filter to show, if one was asked for.
    pub fn browse(&self) -> Option<&str> {
        self.request.browse.as_deref()
    }

    /// The camera's eye and target, if they were given.
    pub fn view(&self) -> Option<([f64; 3], [f64; 3])> {
        self.request.view
    }

    /// The uniqueIds to select.
    pub fn select(&self) -> &[u32] {
        &self.request.select
    }

    /// The view overlays to turn on (`chunk-grid`, `layer-count`, `areas`).
    pub fn overlays(&self) -> &[String] {
        &self.request.overlays
    }

    /// True when the shot is to be taken with doodads and WMOs hidden.
    pub fn hide_objects(&self) -> bool {
        self.request.hide_objects
    }

    /// The dialog the shot shows, if any (`export`, `save-as`).
    pub fn dialog(&self) -> Option<&str> {
        self.request.dialog.as_deref()
    }

    /// The tile to frame, if one was asked for.
    pub fn tile(&self) -> Option<TileCoord> {
        self.request.tile
    }

    /// Called once a frame; `ready` says every wanted tile is drawn, `failure` why there is
    /// nothing to take (no map, no renderer). Asks for the screenshot when ready, closes the
    /// window when the PNG is written, something failed or the wait timed out.
    pub fn step(&mut self, ctx: &egui::Context, ready: bool, failure: Option<String>) {
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
        if self.started.elapsed() > TIMEOUT {
            self.finish(Err("timed out waiting for the tiles to be drawn".into()));
            return;
        }
        if self.requested {
            return;
        }
        self.settled = if ready { self.settled + 1 } else { 0 };
        if self.settled > SETTLE_FRAMES
            && let Ok(mut times) = self.request.frame_times.lock()
            && times.len() < self.request.measure as usize
        {
            // Time from the last frame to this one: what a user sees as the frame rate.
            times.push(ctx.input(|i| i.unstable_dt) * 1000.0);
            return;
        }
        if self.settled >= SETTLE_FRAMES
            && self
                .request
                .frame_times
                .lock()
                .map_or(true, |t| t.len() >= self.request.measure as usize)
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
