//! The alpha MCNK (0.5.3 monolithic WDT and 0.5.5 prototype ADT): a 128-byte header whose
//! sub-chunk offsets count from the END of that header, then MCVT and MCNR without chunk
//! headers in outer-81-then-inner-64 order with absolute heights, MCLY and MCRF with 8-byte
//! headers, and headerless MCSH, MCAL (4-bit, 64×64), MCLQ (804-byte instances) and MCSE.
//!
//! Not for: the v18 or 0.6.0 MCNK (their offsets count from the MCNK tag and every sub-chunk
//! carries its tag), nor anything above one chunk.

use crate::format::chunk::{
    ErrorKind, FormatError, RawChunk, Reader, Result, Tag, Writer, chunk_at, tags,
};
use crate::format::mcnk_parts::{self as parts, Offsets, OpenMcnk};
use crate::format::{mcal, mclq};
use crate::model::chunk::*;
use crate::model::coords::{self, VERTICES_PER_CHUNK};
use crate::model::liquid::{ChunkLiquid, LiquidLayer};

/// Bytes of the alpha MCNK header.
pub const HEADER_BYTES: usize = parts::HEADER_BYTES;
/// Bytes of the headerless MCVT: 145 f32.
pub const HEIGHT_BYTES: usize = VERTICES_PER_CHUNK * 4;
/// Bytes of the 145 packed normals.
const NORMAL_BYTES: usize = VERTICES_PER_CHUNK * 3;
/// Padding after the normals; the alpha MCNR is 448 bytes with it.
const NORMAL_PADDING: usize = 13;
/// Bytes of the headerless alpha MCNR, padding included.
pub const NORMAL_BLOCK_BYTES: usize = NORMAL_BYTES + NORMAL_PADDING;

/// Bytes of one MCSE sound emitter record in an alpha file.
///
/// Disputed: the notes give 52 or 76 bytes. 52 is the record the 1.12 files that directly
/// followed these clients use (and what `v18` keeps for them), and no alpha file in reach
/// shows a longer one. The writer emits no MCSE at all when a chunk has no emitters, which is
/// what every real alpha chunk we know of does, so the choice only matters for emitters that
/// came from another alpha file.
pub const SOUND_RECORD_BYTES: usize = 52;

/// The bounding-sphere radius stored at header 0x0C: the sphere around the chunk's bounding box
/// (a 33⅓-yard square, from the lowest to the highest height), centred on the box's centre.
///
/// `radius = sqrt(2 · (CHUNK_SIZE / 2)² + ((max − min) / 2)²)`; a flat chunk gives half the
/// chunk's diagonal, 23.570227, the value the real RazorfenDowns.wdt stores.
pub fn bounding_radius(heights: &[f32; VERTICES_PER_CHUNK]) -> f32 {
    let (lo, hi) = heights
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
            (lo.min(h), hi.max(h))
        });
    let half_side = coords::CHUNK_SIZE / 2.0;
    let half_height = if lo <= hi {
        (hi as f64 - lo as f64) / 2.0
    } else {
        0.0
    };
    (2.0 * half_side * half_side + half_height * half_height).sqrt() as f32
}

/// The base height the model records for a chunk read from a file with absolute heights.
///
/// The alpha header has no position; the model's `base_height` only matters when the chunk is
/// later saved as v18 (heights relative to it), where Blizzard's files use a height of the
/// chunk itself. The lowest height keeps every relative height non-negative.
fn base_height_of(heights: &[f32; VERTICES_PER_CHUNK]) -> f32 {
    heights.iter().copied().fold(f32::INFINITY, f32::min)
}

/// The bytes `len` long at `ofs` of the data after the header.
fn span(data: &[u8], data_at: usize, ofs: u32, len: usize, tag: Tag) -> Result<&[u8]> {
    let start = ofs as usize;
    data.get(start..start.saturating_add(len)).ok_or_else(|| {
        FormatError::new(
            tag,
            data_at + start.min(data.len()),
            ErrorKind::Invalid(format!(
                "{tag} data ({len} bytes at offset {ofs} after the MCNK header) runs past the \
                 chunk's {} data bytes",
                data.len()
            )),
        )
    })
}

/// The sub-chunk (with its own header) at `ofs` of the data after the MCNK header.
fn sub<'a>(data: &'a [u8], data_at: usize, ofs: u32, tag: Tag) -> Result<RawChunk<'a>> {
    let found = chunk_at(data, ofs as usize, data_at, tags::MCNK)?;
    parts::expect_tag(tag, found.tag, found.offset)?;
    Ok(found)
}

