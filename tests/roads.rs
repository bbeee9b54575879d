//! Roads and planes (issue 43, its library and `loam apply` part), on the bundled sample and
//! read back with the `wow-adt` crate: a road of five points across the sample's tile borders
//! levels its bed to the bed height (worked out here from the curve's definition, not by
//! loam), leaves the ground beyond its shoulders bit for bit, paints its texture along the
//! centreline, and `loam check` finds no seam at all; a road without heights takes the
//! terrain's at its points; the `plane` tool and flatten's slope put the ground within their
//! inner radius onto the plane.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use common::{loam, text};

const TILE: f64 = 1600.0 / 3.0;
const CHUNK: f64 = TILE / 16.0;
const UNIT: f64 = CHUNK / 8.0;
/// The sample's tiles, as (X, Y) of their file names.
const TILES: [(u8, u8); 4] = [(31, 31), (32, 31), (31, 32), (32, 32)];

/// A vertex's place in a file: tile (X, Y), chunk index, index in MCVT order.
type Place = (u8, u8, usize, usize);
/// Every vertex of a map: world (x, y) and absolute height, by place.
type Vertices = BTreeMap<Place, ([f64; 2], f32)>;

/// Every vertex of a map folder as `wow-adt` reads it: world (x, y) worked out here from the
/// tile, the chunk's index and the vertex's place in MCVT order, and its absolute height.
fn vertices(dir: &Path) -> Vertices {
    let mut out = BTreeMap::new();
    for (tx, ty) in TILES {
        let root = common::root_adt(&dir.join(format!("Sample_{tx}_{ty}.adt")));
        for m in &root.mcnk_chunks {
            let (cx, cy) = (m.header.index_x as usize, m.header.index_y as usize);
            for (i, h) in common::absolute_heights(m).into_iter().enumerate() {
                let (row, rem) = ((i / 17) as f64, i % 17);
                let (south, east) = if rem < 9 {
                    (row, rem as f64)
                } else {
                    (row + 0.5, (rem - 9) as f64 + 0.5)
                };
                let x = (32.0 - f64::from(ty)) * TILE - cy as f64 * CHUNK - south * UNIT;
                let y = (32.0 - f64::from(tx)) * TILE - cx as f64 * CHUNK - east * UNIT;
                out.insert((tx, ty, cy * 16 + cx, i), ([x, y], h));
            }
        }
    }
    out
}

/// The road's centreline as written in docs/scripting.md: the uniform Catmull-Rom curve
/// through `points`, ends extended by reflection, as a fine polyline with arc lengths, and the
/// arc length at each control point.
struct Curve {
    points: Vec<[f64; 2]>,
    arc: Vec<f64>,
    knots: Vec<f64>,
}

impl Curve {
    fn through(p: &[[f64; 2]]) -> Curve {
        let n = p.len();
        let at = |i: isize| -> [f64; 2] {
            if i < 0 {
                [2.0 * p[0][0] - p[1][0], 2.0 * p[0][1] - p[1][1]]
            } else if i as usize >= n {
                [
                    2.0 * p[n - 1][0] - p[n - 2][0],
                    2.0 * p[n - 1][1] - p[n - 2][1],
                ]
            } else {
                p[i as usize]
            }
        };
        let (mut points, mut arc, mut knots) = (vec![p[0]], vec![0.0], vec![0.0]);
        for i in 0..n as isize - 1 {
            let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
            let steps = 4000;
            for k in 1..=steps {
                let t = k as f64 / steps as f64;
                let q: [f64; 2] = std::array::from_fn(|c| {
                    0.5 * (2.0 * p1[c]
                        + (-p0[c] + p2[c]) * t
                        + (2.0 * p0[c] - 5.0 * p1[c] + 4.0 * p2[c] - p3[c]) * t * t
                        + (-p0[c] + 3.0 * p1[c] - 3.0 * p2[c] + p3[c]) * t * t * t)
                });
                let last = *points.last().unwrap();
                arc.push(arc.last().unwrap() + (q[0] - last[0]).hypot(q[1] - last[1]));
                points.push(q);
            }
            knots.push(*arc.last().unwrap());
        }
        Curve { points, arc, knots }
    }

