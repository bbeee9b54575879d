//! What a file had that Blizzard's own files do not: the marks other tools (Noggit, TSWoW,
//! converters) leave. Decoders record each one they accept so that `loam check` can warn about
//! it; what a re-save needs to reproduce the bytes lives in the `*Quirks` structs, not here.
//!
//! Not for: problems that make a file unreadable (those are `format::FormatError`s).

use std::fmt;

/// One oddity found while reading a file, with where it was.
#[derive(Debug, Clone, PartialEq)]
pub struct FileQuirk {
    /// What it was.
    pub kind: QuirkKind,
    /// The chunk it was found in, in reading order ("MCNK").
    pub chunk: [u8; 4],
    /// The MCNK's index in the tile (row × 16 + column), when the quirk is inside one.
    pub chunk_index: Option<usize>,
    /// Absolute byte offset in the file.
    pub offset: u64,
}

/// The kinds of oddity loam reads liberally.
#[derive(Debug, Clone, PartialEq)]
pub enum QuirkKind {
    /// MCNK flag 0x1 (has shadow) is set but the header names no MCSH (offset and size 0).
    ShadowFlagWithoutMap,
    /// The MCNK header says the chunk has no MCLQ (offset 0) yet gives it a size.
    LiquidSizeWithoutChunk {
        /// The header's sizeLiquid.
        size: u32,
    },
    /// MCIN entry sizes count only the MCNK payload, not its 8-byte header.
    McinSizeWithoutHeader,
    /// The WDT has no MWMO chunk.
    WdtWithoutMwmo,
    /// The tile's alpha maps prove a depth the WDT's MPHD flags do not announce.
    AlphaDepthDisagreesWithWdt {
        /// True when the tile's maps are 8-bit (MPHD says 4-bit), false for the reverse.
        tile_big: bool,
    },
    /// A chunk with no texture layer at all.
    NoTextureLayers,
    /// Paths that are all lower case or use forward slashes.
    UnusualPaths {
        /// How many of the chunk's paths.
        count: usize,
        /// The first of them.
        example: String,
    },
    /// A sub-chunk's size field runs past the end of its MCNK (read up to the end).
    SubChunkPastMcnk {
        /// The sub-chunk, in reading order.
        tag: [u8; 4],
        /// Its size field.
        size: u32,
        /// Bytes the MCNK had left.
        available: usize,
    },
    /// The last chunk's size field runs past the end of the file (read up to the end).
    ChunkPastFile {
        /// Its size field.
        size: u32,
        /// Bytes the file had left.
        available: usize,
    },
}

impl QuirkKind {
    /// The tools known to write this, for the warning.
    pub fn written_by(&self) -> &'static str {
        match self {
            QuirkKind::ShadowFlagWithoutMap | QuirkKind::LiquidSizeWithoutChunk { .. } => "Noggit",
            QuirkKind::McinSizeWithoutHeader => "converters and hand-written ADT writers",
            QuirkKind::WdtWithoutMwmo => "Noggit and converters",
            QuirkKind::AlphaDepthDisagreesWithWdt { .. } => {
                "tools that convert alpha maps without updating the WDT"
            }
            QuirkKind::NoTextureLayers => "Noggit (a chunk whose textures were all removed)",
            QuirkKind::UnusualPaths { .. } => "Noggit, TSWoW and converters",
            QuirkKind::SubChunkPastMcnk { .. } | QuirkKind::ChunkPastFile { .. } => {
                "truncating or miscounting tools"
            }
        }
    }
}

impl fmt::Display for QuirkKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuirkKind::ShadowFlagWithoutMap => write!(
                f,
                "flag 0x1 (has shadow) is set but there is no MCSH (offset 0, size 0); read as no shadow"
            ),
            QuirkKind::LiquidSizeWithoutChunk { size } => write!(
                f,
                "sizeLiquid is {size} but ofsLiquid is 0; read as no MCLQ"
            ),
            QuirkKind::McinSizeWithoutHeader => {
                write!(f, "MCIN sizes leave out each MCNK's 8-byte header")
            }
            QuirkKind::WdtWithoutMwmo => write!(f, "the WDT has no MWMO chunk"),
            QuirkKind::AlphaDepthDisagreesWithWdt { tile_big } => {
                let (tile, wdt) = if *tile_big {
                    ("8-bit", "4-bit (no MPHD 0x4/0x80)")
                } else {
                    ("4-bit", "8-bit (MPHD 0x4 or 0x80)")
                };
                write!(
                    f,
                    "alpha maps are {tile} but the WDT says {wdt}; the client reads them wrongly"
                )
            }
            QuirkKind::NoTextureLayers => write!(f, "MCLY has no layers (the chunk is untextured)"),
            QuirkKind::UnusualPaths { count, example } => write!(
                f,
                "{count} path(s) are all lower case or use '/' (e.g. {example:?}); the Windows client accepts them, other tools may not"
            ),
            QuirkKind::SubChunkPastMcnk {
                tag,
                size,
                available,
            } => write!(
                f,
                "sub-chunk {} size {size} runs past the end of the MCNK ({available} bytes left); read up to the end",
                String::from_utf8_lossy(tag)
            ),
            QuirkKind::ChunkPastFile { size, available } => write!(
                f,
                "size {size} runs past the end of the file ({available} bytes left); read up to the end"
            ),
        }
    }
}

impl fmt::Display for FileQuirk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chunk = String::from_utf8_lossy(&self.chunk);
        if let Some(i) = self.chunk_index {
            write!(f, "chunk {},{} ", i % 16, i / 16)?;
        }
        write!(
            f,
            "{chunk} at byte {} (0x{:x}): {} (written by {})",
            self.offset,
            self.offset,
            self.kind,
            self.kind.written_by()
        )
    }
}

/// True for a path Blizzard would not write: one with a forward slash, or letters but no
/// capital (Blizzard's paths are mixed case with backslashes).
pub fn is_unusual_path(path: &str) -> bool {
    path.contains('/')
        || (path.bytes().any(|b| b.is_ascii_lowercase())
            && !path.bytes().any(|b| b.is_ascii_uppercase()))
}
