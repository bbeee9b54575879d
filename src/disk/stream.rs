//! Whole-map conversion that holds only the tiles in flight: each tile is read, made to fit the
//! target, encoded and written, then dropped, a few at a time in parallel. A 0.5.x monolithic
//! WDT is read a tile at a time from its file (never whole) and written in place: its header
//! first with MAIN empty, then each tile block appended, then MAIN's entries patched.
//!
//! Not for: what a target keeps (see `convert`) or editing (the editor's Save as works on the
//! map in memory).

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::locate::MapKind;
use super::source::{NameView, OpenedSource, TileSource, open_source};
use super::{LoamError, Result, io_err, tile_file_name};
use crate::convert::{self, Report};
use crate::format::alpha::tile::SaveNames;
use crate::format::alpha::wdt::{self as alpha_wdt, MAIN_DATA_OFFSET, MAIN_ENTRY_BYTES};
use crate::format::evidence::Decision;
use crate::format::v18::{self, AlphaTarget};
use crate::format::wdl::WdlTile;
use crate::format::{Generation, v060};
use crate::model::map::Map;
use crate::model::monolithic::MapWideNames;
use crate::model::{Tile, TileCoord};

/// What a streamed conversion did.
#[derive(Debug)]
pub struct Converted {
    /// The map's name.
    pub name: String,
    /// How the source generation was decided.
    pub decision: Decision,
    /// Files written into the target folder.
    pub files: usize,
    /// What the conversion changed or dropped.
    pub report: Report,
    /// Tiles MAIN lists whose file is missing.
    pub missing: Vec<TileCoord>,
    /// Tiles that could not be read, with the reason; they were not written.
    pub failed: BTreeMap<TileCoord, String>,
    /// True when the source had no WDT and one was written from its tiles.
    pub wdt_inferred: bool,
    /// Each written tile's WDL tile, as the target stores it (see `disk::wdl`).
    pub low_res: BTreeMap<TileCoord, WdlTile>,
}

/// Converts the map at `src` (a .wdt, a folder of tiles, or one .adt) to `to`, writing into
/// `dst`; `progress(done, total)` is called as tiles finish. Tiles that cannot be read are
/// listed, not written; every other tile is.
pub fn convert_map(
    src: &Path,
    from: Option<Generation>,
    to: Generation,
    options: &convert::Options,
    dst: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Converted> {
    if !to.writable() {
        return Err(LoamError::Usage(format!(
            "loam cannot write {to} files yet"
        )));
    }
    let Some(opened) = open_source(src, from)? else {
        // One tile, or a 0.5.5 map with prototype ADTs beside it: small enough to do in memory.
        return convert_in_memory(src, from, to, options, dst);
    };
    let OpenedSource {
        header,
        tiles,
        decision,
        source,
    } = opened;
    let target = Target {
        generation: to,
        folder: dst,
        options,
        all_or_nothing: false,
        edit: None,
    };
    let written = write_map(header, &tiles, None, decision.generation, target, progress)?;
    let mut report = written.report;
    let wdt_inferred = source.kind == MapKind::Folder;
    if to <= Generation::Alpha055 {
        report.note(
            "tiles listed in MAIN but missing on disk, left out of the monolithic WDT",
            source.missing.len() as u64,
        );
    }
    if wdt_inferred {
        report.note(
            "map: WDT written (the source folder had none; inferred from its tiles)",
            1,
        );
    }
    Ok(Converted {
        name: written.name,
        decision,
        files: written.files,
        report,
        missing: source.missing,
        failed: written.failed,
        wdt_inferred,
        low_res: written.low_res,
    })
}

/// Tiles a streamed write takes from memory instead of from the source: the editor's edited
/// tiles, with their view of the map-wide names when the map is 0.5.x.
#[derive(Clone, Copy)]
pub struct Overlay<'a> {
    /// The map in memory (its tiles and map-wide names).
    pub map: &'a Map,
    /// Which of its tiles to take.
    pub take: &'a BTreeSet<TileCoord>,
}

impl Overlay<'_> {
    /// The tile `coord` from memory, when the overlay takes it.
    fn get(&self, coord: TileCoord) -> Option<(Tile, NameView)> {
        if !self.take.contains(&coord) {
            return None;
        }
        let tile = self.map.tiles.get(&coord)?.clone();
        let view = self.map.map_wide_names.as_ref().and_then(|n| {
            Some((
                n.tile_doodad_indices.get(&coord)?.clone(),
                n.tile_wmo_indices.get(&coord)?.clone(),
            ))
        });
        Some((tile, view))
    }
}

