//! Every 3.3.5 corpus tile, put in a map folder with a WDT, converted by `loam convert` to each
//! older generation and back keeps its heights, holes, layer textures, alpha (within one 4-bit
//! step), placements, area ids and liquid; the older files pass `loam check`; conversion is
//! deterministic.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use loam::disk;
use loam::format::v18;
use loam::model::map::{MAP_FLAG_BIG_ALPHA, MAP_FLAG_VERTEX_COLORS, TILE_PRESENT};
use loam::model::{LiquidLayer, Map, Tile};
use loam::pipeline;

fn loam(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(args)
        .output()
        .expect("loam runs");
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "loam {args:?} failed:\n{text}");
    text
}

/// A map folder `Test` holding one corpus tile under its proper name, with a WDT whose flags
/// match the tile (8-bit alpha, vertex colours).
fn map_folder(rel: &str, dir: &Path) -> PathBuf {
    let bytes = std::fs::read(corpus_file(rel)).unwrap();
    let depth = v18::sniff_alpha_depth(&bytes);
    let tile = v18::read_adt(&bytes, None, depth).unwrap();
    let mut map = Map::new("Test");
    if depth == v18::AlphaDepth::Big {
        map.flags |= MAP_FLAG_BIG_ALPHA;
    }
    if tile.chunks.iter().any(|c| c.vertex_colors.is_some()) {
        map.flags |= MAP_FLAG_VERTEX_COLORS;
    }
    map.tile_flags[tile.coord.index()] = TILE_PRESENT;
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(disk::tile_file_name("Test", tile.coord)), &bytes).unwrap();
    std::fs::write(dir.join("Test.wdt"), v18::write_wdt(&map)).unwrap();
    dir.join("Test.wdt")
}

fn stem(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    lower[..lower.rfind('.').unwrap_or(lower.len())].to_string()
}

/// The layers of `chunk` by classic liquid kind.
fn by_kind(layers: &[LiquidLayer]) -> Vec<(u16, &LiquidLayer)> {
    let mut v: Vec<(u16, &LiquidLayer)> = layers
        .iter()
        .map(|l| (loam::convert::liquid::classic_kind(l.liquid_type), l))
        .collect();
    v.sort_by_key(|(k, _)| *k);
    v
}

fn assert_same_content(what: &str, orig: &Tile, back: &Tile) {
    assert_eq!(orig.coord, back.coord, "{what}");
    for (i, (a, b)) in orig.chunks.iter().zip(&back.chunks).enumerate() {
        let at = format!("{what} chunk {i}");
        for (k, (x, y)) in a.heights.iter().zip(b.heights.iter()).enumerate() {
            assert!((x - y).abs() <= 0.001, "{at} height {k}: {x} vs {y}");
        }
        assert_eq!(a.holes, b.holes, "{at} holes");
        assert_eq!(a.area_id, b.area_id, "{at} area");
        assert_eq!(a.layers.len(), b.layers.len(), "{at} layers");
        for (k, (la, lb)) in a.layers.iter().zip(&b.layers).enumerate() {
            let (na, nb) = (
                orig.texture_name(la.texture).unwrap(),
                back.texture_name(lb.texture).unwrap(),
            );
            assert!(na.eq_ignore_ascii_case(nb), "{at} layer {k}: {na} vs {nb}");
            if let (Some(x), Some(y)) = (&la.alpha, &lb.alpha) {
                let worst = x
                    .texels()
                    .iter()
                    .zip(y.texels().iter())
                    .map(|(p, q)| (*p as i32 - *q as i32).abs())
                    .max()
                    .unwrap();
                assert!(
                    worst <= 8,
                    "{at} layer {k}: alpha differs by {worst} (> half a 4-bit step)"
                );
            } else {
                assert_eq!(
                    la.alpha.is_some(),
                    lb.alpha.is_some(),
                    "{at} layer {k} alpha presence"
                );
            }
        }
        let (la, lb) = (
            a.liquid.as_ref().map_or(&[][..], |l| &l.layers[..]),
            b.liquid.as_ref().map_or(&[][..], |l| &l.layers[..]),
        );
        let (ka, kb) = (by_kind(la), by_kind(lb));
        assert_eq!(
            ka.iter().map(|k| k.0).collect::<Vec<_>>(),
            kb.iter().map(|k| k.0).collect::<Vec<_>>(),
            "{at} liquid kinds"
        );
        for ((_, x), (_, y)) in ka.iter().zip(&kb) {
            assert_eq!(
                x.exists & x.rectangle_mask(),
                y.exists & y.rectangle_mask(),
                "{at} liquid quads"
            );
            assert_eq!(
                (x.min_height, x.max_height),
                (y.min_height, y.max_height),
                "{at} liquid range"
            );
            if let (Some(hx), Some(hy)) = (&x.heights, &y.heights) {
                for row in 0..=x.height as usize {
                    for col in 0..=x.width as usize {
                        let (r, c) = (x.y as usize + row, x.x as usize + col);
                        let (p, q) = (
                            hx[row * x.vertex_columns() + col],
                            hy[(r - y.y as usize) * y.vertex_columns() + c - y.x as usize],
                        );
                        assert!(
                            (p - q).abs() <= 0.001,
                            "{at} liquid height ({r},{c}): {p} vs {q}"
                        );
                    }
                }
            }
        }
    }
    assert_eq!(orig.doodads.len(), back.doodads.len(), "{what} doodads");
    for (a, b) in orig.doodads.iter().zip(&back.doodads) {
        assert_eq!(a.unique_id, b.unique_id, "{what}");
        assert_eq!(
            stem(&orig.doodad_names[a.name_index as usize]),
            stem(&back.doodad_names[b.name_index as usize]),
            "{what}"
        );
        assert!(
            (0..3).all(|k| (a.position[k] - b.position[k]).abs() < 1e-3),
            "{what}: {:?} vs {:?}",
            a.position,
            b.position
        );
        assert_eq!((a.rotation, a.scale), (b.rotation, b.scale), "{what}");
    }
    assert_eq!(orig.wmos.len(), back.wmos.len(), "{what} WMOs");
    for (a, b) in orig.wmos.iter().zip(&back.wmos) {
        assert_eq!(a.unique_id, b.unique_id, "{what}");
        assert!(
            orig.wmo_names[a.name_index as usize]
                .eq_ignore_ascii_case(&back.wmo_names[b.name_index as usize]),
            "{what}"
        );
        assert!(
            (0..3).all(|k| (a.position[k] - b.position[k]).abs() < 1e-3),
            "{what}"
        );
        assert_eq!(a.rotation, b.rotation, "{what}");
    }
}

