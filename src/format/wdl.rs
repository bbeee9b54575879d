//! WDL, the low-resolution height file the client draws distant terrain from: `MVER` (18),
//! `MAOF` (64×64 absolute offsets of each tile's `MARE`, 0 for no tile), then per tile `MARE`
//! (17×17 outer + 16×16 inner `i16` heights) and, from 2.x on, `MAHO` (16 `u16` hole masks).
//! Which generation has which chunks, and where that comes from, is in `docs/formats.md` ("WDL").
//!
//! Not for: where the heights come from (`model::low_res`, `model::coords::low_res_sample`) or
//! files on disk (`pipeline::wdl`).

use std::collections::BTreeMap;

use super::Generation;
use super::chunk::{
    ChunkIter, ErrorKind, FormatError, RawChunk, Result, Tag, Writer, chunk_at, tags,
};
use crate::model::TileCoord;
use crate::model::coords::{LOW_RES_SAMPLES, TILES_PER_SIDE};

/// The MAOF chunk: where each tile's MARE is.
pub const MAOF: Tag = Tag::new(b"MAOF");
/// The MARE chunk: one tile's heights.
pub const MARE: Tag = Tag::new(b"MARE");
/// The MAHO chunk: one tile's hole masks.
pub const MAHO: Tag = Tag::new(b"MAHO");
/// The MVER version every WDL loam knows stores.
pub const VERSION: u32 = 18;
/// Payload bytes of a MARE chunk.
pub const MARE_BYTES: usize = LOW_RES_SAMPLES * 2;
/// Payload bytes of a MAHO chunk.
pub const MAHO_BYTES: usize = 16 * 2;
/// Payload bytes of a MAOF chunk.
pub const MAOF_BYTES: usize = TILES_PER_SIDE * TILES_PER_SIDE * 4;

/// One tile of a WDL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WdlTile {
    /// The 545 heights in file order (17×17 outer row by row, then 16×16 inner).
    pub heights: Box<[i16; LOW_RES_SAMPLES]>,
    /// The 16 hole masks (row `i`, bit `j`: chunk `j`,`i` is all hole), when the file has MAHO.
    pub holes: Option<[u16; 16]>,
}

/// A decoded WDL.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Wdl {
    /// The MVER version, when the file has MVER.
    pub version: Option<u32>,
    /// The tiles MAOF points at.
    pub tiles: BTreeMap<TileCoord, WdlTile>,
    /// Where each tile's MARE chunk starts (absolute offset of its tag), as MAOF says.
    pub offsets: BTreeMap<TileCoord, u32>,
    /// Top-level chunks other than MVER, MAOF, MARE and MAHO (MWMO, MWID, MODF…), in order.
    pub other_chunks: Vec<Tag>,
}

/// True when generation `g`'s WDL has a MAHO chunk after each MARE: 3.3.5 (MAHO arrived with
/// 2.x); 0.5.x, 0.6.0 and 1.12 WDLs have none.
pub fn has_holes(g: Generation) -> bool {
    g >= Generation::V335
}

/// A height in yards as the WDL stores it: rounded to the nearest yard, clamped to `i16`
/// (a height that is not a number becomes 0).
pub fn stored_height(h: f32) -> i16 {
    // `as` saturates at the i16 range and maps NaN to 0.
    h.round() as i16
}

impl WdlTile {
    /// The tile a WDL stores for `heights` (yards, file order) and `holes` (one mask per chunk
    /// row); the masks are kept only when `with_holes`.
    pub fn new(heights: &[f32; LOW_RES_SAMPLES], holes: [u16; 16], with_holes: bool) -> WdlTile {
        let mut out = Box::new([0i16; LOW_RES_SAMPLES]);
        for (o, &h) in out.iter_mut().zip(heights.iter()) {
            *o = stored_height(h);
        }
        WdlTile {
            heights: out,
            holes: with_holes.then_some(holes),
        }
    }
}

