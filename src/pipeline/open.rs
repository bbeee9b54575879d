//! Opening a map whole: the generation decided once from all of its files (or taken from the
//! user), every tile read with that one codec, and a tile that cannot be read set aside with its
//! reason instead of stopping the rest.
//!
//! Not for: finding the files (`locate`) or reading tiles one at a time as the streamed
//! conversion and the editor do (`pipeline::source`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::locate::{MapKind, MapSource, locate};
use crate::disk::{LoamError, Result, read_file};
use crate::format::evidence::{self, Decision, MapEvidence, TileEvidence};
use crate::format::v18::{self, AlphaDepth};
use crate::format::{Generation, alpha, proto055, v060};
use crate::model::map::{MAP_FLAG_BIG_ALPHA, MAP_FLAG_VERTEX_COLORS, Map, TILE_PRESENT};
use crate::model::{FileQuirk, QuirkKind, Tile, TileCoord};

/// What [`open_map`] found.
#[derive(Debug)]
pub struct OpenedMap {
    /// The map with every tile that could be read.
    pub map: Map,
    /// The folder the files are in.
    pub folder: PathBuf,
    /// The generation the files were read as.
    pub generation: Generation,
    /// How that generation was decided.
    pub decision: Decision,
    /// What kind of map it is (WDT, monolithic, WDT-less folder, lone tile).
    pub kind: MapKind,
    /// The WDT, when the map was opened from one.
    pub wdt: Option<PathBuf>,
    /// Tiles MAIN lists whose ADT is not on disk.
    pub missing_tiles: Vec<TileCoord>,
    /// Tiles whose file is there but cannot be read, with the reason (file, chunk, offset).
    pub failed: BTreeMap<TileCoord, String>,
    /// The file a lone ADT was read from, so that a save keeps its name.
    pub lone_tile_file: Option<String>,
}

impl OpenedMap {
    /// The map opened from `source`'s files: `map` with the tiles that were read, how its
    /// generation was decided, and the tiles that could not be read.
    pub fn of_source(
        map: Map,
        source: MapSource,
        decision: Decision,
        failed: BTreeMap<TileCoord, String>,
    ) -> OpenedMap {
        OpenedMap {
            map,
            folder: source.folder,
            generation: decision.generation,
            decision,
            kind: source.kind,
            wdt: source.wdt,
            missing_tiles: source.missing,
            failed,
            lone_tile_file: source.lone_tile_file,
        }
    }

    /// True when a save of the whole map writes a WDT: the map has one, or it is a folder map
    /// whose WDT is inferred from its tiles.
    pub fn writes_wdt(&self) -> bool {
        self.kind != MapKind::LoneTile
    }
}

/// Opens a map from a `.wdt`, an `.adt` or a folder (see [`locate`]), deciding its generation
/// from the bytes.
pub fn open_map(path: &Path) -> Result<OpenedMap> {
    open_map_as(path, None)
}

/// Opens a map as [`open_map`] does; `from` overrules the generation the bytes suggest.
pub fn open_map_as(path: &Path, from: Option<Generation>) -> Result<OpenedMap> {
    let source = locate(path)?;
    match source.kind {
        MapKind::Monolithic => open_monolithic(source, from),
        _ => open_split(source, from),
    }
}

/// The alpha depth a split map's tiles are read with: the WDT's flag, or, without a WDT, what
/// the tiles' alpha blocks show.
pub fn split_alpha_depth(header: Option<&Map>, evidence: &MapEvidence) -> AlphaDepth {
    let big = match header {
        Some(map) => map.big_alpha(),
        None => evidence.big_alpha > 0 || evidence.rle_alpha > 0,
    };
    if big {
        AlphaDepth::Big
    } else {
        AlphaDepth::Nibble
    }
}

/// The facts every tile of a split map shows, read in parallel (each file is read and dropped).
/// With `stop_at_proof`, tiles are no longer read once one proves "later than 1.12" (or the WDT
/// flags do): no later fact can change that decision (see `format::evidence::decide`), only its
/// counts, and reading a continent's every tile twice costs seconds.
pub fn scan_evidence(
    source: &MapSource,
    wdt_flags: Option<u32>,
    stop_at_proof: bool,
) -> MapEvidence {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    let mut e = MapEvidence::new(wdt_flags);
    let proven = AtomicBool::new(stop_at_proof && e.after_112());
    let per_tile: Vec<Option<TileEvidence>> = source
        .tiles
        .par_iter()
        .map(|(_, p)| {
            if proven.load(Ordering::Relaxed) {
                return None;
            }
            let t = read_file(p).ok().map(|b| TileEvidence::of(&b))?;
            if stop_at_proof && t.after_112() {
                proven.store(true, Ordering::Relaxed);
            }
            Some(t)
        })
        .collect();
    for t in &per_tile {
        match t {
            Some(t) => e.add(t),
            None => e.skipped += 1,
        }
    }
    e
}

