//! New maps and new tiles, built the way Blizzard's own files build an untouched tile, so that
//! the client opens what `loam new` writes.
//!
//! Where each choice comes from (the corpus is `../shared/corpus`, see its README):
//!
//! - **Every generation**: heights all `H`, normals straight up (0, 0, 127), one texture layer
//!   (layer 0 never has an alpha map), no holes, `predTex` and `noEffectDoodad` all zero, no
//!   doodad or WMO references, no sound emitters: what every chunk of Blizzard's one-texture
//!   tile `blizzardry/Azeroth_38_46.adt` holds.
//! - **A shadow map of zeros and MCNK flag 0x1**: all 256 chunks of `Azeroth_38_46.adt` and of
//!   the 3.3.5 tile `wowserhq-format/map/continent4229.adt` carry a 512-byte MCSH (all zero in
//!   the former) with flag 0x1 set.
//! - **MCLY effect id 0**: the ground-effect id names doodads planted on a texture
//!   (`GroundEffectTexture.dbc`); Blizzard's 453 belongs to the Burning Steppes ash texture,
//!   not to whatever texture a new map gets, so a new layer plants none.
//! - **1.12**: an empty MCLQ sub-chunk with MCNK `sizeLiquid` 8, as in every chunk of
//!   `Azeroth_38_46.adt`. **3.3.5**: no MCLQ (offset and size 0) and no MH2O, as in
//!   `continent4229.adt`, whose chunks without liquid have neither.
//! - **WDT flags**: 1.12, 0.6.0 and 0.5.x get MPHD flags 0, as Blizzard's `Azeroth.wdt`. 3.3.5
//!   gets 0x4 (8-bit alpha maps): the 3.3.5 tile `warcraft-net/ADT/Northrend_37_25.adt` stores
//!   RLE-compressed alpha maps, a form that exists only under that flag, so the client of 3.3.5
//!   writes new continents that way; it is also what makes painted blends smooth. MAIN flag 0x1
//!   for each tile, an empty MWMO (`Azeroth.wdt` has one).
//! - **0.6.0 and 0.5.x**: no Blizzard tile of these generations is known to survive; the
//!   choices above are kept where the layout allows (MCSH is optional there too), and no MCLQ.
//! - **Area id**: 0 unless asked; the map's own AreaTable row is the client tables' business.
//!
//! Not for: the tile itself (`model::blank`), meeting old neighbours' heights
//! (`edit::copy::new_map`), writing the files (`doc::new_map`), the client's tables.

use crate::format::Generation;
use crate::model::blank::BlankTile;
use crate::model::map::MAP_FLAG_BIG_ALPHA;

/// The base texture of a new map when none is named: the base grass of Blizzard's 3.3.5 tile
/// Azeroth_42_29 (`wowserhq-format/map/continent4229.adt`), so a texture 1.12 and 3.3.5
/// clients hold. 0.5.x and 0.6.0 clients are not proven to have it: `loam new --client`
/// checks.
pub const DEFAULT_TEXTURE: &str = "Tileset\\Wetlands\\WetlandsGrassDark01.blp";

/// The blank tile of `generation`: `texture` at `height`, area `area_id`, chunk by chunk as
/// the module's doc says.
pub fn blank_tile(generation: Generation, texture: &str, height: f32, area_id: u32) -> BlankTile {
    BlankTile {
        texture: texture.to_string(),
        height,
        area_id,
        empty_liquid_chunk: generation == Generation::V112,
    }
}

/// The MPHD flags a new terrain map of `generation` gets (see the module's doc).
pub fn new_map_flags(generation: Generation) -> u32 {
    match generation {
        Generation::V335 => MAP_FLAG_BIG_ALPHA,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::v18;
    use crate::model::TileCoord;

    fn blank(generation: Generation) -> BlankTile {
        blank_tile(generation, DEFAULT_TEXTURE, 12.5, 0)
    }

    /// The MCNK header words (flags, sizeShadow, ofsLiquid, sizeLiquid) and sub-chunk tags of
    /// chunk `i` of an encoded v18 tile, read by hand from the bytes.
    fn chunk_layout(bytes: &[u8], i: usize) -> (u32, u32, u32, u32, Vec<String>) {
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        // MCIN (after MVER 12 bytes and MHDR 72 bytes) holds each MCNK's absolute offset.
        let at = word(12 + 72 + 8 + 16 * i) as usize;
        assert_eq!(&bytes[at..at + 4], b"KNCM");
        let size = word(at + 4) as usize;
        let h = at + 8;
        let mut tags = Vec::new();
        let mut p = h + 128;
        while p < h + size {
            let tag: String = bytes[p..p + 4].iter().rev().map(|&b| b as char).collect();
            let len = word(p + 4) as usize;
            p += 8 + len + if tag == "MCNR" { 13 } else { 0 };
            tags.push(tag);
        }
        (
            word(h),
            word(h + 0x30),
            word(h + 0x60),
            word(h + 0x64),
            tags,
        )
    }

    #[test]
    fn a_blank_112_chunk_is_laid_out_as_blizzards_one_texture_tile() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpus/blizzardry/Azeroth_38_46.adt");
        let theirs = std::fs::read(&corpus).unwrap_or_else(|e| {
            panic!(
                "the corpus is missing: looked for {} ({e})",
                corpus.display()
            )
        });
        let ours = v18::write_adt(
            &blank(Generation::V112).tile(TileCoord::new(38, 46).unwrap()),
            v18::AlphaTarget { big: false },
        );
        for i in [0, 17, 255] {
            assert_eq!(
                chunk_layout(&ours, i),
                chunk_layout(&theirs, i),
                "chunk {i}"
            );
        }
    }

    #[test]
    fn a_blank_335_chunk_has_no_liquid_and_a_shadow_map() {
        let ours = v18::write_adt(
            &blank(Generation::V335).tile(TileCoord::new(1, 2).unwrap()),
            v18::AlphaTarget { big: true },
        );
        let (flags, size_shadow, ofs_liquid, size_liquid, tags) = chunk_layout(&ours, 5);
        assert_eq!(flags & 0x1, 0x1);
        assert_eq!((size_shadow, ofs_liquid, size_liquid), (512, 0, 0));
        assert_eq!(
            tags,
            ["MCVT", "MCNR", "MCLY", "MCRF", "MCSH", "MCAL", "MCSE"]
        );
    }
}
