//! Erosion (issue 52): thermal and hydraulic `erode` operations run by `loam apply` on the
//! bundled sample, the written files read back with the `wow-adt` crate. Thermal erosion of a
//! steep hill (raised first by a `raise` stroke, across the tiles' shared corner) leaves almost
//! no edge of the drawn triangles steeper than the talus angle and keeps its material;
//! hydraulic erosion keeps its material, lowers the highest tenth of the brush, repeats bit
//! for bit for a seed and differs for another. Both leave every vertex outside the brush as it
//! was and no seam for `loam check --seam-threshold 0`. Undo gives back the map bit for bit.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::ground::{Ground, Key, TILES, distance, world};
use common::text;
use loam::edit::History;
use loam::edit::ops::{self, Operation};

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
