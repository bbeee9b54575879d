//! Adding tiles beside old terrain: a new tile takes its old neighbours' border heights, so
//! that adding a tile never opens a seam.
//!
//! Not for: what a blank tile holds (`model::blank`, `convert::blank`), writing files
//! (`doc::new_map`).

use std::collections::BTreeSet;

use crate::model::Map;
use crate::model::coords::TileCoord;

use crate::edit::lattice::exact;
use crate::edit::lattice::{STEPS_PER_CHUNK, Vertex};

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
        crate::edit::lattice::normals::recompute_tile(map, coord);
    }
    met
}

/// The heights half of [`meet_neighbours`] for one new tile. The old tiles are not written
/// again, so their heights are the ones to meet exactly: a new chunk whose base cannot store a
/// met height so that it reads back the same float (`exact`) is given base 0, which stores
/// any height exactly. (`exact::settle` would move the height of every copy, the old tiles'
/// too, to a float both bases store, and the old files would keep the old one.)
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
    let mut unstorable: BTreeSet<(TileCoord, usize)> = BTreeSet::new();
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
            let chunk = &mut tile.chunks[c.chunk];
            chunk.heights[c.index] = h;
            if exact::storable(h, &[chunk.base_height]) != Some(h) {
                unstorable.insert((coord, c.chunk));
            }
        }
        met += 1;
    }
    exact::rebase(map, unstorable);
    met
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::blank::{BlankTile, new_header};

    fn blank() -> BlankTile {
        BlankTile {
            texture: "T".into(),
            height: 12.5,
            area_id: 0,
            empty_liquid_chunk: false,
        }
    }

    #[test]
    fn a_new_tile_meets_its_neighbours_heights_on_every_shared_vertex() {
        let a = TileCoord::new(30, 30).unwrap();
        let mut map = new_header("X", 0, &[a]);
        let mut old = blank().tile(a);
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
            map.tiles.insert(c, blank().tile(c));
        }
        // The east edge of the old tile (129 vertices) and its south-east corner.
        assert_eq!(meet_neighbours(&mut map, &added.into_iter().collect()), 130);
        let seams = crate::edit::terrain::seams::find(&map);
        assert!(
            seams.is_empty(),
            "{} seams, first {:?}",
            seams.len(),
            seams.first()
        );
        // The far side of the new tile kept the blank height.
        assert_eq!(map.tiles[&added[0]].chunks[15].heights[8], 12.5);
    }

    #[test]
    fn a_new_tile_stores_its_old_neighbours_heights_so_they_read_back_alike() {
        let a = TileCoord::new(30, 30).unwrap();
        let mut map = new_header("X", 0, &[a]);
        let mut old = blank().tile(a);
        // Heights below a yard with every bit of the float in use, far from the new tile's
        // base (12.5): stored relative to 12.5 most of them would not read back as the same
        // float.
        for (k, chunk) in old.chunks.iter_mut().enumerate() {
            chunk.base_height = 0.0;
            for (i, h) in chunk.heights.iter_mut().enumerate() {
                let v = Vertex::of(a, k, i);
                *h = 0.1 + (v.gx % 61) as f32 * 0.013_7 + (v.gy % 53) as f32 * 0.007_1;
            }
        }
        map.tiles.insert(a, old);
        let b = TileCoord::new(31, 30).unwrap();
        map.tiles.insert(b, blank().tile(b));
        meet_neighbours(&mut map, &[b].into_iter().collect());
        let mut rebased = 0;
        for (k, chunk) in map.tiles[&b].chunks.iter().enumerate() {
            for (i, &h) in chunk.heights.iter().enumerate() {
                let v = Vertex::of(b, k, i);
                let Some(c) = v.copies().find(|c| c.tile == a) else {
                    continue;
                };
                let was = map.tiles[&a].chunks[c.chunk].heights[c.index];
                let stored = chunk.base_height + (h - chunk.base_height);
                assert_eq!(stored.to_bits(), was.to_bits(), "{v:?} reads back alike");
            }
            rebased += usize::from(chunk.base_height == 0.0);
        }
        assert!(rebased > 0, "some border chunk could not keep base 12.5");
        assert!(
            rebased <= 16,
            "only the west column of chunks meets the old tile"
        );
    }
}
