//! Edit ▸ Stitch seams in the editor window, driven through egui_kittest with the real app on a
//! map with seams: one undo step that closes every seam of the loaded tiles, a status message
//! with the count, Ctrl+Z restoring every height exactly and Ctrl+Shift+Z reapplying it.

mod editor_support;

mod seamy;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use loam::app::LoamApp;
use loam::edit::terrain::seams;
use loam::model::Map;

fn harness(open: std::path::PathBuf) -> Harness<'static, LoamApp> {
    editor_support::harness(editor_support::Opening {
        open: Some(open),
        ..Default::default()
    })
}

use editor_support::map;

/// Every height of every chunk as bits, so that -0.0 ≠ 0.0 and nothing is "close enough".
fn heights(map: &Map) -> Vec<u32> {
    map.tiles
        .values()
        .flat_map(|t| t.chunks.iter())
        .flat_map(|c| c.heights.iter().map(|h| h.to_bits()))
        .collect()
}

#[test]
fn stitch_seams_is_one_undo_step_and_ctrl_z_restores_every_height() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = seamy::write(dir.path());
    let mut h = harness(wdt);
    h.run();
    let before = map(&h);
    assert_eq!(before.tiles.len(), 4, "the 2×2 map opens whole");
    assert_eq!(seams::find(&before).len(), seamy::BORDERS);
    let steps = h.state().editing().history.len();

    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label("Stitch seams").click();
    h.run();

    let after = map(&h);
    assert_eq!(
        h.state().editing().history.len(),
        steps + 1,
        "one undo step"
    );
    assert!(seams::find(&after).is_empty(), "every seam closed");
    assert!(h.state().has_unsaved());
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(
        message.contains(&format!("{} vertices changed", seamy::SHARED_VERTICES)),
        "{message}"
    );
    h.get_by_label_contains("Stitch seams, ");

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    let undone = map(&h);
    assert_eq!(
        heights(&undone),
        heights(&before),
        "Ctrl+Z restores every height"
    );
    assert!(undone.tiles == before.tiles, "and everything else");
    assert!(!h.state().has_unsaved());

    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(
        heights(&map(&h)),
        heights(&after),
        "Ctrl+Shift+Z reapplies it"
    );
}
