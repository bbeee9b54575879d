//! The editor's keyboard shortcuts, in one table: each key combination, the intent it stands
//! for and when it applies; the commands' keys come from the command table
//! (`command::commands`). The app turns key presses into intents from this table, and the
//! menus show their keys from it, so that a shortcut and its menu item cannot disagree.
//!
//! The object tool's keys are here too (G, R, T start a transform; X, Y, Z and Esc steer one;
//! Ctrl+D duplicates), and Ctrl+C and Ctrl+V, which egui hands over as clipboard events rather
//! than key presses, become intents in [`clipboard_intents`].
//!
//! The keys themselves are the user's (`super::keymap`): [`shortcuts_for`] builds the table
//! from a keymap, [`shortcuts`] from the default one.
//!
//! Not for: flying the camera (held keys, read each frame by `ui::viewport`).

use egui::{KeyboardShortcut, Modifiers};

use super::keymap::{Action, Keymap, ObjectKey};
use super::{Command, Intent};
use crate::edit::objects::transform::{Axis, TransformMode};

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

/// When a command's keys apply: the object tool's commands only with it (and a selection).
fn when(command: Command) -> When {
    match command {
        Command::DeleteSelection => When::ObjectsSelected,
        Command::CancelTransform => When::Transforming,
        Command::DuplicateSelection => When::ObjectTool,
        _ => When::Always,
    }
}

/// Every shortcut of the default keys (see [`shortcuts_for`]).
pub fn shortcuts() -> Vec<Shortcut> {
    shortcuts_for(&Keymap::default())
}

/// The intent a key of `action` asks for, when it is a key press (camera moves are held keys,
/// read by the view).
fn intent_of(action: Action) -> Option<(Intent, When)> {
    Some(match action {
        Action::Command(c) => (Intent::Command(c), when(c)),
        Action::Tool(t) => (Intent::SelectTool(t), When::Always),
        Action::Kind(k) => (Intent::SelectKind(k), When::Always),
        Action::Brush(b) => (Intent::AdjustBrush(b, 1.0), When::Always),
        Action::Camera(_) => return None,
        Action::Object(o) => match o {
            ObjectKey::Move => (
                Intent::TransformSelection(TransformMode::Move),
                When::ObjectsIdle,
            ),
            ObjectKey::Turn => (
                Intent::TransformSelection(TransformMode::Turn),
                When::ObjectsIdle,
            ),
            ObjectKey::Scale => (
                Intent::TransformSelection(TransformMode::Scale),
                When::ObjectsIdle,
            ),
            ObjectKey::AxisX => (Intent::TransformAxis(Axis::X), When::Transforming),
            ObjectKey::AxisY => (Intent::TransformAxis(Axis::Y), When::Transforming),
            ObjectKey::AxisZ => (Intent::TransformAxis(Axis::Z), When::Transforming),
        },
    })
}

/// Every shortcut of `keymap`, in the order they are tried: the commands', tools' and brush
/// steps' keys and the transform's, a combination that holds another (Ctrl+Shift+Z holds
/// Ctrl+Z) first, so that the longer one wins, then by key.
pub fn shortcuts_for(keymap: &Keymap) -> Vec<Shortcut> {
    let mut all: Vec<Shortcut> = Action::all()
        .into_iter()
        .filter_map(|a| intent_of(a).map(|i| (a, i)))
        .flat_map(|(a, (intent, when))| {
            keymap.keys(a).into_iter().map(move |keys| Shortcut {
                keys,
                intent: intent.clone(),
                when,
            })
        })
        .collect();
    let held = |m: Modifiers| [m.alt, m.ctrl, m.shift, m.mac_cmd, m.command].map(usize::from);
    all.sort_by_key(|s| {
        let n: usize = held(s.keys.modifiers).iter().sum();
        (std::cmp::Reverse(n), s.keys.logical_key)
    });
    all
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
        out.push(Intent::Command(Command::CopySelection));
    }
    if events.iter().any(|e| matches!(e, egui::Event::Paste(_))) {
        out.push(Intent::Command(Command::PasteSelection));
    }
    out
}

