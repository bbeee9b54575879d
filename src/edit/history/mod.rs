//! The undo history: a linear record of steps (the `undo` crate) kept under a memory budget in
//! bytes, oldest steps dropped first, with the saved point marked. Each step is kept packed
//! ([`stored`]: what changed, XORed and compressed), not as the whole chunks a stroke captures.

pub mod journal;
pub mod stored;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::stroke::TerrainEdit;
use crate::model::{Map, Tile, TileCoord};
use crate::pipeline::journal::{JournalState, JournalWrite};
use stored::StoredEdit;

/// Default memory budget: 256 MiB of packed steps.
pub const DEFAULT_BUDGET: usize = 256 << 20;

/// The autosaved tiles of a recovered map, made exact where they can be. A tile file cannot
/// hold every height (it stores them relative to the chunk's base) nor, at 4 bits, every alpha
/// texel, so an autosaved tile read back may be a float's last bit off the one in memory, and a
/// step undone over it would leave that bit off the map as opened. When the history holds every
/// step since the map was opened (`state.dropped` is 0), the steps up to the head replayed over
/// the tiles as opened (`opened` holds them) give the state in memory exactly; each such tile is
/// taken instead of the autosaved one when the two write the same bytes (`same`), else (the map
/// was saved since it was opened, or changed otherwise) the autosaved tile stays.
pub fn exact_tiles(
    opened: &Map,
    snapshot: Vec<Tile>,
    steps: &[StoredEdit],
    state: &JournalState,
    same: impl Fn(&Tile, &Tile) -> bool,
) -> Vec<Tile> {
    let head = (state.head as usize).min(steps.len());
    if state.dropped != 0 || head == 0 {
        return snapshot;
    }
    let autosaved: BTreeSet<TileCoord> = snapshot.iter().map(|t| t.coord).collect();
    let mut replay = opened.header_only();
    replay.tiles = steps[..head]
        .iter()
        .flat_map(StoredEdit::tiles)
        .filter(|c| autosaved.contains(c))
        .filter_map(|c| Some((c, opened.tiles.get(&c)?.clone())))
        .collect();
    for e in &steps[..head] {
        e.redo_on(&mut replay);
    }
    snapshot
        .into_iter()
        .map(|t| match replay.tiles.remove(&t.coord) {
            Some(exact) if same(&exact, &t) => exact,
            _ => t,
        })
        .collect()
}

/// Undo and redo over a map.
pub struct History {
    record: undo::Record<StoredEdit>,
    sizes: VecDeque<usize>,
    /// Each step's id (given in push order, never reused), so that the journal can tell a step
    /// it holds from a new one under the same sequence (after an undo and a new step).
    ids: VecDeque<u64>,
    next_id: u64,
    /// Oldest steps dropped under the budget so far: the sequence of the first step held.
    dropped: u64,
    budget: usize,
}

/// The steps and shape one autosave adds to the journal, not yet encoded.
#[derive(Debug, Clone)]
pub struct JournalSteps {
    /// A new journal rather than an append.
    pub whole: bool,
    /// The new steps, by sequence.
    pub steps: Vec<(u64, StoredEdit)>,
    /// The history's shape.
    pub state: JournalState,
}

impl JournalSteps {
    /// The steps encoded for the journal file (`pipeline::journal`).
    pub fn encode(&self) -> JournalWrite {
        JournalWrite {
            whole: self.whole,
            steps: self
                .steps
                .iter()
                .map(|(seq, e)| (*seq, journal::encode(e)))
                .collect(),
            state: self.state,
        }
    }
}

/// Which step the autosave's journal holds under each sequence (by the history's step ids):
/// what the next autosave need not write again.
#[derive(Debug, Clone, Default)]
pub struct Journaled(BTreeMap<u64, u64>);

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
            ids: VecDeque::new(),
            next_id: 0,
            dropped: 0,
            budget,
        }
    }

    /// The history a journal held: `steps` (oldest first) in the shape `state` gives, over
    /// `map`, which holds the state after the first `state.head` of them (a recovered map's
    /// autosaved tiles). Steps past the head come back undone, ready to redo.
    pub fn from_journal(
        map: &mut Map,
        mut steps: Vec<StoredEdit>,
        state: &JournalState,
        budget: usize,
    ) -> History {
        let len = steps.len();
        let head = (state.head as usize).min(len);
        // The record takes steps only as applied: the redo branch is taken forward first, then
        // undone through the record, which leaves the map as it was and the steps redoable.
        for e in &mut steps[head..] {
            e.already_applied = false;
            undo::Edit::edit(e, map);
        }
        let saved = state.saved.map(|s| s as usize);
        let mut record = undo::Record::new();
        let sizes = steps.iter().map(StoredEdit::size_bytes).collect();
        for (i, mut e) in steps.into_iter().enumerate() {
            if saved == Some(i) {
                record.set_saved();
            }
            e.already_applied = true;
            record.edit(map, e);
        }
        if saved == Some(len) {
            record.set_saved();
        } else if saved.is_none() {
            record.clear_saved();
        }
        for _ in head..len {
            record.undo(map);
        }
        History {
            record,
            sizes,
            ids: (0..len as u64).collect(),
            next_id: len as u64,
            dropped: state.dropped,
            budget,
        }
    }

    /// The record's shape now, as the journal keeps it.
    pub fn journal_state(&self) -> JournalState {
        JournalState {
            dropped: self.dropped,
            len: self.record.len() as u64,
            head: self.record.head() as u64,
            saved: self.record.saved().map(|s| s as u64),
        }
    }

    /// What the next autosave adds to the journal: the steps `written` does not hold yet
    /// (every one when `whole`, a new journal) and the shape now; `written` then holds them.
    /// The steps are copies whose packed arrays are shared, not copied, so this is cheap on the
    /// UI thread even for a whole history; [`JournalSteps::encode`] runs on the autosave's.
    pub fn journal_since(&self, written: &mut Journaled, whole: bool) -> JournalSteps {
        if whole {
            written.0.clear();
        }
        let mut steps = Vec::new();
        for (i, (e, &id)) in self.record.entries().zip(&self.ids).enumerate() {
            let seq = self.dropped + i as u64;
            if written.0.get(&seq) != Some(&id) {
                steps.push((seq, e.as_ref().clone()));
                written.0.insert(seq, id);
            }
        }
        written.0 = written.0.split_off(&self.dropped);
        JournalSteps {
            whole,
            steps,
            state: self.journal_state(),
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
        self.ids.truncate(self.record.head());
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
        self.ids.push_back(self.next_id);
        self.next_id += 1;
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
        self.ids.drain(..n);
        self.dropped += n as u64;
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
