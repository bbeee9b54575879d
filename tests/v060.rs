//! The 0.6.0 split WDT + ADT codec against the corpus: 3.3.5 tiles written as 0.6.0 read back
//! with the same terrain (also through `disk::open_map`, which must tell them from v18), the
//! writer is exact on its own output, the MCNK layout follows `004_*`, and damaged files give
//! errors, not panics.

mod alpha_support;
mod common;

use alpha_support::*;
use common::*;
use loam::disk;
use loam::format::evidence::{self, MapEvidence, TileEvidence};
use loam::format::{Generation, v18, v060};
use loam::model::coords::outer_then_inner_vertex;
use loam::model::map::TILE_PRESENT;
use loam::model::{Map, Tile};

fn prepared_tiles() -> Vec<(&'static str, Tile)> {
    corpus_tiles(&ADTS)
        .into_iter()
        .map(|(rel, _, prepared)| (rel, prepared))
        .collect()
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn corpus_tiles_survive_a_trip_through_0_6_0() {
    let mut compared = 0;
    for (rel, original, tile) in corpus_tiles(&ADTS) {
        let bytes = v060::write_adt(&tile);
        // What loam writes as 0.6.0 proves it only through its MCLQ; nothing in it claims a
        // later generation.
        let evidence = TileEvidence::of(&bytes);
        assert!(!evidence.after_112(), "{rel}: {evidence:?}");
        assert_eq!(
            evidence.mclq_060 > 0,
            tile.liquid_chunk_count() > 0,
            "{rel}: 0x2D4-byte MCLQ exactly where there is liquid"
        );
        assert_eq!(evidence.mclq_v18, 0, "{rel}");
        let back = v060::read_adt(&bytes, Some(tile.coord)).unwrap();
        assert_tile_matches(rel, &tile, &back);
        compared += assert_alpha_within_one_step(rel, &original, &back);
        assert_eq!(back.doodad_names, tile.doodad_names, "{rel}");
        assert_eq!(back.wmo_names, tile.wmo_names, "{rel}");
    }
    assert!(compared > 100, "the corpus has alpha maps");
}

#[test]
fn corpus_v18_tiles_are_not_taken_for_0_6_0() {
    for rel in ADTS {
        let bytes = std::fs::read(corpus_file(rel)).unwrap();
        let mut e = MapEvidence::new(None);
        e.add(&TileEvidence::of(&bytes));
        let d = evidence::decide(&e, None);
        assert_ne!(d.generation, Generation::V060, "{rel}: {d}");
    }
}

#[test]
fn a_0_6_0_map_folder_opens_and_rewrites_identically() {
    let dir = tempfile::tempdir().unwrap();
    let mut map = Map::new("Test");
    let mut first = Vec::new();
    for (_, tile) in prepared_tiles() {
        map.tile_flags[tile.coord.index()] = TILE_PRESENT;
        let bytes = v060::write_adt(&tile);
        disk::write_atomic(
            &dir.path().join(disk::tile_file_name("Test", tile.coord)),
            &bytes,
        )
        .unwrap();
        first.push((tile, bytes));
    }
    let wdt = v060::write_wdt(&map);
    assert_eq!(
        u32_at(&wdt, 12 + 8 + 32 + 4),
        0x8000,
        "MAIN is 0x8000 bytes"
    );
    disk::write_atomic(&dir.path().join("Test.wdt"), &wdt).unwrap();
    let opened = disk::open_map(&dir.path().join("Test.wdt")).unwrap();
    assert_eq!(opened.generation, Generation::V060, "{}", opened.decision);
    assert!(
        opened.decision.reason.contains("0x2D4"),
        "{}",
        opened.decision
    );
    assert!(opened.missing_tiles.is_empty());
    for (tile, bytes) in &first {
        let back = &opened.map.tiles[&tile.coord];
        assert_tile_matches("open_map", tile, back);
        assert_same_bytes("0.6.0 rewrite", bytes, &v060::write_adt(back));
    }
    assert_same_bytes("0.6.0 WDT", &wdt, &v060::write_wdt(&opened.map));
    assert_eq!(
        v18::read_wdt(&wdt, "Test").unwrap().present_tiles().len(),
        4
    );
}

#[test]
fn a_written_0_6_0_adt_follows_the_mcnk_layout() {
    let (_, tile) = prepared_tiles().into_iter().nth(1).unwrap();
    let bytes = v060::write_adt(&tile);
    let mhdr = 12;
    let mcin = mhdr + 8 + u32_at(&bytes, mhdr + 8 + 4) as usize;
    assert_eq!(&bytes[mcin..mcin + 4], b"NICM");
    let mut liquid_seen = false;
    for i in 0..256 {
        let at = u32_at(&bytes, mcin + 8 + i * 16) as usize;
        assert_eq!(&bytes[at..at + 4], b"KNCM");
        let h = at + 8;
        let tag_at = |field: usize| at + u32_at(&bytes, h + field) as usize;
        for (field, tag) in [
            (0x14, b"TVCM"),
            (0x18, b"RNCM"),
            (0x1C, b"YLCM"),
            (0x20, b"FRCM"),
            (0x24, b"LACM"),
            (0x58, b"ESCM"),
        ] {
            assert_eq!(
                &bytes[tag_at(field)..tag_at(field) + 4],
                tag,
                "chunk {i} field {field:#x}"
            );
        }
        let flags = u32_at(&bytes, h);
        if flags & 1 != 0 {
            assert_eq!(&bytes[tag_at(0x2C)..tag_at(0x2C) + 4], b"HSCM");
        }
        let n_liquid = (flags & 0x3C).count_ones();
        if n_liquid > 0 {
            liquid_seen = true;
            let q = tag_at(0x60);
            assert_eq!(&bytes[q..q + 4], b"QLCM");
            assert_eq!(u32_at(&bytes, q + 4), n_liquid * 0x2D4);
            assert_eq!(u32_at(&bytes, h + 0x64), n_liquid * 0x2D4 + 8);
        } else {
            assert_eq!(u32_at(&bytes, h + 0x60), 0);
        }
        let mcvt = tag_at(0x14) + 8;
        let z = f32::from_le_bytes(bytes[h + 0x70..h + 0x74].try_into().unwrap());
        for k in [0, 9, 80, 81, 144] {
            let v = f32::from_le_bytes(bytes[mcvt + 4 * k..mcvt + 4 * k + 4].try_into().unwrap());
            let want = tile.chunks[i].heights[outer_then_inner_vertex(k)];
            assert!((z + v - want).abs() <= 0.001, "chunk {i} vertex {k}");
        }
    }
    assert!(liquid_seen, "Northrend_37_25 has liquid");
}

#[test]
fn damaged_0_6_0_files_never_panic() {
    let (_, tile) = prepared_tiles().into_iter().nth(2).unwrap();
    let bytes = v060::write_adt(&tile);
    let step = bytes.len() / 257 + 1;
    for cut in (0..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
        let err = v060::read_adt(&bytes[..cut], Some(tile.coord)).expect_err("truncated");
        assert!(err.offset <= cut as u64, "cut {cut}: {err}");
        let _ = TileEvidence::of(&bytes[..cut]);
    }
    for at in (0..bytes.len() - 4).step_by(step / 3 + 1) {
        let mut b = bytes.clone();
        b[at..at + 4].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
        if let Err(e) = v060::read_adt(&b, Some(tile.coord)) {
            assert!(e.offset <= b.len() as u64, "at {at}: {e}");
        }
    }
}
