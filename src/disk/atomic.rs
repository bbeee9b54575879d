//! Writing files so that nothing the user had on disk is ever half-overwritten: each file is
//! written whole to a temporary name beside its target, flushed, and only then renamed over
//! it; a save of many files renames nothing until every file has reached the disk.
//!
//! The same code runs on Linux and Windows, whose rules differ in three places this module
//! owns: flushing needs a handle with write access on Windows (`FlushFileBuffers`); a file
//! another program holds open cannot be replaced there (checked before anything is renamed,
//! and said in words); and a target's name is spelled as the folder already spells it, so
//! that `azeroth_32_48.adt` is replaced, not joined by an `Azeroth_32_48.adt`.
//!
//! Not for: deciding what goes into the files (see `stream` and `encode_map`).

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{LoamError, Result, io_err};

/// One file a save produces: its name in the target folder and its bytes.
#[derive(Debug, Clone)]
pub struct EncodedFile {
    /// File name ("Azeroth_32_48.adt").
    pub name: String,
    /// The bytes to write.
    pub bytes: Vec<u8>,
}

/// Writes `bytes` to `path` without ever leaving a half-written file there: the bytes go to a
/// temporary file in the same folder, are flushed to disk, and the temporary file is renamed
/// over `path` (or over the file the folder already has under that name in another case).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_pending(&as_spelled_on_disk(path), bytes)?.commit()
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
/// into the folder removes them. Where a process's liveness cannot be told, a temporary file is
/// taken for stale once nothing has written to it for [`STALE_TEMP_AGE`]; a live save's files
/// are minutes old at most.
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
pub const STALE_TEMP_AGE: Duration = Duration::from_secs(60 * 60);

/// Whether a temporary file is left over: its process is known to be gone, or, where that
/// cannot be told (`alive` is `None`), it has not been written to for [`STALE_TEMP_AGE`]
/// (`idle`; `None` when its time cannot be read, and then it is kept).
fn temp_is_stale(alive: Option<bool>, idle: Option<Duration>) -> bool {
    match alive {
        Some(alive) => !alive,
        None => idle.is_some_and(|d| d >= STALE_TEMP_AGE),
    }
}

/// Whether process `pid` is running, where that can be told: Linux's `/proc`.
#[cfg(not(windows))]
fn process_alive(pid: u32) -> Option<bool> {
    (cfg!(target_os = "linux") && Path::new("/proc/self").exists())
        .then(|| Path::new(&format!("/proc/{pid}")).exists())
}

/// Whether process `pid` is running: Windows answers `OpenProcess` for a pid that names no
/// process with `ERROR_INVALID_PARAMETER`. A process this user may not query (another
/// user's) is not known either way; a pid Windows has given to a new process since reads as
/// alive, which only keeps a file a while longer.
#[cfg(windows)]
fn process_alive(pid: u32) -> Option<bool> {
    use windows_sys::Win32::Foundation::{
        CloseHandle, ERROR_INVALID_PARAMETER, GetLastError, STILL_ACTIVE,
    };
    use windows_sys::Win32::System::Threading::{
        GetExitCodeProcess, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
    };
    // SAFETY: plain Win32 calls on a process id; the handle is closed before returning and
    // `code` outlives the call that writes it.
    unsafe {
        let handle = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
        if handle.is_null() {
            return (GetLastError() == ERROR_INVALID_PARAMETER).then_some(false);
        }
        let mut code = 0u32;
        let known = GetExitCodeProcess(handle, &mut code) != 0;
        CloseHandle(handle);
        known.then_some(code == STILL_ACTIVE as u32)
    }
}

/// Flushes a written file to disk. The handle is opened for writing: Windows' `FlushFileBuffers`
/// refuses a read-only handle with "Access denied" (Linux's `fsync` takes either), which made
/// every save of the Windows build fail.
fn sync_file(path: &Path) -> io::Result<()> {
    fs::OpenOptions::new().write(true).open(path)?.sync_all()
}

/// How long a rename over a target waits for another program to let go of it. Virus scanners
/// and search indexers open a file that was just written for a moment; a program that keeps
/// it open (the game client, another editor) outlasts this, and the save says so.
const REPLACE_PATIENCE: Duration = Duration::from_secs(2);

/// Whether an error is Windows refusing a file another program holds open (or a read-only
/// one): `ERROR_ACCESS_DENIED`, `ERROR_SHARING_VIOLATION`, `ERROR_LOCK_VIOLATION`. Elsewhere the
/// same numbers mean other things (5 is `EIO` on Linux), so this is false there.
fn held_elsewhere(e: &io::Error) -> bool {
    cfg!(windows) && matches!(e.raw_os_error(), Some(5 | 32 | 33))
}

/// Runs `op` until it succeeds, fails for another reason than [`held_elsewhere`], or
/// [`REPLACE_PATIENCE`] has passed.
fn patiently<T>(mut op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    let start = std::time::Instant::now();
    loop {
        match op() {
            Err(e) if held_elsewhere(&e) && start.elapsed() < REPLACE_PATIENCE => {
                std::thread::sleep(Duration::from_millis(50));
            }
            r => return r,
        }
    }
}

