//! Autosave and crash recovery: the open map's unsaved tiles are written to its recovery folder
//! in the user's data directory every few minutes (on a thread of their own), never over the
//! map's files; the next start offers to restore what a crash or a kill left there.
//!
//! Not for: the folder's layout and encoding (see `pipeline::recovery`) or the dialog's widgets
//! (see `ui::dialogs`).

use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::disk::LoamError;
use crate::doc::session::Session;
use crate::edit::History;
use crate::edit::history::Journaled;
use crate::edit::history::stored::StoredEdit;
use crate::format::Generation;
use crate::model::{Tile, TileCoord};
use crate::pipeline::journal::JournalState;
use crate::pipeline::recovery::{self, Manifest, Snapshot};
use crate::ui;

pub use crate::pipeline::recovery::{DATA_DIR_ENV, data_dir, recovery_root};
/// Environment variable giving the autosave interval in seconds for this run, over the
/// setting (tests use it).
pub const AUTOSAVE_ENV: &str = "LOAM_AUTOSAVE_SECS";

/// The minimap caches' parent inside the data directory `data` (see `app::files::export`).
pub fn minimap_root(data: &Path) -> PathBuf {
    data.join("minimaps")
}

/// The autosave interval `$LOAM_AUTOSAVE_SECS` sets for this run, if it does.
pub fn interval_from_env() -> Option<Duration> {
    std::env::var(AUTOSAVE_ENV)
        .ok()?
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
}

/// A recovered map the user has not answered yet.
#[derive(Debug, Clone)]
pub struct Offer {
    /// Its recovery folder.
    pub dir: PathBuf,
    /// What the folder holds.
    pub manifest: Manifest,
    /// The map's files that changed on disk since the autosave.
    pub changed: Vec<PathBuf>,
}

impl Offer {
    /// How long ago the autosave was written, in words ("12 minutes ago").
    pub fn age(&self) -> String {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let secs = now.saturating_sub(self.manifest.written_at);
        match secs {
            0..120 => format!("{secs} seconds ago"),
            120..7200 => format!("{} minutes ago", secs / 60),
            7200..172_800 => format!("{} hours ago", secs / 3600),
            _ => format!("{} days ago", secs / 86_400),
        }
    }
}

/// The autosave of one editor run, and the recovered maps it found on start.
pub struct Recovery {
    root: PathBuf,
    /// The interval `$LOAM_AUTOSAVE_SECS` set, over the setting.
    pub interval_override: Option<Duration>,
    /// Recovered maps not answered yet, oldest first.
    pub offers: Vec<Offer>,
    /// (session id, revision) last written, or found to need nothing.
    written: Option<(u64, u64)>,
    /// The recovery folder this run wrote (or restored from) for the open map: a clean quit
    /// removes it; folders of other maps are left for their own offer.
    owned: Option<PathBuf>,
    last_at: Instant,
    worker: Option<JoinHandle<Result<Manifest, LoamError>>>,
    /// The next snapshot copies every unsaved tile (nothing written yet for this map, or the
    /// last write failed), rather than only those changed since, and starts a new journal.
    whole_next: bool,
    /// The steps the owned folder's journal holds: the next autosave appends only the others.
    journaled: Journaled,
}

impl Recovery {
    /// Autosaves under `root` (the data directory's `recovery/`), offering the maps found
    /// there, except those another running loam is editing.
    pub fn at(root: PathBuf) -> Recovery {
        let offers = recovery::list(&root)
            .into_iter()
            .filter_map(|(dir, m)| {
                let manifest = m.ok()?;
                if manifest.pid != std::process::id() && editor_running(manifest.pid) {
                    return None;
                }
                let changed = recovery::changed_since(&manifest);
                Some(Offer {
                    dir,
                    manifest,
                    changed,
                })
            })
            .collect();
        Recovery {
            root,
            interval_override: None,
            offers,
            written: None,
            owned: None,
            last_at: Instant::now(),
            worker: None,
            whole_next: true,
            journaled: Journaled::default(),
        }
    }

