//! `loam new`: new maps in every generation, tiles added and removed, WMO-only maps, and the
//! refusals that keep a user's files safe.

mod common;

use std::path::{Path, PathBuf};

use common::{corpus_file, folder_files, loam, text};
use loam::convert::blank::DEFAULT_TEXTURE;
use loam::edit::lattice::Vertex;
use loam::format::Generation;
use loam::model::TileCoord;
use loam::pipeline;

fn tc(x: usize, y: usize) -> TileCoord {
    TileCoord::new(x, y).unwrap()
}

/// Runs `loam new` with `args`; panics with its output when it fails.
fn new_ok(args: &[&str]) -> String {
    let mut all = vec!["new"];
    all.extend(args);
    text(&common::loam_ok(&all))
}

/// Opens the map at `wdt` as `g` (0.6.0 must be named: a flat 0.6.0 tile is a flat 1.12 one
/// to every reader, see `loam new`'s hint).
fn open(wdt: &Path, g: Generation) -> loam::model::Map {
    let opened = pipeline::open_map_as(wdt, Some(g)).unwrap();
    assert!(opened.failed.is_empty(), "{:?}", opened.failed);
    opened.map
}

#[test]
fn a_new_map_of_every_generation_reads_back_flat_textured_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    for (g, flag) in [
        (Generation::Alpha053, 0),
        (Generation::V060, 0),
        (Generation::V112, 0),
        (Generation::V335, 0x4),
    ] {
        let out = dir.path().join(g.to_string());
        let said = common::loam_new(
            "Isle",
            &g.to_string(),
            "31 31 30 30",
            &["--height", "-12.5", "--area", "7"],
            &out,
        );
        assert!(said.contains("open it with: loam"), "{said}");
        let map = open(&out.join("Isle.wdt"), g);
        assert_eq!(map.flags, flag, "{g} MPHD flags");
        let want = [tc(30, 30), tc(31, 30), tc(30, 31), tc(31, 31)];
        assert_eq!(map.tiles.keys().copied().collect::<Vec<_>>().len(), 4);
        for c in want {
            let tile = &map.tiles[&c];
            assert_eq!(tile.textures, [DEFAULT_TEXTURE], "{g} {c:?}");
            assert!(tile.doodads.is_empty() && tile.wmos.is_empty());
            for chunk in &tile.chunks {
                assert!(chunk.heights.iter().all(|&h| h == -12.5), "{g} heights");
                assert!(
                    chunk.normals.iter().all(|n| *n == [0, 0, 127]),
                    "{g} normals"
                );
                assert_eq!(chunk.layers.len(), 1);
                assert_eq!((chunk.layers[0].texture, chunk.layers[0].effect_id), (0, 0));
                assert!(chunk.layers[0].alpha.is_none());
                assert_eq!((chunk.area_id, chunk.holes), (7, 0), "{g}");
                let shadow = chunk
                    .shadow
                    .as_ref()
                    .expect("a zero shadow map, as Blizzard's");
                assert!(shadow.rows.iter().all(|&r| r == 0));
                assert!(chunk.liquid.is_none() && chunk.vertex_colors.is_none());
            }
        }
        let wdl = pipeline::wdl::read_wdl(&out.join("Isle.wdl")).unwrap();
        assert_eq!(wdl.tiles.keys().copied().collect::<Vec<_>>(), {
            let mut w = want.to_vec();
            w.sort();
            w
        });
        for t in wdl.tiles.values() {
            assert!(
                t.heights.iter().all(|&h| h == -12 || h == -13),
                "{g} WDL heights"
            );
        }
        let check = loam(&["check", out.join("Isle.wdt").to_str().unwrap()]);
        assert!(check.status.success(), "{g}: {}", text(&check));
    }
}

#[test]
fn new_split_tiles_read_right_in_a_reader_that_is_not_loams() {
    let dir = tempfile::tempdir().unwrap();
    for g in ["1.12", "3.3.5"] {
        let out = dir.path().join(g);
        common::loam_new("Isle", g, "5 6 5 6", &["--height", "40"], &out);
        let mut f = std::fs::File::open(out.join("Isle_5_6.adt")).unwrap();
        let wow_adt::ParsedAdt::Root(root) = wow_adt::parse_adt(&mut f).unwrap() else {
            panic!("not a root ADT")
        };
        assert_eq!(root.textures, [DEFAULT_TEXTURE]);
        assert_eq!(root.mcnk_chunks.len(), 256);
        for (i, mcnk) in root.mcnk_chunks.iter().enumerate() {
            assert_eq!(
                (mcnk.header.index_x as usize, mcnk.header.index_y as usize),
                (i % 16, i / 16)
            );
            let heights = common::absolute_heights(mcnk);
            assert!(heights.iter().all(|h| *h == 40.0), "{g} chunk {i}");
            assert_eq!(mcnk.header.flags.value & 0x1, 0x1, "{g}: MCSH flag");
        }
    }
}

