//! `loam check`: validates maps and tiles and names every problem found.
//!
//! Decoding already rejects malformed bytes; this looks for what decodes but is wrong: indices
//! that point nowhere, seams between neighbouring chunks, a uniqueId shared by different
//! objects, tiles the WDT lists but the folder lacks, shadow maps baked over terrain that has
//! moved since (`edit::derived::shadows::Staleness`), ground that pokes through the tile's flight bounds
//! (`edit::derived::flight_bounds::poke_through`).
//!
//! Seams (measured by `edit::terrain::seams`) are listed one per border, largest first, above a threshold
//! ([`DEFAULT_SEAM_THRESHOLD`], `--seam-threshold`); the smaller ones, float noise that nobody can
//! see, are one count line and are not problems. `loam fix --seams` closes both.
//!
//! A map is checked tile by tile ([`check_path`]): each tile is read, reduced to a
//! [`TileDigest`] (its own problems, its border heights, its objects' uniqueIds, its WDL heights)
//! and dropped, and the map-wide checks run on the digests, so a 64×64 map is checked in the
//! memory of a few tiles. A map already open is checked through the same digests
//! ([`check_map`]), so both report the same problems in the same order.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::disk::{self, LoamError};
use crate::edit::derived::flight_bounds::{self, Plane};
use crate::edit::derived::shadows::{Staleness, Sun};
use crate::edit::objects::uids::{self, Listing};
use crate::edit::terrain::seams::{self, ChunkAt, Seam, TileEdges};
use crate::format::Generation;
use crate::format::evidence::Decision;
use crate::format::wdl::WdlTile;
use crate::model::objects::placements;
use crate::model::{FileQuirk, ObjectKind, Tile, TileCoord};
use crate::pipeline;

pub use super::problem::{MapUses, Problem, Severity};

/// Seams up to this size (yards) are float noise and only counted. A hundredth of a yard is
/// about a third of a millimetre of the player's scale, far below a visible crack, and well above
/// what float rounding in other tools leaves (thousandths); real tears are yards.
pub const DEFAULT_SEAM_THRESHOLD: f32 = 0.01;

/// What `check` keeps of a tile once it has been read: the problems inside it and what the
/// map-wide checks (seams across tiles, uniqueIds, the WDL) need of it.
#[derive(Debug, Clone)]
pub struct TileDigest {
    /// The tile.
    pub coord: TileCoord,
    /// Its problems ([`check_tile`]).
    pub problems: Vec<String>,
    /// The oddities its decoder accepted (warnings).
    pub quirks: Vec<FileQuirk>,
    /// Seams between its own chunks larger than the threshold.
    pub seams: Vec<Seam>,
    /// How many seams between its own chunks are at most the threshold (but not none).
    pub small_seams: usize,
    /// Its border heights, for the seams with its neighbours.
    pub edges: TileEdges,
    /// Its doodad and WMO records, for uniqueId clashes (emptied once they have been checked).
    pub listings: Vec<Listing>,
    /// Its heights as a WDL stores them, to compare with the WDL beside the map.
    pub wdl: WdlTile,
    /// The area ids its chunks use (for `--client`: AreaTable must know them).
    pub areas: BTreeSet<u32>,
    /// The LiquidType ids its liquids use (for `--client`: LiquidType must know them).
    pub liquids: BTreeSet<u16>,
}

/// Reduces a tile of a map read as `generation` to what `check` needs of it; seams of at most
/// `seam_threshold` yards are only counted.
pub fn digest(tile: &Tile, generation: Generation, seam_threshold: f32) -> TileDigest {
    let (seams, small): (Vec<Seam>, Vec<Seam>) = seams::within(tile)
        .into_iter()
        .partition(|s| s.size > seam_threshold);
    TileDigest {
        coord: tile.coord,
        problems: check_tile(tile),
        quirks: tile.quirks.found.clone(),
        seams,
        small_seams: small.len(),
        edges: TileEdges::of(tile),
        listings: uids::tile_listings(tile),
        wdl: crate::pipeline::wdl::wdl_tile(tile, generation),
        areas: tile.chunks.iter().map(|c| c.area_id).collect(),
        liquids: tile
            .chunks
            .iter()
            .flat_map(|c| c.liquid.iter().flat_map(|l| &l.layers))
            .map(|l| l.liquid_type)
            .collect(),
    }
}

