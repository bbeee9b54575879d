//! The liquid brush: what a dab does to the quads under it (adding and removing liquid,
//! setting its surface height flat or along a slope for rivers, painting the deep and fishable
//! flags), and the liquid tools' picker.
//!
//! Not for: keeping the layers consistent after the edit (the liquid `layers`, which paste
//! shares) or bytes (the MCLQ and MH2O codecs in `format`).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::layers::{
    LiquidStyle, add, corner_of_any, remove, set_flags, wet_quads, write_surface_heights,
};
use crate::edit::lattice::{self, STEPS_PER_CHUNK, Vertex, chunks_near};
use crate::edit::stroke::Stroke;
use crate::edit::terrain::brush::Brush;
use crate::model::coords;
use crate::model::liquid::{LIQUID_QUADS, classic_kind, liquid_type};
use crate::model::{Map, TileCoord};

/// The four classic liquids, by name (`loam apply`'s `kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum LiquidKind {
    /// Rivers and lakes.
    #[default]
    Water,
    /// The sea.
    Ocean,
    /// Lava.
    Magma,
    /// Slime.
    Slime,
}

impl LiquidKind {
    /// Every kind, in MCLQ's flag order.
    pub const ALL: [LiquidKind; 4] = [
        LiquidKind::Water,
        LiquidKind::Ocean,
        LiquidKind::Magma,
        LiquidKind::Slime,
    ];

    /// Its LiquidType.dbc id (the plain row of each kind).
    pub fn liquid_type(self) -> u16 {
        match self {
            LiquidKind::Water => liquid_type::WATER,
            LiquidKind::Ocean => liquid_type::OCEAN,
            LiquidKind::Magma => liquid_type::MAGMA,
            LiquidKind::Slime => liquid_type::SLIME,
        }
    }

    /// The classic kind a LiquidType id belongs to.
    pub fn of_type(t: u16) -> LiquidKind {
        match classic_kind(t) {
            liquid_type::OCEAN => LiquidKind::Ocean,
            liquid_type::MAGMA => LiquidKind::Magma,
            liquid_type::SLIME => LiquidKind::Slime,
            _ => LiquidKind::Water,
        }
    }

    /// The name shown in the editor.
    pub fn name(self) -> &'static str {
        match self {
            LiquidKind::Water => "Water",
            LiquidKind::Ocean => "Ocean",
            LiquidKind::Magma => "Magma",
            LiquidKind::Slime => "Slime",
        }
    }
}

/// The height a liquid surface takes at each vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Surface {
    /// One height everywhere.
    Flat(f32),
    /// Falling (or rising) linearly from world `from` (x, y, height) to `to`: along the line
    /// between them the height is interpolated, and beyond either end it stays at that end's.
    Slope {
        /// Start: world x, y and surface height.
        from: [f64; 3],
        /// End: world x, y and surface height.
        to: [f64; 3],
    },
}

impl Surface {
    /// The surface height at world (`x`, `y`).
    pub fn height_at(&self, x: f64, y: f64) -> f32 {
        match *self {
            Surface::Flat(h) => h,
            Surface::Slope { from, to } => {
                crate::edit::terrain::ramp_line::ramp_height(from, to, x, y)
            }
        }
    }
}

/// What a liquid dab does to the quads under it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LiquidEdit {
    /// Put liquid of LiquidType `liquid_type` on the quads (replacing another liquid there) at
    /// the surface's height.
    Add {
        /// LiquidType.dbc id; MCLQ styles fold it to its classic kind.
        liquid_type: u16,
        /// The surface height.
        surface: Surface,
    },
    /// Take the liquid off the quads.
    Remove,
    /// Move the surface of the liquid already on the quads.
    Height(Surface),
    /// Set (`Some(true)`) or clear the deep (fatigue) and fishable flags of the liquid on the
    /// quads; `None` leaves a flag alone. MCLQ has no fishable flag: there only `deep` applies.
    Flags {
        /// Deep (fatigue) water.
        deep: Option<bool>,
        /// Fishing works.
        fishable: Option<bool>,
    },
}

