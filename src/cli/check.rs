//! `loam check`: validates maps and tiles and names every problem found.
//!
//! Decoding already rejects malformed bytes; this looks for what decodes but is wrong: indices
//! that point nowhere, seams between neighbouring chunks, a uniqueId shared by different
//! objects, tiles the WDT lists but the folder lacks.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::disk::{self, LoamError};
use crate::model::coords::{CHUNKS_PER_SIDE, TileCoord, outer_vertex};
use crate::model::{Map, Tile};

/// Largest height difference (yards) tolerated between two copies of a shared border vertex.
pub const SEAM_TOLERANCE: f32 = 0.001;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The map is wrong; `check` exits 1.
    Error,
    /// Odd but readable (another tool's marks); reported, `check` still succeeds.
    Warning,
}

/// One thing wrong with a map.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The file it is in (or the WDT for map-wide problems).
    pub file: PathBuf,
    /// What is wrong, with enough location to find it.
    pub message: String,
    /// Whether it fails the check.
    pub severity: Severity,
}

impl Problem {
    /// An error in `file`.
    pub fn error(file: PathBuf, message: String) -> Problem {
        Problem {
            file,
            message,
            severity: Severity::Error,
        }
    }
}

/// Checks one map that opened; returns its problems.
pub fn check_map(opened: &disk::OpenedMap) -> Vec<Problem> {
    let map = &opened.map;
    let mut problems = Vec::new();
    let wdt = opened.wdt.clone().unwrap_or_else(|| opened.folder.clone());
    for c in &opened.missing_tiles {
        problems.push(Problem::error(
            wdt.clone(),
            format!(
                "MAIN lists tile {}_{} but {} is not in the folder",
                c.x,
                c.y,
                disk::tile_file_name(&map.name, *c)
            ),
        ));
    }
    problems.extend(quirk_warnings(opened));
    for tile in map.tiles.values() {
        let file = opened
            .folder
            .join(disk::tile_file_name(&map.name, tile.coord));
        for message in check_tile(tile) {
            problems.push(Problem::error(file.clone(), message));
        }
    }
    for message in check_seams_between_tiles(map)
        .into_iter()
        .chain(check_unique_ids(map))
    {
        problems.push(Problem::error(wdt.clone(), message));
    }
    problems
}

/// A warning for each oddity the decoders accepted (see `model::quirks`).
fn quirk_warnings(opened: &disk::OpenedMap) -> Vec<Problem> {
    let map = &opened.map;
    let warn = |file: &PathBuf, q: &crate::model::FileQuirk| Problem {
        file: file.clone(),
        message: q.to_string(),
        severity: Severity::Warning,
    };
    let wdt = opened.wdt.clone().unwrap_or_else(|| opened.folder.clone());
    let mut out: Vec<Problem> = map.wdt_quirks.iter().map(|q| warn(&wdt, q)).collect();
    for tile in map.tiles.values() {
        let file = match &opened.lone_tile_file {
            Some(name) => opened.folder.join(name),
            None => opened
                .folder
                .join(disk::tile_file_name(&map.name, tile.coord)),
        };
        out.extend(tile.quirks.found.iter().map(|q| warn(&file, q)));
    }
    out
}

/// Problems inside one tile.
pub fn check_tile(tile: &Tile) -> Vec<String> {
    let mut out = Vec::new();
    for (i, c) in tile.chunks.iter().enumerate() {
        let at = format!("chunk {},{}", i % 16, i / 16);
        if c.layers.len() > 4 {
            out.push(format!(
                "{at}: {} texture layers (the client draws at most 4)",
                c.layers.len()
            ));
        }
        for (k, l) in c.layers.iter().enumerate() {
            if l.texture as usize >= tile.textures.len() {
                out.push(format!(
                    "{at}: layer {k} names texture {} but the tile has {} textures",
                    l.texture,
                    tile.textures.len()
                ));
            }
            if k > 0 && l.alpha.is_none() {
                out.push(format!("{at}: layer {k} has no alpha map"));
            }
        }
        for &r in &c.doodad_refs {
            if r as usize >= tile.doodads.len() {
                out.push(format!(
                    "{at}: MCRF names doodad {r} but the tile has {}",
                    tile.doodads.len()
                ));
            }
        }
        for &r in &c.wmo_refs {
            if r as usize >= tile.wmos.len() {
                out.push(format!(
                    "{at}: MCRF names WMO {r} but the tile has {}",
                    tile.wmos.len()
                ));
            }
        }
        if c.heights.iter().any(|h| !h.is_finite()) {
            out.push(format!("{at}: a height is not a finite number"));
        }
        // Seams with the east and south neighbours inside the tile.
        let (x, y) = (i % 16, i / 16);
        if x + 1 < CHUNKS_PER_SIDE {
            out.extend(
                seam(c, tile.chunk(x + 1, y), true)
                    .map(|d| format!("{at}: seam of {d:.4} yd with chunk {},{}", x + 1, y)),
            );
        }
        if y + 1 < CHUNKS_PER_SIDE {
            out.extend(
                seam(c, tile.chunk(x, y + 1), false)
                    .map(|d| format!("{at}: seam of {d:.4} yd with chunk {},{}", x, y + 1)),
            );
        }
    }
    for (k, d) in tile.doodads.iter().enumerate() {
        if d.name_index as usize >= tile.doodad_names.len() {
            out.push(format!(
                "doodad {k} (uniqueId {}) names model {} of {}",
                d.unique_id,
                d.name_index,
                tile.doodad_names.len()
            ));
        }
    }
    for (k, w) in tile.wmos.iter().enumerate() {
        if w.name_index as usize >= tile.wmo_names.len() {
            out.push(format!(
                "WMO {k} (uniqueId {}) names model {} of {}",
                w.unique_id,
                w.name_index,
                tile.wmo_names.len()
            ));
        }
    }
    out
}

