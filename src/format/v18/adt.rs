//! v18 ADT tiles: MVER, MHDR, MCIN, MTEX, MMDX, MMID, MWMO, MWID, MDDF, MODF, MH2O, 256 MCNK,
//! MFBO, MTXF. Top-level chunks are read in file order; the writer emits them in Blizzard's
//! order and rebuilds MHDR and MCIN, so unchanged tiles come out byte for byte.

use super::mcnk::{self, AlphaDepth, AlphaTarget};
use crate::format::chunk::{
    ChunkIter, ErrorKind, FormatError, RawChunk, Result, Tag, Writer, tags,
};
use crate::format::mcnk_parts::ChunkPlace;
use crate::format::{mh2o, names, placement};
use crate::model::chunk::Chunk;
use crate::model::coords::{self, TileCoord};
use crate::model::liquid::ChunkLiquid;
use crate::model::quirks::{FileQuirk, QuirkKind, is_unusual_path};
use crate::model::tile::{FlightBounds, Tile, TileQuirks, UnknownChunk};

/// Bytes of the MHDR payload.
const MHDR_BYTES: usize = 64;

/// What differs between ADTs that share the v18 top level: the MCNK codec, and whether liquid
/// may live in MH2O. `v060` reuses the top level with its own MCNK through this.
#[derive(Clone, Copy)]
pub struct AdtFlavor {
    /// Decodes one MCNK: a chunk of a tile.
    pub read_mcnk: fn(&RawChunk, ChunkPlace, AlphaDepth) -> Result<Chunk>,
    /// Encodes one MCNK, tag and all.
    pub write_mcnk: fn(&mut Writer, &Chunk, ChunkPlace, AlphaTarget),
    /// MH2O is read and written (3.3.5); otherwise liquid is only in the MCNKs.
    pub mh2o: bool,
}

/// The v18 ADT of 1.12 and 3.3.5.
pub const V18: AdtFlavor = AdtFlavor {
    read_mcnk: mcnk::read,
    write_mcnk: mcnk::write,
    mh2o: true,
};

/// Chunk `i` of `tile`'s 256, in rows of 16.
fn place(tile: TileCoord, i: usize) -> ChunkPlace {
    ChunkPlace {
        tile,
        x: i % 16,
        y: i / 16,
    }
}

/// Decodes a v18 ADT. `coord` is the tile's place (from the file name); `None` derives it from
/// the first chunk's stored position.
pub fn read_adt(bytes: &[u8], coord: Option<TileCoord>, depth: AlphaDepth) -> Result<Tile> {
    read_adt_as(bytes, coord, depth, V18)
}

