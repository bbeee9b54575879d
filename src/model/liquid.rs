//! Liquid in one neutral form for both the old per-chunk MCLQ and the 3.3.5 MH2O.
//!
//! A chunk holds layers; each covers a rectangle of its 8×8 quads with a liquid type, a height
//! range and optional per-vertex heights and depths. What only MCLQ stores (flow bytes, per-quad
//! tile flags, flow vectors) rides along in [`MclqExtras`] so that an old-style file re-saves
//! exactly.

/// Quads along one side of a chunk's liquid grid.
pub const LIQUID_QUADS: usize = 8;

/// LiquidType.dbc ids of the four classic liquids, as MH2O stores them.
pub mod liquid_type {
    /// Fresh water (rivers, lakes).
    pub const WATER: u16 = 1;
    /// Ocean.
    pub const OCEAN: u16 = 2;
    /// Magma.
    pub const MAGMA: u16 = 3;
    /// Slime.
    pub const SLIME: u16 = 4;
}

/// The classic kind a 3.3.5 LiquidType id belongs to. LiquidType.dbc of 3.3.5 numbers its rows
/// in groups of four (water, ocean, magma, slime: 1–4 plain, 5–8 slow, 9–12 fast, 13–16 WMO);
/// a few later rows name their kind (19 WMO magma, 20 WMO slime, 21 Naxxramas slime).
pub fn classic_kind(t: u16) -> u16 {
    match t {
        19 => liquid_type::MAGMA,
        20 | 21 => liquid_type::SLIME,
        1..=16 => (t - 1) % 4 + 1,
        _ => liquid_type::WATER,
    }
}

/// Per-chunk MH2O attributes: 8×8 bit masks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LiquidAttributes {
    /// Quads where fishing works.
    pub fishable: u64,
    /// Deep (fatigue) quads.
    pub deep: u64,
}

/// What an MCLQ instance stores beyond the neutral layer.
#[derive(Debug, Clone, PartialEq)]
pub struct MclqExtras {
    /// The first four bytes of each of the 9×9 vertex records (depth and flow for water, depth,
    /// foam and wet for ocean, s and t for magma).
    pub vertex_heads: Box<[[u8; 4]; 81]>,
    /// The 8×8 per-quad tile bytes (low nibble: liquid kind, 0xF: none; high bits: flags).
    pub tiles: [u8; 64],
    /// The flow vector count word.
    pub flow_count: u32,
    /// The two flow vector records, 40 bytes each.
    pub flows: Box<[u8; 80]>,
}

/// Which chunk structure a layer came from, and so where a same-generation save puts it.
#[derive(Debug, Clone, PartialEq)]
pub enum LiquidOrigin {
    /// An MH2O instance (3.3.5).
    Mh2o,
    /// An MCLQ sub-chunk, with what only MCLQ holds.
    Mclq(MclqExtras),
}

/// One liquid layer of a chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct LiquidLayer {
    /// LiquidType.dbc id (see [`liquid_type`]).
    pub liquid_type: u16,
    /// MH2O liquid vertex format: 0 heights+depths, 1 heights+uv, 2 depths, 3 all three.
    pub vertex_format: u16,
    /// Lowest surface height.
    pub min_height: f32,
    /// Highest surface height.
    pub max_height: f32,
    /// First covered quad column (0..8).
    pub x: u8,
    /// First covered quad row (0..8).
    pub y: u8,
    /// Covered quad columns (1..=8).
    pub width: u8,
    /// Covered quad rows (1..=8).
    pub height: u8,
    /// Quads with liquid, bit `row * 8 + col` over the whole chunk.
    pub exists: u64,
    /// The file left out the exists bitmap (it then means: the whole rectangle).
    pub exists_omitted: bool,
    /// The stored bitmap's last byte past the last quad: unused bits whose value Blizzard's
    /// writer left as it found them (ones in some files, zeros in others), kept for exact saves.
    pub exists_padding: u8,
    /// Surface heights, (width+1)×(height+1) row by row, when stored.
    pub heights: Option<Vec<f32>>,
    /// Depths, (width+1)×(height+1), when stored.
    pub depths: Option<Vec<u8>>,
    /// Texture coordinates, (width+1)×(height+1), when stored.
    pub uvs: Option<Vec<[u16; 2]>>,
    /// Where the layer came from.
    pub origin: LiquidOrigin,
}

