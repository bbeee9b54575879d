//! Settings ▸ Keys: every action with its keys, to change one by pressing the new key (a key
//! another action has is shown with that action before it is taken), take its keys away or
//! reset it; the default set (standard or left-handed) and a reset of everything at the top.

use egui::KeyboardShortcut;

use crate::command::keymap::{Action, Keymap, Preset, from_press};
use crate::command::{Intent, KeysIntent};

/// The window's title (and accessible name).
pub const KEYS_TITLE: &str = "Keys";
/// The accessible name of the filter field.
pub const KEYS_FILTER_LABEL: &str = "Find an action";
/// The accessible name of the button that takes a clashing key anyway.
pub const KEYS_ACCEPT_LABEL: &str = "Use it anyway";

/// The accessible name of an action's key button ("Keys for Tool: Smooth").
pub fn key_button_label(action: Action) -> String {
    format!("Keys for {}", action.name())
}

/// What the window shows.
#[derive(Debug, Clone)]
pub struct KeysView<'a> {
    /// The user's keys.
    pub keymap: &'a Keymap,
    /// The action waiting for a key press.
    pub listening: Option<Action>,
    /// A key pressed that other actions have: the action, the key and those actions.
    pub pending: Option<(Action, KeyboardShortcut, Vec<Action>)>,
}

/// Shows the window; `filter` is the text typed to find actions (kept by the app). While an
/// action is listening, the next key press (other than Esc, which cancels) becomes
/// [`KeysIntent::Pressed`].
pub fn show(ctx: &egui::Context, view: &KeysView, filter: &mut String) -> Vec<Intent> {
    let mut out = Vec::new();
    if view.listening.is_some() {
        out.extend(take_press(ctx));
    }
    let mut open = true;
    super::fixed_window(KEYS_TITLE, 520.0)
        .open(&mut open)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("Default set:");
                for p in Preset::ALL {
                    if ui.radio(view.keymap.preset == p, p.name()).clicked() {
                        out.push(Intent::Keys(KeysIntent::Preset(p)));
                    }
                }
            });
            ui.horizontal(|ui| {
                let edit = egui::TextEdit::singleline(filter).hint_text("name");
                super::super::labelled(ui, KEYS_FILTER_LABEL, edit);
                if ui
                    .add_enabled(
                        !view.keymap.custom.is_empty(),
                        egui::Button::new("Reset all"),
                    )
                    .on_hover_text("Every action takes the default set's keys again")
                    .clicked()
                {
                    out.push(Intent::Keys(KeysIntent::ResetAll));
                }
            });
            if let Some(a) = view.listening {
                ui.strong(format!("Press a key for {} (Esc: cancel)", a.name()));
            }
            if let Some((action, key, others)) = &view.pending {
                pending(ui, *action, key, others, &mut out);
            }
            for (key, actions) in view.keymap.all_conflicts() {
                let names: Vec<String> = actions.iter().map(|a| a.name()).collect();
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!(
                        "{} asks for more than one action: {}",
                        ui.ctx().format_shortcut(&key),
                        names.join(", ")
                    ),
                );
            }
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(420.0)
                .show(ui, |ui| rows(ui, view, filter, &mut out));
        });
    if !open {
        out.push(Intent::Keys(KeysIntent::Close));
    }
    out
}

/// The key shown with the actions that have it, and the two answers.
fn pending(
    ui: &mut egui::Ui,
    action: Action,
    key: &KeyboardShortcut,
    others: &[Action],
    out: &mut Vec<Intent>,
) {
    egui::Frame::group(ui.style())
        .fill(ui.visuals().faint_bg_color)
        .show(ui, |ui| {
            let names: Vec<String> = others.iter().map(|a| a.name()).collect();
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "{} is already the key of {}. Give it to {} instead?",
                    ui.ctx().format_shortcut(key),
                    names.join(", "),
                    action.name()
                ),
            );
            ui.horizontal(|ui| {
                if ui.button(KEYS_ACCEPT_LABEL).clicked() {
                    out.push(Intent::Keys(KeysIntent::Accept));
                }
                if ui.button("Cancel").clicked() {
                    out.push(Intent::Keys(KeysIntent::Cancel));
                }
            });
        });
}

/// One row per action the filter finds, under its group's heading.
fn rows(ui: &mut egui::Ui, view: &KeysView, filter: &str, out: &mut Vec<Intent>) {
    let needle = filter.trim().to_lowercase();
    let mut group = "";
    egui::Grid::new("loam-keys-grid")
        .num_columns(4)
        .striped(true)
        .show(ui, |ui| {
            for action in Action::all() {
                let name = action.name();
                if !needle.is_empty() && !name.to_lowercase().contains(&needle) {
                    continue;
                }
                if action.group() != group {
                    group = action.group();
                    ui.strong(group);
                    ui.end_row();
                }
                ui.label(&name);
                let keys = view.keymap.keys(action);
                let text = if view.listening == Some(action) {
                    "…".to_string()
                } else if keys.is_empty() {
                    "none".to_string()
                } else {
                    let shown: Vec<String> =
                        keys.iter().map(|k| ui.ctx().format_shortcut(k)).collect();
                    shown.join(", ")
                };
                let response = ui
                    .add(egui::Button::new(text).selected(view.listening == Some(action)))
                    .on_hover_text("Click, then press the new key");
                let label = key_button_label(action);
                response
                    .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
                if response.clicked() {
                    out.push(Intent::Keys(KeysIntent::Listen(action)));
                }
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(!keys.is_empty(), egui::Button::new("Clear").small())
                        .on_hover_text("No key for this action")
                        .clicked()
                    {
                        out.push(Intent::Keys(KeysIntent::Clear(action)));
                    }
                    if ui
                        .add_enabled(
                            view.keymap.is_custom(action),
                            egui::Button::new("Reset").small(),
                        )
                        .on_hover_text("The default set's keys")
                        .clicked()
                    {
                        out.push(Intent::Keys(KeysIntent::Reset(action)));
                    }
                });
                ui.end_row();
            }
        });
}

/// The first key press of this frame, taken out of the input so that no shortcut acts on it:
/// Esc cancels listening, any other key is the new key.
fn take_press(ctx: &egui::Context) -> Option<Intent> {
    ctx.input_mut(|i| {
        let at = i.events.iter().position(|e| {
            matches!(
                e,
                egui::Event::Key {
                    pressed: true,
                    repeat: false,
                    ..
                }
            )
        })?;
        let egui::Event::Key { key, modifiers, .. } = i.events.remove(at) else {
            return None;
        };
        Some(Intent::Keys(if key == egui::Key::Escape {
            KeysIntent::Cancel
        } else {
            KeysIntent::Pressed(from_press(key, modifiers))
        }))
    })
}
