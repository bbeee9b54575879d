//! Bytes ⇄ model: one codec per file generation over one chunk reader/writer.
//!
//! Not for: deciding what a target generation keeps or drops (see `convert`), or touching the
//! filesystem beyond reading whole files (see `disk`).

pub mod alpha;
pub mod chunk;
pub mod cursor;
pub mod evidence;
pub mod mcal;
pub mod mclq;
pub mod mcnk_parts;
pub mod mh2o;
pub mod names;
pub mod placement;
pub mod proto055;
pub mod v060;
pub mod v18;
pub mod wdl;

pub use chunk::{ErrorKind, FormatError, Tag};

use std::fmt;
use std::str::FromStr;

/// A client generation loam reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Generation {
    /// 0.5.3 alpha: monolithic WDT with the terrain inside.
    Alpha053,
    /// 0.5.5 alpha: monolithic WDT; its client also has a latent prototype ADT loader.
    Alpha055,
    /// 0.6.0: the first split WDT + ADT.
    V060,
    /// 1.12 (vanilla): v18 split WDT + ADT with MCLQ liquid and 4-bit alpha.
    V112,
    /// 3.3.5a (Wrath): v18 with MH2O, MCCV, 8-bit and RLE alpha.
    V335,
}

impl Generation {
    /// Every generation, oldest first.
    pub const ALL: [Generation; 5] = [
        Generation::Alpha053,
        Generation::Alpha055,
        Generation::V060,
        Generation::V112,
        Generation::V335,
    ];

    /// The version string users type ("3.3.5").
    pub fn label(self) -> &'static str {
        match self {
            Generation::Alpha053 => "0.5.3",
            Generation::Alpha055 => "0.5.5",
            Generation::V060 => "0.6.0",
            Generation::V112 => "1.12",
            Generation::V335 => "3.3.5",
        }
    }

    /// True when loam can write this generation.
    pub fn writable(self) -> bool {
        // All of them: 0.5.5 writes the monolithic WDT of 0.5.3, or that WDT plus prototype
        // ADTs (`format::proto055`).
        matches!(
            self,
            Generation::Alpha053
                | Generation::Alpha055
                | Generation::V060
                | Generation::V112
                | Generation::V335
        )
    }
}

impl fmt::Display for Generation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

impl FromStr for Generation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().trim_end_matches('a');
        Generation::ALL
            .into_iter()
            .find(|g| {
                g.label() == s
                    || (s == "3.3.5" && *g == Generation::V335)
                    || (s == "1.12.1" && *g == Generation::V112)
            })
            .ok_or_else(|| {
                format!("unknown generation '{s}' (one of 0.5.3, 0.5.5, 0.6.0, 1.12, 3.3.5)")
            })
    }
}