/// Decides a split map's generation: its WDT flags and its tiles' evidence (every tile, or, with
/// `stop_at_proof` and a WDT, until one proves the answer), or `from`.
pub fn decide_split(
    source: &MapSource,
    header: Option<&Map>,
    from: Option<Generation>,
    stop_at_proof: bool,
) -> (Decision, MapEvidence) {
    // Without a WDT the evidence also sets the inferred header's flags: read every tile.
    let stop = stop_at_proof && header.is_some() && from.is_none();
    let evidence = scan_evidence(source, header.map(|m| m.flags), stop);
    (evidence::decide(&evidence, from), evidence)
}

/// Reads one split tile as `generation` (0.6.0, or 1.12/3.3.5 with `depth`).
pub fn read_tile_as(
    path: &Path,
    coord: Option<TileCoord>,
    generation: Generation,
    depth: AlphaDepth,
) -> Result<Tile> {
    let bytes = read_file(path)?;
    decode_tile_as(&bytes, path, coord, generation, depth)
}

/// Decodes one split tile's bytes as `generation`; errors name `path`.
pub fn decode_tile_as(
    bytes: &[u8],
    path: &Path,
    coord: Option<TileCoord>,
    generation: Generation,
    depth: AlphaDepth,
) -> Result<Tile> {
    let tile = match generation {
        Generation::V060 => v060::read_adt(bytes, coord),
        Generation::V112 | Generation::V335 => {
            // Read the tile the way its bytes prove, when they prove a depth the WDT does not
            // say; reading it the WDT's way would fail or garble it.
            let proven = v18::adt::proven_alpha_depth(bytes).filter(|(d, _)| *d != depth);
            let read_depth = proven.map_or(depth, |(d, _)| d);
            v18::read_adt(bytes, coord, read_depth).map(|mut tile| {
                if let Some((d, offset)) = proven {
                    let tile_big = d == AlphaDepth::Big;
                    tile.quirks.alpha_big = Some(tile_big);
                    tile.quirks.found.push(FileQuirk {
                        kind: QuirkKind::AlphaDepthDisagreesWithWdt { tile_big },
                        chunk: *b"MCNK",
                        chunk_index: None,
                        offset: offset as u64,
                    });
                }
                tile
            })
        }
        g => {
            return Err(LoamError::Usage(format!(
                "{}: a {g} map has no separate tile files",
                path.display()
            )));
        }
    };
    Ok(tile.map_err(|e| e.in_file(path))?)
}

fn open_split(source: MapSource, from: Option<Generation>) -> Result<OpenedMap> {
    if let Some(g) = from
        && g <= Generation::Alpha055
    {
        return Err(LoamError::Usage(format!(
            "{}: --from {g} names a monolithic map, but this is a split map",
            source.folder.display()
        )));
    }
    let header = source.split_header()?;
    let (decision, evidence) = decide_split(&source, header.as_ref(), from, false);
    let depth = split_alpha_depth(header.as_ref(), &evidence);
    let generation = decision.generation;
    let mut map = match header {
        Some(map) => map,
        None => inferred_header(&source.name, &evidence),
    };
    let loaded: Vec<(TileCoord, Result<Tile>)> = {
        use rayon::prelude::*;
        let lone = source.kind == MapKind::LoneTile;
        source
            .tiles
            .par_iter()
            .map(|(&coord, path)| {
                // A lone tile's name may not match its content; its chunks say where it is.
                let want = (!lone).then_some(coord);
                (coord, read_tile_as(path, want, generation, depth))
            })
            .collect()
    };
    let mut failed = BTreeMap::new();
    for (coord, tile) in loaded {
        match tile {
            Ok(t) => {
                if source.kind != MapKind::SplitWdt {
                    map.tile_flags[t.coord.index()] = TILE_PRESENT;
                }
                map.tiles.insert(t.coord, t);
            }
            Err(e) => {
                failed.insert(coord, e.to_string());
            }
        }
    }
    // A lone tile named otherwise than `Map_X_Y.adt`: read it now that its position is known.
    if source.kind == MapKind::LoneTile && source.tiles.is_empty() {
        let file = source
            .folder
            .join(source.lone_tile_file.clone().unwrap_or_default());
        let bytes = read_file(&file)?;
        let e = TileEvidence::of(&bytes);
        let mut ev = MapEvidence::new(None);
        ev.add(&e);
        let decision = evidence::decide(&ev, from);
        let depth = split_alpha_depth(None, &ev);
        let tile = decode_tile_as(&bytes, &file, None, decision.generation, depth)?;
        let mut map = inferred_header(&source.name, &ev);
        map.tile_flags[tile.coord.index()] = TILE_PRESENT;
        map.tiles.insert(tile.coord, tile);
        return Ok(OpenedMap {
            map,
            folder: source.folder,
            generation: decision.generation,
            decision,
            kind: source.kind,
            wdt: None,
            missing_tiles: Vec::new(),
            failed,
            lone_tile_file: source.lone_tile_file,
        });
    }
    // A lone tile that cannot be read is the whole request failing.
    if source.kind == MapKind::LoneTile
        && let Some((_, reason)) = failed.iter().next()
    {
        return Err(LoamError::Usage(reason.clone()));
    }
    Ok(OpenedMap::of_source(map, source, decision, failed))
}

