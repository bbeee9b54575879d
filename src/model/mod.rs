//! The editable world, independent of any file generation: maps, tiles, chunks, texture layers
//! and alpha maps, liquids, placements and the coordinate conversions between them.
//!
//! Not for: bytes (see `format`) or drawing (see `render`). Values are stored the way a user
//! thinks of them (absolute heights, 8-bit alpha, RGBA colours, world positions); what a codec
//! needs to reproduce a file exactly is kept beside the data it belongs to, in `*Quirks` fields
//! and in [`alpha::AlphaSource`].

pub mod alpha;
pub mod blank;
pub mod chunk;
pub mod coords;
pub mod liquid;
pub mod low_res;
pub mod map;
pub mod monolithic;
pub mod objects;
pub mod placement;
pub mod quirks;
pub mod server_coords;
pub mod table_rows;
pub mod tile;

pub use alpha::{AlphaEncoding, AlphaMap, AlphaSource};
pub use chunk::{Chunk, Layer, ShadowMap, SoundEmitter};
pub use coords::TileCoord;
pub use liquid::{ChunkLiquid, LiquidAttributes, LiquidLayer, LiquidOrigin, MclqExtras};
pub use map::{GlobalWmo, Map};
pub use monolithic::MapWideNames;
pub use objects::{MapObject, ObjectKind};
pub use placement::{DoodadPlacement, WmoPlacement};
pub use quirks::{FileQuirk, QuirkKind};
pub use tile::{FlightBounds, Tile, UnknownChunk};
