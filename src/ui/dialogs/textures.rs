//! Edit ▸ Textures…: swap one texture for another keeping its alpha, remove a texture's
//! layers, remove the textures no chunk paints, or set the ground effect (detail doodads) a
//! texture's layers grow, over one tile, the loaded tiles or the whole map. The app turns the form into the same `texture_*` operation `loam apply` runs
//! (one undo step); the rules are `edit::terrain::texture_ops`'.

use crate::command::{Intent, TexturesIntent};
use crate::ui::labelled;

/// The dialog's window title (and accessible name).
pub const TEXTURES_TITLE: &str = "Textures";

/// What the dialog does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureAction {
    /// Replace `from` with `to` in every layer that paints it, alpha kept.
    #[default]
    Swap,
    /// Take the layers painting `from` out of each chunk.
    Remove,
    /// Take the textures no chunk paints out of each tile's list.
    RemoveUnused,
    /// Set the ground effect of the layers painting `from`.
    Effect,
}

/// Where it applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureScope {
    /// The tile in `tile`.
    #[default]
    Tile,
    /// Every tile in memory now.
    Loaded,
    /// Every tile of the map (read from disk as needed).
    Map,
}

/// The dialog's fields: plain data the app keeps while it is open.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TextureForm {
    /// The action.
    pub action: TextureAction,
    /// The texture replaced or removed.
    pub from: String,
    /// The texture put in its place (swap).
    pub to: String,
    /// Where.
    pub scope: TextureScope,
    /// The tile for [`TextureScope::Tile`].
    pub tile: [u8; 2],
    /// The GroundEffectTexture id (effect), -1 for none.
    pub effect: i64,
}

/// Shows the dialog over `form`; `textures` are the loaded tiles' texture paths to pick from
/// (any path can be typed).
///
/// `effects` are the client's ground effects (id, label) to pick from, empty without a client.
pub fn show(
    ui: &mut egui::Ui,
    form: &mut TextureForm,
    textures: &[String],
    effects: &[(u32, String)],
) -> Vec<Intent> {
    let mut out = Vec::new();
    super::fixed_window(TEXTURES_TITLE, 460.0).show(ui.ctx(), |ui| {
        ui.horizontal(|ui| {
            for (action, name) in [
                (TextureAction::Swap, "Swap"),
                (TextureAction::Remove, "Remove"),
                (TextureAction::RemoveUnused, "Remove unused"),
                (TextureAction::Effect, "Ground effect"),
            ] {
                ui.selectable_value(&mut form.action, action, name);
            }
        });
        ui.label(match form.action {
            TextureAction::Swap => {
                "Every layer painting the first texture paints the second, its alpha kept. A \
                 chunk that already has the second is left as it is."
            }
            TextureAction::Remove => {
                "The texture's layer leaves each chunk; when it is the base, the next layer \
                 covers the chunk. A chunk's only layer stays."
            }
            TextureAction::RemoveUnused => {
                "Textures no chunk of the tile paints leave its texture list."
            }
            TextureAction::Effect => {
                "Every layer painting the texture grows this ground effect (grass, pebbles, \
                 footstep sounds) where it covers most of a cell; -1 grows none."
            }
        });
        if form.action != TextureAction::RemoveUnused {
            texture_field(ui, "Texture", &mut form.from, textures);
        }
        if form.action == TextureAction::Swap {
            texture_field(ui, "Replace with", &mut form.to, textures);
        }
        if form.action == TextureAction::Effect {
            effect_field(ui, &mut form.effect, effects);
        }
        ui.horizontal(|ui| {
            ui.radio_value(&mut form.scope, TextureScope::Tile, "Tile");
            ui.add(egui::DragValue::new(&mut form.tile[0]).range(0..=63))
                .on_hover_text("X");
            ui.add(egui::DragValue::new(&mut form.tile[1]).range(0..=63))
                .on_hover_text("Y");
        });
        ui.radio_value(&mut form.scope, TextureScope::Loaded, "The loaded tiles");
        ui.radio_value(&mut form.scope, TextureScope::Map, "The whole map");
        let ready = match form.action {
            TextureAction::Swap => !form.from.trim().is_empty() && !form.to.trim().is_empty(),
            TextureAction::Remove | TextureAction::Effect => !form.from.trim().is_empty(),
            TextureAction::RemoveUnused => true,
        };
        out.extend(super::ok_cancel(
            ui,
            "Apply",
            ready,
            Intent::Textures(TexturesIntent::Apply),
            Intent::Textures(TexturesIntent::Cancel),
        ));
    });
    out
}

/// A texture path: typed, or picked from the loaded tiles' textures.
fn texture_field(ui: &mut egui::Ui, label: &str, path: &mut String, textures: &[String]) {
    ui.horizontal(|ui| {
        labelled(
            ui,
            label,
            egui::TextEdit::singleline(path).desired_width(260.0),
        );
        ui.menu_button("Pick…", |ui| {
            for t in textures {
                if ui
                    .selectable_label(t.eq_ignore_ascii_case(path), t)
                    .clicked()
                {
                    *path = t.clone();
                    ui.close();
                }
            }
        });
    });
}

/// A ground effect id: typed, or picked from the client's table.
fn effect_field(ui: &mut egui::Ui, effect: &mut i64, effects: &[(u32, String)]) {
    ui.horizontal(|ui| {
        labelled(
            ui,
            "Effect id",
            egui::DragValue::new(effect).range(-1..=i64::from(u32::MAX - 1)),
        );
        if let Some((_, name)) = effects.iter().find(|(id, _)| i64::from(*id) == *effect) {
            ui.label(name);
        }
        if !effects.is_empty() {
            ui.menu_button("Pick…", |ui| {
                egui::ScrollArea::vertical()
                    .max_height(300.0)
                    .show(ui, |ui| {
                        for (id, name) in effects {
                            if ui
                                .selectable_label(i64::from(*id) == *effect, name)
                                .clicked()
                            {
                                *effect = i64::from(*id);
                                ui.close();
                            }
                        }
                    });
            });
        }
    });
}
