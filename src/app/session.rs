//! The open map and what the editor knows about it: where it came from, its generation, which
//! tiles are missing and which were edited; saving and saving as another generation.
//!
//! Not for: drawing or widgets. Everything here works without a window, so tests drive it
//! directly.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::convert::{self, Report};
use crate::disk::MapKind;
use crate::disk::{self, LoamError};
use crate::format::Generation;
use crate::format::evidence::Decision;
use crate::format::v18::AlphaDepth;
use crate::model::map::TILE_PRESENT;
use crate::model::{Map, Tile, TileCoord};

/// One open map.
#[derive(Debug)]
pub struct Session {
    /// The model.
    pub map: Map,
    /// The file or folder the user opened (.wdt, .adt or a folder of tiles).
    pub source: PathBuf,
    /// The folder the map's files are in.
    pub folder: PathBuf,
    /// The generation the files are read as (decided once when the map opened).
    pub generation: Generation,
    /// How that generation was decided ("MH2O in 12 tiles"), for the status bar and title.
    pub decision: Decision,
    /// True when a whole-map save writes a WDT: the map has one, or it is a folder of tiles
    /// whose WDT is inferred (a lone ADT has none to write back).
    pub has_wdt: bool,
    /// True when the map is a folder of tiles without a WDT.
    pub wdt_inferred: bool,
    /// The file name of a lone ADT, so that saves keep it.
    pub lone_tile_file: Option<String>,
    /// Tiles the WDT lists whose files are not there.
    pub missing_tiles: Vec<TileCoord>,
    /// Tiles changed since the last save.
    pub edited: BTreeSet<TileCoord>,
    /// Tiles whose file is in the folder, loaded or not (a WDT's map streams them in).
    pub on_disk: BTreeSet<TileCoord>,
    /// Where each tile on disk is (names matched without regard to case).
    tile_files: BTreeMap<TileCoord, PathBuf>,
    /// The alpha depth the map's tiles are read with.
    pub alpha_depth: AlphaDepth,
    /// Tiles that failed to load, with the reason; they are never written.
    pub failed: BTreeMap<TileCoord, String>,
}

/// A tile read from a split map, or why it could not be read.
pub type TileRead = Result<Tile, LoamError>;

