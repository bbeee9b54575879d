//! The tool bar (issue 54): one icon a kind of work, the chosen kind's modes under it, a kind
//! coming back to its last mode, the keys of modes and kinds, and the Keys window listing both.
//! Driven through egui_kittest with the real app.

mod common;
mod editor_support;

use egui::{Key, KeyboardShortcut, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use loam::app::settings::Settings;
use loam::app::{LoamApp, StartOptions};
use loam::command::keymap::Action;
use loam::doc::editing::Tool;
use loam::edit::tools::ToolKind;
use loam::ui::dialogs::keys::{KEYS_FILTER_LABEL, key_button_label};
use loam::ui::tool_bar::kind_label;

/// The editor on the bundled sample, with `settings` as a previous run left them.
fn editor(settings: Option<Settings>) -> Harness<'static, LoamApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(256)
        .build_eframe(move |cc| {
            let app = LoamApp::new(
                cc,
                StartOptions {
                    open: None,
                    dialogs: Box::new(loam::app::file_picker::ScriptedDialogs::default()),
                    screenshot: None,
                    read_as: None,
                    client: None,
                },
            );
            match settings {
                Some(s) => app.with_settings(s),
                None => app,
            }
        });
    h.run();
    h
}

fn tool(h: &Harness<'_, LoamApp>) -> Tool {
    h.state().editing().settings.tool
}

fn click(h: &mut Harness<'_, LoamApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

#[test]
fn sculpt_then_flatten_through_the_bar_and_through_flattens_key() {
    let mut h = editor(None);
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
    let mut h = editor(None);
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
    let mut h = editor(Some(settings));
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
