//! Baked shadows (MCSH): each chunk's 64×64 bit map of where the terrain hides the sun, cast
//! over the heights of the chunk's tile and its eight neighbours (those loaded).
//!
//! The definition baked here: bit `c` of row `r` of a chunk's map stands for the point `r + ½`
//! cells south and `c + ½` cells east of the chunk's north-west corner (a cell is an eighth of a
//! quad, 0.52 yd), least significant bit first as the ADT documents say. The bit is set when a
//! ray from the terrain surface at that point toward the sun meets terrain that stands above it.
//! The surface is the one the client draws: each quad four triangles around its inner vertex.
//! Models (WMO and M2 geometry) cast no shadow here: see docs/shadows.md for what Blizzard's
//! own maps show about them.
//!
//! The ray is sampled every quarter step (a lattice step is one quad, 4.17 yd) of horizontal
//! travel. Samples inside a square of the lattice whose highest vertex the ray already clears
//! cannot meet terrain (the ray only climbs), so the march jumps past them: the squares are a
//! pyramid of 1, 2, 4, … quads a side, and the march takes the largest one it clears. The
//! samples it does test are the same as a march that tests every one (a test holds the two
//! equal), so a bake costs about as many height samples as there is terrain near the ray.
//! A lit ray ends as soon as it stands above its corridor, the horizon of what lies ahead of
//! its square of 4 quads less what it climbs on the way (worked out once a window), instead of
//! climbing on past the window's highest height; a test holds the bake equal without it.
//!
//! Not for: drawing the shadows (`render`), the command line (`cli::fix`), or the editor's
//! commands (`doc`).

use std::collections::{BTreeMap, BTreeSet};

use crate::edit::lattice::{MAP_STEPS, STEPS_PER_CHUNK};
use crate::model::chunk::{FLAG_DO_NOT_FIX_ALPHA, FLAG_HAS_SHADOW};
use crate::model::coords::{self, CHUNKS_PER_SIDE, TileCoord, VERTICES_PER_CHUNK};
use crate::model::{Map, ShadowMap, Tile};

/// Cells along one side of a chunk's shadow map.
pub const CELLS: usize = 64;
/// Cells per lattice step (quad).
const CELLS_PER_STEP: f64 = CELLS as f64 / STEPS_PER_CHUNK as f64;
/// Length of one march step, in lattice steps (about a yard).
const MARCH: f64 = 0.25;
/// How far the ray must clear a square's highest vertex before the march jumps it (yards): the
/// surface interpolated in `f32` may stand a rounding error above its vertices, and a point on
/// a square's edge may round into the next square.
const CLEARANCE: f32 = 1e-3;
/// How far above the ray terrain must stand to hide the sun (yards): float noise on a plane the
/// ray starts from must not shadow it.
const BIAS: f32 = 0.01;
/// How far a bake looks for terrain that casts onto a chunk: one tile, in lattice steps.
pub const REACH: i32 = STEPS_PER_CHUNK * CHUNKS_PER_SIDE as i32;

/// Where the sun stands: the direction the light comes from.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sun {
    /// Degrees clockwise from north (world +x) toward east (world −y).
    pub azimuth: f64,
    /// Degrees above the horizon, in (0, 90].
    pub elevation: f64,
}

impl Sun {
    /// The sun loam bakes with unless told otherwise: the direction whose bake agrees best with
    /// the shadows Blizzard baked into the corpus tiles (docs/shadows.md has the search).
    pub const DEFAULT: Sun = Sun {
        azimuth: 315.0,
        elevation: 55.0,
    };

    /// A sun at `azimuth` and `elevation` degrees, or why not: both must be finite numbers and
    /// the elevation above 0 and at most 90.
    pub fn new(azimuth: f64, elevation: f64) -> Result<Sun, String> {
        if !azimuth.is_finite() || !elevation.is_finite() {
            return Err("the sun's azimuth and elevation must be numbers".to_string());
        }
        if elevation <= 0.0 || elevation > 90.0 {
            return Err(format!(
                "the sun's elevation must be above 0 and at most 90 degrees, not {elevation}"
            ));
        }
        Ok(Sun {
            azimuth: azimuth.rem_euclid(360.0),
            elevation,
        })
    }

    /// The unit vector toward this sun in world axes (x north, y west, z up).
    pub fn toward(self) -> [f64; 3] {
        let (sa, ca) = self.azimuth.to_radians().sin_cos();
        let (se, ce) = self.elevation.to_radians().sin_cos();
        // North is cos(azimuth), east sin(azimuth), and east is world −y.
        [ca * ce, -sa * ce, se]
    }

    /// The ray toward this sun on the lattice: (east, south) per unit of horizontal travel, and
    /// the yards it climbs per lattice step.
    fn ray(self) -> Ray {
        let (s, c) = self.azimuth.to_radians().sin_cos();
        let per = |d: f64| if d.abs() > 1e-12 { 1.0 / d } else { 0.0 };
        Ray {
            east: s,
            south: -c,
            rise: (self.elevation.to_radians().tan() * coords::UNIT_SIZE) as f32,
            per_east: per(s),
            ahead_east: usize::from(s > 1e-12),
            per_south: per(-c),
            ahead_south: usize::from(-c > 1e-12),
        }
    }
}

impl Default for Sun {
    fn default() -> Sun {
        Sun::DEFAULT
    }
}

/// A ray's direction on the lattice.
#[derive(Debug, Clone, Copy)]
struct Ray {
    east: f64,
    south: f64,
    rise: f32,
    /// 1 / `east` (0 for a ray along the other axis), and 1 when it runs toward larger x.
    per_east: f64,
    ahead_east: usize,
    /// The same for `south`.
    per_south: f64,
    ahead_south: usize,
}

