//! Erosion (issue 52): thermal and hydraulic `erode` operations run by `loam apply` on the
//! bundled sample, the written files read back with the `wow-adt` crate. Thermal erosion of a
//! steep hill (raised first by a `raise` stroke, across the tiles' shared corner) leaves almost
//! no edge of the drawn triangles steeper than the talus angle and keeps its material;
//! hydraulic erosion keeps its material, lowers the highest tenth of the brush, repeats bit
//! for bit for a seed and differs for another. Both leave every vertex outside the brush as it
//! was and no seam for `loam check --seam-threshold 0`. Undo gives back the map bit for bit.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use common::text;
use loam::edit::History;
use loam::edit::ops::{self, Operation};

const TILE: f64 = 1600.0 / 3.0;
const CHUNK: f64 = TILE / 16.0;
const UNIT: f64 = CHUNK / 8.0;
/// The sample's tiles, as (X, Y) of their file names.
const TILES: [(u8, u8); 4] = [(31, 31), (32, 31), (31, 32), (32, 32)];

/// A vertex by its place in the world: world (x, y) in hundredths of a yard and whether it is
/// an inner vertex. Shared copies in neighbouring chunks and tiles are one key.
type Key = (i64, i64, bool);

/// A map folder's vertices as `wow-adt` reads them: each vertex once, with every copy's
/// height (so that a seam shows as two heights).
struct Ground {
    heights: BTreeMap<Key, Vec<f32>>,
    /// Each chunk's 145 keys, in MCVT order, for walking the triangles' edges.
    chunks: Vec<Vec<Key>>,
}

impl Ground {
    fn read(dir: &Path) -> Ground {
        let mut heights: BTreeMap<Key, Vec<f32>> = BTreeMap::new();
        let mut chunks = Vec::new();
        for (tx, ty) in TILES {
            let root = common::root_adt(&dir.join(format!("Sample_{tx}_{ty}.adt")));
            for m in &root.mcnk_chunks {
                let (cx, cy) = (m.header.index_x as usize, m.header.index_y as usize);
                let mut keys = Vec::with_capacity(145);
                for (i, h) in common::absolute_heights(m).into_iter().enumerate() {
                    let (row, rem) = ((i / 17) as f64, i % 17);
                    let (south, east, inner) = if rem < 9 {
                        (row, rem as f64, false)
                    } else {
                        (row + 0.5, (rem - 9) as f64 + 0.5, true)
                    };
                    let x = (32.0 - f64::from(ty)) * TILE - cy as f64 * CHUNK - south * UNIT;
                    let y = (32.0 - f64::from(tx)) * TILE - cx as f64 * CHUNK - east * UNIT;
                    let key = (
                        (x * 100.0).round() as i64,
                        (y * 100.0).round() as i64,
                        inner,
                    );
                    heights.entry(key).or_default().push(h);
                    keys.push(key);
                }
                chunks.push(keys);
            }
        }
        Ground { heights, chunks }
    }

    fn height(&self, k: &Key) -> f32 {
        self.heights[k][0]
    }

    /// The edges of the triangles the client draws: outer to outer along rows and columns,
    /// each inner vertex to its quad's four corners.
    fn edges(&self) -> Vec<(Key, Key)> {
        let mut out = Vec::new();
        for keys in &self.chunks {
            let outer = |r: usize, c: usize| keys[r * 17 + c];
            for r in 0..9 {
                for c in 0..9 {
                    if c < 8 {
                        out.push((outer(r, c), outer(r, c + 1)));
                    }
                    if r < 8 {
                        out.push((outer(r, c), outer(r + 1, c)));
                    }
                    if r < 8 && c < 8 {
                        let inner = keys[r * 17 + 9 + c];
                        for (dr, dc) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                            out.push((inner, outer(r + dr, c + dc)));
                        }
                    }
                }
            }
        }
        out
    }
}

fn world(k: &Key) -> [f64; 2] {
    [k.0 as f64 / 100.0, k.1 as f64 / 100.0]
}

fn distance(k: &Key, p: [f64; 2]) -> f64 {
    let [x, y] = world(k);
    ((x - p[0]).powi(2) + (y - p[1]).powi(2)).sqrt()
}

