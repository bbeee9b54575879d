//! The 0.5.3/0.5.5 monolithic WDT: MVER, MPHD (128 bytes), MAIN (4096 × 16 bytes), MDNM,
//! MONM, MODF (WMO-only maps), then one block per present tile: MHDR, MCIN, MTEX, MDDF, MODF
//! and 256 alpha MCNKs.
//!
//! Not for: split WDTs (`v18`, `v060`) or the MCNK internals (`alpha::mcnk`).

use super::tile::{self, BlockOffsets, MONOLITHIC, SaveNames};
use crate::format::chunk::{ErrorKind, FormatError, Result, Writer, chunk_at, expect_chunk, tags};
use crate::format::{names, placement};
use crate::model::coords::{TILES_PER_SIDE, TileCoord};
use crate::model::map::{GlobalWmo, Map, TILE_PRESENT};
use crate::model::monolithic::MapWideNames;

/// The MVER value of the alpha WDT.
pub const VERSION: u32 = 18;
/// Bytes of the MPHD payload.
pub const MPHD_BYTES: usize = 128;
/// Bytes of one MAIN entry: MHDR offset, size up to the first MCNK, runtime flags, padding.
pub const MAIN_ENTRY_BYTES: usize = 16;
/// Bytes of MAIN.
pub const MAIN_BYTES: usize = TILES_PER_SIDE * TILES_PER_SIDE * MAIN_ENTRY_BYTES;
/// Bytes of the MHDR payload.
pub const MHDR_BYTES: usize = 64;

/// Disputed: the MPHD name counts. Writers of this format store the number of names **plus
/// one** (the empty string after the last terminator, as the client counts when it splits the
/// block on zeros) and report a client crash on WMO maps without it; an empty list stores 0.
/// Neither \[ac\] nor \[gp\] checks the counts; \[gp\] takes `nMapObjNames == 2` as "WMO-only",
/// which this convention matches for the real WMO-only maps (one WMO).
pub const NAME_COUNT_PLUS_ONE: bool = true;

/// The count MPHD stores for a list of `n` names.
pub fn stored_name_count(n: usize) -> u32 {
    if n > 0 && NAME_COUNT_PLUS_ONE {
        n as u32 + 1
    } else {
        n as u32
    }
}

/// True when `bytes` start like a monolithic WDT: MVER, then a 128-byte MPHD, then a MAIN of
/// 16-byte entries (the v18 and 0.6.0 WDTs have a 32-byte MPHD and 8-byte entries).
pub fn is_monolithic(bytes: &[u8]) -> bool {
    let Ok(mver) = chunk_at(bytes, 0, 0, tags::FILE) else {
        return false;
    };
    let Ok(mphd) = chunk_at(bytes, 8 + mver.payload.len(), 0, tags::FILE) else {
        return false;
    };
    let main_at = mphd.offset + 8 + mphd.payload.len();
    // MAIN's size field alone decides; its payload need not be complete for the sniff.
    let size = bytes
        .get(main_at..main_at + 8)
        .filter(|h| &h[..4] == tags::MAIN.to_disk().as_slice())
        .map(|h| u32::from_le_bytes([h[4], h[5], h[6], h[7]]));
    mver.tag == tags::MVER
        && mphd.tag == tags::MPHD
        && mphd.payload.len() == MPHD_BYTES
        && size == Some(MAIN_BYTES as u32)
}

/// Decodes a monolithic WDT with all its embedded tiles. `name` is the map's name. Tiles whose
/// MAIN entry says they live in a 0.5.5 prototype ADT are marked present but not loaded. Any
/// tile that fails to decode fails the whole read (see [`read_wdt_tolerant`]).
pub fn read_wdt(bytes: &[u8], name: &str) -> Result<Map> {
    let (map, mut failed) = read_wdt_tolerant(bytes, name)?;
    match failed.drain(..).next() {
        Some((_, e)) => Err(e),
        None => Ok(map),
    }
}

