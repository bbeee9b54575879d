//! The app's side of the game data the user browses: what the asset browser lists names from,
//! what picking a texture or a model does, and the browser's page in the left panel. Kept out
//! of `app/mod.rs` so that it does not grow with each panel.
//!
//! Not for: the browser's own state and workers (`app::browser`) or its widgets
//! (`ui::asset_browser`).

use std::sync::Arc;

use super::browser::{AssetBrowser, NameSources};
use crate::assets::catalog::AssetKind;
use crate::assets::client::ClientData;
use crate::command::Intent;
use crate::doc::Document;
use crate::edit::tools::{PlaceOptions, Tool, ToolSettings};
use crate::ui;

/// What the asset browser lists names from for `doc`: the client (its archives, or its folder
/// of extracted files), the user's listfile, the open map's folder and the names its tiles use.
pub(super) fn name_sources(doc: &Document, listfile: Option<std::path::PathBuf>) -> NameSources {
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
/// tool); a model or WMO becomes what the object tool's clicks place.
pub(super) fn pick_asset(
    kind: AssetKind,
    path: String,
    tools: &mut ToolSettings,
    place: &mut PlaceOptions,
) {
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
        place.model = Some(path);
        place.active = true;
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
pub(super) fn draw_browser(
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
