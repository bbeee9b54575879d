//! The user's keys: which key combinations ask for each action (every command, every tool, the
//! camera's moves and the brush's adjustments), as plain data kept with the settings. Two
//! default sets stand beside each other, the standard one (camera on W A S D Q E) and a
//! left-handed one (camera on the arrows and Page Up / Page Down: the keys a numeric keypad
//! sends with Num Lock off, so the right hand flies while the left holds the mouse); the user's
//! own choices are kept on top of the chosen set, one action at a time, so that an action the
//! user never touched follows the defaults as they change.
//!
//! The action list is derived from the command table ([`Command::ALL`]) and the tool list
//! ([`Tool::every`]: the brushes and the tools that are not brushes), so a command or tool added there
//! gets a row (and can get a key) here without a change to this file.
//!
//! Not for: when a key applies (the shortcut table beside it) or reading key presses (the app).

use std::collections::BTreeMap;

use egui::{Key, KeyboardShortcut, Modifiers};
use serde::{Deserialize, Serialize};

use super::Command;
use crate::edit::tools::{Tool, ToolKind};

/// A camera move held down on the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CameraMove {
    /// Fly forward.
    Forward,
    /// Fly back.
    Back,
    /// Slide left.
    Left,
    /// Slide right.
    Right,
    /// Rise.
    Up,
    /// Sink.
    Down,
}

impl CameraMove {
    /// Every move, in the order the Keys window lists them.
    pub const ALL: [CameraMove; 6] = [
        CameraMove::Forward,
        CameraMove::Back,
        CameraMove::Left,
        CameraMove::Right,
        CameraMove::Up,
        CameraMove::Down,
    ];

    /// The move's name in the Keys window and the palette.
    pub fn name(self) -> &'static str {
        match self {
            CameraMove::Forward => "Camera forward",
            CameraMove::Back => "Camera back",
            CameraMove::Left => "Camera left",
            CameraMove::Right => "Camera right",
            CameraMove::Up => "Camera up",
            CameraMove::Down => "Camera down",
        }
    }
}

/// A step of a brush setting, by key or by the mouse wheel with a modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BrushAdjust {
    /// A larger outer radius.
    RadiusUp,
    /// A smaller outer radius.
    RadiusDown,
    /// More strength.
    StrengthUp,
    /// Less strength.
    StrengthDown,
    /// A larger inner radius (harder edge).
    InnerUp,
    /// A smaller inner radius (softer edge).
    InnerDown,
}

impl BrushAdjust {
    /// Every adjustment, in the order the Keys window lists them.
    pub const ALL: [BrushAdjust; 6] = [
        BrushAdjust::RadiusUp,
        BrushAdjust::RadiusDown,
        BrushAdjust::StrengthUp,
        BrushAdjust::StrengthDown,
        BrushAdjust::InnerUp,
        BrushAdjust::InnerDown,
    ];

    /// The adjustment's name in the Keys window and the palette.
    pub fn name(self) -> &'static str {
        match self {
            BrushAdjust::RadiusUp => "Brush radius up",
            BrushAdjust::RadiusDown => "Brush radius down",
            BrushAdjust::StrengthUp => "Brush strength up",
            BrushAdjust::StrengthDown => "Brush strength down",
            BrushAdjust::InnerUp => "Brush inner radius up",
            BrushAdjust::InnerDown => "Brush inner radius down",
        }
    }
}

/// A key of the object tool's transforms (as Blender's: G moves, R turns, T scales, and X, Y or
/// Z during one keeps it to that axis).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectKey {
    /// Move the selection with the mouse.
    Move,
    /// Turn the selection with the mouse.
    Turn,
    /// Scale the selection with the mouse.
    Scale,
    /// During a transform: only along x.
    AxisX,
    /// During a transform: only along y.
    AxisY,
    /// During a transform: only along z.
    AxisZ,
}

impl ObjectKey {
    /// Every object key, in the order the Keys window lists them.
    pub const ALL: [ObjectKey; 6] = [
        ObjectKey::Move,
        ObjectKey::Turn,
        ObjectKey::Scale,
        ObjectKey::AxisX,
        ObjectKey::AxisY,
        ObjectKey::AxisZ,
    ];

