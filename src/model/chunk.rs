//! One map chunk (MCNK): a 33⅓-yard square of terrain with its heights, normals, texture
//! layers, shadow, vertex colours, holes, area, liquid and sound emitters.

use super::alpha::AlphaMap;
use super::coords::VERTICES_PER_CHUNK;
use super::liquid::ChunkLiquid;

/// MCNK flag: the chunk has a shadow map.
pub const FLAG_HAS_SHADOW: u32 = 0x1;
/// MCNK flag: the chunk cannot be walked on.
pub const FLAG_IMPASSABLE: u32 = 0x2;
/// MCNK flag: old-style (MCLQ) river liquid.
pub const FLAG_LIQUID_RIVER: u32 = 0x4;
/// MCNK flag: old-style (MCLQ) ocean liquid.
pub const FLAG_LIQUID_OCEAN: u32 = 0x8;
/// MCNK flag: old-style (MCLQ) magma liquid.
pub const FLAG_LIQUID_MAGMA: u32 = 0x10;
/// MCNK flag: old-style (MCLQ) slime liquid.
pub const FLAG_LIQUID_SLIME: u32 = 0x20;
/// All four old-style liquid flags.
pub const FLAG_LIQUID_ANY: u32 = 0x3C;
/// MCNK flag: the chunk has vertex colours (MCCV).
pub const FLAG_HAS_VERTEX_COLORS: u32 = 0x40;
/// MCNK flag: 4-bit alpha and shadow maps hold all 64×64 texels ("do not fix alpha map").
pub const FLAG_DO_NOT_FIX_ALPHA: u32 = 0x8000;

/// MCLY flag: the layer has an alpha map.
pub const LAYER_USE_ALPHA: u32 = 0x100;
/// MCLY flag: the layer's alpha map is run-length encoded.
pub const LAYER_ALPHA_COMPRESSED: u32 = 0x200;

/// The neutral vertex colour (no tint) of MCCV.
pub const NEUTRAL_COLOR: [u8; 4] = [0x7F, 0x7F, 0x7F, 0xFF];

/// One texture layer of a chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// Index into the tile's texture list.
    pub texture: u32,
    /// MCLY flags (animation, overbright, 0x100 alpha, 0x200 compressed, 0x400 reflection).
    pub flags: u32,
    /// Ground effect (detail doodads, footsteps), a GroundEffectTexture id; 0xFFFFFFFF for none.
    pub effect_id: u32,
    /// The layer's alpha map; `None` for the base layer.
    pub alpha: Option<AlphaMap>,
}

/// A 64×64 bit shadow map, stored as 64 rows of 64 bits, bit `col` of row `row` = shadowed.
#[derive(Clone, PartialEq, Eq)]
pub struct ShadowMap {
    /// Row bits, least significant bit = westmost… eastmost column 0.
    pub rows: Box<[u64; 64]>,
}

impl std::fmt::Debug for ShadowMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set: u32 = self.rows.iter().map(|r| r.count_ones()).sum();
        write!(f, "ShadowMap({set} shadowed)")
    }
}

impl ShadowMap {
    /// True where texel (`row`, `col`) is in shadow.
    pub fn get(&self, row: usize, col: usize) -> bool {
        self.rows[row] >> col & 1 == 1
    }
}

/// A sound emitter record. The 3.3.5 file stores 28-byte records, 1.12 52-byte ones; both are
/// kept as the fields they share plus the bytes beyond them.
#[derive(Debug, Clone, PartialEq)]
pub struct SoundEmitter {
    /// The raw record bytes; interpretation depends on the generation (see docs/formats.md).
    pub record: Vec<u8>,
}

/// Header values of an MCNK that loam does not edit but must write back unchanged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChunkHeaderExtras {
    /// The u16 after the hole mask ("unknown but used").
    pub unknown_0x3e: u16,
    /// Cataclysm's MCLV offset word; 0 in the classic files.
    pub ofs_mclv: u32,
    /// The last header word.
    pub unused_0x7c: u32,
    /// The stored position's x and y, when they differ from what `coords` computes.
    pub position_xy: Option<[f32; 2]>,
}