/// A monolithic WDT's header chunks: the map (flags, MAIN presence, global WMO, no tiles), the
/// map-wide name lists, and where each embedded tile's MHDR is. Readable from the file's first
/// bytes alone (up to its first tile), so a streaming reader need not hold the whole file.
#[derive(Debug, Clone)]
pub struct WdtHeader {
    /// The map without tiles; MAIN's present and external tiles are marked.
    pub map: Map,
    /// MDNM and MONM (the per-tile views fill in as tiles are read).
    pub names: MapWideNames,
    /// Each embedded tile, in MAIN order, and the absolute offset of its MHDR tag.
    pub tiles: Vec<(TileCoord, usize)>,
}

/// Byte offset of the first MAIN entry in every monolithic WDT loam writes and reads (MVER and
/// the 128-byte MPHD come first).
pub const MAIN_DATA_OFFSET: usize = 12 + 8 + MPHD_BYTES + 8;

/// Decodes a monolithic WDT's header chunks (see [`WdtHeader`]). `bytes` may end anywhere
/// after MONM and the map-wide MODF.
pub fn read_header(bytes: &[u8], name: &str) -> Result<WdtHeader> {
    let mver = expect_chunk(bytes, 0, 0, tags::MVER)?;
    let version = mver.reader().u32()?;
    if version != VERSION {
        return Err(mver.error(0, ErrorKind::UnsupportedVersion(version)));
    }
    let mphd = expect_chunk(bytes, mver.offset + 8 + mver.payload.len(), 0, tags::MPHD)?;
    if mphd.payload.len() != MPHD_BYTES {
        return Err(mphd.bad_size("the alpha MPHD is 128 bytes"));
    }
    let mut r = mphd.reader();
    // The counts are not needed: the blocks are split on their terminators.
    let _n_doodad_names = r.u32()?;
    let ofs_mdnm = r.u32()? as usize;
    let _n_wmo_names = r.u32()?;
    let ofs_monm = r.u32()? as usize;

    let main = expect_chunk(bytes, mphd.offset + 8 + mphd.payload.len(), 0, tags::MAIN)?;
    if main.payload.len() != MAIN_BYTES {
        return Err(main.bad_size("the alpha MAIN is 4096 entries of 16 bytes"));
    }
    let mdnm = expect_chunk(bytes, ofs_mdnm, 0, tags::MDNM)?;
    let monm = expect_chunk(bytes, ofs_monm, 0, tags::MONM)?;
    let names = MapWideNames {
        doodad_names: names::split(mdnm.payload).0,
        wmo_names: names::split(monm.payload).0,
        ..MapWideNames::default()
    };

    let mut map = Map::new(name);
    map.empty_wmo_names_chunk = false;
    let after_monm = monm.offset + 8 + monm.payload.len();
    if let Ok(modf) = chunk_at(bytes, after_monm, 0, tags::FILE)
        && modf.tag == tags::MODF
    {
        if modf.payload.len() < placement::WMO_RECORD {
            return Err(modf.bad_size("the map-wide MODF holds one 64-byte record"));
        }
        let placement = placement::read_wmo(&mut modf.reader())?;
        let wmo_name = names
            .wmo_names
            .get(placement.name_index as usize)
            .cloned()
            .ok_or_else(|| {
                modf.error(
                    0,
                    ErrorKind::OffsetOutOfRange {
                        offset: placement.name_index as u64,
                        limit: names.wmo_names.len() as u64,
                    },
                )
            })?;
        map.global_wmo = Some(GlobalWmo {
            name: wmo_name,
            placement,
        });
    }

    let mut tiles = Vec::new();
    let mut mr = main.reader();
    for index in 0..TILES_PER_SIDE * TILES_PER_SIDE {
        let entry_at = main.payload_offset() + index * MAIN_ENTRY_BYTES;
        let offset = mr.u32()? as usize;
        let size = mr.u32()?;
        let flags = mr.u32()?;
        let _pad = mr.u32()?;
        let coord = TileCoord::from_index(index).ok_or_else(|| {
            FormatError::new(tags::MAIN, entry_at, ErrorKind::Invalid("bad tile".into()))
        })?;
        // Both readers in use skip an entry with a zero offset ([gp]) or a zero size ([ac]).
        if offset == 0 || size == 0 {
            if offset == 0 && size == 0 && flags & EXTERNAL_TILE_FLAG != 0 {
                // In a 0.5.5 prototype ADT beside the WDT; `disk` loads it.
                map.tile_flags[index] = TILE_PRESENT;
            }
            continue;
        }
        map.tile_flags[index] = TILE_PRESENT;
        tiles.push((coord, offset));
    }
    Ok(WdtHeader { map, names, tiles })
}

