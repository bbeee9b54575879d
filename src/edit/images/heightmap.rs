//! Terrain heights as images, in Noggit Red's layout so that map makers' files work both ways
//! (`MapTile::getHeightmapImage` / `setHeightmapImage`, docs/notes/noggit-red-images.md).
//!
//! A tile is 257×257 pixels: column i grows east (tile X), row j south (tile Y); pixel (2c, 2r)
//! is outer vertex (c, r) of the tile's 129×129 outer lattice, (2c+1, 2r+1) inner vertex (c, r);
//! the mixed pixels hold the mean of the two outer vertices beside them on their row or column
//! (written for the eye, never read back). Neighbouring tiles share their border row and column.
//!
//! Import samples any image over a rectangle of tiles: the image's corner pixels sit on the
//! rectangle's corner vertices and every vertex takes the bilinear sample at its place, which
//! for a 257×257 image over one tile is exactly its own pixel. Vertices shared with neighbours
//! are written to every copy, so no seam opens at the rectangle's edge.
//!
//! Not for: reading or writing image files (`images`).

use crate::edit::lattice::patch::Patch;
use crate::edit::lattice::{STEPS_PER_CHUNK, Vertex};
pub use crate::edit::raster::{Raster, Samples};
use crate::edit::stroke::Stroke;
use crate::edit::terrain::sculpt::commit_heights;
use crate::model::coords::{self, CHUNKS_PER_SIDE, TileCoord};
use crate::model::{Map, Tile};

/// Pixels along a tile's side in the Noggit Red layout.
pub const TILE_PIXELS: usize = 257;

/// Outer-vertex steps along a tile's side.
const TILE_STEPS: i32 = CHUNKS_PER_SIDE as i32 * STEPS_PER_CHUNK;

/// How imported heights meet the terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportMode {
    /// The image's height replaces the terrain's.
    #[default]
    Replace,
    /// The image's height is added to the terrain's (as Noggit Red's Add: `min` included).
    Add,
    /// The terrain moves toward the image's height by the strength (0..1).
    Blend,
}

/// What an import maps the image's 0..1 onto, and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeightImport {
    /// The height of a sample 0.
    pub min: f32,
    /// The height of a sample 1.
    pub max: f32,
    /// Replace, add or blend.
    pub mode: ImportMode,
    /// Blend: how far toward the image's height, 0..1.
    pub strength: f32,
}

/// A rectangle of tiles, corners included: (x0, y0) north-west, (x1, y1) south-east.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileSpan {
    /// North-west tile.
    pub from: TileCoord,
    /// South-east tile.
    pub to: TileCoord,
}

impl TileSpan {
    /// One tile.
    pub fn one(tile: TileCoord) -> TileSpan {
        TileSpan {
            from: tile,
            to: tile,
        }
    }

    /// The span between two opposite corners, in any order.
    pub fn between(a: TileCoord, b: TileCoord) -> TileSpan {
        TileSpan {
            from: TileCoord {
                x: a.x.min(b.x),
                y: a.y.min(b.y),
            },
            to: TileCoord {
                x: a.x.max(b.x),
                y: a.y.max(b.y),
            },
        }
    }

    /// The outer-lattice rectangle it covers: (gx0, gy0, gx1, gy1), corners included.
    fn lattice(&self) -> (i32, i32, i32, i32) {
        (
            i32::from(self.from.x) * TILE_STEPS,
            i32::from(self.from.y) * TILE_STEPS,
            (i32::from(self.to.x) + 1) * TILE_STEPS,
            (i32::from(self.to.y) + 1) * TILE_STEPS,
        )
    }

    /// The tiles it covers and those bordering it (whose edge vertices it writes too).
    pub fn reach(&self) -> Vec<TileCoord> {
        let mut out = Vec::new();
        for y in i32::from(self.from.y) - 1..=i32::from(self.to.y) + 1 {
            for x in i32::from(self.from.x) - 1..=i32::from(self.to.x) + 1 {
                if x >= 0
                    && y >= 0
                    && let Some(c) = TileCoord::new(x as usize, y as usize)
                {
                    out.push(c);
                }
            }
        }
        out
    }
}

