//! The terrain clipboard: a plain snapshot of a rectangle of the map on its vertex lattice
//! (heights and vertex colours per outer and inner vertex, texture layers per alpha texel,
//! holes and liquid per quad, the objects standing inside), owning all its data, so that it
//! outlives the map it was copied from (the editor keeps it while another map opens).
//!
//! Not for: putting it back into a map (`paste`). The rectangle is snapped to the lattice of
//! outer vertices (a quad, 533⅓/16/8 ≈ 4.17 yd, a side): every corner goes to the nearest
//! outer vertex, so a copy always holds whole quads and a paste lands vertex for vertex.

use std::collections::BTreeSet;

use crate::edit::lattice::{MAP_STEPS, STEPS_PER_CHUNK};
use crate::edit::objects::ObjectRecord;
use crate::edit::terrain::liquid::{self, QuadLiquid};
use crate::model::alpha::ALPHA_SIDE;
use crate::model::chunk::NEUTRAL_COLOR;
use crate::model::coords::{self, TileCoord};
use crate::model::objects::placements;
use crate::model::{Map, ObjectKind};

/// Alpha texels per quad along one side (64 per chunk of 8 quads).
pub const TEXELS_PER_QUAD: usize = ALPHA_SIDE / STEPS_PER_CHUNK as usize;

/// A rectangle of whole quads: outer-vertex lattice corners (`gx` east, `gy` south), the
/// north-west one first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LatticeRect {
    /// West column.
    pub gx0: i32,
    /// North row.
    pub gy0: i32,
    /// East column (> `gx0`).
    pub gx1: i32,
    /// South row (> `gy0`).
    pub gy1: i32,
}

/// The outer vertex nearest to world (x, y): (gx, gy), or why there is none (off the map or
/// not a number).
pub fn snap([x, y]: [f64; 2]) -> Result<[i32; 2], String> {
    let [gx, gy] = coords::world_to_lattice(x, y);
    let (gx, gy) = (gx.round(), gy.round());
    let range = 0.0..=f64::from(MAP_STEPS);
    if !(range.contains(&gx) && range.contains(&gy)) {
        return Err(format!("({x}, {y}) is off the map"));
    }
    Ok([gx as i32, gy as i32])
}

impl LatticeRect {
    /// The rectangle between two opposite world corners (in any order), each snapped to the
    /// nearest outer vertex; refused when it is not at least one quad each way.
    pub fn from_world(a: [f64; 2], b: [f64; 2]) -> Result<LatticeRect, String> {
        let (p, q) = (snap(a)?, snap(b)?);
        let rect = LatticeRect {
            gx0: p[0].min(q[0]),
            gy0: p[1].min(q[1]),
            gx1: p[0].max(q[0]),
            gy1: p[1].max(q[1]),
        };
        if rect.gx0 == rect.gx1 || rect.gy0 == rect.gy1 {
            return Err(format!(
                "the rectangle from ({}, {}) to ({}, {}) is less than one quad ({:.2} yd) wide \
                 or tall once its corners are snapped to the nearest vertices",
                a[0],
                a[1],
                b[0],
                b[1],
                coords::UNIT_SIZE
            ));
        }
        Ok(rect)
    }

    /// The loaded chunks the rectangle overlaps (tile, index), for baking a selection's shadows.
    pub fn chunks(&self, map: &Map) -> Vec<(TileCoord, usize)> {
        let steps = STEPS_PER_CHUNK;
        let mut out = Vec::new();
        for cy in self.gy0.div_euclid(steps)..=(self.gy1 - 1).div_euclid(steps) {
            for cx in self.gx0.div_euclid(steps)..=(self.gx1 - 1).div_euclid(steps) {
                let (Ok(x), Ok(y)) = (usize::try_from(cx), usize::try_from(cy)) else {
                    continue;
                };
                match coords::chunk_of_map_chunk(x, y) {
                    Some((tile, index)) if map.tiles.contains_key(&tile) => out.push((tile, index)),
                    _ => {}
                }
            }
        }
        out
    }

    /// Quads along the west-east side.
    pub fn width(&self) -> usize {
        (self.gx1 - self.gx0) as usize
    }

    /// Quads along the north-south side.
    pub fn height(&self) -> usize {
        (self.gy1 - self.gy0) as usize
    }

    /// The world box (min, max) it covers, z 0.
    pub fn world_box(&self) -> ([f64; 3], [f64; 3]) {
        let [x0, y0] = coords::lattice_to_world(f64::from(self.gx1), f64::from(self.gy1));
        let [x1, y1] = coords::lattice_to_world(f64::from(self.gx0), f64::from(self.gy0));
        ([x0, y0, 0.0], [x1, y1, 0.0])
    }
}

