//! The editor as the kittest files drive it: one harness builder, so that every editor test
//! opens the real app the same way (1280×800, enough frames for the workers to answer).
#![allow(dead_code)]

use std::path::PathBuf;

use egui::{Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use loam::app::file_picker::ScriptedDialogs;
use loam::app::recovery::Recovery;
use loam::app::{LoamApp, StartOptions};

/// How the app is started.
#[derive(Default)]
pub struct Opening {
    /// The map to open (the bundled sample when `None`).
    pub open: Option<PathBuf>,
    /// The game client folder (`--client`).
    pub client: Option<PathBuf>,
    /// Answers for the file dialogs.
    pub dialogs: ScriptedDialogs,
    /// Frames 1/60 s apart, as a window has them (two clicks in a row make a double click);
    /// otherwise kittest's default of a quarter second.
    pub window_frames: bool,
    /// Autosave and recovery in this folder (off when `None`).
    pub recovery: Option<PathBuf>,
    /// The settings a previous run left (the defaults when `None`).
    pub settings: Option<loam::app::settings::Settings>,
}

/// The app under kittest, started as `opening` says.
pub fn harness(opening: Opening) -> Harness<'static, LoamApp> {
    let Opening {
        open,
        client,
        dialogs,
        window_frames,
        recovery,
        settings,
    } = opening;
    let mut builder = Harness::builder().with_size(egui::vec2(1280.0, 800.0));
    if window_frames {
        builder = builder.with_step_dt(1.0 / 60.0);
    }
    builder
        // Workers (the asset browser's catalogue, the object scene's model readers) ask for a
        // repaint with each answer: a map with many models takes more frames to settle.
        .with_max_steps(256)
        .build_eframe(move |cc| {
            let app = LoamApp::new(
                cc,
                StartOptions {
                    open,
                    dialogs: Box::new(dialogs),
                    screenshot: None,
                    read_as: None,
                    client,
                },
            );
            let app = match settings {
                Some(s) => app.with_settings(s),
                None => app,
            };
            match recovery {
                Some(root) => app.with_recovery(Recovery::at(root)),
                None => app,
            }
        })
}

/// The editor on the bundled sample in window frames, as a previous run left `settings` (the
/// defaults when `None`), after its first frames.
pub fn editor(settings: Option<loam::app::settings::Settings>) -> Harness<'static, LoamApp> {
    let mut h = harness(Opening {
        window_frames: true,
        settings,
        ..Default::default()
    });
    h.run();
    h
}

/// The app in window frames (`Opening::window_frames`), its file dialogs answered from
/// `dialogs`, opening `open` with `client` as its game client folder.
pub fn scripted(
    dialogs: &ScriptedDialogs,
    open: Option<PathBuf>,
    client: Option<PathBuf>,
) -> Harness<'static, LoamApp> {
    harness(Opening {
        open,
        client,
        dialogs: dialogs.clone(),
        window_frames: true,
        ..Default::default()
    })
}

/// Clicks the widget with each label in turn (`["File", "Save as…"]`: an item of a menu), a
/// frame (`Harness::run`) after each.
pub fn click_each(h: &mut Harness<'_, LoamApp>, labels: &[&str]) {
    for label in labels {
        h.get_by_label(label).click();
        h.run();
    }
}

/// Clicks the tool panel's widget with this label after scrolling it into view, as a user
/// would (the panel scrolls where a tool's settings outgrow the window).
pub fn click_in_panel(h: &mut Harness<'_, LoamApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
}

/// A primary-button press (`pressed`) or release at `pos`, with `modifiers` held.
pub fn primary(h: &Harness<'_, LoamApp>, pos: Pos2, pressed: bool, modifiers: Modifiers) {
    h.event(egui::Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers,
    });
}

/// Moves the pointer from `from` to `to` in four steps, two frames each.
pub fn glide(h: &mut Harness<'_, LoamApp>, from: Pos2, to: Pos2) {
    for k in 1..=4 {
        h.hover_at(from + (to - from) * (k as f32 / 4.0));
        h.run_steps(2);
    }
}