/// Encodes a WDL holding `tiles`: MVER, MAOF, then each tile's MARE (and MAHO when it has
/// masks) in MAOF's order (row by row).
pub fn write(tiles: &BTreeMap<TileCoord, WdlTile>) -> Vec<u8> {
    let per_tile = 8 + MARE_BYTES + 8 + MAHO_BYTES;
    let mut w = Writer::with_capacity(12 + 8 + MAOF_BYTES + tiles.len() * per_tile);
    let c = w.begin(tags::MVER);
    w.u32(VERSION);
    w.end(c);
    let maof = w.begin(MAOF);
    w.zeros(MAOF_BYTES);
    w.end(maof);
    // BTreeMap order of TileCoord is (x, y); MAOF's is row by row, as the client's files are.
    let mut rows: Vec<(&TileCoord, &WdlTile)> = tiles.iter().collect();
    rows.sort_by_key(|(c, _)| c.index());
    for (coord, tile) in rows {
        let at = w.len();
        w.patch_u32(maof.payload_offset() + coord.index() * 4, at as u32);
        let c = w.begin(MARE);
        for &h in tile.heights.iter() {
            w.i16(h);
        }
        w.end(c);
        if let Some(holes) = tile.holes {
            let c = w.begin(MAHO);
            for m in holes {
                w.u16(m);
            }
            w.end(c);
        }
    }
    w.into_bytes()
}

/// Decodes a WDL: MVER (optional, must be 18), any object chunks, MAOF, then the MARE (and
/// optional MAHO) each MAOF entry points at. Errors name the chunk and the byte offset.
pub fn read(data: &[u8]) -> Result<Wdl> {
    let mut wdl = Wdl::default();
    let mut maof = None;
    for chunk in ChunkIter::new(data, 0, tags::FILE) {
        let chunk = chunk?;
        match chunk.tag {
            t if t == tags::MVER => {
                let v = chunk.reader().u32()?;
                if v != VERSION {
                    return Err(chunk.error(0, ErrorKind::UnsupportedVersion(v)));
                }
                wdl.version = Some(v);
            }
            t if t == MAOF => {
                if chunk.payload.len() != MAOF_BYTES {
                    return Err(FormatError::new(
                        MAOF,
                        chunk.offset,
                        ErrorKind::BadSize {
                            size: chunk.size as u64,
                            why: "MAOF holds 4096 offsets (16384 bytes)",
                        },
                    ));
                }
                maof = Some(chunk);
                // The client reads only what MAOF points at from here on.
                break;
            }
            t => wdl.other_chunks.push(t),
        }
    }
    let maof = maof.ok_or_else(|| FormatError::new(tags::FILE, 0, ErrorKind::Missing(MAOF)))?;
    let mut r = maof.reader();
    for index in 0..TILES_PER_SIDE * TILES_PER_SIDE {
        let offset = r.u32()?;
        if offset == 0 {
            continue;
        }
        let Some(coord) = TileCoord::from_index(index) else {
            continue;
        };
        let (tile, _) = read_tile(data, offset as usize).map_err(|e| match e.kind {
            // An offset past the end says more about MAOF than about the chunk it misses.
            ErrorKind::Truncated { .. } if offset as usize >= data.len() => maof.error(
                index * 4,
                ErrorKind::OffsetOutOfRange {
                    offset: offset as u64,
                    limit: data.len() as u64,
                },
            ),
            _ => e,
        })?;
        wdl.tiles.insert(coord, tile);
        wdl.offsets.insert(coord, offset);
    }
    Ok(wdl)
}

/// Reads the MARE at `offset` and the MAHO right after it, if any; returns the tile and the
/// An error (`why`) at `at`, where chunk `c` starts, unless its payload is `bytes` long.
fn expect_size(c: &RawChunk, at: usize, bytes: usize, why: &'static str) -> Result<()> {
    if c.payload.len() != bytes {
        return Err(FormatError::new(
            c.tag,
            at,
            ErrorKind::BadSize {
                size: c.size as u64,
                why,
            },
        ));
    }
    Ok(())
}

