//! File ▸ Import image… and File ▸ Export images…: the dialogs' state and what their buttons
//! do. An import becomes an `import_heightmap`, `import_alpha` or `import_colours` operation
//! run through the one runner `loam apply` uses (one undo step); an export writes the map's
//! files as images on a worker thread (`images::export`), from the files on disk, so a map with
//! unsaved edits must be saved first.
//!
//! Not for: the windows' widgets (`ui::dialogs`) or the layouts (`edit::images::heightmap`,
//! `edit::images::tile_images`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::app::component::Component;
use crate::app::context::{AppCtx, DialogCtx};
use crate::command::{Command, ImageKind, ImagesIntent, Intent};
use crate::doc::Document;
use crate::edit::images::heightmap::{ImportMode, Raster, height_range, tile_heights};
use crate::edit::images::image_ops::{ImageOp, ImageTool};
use crate::edit::images::tile_images::alpha_textures;
use crate::edit::ops::{Operation, OpsFile};
use crate::images::export::{ExportRequest, Exported, export_images};
use crate::model::TileCoord;
use crate::ui::dialogs::{ImageExportFields, ImageExportView, ImageImportFields, ImageImportView};

/// The longest side of a dialog's preview, in points.
const PREVIEW: f32 = 200.0;

/// The Import image dialog's state.
struct ImportDialog {
    kind: ImageKind,
    mode: ImportMode,
    image: Option<PathBuf>,
    size: Option<[usize; 2]>,
    preview: Option<egui::ColorImage>,
    texture: Option<egui::TextureHandle>,
    recorded_range: bool,
    fields: ImageImportFields,
}

/// The Export images dialog's state.
struct ExportDialog {
    folder: Option<PathBuf>,
    preview: Option<(TileCoord, egui::ColorImage)>,
    texture: Option<egui::TextureHandle>,
    fields: ImageExportFields,
}

/// An export running on its worker.
struct Writing {
    done: Arc<AtomicUsize>,
    total: Arc<AtomicUsize>,
    result: Arc<Mutex<Option<crate::error::Result<Exported>>>>,
}

/// The image dialogs' component.
#[derive(Default)]
pub struct TerrainImages {
    import: Option<ImportDialog>,
    export: Option<ExportDialog>,
    writing: Option<Writing>,
    /// An import to run, for the app to take ([`TerrainImages::take_ops`]).
    pending: Option<OpsFile>,
}

impl std::fmt::Debug for TerrainImages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TerrainImages")
            .field("import", &self.import.is_some())
            .field("export", &self.export.is_some())
            .field("writing", &self.writing.is_some())
            .finish()
    }
}

/// A picture of `raster` no larger than [`PREVIEW`] points a side: grey, or its colours.
fn preview_of(raster: &Raster) -> egui::ColorImage {
    let scale = (PREVIEW / raster.width.max(raster.height) as f32).min(1.0);
    let (w, h) = (
        ((raster.width as f32 * scale) as usize).max(1),
        ((raster.height as f32 * scale) as usize).max(1),
    );
    let byte = |v: f64| (v * 255.0).round().clamp(0.0, 255.0) as u8;
    let mut pixels = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let (sx, sy) = (x * raster.width / w, y * raster.height / h);
            let c = |k: usize| byte(raster.at(sx, sy, k.min(raster.channels - 1)));
            pixels.push(egui::Color32::from_rgb(c(0), c(1), c(2)));
        }
    }
    egui::ColorImage::new([w, h], pixels)
}

/// What an image's Noggit Red name says of it: `Name_X_Y_height.png`, `Name_X_Y_vcol.png`,
/// `Name_X_Y_<texture>.png` → (kind, tile, the texture's file-name form).
fn named(path: &Path) -> Option<(ImageKind, TileCoord, String)> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let stem = name.strip_suffix(".png")?;
    let parts: Vec<&str> = stem.split('_').collect();
    // Name (which may hold '_'), X, Y, what.
    let n = parts.len();
    (n >= 4).then_some(())?;
    for at in 1..n - 2 {
        let (Ok(x), Ok(y)) = (parts[at].parse::<usize>(), parts[at + 1].parse::<usize>()) else {
            continue;
        };
        let Some(tile) = TileCoord::new(x, y) else {
            continue;
        };
        let what = parts[at + 2..].join("_");
        let kind = match what.as_str() {
            "height" => ImageKind::Heights,
            "vcol" => ImageKind::Colours,
            _ => ImageKind::Alpha,
        };
        return Some((kind, tile, what));
    }
    None
}

