//! What the user can ask of the editor, as plain data below both the app and its panels: the
//! one intent enum every panel, menu and shortcut emits, the table of commands (requests
//! without a value, with their labels and keys), the tool settings intents carry, and the
//! keyboard shortcuts (one table, its keys from the commands'). `ui` builds them and `app`
//! carries them out, so that neither imports the other.
//!
//! Not for: carrying intents out (`app`) or drawing (`ui`).

pub mod commands;
pub mod intent;
pub mod keymap;
pub mod palette;
pub mod shortcuts;

pub use crate::edit::tools::{PlaceOptions, Tool, ToolSettings};
pub use commands::Command;
pub use intent::{
    AUTOSAVE_RANGE, BiomesIntent, ClipboardIntent, ExportIntent, ImageKind, ImagesIntent, Intent,
    KeysIntent, LeftPanel, NewMapIntent, OpenFromClientIntent, PlacesIntent, PresetsIntent,
    RoadIntent, SaveAsIntent, ScatterIntent, ScriptsIntent, SelectionIntent, TexturesIntent,
    ViewToggles, ZoneIntent,
};
