//! A road on the bundled sample: one `road` operation of 8 control points, 10 yd wide with
//! 8 yd shoulders and a texture, running about 400 yd across the tile borders at the sample's
//! centre (all four of its tiles), applied as one undo step — heights, exact storage of
//! shared vertices, normals and painting included. What the editor and `loam apply` wait for.
//! The same road without its texture shows what the heights alone cost.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use loam::edit::History;
use loam::edit::shapes::road_ops::{self, RoadOp};

fn road() -> RoadOp {
    serde_json::from_str(
        r#"{"tool": "road", "points": [[-160, -120], [-110, -50], [-60, 5], [-10, 30],
            [40, 20], [90, -15], [130, -70], [170, -140]],
            "width": 10, "shoulder": 8, "heights": [40, 44, 48, 51, 53, 50, 47, 45],
            "texture": "Tileset\\Loam\\Sample\\Dirt77.blp", "texture_width": 6}"#,
    )
    .expect("a road")
}

fn roads(c: &mut Criterion) {
    let sample = loam::sample::sample_map();
    let painted = road();
    let bare = RoadOp {
        texture: None,
        texture_width: None,
        ..road()
    };
    for (name, op) in [
        ("road of 8 points across tile borders (sample)", &painted),
        ("the same road's heights only, no texture", &bare),
    ] {
        c.bench_function(name, |b| {
            b.iter_batched_ref(
                || (sample.clone(), History::default()),
                |(map, history)| road_ops::apply(map, op, history).expect("lays"),
                BatchSize::LargeInput,
            )
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = roads
}
criterion_main!(benches);
