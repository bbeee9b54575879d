//! Where bytes meet the filesystem: whole-file reads with errors that name the file, atomic
//! writes (temp file in the target folder, flush, rename), and map folders (a WDT with its
//! `Name_X_Y.adt` tiles beside it).
//!
//! Not for: decoding (see `format`); this module only finds files and hands bytes over.

pub mod locate;
pub mod open;
pub mod pack;
pub mod recovery;
pub mod source;
pub mod stream;
pub mod uid_range;
pub mod wdl;

pub use locate::{MapKind, MapSource, locate};
pub use open::{OpenedMap, open_map, open_map_as, read_tile_as};

use std::fs;
use std::path::{Path, PathBuf};

use crate::format::v18::{self, AlphaTarget};
use crate::format::{FormatError, Generation, alpha, v060};
use crate::model::map::Map;
use crate::model::{Tile, TileCoord};

/// Anything that can go wrong opening, checking or saving.
#[derive(Debug, thiserror::Error)]
pub enum LoamError {
    /// The filesystem refused.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A file's bytes do not decode.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The request itself makes no sense (a wrong extension, an unsupported target).
    #[error("{0}")]
    Usage(String),
    /// A save of several files stopped on a failure: what failed, which files were written
    /// whole and which were left as they were on disk.
    #[error("{cause}; {}", save_outcome(written, not_written))]
    Save {
        /// The failure that stopped the save (it names the file and the reason).
        cause: Box<LoamError>,
        /// Files that were written whole before the failure.
        written: Vec<PathBuf>,
        /// Files that were not written: their old content (or their absence) is as it was.
        not_written: Vec<PathBuf>,
    },
}

/// "written: A; not written: B, C", by file name.
fn save_outcome(written: &[PathBuf], not_written: &[PathBuf]) -> String {
    let names = |v: &[PathBuf]| {
        v.iter()
            .map(|p| {
                p.file_name()
                    .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
            })
            .collect::<Vec<String>>()
            .join(", ")
    };
    match (written.is_empty(), not_written.is_empty()) {
        (true, _) => format!(
            "nothing was written, the files on disk are as they were (not written: {})",
            names(not_written)
        ),
        (false, true) => format!("written: {}", names(written)),
        (false, false) => format!(
            "written: {}; not written, as they were: {}",
            names(written),
            names(not_written)
        ),
    }
}

/// Result of file operations.
pub type Result<T> = std::result::Result<T, LoamError>;

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> LoamError + '_ {
    move |source| LoamError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads a whole file.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(io_err(path))
}

/// Writes `bytes` to `path` without ever leaving a half-written file there: the bytes go to a
/// temporary file in the same folder, are flushed to disk, and the temporary file is renamed
/// over `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_pending(path, bytes)?.commit()
}

