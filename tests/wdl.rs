//! WDL files (`loam wdl`, `format::wdl`, `pipeline::wdl`): every stored height is the map's own
//! height at the sample point, rounded; MAOF points at each tile's MARE; `loam check` validates
//! a WDL beside its map; bad bytes never panic the reader.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::Path;
use std::process::Command;

use common::*;
use loam::format::Generation;
use loam::format::wdl;
use loam::model::coords::vertex_world_xy;
use loam::model::{Map, Tile, TileCoord};
use loam::pipeline::{self, wdl as disk_wdl};
use proptest::prelude::*;

/// Yards across a chunk, written out here rather than taken from the code under test.
const CHUNK: f64 = 1600.0 / 3.0 / 16.0;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Every vertex height of a tile by world position (to a hundredth of a yard); a point on a
/// chunk border has one height per chunk that shares it.
fn heights_by_position(tile: &Tile) -> HashMap<(i64, i64), Vec<f32>> {
    let mut out: HashMap<(i64, i64), Vec<f32>> = HashMap::new();
    for cy in 0..16 {
        for cx in 0..16 {
            let c = tile.chunk(cx, cy);
            for v in 0..145 {
                let [x, y] = vertex_world_xy(tile.coord, cx, cy, v);
                out.entry(key(x, y)).or_default().push(c.heights[v]);
            }
        }
    }
    out
}

fn key(x: f64, y: f64) -> (i64, i64) {
    ((x * 100.0).round() as i64, (y * 100.0).round() as i64)
}

/// Checks the WDL bytes against `map`: the MAOF entry of every tile points at a MARE of 1090
/// bytes (then a MAHO of 32 when `holes`), no other entry is set, and every height is the
/// tile's height at that sample point, rounded to the nearest yard.
fn assert_wdl_matches(bytes: &[u8], map: &Map, holes: bool) {
    assert_eq!(&bytes[0..4], b"REVM");
    assert_eq!(u32_at(bytes, 8), 18);
    assert_eq!(&bytes[12..16], b"FOAM");
    assert_eq!(u32_at(bytes, 16), 4096 * 4);
    let mut set = 0;
    for index in 0..4096 {
        let offset = u32_at(bytes, 20 + index * 4) as usize;
        let coord = TileCoord::from_index(index).unwrap();
        let Some(tile) = map.tiles.get(&coord) else {
            assert_eq!(offset, 0, "MAOF entry of absent tile {coord:?}");
            continue;
        };
        set += 1;
        assert_eq!(&bytes[offset..offset + 4], b"ERAM", "MAOF of {coord:?}");
        assert_eq!(u32_at(bytes, offset + 4), 1090);
        let after = offset + 8 + 1090;
        if holes {
            assert_eq!(&bytes[after..after + 4], b"OHAM");
            assert_eq!(u32_at(bytes, after + 4), 32);
        } else {
            assert!(bytes.len() == after || &bytes[after..after + 4] == b"ERAM");
        }
        let stored =
            |k: usize| i16::from_le_bytes([bytes[offset + 8 + 2 * k], bytes[offset + 9 + 2 * k]]);
        let heights = heights_by_position(tile);
        let expect = |k: usize, x: f64, y: f64, what: String| {
            let at = heights
                .get(&key(x, y))
                .unwrap_or_else(|| panic!("no vertex at {what}"));
            assert!(
                at.iter().any(|h| h.round() as i16 == stored(k)),
                "{what}: stored {} but the tile has {at:?}",
                stored(k)
            );
        };
        let [nx, ny] = [
            (32.0 - coord.y as f64) * 16.0 * CHUNK,
            (32.0 - coord.x as f64) * 16.0 * CHUNK,
        ];
        for r in 0..17 {
            for c in 0..17 {
                let (x, y) = (nx - r as f64 * CHUNK, ny - c as f64 * CHUNK);
                expect(r * 17 + c, x, y, format!("{coord:?} outer {r},{c}"));
            }
        }
        for r in 0..16 {
            for c in 0..16 {
                let x = nx - (r as f64 + 0.5) * CHUNK;
                let y = ny - (c as f64 + 0.5) * CHUNK;
                expect(289 + r * 16 + c, x, y, format!("{coord:?} inner {r},{c}"));
            }
        }
    }
    assert_eq!(set, map.tiles.len());
}

