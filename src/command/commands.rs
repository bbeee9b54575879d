//! The editor's commands: every request that carries no value (Save, Undo, Stitch seams, the
//! dialogs' openers…), each with its label, its tooltip and its default keys, in one table (as
//! rerun's `UICommand`). The menus label their items from it, the shortcut table takes its keys
//! from it, and a command palette or the user's own keys can list it through [`Command::ALL`].
//!
//! Requests that carry a value (a filter's text, a slider's value, a dialog's choice) are
//! not commands: they stay [`super::Intent`] variants beside their widget.
//!
//! Not for: when a key applies (`super::shortcuts`) or what a command does (the app's
//! components).

use egui::{Key, KeyboardShortcut, Modifiers};

/// A request without a value, as a menu item, a button or a key asks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    /// Ask for a map with the file dialog, then open it.
    OpenMap,
    /// Ask for a folder of tiles with the folder dialog, then open it as a map.
    OpenFolder,
    /// List the maps of the client to open one.
    OpenFromClient,
    /// Open the bundled sample map.
    OpenSample,
    /// Show the New map… dialog.
    NewMap,
    /// Write the edited tiles back in their generation.
    Save,
    /// Show the Save as… dialog.
    SaveAs,
    /// Show the Export for client… dialog.
    ExportForClient,
    /// Show the Import image… dialog.
    ImportImage,
    /// Show the Export images… dialog.
    ExportImages,
    /// Quit (asks first when there are unsaved changes).
    Quit,
    /// Undo the last edit.
    Undo,
    /// Redo the next edit.
    Redo,
    /// Give every vertex shared by loaded chunks and tiles one height, as one undo step.
    StitchSeams,
    /// Show the Textures… dialog (swap, remove, remove unused, ground effects).
    Textures,
    /// Bake the shadow maps of every loaded tile from its terrain, as one undo step.
    BakeShadows,
    /// Delete the selected objects.
    DeleteSelection,
    /// Copies of the selection in place.
    DuplicateSelection,
    /// The selection to the object clipboard.
    CopySelection,
    /// The object clipboard's objects at the cursor.
    PasteSelection,
    /// Select no object.
    ClearSelection,
    /// Stand the selected objects on the terrain under them.
    SnapSelectionToGround,
    /// Tip the selected objects so that they stand square to the slope under them.
    AlignSelectionToGround,
    /// During a transform: the objects go back.
    CancelTransform,
    /// Ask for the game client's data folder.
    PickClientData,
    /// Forget the client data folder (procedural textures only).
    ClearClientData,
    /// Ask for a listfile (one game path a line) whose names the asset browser adds.
    PickListfile,
    /// Forget the listfile.
    ClearListfile,
    /// Ask for an image to be the brush's stamp.
    PickStamp,
    /// Dismiss the message in the status bar.
    DismissMessage,
    /// Hide the notice over the view about missing models (until more go missing).
    DismissModelNotice,
    /// Open the command palette: find any command, tool or setting by name and run it.
    CommandPalette,
    /// Show Settings ▸ Keys: every action's keys, to change.
    KeySettings,
    /// Show Go to & bookmarks: fly to a typed place, save and jump to named views.
    GoTo,
    /// Copy the `.go xyz` line of the point under the cursor (or the camera) for a server.
    CopyGoXyz,
}

impl Command {
    /// Every command, in the order of the menus (then the panels' and the notices').
    pub const ALL: [Command; 35] = [
        Command::OpenMap,
        Command::OpenFromClient,
        Command::OpenFolder,
        Command::OpenSample,
        Command::NewMap,
        Command::Save,
        Command::SaveAs,
        Command::ExportForClient,
        Command::ImportImage,
        Command::ExportImages,
        Command::Quit,
        Command::Undo,
        Command::Redo,
        Command::StitchSeams,
        Command::Textures,
        Command::BakeShadows,
        Command::DeleteSelection,
        Command::DuplicateSelection,
        Command::CopySelection,
        Command::PasteSelection,
        Command::ClearSelection,
        Command::SnapSelectionToGround,
        Command::AlignSelectionToGround,
        Command::CancelTransform,
        Command::PickClientData,
        Command::ClearClientData,
        Command::PickListfile,
        Command::ClearListfile,
        Command::PickStamp,
        Command::DismissMessage,
        Command::DismissModelNotice,
        Command::CommandPalette,
        Command::KeySettings,
        Command::GoTo,
        Command::CopyGoXyz,
    ];

