//! `loam sample OUT`: writes the bundled sample map (see [`crate::sample`]) into a folder.

use std::path::Path;
use std::process::ExitCode;

use crate::disk::LoamError;

/// Writes the sample map's WDT and tiles into `out`, creating the folder when needed, and the
/// bundled stamp brushes into `out/stamps/`.
pub fn run(out: &Path) -> Result<ExitCode, LoamError> {
    let files = crate::sample::write_sample(out)?;
    let stamps = out.join(crate::images::stamps::STAMP_FOLDER);
    std::fs::create_dir_all(&stamps).map_err(crate::disk::io_err(&stamps))?;
    let mut bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
    for (name, png) in crate::images::stamps::bundled_stamps() {
        crate::disk::write_atomic(&stamps.join(name), &png)?;
        bytes += png.len();
    }
    println!(
        "wrote {} file(s), {} KiB, to {}",
        files.len(),
        bytes / 1024,
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}
