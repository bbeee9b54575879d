//! Minimap tiles: drawing one tile from above (256×256, 2×2 samples a pixel) and encoding it as
//! the client's DXT1 BLP, on a tile of the bundled sample (five layers, vertex colours,
//! shadows, holes). Report: time per tile = draw + encode.

use criterion::{Criterion, criterion_group, criterion_main};
use loam::assets::blp::{Image, encode_dxt1};
use loam::minimap::{self, TILE_PIXELS, raster};

fn minimap_tile(c: &mut Criterion) {
    let map = loam::sample::sample_map();
    let tile = map.tiles.values().next().expect("the sample has tiles");
    let dir = tempfile::tempdir().expect("temp folder");
    loam::sample::write_sample(dir.path()).expect("writes the sample");
    let source = loam::assets::client::AssetSource::new(None, Some(dir.path().to_path_buf()));
    let mut textures = minimap::new_cache();
    minimap::load_textures(
        tile.textures.iter().map(String::as_str),
        &source,
        &mut textures,
    );
    let mut group = c.benchmark_group("minimap");
    group.bench_function("draw one tile", |b| {
        b.iter(|| raster::draw_tile(tile, &textures, TILE_PIXELS))
    });
    let image = Image {
        width: TILE_PIXELS,
        height: TILE_PIXELS,
        rgba: raster::draw_tile(tile, &textures, TILE_PIXELS),
    };
    group.bench_function("encode one tile (DXT1 BLP)", |b| {
        b.iter(|| encode_dxt1(&image).expect("encodes"))
    });
    group.finish();
}

criterion_group!(benches, minimap_tile);
criterion_main!(benches);