/// Decodes a monolithic WDT as [`read_wdt`] does, but sets aside each tile that fails to decode
/// (it stays listed in MAIN, not loaded) with its error, so one bad tile does not lose the map.
/// Errors in the header chunks (MVER, MPHD, MAIN, MDNM, MONM) still fail the whole read.
pub fn read_wdt_tolerant(bytes: &[u8], name: &str) -> Result<(Map, Vec<(TileCoord, FormatError)>)> {
    let WdtHeader {
        mut map,
        mut names,
        tiles,
    } = read_header(bytes, name)?;
    let mut failed = Vec::new();
    for (coord, offset) in tiles {
        match read_tile(bytes, 0, offset, coord, &mut names) {
            Ok(tile) => {
                map.tiles.insert(coord, tile);
            }
            Err(e) => failed.push((coord, e)),
        }
    }
    map.map_wide_names = Some(names);
    Ok((map, failed))
}

/// Where the MCIN of the tile whose MHDR chunk (tag, size and 64-byte payload) is `mhdr` lies,
/// given that MHDR's absolute offset `mhdr_at`.
pub fn mcin_offset(mhdr: &[u8], mhdr_at: usize) -> Result<usize> {
    let c = expect_chunk(mhdr, 0, mhdr_at, tags::MHDR)?;
    let ofs = c.reader().u32()? as usize;
    Ok(c.payload_offset().saturating_add(ofs))
}

/// The absolute end of a tile block: the end of its farthest MCNK, from its MCIN chunk
/// (`mcin`, tag and 4096-byte payload, at absolute `mcin_at`).
pub fn block_end(mcin: &[u8], mcin_at: usize) -> Result<usize> {
    let c = expect_chunk(mcin, 0, mcin_at, tags::MCIN)?;
    let mut r = c.reader();
    let mut end = c.payload_offset() + c.payload.len();
    for _ in 0..256 {
        let ofs = r.u32()? as usize;
        let size = r.u32()? as usize;
        let _ = r.u32()?;
        let _ = r.u32()?;
        end = end.max(ofs.saturating_add(size));
    }
    Ok(end)
}

/// Reads the embedded tile whose MHDR is at absolute `at` from a window of the file that starts
/// at absolute `base` (0 for the whole file).
pub fn read_tile(
    bytes: &[u8],
    base: usize,
    at: usize,
    coord: TileCoord,
    global: &mut MapWideNames,
) -> Result<crate::model::Tile> {
    let rel = at.checked_sub(base).ok_or_else(|| {
        FormatError::new(
            tags::MHDR,
            at,
            ErrorKind::OffsetOutOfRange {
                offset: at as u64,
                limit: base as u64,
            },
        )
    })?;
    let mhdr = expect_chunk(bytes, rel, base, tags::MHDR)?;
    let mut r = mhdr.reader();
    let payload = mhdr.payload_offset();
    let ofs_info = r.u32()? as usize;
    let ofs_tex = r.u32()? as usize;
    let _size_tex = r.u32()?;
    let ofs_doo = r.u32()? as usize;
    let _size_doo = r.u32()?;
    let ofs_mob = r.u32()? as usize;
    let _size_mob = r.u32()?;
    let offsets = BlockOffsets {
        mcin: payload.saturating_add(ofs_info),
        mtex: payload.saturating_add(ofs_tex),
        mddf: payload.saturating_add(ofs_doo),
        modf: payload.saturating_add(ofs_mob),
        first_mcnk: 0,
    };
    tile::read_block_at(bytes, base, offsets, coord, global)
}

/// Disputed (and invented here): how a 0.5.5 WDT says that a tile lives in a prototype ADT
/// beside it. Nothing documents the 0.5.5 client's test; loam writes such an entry with a zero
/// offset and size (so \[ac\] and \[gp\], which cannot read prototype ADTs, skip it) and this value
/// in the MAIN flags word, which the 0.5.3 client only sets at run time.
pub const EXTERNAL_TILE_FLAG: u32 = 0x1;

