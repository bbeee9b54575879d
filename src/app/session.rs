//! The open map and what the editor knows about it: where it came from, its generation, which
//! tiles are missing and which were edited; saving and saving as another generation.
//!
//! Not for: drawing or widgets. Everything here works without a window, so tests drive it
//! directly.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::convert::{self, Report};
use crate::disk::{self, LoamError};
use crate::format::Generation;
use crate::model::{Map, TileCoord};

/// One open map.
#[derive(Debug)]
pub struct Session {
    /// The model.
    pub map: Map,
    /// The file the user opened (.wdt or .adt).
    pub source: PathBuf,
    /// The folder the map's files are in.
    pub folder: PathBuf,
    /// The generation of the files.
    pub generation: Generation,
    /// True when the map came with a WDT (a lone ADT has none to write back).
    pub has_wdt: bool,
    /// The file name of a lone ADT, so that saves keep it.
    pub lone_tile_file: Option<String>,
    /// Tiles the WDT lists whose files are not there.
    pub missing_tiles: Vec<TileCoord>,
    /// Tiles changed since the last save.
    pub edited: BTreeSet<TileCoord>,
}

/// What a save wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct SaveSummary {
    /// The folder written into.
    pub folder: PathBuf,
    /// The number of files written.
    pub files: usize,
    /// What the conversion changed or dropped (empty for a same-generation save).
    pub report: Report,
}

impl Session {
    /// Opens a .wdt (with its tiles) or a lone .adt.
    pub fn open(path: &Path) -> Result<Session, LoamError> {
        let opened = disk::open_map(path)?;
        Ok(Session {
            map: opened.map,
            source: path.to_path_buf(),
            folder: opened.folder,
            generation: opened.generation,
            has_wdt: opened.wdt.is_some(),
            lone_tile_file: opened.lone_tile_file,
            missing_tiles: opened.missing_tiles,
            edited: BTreeSet::new(),
        })
    }

    /// The key under which per-map settings (the camera) are remembered.
    pub fn key(&self) -> String {
        self.source.display().to_string()
    }

    /// A short title: the map name, its generation and the file.
    pub fn title(&self) -> String {
        format!(
            "{} ({}) — {}",
            self.map.name,
            self.generation,
            self.source.display()
        )
    }

    /// Marks a tile as changed (the edit layer calls this through the app).
    pub fn mark_edited(&mut self, tile: TileCoord) {
        if self.map.tiles.contains_key(&tile) {
            self.edited.insert(tile);
        }
    }

    /// The generations Save as… can write.
    pub fn save_targets() -> Vec<Generation> {
        Generation::ALL
            .into_iter()
            .filter(|g| g.writable())
            .collect()
    }

    /// What saving as `to` would change or drop, computed on a copy of the map.
    pub fn conversion_report(&self, to: Generation) -> Report {
        let mut copy = self.map.clone();
        convert::prepare_map(&mut copy, self.generation, to)
    }

    /// Writes the edited tiles back into their folder in their own generation, atomically.
    pub fn save(&mut self) -> Result<SaveSummary, LoamError> {
        let tiles: Vec<TileCoord> = self.edited.iter().copied().collect();
        let mut files = disk::encode_map(&self.map, self.generation, false, Some(&tiles))?;
        self.rename_lone_tile(&mut files);
        disk::write_files(&self.folder, &files, |_| {})?;
        self.edited.clear();
        Ok(SaveSummary {
            folder: self.folder.clone(),
            files: files.len(),
            report: Report::new(self.generation, self.generation),
        })
    }

    /// Writes the whole map (WDT and every loaded tile) into `folder` as generation `to`; the
    /// session then continues on the written files.
    pub fn save_as(&mut self, folder: &Path, to: Generation) -> Result<SaveSummary, LoamError> {
        if !to.writable() {
            return Err(LoamError::Usage(format!(
                "loam cannot write {to} files yet"
            )));
        }
        let mut map = self.map.clone();
        let report = convert::prepare_map(&mut map, self.generation, to);
        let mut files = disk::encode_map(&map, to, self.has_wdt, None)?;
        self.rename_lone_tile(&mut files);
        disk::write_files(folder, &files, |_| {})?;
        let source_name = self
            .source
            .file_name()
            .map(PathBuf::from)
            .unwrap_or_default();
        self.map = map;
        self.generation = to;
        self.folder = folder.to_path_buf();
        self.source = folder.join(source_name);
        self.edited.clear();
        Ok(SaveSummary {
            folder: folder.to_path_buf(),
            files: files.len(),
            report,
        })
    }

    /// A lone ADT keeps the file name it was opened from.
    fn rename_lone_tile(&self, files: &mut [disk::EncodedFile]) {
        if let (Some(name), false) = (&self.lone_tile_file, self.has_wdt)
            && let [only] = files
        {
            only.name = name.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_session(dir: &Path) -> Session {
        crate::sample::write_sample(dir).unwrap();
        Session::open(&dir.join("Sample.wdt")).unwrap()
    }

    #[test]
    fn opening_the_sample_loads_its_four_tiles() {
        let dir = tempfile::tempdir().unwrap();
        let s = sample_session(dir.path());
        assert_eq!(s.map.tiles.len(), 4);
        assert_eq!(s.generation, Generation::V335);
        assert!(s.has_wdt && s.missing_tiles.is_empty() && s.edited.is_empty());
    }

    #[test]
    fn save_writes_only_edited_tiles_and_save_as_converts() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = sample_session(dir.path());
        assert_eq!(s.save().unwrap().files, 0);
        let t = *s.map.tiles.keys().next().unwrap();
        s.map.tiles.get_mut(&t).unwrap().chunks[0].heights[0] += 10.0;
        s.mark_edited(t);
        assert_eq!(s.save().unwrap().files, 1);
        assert!(s.edited.is_empty());
        let back = Session::open(&dir.path().join("Sample.wdt")).unwrap();
        assert_eq!(
            back.map.tiles[&t].chunks[0].heights[0],
            s.map.tiles[&t].chunks[0].heights[0]
        );

        assert_eq!(
            Session::save_targets(),
            vec![Generation::V112, Generation::V335]
        );
        assert!(!s.conversion_report(Generation::V112).is_lossless());
        let out = dir.path().join("classic");
        let summary = s.save_as(&out, Generation::V112).unwrap();
        assert_eq!(summary.files, 5);
        assert_eq!(s.generation, Generation::V112);
        let reopened = Session::open(&out.join("Sample.wdt")).unwrap();
        assert_eq!(reopened.generation, Generation::V112);
        assert!(
            reopened
                .map
                .tiles
                .values()
                .all(|t| t.chunks[0].vertex_colors.is_none())
        );
    }
}