/// offset just past what was read.
fn read_tile(data: &[u8], offset: usize) -> Result<(WdlTile, usize)> {
    let mare = chunk_at(data, offset, 0, MARE)?;
    if mare.tag != MARE {
        return Err(FormatError::new(
            MARE,
            offset,
            ErrorKind::UnexpectedTag {
                expected: MARE,
                found: mare.tag,
            },
        ));
    }
    expect_size(
        &mare,
        offset,
        MARE_BYTES,
        "MARE holds 545 heights (1090 bytes)",
    )?;
    let mut heights = Box::new([0i16; LOW_RES_SAMPLES]);
    let mut r = mare.reader();
    for h in heights.iter_mut() {
        *h = r.i16()?;
    }
    let mut end = offset + 8 + MARE_BYTES;
    let mut holes = None;
    if let Ok(maho) = chunk_at(data, end, 0, MAHO)
        && maho.tag == MAHO
    {
        expect_size(&maho, end, MAHO_BYTES, "MAHO holds 16 masks (32 bytes)")?;
        let mut r = maho.reader();
        let mut masks = [0u16; 16];
        for m in masks.iter_mut() {
            *m = r.u16()?;
        }
        holes = Some(masks);
        end += 8 + MAHO_BYTES;
    }
    Ok((WdlTile { heights, holes }, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(base: i16, holes: Option<[u16; 16]>) -> WdlTile {
        let mut heights = Box::new([0i16; LOW_RES_SAMPLES]);
        for (i, h) in heights.iter_mut().enumerate() {
            *h = base.wrapping_add(i as i16);
        }
        WdlTile { heights, holes }
    }

    #[test]
    fn written_tiles_read_back_and_maof_points_at_each_mare() {
        let mut tiles = BTreeMap::new();
        tiles.insert(TileCoord::new(3, 1).unwrap(), tile(-40, None));
        tiles.insert(TileCoord::new(1, 3).unwrap(), tile(7, None));
        let bytes = write(&tiles);
        // MVER (12) + MAOF (8 + 16384), then row 1 (tile 3,1) before row 3 (tile 1,3).
        let first = 12 + 8 + MAOF_BYTES;
        assert_eq!(&bytes[first..first + 4], b"ERAM");
        let maof_entry = |x: usize, y: usize| {
            let at = 20 + (y * 64 + x) * 4;
            u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
        };
        assert_eq!(maof_entry(3, 1), first);
        assert_eq!(maof_entry(1, 3), first + 8 + MARE_BYTES);
        assert_eq!(maof_entry(0, 0), 0);
        let back = read(&bytes).unwrap();
        assert_eq!(back.tiles, tiles);
        assert_eq!(back.version, Some(18));
    }

    #[test]
    fn holes_follow_their_mare() {
        let mut tiles = BTreeMap::new();
        let mut masks = [0u16; 16];
        masks[2] = 0b1010;
        tiles.insert(TileCoord::new(0, 0).unwrap(), tile(0, Some(masks)));
        tiles.insert(TileCoord::new(1, 0).unwrap(), tile(5, Some([0; 16])));
        let bytes = write(&tiles);
        let mare = 12 + 8 + MAOF_BYTES;
        assert_eq!(&bytes[mare + 8 + MARE_BYTES..][..4], b"OHAM");
        assert_eq!(read(&bytes).unwrap().tiles, tiles);
    }

    #[test]
    fn heights_round_to_the_nearest_yard_and_saturate() {
        assert_eq!(stored_height(10.5), 11);
        assert_eq!(stored_height(-10.5), -11);
        assert_eq!(stored_height(10.49), 10);
        assert_eq!(stored_height(1e9), i16::MAX);
        assert_eq!(stored_height(-1e9), i16::MIN);
        assert_eq!(stored_height(f32::NAN), 0);
    }

    #[test]
    fn an_offset_that_misses_a_mare_is_an_error_naming_it() {
        let mut tiles = BTreeMap::new();
        tiles.insert(TileCoord::new(0, 0).unwrap(), tile(0, None));
        let mut bytes = write(&tiles);
        bytes[20..24].copy_from_slice(&30u32.to_le_bytes());
        let e = read(&bytes).unwrap_err();
        assert_eq!(e.offset, 30, "{e}");
        bytes[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = read(&bytes).unwrap_err();
        assert_eq!(e.chunk, MAOF, "{e}");
        assert!(matches!(e.kind, ErrorKind::OffsetOutOfRange { .. }), "{e}");
    }
}
