//! The parts of an MCNK every generation reads and writes the same way: the run of header
//! fields from the layer count to the MCLQ offset, the sub-chunk offsets a writer records, the
//! normals, the layer records and their count, the object references, the shadow rows, the
//! sound emitters, the stored form of a height, and the header flags a 0.5.x or 0.6.0 chunk ends
//! up with. Each codec frames them its own way (sub-chunk headers or none, quirks kept) and lays
//! out the header fields around the shared run.
//!
//! Not for: heights and alpha maps (each codec's `read`), alpha maps (`mcal`) or liquids
//! (`mclq`).

use crate::format::chunk::{
    ErrorKind, FormatError, OpenChunk, RawChunk, Reader, Result, Tag, Writer, tags,
};
use crate::format::mcal;
use crate::model::alpha::AlphaMap;
use crate::model::chunk::{
    Chunk, FLAG_HAS_SHADOW, FLAG_HAS_VERTEX_COLORS, FLAG_LIQUID_ANY, LAYER_USE_ALPHA, Layer,
    ShadowMap, SoundEmitter,
};
use crate::model::coords::{TileCoord, VERTICES_PER_CHUNK};

/// Bytes of an MCNK header, in every generation.
pub const HEADER_BYTES: usize = 128;
/// Bytes of one MCLY record, in every generation.
const LAYER_BYTES: usize = 16;
/// Bytes of a shadow map.
pub const SHADOW_BYTES: usize = 512;
/// The u16 effect id an alpha MCLY record stores for "no ground effect".
pub const NO_EFFECT_U16: u16 = 0xFFFF;

/// Which chunk of which tile an MCNK is: its header stores the indices (and, from 0.6.0 on, a
/// position made from them).
#[derive(Debug, Clone, Copy)]
pub struct ChunkPlace {
    /// The tile.
    pub tile: TileCoord,
    /// The chunk's column in the tile, 0..16.
    pub x: usize,
    /// The chunk's row in the tile, 0..16.
    pub y: usize,
}

/// The header fields every generation lays out alike, from the layer count (0x0C; 0x10 in
/// alpha, whose header has a radius before it) to the MCLQ offset.
pub struct HeaderRun {
    /// MCLY records.
    pub n_layers: u32,
    /// Doodad references at the start of MCRF.
    pub n_doodad_refs: u32,
    /// Offset of MCVT.
    pub ofs_height: u32,
    /// Offset of MCNR.
    pub ofs_normal: u32,
    /// Offset of MCLY.
    pub ofs_layer: u32,
    /// Offset of MCRF.
    pub ofs_refs: u32,
    /// Offset of MCAL.
    pub ofs_alpha: u32,
    /// Size of MCAL as the header gives it.
    pub size_alpha: u32,
    /// Offset of MCSH.
    pub ofs_shadow: u32,
    /// Size of MCSH.
    pub size_shadow: u32,
    /// AreaTable id.
    pub area_id: u32,
    /// WMO references after the doodad ones in MCRF.
    pub n_wmo_refs: u32,
    /// The low-resolution hole mask.
    pub holes: u16,
    /// The u16 after the hole mask: kept as `unknown_0x3e` from 0.6.0 on; padding in alpha
    /// (which [gp] reads as the high half of the mask).
    pub after_holes: u16,
    /// The low quality texture map.
    pub low_quality_texture_map: [u8; 16],
    /// The detail doodads switched off.
    pub no_effect_doodad: [u8; 8],
    /// Offset of MCSE.
    pub ofs_sound: u32,
    /// MCSE records.
    pub n_sound: u32,
    /// Offset of MCLQ.
    pub ofs_liquid: u32,
}

/// Where a written MCNK's sub-chunks went (offsets as the codec counts them) and their sizes.
#[derive(Default)]
pub struct Offsets {
    /// MCVT.
    pub height: u32,
    /// MCNR.
    pub normal: u32,
    /// MCLY.
    pub layer: u32,
    /// MCRF.
    pub refs: u32,
    /// MCAL.
    pub alpha: u32,
    /// MCAL's size as the header gives it.
    pub size_alpha: u32,
    /// MCSH.
    pub shadow: u32,
    /// MCSH's size.
    pub size_shadow: u32,
    /// MCSE.
    pub sound: u32,
    /// MCLQ.
    pub liquid: u32,
    /// MCLQ's size (from 0.6.0 on).
    pub size_liquid: u32,
    /// MCCV (v18 only).
    pub mccv: u32,
}

