//! The tile map: the map's 64×64 tile grid showing which tiles exist, are loaded, are drawn and
//! were edited, with the camera on it; a click asks to go to a tile.

use std::collections::{BTreeMap, BTreeSet};

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};

use super::labelled;
use crate::command::Intent;
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
    /// Tiles whose file cannot be read, with the reason (shown on hover; never written).
    pub unreadable: BTreeMap<TileCoord, String>,
    /// The camera: world (x, y) and yaw.
    pub camera: Option<([f64; 2], f32)>,
    /// The tile the camera last went to (a click here, Go to tile, `--tile`), if any since the
    /// map opened: the Go to tile fields show it.
    pub gone_to: Option<TileCoord>,
}

/// The accessible name of the tile map widget.
pub const TILE_MAP_LABEL: &str = "Tile map";

/// Colour of a tile that cannot be read.
pub const UNREADABLE_COLOR: Color32 = Color32::from_rgb(200, 40, 40);

/// Colour of a tile cell.
fn cell_color(state: &TileMapState, c: TileCoord) -> Option<Color32> {
    if state.unreadable.contains_key(&c) {
        Some(UNREADABLE_COLOR)
    } else if state.edited.contains(&c) {
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

/// The part of the 64×64 grid the widget shows: first column and row, and how many tiles
/// along each side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// First column shown.
    pub x: usize,
    /// First row shown.
    pub y: usize,
    /// Tiles along each side.
    pub side: usize,
}

impl Region {
    /// The whole grid.
    pub const WHOLE: Region = Region {
        x: 0,
        y: 0,
        side: TILES_PER_SIDE,
    };

    /// A square around `tiles` with two tiles of margin, at least 12 tiles wide, inside the grid.
    pub fn around(tiles: &BTreeSet<TileCoord>) -> Region {
        let (Some(min_x), Some(max_x)) = (
            tiles.iter().map(|t| t.x as usize).min(),
            tiles.iter().map(|t| t.x as usize).max(),
        ) else {
            return Region::WHOLE;
        };
        let min_y = tiles.iter().map(|t| t.y as usize).min().unwrap_or(0);
        let max_y = tiles.iter().map(|t| t.y as usize).max().unwrap_or(0);
        let side = ((max_x - min_x).max(max_y - min_y) + 5).clamp(12, TILES_PER_SIDE);
        let start = |lo: usize, hi: usize| {
            let centre = (lo + hi).div_ceil(2);
            centre.saturating_sub(side / 2).min(TILES_PER_SIDE - side)
        };
        Region {
            x: start(min_x, max_x),
            y: start(min_y, max_y),
            side,
        }
    }

    /// The tile under a point of a widget drawn in `rect`.
    pub fn tile_at(&self, rect: Rect, pos: Pos2) -> Option<TileCoord> {
        let cell = rect.width() / self.side as f32;
        let col = ((pos.x - rect.left()) / cell).floor();
        let row = ((pos.y - rect.top()) / cell).floor();
        if col < 0.0 || row < 0.0 || col >= self.side as f32 || row >= self.side as f32 {
            return None;
        }
        TileCoord::new(self.x + col as usize, self.y + row as usize)
    }

    /// The centre of tile `c` in a widget drawn in `rect` (for tests and markers).
    pub fn tile_centre(&self, rect: Rect, c: TileCoord) -> Pos2 {
        let cell = rect.width() / self.side as f32;
        rect.min
            + Vec2::new(
                (c.x as f32 - self.x as f32 + 0.5) * cell,
                (c.y as f32 - self.y as f32 + 0.5) * cell,
            )
    }
}

/// The region the map shows for `state`: around the map's tiles, or everything when `whole`.
pub fn region_for(state: &TileMapState, whole: bool) -> Region {
    if whole {
        Region::WHOLE
    } else {
        Region::around(&state.present)
    }
}

/// Draws the map in a square as wide as the panel and returns a [`Intent::GoToTile`] on click.
/// By default it shows the neighbourhood of the map's tiles; "Whole grid" shows all 64×64.
pub fn show(ui: &mut egui::Ui, state: &TileMapState) -> Vec<Intent> {
    let whole_id = ui.scope_id().with("loam-tile-map-whole");
    let mut whole = ui.data(|d| d.get_temp::<bool>(whole_id)).unwrap_or(false);
    ui.checkbox(&mut whole, "Whole grid");
    ui.data_mut(|d| d.insert_temp(whole_id, whole));
    let region = region_for(state, whole);

    let side = ui.available_width().clamp(128.0, 512.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, TILE_MAP_LABEL));
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::from_gray(48));
    let cell = side / region.side as f32;
    // A faint line every eight tiles of the whole grid so positions can be read off.
    let stroke = Stroke::new(1.0, Color32::from_gray(70));
    for k in (0..=TILES_PER_SIDE).step_by(8) {
        if k < region.x || k > region.x + region.side {
            continue;
        }
        let o = (k - region.x) as f32 * cell;
        painter.line_segment(
            [
                rect.left_top() + Vec2::new(o, 0.0),
                rect.left_bottom() + Vec2::new(o, 0.0),
            ],
            stroke,
        );
    }
    for k in (0..=TILES_PER_SIDE).step_by(8) {
        if k < region.y || k > region.y + region.side {
            continue;
        }
        let o = (k - region.y) as f32 * cell;
        painter.line_segment(
            [
                rect.left_top() + Vec2::new(0.0, o),
                rect.right_top() + Vec2::new(0.0, o),
            ],
            stroke,
        );
    }
    for y in region.y..region.y + region.side {
        for x in region.x..region.x + region.side {
            let Some(c) = TileCoord::new(x, y) else {
                continue;
            };
            if let Some(color) = cell_color(state, c) {
                let centre = region.tile_centre(rect, c);
                let r = Rect::from_center_size(centre, Vec2::splat(cell)).shrink(cell * 0.06);
                painter.rect_filled(r, 0.0, color);
            }
        }
    }
    if let Some(([x, y], yaw)) = state.camera {
        let [col, row] = tile_grid_position(x, y);
        let p = rect.min
            + Vec2::new(
                (col as f32 - region.x as f32) * cell,
                (row as f32 - region.y as f32) * cell,
            );
        if rect.expand(4.0).contains(p) {
            // Yaw 0 looks north (up on the map); positive yaw turns west (left).
            let dir = Vec2::new(-yaw.sin(), -yaw.cos());
            painter.line_segment([p, p + dir * 14.0], Stroke::new(2.0, Color32::WHITE));
            painter.circle_filled(p, 3.0, Color32::from_rgb(230, 60, 60));
        }
    }
    let mut out = Vec::new();
    if let Some(pos) = response.hover_pos()
        && let Some(c) = region.tile_at(rect, pos)
    {
        let present = state.present.contains(&c);
        let note = match state.unreadable.get(&c) {
            Some(why) => format!(" cannot be read: {why}"),
            None if present => String::new(),
            None => " (none)".to_string(),
        };
        response
            .clone()
            .on_hover_text(format!("tile {}_{}{note}", c.x, c.y));
    }
    if response.clicked()
        && let Some(pos) = response.interact_pointer_pos()
        && let Some(c) = region.tile_at(rect, pos)
    {
        out.push(Intent::GoToTile(c));
    }
    // Right-click: add the tile there, or remove it (the tile is kept from the click, as the
    // pointer moves onto the menu).
    let menu_tile = ui.scope_id().with("loam-tile-map-menu");
    if response.secondary_clicked()
        && let Some(pos) = response.interact_pointer_pos()
        && let Some(c) = region.tile_at(rect, pos)
    {
        ui.data_mut(|d| d.insert_temp(menu_tile, (c.x, c.y)));
    }
    response.context_menu(|ui| {
        let Some(c) = ui
            .data(|d| d.get_temp::<(u8, u8)>(menu_tile))
            .and_then(|(x, y)| TileCoord::new(x as usize, y as usize))
        else {
            return;
        };
        if state.present.contains(&c) {
            if ui
                .button(format!("Remove tile {}_{}", c.x, c.y))
                .on_hover_text("The WDT stops listing it and its file is deleted")
                .clicked()
            {
                out.push(Intent::RemoveTile(c));
                ui.close();
            }
        } else if ui
            .button(format!("Add tile {}_{}", c.x, c.y))
            .on_hover_text("A flat tile whose borders meet the tiles beside it")
            .clicked()
        {
            out.push(Intent::AddTile(c));
            ui.close();
        }
    });
    // "Go to tile" by number; the typed values live in egui's memory, not in the app. They
    // show the tile the camera last went to (else the map's first tile) and keep what was
    // typed until the camera goes to another: the fields must not lie about where the view is.
    let shown = state
        .gone_to
        .or(state.present.first().copied())
        .map_or((32, 32), |c| (c.x, c.y));
    let id = ui.scope_id().with("loam-go-to-tile");
    let (mut x, mut y) = match ui.data(|d| d.get_temp::<((u8, u8), (u8, u8))>(id)) {
        Some((typed, was_shown)) if was_shown == shown => typed,
        _ => shown,
    };
    ui.horizontal(|ui| {
        labelled(ui, "X", egui::DragValue::new(&mut x).range(0..=63));
        labelled(ui, "Y", egui::DragValue::new(&mut y).range(0..=63));
        if ui.button("Go to tile").clicked()
            && let Some(c) = TileCoord::new(x as usize, y as usize)
        {
            out.push(Intent::GoToTile(c));
        }
    });
    ui.data_mut(|d| d.insert_temp(id, ((x, y), shown)));
    ui.horizontal_wrapped(|ui| {
        legend(ui, Color32::from_gray(110), "present");
        legend(ui, Color32::from_rgb(60, 120, 80), "loaded");
        legend(ui, Color32::from_rgb(90, 200, 110), "drawn");
        legend(ui, Color32::from_rgb(240, 150, 40), "edited");
        if !state.unreadable.is_empty() {
            legend(ui, UNREADABLE_COLOR, "unreadable");
        }
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
        let whole = Region::WHOLE;
        assert_eq!(
            whole.tile_at(rect, Pos2::new(10.0 + 4.0 * 31.5, 20.0 + 4.0 * 40.2)),
            TileCoord::new(31, 40)
        );
        assert_eq!(whole.tile_at(rect, Pos2::new(5.0, 30.0)), None);
        let c = TileCoord::new(7, 60).unwrap();
        assert_eq!(whole.tile_at(rect, whole.tile_centre(rect, c)), Some(c));
    }

    #[test]
    fn the_region_frames_the_map_inside_the_grid() {
        let tiles: BTreeSet<TileCoord> = [(31, 31), (32, 32)]
            .into_iter()
            .filter_map(|(x, y)| TileCoord::new(x, y))
            .collect();
        let r = Region::around(&tiles);
        assert_eq!(r.side, 12);
        assert!(r.x <= 29 && r.x + r.side >= 35);
        let edge: BTreeSet<TileCoord> = TileCoord::new(63, 0).into_iter().collect();
        let r = Region::around(&edge);
        assert_eq!((r.x + r.side, r.y), (64, 0));
        assert_eq!(Region::around(&BTreeSet::new()), Region::WHOLE);
        let rect = Rect::from_min_size(Pos2::ZERO, Vec2::splat(120.0));
        let c = TileCoord::new(63, 0).unwrap();
        assert_eq!(r.tile_at(rect, r.tile_centre(rect, c)), Some(c));
    }
}