    /// Distance to the curve and the arc length of its nearest point.
    fn nearest(&self, x: f64, y: f64) -> (f64, f64) {
        let mut best = (f64::INFINITY, 0.0);
        for (i, w) in self.points.windows(2).enumerate() {
            let (dx, dy) = (w[1][0] - w[0][0], w[1][1] - w[0][1]);
            let len2 = dx * dx + dy * dy;
            let t = (((x - w[0][0]) * dx + (y - w[0][1]) * dy) / len2).clamp(0.0, 1.0);
            let d = (x - w[0][0] - t * dx).hypot(y - w[0][1] - t * dy);
            if d < best.0 {
                best = (d, self.arc[i] + t * len2.sqrt());
            }
        }
        best
    }

    /// The bed height at arc length `s`: linear between the heights at the control points.
    fn bed(&self, heights: &[f64], s: f64) -> f64 {
        let i = (1..self.knots.len())
            .find(|&i| s <= self.knots[i])
            .unwrap_or(self.knots.len() - 1);
        let t = ((s - self.knots[i - 1]) / (self.knots[i] - self.knots[i - 1])).clamp(0.0, 1.0);
        heights[i - 1] + (heights[i] - heights[i - 1]) * t
    }
}

fn sample(dir: &Path) -> PathBuf {
    common::sample_in(dir.join("sample")).join("Sample.wdt")
}