/// What [`write_map`] wrote.
#[derive(Debug)]
pub struct Written {
    /// The map's name.
    pub name: String,
    /// Files written into the target folder.
    pub files: usize,
    /// What the conversion changed or dropped.
    pub report: Report,
    /// Tiles that could not be read, with the reason; they were not written.
    pub failed: BTreeMap<TileCoord, String>,
    /// Each written tile's WDL tile, as the target stores it (see `disk::wdl`).
    pub low_res: BTreeMap<TileCoord, WdlTile>,
}

/// Where and how [`write_map`] writes.
#[derive(Clone, Copy)]
pub struct Target<'a> {
    /// The generation to write.
    pub generation: Generation,
    /// The folder to write into.
    pub folder: &'a Path,
    /// The user's conversion choices.
    pub options: &'a convert::Options,
    /// True when a tile that cannot be read fails the whole write of a monolithic target,
    /// nothing written: a monolithic file saved over itself must not lose a tile it could not
    /// read. (A split target writes each tile file on its own and lists the failures.)
    pub all_or_nothing: bool,
    /// A change made to each tile as it is read, before it is made to fit (`loam fix`'s
    /// repairs); `None` writes the tiles as they are.
    pub edit: Option<&'a (dyn Fn(&mut Tile) + Sync)>,
}

