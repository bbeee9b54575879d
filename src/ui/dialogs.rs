//! The editor's dialogs: Save as… (target generation, folder, the conversion report before
//! writing) and the "unsaved changes" question on quit.

use std::path::PathBuf;

use super::labelled;
use crate::command::Intent;
use crate::format::Generation;

/// What the Save as… dialog shows.
#[derive(Debug, Clone, PartialEq)]
pub struct SaveAsView {
    /// Generations loam can write.
    pub targets: Vec<Generation>,
    /// The chosen one.
    pub target: Generation,
    /// The generation the map has now.
    pub current: Generation,
    /// The chosen folder.
    pub folder: Option<PathBuf>,
    /// The conversion report for the chosen target, one line per change.
    pub report: Vec<String>,
    /// While the report reads the map's tiles from disk: tiles read so far, of how many.
    pub reading: Option<(usize, usize)>,
    /// The map's WDL is written with it.
    pub wdl: bool,
}

/// The dialog's window title (and accessible name).
pub const SAVE_AS_TITLE: &str = "Save as";

/// Shows the Save as… window.
pub fn save_as(ui: &mut egui::Ui, view: &SaveAsView) -> Vec<Intent> {
    let mut out = Vec::new();
    egui::Window::new(SAVE_AS_TITLE)
        .collapsible(false)
        .resizable(true)
        .default_width(420.0)
        .show(ui.ctx(), |ui| {
            ui.label(format!("The map is {} now. Write it as:", view.current));
            ui.horizontal(|ui| {
                for &g in &view.targets {
                    if ui
                        .selectable_label(view.target == g, format!("Target {g}"))
                        .clicked()
                    {
                        out.push(Intent::SaveAsTarget(g));
                    }
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Choose folder…").clicked() {
                    out.push(Intent::SaveAsPickFolder);
                }
                match &view.folder {
                    Some(f) => ui.label(f.display().to_string()),
                    None => ui.label("(no folder chosen)"),
                };
            });
            ui.separator();
            ui.label("Conversion report:");
            egui::ScrollArea::vertical()
                .max_height(200.0)
                .show(ui, |ui| {
                    if let Some((read, total)) = view.reading {
                        ui.label(format!(
                            "Reading the map's tiles for the report: {read} of {total}…"
                        ));
                        ui.add(
                            egui::ProgressBar::new(read as f32 / total.max(1) as f32)
                                .show_percentage(),
                        );
                    }
                    for line in &view.report {
                        ui.label(line);
                    }
                });
            let mut wdl = view.wdl;
            if ui
                .checkbox(&mut wdl, "Write the WDL (distant terrain)")
                .changed()
            {
                out.push(Intent::SaveAsWdl(wdl));
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(view.folder.is_some(), egui::Button::new("Write"))
                    .clicked()
                {
                    out.push(Intent::SaveAsWrite);
                }
                if ui.button("Cancel").clicked() {
                    out.push(Intent::SaveAsCancel);
                }
            });
        });
    out
}

/// Asks whether to quit with `unsaved` changed tiles.
pub fn confirm_quit(ui: &mut egui::Ui, unsaved: usize) -> Vec<Intent> {
    let mut out = Vec::new();
    egui::Modal::new(egui::Id::unique("loam-confirm-quit")).show(ui.ctx(), |ui| {
        ui.heading("Unsaved changes");
        ui.label(format!(
            "{unsaved} tile(s) have changes that are not saved. Quit anyway?"
        ));
        ui.horizontal(|ui| {
            if ui.button("Discard and quit").clicked() {
                out.push(Intent::ConfirmQuit(true));
            }
            if ui.button("Keep editing").clicked() {
                out.push(Intent::ConfirmQuit(false));
            }
        });
    });
    out
}

/// The Open from client window's title.
pub const OPEN_FROM_CLIENT_TITLE: &str = "Open from client";

