//! File dialogs behind a trait, so the real app asks rfd and tests script the answers.
//!
//! Not for: deciding what to do with the chosen paths (the app does).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The questions the editor asks about files.
pub trait FileDialogs {
    /// Asks for a map to open (.wdt or .adt); `None` when cancelled.
    fn pick_map(&mut self) -> Option<PathBuf>;
    /// Asks for a folder to save into; `None` when cancelled.
    fn pick_folder(&mut self) -> Option<PathBuf>;
    /// Asks for a folder of `Name_X_Y.adt` tiles to open as a map; `None` when cancelled.
    fn pick_map_folder(&mut self) -> Option<PathBuf>;
    /// Asks for a listfile (a text file of game paths); `None` when cancelled.
    fn pick_listfile(&mut self) -> Option<PathBuf>;
    /// Asks for an image to import (PNG, TIFF); `None` when cancelled.
    fn pick_image(&mut self) -> Option<PathBuf>;
    /// Asks for a JSON file to import, `what` it holds named in the title ("a palette", the
    /// Scatter tool's export; "presets", the tool panel's); `None` when cancelled.
    fn pick_json(&mut self, what: &str) -> Option<PathBuf>;
}

/// What a dialog component needs to carry out its intents: the open document, the file
/// dialogs and the status line.
pub struct DialogCtx<'a> {
    /// The open document.
    pub doc: &'a crate::doc::Document,
    /// The file dialogs.
    pub dialogs: &'a mut dyn FileDialogs,
    /// The status line's text.
    pub message: &'a mut Option<String>,
    /// Asks for a frame (workers call it when they have something).
    pub repaint: std::sync::Arc<dyn Fn() + Send + Sync>,
    /// The tile under the cursor, which a dialog about one tile opens on.
    pub hover_tile: Option<crate::model::TileCoord>,
}

/// The native dialogs (rfd: the XDG portal on Linux).
#[derive(Debug, Default)]
pub struct RfdDialogs;

impl FileDialogs for RfdDialogs {
    fn pick_map(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title("Open a map")
            .add_filter("Map or tile", &["wdt", "WDT", "adt", "ADT"])
            .pick_file()
    }

    fn pick_folder(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title("Save into folder")
            .pick_folder()
    }

    fn pick_map_folder(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title("Open a folder of map tiles")
            .pick_folder()
    }

    fn pick_listfile(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title("Add a listfile")
            .add_filter("Listfile", &["txt", "TXT", "lst"])
            .pick_file()
    }

    fn pick_image(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title("Import an image")
            .add_filter("Image", &["png", "PNG", "tif", "tiff", "TIF", "TIFF"])
            .pick_file()
    }

    fn pick_json(&mut self, what: &str) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title(format!("Import {what}"))
            .add_filter("JSON", &["json", "JSON"])
            .pick_file()
    }
}

/// Dialogs that answer from a script, for tests: each call takes the next queued answer
/// (`None` = the user cancelled). The queue is shared so a test can add answers later.
#[derive(Debug, Clone, Default)]
pub struct ScriptedDialogs {
    /// Answers to [`FileDialogs::pick_map`], oldest first.
    pub maps: Arc<Mutex<VecDeque<Option<PathBuf>>>>,
    /// Answers to [`FileDialogs::pick_folder`], oldest first.
    pub folders: Arc<Mutex<VecDeque<Option<PathBuf>>>>,
}

impl ScriptedDialogs {
    /// Queues the answer to the next "open map" question.
    pub fn answer_map(&self, path: Option<PathBuf>) {
        if let Ok(mut q) = self.maps.lock() {
            q.push_back(path);
        }
    }

    /// Queues the answer to the next "pick folder" question.
    pub fn answer_folder(&self, path: Option<PathBuf>) {
        if let Ok(mut q) = self.folders.lock() {
            q.push_back(path);
        }
    }
}

impl FileDialogs for ScriptedDialogs {
    fn pick_map(&mut self) -> Option<PathBuf> {
        self.maps.lock().ok()?.pop_front().flatten()
    }

    fn pick_folder(&mut self) -> Option<PathBuf> {
        self.folders.lock().ok()?.pop_front().flatten()
    }

    /// Answered from the same queue as [`FileDialogs::pick_folder`].
    fn pick_map_folder(&mut self) -> Option<PathBuf> {
        self.pick_folder()
    }

    /// Answered from the same queue as [`FileDialogs::pick_map`] (both pick a file).
    fn pick_listfile(&mut self) -> Option<PathBuf> {
        self.pick_map()
    }

    /// Answered from the same queue as [`FileDialogs::pick_map`] (both pick a file).
    fn pick_image(&mut self) -> Option<PathBuf> {
        self.pick_map()
    }

    /// Answered from the same queue as [`FileDialogs::pick_map`] (both pick a file).
    fn pick_json(&mut self, _what: &str) -> Option<PathBuf> {
        self.pick_map()
    }
}
