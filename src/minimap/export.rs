//! Writing a map's minimap into a folder laid out as the client's game paths:
//! `OUT/textures/Minimap/<md5>.blp` for each tile and the table that names them
//! (`md5translate.trs`, or `.txt` for 0.5.x/0.6.0), ready to pack or to copy into `Data`.
//!
//! Only tiles that changed since the last export are drawn again: `OUT/loam-minimap-Name.json`
//! keeps, for each tile, a fingerprint of what its picture depends on (the tile's content, the
//! textures it names as found, the drawing's version) and the file it became. A file no line
//! names any more is removed.
//!
//! The table keeps every other map's lines: those of the client's own table when a client is
//! given (the table is one file for all maps, and a patch that carried only this map's lines
//! would hide every other map's minimap), else those of the table already in `OUT`.
//!
//! Not for: drawing (`raster`), naming (`names`), packing (`pipeline::pack`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::TILE_PIXELS;
use super::names::{self, MINIMAP_FOLDER, Md5Translate};
use super::raster::{self, LayerTextures};
use crate::assets::client::{AssetSource, ClientData};
use crate::disk::{self, LoamError, Result};
use crate::format::Generation;
use crate::model::{Tile, TileCoord};
use crate::pipeline;

/// Bumped when the drawing changes, so that every tile is drawn again.
const DRAWING_VERSION: u32 = 1;

/// What [`write_minimap`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct MinimapWritten {
    /// The map's name.
    pub name: String,
    /// The generation whose table was written.
    pub generation: Generation,
    /// Tiles drawn now.
    pub drawn: usize,
    /// Tiles whose picture was still up to date.
    pub kept: usize,
    /// Tiles that could not be read, with why (left out of the table).
    pub failed: BTreeMap<TileCoord, String>,
    /// The game paths (with `\`) of this map's minimap files and of the table, each with its
    /// file under `OUT`: what a pack carries.
    pub files: Vec<(String, PathBuf)>,
}

/// One tile's record in the manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct TileRecord {
    fingerprint: String,
    file: String,
}

/// The manifest of one map's minimap in `OUT`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Manifest {
    tiles: BTreeMap<String, TileRecord>,
}

fn manifest_path(out: &Path, name: &str) -> PathBuf {
    out.join(format!("loam-minimap-{name}.json"))
}

fn tile_key(c: TileCoord) -> String {
    format!("{}_{}", c.x, c.y)
}

