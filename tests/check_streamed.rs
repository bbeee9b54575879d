//! `loam check` reads a map tile by tile (`cli::check::check_path`), keeping of each tile only
//! its digest, so that a 64×64 map is checked in the memory of a few tiles. What it reports must
//! be exactly what checking the whole map opened at once reports (`check_opened` of
//! `pipeline::open_map`), problem for problem and in the same order: compared for seams inside and
//! across tiles, uniqueId clashes across tiles, a stale WDL, file quirks of the WDT and of a tile,
//! missing and unreadable tiles, folders without a WDT, a 0.5.x monolithic WDT and lone tiles.
//! Each case also asserts what it plants, so that a check that found nothing either way fails.

mod common;
mod seamy;

use std::path::Path;

use common::*;
use loam::cli::check::{self, DEFAULT_SEAM_THRESHOLD, Report, Severity};
use loam::disk;
use loam::format::Generation;
use loam::model::TileCoord;
use loam::pipeline;

fn whole(path: &Path, from: Option<Generation>) -> Report {
    let opened = pipeline::open_map_as(path, from).expect("opens whole");
    check::check_opened(&opened, DEFAULT_SEAM_THRESHOLD)
}

/// The streamed report of `path`, after asserting that it equals the whole map's.
fn streamed(path: &Path) -> Report {
    streamed_as(path, None)
}

/// [`streamed`], read as `from` says.
fn streamed_as(path: &Path, from: Option<Generation>) -> Report {
    let s = check::check_path(path, DEFAULT_SEAM_THRESHOLD, from).expect("checked");
    let w = whole(path, from);
    assert!(
        s == w,
        "{}: the streamed check differs from the whole map's:\n--- whole\n{w:#?}\n--- streamed\n{s:#?}",
        path.display()
    );
    s
}

fn messages(r: &Report, containing: &str) -> Vec<String> {
    r.problems
        .iter()
        .filter(|p| p.message.contains(containing))
        .map(|p| format!("{}: {}", p.file.display(), p.message))
        .collect()
}

#[test]
fn seams_inside_and_across_tiles_are_found_and_counted_as_in_the_whole_map() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = seamy::write(dir.path());
    let r = streamed(&wdt);
    let seams = messages(&r, "seam of");
    assert_eq!(seams.len(), seamy::TEARS.len(), "{seams:#?}");
    for (line, tear) in seams.iter().zip(&seamy::TEARS) {
        // The tear plus the float noise seamy puts on every other chunk's border (< 0.005 yd).
        let size = line
            .split("seam of ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let size: f32 = size.parse().unwrap();
        assert!((size - tear.yards).abs() < 0.005, "{line}");
    }
    // The tear inside the tile belongs to the tile's file, those across tiles to the WDT.
    assert!(seams[0].contains("Sample_31_31.adt: "), "{}", seams[0]);
    assert!(seams[1].contains("Sample.wdt: ") && seams[1].contains("tile 32_31 chunk 0,4"));
    assert!(seams[2].contains("Sample.wdt: ") && seams[2].contains("tile 31_32 chunk 6,0"));
    assert_eq!(r.small_seams, seamy::BORDERS - seamy::TEARS.len());
}

#[test]
fn uid_clashes_across_tiles_and_a_stale_wdl_are_found_as_in_the_whole_map() {
    let dir = tempfile::tempdir().unwrap();
    loam::sample::write_sample(dir.path()).unwrap();
    let wdt = dir.path().join("Sample.wdt");
    let low = pipeline::wdl::compute(dir.path(), None, None).unwrap();
    pipeline::wdl::write_wdl(dir.path(), "Sample", &low.tiles).unwrap();
    assert!(streamed(&wdt).problems.is_empty(), "the sample is clean");

    // Tile 32_32 takes a doodad uid of 31_31 at another place, and its heights rise 40 yd:
    // the WDL written before is now stale there.
    let mut opened = pipeline::open_map(&wdt).unwrap();
    let at = |x, y| TileCoord::new(x, y).unwrap();
    let taken = opened.map.tiles[&at(31, 31)].doodads[0].unique_id;
    let t = opened.map.tiles.get_mut(&at(32, 32)).unwrap();
    t.doodads[0].unique_id = taken;
    for c in t.chunks.iter_mut() {
        c.base_height += 40.0;
        for h in c.heights.iter_mut() {
            *h += 40.0;
        }
    }
    let files = pipeline::encode_map(&opened.map, Generation::V335, true, None).unwrap();
    disk::write_files(dir.path(), &files, |_| {}).unwrap();

    let r = streamed(&wdt);
    let clashes = messages(&r, "is used by two different doodads");
    assert_eq!(clashes.len(), 1, "{r:#?}");
    assert!(
        clashes[0].contains(&format!("uniqueId {taken} ")) && clashes[0].contains("tile 32_32")
    );
    let stale = messages(&r, "WDL heights differ");
    assert_eq!(stale.len(), 1, "{r:#?}");
    assert!(stale[0].contains("tile 32_32"), "{}", stale[0]);
}

/// `bytes` with the payload of every top-level chunk tagged `tag` (as written on disk, reversed)
/// passed through `f`.
fn map_chunks(bytes: &mut [u8], tag: &[u8; 4], f: impl Fn(&mut [u8])) {
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        let end = (at + 8 + size).min(bytes.len());
        if &bytes[at..at + 4] == tag {
            f(&mut bytes[at + 8..end]);
        }
        at = end;
    }
}

