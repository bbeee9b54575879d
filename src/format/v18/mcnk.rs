//! The v18 MCNK: a 128-byte header whose offsets (relative to the MCNK tag) locate MCVT, MCCV,
//! MCNR, MCLY, MCRF, MCSH, MCAL, MCLQ and MCSE. Sub-chunks are found by those offsets, never by
//! walking sizes: MCNR is followed by 13 bytes it does not count, and the MCAL and MCLQ size
//! fields of real files are unreliable (the header's sizeAlpha and sizeLiquid are used).

use crate::format::chunk::{
    ErrorKind, FormatError, OpenChunk, RawChunk, Reader, Result, Tag, Writer, chunk_at, tags,
};
use crate::format::mcnk_parts::{self as parts, ChunkPlace, HeaderRun, Offsets, OpenMcnk};
use crate::format::{mcal, mclq};
use crate::model::alpha::{AlphaEncoding, AlphaMap, AlphaSource};
use crate::model::chunk::*;
use crate::model::coords::{self, VERTICES_PER_CHUNK};
use crate::model::liquid::{ChunkLiquid, LiquidLayer, LiquidOrigin};

/// Bytes of the MCNK header.
pub const HEADER_BYTES: usize = parts::HEADER_BYTES;
/// Bytes MCNR's size field counts (145 × 3).
const NORMAL_BYTES: usize = VERTICES_PER_CHUNK * 3;
/// Bytes after MCNR that its size does not count.
const NORMAL_PADDING: usize = 13;
/// The MCSE record size of 3.3.5 files.
pub const SOUND_RECORD_335: usize = 28;

/// How a reader decides between 4-bit and 8-bit alpha maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlphaDepth {
    /// 4-bit maps (WDT without MPHD 0x4/0x80).
    Nibble,
    /// 8-bit maps, RLE where MCLY says so (WDT with MPHD 0x4 or 0x80).
    Big,
    /// No WDT: judge each layer by the room it takes in MCAL and by MCLY 0x200.
    Infer,
}

/// The v18 MCNK header's fields (0.6.0 shares the layout).
pub(crate) struct Header {
    pub(crate) flags: u32,
    pub(crate) run: HeaderRun,
    pub(crate) size_liquid: u32,
    pub(crate) position: [f32; 3],
    pub(crate) ofs_mccv: u32,
    pub(crate) ofs_mclv: u32,
    pub(crate) unused: u32,
}

/// Reads the 128-byte header of `mcnk`.
pub(crate) fn read_header(mcnk: &RawChunk) -> Result<Header> {
    parts::check_header_room(mcnk)?;
    let mut r = mcnk.reader();
    let flags = r.u32()?;
    let _index_x = r.u32()?;
    let _index_y = r.u32()?;
    Ok(Header {
        flags,
        run: parts::read_header_run(&mut r)?,
        size_liquid: r.u32()?,
        position: r.vec3()?,
        ofs_mccv: r.u32()?,
        ofs_mclv: r.u32()?,
        unused: r.u32()?,
    })
}

/// The header values a chunk keeps verbatim, for chunk `at`: the stored position's x and y only
/// where they differ from the ones the place gives.
pub(crate) fn header_extras(h: &Header, at: ChunkPlace) -> ChunkHeaderExtras {
    let computed_xy = coords::chunk_header_xy(at.tile, at.x, at.y);
    let stored_xy = [h.position[0], h.position[1]];
    ChunkHeaderExtras {
        unknown_0x3e: h.run.after_holes,
        ofs_mclv: h.ofs_mclv,
        unused_0x7c: h.unused,
        position_xy: (stored_xy.map(f32::to_bits) != computed_xy.map(f32::to_bits))
            .then_some(stored_xy),
    }
}

/// Finds sub-chunk `tag` at header offset `ofs` (relative to the MCNK tag).
pub(crate) fn sub<'a>(mcnk: &RawChunk<'a>, ofs: u32, tag: Tag) -> Result<RawChunk<'a>> {
    let rel = (ofs as usize).checked_sub(8).ok_or_else(|| {
        mcnk.error(
            0,
            ErrorKind::Invalid(format!(
                "{tag} offset {ofs} points into the MCNK chunk header"
            )),
        )
    })?;
    let found = chunk_at(mcnk.payload, rel, mcnk.payload_offset(), tags::MCNK)?;
    parts::expect_tag(tag, found.tag, found.offset)?;
    Ok(found)
}

