//! Client-ready archives of a map written to a folder: the MPQ a client loads instead of loose
//! files. 1.12 and 3.3.5 read a patch archive (`patch-X.MPQ` in `Data`) holding
//! `World\Maps\Name\Name.wdt`, its ADTs and its WDL, with a `(listfile)`; 0.5.x reads per-file
//! wrappers (`Data\World\Maps\Name\Name.wdt.MPQ`, and `Name.wdl.MPQ`), each holding the one
//! file under its plain name. Archives are written by `pipeline::mpq`, atomically (a
//! temporary file beside the target, flushed, renamed over it), and never over an archive that
//! loam did not write: every archive loam writes holds a small [`MARKER`] file, and an existing
//! archive without it is refused. The layouts and their sources are in `docs/formats.md`
//! ("Client archives").
//!
//! Not for: encoding the map (`pipeline::stream`, `pipeline::wdl`) or finding a client's `Data` folder
//! (`assets::client`).

use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use wow_mpq::Archive;

use super::mpq::{Entry, write_archive};
use crate::disk::{LoamError, Result, io_err, parse_tile_file_name};
use crate::format::Generation;

/// The file inside every archive loam writes that says loam wrote it, so that a later export
/// may replace the archive (and nothing else). The client ignores files it does not ask for.
pub const MARKER: &str = "(loam)";

/// Patch suffixes tried for the default name, in the client's load order (`patch-4` … `patch-9`,
/// then `patch-A` … `patch-Z`); `patch`, `patch-2` and `patch-3` are Blizzard's own.
const FREE_SUFFIXES: &str = "456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// How a generation's client reads map files from archives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One patch archive in `Data` holding every file under `World\Maps\Name\` (1.12, 3.3.5).
    Patch,
    /// One archive per file beside where the loose file would be: `Name.wdt.MPQ` (0.5.x).
    PerFile,
}

/// The archive layout of generation `g`'s client; 0.6.0 has none loam knows.
pub fn layout(g: Generation) -> Result<Layout> {
    match g {
        Generation::Alpha053 | Generation::Alpha055 => Ok(Layout::PerFile),
        Generation::V112 | Generation::V335 => Ok(Layout::Patch),
        Generation::V060 => Err(LoamError::Usage(
            "loam knows no client archive layout for 0.6.0; write a folder instead".into(),
        )),
    }
}

/// The game folder of map `name`: `World\Maps\Name`.
pub fn map_game_folder(name: &str) -> String {
    format!("World\\Maps\\{name}")
}

/// What [`pack_map`] wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Packed {
    /// Each archive written, with the game paths it holds (the marker not counted).
    pub archives: Vec<(PathBuf, Vec<String>)>,
    /// Loose files written beside the archives (a 0.5.x client's minimap files).
    pub loose: Vec<PathBuf>,
}

/// The map files of map `name` in `folder` that a client loads: `Name.wdt`, `Name.wdl` and
/// every `Name_X_Y.adt`, as (file name, path), sorted by name.
pub fn map_files(folder: &Path, name: &str) -> Result<Vec<(String, PathBuf)>> {
    let wdt = format!("{name}.wdt").to_ascii_lowercase();
    let wdl = format!("{name}.wdl").to_ascii_lowercase();
    let mut out = Vec::new();
    for e in fs::read_dir(folder).map_err(io_err(folder))?.flatten() {
        let file = e.file_name().to_string_lossy().to_string();
        let lower = file.to_ascii_lowercase();
        let tile = parse_tile_file_name(&file).is_some_and(|(n, _)| n.eq_ignore_ascii_case(name));
        if (lower == wdt || lower == wdl || tile) && e.path().is_file() {
            out.push((file, e.path()));
        }
    }
    out.sort();
    if !out.iter().any(|(f, _)| f.eq_ignore_ascii_case(&wdt)) {
        return Err(LoamError::Usage(format!(
            "{} has no {name}.wdt to pack",
            folder.display()
        )));
    }
    Ok(out)
}

/// The first patch name the client in `data_dir` does not have yet (`patch-4.MPQ`, …), in its
/// load order, so that the new archive loads after every existing one.
pub fn first_free_patch_name(data_dir: &Path) -> Result<String> {
    let taken: Vec<String> = match fs::read_dir(data_dir) {
        Ok(rd) => rd
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_ascii_lowercase())
            .collect(),
        Err(_) => Vec::new(),
    };
    FREE_SUFFIXES
        .chars()
        .map(|c| format!("patch-{c}.MPQ"))
        .find(|n| !taken.contains(&n.to_ascii_lowercase()))
        .ok_or_else(|| {
            LoamError::Usage(format!(
                "{} has every patch name from patch-4 to patch-Z; name one with --patch-name",
                data_dir.display()
            ))
        })
}

