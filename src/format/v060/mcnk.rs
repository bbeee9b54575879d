//! The 0.6.0 MCNK: the v18 header (offsets from the MCNK tag at 0x14 MCVT … 0x60 MCLQ,
//! position at 0x68), every sub-chunk with its own tag (the client checks them), MCVT and MCNR
//! in the non-interleaved order of `VERTICES_OUTER_FIRST`, 4-bit alpha, and MCLQ as a normal
//! chunk of 0x2D4-byte instances, one per liquid flag.
//!
//! Not for: the v18 MCNK (`v18::mcnk`) or the alpha one (`alpha::mcnk`).

use crate::format::chunk::{ErrorKind, RawChunk, Reader, Result, Writer, tags};
use crate::format::mcnk_parts::{self as parts, ChunkPlace, Offsets, OpenMcnk};
use crate::format::v18::mcnk::{header_bytes, header_extras, read_header, sub};
use crate::format::v18::{AlphaDepth, AlphaTarget};
use crate::format::{alpha, mcal, mclq};
use crate::model::chunk::*;
use crate::model::coords::{self, VERTICES_PER_CHUNK};
use crate::model::liquid::ChunkLiquid;

/// Bytes MCNR's size counts (145 × 3).
const NORMAL_BYTES: usize = VERTICES_PER_CHUNK * 3;
/// Bytes after MCNR that its size does not count, as in v18.
const NORMAL_PADDING: usize = 13;

/// Disputed: the order of the 145 MCVT heights and MCNR normals. The 0.6.0 client reads them
/// as contiguous arrays, 81 outer then 64 inner (`004_*`, "non-interleaved, high confidence"),
/// like 0.5.x; later clients interleave rows of 9 and 8. `true` writes and reads outer-first;
/// setting it to `false` switches both to the v18 interleaved order. This is the only place the
/// choice is made.
pub const VERTICES_OUTER_FIRST: bool = true;

/// Disputed: whether MCVT heights are relative to the header position's z (0x70), as in v18,
/// or absolute, as in 0.5.x. The 0.6.0 header carries the v18 position at 0x68, whose only use
/// in v18 is to be that base, so heights are written relative to it.
pub const HEIGHTS_RELATIVE_TO_POSITION: bool = true;

/// Disputed: 4-bit alpha maps hold all 64×64 texels (as in 0.5.x) rather than 63×63 with the
/// last row and column repeated (the 3.3.5 client's "fix" without MCNK flag 0x8000). Nothing
/// in `004_*` shows the fix, and it arrived with later clients.
pub const ALPHA_ALL_64: bool = true;

/// Model index of the `k`-th stored vertex.
fn vertex_index(k: usize) -> usize {
    if VERTICES_OUTER_FIRST {
        coords::outer_then_inner_vertex(k)
    } else {
        k
    }
}

