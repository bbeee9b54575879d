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
//! - `disk`: files and map folders: locating a map, atomic writes, streamed conversion, packing.
//! - `error`: the crate's error.
//! - `cli`: the commands; `sample`: the bundled sample map's generator.
//! - The editor (feature `editor`): `app` (the eframe application and its components), `ui`
//!   (egui panels), `render` (the glow renderer) and `command` (the intents the panels emit
//!   and the app carries out, below both).

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
pub mod model;
pub mod pipeline;
#[cfg(feature = "editor")]
pub mod render;
pub mod sample;
#[cfg(feature = "editor")]
pub mod ui;
