//! Roads, planes and vertex selection in the real app (egui_kittest, no GL): a box selection
//! put onto a plane through three picked points and undone bit for bit, lasso and brush
//! selections that add and take away, flatten locked to its first stroke's height, and the road
//! tool's clicked curve laid as the `road` operation would lay it, as one undo step.

mod common;
mod editor_support;

use egui::{Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use loam::app::LoamApp;
use loam::doc::editing::Tool;
use loam::edit::lattice;
use loam::edit::terrain::plane::Plane;
use loam::model::Map;

/// Every chunk's heights and base as bits, tile by tile: equal only when the maps' terrain is
/// equal bit for bit.
fn height_bits(map: &Map) -> Vec<(loam::model::TileCoord, Vec<u32>)> {
    map.tiles
        .iter()
        .map(|(c, t)| {
            let bits = t
                .chunks
                .iter()
                .flat_map(|ch| ch.heights.iter().chain([&ch.base_height]))
                .map(|h| h.to_bits())
                .collect();
            (*c, bits)
        })
        .collect()
}

/// The sample with `tool` chosen, once its four tiles are read (the tile loader works off the
/// UI thread, slowly on a busy machine): the harness and the view's rectangle as the tool's
/// panel leaves it.
fn with_tool(tool: Tool) -> (Harness<'static, LoamApp>, egui::Rect) {
    let (mut h, _) = editor_support::with_tool(tool);
    let start = std::time::Instant::now();
    while h.state().session().map_or(0, |s| s.map.tiles.len()) < 4 {
        assert!(
            start.elapsed().as_secs() < 120,
            "the sample's tiles did not load"
        );
        h.run_steps(2);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    h.run();
    let view = h.get_by_label(loam::ui::viewport::VIEWPORT_LABEL).rect();
    (h, view)
}

/// The nearest place to `pos` (searching outward 12 points at a time) with ground under it:
/// the sample has holes (a cave mouth, a sinkhole) through which the picking ray finds none.
fn firm(h: &mut Harness<'_, LoamApp>, pos: Pos2) -> Pos2 {
    for ring in 0..8 {
        let r = ring as f32 * 12.0;
        let steps = if ring == 0 { 1 } else { 8 * ring };
        for k in 0..steps {
            let a = k as f32 / steps as f32 * std::f32::consts::TAU;
            let at = pos + egui::vec2(a.cos(), a.sin()) * r;
            h.hover_at(at);
            h.run_steps(2);
            if h.state().hover_point().is_some() {
                return at;
            }
        }
    }
    panic!("no ground near {pos:?}")
}

/// Holds `modifiers` from now on (egui takes them from this event, not from the clicks').
fn hold(h: &Harness<'_, LoamApp>, modifiers: Modifiers) {
    h.event(egui::Event::ModifiersChanged(modifiers));
}

/// A click at `pos` with `modifiers` held, the ground under it found first: that ground.
fn click(
    h: &mut Harness<'_, LoamApp>,
    pos: Pos2,
    modifiers: Modifiers,
) -> loam::render::pick::TerrainPoint {
    let p = editor_support::ground_under(h, pos);
    hold(h, modifiers);
    for pressed in [true, false] {
        editor_support::primary(h, pos, pressed, modifiers);
        h.run_steps(2);
    }
    hold(h, Modifiers::NONE);
    h.run();
    p
}

/// A drag through `path` (press at the first point, release at the last) with `modifiers`.
fn drag_through(h: &mut Harness<'_, LoamApp>, path: &[Pos2], modifiers: Modifiers) {
    editor_support::ground_under(h, path[0]);
    hold(h, modifiers);
    editor_support::primary(h, path[0], true, modifiers);
    h.run_steps(2);
    for w in path.windows(2) {
        editor_support::glide(h, w[0], w[1]);
    }
    editor_support::primary(h, path[path.len() - 1], false, modifiers);
    h.run_steps(3);
    hold(h, Modifiers::NONE);
    h.run();
}

#[test]
fn a_box_selection_goes_onto_a_picked_plane_as_one_step_and_undo_restores_it_bit_for_bit() {
    let (mut h, view) = with_tool(Tool::SelectVertices);
    assert!(editor_support::shows(&h, "No vertices selected"));
    let a = firm(&mut h, view.center() + egui::vec2(-40.0, 20.0));
    let b = firm(&mut h, a + egui::vec2(70.0, 50.0));
    let pa = editor_support::ground_under(&mut h, a);
    let pb = editor_support::ground_under(&mut h, b);
    editor_support::drag(&mut h, a, b, Modifiers::NONE);
    let selected = h.state().selected_vertices().clone();
    assert!(selected.len() > 20, "{} selected", selected.len());
    let (x0, x1) = (pa.world[0].min(pb.world[0]), pa.world[0].max(pb.world[0]));
    let (y0, y1) = (pa.world[1].min(pb.world[1]), pa.world[1].max(pb.world[1]));
    for v in &selected {
        let [x, y] = v.world_xy();
        assert!(
            (x0 - 0.01..=x1 + 0.01).contains(&x) && (y0 - 0.01..=y1 + 0.01).contains(&y),
            "{v:?} lies in the dragged box"
        );
    }
    assert!(editor_support::shows(
        &h,
        &format!("{} vertices selected", selected.len())
    ));

    // Three plane points picked on the ground, then the selection onto their plane.
    h.get_by_label("Pick plane points").click();
    h.run();
    let picked: Vec<[f64; 3]> = [(-120.0, -40.0), (110.0, -30.0), (0.0, 120.0)]
        .into_iter()
        .map(|(dx, dy)| {
            let at = firm(&mut h, view.center() + egui::vec2(dx, dy));
            click(&mut h, at, Modifiers::NONE).world
        })
        .collect();
    assert_eq!(
        h.state().selected_vertices(),
        &selected,
        "picking leaves it"
    );
    assert!(editor_support::shows(&h, "3 picked"));
    let plane = Plane::through([picked[0], picked[1], picked[2]]).expect("a plane");
    let before = editor_support::map(&h);
    let steps = h.state().editing().history.len();
    h.get_by_label("Onto plane").click();
    h.run();
    assert_eq!(h.state().editing().history.len(), steps + 1, "one step");
    let after = editor_support::map(&h);
    for v in &selected {
        let [x, y] = v.world_xy();
        let now = lattice::height(&after, *v).unwrap();
        let want = plane.height_at(x, y) as f32;
        assert!((now - want).abs() < 1e-3, "{v:?}: {now} vs {want}");
        // Every copy of a shared vertex moved alike.
        for c in v.copies() {
            if let Some(t) = after.tiles.get(&c.tile) {
                assert_eq!(t.chunks[c.chunk].heights[c.index].to_bits(), now.to_bits());
            }
        }
    }
    assert_ne!(height_bits(&before), height_bits(&after));
    editor_support::click_each(&mut h, &["Undo"]);
    assert_eq!(
        height_bits(&editor_support::map(&h)),
        height_bits(&before),
        "undo gives back every height bit for bit"
    );
    assert!(editor_support::map(&h).tiles == before.tiles);
}

#[test]
fn lasso_and_brush_selections_add_and_take_away() {
    let (mut h, view) = with_tool(Tool::SelectVertices);
    h.get_by_label("Lasso").click();
    h.run();
    let c = view.center();
    let lasso = [(-60.0, 0.0), (-10.0, 10.0), (-30.0, 60.0), (-70.0, 40.0)]
        .map(|(dx, dy)| firm(&mut h, c + egui::vec2(dx, dy)));
    drag_through(&mut h, &lasso, Modifiers::NONE);
    let looped = h.state().selected_vertices().clone();
    assert!(looped.len() > 10, "{} in the loop", looped.len());

    // Shift: the brush adds where it passes, away from the loop.
    h.get_by_label("Brush select").click();
    h.run();
    let strip =
        [(60.0, -20.0), (100.0, -20.0)].map(|(dx, dy)| firm(&mut h, c + egui::vec2(dx, dy)));
    drag_through(&mut h, &strip, Modifiers::SHIFT);
    let grown = h.state().selected_vertices().clone();
    assert!(grown.len() > looped.len(), "the brush added");
    assert!(looped.is_subset(&grown), "adding kept the loop");

    // Ctrl: the brush over the loop takes its vertices away, and only near its path.
    let through = [lasso[0], lasso[1]];
    drag_through(&mut h, &through, Modifiers::CTRL);
    let shrunk = h.state().selected_vertices().clone();
    assert!(shrunk.len() < grown.len(), "the brush took away");
    assert!(shrunk.is_subset(&grown));
    let added: Vec<_> = grown.difference(&looped).collect();
    assert!(
        added.iter().all(|v| shrunk.contains(v)),
        "what the brush added far away stays"
    );
}

#[test]
fn a_locked_flatten_keeps_its_first_strokes_height_and_ctrl_click_takes_the_grounds_plane() {
    let (mut h, view) = with_tool(Tool::Flatten);
    h.get_by_label("Lock the target across strokes").click();
    h.run();
    assert!(h.state().editing().settings.flatten_lock);
    // Two places at different heights on the sample's hill.
    let spots: Vec<(Pos2, f64)> = (-4..=4)
        .map(|k| {
            let at = firm(
                &mut h,
                view.center() + egui::vec2(k as f32 * 40.0, k as f32 * 12.0),
            );
            (at, editor_support::ground_under(&mut h, at).world[2])
        })
        .collect();
    let (first, second) = spots
        .iter()
        .flat_map(|a| spots.iter().map(move |b| (*a, *b)))
        .max_by(|x, y| {
            let d = |p: &((Pos2, f64), (Pos2, f64))| (p.0.1 - p.1.1).abs();
            d(x).total_cmp(&d(y))
        })
        .unwrap();
    assert!((first.1 - second.1).abs() > 1.0, "{first:?} {second:?}");
    let at_first = editor_support::ground_under(&mut h, first.0).world;
    let (_, after_first) = editor_support::one_stroke(&mut h, first.0);
    let target = lattice::height_at(&after_first, at_first[0], at_first[1]).unwrap();
    assert!(
        (f64::from(target) - at_first[2]).abs() < 0.05,
        "the first stroke flattened to the ground under its press"
    );
    assert!(editor_support::shows(&h, "Locked: "));
    let at = editor_support::ground_under(&mut h, second.0).world;
    let (_, after_second) = editor_support::one_stroke(&mut h, second.0);
    let there = lattice::height_at(&after_second, at[0], at[1]).unwrap();
    assert!(
        (there - target).abs() < 0.05,
        "the second stroke flattened to the first one's height {target}, not its own {}: {there}",
        at[2]
    );

    // Ctrl+click takes the ground's plane under the cursor and locks it.
    let elsewhere = firm(&mut h, first.0 + egui::vec2(0.0, -60.0));
    click(&mut h, elsewhere, Modifiers::CTRL);
    let s = &h.state().editing().settings;
    assert!(s.flatten_slope.is_some() && s.flatten_lock, "{s:?}");
    assert!(editor_support::shows(&h, "Locked: plane"));
}

#[test]
fn the_road_tool_lays_the_clicked_curve_as_the_road_operation_does_in_one_undoable_step() {
    let (mut h, view) = with_tool(Tool::Road);
    assert!(editor_support::shows(&h, "No control points"));
    let c = view.center();
    let spots = [(-150.0, 60.0), (-40.0, 0.0), (60.0, 40.0), (150.0, -30.0)]
        .map(|(dx, dy)| firm(&mut h, c + egui::vec2(dx, dy)));
    for at in spots {
        click(&mut h, at, Modifiers::NONE);
    }
    assert_eq!(h.state().road_points().len(), 4);
    // Ctrl+click on a point deletes it; a drag moves one.
    click(&mut h, spots[3], Modifiers::CTRL);
    assert_eq!(h.state().road_points().len(), 3, "deleted");
    let was = h.state().road_points()[2];
    let to = firm(&mut h, spots[2] + egui::vec2(20.0, 30.0));
    let ground = editor_support::ground_under(&mut h, to).world;
    editor_support::drag(&mut h, spots[2], to, Modifiers::NONE);
    let moved = h.state().road_points()[2];
    assert_ne!(moved, was);
    assert!(
        (moved[0] - ground[0]).hypot(moved[1] - ground[1]) < 1.0,
        "{moved:?} {ground:?}"
    );
    assert_eq!(h.state().road_points().len(), 3, "a drag adds nothing");
    // Shift+click inserts into the curve, between the points it passes nearest.
    let half = firm(&mut h, spots[0] + (spots[1] - spots[0]) * 0.5);
    let mid = editor_support::ground_under(&mut h, half).world;
    click(&mut h, half, Modifiers::SHIFT);
    let points = h.state().road_points().to_vec();
    assert_eq!(points.len(), 4);
    assert!(
        (points[1][0] - mid[0]).hypot(points[1][1] - mid[1]) < 1.0,
        "{points:?}"
    );

    let op = h.state().road_op().expect("a road to lay");
    let before = editor_support::map(&h);
    let mut want = before.clone();
    let mut history = loam::edit::History::default();
    loam::edit::shapes::road_ops::apply(&mut want, &op, &mut history)
        .expect("the operation lays it");
    let steps = h.state().editing().history.len();
    h.get_by_label("Lay road").click();
    h.run();
    assert_eq!(h.state().editing().history.len(), steps + 1, "one step");
    assert!(
        h.state().road_points().is_empty(),
        "laid: the tool starts over"
    );
    let after = editor_support::map(&h);
    assert_ne!(
        height_bits(&after),
        height_bits(&before),
        "the ground moved"
    );
    for (tile, bits) in height_bits(&want) {
        let got = height_bits(&after).into_iter().find(|(t, _)| *t == tile);
        assert_eq!(got.map(|g| g.1), Some(bits), "{tile:?} as `road` shapes it");
    }
    editor_support::click_each(&mut h, &["Undo"]);
    assert_eq!(height_bits(&editor_support::map(&h)), height_bits(&before));
}
