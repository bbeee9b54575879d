//! The scatter and object-erase brushes (issue 42, its library and `loam apply` part), on the
//! bundled sample and read back with the `wow-adt` crate, not loam: the count is the density
//! times the brush area, every object stands inside the brush, no two closer than the spacing,
//! on the ground the client draws (its height worked out here from MCVT and the quad's four
//! triangles), turned, scaled and tilted within what was asked; the slope, height and texture
//! limits hold; a seed repeats the files byte for byte; `erase_objects` takes exactly the
//! objects inside its circles; undo and redo give the map back bit for bit; and scattered
//! objects come back from every generation, 0.5.3's monolithic WDT included.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use common::written::{Doodad, Written, new_doodads, read};
use common::{loam_ok, text};

const TREE: &str = "World\\Loam\\Sample\\Tree01.m2";
const BOULDER: &str = "World\\Loam\\Sample\\Boulder01.m2";
const GRASS: &str = "Tileset\\Loam\\Sample\\Grass06.blp";

/// The up axis of a record rotation, T·Rz(rot.y)·Ry(rot.x)·Rx(rot.z) applied to (0, 0, 1),
/// as the wiki's MDDF page composes it (docs: coords::placement_matrix).
fn up_of(rotation: [f32; 3]) -> [f64; 3] {
    let [a, b, c] = rotation.map(|d| f64::from(d).to_radians());
    let v = [c.cos() * a.sin(), -c.sin(), c.cos() * a.cos()];
    [
        v[0] * b.cos() - v[1] * b.sin(),
        v[0] * b.sin() + v[1] * b.cos(),
        v[2],
    ]
}

/// The area of the union of circles of radius `r` around `points`, on a fine grid.
fn union_area(points: &[[f64; 2]], r: f64) -> f64 {
    let step = 0.25;
    let (x0, y0) = (
        points.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min) - r,
        points.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min) - r,
    );
    let (x1, y1) = (
        points
            .iter()
            .map(|p| p[0])
            .fold(f64::NEG_INFINITY, f64::max)
            + r,
        points
            .iter()
            .map(|p| p[1])
            .fold(f64::NEG_INFINITY, f64::max)
            + r,
    );
    let mut n = 0usize;
    let mut x = x0 + step / 2.0;
    while x < x1 {
        let mut y = y0 + step / 2.0;
        while y < y1 {
            if inside(points, r, [x, y]) {
                n += 1;
            }
            y += step;
        }
        x += step;
    }
    n as f64 * step * step
}

fn inside(points: &[[f64; 2]], r: f64, p: [f64; 2]) -> bool {
    points
        .iter()
        .any(|c| (c[0] - p[0]).hypot(c[1] - p[1]) <= r + 1e-3)
}

fn sample(dir: &Path) -> PathBuf {
    common::sample_in(dir.join("sample")).join("Sample.wdt")
}