impl TerrainImages {
    /// Carries out the image intents (the status line's text goes to `message`); hands every
    /// other intent back.
    fn handle_images(&mut self, intent: Intent, c: &mut DialogCtx) -> Option<Intent> {
        let Intent::Images(i) = intent else {
            return Some(intent);
        };
        match i {
            ImagesIntent::OpenImport => self.open_import(c.doc),
            ImagesIntent::OpenExport => self.open_export(c.doc),
            ImagesIntent::Kind(k) => {
                if let Some(d) = &mut self.import {
                    d.kind = k;
                }
            }
            ImagesIntent::Mode(m) => {
                if let Some(d) = &mut self.import {
                    d.mode = m;
                }
            }
            ImagesIntent::PickImage => {
                if let Some(path) = c.dialogs.pick_image() {
                    self.choose_image(&path, c);
                }
            }
            ImagesIntent::Import => self.import(c.message),
            ImagesIntent::PickFolder => {
                if let Some(f) = c.dialogs.pick_folder()
                    && let Some(d) = &mut self.export
                {
                    d.folder = Some(f);
                }
            }
            ImagesIntent::Export => self.export(c),
            ImagesIntent::Cancel => {
                self.import = None;
                if self.writing.is_none() {
                    self.export = None;
                }
            }
        }
        None
    }

    fn open_import(&mut self, doc: &Document) {
        let Some(s) = &doc.session else { return };
        let tile = s.map.tiles.keys().next().copied();
        let (min, max) = height_range(s.map.tiles.values()).unwrap_or((0.0, 100.0));
        let [x, y] = tile.map_or([0, 0], |t| [t.x, t.y]);
        self.import = Some(ImportDialog {
            kind: ImageKind::Heights,
            mode: ImportMode::Replace,
            image: None,
            size: None,
            preview: None,
            texture: None,
            recorded_range: false,
            fields: ImageImportFields {
                tiles: [x, y, x, y],
                min,
                max: if max > min { max } else { min + 100.0 },
                strength: 0.5,
                texture: String::new(),
            },
        });
    }

    /// Reads the image for its size, picture and recorded range; its Noggit Red name, when it
    /// has one, says what it is and which tile it covers.
    fn choose_image(&mut self, path: &Path, c: &mut DialogCtx) {
        let Some(d) = &mut self.import else { return };
        let input = match crate::images::read_input(None, &path.to_string_lossy()) {
            Ok(i) => i,
            Err(e) => {
                *c.message = Some(e);
                return;
            }
        };
        d.image = Some(path.to_path_buf());
        d.size = Some([input.raster.width, input.raster.height]);
        d.preview = Some(preview_of(&input.raster));
        d.texture = None;
        d.recorded_range = input.recorded_range.is_some();
        if let Some((min, max)) = input.recorded_range {
            d.fields.min = min;
            d.fields.max = max;
        }
        if let Some((kind, tile, what)) = named(path) {
            d.kind = kind;
            d.fields.tiles = [tile.x, tile.y, tile.x, tile.y];
            let textures = c
                .doc
                .session
                .as_ref()
                .and_then(|s| s.map.tiles.get(&tile))
                .map(alpha_textures)
                .unwrap_or_default();
            if let Some(t) = textures
                .iter()
                .find(|t| crate::images::alpha_file("", tile, t).ends_with(&format!("_{what}.png")))
            {
                d.fields.texture = t.clone();
            }
        }
    }

    fn import(&mut self, message: &mut Option<String>) {
        let Some(d) = &self.import else { return };
        let Some(image) = &d.image else { return };
        let [x0, y0, x1, y1] = d.fields.tiles;
        let heights = d.kind == ImageKind::Heights;
        let op = ImageOp {
            tool: match d.kind {
                ImageKind::Heights => ImageTool::ImportHeightmap,
                ImageKind::Alpha => ImageTool::ImportAlpha,
                ImageKind::Colours => ImageTool::ImportColours,
            },
            image: image.to_string_lossy().into_owned(),
            tile: (!heights || [x0, y0] == [x1, y1]).then_some([x0, y0]),
            tiles: (heights && [x0, y0] != [x1, y1]).then_some([[x0, y0], [x1, y1]]),
            min: heights.then_some(d.fields.min),
            max: heights.then_some(d.fields.max),
            mode: heights.then_some(d.mode),
            strength: (heights && d.mode == ImportMode::Blend).then_some(d.fields.strength),
            texture: (d.kind == ImageKind::Alpha).then(|| d.fields.texture.clone()),
        };
        if let Err(e) = op.validate() {
            *message = Some(format!("cannot import: {e}"));
            return;
        }
        self.pending = Some(OpsFile {
            ops: vec![Operation::Image(op)],
            folder: None,
        });
        self.import = None;
    }