    /// Its name in the Keys window and the palette.
    pub fn name(self) -> &'static str {
        match self {
            ObjectKey::Move => "Objects: move with the mouse",
            ObjectKey::Turn => "Objects: turn with the mouse",
            ObjectKey::Scale => "Objects: scale with the mouse",
            ObjectKey::AxisX => "Objects: keep the transform to x",
            ObjectKey::AxisY => "Objects: keep the transform to y",
            ObjectKey::AxisZ => "Objects: keep the transform to z",
        }
    }

    /// The key it has unless the user chose another (the same in both sets).
    fn default_key(self) -> Key {
        match self {
            ObjectKey::Move => Key::G,
            ObjectKey::Turn => Key::R,
            ObjectKey::Scale => Key::T,
            ObjectKey::AxisX => Key::X,
            ObjectKey::AxisY => Key::Y,
            ObjectKey::AxisZ => Key::Z,
        }
    }
}

/// Something a key can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// A command of the command table.
    Command(Command),
    /// Choose a tool.
    Tool(Tool),
    /// Choose a kind of work (its last mode).
    Kind(ToolKind),
    /// Fly the camera while the key is held.
    Camera(CameraMove),
    /// Step a brush setting.
    Brush(BrushAdjust),
    /// Start or steer a transform of the selected objects (with the object tool).
    Object(ObjectKey),
}

impl Action {
    /// Every action: the commands, the tools, the camera's moves, the brush's adjustments,
    /// the object tool's transform keys.
    pub fn all() -> Vec<Action> {
        let tools = Tool::every();
        (Command::ALL.into_iter().map(Action::Command))
            .chain(ToolKind::ALL.into_iter().map(Action::Kind))
            .chain(tools.map(Action::Tool))
            .chain(CameraMove::ALL.into_iter().map(Action::Camera))
            .chain(BrushAdjust::ALL.into_iter().map(Action::Brush))
            .chain(ObjectKey::ALL.into_iter().map(Action::Object))
            .collect()
    }

    /// The action's name as the Keys window and the palette show it.
    pub fn name(self) -> String {
        match self {
            Action::Command(c) => c.text().to_string(),
            Action::Tool(t) => format!("Tool: {} ({})", t.name(), t.kind().name()),
            Action::Kind(k) => format!("Tool: {}", k.name()),
            Action::Camera(m) => m.name().to_string(),
            Action::Brush(b) => b.name().to_string(),
            Action::Object(o) => o.name().to_string(),
        }
    }

    /// The group the Keys window lists it under.
    pub fn group(self) -> &'static str {
        match self {
            Action::Command(_) => "Commands",
            Action::Tool(_) | Action::Kind(_) => "Tools",
            Action::Camera(_) => "Camera",
            Action::Brush(_) => "Brush",
            Action::Object(_) => "Objects",
        }
    }

    /// The stable name the settings file keeps the action's keys under ("StitchSeams",
    /// "tool:Raise", "camera:Forward", "brush:RadiusUp"): the variant's name, so that
    /// reordering a table never moves a user's key to another action.
    pub fn id(self) -> String {
        match self {
            Action::Command(c) => format!("{c:?}"),
            Action::Tool(t) => format!("tool:{t:?}"),
            Action::Kind(k) => format!("kind:{k:?}"),
            Action::Camera(m) => format!("camera:{m:?}"),
            Action::Brush(b) => format!("brush:{b:?}"),
            Action::Object(o) => format!("object:{o:?}"),
        }
    }

    /// The action with this [`Action::id`], if any still has it.
    pub fn from_id(id: &str) -> Option<Action> {
        Action::all().into_iter().find(|a| a.id() == id)
    }
}

/// Which default set of keys the user's own choices sit on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Preset {
    /// The camera on W A S D (forward, left, back, right) and E Q (up, down).
    #[default]
    Standard,
    /// The camera on the arrows and Page Up / Page Down, for the right hand.
    LeftHanded,
}

impl Preset {
    /// Both sets.
    pub const ALL: [Preset; 2] = [Preset::Standard, Preset::LeftHanded];

    /// The set's name in the Keys window.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Standard => "Standard",
            Preset::LeftHanded => "Left-handed (arrows and keypad)",
        }
    }
}

const fn plain(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::NONE, key)
}

/// The keys `action` has in the default set `preset`.
pub fn default_keys(preset: Preset, action: Action) -> Vec<KeyboardShortcut> {
    match action {
        Action::Command(c) => c.default_keys().to_vec(),
        Action::Tool(t) => tool_key(t).map(plain).into_iter().collect(),
        // The number keys already choose the most used modes; a kind gets a key of the user's.
        Action::Kind(_) => Vec::new(),
        Action::Camera(m) => vec![plain(camera_key(preset, m))],
        Action::Brush(b) => vec![brush_key(b)],
        Action::Object(o) => vec![plain(o.default_key())],
    }
}