/// Decodes one 0.6.0 MCNK: chunk `at`. `_depth` is accepted for the shared ADT top level;
/// 0.6.0 alpha maps are always 4-bit.
pub fn read(mcnk: &RawChunk, at: ChunkPlace, _depth: AlphaDepth) -> Result<Chunk> {
    let h = read_header(mcnk)?;
    let flags = h.flags;
    let mut quirks = ChunkQuirks::default();

    let base = if HEIGHTS_RELATIVE_TO_POSITION {
        h.position[2]
    } else {
        0.0
    };
    let mcvt = sub(mcnk, h.run.ofs_height, tags::MCVT)?;
    if mcvt.payload.len() < VERTICES_PER_CHUNK * 4 {
        return Err(mcvt.bad_size("MCVT needs 145 floats"));
    }
    let mut heights = Box::new([0f32; VERTICES_PER_CHUNK]);
    let mut stored = Box::new([0f32; VERTICES_PER_CHUNK]);
    for (k, b) in mcvt
        .payload
        .chunks_exact(4)
        .take(VERTICES_PER_CHUNK)
        .enumerate()
    {
        let v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        stored[vertex_index(k)] = v;
        heights[vertex_index(k)] = base + v;
    }
    if heights
        .iter()
        .zip(stored.iter())
        .any(|(h, s)| (h - base).to_bits() != s.to_bits())
    {
        quirks.relative_heights = Some(stored);
    }

    let mcnr = sub(mcnk, h.run.ofs_normal, tags::MCNR)?;
    if mcnr.payload.len() < NORMAL_BYTES {
        return Err(mcnr.bad_size("MCNR needs 145 normals"));
    }
    let normals = parts::read_normals(mcnr.payload, vertex_index);
    let pad_at = h.run.ofs_normal as usize + NORMAL_BYTES;
    if let Some(p) = mcnk.payload.get(pad_at..pad_at + NORMAL_PADDING)
        && p.iter().any(|&b| b != 0)
    {
        let mut pad = [0u8; NORMAL_PADDING];
        pad.copy_from_slice(p);
        quirks.normal_padding = Some(pad);
    }

    let mcly = sub(mcnk, h.run.ofs_layer, tags::MCLY)?;
    let n = parts::layer_count(&mcly, h.run.n_layers)?;
    let mcal = sub(mcnk, h.run.ofs_alpha, tags::MCAL)?;
    if h.run.size_alpha as usize != mcal.payload.len() + 8 {
        return Err(mcnk.error(
            0x28,
            ErrorKind::Invalid(format!(
                "sizeAlpha {} does not match the MCAL chunk ({} bytes)",
                h.run.size_alpha,
                mcal.payload.len() + 8
            )),
        ));
    }
    let alpha_block = (mcal.payload, mcal.payload_offset());
    let layers = parts::read_nibble_layers(&mcly, n, true, alpha_block, !ALPHA_ALL_64)?;

    let mcrf = sub(mcnk, h.run.ofs_refs, tags::MCRF)?;
    let (doodad_refs, wmo_refs) = parts::read_refs(&mcrf, h.run.n_doodad_refs, h.run.n_wmo_refs)?;

    let shadow = if flags & FLAG_HAS_SHADOW != 0 {
        let mcsh = sub(mcnk, h.run.ofs_shadow, tags::MCSH)?;
        if mcsh.payload.len() < parts::SHADOW_BYTES {
            return Err(mcsh.bad_size("MCSH needs 512 bytes"));
        }
        Some(parts::read_shadow(mcsh.payload))
    } else {
        None
    };

    let liquid = if flags & FLAG_LIQUID_ANY != 0 && h.run.ofs_liquid != 0 {
        let mclq = sub(mcnk, h.run.ofs_liquid, tags::MCLQ)?;
        if h.size_liquid as usize != mclq.payload.len() + 8 {
            return Err(mcnk.error(
                0x64,
                ErrorKind::Invalid(format!(
                    "sizeLiquid {} does not match the MCLQ chunk ({} bytes)",
                    h.size_liquid,
                    mclq.payload.len() + 8
                )),
            ));
        }
        let layers = mclq::read_with(
            &mut Reader::new(mclq.payload, mclq.payload_offset(), tags::MCLQ),
            flags,
            false,
        )?;
        Some(ChunkLiquid::from_mclq(layers))
    } else {
        None
    };

    let mut sound_emitters = Vec::new();
    if h.run.ofs_sound != 0 {
        let mcse = sub(mcnk, h.run.ofs_sound, tags::MCSE)?;
        (sound_emitters, _) = parts::read_sounds(&mcse, h.run.n_sound)?;
    }

    Ok(Chunk {
        flags,
        heights,
        base_height: base,
        normals,
        layers,
        shadow,
        vertex_colors: None,
        holes: h.run.holes,
        area_id: h.run.area_id,
        low_quality_texture_map: h.run.low_quality_texture_map,
        no_effect_doodad: h.run.no_effect_doodad,
        doodad_refs,
        wmo_refs,
        liquid,
        sound_emitters,
        extras: header_extras(&h, at),
        quirks,
    })
}

