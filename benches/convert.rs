//! A 16-tile 3.3.5 map converted to a 0.5.3 monolithic WDT and back (policy, encode, decode), as
//! `loam convert` does it minus the disk. Report: tiles per second = 16 / time.

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use loam::convert;
use loam::format::{Generation, alpha, v18};
use loam::model::map::TILE_PRESENT;
use loam::model::{Map, TileCoord};

/// Sixteen copies of continent4229 on a 4×4 block of tiles.
fn sixteen_tile_map() -> Map {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/wowserhq-format/map/continent4229.adt");
    let bytes = std::fs::read(&p).expect("corpus tile");
    let tile = v18::read_adt(&bytes, None, v18::AlphaDepth::Nibble).expect("decodes");
    let mut map = Map::new("Bench");
    for y in 0..4 {
        for x in 0..4 {
            let coord = TileCoord::new(40 + x, 28 + y).expect("on the map");
            let mut t = tile.clone();
            t.coord = coord;
            map.tile_flags[coord.index()] = TILE_PRESENT;
            map.tiles.insert(coord, t);
        }
    }
    map
}

fn to_alpha_and_back(c: &mut Criterion) {
    let map = sixteen_tile_map();
    let mut group = c.benchmark_group("convert");
    group.sample_size(10);
    group.bench_function("16 tiles 3.3.5 → 0.5.3 → 3.3.5", |b| {
        b.iter(|| {
            let mut m = map.clone();
            convert::prepare_map(&mut m, Generation::V335, Generation::Alpha053);
            let wdt = alpha::write_wdt(&m);
            let mut back = alpha::read_wdt(&wdt, "Bench").expect("reads its own output");
            convert::prepare_map(&mut back, Generation::Alpha053, Generation::V335);
            let target = v18::AlphaTarget {
                big: back.big_alpha(),
            };
            let files: Vec<Vec<u8>> = {
                use rayon::prelude::*;
                back.tiles
                    .par_iter()
                    .map(|(_, t)| v18::write_adt(t, target))
                    .collect()
            };
            std::hint::black_box(files)
        })
    });
    group.finish();
}

criterion_group!(benches, to_alpha_and_back);
criterion_main!(benches);