/// The number keys choose the most used tools (the same in both sets: the number row is under
/// either hand, and the keypad's digits read as the same keys).
fn tool_key(tool: Tool) -> Option<Key> {
    Some(match tool {
        Tool::Raise => Key::Num1,
        Tool::Lower => Key::Num2,
        Tool::Flatten => Key::Num3,
        Tool::Smooth => Key::Num4,
        Tool::Paint => Key::Num5,
        Tool::HoleAdd => Key::Num6,
        Tool::Shade => Key::Num7,
        Tool::Area => Key::Num8,
        Tool::LiquidAdd => Key::Num9,
        Tool::Objects => Key::Num0,
        _ => return None,
    })
}

fn camera_key(preset: Preset, m: CameraMove) -> Key {
    match (preset, m) {
        (Preset::Standard, CameraMove::Forward) => Key::W,
        (Preset::Standard, CameraMove::Back) => Key::S,
        (Preset::Standard, CameraMove::Left) => Key::A,
        (Preset::Standard, CameraMove::Right) => Key::D,
        (Preset::Standard, CameraMove::Up) => Key::E,
        (Preset::Standard, CameraMove::Down) => Key::Q,
        // A keypad with Num Lock off sends these from 8, 2, 4, 6, 9 and 3.
        (Preset::LeftHanded, CameraMove::Forward) => Key::ArrowUp,
        (Preset::LeftHanded, CameraMove::Back) => Key::ArrowDown,
        (Preset::LeftHanded, CameraMove::Left) => Key::ArrowLeft,
        (Preset::LeftHanded, CameraMove::Right) => Key::ArrowRight,
        (Preset::LeftHanded, CameraMove::Up) => Key::PageUp,
        (Preset::LeftHanded, CameraMove::Down) => Key::PageDown,
    }
}

fn brush_key(b: BrushAdjust) -> KeyboardShortcut {
    let (modifiers, key) = match b {
        BrushAdjust::RadiusUp => (Modifiers::NONE, Key::CloseBracket),
        BrushAdjust::RadiusDown => (Modifiers::NONE, Key::OpenBracket),
        BrushAdjust::StrengthUp => (Modifiers::ALT, Key::CloseBracket),
        BrushAdjust::StrengthDown => (Modifiers::ALT, Key::OpenBracket),
        BrushAdjust::InnerUp => (Modifiers::COMMAND, Key::CloseBracket),
        BrushAdjust::InnerDown => (Modifiers::COMMAND, Key::OpenBracket),
    };
    KeyboardShortcut::new(modifiers, key)
}

/// The user's keys: a default set and the actions the user gave keys of their own.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Keymap {
    /// The default set under the user's choices.
    pub preset: Preset,
    /// The user's own keys, by [`Action::id`], each as [`shortcut_text`] writes it; an empty
    /// list: the user took the action's keys away. Text, not egui's types, so that the file
    /// reads as the menus write keys and an unknown key name is skipped, not an error.
    pub custom: BTreeMap<String, Vec<String>>,
}

impl Keymap {
    /// The keys that ask for `action` now.
    pub fn keys(&self, action: Action) -> Vec<KeyboardShortcut> {
        match self.custom.get(&action.id()) {
            Some(texts) => texts.iter().filter_map(|t| parse_shortcut(t)).collect(),
            None => default_keys(self.preset, action),
        }
    }

    /// The first key of `action`, the one menus and tooltips show.
    pub fn first(&self, action: Action) -> Option<KeyboardShortcut> {
        self.keys(action).into_iter().next()
    }

    /// True when the user gave `action` keys of their own.
    pub fn is_custom(&self, action: Action) -> bool {
        self.custom.contains_key(&action.id())
    }

    /// Gives `action` these keys (the defaults again forget the user's choice).
    pub fn set(&mut self, action: Action, keys: Vec<KeyboardShortcut>) {
        if keys == default_keys(self.preset, action) {
            self.custom.remove(&action.id());
        } else {
            let texts = keys.iter().map(shortcut_text).collect();
            self.custom.insert(action.id(), texts);
        }
    }

