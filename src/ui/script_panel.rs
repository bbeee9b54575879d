//! The Script tool's own settings: the chosen Lua brush's parameters as its script declares
//! them (a slider for a number with both bounds, a number field otherwise, a text field, a
//! checkbox), the folders scripts are read from, and what went wrong loading a script.
//!
//! Not for: running the brush (`app::toolbox::script_tool`, `doc::script`) or which brush is
//! chosen (the tool bar's modes).

use egui::{DragValue, Slider};

use crate::command::{Intent, ScriptsIntent};
use crate::doc::script::{ParamDecl, ParamKind, ParamValue};
use crate::edit::tools::ScriptChoice;

/// A Lua brush the tool bar offers, or a script that did not load.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptItem {
    /// The script file.
    pub file: std::path::PathBuf,
    /// The brush's name, or why the file did not load ("file:line: …").
    pub brush: Result<String, String>,
}

/// What the panel shows besides the settings.
#[derive(Debug, Clone, Default)]
pub struct ScriptsView {
    /// Every brush of every script found, and the scripts that did not load.
    pub items: Vec<ScriptItem>,
    /// The chosen brush's parameters.
    pub params: Vec<ParamDecl>,
    /// The folders scripts are read from.
    pub folders: Vec<std::path::PathBuf>,
}

/// The value `choice` holds for `decl`, else its default.
fn value_of(choice: &ScriptChoice, decl: &ParamDecl) -> ParamValue {
    choice
        .params
        .get(&decl.key)
        .and_then(|t| decl.parse(t).ok())
        .unwrap_or_else(|| decl.default_value())
}

/// Shows the chosen brush's parameters, editing `choice` in place; returns the panel's other
/// intents (reload, add a folder).
pub fn show(ui: &mut egui::Ui, choice: &mut ScriptChoice, view: &ScriptsView) -> Vec<Intent> {
    let mut out = Vec::new();
    for decl in &view.params {
        let key = decl.key.clone();
        let text = match (&decl.kind, value_of(choice, decl)) {
            (ParamKind::Number { min, max, .. }, ParamValue::Number(mut v)) => {
                let changed = match (min, max) {
                    (Some(lo), Some(hi)) => {
                        ui.add(Slider::new(&mut v, *lo..=*hi).text(&key)).changed()
                    }
                    _ => {
                        let mut field = DragValue::new(&mut v).speed(0.1);
                        if let Some(lo) = min {
                            field = field.range(*lo..=f64::MAX);
                        }
                        if let Some(hi) = max {
                            field = field.range(f64::MIN..=*hi);
                        }
                        ui.horizontal(|ui| super::labelled(ui, key.as_str(), field).changed())
                            .inner
                    }
                };
                changed.then(|| v.to_string())
            }
            (ParamKind::Bool { .. }, ParamValue::Bool(mut on)) => ui
                .checkbox(&mut on, key.as_str())
                .changed()
                .then(|| on.to_string()),
            (_, ParamValue::Text(mut t)) => ui
                .horizontal(|ui| {
                    super::labelled(ui, key.as_str(), egui::TextEdit::singleline(&mut t)).changed()
                })
                .inner
                .then_some(t),
            _ => None,
        };
        if let Some(text) = text {
            choice.params.insert(key, text);
        }
    }
    for item in &view.items {
        if let Err(why) = &item.brush {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
    }
    ui.separator();
    ui.label("Scripts are read from:");
    for f in &view.folders {
        ui.weak(f.display().to_string());
    }
    ui.horizontal(|ui| {
        if ui
            .button("Reload")
            .on_hover_text("Read the scripts again (after editing them)")
            .clicked()
        {
            out.push(Intent::Scripts(ScriptsIntent::Reload));
        }
        if ui
            .button("Add folder…")
            .on_hover_text("Read scripts from another folder too")
            .clicked()
        {
            out.push(Intent::Scripts(ScriptsIntent::AddFolder));
        }
    });
    out
}
