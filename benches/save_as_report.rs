//! The wait for File ▸ Save as…'s conversion report on a continent: 687 tiles (Eastern Kingdoms'
//! count in 3.3.5) of the corpus's largest tile (Northrend_37_25.adt, 2.6 MB, hard links beside
//! a WDT that lists them), none in memory, so every tile is read from disk and made to fit the
//! target, as the dialog's report thread does. Report: the time, which the dialog shows as a
//! progress bar while the window stays responsive.

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;

use criterion::{Criterion, criterion_group, criterion_main};
use loam::doc::session::Session;
use loam::format::{Generation, v18};
use loam::model::map::TILE_PRESENT;
use loam::model::{Map, TileCoord};

/// Eastern Kingdoms' tile count in 3.3.5.
const TILES: usize = 687;

fn continent(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let tile = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/warcraft-net/ADT/Northrend_37_25.adt");
    let mut map = Map::new("Continent");
    for i in 0..TILES {
        let coord = TileCoord::new(i % 64, i / 64).expect("on the map");
        map.tile_flags[coord.index()] = TILE_PRESENT;
        let file = dir
            .path()
            .join(format!("Continent_{}_{}.adt", coord.x, coord.y));
        std::fs::hard_link(&tile, &file)
            .or_else(|_| std::fs::copy(&tile, &file).map(|_| ()))
            .expect("tile file");
    }
    std::fs::write(dir.path().join("Continent.wdt"), v18::write_wdt(&map)).expect("WDT");
    let session = Session::open(&dir.path().join("Continent.wdt")).expect("opens");
    assert!(session.map.tiles.is_empty(), "no tile in memory");
    let mut group = c.benchmark_group("save as report");
    group.sample_size(10);
    for to in [Generation::V112, Generation::Alpha053] {
        group.bench_function(format!("{TILES} tiles 3.3.5 → {to}"), |b| {
            b.iter(|| {
                let input = session.report_input(to);
                assert_eq!(input.tiles_to_read(), TILES);
                input.run(&AtomicUsize::new(0))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, continent);
criterion_main!(benches);
