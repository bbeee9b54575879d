//! The command palette as a component: the entries it can run (every command, tool, brush
//! step, overlay and view toggle, the left panel's pages, the key sets and the pen setting),
//! each with the user's key; what is typed and highlighted; and the list of entries run
//! recently, kept with the settings so that they come first.
//!
//! Not for: the matching (`command::palette`) or the window (`ui::command_palette`).

use super::component::Component;
use super::context::AppCtx;
use super::settings::RECENT_COMMANDS;
use crate::command::keymap::{Action, BrushAdjust, Preset};
use crate::command::{Command, Intent, KeysIntent, LeftPanel, palette};
use crate::edit::tools::{Tool, ToolKind};
use crate::ui::command_palette::{PaletteItem, PaletteOutcome};

/// The palette, when open.
#[derive(Debug, Default)]
pub struct Palette {
    open: bool,
    query: String,
    selected: usize,
}

/// One thing the palette can run.
struct Entry {
    label: String,
    action: Option<Action>,
    intent: Intent,
}

/// A View toggle: its name, whether it is on, and the intent that sets it.
type Toggle = (&'static str, bool, fn(bool) -> Intent);

/// Every entry, as of the settings now (a toggle's entry says what it will do).
fn entries(cx: &AppCtx) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut add = |label: String, action: Option<Action>, intent: Intent| {
        out.push(Entry {
            label,
            action,
            intent,
        })
    };
    for c in Command::ALL {
        if c != Command::CommandPalette {
            add(
                c.text().to_string(),
                Some(Action::Command(c)),
                Intent::Command(c),
            );
        }
    }
    for k in ToolKind::ALL {
        let a = Action::Kind(k);
        add(a.name(), Some(a), Intent::SelectKind(k));
    }
    for t in Tool::every() {
        let a = Action::Tool(t);
        add(a.name(), Some(a), Intent::SelectTool(t));
    }
    for b in BrushAdjust::ALL {
        add(
            b.name().to_string(),
            Some(Action::Brush(b)),
            Intent::AdjustBrush(b, 1.0),
        );
    }
    let v = cx.settings.view;
    let toggles: [Toggle; 8] = [
        ("Chunk grid", v.chunk_grid, Intent::ShowChunkGrid),
        ("Tile grid", v.tile_grid, Intent::ShowTileGrid),
        ("Layer count", v.layer_count, Intent::ShowLayerCount),
        ("Areas", v.area_overlay, Intent::ShowAreas),
        (
            "Ground effects",
            v.effects_overlay,
            Intent::ShowGroundEffects,
        ),
        ("Liquids", v.liquids, Intent::ShowLiquids),
        ("Lights", v.lights, Intent::ShowLights),
        ("Area triggers", v.area_triggers, Intent::ShowAreaTriggers),
    ];
    for (name, on, intent) in toggles {
        let verb = if on { "hide" } else { "show" };
        add(format!("View: {name} ({verb})"), None, intent(!on));
    }
    for (name, page) in [
        ("tile map", LeftPanel::Tiles),
        ("asset browser", LeftPanel::Assets),
    ] {
        add(
            format!("Show the {name}"),
            None,
            Intent::ShowLeftPanel(page),
        );
    }
    for p in Preset::ALL {
        add(
            format!("Keys: {} set", p.name()),
            None,
            Intent::Keys(KeysIntent::Preset(p)),
        );
    }
    let pen = cx.settings.input.pen_pressure;
    let verb = if pen { "off" } else { "on" };
    add(
        format!("Settings: turn pen pressure {verb}"),
        None,
        Intent::PenPressure(!pen),
    );
    out
}

impl Component for Palette {
    fn handle(&mut self, intent: Intent, _cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Command(Command::CommandPalette) => {
                *self = Palette {
                    open: true,
                    ..Palette::default()
                }
            }
            Intent::PaletteQuery(q) => {
                *self = Palette {
                    open: true,
                    query: q,
                    selected: 0,
                }
            }
            other => return Some(other),
        }
        None
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut AppCtx) -> Vec<Intent> {
        if !self.open {
            return Vec::new();
        }
        let all = entries(cx);
        let names: Vec<String> = all.iter().map(|e| e.label.clone()).collect();
        let found = palette::rank(&self.query, &names, &cx.settings.input.recent_commands);
        let keymap = &cx.settings.input.keys;
        let items: Vec<PaletteItem> = (found.iter().map(|&i| &all[i]))
            .map(|e| PaletteItem {
                label: e.label.clone(),
                key: (e.action)
                    .and_then(|a| keymap.first(a))
                    .map(|k| ui.ctx().format_shortcut(&k)),
            })
            .collect();
        let outcome =
            crate::ui::command_palette::show(ui.ctx(), &mut self.query, &mut self.selected, &items);
        match outcome {
            None => Vec::new(),
            Some(PaletteOutcome::Close) => {
                self.open = false;
                Vec::new()
            }
            Some(PaletteOutcome::Run(i)) => {
                self.open = false;
                let Some(entry) = found.get(i).map(|&i| &all[i]) else {
                    return Vec::new();
                };
                let recent = &mut cx.settings.input.recent_commands;
                palette::used(recent, &entry.label, RECENT_COMMANDS);
                vec![entry.intent.clone()]
            }
        }
    }
}