impl LiquidEdit {
    /// The name shown in the history.
    pub fn name(&self) -> &'static str {
        match self {
            LiquidEdit::Add { .. } => "Add liquid",
            LiquidEdit::Remove => "Remove liquid",
            LiquidEdit::Height(_) => "Liquid height",
            LiquidEdit::Flags { .. } => "Liquid flags",
        }
    }
}

/// Applies `edit` to the quads a dab at world (`x`, `y`) reaches (those whose centre the brush
/// covers, or the quad under the centre for a brush smaller than a quad). Returns the chunks
/// changed.
pub fn dab(
    map: &mut Map,
    brush: &Brush,
    edit: LiquidEdit,
    style: LiquidStyle,
    x: f64,
    y: f64,
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    let ([cx, cy], radius, inner) = brush.on_lattice(x, y);
    let mut selected: Vec<(TileCoord, usize, u64, i32, i32)> = Vec::new();
    for (tile, chunk, ccol, crow) in chunks_near(map, cx, cy, radius) {
        let (ox, oy) = (ccol * STEPS_PER_CHUNK, crow * STEPS_PER_CHUNK);
        let mut mask = 0u64;
        for r in 0..LIQUID_QUADS {
            for k in 0..LIQUID_QUADS {
                let (qx, qy) = (ox as f64 + k as f64, oy as f64 + r as f64);
                let under = (qx..qx + 1.0).contains(&cx) && (qy..qy + 1.0).contains(&cy);
                if under || brush.weight_at(qx + 0.5 - cx, qy + 0.5 - cy, radius, inner) > 0.0 {
                    mask |= 1 << (r * LIQUID_QUADS + k);
                }
            }
        }
        if mask != 0 {
            selected.push((tile, chunk, mask, ox, oy));
        }
    }
    apply_to_quads(map, &selected, edit, style, stroke)
}

/// Applies `edit` to the quads of `selected` (tile, chunk, quad mask, and the chunk's lattice
/// origin); returns the chunks changed.
fn apply_to_quads(
    map: &mut Map,
    selected: &[(TileCoord, usize, u64, i32, i32)],
    edit: LiquidEdit,
    style: LiquidStyle,
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    let mut changed: Vec<(TileCoord, usize)> = Vec::new();
    // Surface heights to write, by lattice vertex.
    let mut heights: HashMap<(i32, i32), f32> = HashMap::new();
    for &(tile, chunk, mask, ox, oy) in selected {
        let before = &map.tiles[&tile].chunks[chunk];
        let mut after = before.clone();
        let surface = match edit {
            LiquidEdit::Add {
                liquid_type,
                surface,
            } => {
                add(&mut after, mask, liquid_type, style);
                Some(surface)
            }
            LiquidEdit::Remove => {
                remove(&mut after, mask);
                None
            }
            LiquidEdit::Height(surface) => Some(surface),
            LiquidEdit::Flags { deep, fishable } => {
                set_flags(&mut after, mask, deep, fishable);
                None
            }
        };
        if let Some(surface) = surface {
            let wet = wet_quads(&after) & mask;
            for r in 0..=LIQUID_QUADS {
                for k in 0..=LIQUID_QUADS {
                    if corner_of_any(wet, r, k) {
                        let (gx, gy) = (ox + k as i32, oy + r as i32);
                        let [wx, wy] = coords::lattice_to_world(gx as f64, gy as f64);
                        heights.insert((gx, gy), surface.height_at(wx, wy));
                    }
                }
            }
        }
        if after != *before {
            stroke.snapshot(map, tile, chunk);
            map.tiles.get_mut(&tile).expect("loaded").chunks[chunk] = after;
            changed.push((tile, chunk));
        }
    }
    write_surface_heights(map, &heights, stroke, &mut changed);
    changed
}

