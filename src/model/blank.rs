//! Tiles made rather than read: a blank tile (flat, one texture, nothing placed), the
//! rectangle of tiles a new map or an addition covers, and which tiles a WDT lists.
//!
//! What a blank tile of each generation holds, and why, is `convert::blank`'s business; this
//! is the plain data. Not for: writing files (`doc::new_map`), meeting old neighbours'
//! heights (`edit::copy::new_map`).

use super::chunk::ShadowMap;
use super::coords::{TILES_PER_SIDE, TileCoord};
use super::map::{GlobalWmo, MAP_FLAG_GLOBAL_WMO, Map, TILE_PRESENT};
use super::tile::Tile;

/// What every tile of a new map (or every tile added to a map) is made of.
#[derive(Debug, Clone, PartialEq)]
pub struct BlankTile {
    /// The one texture on every chunk.
    pub texture: String,
    /// The height of every vertex, in yards.
    pub height: f32,
    /// The area id of every chunk.
    pub area_id: u32,
    /// True when each chunk carries an empty MCLQ sub-chunk (1.12's files do).
    pub empty_liquid_chunk: bool,
}

impl BlankTile {
    /// The tile at `coord`: every vertex at the height, normals straight up, one layer of the
    /// texture, a shadow map of zeros, no holes, nothing placed.
    pub fn tile(&self, coord: TileCoord) -> Tile {
        let mut tile = Tile::flat(coord, &self.texture, self.height);
        for chunk in &mut tile.chunks {
            chunk.shadow = Some(ShadowMap {
                rows: Box::new([0; 64]),
            });
            chunk.area_id = self.area_id;
            chunk.quirks.empty_liquid_chunk = self.empty_liquid_chunk;
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

/// The WDT of a new terrain map named `name` with MPHD flags `flags`, listing `tiles` (no
/// tiles loaded).
pub fn new_header(name: &str, flags: u32, tiles: &[TileCoord]) -> Map {
    let mut map = Map::new(name);
    map.flags = flags;
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut map = new_header("X", 0, &[c]);
        assert_eq!(listed_tiles(&map), [c]);
        map.tile_flags[c.index()] |= 0x2;
        list_tiles(&mut map, &[c], false);
        assert_eq!(map.tile_flags[c.index()], 0x2);
        assert!(listed_tiles(&map).is_empty());
    }
}
