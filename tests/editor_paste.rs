//! The Copy & paste tool in the real app (egui_kittest, no GL): a drag on the sample selects a
//! rectangle, Copy takes it, the clipboard stays when a corpus tile is opened instead, and a
//! click there pastes it as one undo step, which Undo takes back bit for bit.

mod common;
mod editor_support;

use egui::Modifiers;
use egui_kittest::kittest::Queryable;
use loam::app::file_picker::ScriptedDialogs;
use loam::doc::editing::Tool;
use loam::ui::viewport::VIEWPORT_LABEL;

/// Chooses the Copy & paste tool on the sample and drags a rectangle in the view: the drag's
/// screen corners and the ground under them.
fn select_rectangle(
    h: &mut egui_kittest::Harness<'_, loam::app::LoamApp>,
) -> ([egui::Pos2; 2], [loam::render::pick::TerrainPoint; 2]) {
    h.run();
    let view = h.get_by_label(VIEWPORT_LABEL).rect();
    let (a, b) = (
        view.center() + egui::vec2(-30.0, 40.0),
        view.center() + egui::vec2(40.0, 90.0),
    );
    editor_support::choose_tool(h, Tool::CopyPaste);
    assert!(h.query_by_label("Nothing selected").is_some());
    let pa = editor_support::ground_under(h, a);
    editor_support::drag(h, a, b, Modifiers::NONE);
    let pb = editor_support::ground_under(h, b);
    ([a, b], [pa, pb])
}

#[test]
fn a_rectangle_copied_from_the_sample_pastes_into_another_map_as_one_undo_step() {
    let dialogs = ScriptedDialogs::default();
    let mut h = editor_support::scripted(&dialogs, None, None);
    select_rectangle(&mut h);
    assert!(
        editor_support::shows(&h, "Selection: "),
        "the drag selected a rectangle"
    );
    h.get_by_label("Copy").click();
    h.run();
    assert!(editor_support::shows(&h, "quads of Sample"));

    // Another map: the clipboard stays.
    let adt = common::corpus_file("wowserhq-format/map/continent4229.adt");
    dialogs.answer_map(Some(adt.clone()));
    editor_support::click_each(&mut h, &["File", "Open…"]);
    assert_eq!(h.state().session().unwrap().source, adt);
    if h.state().editing().settings.tool != Tool::CopyPaste {
        editor_support::choose_tool(&mut h, Tool::CopyPaste);
    }
    assert!(editor_support::shows(&h, "quads of Sample"));
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

#[test]
fn bake_shadows_in_the_selection_bakes_only_the_chunks_it_overlaps_as_one_undo_step() {
    // Raise a hill first: the sample's own shadows are baked already, and the new ground casts
    // new ones.
    let dialogs = ScriptedDialogs::default();
    let mut h = editor_support::scripted(&dialogs, None, None);
    let ([a, b], [pa, pb]) = select_rectangle(&mut h);
    assert!(editor_support::shows(&h, "Selection: "));
    // Raise a hill in it (the sample's own shadows are baked already; the new ground casts new
    // ones), then back to the selection, which the tool kept.
    editor_support::choose_tool(&mut h, Tool::Raise);
    let mid = a + (b - a) * 0.5;
    editor_support::ground_under(&mut h, mid);
    editor_support::drag(&mut h, mid, mid + egui::vec2(4.0, 0.0), Modifiers::NONE);
    editor_support::choose_tool(&mut h, Tool::CopyPaste);
    assert!(editor_support::shows(&h, "Selection: "));
    let before = editor_support::map(&h);
    let steps = h.state().editing().history.len();
    h.get_by_label("Bake shadows in the selection").click();
    h.run();
    assert_eq!(h.state().editing().history.len(), steps + 1, "one step");
    let after = editor_support::map(&h);
    // The chunks whose square lies between the two picked points (a little inside, as the
    // selection snaps to the lattice) and no chunk beyond a chunk's width of them.
    let (lo, hi) = (
        [pa.world[0].min(pb.world[0]), pa.world[1].min(pb.world[1])],
        [pa.world[0].max(pb.world[0]), pa.world[1].max(pb.world[1])],
    );
    let chunk = loam::model::coords::CHUNK_SIZE;
    let (mut changed, mut inside) = (0, 0);
    for (c, t) in &before.tiles {
        for (i, (x, y)) in t.chunks.iter().zip(&after.tiles[c].chunks).enumerate() {
            let [nx, ny] = loam::model::coords::chunk_north_west(*c, i % 16, i / 16);
            // The chunk's box: x from nx − chunk to nx, y from ny − chunk to ny.
            let near = nx > lo[0] - chunk
                && nx - chunk < hi[0] + chunk
                && ny > lo[1] - chunk
                && ny - chunk < hi[1] + chunk;
            let within = nx - chunk >= lo[0] + 1.0
                && nx <= hi[0] - 1.0
                && ny - chunk >= lo[1] + 1.0
                && ny <= hi[1] - 1.0;
            if x != y {
                changed += 1;
                assert!(near, "chunk {i} of {c:?} is far from the selection");
            }
            if within {
                inside += 1;
                assert!(y.shadow.is_some(), "chunk {i} of {c:?} inside has a map");
            }
        }
    }
    assert!(changed > 0, "{changed} changed, {inside} inside");
    editor_support::click_each(&mut h, &["Undo"]);
    assert_eq!(editor_support::map(&h).tiles, before.tiles);
}
