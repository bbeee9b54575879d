//! File ▸ New map…: the name, the tiles, the ground's height and texture, the generation
//! and the folder.

use std::path::PathBuf;

use super::{chosen_path, fixed_window, ok_cancel, progress_or_problem, tile_fields};
use crate::command::Intent;
use crate::format::Generation;
use crate::ui::labelled;

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