    fn open_export(&mut self, doc: &Document) {
        let Some(s) = &doc.session else { return };
        let preview = s.map.tiles.values().next().map(|t| {
            let grid = tile_heights(t);
            let (lo, hi) = grid
                .iter()
                .fold((f32::MAX, f32::MIN), |(a, b), &h| (a.min(h), b.max(h)));
            let span = (hi - lo).max(1e-3);
            let pixels = grid
                .iter()
                .map(|h| {
                    let v = ((h - lo) / span * 255.0).round() as u8;
                    egui::Color32::from_gray(v)
                })
                .collect();
            (t.coord, egui::ColorImage::new([257, 257], pixels))
        });
        let (min, max) = height_range(s.map.tiles.values()).unwrap_or((0.0, 100.0));
        self.export = Some(ExportDialog {
            folder: None,
            preview,
            texture: None,
            fields: ImageExportFields {
                heights: true,
                alpha: true,
                colours: true,
                own_range: true,
                float: false,
                min,
                max: if max > min { max } else { min + 100.0 },
            },
        });
    }

    fn export(&mut self, c: &mut DialogCtx) {
        let (Some(s), Some(d)) = (&c.doc.session, &self.export) else {
            return;
        };
        let Some(folder) = d.folder.clone() else {
            return;
        };
        if self.writing.is_some() {
            return;
        }
        let f = &d.fields;
        let request = ExportRequest {
            heights: f.heights,
            alpha: f.alpha,
            colours: f.colours,
            range: (!f.own_range).then_some((f.min, f.max)),
            float: f.float,
        };
        let writing = Writing {
            done: Arc::new(AtomicUsize::new(0)),
            total: Arc::new(AtomicUsize::new(s.on_disk.len().max(1))),
            result: Arc::new(Mutex::new(None)),
        };
        let (done, total, result) = (
            writing.done.clone(),
            writing.total.clone(),
            writing.result.clone(),
        );
        let (source, generation, repaint) = (s.source.clone(), s.generation, c.repaint.clone());
        let spawned = std::thread::Builder::new()
            .name("loam-export-images".into())
            .spawn(move || {
                let r = export_images(&source, Some(generation), &folder, &request, &|d, t| {
                    done.store(d, Ordering::Relaxed);
                    total.store(t, Ordering::Relaxed);
                    repaint();
                });
                if let Ok(mut slot) = result.lock() {
                    *slot = Some(r);
                }
                repaint();
            });
        match spawned {
            Ok(_) => self.writing = Some(writing),
            Err(e) => *c.message = Some(format!("could not start the export: {e}")),
        }
    }

    /// Once the export running is done: closes its dialog and says what it wrote.
    fn poll_export(&mut self, message: &mut Option<String>) {
        let Some(w) = &self.writing else { return };
        let Some(result) = w.result.lock().ok().and_then(|mut r| r.take()) else {
            return;
        };
        self.writing = None;
        *message = Some(match result {
            Ok(e) => {
                self.export = None;
                let range = e
                    .range
                    .map(|r| format!("; heights {} … {} yd", r.min, r.max))
                    .unwrap_or_default();
                let failed = if e.failed.is_empty() {
                    String::new()
                } else {
                    format!("; {} tile(s) could not be read", e.failed.len())
                };
                format!("wrote {} image file(s){range}{failed}", e.files.len())
            }
            Err(e) => format!("export failed: {e}"),
        });
    }