/// Imports channel 0 of `image` as the heights of `span` (see the module): every loaded vertex
/// inside it, borders shared with neighbours included, changed into `stroke` with water depths
/// and normals brought along. Returns the chunks written.
pub fn import_heights(
    map: &mut Map,
    image: &Raster,
    span: TileSpan,
    import: HeightImport,
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    if image.width == 0 || image.height == 0 {
        return Vec::new();
    }
    let (gx0, gy0, gx1, gy1) = span.lattice();
    let mut patch = Patch::read(map, gx0, gy0, gx1, gy1);
    let sx = (image.width - 1) as f64 / f64::from(gx1 - gx0);
    let sy = (image.height - 1) as f64 / f64::from(gy1 - gy0);
    let (min, range) = (f64::from(import.min), f64::from(import.max - import.min));
    for gy in gy0..=gy1 {
        for gx in gx0..=gx1 {
            for inner in [false, true] {
                if inner && (gx == gx1 || gy == gy1) {
                    continue;
                }
                let v = Vertex { gx, gy, inner };
                let Some(h) = patch.get(v) else { continue };
                let half = if inner { 0.5 } else { 0.0 };
                let px = (f64::from(gx - gx0) + half) * sx;
                let py = (f64::from(gy - gy0) + half) * sy;
                let target = min + image.sample(px, py, 0) * range;
                let new = match import.mode {
                    ImportMode::Replace => target,
                    ImportMode::Add => f64::from(h) + target,
                    ImportMode::Blend => {
                        let s = f64::from(import.strength.clamp(0.0, 1.0));
                        f64::from(h) + (target - f64::from(h)) * s
                    }
                };
                patch.set(v, new as f32);
            }
        }
    }
    commit_heights(map, &patch, stroke)
}

/// A tile's 257×257 lattice, row by row (see the module): `at(chunk index, MCVT index)` for
/// the pixels of outer and inner vertices, `mean(a, b)` of the two outer vertices beside a
/// mixed pixel. Heights and vertex colours share it.
pub fn tile_lattice<T: Copy>(at: impl Fn(usize, usize) -> T, mean: impl Fn(T, T) -> T) -> Vec<T> {
    let n = TILE_PIXELS;
    let last = CHUNKS_PER_SIDE - 1;
    // Outer vertex (c, r) of the tile's 129×129 lattice, from the chunk holding it.
    let outer = |c: usize, r: usize| {
        let (cc, cr) = ((c / 8).min(last), (r / 8).min(last));
        at(
            cr * CHUNKS_PER_SIDE + cc,
            coords::outer_vertex(r - cr * 8, c - cc * 8),
        )
    };
    let inner = |c: usize, r: usize| {
        at(
            (r / 8) * CHUNKS_PER_SIDE + c / 8,
            coords::inner_vertex(r % 8, c % 8),
        )
    };
    let mut out = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            out.push(match (i % 2, j % 2) {
                (0, 0) => outer(i / 2, j / 2),
                (1, 1) => inner(i / 2, j / 2),
                (1, 0) => mean(outer(i / 2, j / 2), outer(i / 2 + 1, j / 2)),
                _ => mean(outer(i / 2, j / 2), outer(i / 2, j / 2 + 1)),
            });
        }
    }
    out
}

/// Tile `tile`'s heights in the Noggit Red layout: 257×257, row by row (see the module).
pub fn tile_heights(tile: &Tile) -> Vec<f32> {
    tile_lattice(
        |chunk, i| tile.chunks[chunk].heights[i],
        |a, b| (a + b) / 2.0,
    )
}