/// Where a chunk's file bytes deviated from what the writer derives, kept for exact re-saves.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChunkQuirks {
    /// The MCAL sub-chunk's own size field when it is not the payload length (Northrend_37_25).
    pub alpha_size_field: Option<u32>,
    /// The MCLQ sub-chunk's own size field when it is not the payload length (0 in pvpzone).
    pub liquid_size_field: Option<u32>,
    /// An empty MCLQ sub-chunk was present in a chunk without liquid.
    pub empty_liquid_chunk: bool,
    /// The 13 bytes after MCNR that 3.3.5 and earlier count outside the chunk.
    pub normal_padding: Option<[u8; 13]>,
    /// The relative heights as stored, when `absolute - base` would not give the same bits.
    pub relative_heights: Option<Box<[f32; VERTICES_PER_CHUNK]>>,
    /// MCSE record size when it differs from the generation's usual one.
    pub sound_record_size: Option<usize>,
    /// Bytes inside the MCNK after its last known sub-chunk (sub-chunks loam does not know).
    pub trailing: Vec<u8>,
    /// Flag 0x1 (has shadow) was set without an MCSH (Noggit); kept while there is no shadow.
    pub shadow_flag_without_map: bool,
    /// The header's ofsShadow was 0 for a chunk without shadow (Noggit) instead of pointing
    /// where MCSH would be.
    pub shadow_offset_zero: bool,
    /// The header's sizeLiquid when ofsLiquid was 0 and the size was not (Noggit writes 8).
    pub liquid_size_without_chunk: Option<u32>,
    /// Sub-chunks whose size field ran past the end of the MCNK: (tag in reading order, size
    /// field). The payload was read up to the end; the field is written back as it was.
    pub oversized_sub_chunks: Vec<([u8; 4], u32)>,
}

impl ChunkQuirks {
    /// Forgets what only reproduces another tool's marks (not Blizzard's own oddities), so a
    /// conversion writes a clean chunk.
    pub fn forget_tool_marks(&mut self) {
        self.shadow_flag_without_map = false;
        self.shadow_offset_zero = false;
        self.liquid_size_without_chunk = None;
        self.oversized_sub_chunks.clear();
    }
}

/// One 16×16th of a tile.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    /// MCNK flags (see the `FLAG_*` constants).
    pub flags: u32,
    /// Absolute heights of the 145 vertices, MCVT order (9 outer, 8 inner, …).
    pub heights: Box<[f32; VERTICES_PER_CHUNK]>,
    /// The reference height the file stores heights relative to (header position z).
    pub base_height: f32,
    /// Vertex normals, (x, y, z) with 127 = 1.0, MCVT order.
    pub normals: Box<[[i8; 3]; VERTICES_PER_CHUNK]>,
    /// Texture layers, base first, at most four.
    pub layers: Vec<Layer>,
    /// Static shadow map.
    pub shadow: Option<ShadowMap>,
    /// Vertex colours as RGBA, 0x7F = neutral, MCVT order.
    pub vertex_colors: Option<Box<[[u8; 4]; VERTICES_PER_CHUNK]>>,
    /// Low-resolution holes: bit `row * 4 + col` cuts out a 2×2-quad square.
    pub holes: u16,
    /// AreaTable id (in 0.5.x: zone << 16 | subzone).
    pub area_id: u32,
    /// 8×8 2-bit "low quality texture map" (which layer dominates, for detail doodads).
    pub low_quality_texture_map: [u8; 16],
    /// 8×8 bits disabling detail doodads.
    pub no_effect_doodad: [u8; 8],
    /// Indices into the tile's doodad placements that touch this chunk (MCRF, first part).
    pub doodad_refs: Vec<u32>,
    /// Indices into the tile's WMO placements that touch this chunk (MCRF, second part).
    pub wmo_refs: Vec<u32>,
    /// Liquid in this chunk, old (MCLQ) or new (MH2O) style, in one neutral form.
    pub liquid: Option<ChunkLiquid>,
    /// Sound emitters (MCSE).
    pub sound_emitters: Vec<SoundEmitter>,
    /// Header values kept verbatim.
    pub extras: ChunkHeaderExtras,
    /// File quirks kept for exact re-saves.
    pub quirks: ChunkQuirks,
}

