//! The scatter brush on a 3.3.5 tile of the bundled sample: one dab placing 2,000 objects of
//! two models (density 28.3 per 1,000 square yards over a 150 yd circle, 2 yd apart, tilted
//! to the slope), as one undo step — darts, spacing, ground heights and normals, uids and the
//! tiles' records and MCRF lists included. The issue asks under 16 ms of work per dab.
//! Erasing them again with `erase_objects` is the second figure.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use loam::edit::History;
use loam::edit::objects::NewUids;
use loam::edit::objects::scatter_ops::{self, ObjectBrushOp};

fn op(json: &str) -> ObjectBrushOp {
    serde_json::from_str(json).expect("an operation")
}

fn scatter(c: &mut Criterion) {
    let sample = loam::sample::sample_map();
    // Inside tile 31_31 (north-west of the map's centre), 150 yd from its middle.
    let dab = op(
        r#"{"tool": "scatter", "points": [[266, 266]], "radius": 150,
        "models": [{"model": "World\\Loam\\Sample\\Tree01.m2", "weight": 2},
                   {"model": "World\\Loam\\Sample\\Boulder01.m2"}],
        "density": 28.3, "spacing": 2, "scale": [0.8, 1.2], "tilt": 1, "seed": 1}"#,
    );
    let mut check = (sample.clone(), History::default());
    let r = scatter_ops::apply(
        &mut check.0,
        &dab,
        &mut check.1,
        &|_| None,
        &NewUids::default(),
    )
    .expect("scatters");
    assert!(r.label.starts_with("Scatter 2000 objects"), "{}", r.label);
    c.bench_function("scatter dab placing 2,000 objects (3.3.5 tile)", |b| {
        b.iter_batched_ref(
            || (sample.clone(), History::default()),
            |(map, history)| {
                scatter_ops::apply(map, &dab, history, &|_| None, &NewUids::default())
                    .expect("scatters")
            },
            BatchSize::LargeInput,
        )
    });
    let erase = op(r#"{"tool": "erase_objects", "points": [[266, 266]], "radius": 150}"#);
    let scattered = check.0;
    c.bench_function("erase_objects taking 2,000 objects", |b| {
        b.iter_batched_ref(
            || (scattered.clone(), History::default()),
            |(map, history)| {
                scatter_ops::apply(map, &erase, history, &|_| None, &NewUids::default())
                    .expect("erases")
            },
            BatchSize::LargeInput,
        )
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = scatter
}
criterion_main!(benches);
