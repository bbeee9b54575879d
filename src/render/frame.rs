//! What one frame's draw needs beyond the uploaded meshes, read by every pass (terrain, liquids,
//! objects, horizon, sky): the camera's matrices and eye, the overlays asked for, and the light
//! at the eye.
//!
//! Not for: where the camera is (`render::camera`) or how the light is chosen (`doc::light`).

use glam::{Mat4, Vec3};

/// What the caller wants drawn on top of the shaded terrain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overlays {
    /// Lines along chunk borders.
    pub chunk_grid: bool,
    /// Lines along tile borders.
    pub tile_grid: bool,
    /// Tint chunks by their number of texture layers (four stands out red).
    pub layer_count: bool,
    /// Tint chunks by their area id (`render::terrain::area_colour`).
    pub areas: bool,
    /// Dots where ground effects grow (in their effect's `render::terrain::area_colour` hue), hatching where
    /// they are switched off.
    pub ground_effects: bool,
    /// Liquid surfaces (drawn by `render::liquid`).
    pub liquids: bool,
    /// The brush cursor: world (x, y) and radius in yards.
    pub brush: Option<([f32; 2], f32)>,
    /// A rectangle outlined and lightly filled on the ground (the Copy & paste tool's
    /// selection or where a paste lands): world x0, y0, x1, y1, smallest first.
    pub rect: Option<[f32; 4]>,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            chunk_grid: false,
            tile_grid: true,
            layer_count: false,
            areas: false,
            ground_effects: false,
            liquids: true,
            brush: None,
            rect: None,
        }
    }
}

/// Everything one frame's draw needs beyond the uploaded tiles.
#[derive(Debug, Clone, Copy)]
pub struct FrameParams {
    /// World → clip space.
    pub view_projection: Mat4,
    /// World → clip space reaching across the map, for the horizon (`render::horizon`).
    pub far_view_projection: Mat4,
    /// The eye, for distance fog.
    pub eye: Vec3,
    /// Overlays to draw.
    pub overlays: Overlays,
    /// The light at the eye at the view's time of day: sky, fog, surface light, water.
    pub light: crate::doc::light::SceneLight,
}
