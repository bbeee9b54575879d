//! The app's side of the game data the user browses: the asset browser (names, thumbnails,
//! picking a texture or a model) and the user's listfile. Kept out
//! of `app/mod.rs` so that it does not grow with each panel.

use std::path::PathBuf;
use std::sync::Arc;

use crate::assets::catalog::AssetKind;
use crate::assets::client::ClientData;
use crate::assets::textures::ByteSource;

use super::browser::NameSources;
use super::intent::Intent;
use super::{LoamApp, client};
use crate::doc::editing::Tool;
use crate::ui;

impl LoamApp {
    /// The opened client, when the client folder is one (not a folder of extracted files).
    pub(super) fn client_data(&self) -> Option<Arc<ClientData>> {
        self.doc.client.as_ref()?.opened.as_ref().ok().cloned()
    }

    /// The bytes of game paths for the open map (its folder first) and the client; without a
    /// map, the client's alone.
    pub(super) fn byte_source(&self) -> ByteSource {
        // An empty path names no folder: nothing is indexed for it.
        let folder = self
            .doc
            .session
            .as_ref()
            .map_or_else(PathBuf::new, |s| s.folder.clone());
        client::byte_source(self.doc.client.as_ref(), &folder)
    }

    /// Rebuilds the asset browser's names for the open map and client.
    pub(super) fn restart_browser(&mut self) {
        let source = self.byte_source();
        self.restart_browser_with(source);
    }

    /// Rebuilds the asset browser's names for the open map and client, its thumbnails read
    /// through `source` (the bytes the terrain reads).
    pub(super) fn restart_browser_with(&mut self, source: ByteSource) {
        let mut sources = NameSources {
            client: self.client_data(),
            listfile: self.settings.listfile.clone(),
            ..NameSources::default()
        };
        if let Some(c) = self.doc.client.as_ref().filter(|c| c.opened.is_err()) {
            sources.folders.push(c.dir.clone());
        }
        if let Some(s) = &self.doc.session {
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
        self.browser.restart(sources, source);
    }

    /// Carries out the browser's, listfile's and Open from client's intents; returns the
    /// intent back when it is none of those.
    pub(super) fn handle_browsing(&mut self, intent: Intent) -> Option<Intent> {
        match intent {
            Intent::ShowLeftPanel(p) => self.settings.left_panel = p,
            Intent::BrowserTab(k) => self.browser.set_kind(k),
            Intent::BrowserFilter(f) => self.browser.set_filter(f),
            Intent::BrowserToggleFolder(key) => self.browser.toggle_folder(key),
            Intent::PickAsset(kind, path) => self.pick_asset(kind, path),
            Intent::PickListfile => {
                if let Some(f) = self.shell.dialogs.pick_listfile() {
                    self.settings.listfile = Some(f);
                    self.restart_browser();
                }
            }
            Intent::ClearListfile => {
                self.settings.listfile = None;
                self.restart_browser();
            }
            other => return Some(other),
        }
        None
    }

    /// A texture becomes the paint brush's texture (switching to the paint tool); a model or
    /// WMO is selected for placing.
    fn pick_asset(&mut self, kind: AssetKind, path: String) {
        self.browser.selected = Some((kind, path.clone()));
        if kind == AssetKind::Texture {
            let s = &mut self.doc.editing.settings;
            if !matches!(s.tool, Tool::Paint | Tool::EraseTexture) {
                s.tool = Tool::Paint;
            }
            s.texture = path;
        } else {
            // A model or WMO chosen in the browser is what the object tool's clicks place.
            self.doc.editing.settings.tool = Tool::Objects;
            self.object_tool.place.model = Some(path);
            self.object_tool.place.active = true;
        }
    }

    /// The line under the browser about the selected file: where it is read from.
    pub(super) fn browser_detail(&self) -> Option<String> {
        let (_, path) = self.browser.selected.as_ref()?;
        let from = self
            .client_data()
            .and_then(|c| c.served_by(path))
            .map(|o| o.to_string())
            .unwrap_or_else(|| "not in the client's archives".to_string());
        Some(format!("{path}\nfrom {from}"))
    }

    /// The left panel's asset browser page.
    pub(super) fn draw_browser(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        self.browser.poll(ui.ctx());
        self.browser.refresh();
        let detail = self.browser_detail();
        let out = ui::asset_browser::show(
            ui,
            &self.browser.view(),
            &self.doc.editing.settings.texture,
            detail.as_deref(),
        );
        self.browser.want_thumbnails(out.visible_textures);
        out.intents
    }
}