    /// Gives `action` the single key `key`, taking it from every other action it clashes
    /// with (see [`Keymap::conflicts`]).
    pub fn assign(&mut self, action: Action, key: KeyboardShortcut) {
        for other in self.conflicts(action, key) {
            let kept = (self.keys(other).into_iter())
                .filter(|&k| !clashes(action, key, other, k))
                .collect();
            self.set(other, kept);
        }
        self.set(action, vec![key]);
    }

    /// `action` takes its default keys again.
    pub fn reset(&mut self, action: Action) {
        self.custom.remove(&action.id());
    }

    /// Every action takes its default keys again.
    pub fn reset_all(&mut self) {
        self.custom.clear();
    }

    /// The other actions that `keys` already asks for: what giving it to `action` would
    /// clash with. Camera keys are held (Shift flies faster), so a camera key clashes with
    /// that key alone or with Shift.
    pub fn conflicts(&self, action: Action, keys: KeyboardShortcut) -> Vec<Action> {
        Action::all()
            .into_iter()
            .filter(|&other| other != action)
            .filter(|&other| {
                self.keys(other)
                    .iter()
                    .any(|&k| clashes(action, keys, other, k))
            })
            .collect()
    }

    /// Every key that asks for more than one action, with those actions.
    pub fn all_conflicts(&self) -> Vec<(KeyboardShortcut, Vec<Action>)> {
        let mut out: Vec<(KeyboardShortcut, Vec<Action>)> = Vec::new();
        for action in Action::all() {
            for k in self.keys(action) {
                let others = self.conflicts(action, k);
                if !others.is_empty() && !out.iter().any(|(seen, _)| *seen == k) {
                    let mut all = vec![action];
                    all.extend(others);
                    out.push((k, all));
                }
            }
        }
        out
    }

    /// The keys each camera move is held on, in [`CameraMove::ALL`]'s order (the first key
    /// of each; `None` when the user took it away).
    pub fn camera_keys(&self) -> [Option<Key>; 6] {
        CameraMove::ALL.map(|m| self.first(Action::Camera(m)).map(|k| k.logical_key))
    }

    /// Kept for the app to hand to egui each frame, so that widgets far from the settings (a
    /// menu item's shortcut column) show the user's keys.
    pub fn publish(&self, ctx: &egui::Context) {
        ctx.data_mut(|d| d.insert_temp(egui::Id::unique(KEYMAP_ID), self.clone()));
    }

    /// The keymap the app published this frame (the defaults before it did).
    pub fn current(ctx: &egui::Context) -> Keymap {
        ctx.data(|d| d.get_temp::<Keymap>(egui::Id::unique(KEYMAP_ID)))
            .unwrap_or_default()
    }
}

const KEYMAP_ID: &str = "loam-keymap";

/// Two key combinations ask for the same press. A camera key is held with or without Shift
/// (which flies faster), so it clashes with its key alone or with Shift; a combination with
/// Ctrl or Alt is left to the commands (Ctrl+D duplicates while D flies right).
fn clashes(a: Action, ka: KeyboardShortcut, b: Action, kb: KeyboardShortcut) -> bool {
    let held = |x: Action| matches!(x, Action::Camera(_));
    let plain = |k: KeyboardShortcut| {
        let m = k.modifiers;
        !(m.alt || m.ctrl || m.command || m.mac_cmd)
    };
    match (held(a), held(b)) {
        (false, false) => ka == kb,
        (true, true) => ka.logical_key == kb.logical_key,
        (true, false) => ka.logical_key == kb.logical_key && plain(kb),
        (false, true) => ka.logical_key == kb.logical_key && plain(ka),
    }
}

/// A key combination as text, as the settings keep it and menus read it ("Ctrl+Shift+Z"; Ctrl
/// is the command key, ⌘ on a Mac).
pub fn shortcut_text(k: &KeyboardShortcut) -> String {
    let m = k.modifiers;
    let mut parts = Vec::new();
    if m.command || m.ctrl || m.mac_cmd {
        parts.push("Ctrl");
    }
    if m.alt {
        parts.push("Alt");
    }
    if m.shift {
        parts.push("Shift");
    }
    parts.push(k.logical_key.name());
    parts.join("+")
}

/// The key combination [`shortcut_text`] wrote, if the text names one.
pub fn parse_shortcut(text: &str) -> Option<KeyboardShortcut> {
    let mut parts: Vec<&str> = text.split('+').collect();
    let key = Key::from_name(parts.pop()?)?;
    let mut modifiers = Modifiers::NONE;
    for p in parts {
        modifiers |= match p {
            "Ctrl" | "Cmd" => Modifiers::COMMAND,
            "Alt" => Modifiers::ALT,
            "Shift" => Modifiers::SHIFT,
            _ => return None,
        };
    }
    Some(KeyboardShortcut::new(modifiers, key))
}

