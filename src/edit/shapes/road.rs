//! A road's geometry: its centreline (a Catmull-Rom curve through the control points), the bed
//! height along it (linear in arc length between the heights at consecutive control points),
//! and how strongly the road holds each point of the ground, by its distance from the
//! centreline: the bed within half the width, a shoulder blending back to the terrain, and the
//! texture's own edge.
//!
//! The curve is the uniform Catmull-Rom spline (tension ½) through the points, the ends
//! extended by reflection (a ghost point `2·P0 − P1` before the first, `2·Pn − Pn−1` after the
//! last), so that two points give a straight road and the curve leaves each end toward the next
//! point. It is followed as a fine polyline (a quarter yard per piece), which is closer to the
//! curve than a vertex's height can tell.
//!
//! Not for: writing heights or alpha maps (`road_ops`).

/// Longest piece of the polyline that stands for the curve, in yards.
const PIECE: f64 = 0.25;
/// Most pieces one span of the curve is cut into (a span a few kilometres long).
const MOST_PIECES: usize = 1 << 16;

/// The point at `t` (0..1) of the uniform Catmull-Rom span from `p1` to `p2`, `p0` and `p3`
/// the points before and after.
pub fn catmull_rom(p0: [f64; 2], p1: [f64; 2], p2: [f64; 2], p3: [f64; 2], t: f64) -> [f64; 2] {
    let (t2, t3) = (t * t, t * t * t);
    std::array::from_fn(|k| {
        0.5 * (2.0 * p1[k]
            + (p2[k] - p0[k]) * t
            + (2.0 * p0[k] - 5.0 * p1[k] + 4.0 * p2[k] - p3[k]) * t2
            + (3.0 * p1[k] - p0[k] - 3.0 * p2[k] + p3[k]) * t3)
    })
}

/// The road's centreline as a fine polyline, with the arc length at each of its points.
#[derive(Debug, Clone, PartialEq)]
pub struct Centreline {
    /// Points along the curve (world x, y), the control points among them.
    pub points: Vec<[f64; 2]>,
    /// Arc length from the start at each point, in yards.
    pub arc: Vec<f64>,
    /// Arc length at each control point.
    pub knots: Vec<f64>,
}

impl Centreline {
    /// The Catmull-Rom curve through `controls` (at least two, no two consecutive alike, all
    /// finite); `None` otherwise.
    pub fn through(controls: &[[f64; 2]]) -> Option<Centreline> {
        let n = controls.len();
        let distinct = controls.windows(2).all(|w| w[0] != w[1]);
        if n < 2 || !distinct || controls.iter().flatten().any(|c| !c.is_finite()) {
            return None;
        }
        let ghost = |a: [f64; 2], b: [f64; 2]| [2.0 * a[0] - b[0], 2.0 * a[1] - b[1]];
        let at = |i: isize| -> [f64; 2] {
            if i < 0 {
                ghost(controls[0], controls[1])
            } else if i as usize >= n {
                ghost(controls[n - 1], controls[n - 2])
            } else {
                controls[i as usize]
            }
        };
        let mut points = vec![controls[0]];
        let mut arc = vec![0.0];
        let mut knots = vec![0.0];
        for i in 0..n as isize - 1 {
            let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
            // The span as a cubic Bézier: its speed is at most three times its longest leg,
            // so that many pieces keep each under `PIECE`.
            let b1 = [p1[0] + (p2[0] - p0[0]) / 6.0, p1[1] + (p2[1] - p0[1]) / 6.0];
            let b2 = [p2[0] - (p3[0] - p1[0]) / 6.0, p2[1] - (p3[1] - p1[1]) / 6.0];
            let leg = dist(p1, b1).max(dist(b1, b2)).max(dist(b2, p2));
            let pieces = ((3.0 * leg / PIECE).ceil() as usize).clamp(8, MOST_PIECES);
            for k in 1..=pieces {
                let p = if k == pieces {
                    p2
                } else {
                    catmull_rom(p0, p1, p2, p3, k as f64 / pieces as f64)
                };
                let last = points[points.len() - 1];
                arc.push(arc[arc.len() - 1] + dist(last, p));
                points.push(p);
            }
            knots.push(arc[arc.len() - 1]);
        }
        Some(Centreline { points, arc, knots })
    }

