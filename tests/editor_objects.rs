//! The object tool in the real app (egui_kittest, no GL): on the bundled sample, a click selects
//! the tree under the cursor, a typed position moves it, Delete removes it; each is one undo
//! step and Ctrl+Z gives back the exact records.

mod common;
mod editor_support;

use std::time::{Duration, Instant};

use egui::{Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec3;
use loam::app::LoamApp;
use loam::doc::editing::Tool;
use loam::model::{Map, ObjectKind};
use loam::ui::viewport::VIEWPORT_LABEL;

/// The app opened on `open` (the sample when `None`).
fn harness_on(open: Option<std::path::PathBuf>) -> Harness<'static, LoamApp> {
    harness_with_client(open, None)
}

/// The app opened on `open` with `client` as its game client folder.
fn harness_with_client(
    open: Option<std::path::PathBuf>,
    client: Option<std::path::PathBuf>,
) -> Harness<'static, LoamApp> {
    editor_support::harness(editor_support::Opening {
        open,
        client,
        window_frames: true,
        ..Default::default()
    })
}

use editor_support::map;

/// Runs frames until the sample's models are read (the workers answer between frames).
fn settle_models(h: &mut Harness<'_, LoamApp>) {
    let start = Instant::now();
    loop {
        h.run_steps(2);
        let scene = h.state().object_scene();
        if scene.is_settled() && scene.counts().0 > 0 {
            h.run_steps(2);
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "models never came"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The app on `open` (the sample when `None`) with its models read and the objects tool chosen,
/// and the viewport's rectangle.
fn objects_tool_on(open: Option<std::path::PathBuf>) -> (Harness<'static, LoamApp>, egui::Rect) {
    let mut h = harness_on(open);
    h.run();
    settle_models(&mut h);
    editor_support::choose_tool(&mut h, Tool::Objects);
    let view = h.get_by_label(VIEWPORT_LABEL).rect();
    (h, view)
}

fn click(h: &mut Harness<'_, LoamApp>, pos: Pos2, modifiers: Modifiers) {
    h.hover_at(pos);
    h.run_steps(2);
    for pressed in [true, false] {
        editor_support::primary(h, pos, pressed, modifiers);
        h.run_steps(2);
    }
}

/// Where a world point shows in the view, in screen points.
fn screen_of(h: &Harness<'_, LoamApp>, view: egui::Rect, world: [f64; 3]) -> Option<Pos2> {
    let vp = h
        .state()
        .camera()
        .view_projection(view.width() / view.height());
    let clip = vp * Vec3::new(world[0] as f32, world[1] as f32, world[2] as f32).extend(1.0);
    if clip.w <= 0.0 {
        return None;
    }
    let (x, y) = (clip.x / clip.w, clip.y / clip.w);
    let p = Pos2::new(
        view.left() + (x + 1.0) / 2.0 * view.width(),
        view.top() + (1.0 - y) / 2.0 * view.height(),
    );
    view.shrink(20.0).contains(p).then_some(p)
}

fn records(map: &Map, uid: u32) -> Vec<loam::model::DoodadPlacement> {
    map.tiles
        .values()
        .flat_map(|t| t.doodads.iter().filter(|d| d.unique_id == uid).cloned())
        .collect()
}

#[test]
fn click_selects_typing_moves_delete_removes_each_one_undo_step() {
    let (mut h, view) = objects_tool_on(None);
    assert_eq!(h.state().editing().settings.tool, Tool::Objects);

    let (uid, at) = nearest_tree(&h, view);

    click(&mut h, at, Modifiers::NONE);
    assert_eq!(
        h.state().selection(),
        [(ObjectKind::Doodad, uid)],
        "the tree is selected"
    );
    let steps = h.state().editing().history.len();

    // Type a new x in the object panel: one undo step, and the tree moves in every tile.
    let before = map(&h);
    let old = records(&before, uid)[0].clone();
    let new_x = old.position[0] + 7.25;
    h.get_by_label("X (north)").click();
    h.run();
    h.get_by_label("X (north)").type_text(&format!("{new_x}"));
    h.run();
    h.key_press(Key::Enter);
    h.run_steps(3);
    let moved = map(&h);
    let now = records(&moved, uid);
    assert!(!now.is_empty());
    assert!(
        now.iter()
            .all(|d| (d.position[0] - new_x).abs() < 1e-6 && d.position[1] == old.position[1]),
        "moved to x = {new_x}: {now:?}"
    );
    assert_eq!(
        h.state().editing().history.len(),
        steps + 1,
        "one undo step"
    );

    // Delete: gone from every tile, one more step.
    h.hover_at(view.center());
    h.run();
    h.key_press(Key::Delete);
    h.run_steps(3);
    assert!(records(&map(&h), uid).is_empty(), "deleted");
    assert!(h.state().selection().is_empty());
    assert_eq!(h.state().editing().history.len(), steps + 2);

    // Ctrl+Z twice: the records, MCRF lists and names are back bit for bit.
    for _ in 0..2 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run_steps(3);
    }
    assert!(map(&h) == before, "undo restores the map exactly");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    h.run_steps(3);
    assert!(map(&h) == moved, "redo moves it again");
}

/// World (x, y, z) of the terrain the app picks under a screen position in the view.
fn ground_under(h: &Harness<'_, LoamApp>, view: egui::Rect, pos: Pos2) -> [f64; 3] {
    editor_support::pick_under(h, view, pos)
        .expect("terrain under the cursor")
        .world
}

/// The uids of every object the map's tiles list.
fn all_uids(map: &Map) -> std::collections::BTreeSet<u32> {
    common::object_uids(map).collect()
}

#[test]
fn drag_moves_ctrl_d_duplicates_and_a_browser_model_places_with_a_fresh_uid() {
    let (mut h, view) = objects_tool_on(None);
    let sample = map(&h);
    let (uid, at) = nearest_tree(&h, view);
    let steps = h.state().editing().history.len();

    // Press on the tree and drag it 40 points right: it follows the ground under the cursor.
    let old = records(&sample, uid)[0].clone();
    h.hover_at(at);
    h.run_steps(2);
    let start = h
        .state()
        .hover_point()
        .expect("terrain under the tree")
        .world;
    let end = at + egui::vec2(40.0, 0.0);
    editor_support::primary(&h, at, true, Modifiers::NONE);
    h.run_steps(2);
    editor_support::glide(&mut h, at, end);
    let stop = h
        .state()
        .hover_point()
        .expect("terrain under the cursor")
        .world;
    editor_support::primary(&h, end, false, Modifiers::NONE);
    h.run_steps(3);
    assert_eq!(h.state().selection(), [(ObjectKind::Doodad, uid)]);
    let moved = records(&map(&h), uid);
    let (dx, dy) = (stop[0] - start[0], stop[1] - start[1]);
    assert!(dx.hypot(dy) > 5.0, "the cursor moved over the ground");
    assert!(
        moved
            .iter()
            .all(|d| (d.position[0] - (old.position[0] + dx)).abs() < 1e-6
                && (d.position[1] - (old.position[1] + dy)).abs() < 1e-6),
        "moved by the ground's ({dx}, {dy}): {moved:?}"
    );
    assert_eq!(
        h.state().editing().history.len(),
        steps + 1,
        "the drag is one undo step"
    );

    // Ctrl+D: a copy in place with a uid above every one in the map, selected; one step.
    let before = map(&h);
    let top = *all_uids(&before).iter().max().unwrap();
    h.key_press_modifiers(Modifiers::COMMAND, Key::D);
    h.run_steps(3);
    let copy = top + 1;
    assert_eq!(h.state().selection(), [(ObjectKind::Doodad, copy)]);
    let copies = records(&map(&h), copy);
    assert_eq!(copies.len(), moved.len());
    assert_eq!(copies[0].position, moved[0].position);
    assert_eq!(h.state().editing().history.len(), steps + 2);

    // A model clicked in the asset browser is what the next click places, on the ground there.
    h.get_by_label("Assets").click();
    h.run_steps(3);
    h.get_by_label_contains("Models (").click();
    h.run_steps(3);
    // The catalogue is built on a worker: wait for the folder, then open it down to the model.
    let start = Instant::now();
    while h.query_by_label("World  (2)").is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the browser never listed the models"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(2);
    }
    for folder in ["World  (2)", "Loam  (2)", "Sample  (2)"] {
        h.get_by_label(folder).click();
        h.run_steps(3);
    }
    h.get_by_label("Boulder01.m2").click();
    h.run_steps(3);
    assert_eq!(h.state().editing().settings.tool, Tool::Objects);
    let spot = view.center() + egui::vec2(-60.0, 80.0);
    let ground = ground_under(&h, view, spot);
    click(&mut h, spot, Modifiers::NONE);
    let placed = top + 2;
    let boulder = records(&map(&h), placed);
    assert!(!boulder.is_empty(), "placed with the next uid");
    assert!(
        (boulder[0].position[0] - ground[0]).abs() < 1.0
            && (boulder[0].position[1] - ground[1]).abs() < 1.0,
        "at the clicked ground {ground:?}: {:?}",
        boulder[0].position
    );
    assert_eq!(h.state().editing().history.len(), steps + 3);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(3);
    assert!(
        records(&map(&h), placed).is_empty(),
        "undo takes the placement back"
    );
}

/// The sample open with the object tool, its models read, and the tree nearest the camera
/// selected by a click: the harness, the view's rectangle, the tree's uid and where it shows.
fn tree_selected() -> (Harness<'static, LoamApp>, egui::Rect, u32, Pos2) {
    let (mut h, view) = objects_tool_on(None);
    let (uid, at) = nearest_tree(&h, view);
    click(&mut h, at, Modifiers::NONE);
    (h, view, uid, at)
}

/// The sample's trees (doodads of Tree01.m2).
fn trees(map: &Map) -> impl Iterator<Item = &loam::model::DoodadPlacement> {
    map.tiles.values().flat_map(|t| {
        t.doodads
            .iter()
            .filter(|d| t.doodad_names[d.name_index as usize].ends_with("Tree01.m2"))
    })
}

/// The sample's tree nearest the camera that shows in the view, and where its trunk's middle
/// shows.
fn nearest_tree(h: &Harness<'_, LoamApp>, view: egui::Rect) -> (u32, Pos2) {
    let sample = map(h);
    let eye = h.state().camera().eye();
    trees(&sample)
        .filter_map(|d| {
            let up = 2.0 * d.scale_factor() as f64;
            let at = screen_of(h, view, [d.position[0], d.position[1], d.position[2] + up])?;
            let p = Vec3::new(
                d.position[0] as f32,
                d.position[1] as f32,
                d.position[2] as f32,
            );
            Some(((p - eye).length(), d.unique_id, at))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, uid, at)| (uid, at))
        .expect("a tree in view")
}

#[test]
fn r_turns_the_selection_with_the_mouse_and_esc_cancels_a_move() {
    let (mut h, view, uid, at) = tree_selected();
    assert_eq!(h.state().selection(), [(ObjectKind::Doodad, uid)]);
    let before = map(&h);
    let old = records(&before, uid)[0].clone();
    let steps = h.state().editing().history.len();

    // R, then the mouse 60 points right: a turn of 60 / (width / 2) × 180 degrees; a click
    // confirms it as one step.
    h.key_press(Key::R);
    h.run_steps(2);
    let end = at + egui::vec2(60.0, 0.0);
    for k in 1..=3 {
        h.hover_at(at + egui::vec2(20.0 * k as f32, 0.0));
        h.run_steps(2);
    }
    click(&mut h, end, Modifiers::NONE);
    let turned = records(&map(&h), uid);
    let want = old.rotation[1] as f64 + 60.0 / (view.width() as f64 / 2.0) * 180.0;
    assert!(
        turned
            .iter()
            .all(|d| (d.rotation[1] as f64 - want).abs() < 0.5 && d.position == old.position),
        "turned to {want}°: {turned:?}"
    );
    assert_eq!(h.state().editing().history.len(), steps + 1);

    // G and Esc: the tree goes back, nothing is recorded.
    let after_turn = map(&h);
    h.key_press(Key::G);
    h.run_steps(2);
    for k in 1..=3 {
        h.hover_at(end + egui::vec2(0.0, 15.0 * k as f32));
        h.run_steps(2);
    }
    assert!(
        map(&h) != after_turn,
        "the tree follows the mouse while G is on"
    );
    h.key_press(Key::Escape);
    h.run_steps(3);
    assert!(map(&h) == after_turn, "Esc puts it back");
    assert_eq!(h.state().editing().history.len(), steps + 1);
}

#[test]
fn dragging_the_gizmos_x_arrow_moves_the_selection_along_x_only() {
    let (mut h, view, uid, _) = tree_selected();
    let old = records(&map(&h), uid)[0].clone();
    let steps = h.state().editing().history.len();

    // The gizmo as the app lays it out, and its x arrow in screen points.
    let (centre, yaw) = h.state().gizmo_centre().expect("a gizmo for the selection");
    assert_eq!(yaw, None, "world axes by default");
    let app = h.state();
    let vp = app.camera().view_projection(view.width() / view.height());
    let g = loam::render::gizmo::layout(centre, yaw, vp, app.camera().eye()).unwrap();
    let px = |p: [f32; 2]| {
        Pos2::new(
            view.center().x + p[0] * view.width() / 2.0,
            view.center().y - p[1] * view.height() / 2.0,
        )
    };
    let (c, tip) = (px(g.centre), px(g.axes[0].0));
    let grab = c + (tip - c) * 0.6;
    let drop = c + (tip - c) * 1.6;
    editor_support::drag(&mut h, grab, drop, Modifiers::NONE);
    let now = records(&map(&h), uid);
    // A whole arm (a tenth of the distance to the eye) along +x, nothing across.
    let moved = now[0].position[0] - old.position[0];
    assert!(
        (moved - g.arm as f64).abs() < 0.2 * g.arm as f64,
        "moved {moved} yd along x, the arm is {} yd",
        g.arm
    );
    assert!(
        now.iter()
            .all(|d| (d.position[1] - old.position[1]).abs() < 1e-6
                && (d.position[2] - old.position[2]).abs() < 1e-6)
    );
    assert_eq!(
        h.state().editing().history.len(),
        steps + 1,
        "one undo step"
    );
    assert_eq!(
        h.state().selection(),
        [(ObjectKind::Doodad, uid)],
        "still selected"
    );
}

#[test]
fn a_rubber_band_selects_what_it_encloses_and_select_all_of_a_model_takes_every_tree() {
    let (mut h, view) = objects_tool_on(None);
    // A band round the middle of the view, begun on bare ground.
    let (a, b) = (
        view.center() + egui::vec2(-150.0, -100.0),
        view.center() + egui::vec2(150.0, 100.0),
    );
    let band = egui::Rect::from_two_pos(a, b);
    let sample = map(&h);
    let mut inside = std::collections::BTreeSet::new();
    for t in sample.tiles.values() {
        let points = t
            .doodads
            .iter()
            .map(|d| (d.unique_id, d.position))
            .chain(t.wmos.iter().map(|w| (w.unique_id, w.position)));
        for (uid, p) in points {
            if screen_of(&h, view, p).is_some_and(|p| band.contains(p)) {
                inside.insert(uid);
            }
        }
    }
    assert!(
        inside.len() >= 3,
        "the band holds several objects: {inside:?}"
    );
    h.hover_at(a);
    h.run_steps(2);
    editor_support::primary(&h, a, true, Modifiers::NONE);
    h.run_steps(2);
    assert!(h.state().selection().is_empty(), "nothing under the press");
    editor_support::glide(&mut h, a, b);
    editor_support::primary(&h, b, false, Modifiers::NONE);
    h.run_steps(3);
    let got: std::collections::BTreeSet<u32> =
        h.state().selection().iter().map(|(_, u)| *u).collect();
    assert_eq!(
        got, inside,
        "exactly the objects whose points lie in the band"
    );

    // One tree selected, then every tree.
    let (uid, at) = nearest_tree(&h, view);
    click(&mut h, at, Modifiers::NONE);
    assert_eq!(h.state().selection(), [(ObjectKind::Doodad, uid)]);
    h.get_by_label("Select all of this model").click();
    h.run_steps(3);
    let trees: std::collections::BTreeSet<u32> = trees(&sample).map(|d| d.unique_id).collect();
    let got: std::collections::BTreeSet<u32> =
        h.state().selection().iter().map(|(_, u)| *u).collect();
    assert_eq!(got, trees);
}

#[test]
fn copy_paste_puts_a_copy_at_the_cursor_and_a_typed_path_places_with_a_click() {
    let (mut h, view, uid, _) = tree_selected();
    let steps = h.state().editing().history.len();
    let top = *all_uids(&map(&h)).iter().max().unwrap();
    // Ctrl+C (egui's Copy event), then Ctrl+V over bare ground: the copy stands there.
    h.event(egui::Event::Copy);
    h.run_steps(2);
    let spot = view.center() + egui::vec2(90.0, 120.0);
    let ground = ground_under(&h, view, spot);
    h.hover_at(spot);
    h.run_steps(2);
    h.event(egui::Event::Paste(String::new()));
    h.run_steps(3);
    let copy = records(&map(&h), top + 1);
    assert!(!copy.is_empty(), "pasted with the next uid");
    assert!(
        (copy[0].position[0] - ground[0]).abs() < 1e-3
            && (copy[0].position[1] - ground[1]).abs() < 1e-3,
        "at the cursor {ground:?}: {:?}",
        copy[0].position
    );
    assert!(
        (copy[0].position[2] - ground[2]).abs() < 0.05,
        "on the ground"
    );
    assert_eq!(copy[0].rotation, records(&map(&h), uid)[0].rotation);
    assert_eq!(h.state().selection(), [(ObjectKind::Doodad, top + 1)]);
    assert_eq!(h.state().editing().history.len(), steps + 1);

    // A path typed in the panel is what the next click places.
    h.get_by_label("Place").click();
    h.run();
    h.get_by_label("Place")
        .type_text("World\\Loam\\Sample\\Boulder01.m2");
    h.run();
    h.key_press(Key::Enter);
    h.run_steps(3);
    let spot = view.center() + egui::vec2(-120.0, 140.0);
    let ground = ground_under(&h, view, spot);
    click(&mut h, spot, Modifiers::NONE);
    let boulder = records(&map(&h), top + 2);
    assert!(!boulder.is_empty(), "placed");
    assert!((boulder[0].position[0] - ground[0]).abs() < 1.0);
    assert_eq!(h.state().editing().history.len(), steps + 2);
}

#[test]
fn dragging_the_gizmos_centre_square_sideways_scales_the_doodad() {
    let (mut h, view, uid, _) = tree_selected();
    let old = records(&map(&h), uid)[0].clone();
    let (centre, yaw) = h.state().gizmo_centre().unwrap();
    let vp = h
        .state()
        .camera()
        .view_projection(view.width() / view.height());
    let g = loam::render::gizmo::layout(centre, yaw, vp, h.state().camera().eye()).unwrap();
    let c = Pos2::new(
        view.center().x + g.centre[0] * view.width() / 2.0,
        view.center().y - g.centre[1] * view.height() / 2.0,
    );
    // A quarter of the view's width to the right: half an NDC unit, twice the size.
    let to = c + egui::vec2(view.width() / 4.0, 0.0);
    editor_support::drag(&mut h, c, to, Modifiers::NONE);
    let now = records(&map(&h), uid)[0].clone();
    let want = old.scale as f64 * 2.0;
    assert!(
        (now.scale as f64 - want).abs() <= want * 0.02,
        "scale {} -> {}, want {want}",
        old.scale,
        now.scale
    );
    assert_eq!(
        (now.position, now.rotation),
        (old.position, old.rotation),
        "a lone object only grows"
    );
}

#[test]
fn an_edit_loads_a_tile_that_lists_the_object_so_no_stale_copy_stays_on_disk() {
    use loam::edit::objects::object_ops::{self, ObjectOp, ObjectTool};
    use loam::model::{Tile, TileCoord};

    // Two tiles on disk; a rock on their border is listed by both.
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (
        TileCoord::new(31, 31).unwrap(),
        TileCoord::new(32, 31).unwrap(),
    );
    let mut m = Map::new("Edge");
    for c in [a, b] {
        m.tiles.insert(c, Tile::flat(c, "Tileset\\A.blp", 5.0));
        m.tile_flags[c.index()] = loam::model::map::TILE_PRESENT;
    }
    let op = ObjectOp {
        tool: ObjectTool::Place,
        model: Some("World\\Missing\\Rock.m2".into()),
        position: Some(vec![100.0, 0.5]),
        rotation: None,
        scale: Some(4.0),
        uid: Some(77),
        doodad_set: None,
    };
    object_ops::apply(&mut m, &op, &mut loam::edit::History::default(), &|_| None).unwrap();
    assert!(
        m.tiles.values().all(|t| t.doodads.len() == 1),
        "both tiles list the rock"
    );
    let files = loam::pipeline::encode_map(&m, loam::format::Generation::V335, true, None).unwrap();
    loam::disk::write_files(dir.path(), &files, |_| {}).unwrap();

    let mut h = harness_on(Some(dir.path().join("Edge.wdt")));
    h.run();
    // Tile b streams out of memory (as far tiles do), while a still shows the rock.
    h.state_mut().session_mut().unwrap().map.tiles.remove(&b);
    h.state_mut().select_by_uid(&[77]);
    let mut moved = h.state().selected_objects()[0].clone();
    moved.position[1] = 200.0; // well inside tile a
    let ctx = h.ctx.clone();
    h.state_mut()
        .handle(&ctx, loam::app::intent::Intent::EditObject(moved));
    h.run();
    let s = h.state().session().unwrap();
    assert!(
        s.map.tiles.contains_key(&b),
        "the tile listing the rock was loaded for the edit"
    );
    assert!(s.map.tiles[&b].doodads.is_empty(), "and no longer lists it");
    assert_eq!(s.map.tiles[&a].doodads.len(), 1);
    assert!(s.edited.contains(&b), "so it is saved");
    // Saved: the file of b lists no rock, a lists it once.
    h.state_mut().handle(
        &ctx,
        loam::app::intent::Intent::Command(loam::command::Command::Save),
    );
    h.run();
    let back = loam::pipeline::open_map(&dir.path().join("Edge.wdt"))
        .unwrap()
        .map;
    assert!(back.tiles[&b].doodads.is_empty());
    assert_eq!(back.tiles[&a].doodads.len(), 1);
}

/// The corpus tile with 381 doodads and 19 WMOs, opened without a client: every model is
/// missing and drawn as a placeholder.
fn continent4229() -> std::path::PathBuf {
    common::corpus().join("wowserhq-format/map/continent4229.adt")
}

#[test]
fn every_placeholder_can_be_hovered_and_selected_by_its_marker() {
    let (mut h, view) = objects_tool_on(Some(continent4229()));
    let filter = h.state().settings().objects;
    let marks = h.state().object_scene().placeholders(&filter);
    assert_eq!(
        marks.len(),
        400,
        "381 doodads and 19 WMOs, all placeholders"
    );
    // The notice over the view says why, and what fixes it.
    h.get_by_label_contains("models not found: no game client folder is chosen.");
    h.get_by_label("Choose the client folder…");
    // The status bar's object line (its models' names are long) is shortened, not run off
    // the window.
    let right = h
        .get_by_label_contains("objects 381 doodads")
        .rect()
        .right();
    assert!(right <= 1280.0, "the object line ends at {right}");
    // A point of the view below its centre (where the headless view's note sits), and the
    // direction a ray through it takes from a camera looking down at a slant (objects stacked
    // one above the other, as fence rails are, stand apart on the screen).
    let at = view.center() + egui::vec2(0.0, view.height() / 4.0);
    let ndc = [
        (at.x - view.left()) / view.width() * 2.0 - 1.0,
        1.0 - (at.y - view.top()) / view.height() * 2.0,
    ];
    for (kind, uid, origin) in marks {
        // The camera 6 yards from the marker along that ray: the point is on the marker, and
        // markers of objects stacked a third of a yard apart do not overlap.
        let camera = h.state_mut().camera_mut();
        camera.yaw = 0.3;
        camera.pitch = -0.6;
        let (_, dir) = camera.ray(ndc, view.width() / view.height());
        let eye = origin - dir * 6.0;
        camera.position = [eye.x as f64, eye.y as f64, eye.z as f64];
        h.hover_at(at);
        h.run_steps(2);
        let hover = h.state().object_hover().unwrap_or_default().to_string();
        assert!(
            hover.contains(&format!("uid {uid}")),
            "{kind:?} {uid}: hover says {hover:?}"
        );
        click(&mut h, at, Modifiers::NONE);
        assert_eq!(
            h.state().selection(),
            [(kind, uid)],
            "{kind:?} {uid} selected"
        );
    }
}

#[test]
fn with_a_client_that_lacks_them_the_notice_offers_the_list_of_missing_models() {
    // A folder that is not a game client: the notice says so, since it looks just like a
    // client that lacks the models.
    let not_a_client = tempfile::tempdir().unwrap();
    let mut h = harness_with_client(
        Some(continent4229()),
        Some(not_a_client.path().to_path_buf()),
    );
    h.run();
    settle_models(&mut h);
    h.get_by_label_contains("is not a game client");
    h.get_by_label("Choose another client folder…");

    // A game client (one archive) without the tile's models, as custom models are missing
    // from the game.
    let client = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(client.path().join("Data")).unwrap();
    wow_mpq::ArchiveBuilder::new()
        .add_file_data(b"x".to_vec(), "Interface\\Unrelated.txt")
        .build(client.path().join("Data/common.MPQ"))
        .unwrap();
    let mut h = harness_with_client(Some(continent4229()), Some(client.path().to_path_buf()));
    h.run();
    settle_models(&mut h);
    let notice = h
        .get_by_label_contains("models not found in the client or the map's folder")
        .value()
        .unwrap_or_default();
    let count: usize = notice.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(count, h.state().object_scene().missing_models().len());
    h.get_by_label("Show the list…").click();
    h.run();
    h.get_by_label(loam::ui::dialogs::MISSING_MODELS_TITLE);
    // Each model with why and where: continent4229 is tile 42_29.
    let rows = h.query_all_by_label_contains("placed in 42_29").count();
    assert_eq!(rows, count, "one row a model");
    h.get_by_label_contains(
        "WORLD\\AZEROTH\\DUSKWOOD\\PASSIVEDOODADS\\FENCE\\DUSKWOODFENCERAIL.M2",
    );
    // The notice gives way to the list, and comes back when it closes.
    assert!(h.query_by_label("Show the list…").is_none());
    h.get_by_label("Close").click();
    h.run();
    h.get_by_label("Show the list…");
    // Hidden, it stays hidden while no more models go missing.
    h.get_by_label("×").click();
    h.run();
    assert!(!editor_support::shows(&h, "models not found in the client"));
    h.run_steps(3);
    assert!(!editor_support::shows(&h, "models not found in the client"));
}