/// [`sub`], but a sub-chunk whose size runs past the end of the MCNK is read up to the end and
/// its size field remembered in `quirks`, so the untouched chunk writes it back.
fn sub_clamped<'a>(
    mcnk: &RawChunk<'a>,
    ofs: u32,
    tag: Tag,
    quirks: &mut ChunkQuirks,
) -> Result<RawChunk<'a>> {
    match sub(mcnk, ofs, tag) {
        Err(FormatError {
            kind: ErrorKind::SizePastEnd { size, .. },
            ..
        }) => {
            // `sub` got past the offset and tag checks before finding the size too large.
            let start = ofs as usize; // payload, relative to the MCNK payload
            let payload = mcnk.payload.get(start..).unwrap_or(&[]);
            let head = &mcnk.payload[start - 8..start];
            let found = Tag::from_disk([head[0], head[1], head[2], head[3]]);
            parts::expect_tag(tag, found, mcnk.payload_offset() + start - 8)?;
            quirks.oversized_sub_chunks.push((tag.0, size));
            Ok(RawChunk {
                tag,
                offset: mcnk.payload_offset() + start - 8,
                size,
                payload,
            })
        }
        other => other,
    }
}

/// Closes sub-chunk `c`. When its size field ran past the MCNK it was read from (and still
/// exceeds what is written: an edit may have grown it), the field is noted in `past_end` to be
/// written back by [`restore_sizes_past_end`] once the MCNK's end is known.
fn end_sub(
    w: &mut Writer,
    c: OpenChunk,
    tag: Tag,
    quirks: &ChunkQuirks,
    past_end: &mut Vec<(usize, u32)>,
) {
    let written = w.len() - c.payload_offset();
    let payload = c.payload_offset();
    w.end(c);
    if let Some(&(_, size)) = quirks
        .oversized_sub_chunks
        .iter()
        .find(|(t, _)| *t == tag.0)
        && size as usize > written
    {
        past_end.push((payload, size));
    }
}

/// Writes back the size fields noted by [`end_sub`] that still run past the MCNK, which ends at
/// `mcnk_end`. One that would now end inside it (the sub-chunk is no longer last, as in files
/// whose sub-chunks loam writes in another order) keeps its true size: written back, it would
/// read as a size that fits and lose the quirk on the next save.
fn restore_sizes_past_end(w: &mut Writer, past_end: &[(usize, u32)], mcnk_end: usize) {
    for &(payload, size) in past_end {
        if payload + size as usize > mcnk_end {
            w.patch_u32(payload - 4, size);
        }
    }
}

/// The bytes `len` long at header offset `ofs` + 8 (a sub-chunk payload whose own size field is
/// not trusted).
fn span<'a>(mcnk: &RawChunk<'a>, ofs: u32, len: usize, tag: Tag) -> Result<(&'a [u8], usize)> {
    let start = ofs as usize; // payload of the sub-chunk = tag offset + 8, relative to payload start = ofs
    match mcnk.payload.get(start..start.saturating_add(len)) {
        Some(b) => Ok((b, mcnk.payload_offset() + start)),
        None => Err(mcnk.error(
            start.min(mcnk.payload.len()),
            ErrorKind::Invalid(format!(
                "{tag} data ({len} bytes at MCNK offset {}) runs past the chunk",
                ofs + 8
            )),
        )),
    }
}

