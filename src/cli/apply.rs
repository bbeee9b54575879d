//! `loam apply`: brush operations from a JSON file, run without a window through the same code
//! as the editor's tools, then saved as a chosen generation.

use std::path::Path;
use std::process::ExitCode;

use crate::assets::client::{AssetSource, ClientData};
use crate::assets::models;
use crate::convert;
use crate::disk::{self, LoamError};
use crate::edit::liquid::LiquidStyle;
use crate::edit::{History, ops};
use crate::format::Generation;

/// Runs `loam apply MAP OPS.json --to VERSION OUT`.
pub fn run(
    map_path: &Path,
    ops_path: &Path,
    to: Generation,
    from: Option<Generation>,
    client: Option<&Path>,
    out: &Path,
) -> Result<ExitCode, LoamError> {
    if !to.writable() {
        return Err(LoamError::Usage(format!(
            "loam cannot write {to} files yet"
        )));
    }
    let text = std::fs::read_to_string(ops_path).map_err(|source| LoamError::Io {
        path: ops_path.to_path_buf(),
        source,
    })?;
    let file =
        ops::parse(&text).map_err(|e| LoamError::Usage(format!("{}: {e}", ops_path.display())))?;
    let mut opened = disk::open_map_as(map_path, from)?;
    // Model boxes for object operations: the models in the map's folder (and a game folder
    // above a World/Maps/Name/ folder), then the client's archives when one is given.
    let client = match client {
        Some(dir) => Some(std::sync::Arc::new(
            ClientData::open(dir).map_err(|e| LoamError::Usage(e.to_string()))?,
        )),
        None => None,
    };
    let folder = map_path
        .parent()
        .filter(|_| map_path.is_file())
        .unwrap_or(map_path)
        .to_path_buf();
    let assets = AssetSource::new(client, Some(folder.clone()));
    let fetch = |p: &str| assets.read(p).ok().flatten();
    let model_box = |path: &str| models::placement_box(path, &fetch);
    // New objects take uids from the map's range file when it has one (Settings ▸ uniqueId
    // range in the editor).
    let range = disk::uid_range::read(&folder, &opened.map.name)?;
    let mut history = History::default();
    for (i, op) in file.ops.iter().enumerate() {
        let result = ops::run(
            &mut opened.map,
            op,
            &mut history,
            &model_box,
            range,
            LiquidStyle::of(opened.generation),
        )
        .map_err(|e| LoamError::Usage(format!("{}: op {i}: {e}", ops_path.display())))?;
        println!("op {i}: {}", result.label);
        for (t, c) in &result.refused {
            println!(
                "  refused at tile {}_{} chunk {},{}: four texture layers, none free",
                t.x,
                t.y,
                c % 16,
                c / 16
            );
        }
    }
    let report = convert::prepare_map(&mut opened.map, opened.generation, to);
    let mut files = disk::encode_map(&opened.map, to, opened.writes_wdt(), None)?;
    if let (Some(name), [only]) = (&opened.lone_tile_file, files.as_mut_slice()) {
        only.name = name.clone();
    }
    disk::write_files(out, &files, |_| {})?;
    println!("wrote {} file(s) to {}", files.len(), out.display());
    print!("{report}");
    Ok(super::convert::report_unreadable(
        &opened.map.name,
        &opened.failed,
    ))
}
