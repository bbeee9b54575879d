//! Flight bounds (MFBO, 3.3.5): each tile's two 3×3 planes of heights, a ceiling flying players
//! stay under and a floor below which they fall into nowhere. This fits the planes to a tile's
//! terrain and WMOs, widens existing ones, and finds where the ground pokes through them.
//!
//! The geometry is Noggit's (wowdev/noggit3 and Marlamin/noggit-red `MapTile.cpp`,
//! noggit-red `FlightBoundsRender.cpp`): point `i = x + 3·y` sits `x` half-tiles east and `y`
//! half-tiles south of the tile's north-west corner, and each plane is drawn as a fan of eight
//! triangles around the centre point 4 with the ring 1, 2, 5, 8, 7, 6, 3, 0. Nothing public says
//! how the client interpolates, so [`fit`] does not lean on the fan: see [`requirement`].
//!
//! Not for: reading or writing the chunk (`format::v18::adt`), the command line (`cli::fix`,
//! `cli::check`). docs/flight-bounds.md has the rule and Blizzard's own values.

use crate::model::coords::{self, CHUNKS_PER_SIDE, TILE_SIZE, VERTICES_PER_CHUNK};
use crate::model::tile::TILE_FLAG_FLIGHT_BOUNDS;
use crate::model::{FlightBounds, Tile};

/// Distance between neighbouring points of a plane (yards): half a tile. Noggit truncates the
/// offsets to 266 and 533 yards; loam uses the exact halves, which put the last row and column
/// on the tile's edge, where the neighbour's first ones are.
pub const SPACING: f64 = TILE_SIZE / 2.0;

/// How far from its point a value must hold (yards, along each axis): every location of the
/// tile is within this of the points of whichever fan triangle (or bilinear cell) holds it.
pub const REACH: f64 = SPACING;

/// Slack on the edges of a point's square (yards), so that a vertex on the line between two
/// squares counts in both despite float rounding; counting a vertex too many only raises a
/// ceiling (lowers a floor) a little, which is safe.
const EDGE: f64 = 0.01;

/// How far the ground may pass a plane before [`poke_through`] reports it (yards): float noise
/// of the interpolation, not a place a player could stand.
const POKE_TOLERANCE: f32 = 0.01;

/// The fan's ring around the centre point 4, closed (Noggit's order); triangle `k` is
/// (4, `RING[k]`, `RING[k + 1]`).
const RING: [usize; 9] = [1, 2, 5, 8, 7, 6, 3, 0, 1];

/// Where point `i` (0..9) of a plane sits: (east, south) yards from the tile's north-west corner.
pub fn point_offset(i: usize) -> (f64, f64) {
    ((i % 3) as f64 * SPACING, (i / 3) as f64 * SPACING)
}

/// The plane's height at (`east`, `south`) yards from the tile's north-west corner (clamped to
/// the tile), interpolated over Noggit's fan: barycentric in the one of the eight triangles
/// around point 4 that holds the location. The client's own interpolation is not documented;
/// this is what Noggit draws and what `loam check` measures against.
pub fn plane_height(plane: &[i16; 9], east: f64, south: f64) -> f32 {
    let p = (east.clamp(0.0, TILE_SIZE), south.clamp(0.0, TILE_SIZE));
    // Every location lies in some triangle; the one whose smallest weight is largest holds it
    // (on a shared edge both give the same height), which also absorbs float rounding.
    let mut best = (f64::NEG_INFINITY, 0.0);
    for k in 0..8 {
        let tri = [4, RING[k], RING[k + 1]];
        let w = barycentric(tri.map(point_offset), p);
        let least = w[0].min(w[1]).min(w[2]);
        if least > best.0 {
            let h = tri.iter().zip(w).map(|(&i, wi)| wi * plane[i] as f64).sum();
            best = (least, h);
        }
    }
    best.1 as f32
}

/// The weights of `p` in triangle `t`.
fn barycentric(t: [(f64, f64); 3], p: (f64, f64)) -> [f64; 3] {
    let [(ax, ay), (bx, by), (cx, cy)] = t;
    let det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy);
    let a = ((by - cy) * (p.0 - cx) + (cx - bx) * (p.1 - cy)) / det;
    let b = ((cy - ay) * (p.0 - cx) + (ax - cx) * (p.1 - cy)) / det;
    [a, b, 1.0 - a - b]
}

