//! `loam fix`: repairs a map in place of its generation and writes all of it to another folder.
//! Each repair is a flag (`--seams`, `--uids`) and a plain function in `edit/`; this only opens,
//! runs the chosen repairs in a fixed order, reports what each changed and saves.

use std::path::Path;
use std::process::ExitCode;

use crate::disk::{self, LoamError};
use crate::edit::{seams, uids};
use crate::model::Map;

/// The repairs chosen on the command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fixes {
    /// Stitch seams between chunks and tiles (`--seams`).
    pub seams: bool,
    /// Give each object that shares a uniqueId with another a fresh one (`--uids`).
    pub uids: bool,
}

impl Fixes {
    /// True when no repair was chosen.
    pub fn is_empty(&self) -> bool {
        *self == Fixes::default()
    }
}

/// Runs the chosen repairs on `map`; returns the report lines: one for the seams, one per
/// renumbered object and a count for the uids.
pub fn apply(map: &mut Map, fixes: &Fixes) -> Vec<String> {
    let mut lines = Vec::new();
    if fixes.seams {
        let s = seams::stitch(map, |_, _, _| {});
        lines.push(format!(
            "seams: {} vertices changed, largest change {:.4} yd, {} chunks rewritten",
            s.vertices,
            s.largest,
            s.chunks.len()
        ));
    }
    if fixes.uids {
        let changes = uids::renumber(map);
        lines.extend(changes.iter().map(|c| c.to_string()));
        lines.push(format!(
            "uids: {} object(s) given a new uniqueId",
            changes.len()
        ));
    }
    lines
}

/// Runs `loam fix [--seams] [--uids] MAP OUT`.
pub fn run(
    map_path: &Path,
    out: &Path,
    fixes: &Fixes,
    from: Option<crate::format::Generation>,
) -> Result<ExitCode, LoamError> {
    if fixes.is_empty() {
        return Err(LoamError::Usage(
            "choose what to fix: --seams, --uids or both".to_string(),
        ));
    }
    if out.exists() && !out.is_dir() {
        return Err(LoamError::Usage(format!(
            "{} exists and is not a folder",
            out.display()
        )));
    }
    let mut opened = disk::open_map_as(map_path, from)?;
    if !opened.missing_tiles.is_empty() {
        eprintln!(
            "warning: {} tile(s) listed in MAIN are missing; their borders are not fixed",
            opened.missing_tiles.len()
        );
    }
    if fixes.uids && !opened.failed.is_empty() {
        // Their records are unknown, so a fresh uid could repeat one of theirs.
        eprintln!(
            "warning: {} tile(s) cannot be read; their uniqueIds are not renumbered or avoided",
            opened.failed.len()
        );
    }
    for line in apply(&mut opened.map, fixes) {
        println!("{line}");
    }
    // The whole map, so that OUT is a complete map folder whatever was changed.
    let mut files = disk::encode_map(&opened.map, opened.generation, opened.writes_wdt(), None)?;
    if let (Some(name), [only]) = (&opened.lone_tile_file, files.as_mut_slice()) {
        only.name = name.clone();
    }
    disk::write_files(out, &files, |_| {})?;
    println!(
        "wrote {} file(s) ({}) to {}",
        files.len(),
        opened.generation,
        out.display()
    );
    // Tiles that could not be read are not written; say which, and exit 1.
    Ok(super::convert::report_unreadable(
        &opened.map.name,
        &opened.failed,
    ))
}
