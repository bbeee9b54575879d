//! The recovery folder: an open map's unsaved tiles written aside (never over the user's
//! files), so that a crash or a kill loses at most the edits since the last autosave.
//!
//! Each map has a folder of its own, named after its source path: `manifest.json` (where the
//! map is, its generation, when, which tiles, and how the source files looked on disk then)
//! and a snapshot folder with the tiles, encoded in the map's own generation (a 0.5.x map's as
//! a monolithic WDT holding only those tiles). A new autosave writes a new snapshot folder,
//! then the manifest over the old one (atomically), then removes the old snapshot: a kill at
//! any point leaves one whole snapshot that the manifest names.
//!
//! Not for: when to autosave or asking the user (see `app::recovery`).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::journal::{self, JournalWrite};
use super::source::TileSource;
use crate::disk::{LoamError, Result, io_err, tile_file_name, write_atomic};
use crate::format::v18::AlphaDepth;
use crate::format::{Generation, alpha, v18, v060};
use crate::model::{Map, Tile, TileCoord};

/// The manifest's file name in a map's recovery folder.
pub const MANIFEST: &str = "manifest.json";
/// The manifest layout this build writes and reads.
pub const MANIFEST_VERSION: u32 = 1;

/// Environment variable naming the data directory instead of the platform's (tests use it).
pub const DATA_DIR_ENV: &str = "LOAM_DATA_DIR";

/// loam's data directory: `$LOAM_DATA_DIR`, else the platform's, the folder eframe keeps the
/// editor's settings in (`$XDG_DATA_HOME/loam` or `~/.local/share/loam`, `~/Library/Application
/// Support/loam`, `%APPDATA%\loam\data`). Worked out here rather than asked of eframe, so that
/// the command line finds the editor's autosaves in a build without the editor.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os(DATA_DIR_ENV) {
        return Some(PathBuf::from(d));
    }
    let home = std::env::home_dir();
    if cfg!(target_os = "windows") {
        std::env::var_os("APPDATA").map(|a| PathBuf::from(a).join("loam").join("data"))
    } else if cfg!(target_os = "macos") {
        home.map(|h| h.join("Library/Application Support/loam"))
    } else {
        std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| home.map(|h| h.join(".local").join("share")))
            .map(|p| p.join("loam"))
    }
}

/// The recovery folders' parent inside the data directory `data`.
pub fn recovery_root(data: &Path) -> PathBuf {
    data.join("recovery")
}

/// What a map's recovery folder holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_VERSION`] when written.
    pub version: u32,
    /// The file or folder the map was opened from.
    pub source: PathBuf,
    /// The map's name.
    pub map: String,
    /// The generation the map was read as, and the tiles are encoded in ("3.3.5").
    pub generation: String,
    /// When the autosave was written, in seconds since 1970 (UTC).
    pub written_at: u64,
    /// The editor process that wrote it.
    pub pid: u32,
    /// The snapshot folder (beside the manifest) holding the tiles.
    pub snapshot: String,
    /// The unsaved tiles, as (x, y).
    pub tiles: Vec<(u8, u8)>,
    /// The map's files on disk as they were at the autosave: the source and each tile's file.
    pub stamps: Vec<Stamp>,
    /// The undo journal that goes with the snapshot (none from a loam that wrote none).
    #[serde(default)]
    pub journal: Option<JournalRef>,
}

/// The undo journal a manifest names: the file, and how much of it goes with the snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalRef {
    /// The file (beside the manifest).
    pub file: String,
    /// Its bytes up to the state that goes with the snapshot (a later write cut short, or one
    /// the manifest never named, lies after them).
    pub bytes: u64,
    /// Steps held at that state.
    pub steps: u64,
    /// Steps applied at that state.
    pub head: u64,
}

/// A file's size and modification time, to tell whether it changed since.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes, or `None` when it did not exist.
    pub size: Option<u64>,
    /// Its modification time (seconds and nanoseconds since 1970), where known.
    pub modified: Option<(u64, u32)>,
}

