//! Maps as users have them, not as Blizzard wrote them: rugged v18 tiles that must never be
//! taken for 0.6.0, a map with one unreadable tile, and folders of tiles with no WDT. Through
//! the library and through the `loam` binary.

mod common;

use std::path::Path;

use common::*;
use loam::disk;
use loam::format::evidence::{self, MapEvidence, TileEvidence};
use loam::format::v18::{self, AlphaDepth, AlphaTarget};
use loam::format::{Generation, v060};
use loam::model::Tile;
use loam::model::coords::{inner_vertex, outer_vertex};
use loam::model::map::{Map, TILE_PRESENT};
use loam::pipeline::{self, MapKind};
use proptest::prelude::*;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The vanilla-style corpus tile (no 3.3.5-only chunk, so nothing but terrain could mislead).
fn plain_tile() -> Tile {
    let bytes = std::fs::read(corpus_file("blizzardry/Azeroth_38_46.adt")).unwrap();
    v18::read_adt(&bytes, None, AlphaDepth::Nibble).unwrap()
}

/// A small deterministic generator, so the rugged shapes are the same on every run.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0
    }
}

/// Terrain shapes that fooled the old roughness test, or could.
fn rugged(kind: usize, tile: &mut Tile) {
    let mut rng = Lcg(kind as u64 + 7);
    for (ci, c) in tile.chunks.iter_mut().enumerate() {
        let base = c.heights[0];
        for r in 0..9 {
            for col in 0..9 {
                let v = outer_vertex(r, col);
                c.heights[v] = base
                    + match kind {
                        // Cliffs: every other outer row jumps 300 yd.
                        0 => ((r % 2) as f32) * 300.0,
                        // Random heights per vertex.
                        1 => rng.next() * 400.0,
                        // Steep noise along the columns.
                        2 => (col as f32 * 2.7 + ci as f32).sin() * 250.0 + rng.next() * 30.0,
                        // The outer grid alone smooth (a plane), the inner one wild: read the
                        // 0.6.0 way the outer heights look rougher, the v18 way smoother.
                        _ => r as f32 * 0.5,
                    };
            }
        }
        for r in 0..8 {
            for col in 0..8 {
                c.heights[inner_vertex(r, col)] = base
                    + match kind {
                        0 => 150.0,
                        1 | 2 => rng.next() * 400.0,
                        _ => rng.next() * 900.0,
                    };
            }
        }
    }
}

fn decide_bytes(bytes: &[u8]) -> evidence::Decision {
    let mut e = MapEvidence::new(Some(0));
    e.add(&TileEvidence::of(bytes));
    evidence::decide(&e, None)
}

#[test]
fn rugged_v18_tiles_never_read_as_0_6_0() {
    for kind in 0..4 {
        let mut tile = plain_tile();
        rugged(kind, &mut tile);
        let bytes = v18::write_adt(&tile, AlphaTarget { big: false });
        let d = decide_bytes(&bytes);
        assert_eq!(d.generation, Generation::V112, "shape {kind}: {d}");
        assert!(d.reason.contains("1.12 assumed"), "{d}");

        // And through a map folder: the heights come back as written, not garbled.
        let dir = tempfile::tempdir().unwrap();
        let mut map = Map::new("Rug");
        map.tile_flags[tile.coord.index()] = TILE_PRESENT;
        disk::write_atomic(&dir.path().join("Rug.wdt"), &v18::write_wdt(&map)).unwrap();
        let name = disk::tile_file_name("Rug", tile.coord);
        disk::write_atomic(&dir.path().join(name), &bytes).unwrap();
        let opened = pipeline::open_map(&dir.path().join("Rug.wdt")).unwrap();
        assert_eq!(opened.generation, Generation::V112);
        for (a, b) in opened.map.tiles[&tile.coord]
            .chunks
            .iter()
            .zip(&tile.chunks)
        {
            for (x, y) in a.heights.iter().zip(b.heights.iter()) {
                assert!((x - y).abs() < 0.01, "shape {kind}: {x} vs {y}");
            }
        }
    }
}

