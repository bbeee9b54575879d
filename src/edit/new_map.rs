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
//! A new tile beside existing terrain takes its neighbours' border heights, so that adding a
//! tile never opens a seam.
//!
//! Not for: writing the files (`pipeline::create`), the client's tables.

use std::collections::BTreeSet;

use crate::format::Generation;
use crate::model::chunk::ShadowMap;
use crate::model::coords::{TILES_PER_SIDE, TileCoord};
use crate::model::map::{GlobalWmo, MAP_FLAG_BIG_ALPHA, MAP_FLAG_GLOBAL_WMO, TILE_PRESENT};
use crate::model::{Map, Tile};

use super::lattice::{STEPS_PER_CHUNK, Vertex};

/// The base texture of a new map when none is named: the base grass of Blizzard's 3.3.5 tile
/// Azeroth_42_29 (`wowserhq-format/map/continent4229.adt`), so a texture 1.12 and 3.3.5
/// clients hold. 0.5.x and 0.6.0 clients are not proven to have it: `loam new --client`
/// checks.
pub const DEFAULT_TEXTURE: &str = "Tileset\\Wetlands\\WetlandsGrassDark01.blp";

/// What every tile of a new map (or every tile added to a map) is made of.
#[derive(Debug, Clone, PartialEq)]
pub struct BlankTile {
    /// The generation the tile is written as (decides the MCLQ stub).
    pub generation: Generation,
    /// The one texture on every chunk.
    pub texture: String,
    /// The height of every vertex, in yards.
    pub height: f32,
    /// The area id of every chunk.
    pub area_id: u32,
}

impl BlankTile {
    /// The tile at `coord`, chunk by chunk as the module's doc says.
    pub fn tile(&self, coord: TileCoord) -> Tile {
        let mut tile = Tile::flat(coord, &self.texture, self.height);
        for chunk in &mut tile.chunks {
            chunk.shadow = Some(ShadowMap {
                rows: Box::new([0; 64]),
            });
            chunk.area_id = self.area_id;
            chunk.quirks.empty_liquid_chunk = self.generation == Generation::V112;
        }
        tile
    }
}

/// A rectangle of tiles, corners included: `--tiles X0 Y0 X1 Y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileRect {
    /// The first corner.
    pub from: TileCoord,
    /// The opposite corner (any order).
    pub to: TileCoord,
}

impl TileRect {
    /// The rectangle between two corners given as numbers; `None` when a number is off the
    /// 64×64 grid.
    pub fn new(x0: usize, y0: usize, x1: usize, y1: usize) -> Option<TileRect> {
        Some(TileRect {
            from: TileCoord::new(x0, y0)?,
            to: TileCoord::new(x1, y1)?,
        })
    }

    /// Every tile in the rectangle, row by row (MAIN's order).
    pub fn coords(&self) -> Vec<TileCoord> {
        let (x0, x1) = (self.from.x.min(self.to.x), self.from.x.max(self.to.x));
        let (y0, y1) = (self.from.y.min(self.to.y), self.from.y.max(self.to.y));
        (y0..=y1)
            .flat_map(|y| (x0..=x1).map(move |x| TileCoord { x, y }))
            .collect()
    }
}

/// The MPHD flags a new terrain map of `generation` gets (see the module's doc).
pub fn new_map_flags(generation: Generation) -> u32 {
    match generation {
        Generation::V335 => MAP_FLAG_BIG_ALPHA,
        _ => 0,
    }
}

/// The WDT of a new terrain map named `name` listing `tiles` (no tiles loaded).
pub fn new_header(name: &str, generation: Generation, tiles: &[TileCoord]) -> Map {
    let mut map = Map::new(name);
    map.flags = new_map_flags(generation);
    list_tiles(&mut map, tiles, true);
    map
}

/// The WDT of a new WMO-only map: MPHD flag 0x1, the WMO in MWMO and MODF, no tiles.
pub fn new_wmo_only_header(name: &str, wmo: GlobalWmo) -> Map {
    let mut map = Map::new(name);
    map.flags = MAP_FLAG_GLOBAL_WMO;
    map.global_wmo = Some(wmo);
    map.empty_wmo_names_chunk = false;
    map
}

/// Marks `tiles` present (or absent) in the map's MAIN, leaving each tile's other MAIN bits
/// as they were.
pub fn list_tiles(map: &mut Map, tiles: &[TileCoord], present: bool) {
    for c in tiles {
        let f = &mut map.tile_flags[c.index()];
        if present {
            *f |= TILE_PRESENT;
        } else {
            *f &= !TILE_PRESENT;
        }
    }
}

/// The tiles MAIN lists, row by row.
pub fn listed_tiles(map: &Map) -> Vec<TileCoord> {
    (0..TILES_PER_SIDE * TILES_PER_SIDE)
        .filter(|&i| map.tile_flags[i] & TILE_PRESENT != 0)
        .filter_map(|i| TileCoord::new(i % TILES_PER_SIDE, i / TILES_PER_SIDE))
        .collect()
}

