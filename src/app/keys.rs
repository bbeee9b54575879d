//! Settings ▸ Keys as a component: the window's state (the action listening for a key, a
//! clashing key waiting for an answer, the filter) and the changes it makes to the user's
//! keymap in the settings.
//!
//! Not for: the keymap itself (`command::keymap`) or the window (`ui::dialogs::keys`).

use egui::KeyboardShortcut;

use super::component::Component;
use super::context::AppCtx;
use crate::command::keymap::Action;
use crate::command::{Command, Intent, KeysIntent};

/// The Keys window, when open.
#[derive(Debug, Default)]
pub struct KeySettings {
    open: bool,
    listening: Option<Action>,
    pending: Option<(Action, KeyboardShortcut)>,
    filter: String,
}

impl KeySettings {
    fn keys(&mut self, intent: KeysIntent, cx: &mut AppCtx) {
        match intent {
            KeysIntent::Listen(a) => {
                self.open = true;
                self.listening = Some(a);
                self.pending = None;
            }
            KeysIntent::Pressed(key) => {
                let Some(action) = self.listening.take() else {
                    return;
                };
                if cx.settings.input.keys.conflicts(action, key).is_empty() {
                    cx.settings.input.keys.set(action, vec![key]);
                } else {
                    self.pending = Some((action, key));
                }
            }
            KeysIntent::Accept => {
                if let Some((action, key)) = self.pending.take() {
                    cx.settings.input.keys.assign(action, key);
                }
            }
            KeysIntent::Cancel => {
                self.listening = None;
                self.pending = None;
            }
            KeysIntent::Clear(a) => cx.settings.input.keys.set(a, Vec::new()),
            KeysIntent::Reset(a) => cx.settings.input.keys.reset(a),
            KeysIntent::ResetAll => cx.settings.input.keys.reset_all(),
            KeysIntent::Preset(p) => cx.settings.input.keys.preset = p,
            KeysIntent::Close => *self = KeySettings::default(),
        }
    }
}

impl Component for KeySettings {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Command(Command::KeySettings) => self.open = true,
            Intent::Keys(k) => self.keys(k, cx),
            other => return Some(other),
        }
        None
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut AppCtx) -> Vec<Intent> {
        if !self.open {
            return Vec::new();
        }
        let pending = self
            .pending
            .map(|(a, k)| (a, k, cx.settings.input.keys.conflicts(a, k)));
        let view = crate::ui::dialogs::keys::KeysView {
            keymap: &cx.settings.input.keys,
            listening: self.listening,
            pending,
        };
        crate::ui::dialogs::keys::show(ui.ctx(), &view, &mut self.filter)
    }
}
