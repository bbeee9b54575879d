//! A map's tiles as they lie on disk, read one at a time: split tile files, or tile blocks
//! inside a 0.5.x monolithic WDT read by offset (never the whole file). Both the streamed
//! conversion and the editor read tiles through this, so that neither holds more of a map than
//! it is working on.
//!
//! Not for: deciding what a path is (see `locate`) or writing (see `stream`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::locate::{MapKind, MapSource, locate};
use super::open::{MONOLITHIC_REASON, decide_split, decode_tile_as, inferred_header};
use crate::disk::{LoamError, Result, io_err, read_file};
use crate::format::Generation;
use crate::format::alpha::wdt::{self as alpha_wdt, MAIN_DATA_OFFSET, MAIN_ENTRY_BYTES};
use crate::format::evidence::Decision;
use crate::format::v18::{self, AlphaDepth};
use crate::model::blank::BlankTile;
use crate::model::map::{Map, TILE_PRESENT};
use crate::model::monolithic::MapWideNames;
use crate::model::objects::UidTiles;
use crate::model::{Tile, TileCoord};

/// A monolithic tile's view of the map-wide names: the MDNM and MONM index of each of its own
/// doodad and WMO names (`None` for split tiles, whose names are their own).
pub type NameView = Option<(Vec<u32>, Vec<u32>)>;

/// Where each tile of a map comes from.
#[derive(Debug, Clone)]
pub enum TileSource {
    /// Split tile files, read as one generation with one alpha depth.
    Split {
        /// Each tile's file.
        files: BTreeMap<TileCoord, PathBuf>,
        /// The generation every tile is read as (decided once for the map).
        generation: Generation,
        /// The alpha depth every tile is read with.
        depth: AlphaDepth,
    },
    /// Tile blocks inside a monolithic WDT file, read by offset.
    Monolithic {
        /// The WDT.
        file: PathBuf,
        /// MDNM and MONM, which each block's MDDF/MODF index into.
        names: MapWideNames,
        /// Each embedded tile and the offset of its MHDR, in MAIN order.
        blocks: BTreeMap<TileCoord, usize>,
    },
    /// Tiles made rather than read: every tile of a new map (`loam new`), or the tiles added to
    /// one, each built as [`BlankTile::tile`] builds it.
    Blank {
        /// The tiles there are.
        coords: BTreeSet<TileCoord>,
        /// What each is made of.
        tile: BlankTile,
    },
}

impl TileSource {
    /// Every tile the source holds, in MAIN order (row by row), the order a monolithic WDT
    /// stores them in.
    pub fn coords(&self) -> Vec<TileCoord> {
        let mut c: Vec<TileCoord> = match self {
            TileSource::Split { files, .. } => files.keys().copied().collect(),
            TileSource::Monolithic { blocks, .. } => blocks.keys().copied().collect(),
            TileSource::Blank { coords, .. } => coords.iter().copied().collect(),
        };
        c.sort_by_key(|t| t.index());
        c
    }

    /// The generation the tiles are read as, for a split source (a monolithic one is 0.5.x).
    pub fn split_generation(&self) -> Option<Generation> {
        match self {
            TileSource::Split { generation, .. } => Some(*generation),
            TileSource::Monolithic { .. } | TileSource::Blank { .. } => None,
        }
    }

    /// The file tile `coord` is read from.
    pub fn file_of(&self, coord: TileCoord) -> Option<&Path> {
        match self {
            TileSource::Split { files, .. } => files.get(&coord).map(PathBuf::as_path),
            TileSource::Monolithic { file, blocks, .. } => {
                blocks.contains_key(&coord).then_some(file.as_path())
            }
            TileSource::Blank { .. } => None,
        }
    }