/// The map at `wdt` converted to 3.3.5 with nothing applied (in `dir/plain`), read back: what
/// the scattered copies are compared with.
fn plain_copy(dir: &Path, wdt: &Path) -> Written {
    let out = dir.join("plain");
    common::loam_ok(&[
        "convert",
        "--to",
        "3.3.5",
        wdt.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    read(&out)
}

/// `loam apply --to GEN` of the operations `ops` (a JSON list) on the sample; the output
/// folder and what loam said.
fn apply_to(dir: &Path, name: &str, ops: &str, to: &str) -> (PathBuf, String) {
    let path = dir.join(format!("{name}.json"));
    fs::write(&path, format!(r#"{{"ops": [{ops}]}}"#)).unwrap();
    let out = dir.join(name);
    let map = if dir.join("sample").exists() {
        dir.join("sample").join("Sample.wdt")
    } else {
        sample(dir)
    };
    let o = loam_ok(&[
        "apply",
        map.to_str().unwrap(),
        path.to_str().unwrap(),
        "--to",
        to,
        out.to_str().unwrap(),
    ]);
    (out, text(&o))
}

const POINTS: [[f64; 2]; 2] = [[-150.0, -150.0], [-110.0, -105.0]];
const RADIUS: f64 = 60.0;
const DENSITY: f64 = 10.0;
const SPACING: f64 = 4.0;

fn forest(seed: u64, tilt: f64, limits: &str) -> String {
    format!(
        r#"{{"tool": "scatter", "points": [[-150, -150], [-110, -105]], "radius": 60,
            "models": [{{"model": "{}", "weight": 2, "scale": [0.8, 1.2]}}, {{"model": "{}", "weight": 1}}],
            "density": 10, "spacing": 4, "scale": [0.5, 0.7], "yaw": [10, 170], "tilt": {tilt},
            "seed": {seed}{limits}}}"#,
        TREE.replace('\\', "\\\\"),
        BOULDER.replace('\\', "\\\\"),
    )
}

#[test]
fn a_scattered_forest_keeps_density_spacing_ground_and_ranges_and_a_seed_repeats_it() {
    let dir = tempfile::tempdir().unwrap();
    let plain = plain_copy(dir.path(), &sample(dir.path()));
    let (out, said) = apply_to(dir.path(), "forest", &forest(7, 1.0, ""), "3.3.5");
    let written = read(&out);
    let placed = new_doodads(&plain, &written);

    let want = DENSITY * union_area(&POINTS, RADIUS) / 1000.0;
    let n = placed.len() as f64;
    assert!(
        (n - want).abs() <= 0.15 * want,
        "{n} objects for {want:.0} asked: {said}"
    );
    let old_same_models: Vec<[f64; 3]> = plain
        .doodads
        .values()
        .filter(|d| d.model == TREE || d.model == BOULDER)
        .map(|d| d.at)
        .collect();
    let all: Vec<&Doodad> = placed.values().collect();
    for (i, d) in all.iter().enumerate() {
        let [x, y, z] = d.at;
        assert!(inside(&POINTS, RADIUS, [x, y]), "{d:?} outside the brush");
        for e in all[i + 1..]
            .iter()
            .map(|e| e.at)
            .chain(old_same_models.iter().copied())
        {
            let dist = (e[0] - x).hypot(e[1] - y);
            assert!(dist >= SPACING - 1e-3, "{d:?} {dist} yd from {e:?}");
        }
        let (ground, normal) = written.ground(x, y);
        assert!(
            (z - ground).abs() < 0.05,
            "{d:?} stands at {z}, ground {ground}"
        );
        assert!(
            (10.0..=170.0).contains(&d.rotation[1]),
            "yaw {:?}",
            d.rotation
        );
        let (lo, hi) = if d.model == TREE {
            (0.8, 1.2)
        } else {
            (0.5, 0.7)
        };
        let s = f64::from(d.scale) / 1024.0;
        assert!((lo..=hi).contains(&s), "{} scale {s}", d.model);
        let up = up_of(d.rotation);
        let off = (0..3)
            .map(|k| (up[k] - normal[k]).abs())
            .fold(0.0, f64::max);
        assert!(
            off < 1e-3,
            "tilt 1 follows the slope: up {up:?}, normal {normal:?}"
        );
    }
    assert!(all.iter().any(|d| d.model == TREE) && all.iter().any(|d| d.model == BOULDER));
    let uids: BTreeSet<u32> = placed.keys().copied().collect();
    assert_eq!(uids.len(), placed.len());
    let top = plain
        .doodads
        .keys()
        .chain(&plain.wmos)
        .max()
        .copied()
        .unwrap();
    assert!(uids.iter().all(|&u| u > top), "new uids above the map's");

    // The same seed, the same bytes; another seed, other places.
    let (again, _) = apply_to(dir.path(), "again", &forest(7, 1.0, ""), "3.3.5");
    common::assert_same_folders("the same seed", &out, &again);
    let (other, _) = apply_to(dir.path(), "other", &forest(8, 1.0, ""), "3.3.5");
    let other = new_doodads(&plain, &read(&other));
    let places = |m: &BTreeMap<u32, Doodad>| -> BTreeSet<(i64, i64)> {
        m.values()
            .map(|d| ((d.at[0] * 100.0) as i64, (d.at[1] * 100.0) as i64))
            .collect()
    };
    assert!(places(&other).intersection(&places(&placed)).count() < 3);
}

#[test]
fn no_object_where_the_slope_height_or_texture_limit_says_no() {
    let dir = tempfile::tempdir().unwrap();
    let (free, _) = apply_to(dir.path(), "free", &forest(3, 0.0, ""), "3.3.5");
    let plain = plain_copy(dir.path(), &dir.path().join("sample/Sample.wdt"));
    let free_map = read(&free);
    let unlimited = new_doodads(&plain, &free_map);
    // Limits that cut into the brush: the heights between the placed objects' quartiles, a
    // slope under their steepest, and grass at half weight.
    let mut zs: Vec<f64> = unlimited.values().map(|d| d.at[2]).collect();
    zs.sort_by(f64::total_cmp);
    let (lo, hi) = (zs[zs.len() / 8], zs[zs.len() * 7 / 8]);
    let slopes: Vec<f64> = unlimited
        .values()
        .map(|d| free_map.ground(d.at[0], d.at[1]).1[2].acos().to_degrees())
        .collect();
    let max_slope = slopes.iter().copied().fold(0.0, f64::max) * 0.8;
    let grass = GRASS.replace('\\', "\\\\");
    let limits = format!(
        r#", "max_slope": {max_slope}, "heights": [{lo}, {hi}], "texture": "{grass}", "texture_min": 0.5"#
    );
    let (out, said) = apply_to(dir.path(), "limited", &forest(3, 0.0, &limits), "3.3.5");
    let written = read(&out);
    let placed = new_doodads(&plain, &written);
    assert!(!placed.is_empty(), "{said}");
    assert!(
        placed.len() < unlimited.len(),
        "the limits say no somewhere"
    );
    for d in placed.values() {
        let [x, y, z] = d.at;
        let (_, n) = written.ground(x, y);
        let slope = n[2].acos().to_degrees();
        assert!(slope <= max_slope + 0.01, "{d:?} on a {slope}° slope");
        assert!(
            (lo - 0.01..=hi + 0.01).contains(&z),
            "{d:?} outside {lo}..{hi}"
        );
        let w = written.texture_weight(GRASS, x, y);
        assert!(w >= 0.5 - 1e-9, "{d:?} where grass weighs {w}");
        assert_eq!(
            (d.rotation[0], d.rotation[2]),
            (0.0, 0.0),
            "tilt 0 is upright"
        );
    }
}

#[test]
fn erase_objects_removes_exactly_the_objects_inside_its_circles() {
    let dir = tempfile::tempdir().unwrap();
    let (scattered, _) = apply_to(dir.path(), "scattered", &forest(5, 0.5, ""), "3.3.5");
    let before = read(&scattered);
    let tree = TREE.replace('\\', "\\\\");
    // Trees only, and not the tower that stands in the second circle.
    let circles = [[-140.0, -130.0], [150.0, 70.0]];
    let erase_trees = format!(
        r#"{}, {{"tool": "erase_objects", "points": [[-140, -130], [150, 70]], "radius": 40, "models": ["{tree}"]}}"#,
        forest(5, 0.5, "")
    );
    let (out, said) = apply_to(dir.path(), "erased", &erase_trees, "3.3.5");
    let after = read(&out);
    let gone: BTreeSet<u32> = before
        .doodads
        .iter()
        .filter(|(_, d)| d.model == TREE && inside(&circles, 40.0, [d.at[0], d.at[1]]))
        .map(|(u, _)| *u)
        .collect();
    assert!(gone.len() > 5, "the circles hold trees: {said}");
    let expected: BTreeMap<u32, Doodad> = before
        .doodads
        .iter()
        .filter(|(u, _)| !gone.contains(u))
        .map(|(u, d)| (*u, d.clone()))
        .collect();
    assert_eq!(after.doodads, expected, "{said}");
    assert_eq!(
        after.wmos, before.wmos,
        "the tower stays: WMOs only when asked"
    );

    // Every doodad, and WMOs when asked.
    let erase_all = format!(
        r#"{}, {{"tool": "erase_objects", "points": [[150, 70]], "radius": 40, "wmos": true}}"#,
        forest(5, 0.5, "")
    );
    let (out, _) = apply_to(dir.path(), "erased_all", &erase_all, "3.3.5");
    let after = read(&out);
    assert!(after.wmos.is_empty(), "the tower went");
    assert!(
        after
            .doodads
            .values()
            .all(|d| !inside(&[[150.0, 70.0]], 40.0, [d.at[0], d.at[1]]))
    );
    assert!(after.doodads.len() < before.doodads.len());
}

#[test]
fn a_scatter_and_an_erase_undo_and_redo_bit_for_bit() {
    use loam::edit::History;
    use loam::edit::objects::NewUids;
    use loam::edit::ops::{self, OpContext};
    let mut map = loam::sample::sample_map();
    let file = ops::parse(&format!(
        r#"{{"ops": [{}, {{"tool": "erase_objects", "points": [[-130, -120]], "radius": 30}}]}}"#,
        forest(11, 1.0, "")
    ))
    .unwrap();
    let no_box = |_: &str| None;
    let uids = NewUids::default();
    let no_image = |p: &str| Err(format!("no image {p}"));
    let cx = OpContext {
        model_box: &no_box,
        uids: &uids,
        style: loam::edit::terrain::liquid::LiquidStyle::default(),
        read_image: &no_image,
    };
    let mut history = History::default();
    let start = map.clone();
    let r = ops::run(&mut map, &file.ops[0], &mut history, &cx).unwrap();
    assert!(r.label.starts_with("Scatter"), "{}", r.label);
    let scattered = map.clone();
    assert_ne!(scattered, start);
    let r = ops::run(&mut map, &file.ops[1], &mut history, &cx).unwrap();
    assert!(r.label.starts_with("Erase"), "{}", r.label);
    let erased = map.clone();
    assert_ne!(erased, scattered);
    assert_eq!(history.labels().0.len(), 2, "one undo step each");
    history.undo(&mut map);
    assert_eq!(map, scattered);
    history.undo(&mut map);
    assert_eq!(map, start);
    history.redo(&mut map);
    assert_eq!(map, scattered);
    history.redo(&mut map);
    assert_eq!(map, erased);
}

#[test]
fn scattered_objects_come_back_from_every_generation_0_5_3_included() {
    let dir = tempfile::tempdir().unwrap();
    let (reference, _) = apply_to(dir.path(), "v335", &forest(21, 1.0, ""), "3.3.5");
    let reference = read(&reference);
    assert!(reference.doodads.len() > 100);
    for to in ["1.12", "0.6.0", "0.5.3"] {
        let name = format!("g{}", to.replace('.', "_"));
        let (out, said) = apply_to(dir.path(), &name, &forest(21, 1.0, ""), to);
        let back = loam::pipeline::open_map(&out.join("Sample.wdt"))
            .unwrap_or_else(|e| panic!("{to}: {e}: {said}"))
            .map;
        let mut got: BTreeMap<u32, (String, [f64; 3])> = BTreeMap::new();
        for t in back.tiles.values() {
            for d in &t.doodads {
                let model = t.doodad_names[d.name_index as usize].clone();
                let old = got.insert(d.unique_id, (model.clone(), d.position));
                assert!(
                    old.is_none_or(|o| o.0 == model && o.1 == d.position),
                    "{to}: uid {} names two doodads",
                    d.unique_id
                );
            }
        }
        assert_eq!(got.len(), reference.doodads.len(), "{to}");
        for (uid, d) in &reference.doodads {
            let (model, at) = &got[uid];
            // 0.5.x names models .mdx; the place is what matters here.
            assert_eq!(
                model
                    .to_ascii_lowercase()
                    .trim_end_matches(".mdx")
                    .trim_end_matches(".m2"),
                d.model.to_ascii_lowercase().trim_end_matches(".m2"),
                "{to}: uid {uid}"
            );
            let off = (0..3).map(|k| (at[k] - d.at[k]).abs()).fold(0.0, f64::max);
            assert!(
                off < 1e-2,
                "{to}: uid {uid} at {at:?}, 3.3.5 says {:?}",
                d.at
            );
        }
    }
}