/// `loam apply --to 3.3.5` of one operation; the output folder and what loam said.
fn apply(dir: &Path, name: &str, op: &str) -> (PathBuf, String) {
    let ops = dir.join(format!("{name}.json"));
    fs::write(&ops, format!(r#"{{"ops": [{op}]}}"#)).unwrap();
    let out = dir.join(name);
    let said = common::apply_335(&sample(dir), &ops, &out);
    (out, said)
}

/// `loam check --seam-threshold 0` finds no seam in the map, not even float noise.
fn assert_no_seam_at_all(dir: &Path) {
    let o = common::loam_ok(&[
        "check",
        "--seam-threshold",
        "0",
        dir.join("Sample.wdt").to_str().unwrap(),
    ]);
    assert!(!text(&o).contains("seam"), "no seam at all:\n{}", text(&o));
}

/// Layer `k`'s alpha map, decoded here from the MCAL bytes (8-bit RLE, as the sample and a
/// 3.3.5 big-alpha map store new layers).
fn alpha(m: &wow_adt::McnkChunk, k: usize) -> Vec<u8> {
    let layer = &m.layers.as_ref().unwrap().layers[k];
    assert_ne!(layer.flags.value & 0x200, 0, "RLE alpha");
    common::decode_rle_alpha(&m.alpha.as_ref().unwrap().data[layer.offset_in_mcal as usize..])
}

const ROAD_POINTS: [[f64; 2]; 5] = [
    [-120.0, -50.0],
    [-40.0, 30.0],
    [35.0, 15.0],
    [95.0, -40.0],
    [140.0, -115.0],
];
const ROAD_HEIGHTS: [f64; 5] = [42.0, 47.5, 55.0, 50.25, 44.0];
const DIRT: &str = "Tileset\\\\Loam\\\\Sample\\\\Dirt77.blp";

#[test]
fn a_road_across_the_tile_borders_levels_its_bed_keeps_the_ground_beyond_and_opens_no_seam() {
    let dir = tempfile::tempdir().unwrap();
    let (width, shoulder) = (10.0, 8.0);
    let op = format!(
        r#"{{"tool": "road", "points": {:?}, "width": {width}, "shoulder": {shoulder},
            "heights": {:?}, "texture": "{DIRT}", "texture_width": 6}}"#,
        ROAD_POINTS, ROAD_HEIGHTS
    );
    let (out, said) = apply(dir.path(), "road", &op);
    assert!(said.contains("op 0: Road, "), "{said}");
    assert!(!said.contains("refused"), "{said}");

    let curve = Curve::through(&ROAD_POINTS);
    let before = vertices(&dir.path().join("sample"));
    let after = vertices(&out);
    let (mut on_bed, mut beyond) = (BTreeMap::new(), 0);
    for (key, ([x, y], h)) in &after {
        let (d, s) = curve.nearest(*x, *y);
        let was = before[key].1;
        if d <= width / 2.0 {
            let bed = curve.bed(&ROAD_HEIGHTS, s);
            assert!(
                (f64::from(*h) - bed).abs() <= 0.05,
                "{key:?} at ({x:.2}, {y:.2}), {d:.2} yd off the centreline: {h} vs bed {bed}"
            );
            *on_bed.entry((key.0, key.1)).or_insert(0) += 1;
        } else if d > width / 2.0 + shoulder + 0.01 {
            // (A hundredth of a yard's margin: this curve's polyline is not loam's.)
            assert_eq!(h.to_bits(), was.to_bits(), "{key:?} is beyond the shoulder");
            beyond += 1;
        }
    }
    assert_eq!(
        on_bed.len(),
        4,
        "the road crosses all four tiles: {on_bed:?}"
    );
    assert!(on_bed.values().sum::<usize>() > 300, "{on_bed:?}");
    assert!(beyond > 100_000, "{beyond}");

    // The texture, all but full along the centreline.
    let mut checked = 0;
    for (tx, ty) in TILES {
        let root = common::root_adt(&out.join(format!("Sample_{tx}_{ty}.adt")));
        let dirt = root
            .textures
            .iter()
            .position(|t| t.eq_ignore_ascii_case(&DIRT.replace("\\\\", "\\")))
            .expect("the tile lists the road's texture");
        let (nx, ny) = ((32.0 - f64::from(ty)) * TILE, (32.0 - f64::from(tx)) * TILE);
        for p in curve.points.iter().step_by(40) {
            let (south, east) = ((nx - p[0]) / CHUNK, (ny - p[1]) / CHUNK);
            if !(0.0..16.0).contains(&south) || !(0.0..16.0).contains(&east) {
                continue;
            }
            let (cy, cx) = (south as usize, east as usize);
            let m = root
                .mcnk_chunks
                .iter()
                .find(|m| (m.header.index_x as usize, m.header.index_y as usize) == (cx, cy))
                .unwrap();
            let layers = &m.layers.as_ref().unwrap().layers;
            let k = layers
                .iter()
                .position(|l| l.texture_id as usize == dirt)
                .expect("a dirt layer under the road");
            let (row, col) = (
                ((south - cy as f64) * 64.0) as usize,
                ((east - cx as f64) * 64.0) as usize,
            );
            let a = if k == 0 {
                255
            } else {
                alpha(m, k)[row * 64 + col]
            };
            assert!(
                f64::from(a) >= 0.9 * 255.0,
                "{tx}_{ty} chunk {cx},{cy} texel {row},{col}: {a}"
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
    assert_no_seam_at_all(&out);
}

#[test]
fn a_road_without_heights_takes_the_terrains_at_its_points() {
    let dir = tempfile::tempdir().unwrap();
    // Each point on an outer vertex (multiples of 12.5 yd are), so the terrain's height there
    // is that vertex's.
    let points = [[-50.0, 25.0], [12.5, -12.5], [75.0, 37.5]];
    let op = format!(r#"{{"tool": "road", "points": {points:?}, "width": 6, "shoulder": 3}}"#);
    let (out, said) = apply(dir.path(), "plain", &op);
    assert!(said.contains("op 0: Road, "), "{said}");
    let before = vertices(&dir.path().join("sample"));
    let after = vertices(&out);
    let height_at = |map: &Vertices, p: [f64; 2]| {
        map.values()
            .find(|([x, y], _)| (x - p[0]).abs() < 1e-3 && (y - p[1]).abs() < 1e-3)
            .map(|(_, h)| f64::from(*h))
            .unwrap()
    };
    let heights: Vec<f64> = points.iter().map(|&p| height_at(&before, p)).collect();
    assert!(
        heights.windows(2).any(|w| (w[0] - w[1]).abs() > 1.0),
        "the sample is not level there: {heights:?}"
    );
    let curve = Curve::through(&points);
    for (p, h) in points.iter().zip(&heights) {
        assert!((height_at(&after, *p) - h).abs() <= 0.05, "{p:?}");
    }
    for ([x, y], h) in after.values() {
        let (d, s) = curve.nearest(*x, *y);
        if d <= 3.0 {
            let bed = curve.bed(&heights, s);
            assert!(
                (f64::from(*h) - bed).abs() <= 0.05,
                "({x}, {y}): {h} vs {bed}"
            );
        }
    }
    assert_no_seam_at_all(&out);
}

#[test]
fn the_plane_tool_puts_the_ground_inside_its_inner_radius_onto_the_plane() {
    let dir = tempfile::tempdir().unwrap();
    let through = [[-40.0, 30.0, 60.0], [35.0, 20.0, 48.0], [0.0, -45.0, 52.0]];
    let (a, b, c) = (through[0], through[1], through[2]);
    // The plane z = z0 + gx (x − x0) + gy (y − y0), solved here from the three points.
    let (u, v) = (
        [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
        [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
    );
    let det = u[0] * v[1] - u[1] * v[0];
    let (gx, gy) = (
        (u[2] * v[1] - u[1] * v[2]) / det,
        (u[0] * v[2] - u[2] * v[0]) / det,
    );
    let plane = |x: f64, y: f64| a[2] + gx * (x - a[0]) + gy * (y - a[1]);
    let ends = [[-25.0, 20.0], [20.0, -10.0]];
    let op = format!(
        r#"{{"tool": "plane", "points": {ends:?}, "radius": 40, "inner_radius": 20,
            "through": {through:?}, "strength": 1}}"#
    );
    let (out, said) = apply(dir.path(), "plane", &op);
    assert!(said.contains("op 0: Plane, "), "{said}");
    let mut inside = 0;
    for ([x, y], h) in vertices(&out).values() {
        // The first and last points are always dabs: inside either's inner radius the brush
        // is at full strength.
        if ends.iter().any(|e| (x - e[0]).hypot(y - e[1]) <= 20.0) {
            let want = plane(*x, *y);
            assert!(
                (f64::from(*h) - want).abs() <= 0.01,
                "({x}, {y}): {h} vs {want}"
            );
            inside += 1;
        }
    }
    assert!(inside > 150, "{inside}");
    assert_no_seam_at_all(&out);
}

#[test]
fn flatten_with_a_slope_puts_the_ground_onto_the_sloping_plane() {
    let dir = tempfile::tempdir().unwrap();
    let (px, py, height, slope, direction) = (10.0, -5.0, 50.0f64, 12.0f64, 135.0f64);
    let op = format!(
        r#"{{"tool": "flatten", "points": [[{px}, {py}]], "radius": 30, "inner_radius": 18,
            "height": {height}, "slope": {slope}, "direction": {direction}, "strength": 1}}"#
    );
    let (out, said) = apply(dir.path(), "slope", &op);
    assert!(said.contains("op 0: Flatten, "), "{said}");
    // Rising toward the south-east: world x points north and y west.
    let rise = slope.to_radians().tan();
    let (toward_x, toward_y) = (direction.to_radians().cos(), -direction.to_radians().sin());
    let mut inside = 0;
    for ([x, y], h) in vertices(&out).values() {
        if (x - px).hypot(y - py) <= 18.0 {
            let want = height + rise * ((x - px) * toward_x + (y - py) * toward_y);
            assert!(
                (f64::from(*h) - want).abs() <= 0.01,
                "({x}, {y}): {h} vs {want}"
            );
            inside += 1;
        }
    }
    assert!(inside > 50, "{inside}");
    assert_no_seam_at_all(&out);
}

#[test]
fn bad_roads_and_planes_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let map = sample(dir.path());
    for (op, says) in [
        (
            r#"{"tool": "road", "points": [[0, 0]], "width": 5}"#,
            "at least two points",
        ),
        (
            r#"{"tool": "road", "points": [[0, 0], [10, 0]], "width": 5, "heights": [1, 2, 3]}"#,
            "one height per point",
        ),
        (
            r#"{"tool": "road", "points": [[900000, 0], [900010, 0]], "width": 5}"#,
            "no loaded terrain",
        ),
        (
            r#"{"tool": "plane", "points": [[0, 0]], "radius": 5}"#,
            "needs field `through`",
        ),
        (
            r#"{"tool": "plane", "points": [[0, 0]], "radius": 5, "through": [[0, 0, 1], [1, 1, 2], [2, 2, 0]]}"#,
            "one line",
        ),
        (
            r#"{"tool": "flatten", "points": [[0, 0]], "radius": 5, "slope": 10}"#,
            "`slope` and `direction`",
        ),
        (
            r#"{"tool": "raise", "points": [[0, 0]], "radius": 5, "slope": 10, "direction": 0}"#,
            "does not apply",
        ),
    ] {
        let ops = dir.path().join("bad.json");
        fs::write(&ops, format!(r#"{{"ops": [{op}]}}"#)).unwrap();
        let out = dir.path().join("bad-out");
        let o = loam(&[
            "apply",
            "--to",
            "3.3.5",
            map.to_str().unwrap(),
            ops.to_str().unwrap(),
            out.to_str().unwrap(),
        ]);
        assert!(!o.status.success(), "{op}: {}", text(&o));
        assert!(text(&o).contains(says), "{op}: {}", text(&o));
        assert!(!text(&o).contains("panicked"), "{op}: {}", text(&o));
    }
}
