//! Starting the editor window: eframe's options (the glow renderer, a depth buffer) and where
//! the bundled sample map is found.
//!
//! Not for: what the app does once running (see the parent module).

use std::path::{Path, PathBuf};

use super::file_picker::RfdDialogs;
use super::recovery::{self, Recovery};
use super::screenshot::ScreenshotRequest;
use super::{LoamApp, StartOptions};
use crate::disk::LoamError;
use crate::edit::ops::OpsFile;
use crate::format::Generation;

use crate::sample::SAMPLE_NAME;

/// The window's default size in points.
pub const DEFAULT_SIZE: [f32; 2] = [1280.0, 800.0];

/// eframe's options: the glow renderer set explicitly (wgpu is eframe's default) and a 24-bit
/// depth buffer (the default has none, and far hills would draw over near ones).
pub fn native_options(size: [f32; 2], persist: bool) -> eframe::NativeOptions {
    eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        depth_buffer: 24,
        persist_window: persist,
        viewport: with_window_icon(
            egui::ViewportBuilder::default()
                .with_title("loam")
                .with_inner_size(size)
                .with_drag_and_drop(true),
        ),
        ..Default::default()
    }
}

/// loam's icon at 256 px, rendered from `packaging/icons/loam.svg` like the packages' icons.
pub const WINDOW_ICON_PNG: &[u8] = include_bytes!("../../packaging/icons/loam-256.png");

/// The window and taskbar icon; the window opens without one rather than failing, should the
/// bundled PNG ever not decode (tests/packaging.rs checks that it does).
fn with_window_icon(viewport: egui::ViewportBuilder) -> egui::ViewportBuilder {
    match eframe::icon_data::from_png_bytes(WINDOW_ICON_PNG) {
        Ok(icon) => viewport.with_icon(icon),
        Err(_) => viewport,
    }
}

/// The bundled sample's WDT: `resources/sample/Sample.wdt` beside the executable (or two or
/// three folders up, for `target/release/loam`), under `share/loam` of an installed prefix, or in
/// the source tree; when none is found the generator writes a fresh copy into the temporary
/// folder.
pub fn sample_path() -> Result<PathBuf, LoamError> {
    let rel = PathBuf::from("resources")
        .join("sample")
        .join(format!("{SAMPLE_NAME}.wdt"));
    let mut roots = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        roots.extend(sample_roots(&exe));
    }
    roots.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    if let Some(found) = roots.iter().map(|r| r.join(&rel)).find(|p| p.is_file()) {
        return Ok(found);
    }
    let dir = std::env::temp_dir().join(format!("loam-sample-{}", std::process::id()));
    crate::sample::write_sample(&dir)?;
    Ok(dir.join(format!("{SAMPLE_NAME}.wdt")))
}

/// The folders holding `resources/` that an executable at `exe` looks in, nearest first: its own
/// folder and three above it (a zip unpacked anywhere, `target/release/loam`), then
/// `PREFIX/share/loam` for `PREFIX/bin/loam` (the .deb installs the sample in
/// `/usr/share/loam/resources/sample`).
pub fn sample_roots(exe: &Path) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = exe.ancestors().skip(1).take(4).map(PathBuf::from).collect();
    if let Some(prefix) = exe.parent().and_then(Path::parent) {
        roots.push(prefix.join("share").join("loam"));
    }
    roots
}

/// Runs the editor window on `path` (the sample when `None`) until it is closed.
/// Textures come from `client` when given (`--client`), else from the folder in the settings.
/// `apply` (`--apply`) runs scripted operations first, as unsaved edits. Unsaved edits are
/// autosaved to the data directory's recovery folder, and maps recovered there are offered.
pub fn run_gui(
    path: Option<PathBuf>,
    read_as: Option<Generation>,
    client: Option<PathBuf>,
    apply: Option<OpsFile>,
) -> Result<(), String> {
    eframe::run_native(
        "loam",
        native_options(DEFAULT_SIZE, true),
        Box::new(move |cc| {
            let mut app = LoamApp::new(
                cc,
                StartOptions {
                    open: path,
                    dialogs: Box::new(RfdDialogs),
                    screenshot: None,
                    read_as,
                    client,
                },
            );
            match recovery::data_dir() {
                Some(data) => {
                    let mut r = Recovery::at(recovery::recovery_root(&data));
                    r.interval_override = recovery::interval_from_env();
                    app = app
                        .with_recovery(r)
                        .with_minimap_cache(recovery::minimap_root(&data));
                }
                None => eprintln!("loam: no data directory (HOME unset?): autosave is off"),
            }
            if let Some(ops) = &apply {
                app.apply_ops(ops);
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| e.to_string())
}

/// Opens the real window on `path` (the sample when `None`), waits until the tiles in view are
/// drawn, writes a screenshot to `out` and closes. Textures come from `client` when given,
/// else from the map's own folders only (a screenshot never reads the user's settings).
pub fn run_screenshot(
    path: Option<PathBuf>,
    size: [u32; 2],
    request: ScreenshotRequest,
    read_as: Option<Generation>,
    client: Option<PathBuf>,
) -> Result<(), String> {
    let outcome = request.outcome.clone();
    eframe::run_native(
        "loam-screenshot",
        native_options([size[0] as f32, size[1] as f32], false),
        Box::new(move |cc| {
            let app = LoamApp::new(
                cc,
                StartOptions {
                    open: path,
                    dialogs: Box::new(RfdDialogs),
                    screenshot: Some(request),
                    read_as,
                    client,
                },
            );
            // Never the user's recovered maps; with `$LOAM_DATA_DIR` set, the restore dialog
            // for the maps recovered there (to picture it).
            let data = std::env::var_os(recovery::DATA_DIR_ENV).map(PathBuf::from);
            Ok(Box::new(match data {
                Some(d) => app.with_recovery(Recovery::at(recovery::recovery_root(&d))),
                None => app,
            }))
        }),
    )
    .map_err(|e| e.to_string())?;
    let result = outcome
        .lock()
        .map_err(|_| "screenshot state poisoned".to_string())?
        .take();
    result.unwrap_or_else(|| Err("the window closed before the screenshot was taken".into()))
}
