//! Making a map and changing which tiles it has: `loam new`, File ▸ New map…, and adding or
//! removing tiles. The tiles are blank tiles (`model::blank`, as `convert::blank` makes them
//! for a generation) whose borders meet the old terrain (`edit::copy::new_map`); this writes them
//! with the WDT and the WDL, never over a file the user already has, tiles before the WDT that
//! lists them.
//!
//! Not for: the client's tables.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};

use crate::convert::{self, blank};
use crate::disk::{self, LoamError, Result, tile_file_name};
use crate::edit::copy::new_map;
use crate::format::Generation;
use crate::format::v18::AlphaTarget;
use crate::format::{v18, v060};
use crate::model::blank::{self as blank_tiles, BlankTile};
use crate::model::map::GlobalWmo;
use crate::model::{Map, TileCoord, WmoPlacement};
use crate::pipeline::source::{OpenedSource, TileSource, open_source};
use crate::pipeline::stream::{self, Overlay, Target};
use crate::pipeline::{self, MapKind, check_writable, wdl};

/// A map to make: its name, generation, tiles and what they are made of.
#[derive(Debug, Clone)]
pub struct NewMap {
    /// The map's directory name (`Name.wdt`, `Name_X_Y.adt`).
    pub name: String,
    /// The generation written.
    pub generation: Generation,
    /// Its tiles.
    pub tiles: Vec<TileCoord>,
    /// What every tile is made of (see [`blank::blank_tile`]).
    pub blank: BlankTile,
}

/// What [`create_map`] wrote.
#[derive(Debug, Clone)]
pub struct Created {
    /// The WDT (the monolithic one for 0.5.x): what to open.
    pub wdt: PathBuf,
    /// Tiles written.
    pub tiles: usize,
    /// The WDL written beside it.
    pub wdl: PathBuf,
}

/// Checks a new map's name: the client and the servers' extractors build paths and table
/// rows from it, so letters, digits and `_` only.
pub fn check_name(name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(LoamError::Usage("a map needs a name".into()));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !c.is_ascii_alphanumeric() && *c != '_')
    {
        return Err(LoamError::Usage(format!(
            "{name:?}: a map name may hold letters, digits and '_' only, not {bad:?} (the \
             client builds World\\Maps\\{name}\\ paths and Map.dbc rows from it)"
        )));
    }
    if name.len() > 64 {
        return Err(LoamError::Usage(format!(
            "{name:?}: a map name of at most 64 characters, please"
        )));
    }
    Ok(())
}

/// The lower-case names of the files in `folder` (none when it does not exist).
fn names_in(folder: &Path) -> BTreeSet<String> {
    std::fs::read_dir(folder)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().to_ascii_lowercase())
                .collect()
        })
        .unwrap_or_default()
}

/// Refuses when `folder` already has any of `files` (matched without regard to case, as the
/// client and Windows match them).
fn refuse_existing(folder: &Path, files: impl IntoIterator<Item = String>) -> Result<()> {
    let there = names_in(folder);
    let clash: Vec<String> = files
        .into_iter()
        .filter(|f| there.contains(&f.to_ascii_lowercase()))
        .collect();
    if clash.is_empty() {
        return Ok(());
    }
    let shown: Vec<&str> = clash.iter().take(3).map(String::as_str).collect();
    Err(LoamError::Usage(format!(
        "{} already has {}{}: loam does not write a new map over files you have; choose \
         another folder or name",
        folder.display(),
        shown.join(", "),
        if clash.len() > 3 {
            format!(" and {} more", clash.len() - 3)
        } else {
            String::new()
        }
    )))
}

