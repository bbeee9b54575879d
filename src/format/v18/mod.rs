//! The v18 codec: ADT tiles and split WDTs of 1.12 and 3.3.5a (and 2.x, which shares them).
//!
//! Not for: the 0.5.x monolithic WDT (`format::alpha`) or the 0.6.0 layout (`format::v060`).

pub mod adt;
pub mod mcnk;
pub mod wdt;

pub use adt::{read_adt, sniff_alpha_depth, write_adt};
pub use mcnk::{AlphaDepth, AlphaTarget};
pub use wdt::{read_wdt, write_wdt};

/// The MVER value of every v18 file.
pub const VERSION: u32 = 18;
