//! File ▸ Export for client: the dialog's state and what its buttons do. The export works from
//! the map's files on disk (a few tiles at a time, as `loam convert --pack` does), so a map
//! with unsaved edits must be saved first.
//!
//! Not for: the archives themselves (`pipeline::pack`) or the window's widgets (`ui::dialogs`).

use std::path::{Path, PathBuf};

use crate::app::context::DialogCtx;
use crate::command::Intent;
use crate::doc::Document;
use crate::doc::session::Session;
use crate::format::Generation;
use crate::pipeline::{client_pack, pack};
use crate::ui;

pub use crate::command::ExportIntent;

/// The dialog's state.
#[derive(Debug, Clone)]
struct ExportDialog {
    target: Generation,
    folder: Option<PathBuf>,
    /// The patch name typed (empty: the first free one).
    patch_name: String,
    wdl: bool,
    minimap: bool,
    /// Also write the servers' copy of the client, into `server_folder`.
    server_copy: bool,
    server_folder: Option<PathBuf>,
    /// What the last export said that the user must know, shown in the dialog.
    warnings: Vec<String>,
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

/// Where the minimap of the map at `source` is kept between exports under `root`, so that
/// only the tiles that changed are drawn again: `root/<hash of the path>/`.
fn minimap_cache(root: &Path, source: &Path) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    source.hash(&mut h);
    root.join(format!("{:016x}", h.finish()))
}

/// The Export for client component: the dialog, when up.
#[derive(Debug, Default)]
pub struct Export {
    dialog: Option<ExportDialog>,
    /// Where minimaps are kept between exports (`minimaps/` in loam's data folder, set when the
    /// app keeps one); without it every export draws every tile.
    pub minimap_root: Option<PathBuf>,
}

impl Export {
    /// Carries out the export intents on the open document (the status line's text goes to
    /// `message`); hands every other intent back.
    pub fn handle(&mut self, intent: Intent, c: &mut DialogCtx) -> Option<Intent> {
        let Intent::Export(e) = intent else {
            return Some(intent);
        };
        let (doc, dialogs) = (c.doc, &mut c.dialogs);
        match e {
            ExportIntent::Open => {
                let Some(s) = &doc.session else {
                    return None;
                };
                let target = if pack::layout(s.generation).is_ok() {
                    s.generation
                } else {
                    Generation::V335
                };
                self.dialog = Some(ExportDialog {
                    target,
                    // The client in use (Settings ▸ Client data, or `--client`).
                    folder: doc.client.as_ref().map(|c| c.dir.clone()),
                    patch_name: String::new(),
                    wdl: true,
                    minimap: true,
                    server_copy: false,
                    server_folder: None,
                    warnings: Vec::new(),
                });
            }
            ExportIntent::Target(g) => {
                if let Some(d) = &mut self.dialog {
                    d.target = g;
                }
            }
            ExportIntent::PickFolder => {
                if let Some(f) = dialogs.pick_folder()
                    && let Some(d) = &mut self.dialog
                {
                    d.folder = Some(f);
                }
            }
            ExportIntent::Wdl(on) => {
                if let Some(d) = &mut self.dialog {
                    d.wdl = on;
                }
            }
            ExportIntent::Minimap(on) => {
                if let Some(d) = &mut self.dialog {
                    d.minimap = on;
                }
            }
            ExportIntent::ServerCopy(on) => {
                if let Some(d) = &mut self.dialog {
                    d.server_copy = on;
                }
            }
            ExportIntent::PickServerFolder => {
                if let Some(f) = dialogs.pick_folder()
                    && let Some(d) = &mut self.dialog
                {
                    d.server_folder = Some(f);
                }
            }
            ExportIntent::Write => self.write(doc, c.message),
            ExportIntent::Cancel => self.dialog = None,
        }
        None
    }

