//! A map maker's hands, driven through egui_kittest with the real app: keys of the user's own
//! (Settings ▸ Keys: rebinding, a clash shown before it is taken, reset, kept across a restart,
//! also from a settings file written before keys existed), the command palette, camera
//! bookmarks, and Go to with the servers' `.go xyz` line.

mod common;
mod editor_support;

use egui::{Key, KeyboardShortcut, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use loam::app::LoamApp;
use loam::app::settings::{STORAGE_KEY, Settings};
use loam::command::keymap::Action;
use loam::doc::editing::Tool;
use loam::model::TileCoord;
use loam::ui::dialogs::keys::{KEYS_ACCEPT_LABEL, KEYS_FILTER_LABEL, key_button_label};

fn tool(h: &Harness<'_, LoamApp>) -> Tool {
    h.state().editing().settings.tool
}

/// Presses `key` over the window (nothing focused) and lets the frame run.
fn press(h: &mut Harness<'_, LoamApp>, key: Key) {
    h.key_press(key);
    h.run();
}

/// Opens Settings ▸ Keys and finds `name`'s row with the filter.
fn keys_row(h: &mut Harness<'_, LoamApp>, name: &str) {
    editor_support::click_each(h, &["Settings", "Keys…"]);
    editor_support::type_into(h, KEYS_FILTER_LABEL, name);
    h.run();
}

#[test]
fn a_tools_new_key_selects_it_the_old_one_not_and_survives_a_restart() {
    let mut h = editor_support::editor(None);
    assert_eq!(tool(&h), Tool::Raise);
    press(&mut h, Key::Num4);
    assert_eq!(tool(&h), Tool::Smooth, "4 is Smooth's default key");
    press(&mut h, Key::Num1);
    assert_eq!(tool(&h), Tool::Raise);

    let smooth = Action::Tool(Tool::Smooth);
    keys_row(&mut h, "smooth");
    h.get_by_label(&key_button_label(smooth)).click();
    h.run();
    assert!(editor_support::shows(&h, "Press a key"));
    // Focus leaves the filter field when the key button is clicked; K is free.
    press(&mut h, Key::K);
    let k = KeyboardShortcut::new(Modifiers::NONE, Key::K);
    assert_eq!(h.state().settings().input.keys.keys(smooth), vec![k]);

    press(&mut h, Key::Num4);
    assert_eq!(tool(&h), Tool::Raise, "4 no longer chooses Smooth");
    press(&mut h, Key::K);
    assert_eq!(tool(&h), Tool::Smooth, "K does");

    // A restart: what this run gives eframe's storage, the next run reads.
    let mut storage = editor_support::MemoryStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    let restored = Settings::restored(Some(&storage), false);
    assert_eq!(restored.input.keys.keys(smooth), vec![k]);
    let mut h = editor_support::editor(Some(restored));
    press(&mut h, Key::K);
    assert_eq!(tool(&h), Tool::Smooth, "the key survives a restart");
    press(&mut h, Key::Num1);
    press(&mut h, Key::Num4);
    assert_eq!(tool(&h), Tool::Raise);
}

#[test]
fn a_settings_file_from_before_keys_starts_with_the_default_keys() {
    // The settings a run before this change saved: no keys, no bookmarks.
    let mut storage = editor_support::MemoryStorage::default();
    eframe::Storage::set_string(
        &mut storage,
        STORAGE_KEY,
        // eframe keeps the settings as RON; the view toggles at the top level.
        r#"{"recent":[],"camera_speed":150.0,"client_data":None,"chunk_grid":true,
            "tile_grid":true,"layer_count":false,"area_overlay":false,"liquids":true,
            "cameras":{},"left_panel":Tiles,"listfile":None,"read_as":{},
            "autosave_secs":120}"#
            .into(),
    );
    let restored = Settings::restored(Some(&storage), false);
    assert_eq!(
        restored.input.camera_speed, 150.0,
        "the old file was read, not dropped"
    );
    assert!(restored.view.chunk_grid);
    let mut h = editor_support::editor(Some(restored));
    press(&mut h, Key::Num4);
    assert_eq!(tool(&h), Tool::Smooth);
}

