//! One ADT tile: 16×16 chunks, its texture and model name lists and its placements.

use super::chunk::Chunk;
use super::coords::TileCoord;
use super::placement::{DoodadPlacement, WmoPlacement};
use super::quirks::FileQuirk;

/// MHDR flag: the tile has a flight bounds (MFBO) chunk.
pub const TILE_FLAG_FLIGHT_BOUNDS: u32 = 0x1;

/// The MFBO flight box: two 3×3 height planes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlightBounds {
    /// Ceiling heights.
    pub max: [i16; 9],
    /// Floor heights.
    pub min: [i16; 9],
}

/// A top-level chunk loam does not know, kept to be written back.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownChunk {
    /// The tag in reading order ("MXYZ").
    pub tag: [u8; 4],
    /// The payload.
    pub payload: Vec<u8>,
    /// The known chunk it followed in the file (its tag), to put it back in place.
    pub after: [u8; 4],
}

/// How a tile's files named their strings, kept for exact re-saves.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TileQuirks {
    /// MMID offsets when they are not simply the offsets of the MMDX strings in order.
    pub doodad_name_offsets: Option<Vec<u32>>,
    /// MWID offsets when they are not simply the offsets of the MWMO strings in order.
    pub wmo_name_offsets: Option<Vec<u32>>,
    /// Raw MMDX/MWMO/MTEX payloads when they are not the plain zero-terminated lists (extra
    /// padding, say): (texture, doodad, wmo).
    pub raw_name_blocks: [Option<Vec<u8>>; 3],
    /// The MHDR words after the known offsets.
    pub header_tail: [u32; 4],
    /// MCIN entry sizes counted only the MCNK payload (some converters), not payload + 8.
    pub mcin_sizes_without_header: bool,
    /// The tile's own alpha depth (true = 8-bit) when its maps prove one the WDT does not
    /// announce; the writer keeps it so the untouched tile re-saves as it was.
    pub alpha_big: Option<bool>,
    /// The size field of the file's last chunk when it ran past the end of the file.
    pub last_chunk_size_field: Option<u32>,
    /// What the file had that Blizzard's files do not, for `loam check` to warn about. Only a
    /// record of the file as read; the writer never looks at it.
    pub found: Vec<FileQuirk>,
}

impl TileQuirks {
    /// Forgets what only reproduces another tool's marks (not Blizzard's own oddities), so a
    /// conversion writes a clean file.
    pub fn forget_tool_marks(&mut self) {
        self.mcin_sizes_without_header = false;
        self.alpha_big = None;
        self.last_chunk_size_field = None;
    }
}

/// One map tile.
#[derive(Debug, Clone, PartialEq)]
pub struct Tile {
    /// Where the tile sits on the map.
    pub coord: TileCoord,
    /// MHDR flags.
    pub flags: u32,
    /// Texture paths (MTEX), referenced by layer index.
    pub textures: Vec<String>,
    /// Per-texture flags (MTXF), when the file has them.
    pub texture_flags: Option<Vec<u32>>,
    /// Doodad model paths (MMDX), referenced by placement name index.
    pub doodad_names: Vec<String>,
    /// WMO paths (MWMO), referenced by placement name index.
    pub wmo_names: Vec<String>,
    /// Doodad placements (MDDF).
    pub doodads: Vec<DoodadPlacement>,
    /// WMO placements (MODF).
    pub wmos: Vec<WmoPlacement>,
    /// The 256 chunks, row by row (index = row * 16 + column).
    pub chunks: Vec<Chunk>,
    /// Flight bounds (MFBO).
    pub flight_bounds: Option<FlightBounds>,
    /// Chunks loam does not know.
    pub unknown_chunks: Vec<UnknownChunk>,
    /// File quirks kept for exact re-saves.
    pub quirks: TileQuirks,
}

impl Tile {
    /// A new flat tile at `height` with one texture on every chunk and nothing else.
    pub fn flat(coord: TileCoord, texture: &str, height: f32) -> Tile {
        Tile {
            coord,
            flags: 0,
            textures: vec![texture.to_string()],
            texture_flags: None,
            doodad_names: Vec::new(),
            wmo_names: Vec::new(),
            doodads: Vec::new(),
            wmos: Vec::new(),
            chunks: (0..256).map(|_| Chunk::flat(height)).collect(),
            flight_bounds: None,
            unknown_chunks: Vec::new(),
            quirks: TileQuirks::default(),
        }
    }

    /// The chunk at (`x`, `y`), each 0..16.
    pub fn chunk(&self, x: usize, y: usize) -> &Chunk {
        &self.chunks[y * 16 + x]
    }

    /// The chunk at (`x`, `y`) for editing.
    pub fn chunk_mut(&mut self, x: usize, y: usize) -> &mut Chunk {
        &mut self.chunks[y * 16 + x]
    }

    /// The texture path of a layer, if its index is valid.
    pub fn texture_name(&self, index: u32) -> Option<&str> {
        self.textures.get(index as usize).map(String::as_str)
    }

    /// Number of chunks with liquid.
    pub fn liquid_chunk_count(&self) -> usize {
        self.chunks
            .iter()
            .filter(|c| c.liquid.as_ref().is_some_and(|l| !l.layers.is_empty()))
            .count()
    }
}
