//! Terrain as images: `loam export-images` of one tile and of 64 (8×8) with heights, alpha maps
//! and vertex colours (each tile a copy of the bundled sample's 31_31: four textures painted,
//! so five images a tile besides the heights), and the heightmap import: one tile's 257×257
//! 16-bit PNG read and imported, and one 2049×2049 image over the 64 tiles, read and imported
//! (one undo step).

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use loam::edit::images::heightmap::{HeightImport, ImportMode, TileSpan, import_heights};
use loam::edit::stroke::Stroke;
use loam::format::Generation;
use loam::images::export::{ExportRequest, export_images};
use loam::images::io::{read_raster, write_grey16};
use loam::model::blank::TileRect;
use loam::model::{Map, Tile, TileCoord};

/// A 3.3.5 map over `rect` in `dir`, each tile the sample's 31_31; returns its WDT.
fn painted_map(dir: &Path, rect: TileRect) -> std::path::PathBuf {
    let sample = loam::sample::sample_map();
    let model = &sample.tiles[&TileCoord::new(31, 31).expect("on the grid")];
    let mut map = Map::new("Bench");
    map.flags = sample.flags;
    for c in rect.coords() {
        let mut tile = model.clone();
        tile.coord = c;
        tile.doodads.clear();
        tile.wmos.clear();
        for chunk in &mut tile.chunks {
            chunk.doodad_refs.clear();
            chunk.wmo_refs.clear();
        }
        map.tiles.insert(c, tile);
        map.tile_flags[c.index()] = loam::model::map::TILE_PRESENT;
    }
    let files = loam::pipeline::encode_map(&map, Generation::V335, true, None).expect("encodes");
    loam::disk::write_files(dir, &files, |_| {}).expect("writes");
    dir.join("Bench.wdt")
}

fn all() -> ExportRequest {
    ExportRequest {
        heights: true,
        alpha: true,
        colours: true,
        range: None,
        float: false,
    }
}

fn export(c: &mut Criterion) {
    let mut group = c.benchmark_group("images");
    group.sample_size(10);
    for (label, rect) in [
        ("export 1 tile", TileRect::new(30, 30, 30, 30)),
        ("export 64 tiles", TileRect::new(28, 28, 35, 35)),
    ] {
        let dir = tempfile::tempdir().expect("temp folder");
        let wdt = painted_map(dir.path(), rect.expect("on the grid"));
        group.bench_function(label, |b| {
            b.iter_batched(
                || tempfile::tempdir().expect("temp folder"),
                |out| {
                    export_images(&wdt, None, out.path(), &all(), &|_, _| {}).expect("writes");
                    out
                },
                criterion::BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

fn map_of(rect: TileRect) -> Map {
    let mut map = Map::new("Bench");
    for c in rect.coords() {
        map.tiles.insert(c, Tile::flat(c, "a.blp", 0.0));
    }
    map
}

fn import(c: &mut Criterion) {
    let mut group = c.benchmark_group("images");
    group.sample_size(10);
    let dir = tempfile::tempdir().expect("temp folder");
    let wave = |n: usize| -> Vec<u16> {
        (0..n * n)
            .map(|i| {
                let (x, y) = ((i % n) as f32, (i / n) as f32);
                (32768.0 + 30000.0 * (x / 40.0).sin() * (y / 55.0).cos()) as u16
            })
            .collect()
    };
    let tile_png = dir.path().join("tile.png");
    write_grey16(&tile_png, 257, &wave(257)).expect("writes");
    let map_png = dir.path().join("map.png");
    write_grey16(&map_png, 2049, &wave(2049)).expect("writes");
    let import = HeightImport {
        min: 0.0,
        max: 500.0,
        mode: ImportMode::Replace,
        strength: 1.0,
    };
    let one = TileRect::new(30, 30, 30, 30).expect("on the grid");
    let block = TileRect::new(28, 28, 35, 35).expect("on the grid");
    let corner = |x, y| TileCoord::new(x, y).expect("on the grid");
    for (label, png, rect, span) in [
        (
            "import 1 tile (257², read and imported)",
            &tile_png,
            one,
            TileSpan::one(corner(30, 30)),
        ),
        (
            "import 64 tiles (one 2049² image, read and imported)",
            &map_png,
            block,
            TileSpan::between(corner(28, 28), corner(35, 35)),
        ),
    ] {
        group.bench_function(label, |b| {
            b.iter_batched(
                || map_of(rect),
                |mut map| {
                    let raster = read_raster(png).expect("reads");
                    let mut stroke = Stroke::new("Import");
                    import_heights(&mut map, &raster, span, import, &mut stroke);
                    let edit = stroke.finish(&mut map);
                    (map, edit)
                },
                criterion::BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, export, import);
criterion_main!(benches);
