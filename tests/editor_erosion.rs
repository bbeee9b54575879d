//! The Erode, Texture rules and Biome tools in the editor window (issue 52), driven through
//! egui_kittest with the real app: a drag with each is one undo step that changes the ground
//! under it, Ctrl+Z gives back the map bit for bit and Ctrl+Shift+Z the stroke's result bit for
//! bit; the rules panel edits a rule; the biome panel picks a kept biome and keeps an edited
//! one.

mod editor_support;

use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use loam::doc::editing::Tool;
use loam::edit::terrain::erosion::Erosion;

/// A stroke with `tool`, then undo and redo, each compared with the maps bit for bit.
fn stroke_undo_redo(tool: Tool) -> egui_kittest::Harness<'static, loam::app::LoamApp> {
    let (mut h, view) = editor_support::with_tool(tool);
    assert_eq!(h.state().editing().settings.tool, tool);
    let at = view.center() + egui::vec2(-30.0, 40.0);
    let (before, after) = editor_support::one_stroke(&mut h, at);
    assert_ne!(before, after, "{tool:?} changed the ground");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(
        editor_support::map(&h) == before,
        "{tool:?}: undo gives back the map"
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert!(
        editor_support::map(&h) == after,
        "{tool:?}: redo lays it again"
    );
    h
}

#[test]
fn the_erode_tool_is_one_undo_step_both_ways_bit_for_bit() {
    let mut h = stroke_undo_redo(Tool::Erode);
    // Thermal erosion from the panel's kind box.
    h.get_by_label("Kind of erosion").click();
    h.run();
    h.get_by_label("Thermal").click();
    h.run();
    assert!(matches!(
        h.state().editing().settings.erosion,
        Erosion::Thermal { .. }
    ));
}

#[test]
fn the_texture_rules_tool_is_one_undo_step_both_ways_and_its_panel_edits_the_rules() {
    let mut h = stroke_undo_redo(Tool::TextureRules);
    let rules = h.state().editing().settings.rules.clone();
    assert!(rules.len() >= 2, "the rules to start with");
    editor_support::type_into(&mut h, "Rule 1", "X");
    h.run();
    h.key_press(Key::Escape);
    h.run();
    let now = &h.state().editing().settings.rules;
    // The click put the caret somewhere in the path: one X more, where it fell.
    assert_eq!(now[0].texture.replacen('X', "", 1), rules[0].texture);
    assert_ne!(now[0].texture, rules[0].texture);
    assert_eq!(now[1..], rules[1..]);
}

/// The doodads placed on `map`.
fn doodads(map: &loam::model::Map) -> usize {
    map.tiles.values().map(|t| t.doodads.len()).sum()
}

#[test]
fn the_biome_tool_lays_ground_and_objects_as_one_undo_step_and_its_list_picks_and_keeps() {
    let (mut h, view) = editor_support::with_tool(Tool::Biome);
    assert_eq!(h.state().editing().settings.biome.name, "Weathered hills");
    let at = view.center() + egui::vec2(-30.0, 40.0);
    let (before, after) = editor_support::one_stroke(&mut h, at);
    assert_ne!(before, after, "the biome changed the map");
    assert!(
        doodads(&after) > doodads(&before),
        "its palette's trees and boulders were placed ({} → {})",
        doodads(&before),
        doodads(&after)
    );
    let (labels, _) = h.state().editing().history.labels();
    assert!(
        labels
            .last()
            .unwrap()
            .starts_with("Biome Weathered hills, "),
        "{labels:?}"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(
        editor_support::map(&h) == before,
        "undo takes ground and objects back"
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert!(editor_support::map(&h) == after, "redo lays both again");

    // The kept list: pick the shore, rename it, keep it as a new biome.
    h.get_by_label(loam::ui::biome_panel::BIOME_PICKER).click();
    h.run();
    h.get_by_label("Sandy shore").click();
    h.run();
    assert_eq!(h.state().editing().settings.biome.name, "Sandy shore");
    assert!(h.state().editing().settings.biome.erosion.is_none());
    editor_support::type_into(&mut h, loam::ui::biome_panel::BIOME_NAME, " 2");
    h.run();
    h.key_press(Key::Escape);
    h.run();
    let named = h.state().editing().settings.biome.name.clone();
    assert_ne!(named, "Sandy shore");
    h.get_by_label("Keep").click();
    h.run();
    let kept: Vec<String> = h
        .state()
        .settings()
        .biomes
        .iter()
        .map(|b| b.name.clone())
        .collect();
    assert_eq!(kept.len(), 3, "{kept:?}");
    assert_eq!(kept[2], named);
}