/// One embedded tile's bytes (MHDR, MCIN, MTEX, MDDF, MODF, 256 MCNKs), encoded on its own so
/// that a streaming writer can append tiles one at a time.
#[derive(Debug, Clone)]
pub struct TileBlock {
    /// The bytes, MHDR first.
    pub bytes: Vec<u8>,
    /// The MAIN entry's size word: bytes from the MHDR tag to the first MCNK.
    pub size_to_first_mcnk: u32,
    /// Where the MCIN payload starts in `bytes`.
    mcin_data: usize,
    /// The absolute offset of `bytes[0]` that the MCIN offsets were written for.
    base: usize,
}

impl TileBlock {
    /// The block moved to absolute file offset `at`: MCIN's offsets are absolute in this format,
    /// everything else in the block is relative to it.
    pub fn placed_at(mut self, at: usize) -> TileBlock {
        for i in 0..256 {
            let field = self.mcin_data + i * 16;
            let Some(b) = self.bytes.get_mut(field..field + 4) else {
                break;
            };
            let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
            let moved = v.wrapping_sub(self.base).wrapping_add(at) as u32;
            b.copy_from_slice(&moved.to_le_bytes());
        }
        self.base = at;
        self
    }
}

/// Encodes one tile as an embedded block, with the map-wide name indices of `names`, placed at
/// offset 0 (see [`TileBlock::placed_at`]).
pub fn encode_tile(tile: &crate::model::Tile, names: &SaveNames) -> TileBlock {
    let (mut w, base, at) = tile::write_under_mhdr(tile, names, MONOLITHIC, MHDR_BYTES);
    let chunk_size = |tag_at: usize| -> u32 {
        let b = w.as_bytes();
        u32::from_le_bytes([b[tag_at + 4], b[tag_at + 5], b[tag_at + 6], b[tag_at + 7]])
    };
    let mut h = Writer::with_capacity(MHDR_BYTES);
    // Offsets from the MHDR payload to each chunk's tag; sizes are payload sizes.
    h.u32((at.mcin - base) as u32);
    h.u32((at.mtex - base) as u32);
    h.u32(chunk_size(at.mtex));
    h.u32((at.mddf - base) as u32);
    h.u32(chunk_size(at.mddf));
    h.u32((at.modf - base) as u32);
    h.u32(chunk_size(at.modf));
    w.patch_bytes(base, h.as_bytes());
    TileBlock {
        size_to_first_mcnk: at.first_mcnk as u32,
        mcin_data: at.mcin + 8,
        base: 0,
        bytes: w.into_bytes(),
    }
}

/// Where a monolithic WDT's bytes go as [`MonolithicWriter`] writes them: memory (`Vec<u8>`),
/// or a file a streaming conversion writes in place.
pub trait WdtSink {
    /// What a failed write says.
    type Error;
    /// Bytes written so far: the offset the next append lands at.
    fn end(&self) -> usize;
    /// Appends `bytes`.
    fn append(&mut self, bytes: &[u8]) -> std::result::Result<(), Self::Error>;
    /// Overwrites the 8 bytes at `at`, already written (half a MAIN entry).
    fn patch(&mut self, at: usize, bytes: [u8; 8]);
}

/// A save in memory: the whole file in one buffer.
impl WdtSink for Vec<u8> {
    type Error = std::convert::Infallible;

    fn end(&self) -> usize {
        self.len()
    }

    fn append(&mut self, bytes: &[u8]) -> std::result::Result<(), Self::Error> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    fn patch(&mut self, at: usize, bytes: [u8; 8]) {
        if let Some(old) = self.get_mut(at..at + 8) {
            old.copy_from_slice(&bytes);
        }
    }
}

/// The one writer of monolithic WDTs, for the editor's save and the streaming conversion
/// alike: the header chunks first with MAIN empty, then each tile's block appended as it comes
/// and its MAIN entry pointed at it, so that a writer never needs more than one tile in hand.
#[derive(Debug)]
pub struct MonolithicWriter<S> {
    sink: S,
}

