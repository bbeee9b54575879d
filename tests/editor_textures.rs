//! Edit ▸ Textures… in the real app (egui_kittest, no GL): a swap over the loaded tiles
//! repaints every layer of the old texture with the new one, alpha maps untouched, as one undo
//! step; Remove unused then drops the old name from each tile's list; undo gives back the
//! sample bit for bit.

mod editor_support;

use egui_kittest::kittest::Queryable;

const OLD: &str = "Tileset\\Loam\\Sample\\Sand51.blp";
const NEW: &str = "Tileset\\Loam\\Sample\\Beach01.blp";

use editor_support::map;

fn open_dialog(h: &mut egui_kittest::Harness<'_, loam::app::LoamApp>) {
    editor_support::click_each(h, &["Edit", "Textures…"]);
    assert!(
        h.query_by_label(loam::ui::dialogs::textures::TEXTURES_TITLE)
            .is_some()
    );
}

#[test]
fn a_swap_then_remove_unused_from_the_dialog_are_two_undo_steps() {
    let mut h = editor_support::harness(editor_support::Opening::default());
    h.run();
    let sample = map(&h);
    let steps = h.state().editing().history.len();

    open_dialog(&mut h);
    editor_support::type_into(&mut h, "Texture", OLD);
    editor_support::type_into(&mut h, "Replace with", NEW);
    editor_support::click_each(&mut h, &["The loaded tiles", "Apply"]);
    assert_eq!(h.state().editing().history.len(), steps + 1);
    let swapped = map(&h);
    let mut layers = 0;
    for (c, before) in &sample.tiles {
        let after = &swapped.tiles[c];
        for (b, a) in before.chunks.iter().zip(&after.chunks) {
            assert_eq!(a.layers.len(), b.layers.len());
            for (lb, la) in b.layers.iter().zip(&a.layers) {
                assert_eq!(la.alpha, lb.alpha, "alpha kept");
                let was = before.texture_name(lb.texture).unwrap();
                let now = after.texture_name(la.texture).unwrap();
                if was.eq_ignore_ascii_case(OLD) {
                    assert_eq!(now, NEW);
                    layers += 1;
                } else {
                    assert_eq!(now, was);
                }
            }
        }
    }
    assert!(layers > 60, "{layers} layers of sand swapped");
    assert!(
        swapped
            .tiles
            .values()
            .all(|t| t.textures.iter().any(|n| n == OLD))
    );

    open_dialog(&mut h);
    h.get_by_label("Remove unused").click();
    h.run();
    h.get_by_label("Apply").click();
    h.run();
    assert_eq!(h.state().editing().history.len(), steps + 2);
    let tidy = map(&h);
    for t in tidy.tiles.values() {
        assert!(!t.textures.iter().any(|n| n == OLD), "{:?}", t.textures);
    }

    editor_support::click_each(&mut h, &["Undo", "Undo"]);
    assert_eq!(map(&h).tiles, sample.tiles);
}

#[test]
fn the_swap_brush_swaps_only_under_its_circle_as_one_undo_step() {
    use loam::doc::editing::Tool;
    let (mut h, view) = editor_support::with_tool(Tool::SwapTexture);
    for (field, text) in [
        ("Replace", "Tileset\\Loam\\Sample\\Grass06.blp"),
        ("With", NEW),
    ] {
        editor_support::type_into(&mut h, field, text);
        h.run();
    }
    let at = view.center() + egui::vec2(-30.0, 40.0);
    let (sample, after) = editor_support::one_stroke(&mut h, at);
    let (mut swapped, mut kept) = (0, 0);
    for (c, before) in &sample.tiles {
        let now = &after.tiles[c];
        for (b, a) in before.chunks.iter().zip(&now.chunks) {
            for (lb, la) in b.layers.iter().zip(&a.layers) {
                assert_eq!(la.alpha, lb.alpha);
                if before.texture_name(lb.texture) == Some("Tileset\\Loam\\Sample\\Grass06.blp") {
                    if now.texture_name(la.texture) == Some(NEW) {
                        swapped += 1;
                    } else {
                        kept += 1;
                    }
                }
            }
        }
    }
    // The sample's base is grass everywhere (1024 chunks); a 20-yard brush reaches a few.
    assert!(swapped > 0 && swapped < 40, "{swapped} swapped");
    assert!(kept > 900, "{kept} kept");
    editor_support::click_each(&mut h, &["Undo"]);
    assert_eq!(map(&h).tiles, sample.tiles);
}
