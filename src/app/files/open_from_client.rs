//! File ▸ Open from client: the dialog listing the client's maps, and the copy of the chosen
//! one out of the archives on a worker (see `doc::client_maps`), opened when done.
//!
//! Not for: listing or extracting (see `assets::client`, `doc::client_maps`).

use std::sync::Arc;

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::assets::client::{ClientData, MapListing};
use crate::command::{Command, Intent, OpenFromClientIntent};
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

impl OpenFromClient {
    /// True while a map is being copied out of the client.
    pub fn is_copying(&self) -> bool {
        self.copying.is_some()
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
}

impl Component for OpenFromClient {
    /// Carries out the dialog's intents with the client (when the client folder is one).
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        let intent = match intent {
            Intent::Command(Command::OpenFromClient) => OpenFromClientIntent::Open,
            Intent::OpenFromClient(i) => i,
            other => return Some(other),
        };
        let client = cx.doc.client_data();
        let message = &mut cx.shell.message;
        match intent {
            OpenFromClientIntent::Open => match client {
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
            OpenFromClientIntent::Map(directory) => {
                if let Some(client) = client {
                    self.start_copy(client, &directory, cx.streams.repaint.clone(), message);
                }
            }
            OpenFromClientIntent::Close => self.dialog = None,
        }
        None
    }

    /// Draws the window when it is up.
    fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut AppCtx) -> Vec<Intent> {
        let Some(d) = &mut self.dialog else {
            return Vec::new();
        };
        ui::dialogs::open_from_client(ui, &d.listing, &mut d.filter)
    }

    /// Once the copy finished: opens the copied map (saying where it came from, unless the
    /// opening had more to say), or says why it could not be copied.
    fn poll(&mut self, cx: &mut AppCtx) -> Vec<Intent> {
        let Some(result) = self.copying.as_ref().and_then(Copying::poll) else {
            return Vec::new();
        };
        let name = self
            .copying
            .take()
            .map(|c| c.map.directory)
            .unwrap_or_default();
        match result {
            Ok(wdt) => {
                cx.open(&wdt);
                cx.then(move |cx| {
                    if cx.doc.session.is_some() && cx.shell.message.is_none() {
                        cx.shell.message = Some(format!(
                            "{name} opened from the client; File > Save as… writes it to a folder"
                        ));
                    }
                });
            }
            Err(e) => cx.say(format!("could not open {name} from the client: {e}")),
        }
        Vec::new()
    }
}
