//! `loam new`: writing a new map of blank tiles (the WDT, every tile, the WDL), 3.3.5 split
//! files and a 0.5.3 monolithic WDT, a 4×4 block each. Report: tiles per second = 16 / time.
//! The 64×64 figure (4096 tiles, one run) comes from `benches/continent.sh`.

use criterion::{Criterion, criterion_group, criterion_main};
use loam::convert::blank::{DEFAULT_TEXTURE, blank_tile};
use loam::doc::new_map::{NewMap, create_map};
use loam::format::Generation;
use loam::model::blank::TileRect;

fn new_map(c: &mut Criterion) {
    let mut group = c.benchmark_group("new_map");
    group.sample_size(10);
    for g in [Generation::V335, Generation::Alpha053] {
        let new = NewMap {
            name: "Bench".into(),
            generation: g,
            tiles: TileRect::new(30, 30, 33, 33).expect("on the grid").coords(),
            blank: blank_tile(g, DEFAULT_TEXTURE, 0.0, 0),
        };
        group.bench_function(format!("16 tiles, {g}"), |b| {
            b.iter_batched(
                || tempfile::tempdir().expect("temp folder"),
                |dir| {
                    create_map(&new, dir.path(), &|_, _| {}).expect("writes");
                    dir
                },
                criterion::BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, new_map);
criterion_main!(benches);