/// [`read_adt`] for an ADT of another flavor.
pub fn read_adt_as(
    bytes: &[u8],
    coord: Option<TileCoord>,
    depth: AlphaDepth,
    flavor: AdtFlavor,
) -> Result<Tile> {
    let mut chunks = ChunkIter::clamping(bytes, 0, tags::FILE);
    let first = chunks.next().ok_or_else(|| {
        FormatError::new(
            tags::FILE,
            0,
            ErrorKind::Truncated {
                needed: 12,
                available: bytes.len(),
            },
        )
    })??;
    if first.tag != tags::MVER {
        return Err(FormatError::new(
            tags::FILE,
            0,
            ErrorKind::UnexpectedTag {
                expected: tags::MVER,
                found: first.tag,
            },
        ));
    }
    let version = first.reader().u32()?;
    if version != super::VERSION {
        return Err(first.error(0, ErrorKind::UnsupportedVersion(version)));
    }

    let mut found: Vec<RawChunk> = Vec::with_capacity(300);
    let mut mcnks: Vec<RawChunk> = Vec::with_capacity(256);
    let mut unknown = Vec::new();
    let mut last = tags::MVER;
    let mut found_quirks = Vec::new();
    let mut last_chunk_size_field = None;
    for c in chunks {
        let c = c?;
        if c.payload.len() < c.size as usize {
            // Only the file's last chunk can be clamped (see `ChunkIter::clamping`).
            last_chunk_size_field = Some(c.size);
            found_quirks.push(FileQuirk {
                kind: QuirkKind::ChunkPastFile {
                    size: c.size,
                    available: c.payload.len(),
                },
                chunk: c.tag.0,
                chunk_index: None,
                offset: c.offset as u64,
            });
        }
        match c.tag {
            tags::MCNK => mcnks.push(c),
            tags::MHDR
            | tags::MCIN
            | tags::MTEX
            | tags::MMDX
            | tags::MMID
            | tags::MWMO
            | tags::MWID
            | tags::MDDF
            | tags::MODF
            | tags::MH2O
            | tags::MFBO
            | tags::MTXF => {
                if found.iter().any(|f| f.tag == c.tag) {
                    return Err(c.error(0, ErrorKind::Invalid(format!("second {} chunk", c.tag))));
                }
                found.push(c);
            }
            _ => unknown.push(UnknownChunk {
                tag: c.tag.0,
                payload: c.payload.to_vec(),
                after: last.0,
            }),
        }
        last = c.tag;
    }
    let get = |t: Tag| found.iter().find(|c| c.tag == t);
    let need =
        |t: Tag| get(t).ok_or_else(|| FormatError::new(t, bytes.len(), ErrorKind::Missing(t)));

    let mhdr = need(tags::MHDR)?;
    let mut hr = mhdr.reader();
    let flags = hr.u32()?;
    let mut header_tail = [0u32; 4];
    hr.seek(48)
        .map_err(|_| mhdr.bad_size("MHDR needs 64 bytes"))?;
    for t in header_tail.iter_mut() {
        *t = hr.u32()?;
    }
    let mcin = need(tags::MCIN)?;

    let mut quirks = TileQuirks {
        header_tail,
        last_chunk_size_field,
        ..TileQuirks::default()
    };
    let (textures, raw) = read_names(need(tags::MTEX)?);
    quirks.raw_name_blocks[0] = raw;
    let (doodad_names, raw, offsets) = read_indexed_names(need(tags::MMDX)?, need(tags::MMID)?)?;
    quirks.raw_name_blocks[1] = raw;
    quirks.doodad_name_offsets = offsets;
    let (wmo_names, raw, offsets) = read_indexed_names(need(tags::MWMO)?, need(tags::MWID)?)?;
    quirks.raw_name_blocks[2] = raw;
    quirks.wmo_name_offsets = offsets;

    let doodads = placement::read_doodads(need(tags::MDDF)?)?;
    let wmos = placement::read_wmos(need(tags::MODF)?)?;

    if mcnks.len() != 256 {
        return Err(FormatError::new(
            tags::MCNK,
            mcnks.last().map_or(bytes.len(), |c| c.offset),
            ErrorKind::Invalid(format!("a tile has 256 MCNK chunks, found {}", mcnks.len())),
        ));
    }
    // MCIN is rebuilt on write; only how it counted sizes is kept. Entries are not trusted for
    // reading (the MCNKs are found in file order).
    let mut mr = mcin.reader();
    let entries = (0..mcin.payload.len().min(256 * 16) / 16)
        .map(|_| Ok((mr.u32()?, mr.u32()?, mr.u32()?, mr.u32()?)))
        .collect::<Result<Vec<_>>>()?;
    if entries.len() == 256
        && entries
            .iter()
            .zip(&mcnks)
            .all(|(e, c)| e.0 as usize == c.offset && e.1 == c.size)
    {
        quirks.mcin_sizes_without_header = true;
        found_quirks.push(FileQuirk {
            kind: QuirkKind::McinSizeWithoutHeader,
            chunk: tags::MCIN.0,
            chunk_index: None,
            offset: mcin.offset as u64,
        });
    }
    for (block, list) in [
        (tags::MTEX, &textures),
        (tags::MMDX, &doodad_names),
        (tags::MWMO, &wmo_names),
    ] {
        let odd: Vec<&String> = list.iter().filter(|n| is_unusual_path(n)).collect();
        if let (Some(first), Some(c)) = (odd.first(), get(block)) {
            found_quirks.push(FileQuirk {
                kind: QuirkKind::UnusualPaths {
                    count: odd.len(),
                    example: first.to_string(),
                },
                chunk: block.0,
                chunk_index: None,
                offset: c.offset as u64,
            });
        }
    }

    let coord = match coord {
        Some(c) => c,
        None => tile_from_first_chunk(&mcnks[0])?,
    };
    // Chunks are independent; decoding them in parallel roughly halves a tile's load time on
    // two cores (RLE alpha maps dominate).
    let mut chunks = {
        use rayon::prelude::*;
        mcnks
            .par_iter()
            .enumerate()
            .map(|(i, raw)| (flavor.read_mcnk)(raw, place(coord, i), depth))
            .collect::<Result<Vec<_>>>()?
    };

    if let Some(c) = get(tags::MH2O).filter(|_| flavor.mh2o) {
        for (chunk, liquid) in chunks.iter_mut().zip(mh2o::read(c)?) {
            if let Some(l) = liquid {
                let target = chunk.liquid.get_or_insert_with(ChunkLiquid::default);
                target.layers.extend(l.layers);
                target.attributes = l.attributes;
            }
        }
    }

    for (i, (chunk, raw)) in chunks.iter().zip(&mcnks).enumerate() {
        found_quirks.extend(chunk_quirks(chunk, raw, i));
    }
    quirks.found = found_quirks;

    let flight_bounds = match get(tags::MFBO) {
        Some(c) => {
            let mut r = c.reader();
            let mut max = [0i16; 9];
            let mut min = [0i16; 9];
            for v in max.iter_mut().chain(min.iter_mut()) {
                *v = r.i16()?;
            }
            Some(FlightBounds { max, min })
        }
        None => None,
    };
    let texture_flags = match get(tags::MTXF) {
        Some(c) => {
            let mut r = c.reader();
            Some(
                (0..c.payload.len() / 4)
                    .map(|_| r.u32())
                    .collect::<Result<Vec<_>>>()?,
            )
        }
        None => None,
    };

    Ok(Tile {
        coord,
        flags,
        textures,
        texture_flags,
        doodad_names,
        wmo_names,
        doodads,
        wmos,
        chunks,
        flight_bounds,
        unknown_chunks: unknown,
        quirks,
    })
}

