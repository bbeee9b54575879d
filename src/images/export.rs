//! `loam export-images`: a map's tiles as images under a folder, read a few tiles at a time
//! (see `images` for the names and `edit::images::heightmap` / `edit::images::tile_images` for the layouts).
//! Heights are 16-bit grey over a range: the one asked for, or the map's own lowest and highest
//! height, recorded in `Name_heights.json` so that importing puts every height back within half
//! a 16-bit step.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::io::{write_float_tiff, write_grey8, write_grey16, write_rgb8};
use super::{HeightRange, alpha_file, colour_file, height_file, range_file};
use crate::disk::{self, LoamError, Result};
use crate::edit::images::heightmap::{TILE_PIXELS, height_range, tile_heights};
use crate::edit::images::tile_images::{ALPHA_PIXELS, alpha_textures, tile_alpha, tile_colours};
use crate::format::Generation;
use crate::model::{Tile, TileCoord};
use crate::pipeline::source::MapTiles;

/// What to write.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ExportRequest {
    /// Heightmaps (`_height.png`).
    pub heights: bool,
    /// Alpha maps, one per texture a tile paints as a layer (`_<texture>.png`).
    pub alpha: bool,
    /// Vertex colours (`_vcol.png`).
    pub colours: bool,
    /// The heights of pixel values 0 and 65535; the map's own range when `None`.
    pub range: Option<(f32, f32)>,
    /// Heights as 32-bit float TIFF (`_height.tif`, 0..1 over the range) instead of 16-bit
    /// PNG: no quantisation at all.
    pub float: bool,
}

/// What [`export_images`] wrote.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Exported {
    /// The map's name.
    pub name: String,
    /// Files written.
    pub files: Vec<PathBuf>,
    /// The heights' range, when heights were written.
    pub range: Option<HeightRange>,
    /// Tiles that could not be read, with the reason.
    pub failed: BTreeMap<TileCoord, String>,
}

/// Writes the images `request` asks for of the map at `map` (read as `from`, or as its bytes
/// decide) into `out`. `progress(done, total)` after each tile.
pub fn export_images(
    map: &Path,
    from: Option<Generation>,
    out: &Path,
    request: &ExportRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Exported> {
    use rayon::prelude::*;
    let tiles = MapTiles::open(map, from)?;
    std::fs::create_dir_all(out).map_err(disk::io_err(out))?;
    let coords = tiles.coords();
    if coords.is_empty() {
        return Err(LoamError::Usage(format!(
            "{}: the map has no tiles to export",
            map.display()
        )));
    }
    let failed = Mutex::new(BTreeMap::new());
    let fail = |c: TileCoord, e: LoamError| {
        failed
            .lock()
            .expect("not poisoned")
            .insert(c, e.to_string());
    };
    // The map's own range needs every tile read once before any is written.
    let range = match (request.heights, request.range) {
        (false, _) => None,
        (true, Some((min, max))) => Some(HeightRange { min, max }),
        (true, None) => {
            let ranges: Vec<(f32, f32)> = coords
                .par_iter()
                .filter_map(|&c| match tiles.read(c) {
                    Ok(t) => height_range([&t]),
                    Err(e) => {
                        fail(c, e);
                        None
                    }
                })
                .collect();
            let Some((min, max)) = ranges
                .into_iter()
                .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
            else {
                let failed = failed.into_inner().expect("not poisoned");
                return Err(LoamError::Usage(format!(
                    "{}: no tile could be read ({})",
                    map.display(),
                    failed.values().next().map_or("", String::as_str)
                )));
            };
            // A flat map still needs a range: one yard above its height.
            Some(HeightRange {
                min,
                max: if max > min { max } else { min + 1.0 },
            })
        }
    };
    if let Some(r) = range
        && r.max.partial_cmp(&r.min) != Some(std::cmp::Ordering::Greater)
    {
        return Err(LoamError::Usage(format!(
            "the height range {} … {} is empty: give --min and --max with max above min",
            r.min, r.max
        )));
    }
    let done = std::sync::atomic::AtomicUsize::new(0);
    let written: Vec<Vec<PathBuf>> = coords
        .par_iter()
        .filter(|c| !failed.lock().expect("not poisoned").contains_key(c))
        .filter_map(|&c| {
            let r = tiles
                .read(c)
                .and_then(|t| write_tile(&t, &tiles.name, out, request, range));
            progress(
                done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                coords.len(),
            );
            r.map_err(|e| fail(c, e)).ok()
        })
        .collect();
    let mut files: Vec<PathBuf> = written.into_iter().flatten().collect();
    if let Some(r) = range {
        let path = out.join(range_file(&tiles.name));
        let json = serde_json::to_vec_pretty(&r).expect("two numbers serialise");
        disk::write_atomic(&path, &json)?;
        files.push(path);
    }
    files.sort();
    Ok(Exported {
        name: tiles.name.clone(),
        files,
        range,
        failed: failed.into_inner().expect("not poisoned"),
    })
}

/// Writes one tile's images; returns the files.
fn write_tile(
    tile: &Tile,
    name: &str,
    out: &Path,
    request: &ExportRequest,
    range: Option<HeightRange>,
) -> Result<Vec<PathBuf>> {
    let c = tile.coord;
    let mut files = Vec::new();
    if let Some(r) = range
        && request.float
    {
        let span = f64::from(r.max - r.min);
        let values: Vec<f32> = tile_heights(tile)
            .into_iter()
            .map(|h| (f64::from(h - r.min) / span) as f32)
            .collect();
        let path = out.join(height_file(name, c).replace(".png", ".tif"));
        write_float_tiff(&path, TILE_PIXELS, &values)?;
        files.push(path);
    } else if let Some(r) = range {
        let scale = 65535.0 / f64::from(r.max - r.min);
        let values: Vec<u16> = tile_heights(tile)
            .into_iter()
            .map(|h| (f64::from(h - r.min) * scale).round().clamp(0.0, 65535.0) as u16)
            .collect();
        let path = out.join(height_file(name, c));
        write_grey16(&path, TILE_PIXELS, &values)?;
        files.push(path);
    }
    if request.alpha {
        for texture in alpha_textures(tile) {
            let path = out.join(alpha_file(name, c, &texture));
            write_grey8(&path, ALPHA_PIXELS, &tile_alpha(tile, &texture))?;
            files.push(path);
        }
    }
    if request.colours {
        let path = out.join(colour_file(name, c));
        write_rgb8(&path, TILE_PIXELS, &tile_colours(tile))?;
        files.push(path);
    }
    Ok(files)
}