#[test]
fn quirks_of_the_wdt_and_of_a_tile_are_warned_of_as_in_the_whole_map() {
    let dir = tempfile::tempdir().unwrap();
    // A WDT without MWMO (Noggit, converters), over a tile with lower-case forward-slash paths.
    let wdt_bytes = std::fs::read(corpus_file("wowserhq-format/map/pvpzone.wdt")).unwrap();
    assert_eq!(
        &wdt_bytes[wdt_bytes.len() - 8..wdt_bytes.len() - 4],
        b"OMWM"
    );
    let wdt = dir.path().join("pvpzone.wdt");
    std::fs::write(&wdt, &wdt_bytes[..wdt_bytes.len() - 8]).unwrap();
    let mut adt = std::fs::read(corpus_file("wowserhq-format/map/pvpzone3430.adt")).unwrap();
    map_chunks(&mut adt, b"XETM", |p| {
        for b in p {
            *b = if *b == b'\\' {
                b'/'
            } else {
                b.to_ascii_lowercase()
            };
        }
    });
    std::fs::write(dir.path().join("pvpzone_34_30.adt"), &adt).unwrap();

    let r = streamed(&wdt);
    // The WDT lists tiles the corpus does not have; nothing else is an error.
    assert!(
        r.problems
            .iter()
            .all(|p| p.severity == Severity::Warning || p.message.starts_with("MAIN lists tile")),
        "{r:#?}"
    );
    let mwmo = messages(&r, "no MWMO");
    assert_eq!(mwmo.len(), 1, "{r:#?}");
    assert!(mwmo[0].starts_with(&format!("{}: ", wdt.display())));
    let paths = messages(&r, "lower case");
    assert_eq!(paths.len(), 1, "{r:#?}");
    assert!(paths[0].contains("pvpzone_34_30.adt: MTEX"), "{}", paths[0]);
}

#[test]
fn missing_and_unreadable_tiles_are_named_as_in_the_whole_map() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = sample_with_a_bad_tile(dir.path());
    std::fs::remove_file(dir.path().join("Sample_31_32.adt")).unwrap();
    let r = streamed(&wdt);
    let missing = messages(&r, "MAIN lists tile 31_32");
    assert_eq!(missing.len(), 1, "{r:#?}");
    let bad = messages(&r, "tile 32_31 cannot be read");
    assert_eq!(bad.len(), 1, "{r:#?}");
    assert!(bad[0].starts_with(&format!(
        "{}: ",
        dir.path().join("Sample_32_31.adt").display()
    )));

    // The same tiles without the WDT: a folder map, which lists only the tiles that read.
    std::fs::remove_file(&wdt).unwrap();
    let r = streamed(dir.path());
    assert_eq!(messages(&r, "MAIN lists").len(), 0, "{r:#?}");
    assert_eq!(messages(&r, "cannot be read").len(), 1, "{r:#?}");
}

#[test]
fn corpus_maps_every_generation_and_lone_tiles_check_as_the_whole_map() {
    let dir = tempfile::tempdir().unwrap();
    let pvp = pvpzone_folder(&dir.path().join("pvp"));
    streamed(&pvp.join("pvpzone.wdt"));
    // Each corpus ADT in a folder of its own under a Name_X_Y name, and the four as neighbours
    // in one folder (their borders do not meet: every pair is a seam).
    let names = [
        "Continent_42_29.adt",
        "Northrend_37_25.adt",
        "PvpZone_34_30.adt",
        "Azeroth_38_46.adt",
    ];
    let neighbours = [
        "Mixed_30_30.adt",
        "Mixed_31_30.adt",
        "Mixed_30_31.adt",
        "Mixed_31_31.adt",
    ];
    let all: Vec<(&str, &str)> = ADTS.iter().copied().zip(neighbours).collect();
    let mixed = streamed(&folder_of(&dir.path().join("mixed"), &all));
    assert_eq!(messages(&mixed, "seam of").len(), 4 * 16, "{mixed:#?}");
    for (i, (adt, name)) in ADTS.iter().zip(names).enumerate() {
        let folder = folder_of(&dir.path().join(format!("f{i}")), &[(adt, name)]);
        streamed(&folder);
        // A lone tile is opened whole either way.
        streamed(&corpus_file(adt));
    }

    let sample = dir.path().join("sample");
    let wdt = seamy::write(&sample);
    for to in ["0.5.3", "0.6.0", "1.12"] {
        let out = dir.path().join(format!("seamy-{to}"));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_loam"))
            .args(["convert", "--to", to])
            .arg(&wdt)
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "convert to {to}");
        // Converting closes no seam: the tears are still there (a 0.5.3 map is one WDT).
        let r = streamed_as(&out.join("Sample.wdt"), Some(to.parse().unwrap()));
        assert_eq!(
            messages(&r, "seam of").len(),
            seamy::TEARS.len(),
            "{to}: {r:#?}"
        );
        let check = |extra: &[&str]| {
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_loam"))
                .arg("check")
                .args(extra)
                .arg(out.join("Sample.wdt"))
                .output()
                .unwrap();
            String::from_utf8_lossy(&o.stdout).into_owned()
        };
        if to == "1.12" {
            // Nothing in 1.12 files tells them from 3.3.5 without its chunks: 1.12 is assumed,
            // and with problems found `loam check` says what it assumed and how to say otherwise.
            let assumed = check(&[]);
            assert!(
                assumed.contains("was read as 1.12 (no 3.3.5-only chunk: 1.12 assumed)")
                    && assumed.contains("--from GEN"),
                "{assumed}"
            );
        }
        if to == "0.6.0" {
            // Without liquid, the chunk borders tell 0.6.0 from 1.12: read as 0.6.0 unasked,
            // exactly as when the user says so.
            let decided = check(&[]);
            let told = check(&["--from", "0.6.0"]);
            assert!(!decided.contains("was read as"), "{decided}");
            assert!(!told.contains("was read as"), "{told}");
            assert!(told.contains("3 problem(s) found"), "{told}");
            assert_eq!(decided, told);
        }
    }
}