/// The first shortcut for `intent`, for its menu item: the one lookup of keys, so that a
/// shortcut and its menu item cannot disagree.
pub fn for_intent(intent: &Intent) -> Option<KeyboardShortcut> {
    for_intent_in(&Keymap::default(), intent)
}

/// The first key of `keymap` for `intent` (see [`for_intent`]): the action's first key, as the
/// user ordered them.
pub fn for_intent_in(keymap: &Keymap, intent: &Intent) -> Option<KeyboardShortcut> {
    let action = Action::all()
        .into_iter()
        .find(|&a| intent_of(a).is_some_and(|(i, _)| &i == intent));
    match action {
        Some(a) => keymap.first(a),
        None => shortcuts_for(keymap)
            .into_iter()
            .find(|s| &s.intent == intent)
            .map(|s| s.keys),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::Key;

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
            for_intent(&Intent::Command(Command::Undo)),
            Some(KeyboardShortcut::new(Modifiers::COMMAND, Key::Z))
        );
    }

    #[test]
    fn the_object_tools_transform_keys_are_the_users_too() {
        let mut keymap = Keymap::default();
        let move_it = Intent::TransformSelection(TransformMode::Move);
        let on = |keymap: &Keymap, key| {
            shortcuts_for(keymap).into_iter().any(|s| {
                s.intent == move_it && s.keys == KeyboardShortcut::new(Modifiers::NONE, key)
            })
        };
        assert!(on(&keymap, Key::G), "G moves by default");
        keymap.set(
            Action::Object(ObjectKey::Move),
            vec![KeyboardShortcut::new(Modifiers::NONE, Key::M)],
        );
        assert!(on(&keymap, Key::M) && !on(&keymap, Key::G));
    }

    #[test]
    fn the_users_keys_replace_the_defaults() {
        let mut keymap = Keymap::default();
        let stitch = Intent::Command(Command::StitchSeams);
        let k = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::ALT, Key::S);
        keymap.set(Action::Command(Command::StitchSeams), vec![k]);
        assert_eq!(for_intent_in(&keymap, &stitch), Some(k));
        assert_eq!(for_intent(&stitch), None, "no default key");
        let raise = Intent::SelectTool(crate::edit::tools::Tool::Raise);
        keymap.set(Action::Tool(crate::edit::tools::Tool::Raise), vec![]);
        assert!(!shortcuts_for(&keymap).iter().any(|s| s.intent == raise));
        assert!(shortcuts().iter().any(|s| s.intent == raise));
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
        assert!(!keys_for(idle).contains(&Intent::Command(Command::CancelTransform)));
        let transforming = State {
            transforming: true,
            ..idle
        };
        assert!(
            !keys_for(transforming).contains(&move_it),
            "G waits for the end"
        );
        assert!(keys_for(transforming).contains(&Intent::TransformAxis(Axis::Z)));
        assert!(!keys_for(transforming).contains(&Intent::Command(Command::DuplicateSelection)));
        let other_tool = State {
            object_tool: false,
            ..transforming
        };
        let (commands, others): (Vec<Intent>, Vec<Intent>) = keys_for(other_tool)
            .into_iter()
            .partition(|i| matches!(i, Intent::Command(_)));
        assert_eq!(
            commands,
            vec![
                Intent::Command(Command::CommandPalette),
                Intent::Command(Command::SaveAs),
                Intent::Command(Command::Redo),
                Intent::Command(Command::GoTo),
                Intent::Command(Command::OpenMap),
                Intent::Command(Command::Save),
                Intent::Command(Command::Redo),
                Intent::Command(Command::Undo),
                Intent::Command(Command::CommandPalette),
            ]
        );
        // Without the object tool the rest only choose tools and step the brush.
        assert!(
            others
                .iter()
                .all(|i| matches!(i, Intent::SelectTool(_) | Intent::AdjustBrush(..))),
            "{others:?}"
        );
        let copy = [egui::Event::Copy];
        assert_eq!(
            clipboard_intents(&copy, &idle),
            vec![Intent::Command(Command::CopySelection)]
        );
        assert!(clipboard_intents(&copy, &transforming).is_empty());
    }
}