/// Encodes one 0.6.0 MCNK (tag and all) for chunk `at`. `_alpha` is accepted for the shared
/// ADT top level; 0.6.0 alpha maps are always 4-bit.
pub fn write(w: &mut Writer, chunk: &Chunk, at: ChunkPlace, _alpha: AlphaTarget) {
    let mcnk = OpenMcnk::begin(w);
    let mut o = Offsets::default();
    let base = if HEIGHTS_RELATIVE_TO_POSITION {
        chunk.base_height
    } else {
        0.0
    };

    o.height = mcnk.here(w);
    let c = w.begin(tags::MCVT);
    for k in 0..VERTICES_PER_CHUNK {
        w.f32(parts::stored_height(chunk, vertex_index(k), base));
    }
    w.end(c);

    o.normal = mcnk.here(w);
    let c = w.begin(tags::MCNR);
    parts::put_normals(w, &chunk.normals[..], vertex_index);
    w.end(c);
    w.bytes(&chunk.quirks.normal_padding.unwrap_or([0; NORMAL_PADDING]));

    let (records, alpha_block) = mcal::nibble_layers(&chunk.layers);
    o.layer = mcnk.here(w);
    let c = w.begin(tags::MCLY);
    parts::put_layer_records(
        w,
        records
            .iter()
            .map(|r| [r.texture, r.flags, r.offset, r.effect_id]),
    );
    w.end(c);

    o.refs = mcnk.here(w);
    parts::put_mcrf(w, chunk);

    o.shadow = mcnk.here(w);
    if chunk.shadow.is_some() {
        let c = w.begin(tags::MCSH);
        o.size_shadow = parts::put_shadow(w, chunk);
        w.end(c);
    }

    o.alpha = mcnk.here(w);
    w.chunk(tags::MCAL, &alpha_block);
    o.size_alpha = alpha_block.len() as u32 + 8;

    let instances = alpha::mcnk::liquid_instances(chunk);
    let mut liquid_flags = 0;
    if !instances.is_empty() {
        o.liquid = mcnk.here(w);
        let c = w.begin(tags::MCLQ);
        for (flag, layer) in instances {
            mclq::write_with(w, layer, false);
            liquid_flags |= flag;
        }
        o.size_liquid = (w.len() - c.payload_offset()) as u32 + 8;
        w.end(c);
    }

    o.sound = mcnk.here(w);
    let c = w.begin(tags::MCSE);
    parts::put_sounds(w, chunk);
    w.end(c);

    let flags = parts::mclq_era_flags(chunk, liquid_flags);
    mcnk.finish(w, &header_bytes(chunk, flags, at, base, &o));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::chunk::chunk_at;
    use crate::model::coords::TileCoord;
    use proptest::prelude::*;

    fn place(tile: TileCoord, x: usize, y: usize) -> ChunkPlace {
        ChunkPlace { tile, x, y }
    }

    #[test]
    fn heights_are_stored_outer_first_and_relative() {
        let mut c = Chunk::flat(100.0);
        for (i, h) in c.heights.iter_mut().enumerate() {
            *h = 100.0 + i as f32;
        }
        let t = TileCoord::new(30, 30).unwrap();
        let mut w = Writer::default();
        write(&mut w, &c, place(t, 1, 2), AlphaTarget { big: false });
        let bytes = w.into_bytes();
        let ofs = u32::from_le_bytes(bytes[8 + 0x14..8 + 0x18].try_into().unwrap()) as usize;
        assert_eq!(&bytes[ofs..ofs + 4], b"TVCM");
        let v = |k: usize| {
            f32::from_le_bytes(bytes[ofs + 8 + 4 * k..ofs + 12 + 4 * k].try_into().unwrap())
        };
        assert_eq!(v(9), coords::outer_vertex(1, 0) as f32);
        assert_eq!(v(81), coords::inner_vertex(0, 0) as f32);
        let raw = chunk_at(&bytes, 0, 0, tags::FILE).unwrap();
        let back = read(&raw, place(t, 1, 2), AlphaDepth::Nibble).unwrap();
        assert_eq!(back.heights, c.heights);
    }

    proptest! {
        #[test]
        fn decoder_never_panics_on_random_or_mutated_bytes(
            payload in proptest::collection::vec(any::<u8>(), 0..3000),
            edits in proptest::collection::vec((any::<usize>(), any::<u32>()), 1..6),
        ) {
            let t = TileCoord::new(1, 1).unwrap();
            let mut bytes = b"KNCM".to_vec();
            bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            bytes.extend_from_slice(&payload);
            let raw = chunk_at(&bytes, 0, 0, tags::FILE).unwrap();
            let _ = read(&raw, place(t, 0, 0), AlphaDepth::Nibble);

            let mut w = Writer::default();
            write(&mut w, &Chunk::flat(3.0), place(t, 0, 0), AlphaTarget { big: false });
            let mut bytes = w.into_bytes();
            for (at, v) in edits {
                let at = 8 + at % (bytes.len() - 12);
                bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            let raw = chunk_at(&bytes, 0, 0, tags::FILE).unwrap();
            if let Err(e) = read(&raw, place(t, 0, 0), AlphaDepth::Nibble) {
                prop_assert!(e.offset <= bytes.len() as u64);
            }
        }
    }
}