/// How much room the planes leave: the ceiling this far above the highest thing within a
/// point's reach, the floor this far below the lowest (yards).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Margins {
    /// Yards of ceiling above the highest terrain or WMO top.
    pub above: f32,
    /// Yards of floor below the lowest terrain or WMO bottom.
    pub below: f32,
}

impl Margins {
    /// Blizzard's tightest clearances in the corpus, rounded: PVPZone01's ceiling (800) is 417
    /// yd over its highest ground and its floor (-75) 75 yd under its lowest; Northrend_37_25's
    /// flat 1000 / -1000 leave more. 400 above lets a player climb well over any hill before
    /// the ceiling stops them; 75 below is the depth at which Blizzard itself lets a falling
    /// player vanish, low enough for any cave the terrain mesh holds.
    pub const DEFAULT: Margins = Margins {
        above: 400.0,
        below: 75.0,
    };
}

impl Default for Margins {
    fn default() -> Margins {
        Margins::DEFAULT
    }
}

/// The extremes of what stands within one point's reach: terrain heights and WMO boxes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reach {
    /// The highest terrain vertex or WMO top (yards), `None` when nothing is in reach.
    pub highest: Option<f32>,
    /// The lowest terrain vertex or WMO bottom (yards).
    pub lowest: Option<f32>,
}

impl Reach {
    fn add(&mut self, low: f32, high: f32) {
        if low.is_finite() {
            self.lowest = Some(self.lowest.map_or(low, |l| l.min(low)));
        }
        if high.is_finite() {
            self.highest = Some(self.highest.map_or(high, |h| h.max(high)));
        }
    }
}

/// Whether (`east`, `south`) lies in the square of ±[`REACH`] around point `i`.
fn in_reach(i: usize, east: f64, south: f64) -> bool {
    let (pe, ps) = point_offset(i);
    (east - pe).abs() <= REACH + EDGE && (south - ps).abs() <= REACH + EDGE
}

/// (east, south) yards of vertex `k` of chunk (`cx`, `cy`) from the tile's north-west corner.
fn vertex_offset(tile: &Tile, cx: usize, cy: usize, k: usize) -> (f64, f64) {
    let [nx, ny] = tile.coord.north_west();
    let [x, y] = coords::vertex_world_xy(tile.coord, cx, cy, k);
    (ny - y, nx - x)
}

/// What stands within each point's reach: every terrain vertex (those in holes too: the hole
/// is the client's to hide, the height is still the one a WMO doorway sits at) and every WMO
/// whose box overlaps the point's square clipped to the tile. Doodad records carry no bounds;
/// the margins cover trees and rocks.
pub fn requirement(tile: &Tile) -> [Reach; 9] {
    let mut out = [Reach {
        highest: None,
        lowest: None,
    }; 9];
    for cy in 0..CHUNKS_PER_SIDE {
        for cx in 0..CHUNKS_PER_SIDE {
            let chunk = tile.chunk(cx, cy);
            for k in 0..VERTICES_PER_CHUNK.min(chunk.heights.len()) {
                let (e, s) = vertex_offset(tile, cx, cy, k);
                let h = chunk.heights[k];
                for (i, r) in out.iter_mut().enumerate() {
                    if in_reach(i, e, s) {
                        r.add(h, h);
                    }
                }
            }
        }
    }
    let [nx, ny] = tile.coord.north_west();
    for w in &tile.wmos {
        // The box in tile offsets, clipped to the tile.
        let east = (
            (ny - w.bounds_max[1]).max(0.0),
            (ny - w.bounds_min[1]).min(TILE_SIZE),
        );
        let south = (
            (nx - w.bounds_max[0]).max(0.0),
            (nx - w.bounds_min[0]).min(TILE_SIZE),
        );
        if !(east.0 <= east.1 && south.0 <= south.1) {
            continue;
        }
        for (i, r) in out.iter_mut().enumerate() {
            let (pe, ps) = point_offset(i);
            let overlaps = east.0 <= pe + REACH + EDGE
                && east.1 >= pe - REACH - EDGE
                && south.0 <= ps + REACH + EDGE
                && south.1 >= ps - REACH - EDGE;
            if overlaps {
                r.add(w.bounds_min[2] as f32, w.bounds_max[2] as f32);
            }
        }
    }
    out
}