/// Lists the client's maps (folder name, and Map.dbc's id and name where known), filtered by
/// `filter`, and says why names are missing when Map.dbc gave none; a click opens one.
pub fn open_from_client(
    ui: &mut egui::Ui,
    listing: &crate::assets::client::MapListing,
    filter: &mut String,
) -> Vec<Intent> {
    use crate::assets::client::MapNames;
    let maps = &listing.maps;
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new(OPEN_FROM_CLIENT_TITLE)
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .default_width(420.0)
        .show(ui.ctx(), |ui| {
            ui.label(format!(
                "{} map(s). The map's files are copied to loam's cache and opened from there; \
                 File > Save as… writes it to a folder of your choice.",
                maps.len()
            ));
            if !matches!(listing.names, MapNames::Read(_)) {
                // Why the list shows folder names only (a modded or unknown Map.dbc).
                ui.label(listing.names.to_string());
            }
            ui.horizontal(|ui| {
                labelled(ui, "Filter", egui::TextEdit::singleline(filter));
            });
            let words = filter.to_ascii_lowercase();
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for m in maps {
                        let shown = match &m.table {
                            Some((id, name)) => format!("{}  {name} (map {id})", m.directory),
                            None => m.directory.clone(),
                        };
                        if !words.is_empty() && !shown.to_ascii_lowercase().contains(&words) {
                            continue;
                        }
                        if ui
                            .selectable_label(false, shown)
                            .on_hover_text(&m.wdt)
                            .clicked()
                        {
                            out.push(Intent::OpenFromClient(m.directory.clone()));
                        }
                    }
                });
        });
    if !open {
        out.push(Intent::CloseOpenFromClient);
    }
    out
}

/// What the Export for client dialog shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportView {
    /// Generations with a client archive layout.
    pub targets: Vec<Generation>,
    /// The chosen one.
    pub target: Generation,
    /// The map's name.
    pub map: String,
    /// The chosen client (or output) folder.
    pub folder: Option<PathBuf>,
    /// Where the archives go: the client's `Data` folder, or the chosen folder.
    pub destination: Option<PathBuf>,
    /// The target reads per-file archives (0.5.x) rather than one patch.
    pub per_file: bool,
    /// The patch name used when none is typed.
    pub default_patch: Option<String>,
    /// The WDL is written with the map.
    pub wdl: bool,
    /// The minimap is drawn and packed with the map.
    pub minimap: bool,
    /// The map has unsaved edits (the export reads the files on disk).
    pub unsaved: bool,
    /// The folder is a client whose servers' map extractors loam knows (1.12, 3.3.5).
    pub server_client: bool,
    /// The servers' copy of the client is written too.
    pub server_copy: bool,
    /// Where the servers' copy goes.
    pub server_folder: Option<PathBuf>,
    /// What the last export said that the user must know (what the servers will not see).
    pub warnings: Vec<String>,
}

/// The Export for client window's title.
pub const EXPORT_TITLE: &str = "Export for client";