/// A grid of values, row by row from the north-west.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid<T> {
    /// Values per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The values, row by row.
    pub cells: Vec<T>,
}

impl<T: Clone> Grid<T> {
    /// A `width`×`height` grid of `value`.
    pub fn filled(width: usize, height: usize, value: T) -> Grid<T> {
        Grid {
            width,
            height,
            cells: vec![value; width * height],
        }
    }

    /// The value at column `x`, row `y`, if inside.
    pub fn get(&self, x: usize, y: usize) -> Option<&T> {
        (x < self.width && y < self.height).then(|| &self.cells[y * self.width + x])
    }

    fn set(&mut self, x: usize, y: usize, value: T) {
        if x < self.width && y < self.height {
            self.cells[y * self.width + x] = value;
        }
    }
}

/// What a vertex carries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VertexData {
    /// Absolute height.
    pub height: f32,
    /// Vertex colour, neutral where the chunk has none.
    pub colour: [u8; 4],
    /// The liquid surface height there (outer vertices with a wet quad around them).
    pub liquid: Option<f32>,
}

/// What a quad carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuadData {
    /// The low-resolution hole over it is cut.
    pub hole: bool,
    /// Its liquid, if wet.
    pub liquid: Option<QuadLiquid>,
}

/// One texture layer as a chunk of the source had it, by texture name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerKind {
    /// Texture path.
    pub texture: String,
    /// MCLY flags.
    pub flags: u32,
    /// Ground effect id.
    pub effect_id: u32,
}

/// One alpha texel: the source chunk's layers (an index into [`Clipboard::palettes`]) and the
/// alpha of layers 1 to 3 there (the base layer takes what they leave).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Texel {
    /// Index into `palettes`; [`Texel::NONE`] where the source was not loaded.
    pub palette: u32,
    /// Alpha of layers 1, 2 and 3 (0 where the chunk has fewer).
    pub alpha: [u8; 3],
}

impl Texel {
    /// The palette index of a texel the source did not have.
    pub const NONE: u32 = u32::MAX;
}

/// A copied rectangle of terrain. Grids run row by row from the north-west corner: `outer`
/// is (width+1)×(height+1), `inner` and `quads` width×height, `texels` 8·width × 8·height.
/// `None` marks what the source did not have loaded; a paste leaves the target as it is there.
#[derive(Debug, Clone, PartialEq)]
pub struct Clipboard {
    /// Where it was copied from (objects' positions are relative to it).
    pub source: LatticeRect,
    /// Outer vertices.
    pub outer: Grid<Option<VertexData>>,
    /// Inner vertices (quad centres).
    pub inner: Grid<Option<VertexData>>,
    /// Quads.
    pub quads: Grid<Option<QuadData>>,
    /// Alpha texels.
    pub texels: Grid<Texel>,
    /// The layer lists texels point into, one per source chunk.
    pub palettes: Vec<Vec<LayerKind>>,
    /// The objects whose position lies inside the rectangle (each once, as it was copied).
    pub objects: Vec<ObjectRecord>,
}

impl Clipboard {
    /// Quads along the west-east side.
    pub fn width(&self) -> usize {
        self.source.width()
    }

    /// Quads along the north-south side.
    pub fn height(&self) -> usize {
        self.source.height()
    }
}

/// The most quads a clipboard holds: four tiles' worth (its alpha texels alone take about
/// 8 bytes each, 64 a quad: some 34 MB), so that a mistyped rectangle is an error, not the
/// machine's memory.
pub const MAX_QUADS: usize = 4 * 128 * 128;

