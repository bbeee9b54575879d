//! The open map and what the editor knows about it: where it came from, its generation, which
//! tiles are missing and which were edited; saving and saving as another generation.
//!
//! Not for: drawing or widgets. Everything here works without a window, so tests drive it
//! directly.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::convert::{self, Report};
use crate::disk::{self, LoamError};
use crate::format::Generation;
use crate::format::evidence::Decision;
use crate::model::{Map, Tile, TileCoord};
use crate::pipeline;
use crate::pipeline::MapKind;
use crate::pipeline::source::{NameView, TileSource, open_source};
use crate::pipeline::stream::{Overlay, Target, Written, write_map};

/// One open map.
#[derive(Debug)]
pub struct Session {
    /// The model: the map's header and the tiles in memory.
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
    /// Tiles on disk, loaded or not, that stream in as the camera nears them.
    pub on_disk: BTreeSet<TileCoord>,
    /// Where the tiles on disk are read from, one at a time: split files, or blocks of a
    /// monolithic WDT read by offset. `None` when the whole map is in memory (a lone tile, or
    /// a 0.5.5 map with prototype ADTs beside its WDT).
    pub tiles: Option<Arc<TileSource>>,
    /// Tiles that failed to load, with the reason; they are never written.
    pub failed: BTreeMap<TileCoord, String>,
    /// Counts changes to the unsaved state (edits, saves), so that the autosave writes only
    /// when something changed since it last did.
    pub revision: u64,
    /// Edited tiles changed since the autosave last copied them: the next autosave copies
    /// only these and reuses the files of the others.
    pub changed_since_autosave: BTreeSet<TileCoord>,
}

/// Everything the Save as… report for one target needs, detached from the session so that a
/// continent's report (hundreds of tiles read from disk) can run on a thread of its own.
pub struct ReportInput {
    from: Generation,
    to: Generation,
    header: Map,
    in_memory: Vec<Tile>,
    on_disk: Vec<TileCoord>,
    tiles: Option<Arc<TileSource>>,
}

impl ReportInput {
    /// Tiles the report reads from disk.
    pub fn tiles_to_read(&self) -> usize {
        self.on_disk.len()
    }

    /// The report: every tile made to fit the target on a copy, the ones on disk read one at a
    /// time (in parallel) and dropped; `read` counts the tiles read so far, for progress.
    pub fn run(mut self, read: &std::sync::atomic::AtomicUsize) -> Report {
        use rayon::prelude::*;
        use std::sync::atomic::Ordering;
        let options = convert::Options::default();
        let total = self.in_memory.len() + self.on_disk.len();
        let mut report =
            convert::prepare_header(&mut self.header, self.from, self.to, &options, total);
        let (from, to) = (self.from, self.to);
        let per_tile: Vec<Option<Report>> = self
            .in_memory
            .into_par_iter()
            .map(Some)
            .chain(self.on_disk.par_iter().map(|c| {
                let tile = self.tiles.as_ref()?.read(*c).ok().map(|(t, _)| t);
                read.fetch_add(1, Ordering::Relaxed);
                tile
            }))
            .map(|tile| {
                let mut tile = tile?;
                Some(convert::prepare_tile_with(&mut tile, from, to, &options))
            })
            .collect();
        let unreadable = per_tile.iter().filter(|r| r.is_none()).count();
        for r in per_tile.into_iter().flatten() {
            report.merge(r);
        }
        report.note("tiles that could not be read, left out", unreadable as u64);
        report
    }
}

