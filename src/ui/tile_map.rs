//! The tile map: the map's 64×64 tile grid showing which tiles exist, are loaded, are drawn and
//! were edited, with the camera on it; a click asks to go to a tile.

use std::collections::BTreeSet;

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};

use crate::app::intent::Intent;
use crate::model::TileCoord;
use crate::model::coords::{TILES_PER_SIDE, tile_grid_position};

/// What the tile map shows.
#[derive(Debug, Clone, Default)]
pub struct TileMapState {
    /// Tiles the map lists.
    pub present: BTreeSet<TileCoord>,
    /// Tiles in memory.
    pub loaded: BTreeSet<TileCoord>,
    /// Tiles on the GPU.
    pub drawn: BTreeSet<TileCoord>,
    /// Tiles with unsaved changes.
    pub edited: BTreeSet<TileCoord>,
    /// The camera: world (x, y) and yaw.
    pub camera: Option<([f64; 2], f32)>,
}

/// The accessible name of the tile map widget.
pub const TILE_MAP_LABEL: &str = "Tile map";

/// Colour of a tile cell.
fn cell_color(state: &TileMapState, c: TileCoord) -> Option<Color32> {
    if state.edited.contains(&c) {
        Some(Color32::from_rgb(240, 150, 40))
    } else if state.drawn.contains(&c) {
        Some(Color32::from_rgb(90, 200, 110))
    } else if state.loaded.contains(&c) {
        Some(Color32::from_rgb(60, 120, 80))
    } else if state.present.contains(&c) {
        Some(Color32::from_gray(110))
    } else {
        None
    }
}

/// The tile under a point of the widget.
pub fn tile_at(rect: Rect, pos: Pos2) -> Option<TileCoord> {
    let cell = rect.width() / TILES_PER_SIDE as f32;
    let col = ((pos.x - rect.left()) / cell).floor();
    let row = ((pos.y - rect.top()) / cell).floor();
    if col < 0.0 || row < 0.0 {
        return None;
    }
    TileCoord::new(col as usize, row as usize)
}

/// Draws the map in a square as wide as the panel and returns a [`Intent::GoToTile`] on click.
pub fn show(ui: &mut egui::Ui, state: &TileMapState) -> Vec<Intent> {
    let side = ui.available_width().clamp(128.0, 512.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, TILE_MAP_LABEL));
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::from_gray(28));
    let cell = side / TILES_PER_SIDE as f32;
    for index in 0..TILES_PER_SIDE * TILES_PER_SIDE {
        let Some(c) = TileCoord::from_index(index) else {
            continue;
        };
        if let Some(color) = cell_color(state, c) {
            let min = rect.min + Vec2::new(c.x as f32 * cell, c.y as f32 * cell);
            painter.rect_filled(
                Rect::from_min_size(min, Vec2::splat(cell)).shrink(0.3),
                0.0,
                color,
            );
        }
    }
    if let Some(([x, y], yaw)) = state.camera {
        let [col, row] = tile_grid_position(x, y);
        let p = rect.min + Vec2::new(col as f32 * cell, row as f32 * cell);
        // Yaw 0 looks north (up on the map); positive yaw turns west (left).
        let dir = Vec2::new(-yaw.sin(), -yaw.cos());
        painter.line_segment([p, p + dir * 10.0], Stroke::new(2.0, Color32::WHITE));
        painter.circle_filled(p, 3.5, Color32::from_rgb(230, 60, 60));
    }
    let mut out = Vec::new();
    if let Some(pos) = response.hover_pos()
        && let Some(c) = tile_at(rect, pos)
    {
        let present = state.present.contains(&c);
        response.clone().on_hover_text(format!(
            "tile {}_{}{}",
            c.x,
            c.y,
            if present { "" } else { " (none)" }
        ));
    }
    if response.clicked()
        && let Some(pos) = response.interact_pointer_pos()
        && let Some(c) = tile_at(rect, pos)
    {
        out.push(Intent::GoToTile(c));
    }
    ui.horizontal_wrapped(|ui| {
        legend(ui, Color32::from_gray(110), "present");
        legend(ui, Color32::from_rgb(60, 120, 80), "loaded");
        legend(ui, Color32::from_rgb(90, 200, 110), "drawn");
        legend(ui, Color32::from_rgb(240, 150, 40), "edited");
    });
    out
}

fn legend(ui: &mut egui::Ui, color: Color32, text: &str) {
    let (r, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
    ui.painter().rect_filled(r, 1.0, color);
    ui.label(text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_map_to_tiles() {
        let rect = Rect::from_min_size(Pos2::new(10.0, 20.0), Vec2::splat(256.0));
        assert_eq!(
            tile_at(rect, Pos2::new(10.0 + 4.0 * 31.5, 20.0 + 4.0 * 40.2)),
            TileCoord::new(31, 40)
        );
        assert_eq!(tile_at(rect, Pos2::new(5.0, 30.0)), None);
    }
}
