//! Whole-map conversion that holds only the tiles in flight: each tile is read, made to fit the
//! target, encoded and written, then dropped, a few at a time in parallel. A 0.5.x monolithic
//! WDT is read a tile at a time from its file (never whole) and written in place: its header
//! first with MAIN empty, then each tile block appended, then MAIN's entries patched.
//!
//! The editor saves through here too (`doc::session`): Save as writes the whole map with
//! [`write_map`], its edited tiles taken from memory (an [`Overlay`]) and every other tile
//! read from the source, and Save of a 0.5.x WDT rewrites that file the same way. Only a map
//! held whole in memory (a lone tile, a 0.5.5 map with prototype ADTs) is encoded whole.
//!
//! Not for: what a target keeps (see `convert`) or editing (see `doc::editing`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::locate::MapKind;
use super::source::{NameView, OpenedSource, TileSource, open_source};
use crate::convert::{self, Report};
use crate::disk::{LoamError, Result, StreamedFile, io_err, tile_file_name};
use crate::format::alpha::tile::SaveNames;
use crate::format::alpha::wdt::{self as alpha_wdt, MonolithicWriter, WdtSink};
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
    /// Each written tile's WDL tile, as the target stores it (see `pipeline::wdl`).
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
    /// Each written tile's WDL tile, as the target stores it (see `pipeline::wdl`).
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

/// Writes the map `header` with every tile of `tiles` (or of `overlay`, where it takes one,
/// including tiles only the overlay has) into the target, a few tiles at a time: each is read, made to fit, encoded, written and
/// dropped. `from` is the generation the tiles are read as.
pub fn write_map(
    mut header: Map,
    tiles: &TileSource,
    overlay: Option<Overlay>,
    from: Generation,
    target: Target,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Written> {
    let to = target.generation;
    super::check_writable(to)?;
    let dst = target.folder;
    // The tiles come from `tiles`; the header's own tiles, if any, are not written twice.
    header.tiles.clear();
    // The source's tiles, and any tile the overlay holds that the source has not (a tile
    // added to the map in memory).
    let mut coords = tiles.coords();
    if let Some(o) = overlay {
        let added = o.take.iter().filter(|c| o.map.tiles.contains_key(c));
        let added: Vec<TileCoord> = added.filter(|c| !coords.contains(c)).copied().collect();
        coords.extend(added);
        coords.sort_by_key(|c| c.index());
    }
    let report = convert::prepare_header(&mut header, from, to, target.options, coords.len());
    fs::create_dir_all(dst).map_err(io_err(dst))?;
    crate::disk::remove_stale_temps(dst);
    let stream = TileStream {
        tiles,
        overlay,
        from,
        target,
        // Files the folder already has are replaced under their own spelling
        // (`azeroth_32_48.adt`).
        spelling: crate::disk::atomic::FolderSpelling::read(dst),
        total: coords.len(),
        done: AtomicUsize::new(0),
        progress,
        low_res: Mutex::new(BTreeMap::new()),
    };
    let mut out = Outcome {
        files: 0,
        report,
        failed: BTreeMap::new(),
    };
    if to <= Generation::Alpha055 {
        write_monolithic(&stream, &header, &coords, &mut out)?;
    } else {
        write_split(&stream, &header, &coords, &mut out)?;
    }
    let mut low_res = stream.low_res.into_inner().unwrap_or_default();
    low_res.retain(|c, _| !out.failed.contains_key(c));
    Ok(Written {
        name: header.name.clone(),
        files: out.files,
        report: out.report,
        failed: out.failed,
        low_res,
    })
}

/// What a streamed write shares between its layouts: where tiles come from, how each is made
/// to fit, and the progress and WDL samples gathered on the way.
struct TileStream<'a> {
    tiles: &'a TileSource,
    overlay: Option<Overlay<'a>>,
    from: Generation,
    target: Target<'a>,
    spelling: crate::disk::atomic::FolderSpelling,
    total: usize,
    done: AtomicUsize,
    progress: &'a (dyn Fn(usize, usize) + Sync),
    /// Each written tile's WDL tile, sampled while the tile is in hand (it is cheap, and a
    /// later WDL would otherwise read every tile again).
    low_res: Mutex<BTreeMap<TileCoord, WdlTile>>,
}

/// What a layout's write has done so far.
struct Outcome {
    files: usize,
    report: Report,
    failed: BTreeMap<TileCoord, String>,
}

impl TileStream<'_> {
    /// Tile `c` as read, from the overlay where it takes it.
    fn read(&self, c: TileCoord) -> Result<(Tile, NameView)> {
        match self.overlay.and_then(|o| o.get(c)) {
            Some(t) => Ok(t),
            None => self.tiles.read(c),
        }
    }

    /// Tile `c`'s model names, renamed for the target.
    fn names_of(&self, c: TileCoord) -> Result<NamesOnly> {
        let (mut doodads, wmos, view) = match self.overlay.and_then(|o| o.get(c)) {
            Some((t, view)) => (t.doodad_names, t.wmo_names, view),
            None => self.tiles.model_names(c)?,
        };
        let to = self.target.generation;
        convert::rename_doodad_models(&mut doodads, self.from, to, &mut Report::default());
        Ok(NamesOnly::new(c, doodads, wmos, view))
    }

    /// Reads tile `c` and makes it fit the target.
    fn prepared(&self, c: TileCoord) -> Result<(Tile, NameView, Report)> {
        let (mut tile, view) = self.read(c)?;
        if let Some(edit) = self.target.edit {
            edit(&mut tile);
        }
        let to = self.target.generation;
        let r = convert::prepare_tile_with(&mut tile, self.from, to, self.target.options);
        let sampled = super::wdl::wdl_tile(&tile, to);
        if let Ok(mut m) = self.low_res.lock() {
            m.insert(c, sampled);
        }
        Ok((tile, view, r))
    }

    /// Counts one more tile done.
    fn tick(&self) {
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        (self.progress)(n, self.total);
    }
}

