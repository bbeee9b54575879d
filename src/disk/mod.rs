//! Where bytes meet the filesystem: whole-file reads with errors that name the file, atomic
//! writes (temp file in the target folder, flush, rename), and map folders (a WDT with its
//! `Name_X_Y.adt` tiles beside it).
//!
//! Not for: decoding (see `format`); this module only finds files and hands bytes over.

pub mod atomic;
pub mod locate;
pub mod open;
pub mod pack;
pub mod recovery;
pub mod source;
pub mod stream;
pub mod uid_range;
pub mod wdl;

pub(crate) use atomic::temp_path;
pub use atomic::{
    Flusher, Pending, STALE_TEMP_AGE, remove_stale_temps, write_atomic, write_files, write_pending,
};
pub use locate::{MapKind, MapSource, locate};
pub use open::{OpenedMap, open_map, open_map_as, read_tile_as};

use std::fs;
use std::path::Path;

pub(crate) use crate::error::io_err;
pub use crate::error::{LoamError, Result};
use crate::format::v18::{self, AlphaTarget};
use crate::format::{Generation, alpha, v060};
use crate::model::map::Map;
use crate::model::{Tile, TileCoord};

/// Reads a whole file.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(io_err(path))
}

/// The file name of a tile of map `map`: `Map_X_Y.adt`.
pub fn tile_file_name(map: &str, coord: TileCoord) -> String {
    format!("{map}_{}_{}.adt", coord.x, coord.y)
}

/// Splits `Map_X_Y.adt` into the map name and the tile coordinate.
pub fn parse_tile_file_name(file_name: &str) -> Option<(String, TileCoord)> {
    let cut = file_name.len().checked_sub(4)?;
    let stem = file_name
        .get(cut..)
        .filter(|ext| ext.eq_ignore_ascii_case(".adt"))
        .and_then(|_| file_name.get(..cut))?;
    let mut parts = stem.rsplitn(3, '_');
    let y = parts.next()?.parse().ok()?;
    let x = parts.next()?.parse().ok()?;
    let name = parts.next()?;
    Some((name.to_string(), TileCoord::new(x, y)?))
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
