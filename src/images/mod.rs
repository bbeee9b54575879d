//! Terrain as images, in and out: image files read into the samples the edit layer imports
//! (`io`), and a map's heights, alpha maps and vertex colours written as per-tile PNGs in Noggit
//! Red's layouts and names (`export`), so that files made in either tool work in the other.
//! The layouts themselves are `edit::images::heightmap` and `edit::images::tile_images`.
//!
//! Sits above `edit` and `pipeline`, below `doc` and `cli`.

pub mod export;
pub mod io;
pub mod stamps;

use std::path::Path;

use crate::edit::images::image_ops::ImageInput;
use crate::model::TileCoord;

/// `Name_X_Y_height.png`: a tile's heightmap (Noggit Red's name).
pub fn height_file(map: &str, c: TileCoord) -> String {
    format!("{map}_{}_{}_height.png", c.x, c.y)
}

/// `Name_X_Y_vcol.png`: a tile's vertex colours (Noggit Red's name).
pub fn colour_file(map: &str, c: TileCoord) -> String {
    format!("{map}_{}_{}_vcol.png", c.x, c.y)
}

/// `Name_X_Y_<texture>.png`: a texture's alpha over a tile, the texture path in lower case with
/// its separators as `-` (Noggit Red's "alphamaps (current texture)" name:
/// `tileset-wetlands-wetlandsgrassdark01.blp`).
pub fn alpha_file(map: &str, c: TileCoord, texture: &str) -> String {
    let name = texture.to_ascii_lowercase().replace(['\\', '/'], "-");
    format!("{map}_{}_{}_{name}.png", c.x, c.y)
}

/// `Name_heights.json`: the range a heightmap export used, read back by an import that names
/// none.
pub fn range_file(map: &str) -> String {
    format!("{map}_heights.json")
}

/// The range file's content.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeightRange {
    /// The height of pixel value 0.
    pub min: f32,
    /// The height of pixel value 65535.
    pub max: f32,
}

/// The range recorded beside `image` (a `Name_X_Y_height.png` or `.tif`): `Name_heights.json` in its
/// folder, when there is one.
pub fn recorded_range(image: &Path) -> Option<HeightRange> {
    let file = image.file_name()?.to_string_lossy().into_owned();
    let stem = file
        .strip_suffix("_height.png")
        .or_else(|| file.strip_suffix("_height.tif"))?;
    // Name_X_Y: the map's name is what precedes the last two numbers.
    let mut parts = stem.rsplitn(3, '_');
    let (_, _, name) = (parts.next()?, parts.next()?, parts.next()?);
    let bytes = std::fs::read(image.with_file_name(range_file(name))).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Reads an image an import names: `path` as written, relative to `folder` (the operations
/// file's) when it is relative; with the range recorded beside a heightmap.
pub fn read_input(folder: Option<&Path>, path: &str) -> Result<ImageInput, String> {
    let p = Path::new(path);
    let full = match folder {
        Some(f) if p.is_relative() => f.join(p),
        _ => p.to_path_buf(),
    };
    let raster = io::read_raster(&full).map_err(|e| e.to_string())?;
    Ok(ImageInput {
        raster,
        recorded_range: recorded_range(&full).map(|r| (r.min, r.max)),
    })
}
