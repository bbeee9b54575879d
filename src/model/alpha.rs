//! Texture-layer alpha maps as the user paints them: 64×64 bytes, 0 = layer absent, 255 = opaque.
//!
//! Files store these at 4 or 8 bits, plain or run-length encoded. The model always holds 8 bits;
//! a map read from a file also keeps the bytes it came from when re-encoding could not reproduce
//! them (Blizzard's RLE run choices, the ignored nibbles of the 63×63 "fixed" form). Any mutable
//! access drops those bytes, so a painted map is always re-encoded from its texels.

/// Side length of an alpha or shadow map.
pub const ALPHA_SIDE: usize = 64;
/// Texels in an alpha map.
pub const ALPHA_TEXELS: usize = ALPHA_SIDE * ALPHA_SIDE;

/// How an alpha map was stored on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlphaEncoding {
    /// 2048 bytes, two 4-bit texels per byte, low nibble first, all 64×64 meaningful
    /// (MCNK flag 0x8000 "do not fix").
    Nibble,
    /// 2048 bytes of 4-bit texels where only 63×63 are stored; the last row and column repeat
    /// the ones before them.
    NibbleFixed,
    /// 4096 bytes, one texel per byte (WDT MPHD flag 0x4 or 0x80).
    Byte,
    /// Run-length encoded 8-bit texels (MCLY flag 0x200).
    Rle,
}

/// The bytes an alpha map was read from, kept while the texels are unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlphaSource {
    /// The on-disk form of `bytes`.
    pub encoding: AlphaEncoding,
    /// Exactly the bytes read.
    pub bytes: Box<[u8]>,
}

/// One layer's 64×64 alpha map.
#[derive(Clone, PartialEq, Eq)]
pub struct AlphaMap {
    texels: Box<[u8; ALPHA_TEXELS]>,
    source: Option<AlphaSource>,
}

impl std::fmt::Debug for AlphaMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaMap")
            .field("sum", &self.texels.iter().map(|&t| t as u64).sum::<u64>())
            .field("source", &self.source.as_ref().map(|s| s.encoding))
            .finish()
    }
}

impl Default for AlphaMap {
    fn default() -> Self {
        AlphaMap::filled(0)
    }
}

impl AlphaMap {
    /// A map with every texel set to `value`.
    pub fn filled(value: u8) -> AlphaMap {
        AlphaMap {
            texels: Box::new([value; ALPHA_TEXELS]),
            source: None,
        }
    }

    /// A map from texels, row by row (row = south, column = east).
    pub fn from_texels(texels: Box<[u8; ALPHA_TEXELS]>) -> AlphaMap {
        AlphaMap {
            texels,
            source: None,
        }
    }

    /// A map decoded from `source`, keeping it for an exact re-save.
    pub fn with_source(texels: Box<[u8; ALPHA_TEXELS]>, source: Option<AlphaSource>) -> AlphaMap {
        AlphaMap { texels, source }
    }

    /// The texels, row by row.
    pub fn texels(&self) -> &[u8; ALPHA_TEXELS] {
        &self.texels
    }

    /// The texels for editing; forgets the original bytes, which no longer match.
    pub fn texels_mut(&mut self) -> &mut [u8; ALPHA_TEXELS] {
        self.source = None;
        &mut self.texels
    }

    /// Texel at (`row`, `col`).
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.texels[row * ALPHA_SIDE + col]
    }

    /// The original bytes, while the texels are unchanged since reading.
    pub fn source(&self) -> Option<&AlphaSource> {
        self.source.as_ref()
    }

    /// Drops the original bytes (after a conversion that changes meaning, say).
    pub fn forget_source(&mut self) {
        self.source = None;
    }

    /// True when every texel is 0.
    pub fn is_empty(&self) -> bool {
        self.texels.iter().all(|&t| t == 0)
    }
}