impl<S: WdtSink> MonolithicWriter<S> {
    /// Starts a WDT of `map` in `sink`: MVER, MPHD, MAIN with every entry zero, MDNM and MONM
    /// of `names`, and the map-wide MODF, naming MONM entry `global_wmo_index`.
    pub fn begin(
        mut sink: S,
        map: &Map,
        names: &SaveNames,
        global_wmo_index: Option<u32>,
    ) -> std::result::Result<Self, S::Error> {
        sink.append(&header(map, names, global_wmo_index))?;
        Ok(MonolithicWriter { sink })
    }

    /// Appends tile `coord`'s block (from [`encode_tile`]) and points its MAIN entry at it.
    pub fn add_tile(
        &mut self,
        coord: TileCoord,
        block: TileBlock,
    ) -> std::result::Result<(), S::Error> {
        let at = self.sink.end();
        let block = block.placed_at(at);
        self.sink.append(&block.bytes)?;
        let mut entry = [0u8; 8];
        entry[..4].copy_from_slice(&(at as u32).to_le_bytes());
        entry[4..].copy_from_slice(&block.size_to_first_mcnk.to_le_bytes());
        self.sink.patch(main_entry_at(coord), entry);
        Ok(())
    }

    /// Lists tile `coord` as stored in a 0.5.5 prototype ADT beside the WDT: no offset or size,
    /// and [`EXTERNAL_TILE_FLAG`] in its MAIN entry's flags word.
    pub fn add_external(&mut self, coord: TileCoord) {
        let mut flags = [0u8; 8];
        flags[..4].copy_from_slice(&EXTERNAL_TILE_FLAG.to_le_bytes());
        self.sink.patch(main_entry_at(coord) + 8, flags);
    }

    /// The sink, holding the whole WDT.
    pub fn finish(self) -> S {
        self.sink
    }
}

/// Where tile `coord`'s MAIN entry starts in the file.
fn main_entry_at(coord: TileCoord) -> usize {
    MAIN_DATA_OFFSET + coord.index() * MAIN_ENTRY_BYTES
}

/// Encodes a map as a monolithic WDT holding every loaded tile.
pub fn write_wdt(map: &Map) -> Vec<u8> {
    let tiles = tiles_in_main_order(map);
    let (names_out, global_wmo_index) = save_names(map, &tiles);
    write_container(map, &tiles, &names_out, global_wmo_index, true)
}

/// The loaded tiles in MAIN order (row by row).
pub(crate) fn tiles_in_main_order(map: &Map) -> Vec<&crate::model::Tile> {
    let mut tiles: Vec<&crate::model::Tile> = map.tiles.values().collect();
    tiles.sort_by_key(|t| t.coord.index());
    tiles
}

/// The map-wide name lists a save of `tiles` writes, and the global WMO's MONM index.
pub(crate) fn save_names(map: &Map, tiles: &[&crate::model::Tile]) -> (SaveNames, Option<u32>) {
    SaveNames::build(
        map.map_wide_names.as_ref(),
        tiles.iter().copied(),
        map.global_wmo.as_ref().map(|g| g.name.as_str()),
    )
}

/// Writes the WDT in memory: header chunks, then either every tile block (`embed`) or none,
/// with MAIN entries flagged [`EXTERNAL_TILE_FLAG`] for tiles stored in prototype ADTs.
pub(crate) fn write_container(
    map: &Map,
    tiles: &[&crate::model::Tile],
    names_out: &SaveNames,
    global_wmo_index: Option<u32>,
    embed: bool,
) -> Vec<u8> {
    let block_guess = if embed { tiles.len() << 20 } else { 0 };
    let buffer = Vec::with_capacity(MAIN_BYTES + block_guess);
    let Ok(mut wdt) = MonolithicWriter::begin(buffer, map, names_out, global_wmo_index);
    for tile in tiles {
        if embed {
            let Ok(()) = wdt.add_tile(tile.coord, encode_tile(tile, names_out));
        } else {
            wdt.add_external(tile.coord);
        }
    }
    wdt.finish()
}