    /// Its length in yards.
    pub fn length(&self) -> f64 {
        self.arc[self.arc.len() - 1]
    }
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// The point of the centreline nearest a point of the ground.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nearest {
    /// Distance from the centreline in yards.
    pub distance: f64,
    /// Arc length of the nearest centreline point.
    pub arc: f64,
}

/// A road: centreline, bed heights, widths.
#[derive(Debug, Clone)]
pub struct Road {
    /// The centreline.
    pub line: Centreline,
    /// The bed height at each control point.
    pub heights: Vec<f64>,
    /// Half the bed's width, yards.
    pub half_width: f64,
    /// The shoulder's width beyond the bed, yards.
    pub shoulder: f64,
    /// Half the width the texture paints at full weight, yards.
    pub texture_half_width: f64,
    grid: SegmentGrid,
}

impl Road {
    /// The road through `controls` with bed `heights` there (one each), `width` and `shoulder`
    /// in yards, its texture at full weight within `texture_width` (the bed's width when
    /// `None`). `None` when the points give no curve or a number is out of range.
    pub fn new(
        controls: &[[f64; 2]],
        heights: &[f64],
        width: f64,
        shoulder: f64,
        texture_width: Option<f64>,
    ) -> Option<Road> {
        let line = Centreline::through(controls)?;
        let texture_width = texture_width.unwrap_or(width);
        let positive = |v: f64| v > 0.0 && v.is_finite();
        if heights.len() != controls.len()
            || heights.iter().any(|h| !h.is_finite())
            || !positive(width)
            || !positive(texture_width)
            || !(shoulder >= 0.0 && shoulder.is_finite())
        {
            return None;
        }
        let (half_width, texture_half_width) = (width / 2.0, texture_width / 2.0);
        let reach = (half_width + shoulder).max(texture_half_width);
        let grid = SegmentGrid::new(&line.points, reach);
        Some(Road {
            line,
            heights: heights.to_vec(),
            half_width,
            shoulder,
            texture_half_width,
            grid,
        })
    }

    /// How far from the centreline the road changes anything (heights or texture), yards.
    pub fn reach(&self) -> f64 {
        self.grid.reach
    }

    /// The world box (min x, min y, max x, max y) outside which the road changes nothing.
    pub fn bounds(&self) -> [f64; 4] {
        let r = self.reach();
        let mut b = [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ];
        for p in &self.line.points {
            b = [
                b[0].min(p[0]),
                b[1].min(p[1]),
                b[2].max(p[0]),
                b[3].max(p[1]),
            ];
        }
        [b[0] - r, b[1] - r, b[2] + r, b[3] + r]
    }