/// Shows the Export for client window; `patch_name` is the text field's contents.
pub fn export_for_client(
    ui: &mut egui::Ui,
    view: &ExportView,
    patch_name: &mut String,
) -> Vec<Intent> {
    use crate::command::ExportIntent as E;
    let mut out = Vec::new();
    fixed_window(EXPORT_TITLE, 440.0).show(ui.ctx(), |ui| {
        ui.label("Client generation:");
        ui.horizontal(|ui| {
            for &g in &view.targets {
                if ui.selectable_label(view.target == g, g.label()).clicked() {
                    out.push(Intent::Export(E::Target(g)));
                }
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Client folder…").clicked() {
                out.push(Intent::Export(E::PickFolder));
            }
            match &view.folder {
                Some(f) => ui.label(f.display().to_string()),
                None => ui.label("(none chosen: the game folder, or any folder)"),
            };
        });
        if view.per_file {
            ui.label(format!(
                "Writes World\\Maps\\{0}\\{0}.wdt.MPQ and {0}.wdl.MPQ, the per-file archives \
                     the 0.5.x client reads.",
                view.map
            ));
        } else {
            ui.horizontal(|ui| {
                let label = ui.label("Patch name");
                let hint = view.default_patch.as_deref().unwrap_or("patch-4.MPQ");
                ui.add(egui::TextEdit::singleline(patch_name).hint_text(hint))
                    .labelled_by(label.id);
            });
        }
        let mut wdl = view.wdl;
        if ui
            .checkbox(&mut wdl, "Write the WDL (distant terrain)")
            .changed()
        {
            out.push(Intent::Export(E::Wdl(wdl)));
        }
        let mut minimap = view.minimap;
        if ui
            .checkbox(
                &mut minimap,
                "Draw the minimap (256×256 a tile, changed tiles only)",
            )
            .on_hover_text(
                "Each tile drawn from above and named in textures\\Minimap\\md5translate, \
                     which keeps the client's other maps.",
            )
            .changed()
        {
            out.push(Intent::Export(E::Minimap(minimap)));
        }
        if view.server_client {
            let mut copy = view.server_copy;
            ui.horizontal(|ui| {
                if ui
                    .checkbox(&mut copy, "Write the servers' copy")
                    .on_hover_text(
                        "The client's Data folder as the servers' map extractors read it \
                         (loam server-data): run the extractor on this folder.",
                    )
                    .changed()
                {
                    out.push(Intent::Export(E::ServerCopy(copy)));
                }
                if copy {
                    if ui.button("Folder…").clicked() {
                        out.push(Intent::Export(E::PickServerFolder));
                    }
                    match &view.server_folder {
                        Some(f) => ui.label(f.display().to_string()),
                        None => ui.label("(a new folder)"),
                    };
                }
            });
        }
        if let Some(d) = &view.destination {
            ui.label(format!("Into {}", d.display()));
        }
        ui.label("An archive loam did not write is never replaced.");
        for w in &view.warnings {
            ui.colored_label(ui.visuals().warn_fg_color, w);
        }
        if view.unsaved {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "Save first: the export reads the map's files on disk.",
            );
        }
        ui.separator();
        ui.horizontal(|ui| {
            let ready = view.folder.is_some()
                && !view.unsaved
                && !(view.server_copy && view.server_folder.is_none());
            if ui.add_enabled(ready, egui::Button::new("Export")).clicked() {
                out.push(Intent::Export(E::Write));
            }
            let close = if view.warnings.is_empty() {
                "Cancel"
            } else {
                "Close"
            };
            if ui.button(close).clicked() {
                out.push(Intent::Export(E::Cancel));
            }
        });
    });
    out
}

/// What the restore dialog shows about one recovered map.
#[derive(Debug, Clone, PartialEq)]
pub struct RestoreView {
    /// The map's name.
    pub map: String,
    /// Where the map is.
    pub source: PathBuf,
    /// The generation it was read as.
    pub generation: String,
    /// How many unsaved tiles were autosaved.
    pub tiles: usize,
    /// When, in words ("3 minutes ago").
    pub age: String,
    /// The map's files that changed on disk since the autosave.
    pub changed: Vec<PathBuf>,
}

/// The restore dialog's heading (and accessible name).
pub const RESTORE_TITLE: &str = "Recovered edits";

/// Asks whether to restore a map's autosaved edits after loam did not quit cleanly: Restore,
/// Discard, or Later (asked again on the next start).
pub fn restore(ui: &mut egui::Ui, view: &RestoreView) -> Vec<Intent> {
    let mut out = Vec::new();
    egui::Modal::new(egui::Id::unique("loam-restore")).show(ui.ctx(), |ui| {
        ui.set_max_width(560.0);
        ui.heading(RESTORE_TITLE);
        ui.label(format!(
            "loam did not quit cleanly while {} had unsaved changes. {} tile(s) were autosaved \
             {}.",
            view.map, view.tiles, view.age
        ));
        ui.label(format!("{} ({})", view.source.display(), view.generation));
        if !view.changed.is_empty() {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "Changed on disk since the autosave (saving the restored tiles writes over \
                 these changes):",
            );
            for p in &view.changed {
                ui.label(format!("  {}", p.display()));
            }
        }
        ui.label(
            "Restore opens the map with these tiles as unsaved edits: Save writes them. \
             The undo history is not restored.",
        );
        ui.horizontal(|ui| {
            if ui.button("Restore").clicked() {
                out.push(Intent::RestoreRecovered(0));
            }
            if ui.button("Discard").clicked() {
                out.push(Intent::DiscardRecovered(0));
            }
            if ui
                .button("Later")
                .on_hover_text("Ask again on the next start")
                .clicked()
            {
                out.push(Intent::RecoverLater(0));
            }
        });
    });
    out
}

