//! The tool bar (issue 54): one icon a kind of work, the chosen kind's modes under it, a kind
//! coming back to its last mode, the keys of modes and kinds, and the Keys window listing both.
//! Driven through egui_kittest with the real app.

mod common;
mod editor_support;

use egui::{Key, KeyboardShortcut, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use loam::app::LoamApp;
use loam::app::settings::Settings;
use loam::command::keymap::Action;
use loam::doc::editing::Tool;
use loam::edit::tools::ToolKind;
use loam::ui::dialogs::keys::{KEYS_FILTER_LABEL, key_button_label};
use loam::ui::tool_bar::kind_label;

fn tool(h: &Harness<'_, LoamApp>) -> Tool {
    h.state().editing().settings.tool
}

fn click(h: &mut Harness<'_, LoamApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

#[test]
fn sculpt_then_flatten_through_the_bar_and_through_flattens_key() {
    let mut h = editor_support::editor(None);
    // Every kind has its icon, and the bar stays within 16 buttons.
    for kind in ToolKind::ALL {
        assert!(h.query_by_label(&kind_label(kind)).is_some(), "{kind:?}");
    }
    assert!(ToolKind::ALL.len() <= 16);
    // Elsewhere first: the Water kind shows its own modes, none of Sculpt's.
    click(&mut h, &kind_label(ToolKind::Water));
    assert_eq!(tool(&h), Tool::LiquidAdd, "a kind starts on its first mode");
    assert!(h.query_by_label("Liquid height").is_some());
    assert!(
        h.query_by_label("Flatten").is_none(),
        "Sculpt's modes are not shown"
    );
    // Through the bar: Sculpt, then its Flatten mode.
    click(&mut h, &kind_label(ToolKind::Sculpt));
    for mode in ["Raise", "Lower", "Flatten", "Smooth", "Noise", "Ramp"] {
        assert!(h.query_by_label(mode).is_some(), "{mode}");
    }
    click(&mut h, "Flatten");
    assert_eq!(tool(&h), Tool::Flatten);
    // Through its key (3, the default), from another kind.
    click(&mut h, &kind_label(ToolKind::Holes));
    assert_eq!(tool(&h), Tool::HoleAdd);
    h.key_press(Key::Num3);
    h.run();
    assert_eq!(tool(&h), Tool::Flatten);
    assert!(
        h.query_by_label("Ramp").is_some(),
        "the bar follows the key to the Sculpt kind"
    );
}

#[test]
fn each_kind_remembers_its_last_mode_across_a_restart() {
    let mut h = editor_support::editor(None);
    click(&mut h, &kind_label(ToolKind::Water));
    click(&mut h, "Liquid height");
    click(&mut h, &kind_label(ToolKind::Sculpt));
    assert_eq!(tool(&h), Tool::Raise);
    click(&mut h, "Smooth");
    click(&mut h, &kind_label(ToolKind::Texture));
    assert_eq!(tool(&h), Tool::Paint);
    click(&mut h, &kind_label(ToolKind::Water));
    assert_eq!(
        tool(&h),
        Tool::LiquidHeight,
        "Water comes back to Liquid height"
    );
    click(&mut h, &kind_label(ToolKind::Sculpt));
    assert_eq!(tool(&h), Tool::Smooth, "Sculpt comes back to Smooth");
    // A mode chosen by its key is remembered as well.
    h.key_press(Key::Num9);
    h.run();
    assert_eq!(tool(&h), Tool::LiquidAdd);
    click(&mut h, &kind_label(ToolKind::Sculpt));
    click(&mut h, &kind_label(ToolKind::Water));
    assert_eq!(tool(&h), Tool::LiquidAdd);
}

#[test]
fn a_kind_takes_a_key_of_the_users_and_the_keys_window_lists_kinds_and_modes() {
    let mut settings = Settings::default();
    let f7 = KeyboardShortcut::new(Modifiers::NONE, Key::F7);
    settings
        .input
        .keys
        .set(Action::Kind(ToolKind::Water), vec![f7]);
    let mut h = editor_support::editor(Some(settings));
    click(&mut h, &kind_label(ToolKind::Water));
    click(&mut h, "River");
    click(&mut h, &kind_label(ToolKind::Sculpt));
    h.key_press(Key::F7);
    h.run();
    assert_eq!(tool(&h), Tool::River, "F7 chooses Water, on its last mode");

    editor_support::click_each(&mut h, &["Settings", "Keys…"]);
    editor_support::type_into(&mut h, KEYS_FILTER_LABEL, "sculpt");
    h.run();
    assert!(
        h.query_by_label(&key_button_label(Action::Kind(ToolKind::Sculpt)))
            .is_some(),
        "the kind has a row"
    );
    for t in ToolKind::Sculpt.tools() {
        assert!(
            h.query_by_label(&key_button_label(Action::Tool(t)))
                .is_some(),
            "{t:?} is listed under its kind"
        );
    }
    assert_eq!(
        Action::Tool(Tool::Flatten).name(),
        "Tool: Flatten (Sculpt)",
        "a mode is named under its kind"
    );
}

/// Presets (issue 54, item 2): save the current tool's settings under a name, change them, pick
/// the preset back, restart; rename, delete, export and import.
#[test]
fn a_preset_saved_brings_its_settings_back_and_survives_a_restart() {
    use loam::ui::presets_panel::{PRESET_NAME_LABEL, PRESETS_HEADER};
    let dialogs = loam::app::file_picker::ScriptedDialogs::default();
    let mut h = editor_support::scripted(&dialogs, None, None);
    h.run();
    click(&mut h, PRESETS_HEADER);
    assert!(
        h.query_by_label("Soft large raise").is_some(),
        "the shipped presets are listed"
    );
    // A brush of the user's own: Smooth, radius 57.
    editor_support::choose_tool(&mut h, Tool::Smooth);
    let mut s = h.state().editing().settings.clone();
    s.brush.radius = 57.0;
    s.brush.strength = 0.4;
    h.state_mut().handle(
        &egui::Context::default(),
        loam::command::Intent::SetTools(Box::new(s)),
    );
    h.run();
    editor_support::type_into(&mut h, PRESET_NAME_LABEL, "My smooth");
    click(&mut h, "Save");
    assert!(h.query_by_label("My smooth").is_some());
    // Other settings, then the preset back.
    click(&mut h, "Sharp small lower");
    let lower = &h.state().editing().settings;
    assert_eq!(lower.tool, Tool::Lower);
    assert_eq!(lower.brush.radius, 8.0);
    click(&mut h, "My smooth");
    let back = &h.state().editing().settings;
    assert_eq!(back.tool, Tool::Smooth);
    assert_eq!(back.brush.radius, 57.0);
    assert_eq!(back.brush.strength, 0.4);
    // A restart: what this run gives eframe's storage, the next run reads.
    let mut storage = editor_support::MemoryStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    let restored = Settings::restored(Some(&storage), false);
    let kept = restored.presets.iter().find(|p| p.name == "My smooth");
    assert_eq!(kept.map(|p| p.settings.brush.radius), Some(57.0));
    let mut h = editor_support::editor(Some(restored));
    click(&mut h, PRESETS_HEADER);
    click(&mut h, "My smooth");
    assert_eq!(h.state().editing().settings.brush.radius, 57.0);
    // Rename it, export the list, delete it, import it back.
    editor_support::type_into(&mut h, PRESET_NAME_LABEL, "Wide smooth");
    click(&mut h, "Rename");
    assert!(h.query_by_label("Wide smooth").is_some());
    assert!(h.query_by_label("My smooth").is_none());
}

#[test]
fn presets_go_to_a_file_and_come_back_from_it() {
    use loam::ui::presets_panel::PRESETS_HEADER;
    let dir = tempfile::tempdir().unwrap();
    let dialogs = loam::app::file_picker::ScriptedDialogs::default();
    let mut h = editor_support::scripted(&dialogs, None, None);
    h.run();
    click(&mut h, PRESETS_HEADER);
    let count = h.state().settings().presets.len();
    dialogs.answer_folder(Some(dir.path().to_path_buf()));
    click(&mut h, "Export…");
    let file = dir.path().join(loam::app::toolbox::presets::PRESETS_FILE);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"presets\"") && text.contains("Gentle smooth"));
    // Delete one, then import the file: everything is back, the clash renamed.
    click(&mut h, "Gentle smooth");
    click(&mut h, "Delete");
    assert!(h.query_by_label("Gentle smooth").is_none());
    dialogs.answer_map(Some(file.clone()));
    click(&mut h, "Import…");
    let names: Vec<String> = h
        .state()
        .settings()
        .presets
        .iter()
        .map(|p| p.name.clone())
        .collect();
    assert_eq!(names.len(), 2 * count - 1, "{names:?}");
    assert!(names.contains(&"Gentle smooth".to_string()), "{names:?}");
    assert!(
        names.contains(&"Soft large raise (2)".to_string()),
        "{names:?}"
    );
    // A file of another shape is refused, saying the right one.
    std::fs::write(&file, "[1, 2]").unwrap();
    dialogs.answer_map(Some(file.clone()));
    click(&mut h, "Import…");
    assert_eq!(h.state().settings().presets.len(), names.len());
    assert!(
        editor_support::shows(&h, "a preset file is"),
        "the status line says what a preset file is"
    );
}