/// The temporary name `path` is written under before it is renamed over the target: beside it,
/// so that the rename stays on one filesystem.
pub(crate) fn temp_path(path: &Path) -> Result<PathBuf> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| LoamError::Usage(format!("{} is not a file path", path.display())))?;
    Ok(dir.join(format!(
        ".{}{TEMP_MARK}{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// What a temporary file's name has between the target's name and the writing process's id.
const TEMP_MARK: &str = ".loam-tmp-";

/// Removes the temporary files ([`temp_path`]) a killed save left in `folder`: those whose
/// process is gone. A kill mid-save never touches the map's own files, but it leaves its
/// temporary files behind, and a whole 0.5.x WDT's can be hundreds of megabytes; the next save
/// into the folder removes them. Where a process's liveness cannot be told (no `/proc`: other
/// systems than Linux), a temporary file is taken for stale once nothing has written to it for
/// [`STALE_TEMP_AGE`]; a live save's files are minutes old at most.
pub fn remove_stale_temps(folder: &Path) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.starts_with('.'))
            .and_then(|n| n.rsplit_once(TEMP_MARK))
            .and_then(|(_, pid)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        let idle = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok());
        if temp_is_stale(process_alive(pid), idle) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// How long a temporary file of a process whose liveness cannot be told must have gone
/// unwritten before [`remove_stale_temps`] removes it.
pub const STALE_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(60 * 60);

/// Whether a temporary file is left over: its process is known to be gone, or, where that
/// cannot be told (`alive` is `None`), it has not been written to for [`STALE_TEMP_AGE`]
/// (`idle`; `None` when its time cannot be read, and then it is kept).
fn temp_is_stale(alive: Option<bool>, idle: Option<std::time::Duration>) -> bool {
    match alive {
        Some(alive) => !alive,
        None => idle.is_some_and(|d| d >= STALE_TEMP_AGE),
    }
}

/// Whether process `pid` is running, where that can be told (Linux's `/proc`).
fn process_alive(pid: u32) -> Option<bool> {
    (cfg!(target_os = "linux") && Path::new("/proc/self").exists())
        .then(|| Path::new(&format!("/proc/{pid}")).exists())
}

#[cfg(test)]
mod stale_temp_tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_temp_of_a_gone_process_is_stale_and_a_live_ones_is_not_whatever_its_age() {
        let old = Some(Duration::from_secs(10 * 24 * 3600));
        assert!(temp_is_stale(Some(false), Some(Duration::ZERO)));
        assert!(!temp_is_stale(Some(true), old));
    }

    #[test]
    fn where_liveness_is_unknown_only_a_temp_idle_for_an_hour_is_stale() {
        assert!(!temp_is_stale(None, Some(Duration::from_secs(59 * 60))));
        assert!(temp_is_stale(None, Some(STALE_TEMP_AGE)));
        assert!(
            !temp_is_stale(None, None),
            "an unreadable time keeps the file"
        );
    }

    #[test]
    fn this_machines_processes_can_be_told_apart_on_linux() {
        if cfg!(target_os = "linux") {
            assert_eq!(process_alive(std::process::id()), Some(true));
            // Above the kernel's largest pid (2^22).
            assert_eq!(process_alive(u32::MAX - 1), Some(false));
        }
    }
}

/// A file written to its temporary name, not yet flushed or renamed over its target: see
/// [`write_pending`], [`Pending::commit`] and [`Flusher`].
#[derive(Debug)]
pub struct Pending {
    tmp: PathBuf,
    path: PathBuf,
}

impl Pending {
    /// Removes the temporary file: the target is never touched.
    pub fn discard(&self) {
        let _ = fs::remove_file(&self.tmp);
    }

    /// Flushes the temporary file to disk; an error names the target.
    fn flush(&self) -> Result<()> {
        fs::File::open(&self.tmp)
            .and_then(|f| f.sync_all())
            .map_err(io_err(&self.path))
    }

    /// Flushes the file to disk and renames it over its target; on failure the temporary file
    /// is removed and the target is as it was.
    pub fn commit(self) -> Result<()> {
        let result = self
            .flush()
            .and_then(|()| fs::rename(&self.tmp, &self.path).map_err(io_err(&self.path)));
        if result.is_err() {
            let _ = fs::remove_file(&self.tmp);
        }
        result
    }
}

/// Writes `bytes` to a temporary file beside `path` without flushing it, so that a whole map's
/// files can be flushed while others encode ([`Flusher`]): one flush per file, one after
/// another, costs more than the encoding, as the disk waits on each. An error names the target
/// (the file the user knows), not the temporary name.
pub fn write_pending(path: &Path, bytes: &[u8]) -> Result<Pending> {
    let tmp = temp_path(path)?;
    let result = fs::write(&tmp, bytes).map_err(io_err(path));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|()| Pending {
        tmp,
        path: path.to_path_buf(),
    })
}

/// Flushes pending files to disk on a thread of its own while the caller keeps encoding, so
/// that the disk's work overlaps the processor's; [`Flusher::finish`] then renames every file
/// over its target, or none.
pub struct Flusher {
    tx: Option<std::sync::mpsc::Sender<Pending>>,
    handle: Option<std::thread::JoinHandle<Flushed>>,
}

/// Each file the flushing thread took, and whether it reached the disk.
type Flushed = Vec<(Pending, Result<()>)>;

impl Flusher {
    /// Starts the flushing thread.
    pub fn start() -> Flusher {
        let (tx, rx) = std::sync::mpsc::channel::<Pending>();
        let handle = std::thread::Builder::new()
            .name("loam-flush".into())
            .spawn(move || {
                rx.into_iter()
                    .map(|p| {
                        let r = p.flush();
                        (p, r)
                    })
                    .collect()
            })
            .ok();
        Flusher {
            tx: Some(tx),
            handle,
        }
    }