/// What the missing-models window shows.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingModelsView {
    /// One row a model: its path, why it is not drawn, how many objects place it where.
    pub rows: Vec<[String; 3]>,
    /// The same as text, one model a line, tab-separated: what "Copy the list" copies.
    pub text: String,
}

/// The missing-models window's title.
pub const MISSING_MODELS_TITLE: &str = "Models not found";

/// Shows the models drawn as placeholders; the list can be copied whole.
pub fn missing_models(ui: &mut egui::Ui, view: &MissingModelsView) -> Vec<Intent> {
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new(MISSING_MODELS_TITLE)
        .open(&mut open)
        .default_width(720.0)
        .resizable(true)
        .show(ui.ctx(), |ui| {
            ui.label(
                "Each model's path, why it is not drawn, and the tiles that place it. Models the \
                 client does not have are usually custom ones: put them in the map's folder or a \
                 patch archive under the same path.",
            );
            ui.horizontal(|ui| {
                if ui.button("Copy the list").clicked() {
                    ui.ctx().copy_text(view.text.clone());
                }
                if ui.button("Close").clicked() {
                    out.push(Intent::ShowMissingModels(false));
                }
            });
            egui::ScrollArea::both().max_height(360.0).show(ui, |ui| {
                egui::Grid::new("loam-missing-models")
                    .striped(true)
                    .show(ui, |ui| {
                        // Where and why first: the paths are long and run off to the right.
                        for [path, why, placed] in &view.rows {
                            ui.label(placed);
                            ui.label(why);
                            ui.monospace(path);
                            ui.end_row();
                        }
                    });
            });
        });
    if !open {
        out.push(Intent::ShowMissingModels(false));
    }
    out
}

/// What the New map window's fields hold (edited in place by the window).
#[derive(Debug, Clone, PartialEq)]
pub struct NewMapFields {
    /// The map's name (its folder under `World\Maps\`).
    pub name: String,
    /// The first and the opposite corner of the tile rectangle: x0, y0, x1, y1.
    pub tiles: [u8; 4],
    /// The height of the new ground, in yards.
    pub height: f32,
    /// The texture of the new ground.
    pub texture: String,
}

/// What the New map window shows besides its fields.
#[derive(Debug, Clone)]
pub struct NewMapView {
    /// The generations loam writes.
    pub targets: Vec<Generation>,
    /// The chosen one.
    pub generation: Generation,
    /// The chosen folder.
    pub folder: Option<PathBuf>,
    /// The map's own folder in it, where the files go.
    pub into: Option<PathBuf>,
    /// Why the map cannot be made as it stands (a bad name, files already there), if so.
    pub problem: Option<String>,
    /// Tiles written and to write, while the map is being written.
    pub writing: Option<(usize, usize)>,
}

/// The New map window's title.
pub const NEW_MAP_TITLE: &str = "New map";

