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
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} tiles")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message("converting");
    let progress = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    };
    let converted = disk::stream::convert_map(src, from, to, &options, dst, &progress)?;
    bar.finish_and_clear();
    // A few names help find the problem; hundreds (a WDT copied without its tiles) do not.
    const SHOWN: usize = 5;
    for c in converted.missing.iter().take(SHOWN) {
        let name = disk::tile_file_name(&converted.name, *c);
        eprintln!(
            "warning: MAIN lists tile {}_{} but {name} is missing; it is not converted",
            c.x, c.y
        );
    }
    if converted.missing.len() > SHOWN {
        eprintln!(
            "warning: … and {} more tiles listed in MAIN are missing",
            converted.missing.len() - SHOWN
        );
    }
    println!(
        "read as {}; wrote {} file(s) to {}",
        converted.decision,
        converted.files,
        dst.display()
    );
    print!("{}", converted.report);
    Ok(report_unreadable(&converted.name, &converted.failed))
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
