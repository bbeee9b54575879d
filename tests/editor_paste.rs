//! The Copy & paste tool in the real app (egui_kittest, no GL): a drag on the sample selects a
//! rectangle, Copy takes it, the clipboard stays when a corpus tile is opened instead, and a
//! click there pastes it as one undo step, which Undo takes back bit for bit.

mod common;
mod editor_support;

use egui::Modifiers;
use egui_kittest::kittest::Queryable;
use loam::app::dialogs::ScriptedDialogs;
use loam::doc::editing::Tool;
use loam::ui::viewport::VIEWPORT_LABEL;

#[test]
fn a_rectangle_copied_from_the_sample_pastes_into_another_map_as_one_undo_step() {
    let dialogs = ScriptedDialogs::default();
    let mut h = editor_support::scripted(&dialogs, None, None);
    h.run();
    let view = h.get_by_label(VIEWPORT_LABEL).rect();
    let (a, b) = (
        view.center() + egui::vec2(-30.0, 40.0),
        view.center() + egui::vec2(40.0, 90.0),
    );
    h.get_by_label(Tool::CopyPaste.name()).click();
    h.run();
    assert!(h.query_by_label("Nothing selected").is_some());
    editor_support::ground_under(&mut h, a);
    editor_support::drag(&mut h, a, b, Modifiers::NONE);
    assert!(
        h.query_by_label_contains("Selection: ").is_some(),
        "the drag selected a rectangle"
    );
    h.get_by_label("Copy").click();
    h.run();
    assert!(h.query_by_label_contains("quads of Sample").is_some());

    // Another map: the clipboard stays.
    let adt = common::corpus_file("wowserhq-format/map/continent4229.adt");
    dialogs.answer_map(Some(adt.clone()));
    editor_support::click_each(&mut h, &["File", "Open…"]);
    assert_eq!(h.state().session().unwrap().source, adt);
    if h.state().editing().settings.tool != Tool::CopyPaste {
        h.get_by_label(Tool::CopyPaste.name()).click();
        h.run();
    }
    assert!(h.query_by_label_contains("quads of Sample").is_some());
    let view = h.get_by_label(VIEWPORT_LABEL).rect();
    let at = view.center() + egui::vec2(-30.0, 40.0);
    editor_support::ground_under(&mut h, at);
    let before = h.state().session().unwrap().map.tiles.clone();
    let steps = h.state().editing().history.len();
    editor_support::primary(&h, at, true, Modifiers::NONE);
    h.run_steps(2);
    editor_support::primary(&h, at, false, Modifiers::NONE);
    h.run_steps(2);
    assert_eq!(
        h.state().editing().history.len(),
        steps + 1,
        "one paste, one step"
    );
    assert_ne!(
        h.state().session().unwrap().map.tiles,
        before,
        "the paste changed the tile"
    );
    editor_support::click_each(&mut h, &["Undo"]);
    assert_eq!(h.state().session().unwrap().map.tiles, before);
}