/// The heights of one window of the lattice, the surface a bake casts over. Vertices no loaded
/// tile holds, and heights that are not finite numbers, are holes: they hide nothing.
#[derive(Debug, Clone)]
pub struct Terrain {
    /// First lattice column (a chunk border).
    gx0: i32,
    /// First lattice row (a chunk border).
    gy0: i32,
    /// Quads across.
    width: usize,
    /// Quads down.
    height: usize,
    /// Outer heights, (width + 1) × (height + 1), row by row; NaN where there is none.
    outer: Vec<f32>,
    /// Inner heights, width × height; NaN where there is none.
    inner: Vec<f32>,
    /// The highest height in squares of 1, 2, 4, … quads, smallest first, the last one square
    /// over the whole window.
    pyramid: Vec<Tops>,
    /// The highest height of all.
    top: f32,
}

/// One level of the pyramid, `l` counted from 0: the highest height in each square of 2^l
/// quads a side, −∞ where a square has none.
#[derive(Debug, Clone)]
struct Tops {
    across: usize,
    tops: Vec<f32>,
}

impl Tops {
    /// The highest height of each quad: its four corners and its inner vertex.
    fn of_quads(width: usize, height: usize, outer: &[f32], inner: &[f32]) -> Tops {
        let row = width + 1;
        let mut tops = Vec::with_capacity(width * height);
        for qy in 0..height {
            for qx in 0..width {
                let o = qy * row + qx;
                // `max` skips NaN, so a quad of holes stays at −∞ and hides nothing.
                let top = [
                    outer[o],
                    outer[o + 1],
                    outer[o + row],
                    outer[o + row + 1],
                    inner[qy * width + qx],
                ]
                .into_iter()
                .fold(f32::NEG_INFINITY, f32::max);
                tops.push(top);
            }
        }
        Tops {
            across: width,
            tops,
        }
    }

    /// The next level: squares twice as wide, each the highest of the four it covers.
    fn halved(&self) -> Tops {
        let down = self.tops.len() / self.across;
        let (across, rows) = (self.across.div_ceil(2), down.div_ceil(2));
        let at = |x: usize, y: usize| {
            if x < self.across && y < down {
                self.tops[y * self.across + x]
            } else {
                f32::NEG_INFINITY
            }
        };
        let mut tops = Vec::with_capacity(across * rows);
        for y in 0..rows {
            for x in 0..across {
                let (x2, y2) = (2 * x, 2 * y);
                tops.push(
                    at(x2, y2)
                        .max(at(x2 + 1, y2))
                        .max(at(x2, y2 + 1))
                        .max(at(x2 + 1, y2 + 1)),
                );
            }
        }
        Tops { across, tops }
    }

    /// Every level for a window of `width` × `height` quads, up to one square over it all.
    fn pyramid(width: usize, height: usize, outer: &[f32], inner: &[f32]) -> Vec<Tops> {
        let mut levels = vec![Tops::of_quads(width, height, outer, inner)];
        while let Some(last) = levels.last()
            && last.tops.len() > 1
        {
            levels.push(last.halved());
        }
        levels
    }
}

/// Where the heights of a tile's chunks come from: a map, or what a streamed fix kept of the
/// neighbours.
pub trait HeightSource {
    /// The 145 heights (MCVT order) of chunk `chunk` of `tile`, if it is at hand.
    fn chunk_heights(&self, tile: TileCoord, chunk: usize) -> Option<&[f32; VERTICES_PER_CHUNK]>;
}

impl HeightSource for Map {
    fn chunk_heights(&self, tile: TileCoord, chunk: usize) -> Option<&[f32; VERTICES_PER_CHUNK]> {
        Some(&*self.tiles.get(&tile)?.chunks.get(chunk)?.heights)
    }
}

/// The heights of a tile's chunks, kept apart from the tile: what a streamed fix holds of every
/// tile (148 KB each) so that each can be baked over its neighbours.
#[derive(Debug, Clone, PartialEq)]
pub struct TileHeights(pub Vec<[f32; VERTICES_PER_CHUNK]>);

impl TileHeights {
    /// The heights of `tile`.
    pub fn of(tile: &Tile) -> TileHeights {
        TileHeights(tile.chunks.iter().map(|c| *c.heights).collect())
    }
}

/// One tile as it is now, and the heights of the tiles around it as they were read.
pub struct AroundTile<'a> {
    /// The tile being baked.
    pub tile: &'a Tile,
    /// Other tiles' heights.
    pub others: &'a BTreeMap<TileCoord, TileHeights>,
}

impl HeightSource for AroundTile<'_> {
    fn chunk_heights(&self, tile: TileCoord, chunk: usize) -> Option<&[f32; VERTICES_PER_CHUNK]> {
        if tile == self.tile.coord {
            return Some(&*self.tile.chunks.get(chunk)?.heights);
        }
        self.others.get(&tile)?.0.get(chunk)
    }
}