/// The largest mismatch along the border `a` shares with its east (`east`) or south neighbour
/// `b`, if above tolerance.
fn seam(a: &crate::model::Chunk, b: &crate::model::Chunk, east: bool) -> Option<f32> {
    let worst = (0..9)
        .map(|k| {
            let (ia, ib) = if east {
                (outer_vertex(k, 8), outer_vertex(k, 0))
            } else {
                (outer_vertex(8, k), outer_vertex(0, k))
            };
            (a.heights[ia] - b.heights[ib]).abs()
        })
        .fold(0f32, f32::max);
    (worst > SEAM_TOLERANCE).then_some(worst)
}

/// Seams along the borders of loaded neighbouring tiles.
fn check_seams_between_tiles(map: &Map) -> Vec<String> {
    let mut out = Vec::new();
    for (coord, tile) in &map.tiles {
        let east =
            TileCoord::new(coord.x as usize + 1, coord.y as usize).and_then(|c| map.tiles.get(&c));
        let south =
            TileCoord::new(coord.x as usize, coord.y as usize + 1).and_then(|c| map.tiles.get(&c));
        for k in 0..CHUNKS_PER_SIDE {
            if let Some(e) = east {
                if let Some(d) = seam(tile.chunk(15, k), e.chunk(0, k), true) {
                    out.push(format!(
                        "seam of {d:.4} yd between tiles {}_{} and {}_{} (chunk row {k})",
                        coord.x, coord.y, e.coord.x, e.coord.y
                    ));
                }
            }
            if let Some(s) = south {
                if let Some(d) = seam(tile.chunk(k, 15), s.chunk(k, 0), false) {
                    out.push(format!(
                        "seam of {d:.4} yd between tiles {}_{} and {}_{} (chunk column {k})",
                        coord.x, coord.y, s.coord.x, s.coord.y
                    ));
                }
            }
        }
    }
    out
}

/// uniqueIds shared by placements that are not the same object (an object crossing a tile
/// border is listed in each tile with one id; that is fine).
fn check_unique_ids(map: &Map) -> Vec<String> {
    let mut seen: HashMap<(bool, u32), (String, [i64; 3], TileCoord)> = HashMap::new();
    let mut out = Vec::new();
    let key = |p: [f64; 3]| p.map(|v| (v * 100.0).round() as i64);
    for tile in map.tiles.values() {
        let doodads = tile.doodads.iter().map(|d| {
            (
                false,
                d.unique_id,
                tile.doodad_names.get(d.name_index as usize),
                d.position,
            )
        });
        let wmos = tile.wmos.iter().map(|w| {
            (
                true,
                w.unique_id,
                tile.wmo_names.get(w.name_index as usize),
                w.position,
            )
        });
        for (is_wmo, id, name, pos) in doodads.chain(wmos) {
            let name = name.cloned().unwrap_or_default().to_ascii_lowercase();
            let entry = (name.clone(), key(pos), tile.coord);
            match seen.get(&(is_wmo, id)) {
                Some((n, p, t)) if (n, p) != (&entry.0, &entry.1) => out.push(format!(
                    "uniqueId {id} is used by two different {} (tile {}_{} {n} and tile {}_{} {name})",
                    if is_wmo { "WMOs" } else { "doodads" },
                    t.x,
                    t.y,
                    tile.coord.x,
                    tile.coord.y
                )),
                Some(_) => {}
                None => {
                    seen.insert((is_wmo, id), entry);
                }
            }
        }
    }
    out
}

/// Runs `loam check PATH...`: prints each problem and exits 1 when there are any errors
/// (warnings alone do not fail).
pub fn run(paths: &[PathBuf]) -> Result<ExitCode, LoamError> {
    let (mut errors, mut warnings) = (0, 0);
    for path in paths {
        let (e, w) = check_path(path);
        errors += e;
        warnings += w;
    }
    if warnings > 0 {
        println!("{warnings} warning(s)");
    }
    if errors == 0 {
        println!("{} file(s) checked: no problems", paths.len());
        Ok(ExitCode::SUCCESS)
    } else {
        println!("{errors} problem(s) found");
        Ok(ExitCode::from(1))
    }
}

/// Checks one path, printing its problems; returns how many errors and warnings there were.
fn check_path(path: &Path) -> (usize, usize) {
    match disk::open_map(path) {
        Err(e) => {
            println!("{e}");
            (1, 0)
        }
        Ok(opened) => {
            let problems = check_map(&opened);
            let mut counts = (0, 0);
            for p in &problems {
                match p.severity {
                    Severity::Error => {
                        counts.0 += 1;
                        println!("{}: {}", p.file.display(), p.message);
                    }
                    Severity::Warning => {
                        counts.1 += 1;
                        println!("warning: {}: {}", p.file.display(), p.message);
                    }
                }
            }
            counts
        }
    }
}