impl Chunk {
    /// A flat chunk at `height` with one layer of texture 0 and neutral everything.
    pub fn flat(height: f32) -> Chunk {
        Chunk {
            flags: 0,
            heights: Box::new([height; VERTICES_PER_CHUNK]),
            base_height: height,
            normals: Box::new([[0, 0, 127]; VERTICES_PER_CHUNK]),
            layers: vec![Layer {
                texture: 0,
                flags: 0,
                effect_id: 0,
                alpha: None,
            }],
            shadow: None,
            vertex_colors: None,
            holes: 0,
            area_id: 0,
            low_quality_texture_map: [0; 16],
            no_effect_doodad: [0; 8],
            doodad_refs: Vec::new(),
            wmo_refs: Vec::new(),
            liquid: None,
            sound_emitters: Vec::new(),
            extras: ChunkHeaderExtras::default(),
            quirks: ChunkQuirks::default(),
        }
    }

    /// True when the low-resolution hole at (`row`, `col`), each 0..4, is cut.
    pub fn has_hole(&self, row: usize, col: usize) -> bool {
        self.holes >> (row * 4 + col) & 1 == 1
    }

    /// Lowest and highest absolute height.
    pub fn height_range(&self) -> (f32, f32) {
        self.heights
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
                (lo.min(h), hi.max(h))
            })
    }
}

// Ground effects: the MCNK header's low-quality texture map (0x40) and noEffectDoodad bits
// (0x50) as the client reads them; `edit::derived::ground_effects` works them out and documents the
// layout's sources.

/// The MCLY effect id meaning "no ground effect".
pub const NO_EFFECT: u32 = u32::MAX;

/// The layer the texture map names for cell (`row`, `col`).
pub fn named_layer(map: &[u8; 16], row: usize, col: usize) -> u8 {
    (map[row * 2 + col / 4] >> ((col % 4) * 2)) & 3
}

/// Names `layer` (0..4) for cell (`row`, `col`) in the texture map.
pub fn set_named_layer(map: &mut [u8; 16], row: usize, col: usize, layer: u8) {
    let (byte, shift) = (row * 2 + col / 4, (col % 4) * 2);
    map[byte] = (map[byte] & !(3 << shift)) | ((layer & 3) << shift);
}

/// True when cell (`row`, `col`) has its ground effects switched off.
pub fn effects_off(bits: &[u8; 8], row: usize, col: usize) -> bool {
    bits[row] >> col & 1 == 1
}

/// Switches cell (`row`, `col`)'s ground effects off (`off`) or back on.
pub fn set_effects_off(bits: &mut [u8; 8], row: usize, col: usize, off: bool) {
    if off {
        bits[row] |= 1 << col;
    } else {
        bits[row] &= !(1 << col);
    }
}

/// The effect that grows in cell (`row`, `col`): the named layer's effect id, `None` where the
/// cell's effects are off, the layer has none, or the map names a missing layer.
pub fn effect_at(chunk: &Chunk, row: usize, col: usize) -> Option<u32> {
    if effects_off(&chunk.no_effect_doodad, row, col) {
        return None;
    }
    let layer = chunk.layers.get(usize::from(named_layer(
        &chunk.low_quality_texture_map,
        row,
        col,
    )))?;
    (layer.effect_id != NO_EFFECT && layer.effect_id != 0).then_some(layer.effect_id)
}