impl Terrain {
    /// Reads chunks `cx0..=cx1` (global chunk columns) by `cy0..=cy1` (rows), clamped to the map.
    pub fn read(source: &dyn HeightSource, cx0: i32, cy0: i32, cx1: i32, cy1: i32) -> Terrain {
        let last = MAP_STEPS / STEPS_PER_CHUNK - 1;
        let (cx0, cy0) = (cx0.clamp(0, last), cy0.clamp(0, last));
        let (cx1, cy1) = (cx1.clamp(cx0, last), cy1.clamp(cy0, last));
        let s = STEPS_PER_CHUNK as usize;
        let (bw, bh) = ((cx1 - cx0 + 1) as usize, (cy1 - cy0 + 1) as usize);
        let (width, height) = (bw * s, bh * s);
        let mut outer = vec![f32::NAN; (width + 1) * (height + 1)];
        let mut inner = vec![f32::NAN; width * height];
        let clean = |h: f32| if h.is_finite() { h } else { f32::NAN };
        for by in 0..bh {
            for bx in 0..bw {
                let (c, r) = (cx0 as usize + bx, cy0 as usize + by);
                let Some((tile, index)) = coords::chunk_of_map_chunk(c, r) else {
                    continue;
                };
                let Some(h) = source.chunk_heights(tile, index) else {
                    continue;
                };
                for row in 0..=s {
                    for col in 0..=s {
                        let v = clean(h[coords::outer_vertex(row, col)]);
                        let slot = &mut outer[(by * s + row) * (width + 1) + bx * s + col];
                        // A shared border vertex keeps the copy read first (seams are
                        // `check`'s business, not the bake's).
                        if slot.is_nan() {
                            *slot = v;
                        }
                        if row < s && col < s {
                            let v = clean(h[coords::inner_vertex(row, col)]);
                            inner[(by * s + row) * width + bx * s + col] = v;
                        }
                    }
                }
            }
        }
        let pyramid = Tops::pyramid(width, height, &outer, &inner);
        let top = pyramid.last().map_or(f32::NEG_INFINITY, |l| l.tops[0]);
        Terrain {
            gx0: cx0 * STEPS_PER_CHUNK,
            gy0: cy0 * STEPS_PER_CHUNK,
            width,
            height,
            outer,
            inner,
            pyramid,
            top,
        }
    }

    /// The window a bake of `tile` needs: the tile and [`REACH`] steps around it.
    pub fn around_tile(source: &dyn HeightSource, tile: TileCoord) -> Terrain {
        let n = CHUNKS_PER_SIDE as i32;
        let r = REACH / STEPS_PER_CHUNK;
        let (cx, cy) = (tile.x as i32 * n, tile.y as i32 * n);
        Terrain::read(source, cx - r, cy - r, cx + n - 1 + r, cy + n - 1 + r)
    }

    /// The surface height at lattice position (`gx`, `gy`) (fractional), NaN where there is
    /// no terrain.
    pub fn height_at(&self, gx: f64, gy: f64) -> f32 {
        self.local_height((gx - self.gx0 as f64) as f32, (gy - self.gy0 as f64) as f32)
    }

    /// The surface height at window position (`x`, `y`) in quads: the triangle of the four
    /// around the quad's inner vertex that holds the point, interpolated.
    fn local_height(&self, x: f32, y: f32) -> f32 {
        if !(x >= 0.0 && y >= 0.0 && x <= self.width as f32 && y <= self.height as f32) {
            return f32::NAN;
        }
        let qx = (x as usize).min(self.width - 1);
        let qy = (y as usize).min(self.height - 1);
        let (u, v) = (x - qx as f32, y - qy as f32);
        let row = self.width + 1;
        let o = qy * row + qx;
        let (nw, ne, sw, se) = (
            self.outer[o],
            self.outer[o + 1],
            self.outer[o + row],
            self.outer[o + row + 1],
        );
        let m = self.inner[qy * self.width + qx];
        // Barycentric weights in each triangle: two corners and the centre.
        if v <= u && v <= 1.0 - u {
            nw + (u - v) * (ne - nw) + 2.0 * v * (m - nw)
        } else if u >= v {
            ne + (u + v - 1.0) * (se - ne) + 2.0 * (1.0 - u) * (m - ne)
        } else if v >= 1.0 - u {
            se + (v - u) * (sw - se) + 2.0 * (1.0 - v) * (m - se)
        } else {
            sw + (1.0 - u - v) * (nw - sw) + 2.0 * u * (m - sw)
        }
    }

    /// True when the terrain hides `sun` from the surface at lattice position (`gx`, `gy`).
    /// For one point: a bake of many works out the window's corridors once instead.
    pub fn shadowed(&self, gx: f64, gy: f64, sun: Sun) -> bool {
        let (x, y) = (gx - self.gx0 as f64, gy - self.gy0 as f64);
        let z0 = self.local_height(x as f32, y as f32);
        self.shadowed_along(x, y, sun.ray(), z0, &Corridor::NONE)
    }

    /// Whether the ray toward the sun from window position (`x0`, `y0`) on the surface at
    /// `z0` meets terrain, ending the march early where `corridor` shows that nothing ahead
    /// can reach it.
    fn shadowed_along(&self, x0: f64, y0: f64, ray: Ray, z0: f32, corridor: &Corridor) -> bool {
        let mut march = March::start(x0, y0, ray, z0);
        loop {
            if let Some(shadowed) = march.turn(self, &ray, corridor) {
                return shadowed;
            }
        }
    }

