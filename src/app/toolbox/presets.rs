//! The brush presets as a component: saving the current tool's settings under a name, putting
//! a preset's settings back in the tool panel, renaming and deleting, and moving presets
//! between machines as a file. The presets are kept with the settings (`Settings::presets`).
//!
//! Not for: what a preset holds and the file's shape (`edit::presets`) or the list's widgets
//! (`ui::presets_panel`).

use std::path::Path;

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::{Intent, PresetsIntent};
use crate::edit::presets::{BrushPreset, PresetFile, unique_name};
use crate::ui::presets_panel::PresetsView;

/// The file Export writes in the folder the user picks.
pub const PRESETS_FILE: &str = "loam-presets.json";

/// The presets' section of the tool panel.
#[derive(Debug, Default)]
pub struct Presets {
    open: bool,
    name: String,
    chosen: Option<usize>,
}

impl Presets {
    /// What the tool panel shows of the presets.
    pub fn view(&self, cx: &AppCtx) -> PresetsView {
        PresetsView {
            names: cx.settings.presets.iter().map(|p| p.name.clone()).collect(),
            chosen: self.chosen.filter(|i| *i < cx.settings.presets.len()),
            name: self.name.clone(),
            open: self.open,
        }
    }

    fn presets(&mut self, intent: PresetsIntent, cx: &mut AppCtx) -> Result<(), String> {
        let list = &mut cx.settings.presets;
        match intent {
            PresetsIntent::Show(open) => self.open = open,
            PresetsIntent::Name(name) => self.name = name,
            PresetsIntent::Save => {
                let name = unique_name(&self.name, list);
                list.push(BrushPreset {
                    name: name.clone(),
                    settings: cx.doc.editing.settings.clone(),
                });
                self.chosen = Some(list.len() - 1);
                cx.shell.message = Some(format!("preset saved as {name}"));
            }
            PresetsIntent::Pick(i) => {
                let preset = list.get(i).ok_or("no such preset")?;
                // The kinds' remembered modes stay the user's; the tool is the preset's.
                let modes = cx.doc.editing.settings.modes.clone();
                let mut settings = preset.settings.clone();
                settings.modes = modes;
                let tool = settings.tool;
                settings.choose(tool);
                cx.doc.editing.settings = settings;
                self.chosen = Some(i);
            }
            PresetsIntent::Rename(i) => {
                let others: Vec<BrushPreset> = (list.iter().enumerate())
                    .filter(|(k, _)| *k != i)
                    .map(|(_, p)| p.clone())
                    .collect();
                let name = unique_name(&self.name, &others);
                list.get_mut(i).ok_or("no such preset")?.name = name;
            }
            PresetsIntent::Delete(i) => {
                if i < list.len() {
                    list.remove(i);
                }
                self.chosen = None;
            }
            PresetsIntent::Export => {
                let Some(folder) = cx.shell.dialogs.pick_folder() else {
                    return Ok(());
                };
                let path = folder.join(PRESETS_FILE);
                write_presets(&path, list)?;
                cx.shell.message = Some(format!("presets written to {}", path.display()));
            }
            PresetsIntent::Import => {
                let Some(path) = cx.shell.dialogs.pick_json("presets") else {
                    return Ok(());
                };
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let file =
                    PresetFile::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
                let n = file.presets.len();
                for mut p in file.presets {
                    p.name = unique_name(&p.name, list);
                    list.push(p);
                }
                cx.shell.message = Some(format!("{n} preset(s) added from {}", path.display()));
            }
        }
        Ok(())
    }
}

/// Writes `presets` as a preset file at `path`, whole or not at all.
fn write_presets(path: &Path, presets: &[BrushPreset]) -> Result<(), String> {
    let file = PresetFile {
        presets: presets.to_vec(),
    };
    let text = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?;
    crate::disk::atomic::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
}

impl Component for Presets {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Presets(p) => {
                if let Err(e) = self.presets(p, cx) {
                    cx.shell.message = Some(format!("presets: {e}"));
                }
                None
            }
            other => Some(other),
        }
    }
}
