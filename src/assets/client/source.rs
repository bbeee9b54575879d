//! The stack the editor reads assets through: the client (optional) with the open map's own
//! folder on top; the map folder wins.
//!
//! Not for: decoding or caching.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::{AssetError, io_err};
use super::loose::{self, LooseIndex};
use super::path::normalise;
use super::{ClientData, Origin};

/// Client data plus the map's folder. Build it with [`AssetSource::new`].
#[derive(Debug)]
pub struct AssetSource {
    /// The opened client, when one is set.
    pub client: Option<Arc<ClientData>>,
    /// The open map's folder.
    pub map_folder: Option<PathBuf>,
    /// The map folder's files by game path, most specific root first.
    map_files: Vec<LooseIndex>,
}

/// The folder that game paths are relative to when a map sits at `X/World/Maps/Name/`: `X`.
fn game_root_above(map_folder: &Path) -> Option<&Path> {
    let mut up = map_folder.ancestors().skip(1);
    let maps = up.next()?;
    let world = up.next()?;
    let root = up.next()?;
    let named = |p: &Path, n: &str| p.file_name().is_some_and(|f| f.eq_ignore_ascii_case(n));
    (named(maps, "maps") && named(world, "world")).then_some(root)
}

impl AssetSource {
    /// A source over `client` and `map_folder`. The map folder is indexed once: game paths
    /// are looked up relative to it (`Tileset\…` beside the map) and, when it sits at
    /// `…/World/Maps/Name/`, relative to the folder above `World`.
    pub fn new(client: Option<Arc<ClientData>>, map_folder: Option<PathBuf>) -> AssetSource {
        let mut map_files = Vec::new();
        if let Some(folder) = &map_folder {
            map_files.push(loose::walk(folder).loose);
            if let Some(root) = game_root_above(folder) {
                map_files.push(loose::walk(root).loose);
            }
        }
        AssetSource {
            client,
            map_folder,
            map_files,
        }
    }

    fn map_file(&self, game_path: &str) -> Option<&Path> {
        let key = normalise(game_path);
        self.map_files.iter().find_map(|i| i.get_normalised(&key))
    }

    /// The bytes of `game_path`: from the map folder when it has the file, else from the
    /// client. `Ok(None)` when neither has it.
    pub fn read(&self, game_path: &str) -> Result<Option<Vec<u8>>, AssetError> {
        if let Some(p) = self.map_file(game_path) {
            return std::fs::read(p).map(Some).map_err(io_err(p));
        }
        match &self.client {
            Some(c) => c.read(game_path),
            None => Ok(None),
        }
    }

    /// Where `game_path` would be read from.
    pub fn served_by(&self, game_path: &str) -> Option<Origin> {
        if let Some(p) = self.map_file(game_path) {
            return Some(Origin::MapFolder(p.to_path_buf()));
        }
        self.client.as_ref()?.served_by(game_path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_folder_serves_paths_relative_to_the_game_root() {
        let dir = tempfile::tempdir().unwrap();
        let map = dir.path().join("world/MAPS/Test");
        std::fs::create_dir_all(map.join("Tileset")).unwrap();
        std::fs::write(map.join("Test.wdt"), b"wdt").unwrap();
        std::fs::write(map.join("Tileset/a.blp"), b"blp").unwrap();
        let source = AssetSource::new(None, Some(map.clone()));
        assert_eq!(
            source.read("World\\Maps\\Test\\test.WDT").unwrap().unwrap(),
            b"wdt"
        );
        assert_eq!(source.read("tileset/A.blp").unwrap().unwrap(), b"blp");
        assert_eq!(source.read("nothing.blp").unwrap(), None);
        assert_eq!(
            source.served_by("Test.wdt"),
            Some(Origin::MapFolder(map.join("Test.wdt")))
        );
    }
}
