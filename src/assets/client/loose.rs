//! A case-insensitive index of the loose files under a folder, built once by one walk, so
//! that a game path finds its file on Linux whatever the case on disk.
//!
//! Not for: deciding whether the client honours loose files (`mod.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::path::{display_form, normalise};

/// Folders deeper than this are not walked (a client's deepest paths are about 8 levels).
const MAX_DEPTH: usize = 16;
/// A folder with more files than this is not a client or map folder; the walk stops there.
const MAX_FILES: usize = 500_000;

/// Loose files by normalised game path.
#[derive(Debug, Default)]
pub struct LooseIndex {
    files: HashMap<String, (String, PathBuf)>,
}

/// What one walk of a folder finds: the loose files and the `*.mpq` files (apart).
#[derive(Debug, Default)]
pub struct Walk {
    /// Every file that is not an `.mpq`.
    pub loose: LooseIndex,
    /// Every `.mpq` file, as (game path relative to the root, path on disk).
    pub archives: Vec<(String, PathBuf)>,
}

impl LooseIndex {
    /// The file on disk for `game_path`, if there is one.
    pub fn get(&self, game_path: &str) -> Option<&Path> {
        self.get_normalised(&normalise(game_path))
    }

    /// As [`get`](Self::get), for a path already [`normalise`]d.
    pub fn get_normalised(&self, key: &str) -> Option<&Path> {
        self.files.get(key).map(|(_, p)| p.as_path())
    }

    /// The game paths of all files, as spelled on disk.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.values().map(|(n, _)| n.as_str())
    }

    /// How many files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Walks `root` (symbolic links are not followed), indexing files by their path below it.
pub fn walk(root: &Path) -> Walk {
    let mut out = Walk::default();
    let mut stack = vec![(root.to_path_buf(), String::new(), 0usize)];
    let mut seen = 0usize;
    while let Some((dir, prefix, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(kind) = e.file_type() else { continue };
            let name = e.file_name().to_string_lossy().into_owned();
            let game = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}\\{name}")
            };
            if kind.is_dir() && depth < MAX_DEPTH {
                stack.push((e.path(), game, depth + 1));
            } else if kind.is_file() {
                seen += 1;
                if seen > MAX_FILES {
                    return out;
                }
                if name.to_ascii_lowercase().ends_with(".mpq") {
                    out.archives.push((game, e.path()));
                } else {
                    out.loose
                        .files
                        .insert(normalise(&game), (display_form(&game), e.path()));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_files_in_any_case_and_sets_archives_apart() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("TileSet/elwynn")).unwrap();
        std::fs::write(dir.path().join("TileSet/elwynn/Grass.BLP"), b"x").unwrap();
        std::fs::write(dir.path().join("model.MPQ"), b"y").unwrap();
        let w = walk(dir.path());
        assert_eq!(
            w.loose.get("tileset\\ELWYNN/grass.blp"),
            Some(dir.path().join("TileSet/elwynn/Grass.BLP").as_path())
        );
        assert_eq!(w.loose.len(), 1);
        assert_eq!(
            w.loose.names().collect::<Vec<_>>(),
            ["TileSet\\elwynn\\Grass.BLP"]
        );
        assert_eq!(w.archives.len(), 1);
        assert!(w.loose.get("model.MPQ").is_none());
    }
}