    /// The corridors of rays toward the sun along `ray` over this window: about a
    /// millisecond for a tile's window, against hundreds for its bake.
    fn corridor(&self, ray: Ray) -> Corridor {
        let Some(level) = self.pyramid.get(CORRIDOR_LEVEL) else {
            return Corridor::NONE;
        };
        let (across, down) = (level.across, level.tops.len() / level.across);
        // The rays from points of a square, after travelling t, fill a unit square (in
        // squares) centred on the line from the square's centre; over a quarter of travel
        // they fill that unit square stretched by the quarter's run along each axis, a box.
        // A ray has climbed at least the travel to a box's start by the time it is in it, so
        // it meets nothing in the box if it stands above the box's highest height less that
        // climb. The boxes are widened a little: a sample's position is rounded to f32
        // before its quad is looked up. Past the window's highest height less the climb,
        // nothing further can matter.
        const STEP: f64 = 0.25;
        const SLACK: f64 = 0.5 + 1e-3;
        let (run_x, run_y) = (ray.east * STEP, ray.south * STEP);
        // Yards a ray climbs over one STEP of travel, in squares of 2^CORRIDOR_LEVEL quads.
        let climb = f64::from(ray.rise) * STEP * (1 << CORRIDOR_LEVEL) as f64;
        let (reach_x, reach_y) = (run_x.abs() / 2.0 + SLACK, run_y.abs() / 2.0 + SLACK);
        let mut tops = Vec::with_capacity(across * down);
        for sy in 0..down {
            for sx in 0..across {
                let (mut x, mut y) = (sx as f64 + 0.5 + run_x / 2.0, sy as f64 + 0.5 + run_y / 2.0);
                let mut top = f32::NEG_INFINITY;
                let mut climbed = 0.0;
                loop {
                    if f64::from(self.top) - climbed <= f64::from(top) {
                        break;
                    }
                    let (x0, x1) = ((x - reach_x).floor(), (x + reach_x).floor());
                    let (y0, y1) = ((y - reach_y).floor(), (y + reach_y).floor());
                    if x1 < 0.0 || y1 < 0.0 || x0 >= across as f64 || y0 >= down as f64 {
                        break;
                    }
                    let (x0, x1) = (x0.max(0.0) as usize, (x1 as usize).min(across - 1));
                    let (y0, y1) = (y0.max(0.0) as usize, (y1 as usize).min(down - 1));
                    let mut highest = f32::NEG_INFINITY;
                    for row in level.tops[y0 * across..=y1 * across + x1].chunks(across) {
                        for &h in &row[x0..=x1.min(row.len() - 1)] {
                            highest = highest.max(h);
                        }
                    }
                    top = top.max((f64::from(highest) - climbed) as f32);
                    (x, y) = (x + run_x, y + run_y);
                    climbed += climb;
                }
                tops.push(top + HORIZON_SLACK);
            }
        }
        Corridor { across, tops }
    }

    /// The level of the largest square of the pyramid holding quad (`qx`, `qy`) whose highest
    /// vertex a ray at height `z` clears, searched from level `hint` up or down; none when it
    /// does not clear the quad itself.
    fn cleared_square(&self, qx: usize, qy: usize, z: f32, hint: usize) -> Option<usize> {
        let clear_of = z + BIAS - CLEARANCE;
        let clears = |l: usize| {
            let level = &self.pyramid[l];
            level.tops[(qy >> l) * level.across + (qx >> l)] < clear_of
        };
        // A square's top is at least that of every square inside it, so the levels the ray
        // clears are those below some level: find that level from the hint.
        let mut l = hint.min(self.pyramid.len() - 1);
        if clears(l) {
            while l + 1 < self.pyramid.len() && clears(l + 1) {
                l += 1;
            }
            Some(l)
        } else {
            while l > 0 {
                l -= 1;
                if clears(l) {
                    return Some(l);
                }
            }
            None
        }
    }

    /// The shadow map of the chunk at global chunk column `cx`, row `cy` (inside this window),
    /// with the last row and column repeating the one before when `fixed` (the client reads a
    /// "fixed" chunk's maps as 63×63 and fills the rest so).
    pub fn bake_chunk(&self, cx: i32, cy: i32, sun: Sun, fixed: bool) -> ShadowMap {
        self.bake_chunk_along(cx, cy, sun.ray(), &self.corridor(sun.ray()), fixed)
    }

    /// [`Terrain::bake_chunk`] with the window's corridors for the ray worked out already.
    fn bake_chunk_along(
        &self,
        cx: i32,
        cy: i32,
        ray: Ray,
        corridor: &Corridor,
        fixed: bool,
    ) -> ShadowMap {
        let mut rows = Box::new([0u64; CELLS]);
        let x_base = (cx * STEPS_PER_CHUNK - self.gx0) as f64;
        let y_base = (cy * STEPS_PER_CHUNK - self.gy0) as f64;
        let per_cell = 1.0 / CELLS_PER_STEP;
        for (r, bits) in rows.iter_mut().enumerate() {
            let y = y_base + (r as f64 + 0.5) * per_cell;
            for c in 0..CELLS {
                let x = x_base + (c as f64 + 0.5) * per_cell;
                let z0 = self.local_height(x as f32, y as f32);
                if self.shadowed_along(x, y, ray, z0, corridor) {
                    *bits |= 1 << c;
                }
            }
        }
        if fixed {
            for bits in rows.iter_mut() {
                *bits = (*bits & !(1 << 63)) | ((*bits >> 62 & 1) << 63);
            }
            rows[63] = rows[62];
        }
        ShadowMap { rows }
    }
}

/// The pyramid level whose squares (4 quads a side) [`Corridor`] works in: on a continent's
/// hills, squares of 4 quads ended the most rays for their cost (2, 8 ended fewer or cost more).
const CORRIDOR_LEVEL: usize = 2;

/// Yards added to a corridor's height against rounding: a ray's height is worked out in `f32`
/// from its start, the corridor's from the square's.
const HORIZON_SLACK: f32 = 0.01;

/// For each square of pyramid level [`CORRIDOR_LEVEL`], the height above which a ray toward
/// the sun, now anywhere in that square, can meet no terrain on the rest of its way: the
/// highest of what lies ahead less what the ray climbs before it gets there (a horizon per
/// square). The march ends a lit ray there instead of climbing past the window's highest
/// height, which on hills is most of a lit ray's march.
#[derive(Debug, Clone)]
struct Corridor {
    across: usize,
    tops: Vec<f32>,
}

impl Corridor {
    /// No corridors: rays end only at the window's edge or its highest height.
    const NONE: Corridor = Corridor {
        across: 0,
        tops: Vec::new(),
    };

