//! Liquids on the map's quads: the brush (what a dab adds, removes, raises or flags) and the
//! upkeep of a chunk's liquid layers after any edit, which paste and sculpting share with the
//! brush. Both work on the quads and vertices of the terrain's outer lattice, so liquid edits
//! cross chunk and tile borders without opening seams.
//!
//! Not for: bytes (the MCLQ and MH2O codecs in `format`) or what a conversion folds (see
//! `convert::liquid`).

mod brush;
mod layers;

pub use brush::{LiquidEdit, LiquidKind, Surface, dab, height_under, surface_at};
pub use layers::{
    DEPTH_PER_YARD, LiquidStyle, QuadLiquid, depth_byte, quad_liquid, refresh_depths, set_quads,
    vertex_surface, wet_quads,
};
