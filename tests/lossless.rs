//! Opening every Blizzard-written ADT and WDT of the corpus and saving it as the same version
//! without edits gives the same bytes.

mod common;

use common::*;
use loam::format::v18;
use loam::pipeline;

#[test]
fn every_corpus_adt_round_trips_byte_for_byte() {
    for rel in ADTS {
        let path = corpus_file(rel);
        let original = std::fs::read(&path).unwrap();
        let opened = pipeline::open_map(&path).unwrap();
        assert_eq!(opened.map.tiles.len(), 1, "{rel}");
        let tile = opened.map.tiles.values().next().unwrap();
        let written = v18::write_adt(tile, pipeline::alpha_target(&opened.map));
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
        let opened = pipeline::open_map(&corpus_file(rel)).unwrap();
        for tile in opened.map.tiles.values() {
            for c in &tile.chunks {
                assert_eq!(c.extras.position_xy, None, "{rel}");
                assert!(c.quirks.relative_heights.is_none(), "{rel}");
            }
        }
    }
}

#[test]
fn chunks_loam_does_not_know_survive_a_load_and_save() {
    let original = std::fs::read(corpus_file("blizzardry/Azeroth_38_46.adt")).unwrap();
    // A top-level chunk after MODF, and 12 unknown bytes (a sub-chunk) at the end of MCNK 5.
    let mut bytes = Vec::new();
    let modf_end = original.windows(4).position(|w| w == b"FDOM").unwrap() + 8; // MODF is empty
    bytes.extend_from_slice(&original[..modf_end]);
    bytes.extend_from_slice(b"ZYXM\x04\x00\x00\x00\x01\x02\x03\x04");
    bytes.extend_from_slice(&original[modf_end..]);
    let tile = v18::read_adt(&bytes, None, v18::AlphaDepth::Nibble).unwrap();
    assert_eq!(tile.unknown_chunks.len(), 1);
    assert_eq!(&tile.unknown_chunks[0].tag, b"MXYZ");
    let mut tile = tile;
    tile.chunks[5].quirks.trailing = b"XXXX\x04\x00\x00\x00abcd".to_vec();
    let written = v18::write_adt(&tile, v18::AlphaTarget { big: false });
    let back = v18::read_adt(&written, None, v18::AlphaDepth::Nibble).unwrap();
    assert_eq!(back.unknown_chunks, tile.unknown_chunks);
    assert_eq!(back.chunks[5].quirks.trailing, b"XXXX\x04\x00\x00\x00abcd");
    // A file holding unknown data re-saves byte for byte. (The hand-made input above has stale
    // MCIN offsets, which the writer corrects, so compare a saved file with its re-save.)
    let again = v18::write_adt(&back, v18::AlphaTarget { big: false });
    assert_same_bytes("unknown chunks", &written, &again);
}
