//! `loam recover`: what the editor's autosave kept of maps it did not save (a crash, a kill),
//! read without the editor: the maps there are, a map's recovered undo steps, and the map
//! written out with its autosaved tiles, optionally with its last steps undone.
//!
//! Not for: the recovery folder's layout (`pipeline::recovery`, `pipeline::journal`) or the
//! editor's restore dialog (`app::recovery`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::disk::LoamError;
use crate::doc::runner::OpTarget;
use crate::edit::History;
use crate::edit::history::journal::decode_journal;
use crate::edit::history::stored::StoredEdit;
use crate::edit::history::{DEFAULT_BUDGET, exact_tiles};
use crate::format::Generation;
use crate::model::TileCoord;
use crate::pipeline::journal::JournalState;
use crate::pipeline::recovery::{self, MANIFEST, Manifest};

use super::apply::{EditContext, Edits, Source, edit_and_write};

/// The recovery folders' parent: `$LOAM_DATA_DIR/recovery`, else the platform data folder's.
fn root() -> Result<PathBuf, LoamError> {
    recovery::data_dir()
        .map(|d| recovery::recovery_root(&d))
        .ok_or_else(|| {
            LoamError::Usage(format!(
                "no data directory on this system: set {}",
                recovery::DATA_DIR_ENV
            ))
        })
}

/// `loam recover --list`: one line a map, `PATH<tab>TIME<tab>N steps`, oldest autosave first.
pub fn list() -> Result<ExitCode, LoamError> {
    let mut bad = false;
    for (dir, m) in recovery::list(&root()?) {
        match m {
            Ok(m) => println!(
                "{}\t{}\t{} steps",
                m.source.display(),
                utc(m.written_at),
                m.journal.as_ref().map_or(0, |j| j.steps)
            ),
            Err(e) => {
                eprintln!("{}: {e}", dir.display());
                bad = true;
            }
        }
    }
    Ok(if bad {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The recovery folder and manifest of the map opened from `map`.
fn find(map: &Path) -> Result<(PathBuf, Manifest), LoamError> {
    let dir = recovery::folder_for(&root()?, map);
    if !dir.join(MANIFEST).is_file() {
        return Err(LoamError::Usage(format!(
            "no autosave of {} (`loam recover --list` shows the maps that have one)",
            map.display()
        )));
    }
    let manifest = recovery::read_manifest(&dir)?;
    Ok((dir, manifest))
}

/// The recovered steps of the folder `dir` and the history's shape (none: no journal).
fn steps(dir: &Path, m: &Manifest) -> Result<(Vec<StoredEdit>, JournalState), LoamError> {
    let (Some(journal), Some(j)) = (recovery::read_journal(dir, m)?, &m.journal) else {
        return Ok((Vec::new(), JournalState::default()));
    };
    let state = journal.state.unwrap_or_default();
    Ok((decode_journal(&dir.join(&j.file), &journal)?, state))
}

/// `loam recover MAP --history`: the recovered steps, oldest first, one label a line as the
/// history panel shows it; steps undone before the autosave (which Redo would bring back)
/// end with a tab and `(undone)`.
pub fn history(map: &Path) -> Result<ExitCode, LoamError> {
    let (dir, m) = find(map)?;
    let (steps, state) = steps(&dir, &m)?;
    for (i, s) in steps.iter().enumerate() {
        if (i as u64) < state.head {
            println!("{}", s.label);
        } else {
            println!("{}\t(undone)", s.label);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The recovered map as `loam apply` edits one: the autosaved tiles over those on disk, the
/// history over them, its last `undo` steps undone.
struct Recovered<'a> {
    dir: &'a Path,
    manifest: &'a Manifest,
    undo: usize,
}

impl Edits for Recovered<'_> {
    fn run(
        &self,
        target: &mut impl OpTarget,
        _: &EditContext,
    ) -> Result<BTreeSet<TileCoord>, LoamError> {
        let m = self.manifest;
        let tiles = recovery::read_tiles(self.dir, m, target.map())?;
        let (steps, state) = steps(self.dir, m)?;
        // Every tile the steps reach and every autosaved one, as on disk: a step may reach a
        // tile saved before the crash (undone there too, and written from memory), and the
        // autosaved tiles are made exact from the others (`exact_tiles`).
        let changed: BTreeSet<TileCoord> = steps
            .iter()
            .flat_map(StoredEdit::tiles)
            .chain(tiles.iter().map(|t| t.coord))
            .collect();
        target.load(&changed.iter().copied().collect::<Vec<_>>());
        let generation = m
            .generation
            .parse::<Generation>()
            .map_err(LoamError::Usage)?;
        let header = target.map().header_only();
        let tiles = exact_tiles(target.map(), tiles, &steps, &state, |a, b| {
            recovery::same_on_disk(&header, generation, a, b)
        });
        let map = target.map();
        for t in tiles {
            // Recovered tiles carry their own name lists; a 0.5.x write maps them by name.
            if let Some(names) = &mut map.map_wide_names {
                names.tile_doodad_indices.remove(&t.coord);
                names.tile_wmo_indices.remove(&t.coord);
            }
            map.tiles.insert(t.coord, t);
        }
        let mut history = History::from_journal(map, steps, &state, DEFAULT_BUDGET);
        let (labels, applied) = history.labels();
        println!(
            "recovered {} tile(s) and {} undo step(s) ({applied} applied) from the autosave of {}",
            m.tiles.len(),
            labels.len(),
            utc(m.written_at)
        );
        if self.undo > applied {
            return Err(LoamError::Usage(format!(
                "--undo {}: the autosave holds {applied} applied undo step(s)",
                self.undo
            )));
        }
        for label in labels[applied - self.undo..applied].iter().rev() {
            if history.undo(map).is_none() {
                return Err(LoamError::Usage(format!(
                    "--undo: {label} could not be undone"
                )));
            }
            println!("undone: {label}");
        }
        Ok(changed)
    }
}

/// `loam recover MAP OUT --to VERSION [--undo N]`: the map opened from `map` with its
/// autosaved tiles and history, its last `undo` steps undone, written to `out` as `to`.
pub fn write(map: &Path, out: &Path, to: Generation, undo: usize) -> Result<ExitCode, LoamError> {
    let (dir, manifest) = find(map)?;
    let from = manifest
        .generation
        .parse::<Generation>()
        .map_err(|e| LoamError::Usage(format!("{}: {e}", dir.join(MANIFEST).display())))?;
    let changed = recovery::changed_since(&manifest);
    if !changed.is_empty() {
        eprintln!(
            "warning: changed on disk since the autosave: {}",
            changed
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let source = Source {
        map: &manifest.source,
        from: Some(from),
        client: None,
    };
    let edits = Recovered {
        dir: &dir,
        manifest: &manifest,
        undo,
    };
    edit_and_write(&source, &edits, to, out)
}

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (UTC).
fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn times_are_written_as_utc_dates() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_795_000_000), "2026-11-18T11:06:40Z");
    }
}