fn sample(dir: &Path) -> PathBuf {
    common::sample_in(dir.join("sample")).join("Sample.wdt")
}

/// `loam apply --to 3.3.5 MAP` of `ops` into `dir/name`; the folder and what loam said.
fn apply(map: &Path, dir: &Path, name: &str, ops: &str) -> (PathBuf, String) {
    let file = dir.join(format!("{name}.json"));
    fs::write(&file, format!(r#"{{"ops": [{ops}]}}"#)).unwrap();
    let out = dir.join(name);
    let said = common::apply_335(map, &file, &out);
    (out, said)
}

/// `loam check --seam-threshold 0` finds no seam in the map, and every copy of every vertex
/// reads back alike.
fn assert_no_seam_at_all(dir: &Path, ground: &Ground) {
    let o = common::loam_ok(&[
        "check",
        "--seam-threshold",
        "0",
        dir.join("Sample.wdt").to_str().unwrap(),
    ]);
    assert!(!text(&o).contains("seam"), "no seam at all:\n{}", text(&o));
    for (k, hs) in &ground.heights {
        assert!(
            hs.iter().all(|h| h.to_bits() == hs[0].to_bits()),
            "{k:?}: copies {hs:?}"
        );
    }
}

/// Every vertex farther than `radius` from `centre` kept its height bit for bit; the heights
/// moved inside, in total, and their net change.
fn moved_inside(before: &Ground, after: &Ground, centre: [f64; 2], radius: f64) -> (f64, f64) {
    let (mut total, mut net, mut outside) = (0.0, 0.0, 0);
    for (k, hs) in &after.heights {
        let was = before.height(k);
        if distance(k, centre) > radius + 0.01 {
            assert_eq!(hs[0].to_bits(), was.to_bits(), "{k:?} is outside the brush");
            outside += 1;
        } else {
            let d = f64::from(hs[0]) - f64::from(was);
            total += d.abs();
            net += d;
        }
    }
    assert!(
        outside > 10_000,
        "the check saw the ground outside: {outside}"
    );
    // What one vertex lost another gained: the material moved is half the absolute changes.
    (total / 2.0, net)
}

/// Where the four sample tiles meet, a little north-west: the brush covers all four.
const HILL: [f64; 2] = [20.0, 25.0];

#[test]
fn thermal_erosion_lays_a_steep_hill_at_the_talus_angle_and_keeps_its_material() {
    let dir = tempfile::tempdir().unwrap();
    let (hill, said) = apply(
        &sample(dir.path()),
        dir.path(),
        "hill",
        &format!(
            r#"{{"tool": "raise", "points": [{HILL:?}], "radius": 30, "inner_radius": 4, "strength": 45}}"#
        ),
    );
    assert!(said.contains("op 0: Raise"), "{said}");
    let steep = Ground::read(&hill);
    let (talus, radius) = (35.0f64, 80.0);
    let slope = |g: &Ground, (a, b): &(Key, Key)| {
        let run = distance(a, world(b));
        (f64::from(g.height(a)) - f64::from(g.height(b)))
            .abs()
            .atan2(run)
            .to_degrees()
    };
    let inside: Vec<(Key, Key)> = steep
        .edges()
        .into_iter()
        .filter(|(a, b)| distance(a, HILL) <= radius && distance(b, HILL) <= radius)
        .collect();
    let too_steep = |g: &Ground| inside.iter().filter(|e| slope(g, e) > talus + 1.0).count();
    assert!(
        too_steep(&steep) * 20 > inside.len(),
        "the hill is steep to begin with: {} of {}",
        too_steep(&steep),
        inside.len()
    );

    let (eroded, said) = apply(
        &hill.join("Sample.wdt"),
        dir.path(),
        "eroded",
        &format!(
            r#"{{"tool": "erode", "kind": "thermal", "talus": {talus}, "iterations": 1000,
                "points": [{HILL:?}], "radius": {radius}, "falloff": "flat"}}"#
        ),
    );
    assert!(said.contains("op 0: Thermal erosion, "), "{said}");
    let after = Ground::read(&eroded);
    let left = too_steep(&after);
    assert!(
        left * 100 <= inside.len(),
        "{left} of {} edges inside the brush are still steeper than {}°",
        inside.len(),
        talus + 1.0
    );
    let (moved, net) = moved_inside(&steep, &after, HILL, radius);
    assert!(moved > 1000.0, "the hill slid: {moved} yd moved");
    assert!(
        net.abs() <= 0.05 * moved,
        "material kept: net {net} of {moved} moved"
    );
    let top = |g: &Ground| {
        g.heights
            .keys()
            .filter(|k| distance(k, HILL) <= radius)
            .map(|k| g.height(k))
            .fold(f32::MIN, f32::max)
    };
    assert!(
        top(&after) < top(&steep) - 5.0,
        "the peak came down: {} from {}",
        top(&after),
        top(&steep)
    );
    assert_no_seam_at_all(&eroded, &after);
}

