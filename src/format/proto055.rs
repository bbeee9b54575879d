//! The 0.5.5 prototype ADT (`002_*`, "Prototype ADT (0.5.5 Latent)"): a loader the 0.5.5
//! client carries but never enables. A tile file `Map_X_Y.adt` holds, with no MVER:
//!
//! ```text
//! MHDR (64-byte payload: flags, mcin, mtex, 0, mddf, 0, modf, 0, zeros)
//! [8 zero bytes] MCIN   [8 zero bytes] MTEX   [8 zero bytes] MDDF   [8 zero bytes] MODF
//! 256 × MCNK (the alpha MCNK with 8 zero bytes between its header and MCVT, so MCVT sits at
//!             MCNK payload +136, MCNR at +716, its 13 padding bytes at +1151, MCLY at +1164)
//! ```
//!
//! MHDR offsets count from the MHDR payload and point at the 8 padding bytes before each chunk.
//! There are no name chunks: placement name ids index the map-wide MDNM/MONM of the 0.5.5
//! monolithic WDT beside the tiles, which lists them with [`EXTERNAL_TILE_FLAG`].
//!
//! Kept in its own module rather than in `alpha` because it is a separate file kind with its own
//! container; the tile block and MCNK are `alpha`'s, reused with padding switched on.
//!
//! Not for: the monolithic WDT itself (`alpha`), which also serves 0.5.5 without prototype ADTs.

use crate::format::alpha::tile::{self, BlockLayout, BlockOffsets};
use crate::format::alpha::wdt::{save_names, tiles_in_main_order, write_container};
use crate::format::chunk::{Result, Writer, expect_chunk, tags};
use crate::model::coords::TileCoord;
use crate::model::map::Map;
use crate::model::monolithic::MapWideNames;
use crate::model::tile::Tile;

pub use crate::format::alpha::wdt::EXTERNAL_TILE_FLAG;

/// Bytes of zero padding before MCIN, MTEX, MDDF and MODF, and between each MCNK header and its
/// MCVT.
pub const PADDING: usize = 8;

/// Disputed: the MHDR payload size. `002_*` lists eight words (flags and three offsets with
/// unused words between); both the alpha MHDR and the v18 one are 64 bytes, and a reader that
/// takes the first eight words is indifferent to zeros after them, so 64 bytes are written.
pub const MHDR_BYTES: usize = 64;

/// The prototype ADT's tile block layout.
pub const LAYOUT: BlockLayout = BlockLayout {
    chunk_pad: PADDING,
    mcnk_lead_pad: PADDING,
};

/// True when `bytes` start like a prototype ADT: MHDR first, no MVER.
pub fn is_prototype_adt(bytes: &[u8]) -> bool {
    bytes.get(..4) == Some(tags::MHDR.to_disk().as_slice())
}

/// Encodes one tile as a prototype ADT whose name ids index the map-wide lists of `names`.
pub fn write_adt(tile: &Tile, names: &tile::SaveNames) -> Vec<u8> {
    let (mut w, base, at) = tile::write_under_mhdr(tile, names, LAYOUT, MHDR_BYTES);
    // Each offset points at the padding before the chunk's tag.
    let pad_of = |tag_at: usize| (tag_at - PADDING - base) as u32;
    let mut h = Writer::with_capacity(32);
    h.u32(tile.flags);
    h.u32(pad_of(at.mcin));
    h.u32(pad_of(at.mtex));
    h.u32(0);
    h.u32(pad_of(at.mddf));
    h.u32(0);
    h.u32(pad_of(at.modf));
    h.u32(0);
    w.patch_bytes(base, h.as_bytes());
    w.into_bytes()
}

/// Decodes a prototype ADT for tile `coord`, mapping name ids through the map-wide lists of
/// `names` (read from the WDT) and recording the tile's view of them there.
pub fn read_adt(bytes: &[u8], coord: TileCoord, names: &mut MapWideNames) -> Result<Tile> {
    let mhdr = expect_chunk(bytes, 0, 0, tags::MHDR)?;
    if mhdr.payload.len() < 32 {
        return Err(mhdr.bad_size("the prototype MHDR holds at least 8 words"));
    }
    let mut r = mhdr.reader();
    let flags = r.u32()?;
    let base = mhdr.payload_offset();
    let tag_at = |r: &mut crate::format::chunk::Reader| -> Result<usize> {
        let ofs = r.u32()? as usize;
        Ok(base.saturating_add(ofs).saturating_add(PADDING))
    };
    let mcin = tag_at(&mut r)?;
    let mtex = tag_at(&mut r)?;
    let _unused = r.u32()?;
    let mddf = tag_at(&mut r)?;
    let _unused = r.u32()?;
    let modf = tag_at(&mut r)?;
    let offsets = BlockOffsets {
        mcin,
        mtex,
        mddf,
        modf,
        first_mcnk: 0,
    };
    let mut t = tile::read_block(bytes, offsets, coord, names)?;
    t.flags = flags;
    Ok(t)
}