impl LiquidLayer {
    /// Makes the layer's rectangle the whole chunk (8×8 quads from the corner), its exists
    /// mask kept only inside the rectangle it had: what MCLQ can store, and what an edit that
    /// reshapes a layer starts from.
    pub fn cover_whole_chunk(&mut self) {
        self.exists &= self.rectangle_mask();
        self.x = 0;
        self.y = 0;
        self.width = 8;
        self.height = 8;
        self.exists_omitted = false;
        self.exists_padding = 0;
    }

    /// Vertices per row of the layer's grids.
    pub fn vertex_columns(&self) -> usize {
        self.width as usize + 1
    }

    /// Number of per-vertex values in each grid.
    pub fn vertex_count(&self) -> usize {
        (self.width as usize + 1) * (self.height as usize + 1)
    }

    /// Mask of the quads inside the layer's rectangle.
    pub fn rectangle_mask(&self) -> u64 {
        rectangle_mask(self.x, self.y, self.width, self.height)
    }

    /// Number of quads with liquid.
    pub fn quad_count(&self) -> u32 {
        self.exists.count_ones()
    }

    /// Quads with liquid that lie inside the rectangle (the only ones a file can show).
    pub fn wet_quads(&self) -> u64 {
        self.exists & self.rectangle_mask()
    }

    /// The surface height at each vertex of the layer's own grid as the file means it: the
    /// stored heights, else 0.0 for MH2O's depth-only format 2 (which the client draws at 0.0
    /// whatever the height range says), else the layer's height level.
    pub fn surface_heights(&self) -> Vec<f32> {
        match &self.heights {
            Some(h) if h.len() == self.vertex_count() => h.clone(),
            None if self.vertex_format == 2 && matches!(self.origin, LiquidOrigin::Mh2o) => {
                vec![0.0; self.vertex_count()]
            }
            _ => vec![self.min_height; self.vertex_count()],
        }
    }

    /// The surface height at vertex (`row`, `col`) of the chunk's 9×9 grid, clamped into the
    /// layer's rectangle.
    pub fn surface_height_at(&self, heights: &[f32], row: usize, col: usize) -> f32 {
        let (x0, y0) = (self.x as usize, self.y as usize);
        let r = row.clamp(y0, y0 + self.height as usize) - y0;
        let c = col.clamp(x0, x0 + self.width as usize) - x0;
        heights
            .get(r * self.vertex_columns() + c)
            .copied()
            .unwrap_or(self.min_height)
    }
}

/// Mask of the quads of an 8×8 grid inside a rectangle.
pub fn rectangle_mask(x: u8, y: u8, width: u8, height: u8) -> u64 {
    let mut mask = 0u64;
    for row in y as usize..(y as usize + height as usize).min(LIQUID_QUADS) {
        for col in x as usize..(x as usize + width as usize).min(LIQUID_QUADS) {
            mask |= 1 << (row * LIQUID_QUADS + col);
        }
    }
    mask
}

/// All liquid of one chunk.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChunkLiquid {
    /// Layers, bottom first.
    pub layers: Vec<LiquidLayer>,
    /// MH2O attributes, when the file stored them.
    pub attributes: Option<LiquidAttributes>,
}

impl ChunkLiquid {
    /// The liquid of an MCLQ: its layers, and no attributes (only MH2O stores them).
    pub fn from_mclq(layers: Vec<LiquidLayer>) -> ChunkLiquid {
        ChunkLiquid {
            layers,
            attributes: None,
        }
    }
}
