//! Encoding a whole map in memory: the files one save of a map produces in a generation.
//!
//! Not for: writing them (see `disk::write_files`) or streaming a map too big to hold (see
//! `pipeline::stream`).

use crate::disk::{EncodedFile, tile_file_name};
use crate::error::Result;
use crate::format::v18::{self, AlphaTarget};
use crate::format::{Generation, alpha, v060};
use crate::model::map::Map;
use crate::model::{Tile, TileCoord};

/// The alpha form a save of `map` writes.
pub fn alpha_target(map: &Map) -> AlphaTarget {
    AlphaTarget {
        big: map.big_alpha(),
    }
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
    super::check_writable(generation)?;
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
