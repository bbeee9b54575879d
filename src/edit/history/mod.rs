//! The undo history: a linear record of steps (the `undo` crate) kept under a memory budget in
//! bytes, oldest steps dropped first, with the saved point marked. Each step is kept packed
//! ([`stored`]: what changed, XORed and compressed), not as the whole chunks a stroke captures.

pub mod stored;

use std::collections::VecDeque;

use super::stroke::TerrainEdit;
use crate::model::{Map, TileCoord};
use stored::StoredEdit;

/// Default memory budget: 256 MiB of packed steps.
pub const DEFAULT_BUDGET: usize = 256 << 20;

/// Undo and redo over a map.
pub struct History {
    record: undo::Record<StoredEdit>,
    sizes: VecDeque<usize>,
    budget: usize,
}

impl Default for History {
    fn default() -> Self {
        History::with_budget(DEFAULT_BUDGET)
    }
}

impl History {
    /// An empty history holding at most `budget` bytes of snapshots.
    pub fn with_budget(budget: usize) -> History {
        History {
            record: undo::Record::new(),
            sizes: VecDeque::new(),
            budget,
        }
    }

    /// Records a step whose change the map already holds. Steps past the current one (the redo
    /// branch) are discarded; the oldest steps go when the budget would be exceeded.
    pub fn push(&mut self, map: &mut Map, edit: TerrainEdit) {
        if !edit.already_applied {
            edit.apply_after(map);
        }
        let edit = StoredEdit::pack(edit);
        self.sizes.truncate(self.record.head());
        let size = edit.size_bytes();
        let mut total: usize = self.sizes.iter().sum::<usize>() + size;
        let mut drop = 0;
        while total > self.budget && drop < self.sizes.len() {
            total -= self.sizes[drop];
            drop += 1;
        }
        if drop > 0 {
            self.drop_oldest(map, drop);
        }
        self.record.edit(map, edit);
        self.sizes.push_back(size);
    }

    /// Rebuilds the record without its `n` oldest steps (the record can only drop them at a
    /// fixed count), and without the redo branch: the record still holds the undone steps
    /// until its next edit, and they must not come back as applied.
    fn drop_oldest(&mut self, map: &mut Map, n: usize) {
        let saved = self.record.saved().filter(|s| *s <= self.record.head());
        let kept: Vec<StoredEdit> = self
            .record
            .entries()
            .take(self.record.head())
            .skip(n)
            .map(|e| e.as_ref().clone())
            .collect();
        let mut record = undo::Record::new();
        if saved == Some(n) {
            record.set_saved();
        }
        for (i, mut edit) in kept.into_iter().enumerate() {
            edit.already_applied = true;
            record.edit(map, edit);
            if saved == Some(n + i + 1) {
                record.set_saved();
            }
        }
        if saved.is_none_or(|s| s < n) {
            record.clear_saved();
        }
        self.record = record;
        self.sizes.drain(..n);
    }

    /// Undoes the current step; returns the chunks it changed.
    pub fn undo(&mut self, map: &mut Map) -> Option<Vec<(TileCoord, usize)>> {
        self.record.undo(map)
    }

    /// Redoes the next step; returns the chunks it changed.
    pub fn redo(&mut self, map: &mut Map) -> Option<Vec<(TileCoord, usize)>> {
        self.record.redo(map)
    }

    /// True when a step can be undone.
    pub fn can_undo(&self) -> bool {
        self.record.can_undo()
    }

    /// True when a step can be redone.
    pub fn can_redo(&self) -> bool {
        self.record.can_redo()
    }

    /// Marks the current state as saved.
    pub fn set_saved(&mut self) {
        self.record.set_saved();
    }

    /// True when the map is as it was last saved (or opened).
    pub fn is_saved(&self) -> bool {
        self.record.is_saved()
    }

    /// Labels of all steps, oldest first, and how many of them are applied.
    pub fn labels(&self) -> (Vec<String>, usize) {
        (
            self.record
                .entries()
                .map(|e| e.as_ref().label.clone())
                .collect(),
            self.record.head(),
        )
    }

    /// Bytes the steps hold.
    pub fn size_bytes(&self) -> usize {
        self.sizes.iter().sum()
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.record.len()
    }

    /// True when there are no steps.
    pub fn is_empty(&self) -> bool {
        self.record.is_empty()
    }
}
