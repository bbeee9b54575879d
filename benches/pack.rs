//! Client-ready output: the WDL of a map (every tile read from disk, sampled, dropped, as
//! `loam wdl` does it) and the patch archive of a map folder (`convert --pack`). The corpus has
//! no multi-tile map, so the map is 16 copies of its largest tile (Northrend_37_25, 2.7 MB) on
//! a 4×4 block. Report: tiles per second = 16 / time; archive MB per second = size / time.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use loam::convert;
use loam::format::Generation;
use loam::pipeline::{pack, stream, wdl};

/// A 3.3.5 map of 16 Northrend tiles with its WDT and WDL, written into `dir/map`.
fn sixteen_tile_map(dir: &Path) -> PathBuf {
    let tile = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/warcraft-net/ADT/Northrend_37_25.adt");
    let tiles = dir.join("tiles");
    std::fs::create_dir_all(&tiles).expect("temp folder");
    for y in 0..4 {
        for x in 0..4 {
            std::fs::copy(
                &tile,
                tiles.join(format!("Bench_{}_{}.adt", 30 + x, 30 + y)),
            )
            .expect("corpus tile");
        }
    }
    let map = dir.join("map");
    let c = stream::convert_map(
        &tiles,
        None,
        Generation::V335,
        &convert::Options::default(),
        &map,
        &|_, _| {},
    )
    .expect("converts");
    wdl::write_wdl(&map, &c.name, &c.low_res).expect("writes the WDL");
    map
}

fn client_output(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp folder");
    let map = sixteen_tile_map(dir.path());
    let mut group = c.benchmark_group("client");
    group.sample_size(10);
    group.bench_function("wdl of 16 tiles read from disk", |b| {
        b.iter(|| {
            let low = wdl::compute(&map, None, None).expect("reads");
            wdl::write_wdl(&dir.path().join("wdl"), &low.name, &low.tiles).expect("writes")
        })
    });
    let dest = dir.path().join("Data");
    std::fs::create_dir_all(&dest).expect("temp folder");
    group.bench_function("pack 16 tiles + WDT + WDL into patch-4.MPQ", |b| {
        b.iter(|| {
            pack::pack_map(&map, "Bench", Generation::V335, &dest, Some("patch-4.MPQ"))
                .expect("packs")
        })
    });
    group.finish();
    let size = std::fs::metadata(dest.join("patch-4.MPQ")).map_or(0, |m| m.len());
    let loose: u64 = pack::map_files(&map, "Bench")
        .expect("lists")
        .iter()
        .map(|(_, p)| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    println!("archive: {size} bytes from {loose} bytes of map files");
}

criterion_group!(benches, client_output);
criterion_main!(benches);
