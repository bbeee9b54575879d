//! File ▸ Export images…: which of every tile's images, and the folder.

use std::path::PathBuf;

use super::{chosen_path, fixed_window, ok_cancel, progress_or_problem, range_fields};
use crate::command::Intent;

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
