//! `loam convert`: a map or tile to another generation, with a progress bar and a report of
//! everything dropped or changed.

use std::path::Path;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};

use crate::convert;
use crate::disk::{self, LoamError};
use crate::format::Generation;

/// Runs `loam convert --to TARGET SRC DST`.
pub fn run(src: &Path, dst: &Path, to: Generation) -> Result<ExitCode, LoamError> {
    if !to.writable() {
        return Err(LoamError::Usage(format!(
            "loam cannot write {to} files yet; targets: 1.12, 3.3.5"
        )));
    }
    if dst.exists() && !dst.is_dir() {
        return Err(LoamError::Usage(format!(
            "{} exists and is not a folder",
            dst.display()
        )));
    }
    let mut opened = disk::open_map(src)?;
    for c in &opened.missing_tiles {
        eprintln!(
            "warning: MAIN lists tile {}_{} but {} is missing; it is not converted",
            c.x,
            c.y,
            disk::tile_file_name(&opened.map.name, *c)
        );
    }
    let report = convert::prepare_map(&mut opened.map, opened.generation, to);
    let mut files = disk::encode_map(&opened.map, to, opened.wdt.is_some(), None)?;
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
    Ok(ExitCode::SUCCESS)
}