/// The eight tiles around `coord` that are on the grid.
pub fn neighbours(coord: TileCoord) -> Vec<TileCoord> {
    let mut out = Vec::new();
    for dy in -1i32..=1 {
        for dx in -1i32..=1 {
            let (x, y) = (coord.x as i32 + dx, coord.y as i32 + dy);
            if (dx, dy) != (0, 0) && x >= 0 && y >= 0 {
                out.extend(TileCoord::new(x as usize, y as usize));
            }
        }
    }
    out
}

/// Gives the new tiles `new` of `map` their old neighbours' heights on the borders they share
/// (every copy of each shared vertex in a new tile; where a vertex has copies in several old
/// tiles, the first loaded one), then recomputes the new tiles' normals. Old tiles are not
/// changed, and a border between two new tiles stays as it is, so the order of `new` does not
/// matter. Returns how many border vertices took an old neighbour's height.
pub fn meet_neighbours(map: &mut Map, new: &BTreeSet<TileCoord>) -> usize {
    let mut met = 0;
    for &coord in new {
        met += meet_old_neighbours(map, coord, new);
    }
    for &coord in new {
        super::normals::recompute_tile(map, coord);
    }
    met
}

/// The heights half of [`meet_neighbours`] for one new tile.
fn meet_old_neighbours(map: &mut Map, coord: TileCoord, new: &BTreeSet<TileCoord>) -> usize {
    let span = STEPS_PER_CHUNK * 16;
    let (x0, y0) = (coord.x as i32 * span, coord.y as i32 * span);
    let border: BTreeSet<(i32, i32)> = (0..=span)
        .flat_map(|i| {
            [
                (x0 + i, y0),
                (x0 + i, y0 + span),
                (x0, y0 + i),
                (x0 + span, y0 + i),
            ]
        })
        .collect();
    let mut met = 0;
    for (gx, gy) in border {
        let v = Vertex {
            gx,
            gy,
            inner: false,
        };
        let old = v
            .copies()
            .filter(|c| !new.contains(&c.tile))
            .find_map(|c| Some(map.tiles.get(&c.tile)?.chunks[c.chunk].heights[c.index]));
        let (Some(h), Some(tile)) = (old, map.tiles.get_mut(&coord)) else {
            continue;
        };
        for c in v.copies().filter(|c| c.tile == coord) {
            tile.chunks[c.chunk].heights[c.index] = h;
        }
        met += 1;
    }
    met
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::v18;

    fn blank(generation: Generation) -> BlankTile {
        BlankTile {
            generation,
            texture: DEFAULT_TEXTURE.to_string(),
            height: 12.5,
            area_id: 0,
        }
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
        let theirs = std::fs::read(corpus).unwrap();
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

    #[test]
    fn a_rectangle_lists_its_tiles_row_by_row_whatever_the_corner_order() {
        let r = TileRect::new(31, 33, 30, 32).unwrap();
        let xy: Vec<(u8, u8)> = r.coords().iter().map(|c| (c.x, c.y)).collect();
        assert_eq!(xy, [(30, 32), (31, 32), (30, 33), (31, 33)]);
        assert!(TileRect::new(64, 0, 0, 0).is_none());
    }

    #[test]
    fn listing_and_unlisting_tiles_keeps_their_other_main_bits() {
        let c = TileCoord::new(3, 4).unwrap();
        let mut map = new_header("X", Generation::V335, &[c]);
        assert_eq!(listed_tiles(&map), [c]);
        map.tile_flags[c.index()] |= 0x2;
        list_tiles(&mut map, &[c], false);
        assert_eq!(map.tile_flags[c.index()], 0x2);
        assert!(listed_tiles(&map).is_empty());
    }

    #[test]
    fn a_new_tile_meets_its_neighbours_heights_on_every_shared_vertex() {
        let a = TileCoord::new(30, 30).unwrap();
        let mut map = new_header("X", Generation::V335, &[a]);
        let mut old = blank(Generation::V335).tile(a);
        // A seamless slope on the old tile, so that every border vertex has its own height.
        for (k, chunk) in old.chunks.iter_mut().enumerate() {
            for (i, h) in chunk.heights.iter_mut().enumerate() {
                let v = Vertex::of(a, k, i);
                *h = (v.gx % 97) as f32 * 0.5 + (v.gy % 89) as f32 * 0.25;
            }
        }
        map.tiles.insert(a, old);
        let added = [
            TileCoord::new(31, 30).unwrap(),
            TileCoord::new(31, 31).unwrap(),
        ];
        for c in added {
            map.tiles.insert(c, blank(Generation::V335).tile(c));
        }
        // The east edge of the old tile (129 vertices) and its south-east corner.
        assert_eq!(meet_neighbours(&mut map, &added.into_iter().collect()), 130);
        let seams = crate::edit::seams::find(&map);
        assert!(
            seams.is_empty(),
            "{} seams, first {:?}",
            seams.len(),
            seams.first()
        );
        // The far side of the new tile kept the blank height.
        assert_eq!(map.tiles[&added[0]].chunks[15].heights[8], 12.5);
    }
}
