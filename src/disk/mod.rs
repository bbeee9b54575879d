//! Where bytes meet the filesystem: whole-file reads with errors that name the file, atomic
//! writes (temp file in the target folder, flush, rename), temp-file cleanup, the names of a
//! map folder's files (`Name_X_Y.adt`) and the uid-range sidecar.
//!
//! Not for: decoding, deciding generations, converting or streaming maps (see `pipeline`);
//! nothing here knows what the bytes mean.

pub mod atomic;
pub mod streamed;
pub mod uid_range;

pub(crate) use atomic::temp_path;
pub use atomic::{
    EncodedFile, Flusher, Pending, STALE_TEMP_AGE, remove_stale_temps, write_atomic, write_files,
    write_pending,
};
pub use streamed::StreamedFile;

use std::fs;
use std::path::Path;

pub(crate) use crate::error::io_err;
pub use crate::error::{LoamError, Result};
use crate::model::TileCoord;

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