/// Copies `rect` of `map` into a clipboard: what its loaded tiles hold there. Refused past
/// [`MAX_QUADS`].
pub fn copy(map: &Map, rect: LatticeRect) -> Result<Clipboard, String> {
    let (w, h) = (rect.width(), rect.height());
    if w.saturating_mul(h) > MAX_QUADS {
        return Err(format!(
            "the rectangle is {w}×{h} quads, {:.1} tiles' area; a copy holds at most four \
             tiles' area ({MAX_QUADS} quads)",
            (w * h) as f64 / (128.0 * 128.0)
        ));
    }
    let mut clip = Clipboard {
        source: rect,
        outer: Grid::filled(w + 1, h + 1, None),
        inner: Grid::filled(w, h, None),
        quads: Grid::filled(w, h, None),
        texels: Grid::filled(
            w * TEXELS_PER_QUAD,
            h * TEXELS_PER_QUAD,
            Texel {
                palette: Texel::NONE,
                alpha: [0; 3],
            },
        ),
        palettes: Vec::new(),
        objects: Vec::new(),
    };
    let t = TEXELS_PER_QUAD as i32;
    for (tile, index, ccol, crow) in
        crate::edit::lattice::chunks_in(rect.gx0, rect.gy0, rect.gx1, rect.gy1)
    {
        let Some(tile_data) = map.tiles.get(&tile) else {
            continue;
        };
        let chunk = &tile_data.chunks[index];
        let (ox, oy) = (ccol * STEPS_PER_CHUNK, crow * STEPS_PER_CHUNK);
        let colour = |i: usize| chunk.vertex_colors.as_ref().map_or(NEUTRAL_COLOR, |c| c[i]);
        for row in 0..=8usize {
            for col in 0..=8usize {
                let (gx, gy) = (ox + col as i32, oy + row as i32);
                let (x, y) = (gx - rect.gx0, gy - rect.gy0);
                if (0..=w as i32).contains(&x) && (0..=h as i32).contains(&y) {
                    let i = coords::outer_vertex(row, col);
                    let here = clip.outer.get(x as usize, y as usize).copied().flatten();
                    // A border vertex's liquid may sit in either chunk: keep any found.
                    let surface =
                        liquid::vertex_surface(chunk, row, col).or(here.and_then(|v| v.liquid));
                    clip.outer.set(
                        x as usize,
                        y as usize,
                        Some(VertexData {
                            height: chunk.heights[i],
                            colour: colour(i),
                            liquid: surface,
                        }),
                    );
                }
                if row < 8 && col < 8 && (0..w as i32).contains(&x) && (0..h as i32).contains(&y) {
                    let i = coords::inner_vertex(row, col);
                    clip.inner.set(
                        x as usize,
                        y as usize,
                        Some(VertexData {
                            height: chunk.heights[i],
                            colour: colour(i),
                            liquid: None,
                        }),
                    );
                    clip.quads.set(
                        x as usize,
                        y as usize,
                        Some(QuadData {
                            hole: chunk.has_hole(row / 2, col / 2),
                            liquid: liquid::quad_liquid(chunk, row * 8 + col),
                        }),
                    );
                }
            }
        }
        // The chunk's texels inside the rectangle.
        let palette = clip.palettes.len() as u32;
        let mut used = false;
        for row in 0..ALPHA_SIDE as i32 {
            for col in 0..ALPHA_SIDE as i32 {
                let (x, y) = (ox * t + col - rect.gx0 * t, oy * t + row - rect.gy0 * t);
                if x < 0 || y < 0 || x >= (w * TEXELS_PER_QUAD) as i32 {
                    continue;
                }
                if y >= (h * TEXELS_PER_QUAD) as i32 {
                    continue;
                }
                let mut alpha = [0u8; 3];
                for (k, a) in alpha.iter_mut().enumerate() {
                    *a = chunk
                        .layers
                        .get(k + 1)
                        .and_then(|l| l.alpha.as_ref())
                        .map_or(0, |m| m.get(row as usize, col as usize));
                }
                clip.texels
                    .set(x as usize, y as usize, Texel { palette, alpha });
                used = true;
            }
        }
        if used {
            clip.palettes.push(
                chunk
                    .layers
                    .iter()
                    .map(|l| LayerKind {
                        texture: tile_data.texture_name(l.texture).unwrap_or("").to_string(),
                        flags: l.flags,
                        effect_id: l.effect_id,
                    })
                    .collect(),
            );
        }
    }
    clip.objects = objects_inside(map, rect);
    Ok(clip)
}

/// The objects whose position lies inside `rect` (west and north edges in, east and south
/// out, so that two rectangles side by side never both take one), each once.
pub fn objects_inside(map: &Map, rect: LatticeRect) -> Vec<ObjectRecord> {
    let inside = |p: [f64; 3]| {
        let [gx, gy] = coords::world_to_lattice(p[0], p[1]);
        (f64::from(rect.gx0)..f64::from(rect.gx1)).contains(&gx)
            && (f64::from(rect.gy0)..f64::from(rect.gy1)).contains(&gy)
    };
    let mut seen: BTreeSet<(ObjectKind, u32)> = BTreeSet::new();
    let mut out = Vec::new();
    for tile in map.tiles_by_row() {
        for kind in [ObjectKind::Doodad, ObjectKind::Wmo] {
            for p in placements(tile, kind) {
                if inside(p.position()) && seen.insert((kind, p.unique_id())) {
                    out.push(crate::edit::objects::record_of(tile, p));
                }
            }
        }
    }
    out
}

/// The tiles a copy of `rect` reads: those it overlaps (they hold every vertex of it).
pub fn reach(rect: LatticeRect) -> Vec<TileCoord> {
    coords::tiles_overlapping(rect.world_box())
}
