//! The Biome tool's kept biomes as a component: picking one into the tool, keeping the tool's
//! biome under its name, deleting, moving the list between machines as a biome file, and
//! adding the selected doodads' models to the tool's palette. The list is kept with the
//! settings (`Settings::biomes`); the biome laid is the tool's (`ToolSettings::biome`).
//!
//! Not for: laying a biome (`edit::biome`, `doc::editing`) or the panel's widgets
//! (`ui::biome_panel`).

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::{BiomesIntent, Intent};
use crate::edit::biome::{Biome, BiomeFile};
use crate::edit::objects::scatter_ops::PaletteModel;
use crate::model::ObjectKind;

/// The file Export writes in the folder the user picks.
pub const BIOMES_FILE: &str = "loam-biomes.json";

/// The kept biomes' component (the list itself is in the settings).
#[derive(Debug, Default)]
pub struct Biomes;

impl Biomes {
    fn act(intent: BiomesIntent, cx: &mut AppCtx) -> Result<(), String> {
        let list = &mut cx.settings.biomes;
        let tool = &mut cx.doc.editing.settings.biome;
        match intent {
            BiomesIntent::Pick(i) => {
                *tool = list.get(i).ok_or("no such biome")?.clone();
            }
            BiomesIntent::Keep => {
                tool.check()?;
                let name = tool.name.trim().to_string();
                if name.is_empty() {
                    return Err("give the biome a name".into());
                }
                tool.name = name.clone();
                match list.iter_mut().find(|b| b.name == name) {
                    Some(kept) => *kept = tool.clone(),
                    None => list.push(tool.clone()),
                }
                cx.shell.message = Some(format!("biome kept as {name}"));
            }
            BiomesIntent::Delete(i) => {
                if i < list.len() {
                    list.remove(i);
                }
            }
            BiomesIntent::Export => {
                let Some(folder) = cx.shell.dialogs.pick_folder() else {
                    return Ok(());
                };
                let path = folder.join(BIOMES_FILE);
                let file = BiomeFile {
                    biomes: list.clone(),
                };
                let text = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?;
                crate::disk::atomic::write_atomic(&path, text.as_bytes())
                    .map_err(|e| e.to_string())?;
                cx.shell.message = Some(format!("biomes written to {}", path.display()));
            }
            BiomesIntent::Import => {
                let Some(path) = cx.shell.dialogs.pick_json("biomes") else {
                    return Ok(());
                };
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let file =
                    BiomeFile::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
                let n = file.biomes.len();
                for b in file.biomes {
                    add_unique(list, b);
                }
                cx.shell.message = Some(format!("{n} biome(s) added from {}", path.display()));
            }
            BiomesIntent::AddSelected => {
                let s = cx.doc.session.as_ref().ok_or("no map is open")?;
                let mut any = false;
                for (kind, uid) in &cx.doc.selection {
                    if *kind == ObjectKind::Doodad
                        && let Some(r) = crate::edit::objects::find(&s.map, *kind, *uid)
                    {
                        any = true;
                        if !tool
                            .palette
                            .iter()
                            .any(|m| m.model.eq_ignore_ascii_case(&r.model))
                        {
                            tool.palette.push(PaletteModel {
                                model: r.model,
                                weight: 1.0,
                                scale: None,
                            });
                        }
                    }
                }
                if !any {
                    return Err("select doodads with the Objects tool first".into());
                }
            }
        }
        Ok(())
    }
}

/// Adds `biome` to `list`, its name made unique with " (2)", " (3)"… as presets are.
fn add_unique(list: &mut Vec<Biome>, mut biome: Biome) {
    let base = biome.name.clone();
    let mut n = 2;
    while list.iter().any(|b| b.name == biome.name) {
        biome.name = format!("{base} ({n})");
        n += 1;
    }
    list.push(biome);
}

impl Component for Biomes {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Biomes(b) => {
                if let Err(e) = Biomes::act(b, cx) {
                    cx.shell.message = Some(format!("biomes: {e}"));
                }
                None
            }
            other => Some(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_imported_biome_of_a_kept_name_gets_a_number() {
        let mut list = crate::edit::biome::shipped();
        let first = list[0].clone();
        add_unique(&mut list, first.clone());
        add_unique(&mut list, first.clone());
        let names: Vec<&str> = list.iter().map(|b| b.name.as_str()).collect();
        let n = names.len();
        assert_eq!(
            names[n - 2..],
            [
                format!("{} (2)", first.name).as_str(),
                format!("{} (3)", first.name).as_str()
            ]
        );
    }
}
