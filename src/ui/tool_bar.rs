//! The tool bar: one icon a kind of work (Sculpt, Texture, Holes, …), and under it the chosen
//! kind's modes (its tools) as a row of buttons. Choosing a kind comes back to its last mode
//! (`ToolSettings::mode_of`). Each button's tooltip names it and its key, the user's own.
//!
//! Not for: the chosen tool's settings (`ui::tool_panel`), or which tools a kind holds
//! (`edit::tools::TOOLS`).

use egui::{ImageSource, Vec2};

use crate::command::keymap::{Action, Keymap};
use crate::command::{Tool, ToolSettings};
use crate::edit::tools::ToolKind;

/// The icons' size on screen, in points (egui_extras' SVG loader rasterises them at it).
const ICON: f32 = 22.0;

/// Each kind's icon (resources/icons, drawn for loam: their README).
fn icon(kind: ToolKind) -> ImageSource<'static> {
    match kind {
        ToolKind::Sculpt => egui::include_image!("../../resources/icons/sculpt.svg"),
        ToolKind::Texture => egui::include_image!("../../resources/icons/texture.svg"),
        ToolKind::Holes => egui::include_image!("../../resources/icons/holes.svg"),
        ToolKind::Shade => egui::include_image!("../../resources/icons/shade.svg"),
        ToolKind::AreaAndFlags => egui::include_image!("../../resources/icons/area_flags.svg"),
        ToolKind::Water => egui::include_image!("../../resources/icons/water.svg"),
        ToolKind::Objects => egui::include_image!("../../resources/icons/objects.svg"),
        ToolKind::SelectVertices => {
            egui::include_image!("../../resources/icons/select_vertices.svg")
        }
        ToolKind::Road => egui::include_image!("../../resources/icons/road.svg"),
        ToolKind::CopyPaste => egui::include_image!("../../resources/icons/copy_paste.svg"),
        ToolKind::Scripts => egui::include_image!("../../resources/icons/scripts.svg"),
        ToolKind::Zone => egui::include_image!("../../resources/icons/zone.svg"),
    }
}

/// What a mode's button says when hovered: what the tool does (for the tools that are not
/// brushes, whose use is not obvious from the name).
fn hint(tool: Tool) -> Option<&'static str> {
    Some(match tool {
        Tool::Objects => "Select doodads and WMOs: click, Shift+click adds, Ctrl+click toggles",
        Tool::CopyPaste => {
            "Select a rectangle of ground, copy it, paste it elsewhere or in another map"
        }
        Tool::Scatter => "Paint a palette of models onto the ground, or erase objects",
        Tool::SelectVertices => {
            "Select terrain vertices by box, lasso or brush, then raise, set, plane or smooth them"
        }
        Tool::Road => "Click a road's control points, then lay it: bed, shoulders and texture",
        Tool::Erode => "Weather the ground: material slides off steep slopes, or water carves it",
        Tool::TextureRules => "Texture the ground by its slope, height and noise, rule by rule",
        Tool::Biome => "Lay a kind of ground: its erosion, texture rules and scattered models",
        Tool::Lights => {
            "The zone's lights: click one to select it, drag its arrows to move it, Ctrl+click \
             the ground to add one; its colours over the day in the panel"
        }
        Tool::Triggers => {
            "The zone's area triggers: click one to select it, drag its arrows to move it, \
             Ctrl+click the ground to add one"
        }
        _ => return None,
    })
}

/// The accessible name of a kind's icon ("Sculpt tools"): apart from its tools' names, which
/// may be the kind's own ("Road").
pub fn kind_label(kind: ToolKind) -> String {
    format!("{} tools", kind.name())
}

/// A tooltip: the name, what it does, and the user's key for `action`.
fn tooltip(
    ui: &egui::Ui,
    keymap: &Keymap,
    name: &str,
    what: Option<&str>,
    action: Action,
) -> String {
    let mut text = name.to_string();
    if let Some(w) = what {
        text = format!("{text}: {w}");
    }
    if let Some(k) = keymap.first(action) {
        text = format!("{text} (key: {})", ui.ctx().format_shortcut(&k));
    }
    text
}

/// Draws the bar and the chosen kind's modes into `s`; a click chooses (and remembers) a tool.
pub fn show(ui: &mut egui::Ui, s: &mut ToolSettings, scripts: &[super::script_panel::ScriptItem]) {
    let keymap = Keymap::current(ui.ctx());
    let chosen = s.tool.kind();
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing = Vec2::splat(3.0);
        for kind in ToolKind::ALL {
            let tint = if kind == chosen {
                ui.visuals().selection.stroke.color
            } else {
                ui.visuals().text_color()
            };
            let image = egui::Image::new(icon(kind))
                .fit_to_exact_size(Vec2::splat(ICON))
                .tint(tint);
            let r = ui
                .add(egui::Button::image(image).selected(kind == chosen))
                // Built only while hovered: the bar is drawn every frame.
                .on_hover_ui(|ui| {
                    ui.label(tooltip(ui, &keymap, kind.name(), None, Action::Kind(kind)));
                });
            // An icon has no text: screen readers (and the tests) know it by this name.
            r.widget_info(|| {
                egui::WidgetInfo::selected(
                    egui::Role::Button,
                    true,
                    kind == chosen,
                    kind_label(kind),
                )
            });
            if r.clicked() {
                let mode = s.mode_of(kind);
                s.choose(mode);
            }
        }
    });
    if chosen == ToolKind::Scripts {
        script_modes(ui, s, scripts);
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for tool in chosen.tools() {
            let r = ui
                .selectable_label(s.tool == tool, tool.name())
                .on_hover_ui(|ui| {
                    ui.label(tooltip(
                        ui,
                        &keymap,
                        tool.name(),
                        hint(tool),
                        Action::Tool(tool),
                    ));
                });
            if r.clicked() {
                s.choose(tool);
            }
        }
    });
}

/// The Scripts kind's modes: a button for every brush of every script found; a click chooses
/// the Script tool with that brush (its parameters start at their defaults).
fn script_modes(
    ui: &mut egui::Ui,
    s: &mut ToolSettings,
    scripts: &[super::script_panel::ScriptItem],
) {
    let brushes: Vec<_> = scripts
        .iter()
        .filter_map(|i| Some((&i.file, i.brush.as_ref().ok()?)))
        .collect();
    if brushes.is_empty() {
        ui.weak("No script brushes: put .lua files in a scripts folder (below).");
    }
    ui.horizontal_wrapped(|ui| {
        for (file, name) in brushes {
            let chosen = s.tool == Tool::Script
                && s.script.file.as_ref() == Some(file)
                && s.script.brush == *name;
            let r = ui
                .selectable_label(chosen, name.as_str())
                .on_hover_text(file.display().to_string());
            if r.clicked() && !chosen {
                s.choose(Tool::Script);
                s.script = crate::edit::tools::ScriptChoice {
                    file: Some(file.clone()),
                    brush: name.clone(),
                    params: Default::default(),
                };
            }
        }
    });
}