    /// The height a ray now in quad (`qx`, `qy`) must stand above to meet nothing more, +∞
    /// where unknown.
    fn top(&self, qx: usize, qy: usize) -> f32 {
        let (sx, sy) = (qx >> CORRIDOR_LEVEL, qy >> CORRIDOR_LEVEL);
        if sx >= self.across {
            return f32::INFINITY;
        }
        self.tops
            .get(sy * self.across + sx)
            .copied()
            .unwrap_or(f32::INFINITY)
    }
}

/// One ray's march toward the sun, resumable a turn at a time.
#[derive(Debug, Clone, Copy)]
struct March {
    x0: f64,
    y0: f64,
    z0: f32,
    /// The travel at which the ray crosses the line x = X is X · per_east + from_east (and
    /// likewise for y): one multiply-add per crossing. A ray along an axis never crosses the
    /// other's lines.
    from_east: f64,
    from_south: f64,
    /// The sample tested or jumped to next: sample k stands k quarter steps along the ray.
    k: i32,
    /// The level of the last square jumped: the next square the ray enters is most often
    /// cleared at about the same size, so the search starts there.
    hint: usize,
}

impl March {
    /// The march of the ray from window position (`x0`, `y0`), on the surface at `z0`.
    fn start(x0: f64, y0: f64, ray: Ray, z0: f32) -> March {
        let from = |p0: f64, per: f64| if per != 0.0 { -p0 * per } else { f64::INFINITY };
        March {
            x0,
            y0,
            z0,
            from_east: from(x0, ray.per_east),
            from_south: from(y0, ray.per_south),
            k: 1,
            hint: 0,
        }
    }

    /// Tests one sample or jumps past samples that cannot meet terrain: whether the sun is
    /// hidden once that is known. A ray leaves any window in a few thousand samples, so the
    /// bound on `k` only guards against absurd arithmetic.
    fn turn(&mut self, terrain: &Terrain, ray: &Ray, corridor: &Corridor) -> Option<bool> {
        if !self.z0.is_finite() || self.k >= 1_000_000 {
            return Some(false);
        }
        let t = f64::from(self.k) * MARCH;
        let z = self.z0 + t as f32 * ray.rise;
        if z.is_nan() || z > terrain.top {
            return Some(false);
        }
        let (x, y) = (self.x0 + t * ray.east, self.y0 + t * ray.south);
        if !(x >= 0.0 && y >= 0.0 && x < terrain.width as f64 && y < terrain.height as f64) {
            return Some(false);
        }
        let (qx, qy) = (x as usize, y as usize);
        // The ray never comes down, so once it clears its corridor no later sample can meet
        // terrain.
        if corridor.top(qx, qy) < z + BIAS - CLEARANCE {
            return Some(false);
        }
        match terrain.cleared_square(qx, qy, z, self.hint) {
            Some(l) => {
                self.hint = l;
                let line = |q: usize, ahead: usize| (((q >> l) + ahead) << l) as f64;
                let out = (line(qx, ray.ahead_east) * ray.per_east + self.from_east)
                    .min(line(qy, ray.ahead_south) * ray.per_south + self.from_south);
                // Samples short of the square's edge by a hair are tested, not jumped:
                // rounding may put them in the next square.
                let last_inside = ((out - 1e-6) * (1.0 / MARCH)).clamp(0.0, 1e8) as i32;
                self.k = (last_inside + 1).max(self.k + 1);
                None
            }
            None => {
                self.hint = 0;
                if terrain.local_height(x as f32, y as f32) > z + BIAS {
                    return Some(true);
                }
                self.k += 1;
                None
            }
        }
    }
}

/// The global chunk (column, row) of chunk `chunk` of `tile`.
fn global_chunk(tile: TileCoord, chunk: usize) -> (i32, i32) {
    let [column, row] = coords::map_chunk(tile, chunk);
    (column as i32, row as i32)
}

/// True when the client reads chunk flags `flags` as "fixed" (63×63 maps).
fn is_fixed(flags: u32) -> bool {
    flags & FLAG_DO_NOT_FIX_ALPHA == 0
}

/// The 256 shadow maps of `tile` baked over `source` (the tile and what it has of the
/// neighbours), chunk by chunk in parallel; `flags` gives each chunk's MCNK flags.
pub fn bake_tile(
    source: &dyn HeightSource,
    tile: TileCoord,
    flags: &[u32],
    sun: Sun,
) -> Vec<ShadowMap> {
    use rayon::prelude::*;
    let terrain = Terrain::around_tile(source, tile);
    let (ray, corridor) = (sun.ray(), terrain.corridor(sun.ray()));
    (0..CHUNKS_PER_SIDE * CHUNKS_PER_SIDE)
        .into_par_iter()
        .map(|i| {
            let (cx, cy) = global_chunk(tile, i);
            let fixed = is_fixed(flags.get(i).copied().unwrap_or(0));
            terrain.bake_chunk_along(cx, cy, ray, &corridor, fixed)
        })
        .collect()
}

/// What a bake did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baked {
    /// Chunks baked.
    pub chunks: usize,
    /// Chunks whose shadow map (or its presence) changed.
    pub changed: Vec<(TileCoord, usize)>,
    /// Shadowed cells after the bake, of `chunks` × 4096.
    pub shadowed: u64,
}

impl Baked {
    /// Adds another bake's counts to these.
    pub fn add(&mut self, other: Baked) {
        self.chunks += other.chunks;
        self.changed.extend(other.changed);
        self.shadowed += other.shadowed;
    }
}

