//! The editor's keyboard shortcuts, in one table: each key combination, the intent it stands
//! for and when it applies. The app turns key presses into intents from this table, and the
//! menus show their keys from it, so that a shortcut and its menu item cannot disagree.
//!
//! The object tool's keys are here too (G, R, T start a transform; X, Y, Z and Esc steer one;
//! Ctrl+D duplicates), and Ctrl+C and Ctrl+V, which egui hands over as clipboard events rather
//! than key presses, become intents in [`clipboard_intents`].
//!
//! Not for: flying the camera (held keys, read each frame by `ui::viewport`).

use egui::{Key, KeyboardShortcut, Modifiers};

use super::Intent;
use crate::edit::transform::{Axis, TransformMode};

/// When a shortcut applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Whenever no text field has the keyboard.
    Always,
    /// With the object tool and a selection.
    ObjectsSelected,
    /// With the object tool and a selection that is neither dragged nor transformed.
    ObjectsIdle,
    /// With the object tool, no transform under way.
    ObjectTool,
    /// While a keyboard or gizmo transform of objects is under way.
    Transforming,
}

/// What the shortcuts' conditions look at, as of this frame.
#[derive(Debug, Clone, Copy, Default)]
pub struct State {
    /// The object tool is the tool.
    pub object_tool: bool,
    /// Objects are selected.
    pub selected: bool,
    /// The selection is being dragged with the mouse.
    pub dragging: bool,
    /// A transform is under way.
    pub transforming: bool,
    /// The Copy & paste tool is the tool.
    pub terrain_clipboard: bool,
}

impl When {
    /// True when a shortcut with this condition applies in `state`.
    pub fn applies(self, state: &State) -> bool {
        let tool = state.object_tool;
        match self {
            When::Always => true,
            When::ObjectsSelected => tool && state.selected,
            When::ObjectsIdle => tool && state.selected && !state.dragging && !state.transforming,
            When::ObjectTool => tool && !state.transforming,
            When::Transforming => tool && state.transforming,
        }
    }
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
        shortcut(
            Modifiers::NONE,
            Key::Escape,
            Intent::CancelTransform,
            When::Transforming,
        ),
        shortcut(
            Modifiers::NONE,
            Key::X,
            Intent::TransformAxis(Axis::X),
            When::Transforming,
        ),
        shortcut(
            Modifiers::NONE,
            Key::Y,
            Intent::TransformAxis(Axis::Y),
            When::Transforming,
        ),
        shortcut(
            Modifiers::NONE,
            Key::Z,
            Intent::TransformAxis(Axis::Z),
            When::Transforming,
        ),
        shortcut(
            Modifiers::NONE,
            Key::G,
            Intent::TransformSelection(TransformMode::Move),
            When::ObjectsIdle,
        ),
        shortcut(
            Modifiers::NONE,
            Key::R,
            Intent::TransformSelection(TransformMode::Turn),
            When::ObjectsIdle,
        ),
        // Not S: S flies the camera back.
        shortcut(
            Modifiers::NONE,
            Key::T,
            Intent::TransformSelection(TransformMode::Scale),
            When::ObjectsIdle,
        ),
        shortcut(
            Modifiers::COMMAND,
            Key::D,
            Intent::DuplicateSelection,
            When::ObjectTool,
        ),
    ]
}

/// The intents of this frame's clipboard events (egui turns Ctrl+C and Ctrl+V into events,
/// not key presses): copy and paste the object tool's objects, when it is the tool and no
/// transform is under way.
pub fn clipboard_intents(events: &[egui::Event], state: &State) -> Vec<Intent> {
    let copy = events.iter().any(|e| matches!(e, egui::Event::Copy));
    let paste = events.iter().any(|e| matches!(e, egui::Event::Paste(_)));
    if state.terrain_clipboard {
        use super::ClipboardIntent;
        let mut out = Vec::new();
        if copy {
            out.push(Intent::Clipboard(ClipboardIntent::Copy));
        }
        if paste {
            out.push(Intent::Clipboard(ClipboardIntent::Pasting(true)));
        }
        return out;
    }
    if !When::ObjectTool.applies(state) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if events.iter().any(|e| matches!(e, egui::Event::Copy)) {
        out.push(Intent::CopySelection);
    }
    if events.iter().any(|e| matches!(e, egui::Event::Paste(_))) {
        out.push(Intent::PasteSelection);
    }
    out
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

    #[test]
    fn object_keys_apply_only_with_the_object_tool_in_their_state() {
        let keys_for = |state: State| -> Vec<Intent> {
            shortcuts()
                .into_iter()
                .filter(|s| s.when.applies(&state))
                .map(|s| s.intent)
                .collect()
        };
        let idle = State {
            object_tool: true,
            selected: true,
            ..State::default()
        };
        let move_it = Intent::TransformSelection(TransformMode::Move);
        assert!(keys_for(idle).contains(&move_it));
        assert!(!keys_for(idle).contains(&Intent::CancelTransform));
        let transforming = State {
            transforming: true,
            ..idle
        };
        assert!(
            !keys_for(transforming).contains(&move_it),
            "G waits for the end"
        );
        assert!(keys_for(transforming).contains(&Intent::TransformAxis(Axis::Z)));
        assert!(!keys_for(transforming).contains(&Intent::DuplicateSelection));
        let other_tool = State {
            object_tool: false,
            ..transforming
        };
        assert_eq!(
            keys_for(other_tool),
            vec![Intent::Redo, Intent::Redo, Intent::Undo]
        );
        let copy = [egui::Event::Copy];
        assert_eq!(clipboard_intents(&copy, &idle), vec![Intent::CopySelection]);
        assert!(clipboard_intents(&copy, &transforming).is_empty());
    }
}