#[test]
fn a_new_map_is_not_written_over_files_the_user_has() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("maps");
    std::fs::create_dir_all(&out).unwrap();
    // Another map's tile of the same name, spelled in another case.
    std::fs::write(out.join("isle_3_3.ADT"), b"mine").unwrap();
    let before = folder_files(&out);
    let o = loam(&[
        "new",
        "Isle",
        "--to",
        "3.3.5",
        "--tiles",
        "2",
        "2",
        "3",
        "3",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("already has Isle_3_3.adt"),
        "{}",
        text(&o)
    );
    assert_eq!(folder_files(&out), before);
    // Names the client's paths cannot hold are refused before anything is written.
    let o = loam(&[
        "new", "My Isle", "--to", "1.12", "--tiles", "1", "1", "1", "1", "x",
    ]);
    assert!(text(&o).contains("letters, digits and '_'"), "{}", text(&o));
    assert!(!Path::new("x").exists());
}

/// Makes a 1.12 map `name` of tile (10, 10) in `dir` with each lattice vertex at
/// `height(vertex)`, so heights agree wherever chunks share a vertex.
fn map_with_heights(dir: &Path, name: &str, height: impl Fn(Vertex) -> f32) -> PathBuf {
    common::loam_new(name, "1.12", "10 10 10 10", &[], dir);
    let wdt = dir.join(format!("{name}.wdt"));
    let mut map = open(&wdt, Generation::V112);
    let c = tc(10, 10);
    for (k, chunk) in map.tiles.get_mut(&c).unwrap().chunks.iter_mut().enumerate() {
        for (i, h) in chunk.heights.iter_mut().enumerate() {
            *h = height(Vertex::of(c, k, i));
        }
    }
    let files = pipeline::encode_map(&map, Generation::V112, false, None).unwrap();
    loam::disk::write_files(dir, &files, |_| {}).unwrap();
    wdt
}

/// A map whose heights slope seamlessly, so that every border vertex has its own height.
fn sloped_map(dir: &Path) -> PathBuf {
    map_with_heights(dir, "Slope", |v| {
        (v.gx % 61) as f32 * 0.75 + (v.gy % 53) as f32 * 0.5
    })
}

#[test]
fn a_tile_added_beside_an_edited_one_meets_it_exactly_as_check_with_no_threshold_sees() {
    // Heights below a yard, with every bit of the float in use: stored relative to the new
    // tiles' base (3 yards) most would read back a float apart, float noise `check` counts
    // with no threshold.
    let dir = tempfile::tempdir().unwrap();
    let wdt = map_with_heights(dir.path(), "Fine", |v| {
        0.1 + (v.gx % 61) as f32 * 0.013_7 + (v.gy % 53) as f32 * 0.007_1
    });
    let wdt_s = wdt.to_str().unwrap();
    new_ok(&[
        "--add-tiles",
        "11",
        "10",
        "11",
        "10",
        "--height",
        "3",
        wdt_s,
    ]);
    let o = common::loam_ok(&["check", "--seam-threshold", "0", wdt_s]);
    assert!(!text(&o).contains("seam"), "no seam at all:\n{}", text(&o));
}

#[test]
fn added_tiles_meet_the_old_terrain_without_a_seam_and_the_old_tile_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = sloped_map(dir.path());
    let old = std::fs::read(dir.path().join("Slope_10_10.adt")).unwrap();
    let said = new_ok(&[
        "--add-tiles",
        "11",
        "10",
        "11",
        "11",
        "--height",
        "3",
        wdt.to_str().unwrap(),
    ]);
    // The old tile's east edge (129 vertices) and its south-east corner.
    assert!(said.contains("130 border vertices met"), "{said}");
    assert_eq!(
        std::fs::read(dir.path().join("Slope_10_10.adt")).unwrap(),
        old
    );
    let map = open(&wdt, Generation::V112);
    assert_eq!(map.tiles.len(), 3);
    let seams = loam::edit::terrain::seams::find(&map);
    assert!(
        seams.is_empty(),
        "{} seams: {:?}",
        seams.len(),
        seams.first()
    );
    // Away from the old tile the new ones are at the height asked for.
    assert!(
        map.tiles[&tc(11, 11)].chunks[255]
            .heights
            .iter()
            .all(|&h| h == 3.0)
    );
    let wdl = pipeline::wdl::read_wdl(&dir.path().join("Slope.wdl")).unwrap();
    assert_eq!(wdl.tiles.len(), 3);
    let check = loam(&["check", wdt.to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check));

    // Adding a tile the map has changes nothing.
    let before = folder_files(dir.path());
    let o = loam(&[
        "new",
        "--add-tiles",
        "10",
        "10",
        "10",
        "10",
        wdt.to_str().unwrap(),
    ]);
    assert!(
        text(&o).contains("tile 10_10 is already in the map"),
        "{}",
        text(&o)
    );
    assert_eq!(folder_files(dir.path()), before);
}

