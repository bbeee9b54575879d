//! A texture's weight per vertex, for tools that think in vertices (Lua brushes): each of a
//! chunk's 64×64 alpha texels belongs to the vertex nearest its centre (outer or inner), so a
//! vertex owns a small diamond of texels in every chunk that stores a copy of it. Reading takes
//! the texel of that diamond nearest the vertex; writing sets every texel of the diamond, in
//! every loaded copy's chunk, through the paint rules (`paint::weigh_chunk`: layer weights add
//! up to 255, at most four layers, a chunk with none free refused).
//!
//! Not for: painting under a brush's falloff (`paint`).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::paint::{PaintMode, texel_weight, weigh_chunk};
use crate::edit::lattice::Vertex;
use crate::edit::stroke::Stroke;
use crate::model::alpha::ALPHA_SIDE;
use crate::model::{Map, TileCoord, coords};

/// Alpha texels per lattice step (8 steps per chunk, 64 texels).
const TEXELS_PER_STEP: usize = ALPHA_SIDE / 8;

/// For each texel of a chunk (row by row), the MCVT index (0..145) of the vertex nearest its
/// centre; a tie between a corner and the quad's centre goes to the corner.
fn owners() -> &'static [u8; ALPHA_SIDE * ALPHA_SIDE] {
    static OWNERS: OnceLock<[u8; ALPHA_SIDE * ALPHA_SIDE]> = OnceLock::new();
    OWNERS.get_or_init(|| {
        let mut out = [0u8; ALPHA_SIDE * ALPHA_SIDE];
        for row in 0..ALPHA_SIDE {
            for col in 0..ALPHA_SIDE {
                // The texel's centre in lattice steps from the chunk's corner.
                let s = (row as f64 + 0.5) / TEXELS_PER_STEP as f64;
                let e = (col as f64 + 0.5) / TEXELS_PER_STEP as f64;
                let (qr, qc) = (s.floor().min(7.0), e.floor().min(7.0));
                let (cr, cc) = (s.round(), e.round());
                let corner = (s - cr).hypot(e - cc);
                let centre = (s - qr - 0.5).hypot(e - qc - 0.5);
                out[row * ALPHA_SIDE + col] = if centre < corner {
                    coords::inner_vertex(qr as usize, qc as usize) as u8
                } else {
                    coords::outer_vertex(cr as usize, cc as usize) as u8
                };
            }
        }
        out
    })
}

/// The texel of a chunk nearest MCVT vertex `index` (row, column), inside the chunk.
fn texel_of(index: usize) -> (usize, usize) {
    let (row, rem) = (index / 17, index % 17);
    let last = ALPHA_SIDE - 1;
    if rem < 9 {
        let at = |q: usize| (q * TEXELS_PER_STEP).min(last);
        (at(row), at(rem))
    } else {
        let at = |q: usize| q * TEXELS_PER_STEP + TEXELS_PER_STEP / 2;
        (at(row), at(rem - 9))
    }
}

/// The weight (0..=1) `texture` has at vertex `v`: the texel nearest it in the first loaded
/// chunk that stores it; `None` when no loaded chunk does.
pub fn weight_at_vertex(map: &Map, v: Vertex, texture: &str) -> Option<f32> {
    v.copies().find_map(|c| {
        let t = map.tiles.get(&c.tile)?;
        let (row, col) = texel_of(c.index);
        let w = texel_weight(t, &t.chunks[c.chunk], texture, row * ALPHA_SIDE + col);
        Some(w as f32 / 255.0)
    })
}

