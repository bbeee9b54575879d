//! `loam check`: validates maps and tiles and names every problem found.
//!
//! Decoding already rejects malformed bytes; this looks for what decodes but is wrong: indices
//! that point nowhere, seams between neighbouring chunks, a uniqueId shared by different
//! objects, tiles the WDT lists but the folder lacks.
//!
//! Seams (measured by `edit::seams`) are listed one per border, largest first, above a threshold
//! ([`DEFAULT_SEAM_THRESHOLD`], `--seam-threshold`); the smaller ones, float noise that nobody can
//! see, are one count line and are not problems. `loam fix --seams` closes both.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::disk::{self, LoamError};
use crate::edit::seams::{self, ChunkAt, Seam};
use crate::edit::uids;
use crate::format::Generation;
use crate::model::{Map, ObjectKind, Tile};

/// Seams up to this size (yards) are float noise and only counted. A hundredth of a yard is
/// about a third of a millimetre of the player's scale, far below a visible crack, and well above
/// what float rounding in other tools leaves (thousandths); real tears are yards.
pub const DEFAULT_SEAM_THRESHOLD: f32 = 0.01;

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

/// Checks one map that opened; returns its problems, seams larger than `seam_threshold` yards
/// among them (largest first; see [`small_seams`] for the rest).
pub fn check_map(opened: &disk::OpenedMap, seam_threshold: f32) -> Vec<Problem> {
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
    for (c, why) in &opened.failed {
        problems.push(Problem::error(
            opened.folder.join(disk::tile_file_name(&map.name, *c)),
            format!("tile {}_{} cannot be read: {why}", c.x, c.y),
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
    for seam in seams::find(map)
        .into_iter()
        .take_while(|s| s.size > seam_threshold)
    {
        // A seam inside a tile belongs to its file; one between tiles to the map.
        let file = if seam.crosses_tiles() {
            wdt.clone()
        } else {
            opened
                .folder
                .join(disk::tile_file_name(&map.name, seam.a.tile))
        };
        problems.push(Problem::error(file, seam_message(&seam)));
    }
    for message in check_unique_ids(map) {
        problems.push(Problem::error(wdt.clone(), message));
    }
    if opened.wdt.is_some() {
        problems.extend(check_wdl(opened));
    }
    problems
}

/// Checks the WDL beside a map's WDT, when there is one: it decodes (every MAOF offset points
/// at a MARE of the right size), it has a tile for each of the WDT's tiles and none more, and
/// its heights are near the tiles' own (far ones are a warning: a WDL older than the last
/// edit; `loam wdl` writes it anew).
pub fn check_wdl(opened: &disk::OpenedMap) -> Vec<Problem> {
    use crate::disk::wdl;
    let map = &opened.map;
    let Some(path) = wdl::find_beside(&opened.folder, &map.name) else {
        return Vec::new();
    };
    let decoded = match wdl::read_wdl(&path) {
        Ok(w) => w,
        Err(e) => return vec![Problem::error(path, e.to_string())],
    };
    let listed: std::collections::BTreeSet<_> = map.present_tiles().into_iter().collect();
    let now = map
        .tiles
        .iter()
        .map(|(c, t)| (*c, wdl::wdl_tile(t, opened.generation)))
        .collect();
    let m = wdl::compare(&decoded, &listed, &now);
    let mut out = Vec::new();
    let name = |c: &crate::model::TileCoord| format!("tile {}_{}", c.x, c.y);
    for c in &m.missing {
        out.push(Problem::error(
            path.clone(),
            format!("the WDT lists {} but the WDL has no MARE for it", name(c)),
        ));
    }
    for c in &m.extra {
        out.push(Problem::error(
            path.clone(),
            format!(
                "the WDL has a MARE for {} but the WDT does not list it",
                name(c)
            ),
        ));
    }
    for (c, d) in &m.far {
        out.push(Problem {
            file: path.clone(),
            message: format!(
                "{}: WDL heights differ from the tile's by up to {d} yd (written before an \
                 edit? `loam wdl` writes it anew)",
                name(c)
            ),
            severity: Severity::Warning,
        });
    }
    out
}

/// How many borders have seams of at most `seam_threshold` yards (but not none): the float noise
/// that [`check_map`] does not list.
pub fn small_seams(map: &Map, seam_threshold: f32) -> usize {
    seams::find(map)
        .iter()
        .filter(|s| s.size <= seam_threshold)
        .count()
}

/// "seam of 52.0000 yd between chunk 3,4 and chunk 4,4", naming the tiles when they differ.
fn seam_message(seam: &Seam) -> String {
    let at = |c: ChunkAt| {
        if seam.crosses_tiles() {
            format!("tile {}_{} chunk {},{}", c.tile.x, c.tile.y, c.x, c.y)
        } else {
            format!("chunk {},{}", c.x, c.y)
        }
    };
    format!(
        "seam of {:.4} yd between {} and {}",
        seam.size,
        at(seam.a),
        at(seam.b)
    )
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

/// Problems inside one tile (seams are measured over the whole map, see [`check_map`]).
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

/// uniqueIds shared by placements that are not the same object (an object crossing a tile
/// border is listed in each tile with one id; that is fine). `edit::uids` holds the rule, which
/// `loam fix --uids` repairs by.
fn check_unique_ids(map: &Map) -> Vec<String> {
    uids::clashes(map)
        .into_iter()
        .map(|c| {
            let (a, b) = (&c.first, &c.other);
            format!(
                "uniqueId {} is used by two different {} (tile {}_{} {} and tile {}_{} {}; \
                 `loam fix --uids` renumbers the later one)",
                a.unique_id,
                match a.kind {
                    ObjectKind::Doodad => "doodads",
                    ObjectKind::Wmo => "WMOs",
                },
                a.tile.x,
                a.tile.y,
                a.model,
                b.tile.x,
                b.tile.y,
                b.model
            )
        })
        .collect()
}

/// Runs `loam check [--seam-threshold YD] [--from GEN] PATH...`: prints each problem and exits
/// 1 when there are any errors (warnings alone do not fail).
pub fn run(
    paths: &[PathBuf],
    seam_threshold: f32,
    from: Option<Generation>,
) -> Result<ExitCode, LoamError> {
    if !(seam_threshold >= 0.0 && seam_threshold.is_finite()) {
        return Err(LoamError::Usage(format!(
            "--seam-threshold must be a number of yards, 0 or more, not {seam_threshold}"
        )));
    }
    let (mut errors, mut warnings) = (0, 0);
    for path in paths {
        let (e, w) = check_path(path, seam_threshold, from);
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

/// Checks one path, printing its problems and the count of small seams; returns how many
/// errors and warnings there were.
fn check_path(path: &Path, seam_threshold: f32, from: Option<Generation>) -> (usize, usize) {
    match disk::open_map_as(path, from) {
        Err(e) => {
            println!("{e}");
            (1, 0)
        }
        Ok(opened) => {
            let problems = check_map(&opened, seam_threshold);
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
            let small = small_seams(&opened.map, seam_threshold);
            if small > 0 {
                println!(
                    "{}: {small} more seam(s) of at most {seam_threshold} yd, not listed \
                     (float noise; `loam fix --seams` closes them)",
                    path.display()
                );
            }
            counts
        }
    }
}
