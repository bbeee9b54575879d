//! File ▸ Open from client…: the client's maps, filtered, a click opening one.

use crate::command::{Intent, OpenFromClientIntent};
use crate::ui::labelled;

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
                            out.push(Intent::OpenFromClient(OpenFromClientIntent::Map(
                                m.directory.clone(),
                            )));
                        }
                    }
                });
        });
    if !open {
        out.push(Intent::OpenFromClient(OpenFromClientIntent::Close));
    }
    out
}