#[test]
fn a_clashing_key_is_shown_before_it_is_taken_and_reset_restores_the_default() {
    let mut h = editor_support::editor(None);
    let smooth = Action::Tool(Tool::Smooth);
    let forward = Action::Camera(loam::command::keymap::CameraMove::Forward);
    keys_row(&mut h, "smooth");
    h.get_by_label(&key_button_label(smooth)).click();
    h.run();
    press(&mut h, Key::W);
    // Not taken yet: the clash with the camera is shown first.
    let num4 = KeyboardShortcut::new(Modifiers::NONE, Key::Num4);
    let w = KeyboardShortcut::new(Modifiers::NONE, Key::W);
    assert_eq!(h.state().settings().input.keys.keys(smooth), vec![num4]);
    assert!(
        editor_support::shows(&h, "is already the key of Camera forward"),
        "the clash is named"
    );
    h.get_by_label(KEYS_ACCEPT_LABEL).click();
    h.run();
    let keys = &h.state().settings().input.keys;
    assert_eq!(keys.keys(smooth), vec![w]);
    assert_eq!(keys.keys(forward), vec![], "the camera gave W up");

    // Reset: Smooth's row has its button now that it has a key of the user's own.
    h.get_by_label("Reset").click();
    h.run();
    assert_eq!(h.state().settings().input.keys.keys(smooth), vec![num4]);
    h.get_by_label("Reset all").click();
    h.run();
    assert_eq!(h.state().settings().input.keys.keys(forward), vec![w]);
    assert!(h.state().settings().input.keys.custom.is_empty());
}

#[test]
fn the_palette_finds_stitch_from_sti_shows_the_users_key_and_runs_it() {
    let stitch = Action::Command(loam::command::Command::StitchSeams);
    // The user's key for Stitch seams (in the keymap the Keys window edits).
    let mut settings = Settings::default();
    let key = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::ALT, Key::T);
    settings.input.keys.set(stitch, vec![key]);
    let mut h = editor_support::editor(Some(settings));

    h.key_press(Key::F1);
    h.run();
    editor_support::type_into(
        &mut h,
        loam::ui::command_palette::PALETTE_QUERY_LABEL,
        "sti",
    );
    h.run();
    h.get_by_label("Stitch seams");
    let shown = h.ctx.format_shortcut(&key);
    h.get_by_label(&shown);
    h.key_press(Key::Enter);
    h.run();
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(message.starts_with("Stitch seams"), "{message}");
    assert!(
        h.query_by_label("Stitch seams").is_none(),
        "the palette closed"
    );
    assert_eq!(
        h.state().settings().input.recent_commands[0],
        "Stitch seams"
    );
    // The user's key runs it too.
    h.get_by_label("Dismiss").click();
    h.run();
    assert_eq!(h.state().message(), None);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::ALT, Key::T);
    h.run();
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(message.starts_with("Stitch seams"), "{message}");
}

#[test]
fn a_bookmark_brings_the_camera_back() {
    let mut h = editor_support::editor(None);
    h.key_press_modifiers(Modifiers::COMMAND, Key::G);
    h.run();
    editor_support::type_into(
        &mut h,
        loam::ui::dialogs::places::BOOKMARK_NAME_LABEL,
        "gate",
    );
    h.run();
    h.get_by_label(loam::ui::dialogs::places::SAVE_VIEW_LABEL)
        .click();
    h.run();
    let saved = *h.state().camera();
    let key = h.state().session().unwrap().key();
    assert_eq!(h.state().settings().bookmarks_for(&key)[0].name, "gate");

    h.state_mut().go_to_tile(TileCoord::new(31, 31).unwrap());
    h.run();
    let moved = *h.state().camera();
    let apart = |a: [f64; 3], b: [f64; 3]| {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    };
    assert!(
        apart(moved.position, saved.position) > 10.0,
        "the camera moved"
    );

    h.get_by_label(&loam::ui::dialogs::places::jump_label("gate"))
        .click();
    h.run();
    let back = *h.state().camera();
    assert!(
        apart(back.position, saved.position) < 0.01,
        "{back:?} vs {saved:?}"
    );
    assert!((back.yaw - saved.yaw).abs() < 1e-4 && (back.pitch - saved.pitch).abs() < 1e-4);

    // Rename and delete, as the window's buttons ask.
    use loam::command::{Intent, PlacesIntent};
    let ctx = h.ctx.clone();
    let rename = Intent::Places(PlacesIntent::Rename(0, "north gate".into()));
    h.state_mut().handle(&ctx, rename);
    h.run();
    assert_eq!(
        h.state().settings().bookmarks_for(&key)[0].name,
        "north gate"
    );
    h.get_by_label(&loam::ui::dialogs::places::jump_label("north gate"));
    h.get_by_label("Delete").click();
    h.run();
    assert!(h.state().settings().bookmarks_for(&key).is_empty());
}