    /// Reads one tile; for a monolithic source also its view of the map-wide names, so that a
    /// 0.5.x re-save keeps them.
    pub fn read(&self, coord: TileCoord) -> Result<(Tile, NameView)> {
        match self {
            TileSource::Split {
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
            TileSource::Monolithic {
                file,
                names,
                blocks,
            } => {
                let at = *blocks.get(&coord).ok_or_else(|| {
                    LoamError::Usage(format!(
                        "{}: no tile {}_{} in this WDT",
                        file.display(),
                        coord.x,
                        coord.y
                    ))
                })?;
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
            TileSource::Blank { coords, tile } => {
                if !coords.contains(&coord) {
                    return Err(LoamError::Usage(format!("no new tile {coord:?}")));
                }
                Ok((tile.tile(coord), None))
            }
        }
    }

    /// Only the uniqueIds a tile's placements use, cheaply where the source allows: a split
    /// tile's MDDF/MODF without decoding its chunks.
    pub fn unique_ids(&self, coord: TileCoord) -> Result<Vec<u32>> {
        match self {
            TileSource::Split { .. } => {
                let (_, bytes) = self.split_bytes(coord)?;
                // The walk over top-level chunks is v18's; a file it cannot walk (another
                // generation, or a tool's odd layout the full reader tolerates) is read whole.
                let v18 = matches!(
                    self.split_generation(),
                    Some(Generation::V112 | Generation::V335)
                );
                match v18::adt::read_unique_ids(&bytes) {
                    Ok(ids) if v18 => Ok(ids),
                    _ => self.unique_ids_of_whole_tile(coord),
                }
            }
            TileSource::Monolithic { .. } => self.unique_ids_of_whole_tile(coord),
            // A blank tile places nothing.
            TileSource::Blank { .. } => Ok(Vec::new()),
        }
    }

    /// A split tile's file and its bytes.
    fn split_bytes(&self, coord: TileCoord) -> Result<(&Path, Vec<u8>)> {
        let path = self
            .file_of(coord)
            .ok_or_else(|| LoamError::Usage(format!("no file for tile {coord:?}")))?;
        Ok((path, read_file(path)?))
    }

    /// The uniqueIds of a tile read and decoded whole.
    fn unique_ids_of_whole_tile(&self, coord: TileCoord) -> Result<Vec<u32>> {
        let (tile, _) = self.read(coord)?;
        Ok(tile
            .doodads
            .iter()
            .map(|d| d.unique_id)
            .chain(tile.wmos.iter().map(|w| w.unique_id))
            .collect())
    }

    /// Only a tile's model names (what the map-wide lists of a 0.5.x save need), cheaply
    /// where the source allows: a split tile's MMDX/MWMO without decoding its chunks.
    pub fn model_names(&self, coord: TileCoord) -> Result<(Vec<String>, Vec<String>, NameView)> {
        match self {
            TileSource::Split { .. } => {
                let (path, bytes) = self.split_bytes(coord)?;
                let (d, w) = v18::adt::read_model_names(&bytes).map_err(|e| e.in_file(path))?;
                Ok((d, w, None))
            }
            TileSource::Monolithic { .. } | TileSource::Blank { .. } => {
                let (tile, view) = self.read(coord)?;
                Ok((tile.doodad_names, tile.wmo_names, view))
            }
        }
    }
}

impl TileSource {
    /// The uniqueIds of the tiles `coords` (read cheaply, see [`TileSource::unique_ids`]). An
    /// unreadable tile is left out: it is never written, so its uids cannot clash on disk with
    /// a new object's in a file loam writes.
    pub fn uid_tiles(&self, coords: &[TileCoord]) -> UidTiles {
        let mut all = UidTiles::new();
        for &c in coords {
            if let Ok(ids) = self.unique_ids(c) {
                for id in ids {
                    let tiles = all.entry(id).or_default();
                    if !tiles.contains(&c) {
                        tiles.push(c);
                    }
                }
            }
        }
        all
    }
}

/// Takes a tile read from `TileSource::read` into `map`, with a 0.5.x tile's view of the
/// map-wide names (which a later 0.5.x save of the tile needs).
pub fn take_tile(map: &mut Map, tile: Tile, view: NameView) {
    if let (Some((doodads, wmos)), Some(names)) = (view, &mut map.map_wide_names) {
        names.tile_doodad_indices.insert(tile.coord, doodads);
        names.tile_wmo_indices.insert(tile.coord, wmos);
    }
    map.tiles.insert(tile.coord, tile);
}

/// Reads the tiles `wanted` from `source` in parallel into `map` (see [`take_tile`]); returns
/// those that could not be read, with why. Callers choose what to read: this reads all of it.
pub fn read_into(
    map: &mut Map,
    source: &TileSource,
    wanted: &[TileCoord],
) -> Vec<(TileCoord, String)> {
    use rayon::prelude::*;
    let read: Vec<_> = wanted.par_iter().map(|&c| (c, source.read(c))).collect();
    let mut failed = Vec::new();
    for (c, r) in read {
        match r {
            Ok((tile, view)) => take_tile(map, tile, view),
            Err(e) => failed.push((c, e.to_string())),
        }
    }
    failed
}

/// A map opened for reading tile by tile: its header (no tiles), where its tiles are, how its
/// generation was decided, and what was found on disk.
#[derive(Debug)]
pub struct OpenedSource {
    /// The map without tiles (the WDT's, or one inferred from a folder of tiles).
    pub header: Map,
    /// Where its tiles are.
    pub tiles: TileSource,
    /// How the generation was decided.
    pub decision: Decision,
    /// What the path stands for on disk.
    pub source: MapSource,
}

impl OpenedSource {
    /// Reads every tile, a few per worker at a time and in row order (MAIN's order, the order
    /// uniqueIds are checked in), reduces each with `reduce` and gives the results to `take` in
    /// that order; only the tiles in flight are held whole. Returns the tiles that could not be
    /// read, with the reason.
    pub fn visit_tiles<T: Send>(
        &self,
        reduce: impl Fn(Tile) -> T + Sync,
        mut take: impl FnMut(T),
    ) -> BTreeMap<TileCoord, String> {
        use rayon::prelude::*;
        let mut failed = BTreeMap::new();
        let batch = rayon::current_num_threads().max(1) * 2;
        for coords in self.tiles.coords().chunks(batch) {
            let read: Vec<(TileCoord, Result<T>)> = coords
                .par_iter()
                .map(|&c| (c, self.tiles.read(c).map(|(t, _)| reduce(t))))
                .collect();
            for (c, r) in read {
                match r {
                    Ok(t) => take(t),
                    Err(e) => {
                        failed.insert(c, e.to_string());
                    }
                }
            }
        }
        failed
    }

    /// The map opened without its tiles, `failed` listed as a whole open lists the tiles that
    /// could not be read.
    pub fn into_opened(self, failed: BTreeMap<TileCoord, String>) -> super::OpenedMap {
        let mut header = self.header;
        if self.source.kind == MapKind::Folder {
            // As a whole open does: a folder's MAIN lists only the tiles that read.
            for c in failed.keys() {
                header.tile_flags[c.index()] = 0;
            }
        }
        header.tiles.clear();
        super::OpenedMap::of_source(header, self.source, self.decision, failed)
    }
}

/// Opens the map at `path` for tile-by-tile reading: a split WDT or a folder of tiles (the
/// generation decided from the tiles' bytes, or `from`), or a 0.5.x monolithic WDT whose tiles
/// are all embedded (its header read, not its tiles). A lone tile, or a 0.5.5 map with
/// prototype ADTs beside its WDT, has no tile-by-tile form: `Ok(None)`, read it whole.
pub fn open_source(path: &Path, from: Option<Generation>) -> Result<Option<OpenedSource>> {
    open_source_with(path, from, true)
}

/// [`open_source`], choosing whether the generation's evidence stops at the first tile that
/// proves it (`stop_at_proof`, as conversions do: the decision is the same, only its counts
/// are not) or counts every tile (as [`super::open_map`] does, for `loam info`'s report).
pub fn open_source_with(
    path: &Path,
    from: Option<Generation>,
    stop_at_proof: bool,
) -> Result<Option<OpenedSource>> {
    let source = locate(path)?;
    match source.kind {
        MapKind::LoneTile => Ok(None),
        MapKind::Monolithic => {
            let file = source.wdt.clone().unwrap_or_default();
            if let Some(g) = from
                && g > Generation::Alpha055
            {
                return Err(LoamError::Usage(format!(
                    "--from {g} names a split map, but {} is a 0.5.x monolithic WDT",
                    file.display()
                )));
            }
            let h = read_monolithic_header(&file, &source.name)?;
            if h.map.present_tiles().len() > h.tiles.len() {
                // Some tiles are 0.5.5 prototype ADTs beside the WDT.
                return Ok(None);
            }
            let generation = from.unwrap_or(Generation::Alpha053);
            let mut reason = MONOLITHIC_REASON.to_string();
            if from.is_some() {
                reason = format!("{reason}; as --from / Read as says");
            }
            let mut header = h.map;
            header.map_wide_names = Some(h.names.clone());
            Ok(Some(OpenedSource {
                header,
                tiles: TileSource::Monolithic {
                    file,
                    names: h.names,
                    blocks: h.tiles.into_iter().collect(),
                },
                decision: Decision {
                    generation,
                    reason,
                    assumed: false,
                },
                source,
            }))
        }
        MapKind::SplitWdt | MapKind::Folder => {
            if let Some(g) = from
                && g <= Generation::Alpha055
            {
                return Err(LoamError::Usage(format!(
                    "--from {g} names a monolithic map, but {} is a split map",
                    path.display()
                )));
            }
            let header = source.split_header()?;
            let (decision, evidence) = decide_split(&source, header.as_ref(), from, stop_at_proof);
            let depth = super::open::split_alpha_depth(header.as_ref(), &evidence);
            let mut map = header.unwrap_or_else(|| inferred_header(&source.name, &evidence));
            if source.kind == MapKind::Folder {
                for c in source.tiles.keys() {
                    map.tile_flags[c.index()] = TILE_PRESENT;
                }
            }
            Ok(Some(OpenedSource {
                header: map,
                tiles: TileSource::Split {
                    files: source.tiles.clone(),
                    generation: decision.generation,
                    depth,
                },
                decision,
                source,
            }))
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

/// Reads a monolithic WDT's header chunks: MVER, MPHD and MAIN, and up to the first tile
/// (where MDNM, MONM and the map-wide MODF are), never the tiles.
pub fn read_monolithic_header(path: &Path, name: &str) -> Result<alpha_wdt::WdtHeader> {
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

/// A map's tiles, read one at a time however the map is stored.
pub struct MapTiles {
    /// The map's name.
    pub name: String,
    /// Its generation, as decided.
    pub generation: Generation,
    /// The folder its files are in.
    pub folder: PathBuf,
    source: Option<TileSource>,
    whole: Option<crate::model::Map>,
}

impl MapTiles {
    /// Opens the map at `path` (read as `from`, or as its bytes decide).
    pub fn open(path: &Path, from: Option<Generation>) -> Result<MapTiles> {
        match open_source(path, from)? {
            Some(s) => Ok(MapTiles {
                name: s.header.name.clone(),
                generation: s.decision.generation,
                folder: s.source.folder.clone(),
                source: Some(s.tiles),
                whole: None,
            }),
            None => {
                let opened = super::open_map_as(path, from)?;
                Ok(MapTiles {
                    name: opened.map.name.clone(),
                    generation: opened.generation,
                    folder: opened.folder.clone(),
                    source: None,
                    whole: Some(opened.map),
                })
            }
        }
    }

    /// The tiles it has.
    pub fn coords(&self) -> Vec<TileCoord> {
        match (&self.source, &self.whole) {
            (Some(s), _) => s.coords(),
            (None, Some(m)) => m.tiles.keys().copied().collect(),
            (None, None) => Vec::new(),
        }
    }

    /// Reads tile `c`.
    pub fn read(&self, c: TileCoord) -> Result<Tile> {
        match (&self.source, &self.whole) {
            (Some(s), _) => s.read(c).map(|(t, _)| t),
            (None, Some(m)) => m
                .tiles
                .get(&c)
                .cloned()
                .ok_or_else(|| LoamError::Usage(format!("no tile {}_{}", c.x, c.y))),
            (None, None) => Err(LoamError::Usage("no tiles".into())),
        }
    }
}
