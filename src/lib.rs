//! loam: a terrain editor and converter for classic World of Warcraft maps.
//!
//! The library holds everything but the thin binary: `model` (the editable world), `format`
//! (bytes ⇄ model per generation), `disk` (files and map folders), `assets` (loose texture files, BLP), `cli` (the commands), `sample`
//! (the bundled sample map's generator) and the editor: `app` (the eframe application), `ui`
//! (its egui panels) and `render` (the glow terrain renderer).

#[cfg(feature = "editor")]
pub mod app;
pub mod assets;
pub mod cli;
pub mod convert;
pub mod disk;
pub mod edit;
pub mod format;
pub mod model;
#[cfg(feature = "editor")]
pub mod render;
pub mod sample;
#[cfg(feature = "editor")]
pub mod ui;
