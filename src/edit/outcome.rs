//! What one applied operation did, terrain or object alike: the label its undo step shows, the
//! chunks and tiles it changed, where painting was refused. Its own module so that `ops` (the
//! runner) and `object_ops` (object operations) both use it without importing each other.

use crate::model::TileCoord;

/// What applying one operation did.
#[derive(Debug, Clone, PartialEq)]
pub struct OpResult {
    /// The history label ("Raise, 12 chunks"), or the tool name when nothing changed.
    pub label: String,
    /// Chunks changed.
    pub chunks: usize,
    /// Chunks where painting was refused (four layers, none free).
    pub refused: Vec<(TileCoord, usize)>,
    /// Tiles the step changed (each once).
    pub tiles: Vec<TileCoord>,
}
