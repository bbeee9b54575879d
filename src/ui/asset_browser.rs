//! The asset browser panel: tabs for tileset textures, models and WMOs, a filter, and the
//! catalogue's tree as one virtual list (egui_extras' table draws only the rows on screen,
//! so a client's tens of thousands of names scroll smoothly). Texture rows show thumbnails.
//!
//! Clicking a texture makes it the paint brush's texture; clicking a model or WMO selects it
//! for placing.

use egui::{Color32, Sense, Vec2};
use egui_extras::{Column, TableBuilder};

use std::collections::HashMap;

use super::labelled;
use crate::assets::catalog::{AssetKind, Catalog, Row};
use crate::command::Intent;

/// Row height of texture rows (thumbnail rows) and of the others.
const THUMB_ROW: f32 = 40.0;
const TEXT_ROW: f32 = 18.0;
/// Indentation per folder level.
const INDENT: f32 = 12.0;

/// What the panel returns: intents, and the texture paths on screen that want thumbnails.
#[derive(Debug, Default)]
pub struct BrowserOutput {
    /// What the user asked for.
    pub intents: Vec<Intent>,
    /// Texture rows drawn this frame, top first.
    pub visible_textures: Vec<String>,
}

/// What a thumbnail request answered.
pub enum Thumb {
    /// Ready to draw.
    Ready(egui::TextureHandle),
    /// No file, or it failed to decode: the message says which.
    Missing(String),
}

/// What the panel shows of the browser's state (the app's `AssetBrowser` makes one).
pub struct BrowserView<'a> {
    /// The names to browse.
    pub catalog: &'a Catalog,
    /// The tab shown.
    pub kind: AssetKind,
    /// The filter text.
    pub filter: &'a str,
    /// The catalogue is still being made.
    pub building: bool,
    /// Why a name source failed, if one did.
    pub problem: Option<&'a str>,
    /// The rows of the tab, folders and files, as filtered and opened.
    pub rows: &'a [Row],
    /// The file last clicked.
    pub selected: Option<&'a str>,
    /// Thumbnails by path, as far as they are made.
    pub thumbs: &'a HashMap<String, Thumb>,
}

/// Shows the panel. `paint_texture` is the paint brush's texture (marked in the list);
/// `detail` a line about the selected file (where it is read from).
pub fn show(
    ui: &mut egui::Ui,
    browser: &BrowserView<'_>,
    paint_texture: &str,
    detail: Option<&str>,
) -> BrowserOutput {
    let mut out = BrowserOutput::default();
    let catalog = browser.catalog;
    ui.horizontal(|ui| {
        for kind in AssetKind::ALL {
            let label = format!("{} ({})", kind.label(), catalog.count(kind));
            if ui.selectable_label(browser.kind == kind, label).clicked() && browser.kind != kind {
                out.intents.push(Intent::BrowserTab(kind));
            }
        }
    });
    let mut filter = browser.filter.to_string();
    ui.horizontal(|ui| {
        labelled(
            ui,
            "Filter",
            egui::TextEdit::singleline(&mut filter).hint_text("words in the path"),
        );
    });
    if filter != browser.filter {
        out.intents.push(Intent::BrowserFilter(filter));
    }
    if browser.building {
        ui.label("Reading the names…");
    }
    if let Some(p) = browser.problem {
        ui.colored_label(Color32::from_rgb(240, 180, 80), p);
    }
    // The detail line sits under the list; leave it room.
    let footer = if detail.is_some() { 40.0 } else { 0.0 };
    let rows = browser.rows;
    let entries = catalog.entries(browser.kind);
    let selected = browser.selected;
    if rows.is_empty() && !browser.building {
        ui.label(if browser.filter.is_empty() {
            "Nothing of this kind is known: choose a client folder in Settings, or add a listfile."
        } else {
            "No path matches the filter."
        });
    }
    let height = (ui.available_height() - footer).max(60.0);
    let thumbs = browser.kind == AssetKind::Texture;
    // Texture files are tall enough for their thumbnail; folders and other files are a line.
    let heights = rows.iter().map(|r| match r {
        Row::File { .. } if thumbs => THUMB_ROW,
        _ => TEXT_ROW,
    });
    TableBuilder::new(ui)
        .id_salt(("asset-browser", browser.kind))
        .column(Column::remainder())
        .max_scroll_height(height)
        .auto_shrink([false, false])
        .body(|body| {
            body.heterogeneous_rows(heights, |mut row| {
                let Some(r) = rows.get(row.index()) else {
                    return;
                };
                row.col(|ui| {
                    ui.horizontal(|ui| match r {
                        Row::Folder {
                            key,
                            name,
                            depth,
                            files,
                            open,
                        } => {
                            ui.add_space(*depth as f32 * INDENT);
                            let (icon, icon_response) =
                                ui.allocate_exact_size(Vec2::splat(12.0), Sense::click());
                            let icon_response = icon_response.with_new_rect(icon);
                            egui::collapsing_header::paint_default_icon(
                                ui,
                                if *open { 1.0 } else { 0.0 },
                                &icon_response,
                            );
                            let response = ui.add(
                                egui::Button::selectable(false, format!("{name}  ({files})"))
                                    .frame(false),
                            );
                            if response.clicked() || icon_response.clicked() {
                                out.intents.push(Intent::BrowserToggleFolder(key.clone()));
                            }
                        }
                        Row::File { index, depth } => {
                            let Some(entry) = entries.get(*index) else {
                                return;
                            };
                            // Files line up under their folder's name, past its arrow.
                            ui.add_space(*depth as f32 * INDENT + 12.0);
                            if thumbs {
                                out.visible_textures.push(entry.path.clone());
                                thumbnail(ui, browser.thumbs.get(&entry.path));
                            }
                            let is_paint = thumbs && entry.path.eq_ignore_ascii_case(paint_texture);
                            let shown = if is_paint {
                                format!("{}  (painting)", entry.file_name())
                            } else {
                                entry.file_name().to_string()
                            };
                            let response = ui
                                .selectable_label(selected == Some(entry.path.as_str()), shown)
                                .on_hover_text(&entry.path);
                            if response.clicked() {
                                out.intents
                                    .push(Intent::PickAsset(browser.kind, entry.path.clone()));
                            }
                        }
                    });
                });
            });
        });
    if let Some(d) = detail {
        ui.separator();
        ui.label(d);
    }
    out
}

/// A thumbnail, or a grey square while it decodes or when it is missing.
fn thumbnail(ui: &mut egui::Ui, thumb: Option<&Thumb>) {
    let size = Vec2::splat(THUMB_ROW - 4.0);
    match thumb {
        Some(Thumb::Ready(handle)) => {
            ui.add(egui::Image::new((handle.id(), size)));
        }
        other => {
            let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
            ui.painter().rect_filled(rect, 2.0, Color32::from_gray(60));
            if let Some(Thumb::Missing(why)) = other {
                ui.painter().text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    "?",
                    egui::FontId::proportional(16.0),
                    Color32::from_gray(200),
                );
                response.on_hover_text(why);
            }
        }
    }
}
