//! Where bytes meet the filesystem: whole-file reads with errors that name the file, atomic
//! writes (temp file in the target folder, flush, rename), and map folders (a WDT with its
//! `Name_X_Y.adt` tiles beside it).
//!
//! Not for: decoding (see `format`); this module only finds files and hands bytes over.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::format::v18::{self, AlphaDepth, AlphaTarget};
use crate::format::{FormatError, Generation, alpha, proto055, v060};
use crate::model::map::{MAP_FLAG_BIG_ALPHA, MAP_FLAG_VERTEX_COLORS, Map, TILE_PRESENT};
use crate::model::{AlphaEncoding, FileQuirk, QuirkKind, Tile, TileCoord};

/// Anything that can go wrong opening, checking or saving.
#[derive(Debug, thiserror::Error)]
pub enum LoamError {
    /// The filesystem refused.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A file's bytes do not decode.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The request itself makes no sense (a wrong extension, an unsupported target).
    #[error("{0}")]
    Usage(String),
}

/// Result of file operations.
pub type Result<T> = std::result::Result<T, LoamError>;

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> LoamError + '_ {
    move |source| LoamError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads a whole file.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(io_err(path))
}

/// Writes `bytes` to `path` without ever leaving a half-written file there: the bytes go to a
/// temporary file in the same folder, are flushed to disk, and the temporary file is renamed
/// over `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| LoamError::Usage(format!("{} is not a file path", path.display())))?;
    let tmp = dir.join(format!(
        ".{}.loam-tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = fs::File::create(&tmp).map_err(io_err(&tmp))?;
        f.write_all(bytes).map_err(io_err(&tmp))?;
        f.sync_all().map_err(io_err(&tmp))?;
        drop(f);
        fs::rename(&tmp, path).map_err(io_err(path))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// The file name of a tile of map `map`: `Map_X_Y.adt`.
pub fn tile_file_name(map: &str, coord: TileCoord) -> String {
    format!("{map}_{}_{}.adt", coord.x, coord.y)
}

/// Splits `Map_X_Y.adt` into the map name and the tile coordinate.
pub fn parse_tile_file_name(file_name: &str) -> Option<(String, TileCoord)> {
    let stem = file_name
        .strip_suffix(".adt")
        .or_else(|| file_name.strip_suffix(".ADT"))?;
    let mut parts = stem.rsplitn(3, '_');
    let y = parts.next()?.parse().ok()?;
    let x = parts.next()?.parse().ok()?;
    let name = parts.next()?;
    Some((name.to_string(), TileCoord::new(x, y)?))
}

/// The generation a v18 tile's content needs: 3.3.5 when it uses anything 1.12 lacks.
pub fn tile_generation(tile: &Tile) -> Generation {
    let wotlk = tile.texture_flags.is_some()
        || tile.flight_bounds.is_some()
        || tile.chunks.iter().any(|c| {
            c.vertex_colors.is_some()
                || c.liquid.as_ref().is_some_and(|l| {
                    l.attributes.is_some()
                        || l.layers
                            .iter()
                            .any(|l| matches!(l.origin, crate::model::LiquidOrigin::Mh2o))
                })
                || c.layers.iter().any(|l| {
                    l.alpha
                        .as_ref()
                        .and_then(|a| a.source())
                        .is_some_and(|s| matches!(s.encoding, AlphaEncoding::Rle))
                })
        });
    if wotlk {
        Generation::V335
    } else {
        Generation::V112
    }
}

/// What [`open_map`] found.
#[derive(Debug)]
pub struct OpenedMap {
    /// The map with every tile that could be read.
    pub map: Map,
    /// The folder the files are in.
    pub folder: PathBuf,
    /// The generation of the files.
    pub generation: Generation,
    /// The WDT, when the map was opened from one (a lone ADT has none).
    pub wdt: Option<PathBuf>,
    /// Tiles MAIN lists whose ADT is not on disk.
    pub missing_tiles: Vec<TileCoord>,
    /// The file a lone ADT was read from, so that a save keeps its name.
    pub lone_tile_file: Option<String>,
}

/// Opens a map from a `.wdt` (every tile MAIN lists, read from the folder around it) or from a
/// lone `.adt` (a map holding only that tile, alpha depth judged from the file).
pub fn open_map(path: &Path) -> Result<OpenedMap> {
    let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let file_name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    match ext.as_str() {
        "wdt" => {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let bytes = read_file(path)?;
            if alpha::is_monolithic(&bytes) {
                return open_monolithic(path, &bytes, &name, folder);
            }
            let mut map = v18::read_wdt(&bytes, &name).map_err(|e| e.in_file(path))?;
            let depth = if map.big_alpha() {
                AlphaDepth::Big
            } else {
                AlphaDepth::Nibble
            };
            let mut missing = Vec::new();
            let present = map.present_tiles();
            let loaded: Vec<(TileCoord, Option<Result<SplitTile>>)> = {
                use rayon::prelude::*;
                present
                    .par_iter()
                    .map(|&coord| {
                        let tile_path = folder.join(tile_file_name(&name, coord));
                        if !tile_path.exists() {
                            return (coord, None);
                        }
                        (coord, Some(read_split_tile(&tile_path, Some(coord), depth)))
                    })
                    .collect()
            };
            let mut generation = Generation::V112;
            let mut any_060 = false;
            for (coord, tile) in loaded {
                match tile {
                    None => missing.push(coord),
                    Some(t) => {
                        let (t, is_060) = t?;
                        any_060 |= is_060;
                        generation = generation.max(tile_generation(&t));
                        map.tiles.insert(coord, t);
                    }
                }
            }
            if map.flags & (MAP_FLAG_BIG_ALPHA | MAP_FLAG_VERTEX_COLORS) != 0 {
                generation = Generation::V335;
            } else if any_060 {
                generation = Generation::V060;
            }
            Ok(OpenedMap {
                map,
                folder,
                generation,
                wdt: Some(path.to_path_buf()),
                missing_tiles: missing,
                lone_tile_file: None,
            })
        }
        "adt" => {
            let parsed = parse_tile_file_name(&file_name);
            let bytes = read_file(path)?;
            let coord = parsed.as_ref().map(|p| p.1);
            let depth = v18::sniff_alpha_depth(&bytes);
            let is_060 = v060::looks_like_060(&bytes);
            let tile = if is_060 {
                v060::read_adt(&bytes, coord)
            } else {
                v18::read_adt(&bytes, coord, depth)
            }
            .map_err(|e| e.in_file(path))?;
            // A tile named otherwise than `Map_X_Y.adt` keeps its file name as the map name.
            let name = match parsed {
                Some(p) => p.0,
                None => path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            };
            let mut map = Map::new(&name);
            if depth == AlphaDepth::Big {
                map.flags |= MAP_FLAG_BIG_ALPHA;
            }
            map.tile_flags[tile.coord.index()] = TILE_PRESENT;
            let generation = if is_060 {
                Generation::V060
            } else {
                tile_generation(&tile)
            };
            map.tiles.insert(tile.coord, tile);
            Ok(OpenedMap {
                map,
                folder,
                generation,
                wdt: None,
                missing_tiles: Vec::new(),
                lone_tile_file: Some(file_name),
            })
        }
        _ => Err(LoamError::Usage(format!(
            "{}: expected a .wdt or .adt file",
            path.display()
        ))),
    }
}

/// Opens a 0.5.x monolithic WDT: its embedded tiles, plus the 0.5.5 prototype ADTs beside it
/// for tiles its MAIN marks as stored outside. A map with any prototype ADT is 0.5.5; one
/// without cannot be told from 0.5.3 (same file) and opens as 0.5.3.
fn open_monolithic(path: &Path, bytes: &[u8], name: &str, folder: PathBuf) -> Result<OpenedMap> {
    let mut map = alpha::read_wdt(bytes, name).map_err(|e| e.in_file(path))?;
    let mut names = map.map_wide_names.take().unwrap_or_default();
    let mut generation = Generation::Alpha053;
    let mut missing = Vec::new();
    for coord in map.present_tiles() {
        if map.tiles.contains_key(&coord) {
            continue;
        }
        let tile_path = folder.join(tile_file_name(name, coord));
        if !tile_path.exists() {
            missing.push(coord);
            continue;
        }
        let tile_bytes = read_file(&tile_path)?;
        if !proto055::is_prototype_adt(&tile_bytes) {
            return Err(LoamError::Usage(format!(
                "{}: a 0.5.x WDT lists this tile outside, but the file is not a 0.5.5 \
                 prototype ADT (it does not start with MHDR)",
                tile_path.display()
            )));
        }
        let tile = proto055::read_adt(&tile_bytes, coord, &mut names)
            .map_err(|e| e.in_file(&tile_path))?;
        map.tiles.insert(coord, tile);
        generation = Generation::Alpha055;
    }
    map.map_wide_names = Some(names);
    Ok(OpenedMap {
        map,
        folder,
        generation,
        wdt: Some(path.to_path_buf()),
        missing_tiles: missing,
        lone_tile_file: None,
    })
}

/// A tile of a split map and whether it was a 0.6.0 ADT.
type SplitTile = (Tile, bool);

/// Reads one ADT of a split map, telling 0.6.0 from v18 by its content
/// ([`v060::looks_like_060`]); the flag says which it was.
fn read_split_tile(path: &Path, coord: Option<TileCoord>, depth: AlphaDepth) -> Result<SplitTile> {
    let bytes = read_file(path)?;
    if v060::looks_like_060(&bytes) {
        let tile = v060::read_adt(&bytes, coord).map_err(|e| e.in_file(path))?;
        return Ok((tile, true));
    }
    // Read the tile the way its bytes prove, when they prove a depth the WDT does not say;
    // reading it the WDT's way would fail or garble it.
    let proven = v18::adt::proven_alpha_depth(&bytes).filter(|(d, _)| *d != depth);
    let read_depth = proven.map_or(depth, |(d, _)| d);
    let mut tile = v18::read_adt(&bytes, coord, read_depth).map_err(|e| e.in_file(path))?;
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
    Ok((tile, false))
}

/// Reads one v18 ADT file.
pub fn read_tile(path: &Path, coord: Option<TileCoord>, depth: AlphaDepth) -> Result<Tile> {
    let bytes = read_file(path)?;
    Ok(v18::read_adt(&bytes, coord, depth).map_err(|e| e.in_file(path))?)
}

/// The alpha form a save of `map` writes.
pub fn alpha_target(map: &Map) -> AlphaTarget {
    AlphaTarget {
        big: map.big_alpha(),
    }
}

/// One file a save produces: its name in the target folder and its bytes.
#[derive(Debug, Clone)]
pub struct EncodedFile {
    /// File name ("Azeroth_32_48.adt").
    pub name: String,
    /// The bytes to write.
    pub bytes: Vec<u8>,
}

/// Encodes `map` as the files of generation `generation`: the WDT when `with_wdt`, and every
/// loaded tile in `tiles` (all loaded tiles when `None`), encoded in parallel. The map must
/// already fit the target (see `convert::prepare_map`).
pub fn encode_map(
    map: &Map,
    generation: Generation,
    with_wdt: bool,
    tiles: Option<&[TileCoord]>,
) -> Result<Vec<EncodedFile>> {
    use rayon::prelude::*;
    if !generation.writable() {
        return Err(LoamError::Usage(format!(
            "loam cannot write {generation} files yet"
        )));
    }
    let chosen: Vec<&Tile> = match tiles {
        Some(list) => list.iter().filter_map(|c| map.tiles.get(c)).collect(),
        None => map.tiles.values().collect(),
    };
    let wdt_name = format!("{}.wdt", map.name);
    let files = match generation {
        // The monolithic WDT holds every tile; 0.5.5 reads the same file as 0.5.3 (its prototype
        // ADT loader is gated off in the shipped client, see `format::proto055`).
        Generation::Alpha053 | Generation::Alpha055 => {
            vec![EncodedFile {
                name: wdt_name,
                bytes: alpha::write_wdt(map),
            }]
        }
        Generation::V060 => {
            let mut files: Vec<EncodedFile> = chosen
                .par_iter()
                .map(|t| EncodedFile {
                    name: tile_file_name(&map.name, t.coord),
                    bytes: v060::write_adt(t),
                })
                .collect();
            if with_wdt {
                files.insert(
                    0,
                    EncodedFile {
                        name: wdt_name,
                        bytes: v060::write_wdt(map),
                    },
                );
            }
            files
        }
        Generation::V112 | Generation::V335 => {
            let alpha = alpha_target(map);
            let mut files: Vec<EncodedFile> = chosen
                .par_iter()
                .map(|t| EncodedFile {
                    name: tile_file_name(&map.name, t.coord),
                    bytes: v18::write_adt(t, alpha),
                })
                .collect();
            if with_wdt {
                files.insert(
                    0,
                    EncodedFile {
                        name: wdt_name,
                        bytes: v18::write_wdt(map),
                    },
                );
            }
            files
        }
    };
    Ok(files)
}

/// Writes encoded files into `folder` (created if absent), each atomically; `progress` is called
/// after each file with the number written so far.
pub fn write_files(
    folder: &Path,
    files: &[EncodedFile],
    mut progress: impl FnMut(usize),
) -> Result<()> {
    fs::create_dir_all(folder).map_err(io_err(folder))?;
    for (i, f) in files.iter().enumerate() {
        write_atomic(&folder.join(&f.name), &f.bytes)?;
        progress(i + 1);
    }
    Ok(())
}
