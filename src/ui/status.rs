//! The status bar: what is under the cursor, frame time, unsaved tiles and the last message.

use crate::command::{Command, Intent};
use crate::render::pick::TerrainPoint;

/// What the status bar shows.
#[derive(Debug, Clone, Default)]
pub struct StatusInfo {
    /// The terrain under the mouse.
    pub hover: Option<TerrainPoint>,
    /// The zone and subzone of its area id, when the client's AreaTable names it.
    pub area_name: Option<String>,
    /// The last frame's time in milliseconds.
    pub frame_ms: f32,
    /// Where it went, pass by pass, for the frame time's tooltip (none without a renderer).
    pub pass_times: Option<crate::render::pass_timer::PassTimes>,
    /// The app's own CPU time in the last frame, in milliseconds.
    pub cpu_frame_ms: f32,
    /// Tiles changed since the last save.
    pub unsaved: usize,
    /// Tiles loaded / on the GPU.
    pub tiles_loaded: (usize, usize),
    /// The last message (an error or what a save did).
    pub message: Option<String>,
    /// Textures that show their stand-in because they are missing or unreadable.
    pub textures: Option<String>,
    /// Objects drawn and draw calls, and models that are missing.
    pub objects: Option<String>,
    /// The servers' `.go xyz X Y Z MAPID` line of the point under the cursor (else the
    /// camera), when a map is open.
    pub go_xyz: Option<String>,
    /// Why the client's light tables are not used (the default light is drawn instead).
    pub light: Option<String>,
}

/// The accessible name of the button that copies the `.go xyz` line.
pub const COPY_GO_LABEL: &str = "Copy the .go xyz line";

/// Draws the status line.
pub fn show(ui: &mut egui::Ui, info: &StatusInfo) -> Vec<Intent> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        match &info.hover {
            Some(p) => {
                ui.label(format!(
                    "x {:.1}  y {:.1}  z {:.1}",
                    p.world[0], p.world[1], p.world[2]
                ));
                ui.separator();
                ui.label(format!(
                    "tile {}_{}  chunk {},{}",
                    p.tile.x, p.tile.y, p.chunk_x, p.chunk_y
                ));
                ui.separator();
                match &info.area_name {
                    Some(name) => ui.label(format!("area {} {name}", p.area_id)),
                    None => ui.label(format!("area {}", p.area_id)),
                };
            }
            None => {
                ui.label("no terrain under the cursor");
            }
        }
        if let Some(line) = &info.go_xyz {
            ui.separator();
            ui.label(line).on_hover_text(
                "What a TrinityCore, AzerothCore or MaNGOS server takes to go there \
                 (x north, y west, z up: the ADT's world axes)",
            );
            let copy = ui.small_button("Copy");
            copy.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, COPY_GO_LABEL));
            if copy.clicked() {
                out.push(Intent::Command(Command::CopyGoXyz));
            }
        }
        ui.separator();
        ui.label(format!("{:.1} ms", info.frame_ms))
            // The lines are made, and the GPU timed, only while the tooltip shows.
            .on_hover_ui(|ui| {
                out.push(Intent::MeasurePasses);
                ui.label("Where the last measured frame's time went:");
                let passes = info
                    .pass_times
                    .as_ref()
                    .map(crate::render::pass_timer::lines);
                for line in passes.unwrap_or_default() {
                    ui.monospace(line);
                }
                ui.monospace(format!("cpu frame {:.3} ms", info.cpu_frame_ms));
            });
        ui.separator();
        ui.label(format!(
            "tiles {} loaded, {} drawn",
            info.tiles_loaded.0, info.tiles_loaded.1
        ));
        ui.separator();
        ui.label(format!("{} unsaved", info.unsaved));
        // The parts of any length share what is left of the line; each is shortened with "…"
        // and shows its whole text on hover, so that nothing runs off the window.
        let long: Vec<&String> = [&info.objects, &info.textures, &info.light, &info.message]
            .into_iter()
            .flatten()
            .collect();
        if long.is_empty() {
            return;
        }
        let dismiss = if info.message.is_some() { 70.0 } else { 0.0 };
        let gap = ui.spacing().item_spacing.x * 3.0;
        let count = long.len();
        for (i, text) in long.into_iter().enumerate() {
            ui.separator();
            // What a short part leaves goes to the parts after it.
            let left = count - i;
            let share = ((ui.available_width() - dismiss) / left as f32 - gap).max(40.0);
            ui.allocate_ui(egui::vec2(share, ui.available_height()), |ui| {
                ui.add(egui::Label::new(text.as_str()).truncate());
            });
        }
        if info.message.is_some() && ui.small_button("Dismiss").clicked() {
            out.push(Intent::Command(Command::DismissMessage));
        }
    });
    out
}