    /// Draws the dialog that is up.
    fn draw(&mut self, ui: &mut egui::Ui, doc: &Document) -> Vec<Intent> {
        let mut out = Vec::new();
        if let Some(d) = &mut self.import {
            let texture = d.preview.as_ref().map(|p| {
                d.texture
                    .get_or_insert_with(|| {
                        ui.ctx()
                            .load_texture("import-preview", p.clone(), Default::default())
                    })
                    .clone()
            });
            let [x0, y0, _, _] = d.fields.tiles;
            let tile = TileCoord::new(usize::from(x0), usize::from(y0));
            let session = doc.session.as_ref();
            let textures = session
                .and_then(|s| s.map.tiles.get(&tile?))
                .map(alpha_textures)
                .unwrap_or_default();
            let in_map = session.is_some_and(|s| {
                tile.is_some_and(|t| s.map.tiles.contains_key(&t) || s.on_disk.contains(&t))
            });
            let problem = if !in_map {
                Some(format!("tile {x0}_{y0} is not in the map"))
            } else if d.kind == ImageKind::Alpha && textures.is_empty() {
                Some("the tile paints no texture as a layer: nothing to import into".into())
            } else if d.kind == ImageKind::Alpha
                && !textures
                    .iter()
                    .any(|t| t.eq_ignore_ascii_case(&d.fields.texture))
            {
                Some("choose the texture whose alpha the image is".into())
            } else if d.kind == ImageKind::Heights && d.fields.max <= d.fields.min {
                Some("white must be above black".into())
            } else {
                None
            };
            let view = ImageImportView {
                kind: d.kind,
                mode: d.mode,
                image: d.image.clone(),
                size: d.size,
                preview: texture.map(|t| (t.id(), fit(t.size_vec2()))),
                textures,
                recorded_range: d.recorded_range,
                problem,
            };
            out.extend(crate::ui::dialogs::import_image(ui, &view, &mut d.fields));
        }
        if let Some(d) = &mut self.export {
            let texture = d.preview.as_ref().map(|(_, p)| {
                d.texture
                    .get_or_insert_with(|| {
                        ui.ctx()
                            .load_texture("export-preview", p.clone(), Default::default())
                    })
                    .clone()
            });
            let unsaved = doc.session.as_ref().is_some_and(|s| !s.edited.is_empty());
            let f = &d.fields;
            let problem = if unsaved {
                Some("the export reads the map's files: save first".into())
            } else if !(f.heights || f.alpha || f.colours) {
                Some("choose what to write".into())
            } else if f.heights && !f.own_range && f.max <= f.min {
                Some("white must be above black".into())
            } else {
                None
            };
            let view = ImageExportView {
                folder: d.folder.clone(),
                preview: texture.map(|t| (t.id(), fit(t.size_vec2()))),
                preview_tile: d.preview.as_ref().map(|(c, _)| format!("{}_{}", c.x, c.y)),
                problem,
                writing: self.writing.as_ref().map(|w| {
                    (
                        w.done.load(Ordering::Relaxed),
                        w.total.load(Ordering::Relaxed),
                    )
                }),
            };
            out.extend(crate::ui::dialogs::export_images(ui, &view, &mut d.fields));
        }
        out
    }
}

/// `size` scaled to fit [`PREVIEW`] points a side.
fn fit(size: egui::Vec2) -> egui::Vec2 {
    size * (PREVIEW / size.x.max(size.y).max(1.0)).min(1.0)
}

impl Component for TerrainImages {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        let intent = match intent {
            Intent::Command(Command::ImportImage) => Intent::Images(ImagesIntent::OpenImport),
            Intent::Command(Command::ExportImages) => Intent::Images(ImagesIntent::OpenExport),
            other => other,
        };
        self.handle_images(intent, &mut cx.dialog_ctx())
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut AppCtx) -> Vec<Intent> {
        self.draw(ui, &cx.doc)
    }

    fn poll(&mut self, cx: &mut AppCtx) -> Vec<Intent> {
        self.poll_export(&mut cx.shell.message);
        Vec::new()
    }

    /// The import the user asked for, once: the shell runs it.
    fn take_ops(&mut self) -> Option<OpsFile> {
        self.pending.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noggit_red_names_say_what_an_image_is() {
        let n = |s: &str| named(Path::new(s)).map(|(k, t, w)| (k, t.x, t.y, w));
        assert_eq!(
            n("Azeroth_32_48_height.png"),
            Some((ImageKind::Heights, 32, 48, "height".into()))
        );
        assert_eq!(
            n("My_Isle_3_4_vcol.png"),
            Some((ImageKind::Colours, 3, 4, "vcol".into()))
        );
        assert_eq!(
            n("Isle_30_30_tileset-wetlands-wetlandsgrassdark01.blp.png"),
            Some((
                ImageKind::Alpha,
                30,
                30,
                "tileset-wetlands-wetlandsgrassdark01.blp".into()
            ))
        );
        assert_eq!(n("island.png"), None);
        assert_eq!(n("a_99_1_height.png"), None, "off the map");
    }
}
