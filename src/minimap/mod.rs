//! Minimaps: each tile drawn from above (`raster`), named as the client looks them up
//! (`names`), and written as the client's BLP files, only the tiles that changed since the last
//! export (`export`).
//!
//! Sits beside `pipeline` (it reads tiles through it and writes through `disk`); used by
//! `loam minimap` and File ▸ Export for client.

pub mod export;
pub mod names;
pub mod raster;

use std::collections::HashMap;

use crate::assets::client::AssetSource;
use raster::{LayerTexture, LayerTextures};

/// Side of a minimap tile in pixels: what the client draws a tile's minimap texture at.
pub const TILE_PIXELS: usize = 256;

/// Adds to `cache` every texture of `names` it lacks, read from `source` and reduced for a
/// picture [`TILE_PIXELS`] across; a texture that is not found, or does not decode, gets the
/// stand-in colour the editor draws it with (`assets::procedural`).
pub fn load_textures<'a>(
    names: impl IntoIterator<Item = &'a str>,
    source: &AssetSource,
    cache: &mut LayerTextures,
) {
    let side = raster::texture_side(TILE_PIXELS * 2);
    for name in names {
        if cache.contains_key(name) {
            continue;
        }
        let texture = source
            .read(name)
            .ok()
            .flatten()
            .and_then(|bytes| crate::assets::blp::decode(&bytes).ok())
            .map(|image| LayerTexture::from_image(&image, side))
            .unwrap_or_else(|| LayerTexture::solid(crate::assets::procedural::name_color(name)));
        cache.insert(name.to_string(), texture);
    }
}

/// An empty texture cache.
pub fn new_cache() -> LayerTextures {
    HashMap::new()
}
