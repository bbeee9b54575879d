//! The app's side of the game data the user browses: the asset browser (names, thumbnails,
//! picking a texture or a model), the user's listfile, and File ▸ Open from client. Kept out
//! of `app/mod.rs` so that it does not grow with each panel.

use std::path::PathBuf;
use std::sync::Arc;

use crate::assets::catalog::AssetKind;
use crate::assets::client::{ClientData, MapListing};
use crate::assets::textures::ByteSource;

use super::browser::NameSources;
use super::client_maps::Copying;
use super::editing::Tool;
use super::intent::Intent;
use super::{LoamApp, client};
use crate::ui;

/// The Open from client dialog's state.
pub struct OpenFromClient {
    /// The client's maps, and where their names came from.
    pub listing: MapListing,
    /// The filter text.
    pub filter: String,
}

impl LoamApp {
    /// The opened client, when the client folder is one (not a folder of extracted files).
    pub(super) fn client_data(&self) -> Option<Arc<ClientData>> {
        self.client.as_ref()?.opened.as_ref().ok().cloned()
    }

    /// The bytes of game paths for the open map (its folder first) and the client; without a
    /// map, the client's alone.
    pub(super) fn byte_source(&self) -> ByteSource {
        // An empty path names no folder: nothing is indexed for it.
        let folder = self
            .session
            .as_ref()
            .map_or_else(PathBuf::new, |s| s.folder.clone());
        client::byte_source(self.client.as_ref(), &folder)
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
        if let Some(c) = self.client.as_ref().filter(|c| c.opened.is_err()) {
            sources.folders.push(c.dir.clone());
        }
        if let Some(s) = &self.session {
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
                if let Some(f) = self.dialogs.pick_listfile() {
                    self.settings.listfile = Some(f);
                    self.restart_browser();
                }
            }
            Intent::ClearListfile => {
                self.settings.listfile = None;
                self.restart_browser();
            }
            Intent::OpenFromClientDialog => match self.client_data() {
                Some(c) => {
                    self.open_from_client = Some(OpenFromClient {
                        listing: c.maps(),
                        filter: String::new(),
                    })
                }
                None => {
                    self.message =
                        Some("choose a game client in Settings first (a folder with Data/)".into())
                }
            },
            Intent::OpenFromClient(directory) => self.start_copy(&directory),
            Intent::CloseOpenFromClient => self.open_from_client = None,
            other => return Some(other),
        }
        None
    }

    /// A texture becomes the paint brush's texture (switching to the paint tool); a model or
    /// WMO is selected for placing.
    fn pick_asset(&mut self, kind: AssetKind, path: String) {
        self.browser.selected = Some((kind, path.clone()));
        if kind == AssetKind::Texture {
            let s = &mut self.editing.settings;
            if !matches!(s.tool, Tool::Paint | Tool::EraseTexture) {
                s.tool = Tool::Paint;
            }
            s.texture = path;
        } else {
            // A model or WMO chosen in the browser is what the object tool's clicks place.
            self.editing.settings.tool = Tool::Objects;
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

    fn start_copy(&mut self, directory: &str) {
        let Some(client) = self.client_data() else {
            return;
        };
        let Some(map) = self.open_from_client.as_ref().and_then(|d| {
            d.listing
                .maps
                .iter()
                .find(|m| m.directory == directory)
                .cloned()
        }) else {
            return;
        };
        self.open_from_client = None;
        self.message = Some(format!("copying {} out of the client…", map.directory));
        let repaint = self.repaint.clone();
        self.copying = Some(Copying::start(client, map, move || repaint()));
    }

    /// Opens the map whose copy finished, if one did.
    pub(super) fn poll_copy(&mut self) {
        let Some(result) = self.copying.as_ref().and_then(Copying::poll) else {
            return;
        };
        let name = self
            .copying
            .take()
            .map(|c| c.map.directory)
            .unwrap_or_default();
        match result {
            Ok(wdt) => {
                self.open(&wdt);
                if self.session.is_some() && self.message.is_none() {
                    self.message = Some(format!(
                        "{name} opened from the client; File > Save as… writes it to a folder"
                    ));
                }
            }
            Err(e) => self.message = Some(format!("could not open {name} from the client: {e}")),
        }
    }

    /// Draws the Open from client window when it is up.
    pub(super) fn draw_open_from_client(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        let Some(d) = &mut self.open_from_client else {
            return Vec::new();
        };
        ui::dialogs::open_from_client(ui, &d.listing, &mut d.filter)
    }

    /// The left panel's asset browser page.
    pub(super) fn draw_browser(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        self.browser.poll(ui.ctx());
        self.browser.refresh();
        let detail = self.browser_detail();
        let out = ui::asset_browser::show(
            ui,
            &self.browser.view(),
            &self.editing.settings.texture,
            detail.as_deref(),
        );
        self.browser.want_thumbnails(out.visible_textures);
        out.intents
    }
}
