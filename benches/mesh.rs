//! How long building the GPU-ready mesh takes: one corpus tile, and the 3×3 neighbourhood the
//! editor keeps around the camera (target: at most 1 ms per tile); and the liquid surfaces of
//! Northrend_37_25 (its MH2O river) on their own.

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use loam::model::{Tile, TileCoord};
use loam::render::liquid_mesh::build_liquid_mesh;
use loam::render::mesh::build_tile_mesh;

fn corpus_tile() -> Tile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/wowserhq-format/map/continent4229.adt");
    let opened = loam::pipeline::open_map(&path).expect("corpus tile opens");
    opened
        .map
        .tiles
        .into_values()
        .next()
        .expect("the file holds a tile")
}

fn mesh(c: &mut Criterion) {
    let tile = corpus_tile();
    c.bench_function("mesh/one tile (continent4229)", |b| {
        b.iter(|| build_tile_mesh(std::hint::black_box(&tile)))
    });
    // The same terrain placed on nine neighbouring tiles.
    let neighbourhood: Vec<Tile> = (0..9)
        .map(|i| {
            let mut t = tile.clone();
            t.coord = TileCoord::new(41 + i % 3, 28 + i / 3).expect("on the map");
            t
        })
        .collect();
    c.bench_function("mesh/3x3 tiles", |b| {
        b.iter(|| {
            neighbourhood
                .iter()
                .map(|t| build_tile_mesh(std::hint::black_box(t)).indices.len())
                .sum::<usize>()
        })
    });
}

fn liquid_mesh(c: &mut Criterion) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/warcraft-net/ADT/Northrend_37_25.adt");
    let opened = loam::pipeline::open_map(&path).expect("corpus tile opens");
    let tile = opened.map.tiles.into_values().next().expect("a tile");
    let quads = build_liquid_mesh(&tile).quad_count();
    assert!(quads > 0, "the tile has liquid");
    eprintln!("Northrend_37_25: {quads} liquid quads");
    c.bench_function("mesh/liquid (Northrend_37_25)", |b| {
        b.iter(|| build_liquid_mesh(std::hint::black_box(&tile)))
    });
}

criterion_group!(benches, mesh, liquid_mesh);
criterion_main!(benches);