impl Stamp {
    /// How `path` looks on disk now.
    pub fn of(path: &Path) -> Stamp {
        let meta = fs::metadata(path).ok();
        Stamp {
            path: path.to_path_buf(),
            size: meta.as_ref().map(fs::Metadata::len),
            modified: meta
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map(|d| (d.as_secs(), d.subsec_nanos())),
        }
    }
}

/// The unsaved state of a map, taken on the UI thread and written on another.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The file or folder the map was opened from.
    pub source: PathBuf,
    /// The map's header (its tiles are not used; name lists are rebuilt from the tiles).
    pub header: Map,
    /// The generation the map is read as.
    pub generation: Generation,
    /// The unsaved tiles that changed since the last autosave (or all of them).
    pub tiles: Vec<Tile>,
    /// Unsaved tiles unchanged since the last autosave: their files are taken from the snapshot
    /// the folder's manifest names instead of being copied and encoded again (split
    /// generations only; a 0.5.x snapshot is one file and always whole).
    pub reuse: Vec<TileCoord>,
    /// The files to stamp: the source and each unsaved tile's file.
    pub files: Vec<PathBuf>,
    /// The undo history's new steps and shape, for the journal (none: no journal is kept).
    pub journal: Option<JournalWrite>,
}

/// The recovery folder of the map opened from `source`, under `root`: the map's file name and
/// a hash of its whole path, so that two maps of one name in different folders do not share
/// one and the folder stays the same from run to run.
pub fn folder_for(root: &Path, source: &Path) -> PathBuf {
    let absolute = std::path::absolute(source).unwrap_or_else(|_| source.to_path_buf());
    let text = absolute.to_string_lossy();
    // FNV-1a: stable across builds and Rust versions (std's hasher promises neither).
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let name: String = absolute
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(40)
        .collect();
    root.join(format!("{name}-{hash:016x}"))
}

/// Writes `snap` into the map's recovery folder `dir` (created if absent) as a new snapshot,
/// then its manifest, then removes older snapshots. Nothing outside `dir` is written.
pub fn write(dir: &Path, snap: &Snapshot) -> Result<Manifest> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let snapshot = format!("snapshot-{}-{}", now.as_secs(), now.subsec_nanos());
    let folder = dir.join(&snapshot);
    fs::create_dir_all(&folder).map_err(io_err(&folder))?;
    let written = encode(snap)
        .and_then(|files| {
            files
                .iter()
                .try_for_each(|(name, bytes)| write_atomic(&folder.join(name), bytes))
        })
        .and_then(|()| reuse(dir, &folder, snap))
        .and_then(|()| write_journal(dir, snap))
        .and_then(|journal| {
            let manifest = Manifest {
                version: MANIFEST_VERSION,
                source: std::path::absolute(&snap.source).unwrap_or_else(|_| snap.source.clone()),
                map: snap.header.name.clone(),
                generation: snap.generation.label().to_string(),
                written_at: now.as_secs(),
                pid: std::process::id(),
                snapshot: snapshot.clone(),
                tiles: {
                    let mut all: Vec<(u8, u8)> = snap
                        .tiles
                        .iter()
                        .map(|t| t.coord)
                        .chain(snap.reuse.iter().copied())
                        .map(|c| (c.x, c.y))
                        .collect();
                    all.sort_unstable();
                    all.dedup();
                    all
                },
                stamps: snap.files.iter().map(|p| Stamp::of(p)).collect(),
                journal,
            };
            let text = serde_json::to_vec_pretty(&manifest)
                .map_err(|e| LoamError::Usage(format!("recovery manifest: {e}")))?;
            write_atomic(&dir.join(MANIFEST), &text)?;
            Ok(manifest)
        });
    if written.is_err() {
        let _ = fs::remove_dir_all(&folder);
        return written;
    }
    // The manifest names the new snapshot and journal: the older ones are no longer needed.
    if let Ok(m) = &written {
        journal::remove_others(dir, m.journal.as_ref().map(|j| j.file.as_str()));
    }
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name();
            if name != *snapshot.as_str() && name.to_string_lossy().starts_with("snapshot-") {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }
    written
}