/// Shows the New map window.
pub fn new_map(ui: &mut egui::Ui, view: &NewMapView, fields: &mut NewMapFields) -> Vec<Intent> {
    use crate::command::NewMapIntent as N;
    let mut out = Vec::new();
    fixed_window(NEW_MAP_TITLE, 440.0).show(ui.ctx(), |ui| {
        ui.horizontal(|ui| {
            labelled(ui, "Name", egui::TextEdit::singleline(&mut fields.name));
        });
        ui.label("Client generation:");
        ui.horizontal(|ui| {
            for &g in &view.targets {
                if ui
                    .selectable_label(view.generation == g, g.label())
                    .clicked()
                {
                    out.push(Intent::NewMap(N::Generation(g)));
                }
            }
        });
        ui.horizontal(|ui| {
            tile_fields(ui, &mut fields.tiles, true);
            let [x0, y0, x1, y1] = fields.tiles.map(i32::from);
            let n = ((x1 - x0).abs() + 1) * ((y1 - y0).abs() + 1);
            ui.label(format!("({n} tile{})", if n == 1 { "" } else { "s" }));
        });
        ui.horizontal(|ui| {
            labelled(
                ui,
                "Height",
                egui::DragValue::new(&mut fields.height)
                    .speed(1.0)
                    .suffix(" yd"),
            );
        });
        ui.horizontal(|ui| {
            labelled(
                ui,
                "Texture",
                egui::TextEdit::singleline(&mut fields.texture).desired_width(300.0),
            );
        });
        out.extend(chosen_path(
            ui,
            "Folder…",
            view.folder.as_deref(),
            Intent::NewMap(N::PickFolder),
        ));
        if let Some(into) = &view.into {
            ui.label(format!("Into {}", into.display()));
        }
        ui.label(
            "Every tile flat, one texture, laid out as Blizzard's own empty tiles; the WDT \
                 and the WDL with them. Files already there are never overwritten.",
        );
        progress_or_problem(ui, view.writing, view.problem.as_deref());
        let ready = view.folder.is_some() && view.problem.is_none() && view.writing.is_none();
        out.extend(ok_cancel(
            ui,
            "Create",
            ready,
            Intent::NewMap(N::Create),
            Intent::NewMap(N::Cancel),
        ));
    });
    out
}

/// What the Import image window's fields hold (edited in place by the window).
#[derive(Debug, Clone, PartialEq)]
pub struct ImageImportFields {
    /// The corner tiles the image covers: x0, y0, x1, y1 (heights may cover many; alpha and
    /// colours one, the first).
    pub tiles: [u8; 4],
    /// The height of a black pixel.
    pub min: f32,
    /// The height of a white pixel.
    pub max: f32,
    /// Blend: how far toward the image's heights, 0..1.
    pub strength: f32,
    /// Alpha: the texture whose alpha the image is.
    pub texture: String,
}

/// What the Import image window shows besides its fields.
#[derive(Debug, Clone)]
pub struct ImageImportView {
    /// What the image is.
    pub kind: crate::command::ImageKind,
    /// How heights meet the ground.
    pub mode: crate::edit::heightmap::ImportMode,
    /// The chosen image.
    pub image: Option<PathBuf>,
    /// Its size in pixels.
    pub size: Option<[usize; 2]>,
    /// Its picture, and the size to show it at.
    pub preview: Option<(egui::TextureId, egui::Vec2)>,
    /// The textures the covered tile paints as layers (alpha imports choose one).
    pub textures: Vec<String>,
    /// The range came from the export's record beside the image.
    pub recorded_range: bool,
    /// Why it cannot be imported as it stands, if so.
    pub problem: Option<String>,
}

/// The Import image window's title.
pub const IMPORT_IMAGE_TITLE: &str = "Import image";