#[test]
fn real_3_3_5_tiles_say_why_they_are_3_3_5() {
    let bytes = std::fs::read(corpus_file("warcraft-net/ADT/Northrend_37_25.adt")).unwrap();
    let d = decide_bytes(&bytes);
    assert_eq!(d.generation, Generation::V335);
    assert!(d.reason.contains("MH2O in 1 tile"), "{d}");
    assert!(d.reason.contains("MCCV in 1 tile"), "{d}");
    // pvpzone's legacy MCLQ is the v18 804-byte kind, never 0.6.0's.
    let bytes = std::fs::read(corpus_file("wowserhq-format/map/pvpzone3430.adt")).unwrap();
    let e = TileEvidence::of(&bytes);
    assert!(e.mclq_v18 > 0 && e.mclq_060 == 0, "{e:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any heights at all: a v18 tile reads as v18 and its heights survive.
    #[test]
    fn random_v18_tiles_read_as_v18(seed in any::<u64>(), scale in 1.0f32..2000.0) {
        let mut tile = plain_tile();
        let mut rng = Lcg(seed);
        for c in &mut tile.chunks {
            for h in c.heights.iter_mut() {
                *h = rng.next() * scale;
            }
        }
        let bytes = v18::write_adt(&tile, AlphaTarget { big: false });
        prop_assert_ne!(decide_bytes(&bytes).generation, Generation::V060);
        let back = v18::read_adt(&bytes, Some(tile.coord), AlphaDepth::Nibble).unwrap();
        for (a, b) in back.chunks.iter().zip(&tile.chunks) {
            for (x, y) in a.heights.iter().zip(b.heights.iter()) {
                prop_assert!((x - y).abs() <= 1e-3 * scale.max(1.0));
            }
        }
    }
}

#[test]
fn a_0_6_0_tile_without_liquid_opens_as_0_6_0_when_the_user_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut tile = plain_tile();
    rugged(2, &mut tile);
    for c in &mut tile.chunks {
        c.liquid = None;
    }
    let mut map = Map::new("Old");
    map.tile_flags[tile.coord.index()] = TILE_PRESENT;
    map.tiles.insert(tile.coord, tile.clone());
    disk::write_atomic(&dir.path().join("Old.wdt"), &v060::write_wdt(&map)).unwrap();
    let file = dir.path().join(disk::tile_file_name("Old", tile.coord));
    disk::write_atomic(&file, &v060::write_adt(&tile)).unwrap();
    let wdt = dir.path().join("Old.wdt");

    // The bytes cannot tell: 1.12 is assumed, and info says so.
    let o = common::loam_ok(&["info", s(&wdt)]);
    assert!(
        text(&o).contains("generation 1.12") && text(&o).contains("1.12 assumed"),
        "{}",
        text(&o)
    );
    let o = loam(&["info", s(&wdt), "--from", "0.6.0"]);
    assert!(text(&o).contains("generation 0.6.0"), "{}", text(&o));
    assert!(text(&o).contains("as --from"), "{}", text(&o));

    let opened = pipeline::open_map_as(&wdt, Some(Generation::V060)).unwrap();
    assert_eq!(opened.generation, Generation::V060);
    let back = &opened.map.tiles[&tile.coord];
    for (a, b) in back.chunks.iter().zip(&tile.chunks) {
        for (x, y) in a.heights.iter().zip(b.heights.iter()) {
            assert!((x - y).abs() < 0.01);
        }
    }
}

