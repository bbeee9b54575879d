//! WDL files on disk: the low-resolution heights of a map, computed a few tiles at a time
//! (each tile read, sampled and dropped, never the whole map at once) and written atomically
//! beside the WDT as `Name.wdl`.
//!
//! Not for: the bytes (`format::wdl`) or the sample points (`model::coords`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::source::open_source;
use crate::disk::{LoamError, Result};
use crate::format::Generation;
use crate::format::wdl::{self, Wdl, WdlTile};
use crate::model::low_res::low_res;
use crate::model::{Tile, TileCoord};

/// The WDL file name of map `map`: `Map.wdl`.
pub fn wdl_file_name(map: &str) -> String {
    format!("{map}.wdl")
}

/// The WDL tile of `tile` as generation `g` stores it (MAHO masks only where `g` has them).
pub fn wdl_tile(tile: &Tile, g: Generation) -> WdlTile {
    let l = low_res(tile);
    WdlTile::new(&l.heights, l.holes, wdl::has_holes(g))
}

/// What [`compute`] found.
#[derive(Debug)]
pub struct LowResMap {
    /// The map's name.
    pub name: String,
    /// The generation the map was read as.
    pub generation: Generation,
    /// The folder the map's files are in.
    pub folder: PathBuf,
    /// Each readable tile's WDL tile, as `generation` stores it.
    pub tiles: BTreeMap<TileCoord, WdlTile>,
    /// Tiles that could not be read, with the reason; they are left out of the WDL.
    pub failed: BTreeMap<TileCoord, String>,
}

/// Reads the map at `src` (a .wdt, a folder of tiles, or a 0.5.x WDT) a few tiles at a time
/// and samples each for its WDL; `as_generation` decides whether MAHO masks are kept (the
/// map's own generation when `None`).
pub fn compute(
    src: &Path,
    from: Option<Generation>,
    as_generation: Option<Generation>,
) -> Result<LowResMap> {
    let Some(opened) = open_source(src, from)? else {
        // A lone tile or a 0.5.5 map with prototype ADTs: small enough to hold whole.
        let opened = super::open_map_as(src, from)?;
        let g = as_generation.unwrap_or(opened.generation);
        return Ok(LowResMap {
            tiles: opened
                .map
                .tiles
                .iter()
                .map(|(c, t)| (*c, wdl_tile(t, g)))
                .collect(),
            name: opened.map.name,
            generation: opened.generation,
            folder: opened.folder,
            failed: opened.failed,
        });
    };
    let g = as_generation.unwrap_or(opened.decision.generation);
    let results: Vec<(TileCoord, Result<WdlTile>)> = opened
        .tiles
        .coords()
        .par_iter()
        .map(|&c| (c, opened.tiles.read(c).map(|(t, _)| wdl_tile(&t, g))))
        .collect();
    let mut tiles = BTreeMap::new();
    let mut failed = BTreeMap::new();
    for (c, r) in results {
        match r {
            Ok(t) => {
                tiles.insert(c, t);
            }
            Err(e) => {
                failed.insert(c, e.to_string());
            }
        }
    }
    Ok(LowResMap {
        name: opened.header.name.clone(),
        generation: opened.decision.generation,
        folder: opened.source.folder.clone(),
        tiles,
        failed,
    })
}

/// Writes `tiles` as `folder/Name.wdl`, atomically; returns the path.
pub fn write_wdl(
    folder: &Path,
    name: &str,
    tiles: &BTreeMap<TileCoord, WdlTile>,
) -> Result<PathBuf> {
    std::fs::create_dir_all(folder).map_err(crate::disk::io_err(folder))?;
    let path = folder.join(wdl_file_name(name));
    crate::disk::write_atomic(&path, &wdl::write(tiles))?;
    Ok(path)
}

/// Brings the WDL beside a map (if it has one) up to date with `tiles`, the tiles a save just
/// wrote: their entries are sampled anew, every other entry is kept as it is. Returns the WDL's
/// path when there was one to update; a map without a WDL gets none.
pub fn update_beside<'a>(
    folder: &Path,
    name: &str,
    g: Generation,
    tiles: impl IntoIterator<Item = &'a Tile>,
) -> Result<Option<PathBuf>> {
    let Some(path) = find_beside(folder, name) else {
        return Ok(None);
    };
    let mut wdl = read_wdl(&path)?;
    for t in tiles {
        wdl.tiles.insert(t.coord, wdl_tile(t, g));
    }
    crate::disk::write_atomic(&path, &wdl::write(&wdl.tiles))?;
    Ok(Some(path))
}

/// Reads and decodes a WDL file; errors name the file.
pub fn read_wdl(path: &Path) -> Result<Wdl> {
    let bytes = crate::disk::read_file(path)?;
    wdl::read(&bytes).map_err(|e| LoamError::Format(e.in_file(path)))
}

/// The WDL beside a map's files (`folder/Name.wdl`, any case), if there is one.
pub fn find_beside(folder: &Path, name: &str) -> Option<PathBuf> {
    let want = wdl_file_name(name).to_ascii_lowercase();
    std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().to_ascii_lowercase() == want)
        })
}

/// Heights further than this (yards) from the map's own at a sample point are reported by
/// [`compare`]: more than rounding (half a yard) and more than a small edit since the WDL was
/// written, while a stale WDL after real sculpting differs by tens of yards.
pub const STALE_HEIGHT: i32 = 8;

/// How a WDL disagrees with its map.
#[derive(Debug, Default, PartialEq)]
pub struct Mismatch {
    /// Tiles the map has and the WDL lacks.
    pub missing: Vec<TileCoord>,
    /// Tiles the WDL has and the map lacks.
    pub extra: Vec<TileCoord>,
    /// Tiles whose heights differ by more than [`STALE_HEIGHT`] somewhere: (tile, largest
    /// difference in yards).
    pub far: Vec<(TileCoord, i32)>,
}

/// Compares a decoded WDL with the map's tiles `map_tiles` and, for the tiles in `loaded`,
/// their WDL tiles as sampled now.
pub fn compare(
    wdl: &Wdl,
    map_tiles: &BTreeSet<TileCoord>,
    loaded: &BTreeMap<TileCoord, WdlTile>,
) -> Mismatch {
    let have: BTreeSet<TileCoord> = wdl.tiles.keys().copied().collect();
    let mut far = Vec::new();
    for (c, now) in loaded {
        if let Some(old) = wdl.tiles.get(c) {
            let worst = old
                .heights
                .iter()
                .zip(now.heights.iter())
                .map(|(&a, &b)| (a as i32 - b as i32).abs())
                .max()
                .unwrap_or(0);
            if worst > STALE_HEIGHT {
                far.push((*c, worst));
            }
        }
    }
    Mismatch {
        missing: map_tiles.difference(&have).copied().collect(),
        extra: have.difference(map_tiles).copied().collect(),
        far,
    }
}