/// Reads the [`HeaderRun`].
pub fn read_header_run(r: &mut Reader) -> Result<HeaderRun> {
    Ok(HeaderRun {
        n_layers: r.u32()?,
        n_doodad_refs: r.u32()?,
        ofs_height: r.u32()?,
        ofs_normal: r.u32()?,
        ofs_layer: r.u32()?,
        ofs_refs: r.u32()?,
        ofs_alpha: r.u32()?,
        size_alpha: r.u32()?,
        ofs_shadow: r.u32()?,
        size_shadow: r.u32()?,
        area_id: r.u32()?,
        n_wmo_refs: r.u32()?,
        holes: r.u16()?,
        after_holes: r.u16()?,
        low_quality_texture_map: r.array()?,
        no_effect_doodad: r.array()?,
        ofs_sound: r.u32()?,
        n_sound: r.u32()?,
        ofs_liquid: r.u32()?,
    })
}

/// Writes the [`HeaderRun`] of `chunk`, whose sub-chunks went to `o`, with `after_holes` after
/// the hole mask.
pub fn put_header_run(w: &mut Writer, chunk: &Chunk, o: &Offsets, after_holes: u16) {
    w.u32(chunk.layers.len() as u32);
    w.u32(chunk.doodad_refs.len() as u32);
    w.u32(o.height);
    w.u32(o.normal);
    w.u32(o.layer);
    w.u32(o.refs);
    w.u32(o.alpha);
    w.u32(o.size_alpha);
    w.u32(o.shadow);
    w.u32(o.size_shadow);
    w.u32(chunk.area_id);
    w.u32(chunk.wmo_refs.len() as u32);
    w.u16(chunk.holes);
    w.u16(after_holes);
    w.bytes(&chunk.low_quality_texture_map);
    w.bytes(&chunk.no_effect_doodad);
    w.u32(o.sound);
    w.u32(chunk.sound_emitters.len() as u32);
    w.u32(o.liquid);
}

/// An error at `at` (in the MCNK) unless the sub-chunk `found` there is the `expected` one.
pub fn expect_tag(expected: Tag, found: Tag, at: usize) -> Result<()> {
    if found != expected {
        return Err(FormatError::new(
            tags::MCNK,
            at,
            ErrorKind::UnexpectedTag { expected, found },
        ));
    }
    Ok(())
}

/// An error unless the MCNK has room for its header.
pub fn check_header_room(mcnk: &RawChunk) -> Result<()> {
    if mcnk.payload.len() < HEADER_BYTES {
        return Err(mcnk.error(
            0,
            ErrorKind::Truncated {
                needed: HEADER_BYTES,
                available: mcnk.payload.len(),
            },
        ));
    }
    Ok(())
}

/// An MCNK being written, its header left as zeros until every offset is known.
pub struct OpenMcnk {
    chunk: OpenChunk,
    origin: usize,
}

impl OpenMcnk {
    /// Opens an MCNK whose sub-chunk offsets count from its tag (0.6.0 on).
    pub fn begin(w: &mut Writer) -> OpenMcnk {
        let chunk = w.begin(tags::MCNK);
        w.zeros(HEADER_BYTES);
        let origin = chunk.offset();
        OpenMcnk { chunk, origin }
    }

    /// Opens an MCNK whose sub-chunk offsets count from the end of its header (alpha).
    pub fn begin_from_header_end(w: &mut Writer) -> OpenMcnk {
        let chunk = w.begin(tags::MCNK);
        w.zeros(HEADER_BYTES);
        let origin = w.len();
        OpenMcnk { chunk, origin }
    }

    /// The offset of what is written next, as the header stores it.
    pub fn here(&self, w: &Writer) -> u32 {
        (w.len() - self.origin) as u32
    }

