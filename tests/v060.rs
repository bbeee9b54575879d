//! The 0.6.0 split WDT + ADT codec against the corpus: 3.3.5 tiles written as 0.6.0 read back
//! with the same terrain (also through `pipeline::open_map`, which must tell them from v18), the
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
use loam::pipeline;

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
    let opened = pipeline::open_map(&dir.path().join("Test.wdt")).unwrap();
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

/// Every corpus tile's own border vertices meet in 1.12's order, and the same tile written as
/// 0.6.0 meets only in 0.6.0's: the fact that tells loam's 0.6.0 maps without liquid from 1.12.
#[test]
fn chunk_borders_prove_the_height_order_of_every_corpus_tile_both_ways() {
    use loam::format::evidence::VertexOrder;
    for (rel, _, tile) in corpus_tiles(&ADTS) {
        let original = TileEvidence::of(&std::fs::read(corpus_file(rel)).unwrap());
        assert_eq!(
            original.vertex_order(),
            Some(VertexOrder::Interleaved),
            "{rel}: {original:?}"
        );
        let written = TileEvidence::of(&v060::write_adt(&tile));
        assert_eq!(
            written.vertex_order(),
            Some(VertexOrder::OuterFirst),
            "{rel}: {written:?}"
        );
        let mut e = MapEvidence::new(None);
        e.add(&written);
        assert_eq!(
            evidence::decide(&e, None).generation,
            Generation::V060,
            "{rel}"
        );
    }
}

/// A flat tile meets under both orders and a torn one under neither: neither proves anything,
/// and the map stays "1.12 assumed".
#[test]
fn flat_and_torn_tiles_prove_no_height_order() {
    let flat = Tile::flat(
        loam::model::TileCoord::new(30, 30).unwrap(),
        "grass.blp",
        12.5,
    );
    let mut torn = flat.clone();
    for (i, chunk) in torn.chunks.iter_mut().enumerate() {
        // Every chunk at a height of its own, sloped within itself: no border meets either way.
        for (k, h) in chunk.heights.iter_mut().enumerate() {
            *h = 40.0 * (i % 7) as f32 + 3.0 * (i / 16) as f32 + 0.25 * k as f32;
        }
    }
    for (what, tile) in [("flat", &flat), ("torn", &torn)] {
        for bytes in [
            v060::write_adt(tile),
            v18::write_adt(tile, v18::AlphaTarget { big: false }),
        ] {
            let e = TileEvidence::of(&bytes);
            assert_eq!(e.vertex_order(), None, "{what}: {e:?}");
            let mut m = MapEvidence::new(None);
            m.add(&e);
            let d = evidence::decide(&m, None);
            assert_eq!(d.generation, Generation::V112, "{what}: {d}");
            assert!(d.assumed, "{what}: {d}");
        }
    }
}

/// Heights as an independent reader (the `wow-adt` crate) sees them: each chunk's base z plus
/// its 145 stored values.
fn absolute_heights_by_wow_adt(path: &std::path::Path) -> Vec<Vec<f32>> {
    let mut f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let wow_adt::ParsedAdt::Root(root) = wow_adt::parse_adt(&mut f).unwrap() else {
        panic!("{}: not a root ADT", path.display())
    };
    root.mcnk_chunks
        .iter()
        .map(common::absolute_heights)
        .collect()
}

/// `loam convert --to 0.6.0`, then `--to 3.3.5` with no `--from`, of each corpus tile in a map
/// folder: the second convert reads loam's 0.6.0 as 0.6.0 (with or without liquid) and gives
/// back the original's heights, as wow-adt reads both.
#[test]
fn loams_own_0_6_0_reads_back_as_0_6_0_and_converts_back_to_the_original() {
    for (rel, _, tile) in corpus_tiles(&ADTS) {
        let dir = tempfile::tempdir().unwrap();
        let (src, mid, out) = (
            dir.path().join("src"),
            dir.path().join("mid"),
            dir.path().join("out"),
        );
        std::fs::create_dir_all(&src).unwrap();
        let name = disk::tile_file_name("Test", tile.coord);
        std::fs::copy(corpus_file(rel), src.join(&name)).unwrap();
        let loam = |args: &[&std::path::Path], to: &str| {
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_loam"))
                .args(["convert", "--to", to])
                .args(args)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{rel}: convert --to {to}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        };
        loam(&[&src, &mid], "0.6.0");
        let opened = pipeline::open_map(&mid).unwrap();
        assert_eq!(
            opened.generation,
            Generation::V060,
            "{rel}: {}",
            opened.decision
        );
        assert!(!opened.decision.assumed, "{rel}: {}", opened.decision);
        loam(&[&mid, &out], "3.3.5");
        let want = absolute_heights_by_wow_adt(&corpus_file(rel));
        let got = absolute_heights_by_wow_adt(&out.join(&name));
        assert_eq!(got.len(), 256, "{rel}");
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            for (k, (a, b)) in w.iter().zip(g).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-3,
                    "{rel}: chunk {i} vertex {k}: {a} became {b}"
                );
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Seamless terrain of any roughness (each lattice vertex's height drawn at random, from
    /// gentle to cliffs of hundreds of yards, with per-chunk bases anywhere): written as 1.12 its
    /// borders prove the interleaved order, written as 0.6.0 the outer-first one, and never the
    /// other way round.
    #[test]
    fn seamless_terrain_of_any_roughness_proves_its_own_order_only(
        seed in 0u64..u64::MAX,
        amplitude in 0.5f32..600.0,
        base_spread in 0.0f32..400.0,
    ) {
        use loam::format::evidence::VertexOrder;
        let coord = loam::model::TileCoord::new(31, 31).unwrap();
        let mut tile = Tile::flat(coord, "grass.blp", 0.0);
        // One height per lattice point of the tile (129 × 129 outer, 128 × 128 inner), so that
        // every copy of a shared vertex gets the same value.
        let hash = |a: u64, b: u64, inner: u64| {
            let mut x = seed ^ (a.wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ (b << 32) ^ (inner << 63);
            x ^= x >> 33;
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 33;
            (x % 1_000_000) as f32 / 1_000_000.0
        };
        for (i, chunk) in tile.chunks.iter_mut().enumerate() {
            let (cx, cy) = ((i % 16) as u64, (i / 16) as u64);
            chunk.base_height = (hash(cx, cy, 1) - 0.5) * base_spread;
            for r in 0..9u64 {
                for c in 0..9u64 {
                    let h = hash(cx * 8 + c, cy * 8 + r, 0) * amplitude;
                    chunk.heights[loam::model::coords::outer_vertex(r as usize, c as usize)] = h;
                }
            }
            for r in 0..8u64 {
                for c in 0..8u64 {
                    let h = hash(cx * 8 + c, cy * 8 + r, 1) * amplitude;
                    chunk.heights[loam::model::coords::inner_vertex(r as usize, c as usize)] = h;
                }
            }
        }
        let v18_order = TileEvidence::of(&v18::write_adt(&tile, v18::AlphaTarget { big: false }))
            .vertex_order();
        let v060_order = TileEvidence::of(&v060::write_adt(&tile)).vertex_order();
        proptest::prop_assert_eq!(v18_order, Some(VertexOrder::Interleaved));
        proptest::prop_assert_eq!(v060_order, Some(VertexOrder::OuterFirst));
    }
}
