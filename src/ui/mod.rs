//! The editor's egui panels: menu bar, tile map, status bar, 3D viewport frame and dialogs.
//! Each takes plain data to show and returns [`Intent`](crate::command::Intent)s (or, for
//! the viewport, the raw input the app turns into camera moves).
//!
//! Not for: changing the model or the session (the app does that from the intents) or any GL.

pub mod area_legend;
pub mod area_picker;
pub mod asset_browser;
pub mod biome_panel;
pub mod clipboard_panel;
pub mod command_palette;
pub mod dialogs;
pub mod erosion_panel;
pub mod history;
pub mod marks;
pub mod menu;
pub mod object_panel;
pub mod palette_panel;
pub mod presets_panel;
pub mod road_panel;
pub mod rules_panel;
pub mod script_panel;
pub mod selection_panel;
pub mod status;
pub mod tile_map;
pub mod tool_bar;
pub mod tool_panel;
pub mod viewport;
pub mod zone_panel;

/// Shows `text` and then `widget`, naming the text as the widget's accessible label (how screen
/// readers, and the window tests, find a field by the words beside it).
pub fn labelled(
    ui: &mut egui::Ui,
    text: impl Into<egui::WidgetText>,
    widget: impl egui::Widget,
) -> egui::Response {
    let label = ui.label(text);
    ui.add(widget).labelled_by(label.id)
}
