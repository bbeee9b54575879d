//! `loam fix` repairs a map tile by tile (two passes over its files; seams stitched per tile
//! against the neighbours' border strips, `edit::terrain::tile_stitch`), so that a 64×64 map is fixed in
//! the memory of a few tiles. Its result must be the whole map's fix: the same heights and
//! normals in every tile, the same new uniqueIds, the same report lines and the same bytes as
//! `fix::apply` on the map opened whole and encoded.

mod common;
mod seamy;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use loam::cli::fix::{self, Fixes};
use loam::disk;
use loam::edit::terrain::seams;
use loam::edit::terrain::tile_stitch::{self, BorderStrip};
use loam::model::coords::outer_vertex;
use loam::model::{Map, Tile, TileCoord};
use loam::pipeline;

/// A 3×3-tile map whose every chunk has its own random heights (every border a seam, corners of
/// four different copies), on bases that differ per chunk, and non-finite heights in one place.
fn rough_map() -> Map {
    let mut map = Map::new("Rough");
    let mut next = seamy::xorshift(0x9e37_79b9);
    for y in 10..13 {
        for x in 20..23 {
            let c = TileCoord::new(x, y).unwrap();
            let mut t = Tile::flat(c, "A.blp", 0.0);
            for chunk in t.chunks.iter_mut() {
                chunk.base_height = 100.0 * next();
                for h in chunk.heights.iter_mut() {
                    *h = chunk.base_height + 30.0 * next();
                }
            }
            map.tiles.insert(c, t);
        }
    }
    // A vertex with a copy that is not a number is left alone by both.
    let t = map.tiles.get_mut(&TileCoord::new(21, 11).unwrap()).unwrap();
    t.chunk_mut(0, 5).heights[outer_vertex(3, 0)] = f32::NAN;
    map
}

/// Heights bit for bit (NaN included) and normals of every chunk.
fn assert_same_terrain(a: &Tile, b: &Tile) {
    let bits = |h: &[f32]| h.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for (i, (p, q)) in a.chunks.iter().zip(&b.chunks).enumerate() {
        let c = a.coord;
        assert!(
            bits(&p.heights[..]) == bits(&q.heights[..]),
            "tile {c:?} chunk {i}: heights"
        );
        assert!(p.normals == q.normals, "tile {c:?} chunk {i}: normals");
    }
}

#[test]
fn a_tile_stitched_against_its_neighbours_strips_is_the_whole_maps_stitch() {
    let map = rough_map();
    let mut whole = map.clone();
    // Torn everywhere: most shared vertices differ.
    assert!(seams::stitch(&mut whole, |_, _, _| {}).vertices > 9 * 2000);
    assert_tile_stitch_is_whole_stitch(&map);
}

/// `map` stitched whole and tile by tile against the other tiles' strips: the same terrain and
/// the same counts.
fn assert_tile_stitch_is_whole_stitch(map: &Map) {
    let mut whole = map.clone();
    let expected = seams::stitch(&mut whole, |_, _, _| {});
    // Every tile's strip, its own and far ones included: only the eight around it count.
    let strips: BTreeMap<TileCoord, BorderStrip> = map
        .tiles
        .iter()
        .map(|(c, t)| (*c, BorderStrip::of(t)))
        .collect();
    let (mut vertices, mut largest, mut chunks) = (0, 0f32, 0);
    for (c, t) in &map.tiles {
        let mut tile = t.clone();
        let s = tile_stitch::stitch_tile(&mut tile, &strips);
        assert_same_terrain(&tile, &whole.tiles[c]);
        vertices += s.vertices;
        largest = largest.max(s.largest);
        chunks += s.chunks;
    }
    assert_eq!(vertices, expected.vertices);
    assert_eq!(largest, expected.largest);
    assert_eq!(chunks, expected.chunks.len());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 12, ..Default::default() })]

    /// Any tiles of a 3×3 window, at the map's corner, edge or middle, with torn borders of any
    /// size in any chunks.
    #[test]
    fn any_tiles_stitched_one_by_one_are_stitched_as_the_whole_map(
        corner in 0usize..3,
        present in 1u16..512,
        tears in proptest::collection::vec(
            (0usize..9, 0usize..256, 0usize..145, -40.0f32..40.0), 0..200),
    ) {
        let origin = [0, 31, 61][corner];
        let mut map = Map::new("Any");
        for k in 0..9 {
            if present & (1 << k) != 0 {
                let c = TileCoord::new(origin + k % 3, origin + k / 3).unwrap();
                map.tiles.insert(c, Tile::flat(c, "A.blp", 10.0 * k as f32));
            }
        }
        for (k, chunk, vertex, by) in tears {
            let c = TileCoord::new(origin + k % 3, origin + k / 3).unwrap();
            if let Some(t) = map.tiles.get_mut(&c) {
                t.chunks[chunk].heights[vertex] += by;
            }
        }
        assert_tile_stitch_is_whole_stitch(&map);
    }
}

#[test]
fn a_tile_without_neighbours_is_stitched_inside_only() {
    let map = rough_map();
    let c = TileCoord::new(21, 11).unwrap();
    let mut alone = Map::new("Rough");
    alone.tiles.insert(c, map.tiles[&c].clone());
    let expected = seams::stitch(&mut alone, |_, _, _| {});
    let mut tile = map.tiles[&c].clone();
    let s = tile_stitch::stitch_tile(&mut tile, &BTreeMap::new());
    assert_same_terrain(&tile, &alone.tiles[&c]);
    assert_eq!(s.vertices, expected.vertices);
    assert_eq!(s.chunks, expected.chunks.len());
}

fn loam(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(args)
        .output()
        .expect("loam runs")
}

