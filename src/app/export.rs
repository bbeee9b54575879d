//! File ▸ Export for client: the dialog's state and what its buttons do. The export works from
//! the map's files on disk (a few tiles at a time, as `loam convert --pack` does), so a map
//! with unsaved edits must be saved first.
//!
//! Not for: the archives themselves (`pipeline::pack`) or the window's widgets (`ui::dialogs`).

use std::path::{Path, PathBuf};

use super::LoamApp;
use super::intent::Intent;
use crate::format::Generation;
use crate::pipeline::pack;
use crate::ui;

pub use crate::command::ExportIntent;

/// The dialog's state.
#[derive(Debug, Clone)]
pub(super) struct ExportDialog {
    target: Generation,
    folder: Option<PathBuf>,
    /// The patch name typed (empty: the first free one).
    patch_name: String,
    wdl: bool,
}

/// The generations a client archive can be written for.
pub fn export_targets() -> Vec<Generation> {
    Generation::ALL
        .into_iter()
        .filter(|g| pack::layout(*g).is_ok())
        .collect()
}

/// Where archives for `folder` go: its `Data` folder when it is a game client (or `Data`
/// itself), else the folder.
pub fn archive_folder(folder: &Path) -> PathBuf {
    crate::assets::client::find_data_dir(folder).unwrap_or_else(|_| folder.to_path_buf())
}

/// After Save as: writes the WDL of the map the session now works on (the written copy, read
/// back a few tiles at a time). A lone tile has no map to have one. Returns a note for the
/// status line.
pub(super) fn write_wdl_after_save_as(s: &super::Session) -> String {
    if !s.has_wdt {
        return String::new();
    }
    let wdt = s.folder.join(format!("{}.wdt", s.map.name));
    match crate::pipeline::wdl::compute(&wdt, Some(s.generation), None)
        .and_then(|low| crate::pipeline::wdl::write_wdl(&s.folder, &low.name, &low.tiles))
    {
        Ok(_) => ", with its WDL".to_string(),
        Err(e) => format!("; the WDL was not written: {e}"),
    }
}

impl LoamApp {
    /// Carries out the export intents; hands every other intent back.
    pub(super) fn handle_export(&mut self, intent: Intent) -> Option<Intent> {
        let Intent::Export(e) = intent else {
            return Some(intent);
        };
        match e {
            ExportIntent::Open => {
                let Some(s) = &self.doc.session else {
                    return None;
                };
                let target = if pack::layout(s.generation).is_ok() {
                    s.generation
                } else {
                    Generation::V335
                };
                self.export = Some(ExportDialog {
                    target,
                    // The client in use (Settings ▸ Client data, or `--client`).
                    folder: self.doc.client.as_ref().map(|c| c.dir.clone()),
                    patch_name: String::new(),
                    wdl: true,
                });
            }
            ExportIntent::Target(g) => {
                if let Some(d) = &mut self.export {
                    d.target = g;
                }
            }
            ExportIntent::PickFolder => {
                if let Some(f) = self.shell.dialogs.pick_folder()
                    && let Some(d) = &mut self.export
                {
                    d.folder = Some(f);
                }
            }
            ExportIntent::Wdl(on) => {
                if let Some(d) = &mut self.export {
                    d.wdl = on;
                }
            }
            ExportIntent::Write => self.export_write(),
            ExportIntent::Cancel => self.export = None,
        }
        None
    }

    fn export_write(&mut self) {
        let (Some(s), Some(d)) = (&self.doc.session, &self.export) else {
            return;
        };
        let Some(folder) = &d.folder else { return };
        let name = d.patch_name.trim();
        let result = pack::export_map(
            &s.source,
            Some(s.generation),
            d.target,
            &archive_folder(folder),
            (!name.is_empty()).then_some(name),
            d.wdl,
        );
        self.shell.message = Some(match result {
            Ok(p) => {
                self.export = None;
                let names: Vec<String> = p
                    .archives
                    .iter()
                    .map(|(a, _)| a.display().to_string())
                    .collect();
                format!("exported to {}", names.join(", "))
            }
            Err(e) => format!("export failed: {e}"),
        });
    }

    /// After a save of `saved` tiles: brings the map's WDL up to date with them when the map
    /// has one (the tiles are in memory, so nothing is read again). Returns a note for the
    /// status line when that failed.
    pub(super) fn refresh_wdl(
        &self,
        saved: &std::collections::BTreeSet<crate::model::TileCoord>,
    ) -> Option<String> {
        let s = self.doc.session.as_ref()?;
        let tiles = saved.iter().filter_map(|c| s.map.tiles.get(c));
        crate::pipeline::wdl::update_beside(&s.folder, &s.map.name, s.generation, tiles)
            .err()
            .map(|e| format!("; the WDL was not updated: {e}"))
    }

    /// Draws the dialog when it is up.
    pub(super) fn draw_export(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        let (Some(d), Some(s)) = (&mut self.export, &self.doc.session) else {
            return Vec::new();
        };
        let dest = d.folder.as_deref().map(archive_folder);
        let layout = pack::layout(d.target).ok();
        let default_patch = match (&dest, layout) {
            (Some(dest), Some(pack::Layout::Patch)) => pack::first_free_patch_name(dest).ok(),
            _ => None,
        };
        let view = ui::dialogs::ExportView {
            targets: export_targets(),
            target: d.target,
            map: s.map.name.clone(),
            folder: d.folder.clone(),
            destination: dest,
            per_file: layout == Some(pack::Layout::PerFile),
            default_patch,
            wdl: d.wdl,
            unsaved: !s.edited.is_empty(),
        };
        ui::dialogs::export_for_client(ui, &view, &mut d.patch_name)
    }
}
