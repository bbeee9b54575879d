//! Go to & bookmarks: a field that flies the camera to a typed place (a pasted `.go xyz`
//! line, world x y z, a tile and chunk), and the open map's named views: save the camera
//! under a name, jump back, rename, delete.

use crate::command::{Intent, PlacesIntent};
use crate::ui::labelled;

/// The window's title (and accessible name).
pub const PLACES_TITLE: &str = "Go to & bookmarks";
/// The accessible name of the place field.
pub const GO_TO_LABEL: &str = "Place";
/// The accessible name of the new bookmark's name field.
pub const BOOKMARK_NAME_LABEL: &str = "Bookmark name";
/// The accessible name of the button that saves the view.
pub const SAVE_VIEW_LABEL: &str = "Save this view";

/// The accessible name of bookmark `name`'s jump button.
pub fn jump_label(name: &str) -> String {
    format!("Jump to {name}")
}

/// The fields the app keeps while the window is open.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlacesFields {
    /// The place typed.
    pub place: String,
    /// The next bookmark's name.
    pub name: String,
    /// A bookmark being renamed: its index and the name typed so far.
    pub renaming: Option<(usize, String)>,
}

/// What the window shows besides its fields.
#[derive(Debug, Clone, Default)]
pub struct PlacesView {
    /// The open map's bookmarks' names, in order; `None` when no map is open.
    pub bookmarks: Option<Vec<String>>,
    /// Why the last place typed could not be gone to.
    pub error: Option<String>,
    /// The `.go xyz` line of the camera, to show what the servers would take.
    pub camera_go: Option<String>,
}

/// Shows the window over `fields`.
pub fn show(ctx: &egui::Context, view: &PlacesView, fields: &mut PlacesFields) -> Vec<Intent> {
    let mut out = Vec::new();
    let mut open = true;
    super::fixed_window(PLACES_TITLE, 420.0)
        .open(&mut open)
        .show(ctx, |ui| {
            ui.label("World x y z, tile X Y [chunk X Y], or a .go xyz line:");
            ui.horizontal(|ui| {
                let edit = egui::TextEdit::singleline(&mut fields.place)
                    .hint_text(".go xyz 1600 -5333 40 0");
                let r = labelled(ui, GO_TO_LABEL, edit);
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("Go").clicked() || enter {
                    out.push(Intent::Places(PlacesIntent::GoTo(fields.place.clone())));
                }
            });
            if let Some(e) = &view.error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            if let Some(line) = &view.camera_go {
                ui.weak(format!("The camera: {line}"));
            }
            ui.separator();
            let Some(names) = &view.bookmarks else {
                ui.label("Open a map to keep bookmarks of it.");
                return;
            };
            ui.horizontal(|ui| {
                labelled(
                    ui,
                    BOOKMARK_NAME_LABEL,
                    egui::TextEdit::singleline(&mut fields.name).hint_text("name"),
                );
                let name = fields.name.trim().to_string();
                if ui
                    .add_enabled(!name.is_empty(), egui::Button::new(SAVE_VIEW_LABEL))
                    .clicked()
                {
                    out.push(Intent::Places(PlacesIntent::Save(name)));
                    fields.name.clear();
                }
            });
            if names.is_empty() {
                ui.weak("No bookmarks of this map yet.");
            }
            for (i, name) in names.iter().enumerate() {
                ui.horizontal(|ui| row(ui, i, name, fields, &mut out));
            }
        });
    if !open {
        out.push(Intent::Places(PlacesIntent::Close));
    }
    out
}

/// One bookmark: jump, rename (in place), delete.
fn row(ui: &mut egui::Ui, i: usize, name: &str, fields: &mut PlacesFields, out: &mut Vec<Intent>) {
    if let Some((at, text)) = &mut fields.renaming
        && *at == i
    {
        ui.text_edit_singleline(text);
        if ui.button("OK").clicked() {
            out.push(Intent::Places(PlacesIntent::Rename(
                i,
                text.trim().to_string(),
            )));
            fields.renaming = None;
        }
        return;
    }
    let jump = ui
        .button(name)
        .on_hover_text("Put the camera back where it was saved");
    let label = jump_label(name);
    jump.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
    if jump.clicked() {
        out.push(Intent::Places(PlacesIntent::Jump(i)));
    }
    if ui.small_button("Rename").clicked() {
        fields.renaming = Some((i, name.to_string()));
    }
    if ui.small_button("Delete").clicked() {
        out.push(Intent::Places(PlacesIntent::Delete(i)));
    }
}
