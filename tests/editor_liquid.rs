//! The liquid tools in the real app (egui_kittest, no GL): on the bundled sample, a drag with
//! Add liquid puts water under the brush at the ground height under the press (one undo step),
//! Ctrl+click picks that surface into the tool's settings, a River drag lays a surface that falls
//! from the press to the release, Remove liquid takes it off, and undo gives back each state bit
//! for bit.

mod editor_support;

use egui::{Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use loam::app::LoamApp;
use loam::doc::editing::Tool;
use loam::model::Map;
use loam::model::liquid::liquid_type;
use loam::ui::viewport::VIEWPORT_LABEL;

fn harness() -> Harness<'static, LoamApp> {
    editor_support::harness(editor_support::Opening {
        window_frames: true,
        ..Default::default()
    })
}

use editor_support::map;

/// Quads holding liquid, over the loaded tiles.
fn wet_quads(map: &Map) -> u32 {
    map.tiles
        .values()
        .flat_map(|t| &t.chunks)
        .flat_map(|c| c.liquid.iter().flat_map(|l| &l.layers))
        .map(|l| l.wet_quads().count_ones())
        .sum()
}

/// Presses at `from`, moves to `to` in steps, releases there; `modifiers` held throughout.
fn drag(h: &mut Harness<'_, LoamApp>, from: Pos2, to: Pos2, modifiers: Modifiers) {
    h.event(egui::Event::ModifiersChanged(modifiers));
    editor_support::drag(h, from, to, modifiers);
    h.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(1);
}

fn choose(h: &mut Harness<'_, LoamApp>, tool: Tool) {
    editor_support::choose_tool(h, tool);
    assert_eq!(h.state().editing().settings.tool, tool);
}

#[test]
fn liquid_tools_add_pick_slope_and_remove_each_one_undo_step() {
    let mut h = harness();
    h.run();
    let view = h.get_by_label(VIEWPORT_LABEL).rect();
    let sample = map(&h);
    assert_eq!(wet_quads(&sample), 0, "the sample has no liquid");
    let steps = h.state().editing().history.len();

    // Add liquid: a short drag in the middle of the view.
    choose(&mut h, Tool::LiquidAdd);
    let at = view.center() + egui::vec2(-30.0, 40.0);
    // The sample's tiles load over the first frames.
    let ground = editor_support::ground_under(&mut h, at).world;
    drag(&mut h, at, at + egui::vec2(20.0, 0.0), Modifiers::NONE);
    let added = map(&h);
    assert!(wet_quads(&added) > 20, "{} quads", wet_quads(&added));
    assert_eq!(
        h.state().editing().history.len(),
        steps + 1,
        "one undo step"
    );
    let (labels, _) = h.state().editing().history.labels();
    assert!(
        labels.last().unwrap().starts_with("Add liquid, "),
        "{labels:?}"
    );
    assert!(h.state().has_unsaved());

    // Ctrl+click picks the surface under the cursor: the ground height under the press.
    h.hover_at(at);
    h.run_steps(2);
    drag(&mut h, at, at, Modifiers::CTRL);
    let s = &h.state().editing().settings;
    let picked = s.liquid_height.expect("Ctrl+click picked a height");
    assert!(
        (picked as f64 - ground[2]).abs() < 1.0,
        "{picked} vs ground {}",
        ground[2]
    );
    assert_eq!(s.liquid_kind.liquid_type(), liquid_type::WATER);
    assert_eq!(map(&h), added, "picking changes nothing");

    // River: the surface runs from the picked height at the press to the ground under the
    // release.
    choose(&mut h, Tool::River);
    let (a, b) = (
        at + egui::vec2(-150.0, 120.0),
        at + egui::vec2(-30.0, 160.0),
    );
    h.hover_at(b);
    h.run_steps(2);
    let end = h.state().hover_point().expect("terrain under b").world[2] as f32;
    assert!((end - picked).abs() > 1.0, "the ends differ in height");
    drag(&mut h, a, b, Modifiers::NONE);
    let river = map(&h);
    assert_eq!(h.state().editing().history.len(), steps + 2);
    let heights: Vec<f32> = river
        .tiles
        .values()
        .flat_map(|t| &t.chunks)
        .zip(added.tiles.values().flat_map(|t| &t.chunks))
        .filter(|(c, before)| c.liquid != before.liquid)
        .flat_map(|(c, _)| c.liquid.iter().flat_map(|l| &l.layers))
        .map(|l| l.max_height)
        .collect();
    assert!(!heights.is_empty(), "the river added liquid");
    let highest = heights.iter().copied().fold(f32::MIN, f32::max);
    let lowest = heights.iter().copied().fold(f32::MAX, f32::min);
    let (lo, hi) = (picked.min(end), picked.max(end));
    assert!(
        lowest >= lo - 1e-3 && highest <= hi + 1e-3,
        "{lowest}..{highest} between the ends {lo}..{hi}"
    );
    assert!(lowest < highest, "the surface slopes: {lowest}..{highest}");

    // Remove liquid over the first patch.
    choose(&mut h, Tool::LiquidRemove);
    drag(&mut h, at, at + egui::vec2(20.0, 0.0), Modifiers::NONE);
    assert!(wet_quads(&map(&h)) < wet_quads(&river));
    assert_eq!(h.state().editing().history.len(), steps + 3);

    // Undo walks back through each state exactly.
    for expected in [&river, &added, &sample] {
        h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
        h.run_steps(3);
        assert!(map(&h) == *expected, "undo restores the liquid bit for bit");
    }
}
