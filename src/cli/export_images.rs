//! `loam export-images MAP OUT`: a map's heights, alpha maps and vertex colours as per-tile
//! images (see `images::export`).

use std::path::Path;
use std::process::ExitCode;

use crate::disk::LoamError;
use crate::format::Generation;
use crate::images::export::{ExportRequest, export_images};

/// Runs `loam export-images`.
pub fn run(
    map: &Path,
    out: &Path,
    request: &ExportRequest,
    from: Option<Generation>,
) -> Result<ExitCode, LoamError> {
    let bar = super::progress::tile_bar("writing", 0);
    let started = std::time::Instant::now();
    let written = export_images(map, from, out, request, &|d, t| {
        bar.set_length(t as u64);
        bar.set_position(d as u64);
    })?;
    bar.finish_and_clear();
    println!(
        "wrote {} file(s) of {} into {} in {:.1} s",
        written.files.len(),
        written.name,
        out.display(),
        started.elapsed().as_secs_f64()
    );
    if let Some(r) = written.range {
        println!(
            "heights: {} … {} yd over pixel values 0 … 65535 (recorded in {})",
            r.min,
            r.max,
            crate::images::range_file(&written.name)
        );
    }
    Ok(super::convert::report_unreadable(
        &written.name,
        &written.failed,
    ))
}