/// Writes the map `header` with every tile of `tiles` (or of `overlay`, where it takes one)
/// into the target, a few tiles at a time: each is read, made to fit, encoded, written and
/// dropped. `from` is the generation the tiles are read as.
pub fn write_map(
    mut header: Map,
    tiles: &TileSource,
    overlay: Option<Overlay>,
    from: Generation,
    target: Target,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Written> {
    let Target {
        generation: to,
        folder: dst,
        options,
        all_or_nothing,
        edit,
    } = target;
    if !to.writable() {
        return Err(LoamError::Usage(format!(
            "loam cannot write {to} files yet"
        )));
    }
    // The tiles come from `tiles`; the header's own tiles, if any, are not written twice.
    header.tiles.clear();
    let read = |c: TileCoord| -> Result<(Tile, NameView)> {
        match overlay.and_then(|o| o.get(c)) {
            Some(t) => Ok(t),
            None => tiles.read(c),
        }
    };
    let names_of = |c: TileCoord| -> Result<NamesOnly> {
        let (mut doodads, wmos, view) = match overlay.and_then(|o| o.get(c)) {
            Some((t, view)) => (t.doodad_names, t.wmo_names, view),
            None => tiles.model_names(c)?,
        };
        convert::rename_doodad_models(&mut doodads, from, to, &mut Report::default());
        Ok(NamesOnly::new(c, doodads, wmos, view))
    };
    let src_gen = from;
    let coords = tiles.coords();
    let mut report = convert::prepare_header(&mut header, src_gen, to, options, coords.len());
    fs::create_dir_all(dst).map_err(io_err(dst))?;
    super::remove_stale_temps(dst);
    // Files the folder already has are replaced under their own spelling (`azeroth_32_48.adt`).
    let spelling = super::atomic::FolderSpelling::read(dst);
    let total = coords.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(n, total);
    };
    // Each written tile's WDL tile, sampled while the tile is in hand (it is cheap, and a
    // later WDL would otherwise read every tile again).
    let low_res = std::sync::Mutex::new(BTreeMap::new());
    // Reads a tile and makes it fit the target.
    let prepared = |c: TileCoord| -> Result<(Tile, NameView, Report)> {
        let (mut tile, view) = read(c)?;
        if let Some(edit) = edit {
            edit(&mut tile);
        }
        let r = convert::prepare_tile_with(&mut tile, src_gen, to, options);
        let sampled = super::wdl::wdl_tile(&tile, to);
        if let Ok(mut m) = low_res.lock() {
            m.insert(c, sampled);
        }
        Ok((tile, view, r))
    };

    let mut failed = BTreeMap::new();
    let mut files = 0;
    if to <= Generation::Alpha055 {
        // Pass 1: every tile's model names, for the map-wide MDNM/MONM that precede the tiles.
        let named: Vec<(TileCoord, Result<NamesOnly>)> =
            coords.par_iter().map(|&c| (c, names_of(c))).collect();
        let mut stubs = Vec::new();
        let mut kept = match tiles {
            TileSource::Monolithic { names, .. } => Some(MapWideNames {
                doodad_names: names.doodad_names.clone(),
                wmo_names: names.wmo_names.clone(),
                ..MapWideNames::default()
            }),
            TileSource::Split { .. } => None,
        };
        for (c, n) in named {
            match n {
                Ok(n) => {
                    if let (Some(k), Some((d, w))) = (&mut kept, n.view) {
                        k.tile_doodad_indices.insert(c, d);
                        k.tile_wmo_indices.insert(c, w);
                    }
                    stubs.push(n.stub);
                }
                Err(e) if all_or_nothing => return Err(e),
                Err(e) => {
                    failed.insert(c, e.to_string());
                }
            }
        }
        let (names, global_wmo) = SaveNames::build(
            kept.as_ref(),
            stubs.iter(),
            header.global_wmo.as_ref().map(|g| g.name.as_str()),
        );
        // Pass 2: the file, written in place.
        let wdt = spelling.path(&format!("{}.wdt", header.name));
        let mut out = AtomicFile::create(&wdt)?;
        out.write(&alpha_wdt::write_header(&header, &names, global_wmo))?;
        let good: Vec<TileCoord> = stubs.iter().map(|s| s.coord).collect();
        let batch = rayon::current_num_threads().max(1) * 2;
        for group in good.chunks(batch) {
            let blocks: Vec<(TileCoord, Result<(alpha_wdt::TileBlock, Report)>)> = group
                .par_iter()
                .map(|&c| {
                    let r = prepared(c).map(|(t, _, r)| (alpha_wdt::encode_tile(&t, &names), r));
                    tick();
                    (c, r)
                })
                .collect();
            for (c, b) in blocks {
                match b {
                    Ok((block, r)) => {
                        let at = out.len();
                        let block = block.placed_at(at);
                        out.write(&block.bytes)?;
                        out.patch_main(c, at as u32, block.size_to_first_mcnk);
                        report.merge(r);
                    }
                    Err(e) if all_or_nothing => return Err(e),
                    Err(e) => {
                        failed.insert(c, e.to_string());
                    }
                }
            }
        }
        out.finish()?;
        files = 1;
        if !failed.is_empty() {
            report.note(
                "tiles that could not be read, left out of the monolithic WDT",
                failed.len() as u64,
            );
        }
    } else {
        let alpha = AlphaTarget {
            big: header.big_alpha(),
        };
        let flusher = super::Flusher::start();
        let tile_path = |c: TileCoord| spelling.path(&tile_file_name(&header.name, c));
        // A tile that cannot be read is listed and left out; one that cannot be written (a
        // full disk, a read-only folder) stops the whole write, nothing renamed.
        let results: Vec<(TileCoord, std::result::Result<Result<Report>, LoamError>)> = coords
            .par_iter()
            .map(|&c| {
                let r = match prepared(c) {
                    Err(e) => Ok(Err(e)),
                    Ok((t, _, r)) => {
                        let bytes = match to {
                            Generation::V060 => v060::write_adt(&t),
                            _ => v18::write_adt(&t, alpha),
                        };
                        drop(t);
                        super::write_pending(&tile_path(c), &bytes).map(|p| {
                            flusher.send(p);
                            Ok(r)
                        })
                    }
                };
                tick();
                (c, r)
            })
            .collect();
        let wdt_path = spelling.path(&format!("{}.wdt", header.name));
        let mut unwritten = None;
        for (c, r) in results {
            match r {
                Ok(Ok(r)) => {
                    report.merge(r);
                    files += 1;
                }
                Ok(Err(e)) => {
                    failed.insert(c, e.to_string());
                }
                Err(e) => unwritten = unwritten.or(Some(e)),
            }
        }
        let wdt = match to {
            Generation::V060 => v060::write_wdt(&header),
            _ => v18::write_wdt(&header),
        };
        let wdt = match unwritten {
            Some(e) => Err(e),
            None => super::write_pending(&wdt_path, &wdt),
        };
        match wdt {
            Ok(p) => flusher.send(p),
            Err(e) => {
                flusher.abandon();
                let mut not_written: Vec<PathBuf> = coords
                    .iter()
                    .filter(|c| !failed.contains_key(c))
                    .map(|&c| tile_path(c))
                    .collect();
                not_written.push(wdt_path);
                return Err(LoamError::Save {
                    cause: Box::new(e),
                    written: Vec::new(),
                    not_written,
                });
            }
        }
        flusher.finish()?;
        files += 1;
    }
    let mut low_res = low_res.into_inner().unwrap_or_default();
    low_res.retain(|c, _| !failed.contains_key(c));
    Ok(Written {
        name: header.name.clone(),
        files,
        report,
        failed,
        low_res,
    })
}

/// A tile reduced to what the map-wide name lists need.
struct NamesOnly {
    stub: Tile,
    view: NameView,
}

impl NamesOnly {
    fn new(coord: TileCoord, doodads: Vec<String>, wmos: Vec<String>, view: NameView) -> NamesOnly {
        let mut stub = Tile::flat(coord, "", 0.0);
        stub.textures.clear();
        stub.chunks.clear();
        stub.doodad_names = doodads;
        stub.wmo_names = wmos;
        NamesOnly { stub, view }
    }
}