/// Writes the journal part of `snap`: appended to the journal the manifest in `dir` names, or
/// a new file when the write is whole (or there is none to append to).
fn write_journal(dir: &Path, snap: &Snapshot) -> Result<Option<JournalRef>> {
    let Some(w) = &snap.journal else {
        return Ok(None);
    };
    let previous = if w.whole {
        None
    } else {
        read_manifest(dir)?.journal
    };
    let (file, bytes) = match previous {
        Some(p) => {
            let bytes = journal::write(&dir.join(&p.file), w, p.bytes)?;
            (p.file, bytes)
        }
        None if w.whole => {
            let file = journal::new_name();
            let bytes = journal::write(&dir.join(&file), w, 0)?;
            (file, bytes)
        }
        None => {
            return Err(LoamError::Usage(format!(
                "{}: no journal to append the history to",
                dir.display()
            )));
        }
    };
    Ok(Some(JournalRef {
        file,
        bytes,
        steps: w.state.len,
        head: w.state.head,
    }))
}

/// The undo journal the manifest of `dir` names, read up to what it vouches for; `None` when it
/// names none.
pub fn read_journal(dir: &Path, manifest: &Manifest) -> Result<Option<journal::Journal>> {
    let Some(j) = &manifest.journal else {
        return Ok(None);
    };
    let read = journal::read(&dir.join(&j.file), Some(j.bytes))?;
    if read.end != j.bytes || read.state.map(|s| (s.len, s.head)) != Some((j.steps, j.head)) {
        return Err(LoamError::Usage(format!(
            "{}: the undo journal ends at byte {} before the state the manifest names (byte {})",
            dir.join(&j.file).display(),
            read.end,
            j.bytes
        )));
    }
    Ok(Some(read))
}

/// Takes the files of `snap.reuse` from the snapshot the manifest in `dir` names into the new
/// snapshot `folder` (a hard link where the filesystem allows, else a copy).
fn reuse(dir: &Path, folder: &Path, snap: &Snapshot) -> Result<()> {
    if snap.reuse.is_empty() {
        return Ok(());
    }
    if snap.generation <= Generation::Alpha055 {
        return Err(LoamError::Usage(
            "a 0.5.x recovery snapshot is one file: it cannot reuse tiles".into(),
        ));
    }
    let previous = dir.join(read_manifest(dir)?.snapshot);
    for &c in &snap.reuse {
        let name = tile_file_name(&snap.header.name, c);
        let (from, to) = (previous.join(&name), folder.join(&name));
        if fs::hard_link(&from, &to).is_err() {
            fs::copy(&from, &to).map_err(io_err(&from))?;
        }
    }
    Ok(())
}

/// The file name of the monolithic WDT a 0.5.x snapshot is written as.
fn monolithic_name(map: &str) -> String {
    format!("{map}.wdt")
}

/// The alpha depth a split snapshot's tiles are written and read with (what the encoder picks
/// from the header, see `pipeline::alpha_target`).
fn depth_of(header: &Map) -> AlphaDepth {
    if header.big_alpha() {
        AlphaDepth::Big
    } else {
        AlphaDepth::Nibble
    }
}

/// The snapshot's files: one tile file each for a split generation, one monolithic WDT with
/// only the unsaved tiles for 0.5.x.
fn encode(snap: &Snapshot) -> Result<Vec<(String, Vec<u8>)>> {
    let name = &snap.header.name;
    Ok(match snap.generation {
        Generation::Alpha053 | Generation::Alpha055 => {
            let mut map = snap.header.header_only();
            // The names are rebuilt from the tiles' own lists, as for an edited tile's save.
            map.map_wide_names = None;
            map.tiles = snap.tiles.iter().map(|t| (t.coord, t.clone())).collect();
            vec![(monolithic_name(name), alpha::write_wdt(&map))]
        }
        Generation::V060 => snap
            .tiles
            .iter()
            .map(|t| (tile_file_name(name, t.coord), v060::write_adt(t)))
            .collect(),
        Generation::V112 | Generation::V335 => {
            let alpha = super::alpha_target(&snap.header);
            snap.tiles
                .iter()
                .map(|t| (tile_file_name(name, t.coord), v18::write_adt(t, alpha)))
                .collect()
        }
    })
}

