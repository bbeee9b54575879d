//! What the user can ask of the editor, as plain data below both the app and its panels: the
//! one intent enum every panel, menu and shortcut emits, and the tool settings those intents
//! carry, and the keyboard shortcuts that stand for them (one table). `ui` builds them and
//! `app` carries them out, so that neither imports the other.
//!
//! Not for: carrying intents out (`app`) or drawing (`ui`).

pub mod intent;
pub mod shortcuts;

pub use crate::edit::tools::{PlaceOptions, Tool, ToolSettings};
pub use intent::{
    AUTOSAVE_RANGE, ClipboardIntent, ExportIntent, ImageKind, ImagesIntent, Intent, LeftPanel,
    NewMapIntent, TexturesIntent, ViewToggles,
};
