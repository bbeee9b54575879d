//! Shaping and dressing the ground under a brush: heights (sculpt, and the plane and ramp line
//! they aim at), texture layers and their alpha maps (paint, layer flags, the texture
//! operations), vertex colours (shade), per-cell properties (holes, area, impassable, where
//! ground effects grow), liquids, and the seams between chunk copies (stitching a map, or one
//! tile at a time), erosion (thermal and hydraulic, in `erosion`) and texturing by the ground's
//! shape (`rules`). The brush's falloff and dab spacing live here too.
//!
//! Not for: the vertex lattice these edits go through (`edit::lattice`), roads and vertex
//! selections (`edit::shapes`), objects (`edit::objects`), data derived from the ground such as
//! shadows and flight bounds (`edit::derived`), or images (`edit::images`).

pub mod brush;
pub mod cells;
pub mod erosion;
pub mod layer_flags;
pub mod liquid;
pub mod paint;
pub mod plane;
pub mod ramp_line;
pub mod rules;
pub mod rules_ops;
pub mod rules_preview;
pub mod sculpt;
pub mod seams;
pub mod shade;
pub mod texture_ops;
pub mod tile_stitch;
pub mod vertex_alpha;
