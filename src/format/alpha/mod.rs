//! The 0.5.3/0.5.5 alpha codec: the monolithic WDT that holds every tile of a map (`wdt`), its
//! tile blocks (`tile`) and alpha MCNKs (`mcnk`). The 0.5.5 prototype ADT reuses the tile block
//! and MCNK from here (see `format::proto055`).
//!
//! Not for: split WDT + ADT maps (`v18`, `v060`) or deciding what a conversion drops
//! (`convert`). Layout and every disputed choice: `docs/formats.md`, "0.5.3 / 0.5.5 monolithic
//! WDT".

pub mod mcnk;
pub mod tile;
pub mod wdt;

pub use wdt::{is_monolithic, read_wdt, read_wdt_tolerant, write_wdt};
