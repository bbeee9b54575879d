//! File ▸ New map… and the tile map's Add tile / Remove tile, driven through egui_kittest with
//! the real app: the dialog writes the map into a folder of its own and opens it; a right-click
//! on an empty place of the tile map adds a tile there, on a tile removes it.

mod editor_support;

use std::path::Path;

use egui::{Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use loam::app::LoamApp;
use loam::app::file_picker::ScriptedDialogs;
use loam::model::TileCoord;

fn tc(x: usize, y: usize) -> TileCoord {
    TileCoord::new(x, y).unwrap()
}

/// Right-clicks `tile` on the tile map (the open map's region of it, as the widget draws it).
fn right_click_tile(h: &mut Harness<'_, LoamApp>, tile: TileCoord) {
    let at: Pos2 = editor_support::tile_map_point(h, tile);
    h.event(egui::Event::PointerMoved(at));
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: PointerButton::Secondary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run();
}

/// The app on the sample with File ▸ New map… up, its folder answered with `folder`.
fn new_map_dialog(folder: &Path) -> Harness<'static, LoamApp> {
    let dialogs = ScriptedDialogs::default();
    let mut h = editor_support::harness(editor_support::Opening {
        dialogs: dialogs.clone(),
        ..Default::default()
    });
    h.run();
    editor_support::click_each(&mut h, &["File", "New map…"]);
    dialogs.answer_folder(Some(folder.to_path_buf()));
    h.get_by_label("Folder…").click();
    h.run();
    h
}

fn listed(h: &Harness<'_, LoamApp>) -> Vec<TileCoord> {
    h.state().session().unwrap().map.present_tiles()
}

#[test]
fn a_new_map_is_written_into_a_folder_of_its_own_opened_and_its_tiles_changed() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_map_dialog(dir.path());
    h.get_by_label("1.12").click();
    h.run();
    h.get_by_label("Create").click();
    // The map is written on a worker thread, then opened.
    for _ in 0..200 {
        h.run();
        if h.state().session().is_some_and(|s| s.map.name == "NewMap") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let folder: &Path = &dir.path().join("NewMap");
    assert!(folder.join("NewMap.wdt").is_file(), "{}", folder.display());
    assert!(folder.join("NewMap.wdl").is_file());
    let s = h.state().session().expect("the new map opened");
    assert_eq!(s.map.name, "NewMap");
    assert_eq!(s.generation, loam::format::Generation::V112);
    assert_eq!(listed(&h), [tc(31, 31), tc(32, 31), tc(31, 32), tc(32, 32)]);
    assert!(h.query_by_label("Create").is_none(), "the dialog closed");

    // Right-click east of the map: Add tile.
    right_click_tile(&mut h, tc(33, 31));
    h.get_by_label("Add tile 33_31").click();
    h.run();
    assert!(folder.join("NewMap_33_31.adt").is_file());
    assert!(
        listed(&h).contains(&tc(33, 31)),
        "the map opened again with it"
    );
    // Right-click a tile of the map: Remove tile.
    right_click_tile(&mut h, tc(31, 31));
    h.get_by_label("Remove tile 31_31").click();
    h.run();
    assert!(!folder.join("NewMap_31_31.adt").exists());
    assert_eq!(listed(&h), [tc(32, 31), tc(33, 31), tc(31, 32), tc(32, 32)]);
}

#[test]
fn the_dialog_says_why_a_map_cannot_be_made_and_will_not_write_over_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("NewMap")).unwrap();
    std::fs::write(dir.path().join("NewMap/NewMap.wdt"), b"theirs").unwrap();
    let mut h = new_map_dialog(dir.path());
    assert!(
        editor_support::shows(&h, "already has NewMap.wdt"),
        "the dialog says the files are there"
    );
    // Create is disabled: clicking it writes nothing.
    h.get_by_label("Create").click();
    h.run();
    assert_eq!(
        std::fs::read(dir.path().join("NewMap/NewMap.wdt")).unwrap(),
        b"theirs"
    );
    assert_eq!(h.state().session().unwrap().map.name, "Sample");
}
