//! Image imports as operations of an `OPS.json` (`loam apply`, the editor's File ▸ Import):
//! `import_heightmap`, `import_alpha` and `import_colours`, each one undo step. The image is
//! read by the caller (this layer touches no file) through an [`ImageReader`].

use serde::Deserialize;

use super::heightmap::{self, HeightImport, ImportMode, Raster, TileSpan};
use super::tile_images;
use crate::edit::history::History;
use crate::edit::outcome::OpResult;
use crate::edit::stroke::Stroke;
use crate::model::{Map, TileCoord};

/// An image as an import needs it: its samples and, for a heightmap, the range an export
/// recorded beside it (`Name_heights.json`), used when the operation names none.
#[derive(Debug, Clone)]
pub struct ImageInput {
    /// The samples.
    pub raster: Raster,
    /// (min, max) recorded beside the file.
    pub recorded_range: Option<(f32, f32)>,
}

/// Reads the image an operation names (a path as written in the operation).
pub type ImageReader<'a> = &'a dyn Fn(&str) -> Result<ImageInput, String>;

/// The image imports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageTool {
    /// Heights from a grey image over a tile (`tile`) or a rectangle of tiles (`tiles`).
    ImportHeightmap,
    /// One texture's alpha over a tile from a grey image.
    ImportAlpha,
    /// A tile's vertex colours from an RGB image.
    ImportColours,
}

impl ImageTool {
    /// The `tool` names that select an image operation.
    pub const NAMES: [&'static str; 3] = ["import_heightmap", "import_alpha", "import_colours"];
}

/// One image import.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageOp {
    /// Which import.
    pub tool: ImageTool,
    /// The image file (relative paths are relative to the operations file).
    pub image: String,
    /// The tile it covers, [X, Y].
    pub tile: Option<[u8; 2]>,
    /// import_heightmap: two opposite corner tiles of the rectangle one image covers.
    pub tiles: Option<[[u8; 2]; 2]>,
    /// import_heightmap: the height of a black pixel (default: the range recorded beside it).
    pub min: Option<f32>,
    /// import_heightmap: the height of a white pixel.
    pub max: Option<f32>,
    /// import_heightmap: replace (default), add or blend.
    pub mode: Option<ImportMode>,
    /// import_heightmap: blend strength, 0..1 (default 1).
    pub strength: Option<f32>,
    /// import_alpha: the texture whose alpha the image is.
    pub texture: Option<String>,
}

/// A tile coordinate from an operation's [X, Y].
fn coord([x, y]: [u8; 2]) -> Result<TileCoord, String> {
    TileCoord::new(usize::from(x), usize::from(y))
        .ok_or_else(|| format!("tile [{x}, {y}] is off the map (0 … 63)"))
}

impl ImageOp {
    /// The tiles the import covers.
    pub fn span(&self) -> Result<TileSpan, String> {
        match (self.tile, self.tiles) {
            (Some(t), None) => Ok(TileSpan::one(coord(t)?)),
            (None, Some([a, b])) => Ok(TileSpan::between(coord(a)?, coord(b)?)),
            _ => Err("give `tile` [X, Y] or `tiles` [[X0, Y0], [X1, Y1]]".into()),
        }
    }

    /// The tiles it reads or writes: those it covers and their neighbours (whose shared edge
    /// it writes too).
    pub fn reach(&self) -> Vec<TileCoord> {
        self.span().map(|s| s.reach()).unwrap_or_default()
    }

    /// Rejects fields that do not belong to the tool and missing required ones.
    pub fn validate(&self) -> Result<(), String> {
        let heights = self.tool == ImageTool::ImportHeightmap;
        let fields = [
            ("tiles", self.tiles.is_some(), heights),
            ("min", self.min.is_some(), heights),
            ("max", self.max.is_some(), heights),
            ("mode", self.mode.is_some(), heights),
            ("strength", self.strength.is_some(), heights),
            (
                "texture",
                self.texture.is_some(),
                self.tool == ImageTool::ImportAlpha,
            ),
        ];
        for (name, present, allowed) in fields {
            if present && !allowed {
                return Err(format!(
                    "field `{name}` does not apply to tool {:?}",
                    self.tool
                ));
            }
        }
        self.span()?;
        if self.min.is_some() != self.max.is_some() {
            return Err("give both `min` and `max`, or neither".into());
        }
        if let (Some(min), Some(max)) = (self.min, self.max)
            && max.partial_cmp(&min) != Some(std::cmp::Ordering::Greater)
        {
            return Err(format!("`max` ({max}) must be above `min` ({min})"));
        }
        if self.tool == ImageTool::ImportAlpha && self.texture.is_none() {
            return Err("tool ImportAlpha needs field `texture`".into());
        }
        Ok(())
    }

    fn label(&self) -> &'static str {
        match self.tool {
            ImageTool::ImportHeightmap => "Import heightmap",
            ImageTool::ImportAlpha => "Import alpha map",
            ImageTool::ImportColours => "Import vertex colours",
        }
    }
}

/// Runs one image import as one undo step in `history`.
pub fn apply(
    map: &mut Map,
    op: &ImageOp,
    history: &mut History,
    read: ImageReader,
) -> Result<OpResult, String> {
    op.validate()?;
    let span = op.span()?;
    let input = read(&op.image)?;
    let mut stroke = Stroke::new(op.label());
    match op.tool {
        ImageTool::ImportHeightmap => {
            let (min, max) = match (op.min, op.max, input.recorded_range) {
                (Some(min), Some(max), _) => (min, max),
                (_, _, Some(r)) => r,
                _ => {
                    return Err(format!(
                        "{}: give `min` and `max` (no range was recorded beside the image)",
                        op.image
                    ));
                }
            };
            let import = HeightImport {
                min,
                max,
                mode: op.mode.unwrap_or_default(),
                strength: op.strength.unwrap_or(1.0),
            };
            heightmap::import_heights(map, &input.raster, span, import, &mut stroke);
        }
        ImageTool::ImportAlpha => {
            let texture = op.texture.as_deref().unwrap_or_default();
            tile_images::import_alpha(map, &input.raster, span.from, texture, &mut stroke)?;
        }
        ImageTool::ImportColours => {
            tile_images::import_colours(map, &input.raster, span.from, &mut stroke)?;
        }
    }
    Ok(OpResult::record(
        map,
        stroke,
        history,
        op.label(),
        Vec::new(),
    ))
}