    /// The command's name, as its menu item says it.
    pub fn text(self) -> &'static str {
        match self {
            Command::OpenMap => "Open…",
            Command::OpenFolder => "Open folder of tiles…",
            Command::OpenFromClient => "Open from client…",
            Command::OpenSample => "Open sample map",
            Command::NewMap => "New map…",
            Command::Save => "Save",
            Command::SaveAs => "Save as…",
            Command::ExportForClient => "Export for client…",
            Command::ImportImage => "Import image…",
            Command::ExportImages => "Export images…",
            Command::Quit => "Quit",
            Command::Undo => "Undo",
            Command::Redo => "Redo",
            Command::StitchSeams => "Stitch seams",
            Command::Textures => "Textures…",
            Command::BakeShadows => "Bake shadows",
            Command::DeleteSelection => "Delete",
            Command::DuplicateSelection => "Duplicate",
            Command::CopySelection => "Copy objects",
            Command::PasteSelection => "Paste objects",
            Command::ClearSelection => "Select none",
            Command::SnapSelectionToGround => "Snap to ground",
            Command::AlignSelectionToGround => "Align to slope",
            Command::CancelTransform => "Cancel the transform",
            Command::PickClientData => "Choose client folder…",
            Command::ClearClientData => "Forget client folder",
            Command::PickListfile => "Add listfile…",
            Command::ClearListfile => "Forget listfile",
            Command::PickStamp => "Stamp file…",
            Command::DismissMessage => "Dismiss",
            Command::DismissModelNotice => "Hide the notice",
            Command::CommandPalette => "Command palette…",
            Command::KeySettings => "Keys…",
            Command::GoTo => "Go to & bookmarks…",
            Command::CopyGoXyz => "Copy .go xyz",
        }
    }

    /// What the command does, for a tooltip; `None` where its name says it all.
    pub fn tooltip(self) -> Option<&'static str> {
        Some(match self {
            Command::NewMap => "A new map of flat tiles in any generation loam writes",
            Command::ExportForClient => {
                "A patch archive (1.12, 3.3.5) or per-file archives (0.5.x) with the WDL"
            }
            Command::ImportImage => {
                "Heights, a texture's alpha or vertex colours from an image (Noggit Red's layouts)"
            }
            Command::ExportImages => {
                "Every tile's heights, alpha maps and vertex colours as PNG files"
            }
            Command::StitchSeams => {
                "Give every vertex shared by the loaded chunks and tiles one height"
            }
            Command::Textures => "Swap a texture for another, remove one, or remove unused ones",
            Command::BakeShadows => {
                "Cast every loaded chunk's shadow map from the terrain, from the sun below"
            }
            Command::AlignSelectionToGround => {
                "Tip each object square to the ground under it, keeping its turn"
            }
            Command::PickStamp => "Any grey image as the brush's shape and strength",
            Command::CommandPalette => "Find any command, tool or setting by typing its name",
            Command::KeySettings => {
                "Change the key of any command, tool, camera move or brush step"
            }
            Command::GoTo => {
                "Fly to world x y z, a tile and chunk or a pasted .go xyz line; save named views"
            }
            Command::CopyGoXyz => {
                "The servers' .go xyz command for the point under the cursor (else the camera)"
            }
            _ => return None,
        })
    }

    /// The keys that ask for the command unless the user chose others, the first shown in
    /// its menu item; a combination that holds another (Ctrl+Shift+Z holds Ctrl+Z) is tried
    /// first by the shortcut table.
    pub fn default_keys(self) -> &'static [KeyboardShortcut] {
        const fn keys(modifiers: Modifiers, key: Key) -> KeyboardShortcut {
            KeyboardShortcut::new(modifiers, key)
        }
        const UNDO: &[KeyboardShortcut] = &[keys(Modifiers::COMMAND, Key::Z)];
        const REDO: &[KeyboardShortcut] = &[
            keys(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z),
            keys(Modifiers::COMMAND, Key::Y),
        ];
        const DELETE: &[KeyboardShortcut] = &[keys(Modifiers::NONE, Key::Delete)];
        const ESCAPE: &[KeyboardShortcut] = &[keys(Modifiers::NONE, Key::Escape)];
        const DUPLICATE: &[KeyboardShortcut] = &[keys(Modifiers::COMMAND, Key::D)];
        const PALETTE: &[KeyboardShortcut] = &[
            keys(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::P),
            keys(Modifiers::NONE, Key::F1),
        ];
        const GO_TO: &[KeyboardShortcut] = &[keys(Modifiers::COMMAND, Key::G)];
        // The keys every desktop editor gives these; map makers reach for them without looking.
        const OPEN: &[KeyboardShortcut] = &[keys(Modifiers::COMMAND, Key::O)];
        const SAVE: &[KeyboardShortcut] = &[keys(Modifiers::COMMAND, Key::S)];
        const SAVE_AS: &[KeyboardShortcut] =
            &[keys(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S)];
        match self {
            Command::OpenMap => OPEN,
            Command::Save => SAVE,
            Command::SaveAs => SAVE_AS,
            Command::Undo => UNDO,
            Command::Redo => REDO,
            Command::DeleteSelection => DELETE,
            Command::CancelTransform => ESCAPE,
            Command::DuplicateSelection => DUPLICATE,
            Command::CommandPalette => PALETTE,
            Command::GoTo => GO_TO,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_is_listed_once_with_a_name_of_its_own() {
        let mut names = std::collections::BTreeSet::new();
        for (i, c) in Command::ALL.iter().enumerate() {
            assert!(!Command::ALL[..i].contains(c), "{c:?} listed twice");
            assert!(names.insert(c.text()), "{c:?} shares its name");
        }
        assert_eq!(Command::Save.text(), "Save");
        assert_eq!(
            Command::Redo.default_keys()[0],
            KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)
        );
    }
}