/// The sample's north-western hill (120 yd high at world (300, 280)).
const PEAK: [f64; 2] = [300.0, 280.0];

fn hydraulic(seed: u64) -> String {
    format!(
        r#"{{"tool": "erode", "kind": "hydraulic", "droplets": 60000, "seed": {seed},
            "points": [{PEAK:?}], "radius": 150, "inner_radius": 100}}"#
    )
}

#[test]
fn hydraulic_erosion_keeps_material_lowers_the_heights_and_repeats_for_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let map = sample(dir.path());
    let before = Ground::read(map.parent().unwrap());
    let (a, said) = apply(&map, dir.path(), "a", &hydraulic(1));
    assert!(said.contains("op 0: Hydraulic erosion, "), "{said}");
    let (b, _) = apply(&map, dir.path(), "b", &hydraulic(1));
    let (c, _) = apply(&map, dir.path(), "c", &hydraulic(2));
    common::assert_same_folders("the same seed", &a, &b);
    let differ = TILES.iter().any(|(x, y)| {
        let name = format!("Sample_{x}_{y}.adt");
        fs::read(a.join(&name)).unwrap() != fs::read(c.join(&name)).unwrap()
    });
    assert!(differ, "another seed erodes otherwise");

    let after = Ground::read(&a);
    let (moved, net) = moved_inside(&before, &after, PEAK, 150.0);
    assert!(moved > 10.0, "droplets moved material: {moved}");
    assert!(
        net.abs() <= 0.05 * moved,
        "material kept: net {net} of {moved} moved"
    );
    // The highest tenth of the ground under the brush came down.
    let mut inside: Vec<(f32, Key)> = before
        .heights
        .keys()
        .filter(|k| distance(k, PEAK) <= 150.0)
        .map(|k| (before.height(k), *k))
        .collect();
    inside.sort_by(|p, q| q.0.total_cmp(&p.0));
    let top = &inside[..inside.len() / 10];
    let change: f64 = top
        .iter()
        .map(|(h, k)| f64::from(after.height(k)) - f64::from(*h))
        .sum();
    assert!(change < 0.0, "the top tenth lowered: {change}");
    // Water cuts no pit below the lowest ground it had (an unstable model digs without end).
    let lowest = inside.last().unwrap().0;
    let now = inside
        .iter()
        .map(|(_, k)| after.height(k))
        .fold(f32::MAX, f32::min);
    assert!(now >= lowest - 0.01, "{now} below the lowest {lowest}");
    assert_no_seam_at_all(&a, &after);
}

#[test]
fn undo_gives_back_the_ground_bit_for_bit_and_redo_the_erosion() {
    let file = ops::parse(&format!(
        r#"{{"ops": [{}, {{"tool": "erode", "kind": "thermal", "talus": 20, "iterations": 50,
            "points": [{PEAK:?}, [250, 200]], "radius": 60}}]}}"#,
        hydraulic(3)
    ))
    .unwrap();
    let mut map = loam::sample::sample_map();
    let original = map.clone();
    let mut history = History::default();
    let mut after = Vec::new();
    for op in &file.ops {
        let Operation::Erode(op) = op else {
            panic!("{op:?}")
        };
        let r = loam::edit::terrain::erosion::apply(&mut map, op, &mut history).unwrap();
        assert!(r.chunks > 0, "{}", r.label);
        after.push(map.clone());
    }
    history.undo(&mut map);
    assert_eq!(map, after[0]);
    history.undo(&mut map);
    assert_eq!(map, original);
    history.redo(&mut map);
    history.redo(&mut map);
    assert_eq!(map, after[1]);
}