/// The lowest and highest height of `tiles`, or `None` when there are none.
pub fn height_range<'a>(tiles: impl IntoIterator<Item = &'a Tile>) -> Option<(f32, f32)> {
    tiles
        .into_iter()
        .flat_map(|t| t.chunks.iter())
        .map(|c| c.height_range())
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raster(width: usize, height: usize, f: impl Fn(usize, usize) -> f32) -> Raster {
        let mut samples = Vec::new();
        for y in 0..height {
            for x in 0..width {
                samples.push(f(x, y));
            }
        }
        Raster {
            width,
            height,
            channels: 1,
            samples: Samples::F32(samples),
        }
    }

    fn replace(min: f32, max: f32) -> HeightImport {
        HeightImport {
            min,
            max,
            mode: ImportMode::Replace,
            strength: 1.0,
        }
    }

    #[test]
    fn a_tile_image_lands_pixel_for_vertex_and_exports_back_in_the_same_layout() {
        let c = TileCoord::new(30, 31).unwrap();
        let mut map = Map::new("Img");
        map.tiles.insert(c, Tile::flat(c, "a.blp", 0.0));
        // Distinct values on the 257 lattice (the mixed pixels are ignored on import).
        let img = raster(257, 257, |x, y| ((x * 7 + y * 13) % 1000) as f32 / 999.0);
        let mut stroke = Stroke::new("Import");
        import_heights(
            &mut map,
            &img,
            TileSpan::one(c),
            replace(-100.0, 400.0),
            &mut stroke,
        );
        let back = tile_heights(&map.tiles[&c]);
        for j in 0..257 {
            for i in 0..257 {
                let want = |x: usize, y: usize| -100.0 + img.at(x, y, 0) * 500.0;
                let expect = match (i % 2, j % 2) {
                    (0, 0) | (1, 1) => want(i, j),
                    (1, 0) => (want(i - 1, j) + want(i + 1, j)) / 2.0,
                    _ => (want(i, j - 1) + want(i, j + 1)) / 2.0,
                };
                let got = f64::from(back[j * 257 + i]);
                assert!(
                    (got - expect).abs() < 1e-3,
                    "pixel ({i}, {j}): {got} vs {expect}"
                );
            }
        }
    }

    #[test]
    fn an_import_writes_the_shared_border_into_the_neighbour_too() {
        let a = TileCoord::new(30, 30).unwrap();
        let b = TileCoord::new(31, 30).unwrap();
        let mut map = Map::new("Img");
        map.tiles.insert(a, Tile::flat(a, "a.blp", 0.0));
        map.tiles.insert(b, Tile::flat(b, "a.blp", 0.0));
        let img = raster(257, 257, |_, _| 1.0);
        let mut stroke = Stroke::new("Import");
        import_heights(
            &mut map,
            &img,
            TileSpan::one(a),
            replace(0.0, 50.0),
            &mut stroke,
        );
        // b's west column is a's east column: 50 yd; b's next column untouched.
        let b_grid = tile_heights(&map.tiles[&b]);
        for j in (0..257).step_by(2) {
            assert_eq!(b_grid[j * 257], 50.0);
            assert_eq!(b_grid[j * 257 + 2], 0.0);
        }
        let edit = stroke.finish(&mut map).unwrap();
        assert!(edit.touched().iter().any(|(t, _)| *t == b));
    }

    #[test]
    fn blend_and_add_move_from_the_terrain() {
        let c = TileCoord::new(10, 10).unwrap();
        let mut map = Map::new("Img");
        map.tiles.insert(c, Tile::flat(c, "a.blp", 10.0));
        let img = raster(3, 3, |_, _| 0.5);
        let run = |map: &mut Map, mode, strength| {
            let mut stroke = Stroke::new("Import");
            let import = HeightImport {
                min: 0.0,
                max: 100.0,
                mode,
                strength,
            };
            import_heights(map, &img, TileSpan::one(c), import, &mut stroke);
            map.tiles[&c].chunks[5].heights[40]
        };
        assert_eq!(run(&mut map, ImportMode::Blend, 0.25), 10.0 + 40.0 * 0.25);
        assert_eq!(run(&mut map, ImportMode::Add, 1.0), 20.0 + 50.0);
    }

    #[test]
    fn bilinear_sampling_is_exact_on_pixels_and_between_them_a_mean() {
        let img = raster(2, 2, |x, y| (x + 2 * y) as f32);
        assert_eq!(img.sample(1.0, 1.0, 0), 3.0);
        assert_eq!(img.sample(0.5, 0.5, 0), 1.5);
        assert_eq!(img.sample(-4.0, 9.0, 0), 2.0, "clamped to the image");
    }
}
