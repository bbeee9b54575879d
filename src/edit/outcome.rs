//! What one applied operation did, terrain or object alike: the label its undo step shows, the
//! chunks and tiles it changed, where painting was refused. Its own module so that `ops` (the
//! runner) and `object_ops` (object operations) both use it without importing each other.

use super::history::History;
use super::stroke::{Stroke, TerrainEdit};
use crate::model::{Map, TileCoord};

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

impl OpResult {
    /// Pushes `edit` (already applied to `map`) onto `history` as one step; what it did.
    pub fn push(
        map: &mut Map,
        edit: TerrainEdit,
        history: &mut History,
        refused: Vec<(TileCoord, usize)>,
    ) -> OpResult {
        let mut tiles: Vec<TileCoord> = edit.touched().into_iter().map(|(t, _)| t).collect();
        tiles.sort_unstable();
        tiles.dedup();
        let result = OpResult {
            label: edit.label.clone(),
            chunks: edit.chunks.len(),
            refused,
            tiles,
        };
        history.push(map, edit);
        result
    }

    /// Ends `stroke` as one undo step in `history` (when it changed anything) and says what it
    /// did; `name` labels a stroke that changed nothing.
    pub fn record(
        map: &mut Map,
        stroke: Stroke,
        history: &mut History,
        name: &str,
        refused: Vec<(TileCoord, usize)>,
    ) -> OpResult {
        match stroke.finish(map) {
            Some(edit) => OpResult::push(map, edit, history, refused),
            None => OpResult {
                label: name.to_string(),
                chunks: 0,
                refused,
                tiles: Vec::new(),
            },
        }
    }
}