/// Reads one tile file of a split map as the map's generation.
pub fn read_split_tile(
    path: &Path,
    coord: TileCoord,
    generation: Generation,
    depth: AlphaDepth,
) -> TileRead {
    disk::read_tile_as(path, Some(coord), generation, depth)
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
    /// Opens a map as [`Session::open_as`] does, deciding its generation from the bytes.
    pub fn open(path: &Path) -> Result<Session, LoamError> {
        Session::open_as(path, None)
    }

    /// Opens a lone .adt or a 0.5.x monolithic WDT (read whole at once, the tiles are inside
    /// it), or a split map (a .wdt, or a folder of tiles without one): its header only, with the
    /// generation decided from every tile's bytes (or `from`, the user's "Read as"); the tiles
    /// are read with [`Session::load_now`] or streamed in by the app.
    pub fn open_as(path: &Path, from: Option<Generation>) -> Result<Session, LoamError> {
        let source = disk::locate(path)?;
        if matches!(source.kind, MapKind::Monolithic | MapKind::LoneTile) {
            let opened = disk::open_map_as(path, from)?;
            let depth = if opened.map.big_alpha() {
                AlphaDepth::Big
            } else {
                AlphaDepth::Nibble
            };
            return Ok(Session {
                map: opened.map,
                source: path.to_path_buf(),
                folder: opened.folder,
                generation: opened.generation,
                decision: opened.decision,
                has_wdt: opened.wdt.is_some(),
                wdt_inferred: false,
                lone_tile_file: opened.lone_tile_file,
                missing_tiles: opened.missing_tiles,
                edited: BTreeSet::new(),
                on_disk: BTreeSet::new(),
                tile_files: BTreeMap::new(),
                alpha_depth: depth,
                failed: opened.failed,
            });
        }
        if let Some(g) = from
            && g <= Generation::Alpha055
        {
            return Err(LoamError::Usage(format!(
                "{}: cannot be read as {g}: it is a split map",
                path.display()
            )));
        }
        let header = source.split_header()?;
        let (decision, evidence) = disk::open::decide_split(&source, header.as_ref(), from, true);
        let alpha_depth = disk::open::split_alpha_depth(header.as_ref(), &evidence);
        let wdt_inferred = source.kind == MapKind::Folder;
        let mut map = match header {
            Some(map) => map,
            None => disk::open::inferred_header(&source.name, &evidence),
        };
        if wdt_inferred {
            for c in source.tiles.keys() {
                map.tile_flags[c.index()] = TILE_PRESENT;
            }
        }
        Ok(Session {
            map,
            source: path.to_path_buf(),
            folder: source.folder,
            generation: decision.generation,
            decision,
            has_wdt: true,
            wdt_inferred,
            lone_tile_file: None,
            missing_tiles: source.missing,
            edited: BTreeSet::new(),
            on_disk: source.tiles.keys().copied().collect(),
            tile_files: source.tiles,
            alpha_depth,
            failed: BTreeMap::new(),
        })
    }

    /// Every tile the map has: those on disk and those in memory.
    pub fn known_tiles(&self) -> BTreeSet<TileCoord> {
        self.on_disk
            .iter()
            .chain(self.map.tiles.keys())
            .copied()
            .collect()
    }

    /// Where tile `coord` is read from.
    pub fn tile_path(&self, coord: TileCoord) -> PathBuf {
        self.tile_files.get(&coord).cloned().unwrap_or_else(|| {
            self.folder
                .join(disk::tile_file_name(&self.map.name, coord))
        })
    }

    /// Takes a freshly read tile into the map. The generation was decided when the map opened
    /// and does not change with what arrives.
    pub fn insert_tile(&mut self, tile: Tile) {
        self.failed.remove(&tile.coord);
        self.map.tiles.insert(tile.coord, tile);
    }

    /// Reads tiles now (in parallel) and takes them in; failures are kept in `failed`.
    pub fn load_now(&mut self, coords: &[TileCoord]) {
        use rayon::prelude::*;
        let wanted: Vec<TileCoord> = coords
            .iter()
            .filter(|c| self.on_disk.contains(c) && !self.map.tiles.contains_key(c))
            .copied()
            .collect();
        let (depth, generation) = (self.alpha_depth, self.generation);
        let read: Vec<(TileCoord, TileRead)> = wanted
            .par_iter()
            .map(|&c| (c, read_split_tile(&self.tile_path(c), c, generation, depth)))
            .collect();
        for (c, r) in read {
            match r {
                Ok(t) => self.insert_tile(t),
                Err(e) => {
                    self.failed.insert(c, e.to_string());
                }
            }
        }
    }

    /// Reads every tile on disk that is not in memory yet.
    pub fn load_all(&mut self) {
        let all: Vec<TileCoord> = self.on_disk.iter().copied().collect();
        self.load_now(&all);
    }

    /// Drops a tile from memory unless it has unsaved changes or cannot be read again.
    pub fn unload(&mut self, coord: TileCoord) -> bool {
        if self.edited.contains(&coord) || !self.on_disk.contains(&coord) {
            return false;
        }
        self.map.tiles.remove(&coord).is_some()
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

    /// What saving as `to` would change or drop, computed on a copy of the map (of the tiles
    /// in memory: call [`Session::load_all`] first for the whole map).
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
        let mut report = convert::prepare_map(&mut map, self.generation, to);
        if self.wdt_inferred {
            report.note(
                "map: WDT written (the source folder had none; inferred from its tiles)",
                1,
            );
        }
        let mut files = disk::encode_map(&map, to, self.has_wdt, None)?;
        self.rename_lone_tile(&mut files);
        disk::write_files(folder, &files, |_| {})?;
        // A folder of tiles now has the WDT just written; a lone tile keeps its file name.
        let source_name = if self.wdt_inferred {
            PathBuf::from(format!("{}.wdt", map.name))
        } else {
            self.source
                .file_name()
                .map(PathBuf::from)
                .unwrap_or_default()
        };
        self.map = map;
        self.generation = to;
        self.decision = Decision {
            generation: to,
            reason: format!("saved as {to}"),
            assumed: false,
        };
        self.folder = folder.to_path_buf();
        self.source = folder.join(source_name);
        self.wdt_inferred = false;
        // The tiles are now where the save put them, under their canonical names.
        self.tile_files.clear();
        self.edited.clear();
        if self.has_wdt {
            self.on_disk = self.map.tiles.keys().copied().collect();
        }
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

    #[test]
    fn every_generation_saved_as_reopens_with_its_tiles() {
        let dir = tempfile::tempdir().unwrap();
        for to in Generation::ALL {
            let mut s = sample_session(dir.path());
            let out = dir.path().join(to.label());
            s.save_as(&out, to).unwrap();
            // The sample has no liquid, so nothing in its 0.6.0 bytes proves 0.6.0: the user
            // says so, as with `--from 0.6.0`. Every other generation is told by its bytes.
            let from = (to == Generation::V060).then_some(to);
            let mut back = Session::open_as(&out.join("Sample.wdt"), from).unwrap();
            back.load_all();
            assert_eq!(back.map.tiles.len(), 4, "{to}");
            assert!(back.failed.is_empty(), "{to}: {:?}", back.failed);
            let expect = match to {
                // The 0.5.5 save is the 0.5.3 monolithic file, which reads as 0.5.3.
                Generation::Alpha055 => Generation::Alpha053,
                g => g,
            };
            assert_eq!(back.generation, expect, "{to}: {}", back.decision);
        }
    }

    #[test]
    fn unloading_keeps_edited_tiles() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = sample_session(dir.path());
        let [a, b]: [TileCoord; 2] =
            [(31, 31), (32, 32)].map(|(x, y)| TileCoord::new(x, y).unwrap());
        s.mark_edited(a);
        assert!(!s.unload(a));
        assert!(s.unload(b));
        assert!(!s.map.tiles.contains_key(&b));
        s.load_now(&[b]);
        assert!(s.map.tiles.contains_key(&b));
    }

    fn sample_session(dir: &Path) -> Session {
        crate::sample::write_sample(dir).unwrap();
        let mut s = Session::open(&dir.join("Sample.wdt")).unwrap();
        assert!(s.map.tiles.is_empty(), "a WDT opens without its tiles");
        assert_eq!(s.on_disk.len(), 4);
        s.load_all();
        s
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
        let mut back = Session::open(&dir.path().join("Sample.wdt")).unwrap();
        back.load_now(&[t]);
        assert_eq!(
            back.map.tiles[&t].chunks[0].heights[0],
            s.map.tiles[&t].chunks[0].heights[0]
        );

        assert_eq!(Session::save_targets(), Generation::ALL.to_vec());
        assert!(!s.conversion_report(Generation::V112).is_lossless());
        let out = dir.path().join("classic");
        let summary = s.save_as(&out, Generation::V112).unwrap();
        assert_eq!(summary.files, 5);
        assert_eq!(s.generation, Generation::V112);
        let mut reopened = Session::open(&out.join("Sample.wdt")).unwrap();
        reopened.load_all();
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
