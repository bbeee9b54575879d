//! File ▸ Import image…: what the image is, which tile(s), the file and how heights meet the
//! ground.

use std::path::PathBuf;

use super::{fixed_window, ok_cancel, progress_or_problem, range_fields, tile_fields};
use crate::command::Intent;

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
    pub mode: crate::edit::images::heightmap::ImportMode,
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
    use crate::edit::images::heightmap::ImportMode as M;
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
