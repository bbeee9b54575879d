//! Brushes in the editor window, driven through egui_kittest with the real app: a drag in the 3D
//! view with each tool makes exactly one undo step that changes chunks under the stroke, Ctrl+Z
//! restores the map and Ctrl+Shift+Z reapplies the step.

mod editor_support;

use egui::{Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use loam::app::LoamApp;
use loam::doc::editing::Tool;
use loam::model::Map;
use loam::model::coords::{self, CHUNK_SIZE};
use loam::ui::viewport::VIEWPORT_LABEL;

fn harness() -> Harness<'static, LoamApp> {
    editor_support::harness(editor_support::Opening::default())
}

use editor_support::map;

/// The chunks (tile, index) whose content differs between two maps.
fn changed_chunks(a: &Map, b: &Map) -> Vec<(loam::model::TileCoord, usize)> {
    let mut out = Vec::new();
    for (coord, ta) in &a.tiles {
        let tb = &b.tiles[coord];
        for (i, (ca, cb)) in ta.chunks.iter().zip(&tb.chunks).enumerate() {
            if ca != cb {
                out.push((*coord, i));
            }
        }
    }
    out
}

/// The chunks whose ground (all but the object references) differs between `a` and `b`.
fn ground_changed(a: &Map, b: &Map) -> Vec<(loam::model::TileCoord, usize)> {
    let mut out = Vec::new();
    for (coord, ta) in &a.tiles {
        for (i, (ca, cb)) in ta.chunks.iter().zip(&b.tiles[coord].chunks).enumerate() {
            let mut cb = cb.clone();
            cb.doodad_refs = ca.doodad_refs.clone();
            cb.wmo_refs = ca.wmo_refs.clone();
            if *ca != cb {
                out.push((*coord, i));
            }
        }
    }
    out
}

/// World (x, y) the app picks under a screen position in the view.
fn world_under(h: &Harness<'_, LoamApp>, view: egui::Rect, pos: Pos2) -> [f64; 2] {
    let p = editor_support::pick_under(h, view, pos).expect("terrain under the stroke");
    [p.world[0], p.world[1]]
}

#[test]
fn a_drag_with_each_tool_is_one_undo_step_and_ctrl_z_reverts_it() {
    let mut h = harness();
    h.run();

    // Tool::brushes() lists each undoing tool (remove holes, erase…) after the tool it undoes, so the
    // second always has something to act on. Painting needs a texture: it picks the tile's second.
    // The liquid tools have their own test (tests/editor_liquid.rs): each acts on what the
    // one before left, which a fixed stroke here cannot arrange.
    // The Script tool's modes are the scripts' brushes (tests/editor_scripts.rs).
    for tool in Tool::brushes().filter(|t| !t.is_liquid() && *t != Tool::Script) {
        editor_support::choose_tool(&mut h, tool);
        assert_eq!(h.state().editing().settings.tool, tool);
        // A tool's panel may widen the right panel, and so move the view: the stroke's world
        // points are read where the view now is.
        let view = h.get_by_label(VIEWPORT_LABEL).rect();
        let (a, b) = (
            view.center() + egui::vec2(-30.0, 40.0),
            view.center() + egui::vec2(30.0, 60.0),
        );
        let (wa, wb) = (world_under(&h, view, a), world_under(&h, view, b));
        if tool == Tool::Paint {
            h.get_by_label("Tile textures").click();
            h.run();
            let first = map(&h).tiles.values().next().unwrap().textures[1].clone();
            let short = first.rsplit('\\').next().unwrap().to_string();
            h.get_all_by_label(&short).last().unwrap().click();
            h.run();
            assert_eq!(h.state().editing().settings.texture, first);
        }
        if tool == Tool::SwapTexture {
            // The tile's base texture becomes one no chunk paints yet (the texture Paint chose
            // is a layer of the stroke's chunks now, where the swap would leave them).
            let base = map(&h).tiles.values().next().unwrap().textures[0].clone();
            editor_support::type_into(&mut h, "Replace", &base);
            h.run();
            h.get_by_label("With").click();
            h.run();
            h.key_press_modifiers(Modifiers::COMMAND, Key::A);
            h.get_by_label("With")
                .type_text("Tileset\\Test\\Swapped.blp");
            h.run();
            // Leave the text field, so that Ctrl+Z below is the editor's undo.
            h.key_press(Key::Escape);
            h.run();
            assert_eq!(h.state().editing().settings.swap_from, base);
            assert_eq!(
                h.state().editing().settings.texture,
                "Tileset\\Test\\Swapped.blp"
            );
        }
        let before = map(&h);
        let steps = h.state().editing().history.len();

        h.hover_at(a);
        h.run();
        editor_support::primary(&h, a, true, Modifiers::NONE);
        h.run();
        for k in 1..=4 {
            h.hover_at(a + (b - a) * (k as f32 / 4.0));
            h.run();
        }
        editor_support::primary(&h, b, false, Modifiers::NONE);
        h.run();

        let after = map(&h);
        assert_eq!(
            h.state().editing().history.len(),
            steps + 1,
            "{tool:?}: one stroke, one undo step"
        );
        // The Biome tool's objects enter the reference lists of every chunk their boxes
        // overlap, beyond the brush: its reach is the ground's.
        let changed = if tool == Tool::Biome {
            ground_changed(&before, &after)
        } else {
            changed_chunks(&before, &after)
        };
        assert!(!changed.is_empty(), "{tool:?} changed nothing");
        // Every changed chunk lies within the brush (plus a chunk) of the stroke's segment.
        let reach = h.state().editing().settings.brush.radius as f64 + CHUNK_SIZE * 1.5;
        for (tile, i) in &changed {
            let [nx, ny] = coords::chunk_north_west(*tile, i % 16, i / 16);
            let (cx, cy) = (nx - CHUNK_SIZE / 2.0, ny - CHUNK_SIZE / 2.0);
            let (dx, dy) = (wb[0] - wa[0], wb[1] - wa[1]);
            let t = (((cx - wa[0]) * dx + (cy - wa[1]) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
            let d = ((cx - wa[0] - t * dx).powi(2) + (cy - wa[1] - t * dy).powi(2)).sqrt();
            assert!(
                d <= reach,
                "{tool:?} changed chunk {i} of {tile:?}, {d:.0} yd from the stroke"
            );
        }

        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
        assert!(
            changed_chunks(&before, &map(&h)).is_empty(),
            "{tool:?}: Ctrl+Z restores the map"
        );
        h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        h.run();
        assert!(
            changed_chunks(&after, &map(&h)).is_empty(),
            "{tool:?}: Ctrl+Shift+Z reapplies it"
        );
    }
    // The history panel names the steps.
    h.get_by_label_contains("Raise, ");
    h.get_by_label_contains("Add holes, ");
}

#[test]
fn undoing_back_to_the_saved_point_leaves_nothing_to_save() {
    let mut h = harness();
    h.run();
    let view = h.get_by_label(VIEWPORT_LABEL).rect();
    editor_support::choose_tool(&mut h, Tool::Raise);
    let p = view.center() + egui::vec2(0.0, 40.0);
    h.hover_at(p);
    h.run();
    editor_support::primary(&h, p, true, Modifiers::NONE);
    h.run();
    editor_support::primary(&h, p, false, Modifiers::NONE);
    h.run();
    assert!(h.state().has_unsaved());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(
        !h.state().has_unsaved(),
        "back at the opened state: quitting asks nothing"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    h.run();
    assert!(h.state().has_unsaved());
}