/// The combination a key press stands for, with Ctrl read as the command key (as the default
/// keys are written), so that a key pressed in the Keys window matches the one it replaces.
pub fn from_press(key: Key, modifiers: Modifiers) -> KeyboardShortcut {
    let mut m = Modifiers::NONE;
    if modifiers.command || modifiers.ctrl || modifiers.mac_cmd {
        m |= Modifiers::COMMAND;
    }
    if modifiers.alt {
        m |= Modifiers::ALT;
    }
    if modifiers.shift {
        m |= Modifiers::SHIFT;
    }
    KeyboardShortcut::new(m, key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_an_id_of_its_own_that_reads_back() {
        let all = Action::all();
        for (i, a) in all.iter().enumerate() {
            assert!(!all[..i].iter().any(|b| b.id() == a.id()), "{a:?}");
            assert_eq!(Action::from_id(&a.id()), Some(*a));
        }
        assert!(all.contains(&Action::Command(Command::StitchSeams)));
        assert!(all.contains(&Action::Tool(Tool::Objects)));
    }

    #[test]
    fn the_default_sets_have_no_clashes() {
        for preset in Preset::ALL {
            let map = Keymap {
                preset,
                ..Keymap::default()
            };
            assert_eq!(map.all_conflicts(), vec![], "{preset:?}");
        }
        let left = Keymap {
            preset: Preset::LeftHanded,
            ..Keymap::default()
        };
        assert_eq!(
            left.camera_keys()[0],
            Some(Key::ArrowUp),
            "left-handed flies on the arrows"
        );
        assert_eq!(Keymap::default().camera_keys()[0], Some(Key::W));
    }

    #[test]
    fn a_key_of_the_users_own_is_kept_as_text_and_a_clash_is_found() {
        let mut map = Keymap::default();
        let raise = Action::Tool(Tool::Raise);
        let k = KeyboardShortcut::new(Modifiers::NONE, Key::K);
        map.set(raise, vec![k]);
        assert_eq!(map.keys(raise), vec![k]);
        assert_eq!(map.custom["tool:Raise"], vec!["K".to_string()]);
        // W flies the camera: giving it to a tool clashes, even with Shift held.
        let w = KeyboardShortcut::new(Modifiers::SHIFT, Key::W);
        assert_eq!(
            map.conflicts(raise, w),
            vec![Action::Camera(CameraMove::Forward)]
        );
        let ctrl_w = KeyboardShortcut::new(Modifiers::COMMAND, Key::W);
        assert_eq!(
            map.conflicts(raise, ctrl_w),
            vec![],
            "Ctrl+W is a command's"
        );
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        assert_eq!(
            map.conflicts(raise, undo),
            vec![Action::Command(Command::Undo)]
        );
        map.assign(raise, w);
        assert_eq!(map.keys(raise), vec![w]);
        assert_eq!(map.keys(Action::Camera(CameraMove::Forward)), vec![]);
        assert_eq!(map.conflicts(raise, w), vec![]);
        map.reset_all();
        assert_eq!(map.keys(raise), vec![plain(Key::Num1)]);
        map.set(raise, vec![plain(Key::Num1)]);
        assert!(map.custom.is_empty(), "the defaults again are no choice");
    }

    #[test]
    fn shortcut_text_reads_back() {
        for k in [
            KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::P),
            KeyboardShortcut::new(Modifiers::ALT, Key::CloseBracket),
            plain(Key::F1),
            plain(Key::ArrowUp),
        ] {
            assert_eq!(parse_shortcut(&shortcut_text(&k)), Some(k), "{k:?}");
        }
        assert_eq!(
            shortcut_text(&KeyboardShortcut::new(
                Modifiers::COMMAND | Modifiers::SHIFT,
                Key::P
            )),
            "Ctrl+Shift+P"
        );
        assert_eq!(parse_shortcut("Hyper+Q"), None);
        assert_eq!(parse_shortcut("NoSuchKey"), None);
        let linux_ctrl = Modifiers {
            ctrl: true,
            command: true,
            ..Modifiers::NONE
        };
        assert_eq!(
            from_press(Key::Z, linux_ctrl),
            KeyboardShortcut::new(Modifiers::COMMAND, Key::Z)
        );
    }
}
