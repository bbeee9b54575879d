//! Ground effects in the real app (egui_kittest, no GL): the "No ground effects" brush switches
//! off the cells under a drag as one undo step, and the tool panel says so for the cell under
//! the cursor; Edit ▸ Textures… ▸ Ground effect gives every layer of a texture an effect id,
//! one undo step; undo gives back the sample bit for bit.

mod editor_support;

use loam::doc::editing::Tool;
use loam::model::Map;

use editor_support::map;

fn off_cells(m: &Map) -> u32 {
    m.tiles
        .values()
        .flat_map(|t| &t.chunks)
        .map(|c| {
            c.no_effect_doodad
                .iter()
                .map(|b| b.count_ones())
                .sum::<u32>()
        })
        .sum()
}

#[test]
fn the_brush_switches_cells_off_under_the_drag_and_the_panel_says_so() {
    let (mut h, view) = editor_support::with_tool(Tool::EffectsOff);
    let at = view.center() + egui::vec2(-30.0, 40.0);
    let (sample, after) = editor_support::one_stroke(&mut h, at);
    assert_eq!(off_cells(&sample), 0, "the sample grows effects everywhere");
    let off = off_cells(&after);
    // A 20-yard brush (a few chunks' worth of 4-yard cells), not the whole map.
    assert!(off > 20 && off < 2000, "{off} cells off");
    // Nothing else changed: the bits are the whole difference.
    for (c, before) in &sample.tiles {
        for (b, a) in before.chunks.iter().zip(&after.tiles[c].chunks) {
            let mut a = a.clone();
            a.no_effect_doodad = b.no_effect_doodad;
            assert_eq!(&a, b);
        }
    }
    h.hover_at(at);
    h.run();
    assert!(
        editor_support::shows(&h, "ground effects switched off"),
        "the panel names the cell under the cursor as off"
    );
    editor_support::click_each(&mut h, &["Undo"]);
    assert_eq!(map(&h).tiles, sample.tiles);
}

#[test]
fn the_textures_dialog_sets_a_textures_effect_as_one_undo_step() {
    const SAND: &str = "Tileset\\Loam\\Sample\\Sand51.blp";
    let mut h = editor_support::harness(editor_support::Opening::default());
    h.run();
    let sample = map(&h);
    let steps = h.state().editing().history.len();
    editor_support::click_each(&mut h, &["Edit", "Textures…", "Ground effect"]);
    editor_support::type_into(&mut h, "Texture", SAND);
    editor_support::click_each(&mut h, &["The loaded tiles"]);
    editor_support::type_into(&mut h, "Effect id", "1963");
    editor_support::click_each(&mut h, &["The loaded tiles", "Apply"]);
    assert_eq!(h.state().editing().history.len(), steps + 1);
    let after = map(&h);
    let mut sand = 0;
    for (c, before) in &sample.tiles {
        let now = &after.tiles[c];
        for (b, a) in before.chunks.iter().zip(&now.chunks) {
            for (lb, la) in b.layers.iter().zip(&a.layers) {
                if before.texture_name(lb.texture) == Some(SAND) {
                    assert_eq!(la.effect_id, 1963);
                    sand += 1;
                } else {
                    assert_eq!(la.effect_id, lb.effect_id);
                }
            }
        }
    }
    assert!(sand > 0);
    editor_support::click_each(&mut h, &["Undo"]);
    assert_eq!(map(&h).tiles, sample.tiles);
}
