//! Edits of the model: brushes (sculpt, texture paint, holes, vertex colour, area, impassable),
//! normals, and the undo history. Every change the user makes goes through here, so undo sees it.
//!
//! Not for: input handling (see `ui` and `app`) or drawing (see `render`). Edits work on the
//! map's vertex lattice (`lattice`), so they cross chunk and tile borders and never open seams.

pub mod brush;
pub mod cells;
pub mod clipboard;
pub mod exact;
pub mod flight_bounds;
pub mod ground_effects;
pub mod heightmap;
pub mod history;
pub mod image_ops;
pub mod lattice;
pub mod layer_flags;
pub mod liquid;
pub mod model_shadows;
pub mod new_map;
pub mod normals;
pub mod object_ops;
pub mod objects;
pub mod ops;
pub mod outcome;
pub mod paint;
pub mod paste;
pub mod patch;
pub mod plane;
pub mod raster;
pub mod road;
pub mod road_ops;
pub mod scatter;
pub mod scatter_ops;
pub mod sculpt;
pub mod seams;
pub mod selection;
pub mod shade;
pub mod shadows;
pub mod slope;
pub mod stroke;
pub mod texture_ops;
pub mod tile_images;
pub mod tile_stitch;
pub mod tools;
pub mod transform;
pub mod uids;

pub use brush::{Brush, Falloff, Shape};
pub use history::History;
pub use stroke::{Stroke, TerrainEdit};