/// The 0.5.x monolithic WDT, written in place: the map-wide names first (from every tile's
/// names), then each tile block appended, then MAIN patched.
fn write_monolithic(
    stream: &TileStream,
    header: &Map,
    coords: &[TileCoord],
    out: &mut Outcome,
) -> Result<()> {
    let all_or_nothing = stream.target.all_or_nothing;
    // Pass 1: every tile's model names, for the map-wide MDNM/MONM that precede the tiles.
    let named: Vec<(TileCoord, Result<NamesOnly>)> = coords
        .par_iter()
        .map(|&c| (c, stream.names_of(c)))
        .collect();
    let mut stubs = Vec::new();
    let mut kept = match stream.tiles {
        TileSource::Monolithic { names, .. } => Some(MapWideNames {
            doodad_names: names.doodad_names.clone(),
            wmo_names: names.wmo_names.clone(),
            ..MapWideNames::default()
        }),
        TileSource::Split { .. } | TileSource::Blank { .. } => None,
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
                out.failed.insert(c, e.to_string());
            }
        }
    }
    let (names, global_wmo) = SaveNames::build(
        kept.as_ref(),
        stubs.iter(),
        header.global_wmo.as_ref().map(|g| g.name.as_str()),
    );
    // Pass 2: the file, written in place.
    let wdt = stream.spelling.path(&format!("{}.wdt", header.name));
    let file = StreamedFile::create(&wdt)?;
    let mut writer = MonolithicWriter::begin(file, header, &names, global_wmo)?;
    let good: Vec<TileCoord> = stubs.iter().map(|s| s.coord).collect();
    let batch = rayon::current_num_threads().max(1) * 2;
    for group in good.chunks(batch) {
        let blocks: Vec<(TileCoord, Result<(alpha_wdt::TileBlock, Report)>)> = group
            .par_iter()
            .map(|&c| {
                let r = stream
                    .prepared(c)
                    .map(|(t, _, r)| (alpha_wdt::encode_tile(&t, &names), r));
                stream.tick();
                (c, r)
            })
            .collect();
        for (c, b) in blocks {
            match b {
                Ok((block, r)) => {
                    writer.add_tile(c, block)?;
                    out.report.merge(r);
                }
                Err(e) if all_or_nothing => return Err(e),
                Err(e) => {
                    out.failed.insert(c, e.to_string());
                }
            }
        }
    }
    writer.finish().finish()?;
    out.files = 1;
    if !out.failed.is_empty() {
        out.report.note(
            "tiles that could not be read, left out of the monolithic WDT",
            out.failed.len() as u64,
        );
    }
    Ok(())
}

/// A split map: every tile file written beside its siblings in parallel, then the WDT; all
/// renamed into place only once every file is written.
fn write_split(
    stream: &TileStream,
    header: &Map,
    coords: &[TileCoord],
    out: &mut Outcome,
) -> Result<()> {
    let to = stream.target.generation;
    let alpha = AlphaTarget {
        big: header.big_alpha(),
    };
    let flusher = crate::disk::Flusher::start();
    let tile_path = |c: TileCoord| stream.spelling.path(&tile_file_name(&header.name, c));
    // A tile that cannot be read is listed and left out; one that cannot be written (a
    // full disk, a read-only folder) stops the whole write, nothing renamed.
    let results: Vec<(TileCoord, std::result::Result<Result<Report>, LoamError>)> = coords
        .par_iter()
        .map(|&c| {
            let r = match stream.prepared(c) {
                Err(e) => Ok(Err(e)),
                Ok((t, _, r)) => {
                    let bytes = match to {
                        Generation::V060 => v060::write_adt(&t),
                        _ => v18::write_adt(&t, alpha),
                    };
                    drop(t);
                    crate::disk::write_pending(&tile_path(c), &bytes).map(|p| {
                        flusher.send(p);
                        Ok(r)
                    })
                }
            };
            stream.tick();
            (c, r)
        })
        .collect();
    let wdt_path = stream.spelling.path(&format!("{}.wdt", header.name));
    let mut unwritten = None;
    for (c, r) in results {
        match r {
            Ok(Ok(r)) => {
                out.report.merge(r);
                out.files += 1;
            }
            Ok(Err(e)) => {
                out.failed.insert(c, e.to_string());
            }
            Err(e) => unwritten = unwritten.or(Some(e)),
        }
    }
    let wdt = match to {
        Generation::V060 => v060::write_wdt(header),
        _ => v18::write_wdt(header),
    };
    let wdt = match unwritten {
        Some(e) => Err(e),
        None => crate::disk::write_pending(&wdt_path, &wdt),
    };
    match wdt {
        Ok(p) => flusher.send(p),
        Err(e) => {
            flusher.abandon();
            let mut not_written: Vec<PathBuf> = coords
                .iter()
                .filter(|c| !out.failed.contains_key(c))
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
    out.files += 1;
    Ok(())
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
    crate::disk::write_files(dst, &files, |_| {})?;
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

/// A streamed conversion writes its monolithic WDT straight into the file: tile blocks
/// appended as they are encoded, MAIN's entries patched when the file is finished.
impl WdtSink for StreamedFile {
    type Error = LoamError;

    fn end(&self) -> usize {
        StreamedFile::end(self)
    }

    fn append(&mut self, bytes: &[u8]) -> Result<()> {
        self.write(bytes)
    }

    fn patch(&mut self, at: usize, bytes: [u8; 8]) {
        StreamedFile::patch(self, at as u64, bytes);
    }
}
