//! Flight bounds (MFBO, docs/flight-bounds.md): planes fitted by `edit::derived::flight_bounds` clear
//! the terrain of every corpus tile under Noggit's fan, which is written out here from its
//! definition (eight triangles around point 4, barycentric), not taken from loam; Blizzard's
//! own planes are kept byte for byte; `loam fix --flight-bounds` lifts a ceiling a hill was
//! raised through (read back from the written file's bytes) and `loam check` sees the hill
//! before the fix and not after; a tile without MFBO gets one with the MHDR flag.

mod common;

use std::path::Path;

use common::{corpus_file, loam, text};
use loam::edit::derived::flight_bounds::{self, Margins};
use loam::model::{FlightBounds, Tile};

/// Edge of a tile, of a chunk and of a quad (yards).
const TILE: f64 = 1600.0 / 3.0;
const CHUNK: f64 = TILE / 16.0;
const UNIT: f64 = CHUNK / 8.0;
/// Distance between plane points: half a tile.
const HALF: f64 = TILE / 2.0;

/// The corpus tiles with MFBO: every corpus ADT whose file has the chunk.
fn tiles_with_mfbo() -> Vec<&'static str> {
    let with: Vec<&str> = common::ADTS
        .into_iter()
        .filter(|n| mfbo_of(&std::fs::read(corpus_file(n)).unwrap()).is_some())
        .collect();
    assert_eq!(
        with,
        [
            "warcraft-net/ADT/Northrend_37_25.adt",
            "wowserhq-format/map/pvpzone3430.adt"
        ]
    );
    with
}

fn open_tile(path: &Path) -> Tile {
    let map = loam::pipeline::open_map(path).unwrap().map;
    map.tiles.into_values().next().unwrap()
}

/// The top-level chunks of an ADT: (tag as the documents spell it, payload offset, size).
fn chunks_of(bytes: &[u8]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let tag: String = bytes[at..at + 4].iter().rev().map(|&b| b as char).collect();
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        out.push((tag, at + 8, size));
        at += 8 + size;
    }
    out
}

/// The 18 int16 of the file's MFBO chunk: (max, min).
fn mfbo_of(bytes: &[u8]) -> Option<([i16; 9], [i16; 9])> {
    let (_, at, size) = chunks_of(bytes).into_iter().find(|c| c.0 == "MFBO")?;
    assert_eq!(size, 36);
    let v = |i: usize| i16::from_le_bytes([bytes[at + 2 * i], bytes[at + 2 * i + 1]]);
    Some((std::array::from_fn(v), std::array::from_fn(|i| v(9 + i))))
}

/// The MHDR flags and its MFBO offset (relative to the MHDR payload, 0 when absent).
fn mhdr_of(bytes: &[u8]) -> (u32, usize, usize) {
    let (tag, at, _) = chunks_of(bytes).into_iter().nth(1).unwrap();
    assert_eq!(tag, "MHDR");
    let word = |i: usize| u32::from_le_bytes(bytes[at + 4 * i..at + 4 * i + 4].try_into().unwrap());
    // flags, mcin, mtex, mmdx, mmid, mwmo, mwid, mddf, modf, mfbo: the ninth offset.
    (word(0), word(9) as usize, at)
}

/// Where plane point `i` sits: (east, south) yards from the tile's north-west corner.
fn point(i: usize) -> (f64, f64) {
    ((i % 3) as f64 * HALF, (i / 3) as f64 * HALF)
}

