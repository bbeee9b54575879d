//! The editor's keyboard shortcuts, in one table: each key combination, the intent it stands
//! for and when it applies. The app turns key presses into intents from this table, and the
//! menus show their keys from it, so that a shortcut and its menu item cannot disagree.
//!
//! Not for: the object tool's modal keys while a move, turn or scale is under way (G, R, T,
//! X, Y, Z, Esc), which steer the transform rather than ask for something.

use egui::{Key, KeyboardShortcut, Modifiers};

use super::Intent;

/// When a shortcut applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Whenever no text field has the keyboard.
    Always,
    /// With the object tool and a selection.
    ObjectsSelected,
}

/// One shortcut.
#[derive(Debug, Clone, PartialEq)]
pub struct Shortcut {
    /// The keys.
    pub keys: KeyboardShortcut,
    /// What they ask for.
    pub intent: Intent,
    /// When they do.
    pub when: When,
}

/// Every shortcut, in the order they are tried: a combination that holds another (Ctrl+Shift+Z
/// holds Ctrl+Z) comes first, so that the longer one wins.
pub fn shortcuts() -> Vec<Shortcut> {
    let shortcut = |modifiers, key, intent, when| Shortcut {
        keys: KeyboardShortcut::new(modifiers, key),
        intent,
        when,
    };
    vec![
        shortcut(
            Modifiers::COMMAND | Modifiers::SHIFT,
            Key::Z,
            Intent::Redo,
            When::Always,
        ),
        shortcut(Modifiers::COMMAND, Key::Y, Intent::Redo, When::Always),
        shortcut(Modifiers::COMMAND, Key::Z, Intent::Undo, When::Always),
        shortcut(
            Modifiers::NONE,
            Key::Delete,
            Intent::DeleteSelection,
            When::ObjectsSelected,
        ),
    ]
}

/// The first shortcut for `intent`, for its menu item.
pub fn for_intent(intent: &Intent) -> Option<KeyboardShortcut> {
    shortcuts()
        .into_iter()
        .find(|s| &s.intent == intent)
        .map(|s| s.keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_shortcuts_share_keys_and_longer_combinations_come_first() {
        let all = shortcuts();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.keys, b.keys, "{a:?} and {b:?}");
                // A later combination holding an earlier one (same key, more modifiers) would
                // never be reached: the earlier one takes its key presses.
                let longer = b.keys.logical_key == a.keys.logical_key
                    && b.keys.modifiers.contains(a.keys.modifiers)
                    && b.keys.modifiers != a.keys.modifiers;
                assert!(!longer, "{b:?} holds {a:?} but comes later");
            }
        }
        assert_eq!(
            for_intent(&Intent::Undo),
            Some(KeyboardShortcut::new(Modifiers::COMMAND, Key::Z))
        );
    }
}
