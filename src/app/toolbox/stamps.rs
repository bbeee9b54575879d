//! The stamp brushes the tool panel offers: the bundled ones (`stamps/` beside the bundled
//! sample, written by `loam sample`) and any grey image the user picks; a chosen stamp's pixels
//! are read once, when it is chosen.
//!
//! Not for: what a stamp does to a dab (`edit::terrain::brush`).

use std::path::PathBuf;
use std::sync::Arc;

use crate::edit::terrain::brush::StampMask;
use crate::edit::tools::ToolSettings;

/// The bundled stamps, (name, file), by name; none when the sample's folder has none. Looked
/// up once (the panel asks every frame).
pub fn bundled() -> &'static [(String, PathBuf)] {
    static FOUND: std::sync::OnceLock<Vec<(String, PathBuf)>> = std::sync::OnceLock::new();
    FOUND.get_or_init(find_bundled)
}

fn find_bundled() -> Vec<(String, PathBuf)> {
    let Some(folder) = crate::app::startup::sample_path().ok().and_then(|p| {
        p.parent()
            .map(|d| d.join(crate::images::stamps::STAMP_FOLDER))
    }) else {
        return Vec::new();
    };
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&folder)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("png")))
                .filter_map(|p| Some((p.file_stem()?.to_string_lossy().into_owned(), p)))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Reads the pixels of the stamp `settings` names, when they are not read yet. On an error the
/// stamp is dropped (the brush goes back to its outline) and the error returned.
pub fn load(settings: &mut ToolSettings) -> Result<(), String> {
    let Some(stamp) = &mut settings.brush.stamp else {
        return Ok(());
    };
    if stamp.mask.is_some() {
        return Ok(());
    }
    match crate::images::io::read_raster(std::path::Path::new(&stamp.path)) {
        Ok(raster) => {
            stamp.mask = Some(Arc::new(StampMask::from_raster(&raster)));
            Ok(())
        }
        Err(e) => {
            settings.brush.stamp = None;
            Err(format!("stamp: {e}"))
        }
    }
}