/// The oddities a decoded MCNK (`raw`, index `index`) had, for `loam check`.
fn chunk_quirks(chunk: &Chunk, raw: &RawChunk, index: usize) -> Vec<FileQuirk> {
    let at = |kind, offset: usize| FileQuirk {
        kind,
        chunk: tags::MCNK.0,
        chunk_index: Some(index),
        offset: offset as u64,
    };
    let header = raw.payload_offset();
    let q = &chunk.quirks;
    let mut out = Vec::new();
    if q.shadow_flag_without_map {
        out.push(at(QuirkKind::ShadowFlagWithoutMap, header));
    }
    if let Some(size) = q.liquid_size_without_chunk {
        out.push(at(
            QuirkKind::LiquidSizeWithoutChunk { size },
            header + 0x60,
        ));
    }
    if chunk.layers.is_empty() {
        out.push(at(QuirkKind::NoTextureLayers, header + 12));
    }
    for &(tag, size) in &q.oversized_sub_chunks {
        let ofs = header_word(raw, sub_offset_field(tag)).unwrap_or(0) as usize;
        out.push(at(
            QuirkKind::SubChunkPastMcnk {
                tag,
                size,
                available: raw.payload.len().saturating_sub(ofs),
            },
            raw.offset + ofs.saturating_sub(8),
        ));
    }
    out
}

/// Where in the MCNK header the offset of sub-chunk `tag` is stored.
fn sub_offset_field(tag: [u8; 4]) -> usize {
    match Tag(tag) {
        tags::MCVT => 0x14,
        tags::MCNR => 0x18,
        tags::MCLY => 0x1C,
        tags::MCRF => 0x20,
        tags::MCAL => 0x24,
        tags::MCSH => 0x2C,
        tags::MCSE => 0x58,
        tags::MCLQ => 0x60,
        _ => 0x74, // MCCV
    }
}

