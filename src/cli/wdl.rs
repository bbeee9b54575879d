//! `loam wdl`: writes the low-resolution height file (`Name.wdl`) of a map from its tiles, read
//! a few at a time.

use std::path::Path;
use std::process::ExitCode;

use crate::disk::LoamError;
use crate::format::{Generation, wdl};
use crate::pipeline;

/// Writes `Name.wdl` for the map at `map` into `out` (the map's own folder when `None`).
pub fn run(
    map: &Path,
    out: Option<&Path>,
    from: Option<Generation>,
) -> Result<ExitCode, LoamError> {
    let low = pipeline::wdl::compute(map, from, None)?;
    let folder = out.unwrap_or(&low.folder);
    let path = pipeline::wdl::write_wdl(folder, &low.name, &low.tiles)?;
    println!(
        "wrote {} ({} tiles, {} layout{})",
        path.display(),
        low.tiles.len(),
        low.generation,
        if wdl::has_holes(low.generation) {
            ", with MAHO hole masks"
        } else {
            ""
        }
    );
    Ok(super::convert::report_unreadable(&low.name, &low.failed))
}