/// Stores `shadow` in chunk `chunk` of `tile` with the "has shadow" flag; `before_write` runs
/// first when it changes anything. Returns true when it did.
fn store(
    map: &mut Map,
    tile: TileCoord,
    chunk: usize,
    shadow: ShadowMap,
    before_write: &mut dyn FnMut(&Map, TileCoord, usize),
) -> bool {
    let Some(c) = map.tiles.get(&tile).and_then(|t| t.chunks.get(chunk)) else {
        return false;
    };
    if c.shadow.as_ref() == Some(&shadow) && c.flags & FLAG_HAS_SHADOW != 0 {
        return false;
    }
    before_write(map, tile, chunk);
    if let Some(c) = map
        .tiles
        .get_mut(&tile)
        .and_then(|t| t.chunks.get_mut(chunk))
    {
        c.shadow = Some(shadow);
        c.flags |= FLAG_HAS_SHADOW;
    }
    true
}

/// Bakes every chunk of the loaded tiles `tiles` (each over itself and its loaded neighbours),
/// tiles in parallel. `before_write(map, tile, chunk)` runs once per chunk before it changes.
pub fn bake_tiles(
    map: &mut Map,
    tiles: &[TileCoord],
    sun: Sun,
    mut before_write: impl FnMut(&Map, TileCoord, usize),
) -> Baked {
    use rayon::prelude::*;
    let mut baked = Baked::default();
    // A few tiles at a time, so a continent's maps are not all held at once.
    let batch = rayon::current_num_threads().max(1) * 2;
    for group in tiles.chunks(batch) {
        let maps: Vec<(TileCoord, Vec<ShadowMap>)> = group
            .par_iter()
            .filter_map(|&t| {
                let flags: Vec<u32> = map.tiles.get(&t)?.chunks.iter().map(|c| c.flags).collect();
                Some((t, bake_tile(&*map, t, &flags, sun)))
            })
            .collect();
        for (t, shadows) in maps {
            for (i, s) in shadows.into_iter().enumerate() {
                baked.chunks += 1;
                baked.shadowed += s.rows.iter().map(|r| r.count_ones() as u64).sum::<u64>();
                if store(map, t, i, s, &mut before_write) {
                    baked.changed.push((t, i));
                }
            }
        }
    }
    baked
}

/// Bakes every chunk of `tile` over itself and the neighbours' heights in `others` (a streamed
/// fix); returns what it did.
pub fn bake_lone_tile(
    tile: &mut Tile,
    others: &BTreeMap<TileCoord, TileHeights>,
    sun: Sun,
) -> Baked {
    let flags: Vec<u32> = tile.chunks.iter().map(|c| c.flags).collect();
    let maps = bake_tile(&AroundTile { tile, others }, tile.coord, &flags, sun);
    let mut baked = Baked::default();
    for (i, (c, s)) in tile.chunks.iter_mut().zip(maps).enumerate() {
        baked.chunks += 1;
        baked.shadowed += s.rows.iter().map(|r| r.count_ones() as u64).sum::<u64>();
        if c.shadow.as_ref() != Some(&s) || c.flags & FLAG_HAS_SHADOW == 0 {
            c.shadow = Some(s);
            c.flags |= FLAG_HAS_SHADOW;
            baked.changed.push((tile.coord, i));
        }
    }
    baked
}

/// Bakes every loaded tile of `map`.
pub fn bake_map(
    map: &mut Map,
    sun: Sun,
    before_write: impl FnMut(&Map, TileCoord, usize),
) -> Baked {
    let tiles: Vec<TileCoord> = map.tiles.keys().copied().collect();
    bake_tiles(map, &tiles, sun, before_write)
}

/// Bakes the loaded chunks `chunks` (tile, index) and, because terrain casts shadows beyond
/// itself, the ring of chunks around each; used after a sculpt stroke. Each group of nearby
/// chunks is cast over a window [`REACH`] steps wider than it.
pub fn bake_around(
    map: &mut Map,
    chunks: &[(TileCoord, usize)],
    sun: Sun,
    before_write: impl FnMut(&Map, TileCoord, usize),
) -> Baked {
    let last = MAP_STEPS / STEPS_PER_CHUNK - 1;
    let mut wanted: BTreeSet<(i32, i32)> = BTreeSet::new();
    for &(t, i) in chunks {
        let (cx, cy) = global_chunk(t, i);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (x, y) = (cx + dx, cy + dy);
                if (0..=last).contains(&x) && (0..=last).contains(&y) {
                    wanted.insert((x, y));
                }
            }
        }
    }
    bake_set(map, &wanted, sun, before_write)
}

/// Bakes exactly the loaded chunks `chunks` (tile, index): a selection.
pub fn bake_chunks(
    map: &mut Map,
    chunks: &[(TileCoord, usize)],
    sun: Sun,
    before_write: impl FnMut(&Map, TileCoord, usize),
) -> Baked {
    let wanted: BTreeSet<(i32, i32)> = chunks.iter().map(|&(t, i)| global_chunk(t, i)).collect();
    bake_set(map, &wanted, sun, before_write)
}

