//! Shadow baking (issue 32): one tile baked over itself and its eight neighbours, and a 3×3-tile
//! map baked whole (tiles in parallel), from which the 687-tile continent is estimated. Every
//! tile is a copy of the corpus tile continent4229.adt (Eastern Plaguelands: steep hills, the
//! default sun shadows about a quarter of it), moved to its place. And the bundled sample's
//! models cast onto one of its tiles (`edit::derived::model_shadows`).

use criterion::{Criterion, criterion_group, criterion_main};
use loam::edit::derived::shadows::{self, Sun};
use loam::model::{Map, TileCoord};

fn map() -> Map {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/wowserhq-format/map/continent4229.adt");
    let source = loam::pipeline::open_map(&path).expect("corpus tile").map;
    let tile = source.tiles.values().next().expect("a tile").clone();
    let mut map = Map::new("Bench");
    for y in 28..31 {
        for x in 41..44 {
            let mut t = tile.clone();
            t.coord = TileCoord::new(x, y).expect("on the map");
            map.tiles.insert(t.coord, t);
        }
    }
    map
}

fn bake(c: &mut Criterion) {
    let base = map();
    let centre = TileCoord::new(42, 29).expect("on the map");
    let flags: Vec<u32> = base.tiles[&centre].chunks.iter().map(|c| c.flags).collect();
    let mut g = c.benchmark_group("shadows");
    g.sample_size(10);
    g.bench_function("bake one tile over its 8 neighbours", |b| {
        b.iter(|| shadows::bake_tile(&base, centre, &flags, Sun::DEFAULT))
    });
    g.bench_function("bake a 3x3-tile map whole", |b| {
        b.iter_batched(
            || base.clone(),
            |mut m| shadows::bake_map(&mut m, Sun::DEFAULT, |_, _, _| {}),
            criterion::BatchSize::LargeInput,
        )
    });
    g.finish();
}

/// The bundled sample's models (trees, boulders, a tower, read from `resources/sample` as the
/// editor reads them) cast onto one of its tiles, over the terrain bake.
fn models(c: &mut Criterion) {
    use loam::edit::derived::model_shadows;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/sample");
    let map = loam::pipeline::open_map(&root.join("Sample.wdt"))
        .expect("the bundled sample")
        .map;
    let files = root.clone();
    let cache = loam::assets::models::ShapeCache::new(move |p| {
        std::fs::read(files.join(p.replace('\\', "/"))).ok()
    });
    let shape = |p: &str| cache.get(p);
    let coord = TileCoord::new(31, 31).expect("on the map");
    let casters = model_shadows::casters_around(&map, coord);
    let ground = |x: f64, y: f64| loam::edit::lattice::height_at(&map, x, y);
    let (_, first) =
        model_shadows::shadows_of(&map.tiles[&coord], &casters, Sun::DEFAULT, &shape, &ground);
    assert!(first.objects > 10 && first.missing.is_empty(), "{first:?}");
    let mut g = c.benchmark_group("shadows");
    g.sample_size(10);
    g.bench_function("cast the sample's models onto one tile", |b| {
        b.iter(|| {
            model_shadows::shadows_of(&map.tiles[&coord], &casters, Sun::DEFAULT, &shape, &ground)
        })
    });
    g.finish();
}

criterion_group!(benches, bake, models);
criterion_main!(benches);