/// The error for a target that cannot be replaced: in words when another program holds it.
fn replace_error(target: &Path, source: io::Error) -> LoamError {
    if held_elsewhere(&source) {
        LoamError::InUse {
            path: target.to_path_buf(),
            source,
        }
    } else {
        LoamError::Io {
            path: target.to_path_buf(),
            source,
        }
    }
}

/// Renames the finished temporary file over its target.
fn replace(tmp: &Path, target: &Path) -> Result<()> {
    patiently(|| fs::rename(tmp, target)).map_err(|e| replace_error(target, e))
}

/// Checks, before anything is renamed, that `target` can be replaced: on Windows a file another
/// program has open without sharing it for deletion, or a read-only one, refuses the rename,
/// and finding that out on the fifth of ten files would leave a map half saved. Elsewhere a
/// rename never depends on other programs, and this does nothing.
fn check_replaceable(target: &Path) -> Result<()> {
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        // DELETE access with every sharing mode: refused exactly when a rename over the file
        // would be, by a handle that did not share FILE_SHARE_DELETE.
        const DELETE: u32 = 0x0001_0000;
        const SHARE_ALL: u32 = 0x1 | 0x2 | 0x4;
        let opened = patiently(|| {
            fs::OpenOptions::new()
                .access_mode(DELETE)
                .share_mode(SHARE_ALL)
                .open(target)
        });
        match opened {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(replace_error(target, e)),
            Ok(_) => {}
        }
        if fs::metadata(target).is_ok_and(|m| m.permissions().readonly()) {
            return Err(LoamError::InUse {
                path: target.to_path_buf(),
                source: io::Error::from_raw_os_error(5),
            });
        }
    }
    #[cfg(not(windows))]
    let _ = target;
    Ok(())
}

/// `path`, with its file name spelled as the folder already spells it when a file there has the
/// same name in another case. Maps copied from Windows arrive as `azeroth_32_48.adt` beside
/// `Azeroth.wdt`; a save must replace that file, not add an `Azeroth_32_48.adt` beside it (two
/// tiles on Linux, of which a later open reads either).
pub fn as_spelled_on_disk(path: &Path) -> PathBuf {
    let folder = path.parent().unwrap_or(Path::new(""));
    match path.file_name() {
        Some(name) => FolderSpelling::read(folder).path(&name.to_string_lossy()),
        None => path.to_path_buf(),
    }
}

/// A folder's file names by their lower-case form, read once for a save of many files.
pub struct FolderSpelling {
    folder: PathBuf,
    names: HashMap<String, std::ffi::OsString>,
}