/// The plane's height at (east, south) under Noggit's fan: triangles (4, ring k, ring k+1)
/// for the ring 1, 2, 5, 8, 7, 6, 3, 0, 1, barycentric in the one that holds the location.
fn fan(plane: &[i16; 9], e: f64, s: f64) -> f64 {
    const RING: [usize; 9] = [1, 2, 5, 8, 7, 6, 3, 0, 1];
    for k in 0..8 {
        let ids = [4, RING[k], RING[k + 1]];
        let [(x1, y1), (x2, y2), (x3, y3)] = ids.map(point);
        let d = (y2 - y3) * (x1 - x3) + (x3 - x2) * (y1 - y3);
        let l1 = ((y2 - y3) * (e - x3) + (x3 - x2) * (s - y3)) / d;
        let l2 = ((y3 - y1) * (e - x3) + (x1 - x3) * (s - y3)) / d;
        let l3 = 1.0 - l1 - l2;
        if l1 >= -1e-9 && l2 >= -1e-9 && l3 >= -1e-9 {
            return l1 * plane[ids[0]] as f64
                + l2 * plane[ids[1]] as f64
                + l3 * plane[ids[2]] as f64;
        }
    }
    panic!("({e}, {s}) is in no triangle of the fan");
}

/// Every vertex of the tile: (east, south, height), from the MCVT order (rows of 9 outer
/// vertices, then 8 inner ones half a quad in).
fn vertices(tile: &Tile) -> Vec<(f64, f64, f32)> {
    let mut out = Vec::new();
    for cy in 0..16 {
        for cx in 0..16 {
            for (k, &h) in tile.chunks[cy * 16 + cx].heights.iter().enumerate() {
                let (row, rem) = (k / 17, k % 17);
                let (col, row) = if rem < 9 {
                    (rem as f64, row as f64)
                } else {
                    (rem as f64 - 8.5, row as f64 + 0.5)
                };
                out.push((
                    cx as f64 * CHUNK + col * UNIT,
                    cy as f64 * CHUNK + row * UNIT,
                    h,
                ));
            }
        }
    }
    out
}

/// The plane point nearest a location: the region it is counted in.
fn region(e: f64, s: f64) -> usize {
    let at = |v: f64| (v / HALF).round() as usize;
    at(e) + 3 * at(s)
}

/// For each of the nine regions, how far the terrain comes to the ceiling and floor at its
/// closest (yards, negative where it passes): asserts every region has vertices.
fn clearance(tile: &Tile, fb: &FlightBounds) -> [(f64, f64); 9] {
    let mut out = [(f64::INFINITY, f64::INFINITY); 9];
    for (e, s, h) in vertices(tile) {
        let r = &mut out[region(e, s)];
        r.0 = r.0.min(fan(&fb.max, e, s) - h as f64);
        r.1 = r.1.min(h as f64 - fan(&fb.min, e, s));
    }
    assert!(out.iter().all(|r| r.0.is_finite() && r.1.is_finite()));
    out
}

fn assert_bound(what: &str, tile: &Tile, fb: &FlightBounds) {
    for (i, (up, down)) in clearance(tile, fb).into_iter().enumerate() {
        assert!(
            up >= 0.0,
            "{what}: region {i}: the ground passes the ceiling by {}",
            -up
        );
        assert!(
            down >= 0.0,
            "{what}: region {i}: the ground passes the floor by {}",
            -down
        );
    }
}

fn flight_messages(tile: &Tile) -> Vec<String> {
    loam::cli::check::check_tile(tile)
        .into_iter()
        .filter(|m| m.contains("flight"))
        .collect()
}

#[test]
fn fitted_planes_clear_the_terrain_of_every_region_under_the_fan() {
    for name in tiles_with_mfbo() {
        let tile = open_tile(&corpus_file(name));
        for margins in [
            Margins::DEFAULT,
            Margins {
                above: 0.0,
                below: 0.0,
            },
        ] {
            let fb = flight_bounds::fit(&tile, margins);
            assert_bound(name, &tile, &fb);
            let mut fitted = tile.clone();
            fitted.flight_bounds = Some(fb);
            assert_eq!(flight_messages(&fitted), Vec::<String>::new(), "{name}");
        }
        // With the default margins every region keeps at least the margins' room.
        let fb = flight_bounds::fit(&tile, Margins::DEFAULT);
        for (i, (up, down)) in clearance(&tile, &fb).into_iter().enumerate() {
            // (Less float noise of the interpolation.)
            assert!(
                up >= 400.0 - 1e-6 && down >= 75.0 - 1e-6,
                "{name}: region {i}: {up} {down}"
            );
        }
    }
}