/// Shows the Import image window.
pub fn import_image(
    ui: &mut egui::Ui,
    view: &ImageImportView,
    fields: &mut ImageImportFields,
) -> Vec<Intent> {
    use crate::command::{ImageKind as K, ImagesIntent as I};
    use crate::edit::heightmap::ImportMode as M;
    let mut out = Vec::new();
    fixed_window(IMPORT_IMAGE_TITLE, 460.0).show(ui.ctx(), |ui| {
        ui.horizontal(|ui| {
            for (k, label) in [
                (K::Heights, "Heights"),
                (K::Alpha, "Texture alpha"),
                (K::Colours, "Vertex colours"),
            ] {
                if ui.selectable_label(view.kind == k, label).clicked() {
                    out.push(Intent::Images(I::Kind(k)));
                }
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Image…").clicked() {
                out.push(Intent::Images(I::PickImage));
            }
            match (&view.image, view.size) {
                (Some(p), Some([w, h])) => ui.label(format!("{} ({w}×{h})", p.display())),
                (Some(p), None) => ui.label(p.display().to_string()),
                (None, _) => ui.label("(none chosen)"),
            };
        });
        if let Some((id, size)) = view.preview {
            ui.image(egui::load::SizedTexture::new(id, size));
        }
        ui.horizontal(|ui| tile_fields(ui, &mut fields.tiles, view.kind == K::Heights));
        match view.kind {
            K::Heights => {
                ui.horizontal(|ui| {
                    range_fields(ui, &mut fields.min, &mut fields.max);
                    if view.recorded_range {
                        ui.label("(as exported)");
                    }
                });
                ui.horizontal(|ui| {
                    for (m, label) in [
                        (M::Replace, "Replace"),
                        (M::Add, "Add"),
                        (M::Blend, "Blend"),
                    ] {
                        if ui.selectable_label(view.mode == m, label).clicked() {
                            out.push(Intent::Images(I::Mode(m)));
                        }
                    }
                    if view.mode == M::Blend {
                        ui.add(egui::Slider::new(&mut fields.strength, 0.0..=1.0).text("strength"));
                    }
                });
            }
            K::Alpha => {
                ui.label("Texture:");
                for t in &view.textures {
                    if ui
                        .selectable_label(fields.texture.eq_ignore_ascii_case(t), t)
                        .clicked()
                    {
                        fields.texture = t.clone();
                    }
                }
                if view.textures.is_empty() {
                    ui.label("(the tile paints no texture as a layer: nothing to import into)");
                }
            }
            K::Colours => {
                ui.label("RGB on the heightmap's 257×257 lattice; grey 127 is no tint.");
            }
        }
        progress_or_problem(ui, None, view.problem.as_deref());
        let ready = view.image.is_some() && view.problem.is_none();
        out.extend(ok_cancel(
            ui,
            "Import",
            ready,
            Intent::Images(I::Import),
            Intent::Images(I::Cancel),
        ));
    });
    out
}

/// What the Export images window's fields hold (edited in place by the window).
#[derive(Debug, Clone, PartialEq)]
pub struct ImageExportFields {
    /// Heightmaps.
    pub heights: bool,
    /// Alpha maps.
    pub alpha: bool,
    /// Vertex colours.
    pub colours: bool,
    /// The map's own height range (else `min`, `max`).
    pub own_range: bool,
    /// Heights as 32-bit float TIFF instead of 16-bit PNG.
    pub float: bool,
    /// The height of pixel value 0.
    pub min: f32,
    /// The height of pixel value 65535.
    pub max: f32,
}

/// What the Export images window shows besides its fields.
#[derive(Debug, Clone)]
pub struct ImageExportView {
    /// The chosen folder.
    pub folder: Option<PathBuf>,
    /// A tile's heightmap as it will be written, and the size to show it at.
    pub preview: Option<(egui::TextureId, egui::Vec2)>,
    /// Which tile the preview shows.
    pub preview_tile: Option<String>,
    /// Why it cannot be written as it stands, if so.
    pub problem: Option<String>,
    /// Tiles written and to write, while writing.
    pub writing: Option<(usize, usize)>,
}

/// The Export images window's title.
pub const EXPORT_IMAGES_TITLE: &str = "Export images";

