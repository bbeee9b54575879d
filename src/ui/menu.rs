//! The menu bar: File (open, recent, sample, save, save as, quit), Edit (undo, redo, stitch
//! seams), View (overlays, speed) and Settings.

use std::path::PathBuf;

use super::labelled;
use crate::command::keymap::Keymap;
use crate::command::{Command, Intent, ViewToggles, shortcuts};
use crate::format::Generation;
use crate::render::scene::ObjectFilter;

/// What the menu shows.
#[derive(Debug, Clone, Default)]
pub struct MenuState {
    /// Recent files, newest first.
    pub recent: Vec<PathBuf>,
    /// A map is open.
    pub has_map: bool,
    /// Unsaved tiles exist.
    pub unsaved: bool,
    /// The sun shadow bakes use.
    pub shadow_sun: crate::edit::derived::shadows::Sun,
    /// Bakes add the models' shadows.
    pub shadow_models: bool,
    /// Grids, tints and liquids shown.
    pub view: ViewToggles,
    /// Which objects are drawn.
    pub objects: ObjectFilter,
    /// The open map's uniqueId range (first, last), when it has one; `None` inside when a map
    /// is open without one, `None` outside when no map is open.
    pub uid_range: Option<Option<(u32, u32)>>,
    /// Fly speed.
    pub camera_speed: f32,
    /// The view's time of day.
    pub time_of_day: crate::doc::light::TimeOfDay,
    /// The autosave interval in seconds.
    pub autosave_secs: u32,
    /// The client folder, described ("3.3.5 client, 14 archive(s): …"), when set.
    pub client: Option<String>,
    /// The client folder holds archives (maps can be opened from it).
    pub client_has_archives: bool,
    /// The user's listfile, when set.
    pub listfile: Option<PathBuf>,
    /// An edit can be undone.
    pub can_undo: bool,
    /// An edit can be redone.
    pub can_redo: bool,
    /// The generation the open map is read as, and how that was decided.
    pub generation: Option<(Generation, String)>,
    /// The user's "Read as" choice for the open map (`None`: as its bytes decide).
    pub read_as: Option<Generation>,
    /// A pen's pressure scales the brush strength.
    pub pen_pressure: bool,
}

/// File ▸ Read as: reopens the map as another generation, for files whose bytes cannot tell
/// (a 0.6.0 map without liquid reads as 1.12 otherwise).
fn read_as_menu(ui: &mut egui::Ui, state: &MenuState, out: &mut Vec<Intent>) {
    let enabled = state.has_map && !state.unsaved;
    ui.add_enabled_ui(enabled, |ui| {
        ui.menu_button("Read as", |ui| {
            if let Some((g, why)) = &state.generation {
                ui.label(format!("Read as {g}: {why}"));
                ui.separator();
            }
            if ui
                .radio(state.read_as.is_none(), "Decide from the files")
                .clicked()
            {
                out.push(Intent::ReadAs(None));
            }
            for g in Generation::ALL {
                if ui.radio(state.read_as == Some(g), g.label()).clicked() {
                    out.push(Intent::ReadAs(Some(g)));
                }
            }
        });
    })
    .response
    .on_disabled_hover_text("Save or undo your changes first: reading again discards them");
}

/// View ▸ Time of day: the clock the sky and light are drawn at, whether it runs and how
/// fast, and "Always noon".
fn time_of_day(ui: &mut egui::Ui, mut t: crate::doc::light::TimeOfDay, out: &mut Vec<Intent>) {
    let label = |m: f64| format!("{:02}:{:02}", (m / 60.0) as u32 % 24, m as u32 % 60);
    let mut changed = ui
        .add_enabled(
            !t.always_noon,
            egui::Slider::new(&mut t.minutes, 0.0..=1439.0)
                .custom_formatter(|m, _| label(m))
                .text("Time"),
        )
        .changed();
    ui.horizontal(|ui| {
        let play = if t.playing { "⏸ Pause" } else { "▶ Play" };
        if ui.button(play).clicked() {
            t.playing = !t.playing;
            changed = true;
        }
        changed |= ui
            .add(
                egui::Slider::new(&mut t.speed, 1.0..=720.0)
                    .logarithmic(true)
                    .text("game min/s"),
            )
            .changed();
    });
    changed |= ui
        .checkbox(&mut t.always_noon, "Always noon")
        .on_hover_text("Draw the noon light whatever the clock says")
        .changed();
    if changed {
        out.push(Intent::SetTimeOfDay(t));
    }
}

