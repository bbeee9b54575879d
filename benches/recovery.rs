//! Autosave costs on the bundled sample's four edited tiles: the copy taken on the UI thread
//! (what a frame pays) and the encode-and-write done on the autosave thread; and the undo
//! journal's share with 1,000 steps of history.

use criterion::{Criterion, criterion_group, criterion_main};
use loam::edit::History;
use loam::edit::history::Journaled;
use loam::edit::ops;
use loam::edit::terrain::liquid::LiquidStyle;
use loam::format::Generation;
use loam::model::Tile;
use loam::pipeline::journal;
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
        journal: None,
    };
    let rec = dir.path().join("recovery");
    c.bench_function("autosave write of 4 tiles, 3.3.5 (autosave thread)", |b| {
        b.iter(|| recovery::write(&rec, &snap).expect("written"))
    });
}

/// A history of `n` strokes over the sample (raise, lower, smooth and paint, radius 20 to 60
/// yd, as `tests/day_of_undo.rs` lays them), with the map after them.
fn strokes(n: usize) -> (loam::model::Map, History) {
    let mut map = loam::sample::sample_map();
    let textures: Vec<String> = map.tiles.values().next().expect("tiles").textures.clone();
    let mut history = History::default();
    let mut seed = 0x1007_0A11_DA7A_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    while history.len() < n {
        let at = [next() * 960.0 - 480.0, next() * 960.0 - 480.0];
        let to = [at[0] + next() * 120.0 - 60.0, at[1] + next() * 120.0 - 60.0];
        let mut json = serde_json::json!({"points": [at, to], "radius": 20.0 + next() * 40.0});
        match (next() * 8.0) as u32 {
            0..=2 => json["tool"] = "raise".into(),
            3 => json["tool"] = "lower".into(),
            4 => json["tool"] = "smooth".into(),
            _ => {
                json["tool"] = "paint".into();
                json["texture"] = textures[(next() * textures.len() as f64) as usize]
                    .clone()
                    .into();
            }
        }
        json["strength"] = (0.2 + next() * 3.0).into();
        let op: ops::Op = serde_json::from_value(json).expect("a stroke");
        ops::apply(&mut map, &op, &mut history, LiquidStyle::Mh2o).expect("the stroke runs");
    }
    (map, history)
}

/// The undo journal's share of an autosave with 1,000 steps of history: taking the new steps on
/// the UI thread (all of them for a new journal, ten for a later autosave), then encoding and
/// writing them on the autosave thread.
fn journal(c: &mut Criterion) {
    let (mut map, mut history) = strokes(990);
    let mut journaled = Journaled::default();
    history.journal_since(&mut journaled, true);
    let mut extra = 0;
    while history.len() < 1000 {
        let op: ops::Op = serde_json::from_value(serde_json::json!({
            "tool": "raise", "points": [[-300.0 + 60.0 * extra as f64, 100.0], [-260.0 + 60.0 * extra as f64, 140.0]],
            "radius": 40, "strength": 2
        }))
        .expect("a stroke");
        ops::apply(&mut map, &op, &mut history, LiquidStyle::Mh2o).expect("the stroke runs");
        extra += 1;
    }
    let whole = history
        .journal_since(&mut Journaled::default(), true)
        .encode();
    let append = history
        .journal_since(&mut journaled.clone(), false)
        .encode();
    let whole_bytes = journal::records(&whole).len();
    let append_bytes = journal::records(&append).len();
    eprintln!(
        "journal of {} steps: {whole_bytes} bytes ({} a step; history in memory {} bytes); an append of {} steps: {append_bytes} bytes",
        history.len(),
        whole_bytes / history.len(),
        history.size_bytes(),
        append.steps.len()
    );
    c.bench_function(
        "journal: take 1,000 steps, a new journal (UI thread)",
        |b| b.iter(|| history.journal_since(&mut Journaled::default(), true)),
    );
    c.bench_function("journal: take the 10 new of 1,000 steps (UI thread)", |b| {
        b.iter(|| history.journal_since(&mut journaled.clone(), false))
    });
    let taken = history.journal_since(&mut Journaled::default(), true);
    c.bench_function("journal: encode 1,000 steps (autosave thread)", |b| {
        b.iter(|| taken.encode())
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("history.journal");
    c.bench_function(
        "journal: write 1,000 steps, a new journal (autosave thread)",
        |b| b.iter(|| journal::write(&path, &whole, 0).expect("written")),
    );
    let valid = journal::write(&path, &whole, 0).expect("written");
    c.bench_function("journal: append 10 steps to 1,000 (autosave thread)", |b| {
        b.iter(|| journal::write(&path, &append, valid).expect("appended"))
    });
}

criterion_group!(benches, autosave, journal);
criterion_main!(benches);
