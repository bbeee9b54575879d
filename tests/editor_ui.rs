//! The editor's ui flows driven through egui_kittest with the real app (no GL context here, so
//! the 3D view shows its placeholder): opening through a scripted file dialog, jumping with the
//! tile map, Save as… listing its targets and the quit question.

mod common;
mod editor_support;

use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use loam::app::LoamApp;
use loam::app::file_picker::ScriptedDialogs;
use loam::model::TileCoord;
use loam::model::coords::TILE_SIZE;

fn corpus(rel: &str) -> PathBuf {
    common::corpus().join(rel)
}

fn harness(dialogs: &ScriptedDialogs, open: Option<PathBuf>) -> Harness<'static, LoamApp> {
    editor_support::scripted(dialogs, open, None)
}

fn click_at(h: &Harness<'_, LoamApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
}

#[test]
fn with_no_path_the_sample_opens() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    let s = h.state().session().expect("the sample is open");
    assert_eq!(s.map.name, "Sample");
    assert_eq!(s.map.tiles.len(), 4);
    // Without GL the viewport says why instead of drawing.
    h.get_by_label_contains("no OpenGL context");
}

#[test]
fn file_open_uses_the_dialog_and_remembers_the_file() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    let adt = corpus("wowserhq-format/map/continent4229.adt");
    dialogs.answer_map(Some(adt.clone()));
    editor_support::click_each(&mut h, &["File", "Open…"]);
    let s = h.state().session().expect("a map is open");
    assert_eq!(s.source, adt);
    assert!(s.map.tiles.contains_key(&TileCoord::new(42, 29).unwrap()));
    assert_eq!(h.state().settings().recent.first(), Some(&adt));

    // A cancelled dialog leaves the map as it is.
    dialogs.answer_map(None);
    editor_support::click_each(&mut h, &["File", "Open…"]);
    assert_eq!(h.state().session().unwrap().source, adt);
}

#[test]
fn the_client_data_folder_is_chosen_in_settings_and_persisted() {
    // A 3.3.5 client: Data/common.MPQ and lichking.MPQ (common.MPQ alone is 2.4.3's).
    let game = tempfile::tempdir().unwrap();
    let data = game.path().join("Data");
    std::fs::create_dir_all(&data).unwrap();
    for archive in ["common.MPQ", "lichking.MPQ"] {
        wow_mpq::ArchiveBuilder::new()
            .add_file_data(b"grass".to_vec(), "Tileset\\Grass.blp")
            .build(data.join(archive).as_path())
            .unwrap();
    }

    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    // A folder that is not a client is read as extracted files, and says so.
    dialogs.answer_folder(Some(PathBuf::from("/games/extracted")));
    h.get_by_label("Settings").click();
    h.run();
    h.get_by_label("Choose client folder…").click();
    h.run();
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(message.contains("as extracted files"), "{message}");

    dialogs.answer_folder(Some(game.path().to_path_buf()));
    h.get_by_label("Settings").click();
    h.run();
    h.get_by_label("Choose client folder…").click();
    h.run();
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(
        message.starts_with("3.3.5 client, 2 archive(s)"),
        "{message}"
    );
    let settings = h.state().settings();
    assert_eq!(settings.client_data, Some(game.path().to_path_buf()));
    let expected = settings.clone();

    // What the app gives eframe's storage is what the next start reads, with the camera of
    // the open map in it.
    let mut storage = editor_support::MemoryStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    let back: loam::app::settings::Settings =
        eframe::get_value(&storage, loam::app::settings::STORAGE_KEY).unwrap();
    assert_eq!(back.client_data, expected.client_data);
    assert_eq!(back.recent, expected.recent);
    let key = h.state().session().unwrap().key();
    assert_eq!(back.camera_for(&key), Some(*h.state().camera()));
}

