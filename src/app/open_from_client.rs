//! File ▸ Open from client: the dialog listing the client's maps, and the copy of the chosen
//! one out of the archives on a worker (see `doc::client_maps`), for the app to open when done.
//!
//! Not for: listing or extracting (see `assets::client`, `doc::client_maps`).

use std::path::PathBuf;
use std::sync::Arc;

use crate::assets::client::{ClientData, MapListing};
use crate::command::Intent;
use crate::doc::client_maps::Copying;
use crate::ui;

/// The dialog's state: the client's maps, and the filter text.
struct Listing {
    listing: MapListing,
    filter: String,
}

/// The Open from client component: the dialog when up and the copy under way.
#[derive(Default)]
pub struct OpenFromClient {
    dialog: Option<Listing>,
    copying: Option<Copying>,
}

/// What a finished copy gives the app.
pub enum Copied {
    /// The map's WDT, copied out, to open; with the map's directory name.
    Open(PathBuf, String),
    /// Why it could not be copied (for the status bar).
    Failed(String),
}

impl OpenFromClient {
    /// True while a map is being copied out of the client.
    pub fn is_copying(&self) -> bool {
        self.copying.is_some()
    }

    /// Carries out the dialog's intents with the opened `client` (when the client folder is
    /// one); the message for the status bar goes to `message`. Returns the intent back when
    /// it is none of the dialog's.
    pub fn handle(
        &mut self,
        intent: Intent,
        client: Option<Arc<ClientData>>,
        repaint: Arc<dyn Fn() + Send + Sync>,
        message: &mut Option<String>,
    ) -> Option<Intent> {
        match intent {
            Intent::OpenFromClientDialog => match client {
                Some(c) => {
                    self.dialog = Some(Listing {
                        listing: c.maps(),
                        filter: String::new(),
                    })
                }
                None => {
                    *message =
                        Some("choose a game client in Settings first (a folder with Data/)".into())
                }
            },
            Intent::OpenFromClient(directory) => {
                if let Some(client) = client {
                    self.start_copy(client, &directory, repaint, message);
                }
            }
            Intent::CloseOpenFromClient => self.dialog = None,
            other => return Some(other),
        }
        None
    }

    fn start_copy(
        &mut self,
        client: Arc<ClientData>,
        directory: &str,
        repaint: Arc<dyn Fn() + Send + Sync>,
        message: &mut Option<String>,
    ) {
        let Some(map) = self.dialog.as_ref().and_then(|d| {
            d.listing
                .maps
                .iter()
                .find(|m| m.directory == directory)
                .cloned()
        }) else {
            return;
        };
        self.dialog = None;
        *message = Some(format!("copying {} out of the client…", map.directory));
        self.copying = Some(Copying::start(client, map, move || repaint()));
    }

    /// The copy's outcome, once it finished.
    pub fn poll(&mut self) -> Option<Copied> {
        let result = self.copying.as_ref().and_then(Copying::poll)?;
        let name = self
            .copying
            .take()
            .map(|c| c.map.directory)
            .unwrap_or_default();
        Some(match result {
            Ok(wdt) => Copied::Open(wdt, name),
            Err(e) => Copied::Failed(format!("could not open {name} from the client: {e}")),
        })
    }

    /// Draws the window when it is up.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        let Some(d) = &mut self.dialog else {
            return Vec::new();
        };
        ui::dialogs::open_from_client(ui, &d.listing, &mut d.filter)
    }
}
