//! Seams end to end through the `loam` binary: `check` lists the tears largest first and counts
//! the float noise in one line; `fix --seams` closes every seam, touches nothing off the chunk
//! borders, and `check` then finds none.

mod common;
mod seamy;

use common::{loam, loam_on, text};
use loam::disk;
use loam::model::coords::{inner_vertex, outer_vertex};
use loam::pipeline;

/// `loam check` with no threshold finds no seam in `map`, not even float noise.
fn assert_no_seam_at_all(map: &std::path::Path) {
    let o = common::loam_ok(&["check", "--seam-threshold", "0", map.to_str().unwrap()]);
    assert!(!text(&o).contains("seam"), "no seam at all:\n{}", text(&o));
}

/// The size in "seam of 74.9985 yd between …".
fn seam_size(line: &str) -> f32 {
    let rest = line.split("seam of ").nth(1).expect("a seam line");
    rest.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn check_lists_tears_largest_first_and_counts_the_noise_then_fix_closes_all() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = seamy::write(dir.path());
    let wdt_s = wdt.to_str().unwrap();

    let o = loam(&["check", wdt_s]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    let seams: Vec<&str> = t.lines().filter(|l| l.contains(": seam of ")).collect();
    assert_eq!(seams.len(), 3, "the three tears and nothing else:\n{t}");
    for (line, tear) in seams.iter().zip(seamy::TEARS) {
        let size = seam_size(line);
        assert!(
            (size - tear.yards).abs() < 0.01,
            "{line}: expected {}",
            tear.yards
        );
    }
    // Inside a tile: that tile's file and both chunks; across tiles: both tiles and chunks.
    assert!(
        seams[0].contains(".adt: ") && seams[0].ends_with("between chunk 0,0 and chunk 1,0"),
        "{}",
        seams[0]
    );
    let tiles: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".adt"))
        .collect();
    assert_eq!(tiles.len(), 4);
    assert!(
        seams[1].contains("chunk 15,4 and tile ") && seams[1].ends_with(" chunk 0,4"),
        "{}",
        seams[1]
    );
    assert!(
        seams[2].contains("chunk 6,15 and tile ") && seams[2].ends_with(" chunk 6,0"),
        "{}",
        seams[2]
    );
    let small = format!(
        "{} more seam(s) of at most 0.01 yd, not listed",
        seamy::BORDERS - 3
    );
    assert!(t.contains(&small), "missing {small:?} in:\n{t}");
    assert!(t.contains("3 problem(s) found"), "{t}");

    // A higher threshold lists nothing, counts everything and passes.
    let o = common::loam_ok(&["check", "--seam-threshold", "100", wdt_s]);
    assert!(!text(&o).contains(": seam of "), "{}", text(&o));
    assert!(
        text(&o).contains(&format!(
            "{} more seam(s) of at most 100 yd",
            seamy::BORDERS
        )),
        "{}",
        text(&o)
    );
    let o = loam(&["check", "--seam-threshold", "-1", wdt_s]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));

    let out = tempfile::tempdir().unwrap();
    let o = common::loam_ok(&["fix", "--seams", wdt_s, out.path().to_str().unwrap()]);
    let t = text(&o);
    let changed = format!("seams: {} vertices changed", seamy::SHARED_VERTICES);
    assert!(t.contains(&changed), "missing {changed:?} in:\n{t}");
    // The largest change: half the 75 yd tear (the mean of two copies), give or take the noise.
    let largest: f32 = t
        .split("largest change ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the largest change is printed");
    assert!((largest - 37.5).abs() < 0.01, "{t}");
    assert!(t.contains("wrote 5 file(s)"), "the WDT and four tiles: {t}");

    let fixed = out.path().join("Sample.wdt");
    assert_no_seam_at_all(&fixed);

    // Off the chunk borders nothing moved, bit for bit.
    let before = pipeline::open_map(&wdt).unwrap().map;
    let after = pipeline::open_map(&fixed).unwrap().map;
    assert_eq!(before.tiles.len(), after.tiles.len());
    for (coord, tb) in &before.tiles {
        let ta = &after.tiles[coord];
        for (cb, ca) in tb.chunks.iter().zip(&ta.chunks) {
            let off_border = (1..8)
                .flat_map(|r| (1..8).map(move |c| outer_vertex(r, c)))
                .chain((0..8).flat_map(|r| (0..8).map(move |c| inner_vertex(r, c))));
            for i in off_border {
                assert_eq!(
                    cb.heights[i].to_bits(),
                    ca.heights[i].to_bits(),
                    "{coord:?}"
                );
            }
            assert_eq!(cb.layers, ca.layers);
        }
    }
}

#[test]
fn fix_on_a_lone_tile_keeps_its_name_and_stitches_inside_it() {
    let dir = tempfile::tempdir().unwrap();
    seamy::write(dir.path());
    let first = pipeline::open_map(&dir.path().join("Sample.wdt"))
        .unwrap()
        .map
        .tiles
        .keys()
        .next()
        .copied()
        .unwrap();
    let adt = dir.path().join(disk::tile_file_name("Sample", first));
    let o = loam(&["check", adt.to_str().unwrap()]);
    let t = text(&o);
    // Only the tear inside the tile: the others cross to tiles not opened.
    assert_eq!(t.matches(": seam of ").count(), 1, "{t}");

    let out = tempfile::tempdir().unwrap();
    let o = loam_on(&["fix", "--seams"], &adt, out.path());
    assert!(o.status.success(), "{}", text(&o));
    let written = out.path().join(adt.file_name().unwrap());
    assert_no_seam_at_all(&written);
}

#[test]
fn fix_without_a_fix_says_what_to_choose() {
    let o = loam(&["fix", "a.wdt", "out"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("--seams"), "{}", text(&o));
}

#[test]
fn fix_closes_every_seam_whatever_bases_other_tools_left() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = seamy::write_with_scattered_bases(dir.path());
    let o = loam(&["check", wdt.to_str().unwrap()]);
    assert!(
        text(&o).contains("more seam(s) of at most 0.01 yd"),
        "{}",
        text(&o)
    );
    let out = tempfile::tempdir().unwrap();
    let o = loam_on(&["fix", "--seams"], &wdt, out.path());
    assert!(o.status.success(), "{}", text(&o));
    let fixed = out.path().join("Sample.wdt");
    assert_no_seam_at_all(&fixed);
    // Some chunks needed base 0 to get there (without it this map kept seams of a few
    // millionths of a yard); their absolute heights off the borders did not move.
    let before = pipeline::open_map(&wdt).unwrap().map;
    let after = pipeline::open_map(&fixed).unwrap().map;
    let mut rebased = 0;
    for (coord, tb) in &before.tiles {
        for (cb, ca) in tb.chunks.iter().zip(&after.tiles[coord].chunks) {
            if ca.base_height != cb.base_height {
                assert_eq!(ca.base_height, 0.0);
                rebased += 1;
            }
            for i in (1..8).flat_map(|r| (1..8).map(move |c| outer_vertex(r, c))) {
                assert_eq!(
                    cb.heights[i].to_bits(),
                    ca.heights[i].to_bits(),
                    "{coord:?}"
                );
            }
        }
    }
    assert!(rebased > 0, "the map exercises rebasing");
}