/// Bakes the chunks `wanted` (map-wide chunk column, row), cast over a window [`REACH`] steps
/// wider than they are.
fn bake_set(
    map: &mut Map,
    wanted: &BTreeSet<(i32, i32)>,
    sun: Sun,
    mut before_write: impl FnMut(&Map, TileCoord, usize),
) -> Baked {
    use rayon::prelude::*;
    let mut baked = Baked::default();
    let Some(&(x0, _)) = wanted.iter().min_by_key(|(x, _)| *x) else {
        return baked;
    };
    let x1 = wanted.iter().map(|(x, _)| *x).max().unwrap_or(x0);
    let y0 = wanted.iter().map(|(_, y)| *y).min().unwrap_or(0);
    let y1 = wanted.iter().map(|(_, y)| *y).max().unwrap_or(y0);
    let r = REACH / STEPS_PER_CHUNK;
    let terrain = Terrain::read(&*map, x0 - r, y0 - r, x1 + r, y1 + r);
    let n = CHUNKS_PER_SIDE;
    let targets: Vec<(TileCoord, usize, i32, i32, u32)> = wanted
        .iter()
        .filter_map(|&(x, y)| {
            let tile = TileCoord::new(x as usize / n, y as usize / n)?;
            let index = (y as usize % n) * n + x as usize % n;
            let flags = map.tiles.get(&tile)?.chunks.get(index)?.flags;
            Some((tile, index, x, y, flags))
        })
        .collect();
    let (ray, corridor) = (sun.ray(), terrain.corridor(sun.ray()));
    let maps: Vec<ShadowMap> = targets
        .par_iter()
        .map(|&(_, _, x, y, flags)| terrain.bake_chunk_along(x, y, ray, &corridor, is_fixed(flags)))
        .collect();
    for ((tile, index, ..), s) in targets.into_iter().zip(maps) {
        baked.chunks += 1;
        baked.shadowed += s.rows.iter().map(|r| r.count_ones() as u64).sum::<u64>();
        if store(map, tile, index, s, &mut before_write) {
            baked.changed.push((tile, index));
        }
    }
    baked
}

/// A tile's shadows count as baked over terrain (and so can be stale) when its maps hold at least
/// this share of the cells a fresh bake over the tile shadows. Blizzard's corpus tiles hold 0 to
/// 0.6 of them: their shadows are the models' (docs/shadows.md), and are never judged.
pub const STALE_GATE: f64 = 0.9;
/// A chunk of such a tile is stale when the terrain now shadows more than this share of its
/// cells where its map is lit.
pub const STALE_SHARE: f64 = 0.05;
/// Fewer freshly shadowed (sampled) cells than this in a tile are no evidence either way.
const STALE_MIN_CELLS: u32 = 256;

/// How a tile's stored shadow maps compare with a fresh bake over the tile alone, on every
/// other cell of each row and column.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Staleness {
    /// Sampled cells the fresh bake shadows, in chunks that have a map.
    pub fresh: u32,
    /// Of those, the cells the stored maps shadow too.
    pub kept: u32,
    /// Per chunk with a map: (index, share of its sampled cells shadowed now but lit in it).
    pub missing: Vec<(usize, f64)>,
}

impl Staleness {
    /// Measures `tile` against a bake at `sun` over its own terrain. The neighbours are left
    /// out on purpose: terrain can only add shadow, so a bake without them shadows a subset of
    /// what a bake with them did, and an up-to-date map lacks none of it.
    pub fn of(tile: &Tile, sun: Sun) -> Staleness {
        use rayon::prelude::*;
        let none = BTreeMap::new();
        let terrain = Terrain::around_tile(
            &AroundTile {
                tile,
                others: &none,
            },
            tile.coord,
        );
        let (ray, corridor) = (sun.ray(), terrain.corridor(sun.ray()));
        let per_chunk: Vec<(usize, u32, u32, u32)> = tile
            .chunks
            .par_iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let stored = c.shadow.as_ref()?;
                let (cx, cy) = global_chunk(tile.coord, i);
                let x_base = (cx * STEPS_PER_CHUNK - terrain.gx0) as f64;
                let y_base = (cy * STEPS_PER_CHUNK - terrain.gy0) as f64;
                let (mut fresh, mut kept, mut n) = (0, 0, 0);
                for r in (0..CELLS).step_by(2) {
                    let y = y_base + (r as f64 + 0.5) / CELLS_PER_STEP;
                    for col in (0..CELLS).step_by(2) {
                        let x = x_base + (col as f64 + 0.5) / CELLS_PER_STEP;
                        let z0 = terrain.local_height(x as f32, y as f32);
                        n += 1;
                        if terrain.shadowed_along(x, y, ray, z0, &corridor) {
                            fresh += 1;
                            kept += stored.get(r, col) as u32;
                        }
                    }
                }
                Some((i, fresh, kept, n))
            })
            .collect();
        Staleness {
            fresh: per_chunk.iter().map(|c| c.1).sum(),
            kept: per_chunk.iter().map(|c| c.2).sum(),
            missing: per_chunk
                .iter()
                .map(|&(i, fresh, kept, n)| (i, (fresh - kept) as f64 / n.max(1) as f64))
                .collect(),
        }
    }

    /// True when the tile's maps look baked over terrain (see [`STALE_GATE`]).
    pub fn judged(&self) -> bool {
        self.fresh >= STALE_MIN_CELLS && self.kept as f64 >= STALE_GATE * self.fresh as f64
    }

    /// The stale chunks: (index, share missing), when the tile is judged at all.
    pub fn stale_chunks(&self) -> Vec<(usize, f64)> {
        if !self.judged() {
            return Vec::new();
        }
        self.missing
            .iter()
            .copied()
            .filter(|&(_, m)| m > STALE_SHARE)
            .collect()
    }
}

