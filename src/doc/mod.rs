//! The open document, without a window: the map session (the open map, its edited tiles,
//! streaming from disk, saves), the edit tools' strokes and the undo history, the object
//! selection, the uid allocator, the game client's data, maps copied out of the client, and
//! the one runner of scripted operations that the editor and `loam apply` share.
//!
//! Compiles without the `editor` feature and is tested without a window. Not for: drawing,
//! input or dialogs (see `app`, `ui`) or bytes on disk (see `pipeline`, `disk`).

pub mod client;
pub mod client_maps;
pub mod editing;
pub mod horizon;
pub mod light;
pub mod new_map;
pub mod runner;
pub mod script;
pub mod session;
pub mod uids;
pub mod zone;

use client::Client;
use editing::Editing;
use session::Session;

/// The open document as the editor holds it: the map (when one is open), the game client's
/// data, the edit tools' strokes with the undo history, the object selection and the uid
/// allocator.
#[derive(Default)]
pub struct Document {
    /// The open map, if any.
    pub session: Option<Session>,
    /// The game client textures and models are read from (Settings ▸ Client data, or
    /// `--client`).
    pub client: Option<Client>,
    /// Tools, the stroke under way and the undo history.
    pub editing: Editing,
    /// Selected objects by (kind, uniqueId), in the order they were picked.
    pub selection: Vec<(crate::model::ObjectKind, u32)>,
    /// Where new objects' uniqueIds come from.
    pub uids: uids::UidAllocator,
}

impl Document {
    /// The selected objects as their first listing tile records them (objects no longer in a
    /// loaded tile are left out).
    pub fn selected_objects(&self) -> Vec<crate::edit::objects::ObjectRecord> {
        let Some(s) = &self.session else {
            return Vec::new();
        };
        self.selection
            .iter()
            .filter_map(|&(kind, uid)| crate::edit::objects::find(&s.map, kind, uid))
            .collect()
    }

    /// Selects the objects with these uniqueIds (a doodad, else a WMO), those a loaded tile
    /// lists.
    pub fn select_uids(&mut self, uids: &[u32]) {
        use crate::model::ObjectKind;
        let Some(s) = &self.session else { return };
        self.selection = uids
            .iter()
            .filter_map(|&uid| {
                [ObjectKind::Doodad, ObjectKind::Wmo]
                    .into_iter()
                    .find(|&k| crate::edit::objects::find(&s.map, k, uid).is_some())
                    .map(|k| (k, uid))
            })
            .collect();
    }

    /// The opened client, when the client folder is one (not a folder of extracted files).
    pub fn client_data(&self) -> Option<std::sync::Arc<crate::assets::client::ClientData>> {
        self.client.as_ref()?.opened.as_ref().ok().cloned()
    }

    /// The bytes of game paths for the open map (its folder first) and the client; without a
    /// map, the client's alone.
    pub fn byte_source(&self) -> crate::assets::textures::ByteSource {
        // An empty path names no folder: nothing is indexed for it.
        let folder = self
            .session
            .as_ref()
            .map_or_else(std::path::PathBuf::new, |s| s.folder.clone());
        client::byte_source(self.client.as_ref(), &folder)
    }

    /// True when there are changes a save would write: edits since the saved point of the
    /// history (undoing back to it leaves nothing unsaved), or tiles marked otherwise. Edits
    /// of the client's tables mark no tile: a map holding them counts as edited.
    pub fn has_unsaved(&self) -> bool {
        let Some(s) = &self.session else {
            return false;
        };
        let history = &self.editing.history;
        let tiles = !s.edited.is_empty() && (history.is_empty() || !history.is_saved());
        // Holding the tables is no edit (a tool read them to show them); a step since the
        // saved point may be one of theirs.
        let tables = !s.map.client_tables.is_empty() && !history.is_saved();
        tiles || tables
    }
}
