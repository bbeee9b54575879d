//! uniqueId clashes end to end through the `loam` binary: `check` names each placement that
//! shares a uid with a different object, `fix --uids` gives each such object one fresh uid in
//! every tile that lists it (leaving the first holder and same-object listings alone), and
//! `check` then finds no clash.

mod common;

use std::path::Path;

use common::{loam, loam_on, text};
use loam::disk;
use loam::format::Generation;
use loam::model::{Map, TileCoord};
use loam::pipeline;

fn at(x: usize, y: usize) -> TileCoord {
    TileCoord::new(x, y).unwrap()
}

/// The sample map (tiles 31..=32 × 31..=32, uids 1000+ in 31_31, 2000+ in 32_31, 3000+ in
/// 31_32, 4000+ in 32_32) with three clashing objects and one object listed twice:
/// - 32_31 doodad 0 takes uid 1000, which 31_31's doodad 0 holds elsewhere (a clash), and 32_31
///   also lists 31_31's doodad 0 itself (same uid, model, place: no clash);
/// - 31_32 doodad 0 takes uid 1001 (31_31's doodad 1), and 32_32 lists that same object too:
///   one clashing object in two tiles;
/// - 32_32 gets a WMO with 31_31's tower uid 1100 at another place.
fn clashing_map() -> Map {
    let mut map = loam::sample::sample_map();
    let first = map.tiles[&at(31, 31)].doodads[0].clone();
    let second_uid = map.tiles[&at(31, 31)].doodads[1].unique_id;
    let tower = map.tiles[&at(31, 31)].wmos[0].clone();
    assert_eq!(
        (first.unique_id, second_uid, tower.unique_id),
        (1000, 1001, 1100)
    );
    // The sample gives every tile the same name lists, so name indices carry over.
    let t = map.tiles.get_mut(&at(32, 31)).unwrap();
    t.doodads[0].unique_id = 1000;
    t.doodads.push(first);
    let t = map.tiles.get_mut(&at(31, 32)).unwrap();
    t.doodads[0].unique_id = 1001;
    let crossing = t.doodads[0].clone();
    let t = map.tiles.get_mut(&at(32, 32)).unwrap();
    t.doodads.push(crossing);
    let mut moved = tower;
    moved.position[0] -= 600.0;
    moved.position[1] -= 600.0;
    t.wmos.push(moved);
    map
}

fn write(map: &Map, dir: &Path) -> String {
    let files = pipeline::encode_map(map, Generation::V335, true, None).unwrap();
    disk::write_files(dir, &files, |_| {}).unwrap();
    dir.join("Sample.wdt").to_str().unwrap().to_string()
}

fn largest_uid(map: &Map) -> u32 {
    common::object_uids(map).max().unwrap()
}

#[test]
fn check_names_the_clashes_and_fix_uids_renumbers_each_later_object_once() {
    let map = clashing_map();
    let top = largest_uid(&map);
    let dir = tempfile::tempdir().unwrap();
    let wdt = write(&map, dir.path());

    let o = loam(&["check", &wdt]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    let clashes: Vec<&str> = t
        .lines()
        .filter(|l| l.contains("is used by two different"))
        .collect();
    // One line per tile listing of a clashing object: 32_31, 31_32, 32_32 (doodad), 32_32 (WMO).
    assert_eq!(clashes.len(), 4, "{t}");
    assert!(clashes[0].contains("uniqueId 1000 is used by two different doodads (tile 31_31 "));
    assert!(clashes[3].contains("uniqueId 1100 is used by two different WMOs (tile 31_31 "));

    let out = tempfile::tempdir().unwrap();
    let o = common::loam_ok(&["fix", "--uids", &wdt, out.path().to_str().unwrap()]);
    let t = text(&o);
    let changes: Vec<&str> = t.lines().filter(|l| l.contains("uniqueId ")).collect();
    assert_eq!(changes.len(), 3, "three objects renumbered:\n{t}");
    assert!(
        changes[0].starts_with("tile 32_31 doodad ")
            && changes[0].ends_with(&format!("uniqueId 1000 -> {}", top + 1)),
        "{}",
        changes[0]
    );
    assert!(
        changes[1].starts_with("tiles 31_32, 32_32 doodad ")
            && changes[1].ends_with(&format!("uniqueId 1001 -> {}", top + 2)),
        "{}",
        changes[1]
    );
    assert!(
        changes[2].starts_with("tile 32_32 WMO ")
            && changes[2].ends_with(&format!("uniqueId 1100 -> {}", top + 3)),
        "{}",
        changes[2]
    );
    assert!(t.contains("uids: 3 object(s) given a new uniqueId"), "{t}");

    // What was written: exactly those records changed, nothing else.
    let fixed = out.path().join("Sample.wdt");
    let back = pipeline::open_map(&fixed).unwrap().map;
    let mut expected = map.clone();
    let e = &mut expected.tiles;
    e.get_mut(&at(32, 31)).unwrap().doodads[0].unique_id = top + 1;
    e.get_mut(&at(31, 32)).unwrap().doodads[0].unique_id = top + 2;
    let t = e.get_mut(&at(32, 32)).unwrap();
    let last = t.doodads.len() - 1;
    t.doodads[last].unique_id = top + 2;
    t.wmos.last_mut().unwrap().unique_id = top + 3;
    for (c, te) in &expected.tiles {
        let tb = &back.tiles[c];
        let uids = |t: &loam::model::Tile| {
            (
                t.doodads.iter().map(|d| d.unique_id).collect::<Vec<_>>(),
                t.wmos.iter().map(|w| w.unique_id).collect::<Vec<_>>(),
            )
        };
        assert_eq!(uids(tb), uids(te), "tile {c:?}");
        assert_eq!(tb.doodad_names, te.doodad_names);
        for (a, b) in tb.doodads.iter().zip(&te.doodads) {
            assert_eq!(
                (a.name_index, a.rotation, a.scale),
                (b.name_index, b.rotation, b.scale)
            );
        }
        for (a, b) in tb.chunks.iter().zip(&te.chunks) {
            assert_eq!(a.doodad_refs, b.doodad_refs);
            assert_eq!(a.wmo_refs, b.wmo_refs);
        }
    }

    let o = common::loam_ok(&["check", fixed.to_str().unwrap()]);
    assert!(!text(&o).contains("uniqueId"), "{}", text(&o));

    // Fixing the fixed map changes nothing.
    let again = tempfile::tempdir().unwrap();
    let o = loam_on(&["fix", "--uids"], &fixed, again.path());
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("uids: 0 object(s) given a new uniqueId"),
        "{}",
        text(&o)
    );
}

#[test]
fn seams_and_uids_together_do_both() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = write(&clashing_map(), dir.path());
    let out = tempfile::tempdir().unwrap();
    let o = common::loam_ok(&[
        "fix",
        "--seams",
        "--uids",
        &wdt,
        out.path().to_str().unwrap(),
    ]);
    let t = text(&o);
    assert!(t.contains("seams: "), "{t}");
    assert!(t.contains("uids: 3 object(s)"), "{t}");
    let fixed = out.path().join("Sample.wdt");
    let o = common::loam_ok(&["check", "--seam-threshold", "0", fixed.to_str().unwrap()]);
    assert!(!text(&o).contains("uniqueId"), "{}", text(&o));
}

#[test]
fn fix_without_a_fix_names_both_choices() {
    let o = loam(&["fix", "a.wdt", "out"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("--uids"), "{}", text(&o));
}
