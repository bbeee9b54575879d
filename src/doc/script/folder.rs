//! The scripts of a folder, for the tool bar: each `.lua` file loaded (in the sandbox, under
//! the default limits) to learn the brushes it declares, or the error that keeps it out.
//! Scripts live in `scripts/` of loam's data folder (beside the settings) and in any folder
//! the user adds.
//!
//! Not for: running strokes (`host`).

use std::path::{Path, PathBuf};

use super::host::Script;
use super::sandbox::Limits;
use super::{BrushDecl, ScriptError};

/// One script file of a folder.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptEntry {
    /// The file.
    pub path: PathBuf,
    /// The brushes it declares, or why it could not be loaded.
    pub brushes: Result<Vec<BrushDecl>, ScriptError>,
}

/// The folder of the user's scripts inside loam's data folder `data` (where the editor keeps
/// its settings and recovery files).
pub fn user_folder(data: &Path) -> PathBuf {
    data.join("scripts")
}

/// Every `.lua` file directly in `folder`, by name, not loaded; an empty list when the folder
/// cannot be read (it may not exist yet).
pub fn script_files(folder: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = read
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x.eq_ignore_ascii_case("lua")))
        .collect();
    paths.sort();
    paths
}

/// Every `.lua` file directly in `folder`, by name, with its brushes (each loaded to read
/// them); an empty list when the folder cannot be read.
pub fn list_scripts(folder: &Path) -> Vec<ScriptEntry> {
    script_files(folder)
        .into_iter()
        .map(|path| ScriptEntry {
            brushes: Script::load(&path, Limits::default()).map(|s| s.brushes()),
            path,
        })
        .collect()
}
