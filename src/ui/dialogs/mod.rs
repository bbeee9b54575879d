//! The editor's dialogs, one file each: Save as…, Export for client…, Open from client…,
//! New map…, Import image…, Export images…, Textures…, the recovered edits, the models not
//! found, and the "unsaved changes" question on quit; and the rows they share (a path chosen
//! with a button, a progress bar, the action and Cancel). Each takes plain data to show and
//! returns intents.
//!
//! Not for: a dialog's state or what its buttons do (its component in `app`).

pub mod confirm_quit;
pub mod export;
pub mod export_images;
pub mod import_image;
pub mod keys;
pub mod missing_models;
pub mod new_map;
pub mod open_from_client;
pub mod places;
pub mod restore;
pub mod save_as;
pub mod textures;

pub use confirm_quit::confirm_quit;
pub use export::{EXPORT_TITLE, ExportView, export_for_client};
pub use export_images::{EXPORT_IMAGES_TITLE, ImageExportFields, ImageExportView, export_images};
pub use import_image::{IMPORT_IMAGE_TITLE, ImageImportFields, ImageImportView, import_image};
pub use missing_models::{MISSING_MODELS_TITLE, MissingModelsView, missing_models};
pub use new_map::{NEW_MAP_TITLE, NewMapFields, NewMapView, new_map};
pub use open_from_client::{OPEN_FROM_CLIENT_TITLE, open_from_client};
pub use restore::{RESTORE_TITLE, RestoreView, restore};
pub use save_as::{SAVE_AS_TITLE, SaveAsView, save_as};

use crate::command::Intent;
use crate::ui::labelled;

/// The first tile's X and Y fields (`tiles[0..2]`), and with `many` the opposite corner's.
pub(super) fn tile_fields(ui: &mut egui::Ui, tiles: &mut [u8; 4], many: bool) {
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
pub(super) fn range_fields(ui: &mut egui::Ui, min: &mut f32, max: &mut f32) {
    for (what, value) in [("Black is", min), ("white is", max)] {
        labelled(
            ui,
            what,
            egui::DragValue::new(value).speed(1.0).suffix(" yd"),
        );
    }
}

/// A button that asks for a path, and the path chosen so far.
pub(super) fn chosen_path(
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
pub(super) fn progress_or_problem(
    ui: &mut egui::Ui,
    writing: Option<(usize, usize)>,
    problem: Option<&str>,
) {
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
