//! The 0.5.5 prototype ADT against the corpus: 3.3.5 tiles written as a 0.5.5 WDT plus
//! prototype ADTs open through `pipeline::open_map` with the same terrain, re-save to the same
//! bytes, and damaged tiles give errors, not panics.

mod alpha_support;
mod common;

use alpha_support::*;
use common::*;
use loam::disk;
use loam::format::{Generation, proto055};
use loam::model::map::TILE_PRESENT;
use loam::model::{Map, MapWideNames, Tile};
use loam::pipeline;

fn prepared_tiles() -> Vec<(&'static str, Tile)> {
    corpus_tiles(&ADTS)
        .into_iter()
        .map(|(rel, _, prepared)| (rel, prepared))
        .collect()
}

#[test]
fn corpus_tiles_survive_a_trip_through_0_5_5_prototype_adts() {
    let tiles = prepared_tiles();
    let mut map = Map::new("Proto");
    for (_, t) in &tiles {
        map.tile_flags[t.coord.index()] = TILE_PRESENT;
        map.tiles.insert(t.coord, t.clone());
    }
    let (wdt, adts) = proto055::write_map(&map);
    assert_eq!(adts.len(), 4);
    let dir = tempfile::tempdir().unwrap();
    disk::write_atomic(&dir.path().join("Proto.wdt"), &wdt).unwrap();
    for (coord, bytes) in &adts {
        assert!(proto055::is_prototype_adt(bytes));
        let path = dir.path().join(disk::tile_file_name("Proto", *coord));
        disk::write_atomic(&path, bytes).unwrap();
    }
    let opened = pipeline::open_map(&dir.path().join("Proto.wdt")).unwrap();
    assert_eq!(opened.generation, Generation::Alpha055);
    assert!(opened.missing_tiles.is_empty());
    for (rel, tile) in &tiles {
        assert_tile_matches(rel, tile, &opened.map.tiles[&tile.coord]);
    }
    let mut compared = 0;
    for (rel, original, _) in corpus_tiles(&ADTS) {
        compared +=
            assert_alpha_within_one_step(rel, &original, &opened.map.tiles[&original.coord]);
    }
    assert!(compared > 100, "the corpus has alpha maps");
    let (wdt2, adts2) = proto055::write_map(&opened.map);
    assert_same_bytes("0.5.5 WDT", &wdt, &wdt2);
    for ((c, a), (_, b)) in adts.iter().zip(&adts2) {
        assert_same_bytes(&format!("prototype ADT {c:?}"), a, b);
    }
}

#[test]
fn damaged_prototype_adts_give_errors_not_panics() {
    let (_, tile) = prepared_tiles().into_iter().nth(2).unwrap();
    let mut map = Map::new("Proto");
    map.tiles.insert(tile.coord, tile.clone());
    let (wdt, adts) = proto055::write_map(&map);
    let names = loam::format::alpha::read_wdt(&wdt, "Proto")
        .unwrap()
        .map_wide_names
        .unwrap();
    let bytes = &adts[0].1;
    let step = bytes.len() / 257 + 1;
    for cut in (0..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
        let mut n: MapWideNames = names.clone();
        let err = proto055::read_adt(&bytes[..cut], tile.coord, &mut n).expect_err("truncated");
        assert!(err.offset <= cut as u64, "cut {cut}: {err}");
    }
    for at in (0..bytes.len() - 4).step_by(step / 3 + 1) {
        let mut b = bytes.clone();
        b[at..at + 4].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
        let mut n = names.clone();
        if let Err(e) = proto055::read_adt(&b, tile.coord, &mut n) {
            assert!(e.offset <= b.len() as u64, "at {at}: {e}");
        }
    }
}