/// The u32 at `at` in an MCNK's header.
fn header_word(raw: &RawChunk, at: usize) -> Option<u32> {
    raw.payload
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Judges a lone ADT's alpha depth from its chunks: any RLE layer, or alpha layers that take
/// 4096 bytes each, mean 8-bit maps. Unreadable input answers [`AlphaDepth::Nibble`]; the real
/// read reports the problem.
pub fn sniff_alpha_depth(bytes: &[u8]) -> AlphaDepth {
    proven_alpha_depth(bytes).map_or(AlphaDepth::Nibble, |(depth, _)| depth)
}

/// The alpha depth the first MCNK with alpha maps proves (an RLE layer, or the room its layers
/// take in MCAL), with that MCNK's offset; `None` when no chunk has an alpha map.
pub fn proven_alpha_depth(bytes: &[u8]) -> Option<(AlphaDepth, usize)> {
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    for c in ChunkIter::new(bytes, 0, tags::FILE) {
        let Ok(c) = c else { break };
        if c.tag != tags::MCNK {
            continue;
        }
        let h = c.payload_offset();
        let (Some(n_layers), Some(ofs_layer), Some(size_alpha)) =
            (word(h + 12), word(h + 0x1C), word(h + 0x28))
        else {
            continue;
        };
        let mut alpha_layers = 0;
        for k in 0..n_layers.min(4) as usize {
            let flags = word(c.offset + ofs_layer as usize + 8 + k * 16 + 4).unwrap_or(0);
            if flags & crate::model::chunk::LAYER_ALPHA_COMPRESSED != 0 {
                return Some((AlphaDepth::Big, c.offset));
            }
            if k > 0 && flags & crate::model::chunk::LAYER_USE_ALPHA != 0 {
                alpha_layers += 1;
            }
        }
        if let Some(room) = (size_alpha.saturating_sub(8) as usize).checked_div(alpha_layers) {
            let depth = if room >= crate::format::mcal::BYTE_BYTES {
                AlphaDepth::Big
            } else {
                AlphaDepth::Nibble
            };
            return Some((depth, c.offset));
        }
    }
    None
}

/// The tile a chunk's stored position lies in.
fn tile_from_first_chunk(mcnk: &RawChunk) -> Result<TileCoord> {
    let mut r = mcnk.reader();
    r.seek(0x68)?;
    let [x, y, _] = r.vec3()?;
    // Step half a chunk inside the corner so rounding cannot put it in the neighbour.
    let half = coords::CHUNK_SIZE / 2.0;
    TileCoord::containing(x as f64 - half, y as f64 - half).ok_or_else(|| {
        mcnk.error(
            0x68,
            ErrorKind::Invalid(format!("chunk position ({x}, {y}) is off the map")),
        )
    })
}

/// A string list and, when its bytes are not the plain list, the bytes.
fn read_names(c: &RawChunk) -> (Vec<String>, Option<Vec<u8>>) {
    let (list, canonical) = names::split(c.payload);
    (list, (!canonical).then(|| c.payload.to_vec()))
}

/// Names as MMID/MWID index them, plus the raw block and offsets when they are not the plain
/// list of each string in order.
#[allow(clippy::type_complexity)]
/// Only the doodad and WMO model names of a v18 ADT (MMDX through MMID, MWMO through MWID), as
/// [`read_adt`] resolves them, without decoding its chunks: what a writer of map-wide name
/// lists (the 0.5.x MDNM/MONM) needs before it writes any tile.
pub fn read_model_names(bytes: &[u8]) -> Result<(Vec<String>, Vec<String>)> {
    let mut found: Vec<RawChunk> = Vec::with_capacity(8);
    for c in ChunkIter::new(bytes, 0, tags::FILE) {
        let c = c?;
        if c.tag == tags::MCNK {
            break;
        }
        if [tags::MMDX, tags::MMID, tags::MWMO, tags::MWID].contains(&c.tag) {
            found.push(c);
        }
    }
    let need = |t: Tag| {
        found
            .iter()
            .find(|c| c.tag == t)
            .ok_or_else(|| FormatError::new(t, bytes.len(), ErrorKind::Missing(t)))
    };
    let (doodads, _, _) = read_indexed_names(need(tags::MMDX)?, need(tags::MMID)?)?;
    let (wmos, _, _) = read_indexed_names(need(tags::MWMO)?, need(tags::MWID)?)?;
    Ok((doodads, wmos))
}

/// Only the uniqueIds of a tile's doodad (MDDF) and WMO (MODF) records, without decoding its
/// chunks: what an editor needs to hand out new uids that no tile on disk uses.
pub fn read_unique_ids(bytes: &[u8]) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for c in ChunkIter::new(bytes, 0, tags::FILE) {
        let c = c?;
        if c.tag == tags::MCNK {
            break;
        }
        // The uid is the second u32 of both records (MDDF 36 bytes, MODF 64).
        let size = match c.tag {
            t if t == tags::MDDF => 36,
            t if t == tags::MODF => 64,
            _ => continue,
        };
        out.extend(
            c.payload
                .chunks_exact(size)
                .map(|r| u32::from_le_bytes([r[4], r[5], r[6], r[7]])),
        );
    }
    Ok(out)
}