/// The in-memory conversion, for a lone tile and for 0.5.5 maps with prototype ADTs.
fn convert_in_memory(
    src: &Path,
    from: Option<Generation>,
    to: Generation,
    options: &convert::Options,
    dst: &Path,
) -> Result<Converted> {
    let mut opened = super::open_map_as(src, from)?;
    let mut report = convert::prepare_map_with(&mut opened.map, opened.generation, to, options);
    if to <= Generation::Alpha055 {
        report.note(
            "tiles listed in MAIN but missing on disk, left out of the monolithic WDT",
            opened.missing_tiles.len() as u64,
        );
    }
    let mut files = super::encode_map(&opened.map, to, opened.writes_wdt(), None)?;
    if let (Some(name), [only]) = (&opened.lone_tile_file, files.as_mut_slice()) {
        only.name = name.clone();
    }
    super::write_files(dst, &files, |_| {})?;
    let low_res = opened
        .map
        .tiles
        .iter()
        .map(|(c, t)| (*c, super::wdl::wdl_tile(t, to)))
        .collect();
    Ok(Converted {
        name: opened.map.name.clone(),
        decision: opened.decision,
        files: files.len(),
        report,
        missing: opened.missing_tiles,
        failed: opened.failed,
        wdt_inferred: false,
        low_res,
    })
}

/// A file written in place and renamed over its target only when complete: a temp file in the
/// target folder, MAIN entries patched at the end.
struct AtomicFile {
    tmp: PathBuf,
    path: PathBuf,
    file: Option<File>,
    len: usize,
    main: Vec<(TileCoord, u32, u32)>,
    /// Asks a thread to flush what was written so far, so that the disk works while tiles
    /// encode instead of all at the end (a gigabyte takes seconds to reach the disk).
    flush: Option<std::sync::mpsc::Sender<()>>,
    flusher: Option<std::thread::JoinHandle<()>>,
    unflushed: usize,
}

/// Bytes written between two background flushes of a monolithic file.
const FLUSH_EVERY: usize = 64 << 20;

impl AtomicFile {
    fn create(path: &Path) -> Result<AtomicFile> {
        let tmp = super::temp_path(path)?;
        // Errors name the target, the file the user knows.
        let file = File::create(&tmp).map_err(io_err(path))?;
        let (flush, asks) = std::sync::mpsc::channel::<()>();
        // Without a second handle or thread the final flush does it all; errors surface there.
        let flusher = file.try_clone().ok().and_then(|f| {
            std::thread::Builder::new()
                .name("loam-flush".into())
                .spawn(move || {
                    while asks.recv().is_ok() {
                        while asks.try_recv().is_ok() {}
                        let _ = f.sync_data();
                    }
                })
                .ok()
        });
        Ok(AtomicFile {
            tmp,
            path: path.to_path_buf(),
            file: Some(file),
            len: 0,
            main: Vec::new(),
            flush: flusher.is_some().then_some(flush),
            flusher,
            unflushed: 0,
        })
    }

    fn len(&self) -> usize {
        self.len
    }

    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        let Some(f) = self.file.as_mut() else {
            return Ok(());
        };
        f.write_all(bytes).map_err(io_err(&self.path))?;
        self.len += bytes.len();
        self.unflushed += bytes.len();
        if self.unflushed >= FLUSH_EVERY
            && let Some(tx) = &self.flush
        {
            let _ = tx.send(());
            self.unflushed = 0;
        }
        Ok(())
    }

    fn patch_main(&mut self, coord: TileCoord, offset: u32, size: u32) {
        self.main.push((coord, offset, size));
    }

    fn finish(mut self) -> Result<()> {
        self.stop_flusher();
        let Some(mut f) = self.file.take() else {
            return Ok(());
        };
        let tmp = self.tmp.clone();
        let path = self.path.clone();
        let result = (|| {
            for (c, offset, size) in &self.main {
                let at = MAIN_DATA_OFFSET + c.index() * MAIN_ENTRY_BYTES;
                f.seek(SeekFrom::Start(at as u64)).map_err(io_err(&path))?;
                let mut entry = [0u8; 8];
                entry[..4].copy_from_slice(&offset.to_le_bytes());
                entry[4..].copy_from_slice(&size.to_le_bytes());
                f.write_all(&entry).map_err(io_err(&path))?;
            }
            Ok(())
        })();
        match result {
            Ok(()) => super::atomic::finish_in_place(f, &tmp, &path),
            Err(e) => {
                drop(f);
                let _ = fs::remove_file(&tmp);
                Err(e)
            }
        }
    }
}

impl AtomicFile {
    fn stop_flusher(&mut self) {
        drop(self.flush.take());
        if let Some(h) = self.flusher.take() {
            let _ = h.join();
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        self.stop_flusher();
        // Unfinished (an error on the way): the target was never touched; drop the temp file.
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}