impl FolderSpelling {
    /// Lists `folder` (nothing when it cannot be read yet: a folder about to be made).
    pub fn read(folder: &Path) -> FolderSpelling {
        let dir = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        };
        let names = fs::read_dir(dir)
            .map(|rd| {
                rd.flatten()
                    .map(|e| {
                        (
                            e.file_name().to_string_lossy().to_lowercase(),
                            e.file_name(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        FolderSpelling {
            folder: folder.to_path_buf(),
            names,
        }
    }

    /// Where a file named `name` goes: the existing file of that name in any case, or `name`.
    pub fn path(&self, name: &str) -> PathBuf {
        match self.names.get(&name.to_lowercase()) {
            Some(existing) => self.folder.join(existing),
            None => self.folder.join(name),
        }
    }
}

/// A file written to its temporary name, not yet flushed or renamed over its target: see
/// [`write_pending`], [`Pending::commit`] and [`Flusher`].
#[derive(Debug)]
pub struct Pending {
    pub(super) tmp: PathBuf,
    pub(super) path: PathBuf,
}

impl Pending {
    /// A temp file another writer (the MPQ builder) filled at `tmp`, a [`temp_path`] of
    /// `target`: committing it renames it over `target` with the usual checks.
    pub(crate) fn written_at(tmp: PathBuf, target: &Path) -> Pending {
        Pending {
            tmp,
            path: target.to_path_buf(),
        }
    }

    /// Removes the temporary file: the target is never touched.
    pub fn discard(&self) {
        let _ = fs::remove_file(&self.tmp);
    }

    /// Flushes the temporary file to disk; an error names the target.
    fn flush(&self) -> Result<()> {
        sync_file(&self.tmp).map_err(io_err(&self.path))
    }

    /// Flushes the file to disk and renames it over its target; on failure the temporary file
    /// is removed and the target is as it was.
    pub fn commit(self) -> Result<()> {
        let result = self
            .flush()
            .and_then(|()| check_replaceable(&self.path))
            .and_then(|()| replace(&self.tmp, &self.path));
        if result.is_err() {
            self.discard();
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

/// Renames flushed files over their targets, in order, once every target is known to be
/// replaceable ([`check_replaceable`]). A target that is not leaves everything as it was; a
/// rename that fails after others succeeded (the folder vanished) stops there. Either way the
/// error is [`LoamError::Save`] and every temporary file is gone.
fn rename_all(pending: Vec<Pending>) -> Result<()> {
    let targets: Vec<PathBuf> = pending.iter().map(|p| p.path.clone()).collect();
    if let Some(e) = targets.iter().find_map(|t| check_replaceable(t).err()) {
        pending.iter().for_each(Pending::discard);
        return Err(LoamError::Save {
            cause: Box::new(e),
            written: Vec::new(),
            not_written: targets,
        });
    }
    for (i, p) in pending.iter().enumerate() {
        if let Err(e) = replace(&p.tmp, &p.path) {
            pending[i..].iter().for_each(Pending::discard);
            return Err(LoamError::Save {
                cause: Box::new(e),
                written: targets[..i].to_vec(),
                not_written: targets[i..].to_vec(),
            });
        }
    }
    Ok(())
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
    /// Nothing is renamed unless every file flushed and every target can be replaced; on
    /// failure the temporary files are removed and the targets are as they were.
    pub fn finish(mut self) -> Result<()> {
        drop(self.tx.take());
        let flushed = match self.handle.take().map(|h| h.join()) {
            Some(Ok(v)) => v,
            _ => return Err(LoamError::Usage("the flushing thread failed".into())),
        };
        let (flushed, results): (Vec<Pending>, Vec<Result<()>>) = flushed.into_iter().unzip();
        if let Some(e) = results.into_iter().find_map(Result::err) {
            flushed.iter().for_each(Pending::discard);
            return Err(LoamError::Save {
                cause: Box::new(e),
                written: Vec::new(),
                not_written: flushed.into_iter().map(|p| p.path).collect(),
            });
        }
        rename_all(flushed)
    }
}

/// A file written in place (a monolithic WDT, appended to tile by tile) and renamed over its
/// target only when complete, with the same checks as [`Pending::commit`].
pub(crate) fn finish_in_place(file: fs::File, tmp: &Path, target: &Path) -> Result<()> {
    let result = file
        .sync_all()
        .map_err(io_err(target))
        .and_then(|()| {
            drop(file);
            check_replaceable(target)
        })
        .and_then(|()| replace(tmp, target));
    if result.is_err() {
        let _ = fs::remove_file(tmp);
    }
    result
}

/// Writes encoded files into `folder` (created if absent), all or nothing per file: every file
/// is first written whole to a temporary name beside its target and flushed, and only then
/// renamed over its target, tiles before the WDT (a WDT never lists tiles that did not make it
/// to disk). A failure while writing or flushing, or a target another program holds, leaves
/// every target as it was and removes the temporary files; a rename that fails after others
/// succeeded (the folder vanished) stops there. Either way the error is [`LoamError::Save`],
/// naming the file, the reason and which files were and were not written. `progress` is
/// called after each file with the number written so far.
pub fn write_files(
    folder: &Path,
    files: &[EncodedFile],
    mut progress: impl FnMut(usize),
) -> Result<()> {
    let mut order: Vec<&EncodedFile> = files.iter().collect();
    // Stable: the tiles keep their order, the WDT goes last.
    order.sort_by_key(|f| is_wdt_name(&f.name));
    let spelling = FolderSpelling::read(folder);
    let targets: Vec<PathBuf> = order.iter().map(|f| spelling.path(&f.name)).collect();
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
    rename_all(pending)
}

/// True for a `.wdt` file name (any case).
fn is_wdt_name(name: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wdt"))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn this_machines_processes_can_be_told_apart() {
        if cfg!(any(target_os = "linux", windows)) {
            assert_eq!(process_alive(std::process::id()), Some(true));
            // Above Linux's largest pid (2^22); Windows pids are multiples of 4.
            assert_eq!(process_alive(u32::MAX - 2), Some(false));
        }
    }

    #[test]
    fn a_target_is_spelled_as_the_folder_spells_it() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("azeroth_32_48.adt"), b"old").unwrap();
        let spelling = FolderSpelling::read(dir.path());
        assert_eq!(
            spelling.path("Azeroth_32_48.adt"),
            dir.path().join("azeroth_32_48.adt")
        );
        assert_eq!(spelling.path("Azeroth.wdt"), dir.path().join("Azeroth.wdt"));
        write_atomic(&dir.path().join("AZEROTH_32_48.ADT"), b"new").unwrap();
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["azeroth_32_48.adt"]);
        assert_eq!(
            fs::read(dir.path().join("azeroth_32_48.adt")).unwrap(),
            b"new"
        );
    }

    #[test]
    fn the_numbers_windows_uses_for_a_held_file_mean_nothing_of_the_kind_elsewhere() {
        let eio = io::Error::from_raw_os_error(5);
        assert_eq!(held_elsewhere(&eio), cfg!(windows));
        let e = replace_error(Path::new("a.adt"), eio);
        assert_eq!(matches!(e, LoamError::InUse { .. }), cfg!(windows), "{e}");
        let in_use = LoamError::InUse {
            path: "Azeroth_32_48.adt".into(),
            source: io::Error::from_raw_os_error(32),
        };
        let text = in_use.to_string();
        assert!(
            text.starts_with("Azeroth_32_48.adt: another program has this file open"),
            "{text}"
        );
    }
}