/// Draws the menu bar and returns what was chosen.
pub fn show(ui: &mut egui::Ui, state: &MenuState) -> Vec<Intent> {
    let mut out = Vec::new();
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            command(ui, Command::OpenMap, true, &mut out);
            command(ui, Command::OpenFromClient, state.client_has_archives, &mut out)
                .on_disabled_hover_text("Choose a game client in Settings first");
            ui.menu_button("Open recent", |ui| {
                if state.recent.is_empty() {
                    ui.label("(none yet)");
                }
                for path in &state.recent {
                    if ui.button(path.display().to_string()).clicked() {
                        out.push(Intent::Open(path.clone()));
                    }
                }
            });
            command(ui, Command::OpenFolder, true, &mut out);
            command(ui, Command::OpenSample, true, &mut out);
            command(ui, Command::NewMap, true, &mut out);
            read_as_menu(ui, state, &mut out);
            ui.separator();
            command(ui, Command::Save, state.has_map && state.unsaved, &mut out);
            command(ui, Command::SaveAs, state.has_map, &mut out);
            command(ui, Command::ExportForClient, state.has_map, &mut out);
            ui.separator();
            command(ui, Command::ImportImage, state.has_map, &mut out);
            command(ui, Command::ExportImages, state.has_map, &mut out);
            ui.separator();
            command(ui, Command::Quit, true, &mut out);
        });
        ui.menu_button("Edit", |ui| {
            command(ui, Command::Undo, state.can_undo, &mut out);
            command(ui, Command::Redo, state.can_redo, &mut out);
            ui.separator();
            command(ui, Command::StitchSeams, state.has_map, &mut out);
            command(ui, Command::Textures, state.has_map, &mut out);
            command(ui, Command::BakeShadows, state.has_map, &mut out);
            let mut sun = state.shadow_sun;
            super::tool_panel::sun_row(ui, &mut sun);
            if sun != state.shadow_sun {
                out.push(Intent::SetShadowSun(sun));
            }
            let mut models = state.shadow_models;
            if ui
                .checkbox(&mut models, "Include the models' shadows")
                .on_hover_text("Doodads and WMOs cast shadows too (their files from the map's folder and the client)")
                .changed()
            {
                out.push(Intent::ShadowModels(models));
            }
        });
        ui.menu_button("View", |ui| {
            toggle(ui, &mut out, state.view.chunk_grid, "Chunk grid", Intent::ShowChunkGrid);
            toggle(ui, &mut out, state.view.tile_grid, "Tile grid", Intent::ShowTileGrid);
            toggle(ui, &mut out, state.view.layer_count, "Layer count", Intent::ShowLayerCount);
            toggle(ui, &mut out, state.view.area_overlay, "Areas", Intent::ShowAreas);
            toggle(
                ui,
                &mut out,
                state.view.effects_overlay,
                "Ground effects",
                Intent::ShowGroundEffects,
            );
            toggle(ui, &mut out, state.view.liquids, "Liquids", Intent::ShowLiquids);
            toggle(ui, &mut out, state.view.lights, "Lights", Intent::ShowLights);
            toggle(
                ui,
                &mut out,
                state.view.area_triggers,
                "Area triggers",
                Intent::ShowAreaTriggers,
            );
            toggle(ui, &mut out, state.view.fog, "Fog", Intent::ShowFog);
            toggle(ui, &mut out, state.view.horizon, "Horizon", Intent::ShowHorizon);
            ui.separator();
            let mut f = state.objects;
            let mut changed = ui.checkbox(&mut f.doodads, "Doodads").changed();
            changed |= ui.checkbox(&mut f.wmos, "WMOs").changed();
            changed |= ui
                .checkbox(&mut f.placeholders, "Placeholders for missing models")
                .changed();
            ui.add_enabled_ui(f.placeholders, |ui| {
                changed |= ui
                    .checkbox(&mut f.placeholder_fill, "Fill placeholders")
                    .on_hover_text(
                        "Fill the placeholder boxes (see-through) as well as outline them",
                    )
                    .changed();
            });
            changed |= ui
                .checkbox(&mut f.bounding_boxes, "Bounding boxes")
                .changed();
            changed |= ui
                .checkbox(&mut f.animate, "Animate models")
                .on_hover_text(
                    "Models play their stand animation and liquids move; off freezes both",
                )
                .changed();
            changed |= ui
                .add(
                    egui::Slider::new(&mut f.doodad_distance, 50.0..=3000.0)
                        .logarithmic(true)
                        .suffix(" yd")
                        .text("Doodad distance"),
                )
                .changed();
            if changed {
                out.push(Intent::SetObjectFilter(f));
            }
            ui.separator();
            command(ui, Command::GoTo, state.has_map, &mut out);
            command(ui, Command::CopyGoXyz, state.has_map, &mut out);
            command(ui, Command::CommandPalette, true, &mut out);
            ui.separator();
            let mut speed = state.camera_speed;
            if ui
                .add(
                    egui::Slider::new(&mut speed, 10.0..=2000.0)
                        .logarithmic(true)
                        .text("Camera speed"),
                )
                .changed()
            {
                out.push(Intent::CameraSpeed(speed));
            }
            ui.menu_button("Time of day", |ui| time_of_day(ui, state.time_of_day, &mut out));
        });
        ui.menu_button("Settings", |ui| {
            command(ui, Command::KeySettings, true, &mut out);
            let mut pen = state.pen_pressure;
            if ui
                .checkbox(&mut pen, "Pen pressure scales the brush strength")
                .on_hover_text("Where the platform reports a pen's pressure")
                .changed()
            {
                out.push(Intent::PenPressure(pen));
            }
            ui.separator();
            if let Some(range) = state.uid_range {
                uid_range(ui, range, &mut out);
                ui.separator();
            }
            let mut minutes = state.autosave_secs as f32 / 60.0;
            let (lo, hi) = (
                *crate::command::AUTOSAVE_RANGE.start() as f32 / 60.0,
                *crate::command::AUTOSAVE_RANGE.end() as f32 / 60.0,
            );
            if ui
                .add(
                    egui::Slider::new(&mut minutes, lo..=hi)
                        .logarithmic(true)
                        .suffix(" min")
                        .text("Autosave every"),
                )
                .on_hover_text(
                    "Unsaved edits are written to a recovery folder in loam's data \
                     directory (never over the map); after a crash the next start offers them.",
                )
                .changed()
            {
                out.push(Intent::AutosaveSecs((minutes * 60.0).round() as u32));
            }
            let client = match &state.client {
                Some(c) => format!("Client data: {c}"),
                None => "Client data: not set (procedural textures)".into(),
            };
            let listfile = match &state.listfile {
                Some(f) => format!("Listfile: {}", f.display()),
                None => "Listfile: none (the archives' own names)".into(),
            };
            // Each: what is set, a button that picks it and one, enabled when it is set, that
            // forgets it.
            for (shown, pick, clear, set) in [
                (
                    client,
                    Command::PickClientData,
                    Command::ClearClientData,
                    state.client.is_some(),
                ),
                (
                    listfile,
                    Command::PickListfile,
                    Command::ClearListfile,
                    state.listfile.is_some(),
                ),
            ] {
                ui.separator();
                ui.label(shown);
                command(ui, pick, true, &mut out);
                command(ui, clear, set, &mut out);
            }
        });
    });
    out
}