/// The patch name a pack of map `name` into `data_dir` takes when none is named: the archive
/// loam wrote before for this map (so that exporting again replaces it rather than adding
/// another), else [`first_free_patch_name`].
pub fn default_patch_name(data_dir: &Path, name: &str) -> Result<String> {
    let wdt = format!("{}\\{name}.wdt", map_game_folder(name));
    let ours = fs::read_dir(data_dir).ok().and_then(|rd| {
        let mut names: Vec<String> = rd
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        FREE_SUFFIXES.chars().find_map(|c| {
            let want = format!("patch-{c}.mpq");
            let there = names.iter().find(|n| n.to_ascii_lowercase() == want)?;
            let path = data_dir.join(there);
            (written_by_loam(&path) && holds(&path, &wdt)).then(|| there.clone())
        })
    });
    match ours {
        Some(n) => Ok(n),
        None => first_free_patch_name(data_dir),
    }
}

/// Checks a patch name the user typed: `patch-X.MPQ` or `patch-xxXX-X.MPQ` style, one file
/// name ending in `.MPQ` (any case).
pub fn check_patch_name(name: &str) -> Result<()> {
    let ok = name.to_ascii_lowercase().starts_with("patch")
        && name.to_ascii_lowercase().ends_with(".mpq")
        && !name.contains(['/', '\\'])
        && name.len() > 9;
    if ok {
        Ok(())
    } else {
        Err(LoamError::Usage(format!(
            "'{name}' is not a patch archive name (e.g. patch-4.MPQ or patch-A.MPQ)"
        )))
    }
}

/// True when the archive at `path` holds loam's [`MARKER`].
pub fn written_by_loam(path: &Path) -> bool {
    holds(path, MARKER)
}

/// True when the archive at `path` holds `game_path`; false for an archive that cannot be read.
pub(crate) fn holds(path: &Path, game_path: &str) -> bool {
    // wow-mpq is a large parser; a damaged archive must read as "without it", not panic.
    catch_unwind(AssertUnwindSafe(|| {
        Archive::open(path).is_ok_and(|mut a| a.read_file(game_path).is_ok())
    }))
    .unwrap_or(false)
}

/// Packs map `name`, written to `folder` as generation `g`, into the archives `g`'s client
/// reads, under `dest` (a client's `Data` folder, or any folder): a patch archive named
/// `patch_name` (default: [`first_free_patch_name`] of `dest`), or per-file wrappers under
/// `dest/World/Maps/Name/`. Refuses to replace an archive loam did not write.
pub fn pack_map(
    folder: &Path,
    name: &str,
    g: Generation,
    dest: &Path,
    patch_name: Option<&str>,
) -> Result<Packed> {
    pack_map_with(folder, name, g, dest, patch_name, &[])
}

/// [`pack_map`], with `extra` files (game path, file) beside the map's: in the patch archive
/// for 1.12 and 3.3.5; for 0.5.x, whose clients read such files loose, written under `dest` at
/// their game paths (a file there already is kept once as `NAME.loam-original`, since the
/// tables loam writes there merge what it held).
pub fn pack_map_with(
    folder: &Path,
    name: &str,
    g: Generation,
    dest: &Path,
    patch_name: Option<&str>,
    extra: &[(String, PathBuf)],
) -> Result<Packed> {
    let files = map_files(folder, name)?;
    let mut loose = Vec::new();
    let game_folder = map_game_folder(name);
    let mut archives = Vec::new();
    match layout(g)? {
        Layout::Patch => {
            let patch = match patch_name {
                Some(n) => {
                    check_patch_name(n)?;
                    n.to_string()
                }
                None => default_patch_name(dest, name)?,
            };
            let target = replaceable(&dest.join(patch))?;
            let mut entries: Vec<Entry> = files
                .iter()
                .map(|(file, path)| Entry::file(&format!("{game_folder}\\{file}"), path))
                .chain(extra.iter().map(|(game, path)| Entry::file(game, path)))
                .collect();
            let listed = entries.iter().map(|e| e.game.clone()).collect();
            entries.push(Entry::bytes(MARKER, marker_text()));
            write_archive(&entries, true, &target)?;
            archives.push((target, listed));
        }
        Layout::PerFile => {
            let wrapper_dir = dest.join("World").join("Maps").join(name);
            fs::create_dir_all(&wrapper_dir).map_err(io_err(&wrapper_dir))?;
            for (file, path) in files.iter().filter(|(f, _)| !f.ends_with(".adt")) {
                let target = replaceable(&wrapper_dir.join(format!("{file}.MPQ")))?;
                // The payload first, under its plain name: the 0.5.x wrappers hold the file and
                // a checksum, and readers take the named, the first or the largest block.
                let entries = [Entry::file(file, path), Entry::bytes(MARKER, marker_text())];
                write_archive(&entries, false, &target)?;
                archives.push((target, vec![format!("{game_folder}\\{file}")]));
            }
            for (game, path) in extra {
                let target = dest.join(game.replace('\\', "/"));
                let original = target.with_file_name(format!(
                    "{}.loam-original",
                    target.file_name().unwrap_or_default().to_string_lossy()
                ));
                if target.is_file() && !original.exists() {
                    fs::copy(&target, &original).map_err(io_err(&original))?;
                }
                let bytes = fs::read(path).map_err(io_err(path))?;
                if let Some(parent) = target.parent() {
                    fs::create_dir_all(parent).map_err(io_err(parent))?;
                }
                crate::disk::write_atomic(&target, &bytes)?;
                loose.push(target);
            }
        }
    }
    Ok(Packed { archives, loose })
}