/// True when tiles `a` and `b` of the map with header `header` write the same bytes in an
/// autosave of `generation` (one read back from an autosave, the other what it may have been
/// in memory).
pub fn same_on_disk(header: &Map, generation: Generation, a: &Tile, b: &Tile) -> bool {
    let bytes = |t: &Tile| {
        encode(&Snapshot {
            source: PathBuf::new(),
            header: header.clone(),
            generation,
            tiles: vec![t.clone()],
            reuse: Vec::new(),
            files: Vec::new(),
            journal: None,
        })
        .ok()
    };
    let (x, y) = (bytes(a), bytes(b));
    x.is_some() && x == y
}

/// Reads the manifest of the recovery folder `dir`.
pub fn read_manifest(dir: &Path) -> Result<Manifest> {
    let path = dir.join(MANIFEST);
    let bytes = crate::disk::read_file(&path)?;
    let m: Manifest = serde_json::from_slice(&bytes)
        .map_err(|e| LoamError::Usage(format!("{}: {e}", path.display())))?;
    if m.version != MANIFEST_VERSION {
        return Err(LoamError::Usage(format!(
            "{}: recovery manifest version {} (this loam reads {MANIFEST_VERSION})",
            path.display(),
            m.version
        )));
    }
    Ok(m)
}

/// Every map's recovery folder under `root` with its manifest (or why it cannot be read),
/// oldest first.
pub fn list(root: &Path) -> Vec<(PathBuf, Result<Manifest>)> {
    let Ok(entries) = fs::read_dir(root) else {
        return Vec::new();
    };
    let mut found: Vec<(PathBuf, Result<Manifest>)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .map(|p| {
            let m = read_manifest(&p);
            (p, m)
        })
        .collect();
    found.sort_by_key(|(p, m)| (m.as_ref().map_or(0, |m| m.written_at), p.clone()));
    found
}

/// Reads the tiles of the snapshot `manifest` names in `dir`, decoded as the map's generation
/// with the alpha depth `header` (the map's header as opened) gives.
pub fn read_tiles(dir: &Path, manifest: &Manifest, header: &Map) -> Result<Vec<Tile>> {
    let generation: Generation = manifest
        .generation
        .parse()
        .map_err(|e: String| LoamError::Usage(format!("{}: {e}", dir.join(MANIFEST).display())))?;
    let folder = dir.join(&manifest.snapshot);
    let coords: Vec<TileCoord> = manifest
        .tiles
        .iter()
        .map(|&(x, y)| {
            TileCoord::new(x as usize, y as usize).ok_or_else(|| {
                LoamError::Usage(format!("{}: no tile {x}_{y}", dir.join(MANIFEST).display()))
            })
        })
        .collect::<Result<_>>()?;
    let source = match generation {
        Generation::Alpha053 | Generation::Alpha055 => {
            let wdt = folder.join(monolithic_name(&manifest.map));
            let h = super::source::read_monolithic_header(&wdt, &manifest.map)?;
            TileSource::Monolithic {
                file: wdt,
                names: h.names,
                blocks: h.tiles.into_iter().collect(),
            }
        }
        _ => TileSource::Split {
            files: coords
                .iter()
                .map(|&c| (c, folder.join(tile_file_name(&manifest.map, c))))
                .collect(),
            generation,
            depth: depth_of(header),
        },
    };
    coords
        .iter()
        .map(|&c| source.read(c).map(|(t, _)| t))
        .collect()
}