#[test]
fn blizzards_planes_clear_the_terrain_lie_beyond_the_fit_and_are_kept_byte_for_byte() {
    for name in tiles_with_mfbo() {
        let src = corpus_file(name);
        let bytes = std::fs::read(&src).unwrap();
        let (max, min) = mfbo_of(&bytes).unwrap();
        let tile = open_tile(&src);
        let blizzard = FlightBounds { max, min };
        assert_eq!(tile.flight_bounds, Some(blizzard), "{name}");
        // Blizzard writes one constant per plane.
        assert!(max.iter().all(|&v| v == max[0]) && min.iter().all(|&v| v == min[0]));
        assert_bound(name, &tile, &blizzard);
        assert_eq!(flight_messages(&tile), Vec::<String>::new(), "{name}");
        // loam's fit follows the ground: no higher and no lower than Blizzard's constants
        // anywhere, so widening Blizzard's planes by it changes nothing.
        let fitted = flight_bounds::fit(&tile, Margins::DEFAULT);
        println!("{name}: Blizzard {blizzard:?}, fitted {fitted:?}");
        for i in 0..9 {
            assert!(fitted.max[i] <= max[i], "{name}: point {i}: {fitted:?}");
            assert!(fitted.min[i] >= min[i], "{name}: point {i}: {fitted:?}");
        }
        assert_eq!(flight_bounds::widen(&blizzard, &fitted), blizzard);
        let mut kept = tile.clone();
        assert_eq!(
            flight_bounds::update_tile(&mut kept, Margins::DEFAULT, false),
            None
        );
        // Through the binary: the same bytes come out.
        let out = tempfile::tempdir().unwrap();
        let o = common::loam_on(&["fix", "--flight-bounds"], &src, out.path());
        assert!(o.status.success(), "{}", text(&o));
        assert!(
            text(&o).contains("flight bounds: 0 tiles added, 0 widened, 1 unchanged"),
            "{}",
            text(&o)
        );
        common::assert_same_bytes(
            name,
            &bytes,
            &std::fs::read(out.path().join(src.file_name().unwrap())).unwrap(),
        );
        // Refitted, they come down to the ground's (and still clear it).
        let out = tempfile::tempdir().unwrap();
        let o = common::loam_on(
            &["fix", "--flight-bounds", "--refit-flight-bounds"],
            &src,
            out.path(),
        );
        assert!(
            text(&o).contains("0 tiles added, 1 refitted"),
            "{}",
            text(&o)
        );
        let written = std::fs::read(out.path().join(src.file_name().unwrap())).unwrap();
        assert_eq!(mfbo_of(&written), Some((fitted.max, fitted.min)), "{name}");
    }
}

/// The tile's heights with a cone `top` yards high and 60 yd wide at its foot raised at
/// (east, south), computed on the vertex lattice so that the copies of a shared vertex rise
/// alike.
fn raise_hill(tile: &mut Tile, east: f64, south: f64, top: f32) {
    for cy in 0..16 {
        for cx in 0..16 {
            for (k, h) in tile.chunks[cy * 16 + cx].heights.iter_mut().enumerate() {
                let (row, rem) = (k / 17, k % 17);
                // Lattice steps in halves, exact for both copies of a shared vertex.
                let (gx, gy) = if rem < 9 {
                    (2 * (cx * 8 + rem), 2 * (cy * 8 + row))
                } else {
                    (2 * (cx * 8 + rem - 9) + 1, 2 * (cy * 8 + row) + 1)
                };
                let (e, s) = (gx as f64 * UNIT / 2.0, gy as f64 * UNIT / 2.0);
                let d = ((e - east).powi(2) + (s - south).powi(2)).sqrt();
                *h += top * (1.0 - d / 60.0).max(0.0) as f32;
            }
        }
    }
}