/// The liquid surface at world (`x`, `y`): its height (bilinear over the quad's corners) and
/// LiquidType id, when a loaded chunk has liquid on the quad there.
pub fn surface_at(map: &Map, x: f64, y: f64) -> Option<(f32, u16)> {
    let [gx, gy] = coords::world_to_lattice(x, y);
    let (qx, qy) = (gx.floor() as i32, gy.floor() as i32);
    let v = Vertex {
        gx: qx,
        gy: qy,
        inner: true,
    };
    let copy = v.copies().next()?;
    let chunk = map.tiles.get(&copy.tile)?.chunks.get(copy.chunk)?;
    let (r, k) = (copy.index / 17, copy.index % 17 - 9);
    let bit = r * LIQUID_QUADS + k;
    let layer = chunk
        .liquid
        .as_ref()?
        .layers
        .iter()
        .find(|l| l.wet_quads() >> bit & 1 == 1)?;
    let heights = layer.surface_heights();
    let at = |rr: usize, kk: usize| layer.surface_height_at(&heights, rr, kk);
    let (fx, fy) = ((gx - qx as f64) as f32, (gy - qy as f64) as f32);
    let top = at(r, k) * (1.0 - fx) + at(r, k + 1) * fx;
    let bottom = at(r + 1, k) * (1.0 - fx) + at(r + 1, k + 1) * fx;
    Some((top * (1.0 - fy) + bottom * fy, layer.liquid_type))
}

