//! Whole-map conversion that holds only the tiles in flight: each tile is read, made to fit the
//! target, encoded and written, then dropped, a few at a time in parallel. A 0.5.x monolithic
//! WDT is read a tile at a time from its file (never whole) and written in place: its header
//! first with MAIN empty, then each tile block appended, then MAIN's entries patched.
//!
//! Not for: what a target keeps (see `convert`) or editing (the editor's Save as works on the
//! map in memory).

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::locate::{MapKind, MapSource, locate};
use super::open::{decide_split, decode_tile_as, inferred_header, split_alpha_depth};
use super::{LoamError, Result, io_err, read_file, tile_file_name};
use crate::convert::{self, Report};
use crate::format::alpha::tile::SaveNames;
use crate::format::alpha::wdt::{self as alpha_wdt, MAIN_DATA_OFFSET, MAIN_ENTRY_BYTES};
use crate::format::evidence::Decision;
use crate::format::v18::{self, AlphaDepth, AlphaTarget};
use crate::format::{Generation, v060};
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
}

/// A monolithic tile's view of the map-wide names: the MDNM and MONM index of each of its own
/// doodad and WMO names.
type NameView = Option<(Vec<u32>, Vec<u32>)>;

/// Where each tile of the source comes from.
enum Tiles {
    /// Split tile files, read as one generation with one alpha depth.
    Split {
        files: BTreeMap<TileCoord, PathBuf>,
        generation: Generation,
        depth: AlphaDepth,
    },
    /// Tile blocks inside a monolithic WDT file, read by offset.
    Monolithic {
        file: PathBuf,
        names: MapWideNames,
        blocks: Vec<(TileCoord, usize)>,
    },
}

impl Tiles {
    /// The tiles in MAIN order (row by row), the order a monolithic WDT stores them in.
    /// Only a tile's model names (for the map-wide lists), cheaply where the source allows:
    /// a split tile's MMDX/MWMO without decoding its chunks.
    fn names(&self, coord: TileCoord, from: Generation, to: Generation) -> Result<NamesOnly> {
        match self {
            Tiles::Split { files, .. } => {
                let path = files
                    .get(&coord)
                    .ok_or_else(|| LoamError::Usage(format!("no file for tile {coord:?}")))?;
                let bytes = read_file(path)?;
                let (doodads, wmos) =
                    v18::adt::read_model_names(&bytes).map_err(|e| e.in_file(path))?;
                let mut stub = Tile::flat(coord, "", 0.0);
                stub.textures.clear();
                stub.chunks.clear();
                stub.doodad_names = doodads;
                stub.wmo_names = wmos;
                convert::rename_doodad_models(
                    &mut stub.doodad_names,
                    from,
                    to,
                    &mut Report::default(),
                );
                Ok(NamesOnly { stub, view: None })
            }
            Tiles::Monolithic { .. } => {
                let (mut tile, view) = self.read(coord)?;
                convert::rename_doodad_models(
                    &mut tile.doodad_names,
                    from,
                    to,
                    &mut Report::default(),
                );
                Ok(NamesOnly::of(&tile, view))
            }
        }
    }

    fn coords(&self) -> Vec<TileCoord> {
        let mut c: Vec<TileCoord> = match self {
            Tiles::Split { files, .. } => files.keys().copied().collect(),
            Tiles::Monolithic { blocks, .. } => blocks.iter().map(|b| b.0).collect(),
        };
        c.sort_by_key(|t| t.index());
        c
    }

    /// Reads one tile; for a monolithic source also its view of the map-wide names (which
    /// MDNM/MONM entry each of its own names was), so that a 0.5.x re-save keeps them.
    fn read(&self, coord: TileCoord) -> Result<(Tile, NameView)> {
        match self {
            Tiles::Split {
                files,
                generation,
                depth,
            } => {
                let path = files
                    .get(&coord)
                    .ok_or_else(|| LoamError::Usage(format!("no file for tile {coord:?}")))?;
                let bytes = read_file(path)?;
                let tile = decode_tile_as(&bytes, path, Some(coord), *generation, *depth)?;
                Ok((tile, None))
            }
            Tiles::Monolithic {
                file,
                names,
                blocks,
            } => {
                let at = blocks
                    .iter()
                    .find(|b| b.0 == coord)
                    .map(|b| b.1)
                    .unwrap_or_default();
                let window = read_block_window(file, at)?;
                let mut view = MapWideNames {
                    doodad_names: names.doodad_names.clone(),
                    wmo_names: names.wmo_names.clone(),
                    ..MapWideNames::default()
                };
                let tile = alpha_wdt::read_tile(&window, at, at, coord, &mut view)
                    .map_err(|e| e.in_file(file))?;
                let d = view.tile_doodad_indices.remove(&coord).unwrap_or_default();
                let w = view.tile_wmo_indices.remove(&coord).unwrap_or_default();
                Ok((tile, Some((d, w))))
            }
        }
    }
}