    /// Closes the MCNK and writes its `header` in place.
    pub fn finish(self, w: &mut Writer, header: &[u8]) {
        let header_at = self.chunk.payload_offset();
        w.end(self.chunk);
        w.patch_bytes(header_at, header);
    }
}

/// MCNR's 145 normals (x, y, z as signed bytes), vertex `order(k)` of the chunk's at place `k`.
pub fn put_normals(w: &mut Writer, normals: &[[i8; 3]], order: impl Fn(usize) -> usize) {
    for k in 0..VERTICES_PER_CHUNK {
        let n = normals[order(k)];
        w.bytes(&[n[0] as u8, n[1] as u8, n[2] as u8]);
    }
}

/// MCNR's 145 normals from `bytes`, the `k`-th stored going to vertex `order(k)`.
pub fn read_normals(
    bytes: &[u8],
    order: impl Fn(usize) -> usize,
) -> Box<[[i8; 3]; VERTICES_PER_CHUNK]> {
    let mut normals = Box::new([[0i8; 3]; VERTICES_PER_CHUNK]);
    for (k, b) in bytes.chunks_exact(3).take(VERTICES_PER_CHUNK).enumerate() {
        normals[order(k)] = [b[0] as i8, b[1] as i8, b[2] as i8];
    }
    normals
}

/// The layer count as a number of MCLY records, or an error when there are more than four or
/// `mcly` cannot hold them.
pub fn layer_count(mcly: &RawChunk, n_layers: u32) -> Result<usize> {
    let n = n_layers as usize;
    if n > 4 || mcly.payload.len() < n * LAYER_BYTES {
        return Err(mcly.error(
            0,
            ErrorKind::Invalid(format!(
                "{n_layers} layers in {} bytes (at most 4 layers of 16 bytes)",
                mcly.size
            )),
        ));
    }
    Ok(n)
}

/// MCLY's `n` records (a [`layer_count`]) in 0.5.x and 0.6.0, with their 4-bit alpha maps from `block` (at
/// `block_at` in the file; `fixed` for the 63×63 form). The effect id is a u16 and padding in
/// alpha (`wide_effect` false; 0xFFFF for none) and a u32 in 0.6.0.
pub fn read_nibble_layers(
    mcly: &RawChunk,
    n: usize,
    wide_effect: bool,
    (block, block_at): (&[u8], usize),
    fixed: bool,
) -> Result<Vec<Layer>> {
    let mut r = mcly.reader();
    (0..n)
        .map(|k| {
            let texture = r.u32()?;
            let flags = r.u32()?;
            let offset = r.u32()?;
            let effect_id = if wide_effect {
                r.u32()?
            } else {
                let effect = r.u16()?;
                let _pad = r.u16()?;
                if effect == NO_EFFECT_U16 {
                    u32::MAX
                } else {
                    effect as u32
                }
            };
            let alpha = if k > 0 && flags & LAYER_USE_ALPHA != 0 {
                Some(nibble_map(block, block_at, offset, fixed)?)
            } else {
                None
            };
            Ok(Layer {
                texture,
                flags,
                effect_id,
                alpha,
            })
        })
        .collect()
}

/// The 4-bit alpha map at `offset` of `block` (at `block_at` in the file).
fn nibble_map(block: &[u8], block_at: usize, offset: u32, fixed: bool) -> Result<AlphaMap> {
    let start = offset as usize;
    let bytes: &[u8; mcal::NIBBLE_BYTES] = block
        .get(start..start.saturating_add(mcal::NIBBLE_BYTES))
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| {
            FormatError::new(
                tags::MCAL,
                block_at,
                ErrorKind::OffsetOutOfRange {
                    offset: offset as u64 + mcal::NIBBLE_BYTES as u64,
                    limit: block.len() as u64,
                },
            )
        })?;
    Ok(AlphaMap::from_texels(mcal::decode_nibble(bytes, fixed)))
}

