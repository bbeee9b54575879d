//! What the map derives from its ground and objects rather than what the user paints: baked
//! shadows (from the terrain and from placed models), ground effects (which layer grows its
//! detail doodads in each cell) and flight bounds (MFBO). Edits call these to keep them true.
//!
//! Not for: the edits that change the ground (`edit::terrain`) or objects (`edit::objects`).

pub mod flight_bounds;
pub mod ground_effects;
pub mod model_shadows;
pub mod shadows;