/// The largest tile block a monolithic file may claim; real ones are under 2 MiB. A larger
/// claim is damage, refused before allocating.
const MAX_BLOCK_BYTES: usize = 64 << 20;

/// Reads the bytes of the tile block whose MHDR is at `at` of a monolithic file: the MHDR, to
/// find MCIN, then MCIN, to find the block's end, then the block.
fn read_block_window(path: &Path, at: usize) -> Result<Vec<u8>> {
    let mut f = File::open(path).map_err(io_err(path))?;
    let len = f.metadata().map_err(io_err(path))?.len() as usize;
    let mut read_at = |pos: usize, n: usize| -> Result<Vec<u8>> {
        let n = n.min(len.saturating_sub(pos));
        let mut buf = vec![0; n];
        f.seek(SeekFrom::Start(pos as u64)).map_err(io_err(path))?;
        f.read_exact(&mut buf).map_err(io_err(path))?;
        Ok(buf)
    };
    let mhdr = read_at(at, 8 + alpha_wdt::MHDR_BYTES)?;
    let mcin_at = alpha_wdt::mcin_offset(&mhdr, at).map_err(|e| e.in_file(path))?;
    let mcin = read_at(mcin_at, 8 + 256 * 16)?;
    let end = alpha_wdt::block_end(&mcin, mcin_at)
        .map_err(|e| e.in_file(path))?
        .min(len);
    let size = end.saturating_sub(at);
    if size > MAX_BLOCK_BYTES {
        return Err(LoamError::Usage(format!(
            "{}: the tile block at byte {at} claims {size} bytes",
            path.display()
        )));
    }
    read_at(at, size)
}

/// How many bytes of a monolithic WDT to read for its header: MVER, MPHD and MAIN, and up to
/// the first tile (where MDNM, MONM and the map-wide MODF are).
fn read_monolithic_header(path: &Path, name: &str) -> Result<alpha_wdt::WdtHeader> {
    let mut f = File::open(path).map_err(io_err(path))?;
    let mut head = vec![0; MAIN_DATA_OFFSET + alpha_wdt::MAIN_BYTES];
    let n = f.read(&mut head).map_err(io_err(path))?;
    head.truncate(n);
    // MDNM and MONM sit between MAIN and the first tile (or at the end of a map without
    // embedded tiles); read up to whichever comes first of the first tile and the file's end.
    let len = f.metadata().map_err(io_err(path))?.len() as usize;
    let first_tile = (0..4096)
        .filter_map(|i| {
            let at = MAIN_DATA_OFFSET + i * MAIN_ENTRY_BYTES;
            let b = head.get(at..at + 4)?;
            let ofs = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
            (ofs > head.len()).then_some(ofs)
        })
        .min()
        .unwrap_or(len)
        .min(len);
    if first_tile > head.len() {
        let mut rest = vec![0; first_tile - head.len()];
        f.read_exact(&mut rest).map_err(io_err(path))?;
        head.extend_from_slice(&rest);
    }
    alpha_wdt::read_header(&head, name).map_err(|e| e.in_file(path).into())
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
    let source = locate(src)?;
    if source.kind == MapKind::LoneTile
        || (source.kind == MapKind::Monolithic && has_external_tiles(&source)?)
    {
        // One tile, or a 0.5.5 map with prototype ADTs beside it: small enough to do in memory.
        return convert_in_memory(src, from, to, options, dst);
    }
    let (mut header, tiles, decision) = match source.kind {
        MapKind::Monolithic => {
            let path = source.wdt.clone().unwrap_or_default();
            let h = read_monolithic_header(&path, &source.name)?;
            let generation = from.unwrap_or(Generation::Alpha053);
            if generation > Generation::Alpha055 {
                return Err(LoamError::Usage(format!(
                    "--from {generation} names a split map, but {} is a 0.5.x monolithic WDT",
                    path.display()
                )));
            }
            let decision = Decision {
                generation,
                reason: super::open::MONOLITHIC_REASON.into(),
                assumed: false,
            };
            let tiles = Tiles::Monolithic {
                file: path,
                names: h.names,
                blocks: h.tiles,
            };
            (h.map, tiles, decision)
        }
        _ => {
            if let Some(g) = from
                && g <= Generation::Alpha055
            {
                return Err(LoamError::Usage(format!(
                    "--from {g} names a monolithic map, but {} is a split map",
                    src.display()
                )));
            }
            let header = source.split_header()?;
            let (decision, evidence) = decide_split(&source, header.as_ref(), from, true);
            let depth = split_alpha_depth(header.as_ref(), &evidence);
            let mut map = header.unwrap_or_else(|| inferred_header(&source.name, &evidence));
            if source.kind == MapKind::Folder {
                for c in source.tiles.keys() {
                    map.tile_flags[c.index()] = crate::model::map::TILE_PRESENT;
                }
            }
            let tiles = Tiles::Split {
                files: source.tiles.clone(),
                generation: decision.generation,
                depth,
            };
            (map, tiles, decision)
        }
    };
    let src_gen = decision.generation;
    let coords = tiles.coords();
    let mut report = convert::prepare_header(&mut header, src_gen, to, options, coords.len());
    fs::create_dir_all(dst).map_err(io_err(dst))?;
    let total = coords.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(n, total);
    };
    // Reads a tile and makes it fit the target.
    let prepared = |c: TileCoord| -> Result<(Tile, NameView, Report)> {
        let (mut tile, view) = tiles.read(c)?;
        let r = convert::prepare_tile_with(&mut tile, src_gen, to, options);
        Ok((tile, view, r))
    };

    let mut failed = BTreeMap::new();
    let mut files = 0;
    if to <= Generation::Alpha055 {
        // Pass 1: every tile's model names, for the map-wide MDNM/MONM that precede the tiles.
        let named: Vec<(TileCoord, Result<NamesOnly>)> = coords
            .par_iter()
            .map(|&c| (c, tiles.names(c, src_gen, to)))
            .collect();
        let mut stubs = Vec::new();
        let mut kept = match &tiles {
            Tiles::Monolithic { names, .. } => Some(MapWideNames {
                doodad_names: names.doodad_names.clone(),
                wmo_names: names.wmo_names.clone(),
                ..MapWideNames::default()
            }),
            Tiles::Split { .. } => None,
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
        let wdt = dst.join(format!("{}.wdt", header.name));
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
        let results: Vec<(TileCoord, Result<Report>)> = coords
            .par_iter()
            .map(|&c| {
                let r = prepared(c).and_then(|(t, _, r)| {
                    let bytes = match to {
                        Generation::V060 => v060::write_adt(&t),
                        _ => v18::write_adt(&t, alpha),
                    };
                    drop(t);
                    let p =
                        super::write_pending(&dst.join(tile_file_name(&header.name, c)), &bytes)?;
                    flusher.send(p);
                    Ok(r)
                });
                tick();
                (c, r)
            })
            .collect();
        for (c, r) in results {
            match r {
                Ok(r) => {
                    report.merge(r);
                    files += 1;
                }
                Err(e) => {
                    failed.insert(c, e.to_string());
                }
            }
        }
        let wdt = match to {
            Generation::V060 => v060::write_wdt(&header),
            _ => v18::write_wdt(&header),
        };
        flusher.send(super::write_pending(
            &dst.join(format!("{}.wdt", header.name)),
            &wdt,
        )?);
        flusher.finish()?;
        files += 1;
    }
    let missing = source.missing.clone();
    if to <= Generation::Alpha055 {
        report.note(
            "tiles listed in MAIN but missing on disk, left out of the monolithic WDT",
            missing.len() as u64,
        );
    }
    let wdt_inferred = source.kind == MapKind::Folder;
    if wdt_inferred {
        report.note(
            "map: WDT written (the source folder had none; inferred from its tiles)",
            1,
        );
    }
    Ok(Converted {
        name: header.name.clone(),
        decision,
        files,
        report,
        missing,
        failed,
        wdt_inferred,
    })
}