/// What checking a map found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Every problem, errors and warnings, seams larger than the threshold among them (largest
    /// first).
    pub problems: Vec<Problem>,
    /// How many borders have seams of at most the threshold (but not none): float noise, only
    /// counted.
    pub small_seams: usize,
    /// The generation the tiles were read as, and why.
    pub decision: Decision,
    /// What the client checks (`--client`) need of the map.
    pub uses: MapUses,
}

/// Checks one map that opened; returns its problems, seams larger than `seam_threshold` yards
/// among them (largest first; [`check_opened`] also counts the rest).
pub fn check_map(opened: &pipeline::OpenedMap, seam_threshold: f32) -> Vec<Problem> {
    check_opened(opened, seam_threshold).problems
}

/// The digests of a map's tiles, gathered in row order ([`uids::listings`] order) so that the
/// uniqueIds are checked as the tiles come and not kept.
#[derive(Default)]
struct Gathered {
    digests: Vec<TileDigest>,
    uids: uids::ClashFinder,
}

impl Gathered {
    /// Takes the next tile's digest, in row order.
    fn add(&mut self, mut d: TileDigest) {
        for l in std::mem::take(&mut d.listings) {
            self.uids.add(l);
        }
        self.digests.push(d);
    }
}

/// Checks one map that opened, through the digests of its tiles as [`check_path`] does.
pub fn check_opened(opened: &pipeline::OpenedMap, seam_threshold: f32) -> Report {
    let mut tiles: Vec<&Tile> = opened.map.tiles.values().collect();
    tiles.sort_by_key(|t| t.coord.index());
    let mut gathered = Gathered::default();
    for t in tiles {
        gathered.add(digest(t, opened.generation, seam_threshold));
    }
    report(opened, gathered, seam_threshold)
}

/// Checks the map at `path` tile by tile (see the module's doc); a lone tile and a 0.5.5 map
/// with prototype ADTs beside its WDT are opened whole. An error is a map that cannot be opened
/// at all (no WDT, no tiles, a WDT that does not decode).
pub fn check_path(
    path: &Path,
    seam_threshold: f32,
    from: Option<Generation>,
) -> Result<Report, LoamError> {
    let Some(source) = pipeline::source::open_source_with(path, from, false)? else {
        return Ok(check_opened(
            &pipeline::open_map_as(path, from)?,
            seam_threshold,
        ));
    };
    let generation = source.decision.generation;
    let mut gathered = Gathered::default();
    let failed = source.visit_tiles(
        |t| digest(&t, generation, seam_threshold),
        |d| gathered.add(d),
    );
    Ok(report(
        &source.into_opened(failed),
        gathered,
        seam_threshold,
    ))
}