/// Decodes one alpha MCNK. The reader follows the stored offsets, so the 8 bytes the 0.5.5
/// prototype ADT leaves before MCVT need no special case.
pub fn read(mcnk: &RawChunk) -> Result<Chunk> {
    parts::check_header_room(mcnk)?;
    let mut r = mcnk.reader();
    let flags = r.u32()?;
    let _index_x = r.u32()?;
    let _index_y = r.u32()?;
    // Recomputed from the heights on every save.
    let _radius = r.f32()?;
    // Its `after_holes` is padding, always written as 0.
    let run = parts::read_header_run(&mut r)?;

    let data = &mcnk.payload[HEADER_BYTES..];
    let data_at = mcnk.payload_offset() + HEADER_BYTES;
    let mut quirks = ChunkQuirks::default();

    let mut heights = Box::new([0f32; VERTICES_PER_CHUNK]);
    let b = span(data, data_at, run.ofs_height, HEIGHT_BYTES, tags::MCVT)?;
    for (k, v) in b.chunks_exact(4).enumerate() {
        heights[coords::outer_then_inner_vertex(k)] = f32::from_le_bytes([v[0], v[1], v[2], v[3]]);
    }

    let b = span(
        data,
        data_at,
        run.ofs_normal,
        NORMAL_BLOCK_BYTES,
        tags::MCNR,
    )?;
    let normals = parts::read_normals(&b[..NORMAL_BYTES], coords::outer_then_inner_vertex);
    let mut pad = [0u8; NORMAL_PADDING];
    pad.copy_from_slice(&b[NORMAL_BYTES..]);
    if pad != [0; NORMAL_PADDING] {
        quirks.normal_padding = Some(pad);
    }

    let mcly = sub(data, data_at, run.ofs_layer, tags::MCLY)?;
    let n = parts::layer_count(&mcly, run.n_layers)?;
    let alpha_block = span(
        data,
        data_at,
        run.ofs_alpha,
        run.size_alpha as usize,
        tags::MCAL,
    )?;
    let alpha_at = data_at + run.ofs_alpha as usize;
    // No 63×63 "fix" in this client: all 64×64 texels are meaningful.
    let layers = parts::read_nibble_layers(&mcly, n, false, (alpha_block, alpha_at), false)?;

    let mcrf = sub(data, data_at, run.ofs_refs, tags::MCRF)?;
    let (doodad_refs, wmo_refs) = parts::read_refs(&mcrf, run.n_doodad_refs, run.n_wmo_refs)?;

    let shadow = if run.size_shadow > 0 {
        if run.size_shadow as usize != parts::SHADOW_BYTES {
            return Err(mcnk.error(
                0x34,
                ErrorKind::BadSize {
                    size: run.size_shadow as u64,
                    why: "a shadow map is 512 bytes",
                },
            ));
        }
        let b = span(
            data,
            data_at,
            run.ofs_shadow,
            parts::SHADOW_BYTES,
            tags::MCSH,
        )?;
        Some(parts::read_shadow(b))
    } else {
        None
    };

    // MCLQ runs from its offset to the sound emitters' offset ([gp] measures it the same way).
    let liquid = if flags & FLAG_LIQUID_ANY != 0 {
        let len = (run.ofs_sound as usize)
            .checked_sub(run.ofs_liquid as usize)
            .ok_or_else(|| {
                mcnk.error(
                    0x5C,
                    ErrorKind::Invalid(format!(
                        "sound emitter offset {} lies before the liquid offset {}",
                        run.ofs_sound, run.ofs_liquid
                    )),
                )
            })?;
        let b = span(data, data_at, run.ofs_liquid, len, tags::MCLQ)?;
        let layers = mclq::read(
            &mut Reader::new(b, data_at + run.ofs_liquid as usize, tags::MCLQ),
            flags,
        )?;
        Some(ChunkLiquid::from_mclq(layers))
    } else {
        None
    };

    let sound_len = (run.n_sound as usize).saturating_mul(SOUND_RECORD_BYTES);
    let b = span(data, data_at, run.ofs_sound, sound_len, tags::MCSE)?;
    let sound_emitters = b
        .chunks_exact(SOUND_RECORD_BYTES)
        .map(|r| SoundEmitter { record: r.to_vec() })
        .collect();

    let base_height = base_height_of(&heights);
    Ok(Chunk {
        flags,
        heights,
        base_height,
        normals,
        layers,
        shadow,
        vertex_colors: None,
        holes: run.holes,
        area_id: run.area_id,
        low_quality_texture_map: run.low_quality_texture_map,
        no_effect_doodad: run.no_effect_doodad,
        doodad_refs,
        wmo_refs,
        liquid,
        sound_emitters,
        extras: ChunkHeaderExtras::default(),
        quirks,
    })
}

