//! What `loam check` reports: a problem, how bad it is, and what a map needs of a game client
//! (for `check --client`). Shared by the map checks (`check`) and the client checks
//! (`check_client`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::model::TileCoord;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The map is wrong; `check` exits 1.
    Error,
    /// Odd but readable (another tool's marks); reported, `check` still succeeds.
    Warning,
}

/// One thing wrong with a map.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The file it is in (or the WDT for map-wide problems).
    pub file: PathBuf,
    /// What is wrong, with enough location to find it.
    pub message: String,
    /// Whether it fails the check.
    pub severity: Severity,
}

impl Problem {
    /// An error in `file`.
    pub fn error(file: PathBuf, message: String) -> Problem {
        Problem {
            file,
            message,
            severity: Severity::Error,
        }
    }
}

/// What a map needs of a game client: its Map.dbc row, the area and liquid ids its tiles use,
/// and a WDT the servers' extractors accept.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MapUses {
    /// The map's folder name.
    pub name: String,
    /// Its WDT (the folder when it has none).
    pub wdt: PathBuf,
    /// True when the map has a split WDT without an MWMO chunk.
    pub wdt_lacks_mwmo: bool,
    /// Each area id the tiles use, with the first tile using it.
    pub areas: BTreeMap<u32, TileCoord>,
    /// Each LiquidType id the tiles use, with the first tile using it.
    pub liquids: BTreeMap<u16, TileCoord>,
}