/// Clicks `tile` on the tile map (the open map's region of it, as the widget draws it).
fn click_tile(h: &Harness<'_, LoamApp>, tile: TileCoord) {
    click_at(h, editor_support::tile_map_point(h, tile));
}

#[test]
fn a_wdt_with_missing_tiles_opens_and_says_so() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, Some(corpus("blizzardry/Azeroth.wdt")));
    h.run();
    let s = h.state().session().expect("the WDT opens");
    assert!(!s.missing_tiles.is_empty());
    assert!(h.state().message().unwrap().contains("missing"));
}

#[test]
fn a_click_on_the_tile_map_moves_the_camera_there() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    let before = *h.state().camera();
    let target = TileCoord::new(31, 32).unwrap();
    click_tile(&h, target);
    h.run();
    let after = *h.state().camera();
    assert_ne!(before, after);
    // The camera looks at the middle of the clicked tile.
    let ahead = after.eye() + after.forward() * (TILE_SIZE as f32 * 1.1);
    assert_eq!(
        TileCoord::containing(ahead.x as f64, ahead.y as f64),
        Some(target)
    );
}

/// The tile map's Go to tile fields, as (X, Y).
fn go_to_fields(h: &Harness<'_, LoamApp>) -> (f64, f64) {
    let value = |label| {
        h.get_by_role_and_label(Role::SpinButton, label)
            .accesskit_node()
            .numeric_value()
            .expect("a number")
    };
    (value("X"), value("Y"))
}

#[test]
fn the_go_to_tile_fields_show_the_tile_the_camera_went_to_and_keep_what_is_typed() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    // The sample's first tile, before the camera has gone anywhere.
    assert_eq!(go_to_fields(&h), (31.0, 31.0));
    click_tile(&h, TileCoord::new(32, 32).unwrap());
    h.run();
    assert_eq!(go_to_fields(&h), (32.0, 32.0));
    // Typed values stay while the camera stays, and Go to tile takes them.
    h.get_by_role_and_label(Role::SpinButton, "X")
        .set_value_accesskit(40.0);
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "Y")
        .set_value_accesskit(41.0);
    h.run();
    assert_eq!(go_to_fields(&h), (40.0, 41.0));
    h.get_by_label("Go to tile").click();
    h.run();
    let camera = *h.state().camera();
    let ahead = camera.eye() + camera.forward() * (TILE_SIZE as f32 * 1.1);
    assert_eq!(
        TileCoord::containing(ahead.x as f64, ahead.y as f64),
        TileCoord::new(40, 41)
    );
    assert_eq!(go_to_fields(&h), (40.0, 41.0));
}

#[test]
fn save_as_reads_a_large_maps_report_off_the_ui_thread_with_progress() {
    let dir = tempfile::tempdir().unwrap();
    // 48 copies of the corpus's largest tile (2.6 MB, 3.3.5).
    let coords = (0..48).map(|i| TileCoord::new(30 + i % 8, 30 + i / 8).unwrap());
    let wdt = map_of_copies(
        dir.path(),
        "Many",
        &corpus("warcraft-net/ADT/Northrend_37_25.adt"),
        coords,
        0,
    );
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, Some(wdt));
    h.run();
    editor_support::click_each(&mut h, &["File", "Save as…"]);
    // The frame that opened the dialog did not wait for 48 tiles: it shows the progress.
    h.get_by_label_contains("Reading the map's tiles for the report");
    // The report arrives while frames go on.
    step_until(&mut h, "the 3.3.5 report", |h| {
        h.query_by_label("nothing changes").is_some()
    });
    assert!(
        !editor_support::shows(&h, "Reading the map's tiles"),
        "the progress goes once the report is in"
    );
    // Another target: its own report, read again; the first is kept.
    h.get_by_label("Target 1.12").click();
    h.run();
    h.get_by_label_contains("Reading the map's tiles for the report");
    step_until(&mut h, "the 1.12 report", |h| {
        !editor_support::shows(h, "Reading the map's tiles")
    });
    // 3.3.5 tiles lose something as 1.12 (MH2O becomes MCLQ, vertex colours go).
    assert!(h.query_by_label("nothing changes").is_none());
    assert!(
        h.query_all_by_label_contains("tiles that could not be read")
            .count()
            == 0
    );
    h.get_by_label("Target 3.3.5").click();
    h.run();
    h.get_by_label("nothing changes");
}

