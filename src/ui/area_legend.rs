//! The area overlay's legend: each area id of the loaded tiles with its colour in the view
//! and, when the client's AreaTable names it, its zone and subzone.
//!
//! Not for: the colours themselves (`render::terrain::area_colour`, shared with the shader's
//! tint) or reading the names (`assets::client::AreaNames`).

use egui::{Color32, Rect, Sense, Vec2};

/// Rows shown before the rest are summed up in one line: a continent has hundreds of areas.
const SHOWN: usize = 14;

/// One area of the loaded tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegendEntry {
    /// The area id chunks store.
    pub id: u32,
    /// Its overlay colour.
    pub colour: [u8; 3],
    /// Its zone and subzone, when the client's table names it.
    pub name: Option<String>,
    /// How many loaded chunks carry it.
    pub chunks: usize,
}

/// Shows the legend at the top right of the view `rect`, most-used areas first.
pub fn show(ui: &egui::Ui, rect: Rect, entries: &[LegendEntry]) {
    egui::Area::new(egui::Id::unique("loam-area-legend"))
        .pivot(egui::Align2::RIGHT_TOP)
        .fixed_pos(rect.right_top() + egui::vec2(-8.0, 8.0))
        .order(egui::Order::Middle)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.strong("Areas of the loaded tiles");
                if entries.is_empty() {
                    ui.label("No tile is loaded.");
                }
                for e in entries.iter().take(SHOWN) {
                    ui.horizontal(|ui| {
                        let (swatch, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
                        let [r, g, b] = e.colour;
                        ui.painter()
                            .rect_filled(swatch, 2.0, Color32::from_rgb(r, g, b));
                        ui.label(format!("{:>5}", e.id));
                        match &e.name {
                            Some(name) => ui.label(name),
                            None if e.id == 0 => ui.weak("no area"),
                            None => ui.weak("(no name)"),
                        };
                        ui.weak(format!("{} chunks", e.chunks));
                    });
                }
                if entries.len() > SHOWN {
                    let rest: usize = entries[SHOWN..].iter().map(|e| e.chunks).sum();
                    ui.weak(format!(
                        "… and {} more areas ({rest} chunks)",
                        entries.len() - SHOWN
                    ));
                }
            });
        });
}