/// The header chunks: MVER, MPHD, MAIN with every entry zero (its payload at
/// [`MAIN_DATA_OFFSET`]), MDNM, MONM and the map-wide MODF.
fn header(map: &Map, names_out: &SaveNames, global_wmo_index: Option<u32>) -> Vec<u8> {
    let mut w = Writer::with_capacity(MAIN_DATA_OFFSET + MAIN_BYTES);
    w.chunk(tags::MVER, &VERSION.to_le_bytes());
    let mphd = w.begin(tags::MPHD);
    let mphd_data = mphd.payload_offset();
    w.zeros(MPHD_BYTES);
    w.end(mphd);
    let main = w.begin(tags::MAIN);
    w.zeros(MAIN_BYTES);
    w.end(main);

    let ofs_mdnm = w.len();
    w.chunk(tags::MDNM, &names::join(&names_out.doodads));
    let ofs_monm = w.len();
    w.chunk(tags::MONM, &names::join(&names_out.wmos));
    if let (Some(g), Some(index)) = (&map.global_wmo, global_wmo_index) {
        let c = w.begin(tags::MODF);
        let mut p = g.placement.clone();
        p.name_index = index;
        placement::write_wmo(&mut w, &p);
        w.end(c);
    }

    let mut head = Writer::with_capacity(16);
    head.u32(stored_name_count(names_out.doodads.len()));
    head.u32(ofs_mdnm as u32);
    head.u32(stored_name_count(names_out.wmos.len()));
    head.u32(ofs_monm as u32);
    w.patch_bytes(mphd_data, head.as_bytes());
    w.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chunk::Chunk;
    use crate::model::tile::Tile;
    use proptest::prelude::*;

    fn small_map() -> Map {
        let coord = TileCoord::new(1, 2).unwrap();
        let mut map = Map::new("S");
        map.tile_flags[coord.index()] = TILE_PRESENT;
        map.tiles.insert(
            coord,
            Tile {
                coord,
                flags: 0,
                textures: vec!["t.blp".into()],
                texture_flags: None,
                doodad_names: vec![],
                wmo_names: vec![],
                doodads: vec![],
                wmos: vec![],
                chunks: (0..256).map(|_| Chunk::flat(1.0)).collect(),
                flight_bounds: None,
                unknown_chunks: vec![],
                quirks: Default::default(),
            },
        );
        map
    }

    #[test]
    fn name_counts_are_stored_plus_one() {
        assert_eq!(stored_name_count(0), 0);
        assert_eq!(stored_name_count(1), 2);
    }

    #[test]
    fn main_starts_where_readers_and_the_writer_look_for_it() {
        let bytes = write_wdt(&small_map());
        let main = chunk_at(&bytes, MAIN_DATA_OFFSET - 8, 0, tags::FILE).unwrap();
        assert_eq!(main.tag, tags::MAIN);
        // Tile (1, 2) is the only one: its entry points at its MHDR, after the header.
        let entry = MAIN_DATA_OFFSET + TileCoord::new(1, 2).unwrap().index() * MAIN_ENTRY_BYTES;
        let at = u32::from_le_bytes(bytes[entry..entry + 4].try_into().unwrap()) as usize;
        assert!(at > MAIN_DATA_OFFSET + MAIN_BYTES);
        assert_eq!(&bytes[at..at + 4], tags::MHDR.to_disk().as_slice());
    }

    #[test]
    fn sniff_tells_monolithic_from_split() {
        let bytes = write_wdt(&small_map());
        assert!(is_monolithic(&bytes));
        assert!(!is_monolithic(&crate::format::v18::write_wdt(&small_map())));
        assert!(!is_monolithic(&bytes[..100]));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn decoder_never_panics_on_random_bytes(
            bytes in proptest::collection::vec(any::<u8>(), 0..4096),
        ) {
            let _ = read_wdt(&bytes, "R");
            let _ = is_monolithic(&bytes);
        }

        #[test]
        fn decoder_never_panics_on_mutated_headers(
            edits in proptest::collection::vec((0usize..(MAIN_BYTES + 4096), any::<u32>()), 1..6),
        ) {
            // Damage MVER/MPHD/MAIN/MDNM/MONM and the tile's MHDR/MCIN, where offsets live.
            let mut bytes = write_wdt(&small_map());
            for (at, v) in edits {
                let at = at.min(bytes.len() - 4);
                bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            if let Err(e) = read_wdt(&bytes, "R") {
                prop_assert!(e.offset <= bytes.len() as u64);
            }
        }
    }
}