#[test]
fn one_bad_tile_does_not_stop_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = sample_with_a_bad_tile(dir.path());

    let opened = pipeline::open_map(&wdt).unwrap();
    assert_eq!(opened.map.tiles.len(), 3);
    let (bad, why) = opened.failed.iter().next().unwrap();
    assert_eq!((bad.x, bad.y), (32, 31));
    assert!(why.contains("Sample_32_31.adt"), "{why}");
    assert!(why.contains("at byte"), "the error names where: {why}");

    let o = common::loam_ok(&["info", s(&wdt)]);
    assert!(
        text(&o).contains("1 unreadable") && text(&o).contains("unreadable 32_31"),
        "{}",
        text(&o)
    );
    let o = loam(&["check", s(&wdt)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("tile 32_31 cannot be read"),
        "{}",
        text(&o)
    );

    let out = tempfile::tempdir().unwrap();
    let o = loam(&["convert", "--to", "1.12", s(&wdt), s(out.path())]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("Sample_32_31.adt not written"),
        "{}",
        text(&o)
    );
    for name in [
        "Sample.wdt",
        "Sample_31_31.adt",
        "Sample_31_32.adt",
        "Sample_32_32.adt",
    ] {
        assert!(out.path().join(name).is_file(), "{name} written");
    }
    assert!(!out.path().join("Sample_32_31.adt").exists());
    let back = pipeline::open_map(&out.path().join("Sample.wdt")).unwrap();
    assert_eq!(back.map.tiles.len(), 3);
    for (c, t) in &back.map.tiles {
        assert_eq!(t.chunks[17].heights, opened.map.tiles[c].chunks[17].heights);
    }

    let ops = dir.path().join("ops.json");
    std::fs::write(&ops, r#"{"ops": []}"#).unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = loam(&["apply", s(&wdt), s(&ops), "--to", "3.3.5", s(out.path())]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(out.path().join("Sample_31_31.adt").is_file());
}

#[test]
fn a_folder_of_tiles_without_a_wdt_is_a_map() {
    let src = tempfile::tempdir().unwrap();
    loam::sample::write_sample(src.path()).unwrap();
    let original = pipeline::open_map(&src.path().join("Sample.wdt")).unwrap();
    std::fs::remove_file(src.path().join("Sample.wdt")).unwrap();
    // Tiles copied from Windows arrive in any case.
    std::fs::rename(
        src.path().join("Sample_32_32.adt"),
        src.path().join("sample_32_32.ADT"),
    )
    .unwrap();

    for path in [
        src.path().to_path_buf(),
        src.path().join("Sample_31_31.adt"),
    ] {
        let opened = pipeline::open_map(&path).unwrap();
        assert_eq!(opened.kind, MapKind::Folder, "{}", path.display());
        assert_eq!(opened.map.tiles.len(), 4);
        assert_eq!(opened.map.present_tiles().len(), 4);
        assert_eq!(opened.generation, original.generation);
        assert_eq!(opened.map.flags, original.map.flags, "flags inferred");
        for (c, t) in &original.map.tiles {
            assert_eq!(&opened.map.tiles[c], t);
        }
    }

    let o = common::loam_ok(&["info", s(src.path())]);
    assert!(text(&o).contains("without a WDT"), "{}", text(&o));
    common::loam_ok(&["check", s(src.path())]);

    let out = tempfile::tempdir().unwrap();
    let o = common::loam_ok(&["convert", "--to", "3.3.5", s(src.path()), s(out.path())]);
    assert!(text(&o).contains("WDT written"), "{}", text(&o));
    let back = pipeline::open_map(&out.path().join("Sample.wdt")).unwrap();
    assert_eq!(back.kind, MapKind::SplitWdt);
    assert_eq!(back.map.tiles, original.map.tiles);
    assert_eq!(back.map.flags, original.map.flags);
    assert_eq!(back.map.present_tiles(), original.map.present_tiles());
}

#[test]
fn a_folder_with_two_maps_names_them() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["A_1_1.adt", "B_2_2.adt"] {
        std::fs::write(dir.path().join(name), b"x").unwrap();
    }
    let err = pipeline::open_map(dir.path()).unwrap_err().to_string();
    assert!(err.contains("several maps (A, B)"), "{err}");
    let empty = tempfile::tempdir().unwrap();
    let err = pipeline::open_map(empty.path()).unwrap_err().to_string();
    assert!(err.contains("no .wdt"), "{err}");
}

#[test]
fn stopping_the_scan_at_the_first_proof_decides_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let tile = std::fs::read(corpus_file("wowserhq-format/map/continent4229.adt")).unwrap();
    let mut map = Map::new("Cont");
    for x in 10..16 {
        let c = loam::model::TileCoord::new(x, 20).unwrap();
        map.tile_flags[c.index()] = TILE_PRESENT;
        std::fs::write(dir.path().join(disk::tile_file_name("Cont", c)), &tile).unwrap();
    }
    std::fs::write(dir.path().join("Cont.wdt"), v18::write_wdt(&map)).unwrap();
    let source = pipeline::locate(&dir.path().join("Cont.wdt")).unwrap();
    let header = source.split_header().unwrap();
    let (full, e_full) = pipeline::open::decide_split(&source, header.as_ref(), None, false);
    let (quick, e_quick) = pipeline::open::decide_split(&source, header.as_ref(), None, true);
    assert_eq!(full.generation, Generation::V335);
    assert_eq!(quick.generation, full.generation);
    assert_eq!(e_full.tiles, 6);
    assert_eq!(e_quick.tiles + e_quick.skipped, 6);
    assert!(e_quick.tiles >= 1);
}