/// MCLY's records from 0.6.0 on: texture index, flags, alpha-map offset and effect id, each a
/// u32.
pub fn put_layer_records(w: &mut Writer, records: impl IntoIterator<Item = [u32; 4]>) {
    for record in records {
        for field in record {
            w.u32(field);
        }
    }
}

/// MCRF: the doodad references, then the WMO references.
pub fn put_refs(w: &mut Writer, chunk: &Chunk) {
    for &r in chunk.doodad_refs.iter().chain(&chunk.wmo_refs) {
        w.u32(r);
    }
}

/// MCRF's doodad references, then its WMO references.
pub fn read_refs(mcrf: &RawChunk, n_doodads: u32, n_wmos: u32) -> Result<(Vec<u32>, Vec<u32>)> {
    let mut r = mcrf.reader();
    let doodads = (0..n_doodads).map(|_| r.u32()).collect::<Result<_>>()?;
    let wmos = (0..n_wmos).map(|_| r.u32()).collect::<Result<_>>()?;
    Ok((doodads, wmos))
}

/// The shadow map in the first 512 `bytes`, which the caller has checked are there.
pub fn read_shadow(bytes: &[u8]) -> ShadowMap {
    let mut rows = Box::new([0u64; 64]);
    for (row, b) in rows.iter_mut().zip(bytes.chunks_exact(8)) {
        *row = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    }
    ShadowMap { rows }
}

/// MCRF with its sub-chunk header, as 0.5.x and 0.6.0 frame it.
pub fn put_mcrf(w: &mut Writer, chunk: &Chunk) {
    let c = w.begin(tags::MCRF);
    put_refs(w, chunk);
    w.end(c);
}

/// MCSH's 64 rows of the shadow map, when the chunk has one; returns the bytes written.
pub fn put_shadow(w: &mut Writer, chunk: &Chunk) -> u32 {
    let Some(shadow) = &chunk.shadow else {
        return 0;
    };
    let start = w.len();
    for row in shadow.rows.iter() {
        w.u64(*row);
    }
    (w.len() - start) as u32
}

/// MCSE: the sound emitter records as read.
pub fn put_sounds(w: &mut Writer, chunk: &Chunk) {
    for e in &chunk.sound_emitters {
        w.bytes(&e.record);
    }
}

/// MCSE's `n_sound` emitters, each record the size that divides the sub-chunk evenly (from
/// 0.6.0 on, where the header gives no record size), and that size (0 when there are none).
pub fn read_sounds(mcse: &RawChunk, n_sound: u32) -> Result<(Vec<SoundEmitter>, usize)> {
    if n_sound == 0 {
        return Ok((Vec::new(), 0));
    }
    let record = mcse.payload.len() / n_sound as usize;
    if record == 0 || record * n_sound as usize != mcse.payload.len() {
        return Err(mcse.error(
            0,
            ErrorKind::Invalid(format!(
                "{n_sound} sound emitters do not fill {} bytes",
                mcse.size
            )),
        ));
    }
    let emitters = mcse
        .payload
        .chunks_exact(record)
        .map(|b| SoundEmitter { record: b.to_vec() })
        .collect();
    Ok((emitters, record))
}

/// Vertex `i`'s height as a file relative to `base` stores it: the relative value the file was
/// read with while it still gives the height (bit for bit), else the difference.
pub fn stored_height(chunk: &Chunk, i: usize, base: f32) -> f32 {
    let h = chunk.heights[i];
    match &chunk.quirks.relative_heights {
        Some(r) if base + r[i] == h => r[i],
        _ => h - base,
    }
}

/// The header flags of a 0.5.x or 0.6.0 chunk: the chunk's own, with the shadow flag saying
/// whether it has a map, no vertex colours (neither stores them), and the liquid flags of the
/// MCLQ instances written.
pub fn mclq_era_flags(chunk: &Chunk, liquid_flags: u32) -> u32 {
    let mut flags = chunk.flags & !(FLAG_HAS_SHADOW | FLAG_LIQUID_ANY | FLAG_HAS_VERTEX_COLORS);
    if chunk.shadow.is_some() {
        flags |= FLAG_HAS_SHADOW;
    }
    flags | liquid_flags
}