/// A tile read from disk with its view of a 0.5.x map's name lists, or why it could not be
/// read.
pub type TileRead = Result<(Tile, NameView), LoamError>;

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

    /// Opens a map without reading its tiles: a split map (a .wdt, or a folder of tiles
    /// without one) with its generation decided from every tile's bytes (or `from`, the
    /// user's "Read as"), or a 0.5.x monolithic WDT, of which only the header chunks are read.
    /// The tiles are read with [`Session::load_now`] or streamed in by the app. A lone .adt, or
    /// a 0.5.5 map with prototype ADTs beside its WDT, is read whole.
    pub fn open_as(path: &Path, from: Option<Generation>) -> Result<Session, LoamError> {
        let Some(opened) = open_source(path, from)? else {
            return Session::open_whole(path, from);
        };
        Ok(Session {
            map: opened.header,
            source: path.to_path_buf(),
            folder: opened.source.folder,
            generation: opened.decision.generation,
            decision: opened.decision,
            has_wdt: true,
            wdt_inferred: opened.source.kind == MapKind::Folder,
            lone_tile_file: None,
            missing_tiles: opened.source.missing,
            edited: BTreeSet::new(),
            on_disk: opened.tiles.coords().into_iter().collect(),
            tiles: Some(Arc::new(opened.tiles)),
            failed: BTreeMap::new(),
            revision: 0,
            changed_since_autosave: BTreeSet::new(),
        })
    }

    /// Opens a map read whole into memory: a lone .adt, or a 0.5.5 map with prototype ADTs.
    fn open_whole(path: &Path, from: Option<Generation>) -> Result<Session, LoamError> {
        let opened = pipeline::open_map_as(path, from)?;
        Ok(Session {
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
            tiles: None,
            failed: opened.failed,
            revision: 0,
            changed_since_autosave: BTreeSet::new(),
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

    /// The file tile `coord` is read from (for a monolithic map, the WDT holding it).
    pub fn tile_path(&self, coord: TileCoord) -> PathBuf {
        self.tiles
            .as_ref()
            .and_then(|t| t.file_of(coord).map(Path::to_path_buf))
            .unwrap_or_else(|| {
                self.folder
                    .join(disk::tile_file_name(&self.map.name, coord))
            })
    }

    /// Takes a freshly read tile into the map, with its view of a 0.5.x map's name lists. The
    /// generation was decided when the map opened and does not change with what arrives.
    pub fn insert_tile(&mut self, tile: Tile, view: NameView) {
        self.failed.remove(&tile.coord);
        pipeline::source::take_tile(&mut self.map, tile, view);
    }

    /// Reads tiles now (in parallel) and takes them in; failures are kept in `failed`. Returns
    /// how many it tried: those of `coords` on disk and not in memory.
    pub fn load_now(&mut self, coords: &[TileCoord]) -> usize {
        let Some(source) = self.tiles.clone() else {
            return 0;
        };
        let wanted: Vec<TileCoord> = coords
            .iter()
            .filter(|c| self.on_disk.contains(c) && !self.map.tiles.contains_key(c))
            .copied()
            .collect();
        let failed = pipeline::source::read_into(&mut self.map, &source, &wanted);
        for c in &wanted {
            if self.map.tiles.contains_key(c) {
                self.failed.remove(c);
            }
        }
        self.failed.extend(failed);
        wanted.len()
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
            self.changed_since_autosave.insert(tile);
            self.revision += 1;
        }
    }

    /// The generations Save as… can write.
    pub fn save_targets() -> Vec<Generation> {
        Generation::ALL
            .into_iter()
            .filter(|g| g.writable())
            .collect()
    }

    /// What saving as `to` would change or drop, for the whole map: the tiles in memory as
    /// they are, the others read from disk one at a time (in parallel) and dropped.
    pub fn conversion_report(&self, to: Generation) -> Report {
        self.report_input(to)
            .run(&std::sync::atomic::AtomicUsize::new(0))
    }

    /// What [`ReportInput::run`] needs to compute the report for `to` away from the session:
    /// the header, copies of the tiles in memory, and the source to read the others from.
    pub fn report_input(&self, to: Generation) -> ReportInput {
        let on_disk: Vec<TileCoord> = self
            .known_tiles()
            .into_iter()
            .filter(|c| !self.map.tiles.contains_key(c))
            .collect();
        ReportInput {
            from: self.generation,
            to,
            header: self.map.header_only(),
            in_memory: self.map.tiles.values().cloned().collect(),
            on_disk,
            tiles: self.tiles.clone(),
        }
    }

    /// Writes the edited tiles back in their own generation, atomically: each edited tile's
    /// file of a split map, or the whole 0.5.x WDT (its other tiles copied from the file one at
    /// a time). A WDT whose tiles cannot all be read is not saved over: Save as… writes the
    /// others elsewhere.
    pub fn save(&mut self) -> Result<SaveSummary, LoamError> {
        // Whatever happens, what is unsaved may change: the autosave looks again.
        self.revision += 1;
        if self.edited.is_empty() {
            return Ok(self.saved(0, Report::new(self.generation, self.generation)));
        }
        if let Some(source) = self.tiles.clone()
            && let TileSource::Monolithic { file, .. } = &*source
        {
            self.write_streamed(&source, &self.folder, self.generation, true)?;
            self.reread_monolithic_header(file)?;
            self.edited.clear();
            return Ok(self.saved(1, Report::new(self.generation, self.generation)));
        }
        let tiles: Vec<TileCoord> = self.edited.iter().copied().collect();
        let mut files = pipeline::encode_map(&self.map, self.generation, false, Some(&tiles))?;
        self.rename_lone_tile(&mut files);
        if let Err(e) = disk::write_files(&self.folder, &files, |_| {}) {
            // Each tile is written whole or not at all; the ones that made it are saved, the
            // others stay edited (in memory, unsaved) for the next try.
            if let LoamError::Save { written, .. } = &e {
                for c in written.iter().filter_map(|p| tile_of_file(p, &tiles)) {
                    self.edited.remove(&c);
                }
            }
            return Err(e);
        }
        self.edited.clear();
        Ok(self.saved(files.len(), Report::new(self.generation, self.generation)))
    }

    /// Writes the whole map into `folder` as `to` a tile at a time: the edited tiles from
    /// memory, every other one read from `source` (see `pipeline::stream::write_map`).
    fn write_streamed(
        &self,
        source: &TileSource,
        folder: &Path,
        to: Generation,
        all_or_nothing: bool,
    ) -> Result<Written, LoamError> {
        let target = Target {
            generation: to,
            folder,
            options: &convert::Options::default(),
            all_or_nothing,
            edit: None,
        };
        let overlay = Overlay {
            map: &self.map,
            take: &self.edited,
        };
        write_map(
            self.map.header_only(),
            source,
            Some(overlay),
            self.generation,
            target,
            &|_, _| {},
        )
    }

    fn saved(&self, files: usize, report: Report) -> SaveSummary {
        SaveSummary {
            folder: self.folder.clone(),
            files,
            report,
        }
    }

    /// After the monolithic WDT was written anew, its tile blocks are elsewhere: reads its
    /// header again so that tiles not in memory are read from their new offsets. The tiles in
    /// memory stay; their views of the name lists are dropped where the save may have
    /// re-mapped them (edited tiles are re-mapped by name on the next save).
    fn reread_monolithic_header(&mut self, file: &Path) -> Result<(), LoamError> {
        let h = pipeline::source::read_monolithic_header(file, &self.map.name)?;
        if let Some(names) = &mut self.map.map_wide_names {
            names.doodad_names = h.names.doodad_names.clone();
            names.wmo_names = h.names.wmo_names.clone();
            for c in &self.edited {
                names.tile_doodad_indices.remove(c);
                names.tile_wmo_indices.remove(c);
            }
        }
        self.tiles = Some(Arc::new(TileSource::Monolithic {
            file: file.to_path_buf(),
            names: h.names,
            blocks: h.tiles.into_iter().collect(),
        }));
        Ok(())
    }

    /// Writes the whole map (WDT and every tile) into `folder` as generation `to`; the session
    /// then continues on the written files. Tiles not in memory are read, converted and
    /// written one at a time, so a continent never has to fit in memory.
    pub fn save_as(&mut self, folder: &Path, to: Generation) -> Result<SaveSummary, LoamError> {
        let Some(source) = self.tiles.clone() else {
            return self.save_as_whole(folder, to);
        };
        let written = self.write_streamed(&source, folder, to, false)?;
        let mut report = written.report;
        if self.wdt_inferred {
            report.note(
                "map: WDT written (the source folder had none; inferred from its tiles)",
                1,
            );
        }
        if to > Generation::Alpha055 {
            report.note(
                "tiles that could not be read, not written",
                written.failed.len() as u64,
            );
        }
        // Go on on the written map, with the same tiles in memory (read back as written).
        let loaded: Vec<TileCoord> = self.map.tiles.keys().copied().collect();
        let mut next = Session::open_as(&folder.join(format!("{}.wdt", written.name)), Some(to))?;
        next.load_now(&loaded);
        next.decision = Decision {
            generation: to,
            reason: format!("saved as {to}"),
            assumed: false,
        };
        *self = next;
        Ok(self.saved(written.files, report))
    }

    /// Save as for a map held whole in memory (a lone tile, a 0.5.5 map with prototype ADTs).
    fn save_as_whole(&mut self, folder: &Path, to: Generation) -> Result<SaveSummary, LoamError> {
        let mut map = self.map.clone();
        let report = convert::prepare_map(&mut map, self.generation, to);
        let mut files = pipeline::encode_map(&map, to, self.has_wdt, None)?;
        self.rename_lone_tile(&mut files);
        disk::write_files(folder, &files, |_| {})?;
        // A lone tile keeps its file name.
        let source_name = self
            .source
            .file_name()
            .map(PathBuf::from)
            .unwrap_or_default();
        self.map = map;
        self.generation = to;
        self.decision = Decision {
            generation: to,
            reason: format!("saved as {to}"),
            assumed: false,
        };
        self.folder = folder.to_path_buf();
        self.source = folder.join(source_name);
        self.edited.clear();
        Ok(self.saved(files.len(), report))
    }

    /// A lone ADT keeps the file name it was opened from.
    fn rename_lone_tile(&self, files: &mut [pipeline::EncodedFile]) {
        if let (Some(name), false) = (&self.lone_tile_file, self.has_wdt)
            && let [only] = files
        {
            only.name = name.clone();
        }
    }
}

/// Which of `tiles` a written file holds: the tile its `Map_X_Y.adt` name says, or the only
/// one (a lone tile keeps its own file name).
fn tile_of_file(path: &Path, tiles: &[TileCoord]) -> Option<TileCoord> {
    let name = path.file_name()?.to_string_lossy();
    match (disk::parse_tile_file_name(&name), tiles) {
        (Some((_, c)), _) => Some(c),
        (None, [only]) => Some(*only),
        _ => None,
    }
}

impl Session {
    /// After Save as: writes the WDL of the map the session now works on (the written copy,
    /// read back a few tiles at a time). A lone tile has no map to have one. Returns a note
    /// for the status line.
    pub fn write_wdl_after_save_as(&self) -> String {
        if !self.has_wdt {
            return String::new();
        }
        let wdt = self.folder.join(format!("{}.wdt", self.map.name));
        match pipeline::wdl::compute(&wdt, Some(self.generation), None)
            .and_then(|low| pipeline::wdl::write_wdl(&self.folder, &low.name, &low.tiles))
        {
            Ok(_) => ", with its WDL".to_string(),
            Err(e) => format!("; the WDL was not written: {e}"),
        }
    }

    /// Takes in tiles read back from an autosave as unsaved edits; returns the changed
    /// chunks' tiles for the caller to redraw.
    pub fn take_recovered(&mut self, tiles: Vec<Tile>) -> Vec<(TileCoord, usize)> {
        let mut touched = Vec::new();
        for t in tiles {
            let c = t.coord;
            // Recovered tiles carry their own name lists; a 0.5.x save maps them by name.
            if let Some(names) = &mut self.map.map_wide_names {
                names.tile_doodad_indices.remove(&c);
                names.tile_wmo_indices.remove(&c);
            }
            self.insert_tile(t, None);
            touched.push((c, 0));
        }
        touched
    }

    /// After a save of `saved` tiles: brings the map's WDL up to date with them when the map
    /// has one (the tiles are in memory, so nothing is read again). Returns a note for the
    /// status line when that failed.
    pub fn refresh_wdl(&self, saved: &BTreeSet<TileCoord>) -> Option<String> {
        let tiles = saved.iter().filter_map(|c| self.map.tiles.get(c));
        pipeline::wdl::update_beside(&self.folder, &self.map.name, self.generation, tiles)
            .err()
            .map(|e| format!("; the WDL was not updated: {e}"))
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