/// Shows the Export images window.
pub fn export_images(
    ui: &mut egui::Ui,
    view: &ImageExportView,
    fields: &mut ImageExportFields,
) -> Vec<Intent> {
    use crate::command::ImagesIntent as I;
    let mut out = Vec::new();
    fixed_window(EXPORT_IMAGES_TITLE, 440.0).show(ui.ctx(), |ui| {
        ui.checkbox(
            &mut fields.heights,
            "Heights (16-bit grey, Name_X_Y_height.png)",
        );
        ui.checkbox(
            &mut fields.alpha,
            "Alpha maps (8-bit grey, Name_X_Y_<texture>.png)",
        );
        ui.checkbox(
            &mut fields.colours,
            "Vertex colours (RGB, Name_X_Y_vcol.png)",
        );
        ui.add_enabled_ui(fields.heights, |ui| {
            ui.checkbox(
                &mut fields.float,
                "Heights as 32-bit float TIFF (no quantisation)",
            );
            ui.checkbox(&mut fields.own_range, "The map's own height range");
            ui.add_enabled_ui(!fields.own_range, |ui| {
                ui.horizontal(|ui| {
                    range_fields(ui, &mut fields.min, &mut fields.max);
                });
            });
        });
        if let Some((id, size)) = view.preview {
            if let Some(t) = &view.preview_tile {
                ui.label(format!("Tile {t}'s heights:"));
            }
            ui.image(egui::load::SizedTexture::new(id, size));
        }
        out.extend(chosen_path(
            ui,
            "Folder…",
            view.folder.as_deref(),
            Intent::Images(I::PickFolder),
        ));
        ui.label(
            "Noggit Red's layouts and names; the height range goes into Name_heights.json, \
                 so that an import puts every height back.",
        );
        progress_or_problem(ui, view.writing, view.problem.as_deref());
        let ready = view.folder.is_some() && view.problem.is_none() && view.writing.is_none();
        out.extend(ok_cancel(
            ui,
            "Export",
            ready,
            Intent::Images(I::Export),
            Intent::Images(I::Cancel),
        ));
    });
    out
}

/// The first tile's X and Y fields (`tiles[0..2]`), and with `many` the opposite corner's.
fn tile_fields(ui: &mut egui::Ui, tiles: &mut [u8; 4], many: bool) {
    ui.label(if many { "Tiles from" } else { "Tile" });
    let names = ["X0", "Y0", "X1", "Y1"];
    for (i, tile) in tiles.iter_mut().enumerate().take(if many { 4 } else { 2 }) {
        if i == 2 {
            ui.label("to");
        }
        ui.add(egui::DragValue::new(tile).range(0..=63))
            .on_hover_text(names[i]);
    }
}

/// The heights a black and a white pixel stand for.
fn range_fields(ui: &mut egui::Ui, min: &mut f32, max: &mut f32) {
    for (what, value) in [("Black is", min), ("white is", max)] {
        labelled(
            ui,
            what,
            egui::DragValue::new(value).speed(1.0).suffix(" yd"),
        );
    }
}

/// A button that asks for a path, and the path chosen so far.
fn chosen_path(
    ui: &mut egui::Ui,
    button: &str,
    path: Option<&std::path::Path>,
    ask: Intent,
) -> Vec<Intent> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        if ui.button(button).clicked() {
            out.push(ask);
        }
        match path {
            Some(f) => ui.label(f.display().to_string()),
            None => ui.label("(none chosen)"),
        };
    });
    out
}

/// While a worker writes, its progress; else why the dialog cannot go ahead, if it cannot.
fn progress_or_problem(ui: &mut egui::Ui, writing: Option<(usize, usize)>, problem: Option<&str>) {
    match (writing, problem) {
        (Some((done, total)), _) => {
            ui.add(
                egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                    .text(format!("writing {done}/{total} tiles")),
            );
        }
        (None, Some(p)) => {
            ui.colored_label(ui.visuals().warn_fg_color, p);
        }
        (None, None) => {}
    }
}

/// The dialog's last row: its action (enabled when `ready`) and Cancel.
pub(super) fn ok_cancel(
    ui: &mut egui::Ui,
    action: &str,
    ready: bool,
    ok: Intent,
    cancel: Intent,
) -> Vec<Intent> {
    let mut out = Vec::new();
    ui.separator();
    ui.horizontal(|ui| {
        if ui.add_enabled(ready, egui::Button::new(action)).clicked() {
            out.push(ok);
        }
        if ui.button("Cancel").clicked() {
            out.push(cancel);
        }
    });
    out
}

/// A dialog window that neither collapses nor resizes, `width` points wide at first.
pub(super) fn fixed_window(title: &str, width: f32) -> egui::Window<'_> {
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .default_width(width)
}