#[test]
fn save_as_lists_the_targets_and_shows_the_report() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    editor_support::click_each(&mut h, &["File", "Save as…"]);
    for g in loam::format::Generation::ALL {
        h.get_by_label(&format!("Target {g}"));
    }
    h.get_by_label("nothing changes");
    h.get_by_label("Target 1.12").click();
    h.run();
    assert!(h.query_by_label("nothing changes").is_none());
    assert!(h.query_all_by_label_contains("vertex colour").count() >= 1);

    // Choose a folder and write: the map is now the 1.12 copy.
    let dir = tempfile::tempdir().unwrap();
    dialogs.answer_folder(Some(dir.path().to_path_buf()));
    editor_support::click_each(&mut h, &["Choose folder…", "Write"]);
    assert!(dir.path().join("Sample.wdt").is_file());
    assert!(dir.path().join("Sample_32_32.adt").is_file());
    let s = h.state().session().unwrap();
    assert_eq!(s.generation, loam::format::Generation::V112);
    assert!(
        h.query_by_label("Target 1.12").is_none(),
        "the dialog closed"
    );
}

#[test]
fn quitting_with_unsaved_changes_asks_first() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    h.state_mut().mark_edited(TileCoord::new(31, 31).unwrap());
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.run();
    h.get_by_label("Unsaved changes");
    h.get_by_label("Keep editing").click();
    h.run();
    assert!(h.query_by_label("Unsaved changes").is_none());
    assert_eq!(h.state().session().unwrap().edited.len(), 1);
    // The viewport itself is reachable by its accessible name.
    assert!(
        h.query_by_label(loam::ui::viewport::VIEWPORT_LABEL)
            .is_some()
    );
    assert_eq!(h.query_all_by_role(Role::Canvas).count(), 2);
}

/// A map named `name` in `dir` of copies of the tile file `tile` at `coords`, with WDT flags
/// `flags`; returns its WDT.
fn map_of_copies(
    dir: &Path,
    name: &str,
    tile: &Path,
    coords: impl Iterator<Item = TileCoord>,
    flags: u32,
) -> PathBuf {
    let mut map = loam::model::Map::new(name);
    map.flags = flags;
    for c in coords {
        map.tile_flags[c.index()] = loam::model::map::TILE_PRESENT;
        std::fs::copy(tile, dir.join(loam::disk::tile_file_name(name, c))).unwrap();
    }
    let wdt = dir.join(format!("{name}.wdt"));
    std::fs::write(&wdt, loam::format::v18::write_wdt(&map)).unwrap();
    wdt
}

/// A map of ten tiles in a row (copies of one sample tile), for streaming.
fn long_map(dir: &Path) -> PathBuf {
    loam::sample::write_sample(dir).unwrap();
    let flags = loam::model::map::MAP_FLAG_BIG_ALPHA | loam::model::map::MAP_FLAG_VERTEX_COLORS;
    let row = (20..30).map(|x| TileCoord::new(x, 40).unwrap());
    map_of_copies(dir, "Long", &dir.join("Sample_31_31.adt"), row, flags)
}