/// The problems of `opened` (its header: missing and unreadable tiles, the WDT's quirks) and of
/// the tiles `digests` describe, in the order `check` prints them.
fn report(opened: &pipeline::OpenedMap, gathered: Gathered, seam_threshold: f32) -> Report {
    let Gathered { mut digests, uids } = gathered;
    // The map's tile order, as the tiles of an open map are visited.
    digests.sort_by_key(|d| d.coord);
    let map = &opened.map;
    let mut problems = Vec::new();
    let wdt = opened.wdt.clone().unwrap_or_else(|| opened.folder.clone());
    let tile_file = |c: TileCoord| opened.folder.join(disk::tile_file_name(&map.name, c));
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
            tile_file(*c),
            format!("tile {}_{} cannot be read: {why}", c.x, c.y),
        ));
    }
    let warning = |file: &PathBuf, q: &FileQuirk| Problem {
        file: file.clone(),
        message: q.to_string(),
        severity: Severity::Warning,
    };
    problems.extend(map.wdt_quirks.iter().map(|q| warning(&wdt, q)));
    for d in &digests {
        let file = match &opened.lone_tile_file {
            Some(name) => opened.folder.join(name),
            None => tile_file(d.coord),
        };
        problems.extend(d.quirks.iter().map(|q| warning(&file, q)));
    }
    for d in &digests {
        let file = tile_file(d.coord);
        problems.extend(
            d.problems
                .iter()
                .map(|m| Problem::error(file.clone(), m.clone())),
        );
    }
    let mut listed: Vec<Seam> = digests.iter().flat_map(|d| d.seams.clone()).collect();
    let mut small_seams: usize = digests.iter().map(|d| d.small_seams).sum();
    let edges = digests.iter().map(|d| (d.coord, d.edges.clone())).collect();
    for seam in seams::between_tiles(&edges) {
        if seam.size > seam_threshold {
            listed.push(seam);
        } else {
            small_seams += 1;
        }
    }
    seams::sort(&mut listed);
    for seam in &listed {
        // A seam inside a tile belongs to its file; one between tiles to the map.
        let file = if seam.crosses_tiles() {
            wdt.clone()
        } else {
            tile_file(seam.a.tile)
        };
        problems.push(Problem::error(file, seam_message(seam)));
    }
    for message in clash_messages(uids.clashes) {
        problems.push(Problem::error(wdt.clone(), message));
    }
    if opened.wdt.is_some() {
        let now = digests.iter().map(|d| (d.coord, d.wdl.clone())).collect();
        problems.extend(check_wdl(opened, &now));
    }
    let mut uses = MapUses {
        name: map.name.clone(),
        wdt: wdt.clone(),
        wdt_lacks_mwmo: opened.wdt.is_some()
            && opened.generation >= Generation::V060
            && map.global_wmo.is_none()
            && !map.empty_wmo_names_chunk,
        ..MapUses::default()
    };
    for d in &digests {
        for &a in &d.areas {
            uses.areas.entry(a).or_insert(d.coord);
        }
        for &l in &d.liquids {
            uses.liquids.entry(l).or_insert(d.coord);
        }
    }
    Report {
        problems,
        small_seams,
        decision: opened.decision.clone(),
        uses,
    }
}

