//! Lua brushes in the editor window (issue 53), driven through egui_kittest with the real app:
//! the Scripts kind in the tool bar lists the shipped scripts' brushes; choosing Terrace shows
//! its `step` setting; a drag with it is one undo step that terraces the ground under it (every
//! changed outer vertex then lies on a multiple of the step), and Ctrl+Z gives the map back bit
//! for bit.

mod editor_support;

use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use loam::doc::editing::Tool;
use loam::edit::tools::ToolKind;

#[test]
fn the_terrace_brush_is_in_the_tool_bar_with_its_step_and_a_stroke_is_one_undo_step() {
    let (mut h, view) = editor_support::with_tool(Tool::Raise);
    h.get_by_label(&loam::ui::tool_bar::kind_label(ToolKind::Scripts))
        .click();
    h.run();
    // Every shipped example's brush is offered.
    for name in ["Terrace", "Height noise", "Prop placer", "Texture by slope"] {
        assert!(
            h.query_by_label(name).is_some(),
            "{name} is not in the tool bar"
        );
    }
    h.get_by_label("Terrace").click();
    h.run();
    let s = &h.state().editing().settings;
    assert_eq!(s.tool, Tool::Script);
    assert_eq!(s.script.brush, "Terrace");
    assert!(
        s.script
            .file
            .as_ref()
            .is_some_and(|f| f.ends_with("resources/scripts/terrace.lua")),
        "{:?}",
        s.script.file
    );
    assert!(
        h.query_all_by_label("step").next().is_some(),
        "the step setting shows"
    );

    let at = view.center() + egui::vec2(-30.0, 40.0);
    let (before, after) = editor_support::one_stroke(&mut h, at);
    assert_ne!(before, after, "the stroke terraced the ground");
    let (labels, _) = h.state().editing().history.labels();
    assert!(
        labels.last().unwrap().starts_with("Script Terrace"),
        "{labels:?}"
    );
    // The step is 8 yd by default, and the example snaps each vertex under the brush down to
    // its terrace: every height the stroke moved is now the multiple of 8 below where it was.
    let mut moved = 0;
    for (coord, tb) in &before.tiles {
        let ta = &after.tiles[coord];
        for (cb, ca) in tb.chunks.iter().zip(&ta.chunks) {
            for (hb, ha) in cb.heights.iter().zip(ca.heights.iter()) {
                if hb.to_bits() != ha.to_bits() {
                    moved += 1;
                    let floor = (hb / 8.0).floor() * 8.0;
                    assert!((ha - floor).abs() < 1e-3, "{hb} moved to {ha}, not {floor}");
                }
            }
        }
    }
    assert!(moved > 20, "{moved} vertices moved");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(
        editor_support::map(&h) == before,
        "undo gives back the map bit for bit"
    );
}
