//! loam: a terrain editor and converter for classic World of Warcraft maps.
//!
//! The library holds everything but the thin binary. Lower layers never import higher ones:
//!
//! - `model`: the editable world (map, tiles, chunks, layers, liquids, objects, coordinates).
//! - `format`: bytes ⇄ model, one codec per generation, and what the bytes prove
//!   (`format::evidence`).
//! - `convert`: what each target generation keeps, changes and drops, and the report of it.
//! - `edit`: brushes, object edits, seams and uids over the model, as undo steps.
//! - `assets`: where bytes come from (client archives, loose files), BLP and model decoding.
//! - `disk`: files only: whole reads, atomic writes, the streamed file, temp-file cleanup, tile
//!   file names, the uid-range sidecar. It knows nothing of what the bytes mean.
//! - `pipeline`: the map pipeline over `disk`, `format` and `convert`: what a path stands for,
//!   which generation it is, reading tiles, encoding, converting tile by tile, WDL, autosave
//!   snapshots, packing.
//! - `minimap`: each tile drawn from above on the CPU, named and written as the client's
//!   minimap files (beside `pipeline`, over it and `assets`).
//! - `images`: terrain as image files (reading images, writing a map's heightmaps, alpha maps
//!   and vertex colours); over `edit`'s layouts and the `pipeline`, below `doc`.
//! - `doc`: the open document without a window: the session, strokes and the undo history,
//!   client data, and the one runner of scripted operations (`loam apply` and the editor).
//! - `error`: the crate's error.
//! - `cli`: the commands, each over `doc` and `pipeline`; `sample`: the bundled sample map.
//! - The editor (feature `editor`): `app` (the eframe shell and its components), `ui` (egui
//!   panels, which never import `app`), `render` (the glow renderer) and `command` (the intents
//!   and the shortcut table, below both).
//!
//! docs/modules.md says where each feature lives.

#[cfg(feature = "editor")]
pub mod app;
pub mod assets;
pub mod cli;
#[cfg(feature = "editor")]
pub mod command;
pub mod convert;
pub mod disk;
pub mod doc;
pub mod edit;
pub mod error;
pub mod format;
pub mod images;
pub mod minimap;
pub mod model;
pub mod pipeline;
#[cfg(feature = "editor")]
pub mod render;
pub mod sample;
#[cfg(feature = "editor")]
pub mod ui;