#[test]
fn removed_tiles_leave_the_wdt_the_folder_and_the_wdl() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    common::loam_new("Isle", "3.3.5", "1 1 2 2", &[], out);
    let wdt = out.join("Isle.wdt");
    let kept = std::fs::read(out.join("Isle_2_2.adt")).unwrap();
    new_ok(&["--remove-tiles", "1", "1", "2", "1", wdt.to_str().unwrap()]);
    let map = open(&wdt, Generation::V335);
    let listed: Vec<TileCoord> = loam::model::blank::listed_tiles(&map);
    assert_eq!(listed, [tc(1, 2), tc(2, 2)]);
    assert!(!out.join("Isle_1_1.adt").exists() && !out.join("Isle_2_1.adt").exists());
    assert_eq!(std::fs::read(out.join("Isle_2_2.adt")).unwrap(), kept);
    let wdl = pipeline::wdl::read_wdl(&out.join("Isle.wdl")).unwrap();
    assert_eq!(
        wdl.tiles.keys().copied().collect::<Vec<_>>(),
        [tc(1, 2), tc(2, 2)]
    );
    let o = loam(&[
        "new",
        "--remove-tiles",
        "9",
        "9",
        "9",
        "9",
        wdt.to_str().unwrap(),
    ]);
    assert!(
        text(&o).contains("tile 9_9 is not in the map"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_monolithic_map_gains_and_loses_tiles_and_keeps_the_others_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    common::loam_new("Old", "0.5.3", "20 20 20 21", &["--height", "8"], out);
    let wdt = out.join("Old.wdt");
    let before = open(&wdt, Generation::Alpha053);
    new_ok(&[
        "--add-tiles",
        "21",
        "20",
        "21",
        "20",
        "--height",
        "2",
        wdt.to_str().unwrap(),
    ]);
    new_ok(&[
        "--remove-tiles",
        "20",
        "21",
        "20",
        "21",
        wdt.to_str().unwrap(),
    ]);
    let after = open(&wdt, Generation::Alpha053);
    assert_eq!(
        after.tiles.keys().copied().collect::<Vec<_>>(),
        [tc(20, 20), tc(21, 20)]
    );
    assert_eq!(after.tiles[&tc(20, 20)], before.tiles[&tc(20, 20)]);
    // The added tile's west edge is the old tile's east edge; the rest is at 2 yd.
    assert!(after.tiles[&tc(21, 20)].chunks[0].heights[0] == 8.0);
    assert!(after.tiles[&tc(21, 20)].chunks[15].heights[8] == 2.0);
    assert!(loam::edit::terrain::seams::find(&after).is_empty());
}

#[test]
fn a_wmo_only_map_names_and_places_its_wmo_in_the_wdt() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tent");
    let models = out.join("World/Loam/Tent");
    std::fs::create_dir_all(&models).unwrap();
    for f in ["trolltent.wmo", "trolltent_000.wmo"] {
        std::fs::copy(corpus_file(&format!("blizzardry/{f}")), models.join(f)).unwrap();
    }
    let wmo = "World\\Loam\\Tent\\trolltent.wmo";
    for g in ["3.3.5", "1.12"] {
        let name = format!("Tent{}", g.replace('.', ""));
        new_ok(&[&name, "--to", g, "--wmo", wmo, out.to_str().unwrap()]);
        let opened = pipeline::open_map(&out.join(format!("{name}.wdt"))).unwrap();
        let map = opened.map;
        assert_eq!(map.flags & 0x1, 0x1, "{g}: MPHD WMO-only flag");
        assert!(map.tiles.is_empty());
        let global = map.global_wmo.expect("MWMO and MODF");
        assert_eq!(global.name, wmo);
        let p = &global.placement;
        // At the world's origin, as near as the record's f32 (17066.666, …) holds it.
        assert!(
            p.position.iter().all(|v| v.abs() < 1e-3),
            "{:?}",
            p.position
        );
        // The extents are the model's box (from the file, read here by wow-wmo), unturned, to
        // within the records' f32 steps near 17066 (1/512 yd).
        let root = wow_wmo::parse_wmo(&mut std::io::Cursor::new(
            std::fs::read(models.join("trolltent.wmo")).unwrap(),
        ))
        .unwrap();
        let wow_wmo::ParsedWmo::Root(root) = root else {
            panic!("a root WMO")
        };
        let (lo, hi) = (root.bounding_box_min, root.bounding_box_max);
        let size = |a: [f64; 3], b: [f64; 3]| [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let got = size(p.bounds_min, p.bounds_max);
        let want = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
        for k in 0..3 {
            assert!(
                (got[k] - f64::from(want[k])).abs() < 4e-3,
                "{got:?} vs {want:?}"
            );
        }
    }
    let o = loam(&[
        "new",
        "Nothing",
        "--to",
        "3.3.5",
        "--wmo",
        "World\\No\\Such.wmo",
        out.to_str().unwrap(),
    ]);
    assert!(
        !o.status.success() && text(&o).contains("--client"),
        "{}",
        text(&o)
    );
}
