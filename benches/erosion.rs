//! Erosion and texture rules (issue 52) on the bundled sample, as `loam apply` runs them (the
//! lattice read, the work, the heights stored to every copy, normals and the undo step): over
//! the whole tile 31_31 (a square flat brush of half a tile's side at its middle) thermal
//! erosion of 200 passes (a talus of 10°, so that no pass finds the ground settled), hydraulic
//! erosion of 100,000 droplets and texture rules of three textures; then one dab of each of a
//! 30 yd brush, as the editor lays them. The issue asks ≤ 0.5 s, ≤ 1 s, ≤ 100 ms and ≤ 16 ms.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use loam::edit::History;
use loam::edit::ops::{self, Operation};
use loam::edit::terrain::{erosion, rules_ops};
use loam::model::Map;

/// The middle of tile 31_31 and half its side.
const TILE_MIDDLE: [f64; 2] = [266.666_666, 266.666_666];
const HALF_TILE: f64 = 266.666_666;

fn operation(json: &str) -> Operation {
    let file = ops::parse(&format!(r#"{{"ops": [{json}]}}"#)).expect("an operation");
    file.ops.into_iter().next().expect("one")
}

fn run(map: &mut Map, op: &Operation, history: &mut History) {
    let r = match op {
        Operation::Erode(op) => erosion::apply(map, op, history),
        Operation::Rules(op) => rules_ops::apply(map, op, history),
        other => panic!("{other:?}"),
    }
    .expect("runs");
    assert!(r.chunks > 0, "{}", r.label);
}

const RULES: &str = r#"[{"texture": "Tileset\\Loam\\Sample\\Grass06.blp"},
    {"texture": "Tileset\\Loam\\Sample\\Sand51.blp", "height": [-1000, 10], "blend": 4},
    {"texture": "Tileset\\Loam\\Sample\\Rock10.blp", "slope": [25, 90], "blend": 6}]"#;

fn erosion_benches(c: &mut Criterion) {
    let sample = loam::sample::sample_map();
    let whole = |what: &str| {
        format!(
            r#"{{{what}, "points": [{TILE_MIDDLE:?}], "radius": {HALF_TILE}, "shape": "square", "falloff": "flat"}}"#
        )
    };
    let dab = |what: &str| format!(r#"{{{what}, "points": [[300, 280]], "radius": 30}}"#);
    let cases = [
        (
            "thermal erosion, 200 passes over a tile",
            whole(r#""tool": "erode", "kind": "thermal", "talus": 10, "iterations": 200"#),
        ),
        (
            "hydraulic erosion, 100,000 droplets over a tile",
            whole(r#""tool": "erode", "kind": "hydraulic", "droplets": 100000, "seed": 1"#),
        ),
        (
            "texture rules over a tile",
            whole(&format!(r#""tool": "paint_rules", "rules": {RULES}"#)),
        ),
        (
            "thermal dab, 30 yd, 50 passes",
            dab(r#""tool": "erode", "kind": "thermal", "talus": 10, "iterations": 50"#),
        ),
        (
            "hydraulic dab, 30 yd, 2,000 droplets",
            dab(r#""tool": "erode", "kind": "hydraulic", "droplets": 2000, "seed": 1"#),
        ),
        (
            "texture rules dab, 30 yd",
            dab(&format!(r#""tool": "paint_rules", "rules": {RULES}"#)),
        ),
    ];
    for (name, json) in cases {
        let op = operation(&json);
        c.bench_function(name, |b| {
            b.iter_batched_ref(
                || (sample.clone(), History::default()),
                |(map, history)| run(map, &op, history),
                BatchSize::LargeInput,
            )
        });
    }
}

/// A Biome tool dab (the shipped "Weathered hills": thermal erosion, three rules, its palette
/// scattered) and the mask preview the Rules and Biome tools draw under the cursor.
fn biome_benches(c: &mut Criterion) {
    use loam::edit::biome;
    use loam::edit::objects::NewUids;
    use loam::edit::terrain::brush::Brush;
    let sample = loam::sample::sample_map();
    let hills = biome::shipped_named("Weathered hills").expect("shipped");
    let brush = Brush {
        radius: 30.0,
        inner_radius: 10.0,
        ..Brush::default()
    };
    c.bench_function("biome dab, 30 yd, Weathered hills", |b| {
        b.iter_batched_ref(
            || (sample.clone(), History::default()),
            |(map, history)| {
                let r = biome::apply(
                    map,
                    &hills,
                    (&brush, &[[300.0, 280.0]]),
                    1,
                    history,
                    (&|_| None, &NewUids::default()),
                )
                .expect("runs");
                assert!(r.chunks > 0, "{}", r.label);
            },
            BatchSize::LargeInput,
        )
    });
    let wide = Brush {
        radius: 60.0,
        inner_radius: 40.0,
        ..Brush::default()
    };
    c.bench_function("mask preview, 60 yd, three rules", |b| {
        b.iter(|| {
            let points = loam::edit::terrain::rules_preview::preview(
                &sample,
                &wide,
                &hills.rules,
                [300.0, 280.0],
            );
            assert!(!points.is_empty());
            points
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = erosion_benches, biome_benches
}
criterion_main!(benches);