/// Cells (of 4096) where two shadow maps differ.
pub fn differing_cells(a: &ShadowMap, b: &ShadowMap) -> u32 {
    a.rows
        .iter()
        .zip(b.rows.iter())
        .map(|(x, y)| (x ^ y).count_ones())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Tile;

    fn one_tile(f: impl Fn(usize, usize) -> f32) -> Map {
        let mut map = Map::new("Test");
        let coord = TileCoord::new(32, 32).unwrap();
        let mut tile = Tile::flat(coord, "Tileset\\Test\\Base.blp", 0.0);
        for (i, c) in tile.chunks.iter_mut().enumerate() {
            for v in 0..VERTICES_PER_CHUNK {
                let [s, e] = coords::vertex_grid_position(v);
                let gx = (i % 16) as f32 * 8.0 + e;
                let gy = (i / 16) as f32 * 8.0 + s;
                c.heights[v] = f(gx as usize, gy as usize);
            }
        }
        map.tiles.insert(coord, tile);
        map
    }

    /// The march without the pyramid: every sample tested until the ray clears all terrain
    /// or leaves the window.
    fn shadowed_by_every_sample(t: &Terrain, x0: f64, y0: f64, sun: Sun) -> bool {
        let ray = sun.ray();
        let z0 = t.local_height(x0 as f32, y0 as f32);
        if !z0.is_finite() {
            return false;
        }
        for k in 1..100_000u64 {
            let d = k as f64 * MARCH;
            let z = z0 + d as f32 * ray.rise;
            let (x, y) = (x0 + d * ray.east, y0 + d * ray.south);
            if z > t.top || !(x >= 0.0 && y >= 0.0 && x < t.width as f64 && y < t.height as f64) {
                return false;
            }
            if t.local_height(x as f32, y as f32) > z + BIAS {
                return true;
            }
        }
        false
    }

    /// Rough hills with cliffs and a few holes, so that rays start in valleys, skim slopes
    /// and pass over squares of every size.
    fn rough_tile() -> (Map, TileCoord) {
        let hash = |x: usize, y: usize| {
            let h = (x as u64 * 73_856_093) ^ (y as u64 * 19_349_663);
            (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as f32 / (1u64 << 24) as f32
        };
        let mut map = one_tile(|x, y| {
            let (fx, fy) = (x as f32, y as f32);
            60.0 * (fx / 9.0).sin() * (fy / 13.0).cos()
                + 25.0 * hash(x / 3, y / 3)
                + if (x / 8 + y / 8) % 7 == 0 { 40.0 } else { 0.0 }
        });
        let coord = TileCoord::new(32, 32).unwrap();
        for c in [17, 100, 201] {
            map.tiles.get_mut(&coord).unwrap().chunks[c].heights[40] = f32::NAN;
        }
        (map, coord)
    }

    /// Suns from every quarter, along the axes and between them, high and low.
    const SUNS: [(f64, f64); 5] = [
        (315.0, 55.0),
        (90.0, 20.0),
        (200.0, 8.0),
        (0.0, 70.0),
        (33.0, 35.0),
    ];

    #[test]
    fn the_corridors_end_no_ray_that_could_still_meet_terrain() {
        let (rough, coord) = rough_tile();
        // Thin posts on flat ground: a ray that passes one by a hair is decided by that post
        // alone, wherever it lies across the ray's corridor.
        let posts = one_tile(|x, y| {
            if x % 11 == 5 && y % 13 == 7 {
                30.0
            } else {
                0.0
            }
        });
        for map in [rough, posts] {
            corridors_agree_with_the_plain_march(&Terrain::around_tile(&map, coord), coord);
        }
    }

    fn corridors_agree_with_the_plain_march(t: &Terrain, coord: TileCoord) {
        let mut shadowed = 0;
        for sun in SUNS {
            let ray = Sun::new(sun.0, sun.1).unwrap().ray();
            let corridor = t.corridor(ray);
            // Whole chunks: every cell, so rays start at every offset inside the corridors'
            // squares.
            for chunk in [0, 17, 100, 137, 201, 255] {
                let (cx, cy) = global_chunk(coord, chunk);
                let with = t.bake_chunk_along(cx, cy, ray, &corridor, false);
                let without = t.bake_chunk_along(cx, cy, ray, &Corridor::NONE, false);
                assert_eq!(
                    differing_cells(&with, &without),
                    0,
                    "{sun:?}, chunk {chunk}"
                );
                shadowed += with.rows.iter().map(|r| r.count_ones()).sum::<u32>();
            }
        }
        assert!(shadowed > 1_000, "{shadowed} cells shadowed");
    }

    #[test]
    fn the_pyramid_tests_the_samples_that_could_meet_terrain_and_agrees_with_every_sample() {
        let (map, coord) = rough_tile();
        let t = Terrain::around_tile(&map, coord);
        let mut shadowed = 0;
        for sun in SUNS {
            let sun = Sun::new(sun.0, sun.1).unwrap();
            let corridor = t.corridor(sun.ray());
            for i in 0..2_000u32 {
                // Points across the tile (the window's middle third).
                let x = 128.0 + (i as f64 * 0.618_034 % 1.0) * 128.0;
                let y = 128.0 + (i as f64 * 0.414_214 % 1.0) * 128.0;
                let (gx, gy) = (x + t.gx0 as f64, y + t.gy0 as f64);
                let every = shadowed_by_every_sample(&t, x, y, sun);
                assert_eq!(t.shadowed(gx, gy, sun), every, "{sun:?} at {x}, {y}");
                let z0 = t.local_height(x as f32, y as f32);
                let along = t.shadowed_along(x, y, sun.ray(), z0, &corridor);
                assert_eq!(along, every, "{sun:?} at {x}, {y}, with the corridors");
                shadowed += every as u32;
            }
        }
        assert!(shadowed > 1_000 && shadowed < 9_000, "{shadowed} of 10,000");
    }

    #[test]
    fn flat_ground_has_no_shadow() {
        let map = one_tile(|_, _| 10.0);
        let t = Terrain::around_tile(&map, TileCoord::new(32, 32).unwrap());
        let s = t.bake_chunk(
            32 * 16 + 3,
            32 * 16 + 3,
            Sun::new(315.0, 30.0).unwrap(),
            false,
        );
        assert_eq!(s.rows.iter().map(|r| r.count_ones()).sum::<u32>(), 0);
    }
}
