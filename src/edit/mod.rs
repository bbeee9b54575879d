//! Edits of the model, as pure functions over `model`: every change the user makes goes
//! through here, so undo sees it. Edits work on the map's vertex lattice, so they cross chunk
//! and tile borders and never open seams.
//!
//! The rooms:
//! - `lattice`: the vertex lattice, windows of it, exact shared heights and normals;
//! - `terrain`: the brushes over the ground (sculpt, texture paint, holes, vertex colour, area
//!   and flags, liquids) and the seams;
//! - `shapes`: roads and vertex selections;
//! - `objects`: doodad and WMO edits, uniqueIds, scatter;
//! - `derived`: shadows, ground effects and flight bounds kept true after edits;
//! - `images`: the map as images and back;
//! - `copy`: the terrain clipboard, pasting, new tiles beside old ones.
//!
//! At the root: `ops` (the `OPS.json` format and the dispatch of every operation), `tools` (the
//! tools' table and settings), `stroke` (what one stroke changed), `outcome` (what one
//! operation did), `history` (the undo history), `raster` (an image's samples, shared by the
//! brush's stamps and the imports) and `biome` (erosion, texture rules and a palette laid as one
//! stroke: it spans the terrain and objects rooms).
//!
//! Not for: input handling (see `ui` and `app`), the open document (`doc`) or drawing
//! (`render`).

pub mod biome;
pub mod copy;
pub mod derived;
pub mod history;
pub mod images;
pub mod lattice;
pub mod objects;
pub mod ops;
pub mod outcome;
pub mod presets;
pub mod raster;
pub mod shapes;
pub mod stroke;
pub mod terrain;
pub mod tools;

pub use history::History;
pub use stroke::{Stroke, TerrainEdit};
pub use terrain::brush::{Brush, Falloff, Shape};