/// Decodes one MCNK: chunk `at`.
pub fn read(mcnk: &RawChunk, at: ChunkPlace, depth: AlphaDepth) -> Result<Chunk> {
    let h = read_header(mcnk)?;
    let mut quirks = ChunkQuirks::default();

    // Heights.
    let mcvt = sub_clamped(mcnk, h.run.ofs_height, tags::MCVT, &mut quirks)?;
    if mcvt.payload.len() < VERTICES_PER_CHUNK * 4 {
        return Err(mcvt.bad_size("MCVT needs 145 floats"));
    }
    let base = h.position[2];
    let mut heights = Box::new([0f32; VERTICES_PER_CHUNK]);
    let mut exact = true;
    for (out, b) in heights.iter_mut().zip(mcvt.payload.chunks_exact(4)) {
        let rel = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        *out = base + rel;
        exact &= (*out - base).to_bits() == rel.to_bits();
    }
    if !exact {
        let mut rel = Box::new([0f32; VERTICES_PER_CHUNK]);
        for (out, b) in rel.iter_mut().zip(mcvt.payload.chunks_exact(4)) {
            *out = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        quirks.relative_heights = Some(rel);
    }

    // Normals and the 13 bytes after them.
    let mcnr = sub_clamped(mcnk, h.run.ofs_normal, tags::MCNR, &mut quirks)?;
    if mcnr.payload.len() < NORMAL_BYTES {
        return Err(mcnr.bad_size("MCNR needs 145 normals"));
    }
    let normals = parts::read_normals(mcnr.payload, |k| k);
    if mcnr.payload.len() == NORMAL_BYTES {
        let pad_at = h.run.ofs_normal as usize + NORMAL_BYTES; // relative to payload: ofs - 8 + 8 + 435
        if let Some(p) = mcnk.payload.get(pad_at..pad_at + NORMAL_PADDING) {
            let mut pad = [0u8; NORMAL_PADDING];
            pad.copy_from_slice(p);
            quirks.normal_padding = Some(pad);
        }
    }

    // Vertex colours.
    let vertex_colors = if h.ofs_mccv != 0 {
        let mccv = sub_clamped(mcnk, h.ofs_mccv, tags::MCCV, &mut quirks)?;
        if mccv.payload.len() < VERTICES_PER_CHUNK * 4 {
            return Err(mccv.bad_size("MCCV needs 145 colours"));
        }
        let mut c = Box::new([[0u8; 4]; VERTICES_PER_CHUNK]);
        for (out, b) in c.iter_mut().zip(mccv.payload.chunks_exact(4)) {
            *out = [b[2], b[1], b[0], b[3]]; // stored BGRA
        }
        Some(c)
    } else {
        None
    };

    // Layers and their alpha maps.
    let mcly = sub_clamped(mcnk, h.run.ofs_layer, tags::MCLY, &mut quirks)?;
    let n_layers = parts::layer_count(&mcly, h.run.n_layers)?;
    let mut records = Vec::with_capacity(n_layers);
    let mut lr = mcly.reader();
    for _ in 0..n_layers {
        records.push((lr.u32()?, lr.u32()?, lr.u32()?, lr.u32()?));
    }
    let alpha_len = (h.run.size_alpha as usize).saturating_sub(8);
    let (alpha_block, alpha_at) =
        if records.iter().any(|r| r.1 & LAYER_USE_ALPHA != 0) || h.run.size_alpha > 8 {
            let mcal = sub_tag_only(mcnk, h.run.ofs_alpha, tags::MCAL)?;
            if mcal.1 as usize != alpha_len {
                quirks.alpha_size_field = Some(mcal.1);
            }
            span(mcnk, h.run.ofs_alpha, alpha_len, tags::MCAL)?
        } else {
            let mcal = sub_tag_only(mcnk, h.run.ofs_alpha, tags::MCAL)?;
            if mcal.1 as usize != alpha_len {
                quirks.alpha_size_field = Some(mcal.1);
            }
            (&[][..], mcnk.payload_offset() + h.run.ofs_alpha as usize)
        };
    let mut layers = Vec::with_capacity(n_layers);
    for (k, &(texture, flags, offset, effect_id)) in records.iter().enumerate() {
        let alpha = if k > 0 && flags & LAYER_USE_ALPHA != 0 {
            let end = records[k + 1..]
                .iter()
                .find(|r| r.1 & LAYER_USE_ALPHA != 0)
                .map_or(alpha_block.len(), |r| r.2 as usize);
            let start = offset as usize;
            let room = alpha_block.get(start..end.max(start)).ok_or_else(|| {
                FormatError::new(
                    tags::MCAL,
                    alpha_at,
                    ErrorKind::OffsetOutOfRange {
                        offset: offset as u64,
                        limit: alpha_block.len() as u64,
                    },
                )
            })?;
            Some(read_alpha(room, alpha_at + start, flags, h.flags, depth)?)
        } else {
            None
        };
        layers.push(Layer {
            texture,
            flags,
            effect_id,
            alpha,
        });
    }

    // Object references.
    let mcrf = sub_clamped(mcnk, h.run.ofs_refs, tags::MCRF, &mut quirks)?;
    let (doodad_refs, wmo_refs) = parts::read_refs(&mcrf, h.run.n_doodad_refs, h.run.n_wmo_refs)?;

    // Shadow.
    if h.run.ofs_shadow == 0 && h.run.size_shadow == 0 {
        quirks.shadow_offset_zero = true;
    }
    let shadow =
        if h.flags & FLAG_HAS_SHADOW != 0 && h.run.ofs_shadow == 0 && h.run.size_shadow == 0 {
            // Noggit leaves the flag set on chunks it wrote without MCSH.
            quirks.shadow_flag_without_map = true;
            None
        } else if h.flags & FLAG_HAS_SHADOW != 0 {
            let mcsh = sub_clamped(mcnk, h.run.ofs_shadow, tags::MCSH, &mut quirks)?;
            if mcsh.payload.len() < parts::SHADOW_BYTES {
                return Err(mcsh.bad_size("MCSH needs 512 bytes"));
            }
            Some(parts::read_shadow(mcsh.payload))
        } else {
            None
        };

    // Old-style liquid.
    let mut liquid = None;
    if h.run.ofs_liquid == 0 && h.size_liquid != 0 {
        // Noggit writes sizeLiquid 8 with no MCLQ.
        quirks.liquid_size_without_chunk = Some(h.size_liquid);
    }
    if h.run.ofs_liquid != 0 && h.size_liquid >= 8 {
        let (_, size_field) = sub_tag_only(mcnk, h.run.ofs_liquid, tags::MCLQ)?;
        let len = h.size_liquid as usize - 8;
        if size_field as usize != len {
            quirks.liquid_size_field = Some(size_field);
        }
        let (bytes, at) = span(mcnk, h.run.ofs_liquid, len, tags::MCLQ)?;
        if len == 0 {
            quirks.empty_liquid_chunk = true;
        } else {
            let layers = mclq::read(&mut Reader::new(bytes, at, tags::MCLQ), h.flags)?;
            if layers.is_empty() {
                quirks.empty_liquid_chunk = true;
            } else {
                liquid = Some(ChunkLiquid::from_mclq(layers));
            }
        }
    }

    // Sound emitters.
    let mut sound_emitters = Vec::new();
    let mut sound_len = 0;
    if h.run.ofs_sound != 0 {
        let mcse = sub_clamped(mcnk, h.run.ofs_sound, tags::MCSE, &mut quirks)?;
        sound_len = mcse.payload.len();
        let record;
        (sound_emitters, record) = parts::read_sounds(&mcse, h.run.n_sound)?;
        if record != 0 && record != SOUND_RECORD_335 {
            quirks.sound_record_size = Some(record);
        }
    }

    // Whatever follows the last sub-chunk the header names is kept verbatim.
    let known_end = [
        h.run.ofs_height as usize + VERTICES_PER_CHUNK * 4,
        h.run.ofs_normal as usize + NORMAL_BYTES + NORMAL_PADDING,
        h.run.ofs_layer as usize + mcly.payload.len(),
        h.run.ofs_refs as usize + mcrf.payload.len(),
        h.run.ofs_alpha as usize + alpha_len,
        h.run.ofs_shadow as usize + shadow.as_ref().map_or(0, |_| 512),
        match h.run.ofs_liquid {
            0 => 0,
            ofs => ofs as usize + (h.size_liquid as usize).saturating_sub(8),
        },
        h.run.ofs_sound as usize + sound_len,
        h.ofs_mccv as usize + vertex_colors.as_ref().map_or(0, |_| VERTICES_PER_CHUNK * 4),
    ]
    .into_iter()
    .max()
    .unwrap_or(HEADER_BYTES);
    if let Some(tail) = mcnk.payload.get(known_end..) {
        quirks.trailing = tail.to_vec();
    }

    Ok(Chunk {
        flags: h.flags,
        heights,
        base_height: base,
        normals,
        layers,
        shadow,
        vertex_colors,
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

/// Checks the tag at header offset `ofs` and returns it with its size field, without requiring
/// the size to fit (MCAL and MCLQ sizes lie).
fn sub_tag_only(mcnk: &RawChunk, ofs: u32, tag: Tag) -> Result<(Tag, u32)> {
    let rel = (ofs as usize).checked_sub(8).ok_or_else(|| {
        mcnk.error(
            0,
            ErrorKind::Invalid(format!(
                "{tag} offset {ofs} points into the MCNK chunk header"
            )),
        )
    })?;
    let head = mcnk
        .payload
        .get(rel..rel.saturating_add(8))
        .ok_or_else(|| {
            mcnk.error(
                rel.min(mcnk.payload.len()),
                ErrorKind::Truncated {
                    needed: 8,
                    available: mcnk.payload.len().saturating_sub(rel),
                },
            )
        })?;
    let found = Tag::from_disk([head[0], head[1], head[2], head[3]]);
    parts::expect_tag(tag, found, mcnk.payload_offset() + rel)?;
    Ok((
        found,
        u32::from_le_bytes([head[4], head[5], head[6], head[7]]),
    ))
}

/// Decodes one layer's alpha map from the bytes `room` it may use.
fn read_alpha(
    room: &[u8],
    at: usize,
    layer_flags: u32,
    chunk_flags: u32,
    depth: AlphaDepth,
) -> Result<AlphaMap> {
    let encoding = if layer_flags & LAYER_ALPHA_COMPRESSED != 0 {
        AlphaEncoding::Rle
    } else {
        let big = match depth {
            AlphaDepth::Big => true,
            AlphaDepth::Nibble => false,
            AlphaDepth::Infer => room.len() >= mcal::BYTE_BYTES,
        };
        match (big, chunk_flags & FLAG_DO_NOT_FIX_ALPHA != 0) {
            (true, _) => AlphaEncoding::Byte,
            (false, true) => AlphaEncoding::Nibble,
            (false, false) => AlphaEncoding::NibbleFixed,
        }
    };
    let need = |n: usize| -> Result<&[u8]> {
        room.get(..n).ok_or_else(|| {
            FormatError::new(
                tags::MCAL,
                at,
                ErrorKind::Truncated {
                    needed: n,
                    available: room.len(),
                },
            )
        })
    };
    Ok(match encoding {
        AlphaEncoding::Rle => {
            let (texels, _) = mcal::decode_rle(room).map_err(|rel| {
                FormatError::new(
                    tags::MCAL,
                    at + rel,
                    ErrorKind::Invalid("RLE alpha map ends before 4096 texels".into()),
                )
            })?;
            AlphaMap::with_source(
                texels,
                Some(AlphaSource {
                    encoding,
                    bytes: room.into(),
                }),
            )
        }
        AlphaEncoding::Byte => {
            let b = need(mcal::BYTE_BYTES)?;
            let mut texels = Box::new([0u8; mcal::BYTE_BYTES]);
            texels.copy_from_slice(b);
            AlphaMap::from_texels(texels)
        }
        AlphaEncoding::Nibble | AlphaEncoding::NibbleFixed => {
            let mut b = [0u8; mcal::NIBBLE_BYTES];
            b.copy_from_slice(need(mcal::NIBBLE_BYTES)?);
            let b = &b;
            let fixed = encoding == AlphaEncoding::NibbleFixed;
            let texels = mcal::decode_nibble(b, fixed);
            // The fixed form ignores its last row and column; keep the bytes if they hold
            // something the encoder would not write back.
            let source =
                (fixed && mcal::encode_nibble(&texels)[..] != b[..]).then(|| AlphaSource {
                    encoding,
                    bytes: b[..].into(),
                });
            AlphaMap::with_source(texels, source)
        }
    })
}

/// How the writer stores alpha maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlphaTarget {
    /// 8-bit maps (the WDT has MPHD 0x4 or 0x80).
    pub big: bool,
}

/// Encodes one MCNK (tag and all) for chunk `at`.
pub fn write(w: &mut Writer, chunk: &Chunk, at: ChunkPlace, alpha: AlphaTarget) {
    let mcnk = OpenMcnk::begin(w);
    let mut o = Offsets::default();
    let mut past_end = Vec::new();

    o.height = mcnk.here(w);
    let c = w.begin(tags::MCVT);
    for i in 0..chunk.heights.len() {
        w.f32(parts::stored_height(chunk, i, chunk.base_height));
    }
    end_sub(w, c, tags::MCVT, &chunk.quirks, &mut past_end);

    if let Some(colors) = &chunk.vertex_colors {
        o.mccv = mcnk.here(w);
        let c = w.begin(tags::MCCV);
        for &[r, g, b, a] in colors.iter() {
            w.bytes(&[b, g, r, a]);
        }
        end_sub(w, c, tags::MCCV, &chunk.quirks, &mut past_end);
    }

    o.normal = mcnk.here(w);
    let c = w.begin(tags::MCNR);
    parts::put_normals(w, &chunk.normals[..], |k| k);
    end_sub(w, c, tags::MCNR, &chunk.quirks, &mut past_end);
    w.bytes(&chunk.quirks.normal_padding.unwrap_or([0; NORMAL_PADDING]));

    // Alpha maps first, so MCLY can name their offsets.
    let mut alpha_block = Vec::new();
    let mut layer_records = Vec::with_capacity(chunk.layers.len());
    for (k, layer) in chunk.layers.iter().enumerate() {
        let mut flags = layer.flags;
        let mut offset = 0;
        match (&layer.alpha, k) {
            (Some(map), k) if k > 0 => {
                offset = alpha_block.len() as u32;
                let compressed = alpha.big && flags & LAYER_ALPHA_COMPRESSED != 0;
                let encoding = match (
                    alpha.big,
                    compressed,
                    chunk.flags & FLAG_DO_NOT_FIX_ALPHA != 0,
                ) {
                    (true, true, _) => AlphaEncoding::Rle,
                    (true, false, _) => AlphaEncoding::Byte,
                    (false, _, true) => AlphaEncoding::Nibble,
                    (false, _, false) => AlphaEncoding::NibbleFixed,
                };
                flags |= LAYER_USE_ALPHA;
                if !compressed {
                    flags &= !LAYER_ALPHA_COMPRESSED;
                }
                encode_alpha(&mut alpha_block, map, encoding);
            }
            _ => flags &= !(LAYER_USE_ALPHA | LAYER_ALPHA_COMPRESSED),
        }
        layer_records.push([layer.texture, flags, offset, layer.effect_id]);
    }

    o.layer = mcnk.here(w);
    let c = w.begin(tags::MCLY);
    parts::put_layer_records(w, layer_records);
    end_sub(w, c, tags::MCLY, &chunk.quirks, &mut past_end);

    o.refs = mcnk.here(w);
    let c = w.begin(tags::MCRF);
    parts::put_refs(w, chunk);
    end_sub(w, c, tags::MCRF, &chunk.quirks, &mut past_end);

    o.shadow = mcnk.here(w);
    if chunk.shadow.is_none() && chunk.quirks.shadow_offset_zero {
        o.shadow = 0;
    }
    if chunk.shadow.is_some() {
        let c = w.begin(tags::MCSH);
        o.size_shadow = parts::put_shadow(w, chunk);
        end_sub(w, c, tags::MCSH, &chunk.quirks, &mut past_end);
    }

    o.alpha = mcnk.here(w);
    let c = w.begin(tags::MCAL);
    w.bytes(&alpha_block);
    match chunk.quirks.alpha_size_field {
        Some(size) => w.end_with_size(c, size),
        None => w.end(c),
    }
    o.size_alpha = alpha_block.len() as u32 + 8;

    let mclq_layers: Vec<&LiquidLayer> = chunk
        .liquid
        .iter()
        .flat_map(|l| &l.layers)
        .filter(|l| matches!(l.origin, LiquidOrigin::Mclq(_)))
        .collect();
    let mut liquid_flags = 0;
    if !mclq_layers.is_empty() || chunk.quirks.empty_liquid_chunk {
        o.liquid = mcnk.here(w);
        let c = w.begin(tags::MCLQ);
        // One instance per liquid flag, in flag order; a second layer of the same kind is dropped
        // (the format cannot hold it).
        for (flag, _) in mclq::FLAG_ORDER {
            if let Some(layer) = mclq_layers
                .iter()
                .find(|l| mclq::flag_for_type(l.liquid_type) == flag)
            {
                mclq::write(w, layer);
                liquid_flags |= flag;
            }
        }
        o.size_liquid = (w.len() - c.payload_offset()) as u32 + 8;
        match chunk.quirks.liquid_size_field {
            Some(size) => w.end_with_size(c, size),
            None => w.end(c),
        }
    }

    if o.liquid == 0
        && let Some(size) = chunk.quirks.liquid_size_without_chunk
    {
        o.size_liquid = size;
    }

    o.sound = mcnk.here(w);
    let c = w.begin(tags::MCSE);
    parts::put_sounds(w, chunk);
    end_sub(w, c, tags::MCSE, &chunk.quirks, &mut past_end);
    w.bytes(&chunk.quirks.trailing);
    restore_sizes_past_end(w, &past_end, w.len());

    // The header, now that every offset is known.
    let mut flags = chunk.flags & !(FLAG_HAS_SHADOW | FLAG_HAS_VERTEX_COLORS);
    if chunk.shadow.is_some() || chunk.quirks.shadow_flag_without_map {
        flags |= FLAG_HAS_SHADOW;
    }
    if chunk.vertex_colors.is_some() {
        flags |= FLAG_HAS_VERTEX_COLORS;
    }
    if !mclq_layers.is_empty() {
        flags = flags & !FLAG_LIQUID_ANY | liquid_flags;
    }
    let header = header_bytes(chunk, flags, at, chunk.base_height, &o);
    mcnk.finish(w, &header);
}

/// The 128-byte v18 header (0.6.0 shares it) of chunk `at`, with its position's z set to
/// `base`.
pub(crate) fn header_bytes(
    chunk: &Chunk,
    flags: u32,
    at: ChunkPlace,
    base: f32,
    o: &Offsets,
) -> Vec<u8> {
    let [px, py] = chunk
        .extras
        .position_xy
        .unwrap_or_else(|| coords::chunk_header_xy(at.tile, at.x, at.y));
    let mut hw = Writer::with_capacity(HEADER_BYTES);
    hw.u32(flags);
    hw.u32(at.x as u32);
    hw.u32(at.y as u32);
    parts::put_header_run(&mut hw, chunk, o, chunk.extras.unknown_0x3e);
    hw.u32(o.size_liquid);
    hw.vec3([px, py, base]);
    hw.u32(o.mccv);
    hw.u32(chunk.extras.ofs_mclv);
    hw.u32(chunk.extras.unused_0x7c);
    hw.into_bytes()
}

/// Appends one alpha map in `encoding`, reusing the bytes it was read from when they still apply.
fn encode_alpha(out: &mut Vec<u8>, map: &AlphaMap, encoding: AlphaEncoding) {
    if let Some(src) = map.source().filter(|s| s.encoding == encoding) {
        out.extend_from_slice(&src.bytes);
        return;
    }
    match encoding {
        AlphaEncoding::Rle => out.extend_from_slice(&mcal::encode_rle(map.texels())),
        AlphaEncoding::Byte => out.extend_from_slice(&map.texels()[..]),
        AlphaEncoding::Nibble | AlphaEncoding::NibbleFixed => {
            out.extend_from_slice(&mcal::encode_nibble(map.texels())[..])
        }
    }
}