    /// The recovery folder of the map opened from `source`.
    pub fn folder(&self, source: &Path) -> PathBuf {
        recovery::folder_for(&self.root, source)
    }

    /// The time left until the next autosave is due (zero when due).
    pub fn due_in(&self, interval: Duration) -> Duration {
        interval.saturating_sub(self.last_at.elapsed())
    }

    /// Takes the result of a finished background write: an error message for the status bar.
    pub fn poll(&mut self) -> Option<String> {
        if !self.worker.as_ref().is_some_and(JoinHandle::is_finished) {
            return None;
        }
        self.take_result()
    }

    /// Waits for a background write under way: an error message when it failed.
    pub fn finish(&mut self) -> Option<String> {
        self.take_result()
    }

    fn take_result(&mut self) -> Option<String> {
        let failed = match self.worker.take()?.join() {
            Ok(Ok(_)) => return None,
            Ok(Err(e)) => format!("autosave failed: {e}"),
            Err(_) => "autosave failed: its thread stopped".into(),
        };
        // Try again at the next interval, changed or not, with every tile.
        self.written = None;
        self.whole_next = true;
        Some(failed)
    }

    /// Starts writing the unsaved tiles of `session` (run `id`) and the new steps of its
    /// `history` when something changed since the last autosave and the previous write is
    /// done; a map with nothing unsaved has its recovery folder removed instead. Returns an
    /// error message from a previous write.
    pub fn autosave(
        &mut self,
        session: &mut Session,
        history: &History,
        id: u64,
    ) -> Option<String> {
        self.last_at = Instant::now();
        if self.worker.is_some() || self.written == Some((id, session.revision)) {
            return None;
        }
        self.written = Some((id, session.revision));
        let dir = self.folder(&session.source);
        if session.edited.is_empty() {
            if self.owned.as_ref() == Some(&dir) {
                self.owned = None;
                return recovery::remove(&dir)
                    .err()
                    .map(|e| format!("autosave: {e}"));
            }
            return None;
        }
        let whole = self.whole_next || self.owned.as_ref() != Some(&dir);
        let mut snap = snapshot(session, whole);
        // The new steps are taken here (their packed arrays shared, not copied) and encoded on
        // the autosave's thread (docs/reliability.md has the figures).
        let steps = history.journal_since(&mut self.journaled, whole);
        self.whole_next = false;
        self.owned = Some(dir.clone());
        self.worker = std::thread::Builder::new()
            .name("loam-autosave".into())
            .spawn(move || {
                snap.journal = Some(steps.encode());
                recovery::write(&dir, &snap)
            })
            .ok();
        None
    }

    /// Writes the unsaved tiles of `session` and its `history` now and waits (before the map
    /// is closed with unsaved edits, so that they stay recoverable); the folder is then no
    /// longer this run's.
    pub fn write_now(&mut self, session: &mut Session, history: &History) -> Result<(), String> {
        if let Some(e) = self.take_result() {
            return Err(e);
        }
        self.owned = None;
        self.written = None;
        self.whole_next = true;
        if session.edited.is_empty() {
            return Ok(());
        }
        let mut snap = snapshot(session, true);
        snap.journal = Some(
            history
                .journal_since(&mut Journaled::default(), true)
                .encode(),
        );
        recovery::write(&self.folder(&session.source), &snap)
            .map(|_| ())
            .map_err(|e| format!("autosave failed: {e}"))
    }

    /// Removes the recovery folder this run wrote for the open map (a clean quit, closing a
    /// map without unsaved edits), after any write under way.
    pub fn discard_owned(&mut self) -> Result<(), String> {
        let pending = self.take_result();
        self.written = None;
        self.whole_next = true;
        if let Some(dir) = self.owned.take() {
            recovery::remove(&dir).map_err(|e| e.to_string())?;
        }
        pending.map_or(Ok(()), Err)
    }

    /// Marks `dir` as this run's (a map restored from it): its next autosave writes there and a
    /// clean quit removes it.
    pub fn adopt(&mut self, dir: PathBuf) {
        self.owned = Some(dir);
        self.written = None;
        self.whole_next = true;
    }

