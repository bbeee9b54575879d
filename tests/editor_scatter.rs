//! The Scatter tool in the real app (egui_kittest, no GL): two of the sample's models chosen
//! into the palette from the panel, one stroke dragged in the view places objects of only
//! those two models, standing on the ground, showing dab by dab while the drag goes and the very
//! same objects after the release, as one undo step; Undo gives the map back bit
//! for bit and Redo the stroke's; the erase mode takes them out again as one step; a palette
//! saved by name is there at the next start, and one exported to a file imports.

mod common;
mod editor_support;

use std::collections::BTreeSet;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use loam::app::LoamApp;
use loam::app::file_picker::ScriptedDialogs;
use loam::doc::editing::Tool;
use loam::model::Map;

const TREE: &str = "World\\Loam\\Sample\\Tree01.m2";
const BOULDER: &str = "World\\Loam\\Sample\\Boulder01.m2";

/// The app on the sample with its file dialogs answered from `dialogs`, the Scatter tool
/// chosen: the harness and the viewport's rectangle.
fn scatter_app(dialogs: &ScriptedDialogs) -> (Harness<'static, LoamApp>, egui::Rect) {
    let mut h = editor_support::scripted(dialogs, None, None);
    h.run();
    let view = h.get_by_label(loam::ui::viewport::VIEWPORT_LABEL).rect();
    editor_support::choose_tool(&mut h, Tool::Scatter);
    (h, view)
}

/// Every doodad of the map as (uid, model, position), each once.
fn doodads(map: &Map) -> BTreeSet<(u32, String, [u64; 3])> {
    map.tiles
        .values()
        .flat_map(|t| {
            t.doodads.iter().map(|d| {
                (
                    d.unique_id,
                    t.doodad_names[d.name_index as usize].clone(),
                    d.position.map(f64::to_bits),
                )
            })
        })
        .collect()
}

#[test]
fn two_models_chosen_into_the_palette_paint_a_stroke_that_undo_takes_back_bit_for_bit() {
    let data = tempfile::tempdir().unwrap();
    // SAFETY: the only test of this binary sets it before any app starts, and no other thread
    // of this test reads the environment meanwhile.
    unsafe { std::env::set_var("LOAM_DATA_DIR", data.path()) };
    let dialogs = ScriptedDialogs::default();
    let (mut h, view) = scatter_app(&dialogs);
    assert!(editor_support::shows(&h, "No models yet"));
    h.get_by_label("+ Tree01.m2").click();
    h.run();
    h.get_by_label("+ Boulder01.m2").click();
    h.run();
    assert!(!editor_support::shows(&h, "No models yet"));
    assert!(h.query_by_label("Tree01.m2").is_some() && h.query_by_label("Boulder01.m2").is_some());

    // Each palette model's thumbnail is drawn off the UI thread and becomes a texture.
    let start = std::time::Instant::now();
    while h.query_by_label("Thumbnail of Tree01.m2").is_none()
        || h.query_by_label("Thumbnail of Boulder01.m2").is_none()
    {
        assert!(
            start.elapsed().as_secs() < 30,
            "the palette's thumbnails were drawn"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run();
    }
    for model in [TREE, BOULDER] {
        let name = format!("palette-thumb:{}", model.to_ascii_lowercase());
        let size = h
            .ctx
            .tex_manager()
            .read()
            .allocated()
            .find(|(_, m)| m.name == name)
            .map(|(_, m)| m.size);
        assert_eq!(size, Some([96, 96]), "{name} is a texture");
    }

    let at = view.center() + egui::vec2(-40.0, 60.0);
    // The stroke by hand, to look at the map halfway: its objects are there before the
    // release, and no undo step yet.
    editor_support::ground_under(&mut h, at);
    let before = editor_support::map(&h);
    let steps = h.state().editing().history.len();
    h.hover_at(at);
    h.run_steps(2);
    editor_support::primary(&h, at, true, egui::Modifiers::NONE);
    h.run_steps(2);
    let end = at + egui::vec2(30.0, 0.0);
    editor_support::glide(&mut h, at, end);
    let during = doodads(&editor_support::map(&h));
    assert!(
        during.len() > doodads(&before).len(),
        "objects show during the drag: {} before, {} now",
        doodads(&before).len(),
        during.len()
    );
    assert_eq!(
        h.state().editing().history.len(),
        steps,
        "no step before the release"
    );
    editor_support::primary(&h, end, false, egui::Modifiers::NONE);
    h.run_steps(3);
    assert_eq!(
        h.state().editing().history.len(),
        steps + 1,
        "one undo step"
    );
    let after = editor_support::map(&h);
    assert_eq!(
        doodads(&after),
        during,
        "the release keeps the objects the drag showed, where they were"
    );
    let old = doodads(&before);
    let new: Vec<_> = doodads(&after).difference(&old).cloned().collect();
    assert!(new.len() >= 3, "the stroke placed objects: {}", new.len());
    assert!(
        new.iter().all(|(_, m, _)| m == TREE || m == BOULDER),
        "only the palette's models: {new:?}"
    );
    for (_, _, p) in &new {
        let [x, y, z] = p.map(f64::from_bits);
        let ground = loam::edit::lattice::height_at(&after, x, y).unwrap();
        assert!(
            (z - f64::from(ground)).abs() < 1e-3,
            "on the ground at {x}, {y}"
        );
    }
    let labels = h.state().editing().history.labels().0;
    assert!(
        labels.last().is_some_and(|l| l.starts_with("Scatter ")),
        "the history lists the stroke: {labels:?}"
    );

    editor_support::click_each(&mut h, &["Undo"]);
    assert_eq!(editor_support::map(&h), before, "undo, bit for bit");
    editor_support::click_each(&mut h, &["Redo"]);
    assert_eq!(editor_support::map(&h), after, "redo, bit for bit");

    // The erase mode takes the palette's models under the brush out again, as one step.
    h.get_by_label("Erase objects").click();
    h.run();
    let (_, erased) = editor_support::one_stroke(&mut h, at);
    let left = doodads(&erased);
    assert!(
        new.iter().any(|n| !left.contains(n)),
        "the erase took some of the stroke's objects"
    );
    assert!(
        old.iter()
            .all(|o| left.contains(o) || o.1 == TREE || o.1 == BOULDER),
        "only the palette's models went"
    );

    // Saved by name beside the settings, the palette is there at the next start.
    editor_support::type_into(&mut h, "Palette name", "forest");
    h.run();
    h.get_by_label("Save palette").click();
    h.run();
    assert!(data.path().join("palettes.json").is_file());
    let out = data.path().join("shared");
    std::fs::create_dir(&out).unwrap();
    dialogs.answer_folder(Some(out.clone()));
    h.get_by_label("Export…").click();
    h.run();
    assert!(
        out.join("forest.json").is_file(),
        "exported as the name says"
    );
    drop(h);
    let (mut h, _) = scatter_app(&dialogs);
    assert!(editor_support::shows(&h, "No models yet"));
    assert!(
        h.query_by_label("forest").is_some(),
        "the saved palette is listed"
    );
    editor_support::click_in_panel(&mut h, "Load");
    assert!(h.query_by_label("Tree01.m2").is_some() && h.query_by_label("Boulder01.m2").is_some());

    drop(h);

    // A new start imports the exported file.
    let (mut h, _) = scatter_app(&dialogs);
    assert!(editor_support::shows(&h, "No models yet"));
    dialogs.answer_map(Some(out.join("forest.json")));
    editor_support::click_in_panel(&mut h, "Import…");
    assert!(h.query_by_label("Tree01.m2").is_some() && h.query_by_label("Boulder01.m2").is_some());
}