    fn write(&mut self, doc: &Document, message: &mut Option<String>) {
        let (Some(s), Some(d)) = (&doc.session, &self.dialog) else {
            return;
        };
        let Some(folder) = &d.folder else { return };
        let name = d.patch_name.trim();
        // The destination client, when it is one: its textures draw the minimap and its
        // md5translate table keeps the other maps' lines; else the client in use, for textures.
        let dest_client = crate::assets::client::ClientData::open(folder)
            .ok()
            .map(std::sync::Arc::new);
        let textures_from = dest_client
            .clone()
            .or_else(|| doc.client.as_ref().and_then(|c| c.opened.clone().ok()));
        let target = d.target;
        let minimap = d.minimap;
        let cache = self
            .minimap_root
            .as_ref()
            .map(|root| minimap_cache(root, &s.source));
        let extra = |staging: &Path, map: &str| -> crate::error::Result<Vec<(String, PathBuf)>> {
            if !minimap {
                return Ok(Vec::new());
            }
            let out = cache.clone().unwrap_or_else(|| staging.join("minimap"));
            let written = crate::minimap::export::write_minimap(
                &staging.join(format!("{map}.wdt")),
                Some(target),
                &out,
                textures_from.clone(),
                &|_, _| {},
            )?;
            Ok(written.files)
        };
        let staged = pack::stage_for_client(&s.source, Some(s.generation), target, d.wdl);
        // Into a game client of a generation loam writes tables for, the map also gets its
        // Map.dbc row, without which the client never loads it, and the servers' view of it
        // is checked.
        let is_client = crate::assets::client::find_data_dir(folder).is_ok()
            && matches!(target, Generation::V112 | Generation::V335);
        let patch = (!name.is_empty()).then_some(name);
        let dest = archive_folder(folder);
        let server_out = d
            .server_folder
            .clone()
            .filter(|_| d.server_copy && is_client);
        let result = staged.and_then(|staged| {
            let extra = extra(staged.dir.path(), &staged.name)?;
            if is_client {
                let request = client_pack::ClientPackRequest {
                    patch_name: patch,
                    extra: &extra,
                    table: &Default::default(),
                    server_data: server_out.as_deref(),
                };
                let p = client_pack::pack_into_client(
                    staged.dir.path(),
                    &staged.name,
                    target,
                    &dest,
                    &request,
                )?;
                Ok((p.packed.clone(), Some(p)))
            } else {
                let p = pack::pack_map_with(
                    staged.dir.path(),
                    &staged.name,
                    target,
                    &dest,
                    patch,
                    &extra,
                )?;
                Ok((p, None))
            }
        });
        *message = Some(match result {
            Ok((p, client)) => {
                let names: Vec<String> = p
                    .archives
                    .iter()
                    .map(|(a, _)| a.display().to_string())
                    .collect();
                let mut said = format!("exported to {}", names.join(", "));
                let mut warnings = Vec::new();
                if let Some(c) = client {
                    let r = &c.registered;
                    match (r.added, r.id) {
                        (true, Some(id)) => said += &format!("; Map.dbc names it as map {id}"),
                        (false, Some(id)) => {
                            said += &format!("; Map.dbc already names it (map {id})")
                        }
                        _ => {}
                    }
                    if let Some(out) = &server_out {
                        said += &format!("; the servers' copy is in {}", out.display());
                    }
                    said += &r
                        .warnings
                        .iter()
                        .map(|w| format!(" — {w}"))
                        .collect::<String>();
                    warnings.extend(c.rows_apart.clone());
                    warnings.extend(c.unseen_warning.clone());
                }
                let line: String = warnings.iter().map(|w| format!(" — {w}")).collect();
                // What the servers will not see stays in the dialog, not only in the status
                // line that the next message replaces.
                match (&mut self.dialog, warnings.is_empty()) {
                    (Some(d), false) => d.warnings = warnings,
                    _ => self.dialog = None,
                }
                said + &line
            }
            Err(e) => format!("export failed: {e}"),
        });
    }

    /// Draws the dialog when it is up, for the open map `session`.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: Option<&Session>) -> Vec<Intent> {
        let (Some(d), Some(s)) = (&mut self.dialog, session) else {
            return Vec::new();
        };
        let dest = d.folder.as_deref().map(archive_folder);
        let layout = pack::layout(d.target).ok();
        let default_patch = match (&dest, layout) {
            (Some(dest), Some(pack::Layout::Patch)) => {
                pack::default_patch_name(dest, &s.map.name).ok()
            }
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
            minimap: d.minimap,
            unsaved: !s.edited.is_empty(),
            server_client: d
                .folder
                .as_deref()
                .is_some_and(|f| crate::assets::client::find_data_dir(f).is_ok())
                && matches!(d.target, Generation::V112 | Generation::V335),
            server_copy: d.server_copy,
            server_folder: d.server_folder.clone(),
            warnings: d.warnings.clone(),
        };
        ui::dialogs::export_for_client(ui, &view, &mut d.patch_name)
    }
}

/// The dialog as the shell reaches it: File ▸ Export for client… opens it.
impl crate::app::component::Component for Export {
    fn handle(&mut self, intent: Intent, cx: &mut crate::app::context::AppCtx) -> Option<Intent> {
        let intent = match intent {
            Intent::Command(crate::command::Command::ExportForClient) => {
                Intent::Export(crate::command::ExportIntent::Open)
            }
            other => other,
        };
        Export::handle(self, intent, &mut cx.dialog_ctx())
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut crate::app::context::AppCtx) -> Vec<Intent> {
        Export::ui(self, ui, cx.doc.session.as_ref())
    }
}