#[test]
fn a_pasted_go_xyz_line_of_a_corpus_tile_flies_there() {
    let adt = common::corpus_file("wowserhq-format/map/continent4229.adt");
    let dialogs = loam::app::file_picker::ScriptedDialogs::default();
    let mut h = editor_support::scripted(&dialogs, Some(adt), None);
    h.run();
    let tile = TileCoord::new(42, 29).unwrap();
    let z = editor_support::map(&h).tiles[&tile].chunks[0].heights[0];
    // The tile's north-west corner (its first chunk's first vertex). TrinityCore's
    // GridDefines.h: SIZE_OF_GRIDS = 533.3333, CENTER_GRID_ID = 32, and x falls by one grid
    // per row of files, y per column: x = (32 - 29) · 533.3333 = 1600.00,
    // y = (32 - 42) · 533.3333 = -5333.33; z is the vertex's height.
    let line = loam::model::server_coords::go_xyz(tile_corner(tile, z as f64), None);
    assert_eq!(line, format!(".go xyz 1600.00 -5333.33 {z:.2}"));

    h.key_press_modifiers(Modifiers::COMMAND, Key::G);
    h.run();
    editor_support::type_into(&mut h, loam::ui::dialogs::places::GO_TO_LABEL, &line);
    h.run();
    h.get_by_label("Go").click();
    h.run();
    let cam = *h.state().camera();
    let target = glam::DVec3::new(1600.0, -5333.33, z as f64);
    let eye = glam::DVec3::from(cam.position);
    let flat = ((eye.x - target.x).powi(2) + (eye.y - target.y).powi(2)).sqrt();
    assert!(flat < 100.0, "the camera stands over the point: {eye:?}");
    let to = (target - eye).normalize();
    let forward = cam.forward().as_dvec3();
    assert!(
        to.dot(forward) > 0.999,
        "and looks at it: {to:?} {forward:?}"
    );
    // The status bar offers the camera's line to copy (no client: no map id).
    h.get_by_label(loam::ui::status::COPY_GO_LABEL).click();
    h.run();
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(message.starts_with("Copied: .go xyz "), "{message}");
}

/// World (x, y, z) of `tile`'s north-west corner at height `z`.
fn tile_corner(tile: TileCoord, z: f64) -> [f64; 3] {
    let [x, y] = tile.north_west();
    [x, y, z]
}

#[test]
fn the_left_handed_set_flies_on_the_arrows_and_alt_wheel_grows_the_brush() {
    let mut h = editor_support::editor(None);
    editor_support::click_each(&mut h, &["Settings", "Keys…"]);
    h.get_by_label("Left-handed (arrows and keypad)").click();
    h.run();
    let preset = h.state().settings().input.keys.preset;
    assert_eq!(preset, loam::command::keymap::Preset::LeftHanded);
    h.get_by_label(KEYS_FILTER_LABEL).click();
    h.run();
    // Let go of the filter field, so that held keys fly.
    h.key_press(Key::Escape);
    h.run();

    let hold = |h: &mut Harness<'_, LoamApp>, key: Key| {
        let before = h.state().camera().position;
        h.key_down(key);
        h.run_steps(10);
        h.key_up(key);
        h.run();
        let after = h.state().camera().position;
        ((after[0] - before[0]).powi(2) + (after[1] - before[1]).powi(2)).sqrt()
    };
    assert!(hold(&mut h, Key::ArrowUp) > 1.0, "the arrow flies");
    assert_eq!(hold(&mut h, Key::W), 0.0, "W no longer does");

    // Alt + wheel over the view steps the radius instead of zooming.
    let view = h.get_by_label(loam::ui::viewport::VIEWPORT_LABEL).rect();
    editor_support::ground_under(&mut h, view.center() + egui::vec2(0.0, 150.0));
    let radius = h.state().editing().settings.brush.radius;
    let eye = h.state().camera().position;
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: egui::vec2(0.0, 2.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: Modifiers::ALT,
    });
    h.run();
    let grown = h.state().editing().settings.brush.radius;
    assert!(
        (grown - radius * 1.125f32.powi(2)).abs() < 1e-3,
        "{radius} → {grown}"
    );
    assert_eq!(h.state().camera().position, eye, "the view did not zoom");
    // Without a modifier the wheel zooms, as before.
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: egui::vec2(0.0, 2.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: Modifiers::NONE,
    });
    h.run();
    assert_ne!(h.state().camera().position, eye, "the plain wheel zooms");
    let radius_now = h.state().editing().settings.brush.radius;
    assert_eq!(radius_now, grown);
}