/// Every file in `dir`, by name.
fn files_in(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Runs `loam fix` with `flags` on `map` and compares what it writes and prints with the whole
/// map fixed by `fix::apply` and encoded; returns the printed report.
fn assert_fix_as_whole(map: &Path, flags: &[&str], fixes: &Fixes) -> String {
    let out = tempfile::tempdir().unwrap();
    let mut args: Vec<&std::ffi::OsStr> = vec!["fix".as_ref()];
    args.extend(flags.iter().map(std::ffi::OsStr::new));
    args.extend([map.as_os_str(), out.path().as_os_str()]);
    let o = loam(&args);
    let printed = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{printed}{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let mut opened = pipeline::open_map(map).unwrap();
    let lines = fix::apply(&mut opened.map, fixes);
    let expected: BTreeMap<String, Vec<u8>> =
        pipeline::encode_map(&opened.map, opened.generation, opened.writes_wdt(), None)
            .unwrap()
            .into_iter()
            .map(|f| (f.name, f.bytes))
            .collect();
    let written = files_in(out.path());
    assert_eq!(
        written.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "{}: the files written",
        map.display()
    );
    for (name, bytes) in &expected {
        common::assert_same_bytes(name, bytes, &written[name]);
    }
    let report: Vec<&str> = printed
        .lines()
        .filter(|l| !l.starts_with("wrote "))
        .collect();
    assert_eq!(report, lines, "{}: the report", map.display());
    printed
}

#[test]
fn fix_tile_by_tile_rebases_the_chunks_the_whole_maps_fix_rebases() {
    // Bases other tools leave: some chunks need base 0 for their seams to close, decided from
    // each vertex's own copies, so a tile fixed against its neighbours' strips agrees.
    let dir = tempfile::tempdir().unwrap();
    let wdt = seamy::write_with_scattered_bases(&dir.path().join("scattered"));
    let seams_only = Fixes {
        seams: true,
        ..Fixes::default()
    };
    assert_fix_as_whole(&wdt, &["--seams"], &seams_only);
}

#[test]
fn shadows_baked_tile_by_tile_are_the_whole_maps() {
    // Each tile is baked over its neighbours' heights kept from the first pass; a low sun casts
    // across tile borders, so a tile baked without them would differ.
    let dir = tempfile::tempdir().unwrap();
    let wdt = seamy::write(&dir.path().join("seamy"));
    let sun = loam::edit::derived::shadows::Sun::new(300.0, 8.0).unwrap();
    let shadows = Fixes {
        shadows: Some(sun),
        ..Fixes::default()
    };
    let printed = assert_fix_as_whole(&wdt, &["--shadows", "--sun", "300", "8"], &shadows);
    assert!(printed.contains("shadows: 1024 chunks baked"), "{printed}");
}

#[test]
fn fix_reads_a_map_tile_by_tile_and_writes_what_the_whole_maps_fix_writes() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = seamy::write(&dir.path().join("seamy"));
    // Two doodads take the uids of other doodads in another tile.
    let mut opened = pipeline::open_map(&wdt).unwrap();
    let at = |x, y| TileCoord::new(x, y).unwrap();
    let first = &opened.map.tiles[&at(31, 31)];
    let (a, b) = (first.doodads[0].unique_id, first.doodads[1].unique_id);
    opened.map.tiles.get_mut(&at(32, 32)).unwrap().doodads[0].unique_id = a;
    opened.map.tiles.get_mut(&at(31, 32)).unwrap().doodads[0].unique_id = b;
    let files = pipeline::encode_map(&opened.map, opened.generation, true, None).unwrap();
    disk::write_files(wdt.parent().unwrap(), &files, |_| {}).unwrap();

    let both = Fixes {
        seams: true,
        uids: true,
        ..Fixes::default()
    };
    let printed = assert_fix_as_whole(&wdt, &["--seams", "--uids"], &both);
    assert!(
        printed.contains("uids: 2 object(s) given a new uniqueId"),
        "{printed}"
    );
    let seams_only = Fixes {
        seams: true,
        ..Fixes::default()
    };
    assert_fix_as_whole(&wdt, &["--seams"], &seams_only);

    // The same map as a 0.5.3 monolithic WDT, and as a folder of tiles without a WDT.
    let alpha = dir.path().join("alpha");
    let o = loam(&[
        "convert".as_ref(),
        "--to".as_ref(),
        "0.5.3".as_ref(),
        wdt.as_os_str(),
        alpha.as_os_str(),
    ]);
    assert!(o.status.success());
    assert_fix_as_whole(&alpha.join("Sample.wdt"), &["--seams", "--uids"], &both);
    std::fs::remove_file(&wdt).unwrap();
    assert_fix_as_whole(wdt.parent().unwrap(), &["--seams", "--uids"], &both);
}

#[test]
fn flight_bounds_fitted_tile_by_tile_are_the_whole_maps() {
    // Each tile's planes come from its own (stitched) terrain, so the streamed fix and the
    // whole map's agree byte for byte.
    let dir = tempfile::tempdir().unwrap();
    let wdt = seamy::write(&dir.path().join("seamy"));
    let flight = Fixes {
        seams: true,
        flight_bounds: Some(fix::FlightFix {
            margins: loam::edit::derived::flight_bounds::Margins {
                above: 50.0,
                below: 20.0,
            },
            refit: false,
        }),
        ..Fixes::default()
    };
    let printed = assert_fix_as_whole(
        &wdt,
        &["--seams", "--flight-bounds", "--flight-margin", "50", "20"],
        &flight,
    );
    assert!(
        printed.contains("flight bounds: 4 tiles added, 0 widened, 0 unchanged"),
        "{printed}"
    );
}
