//! The editor on maps as users have them (kittest, real app, no GL): a map with one unreadable
//! tile opens with the rest and marks that tile; a folder of tiles without a WDT opens from the
//! File menu; File ▸ Read as reopens a map as another generation and remembers it.

mod editor_support;

mod common;

use std::path::PathBuf;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use common::sample_with_a_bad_tile;
use loam::app::LoamApp;
use loam::app::file_picker::ScriptedDialogs;
use loam::format::Generation;
use loam::format::v060;
use loam::model::TileCoord;
use loam::ui::tile_map::{Region, TILE_MAP_LABEL};

fn harness(dialogs: &ScriptedDialogs, open: Option<PathBuf>) -> Harness<'static, LoamApp> {
    editor_support::scripted(dialogs, open, None)
}

fn bad_tile() -> TileCoord {
    TileCoord::new(32, 31).unwrap()
}

#[test]
fn a_map_with_one_corrupt_tile_opens_with_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = sample_with_a_bad_tile(dir.path());
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, Some(wdt));
    h.run();
    let s = h.state().session().expect("the map opens");
    assert_eq!(s.map.tiles.len(), 3, "the three good tiles are read");
    assert!(s.failed.contains_key(&bad_tile()));
    assert!(
        h.state()
            .message()
            .unwrap()
            .contains("32_31 could not be read"),
        "{:?}",
        h.state().message()
    );

    // The tile map marks it and says why under the mouse.
    let rect = h.get_by_label(TILE_MAP_LABEL).rect();
    let present = s.map.present_tiles().into_iter().collect();
    let at = Region::around(&present).tile_centre(rect, bad_tile());
    h.hover_at(at);
    // Tooltips wait a moment before they show.
    for _ in 0..60 {
        h.step();
    }
    h.get_by_label_contains("tile 32_31 cannot be read");

    // Saving the whole map elsewhere writes every other tile and never the unreadable one.
    let out = tempfile::tempdir().unwrap();
    let app = h.state_mut();
    let session = app.session_mut().unwrap();
    session.save_as(out.path(), Generation::V335).unwrap();
    assert!(out.path().join("Sample_31_31.adt").is_file());
    assert!(!out.path().join("Sample_32_31.adt").exists());
}

#[test]
fn a_folder_of_tiles_opens_from_the_file_menu() {
    let dir = tempfile::tempdir().unwrap();
    loam::sample::write_sample(dir.path()).unwrap();
    std::fs::remove_file(dir.path().join("Sample.wdt")).unwrap();
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    dialogs.answer_folder(Some(dir.path().to_path_buf()));
    editor_support::click_each(&mut h, &["File", "Open folder of tiles…"]);
    let s = h.state().session().expect("the folder opens");
    assert_eq!(s.source, dir.path());
    assert!(s.wdt_inferred);
    assert_eq!(s.on_disk.len(), 4);
    assert_eq!(s.map.present_tiles().len(), 4);
    // Save as writes a WDT for it.
    let out = tempfile::tempdir().unwrap();
    let app = h.state_mut();
    let session = app.session_mut().unwrap();
    session.load_all();
    let summary = session.save_as(out.path(), Generation::V335).unwrap();
    assert!(out.path().join("Sample.wdt").is_file());
    assert!(
        summary.report.to_string().contains("WDT written"),
        "{}",
        summary.report
    );
    // The session goes on on the written map, WDT and all.
    assert_eq!(session.source, out.path().join("Sample.wdt"));
    assert!(!session.wdt_inferred);
    assert_eq!(
        session.tile_path(TileCoord::new(31, 31).unwrap()),
        out.path().join("Sample_31_31.adt")
    );
}

#[test]
fn read_as_reopens_the_map_and_is_remembered() {
    // A 0.6.0 map without liquid whose chunk borders are torn: nothing in its bytes tells it
    // from 1.12 (chunk borders that meet would: `format::evidence`).
    let dir = tempfile::tempdir().unwrap();
    let mut map = loam::sample::sample_map();
    for t in map.tiles.values_mut() {
        for (i, c) in t.chunks.iter_mut().enumerate() {
            c.liquid = None;
            let lift = (i * 7 % 13) as f32 * 10.0 + 5.0;
            c.heights.iter_mut().for_each(|h| *h += lift);
        }
    }
    let mut prepared = map.clone();
    loam::convert::prepare_map(&mut prepared, Generation::V335, Generation::V060);
    let files = loam::pipeline::encode_map(&prepared, Generation::V060, true, None).unwrap();
    loam::disk::write_files(dir.path(), &files, |_| {}).unwrap();
    let wdt = dir.path().join("Sample.wdt");
    assert_eq!(
        v060::read_wdt(&std::fs::read(&wdt).unwrap(), "Sample")
            .unwrap()
            .present_tiles()
            .len(),
        4
    );

    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, Some(wdt.clone()));
    h.run();
    let s = h.state().session().unwrap();
    assert_eq!(s.generation, Generation::V112);
    assert!(s.decision.assumed);
    assert!(h.state().message().unwrap().contains("1.12 assumed"));

    editor_support::click_each(&mut h, &["File", "Read as"]);
    h.get_by_label("0.6.0").click();
    h.run();
    let s = h.state().session().unwrap();
    assert_eq!(s.generation, Generation::V060);
    let c = TileCoord::new(31, 31).unwrap();
    let back = &s.map.tiles[&c];
    for (a, b) in back.chunks.iter().zip(&prepared.tiles[&c].chunks) {
        for (x, y) in a.heights.iter().zip(b.heights.iter()) {
            assert!((x - y).abs() < 0.01, "heights read the 0.6.0 way");
        }
    }
    assert_eq!(
        h.state().settings().read_as_for(&wdt),
        Some(Generation::V060)
    );
    // Opening it again uses the remembered choice.
    h.state_mut().open(&wdt);
    assert_eq!(h.state().session().unwrap().generation, Generation::V060);
}
