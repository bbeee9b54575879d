//! The asset browser as a component: what it lists names from, its tab, filter, folders and
//! listfile, what picking a texture or a model does, and its page in the left panel.
//!
//! Not for: the browser's own state and workers (`app::toolbox::asset_browser`) or its widgets
//! (`ui::asset_browser`).

use std::sync::Arc;

use super::asset_browser::{AssetBrowser, NameSources};
use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::assets::catalog::AssetKind;
use crate::assets::client::ClientData;
use crate::assets::textures::ByteSource;
use crate::command::{Command, Intent};
use crate::doc::Document;
use crate::edit::tools::{Tool, ToolSettings};
use crate::ui;

/// What the asset browser lists names from for `doc`: the client (its archives, or its folder
/// of extracted files), the user's listfile, the open map's folder and the names its tiles use.
fn name_sources(doc: &Document, listfile: Option<std::path::PathBuf>) -> NameSources {
    let mut sources = NameSources {
        client: doc.client_data(),
        listfile,
        ..NameSources::default()
    };
    if let Some(c) = doc.client.as_ref().filter(|c| c.opened.is_err()) {
        sources.folders.push(c.dir.clone());
    }
    if let Some(s) = &doc.session {
        sources.folders.push(s.folder.clone());
        for t in s.map.tiles.values() {
            sources.map_names.extend(t.textures.iter().cloned());
            sources.map_names.extend(t.doodad_names.iter().cloned());
            sources.map_names.extend(t.wmo_names.iter().cloned());
        }
        if let Some(n) = &s.map.map_wide_names {
            sources.map_names.extend(n.doodad_names.iter().cloned());
            sources.map_names.extend(n.wmo_names.iter().cloned());
        }
    }
    sources
}

/// A texture picked in the browser becomes the paint brush's texture (switching to the paint
/// tool); a model or WMO switches to the object tool, whose component takes it up as what its
/// clicks place.
fn pick_for_tools(kind: AssetKind, path: String, tools: &mut ToolSettings) {
    if kind == AssetKind::Texture {
        if !matches!(
            tools.tool,
            Tool::Paint | Tool::EraseTexture | Tool::SwapTexture
        ) {
            tools.tool = Tool::Paint;
        }
        tools.texture = path;
    } else {
        tools.tool = Tool::Objects;
    }
}

/// The line under the browser about the selected file: where it is read from.
fn browser_detail(browser: &AssetBrowser, client: Option<Arc<ClientData>>) -> Option<String> {
    let (_, path) = browser.selected.as_ref()?;
    let from = client
        .and_then(|c| c.served_by(path))
        .map(|o| o.to_string())
        .unwrap_or_else(|| "not in the client's archives".to_string());
    Some(format!("{path}\nfrom {from}"))
}

/// The left panel's asset browser page; `texture` is the paint brush's.
pub(in crate::app) fn draw_browser(
    ui: &mut egui::Ui,
    browser: &mut AssetBrowser,
    texture: &str,
    client: Option<Arc<ClientData>>,
) -> Vec<Intent> {
    browser.poll(ui.ctx());
    browser.refresh();
    let detail = browser_detail(browser, client);
    let out = ui::asset_browser::show(ui, &browser.view(), texture, detail.as_deref());
    browser.want_thumbnails(out.visible_textures);
    out.intents
}

impl AssetBrowser {
    /// Rebuilds the names for the open map and client, the thumbnails read through `source`.
    fn restart_for(&mut self, cx: &AppCtx, source: ByteSource) {
        let sources = name_sources(&cx.doc, cx.settings.listfile.clone());
        self.restart(sources, source);
    }
}

impl Component for AssetBrowser {
    /// Carries out the browser's intents; a model picked goes on to the object tool.
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::BrowserTab(k) => self.set_kind(k),
            Intent::BrowserFilter(f) => self.set_filter(f),
            Intent::BrowserToggleFolder(key) => self.toggle_folder(key),
            Intent::PickAsset(kind, path) => {
                self.selected = Some((kind, path.clone()));
                pick_for_tools(kind, path.clone(), &mut cx.doc.editing.settings);
                if kind != AssetKind::Texture {
                    return Some(Intent::PickAsset(kind, path));
                }
            }
            Intent::Command(Command::PickListfile) => {
                if let Some(f) = cx.shell.dialogs.pick_listfile() {
                    cx.settings.listfile = Some(f);
                    self.restart_for(cx, cx.doc.byte_source());
                }
            }
            Intent::Command(Command::ClearListfile) => {
                cx.settings.listfile = None;
                self.restart_for(cx, cx.doc.byte_source());
            }
            other => return Some(other),
        }
        None
    }

    fn sources_changed(&mut self, cx: &mut AppCtx, source: &ByteSource) {
        self.restart_for(cx, source.clone());
    }
}
