//! `loam sample OUT`: writes the bundled sample map (see [`crate::sample`]) into a folder.

use std::path::Path;
use std::process::ExitCode;

use crate::disk::LoamError;

/// Writes the sample map's WDT and tiles into `out`, creating the folder when needed.
pub fn run(out: &Path) -> Result<ExitCode, LoamError> {
    let files = crate::sample::write_sample(out)?;
    let bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
    println!(
        "wrote {} file(s), {} KiB, to {}",
        files.len(),
        bytes / 1024,
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}