/// The stamped files that changed on disk since the autosave.
pub fn changed_since(manifest: &Manifest) -> Vec<PathBuf> {
    manifest
        .stamps
        .iter()
        .filter(|s| Stamp::of(&s.path) != **s)
        .map(|s| s.path.clone())
        .collect()
}

/// Removes a map's recovery folder (after a save of everything, a clean quit or Discard).
pub fn remove(dir: &Path) -> Result<()> {
    match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(LoamError::Io {
            path: dir.to_path_buf(),
            source: e,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(dir: &Path) -> (Map, Vec<Tile>) {
        crate::sample::write_sample(dir).unwrap();
        let opened = crate::pipeline::open_map(&dir.join("Sample.wdt")).unwrap();
        let tiles: Vec<Tile> = opened.map.tiles.values().take(2).cloned().collect();
        (opened.map.header_only(), tiles)
    }

    #[test]
    fn a_snapshot_reads_back_as_the_same_tiles_in_every_generation() {
        let dir = tempfile::tempdir().unwrap();
        let (header, tiles) = sample(&dir.path().join("map"));
        for g in Generation::ALL {
            let mut header = header.clone();
            // Make the tiles fit `g` (each generation keeps a different subset).
            let mut m = header.clone();
            m.tiles = tiles.iter().map(|t| (t.coord, t.clone())).collect();
            crate::convert::prepare_map(&mut m, Generation::V335, g);
            header.flags = m.flags;
            let tiles: Vec<Tile> = m.tiles.into_values().collect();
            // What the generation's own save then reads back is the reference.
            let snap = Snapshot {
                source: dir.path().join("map/Sample.wdt"),
                header: header.clone(),
                generation: g,
                tiles: tiles.clone(),
                reuse: Vec::new(),
                files: vec![dir.path().join("map/Sample.wdt")],
                journal: None,
            };
            let rec = dir.path().join(format!("rec-{}", g.label()));
            let manifest = write(&rec, &snap).unwrap();
            assert_eq!(read_manifest(&rec).unwrap(), manifest);
            let back = read_tiles(&rec, &manifest, &header).unwrap();
            let saved =
                crate::pipeline::encode_map(&m_with(&header, &tiles), g, false, None).unwrap();
            let again =
                crate::pipeline::encode_map(&m_with(&header, &back), g, false, None).unwrap();
            assert_eq!(back.len(), tiles.len(), "{g}");
            for (a, b) in saved.iter().zip(&again) {
                assert!(a.bytes == b.bytes, "{g}: {} differs after recovery", a.name);
            }
        }
    }

    fn m_with(header: &Map, tiles: &[Tile]) -> Map {
        let mut m = header.header_only();
        m.map_wide_names = None;
        m.tiles = tiles.iter().map(|t| (t.coord, t.clone())).collect();
        m
    }

    #[test]
    fn a_new_snapshot_replaces_the_old_and_remove_clears_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let (header, tiles) = sample(&dir.path().join("map"));
        let src = dir.path().join("map/Sample.wdt");
        let rec = folder_for(&dir.path().join("recovery"), &src);
        let snap = Snapshot {
            source: src.clone(),
            header,
            generation: Generation::V335,
            tiles,
            reuse: Vec::new(),
            files: vec![src.clone()],
            journal: None,
        };
        let first = write(&rec, &snap).unwrap();
        let second = write(&rec, &snap).unwrap();
        assert_ne!(first.snapshot, second.snapshot);
        let snapshots: Vec<String> = fs::read_dir(&rec)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with("snapshot-"))
            .collect();
        assert_eq!(snapshots, vec![second.snapshot.clone()]);
        assert!(changed_since(&second).is_empty());
        fs::write(&src, b"changed").unwrap();
        assert_eq!(changed_since(&second), vec![src.clone()]);
        let listed = list(&dir.path().join("recovery"));
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].1.as_ref().unwrap(), &second);
        remove(&rec).unwrap();
        assert!(!rec.exists());
        assert!(list(&dir.path().join("recovery")).is_empty());
    }
}