/// Encodes a map as a 0.5.5 WDT without tile blocks (MAIN flags every tile as external) and
/// one prototype ADT per loaded tile, in MAIN order.
pub fn write_map(map: &Map) -> (Vec<u8>, Vec<(TileCoord, Vec<u8>)>) {
    let tiles = tiles_in_main_order(map);
    let (names, global_wmo_index) = save_names(map, &tiles);
    let wdt = write_container(map, &tiles, &names, global_wmo_index, false);
    let adts = tiles
        .iter()
        .map(|t| (t.coord, write_adt(t, &names)))
        .collect();
    (wdt, adts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chunk::Chunk;
    use crate::model::placement::DoodadPlacement;
    use proptest::prelude::*;

    fn sample_tile() -> Tile {
        let coord = TileCoord::new(3, 5).unwrap();
        Tile {
            coord,
            flags: 0,
            textures: vec!["a.blp".into()],
            texture_flags: None,
            doodad_names: vec!["tree.mdx".into()],
            wmo_names: vec![],
            doodads: vec![DoodadPlacement {
                name_index: 0,
                unique_id: 9,
                // A position f32 records hold exactly.
                position: crate::model::coords::placement_to_world([17000.5, 3.0, 16000.25]),
                rotation: [0.0, 90.0, 0.0],
                scale: 1024,
                flags: 0,
            }],
            wmos: vec![],
            chunks: (0..256).map(|i| Chunk::flat(i as f32)).collect(),
            flight_bounds: None,
            unknown_chunks: vec![],
            quirks: Default::default(),
        }
    }

    /// Map "P" with [`sample_tile`] at (3, 5).
    fn sample_map() -> Map {
        let mut map = Map::new("P");
        map.tiles
            .insert(TileCoord::new(3, 5).unwrap(), sample_tile());
        map
    }

    #[test]
    fn layout_has_padding_and_fixed_mcnk_offsets() {
        let (_, adts) = write_map(&sample_map());
        let bytes = &adts[0].1;
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!(&bytes[..4], b"RDHM", "no MVER");
        assert_eq!(
            word(8 + 4),
            64,
            "MCIN offset points at the padding after MHDR"
        );
        assert_eq!(&bytes[8 + 64..8 + 72], &[0; 8]);
        assert_eq!(&bytes[8 + 72..8 + 76], b"NICM");
        for field in [8, 16, 24] {
            let pad = 8 + word(8 + field) as usize;
            assert_eq!(&bytes[pad..pad + 8], &[0; 8]);
        }
        let mcnk = word(8 + 72 + 8) as usize;
        assert_eq!(&bytes[mcnk..mcnk + 4], b"KNCM");
        let payload = mcnk + 8;
        assert_eq!(word(payload + 0x18), 8, "MCVT at payload +136");
        assert_eq!(word(payload + 0x1C), 8 + 580, "MCNR at payload +716");
        assert_eq!(
            &bytes[payload + 1164..payload + 1168],
            b"YLCM",
            "MCLY at +1164"
        );
    }

    #[test]
    fn tiles_round_trip_through_prototype_adts() {
        let (wdt, adts) = write_map(&sample_map());
        let mut back = crate::format::alpha::read_wdt(&wdt, "P").unwrap();
        assert!(back.tiles.is_empty());
        assert_eq!(back.present_tiles(), vec![TileCoord::new(3, 5).unwrap()]);
        let mut names = back.map_wide_names.take().unwrap();
        let tile = read_adt(&adts[0].1, adts[0].0, &mut names).unwrap();
        assert_eq!(tile.doodad_names, ["tree.mdx"]);
        assert_eq!(tile.doodads, sample_tile().doodads);
        assert_eq!(tile.chunks[7].heights, sample_tile().chunks[7].heights);
        back.map_wide_names = Some(names);
        back.tiles.insert(tile.coord, tile);
        let (wdt2, adts2) = write_map(&back);
        assert_eq!(wdt2, wdt);
        assert_eq!(adts2, adts);
    }

    proptest! {
        #[test]
        fn decoder_never_panics_on_random_bytes(
            mut bytes in proptest::collection::vec(any::<u8>(), 0..2048),
            mhdr_first in any::<bool>(),
        ) {
            if mhdr_first && bytes.len() >= 8 {
                bytes[..4].copy_from_slice(b"RDHM");
                let size = (bytes.len() as u32 - 8).min(64);
                bytes[4..8].copy_from_slice(&size.to_le_bytes());
            }
            let mut names = MapWideNames::default();
            let _ = read_adt(&bytes, TileCoord::new(0, 0).unwrap(), &mut names);
        }
    }
}