    /// Queues a written file for flushing.
    pub fn send(&self, p: Pending) {
        if let Some(tx) = &self.tx {
            // Only a thread that died refuses; `finish` reports that and renames nothing.
            let _ = tx.send(p);
        }
    }

    /// Gives up: waits for the flushing thread and removes every queued temporary file, so that
    /// no target is touched and nothing is left behind.
    pub fn abandon(mut self) {
        drop(self.tx.take());
        if let Some(Ok(flushed)) = self.handle.take().map(|h| h.join()) {
            flushed.iter().for_each(|(p, _)| p.discard());
        }
    }

    /// Waits for every queued file to reach the disk, then renames each over its target.
    /// Nothing is renamed unless every file flushed; on failure the temporary files are removed
    /// and the targets are as they were.
    pub fn finish(mut self) -> Result<()> {
        drop(self.tx.take());
        let flushed = match self.handle.take().map(|h| h.join()) {
            Some(Ok(v)) => v,
            _ => return Err(LoamError::Usage("the flushing thread failed".into())),
        };
        let targets: Vec<PathBuf> = flushed.iter().map(|(p, _)| p.path.clone()).collect();
        let (flushed, results): (Vec<Pending>, Vec<Result<()>>) = flushed.into_iter().unzip();
        if let Some(e) = results.into_iter().find_map(Result::err) {
            flushed.iter().for_each(Pending::discard);
            return Err(LoamError::Save {
                cause: Box::new(e),
                written: Vec::new(),
                not_written: targets,
            });
        }
        for (i, p) in flushed.iter().enumerate() {
            if let Err(source) = fs::rename(&p.tmp, &p.path) {
                flushed[i..].iter().for_each(Pending::discard);
                return Err(LoamError::Save {
                    cause: Box::new(LoamError::Io {
                        path: p.path.clone(),
                        source,
                    }),
                    written: targets[..i].to_vec(),
                    not_written: targets[i..].to_vec(),
                });
            }
        }
        Ok(())
    }
}

/// The file name of a tile of map `map`: `Map_X_Y.adt`.
pub fn tile_file_name(map: &str, coord: TileCoord) -> String {
    format!("{map}_{}_{}.adt", coord.x, coord.y)
}

/// Splits `Map_X_Y.adt` into the map name and the tile coordinate.
pub fn parse_tile_file_name(file_name: &str) -> Option<(String, TileCoord)> {
    let cut = file_name.len().checked_sub(4)?;
    let stem = file_name
        .get(cut..)
        .filter(|ext| ext.eq_ignore_ascii_case(".adt"))
        .and_then(|_| file_name.get(..cut))?;
    let mut parts = stem.rsplitn(3, '_');
    let y = parts.next()?.parse().ok()?;
    let x = parts.next()?.parse().ok()?;
    let name = parts.next()?;
    Some((name.to_string(), TileCoord::new(x, y)?))
}

/// The alpha form a save of `map` writes.
pub fn alpha_target(map: &Map) -> AlphaTarget {
    AlphaTarget {
        big: map.big_alpha(),
    }
}

/// One file a save produces: its name in the target folder and its bytes.
#[derive(Debug, Clone)]
pub struct EncodedFile {
    /// File name ("Azeroth_32_48.adt").
    pub name: String,
    /// The bytes to write.
    pub bytes: Vec<u8>,
}