#[test]
fn a_hill_raised_through_the_ceiling_lifts_only_the_points_around_it() {
    let src = corpus_file("warcraft-net/ADT/Northrend_37_25.adt");
    let mut opened = loam::pipeline::open_map(&src).unwrap();
    let coord = *opened.map.tiles.keys().next().unwrap();
    let tile = opened.map.tiles.get_mut(&coord).unwrap();
    // Blizzard's ceiling is a flat 1000; the ground there is under 300.
    raise_hill(tile, 400.0, 150.0, 1100.0);
    let tile = tile.clone();
    let peak = vertices(&tile).iter().map(|v| v.2).fold(f32::MIN, f32::max);
    assert!(peak > 1100.0, "{peak}");
    let before = flight_messages(&tile);
    assert!(
        before
            .iter()
            .any(|m| m.contains("flight ceiling below the ground")
                && m.contains("loam fix --flight-bounds raises it")),
        "{before:?}"
    );

    let dir = tempfile::tempdir().unwrap();
    let files = loam::pipeline::encode_map(&opened.map, opened.generation, true, None).unwrap();
    loam::disk::write_files(dir.path(), &files, |_| {}).unwrap();
    let wdt = dir.path().join(format!("{}.wdt", opened.map.name));
    let adt = loam::disk::tile_file_name(&opened.map.name, coord);
    let o = loam(&[std::ffi::OsStr::new("check"), wdt.as_os_str()]);
    assert!(
        text(&o).contains("flight ceiling below the ground by"),
        "{}",
        text(&o)
    );

    let out = tempfile::tempdir().unwrap();
    let o = common::loam_on(&["fix", "--flight-bounds"], &wdt, out.path());
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("flight bounds: 0 tiles added, 1 widened, 0 unchanged"),
        "{}",
        text(&o)
    );
    let written = std::fs::read(out.path().join(&adt)).unwrap();
    let (max, min) = mfbo_of(&written).unwrap();
    assert_eq!(min, [-1000; 9], "the floor is not touched");
    // The hill (east 340..460, south 90..210) lies in the squares of points 1, 2, 4 and 5:
    // each rises to 400 yd over the highest ground of its square; the rest keep Blizzard's.
    for (i, &m) in max.iter().enumerate() {
        let (pe, ps) = point(i);
        let highest = vertices(&tile)
            .into_iter()
            .filter(|v| (v.0 - pe).abs() <= HALF + 0.01 && (v.1 - ps).abs() <= HALF + 0.01)
            .map(|v| v.2)
            .fold(f32::MIN, f32::max) as f64;
        if [1, 2, 4, 5].contains(&i) {
            assert!(
                m as f64 >= highest + 400.0 && (m as f64) < highest + 401.0,
                "point {i}: {m} over {highest}"
            );
        } else {
            assert_eq!(m, 1000, "point {i}");
        }
    }
    let fixed = open_tile(&out.path().join(&adt));
    assert_bound("the fixed hill", &fixed, &FlightBounds { max, min });
    let o = loam(&[
        std::ffi::OsStr::new("check"),
        out.path().join(wdt.file_name().unwrap()).as_os_str(),
    ]);
    assert!(!text(&o).contains("flight"), "{}", text(&o));
}

#[test]
fn a_tile_without_flight_bounds_gets_them_with_the_mhdr_flag() {
    let src = corpus_file("wowserhq-format/map/continent4229.adt");
    let bytes = std::fs::read(&src).unwrap();
    assert_eq!(mfbo_of(&bytes), None);
    assert_eq!(mhdr_of(&bytes).0 & 1, 0);
    let out = tempfile::tempdir().unwrap();
    let o = common::loam_on(&["fix", "--flight-bounds"], &src, out.path());
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("flight bounds: 1 tiles added, 0 widened, 0 unchanged"),
        "{}",
        text(&o)
    );
    let written = std::fs::read(out.path().join(src.file_name().unwrap())).unwrap();
    let (flags, mfbo, mhdr) = mhdr_of(&written);
    assert_eq!(flags & 1, 1, "MHDR flag 0x1");
    assert_eq!(
        &written[mhdr + mfbo..mhdr + mfbo + 4],
        b"OBFM",
        "MHDR's MFBO offset"
    );
    let (max, min) = mfbo_of(&written).unwrap();
    let tile = open_tile(&src);
    assert_bound("continent4229", &tile, &FlightBounds { max, min });
    assert_eq!(
        FlightBounds { max, min },
        flight_bounds::fit(&tile, Margins::DEFAULT)
    );
    // Nothing else moved: the written tile read back is the original with the planes.
    let mut expected = tile.clone();
    expected.flight_bounds = Some(FlightBounds { max, min });
    expected.flags |= 1;
    let mut back = open_tile(&out.path().join(src.file_name().unwrap()));
    back.quirks = expected.quirks.clone();
    assert!(back == expected, "only the planes and the flag changed");
}