/// Fresh planes for `tile`: each point's ceiling `ceil(highest + above)` and floor
/// `floor(lowest - below)` over its reach, clamped to i16. Because each value bounds everything
/// in its point's square, and any interpolation that is a convex combination of the points
/// whose squares cover a location (Noggit's fan, bilinear over the four quarters, nearest
/// point) only mixes values that each bound that location, the planes clear the ground
/// wherever the client looks, whichever of these it uses. A point with nothing in reach (a
/// tile of non-finite heights) takes ground at 0.
pub fn fit(tile: &Tile, margins: Margins) -> FlightBounds {
    let reach = requirement(tile);
    let to_i16 = |v: f32| v.clamp(i16::MIN as f32, i16::MAX as f32) as i16;
    FlightBounds {
        max: reach.map(|r| to_i16((r.highest.unwrap_or(0.0) + margins.above).ceil())),
        min: reach.map(|r| to_i16((r.lowest.unwrap_or(0.0) - margins.below).floor())),
    }
}

/// `existing` with each value moved out only as far as `fitted` requires: the higher ceiling
/// and the lower floor of the two. A designer's generous hand-set planes (Blizzard's flat
/// 1000 / -1000) survive; a hill raised above them lifts only the points around it.
pub fn widen(existing: &FlightBounds, fitted: &FlightBounds) -> FlightBounds {
    FlightBounds {
        max: std::array::from_fn(|i| existing.max[i].max(fitted.max[i])),
        min: std::array::from_fn(|i| existing.min[i].min(fitted.min[i])),
    }
}

/// What [`update_tile`] did to a tile's planes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// The tile had none; these were fitted.
    Added(FlightBounds),
    /// Existing planes moved out (or only the MHDR flag set) to clear the ground.
    Widened {
        /// The planes before.
        before: FlightBounds,
        /// The planes after.
        after: FlightBounds,
    },
    /// Existing planes replaced by a fresh fit (`--refit-flight-bounds`).
    Refitted {
        /// The planes before.
        before: FlightBounds,
        /// The planes after.
        after: FlightBounds,
    },
}

/// Gives `tile` planes that clear its ground: fitted ones where it has none, its own widened
/// ([`widen`]) or, with `refit`, replaced by a fresh fit; sets the MHDR flag that announces
/// MFBO. `None` when nothing changed.
pub fn update_tile(tile: &mut Tile, margins: Margins, refit: bool) -> Option<Change> {
    let fitted = fit(tile, margins);
    let had_flag = tile.flags & TILE_FLAG_FLIGHT_BOUNDS != 0;
    tile.flags |= TILE_FLAG_FLIGHT_BOUNDS;
    let Some(before) = tile.flight_bounds else {
        tile.flight_bounds = Some(fitted);
        return Some(Change::Added(fitted));
    };
    let after = if refit {
        fitted
    } else {
        widen(&before, &fitted)
    };
    tile.flight_bounds = Some(after);
    match (after == before && had_flag, refit) {
        (true, _) => None,
        (false, true) => Some(Change::Refitted { before, after }),
        (false, false) => Some(Change::Widened { before, after }),
    }
}

/// Counts of [`update_tile`]'s results over a map, for `loam fix`'s report line.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Tiles that had no planes.
    pub added: usize,
    /// Tiles whose planes were widened or refitted.
    pub changed: usize,
    /// Tiles left as they were.
    pub unchanged: usize,
}

impl Tally {
    /// Counts one tile's result.
    pub fn add(&mut self, change: &Option<Change>) {
        match change {
            Some(Change::Added(_)) => self.added += 1,
            Some(_) => self.changed += 1,
            None => self.unchanged += 1,
        }
    }
}

/// Which plane the ground passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plane {
    /// The ground rises above the ceiling.
    Ceiling,
    /// The ground drops below the floor.
    Floor,
}

/// Ground on the wrong side of a plane around one point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Poke {
    /// The plane passed.
    pub plane: Plane,
    /// The plane point nearest the vertices (0..9, `x + 3·y`).
    pub point: usize,
    /// How far the worst vertex passes the plane (yards).
    pub by: f32,
    /// The chunk (x, y) of the worst vertex.
    pub chunk: (usize, usize),
    /// How many vertices near this point pass it.
    pub vertices: usize,
}