    /// Removes the offer `index` from the list (answered), returning it.
    pub fn take_offer(&mut self, index: usize) -> Option<Offer> {
        (index < self.offers.len()).then(|| self.offers.remove(index))
    }
}

/// The unsaved state of `session`: its header and a copy of each edited tile in memory changed
/// since the last autosave (every one when `whole`, and always for 0.5.x, whose snapshot is one
/// file), with the files whose change on disk the restore should warn about.
pub fn snapshot(session: &mut Session, whole: bool) -> Snapshot {
    let whole = whole || session.generation <= crate::format::Generation::Alpha055;
    let changed = std::mem::take(&mut session.changed_since_autosave);
    let (copy, reuse): (Vec<TileCoord>, Vec<TileCoord>) = session
        .edited
        .iter()
        .filter(|c| session.map.tiles.contains_key(c))
        .copied()
        .partition(|c| whole || changed.contains(c));
    let tiles: Vec<_> = copy
        .iter()
        .filter_map(|c| session.map.tiles.get(c).cloned())
        .collect();
    let mut files = vec![session.source.clone()];
    for c in copy.iter().chain(&reuse) {
        let f = session.tile_path(*c);
        if !files.contains(&f) {
            files.push(f);
        }
    }
    Snapshot {
        source: session.source.clone(),
        header: session.map.header_only(),
        generation: session.generation,
        tiles,
        reuse,
        files,
        journal: None,
    }
}

/// A recovered map read back, for the app to make the open map.
pub struct Restored {
    /// The map, opened from its source as the autosave's generation.
    pub session: Session,
    /// The autosaved tiles, to take in as unsaved edits.
    pub tiles: Vec<Tile>,
    /// Where the map was opened from.
    pub source: PathBuf,
    /// The recovery folder, for [`Recovery::adopt`] once the map is open.
    pub dir: PathBuf,
    /// The undo history's steps and shape, to rebuild over the restored tiles
    /// ([`History::from_journal`]); none when the autosave kept none or it could not be read.
    pub history: Option<(Vec<StoredEdit>, JournalState)>,
    /// What the status line says.
    pub note: String,
}

/// Answering the restore dialog and autosaving the open map.
impl Recovery {
    /// Before the open map `session` is replaced: its edits, when `unsaved`, are autosaved now
    /// and kept for the next start's offer; a map without any has its recovery folder removed.
    pub fn leave(
        &mut self,
        session: &mut Session,
        history: &History,
        unsaved: bool,
    ) -> Result<(), String> {
        if unsaved {
            self.write_now(session, history)
        } else {
            self.discard_owned()
        }
    }

    /// Autosaves `session` (the `id`th opened) when due and not `busy` (a stroke or a drag
    /// under way). Returns a message for the status line, and when to look again (`None`
    /// with no map open).
    pub fn tick(
        &mut self,
        session: Option<&mut Session>,
        history: &History,
        id: u64,
        busy: bool,
        setting_secs: u32,
    ) -> (Option<String>, Option<Duration>) {
        // `$LOAM_AUTOSAVE_SECS` for this run, else the setting.
        let interval = self
            .interval_override
            .unwrap_or(Duration::from_secs(setting_secs as u64));
        let mut message = self.poll();
        let Some(s) = session else {
            return (message, None);
        };
        if self.due_in(interval).is_zero()
            && !busy
            && let Some(e) = self.autosave(s, history, id)
        {
            message = Some(e);
        }
        let next = self.due_in(interval).max(Duration::from_millis(200));
        (message, Some(next))
    }