    /// The nearest centreline point to world (`x`, `y`), when within [`Road::reach`].
    pub fn nearest(&self, x: f64, y: f64) -> Option<Nearest> {
        let pts = &self.line.points;
        // Squared distances while searching (this is the hot loop of painting a road).
        let mut best: Option<(f64, usize, f64)> = None;
        for &i in self.grid.near(x, y) {
            let i = i as usize;
            let (a, b) = (pts[i], pts[i + 1]);
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let len2 = dx * dx + dy * dy;
            let t = if len2 > 0.0 {
                (((x - a[0]) * dx + (y - a[1]) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (ex, ey) = (x - a[0] - dx * t, y - a[1] - dy * t);
            let d2 = ex * ex + ey * ey;
            if best.is_none_or(|(b2, ..)| d2 < b2) {
                best = Some((d2, i, t));
            }
        }
        let (d2, i, t) = best?;
        let distance = d2.sqrt();
        let arc = self.line.arc[i] + t * (self.line.arc[i + 1] - self.line.arc[i]);
        (distance <= self.reach()).then_some(Nearest { distance, arc })
    }

    /// The bed height at arc length `arc`: linear between the heights at the control points
    /// either side.
    pub fn bed_height(&self, arc: f64) -> f64 {
        let knots = &self.line.knots;
        let i = knots
            .partition_point(|&k| k <= arc)
            .clamp(1, knots.len() - 1);
        let (k0, k1) = (knots[i - 1], knots[i]);
        let t = if k1 > k0 {
            ((arc - k0) / (k1 - k0)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.heights[i - 1] + (self.heights[i] - self.heights[i - 1]) * t
    }

    /// How much of the bed height the ground `distance` yards from the centreline takes: 1 on
    /// the bed, easing (smoothstep) to 0 across the shoulder, 0 beyond.
    pub fn height_weight(&self, distance: f64) -> f64 {
        fade(distance, self.half_width, self.half_width + self.shoulder)
    }

    /// The texture's weight `distance` yards from the centreline: 1 within half the texture
    /// width, easing to 0 at the shoulder's outer edge (no soft edge when the texture reaches
    /// past it).
    pub fn texture_weight(&self, distance: f64) -> f64 {
        fade(
            distance,
            self.texture_half_width,
            self.half_width + self.shoulder,
        )
    }
}

/// 1 up to `full`, smoothstep down to 0 at `none`, 0 beyond (a step at `full` when `none` is
/// not beyond it).
fn fade(d: f64, full: f64, none: f64) -> f64 {
    if d <= full {
        1.0
    } else if d >= none {
        0.0
    } else {
        let t = (d - full) / (none - full);
        1.0 - t * t * (3.0 - 2.0 * t)
    }
}

/// The polyline's pieces filed by square cells, each piece in every cell within `reach` of
/// it, so that a point's nearby pieces are those of its own cell.
#[derive(Debug, Clone)]
struct SegmentGrid {
    reach: f64,
    origin: [f64; 2],
    cell: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
}

/// Most cells the grid holds; a long road gets larger cells.
const MOST_CELLS: f64 = 65536.0;

impl SegmentGrid {
    fn new(points: &[[f64; 2]], reach: f64) -> SegmentGrid {
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in points {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k] - reach);
                hi[k] = hi[k].max(p[k] + reach);
            }
        }
        let area = (hi[0] - lo[0]) * (hi[1] - lo[1]);
        let cell = reach.max(1.0).max((area / MOST_CELLS).sqrt());
        let cols = ((hi[0] - lo[0]) / cell).ceil().max(1.0) as usize;
        let rows = ((hi[1] - lo[1]) / cell).ceil().max(1.0) as usize;
        let mut grid = SegmentGrid {
            reach,
            origin: lo,
            cell,
            cols,
            rows,
            cells: vec![Vec::new(); cols * rows],
        };
        for (i, w) in points.windows(2).enumerate() {
            let (c0, r0) = grid.cell_of(w[0][0].min(w[1][0]) - reach, w[0][1].min(w[1][1]) - reach);
            let (c1, r1) = grid.cell_of(w[0][0].max(w[1][0]) + reach, w[0][1].max(w[1][1]) + reach);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    grid.cells[r * cols + c].push(i as u32);
                }
            }
        }
        grid
    }

    /// The cell holding world (`x`, `y`), clamped into the grid.
    fn cell_of(&self, x: f64, y: f64) -> (usize, usize) {
        let c = ((x - self.origin[0]) / self.cell).floor().max(0.0) as usize;
        let r = ((y - self.origin[1]) / self.cell).floor().max(0.0) as usize;
        (c.min(self.cols - 1), r.min(self.rows - 1))
    }