/// Steps frames (20 ms apart, as a window would) until `done`; fails after a minute's worth.
fn step_until(
    h: &mut Harness<'_, LoamApp>,
    what: &str,
    done: impl Fn(&Harness<'_, LoamApp>) -> bool,
) {
    let mut frames = 0;
    while !done(h) {
        assert!(frames < 3000, "{what}: not after {frames} frames");
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
        frames += 1;
    }
}

#[test]
fn tiles_stream_in_near_the_camera_and_out_far_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = long_map(dir.path());
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, Some(wdt));
    h.run();
    let loaded = |h: &Harness<'_, LoamApp>| -> Vec<u8> {
        h.state()
            .session()
            .unwrap()
            .map
            .tiles
            .keys()
            .map(|c| c.x)
            .collect()
    };
    let first = loaded(&h);
    assert!(!first.is_empty() && first.len() < 10, "{first:?}");
    assert!(first.contains(&20));

    h.state_mut().mark_edited(TileCoord::new(20, 40).unwrap());
    let far = TileCoord::new(29, 40).unwrap();
    h.state_mut().go_to_tile(far);
    // The loader thread reads in the background; give it time.
    step_until(&mut h, "tile 29_40 loaded", |h| loaded(h).contains(&29));
    let now = loaded(&h);
    assert!(now.contains(&29), "{now:?}");
    assert!(
        !now.contains(&22),
        "a far, unedited tile was dropped: {now:?}"
    );
    assert!(now.contains(&20), "an edited tile stays: {now:?}");
}

#[test]
fn scripted_operations_read_the_tiles_they_reach_and_change_what_the_whole_map_would() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = long_map(dir.path());
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, Some(wdt.clone()));
    h.run();
    let far = TileCoord::new(29, 40).unwrap();
    let next = TileCoord::new(28, 40).unwrap();
    let loaded = &h.state().session().unwrap().map.tiles;
    assert!(
        !loaded.contains_key(&far) && !loaded.contains_key(&next),
        "the map opens at its other end: {:?}",
        loaded.keys().collect::<Vec<_>>()
    );
    // A stroke from the middle of the far tile over its west border (world y grows west).
    let [north, west] = loam::model::coords::chunk_north_west(far, 0, 0);
    let (x, y) = (north - TILE_SIZE / 2.0, west - TILE_SIZE / 2.0);
    let text = format!(
        r#"{{"ops": [{{"tool": "raise", "points": [[{x}, {y}], [{x}, {}]], "radius": 40, "strength": 4}}]}}"#,
        west + 60.0
    );
    let file = loam::edit::ops::parse(&text).unwrap();
    h.state_mut().apply_ops(&file);
    h.run();

    let mut whole = loam::pipeline::open_map(&wdt).unwrap();
    let untouched = whole.map.tiles[&far].clone();
    let uids = loam::edit::objects::NewUids::default();
    let cx = loam::edit::ops::OpContext {
        model_box: &|_| None,
        uids: &uids,
        style: loam::edit::terrain::liquid::LiquidStyle::of(whole.generation),
        read_image: &|p| Err(format!("no image {p}")),
    };
    loam::edit::ops::run(
        &mut whole.map,
        &file.ops[0],
        &mut loam::edit::History::default(),
        &cx,
    )
    .unwrap();
    let session = h.state().session().unwrap();
    for c in [far, next] {
        // Compared whole (heights, normals, every field), reported briefly: a tile prints
        // megabytes.
        let tile = session.map.tiles.get(&c);
        assert!(
            tile == Some(&whole.map.tiles[&c]),
            "tile {}_{}: {}",
            c.x,
            c.y,
            if tile.is_some() {
                "differs from what the stroke does on the whole map"
            } else {
                "never read"
            }
        );
        assert!(
            session.edited.contains(&c),
            "tile {}_{} is unsaved",
            c.x,
            c.y
        );
    }
    assert_ne!(
        whole.map.tiles[&far], untouched,
        "the stroke changed the far tile"
    );
}

/// A file dropped onto the window, as the windowing layer hands it over.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn a_file_dropped_on_the_window_opens() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    let adt = corpus("wowserhq-format/map/continent4229.adt");
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(adt.clone())));
    h.run();
    assert_eq!(h.state().session().unwrap().source, adt);
}