/// The WDT header a map without one gets: the flags its tiles need (8-bit alpha, vertex
/// colours) and MAIN filled as tiles are added.
pub fn inferred_header(name: &str, evidence: &MapEvidence) -> Map {
    let mut map = Map::new(name);
    if evidence.big_alpha > 0 || evidence.rle_alpha > 0 {
        map.flags |= MAP_FLAG_BIG_ALPHA;
    }
    if evidence.mccv > 0 {
        map.flags |= MAP_FLAG_VERTEX_COLORS;
    }
    map
}

/// Why a monolithic WDT is 0.5.x: its layout alone says so.
pub(crate) const MONOLITHIC_REASON: &str = "monolithic WDT (128-byte MPHD, 16-byte MAIN entries)";

/// Opens a 0.5.x monolithic WDT: its embedded tiles, plus the 0.5.5 prototype ADTs beside it
/// for tiles its MAIN marks as stored outside. A map with any prototype ADT is 0.5.5; one
/// without cannot be told from 0.5.3 (same file) and opens as 0.5.3 unless `from` says 0.5.5.
fn open_monolithic(source: MapSource, from: Option<Generation>) -> Result<OpenedMap> {
    if let Some(g) = from
        && g > Generation::Alpha055
    {
        return Err(LoamError::Usage(format!(
            "--from {g} names a split map, but {} is a 0.5.x monolithic WDT",
            source.wdt.as_deref().unwrap_or(Path::new("")).display()
        )));
    }
    let path = source.wdt.clone().unwrap_or_default();
    // Opening the whole map in memory needs the whole file.
    let bytes = read_file(&path)?;
    let (mut map, tile_errors) =
        alpha::read_wdt_tolerant(&bytes, &source.name).map_err(|e| e.in_file(&path))?;
    let mut failed: BTreeMap<TileCoord, String> = tile_errors
        .into_iter()
        .map(|(c, e)| (c, e.in_file(&path).to_string()))
        .collect();
    let mut names = map.map_wide_names.take().unwrap_or_default();
    let mut generation = from.unwrap_or(Generation::Alpha053);
    let mut reason = MONOLITHIC_REASON.to_string();
    let mut missing = Vec::new();
    for coord in map.present_tiles() {
        if map.tiles.contains_key(&coord) || failed.contains_key(&coord) {
            continue;
        }
        let tile_path = source
            .folder
            .join(crate::disk::tile_file_name(&source.name, coord));
        if !tile_path.exists() {
            missing.push(coord);
            continue;
        }
        let read = read_file(&tile_path).and_then(|tile_bytes| {
            if !proto055::is_prototype_adt(&tile_bytes) {
                return Err(LoamError::Usage(format!(
                    "{}: a 0.5.x WDT lists this tile outside, but the file is not a 0.5.5 \
                     prototype ADT (it does not start with MHDR)",
                    tile_path.display()
                )));
            }
            Ok(proto055::read_adt(&tile_bytes, coord, &mut names)
                .map_err(|e| e.in_file(&tile_path))?)
        });
        match read {
            Ok(tile) => {
                map.tiles.insert(coord, tile);
                generation = Generation::Alpha055;
                reason = "monolithic WDT with 0.5.5 prototype ADTs beside it".to_string();
            }
            Err(e) => {
                failed.insert(coord, e.to_string());
            }
        }
    }
    if from.is_some() {
        reason = format!("{reason}; as --from / Read as says");
    }
    map.map_wide_names = Some(names);
    Ok(OpenedMap {
        map,
        folder: source.folder,
        generation,
        decision: Decision {
            generation,
            reason,
            assumed: false,
        },
        kind: MapKind::Monolithic,
        wdt: source.wdt,
        missing_tiles: missing,
        failed,
        lone_tile_file: None,
    })
}
