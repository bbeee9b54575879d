//! `loam convert`: a map or tile to another generation, with a progress bar and a report of
//! everything dropped or changed.

use std::path::Path;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};

use crate::convert;
use crate::disk::{self, LoamError};
use crate::format::Generation;

/// Runs `loam convert --to TARGET [--area-map CSV] SRC DST`.
pub fn run(
    src: &Path,
    dst: &Path,
    to: Generation,
    from: Option<Generation>,
    area_map: Option<&Path>,
) -> Result<ExitCode, LoamError> {
    if !to.writable() {
        return Err(LoamError::Usage(format!(
            "loam cannot write {to} files yet"
        )));
    }
    let options = convert::Options {
        area_map: area_map.map(read_area_map).transpose()?,
    };
    if dst.exists() && !dst.is_dir() {
        return Err(LoamError::Usage(format!(
            "{} exists and is not a folder",
            dst.display()
        )));
    }
    let mut opened = disk::open_map_as(src, from)?;
    // A few names help find the problem; hundreds (a WDT copied without its tiles) do not.
    const SHOWN: usize = 5;
    for c in opened.missing_tiles.iter().take(SHOWN) {
        let name = disk::tile_file_name(&opened.map.name, *c);
        eprintln!(
            "warning: MAIN lists tile {}_{} but {name} is missing; it is not converted",
            c.x, c.y
        );
    }
    if opened.missing_tiles.len() > SHOWN {
        eprintln!(
            "warning: … and {} more tiles listed in MAIN are missing",
            opened.missing_tiles.len() - SHOWN
        );
    }
    let mut report = convert::prepare_map_with(&mut opened.map, opened.generation, to, &options);
    if to <= Generation::Alpha055 {
        // A monolithic WDT can only list tiles whose data it holds.
        report.note(
            "tiles listed in MAIN but missing on disk, left out of the monolithic WDT",
            opened.missing_tiles.len() as u64,
        );
    }
    if opened.kind == disk::MapKind::Folder {
        report.note(
            "map: WDT written (the source folder had none; inferred from its tiles)",
            1,
        );
    }
    let mut files = disk::encode_map(&opened.map, to, opened.writes_wdt(), None)?;
    if let (Some(name), [only]) = (&opened.lone_tile_file, files.as_mut_slice()) {
        only.name = name.clone();
    }
    let bar = if files.len() > 1 {
        let bar = ProgressBar::new(files.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} files")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar.set_message("writing");
        bar
    } else {
        ProgressBar::hidden()
    };
    disk::write_files(dst, &files, |n| bar.set_position(n as u64))?;
    bar.finish_and_clear();
    println!("wrote {} file(s) to {}", files.len(), dst.display());
    print!("{report}");
    Ok(report_unreadable(&opened.map.name, &opened.failed))
}

/// Lists the tiles that could not be read (and so were not written) on stderr; the exit code
/// is 1 when there are any, so that scripts notice.
pub fn report_unreadable(
    map: &str,
    failed: &std::collections::BTreeMap<crate::model::TileCoord, String>,
) -> ExitCode {
    for (c, why) in failed {
        eprintln!(
            "error: {} not written: {why}",
            disk::tile_file_name(map, *c)
        );
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "{} tile(s) could not be read; every other tile was written",
            failed.len()
        );
        ExitCode::from(1)
    }
}

/// Reads an `--area-map` CSV.
fn read_area_map(path: &Path) -> Result<convert::AreaMap, LoamError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoamError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    convert::AreaMap::parse(&text, path).map_err(LoamError::Usage)
}