/// Hovers at `from`, presses, glides to `to` and releases there: two frames after each event,
/// three after the release.
pub fn drag(h: &mut Harness<'_, LoamApp>, from: Pos2, to: Pos2, modifiers: Modifiers) {
    h.hover_at(from);
    h.run_steps(2);
    primary(h, from, true, modifiers);
    h.run_steps(2);
    glide(h, from, to);
    primary(h, to, false, modifiers);
    h.run_steps(3);
}

/// Hovers `at` until the app finds terrain under it (the tiles load over the first frames),
/// for at most 30 s; the point found.
pub fn ground_under(h: &mut Harness<'_, LoamApp>, at: Pos2) -> loam::render::pick::TerrainPoint {
    let start = std::time::Instant::now();
    loop {
        h.hover_at(at);
        h.run_steps(2);
        if let Some(p) = h.state().hover_point() {
            return p;
        }
        assert!(start.elapsed().as_secs() < 30, "no terrain under {at:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// What the app picks under a screen position in the view: the terrain point, if any.
pub fn pick_under(
    h: &Harness<'_, LoamApp>,
    view: egui::Rect,
    pos: Pos2,
) -> Option<loam::render::pick::TerrainPoint> {
    let ndc = [
        (pos.x - view.left()) / view.width() * 2.0 - 1.0,
        1.0 - (pos.y - view.top()) / view.height() * 2.0,
    ];
    let app = h.state();
    let aspect = view.width() / view.height();
    loam::app::scene::camera_control::pick(&app.session().unwrap().map, app.camera(), ndc, aspect)
}

/// Where the tile map draws `tile` (the open map's region of the grid, as the widget does).
pub fn tile_map_point(h: &Harness<'_, LoamApp>, tile: loam::model::TileCoord) -> Pos2 {
    use loam::ui::tile_map::{Region, TILE_MAP_LABEL};
    let rect = h.get_by_label(TILE_MAP_LABEL).rect();
    let present = h
        .state()
        .session()
        .expect("a map is open")
        .map
        .present_tiles()
        .into_iter()
        .collect();
    Region::around(&present).tile_centre(rect, tile)
}

/// A copy of the open map as the app holds it now.
pub fn map(h: &Harness<'_, LoamApp>) -> loam::model::Map {
    h.state().session().expect("a map is open").map.clone()
}

/// The app on the sample, drawn in its window, with brush `tool` chosen: the harness and the
/// viewport's rectangle.
pub fn with_tool(tool: loam::doc::editing::Tool) -> (Harness<'static, LoamApp>, egui::Rect) {
    let mut h = harness(Opening {
        window_frames: true,
        ..Default::default()
    });
    h.run();
    let view = h.get_by_label(loam::ui::viewport::VIEWPORT_LABEL).rect();
    choose_tool(&mut h, tool);
    (h, view)
}

/// Chooses `tool` as a user does: its kind's icon in the tool bar, then its mode's button.
pub fn choose_tool(h: &mut Harness<'_, LoamApp>, tool: loam::doc::editing::Tool) {
    h.get_by_label(&loam::ui::tool_bar::kind_label(tool.kind()))
        .click();
    h.run();
    h.get_by_label(tool.name()).click();
    h.run();
}

/// Types `text` into the field labelled `label`: a click to focus it, a frame, then the keys.
pub fn type_into(h: &mut Harness<'_, LoamApp>, label: &str, text: &str) {
    h.get_by_label(label).click();
    h.run();
    h.get_by_label(label).type_text(text);
}

/// A drag of the chosen brush from `at` 30 points east, on the ground (hovered first, so that
/// the tiles under it are loaded): the map before and after it. Asserts that it made exactly
/// one undo step.
pub fn one_stroke(h: &mut Harness<'_, LoamApp>, at: Pos2) -> (loam::model::Map, loam::model::Map) {
    ground_under(h, at);
    let before = map(h);
    let steps = h.state().editing().history.len();
    drag(h, at, at + egui::vec2(30.0, 0.0), Modifiers::NONE);
    assert_eq!(
        h.state().editing().history.len(),
        steps + 1,
        "one undo step"
    );
    (before, map(h))
}

/// True when some widget's label contains `text` (a message, a dialog's line).
pub fn shows(h: &Harness<'_, LoamApp>, text: &str) -> bool {
    h.query_by_label_contains(text).is_some()
}

/// eframe storage in memory: what one run saves, the next reads.
#[derive(Default)]
pub struct MemoryStorage(pub std::collections::HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}