fn round_trip(target: &str) {
    for rel in ADTS {
        let dir = tempfile::tempdir().unwrap();
        let wdt = map_folder(rel, &dir.path().join("src"));
        let (old, back) = (dir.path().join("old"), dir.path().join("back"));
        let report = loam(&[
            "convert",
            "--to",
            target,
            wdt.to_str().unwrap(),
            old.to_str().unwrap(),
        ]);
        assert!(
            report.contains(&format!("3.3.5 → {target}"))
                || report.contains(&format!("1.12 → {target}")),
            "{report}"
        );
        // The user knows what they converted to: a 0.6.0 tile without liquid has nothing in
        // its bytes that tells it from 1.12 (see tests/real_maps.rs).
        loam(&[
            "check",
            "--from",
            target,
            old.join("Test.wdt").to_str().unwrap(),
        ]);
        loam(&[
            "convert",
            "--to",
            "3.3.5",
            "--from",
            target,
            old.join("Test.wdt").to_str().unwrap(),
            back.to_str().unwrap(),
        ]);
        let orig = pipeline::open_map(&wdt).unwrap();
        let again = pipeline::open_map(&back.join("Test.wdt")).unwrap();
        let (a, b) = (
            orig.map.tiles.values().next().unwrap(),
            again.map.tiles.values().next().unwrap(),
        );
        assert_same_content(&format!("{rel} via {target}"), a, b);
    }
}

#[test]
fn via_0_5_3_and_back() {
    round_trip("0.5.3");
}

#[test]
fn via_0_6_0_and_back() {
    round_trip("0.6.0");
}

#[test]
fn via_1_12_and_back() {
    round_trip("1.12");
}

#[test]
fn converting_to_0_5_3_twice_gives_identical_bytes_and_reports_what_was_lost() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = map_folder(
        "warcraft-net/ADT/Northrend_37_25.adt",
        &dir.path().join("src"),
    );
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let report = loam(&[
        "convert",
        "--to",
        "0.5.3",
        wdt.to_str().unwrap(),
        a.to_str().unwrap(),
    ]);
    loam(&[
        "convert",
        "--to",
        "0.5.3",
        wdt.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(a.join("Test.wdt")).unwrap(),
        std::fs::read(b.join("Test.wdt")).unwrap()
    );
    for expected in [
        "vertex colours (MCCV) dropped",
        "MH2O layers rewritten as MCLQ",
        "8-bit alpha rounded to 4-bit",
        "doodad model paths renamed .m2 → .mdx",
        "area ids passed through",
    ] {
        assert!(
            report.contains(expected),
            "missing {expected:?} in\n{report}"
        );
    }
}

#[test]
fn an_area_map_translates_area_ids() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = map_folder(
        "wowserhq-format/map/continent4229.adt",
        &dir.path().join("src"),
    );
    let csv = dir.path().join("areas.csv");
    std::fs::write(&csv, "old,new\n2266,0x000C0001\n139,7\n").unwrap();
    let out = dir.path().join("out");
    let report = loam(&[
        "convert",
        "--to",
        "0.5.3",
        "--area-map",
        csv.to_str().unwrap(),
        wdt.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(report.contains("area ids mapped by --area-map"), "{report}");
    assert!(
        report.contains("area id 2400 not in --area-map"),
        "{report}"
    );
    let back = pipeline::open_map(&out.join("Test.wdt")).unwrap();
    let ids: std::collections::BTreeSet<u32> = back
        .map
        .tiles
        .values()
        .next()
        .unwrap()
        .chunks
        .iter()
        .map(|c| c.area_id)
        .collect();
    assert!(
        ids.contains(&0x000C_0001) && ids.contains(&7) && !ids.contains(&2266),
        "{ids:?}"
    );
}
