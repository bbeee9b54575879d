//! `loam minimap MAP OUT [--client DIR]`: the map's minimap as the client's files under OUT
//! (`textures/Minimap/<md5>.blp` and `md5translate.trs`, `.txt` for 0.5.x/0.6.0), drawing only
//! the tiles that changed since the last run into the same OUT.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use crate::assets::client::ClientData;
use crate::disk::LoamError;
use crate::format::Generation;

/// Runs `loam minimap`.
pub fn run(
    map: &Path,
    out: &Path,
    client: Option<&Path>,
    from: Option<Generation>,
) -> Result<ExitCode, LoamError> {
    let client = client
        .map(ClientData::open)
        .transpose()
        .map_err(|e| LoamError::Usage(e.to_string()))?
        .map(Arc::new);
    let bar = super::progress::tile_bar("drawing", 0);
    let started = std::time::Instant::now();
    let written =
        crate::minimap::export::write_minimap(map, from, out, client.clone(), &|d, t| {
            bar.set_length(t as u64);
            bar.set_position(d as u64);
        })?;
    bar.finish_and_clear();
    let table = written
        .files
        .last()
        .map(|(g, _)| g.as_str())
        .unwrap_or_default();
    println!(
        "{}: {} tile(s) drawn, {} unchanged, in {:.1} s; {} file(s) under {} ({table})",
        written.name,
        written.drawn,
        written.kept,
        started.elapsed().as_secs_f64(),
        written.files.len(),
        out.display()
    );
    if client.is_none() {
        println!(
            "note: without --client the table holds this map's lines and those already in {}; \
             packed over a client, it must also hold the client's own (give --client)",
            out.display()
        );
    }
    Ok(super::convert::report_unreadable(
        &written.name,
        &written.failed,
    ))
}