/// Encodes `map` as the files of generation `generation`: the WDT when `with_wdt`, and every
/// loaded tile in `tiles` (all loaded tiles when `None`), encoded in parallel. The map must
/// already fit the target (see `convert::prepare_map`).
pub fn encode_map(
    map: &Map,
    generation: Generation,
    with_wdt: bool,
    tiles: Option<&[TileCoord]>,
) -> Result<Vec<EncodedFile>> {
    use rayon::prelude::*;
    if !generation.writable() {
        return Err(LoamError::Usage(format!(
            "loam cannot write {generation} files yet"
        )));
    }
    let chosen: Vec<&Tile> = match tiles {
        Some(list) => list.iter().filter_map(|c| map.tiles.get(c)).collect(),
        None => map.tiles.values().collect(),
    };
    let wdt_name = format!("{}.wdt", map.name);
    let files = match generation {
        // The monolithic WDT holds every tile; 0.5.5 reads the same file as 0.5.3 (its prototype
        // ADT loader is gated off in the shipped client, see `format::proto055`).
        Generation::Alpha053 | Generation::Alpha055 => {
            vec![EncodedFile {
                name: wdt_name,
                bytes: alpha::write_wdt(map),
            }]
        }
        Generation::V060 => {
            let mut files: Vec<EncodedFile> = chosen
                .par_iter()
                .map(|t| EncodedFile {
                    name: tile_file_name(&map.name, t.coord),
                    bytes: v060::write_adt(t),
                })
                .collect();
            if with_wdt {
                files.insert(
                    0,
                    EncodedFile {
                        name: wdt_name,
                        bytes: v060::write_wdt(map),
                    },
                );
            }
            files
        }
        Generation::V112 | Generation::V335 => {
            let alpha = alpha_target(map);
            let mut files: Vec<EncodedFile> = chosen
                .par_iter()
                .map(|t| EncodedFile {
                    name: tile_file_name(&map.name, t.coord),
                    bytes: v18::write_adt(t, alpha),
                })
                .collect();
            if with_wdt {
                files.insert(
                    0,
                    EncodedFile {
                        name: wdt_name,
                        bytes: v18::write_wdt(map),
                    },
                );
            }
            files
        }
    };
    Ok(files)
}

/// Writes encoded files into `folder` (created if absent), all or nothing per file: every file
/// is first written whole to a temporary name beside its target and flushed, and only then
/// renamed over its target, tiles before the WDT (a WDT never lists tiles that did not make it
/// to disk). A failure while writing or flushing leaves every target as it was and removes the
/// temporary files; a rename that fails after others succeeded (the folder vanished) stops
/// there. Either way the error is [`LoamError::Save`], naming the file, the reason and which
/// files were and were not written. `progress` is called after each file with the number
/// written so far.
pub fn write_files(
    folder: &Path,
    files: &[EncodedFile],
    mut progress: impl FnMut(usize),
) -> Result<()> {
    let mut order: Vec<&EncodedFile> = files.iter().collect();
    // Stable: the tiles keep their order, the WDT goes last.
    order.sort_by_key(|f| is_wdt_name(&f.name));
    let targets: Vec<PathBuf> = order.iter().map(|f| folder.join(&f.name)).collect();
    let nothing_written = |cause: LoamError| LoamError::Save {
        cause: Box::new(cause),
        written: Vec::new(),
        not_written: targets.clone(),
    };
    fs::create_dir_all(folder)
        .map_err(io_err(folder))
        .map_err(nothing_written)?;
    remove_stale_temps(folder);
    let mut pending = Vec::with_capacity(order.len());
    for (i, (f, path)) in order.iter().zip(&targets).enumerate() {
        match write_pending(path, &f.bytes) {
            Ok(p) => pending.push(p),
            Err(e) => {
                pending.iter().for_each(Pending::discard);
                return Err(nothing_written(e));
            }
        }
        progress(i + 1);
    }
    // Flushed together, so that the disk works on all of them at once.
    let flushed: Vec<Result<()>> = {
        use rayon::prelude::*;
        pending.par_iter().map(Pending::flush).collect()
    };
    if let Some(e) = flushed.into_iter().find_map(Result::err) {
        pending.iter().for_each(Pending::discard);
        return Err(nothing_written(e));
    }
    let mut done = Vec::new();
    let mut left = pending.into_iter();
    while let Some(p) = left.next() {
        if let Err(source) = fs::rename(&p.tmp, &p.path) {
            p.discard();
            left.as_slice().iter().for_each(Pending::discard);
            return Err(LoamError::Save {
                cause: Box::new(LoamError::Io {
                    path: p.path.clone(),
                    source,
                }),
                not_written: targets[done.len()..].to_vec(),
                written: done,
            });
        }
        done.push(p.path);
    }
    Ok(())
}

/// True for a `.wdt` file name (any case).
fn is_wdt_name(name: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wdt"))
}