/// The quick texture palette (issue 54, item 4): the tile's textures one click each beside
/// Paint, and the textures last painted with.
#[test]
fn the_quick_palette_chooses_a_texture_in_one_click_and_remembers_the_last_used() {
    use loam::ui::tool_panel::quick_texture_label;
    let (mut h, view) = editor_support::with_tool(Tool::Paint);
    let textures = editor_support::map(&h)
        .tiles
        .values()
        .next()
        .unwrap()
        .textures
        .clone();
    let rock = textures.last().unwrap().clone();
    click(&mut h, &quick_texture_label(&rock));
    assert_eq!(h.state().editing().settings.texture, rock);
    assert!(h.state().editing().settings.recent_textures.is_empty());
    editor_support::one_stroke(&mut h, view.center() + egui::vec2(-30.0, 40.0));
    assert_eq!(
        h.state().editing().settings.recent_textures,
        vec![rock.clone()]
    );
    // Another texture painted with: the newest first, each once.
    let other = textures[1].clone();
    // The tile's row first (the Recent row may hold the same texture).
    h.get_all_by_label(&quick_texture_label(&other))
        .next()
        .unwrap()
        .click();
    h.run();
    editor_support::one_stroke(&mut h, view.center() + egui::vec2(-30.0, 60.0));
    assert_eq!(h.state().editing().settings.texture, other);
    h.get_all_by_label(&quick_texture_label(&rock))
        .next()
        .unwrap()
        .click();
    h.run();
    editor_support::one_stroke(&mut h, view.center() + egui::vec2(-30.0, 80.0));
    assert_eq!(
        h.state().editing().settings.recent_textures,
        vec![rock.clone(), other.clone()]
    );
    // The Recent row offers them: both labels now stand twice (Tile and Recent).
    assert_eq!(h.get_all_by_label(&quick_texture_label(&rock)).count(), 2);
}
