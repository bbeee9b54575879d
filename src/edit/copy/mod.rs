//! Ground that moves: the terrain clipboard (a rectangle of heights, colours, layers, holes,
//! liquid and objects), pasting it, and new tiles that take their old neighbours' borders.
//!
//! Not for: the editor's Copy & paste tool (`app::toolbox::terrain_clipboard`) or writing a new
//! map's files (`doc::new_map`).

pub mod clipboard;
pub mod new_map;
pub mod paste;