/// Checks the WDL beside a map's WDT, when there is one: it decodes (every MAOF offset points
/// at a MARE of the right size), it has a tile for each of the WDT's tiles and none more, and
/// its heights are near the tiles' own, `now` (far ones are a warning: a WDL older than the last
/// edit; `loam wdl` writes it anew).
fn check_wdl(opened: &pipeline::OpenedMap, now: &BTreeMap<TileCoord, WdlTile>) -> Vec<Problem> {
    use crate::pipeline::wdl;
    let map = &opened.map;
    let Some(path) = wdl::find_beside(&opened.folder, &map.name) else {
        return Vec::new();
    };
    let decoded = match wdl::read_wdl(&path) {
        Ok(w) => w,
        Err(e) => return vec![Problem::error(path, e.to_string())],
    };
    let listed: std::collections::BTreeSet<_> = map.present_tiles().into_iter().collect();
    let m = wdl::compare(&decoded, &listed, now);
    let mut out = Vec::new();
    let name = |c: &TileCoord| format!("tile {}_{}", c.x, c.y);
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

/// Problems inside one tile (seams are measured over the whole map, see [`report`]).
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
    for (i, share) in Staleness::of(tile, Sun::DEFAULT).stale_chunks() {
        out.push(format!(
            "chunk {},{}: stale shadows: the terrain now shadows {:.0}% of the chunk where its shadow map is lit (baked before the terrain moved?); loam fix --shadows bakes them again",
            i % 16,
            i / 16,
            share * 100.0
        ));
    }
    for (i, c) in tile.chunks.iter().enumerate() {
        let stale = crate::edit::derived::ground_effects::stale_cells(c);
        if !stale.is_empty() {
            out.push(format!(
                "chunk {},{}: stale ground-effect map: {} of 64 cells grow the effect of a layer that covers little of them (painted over by another tool?); loam fix --ground-effects works it out again",
                i % 16,
                i / 16,
                stale.len()
            ));
        }
    }
    for p in flight_bounds::poke_through(tile) {
        let (plane, side, fix) = match p.plane {
            Plane::Ceiling => ("ceiling", "below", "raises"),
            Plane::Floor => ("floor", "above", "lowers"),
        };
        out.push(format!(
            "flight {plane} {side} the ground by {:.1} yd near its point {} (worst in chunk {},{}; {} vertices); loam fix --flight-bounds {fix} it",
            p.by, p.point, p.chunk.0, p.chunk.1, p.vertices
        ));
    }
    for (kind, what, names) in [
        (ObjectKind::Doodad, "doodad", tile.doodad_names.len()),
        (ObjectKind::Wmo, "WMO", tile.wmo_names.len()),
    ] {
        for (k, p) in placements(tile, kind).enumerate() {
            if p.model(tile).is_none() {
                out.push(format!(
                    "{what} {k} (uniqueId {}) names model {} of {names}",
                    p.unique_id(),
                    p.name_index(),
                ));
            }
        }
    }
    out
}

/// The messages for uniqueIds shared by placements that are not the same object (an object
/// crossing a tile border is listed in each tile with one id; that is fine). `edit::objects::uids` holds
/// the rule, which `loam fix --uids` repairs by.
fn clash_messages(clashes: Vec<uids::Clash>) -> Vec<String> {
    clashes
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
    client: Option<&Path>,
) -> Result<ExitCode, LoamError> {
    if !(seam_threshold >= 0.0 && seam_threshold.is_finite()) {
        return Err(LoamError::Usage(format!(
            "--seam-threshold must be a number of yards, 0 or more, not {seam_threshold}"
        )));
    }
    let client = client
        .map(crate::assets::client::ClientData::open)
        .transpose()
        .map_err(|e| LoamError::Usage(e.to_string()))?;
    let (mut errors, mut warnings) = (0, 0);
    for path in paths {
        let (e, w) = print_check(path, seam_threshold, from, client.as_ref());
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

/// Checks one path (and, with `client`, what it needs of that client), printing its problems
/// and the count of small seams; returns how many errors and warnings there were.
fn print_check(
    path: &Path,
    seam_threshold: f32,
    from: Option<Generation>,
    client: Option<&crate::assets::client::ClientData>,
) -> (usize, usize) {
    match check_path(path, seam_threshold, from) {
        Err(e) => {
            println!("{e}");
            (1, 0)
        }
        Ok(mut report) => {
            if let Some(client) = client {
                let g = report.decision.generation;
                report.problems.extend(super::check_client::client_problems(
                    &report.uses,
                    g,
                    client,
                ));
            }
            let mut counts = (0, 0);
            for p in &report.problems {
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
            if counts.0 > 0 && report.decision.assumed {
                // A 0.6.0 map without liquid reads as 1.12 and then looks torn everywhere.
                println!(
                    "note: {} was read as {} ({}); if it is another generation, \
                     check it with --from GEN",
                    path.display(),
                    report.decision.generation,
                    report.decision.reason
                );
            }
            if report.small_seams > 0 {
                println!(
                    "{}: {} more seam(s) of at most {seam_threshold} yd, not listed \
                     (float noise; `loam fix --seams` closes them)",
                    path.display(),
                    report.small_seams
                );
            }
            counts
        }
    }
}