/// Names as read, the raw block when it is not the plain list, and the index offsets when
/// they are not the plain ones (both kept for exact re-saves).
type IndexedNames = (Vec<String>, Option<Vec<u8>>, Option<Vec<u32>>);

fn read_indexed_names(block: &RawChunk, index: &RawChunk) -> Result<IndexedNames> {
    let (list, canonical) = names::split(block.payload);
    let mut r = index.reader();
    let offsets = (0..index.payload.len() / 4)
        .map(|_| r.u32())
        .collect::<Result<Vec<_>>>()?;
    if canonical && offsets == names::offsets(&list) && index.payload.len().is_multiple_of(4) {
        return Ok((list, None, None));
    }
    let resolved = offsets
        .iter()
        .enumerate()
        .map(|(i, &o)| {
            let tail = block.payload.get(o as usize..).ok_or_else(|| {
                index.error(
                    i * 4,
                    ErrorKind::OffsetOutOfRange {
                        offset: o as u64,
                        limit: block.payload.len() as u64,
                    },
                )
            })?;
            let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
            Ok(String::from_utf8_lossy(&tail[..end]).into_owned())
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((resolved, Some(block.payload.to_vec()), Some(offsets)))
}

/// The bytes of a name list and its offsets, reusing the file's own when they still name the
/// same strings.
fn indexed_names_bytes(
    names_list: &[String],
    raw: &Option<Vec<u8>>,
    offsets: &Option<Vec<u32>>,
) -> (Vec<u8>, Vec<u32>) {
    if let (Some(block), Some(ofs)) = (raw, offsets) {
        let resolved: Vec<String> = ofs
            .iter()
            .map(|&o| {
                let tail = block.get(o as usize..).unwrap_or(&[]);
                let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
                String::from_utf8_lossy(&tail[..end]).into_owned()
            })
            .collect();
        if resolved == names_list {
            return (block.clone(), ofs.clone());
        }
    }
    (names::join(names_list), names::offsets(names_list))
}

/// Encodes a tile as a v18 ADT.
pub fn write_adt(tile: &Tile, alpha: AlphaTarget) -> Vec<u8> {
    write_adt_as(tile, alpha, V18)
}

/// [`write_adt`] for an ADT of another flavor.
pub fn write_adt_as(tile: &Tile, alpha: AlphaTarget, flavor: AdtFlavor) -> Vec<u8> {
    // A tile whose maps disagreed with its WDT keeps its own depth until converted.
    let alpha = tile
        .quirks
        .alpha_big
        .map_or(alpha, |big| AlphaTarget { big });
    let mut w = Writer::with_capacity(1 << 20);
    let unknown_after = |w: &mut Writer, after: Tag| {
        for u in tile.unknown_chunks.iter().filter(|u| u.after == after.0) {
            w.chunk(Tag(u.tag), &u.payload);
        }
    };
    w.chunk(tags::MVER, &super::VERSION.to_le_bytes());
    unknown_after(&mut w, tags::MVER);
    let mhdr = w.begin(tags::MHDR);
    let mhdr_data = mhdr.payload_offset();
    w.zeros(MHDR_BYTES);
    w.end(mhdr);
    unknown_after(&mut w, tags::MHDR);
    let mut offsets = [0u32; 11]; // mcin mtex mmdx mmid mwmo mwid mddf modf mfbo mh2o mtxf
    let mark = |w: &Writer, slot: usize, offsets: &mut [u32; 11]| {
        offsets[slot] = (w.len() - mhdr_data) as u32
    };

    mark(&w, 0, &mut offsets);
    let mcin = w.begin(tags::MCIN);
    let mcin_data = mcin.payload_offset();
    w.zeros(256 * 16);
    w.end(mcin);
    unknown_after(&mut w, tags::MCIN);

    mark(&w, 1, &mut offsets);
    match &tile.quirks.raw_name_blocks[0] {
        Some(raw) if names::split(raw).0 == tile.textures => w.chunk(tags::MTEX, raw),
        _ => w.chunk(tags::MTEX, &names::join(&tile.textures)),
    }
    unknown_after(&mut w, tags::MTEX);
    // MMDX and MMID, then MWMO and MWID: the name block and each name's offset in it.
    for (slot, (names_tag, ids_tag), names, raw, name_offsets) in [
        (
            2,
            (tags::MMDX, tags::MMID),
            &tile.doodad_names,
            &tile.quirks.raw_name_blocks[1],
            &tile.quirks.doodad_name_offsets,
        ),
        (
            4,
            (tags::MWMO, tags::MWID),
            &tile.wmo_names,
            &tile.quirks.raw_name_blocks[2],
            &tile.quirks.wmo_name_offsets,
        ),
    ] {
        let (block, ofs) = indexed_names_bytes(names, raw, name_offsets);
        mark(&w, slot, &mut offsets);
        w.chunk(names_tag, &block);
        unknown_after(&mut w, names_tag);
        mark(&w, slot + 1, &mut offsets);
        let c = w.begin(ids_tag);
        ofs.iter().for_each(|&o| w.u32(o));
        w.end(c);
        unknown_after(&mut w, ids_tag);
    }
    mark(&w, 6, &mut offsets);
    placement::put_mddf(&mut w, &tile.doodads);
    unknown_after(&mut w, tags::MDDF);
    mark(&w, 7, &mut offsets);
    placement::put_modf(&mut w, &tile.wmos);
    unknown_after(&mut w, tags::MODF);

    let liquids: Vec<Option<&ChunkLiquid>> =
        tile.chunks.iter().map(|c| c.liquid.as_ref()).collect();
    if flavor.mh2o && mh2o::any(&liquids) {
        mark(&w, 9, &mut offsets);
        w.chunk(tags::MH2O, &mh2o::write(&liquids));
        unknown_after(&mut w, tags::MH2O);
    }

    for (i, chunk) in tile.chunks.iter().enumerate() {
        let at = w.len();
        (flavor.write_mcnk)(&mut w, chunk, place(tile.coord, i), alpha);
        w.patch_u32(mcin_data + i * 16, at as u32);
        let header = if tile.quirks.mcin_sizes_without_header {
            8
        } else {
            0
        };
        w.patch_u32(mcin_data + i * 16 + 4, (w.len() - at - header) as u32);
    }
    unknown_after(&mut w, tags::MCNK);

    if let Some(fb) = &tile.flight_bounds {
        mark(&w, 8, &mut offsets);
        let c = w.begin(tags::MFBO);
        fb.max.iter().chain(&fb.min).for_each(|&v| w.i16(v));
        w.end(c);
        unknown_after(&mut w, tags::MFBO);
    }
    if let Some(tf) = &tile.texture_flags {
        mark(&w, 10, &mut offsets);
        let c = w.begin(tags::MTXF);
        tf.iter().for_each(|&f| w.u32(f));
        w.end(c);
        unknown_after(&mut w, tags::MTXF);
    }

    let mut head = Writer::with_capacity(MHDR_BYTES);
    head.u32(tile.flags);
    offsets.iter().for_each(|&o| head.u32(o));
    tile.quirks.header_tail.iter().for_each(|&t| head.u32(t));
    w.patch_bytes(mhdr_data, head.as_bytes());
    if let Some(size) = tile.quirks.last_chunk_size_field {
        restore_last_size(
            &mut w,
            size,
            mcin_data,
            tile.quirks.mcin_sizes_without_header,
        );
    }
    w.into_bytes()
}

/// Writes back the size field the file's last chunk had when it ran past the end of the file
/// (and, for an MCNK, the MCIN size that goes with it).
fn restore_last_size(w: &mut Writer, size: u32, mcin_data: usize, without_header: bool) {
    let Some(last) = ChunkIter::new(w.as_bytes(), 0, tags::FILE)
        .filter_map(|c| c.ok())
        .last()
        .map(|c| (c.tag, c.offset, c.payload.len()))
    else {
        return;
    };
    // An edit that grew the chunk past the old size makes the old field a lie of another kind.
    if size as usize <= last.2 {
        return;
    }
    w.patch_u32(last.1 + 4, size);
    if last.0 == tags::MCNK {
        let entry = if without_header { size } else { size + 8 };
        w.patch_u32(mcin_data + 255 * 16 + 4, entry);
    }
}