/// A tile reduced to what the map-wide name lists need.
struct NamesOnly {
    stub: Tile,
    view: NameView,
}

impl NamesOnly {
    fn of(t: &Tile, view: NameView) -> NamesOnly {
        let mut stub = Tile::flat(t.coord, "", 0.0);
        stub.textures.clear();
        stub.chunks.clear();
        stub.doodad_names = t.doodad_names.clone();
        stub.wmo_names = t.wmo_names.clone();
        NamesOnly { stub, view }
    }
}

/// True when a monolithic WDT marks tiles as living in 0.5.5 prototype ADTs beside it.
fn has_external_tiles(source: &MapSource) -> Result<bool> {
    let Some(path) = &source.wdt else {
        return Ok(false);
    };
    let h = read_monolithic_header(path, &source.name)?;
    Ok(h.map.present_tiles().len() > h.tiles.len())
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
    Ok(Converted {
        name: opened.map.name.clone(),
        decision: opened.decision,
        files: files.len(),
        report,
        missing: opened.missing_tiles,
        failed: opened.failed,
        wdt_inferred: false,
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
        let file = File::create(&tmp).map_err(io_err(&tmp))?;
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
        f.write_all(bytes).map_err(io_err(&self.tmp))?;
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
        let result = (|| {
            for (c, offset, size) in &self.main {
                let at = MAIN_DATA_OFFSET + c.index() * MAIN_ENTRY_BYTES;
                f.seek(SeekFrom::Start(at as u64)).map_err(io_err(&tmp))?;
                let mut entry = [0u8; 8];
                entry[..4].copy_from_slice(&offset.to_le_bytes());
                entry[4..].copy_from_slice(&size.to_le_bytes());
                f.write_all(&entry).map_err(io_err(&tmp))?;
            }
            f.sync_all().map_err(io_err(&tmp))?;
            drop(f);
            fs::rename(&tmp, &self.path).map_err(io_err(&self.path))
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
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