    /// The pieces that may lie within `reach` of world (`x`, `y`).
    fn near(&self, x: f64, y: f64) -> &[u32] {
        let inside = x >= self.origin[0]
            && y >= self.origin[1]
            && x <= self.origin[0] + self.cell * self.cols as f64
            && y <= self.origin[1] + self.cell * self.rows as f64;
        if !inside {
            return &[];
        }
        let (c, r) = self.cell_of(x, y);
        &self.cells[r * self.cols + c]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_points_give_a_straight_road_and_heights_run_linearly_along_it() {
        let road = Road::new(&[[0.0, 0.0], [100.0, 0.0]], &[10.0, 30.0], 8.0, 4.0, None).unwrap();
        assert!((road.line.length() - 100.0).abs() < 1e-9);
        for p in &road.line.points {
            assert!(p[1].abs() < 1e-9, "straight: {p:?}");
        }
        let n = road.nearest(25.0, 3.0).unwrap();
        assert!((n.distance - 3.0).abs() < 1e-9 && (n.arc - 25.0).abs() < 1e-9);
        assert!((road.bed_height(n.arc) - 15.0).abs() < 1e-9);
        assert_eq!(road.height_weight(3.9), 1.0);
        let mid = road.height_weight(6.0);
        assert!(mid > 0.0 && mid < 1.0, "{mid}");
        assert_eq!(road.height_weight(8.0), 0.0);
        assert_eq!(road.nearest(50.0, 9.0), None, "beyond the shoulder");
        // Past the end, the nearest point is the end itself.
        let end = road.nearest(102.0, 0.0).unwrap();
        assert!((end.distance - 2.0).abs() < 1e-9);
        assert_eq!(road.bed_height(end.arc), 30.0);
    }

    #[test]
    fn the_curve_passes_through_every_control_point_and_bends_smoothly() {
        let controls = [[0.0, 0.0], [50.0, 30.0], [100.0, -20.0], [160.0, 10.0]];
        let line = Centreline::through(&controls).unwrap();
        assert_eq!(line.knots.len(), 4);
        for (k, c) in line.knots.iter().zip(controls) {
            let i = line.arc.iter().position(|a| a == k).unwrap();
            assert_eq!(line.points[i], c);
        }
        // Pieces are short, and the curve's own points are on them.
        for w in line.points.windows(2) {
            assert!(dist(w[0], w[1]) <= PIECE + 1e-9);
        }
        let on = catmull_rom(controls[0], controls[1], controls[2], controls[3], 0.37);
        let road = Road::new(&controls, &[0.0; 4], 2.0, 0.0, None).unwrap();
        assert!(road.nearest(on[0], on[1]).unwrap().distance < 1e-3);
        // Heights at the control points are those given, in between linear in arc length.
        let road = Road::new(&controls, &[0.0, 10.0, 10.0, -5.0], 2.0, 0.0, None).unwrap();
        assert_eq!(road.bed_height(line.knots[1]), 10.0);
        let half = (line.knots[0] + line.knots[1]) / 2.0;
        assert!((road.bed_height(half) - 5.0).abs() < 1e-9);
        assert_eq!(road.bed_height(line.length() + 5.0), -5.0);
    }

    #[test]
    fn bad_roads_are_refused() {
        let two = [[0.0, 0.0], [10.0, 0.0]];
        assert!(Road::new(&two[..1], &[0.0], 4.0, 1.0, None).is_none());
        assert!(Road::new(&[[0.0, 0.0], [0.0, 0.0]], &[0.0; 2], 4.0, 1.0, None).is_none());
        assert!(
            Road::new(&two, &[0.0], 4.0, 1.0, None).is_none(),
            "a height each"
        );
        assert!(Road::new(&two, &[0.0; 2], 0.0, 1.0, None).is_none());
        assert!(Road::new(&two, &[0.0; 2], 4.0, -1.0, None).is_none());
        assert!(Road::new(&two, &[f64::NAN, 0.0], 4.0, 1.0, None).is_none());
        assert!(Road::new(&two, &[0.0; 2], 4.0, 1.0, Some(0.0)).is_none());
    }

    #[test]
    fn the_texture_is_full_within_its_width_and_fades_to_the_shoulders_edge() {
        let road = Road::new(&[[0.0, 0.0], [10.0, 0.0]], &[0.0; 2], 6.0, 4.0, Some(2.0)).unwrap();
        assert_eq!(road.texture_weight(1.0), 1.0);
        assert!(road.texture_weight(3.0) < 1.0 && road.texture_weight(3.0) > 0.0);
        assert_eq!(road.texture_weight(7.0), 0.0);
        let wide = Road::new(&[[0.0, 0.0], [10.0, 0.0]], &[0.0; 2], 6.0, 0.0, Some(12.0)).unwrap();
        assert_eq!(wide.texture_weight(5.9), 1.0);
        assert_eq!(wide.texture_weight(6.1), 0.0);
        assert!(
            wide.nearest(5.0, 5.9).is_some(),
            "the road reaches as far as its texture"
        );
    }
}
