//! Opening every Blizzard-written ADT and WDT of the corpus and saving it as the same version
//! without edits gives the same bytes.

mod common;

use common::*;
use loam::disk;
use loam::format::v18;

#[test]
fn every_corpus_adt_round_trips_byte_for_byte() {
    for rel in ADTS {
        let path = corpus_file(rel);
        let original = std::fs::read(&path).unwrap();
        let opened = disk::open_map(&path).unwrap();
        assert_eq!(opened.map.tiles.len(), 1, "{rel}");
        let tile = opened.map.tiles.values().next().unwrap();
        let written = v18::write_adt(tile, disk::alpha_target(&opened.map));
        assert_same_bytes(rel, &original, &written);
    }
}

#[test]
fn every_corpus_wdt_round_trips_byte_for_byte() {
    for rel in WDTS {
        let original = std::fs::read(corpus_file(rel)).unwrap();
        let map = v18::read_wdt(&original, "X").unwrap();
        assert_same_bytes(rel, &original, &v18::write_wdt(&map));
    }
}

#[test]
fn unedited_corpus_tiles_need_no_position_or_height_quirks() {
    // The writer derives chunk positions and relative heights itself; only genuinely irregular
    // bytes should be kept aside.
    for rel in ADTS {
        let opened = disk::open_map(&corpus_file(rel)).unwrap();
        for tile in opened.map.tiles.values() {
            for c in &tile.chunks {
                assert_eq!(c.extras.position_xy, None, "{rel}");
                assert!(c.quirks.relative_heights.is_none(), "{rel}");
            }
        }
    }
}
