//! Finding a map's files: what a path the user gave (a `.wdt`, an `.adt`, or a folder) stands
//! for, and where each of its tiles is on disk.
//!
//! File names are matched without regard to case, since maps copied from Windows arrive as
//! `azeroth_32_48.adt` beside `Azeroth.wdt`. Not for: reading the files (see `open`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use crate::disk::{LoamError, Result, io_err, parse_tile_file_name, read_file};
use crate::format::alpha;
use crate::format::v18;
use crate::model::TileCoord;
use crate::model::map::Map;

/// What kind of map a path stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapKind {
    /// A split WDT with `Name_X_Y.adt` tiles beside it.
    SplitWdt,
    /// A 0.5.x monolithic WDT (tiles inside, or 0.5.5 prototype ADTs beside it).
    Monolithic,
    /// `Name_X_Y.adt` files with no WDT: the map is inferred from the tiles present.
    Folder,
    /// One `.adt` on its own.
    LoneTile,
}

/// A map found on disk, before any tile is decoded.
#[derive(Debug, Clone)]
pub struct MapSource {
    /// The map's name ("Azeroth").
    pub name: String,
    /// The folder its files are in.
    pub folder: PathBuf,
    /// What kind of map it is.
    pub kind: MapKind,
    /// The WDT file, for the WDT kinds.
    pub wdt: Option<PathBuf>,
    /// The split WDT's bytes (read once here; a few tens of KB). A monolithic WDT, which can
    /// be a gigabyte, is not held: its readers take what they need from the file.
    pub wdt_bytes: Option<Vec<u8>>,
    /// Split tiles on disk: every tile MAIN lists that has a file, every tile of a folder map,
    /// or the lone tile.
    pub tiles: BTreeMap<TileCoord, PathBuf>,
    /// Tiles MAIN lists whose file is not in the folder.
    pub missing: Vec<TileCoord>,
    /// The lone tile's file name, so that saves keep it.
    pub lone_tile_file: Option<String>,
}

/// The files of a folder, indexed by lower-case name.
fn folder_index(folder: &Path) -> Result<HashMap<String, PathBuf>> {
    let dir = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let mut index = HashMap::new();
    for entry in fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        let path = entry.path();
        if path.is_file() {
            let name = entry.file_name().to_string_lossy().to_lowercase();
            index.insert(name, folder.join(entry.file_name()));
        }
    }
    Ok(index)
}

/// The tile files of map `name` in a folder index.
fn tiles_named(index: &HashMap<String, PathBuf>, name: &str) -> BTreeMap<TileCoord, PathBuf> {
    let lower = name.to_lowercase();
    index
        .iter()
        .filter_map(|(file, path)| {
            let (n, coord) = parse_tile_file_name(file)?;
            (n == lower).then(|| (coord, path.clone()))
        })
        .collect()
}

/// The map names the tile files of a folder index belong to.
fn map_names(index: &HashMap<String, PathBuf>) -> BTreeSet<String> {
    index
        .values()
        .filter_map(|p| parse_tile_file_name(&p.file_name()?.to_string_lossy()))
        .map(|(n, _)| n)
        .collect()
}

/// Finds the map `path` stands for: a `.wdt` (with the tiles MAIN lists), an `.adt` (alone, or
/// with its sibling tiles when the folder has no WDT), or a folder (its WDT if it has one, else
/// its `Name_X_Y.adt` files).
pub fn locate(path: &Path) -> Result<MapSource> {
    if path.is_dir() {
        return locate_folder(path);
    }
    let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match ext.as_str() {
        "wdt" => locate_wdt(path, &stem, folder),
        "adt" => {
            let file_name = path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !path.is_file() {
                // Let the read name the problem (no such file, a folder, no permission).
                read_file(path)?;
            }
            if let Some((name, coord)) = parse_tile_file_name(&file_name) {
                let index = folder_index(&folder)?;
                let has_wdt = index.contains_key(&format!("{}.wdt", name.to_lowercase()));
                let siblings = tiles_named(&index, &name);
                if !has_wdt && siblings.len() > 1 {
                    return Ok(folder_map(&name, folder, siblings));
                }
                return Ok(MapSource {
                    name,
                    folder,
                    kind: MapKind::LoneTile,
                    wdt: None,
                    wdt_bytes: None,
                    tiles: BTreeMap::from([(coord, path.to_path_buf())]),
                    missing: Vec::new(),
                    lone_tile_file: Some(file_name),
                });
            }
            // A tile named otherwise keeps its file name as the map name; its position comes
            // from its chunks when it is read.
            Ok(MapSource {
                name: stem,
                folder,
                kind: MapKind::LoneTile,
                wdt: None,
                wdt_bytes: None,
                tiles: BTreeMap::new(),
                missing: Vec::new(),
                lone_tile_file: Some(file_name),
            })
        }
        _ => Err(LoamError::Usage(format!(
            "{}: expected a .wdt or .adt file, or a folder of Name_X_Y.adt tiles",
            path.display()
        ))),
    }
}