/// A command's menu item, labelled from the command table with its tooltip and the user's keys
/// for it (the keymap the app published to egui this frame); pushes the command when clicked.
fn command(
    ui: &mut egui::Ui,
    command: Command,
    enabled: bool,
    out: &mut Vec<Intent>,
) -> egui::Response {
    let intent = Intent::Command(command);
    let mut button = egui::Button::new(command.text());
    // Only a command with keys gets the shortcut column: an empty one still names the button.
    let keymap = Keymap::current(ui.ctx());
    if let Some(keys) = shortcuts::for_intent_in(&keymap, &intent) {
        button = button.shortcut_text(ui.ctx().format_shortcut(&keys));
    }
    let mut response = ui.add_enabled(enabled, button);
    // Its accessible name is the command's alone (egui would append the key), so a screen
    // reader, and a test, find "Save" whatever key the user gave it.
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, command.text()));
    if let Some(tip) = command.tooltip() {
        response = response.on_hover_text(tip);
    }
    if response.clicked() {
        out.push(intent);
    }
    response
}

/// A checkbox showing `shown`; ticking or unticking it pushes the intent `intent` makes of the
/// new value.
fn toggle(
    ui: &mut egui::Ui,
    out: &mut Vec<Intent>,
    mut shown: bool,
    text: &str,
    intent: fn(bool) -> Intent,
) {
    if ui.checkbox(&mut shown, text).changed() {
        out.push(intent(shown));
    }
}

/// Settings ▸ uniqueId range: the range new objects of the open map take, stored beside it, so
/// that several people editing one map never hand out the same uid.
fn uid_range(ui: &mut egui::Ui, range: Option<(u32, u32)>, out: &mut Vec<Intent>) {
    match range {
        Some((a, b)) => ui.label(format!("uniqueId range: {a}-{b}")),
        None => ui.label("uniqueId range: none (above every uid in the map)"),
    };
    let id = egui::Id::unique("loam-uid-range-edit");
    let (mut first, mut last) = ui
        .data(|d| d.get_temp::<(u32, u32)>(id))
        .or(range)
        .unwrap_or((1_000_000, 1_999_999));
    ui.horizontal(|ui| {
        labelled(
            ui,
            "First uid",
            egui::DragValue::new(&mut first).range(1..=u32::MAX),
        );
        labelled(
            ui,
            "Last uid",
            egui::DragValue::new(&mut last).range(1..=u32::MAX),
        );
    });
    ui.data_mut(|d| d.insert_temp(id, (first, last)));
    ui.horizontal(|ui| {
        if ui.button("Use this range").clicked() {
            out.push(Intent::SetUidRange(Some((first, last))));
        }
        if ui
            .add_enabled(range.is_some(), egui::Button::new("No range"))
            .clicked()
        {
            out.push(Intent::SetUidRange(None));
        }
    });
}
