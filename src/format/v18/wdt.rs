//! The v18 WDT: MVER, MPHD (flags + 7 words), MAIN (4096 × {flags, async id}), MWMO and, for a
//! WMO-only map, MODF.

use crate::format::chunk::{ChunkIter, ErrorKind, FormatError, Result, Writer, tags};
use crate::format::{names, placement};
use crate::model::coords::TILES_PER_SIDE;
use crate::model::map::{GlobalWmo, Map};
use crate::model::quirks::{FileQuirk, QuirkKind};

/// Bytes of MAIN in a v18 WDT.
pub const MAIN_BYTES: usize = TILES_PER_SIDE * TILES_PER_SIDE * 8;

/// Decodes a v18 WDT (the tiles themselves are separate files). `name` is the map's name.
pub fn read_wdt(bytes: &[u8], name: &str) -> Result<Map> {
    let mut map = Map::new(name);
    map.empty_wmo_names_chunk = false;
    let mut seen_main = false;
    let mut seen_version = false;
    let mut seen_mwmo = false;
    let mut wmo_names = Vec::new();
    let mut wmo_placements = Vec::new();
    for c in ChunkIter::new(bytes, 0, tags::FILE) {
        let c = c?;
        let mut r = c.reader();
        match c.tag {
            tags::MVER => {
                let v = r.u32()?;
                if v != super::VERSION {
                    return Err(c.error(0, ErrorKind::UnsupportedVersion(v)));
                }
                seen_version = true;
            }
            tags::MPHD => {
                map.flags = r.u32()?;
                for w in map.header_extra.iter_mut() {
                    *w = r.u32()?;
                }
            }
            tags::MAIN => {
                if c.payload.len() != MAIN_BYTES {
                    return Err(c.bad_size("v18 MAIN is 4096 entries of 8 bytes"));
                }
                for i in 0..TILES_PER_SIDE * TILES_PER_SIDE {
                    map.tile_flags[i] = r.u32()?;
                    // The second word is the client's runtime async id, zero on disk.
                    let _async_id = r.u32()?;
                }
                seen_main = true;
            }
            tags::MWMO => {
                seen_mwmo = true;
                wmo_names = names::split(c.payload).0;
                map.empty_wmo_names_chunk = c.payload.is_empty();
            }
            tags::MODF => {
                if c.payload.len() % placement::WMO_RECORD != 0 {
                    return Err(c.bad_size("not a multiple of 64"));
                }
                for _ in 0..c.payload.len() / placement::WMO_RECORD {
                    wmo_placements.push(placement::read_wmo(&mut r)?);
                }
            }
            other => {
                return Err(c.error(
                    0,
                    ErrorKind::Invalid(format!("unexpected chunk {other} in a WDT")),
                ));
            }
        }
    }
    if !seen_version {
        return Err(FormatError::new(
            tags::FILE,
            0,
            ErrorKind::Missing(tags::MVER),
        ));
    }
    if !seen_main {
        return Err(FormatError::new(
            tags::FILE,
            bytes.len(),
            ErrorKind::Missing(tags::MAIN),
        ));
    }
    if !seen_mwmo {
        // Blizzard's WDTs always have one (empty for terrain maps); the writer leaves it out
        // again because `empty_wmo_names_chunk` stays false.
        map.wdt_quirks.push(FileQuirk {
            kind: QuirkKind::WdtWithoutMwmo,
            chunk: tags::MWMO.0,
            chunk_index: None,
            offset: bytes.len() as u64,
        });
    }
    if let Some(placement) = wmo_placements.into_iter().next() {
        let name = wmo_names
            .get(placement.name_index as usize)
            .cloned()
            .unwrap_or_default();
        map.global_wmo = Some(GlobalWmo { name, placement });
    }
    Ok(map)
}

/// Encodes a map's v18 WDT.
pub fn write_wdt(map: &Map) -> Vec<u8> {
    let mut w = Writer::with_capacity(MAIN_BYTES + 256);
    w.chunk(tags::MVER, &super::VERSION.to_le_bytes());
    let c = w.begin(tags::MPHD);
    w.u32(map.flags);
    map.header_extra.iter().for_each(|&x| w.u32(x));
    w.end(c);
    let c = w.begin(tags::MAIN);
    for &f in map.tile_flags.iter() {
        w.u32(f);
        w.u32(0);
    }
    w.end(c);
    match &map.global_wmo {
        Some(g) => {
            w.chunk(tags::MWMO, &names::join(std::slice::from_ref(&g.name)));
            let c = w.begin(tags::MODF);
            let mut p = g.placement.clone();
            p.name_index = 0;
            placement::write_wmo(&mut w, &p);
            w.end(c);
        }
        None if map.empty_wmo_names_chunk => w.chunk(tags::MWMO, &[]),
        None => {}
    }
    w.into_bytes()
}