/// A folder: its WDT when it has exactly one map with one, else its tiles as a WDT-less map.
fn locate_folder(folder: &Path) -> Result<MapSource> {
    let index = folder_index(folder)?;
    let mut names = map_names(&index);
    let wdts: Vec<&PathBuf> = index
        .iter()
        .filter(|(n, _)| n.ends_with(".wdt"))
        .map(|(_, p)| p)
        .collect();
    for w in &wdts {
        if let Some(stem) = w.file_stem() {
            names.insert(stem.to_string_lossy().to_lowercase());
        }
    }
    // Tile names are kept as written; compare without case.
    let distinct: BTreeSet<String> = names.iter().map(|n| n.to_lowercase()).collect();
    match distinct.len() {
        0 => Err(LoamError::Usage(format!(
            "{}: no .wdt and no Name_X_Y.adt tile in this folder",
            folder.display()
        ))),
        1 => {
            let lower = distinct.into_iter().next().unwrap_or_default();
            if let Some(wdt) = wdts.iter().find(|w| {
                w.file_stem()
                    .is_some_and(|s| s.to_string_lossy().to_lowercase() == lower)
            }) {
                let stem = wdt
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                return locate_wdt(wdt, &stem, folder.to_path_buf());
            }
            let tiles = tiles_named(&index, &lower);
            // Keep the name as the files spell it.
            let name = names.into_iter().next().unwrap_or(lower);
            Ok(folder_map(&name, folder.to_path_buf(), tiles))
        }
        _ => Err(LoamError::Usage(format!(
            "{}: this folder holds several maps ({}); open one's .wdt or one of its tiles",
            folder.display(),
            names.into_iter().collect::<Vec<_>>().join(", ")
        ))),
    }
}

fn folder_map(name: &str, folder: PathBuf, tiles: BTreeMap<TileCoord, PathBuf>) -> MapSource {
    MapSource {
        name: name.to_string(),
        folder,
        kind: MapKind::Folder,
        wdt: None,
        wdt_bytes: None,
        tiles,
        missing: Vec::new(),
        lone_tile_file: None,
    }
}

/// Enough of a WDT's start to tell a monolithic WDT (MVER, 128-byte MPHD, MAIN of 16-byte
/// entries) from a split one.
const SNIFF_BYTES: u64 = 4096;

fn locate_wdt(path: &Path, name: &str, folder: PathBuf) -> Result<MapSource> {
    let head = {
        use std::io::Read;
        let f = fs::File::open(path).map_err(io_err(path))?;
        let mut head = Vec::new();
        f.take(SNIFF_BYTES)
            .read_to_end(&mut head)
            .map_err(io_err(path))?;
        head
    };
    let monolithic = alpha::is_monolithic(&head);
    let mut source = MapSource {
        name: name.to_string(),
        folder,
        kind: if monolithic {
            MapKind::Monolithic
        } else {
            MapKind::SplitWdt
        },
        wdt: Some(path.to_path_buf()),
        wdt_bytes: None,
        tiles: BTreeMap::new(),
        missing: Vec::new(),
        lone_tile_file: None,
    };
    if !monolithic {
        let bytes = read_file(path)?;
        let header = v18::read_wdt(&bytes, name).map_err(|e| e.in_file(path))?;
        let index = folder_index(&source.folder)?;
        for coord in header.present_tiles() {
            let file = crate::disk::tile_file_name(name, coord).to_lowercase();
            match index.get(&file) {
                Some(p) => {
                    source.tiles.insert(coord, p.clone());
                }
                None => source.missing.push(coord),
            }
        }
        source.wdt_bytes = Some(bytes);
    }
    Ok(source)
}

impl MapSource {
    /// The split WDT's header (flags, MAIN), read from the bytes kept.
    pub fn split_header(&self) -> Result<Option<Map>> {
        match (&self.kind, &self.wdt_bytes, &self.wdt) {
            (MapKind::SplitWdt, Some(bytes), Some(path)) => Ok(Some(
                v18::read_wdt(bytes, &self.name).map_err(|e| e.in_file(path))?,
            )),
            _ => Ok(None),
        }
    }

    /// True when saving this map as a split generation writes a WDT: it has one, or it is a
    /// folder map whose WDT is inferred.
    pub fn writes_wdt(&self) -> bool {
        matches!(
            self.kind,
            MapKind::SplitWdt | MapKind::Monolithic | MapKind::Folder
        )
    }
}
