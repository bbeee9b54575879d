//! The map pipeline: what a path stands for (`locate`), which generation its bytes are
//! (`open`), reading tiles (`source`), encoding a map (`encode`), converting a map tile by tile
//! without holding it (`stream`), the low-resolution WDL (`wdl`), autosave snapshots
//! (`recovery`) packing into MPQ patches (`pack`, written by `mpq`) and the client's tables for a packed map
//! (`tables`).
//!
//! Used by `cli` and the document layer alike. Not for: touching the filesystem directly
//! beyond reads (atomic writes live in `disk`) or the bytes of one chunk (see `format`).

pub mod client_pack;
pub mod encode;
pub mod extractors;
pub mod journal;
pub mod locate;
pub mod mpq;
pub mod open;
pub mod pack;
pub mod recovery;
pub mod server_data;
pub mod source;
pub mod stream;
pub mod table_archive;
pub mod tables;
pub mod teleport_sql;
pub mod wdl;

pub use crate::disk::EncodedFile;
pub use encode::{alpha_target, encode_map};
pub use locate::{MapKind, MapSource, locate};
pub use open::{OpenedMap, open_map, open_map_as, read_tile_as};

use crate::error::{LoamError, Result};
use crate::format::Generation;

/// Refuses a target generation loam cannot write yet, before anything is read or written.
pub fn check_writable(generation: Generation) -> Result<()> {
    if generation.writable() {
        Ok(())
    } else {
        Err(LoamError::Usage(format!(
            "loam cannot write {generation} files yet"
        )))
    }
}