/// The height a liquid edit starting at world (`x`, `y`) takes when none is typed: the liquid
/// surface there, else the ground.
pub fn height_under(map: &Map, x: f64, y: f64) -> Option<f32> {
    surface_at(map, x, y)
        .map(|(h, _)| h)
        .or_else(|| lattice::height_at(map, x, y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::terrain::liquid::layers::TILE_NONE;
    use crate::format::mclq;
    use crate::model::Tile;
    use crate::model::chunk::FLAG_LIQUID_ANY;
    use crate::model::liquid::{LiquidLayer, LiquidOrigin};

    fn map_with_tile() -> (Map, TileCoord) {
        let coord = TileCoord::new(32, 32).unwrap();
        let mut map = Map::new("T");
        map.tiles.insert(coord, Tile::flat(coord, "t.blp", 10.0));
        (map, coord)
    }

    fn centre_of_chunk(coord: TileCoord, cx: usize, cy: usize) -> [f64; 2] {
        let [x, y] = coords::chunk_north_west(coord, cx, cy);
        [x - coords::CHUNK_SIZE / 2.0, y - coords::CHUNK_SIZE / 2.0]
    }

    #[test]
    fn a_slope_interpolates_along_its_line_and_holds_beyond_the_ends() {
        let s = Surface::Slope {
            from: [0.0, 0.0, 10.0],
            to: [100.0, 0.0, 0.0],
        };
        assert_eq!(s.height_at(50.0, 30.0), 5.0);
        assert_eq!(s.height_at(-20.0, 0.0), 10.0);
        assert_eq!(s.height_at(200.0, 0.0), 0.0);
    }

    #[test]
    fn adding_and_removing_water_in_mclq_keeps_flags_and_tiles_true() {
        let (mut map, coord) = map_with_tile();
        let [x, y] = centre_of_chunk(coord, 3, 4);
        let brush = Brush {
            radius: 3.0,
            inner_radius: 3.0,
            ..Brush::default()
        };
        let add = LiquidEdit::Add {
            liquid_type: liquid_type::WATER,
            surface: Surface::Flat(12.0),
        };
        let mut stroke = Stroke::new("t");
        let changed = dab(&mut map, &brush, add, LiquidStyle::Mclq, x, y, &mut stroke);
        assert_eq!(changed, vec![(coord, 4 * 16 + 3)]);
        let chunk = map.tiles[&coord].chunk(3, 4);
        assert_eq!(chunk.flags & FLAG_LIQUID_ANY, mclq::flag_for_type(1));
        let layer = &chunk.liquid.as_ref().unwrap().layers[0];
        // A 3-yard brush at the chunk centre reaches the four centre quads' centres (1.46 yd).
        let centre = (3..5).flat_map(|r| (3..5).map(move |c| 1u64 << (r * 8 + c)));
        assert_eq!(layer.exists, centre.fold(0, |m, b| m | b));
        assert_eq!((layer.min_height, layer.max_height), (12.0, 12.0));
        let LiquidOrigin::Mclq(extras) = &layer.origin else {
            panic!("MCLQ style makes MCLQ layers")
        };
        assert_eq!(extras.tiles[3 * 8 + 3], 4);
        assert_eq!(extras.tiles[0], TILE_NONE);
        assert_eq!(
            layer.depths.as_ref().unwrap()[4 * 9 + 4],
            18,
            "2 yards deep"
        );
        let mut stroke = Stroke::new("t");
        dab(
            &mut map,
            &brush,
            LiquidEdit::Remove,
            LiquidStyle::Mclq,
            x,
            y,
            &mut stroke,
        );
        let chunk = map.tiles[&coord].chunk(3, 4);
        assert!(chunk.liquid.is_none());
        assert_eq!(chunk.flags & FLAG_LIQUID_ANY, 0, "no stale liquid flag");
    }

    #[test]
    fn mh2o_layers_shrink_to_their_quads_and_borders_share_heights() {
        let (mut map, coord) = map_with_tile();
        // On the border between chunks (3, 4) and (4, 4).
        let [x, y] = coords::chunk_north_west(coord, 4, 4);
        let (x, y) = (x - coords::CHUNK_SIZE / 2.0, y);
        let brush = Brush {
            radius: 3.0,
            inner_radius: 3.0,
            ..Brush::default()
        };
        let add = LiquidEdit::Add {
            liquid_type: 5,
            surface: Surface::Flat(11.0),
        };
        let mut stroke = Stroke::new("t");
        let mut changed = dab(&mut map, &brush, add, LiquidStyle::Mh2o, x, y, &mut stroke);
        changed.sort();
        assert_eq!(changed, vec![(coord, 4 * 16 + 3), (coord, 4 * 16 + 4)]);
        let west = first_layer(&map, coord, 3, 4);
        let east = first_layer(&map, coord, 4, 4);
        assert_eq!(west.liquid_type, 5, "MH2O keeps the exact LiquidType");
        assert_eq!((west.x, west.width), (7, 1));
        assert_eq!((east.x, east.width), (0, 1));
        // Raise the surface on the east side only: the shared border moves in both chunks.
        let mut stroke = Stroke::new("t");
        let [ex, ey] = coords::chunk_north_west(coord, 4, 4);
        let east_quad = (ex - coords::CHUNK_SIZE / 2.0, ey - coords::UNIT_SIZE * 0.5);
        let tiny = Brush {
            radius: 0.1,
            inner_radius: 0.1,
            ..Brush::default()
        };
        dab(
            &mut map,
            &tiny,
            LiquidEdit::Height(Surface::Flat(13.0)),
            LiquidStyle::Mh2o,
            east_quad.0,
            east_quad.1,
            &mut stroke,
        );
        let west = first_layer(&map, coord, 3, 4);
        let east = first_layer(&map, coord, 4, 4);
        let w = west.heights.as_ref().unwrap();
        let e = east.heights.as_ref().unwrap();
        // West's right column (col 1 of its 2-wide grid) equals east's left column.
        for row in 0..=west.height as usize {
            assert_eq!(w[row * 2 + 1], e[row * 2]);
        }
        assert!(e.contains(&13.0));
    }

    /// The first liquid layer of chunk (`x`, `y`) of tile `coord`.
    fn first_layer(map: &Map, coord: TileCoord, x: usize, y: usize) -> &LiquidLayer {
        &map.tiles[&coord]
            .chunk(x, y)
            .liquid
            .as_ref()
            .unwrap()
            .layers[0]
    }
}