/// Draws the minimap of the map at `map` (a .wdt, a folder of tiles, or a 0.5.x WDT; read as
/// `from`, or as its bytes decide) into `out` (see the module's doc). Textures come from the
/// map's folder and `client`. `progress(done, total)` after each tile.
pub fn write_minimap(
    map: &Path,
    from: Option<Generation>,
    out: &Path,
    client: Option<Arc<ClientData>>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<MinimapWritten> {
    let tiles = pipeline::source::MapTiles::open(map, from)?;
    let name = tiles.name.clone();
    let generation = tiles.generation;
    let folder = out.join(MINIMAP_FOLDER.replace('\\', "/"));
    std::fs::create_dir_all(&folder).map_err(disk::io_err(&folder))?;
    let old: Manifest = std::fs::read(manifest_path(out, &name))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let source = AssetSource::new(client.clone(), Some(tiles.folder.clone()));
    let cache = Mutex::new(raster::LayerTextures::new());
    let coords = tiles.coords();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(TileCoord, Result<Drawn>)> = {
        use rayon::prelude::*;
        coords
            .par_iter()
            .map(|&c| {
                let r = tiles.read(c).and_then(|tile| {
                    draw_if_changed(&tile, &source, &cache, &folder, old.tiles.get(&tile_key(c)))
                });
                progress(
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                    coords.len(),
                );
                (c, r)
            })
            .collect()
    };
    let mut manifest = Manifest::default();
    let mut failed = BTreeMap::new();
    let (mut drawn, mut kept) = (0, 0);
    let mut lines = BTreeMap::new();
    for (c, r) in results {
        match r {
            Ok((record, blp)) => {
                match blp {
                    // Written here, one at a time: tiles alike (open sea, a new map's flat
                    // ground) share one file.
                    Some(bytes) => {
                        let path = folder.join(&record.file);
                        if !path.is_file() {
                            disk::write_atomic(&path, &bytes)?;
                        }
                        drawn += 1;
                    }
                    None => kept += 1,
                }
                for key in names::tile_keys(&name, c, generation) {
                    lines.insert(key, record.file.clone());
                }
                manifest.tiles.insert(tile_key(c), record);
            }
            Err(e) => {
                failed.insert(c, e.to_string());
            }
        }
    }
    // The table: the client's (or the one already here), this map's lines replaced.
    let table_game_path = names::table_path(generation);
    let table_file = out.join(table_game_path.replace('\\', "/"));
    let base = match &client {
        Some(c) => c.read(table_game_path).ok().flatten(),
        None => std::fs::read(&table_file).ok(),
    };
    let mut table = base
        .map(|b| Md5Translate::parse(&String::from_utf8_lossy(&b)))
        .unwrap_or_default();
    table.set_map(&name, &lines);
    disk::write_atomic(&table_file, table.write().as_bytes())?;
    // Files this map named before that no line names now.
    let in_use: BTreeSet<&str> = table.files().collect();
    for r in old.tiles.values() {
        if !in_use.contains(r.file.as_str()) {
            let _ = std::fs::remove_file(folder.join(&r.file));
        }
    }
    let manifest_bytes =
        serde_json::to_vec_pretty(&manifest).map_err(|e| LoamError::Usage(e.to_string()))?;
    disk::write_atomic(&manifest_path(out, &name), &manifest_bytes)?;
    let mut files: Vec<(String, PathBuf)> = manifest
        .tiles
        .values()
        .map(|r| r.file.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(|f| (format!("{MINIMAP_FOLDER}\\{f}"), folder.join(&f)))
        .collect();
    files.push((table_game_path.to_string(), table_file));
    Ok(MinimapWritten {
        name,
        generation,
        drawn,
        kept,
        failed,
        files,
    })
}

/// A tile's record, with its picture's BLP bytes when it was drawn now.
type Drawn = (TileRecord, Option<Vec<u8>>);

/// The tile's record, drawing its picture unless `old` is still up to date (its fingerprint
/// the same and its file there); with the picture's BLP bytes when it was drawn.
fn draw_if_changed(
    tile: &Tile,
    source: &AssetSource,
    cache: &Mutex<LayerTextures>,
    folder: &Path,
    old: Option<&TileRecord>,
) -> Result<Drawn> {
    let textures: LayerTextures = {
        let mut c = cache
            .lock()
            .map_err(|_| LoamError::Usage("texture cache".into()))?;
        super::load_textures(tile.textures.iter().map(String::as_str), source, &mut c);
        tile.textures
            .iter()
            .filter_map(|t| Some((t.clone(), c.get(t)?.clone())))
            .collect()
    };
    let fingerprint = fingerprint(tile, &textures);
    if let Some(old) = old
        && old.fingerprint == fingerprint
        && folder.join(&old.file).is_file()
    {
        return Ok((old.clone(), None));
    }
    let rgba = raster::draw_tile(tile, &textures, TILE_PIXELS);
    let image = crate::assets::blp::Image {
        width: TILE_PIXELS,
        height: TILE_PIXELS,
        rgba,
    };
    let blp = crate::assets::blp::encode_dxt1(&image)
        .map_err(|e| LoamError::Usage(format!("minimap of tile {:?}: {e}", tile.coord)))?;
    let file = names::hashed_name(&blp);
    Ok((TileRecord { fingerprint, file }, Some(blp)))
}

/// What a tile's picture depends on, hashed: the drawing's version, the tile's content (its
/// 3.3.5 encoding, which holds everything drawn) and each texture it names as loaded.
fn fingerprint(tile: &Tile, textures: &LayerTextures) -> String {
    use md5::{Digest, Md5};
    let mut h = Md5::new();
    h.update(DRAWING_VERSION.to_le_bytes());
    h.update(crate::format::v18::write_adt(
        tile,
        crate::format::v18::AlphaTarget { big: true },
    ));
    for t in &tile.textures {
        h.update(t.as_bytes());
        if let Some(tex) = textures.get(t) {
            h.update(tex.bytes());
        }
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