/// The liquid layers a chunk writes as MCLQ instances, one per liquid flag in flag order, with
/// the flag each goes under. A second layer of the same kind cannot be stored and is left out.
pub fn liquid_instances(chunk: &Chunk) -> Vec<(u32, &LiquidLayer)> {
    let layers: Vec<&LiquidLayer> = chunk.liquid.iter().flat_map(|l| &l.layers).collect();
    mclq::FLAG_ORDER
        .iter()
        .filter_map(|&(flag, _)| {
            layers
                .iter()
                .find(|l| mclq::flag_for_type(l.liquid_type) == flag)
                .map(|l| (flag, *l))
        })
        .collect()
}

/// Encodes one alpha MCNK (tag and all) for chunk (`x`, `y`) of its tile. `lead_pad` zero bytes
/// go between the header and MCVT (8 in the 0.5.5 prototype ADT, 0 in the WDT).
pub fn write(w: &mut Writer, chunk: &Chunk, x: usize, y: usize, lead_pad: usize) {
    let mcnk = OpenMcnk::begin_from_header_end(w);
    let mut o = Offsets::default();
    w.zeros(lead_pad);

    o.height = mcnk.here(w);
    for k in 0..VERTICES_PER_CHUNK {
        w.f32(chunk.heights[coords::outer_then_inner_vertex(k)]);
    }
    o.normal = mcnk.here(w);
    parts::put_normals(w, &chunk.normals[..], coords::outer_then_inner_vertex);
    w.bytes(&chunk.quirks.normal_padding.unwrap_or([0; NORMAL_PADDING]));

    let (records, alpha_block) = mcal::nibble_layers(&chunk.layers);
    o.layer = mcnk.here(w);
    let c = w.begin(tags::MCLY);
    for record in &records {
        w.u32(record.texture);
        w.u32(record.flags);
        w.u32(record.offset);
        w.u16(u16::try_from(record.effect_id).unwrap_or(parts::NO_EFFECT_U16));
        w.u16(0);
    }
    w.end(c);

    o.refs = mcnk.here(w);
    parts::put_mcrf(w, chunk);

    o.shadow = mcnk.here(w);
    o.size_shadow = parts::put_shadow(w, chunk);

    o.alpha = mcnk.here(w);
    w.bytes(&alpha_block);
    o.size_alpha = alpha_block.len() as u32;

    o.liquid = mcnk.here(w);
    let mut liquid_flags = 0;
    for (flag, layer) in liquid_instances(chunk) {
        mclq::write(w, layer);
        liquid_flags |= flag;
    }

    // With no emitters this is where MCSE would start: the end of the data ([gp] needs it).
    o.sound = mcnk.here(w);
    for e in &chunk.sound_emitters {
        let mut rec = e.record.clone();
        rec.resize(SOUND_RECORD_BYTES, 0);
        w.bytes(&rec);
    }

    let flags = parts::mclq_era_flags(chunk, liquid_flags);
    let mut hw = Writer::with_capacity(HEADER_BYTES);
    hw.u32(flags);
    hw.u32(x as u32);
    hw.u32(y as u32);
    hw.f32(bounding_radius(&chunk.heights));
    parts::put_header_run(&mut hw, chunk, &o, 0);
    hw.zeros(HEADER_BYTES - hw.len());
    mcnk.finish(w, hw.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::chunk::chunk_at;
    use crate::model::alpha::AlphaMap;
    use proptest::prelude::*;

    fn sample() -> Chunk {
        let mut c = Chunk::flat(10.0);
        for (i, h) in c.heights.iter_mut().enumerate() {
            *h = 10.0 + i as f32 * 0.25;
        }
        c.normals[coords::inner_vertex(0, 0)] = [1, 2, 3];
        c.layers.push(Layer {
            texture: 1,
            flags: LAYER_USE_ALPHA,
            effect_id: 7,
            alpha: Some(AlphaMap::filled(17 * 9)),
        });
        c.area_id = 12 << 16 | 3;
        c.holes = 0x8001;
        c.doodad_refs = vec![0, 2];
        c.wmo_refs = vec![1];
        c
    }

    #[test]
    fn flat_chunk_radius_is_half_the_diagonal() {
        let r = bounding_radius(&[5.0; VERTICES_PER_CHUNK]);
        assert!((r - 23.570227).abs() < 1e-4, "{r}");
    }

    #[test]
    fn header_offsets_count_from_the_header_end_and_heights_are_outer_first() {
        let mut w = Writer::default();
        write(&mut w, &sample(), 3, 4, 0);
        let bytes = w.into_bytes();
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let data = 8 + HEADER_BYTES;
        assert_eq!(word(8 + 0x18), 0, "MCVT first");
        assert_eq!(word(8 + 0x1C), 580);
        assert_eq!(word(8 + 0x20), 1028);
        assert_eq!(&bytes[data + 1028..data + 1032], b"YLCM");
        // Outer vertex (1, 0) is the 10th value.
        let tenth = f32::from_le_bytes(bytes[data + 36..data + 40].try_into().unwrap());
        assert_eq!(tenth, 10.0 + coords::outer_vertex(1, 0) as f32 * 0.25);
        // The sound offset is the end of the data when there are no emitters.
        assert_eq!(word(8 + 0x5C) as usize, bytes.len() - data);
        assert_eq!(word(8 + 0x38), 12 << 16 | 3);
        assert_eq!(word(8 + 0x40), 0x8001, "holes with a zero high half");
    }

    #[test]
    fn chunk_round_trips_through_bytes() {
        let c = sample();
        let mut w = Writer::default();
        write(&mut w, &c, 0, 0, 0);
        let bytes = w.into_bytes();
        let raw = chunk_at(&bytes, 0, 0, tags::FILE).unwrap();
        let back = read(&raw).unwrap();
        assert_eq!(back.heights, c.heights);
        assert_eq!(back.normals, c.normals);
        assert_eq!(back.layers, c.layers);
        assert_eq!(back.doodad_refs, c.doodad_refs);
        assert_eq!(back.wmo_refs, c.wmo_refs);
        assert_eq!((back.area_id, back.holes), (c.area_id, c.holes));
        let mut again = Writer::default();
        write(&mut again, &back, 0, 0, 0);
        assert_eq!(again.into_bytes(), bytes);
    }

    #[test]
    fn lead_padding_moves_mcvt_to_offset_8() {
        let mut w = Writer::default();
        write(&mut w, &sample(), 0, 0, 8);
        let bytes = w.into_bytes();
        let raw = chunk_at(&bytes, 0, 0, tags::FILE).unwrap();
        assert_eq!(
            u32::from_le_bytes(bytes[8 + 0x18..8 + 0x1C].try_into().unwrap()),
            8
        );
        assert_eq!(read(&raw).unwrap().heights, sample().heights);
    }

    fn wrap(payload: &[u8]) -> Vec<u8> {
        let mut bytes = b"KNCM".to_vec();
        bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        bytes.extend_from_slice(payload);
        bytes
    }

    proptest! {
        #[test]
        fn decoder_never_panics_on_random_bytes(
            payload in proptest::collection::vec(any::<u8>(), 0..3000),
        ) {
            let bytes = wrap(&payload);
            let raw = chunk_at(&bytes, 0, 0, tags::FILE).unwrap();
            let _ = read(&raw);
        }

        #[test]
        fn decoder_never_panics_on_mutated_chunks(
            edits in proptest::collection::vec((any::<usize>(), any::<u32>()), 1..6),
            liquid in any::<bool>(),
        ) {
            let mut c = sample();
            if liquid {
                c.flags |= FLAG_LIQUID_OCEAN;
                c.liquid = Some(ChunkLiquid {
                    layers: vec![LiquidLayer {
                        liquid_type: crate::model::liquid::liquid_type::OCEAN,
                        vertex_format: 0,
                        min_height: 1.0,
                        max_height: 2.0,
                        x: 0,
                        y: 0,
                        width: 8,
                        height: 8,
                        exists: u64::MAX,
                        exists_omitted: false,
                        exists_padding: 0,
                        heights: None,
                        depths: None,
                        uvs: None,
                        origin: crate::model::liquid::LiquidOrigin::Mh2o,
                    }],
                    attributes: None,
                });
            }
            let mut w = Writer::default();
            write(&mut w, &c, 0, 0, 0);
            let mut bytes = w.into_bytes();
            for (at, v) in edits {
                // Keep the chunk header; damage anything after it.
                let at = 8 + at % (bytes.len() - 12);
                bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            let raw = chunk_at(&bytes, 0, 0, tags::FILE).unwrap();
            if let Err(e) = read(&raw) {
                prop_assert!(e.offset <= bytes.len() as u64);
            }
        }
    }
}
