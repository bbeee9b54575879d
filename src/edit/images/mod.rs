//! The map as images and back: heightmaps, alpha maps and vertex colours in Noggit Red's
//! layouts, and the `import_*` operations that bring an image in as one undo step.
//!
//! Not for: reading or writing image files (`images`, above the edit layer) or an image's
//! samples (`edit::raster`, shared with the brush's stamps).

pub mod heightmap;
pub mod image_ops;
pub mod tile_images;
