//! Autosave costs on the bundled sample's four edited tiles: the copy taken on the UI thread
//! (what a frame pays) and the encode-and-write done on the autosave thread.

use criterion::{Criterion, criterion_group, criterion_main};
use loam::format::Generation;
use loam::model::Tile;
use loam::pipeline::recovery::{self, Snapshot};

fn autosave(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    loam::sample::write_sample(&dir.path().join("map")).expect("sample");
    let wdt = dir.path().join("map/Sample.wdt");
    let map = loam::pipeline::open_map(&wdt).expect("sample opens").map;
    c.bench_function("autosave copy of 4 edited tiles (UI thread)", |b| {
        b.iter(|| map.tiles.values().cloned().collect::<Vec<Tile>>())
    });
    let snap = Snapshot {
        source: wdt.clone(),
        header: map.header_only(),
        generation: Generation::V335,
        tiles: map.tiles.values().cloned().collect(),
        reuse: Vec::new(),
        files: vec![wdt.clone()],
    };
    let rec = dir.path().join("recovery");
    c.bench_function("autosave write of 4 tiles, 3.3.5 (autosave thread)", |b| {
        b.iter(|| recovery::write(&rec, &snap).expect("written"))
    });
}

criterion_group!(benches, autosave);
criterion_main!(benches);