/// A map converted for a client in a temporary folder, ready to pack (removed when dropped).
#[derive(Debug)]
pub struct Staged {
    /// The folder holding the converted files.
    pub dir: tempfile::TempDir,
    /// The map's name (its WDT is `dir/Name.wdt`).
    pub name: String,
}

/// Converts the map at `src` (read as `from`, or as its bytes decide) to `to` in a temporary
/// folder, with its WDL when `wdl`, for packing: the editor's File ▸ Export for client, which
/// works from the files on disk, a few tiles at a time. A tile that cannot be read stops it.
pub fn stage_for_client(
    src: &Path,
    from: Option<Generation>,
    to: Generation,
    wdl: bool,
) -> Result<Staged> {
    layout(to)?;
    let staging = tempfile::tempdir().map_err(io_err(Path::new("temporary folder")))?;
    let converted = super::stream::convert_map(
        src,
        from,
        to,
        &crate::convert::Options {
            for_client: true,
            ..Default::default()
        },
        staging.path(),
        &|_, _| {},
    )?;
    if let Some((c, why)) = converted.failed.iter().next() {
        return Err(LoamError::Usage(format!(
            "tile {}_{} cannot be read ({why}); nothing was packed",
            c.x, c.y
        )));
    }
    if wdl {
        super::wdl::write_wdl(staging.path(), &converted.name, &converted.low_res)?;
    }
    Ok(Staged {
        dir: staging,
        name: converted.name,
    })
}

/// What the marker file says.
pub(crate) fn marker_text() -> Vec<u8> {
    format!("written by loam {}\r\n", env!("CARGO_PKG_VERSION")).into_bytes()
}

/// The path to write `path` at: the existing file of that name in any case (so that
/// `patch-a.mpq` is replaced, not joined by `patch-A.MPQ`), when loam wrote it; `path` when
/// there is none. An existing archive loam did not write is an error.
pub(crate) fn replaceable(path: &Path) -> Result<PathBuf> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let want = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let existing = fs::read_dir(dir).ok().and_then(|rd| {
        rd.flatten().map(|e| e.path()).find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().to_ascii_lowercase() == want)
        })
    });
    match existing {
        None => Ok(path.to_path_buf()),
        Some(p) if written_by_loam(&p) => Ok(p),
        Some(p) => Err(LoamError::Usage(format!(
            "{} exists and was not written by loam; it is left alone (choose another name)",
            p.display()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_patch_name_skips_taken_names_in_any_case() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(first_free_patch_name(dir.path()).unwrap(), "patch-4.MPQ");
        fs::write(dir.path().join("Patch-4.mpq"), b"x").unwrap();
        fs::write(dir.path().join("patch-5.MPQ"), b"x").unwrap();
        assert_eq!(first_free_patch_name(dir.path()).unwrap(), "patch-6.MPQ");
    }

    #[test]
    fn patch_names_are_checked() {
        assert!(check_patch_name("patch-A.MPQ").is_ok());
        assert!(check_patch_name("patch-4.mpq").is_ok());
        assert!(check_patch_name("common.MPQ").is_err());
        assert!(check_patch_name("../patch-4.MPQ").is_err());
        assert!(check_patch_name("patch-4.zip").is_err());
    }

    #[test]
    fn an_archive_loam_did_not_write_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let theirs = dir.path().join("patch-4.MPQ");
        wow_mpq::ArchiveBuilder::new()
            .add_file_data(b"blizzard".to_vec(), "a.txt")
            .build(&theirs)
            .unwrap();
        let before = fs::read(&theirs).unwrap();
        let e = replaceable(&dir.path().join("PATCH-4.MPQ")).unwrap_err();
        assert!(e.to_string().contains("not written by loam"), "{e}");
        assert_eq!(fs::read(&theirs).unwrap(), before);
        // Garbage is not ours either.
        fs::write(dir.path().join("patch-5.MPQ"), b"not an archive").unwrap();
        assert!(replaceable(&dir.path().join("patch-5.MPQ")).is_err());
    }
}
