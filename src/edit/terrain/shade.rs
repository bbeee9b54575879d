//! Vertex colour (MCCV) painting: tint toward a colour, or erase back to neutral 0x7F. Colours sit
//! on the vertex lattice like heights, so a vertex shared by chunks gets one colour.

use super::brush::Brush;
use crate::edit::lattice::{Copy, Vertex, vertices_near};
use crate::edit::stroke::Stroke;
use crate::model::chunk::{FLAG_HAS_VERTEX_COLORS, NEUTRAL_COLOR};
use crate::model::coords::VERTICES_PER_CHUNK;
use crate::model::map::MAP_FLAG_VERTEX_COLORS;
use crate::model::{Map, TileCoord};

/// One shading dab at world (`x`, `y`) blending toward `color` (RGB; `None` erases to neutral) by
/// `strength × weight`. A chunk that had no colours gets neutral ones first, and the chunk and
/// map flags that tell the client to read them are set. Returns the chunks changed.
pub fn dab(
    map: &mut Map,
    brush: &Brush,
    color: Option<[u8; 3]>,
    x: f64,
    y: f64,
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    let target = color.unwrap_or([NEUTRAL_COLOR[0], NEUTRAL_COLOR[1], NEUTRAL_COLOR[2]]);
    let radius = brush.radius as f64;
    let mut updates: Vec<(Vertex, f32)> = Vec::new();
    for (v, d) in vertices_near(x, y, radius) {
        // Offsets east and south, as the lattice tools give them (a stamp has an up side).
        let w = brush.weight_at(-d[1], -d[0], radius, brush.inner_radius as f64)
            * brush.strength.clamp(0.0, 1.0);
        if w > 0.0 {
            updates.push((v, w));
        }
    }
    let mut changed: Vec<(TileCoord, usize)> = Vec::new();
    for (v, w) in updates {
        let current = colour_of(map, v);
        let mut next = current;
        for k in 0..3 {
            next[k] =
                (current[k] as f32 + (target[k] as f32 - current[k] as f32) * w).round() as u8;
        }
        for c in v.copies() {
            if set_colour(map, c, next, stroke) && !changed.contains(&(c.tile, c.chunk)) {
                changed.push((c.tile, c.chunk));
            }
        }
    }
    changed
}

/// The colour of vertex `v`: one colour per lattice vertex, read from the first copy that
/// has colours; neutral when none has.
pub fn colour_of(map: &Map, v: Vertex) -> [u8; 4] {
    v.copies()
        .find_map(|c| {
            map.tiles.get(&c.tile).and_then(|t| {
                t.chunks[c.chunk]
                    .vertex_colors
                    .as_ref()
                    .map(|vc| vc[c.index])
            })
        })
        .unwrap_or(NEUTRAL_COLOR)
}

/// Writes `colour` into one copy of a vertex (its chunk's MCCV entry, made neutral first when
/// the chunk had none), the chunk and the map flagged as having vertex colours, remembered in
/// `stroke`; false when the copy is not loaded or already had it.
pub fn set_colour(map: &mut Map, c: Copy, colour: [u8; 4], stroke: &mut Stroke) -> bool {
    let Some(t) = map.tiles.get(&c.tile) else {
        return false;
    };
    let existing = t.chunks[c.chunk]
        .vertex_colors
        .as_ref()
        .map(|vc| vc[c.index]);
    if existing == Some(colour) || (existing.is_none() && colour == NEUTRAL_COLOR) {
        return false;
    }
    stroke.snapshot(map, c.tile, c.chunk);
    if map.flags & MAP_FLAG_VERTEX_COLORS == 0 {
        stroke.snapshot_flags(map);
        map.flags |= MAP_FLAG_VERTEX_COLORS;
    }
    let chunk = &mut map.tiles.get_mut(&c.tile).expect("loaded").chunks[c.chunk];
    chunk.flags |= FLAG_HAS_VERTEX_COLORS;
    chunk
        .vertex_colors
        .get_or_insert_with(|| Box::new([NEUTRAL_COLOR; VERTICES_PER_CHUNK]))[c.index] = colour;
    true
}