/// The terrain vertices of `tile` above its ceiling or below its floor as [`plane_height`]
/// interpolates them, one [`Poke`] per plane and nearest point, worst first. Empty when the
/// tile has no planes.
pub fn poke_through(tile: &Tile) -> Vec<Poke> {
    let Some(fb) = &tile.flight_bounds else {
        return Vec::new();
    };
    let mut found: Vec<Poke> = Vec::new();
    for cy in 0..CHUNKS_PER_SIDE {
        for cx in 0..CHUNKS_PER_SIDE {
            let chunk = tile.chunk(cx, cy);
            for (k, &h) in chunk.heights.iter().enumerate() {
                let (e, s) = vertex_offset(tile, cx, cy, k);
                let over = h - plane_height(&fb.max, e, s);
                let under = plane_height(&fb.min, e, s) - h;
                for (plane, by) in [(Plane::Ceiling, over), (Plane::Floor, under)] {
                    if by > POKE_TOLERANCE {
                        let point = nearest_point(e, s);
                        note(&mut found, plane, point, by, (cx, cy));
                    }
                }
            }
        }
    }
    found.sort_by(|a, b| b.by.total_cmp(&a.by));
    found
}

/// The plane point nearest (`east`, `south`).
fn nearest_point(east: f64, south: f64) -> usize {
    let at = |v: f64| (v / SPACING).round().clamp(0.0, 2.0) as usize;
    at(east) + 3 * at(south)
}

/// Adds one vertex to the poke of its plane and point, keeping the worst.
fn note(found: &mut Vec<Poke>, plane: Plane, point: usize, by: f32, chunk: (usize, usize)) {
    match found
        .iter_mut()
        .find(|p| p.plane == plane && p.point == point)
    {
        Some(p) => {
            p.vertices += 1;
            if by > p.by {
                p.by = by;
                p.chunk = chunk;
            }
        }
        None => found.push(Poke {
            plane,
            point,
            by,
            chunk,
            vertices: 1,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TileCoord;

    /// Planes whose values are all different, to see which point a height comes from.
    const PLANE: [i16; 9] = [10, -20, 300, 45, 0, -7, 1000, 2, -400];

    #[test]
    fn plane_height_is_each_points_value_at_the_point() {
        for (i, &v) in PLANE.iter().enumerate() {
            let (e, s) = point_offset(i);
            assert!((plane_height(&PLANE, e, s) - v as f32).abs() < 1e-3);
        }
    }

    #[test]
    fn plane_height_stays_within_its_points_and_is_linear_along_the_ring() {
        let (lo, hi) = (-400.0, 1000.0);
        let n = 64;
        for a in 0..=n {
            for b in 0..=n {
                let (e, s) = (
                    a as f64 * TILE_SIZE / n as f64,
                    b as f64 * TILE_SIZE / n as f64,
                );
                let h = plane_height(&PLANE, e, s);
                assert!((lo - 1e-3..=hi + 1e-3).contains(&h), "{e} {s}: {h}");
            }
        }
        // Halfway between points 0 and 1 on the north edge: their mean.
        let h = plane_height(&PLANE, SPACING / 2.0, 0.0);
        assert!((h - (10.0 - 20.0) / 2.0).abs() < 1e-3);
        // Outside the tile: clamped to its edge.
        assert_eq!(plane_height(&PLANE, -50.0, -50.0), 10.0);
    }

    #[test]
    fn a_flat_tile_is_fitted_by_its_height_and_the_margins() {
        let mut tile = Tile::flat(TileCoord::new(30, 30).unwrap(), "a.blp", 12.5);
        let fb = fit(&tile, Margins::DEFAULT);
        assert_eq!(fb.max, [413; 9]);
        assert_eq!(fb.min, [-63; 9]);
        assert_eq!(
            update_tile(&mut tile, Margins::DEFAULT, false),
            Some(Change::Added(fb))
        );
        assert_eq!(tile.flags & TILE_FLAG_FLIGHT_BOUNDS, 1);
        assert_eq!(update_tile(&mut tile, Margins::DEFAULT, false), None);
        assert!(poke_through(&tile).is_empty());
        // A spike in the south-east corner chunk passes the ceiling near point 8 only.
        tile.chunk_mut(15, 15).heights[16] = 900.0;
        let pokes = poke_through(&tile);
        assert_eq!(pokes.len(), 1, "{pokes:?}");
        assert_eq!(
            (pokes[0].plane, pokes[0].point, pokes[0].chunk),
            (Plane::Ceiling, 8, (15, 15))
        );
        let Some(Change::Widened { after, .. }) = update_tile(&mut tile, Margins::DEFAULT, false)
        else {
            panic!("widened");
        };
        assert_eq!(after.max, [413, 413, 413, 413, 1300, 1300, 413, 1300, 1300]);
        assert!(poke_through(&tile).is_empty());
    }
}