#[test]
fn generations_without_mfbo_and_bad_margins_are_refused() {
    let out = tempfile::tempdir().unwrap();
    let dst = out.path().join("out");
    // The vanilla-style tile reads as 1.12, whose files have no MFBO.
    let o = common::loam_on(
        &["fix", "--flight-bounds"],
        &corpus_file("blizzardry/Azeroth_38_46.adt"),
        &dst,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("1.12 tiles have no flight bounds"),
        "{}",
        text(&o)
    );
    assert!(!dst.exists(), "nothing written");
    let src = corpus_file("wowserhq-format/map/continent4229.adt");
    for margin in [["-1", "75"], ["400", "nan"]] {
        let o = common::loam_on(
            &[
                "fix",
                "--flight-bounds",
                "--flight-margin",
                margin[0],
                margin[1],
            ],
            &src,
            &dst,
        );
        assert_eq!(o.status.code(), Some(2), "{margin:?}: {}", text(&o));
        assert!(
            text(&o).contains("--flight-margin takes two numbers"),
            "{}",
            text(&o)
        );
    }
    // The margins are the yards asked for.
    let o = common::loam_on(
        &["fix", "--flight-bounds", "--flight-margin", "10", "5"],
        &src,
        &dst,
    );
    assert!(o.status.success(), "{}", text(&o));
    let (max, min) = mfbo_of(&std::fs::read(dst.join("continent4229.adt")).unwrap()).unwrap();
    let fitted = flight_bounds::fit(
        &open_tile(&src),
        Margins {
            above: 10.0,
            below: 5.0,
        },
    );
    assert_eq!((max, min), (fitted.max, fitted.min));
}

#[test]
fn a_stroke_that_lifts_ground_through_the_ceiling_widens_it_in_its_own_undo_step() {
    let src = corpus_file("warcraft-net/ADT/Northrend_37_25.adt");
    let mut map = loam::pipeline::open_map(&src).unwrap().map;
    let coord = *map.tiles.keys().next().unwrap();
    let blizzard = map.tiles[&coord].flight_bounds.unwrap();
    // A 1200 yd mesa between the centre and the south-east corner: Blizzard's ceiling is 1000.
    let [nx, ny] = coord.north_west();
    let (x, y) = (nx - 400.0, ny - 400.0);
    let json = format!(
        r#"{{"ops": [{{"tool": "flatten", "points": [[{x}, {y}]], "radius": 30, "inner_radius": 25, "height": 1200}}]}}"#
    );
    let mut history = common::apply_ops(
        &mut map,
        &json,
        loam::edit::terrain::liquid::LiquidStyle::Mh2o,
    );
    let tile = &map.tiles[&coord];
    let widened = tile.flight_bounds.unwrap();
    assert!(
        flight_messages(tile).is_empty(),
        "{:?}",
        flight_messages(tile)
    );
    assert_bound("the mesa", tile, &widened);
    assert_eq!(widened.min, blizzard.min, "the floor is not touched");
    assert!(widened.max[4] >= 1600, "{:?}", widened.max);
    assert_eq!(
        widened.max[0], 1000,
        "a corner far from the mesa keeps Blizzard's"
    );
    history.undo(&mut map);
    assert_eq!(map.tiles[&coord].flight_bounds, Some(blizzard));
    history.redo(&mut map);
    assert_eq!(map.tiles[&coord].flight_bounds, Some(widened));
}
