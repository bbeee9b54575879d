//! `loam info` reads a map tile by tile (`cli::info::describe`), so that a 64×64 map is described
//! in the memory of a few tiles. What it reports must be exactly what describing the whole map
//! opened at once reports (`map_info` of `pipeline::open_map`): compared as JSON for split maps of
//! every generation, folders without a WDT, 0.5.x monolithic WDTs, maps with a missing and with
//! an unreadable tile, and lone tiles.

mod common;

use std::path::Path;

use common::*;
use loam::cli::info;
use loam::format::Generation;
use loam::pipeline;

fn whole(path: &Path) -> String {
    let opened = pipeline::open_map(path).expect("opens whole");
    serde_json::to_string_pretty(&info::map_info(path, &opened)).unwrap()
}

fn streamed(path: &Path) -> String {
    serde_json::to_string_pretty(&info::describe(path, None).expect("described")).unwrap()
}

fn assert_same(path: &Path) {
    let (w, s) = (whole(path), streamed(path));
    assert!(
        w == s,
        "{}: streamed info differs from the whole map's:\n--- whole\n{w}\n--- streamed\n{s}",
        path.display()
    );
}

#[test]
fn streamed_info_equals_the_whole_maps_for_every_generation() {
    let dir = tempfile::tempdir().unwrap();
    let sample = sample_in(dir.path().join("sample"));
    assert_same(&sample.join("Sample.wdt"));
    let info = info::describe(&sample.join("Sample.wdt"), None).unwrap();
    assert_eq!(info.tiles.len(), 4, "the sample's four tiles are described");

    for to in ["0.5.3", "0.6.0", "1.12", "3.3.5"] {
        let out = dir.path().join(format!("sample-{to}"));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_loam"))
            .args(["convert", "--to", to])
            .arg(sample.join("Sample.wdt"))
            .arg(&out)
            .output()
            .unwrap();
        assert!(status.status.success(), "convert to {to}");
        assert_same(&out.join("Sample.wdt"));
        let g: Generation = to.parse().unwrap();
        let info = info::describe(&out.join("Sample.wdt"), None).unwrap();
        // A 0.6.0 map without liquid has no fact that tells it from 1.12 (docs/formats.md,
        // "Telling 0.6.0 from v18"): it reads as 1.12 unless --from says otherwise.
        if g != Generation::V060 {
            assert_eq!(info.generation, g.to_string());
        }
        assert_eq!(info.tiles.len(), 4, "{to}: four tiles");
    }
}

#[test]
fn streamed_info_equals_the_whole_maps_for_corpus_maps_folders_and_lone_tiles() {
    let dir = tempfile::tempdir().unwrap();
    // A corpus 3.3.5 WDT with its tile, and the same tile in a folder without a WDT.
    let wdt_map = pvpzone_folder(&dir.path().join("pvp"));
    assert_same(&wdt_map.join("pvpzone.wdt"));
    let folder = folder_of(
        &dir.path().join("folder"),
        &[("blizzardry/Azeroth_38_46.adt", "Azeroth_38_46.adt")],
    );
    assert_same(&folder);
    // A lone tile is opened whole either way.
    assert_same(&corpus_file("warcraft-net/ADT/Northrend_37_25.adt"));
}

#[test]
fn streamed_info_lists_missing_and_unreadable_tiles_as_the_whole_map_does() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = sample_with_a_bad_tile(dir.path());
    std::fs::remove_file(dir.path().join("Sample_31_32.adt")).unwrap();
    assert_same(&wdt);
    let info = info::describe(&wdt, None).unwrap();
    assert_eq!(info.tiles_missing, vec!["31_32".to_string()]);
    assert_eq!(info.tiles_unreadable.len(), 1);
    assert_eq!(info.tiles_unreadable[0].tile, "32_31");
    assert!(
        info.tiles_unreadable[0].error.contains("Sample_32_31.adt"),
        "{}",
        info.tiles_unreadable[0].error
    );
    assert_eq!(info.tiles.len(), 2);

    // The same tiles without the WDT: a folder map, whose MAIN lists only the readable tiles.
    std::fs::remove_file(&wdt).unwrap();
    assert_same(dir.path());
}