fn loam(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn loam_wdl_stores_the_sample_maps_heights_at_every_sample_point() {
    let dir = tempfile::tempdir().unwrap();
    loam::sample::write_sample(dir.path()).unwrap();
    let wdt = dir.path().join("Sample.wdt");
    let out = dir.path().join("out");
    let run = loam(&[
        "wdl".as_ref(),
        wdt.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(run.status.success(), "{run:?}");
    let bytes = fs::read(out.join("Sample.wdl")).unwrap();
    let opened = pipeline::open_map(&wdt).unwrap();
    assert_eq!(opened.generation, Generation::V335);
    assert_wdl_matches(&bytes, &opened.map, true);
}

#[test]
fn a_corpus_tile_of_each_generation_is_sampled_exactly() {
    // Real Blizzard heights (steep Northrend, flat-ish Azeroth) in a folder of one tile, as
    // 1.12 (no MAHO) and 3.3.5 (MAHO).
    for rel in [
        "warcraft-net/ADT/Northrend_37_25.adt",
        "blizzardry/Azeroth_38_46.adt",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = corpus_file(rel);
        fs::copy(&file, dir.path().join(file.file_name().unwrap())).unwrap();
        let opened = pipeline::open_map(dir.path()).unwrap();
        for g in [Generation::V112, Generation::V335] {
            let low = disk_wdl::compute(dir.path(), None, Some(g)).unwrap();
            assert!(low.failed.is_empty());
            let path =
                disk_wdl::write_wdl(&dir.path().join(g.label()), &low.name, &low.tiles).unwrap();
            assert_wdl_matches(
                &fs::read(&path).unwrap(),
                &opened.map,
                g == Generation::V335,
            );
        }
    }
}

#[test]
fn a_chunk_that_is_all_hole_sets_its_maho_bit_in_335_only() {
    let mut tile = Tile::flat(TileCoord::new(10, 20).unwrap(), "t.blp", 5.0);
    tile.chunk_mut(3, 5).holes = 0xFFFF;
    tile.chunk_mut(4, 5).holes = 0x0001; // partly a hole: the distant terrain keeps it
    let t = disk_wdl::wdl_tile(&tile, Generation::V335);
    let mut want = [0u16; 16];
    want[5] = 1 << 3;
    assert_eq!(t.holes, Some(want));
    assert_eq!(disk_wdl::wdl_tile(&tile, Generation::V112).holes, None);
    assert_eq!(disk_wdl::wdl_tile(&tile, Generation::Alpha053).holes, None);
    assert!(t.heights.iter().all(|&h| h == 5));
}

#[test]
fn convert_writes_a_wdl_of_the_converted_heights_for_every_generation() {
    let dir = tempfile::tempdir().unwrap();
    let src = sample_in(dir.path().join("src"));
    for g in Generation::ALL {
        let out = dir.path().join(g.label());
        let run = loam(&[
            "convert".as_ref(),
            "--to".as_ref(),
            g.label().as_ref(),
            src.join("Sample.wdt").as_os_str(),
            out.as_os_str(),
        ]);
        assert!(run.status.success(), "{g}: {run:?}");
        let back = pipeline::open_map_as(&out.join("Sample.wdt"), Some(g)).unwrap();
        assert_wdl_matches(
            &fs::read(out.join("Sample.wdl")).unwrap(),
            &back.map,
            g == Generation::V335,
        );
    }
    let out = dir.path().join("none");
    let run = loam(&[
        "convert".as_ref(),
        "--no-wdl".as_ref(),
        "--to".as_ref(),
        "1.12".as_ref(),
        src.join("Sample.wdt").as_os_str(),
        out.as_os_str(),
    ]);
    assert!(run.status.success());
    assert!(!out.join("Sample.wdl").exists());
}

/// Problems `loam check` prints for the map in `dir`, and whether it succeeded.
fn check(dir: &Path) -> (bool, String) {
    let run = loam(&["check".as_ref(), dir.join("Sample.wdt").as_os_str()]);
    (
        run.status.success(),
        String::from_utf8_lossy(&run.stdout).to_string(),
    )
}

#[test]
fn check_validates_a_wdl_beside_the_map() {
    let dir = tempfile::tempdir().unwrap();
    loam::sample::write_sample(dir.path()).unwrap();
    let wdl_path = dir.path().join("Sample.wdl");
    let low = disk_wdl::compute(dir.path(), None, None).unwrap();
    disk_wdl::write_wdl(dir.path(), "Sample", &low.tiles).unwrap();
    let good = fs::read(&wdl_path).unwrap();
    let (ok, text) = check(dir.path());
    assert!(ok, "{text}");

    // A tile the WDT lists has no MARE.
    let mut bytes = good.clone();
    let first = TileCoord::new(31, 31).unwrap().index();
    bytes[20 + first * 4..24 + first * 4].fill(0);
    fs::write(&wdl_path, &bytes).unwrap();
    let (ok, text) = check(dir.path());
    assert!(
        !ok && text.contains("tile 31_31") && text.contains("no MARE"),
        "{text}"
    );

    // A MAOF entry that points at no MARE: an error naming the chunk and the offset.
    let mut bytes = good.clone();
    bytes[20 + first * 4..24 + first * 4].copy_from_slice(&40u32.to_le_bytes());
    fs::write(&wdl_path, &bytes).unwrap();
    let (ok, text) = check(dir.path());
    assert!(
        !ok && text.contains("MARE") && text.contains("byte 40"),
        "{text}"
    );

    // A tile the WDT does not list.
    let mut tiles = low.tiles.clone();
    let extra = TileCoord::new(1, 1).unwrap();
    tiles.insert(extra, tiles.values().next().unwrap().clone());
    fs::write(&wdl_path, wdl::write(&tiles)).unwrap();
    let (ok, text) = check(dir.path());
    assert!(!ok && text.contains("tile 1_1"), "{text}");

    // Heights far from the tile's: a warning only.
    let mut tiles = low.tiles.clone();
    let t = tiles.get_mut(&TileCoord::new(32, 32).unwrap()).unwrap();
    t.heights[100] = t.heights[100].saturating_add(60);
    fs::write(&wdl_path, wdl::write(&tiles)).unwrap();
    let (ok, text) = check(dir.path());
    assert!(ok, "{text}");
    assert!(
        text.contains("warning") && text.contains("tile 32_32") && text.contains("60 yd"),
        "{text}"
    );
}

/// A small valid WDL to corrupt.
fn small_wdl(holes: bool) -> Vec<u8> {
    let mut tiles = BTreeMap::new();
    for (x, y) in [(0, 0), (5, 9), (63, 63)] {
        let mut heights = Box::new([0i16; 545]);
        for (i, h) in heights.iter_mut().enumerate() {
            *h = (i as i16).wrapping_mul(7);
        }
        tiles.insert(
            TileCoord::new(x, y).unwrap(),
            wdl::WdlTile {
                heights,
                holes: holes.then_some([0x00F0; 16]),
            },
        );
    }
    wdl::write(&tiles)
}

fn check_error(e: &loam::format::FormatError, len: usize) {
    assert!(
        e.offset as usize <= len,
        "offset {} past {len}: {e}",
        e.offset
    );
    let shown = e.to_string();
    assert!(
        shown.contains("chunk ") && shown.contains("byte "),
        "{shown}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_never_panic_the_wdl_reader(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        if let Err(e) = wdl::read(&bytes) {
            check_error(&e, bytes.len());
        }
    }

    #[test]
    fn corrupted_wdls_fail_cleanly(holes in any::<bool>(), at in 0usize..20_000, value in any::<u32>(), cut in 0usize..21_000) {
        let mut bytes = small_wdl(holes);
        let at = at % bytes.len().saturating_sub(4).max(1);
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        bytes.truncate(cut.min(bytes.len()));
        match wdl::read(&bytes) {
            Ok(w) => prop_assert!(w.tiles.len() <= 4096),
            Err(e) => check_error(&e, bytes.len()),
        }
    }
}

#[test]
fn a_save_updates_the_saved_tiles_in_an_existing_wdl_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    loam::sample::write_sample(dir.path()).unwrap();
    // No WDL beside the map: none is made.
    let mut opened = pipeline::open_map(&dir.path().join("Sample.wdt")).unwrap();
    let edited = TileCoord::new(31, 32).unwrap();
    let tile = opened.map.tiles.get_mut(&edited).unwrap();
    for c in &mut tile.chunks {
        for h in c.heights.iter_mut() {
            *h += 100.0;
        }
    }
    let tile = opened.map.tiles[&edited].clone();
    let none = disk_wdl::update_beside(dir.path(), "Sample", Generation::V335, [&tile]).unwrap();
    assert!(none.is_none() && !dir.path().join("Sample.wdl").exists());

    let low = disk_wdl::compute(dir.path(), None, None).unwrap();
    disk_wdl::write_wdl(dir.path(), "Sample", &low.tiles).unwrap();
    let path = disk_wdl::update_beside(dir.path(), "Sample", Generation::V335, [&tile])
        .unwrap()
        .unwrap();
    let back = disk_wdl::read_wdl(&path).unwrap();
    for (c, t) in &low.tiles {
        if *c == edited {
            // Sampled anew from the tile in memory (sampling itself is checked above).
            assert_eq!(back.tiles[c], disk_wdl::wdl_tile(&tile, Generation::V335));
            for (new, old) in back.tiles[c].heights.iter().zip(t.heights.iter()) {
                assert!((new - old - 100).abs() <= 1, "{c:?}: {old} → {new}");
            }
        } else {
            assert_eq!(&back.tiles[c], t, "{c:?} untouched");
        }
    }
}
