//! loam: a terrain editor and converter for classic World of Warcraft maps.
//!
//! The library holds everything but the thin binary: `model` (the editable world), `format`
//! (bytes ⇄ model per generation), `disk` (files and map folders) and `cli` (the commands).

pub mod cli;
pub mod convert;
pub mod disk;
pub mod edit;
pub mod format;
pub mod model;