    /// Reads back recovered offer `index`: the map from its source, as the autosave's
    /// generation, and its autosaved tiles. `None` when there is no such offer; an error
    /// leaves the folder for the next start to offer again.
    pub fn restore(&mut self, index: usize) -> Option<Result<Restored, String>> {
        let offer = self.take_offer(index)?;
        let m = &offer.manifest;
        let from = m.generation.parse::<Generation>().ok();
        let read = Session::open_as(&m.source, from).and_then(|s| {
            let tiles = recovery::read_tiles(&offer.dir, m, &s.map)?;
            Ok((s, tiles))
        });
        let (mut session, mut tiles) = match read {
            Ok(r) => r,
            Err(e) => return Some(Err(format!("could not restore {}: {e}", m.map))),
        };
        let (history, said) = match recovered_history(&offer) {
            Ok(Some(h)) => {
                let said = format!("with its {} undo step(s)", h.0.len());
                (Some(h), said)
            }
            Ok(None) => (
                None,
                "without an undo history (the autosave kept none)".into(),
            ),
            Err(e) => (None, format!("without its undo history ({e})")),
        };
        if let Some((steps, state)) = &history {
            // The tiles the steps reach, as on disk (the autosaved ones are replaced below):
            // undo finds a tile saved before the crash, and the autosaved tiles are made exact.
            let reached: Vec<TileCoord> = steps
                .iter()
                .flat_map(StoredEdit::tiles)
                .chain(tiles.iter().map(|t| t.coord))
                .collect();
            crate::doc::runner::OpTarget::load(&mut session, &reached);
            let (header, generation) = (session.map.header_only(), session.generation);
            tiles = crate::edit::history::exact_tiles(&session.map, tiles, steps, state, |a, b| {
                recovery::same_on_disk(&header, generation, a, b)
            });
        }
        let mut note = format!(
            "restored {} unsaved tile(s) of {} from the autosave of {}, {said}",
            tiles.len(),
            m.map,
            offer.age()
        );
        if !offer.changed.is_empty() {
            note.push_str(&format!(
                "; changed on disk since the autosave: {}",
                offer
                    .changed
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Some(Ok(Restored {
            session,
            tiles,
            source: m.source.clone(),
            dir: offer.dir.clone(),
            history,
            note,
        }))
    }

    /// Removes recovered offer `index` and its folder; says why when that failed.
    pub fn discard_offer(&mut self, index: usize) -> Option<String> {
        let offer = self.take_offer(index)?;
        recovery::remove(&offer.dir)
            .err()
            .map(|e| format!("could not remove the recovered edits: {e}"))
    }
}

/// The undo history the recovery folder of `offer` kept, decoded.
fn recovered_history(offer: &Offer) -> Result<Option<(Vec<StoredEdit>, JournalState)>, LoamError> {
    let Some(journal) = recovery::read_journal(&offer.dir, &offer.manifest)? else {
        return Ok(None);
    };
    let Some(state) = journal.state else {
        return Ok(None);
    };
    let file = offer
        .manifest
        .journal
        .as_ref()
        .map(|j| offer.dir.join(&j.file))
        .unwrap_or_default();
    let steps = crate::edit::history::journal::decode_journal(&file, &journal)?;
    Ok(Some((steps, state)))
}

/// What the restore dialog shows about a recovered map.
pub(super) fn restore_view(offer: &Offer) -> ui::dialogs::RestoreView {
    let m = &offer.manifest;
    ui::dialogs::RestoreView {
        map: m.map.clone(),
        source: m.source.clone(),
        generation: m.generation.clone(),
        tiles: m.tiles.len(),
        steps: m.journal.as_ref().map_or(0, |j| j.steps as usize),
        age: offer.age(),
        changed: offer.changed.clone(),
    }
}

/// True when process `pid` is a running loam (its recovery folder is in use, not left over).
fn editor_running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "loam")
}

#[cfg(test)]
mod tests {
    /// `pipeline::recovery::data_dir` works the folder out without eframe (the command line
    /// is built without it too), where the editor keeps its settings and autosaves: the two
    /// must name the same folder.
    #[test]
    fn the_data_directory_is_the_one_eframe_keeps_the_settings_in() {
        if std::env::var_os(super::DATA_DIR_ENV).is_some() {
            return;
        }
        assert_eq!(super::data_dir(), eframe::storage_dir("loam"));
    }
}