#[test]
fn the_status_bar_names_what_is_under_the_mouse_and_a_double_click_frames_it() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    let view = h.get_by_label(loam::ui::viewport::VIEWPORT_LABEL).rect();
    // Below the middle, clear of the placeholder text the view shows without GL.
    let centre = view.center() + egui::vec2(0.0, view.height() * 0.2);
    h.hover_at(centre);
    h.run();
    // The sample's middle is where its four tiles meet.
    assert!(editor_support::shows(&h, "tile 3"));
    h.get_by_label_contains("chunk ");
    h.get_by_label_contains("area ");

    let before = *h.state().camera();
    for _ in 0..2 {
        click_at(&h, centre);
        h.step();
    }
    h.run();
    let after = *h.state().camera();
    assert_ne!(
        before.position, after.position,
        "a double click moves the camera"
    );
    // The framed point is now straight ahead, 150 yards away, on the terrain.
    let ahead = after.eye() + after.forward() * 150.0;
    let ground = loam::render::pick::terrain_at(
        &h.state().session().unwrap().map,
        ahead.x as f64,
        ahead.y as f64,
    )
    .expect("the framed point is on the terrain");
    assert!((ground.world[2] - ahead.z as f64).abs() < 1.0);
}

#[test]
fn w_flies_forward_and_a_right_drag_turns() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    let view = h.get_by_label(loam::ui::viewport::VIEWPORT_LABEL).rect();
    let p = view.center() + egui::vec2(0.0, view.height() * 0.2);
    h.hover_at(p);
    h.run();
    let start = *h.state().camera();
    h.key_down(egui::Key::W);
    for _ in 0..10 {
        h.step();
    }
    h.key_up(egui::Key::W);
    h.run();
    let flown = *h.state().camera();
    let moved = flown.eye() - start.eye();
    assert!(moved.length() > 1.0, "{moved:?}");
    assert!(
        moved.normalize().dot(start.forward()) > 0.99,
        "along the view"
    );

    // Right-drag to the left turns the view to the left (yaw grows toward the west).
    h.event(egui::Event::PointerButton {
        pos: p,
        button: egui::PointerButton::Secondary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    for k in 1..=10 {
        h.hover_at(p - egui::vec2(10.0 * k as f32, 0.0));
        h.step();
    }
    h.event(egui::Event::PointerButton {
        pos: p - egui::vec2(100.0, 0.0),
        button: egui::PointerButton::Secondary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run();
    let turned = *h.state().camera();
    assert_eq!(turned.position, flown.position);
    let d_yaw = (turned.yaw - flown.yaw).rem_euclid(std::f32::consts::TAU);
    assert!(d_yaw > 0.1 && d_yaw < 1.0, "{d_yaw}");
}

/// View ▸ Fog off: nothing fades before the horizon's far end (50,000 yards); on again: the
/// light's own fog. View ▸ Horizon is kept with the settings like the other toggles.
#[test]
fn view_fog_and_horizon_toggle_and_are_kept() {
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, None);
    h.run();
    let with_fog = h.state_mut().scene_light().fog_range;
    assert!(
        with_fog[1] < 10_000.0,
        "the default light fogs: {with_fog:?}"
    );
    for (label, on) in [("Fog", false), ("Horizon", false), ("Fog", true)] {
        editor_support::click_each(&mut h, &["View", label]);
        h.run();
        let view = h.state().settings().view;
        let shown = if label == "Fog" {
            view.fog
        } else {
            view.horizon
        };
        assert_eq!(shown, on, "View ▸ {label}");
        h.key_press(egui::Key::Escape);
        h.run();
    }
    assert!(!h.state().settings().view.horizon);
    assert_eq!(h.state_mut().scene_light().fog_range, with_fog);
    editor_support::click_each(&mut h, &["View", "Fog"]);
    h.run();
    let fog = h.state_mut().scene_light().fog_range;
    assert!(
        fog[0] >= loam::render::horizon::HORIZON_FAR,
        "no fog: {fog:?}"
    );
}