/// Sets `texture`'s weight to each target (0..=1) in the texels each vertex owns, in every
/// loaded chunk that stores it: raised by painting, lowered by erasing (a chunk's base
/// texture cannot be lowered this way: it takes what the other layers leave). Returns the
/// chunks changed; chunks with four layers and none free are listed in `stroke.refused`.
pub fn set_vertex_weights(
    map: &mut Map,
    texture: &str,
    targets: &[(Vertex, f32)],
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    // Per chunk, the target (0..=255) of each texel a written vertex owns.
    let mut per_chunk: BTreeMap<(TileCoord, usize), Vec<Option<f32>>> = BTreeMap::new();
    let owners = owners();
    for &(v, target) in targets {
        let target = target.clamp(0.0, 1.0) * 255.0;
        for c in v.copies() {
            if !map.tiles.contains_key(&c.tile) {
                continue;
            }
            let cells = per_chunk
                .entry((c.tile, c.chunk))
                .or_insert_with(|| vec![None; ALPHA_SIDE * ALPHA_SIDE]);
            for (cell, &owner) in cells.iter_mut().zip(owners.iter()) {
                if usize::from(owner) == c.index {
                    *cell = Some(target);
                }
            }
        }
    }
    let mut changed = Vec::new();
    for ((tile, chunk), cells) in per_chunk {
        let (mut up, mut down) = (vec![0f32; cells.len()], vec![0f32; cells.len()]);
        let (mut any_up, mut any_down) = (false, false);
        {
            let t = &map.tiles[&tile];
            let c = &t.chunks[chunk];
            for (i, target) in cells.iter().enumerate() {
                let Some(target) = *target else { continue };
                let old = texel_weight(t, c, texture, i) as f32;
                // Paint raises by p of what is missing; erase keeps (1 − w) of what is there.
                if target > old + 0.5 {
                    up[i] = ((target - old) / (255.0 - old)).clamp(0.0, 1.0);
                    any_up = true;
                } else if target < old - 0.5 {
                    down[i] = (1.0 - target / old).clamp(0.0, 1.0);
                    any_down = true;
                }
            }
        }
        let mut did = false;
        if any_up {
            did |= weigh_chunk(map, (tile, chunk), &up, texture, PaintMode::Paint, stroke);
        }
        if any_down {
            did |= weigh_chunk(map, (tile, chunk), &down, texture, PaintMode::Erase, stroke);
        }
        if did {
            changed.push((tile, chunk));
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Tile;

    #[test]
    fn every_vertex_owns_the_texels_around_it_and_its_nearest_texel() {
        let owners = owners();
        for index in 0..145 {
            let (row, col) = texel_of(index);
            assert_eq!(
                usize::from(owners[row * ALPHA_SIDE + col]),
                index,
                "vertex {index}"
            );
        }
        // An inner vertex owns a diamond of texels; an outer corner a quarter of one.
        let count = |i: usize| owners.iter().filter(|&&o| usize::from(o) == i).count();
        assert!(count(coords::inner_vertex(3, 3)) > count(coords::outer_vertex(0, 0)));
        assert_eq!((0..145).map(count).sum::<usize>(), ALPHA_SIDE * ALPHA_SIDE);
    }

    #[test]
    fn a_weight_set_reads_back_and_a_shared_vertex_is_set_in_every_copy() {
        let coord = TileCoord::new(31, 31).unwrap();
        let mut map = Map::new("A");
        map.tiles.insert(coord, Tile::flat(coord, "base.blp", 0.0));
        // A chunk corner inside the tile: four chunks store it.
        let v = Vertex {
            gx: 31 * 128 + 8,
            gy: 31 * 128 + 8,
            inner: false,
        };
        let mut stroke = Stroke::new("t");
        let changed = set_vertex_weights(&mut map, "rock.blp", &[(v, 0.5)], &mut stroke);
        assert_eq!(changed.len(), 4, "{changed:?}");
        let w = weight_at_vertex(&map, v, "rock.blp").unwrap();
        assert!((w - 0.5).abs() < 1.0 / 255.0, "{w}");
        let base = weight_at_vertex(&map, v, "base.blp").unwrap();
        assert!((base + w - 1.0).abs() < 1.5 / 255.0, "{base}");
        // Back down to nothing by erasing.
        set_vertex_weights(&mut map, "rock.blp", &[(v, 0.0)], &mut stroke);
        assert_eq!(weight_at_vertex(&map, v, "rock.blp"), Some(0.0));
    }
}
