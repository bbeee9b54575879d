//! Per-chunk properties set by brush: holes (the 4×4 low-resolution grid), area id, impassable,
//! and where ground effects grow (the 8×8 `noEffectDoodad` cells).

use super::brush::Brush;
use crate::edit::lattice::{STEPS_PER_CHUNK, chunks_near};
use crate::edit::stroke::Stroke;
use crate::model::chunk::FLAG_IMPASSABLE;
use crate::model::coords;
use crate::model::{Map, TileCoord};

/// A per-chunk property change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellEdit {
    /// Cut the holes under the brush.
    AddHoles,
    /// Fill the holes under the brush.
    RemoveHoles,
    /// Set the area id of chunks under the brush.
    Area(u32),
    /// Set or clear the impassable flag of chunks under the brush.
    Impassable(bool),
    /// Let ground effects grow (`true`) in the 8×8 cells under the brush, or switch them off
    /// (the MCNK `noEffectDoodad` bits, `ground_effects`).
    GroundEffects(bool),
}

impl CellEdit {
    /// The name shown in the history.
    pub fn name(&self) -> &'static str {
        match self {
            CellEdit::AddHoles => "Add holes",
            CellEdit::RemoveHoles => "Remove holes",
            CellEdit::Area(_) => "Area",
            CellEdit::Impassable(true) => "Impassable",
            CellEdit::Impassable(false) => "Passable",
            CellEdit::GroundEffects(true) => "Ground effects on",
            CellEdit::GroundEffects(false) => "Ground effects off",
        }
    }
}

/// Applies `edit` to everything under a dab at world (`x`, `y`): holes whose centre the brush
/// reaches, chunks whose centre it reaches (or, for a brush smaller than a chunk, the chunk under
/// the centre). Returns the chunks changed.
pub fn dab(
    map: &mut Map,
    brush: &Brush,
    edit: CellEdit,
    x: f64,
    y: f64,
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    let ([cx, cy], radius, inner) = brush.on_lattice(x, y);
    let mut changed = Vec::new();
    for (tile, chunk, ccol, crow) in chunks_near(map, cx, cy, radius) {
        let (ox, oy) = (
            (ccol * STEPS_PER_CHUNK) as f64,
            (crow * STEPS_PER_CHUNK) as f64,
        );
        let half = STEPS_PER_CHUNK as f64 / 2.0;
        let under_centre =
            (ox..ox + 2.0 * half).contains(&cx) && (oy..oy + 2.0 * half).contains(&cy);
        let reaches_centre =
            brush.weight_at(ox + half - cx, oy + half - cy, radius, inner) > 0.0 || under_centre;
        let c = &map.tiles[&tile].chunks[chunk];
        if let CellEdit::GroundEffects(on) = edit {
            // Cell (r, k) is quad (r, k): one lattice step square, its centre half a step in.
            let mut bits = c.no_effect_doodad;
            for r in 0..8 {
                for k in 0..8 {
                    let (qx, qy) = (ox + k as f64 + 0.5, oy + r as f64 + 0.5);
                    let inside =
                        (qx - 0.5..qx + 0.5).contains(&cx) && (qy - 0.5..qy + 0.5).contains(&cy);
                    if brush.weight_at(qx - cx, qy - cy, radius, inner) > 0.0 || inside {
                        crate::edit::derived::ground_effects::set_effects_off(&mut bits, r, k, !on);
                    }
                }
            }
            if bits != c.no_effect_doodad {
                stroke.snapshot(map, tile, chunk);
                map.tiles.get_mut(&tile).expect("loaded").chunks[chunk].no_effect_doodad = bits;
                changed.push((tile, chunk));
            }
            continue;
        }
        let (holes, area, flags) = match edit {
            CellEdit::AddHoles | CellEdit::RemoveHoles => {
                let mut holes = c.holes;
                for r in 0..4 {
                    for k in 0..4 {
                        // Hole (r, k) covers quads 2r..2r+2 × 2k..2k+2; its centre is one step in.
                        let (hx, hy) = (ox + 2.0 * k as f64 + 1.0, oy + 2.0 * r as f64 + 1.0);
                        let inside = (hx - 1.0..hx + 1.0).contains(&cx)
                            && (hy - 1.0..hy + 1.0).contains(&cy);
                        if brush.weight_at(hx - cx, hy - cy, radius, inner) > 0.0 || inside {
                            let bit = 1u16 << (r * 4 + k);
                            holes = if edit == CellEdit::AddHoles {
                                holes | bit
                            } else {
                                holes & !bit
                            };
                        }
                    }
                }
                (holes, c.area_id, c.flags)
            }
            CellEdit::Area(id) if reaches_centre => (c.holes, id, c.flags),
            CellEdit::Impassable(on) if reaches_centre => (
                c.holes,
                c.area_id,
                if on {
                    c.flags | FLAG_IMPASSABLE
                } else {
                    c.flags & !FLAG_IMPASSABLE
                },
            ),
            _ => continue,
        };
        if (holes, area, flags) == (c.holes, c.area_id, c.flags) {
            continue;
        }
        stroke.snapshot(map, tile, chunk);
        let c = &mut map.tiles.get_mut(&tile).expect("loaded").chunks[chunk];
        c.holes = holes;
        c.area_id = area;
        c.flags = flags;
        changed.push((tile, chunk));
    }
    changed
}

/// The area id of the chunk under world (`x`, `y`), if loaded.
pub fn pick_area(map: &Map, x: f64, y: f64) -> Option<u32> {
    let tile = TileCoord::containing(x, y)?;
    let [cx, cy] = coords::world_to_lattice(x, y);
    let (ccol, crow) = (
        (cx / STEPS_PER_CHUNK as f64).floor() as usize % 16,
        (cy / STEPS_PER_CHUNK as f64).floor() as usize % 16,
    );
    Some(map.tiles.get(&tile)?.chunk(ccol, crow).area_id)
}