/// Writes a new map into `folder` (created if absent): every tile of `new` as a blank tile,
/// the WDT listing them (for 0.5.x the monolithic WDT holding them), and the WDL. A tile at a
/// time, so a 64×64 map needs no more memory than a few tiles.
pub fn create_map(
    new: &NewMap,
    folder: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Created> {
    preflight(new, folder)?;
    let g = new.generation;
    let header = blank_tiles::new_header(&new.name, blank::new_map_flags(g), &new.tiles);
    let source = TileSource::Blank {
        coords: new.tiles.iter().copied().collect(),
        tile: new.blank.clone(),
    };
    let written = stream::write_map(header, &source, None, g, target(g, folder), progress)?;
    let wdl = wdl::write_wdl(folder, &new.name, &written.low_res)?;
    Ok(Created {
        wdt: folder.join(format!("{}.wdt", new.name)),
        tiles: new.tiles.len() - written.failed.len(),
        wdl,
    })
}

/// A new map being written on a worker thread (the editor's File ▸ New map…, which must not
/// freeze the window for the seconds a large map takes).
#[derive(Debug)]
pub struct Creating {
    /// Tiles written so far.
    pub done: Arc<AtomicUsize>,
    /// Tiles to write.
    pub total: usize,
    result: Receiver<Result<Created>>,
}

impl Creating {
    /// Starts writing `new` into `folder`; `wake` is called after each tile and at the end.
    pub fn start(
        new: NewMap,
        folder: PathBuf,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> Creating {
        let (send, result) = mpsc::channel();
        let done = Arc::new(AtomicUsize::new(0));
        let total = new.tiles.len();
        let counter = done.clone();
        std::thread::Builder::new()
            .name("loam-new-map".into())
            .spawn(move || {
                let made = create_map(&new, &folder, &|n, _| {
                    counter.store(n, Ordering::Relaxed);
                    wake();
                });
                let _ = send.send(made);
                wake();
            })
            .ok();
        Creating {
            done,
            total,
            result,
        }
    }

    /// What was written (or why not), once it is done; `None` while it is under way.
    pub fn poll(&self) -> Option<Result<Created>> {
        match self.result.try_recv() {
            Ok(r) => Some(r),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => Some(Err(LoamError::Usage(
                "the map writer stopped without a word".into(),
            ))),
        }
    }
}

/// Why `new` cannot be written into `folder` as it stands (a bad name, a generation loam does
/// not write, no tiles, files of those names already there), before anything is written: the
/// checks [`create_map`] makes first, for a dialog to show while the user types.
pub fn preflight(new: &NewMap, folder: &Path) -> Result<()> {
    check_name(&new.name)?;
    let g = new.generation;
    check_writable(g)?;
    if new.tiles.is_empty() {
        return Err(LoamError::Usage("a new map needs at least one tile".into()));
    }
    let mut files = vec![format!("{}.wdt", new.name), wdl::wdl_file_name(&new.name)];
    if g >= Generation::V060 {
        files.extend(new.tiles.iter().map(|&c| tile_file_name(&new.name, c)));
    }
    refuse_existing(folder, files)
}

/// A whole write of generation `g` into `folder`, nothing converted.
fn target(g: Generation, folder: &Path) -> Target<'_> {
    static NO_OPTIONS: std::sync::LazyLock<convert::Options> =
        std::sync::LazyLock::new(convert::Options::default);
    Target {
        generation: g,
        folder,
        options: &NO_OPTIONS,
        all_or_nothing: true,
        edit: None,
    }
}

/// Writes a new WMO-only map into `folder`: a WDT with MPHD flag 0x1 whose MWMO names `wmo`
/// and whose MODF places it at the world's origin (the centre of the map grid), unturned,
/// its extents from the model's box `bounds`; no tiles and no WDL. Returns the WDT's path.
pub fn create_wmo_only(
    name: &str,
    generation: Generation,
    wmo: &str,
    bounds: ([f32; 3], [f32; 3]),
    folder: &Path,
) -> Result<PathBuf> {
    check_name(name)?;
    check_writable(generation)?;
    refuse_existing(folder, [format!("{name}.wdt")])?;
    let position = [0.0; 3];
    let rotation = [0.0; 3];
    let (bounds_min, bounds_max) =
        crate::model::coords::placed_box(bounds, position, rotation, 1.0);
    let header = blank_tiles::new_wmo_only_header(
        name,
        GlobalWmo {
            name: wmo.to_string(),
            placement: WmoPlacement {
                name_index: 0,
                unique_id: 0,
                position,
                rotation,
                bounds_min,
                bounds_max,
                flags: 0,
                doodad_set: 0,
                name_set: 0,
                scale: 0,
            },
        },
    );
    let files = pipeline::encode_map(&header, generation, true, Some(&[]))?;
    std::fs::create_dir_all(folder).map_err(disk::io_err(folder))?;
    disk::write_files(folder, &files, |_| {})?;
    Ok(folder.join(format!("{name}.wdt")))
}

/// What adding or removing tiles did.
#[derive(Debug, Clone)]
pub struct TilesChanged {
    /// The map's WDT, rewritten.
    pub wdt: PathBuf,
    /// The tiles added or removed.
    pub tiles: Vec<TileCoord>,
    /// Border vertices of the added tiles that took an old neighbour's height.
    pub met: usize,
    /// The WDL brought up to date, when the map has one.
    pub wdl: Option<PathBuf>,
}

/// Opens the map at `path` for changing its tiles: a split WDT or a 0.5.x monolithic WDT
/// that is not WMO-only.
fn open_for_tiles(path: &Path) -> Result<OpenedSource> {
    let opened = open_source(path, None)?.ok_or_else(|| {
        LoamError::Usage(format!(
            "{}: tiles are added to a map's WDT, and this is a lone tile or a 0.5.5 map with \
             prototype ADTs",
            path.display()
        ))
    })?;
    if opened.source.kind == MapKind::Folder {
        return Err(LoamError::Usage(format!(
            "{}: a folder of tiles without a WDT; tiles are added to a map's WDT (write one \
             with `loam convert`)",
            path.display()
        )));
    }
    if opened.header.global_wmo.is_some() {
        return Err(LoamError::Usage(format!(
            "{}: a WMO-only map has no tiles",
            path.display()
        )));
    }
    check_writable(opened.decision.generation)?;
    Ok(opened)
}

/// The map at `path` opened for changing its tiles, the tiles it has, and `coords` as a set,
/// which must all be in the map (`in_map`) or all not be.
fn open_with_tiles(
    path: &Path,
    coords: &[TileCoord],
    in_map: bool,
) -> Result<(OpenedSource, BTreeSet<TileCoord>, BTreeSet<TileCoord>)> {
    let opened = open_for_tiles(path)?;
    let had = tiles_of(&opened);
    let asked: BTreeSet<TileCoord> = coords.iter().copied().collect();
    if let Some(c) = asked.iter().find(|c| had.contains(c) != in_map) {
        let is = if in_map { "is not" } else { "is already" };
        return Err(LoamError::Usage(format!(
            "{}: tile {}_{} {is} in the map",
            path.display(),
            c.x,
            c.y
        )));
    }
    Ok((opened, had, asked))
}

/// The tiles a map has: those MAIN lists and those whose file is there.
fn tiles_of(opened: &OpenedSource) -> BTreeSet<TileCoord> {
    let mut all: BTreeSet<TileCoord> = blank_tiles::listed_tiles(&opened.header)
        .into_iter()
        .collect();
    all.extend(opened.tiles.coords());
    all
}

/// Adds `coords` to the map whose WDT is `path`, each a blank tile of `texture` at `height`
/// (area `area_id`) whose borders meet the old tiles beside it; the WDT lists them, the WDL
/// (when there is one) gains them. A split map gets the new tile files and its WDT rewritten;
/// a 0.5.x map's monolithic WDT is rewritten whole.
pub fn add_tiles(
    path: &Path,
    coords: &[TileCoord],
    texture: &str,
    height: f32,
    area_id: u32,
) -> Result<TilesChanged> {
    let (opened, had, new) = open_with_tiles(path, coords, false)?;
    let g = opened.decision.generation;
    let blank = blank::blank_tile(g, texture, height, area_id);
    let folder = opened.source.folder.clone();
    let name = opened.header.name.clone();
    if g >= Generation::V060 {
        refuse_existing(&folder, new.iter().map(|&c| tile_file_name(&name, c)))?;
    }
    // The new tiles, with the old tiles beside them read so their borders can meet.
    let mut work = opened.header.clone();
    work.tiles.clear();
    for &c in &new {
        work.tiles.insert(c, blank.tile(c));
    }
    let beside: BTreeSet<TileCoord> = new
        .iter()
        .flat_map(|&c| new_map::neighbours(c))
        .filter(|c| !new.contains(c) && had.contains(c))
        .collect();
    for c in beside {
        // An old tile that cannot be read is not met; it is reported by `loam check`.
        if let Ok((t, _)) = opened.tiles.read(c) {
            work.tiles.insert(c, t);
        }
    }
    let met = new_map::meet_neighbours(&mut work, &new);
    let mut header = opened.header.clone();
    header.tiles.clear();
    let added: Vec<TileCoord> = new.iter().copied().collect();
    blank_tiles::list_tiles(&mut header, &added, true);
    let wdt = wdt_path(&opened);
    if g >= Generation::V060 {
        let alpha = pipeline::alpha_target(&header);
        // The new tiles, then the WDT that lists them; a failure removes the tiles this call
        // wrote, so the map is as it was and the same command can be run again.
        let mut written = Vec::new();
        let result = added.iter().try_for_each(|c| {
            let path = folder.join(tile_file_name(&name, *c));
            disk::write_atomic(&path, &encode_tile(&work.tiles[c], g, alpha))?;
            written.push(path);
            Ok(())
        });
        if let Err(e) = result.and_then(|()| write_split_wdt(&header, g, &wdt)) {
            for p in &written {
                let _ = std::fs::remove_file(p);
            }
            return Err(e);
        }
    } else {
        let overlay = Overlay {
            map: &work,
            take: &new,
        };
        stream::write_map(
            header,
            &opened.tiles,
            Some(overlay),
            g,
            target(g, &folder),
            &|_, _| {},
        )?;
    }
    let wdl = wdl::update_beside(&folder, &name, g, added.iter().map(|c| &work.tiles[c]))?;
    Ok(TilesChanged {
        wdt,
        tiles: added,
        met,
        wdl,
    })
}

/// Removes `coords` from the map whose WDT is `path`: the WDT stops listing them, then a split
/// map's tile files are deleted (a 0.5.x map's monolithic WDT is rewritten without them), and
/// the WDL (when there is one) drops them.
pub fn remove_tiles(path: &Path, coords: &[TileCoord]) -> Result<TilesChanged> {
    let (opened, _, gone) = open_with_tiles(path, coords, true)?;
    let g = opened.decision.generation;
    let folder = opened.source.folder.clone();
    let name = opened.header.name.clone();
    let mut header = opened.header.clone();
    header.tiles.clear();
    let removed: Vec<TileCoord> = gone.iter().copied().collect();
    blank_tiles::list_tiles(&mut header, &removed, false);
    let wdt = wdt_path(&opened);
    match &opened.tiles {
        TileSource::Monolithic {
            file,
            names,
            blocks,
        } => {
            let mut blocks = blocks.clone();
            blocks.retain(|c, _| !gone.contains(c));
            let kept = TileSource::Monolithic {
                file: file.clone(),
                names: names.clone(),
                blocks,
            };
            stream::write_map(header, &kept, None, g, target(g, &folder), &|_, _| {})?;
        }
        _ => {
            write_split_wdt(&header, g, &wdt)?;
            for c in &removed {
                if let Some(file) = opened.source.tiles.get(c) {
                    std::fs::remove_file(file).map_err(disk::io_err(file))?;
                }
            }
        }
    }
    let wdl = match wdl::find_beside(&folder, &name) {
        Some(p) => {
            let mut low = wdl::read_wdl(&p)?;
            low.tiles.retain(|c, _| !gone.contains(c));
            disk::write_atomic(&p, &crate::format::wdl::write(&low.tiles))?;
            Some(p)
        }
        None => None,
    };
    Ok(TilesChanged {
        wdt,
        tiles: removed,
        met: 0,
        wdl,
    })
}

/// The map's WDT file.
fn wdt_path(opened: &OpenedSource) -> PathBuf {
    opened.source.wdt.clone().unwrap_or_else(|| {
        opened
            .source
            .folder
            .join(format!("{}.wdt", opened.header.name))
    })
}

/// One split tile's bytes in generation `g`.
fn encode_tile(tile: &crate::model::Tile, g: Generation, alpha: AlphaTarget) -> Vec<u8> {
    match g {
        Generation::V060 => v060::write_adt(tile),
        _ => v18::write_adt(tile, alpha),
    }
}

/// Writes a split map's WDT (the header's MAIN as it now is) over `path`, atomically.
fn write_split_wdt(header: &Map, g: Generation, path: &Path) -> Result<()> {
    let files = pipeline::encode_map(header, g, true, Some(&[]))?;
    let wdt = files
        .into_iter()
        .next()
        .ok_or_else(|| LoamError::Usage("no WDT was encoded".into()))?;
    disk::write_atomic(path, &wdt.bytes)
}
