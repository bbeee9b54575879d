//! Reading tiles from disk on a background thread: the app asks for the tiles near the camera,
//! a worker thread decodes them and hands them back; results for a map that was closed in the
//! meantime are dropped.
//!
//! Not for: deciding which tiles are near (`app::scene::streams`) or decoding (see `pipeline::source`).

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};

use crate::model::{Tile, TileCoord};
use crate::pipeline::source::{NameView, TileSource};

/// How many tiles may be queued or loading at once, so that a fast camera does not queue a
/// backlog of tiles it has already left.
pub const MAX_IN_FLIGHT: usize = 4;

/// One tile to read.
struct Request {
    session: u64,
    coord: TileCoord,
    source: Arc<TileSource>,
}

/// One tile read (or not).
pub struct Loaded {
    /// The session that asked.
    pub session: u64,
    /// Which tile.
    pub coord: TileCoord,
    /// The tile with its view of a 0.5.x map's name lists, or why it could not be read.
    pub result: Result<(Tile, NameView), String>,
}

/// The loader: a worker thread and the requests it has not answered yet.
pub struct TileLoader {
    requests: Option<Sender<Request>>,
    results: Receiver<Loaded>,
    in_flight: BTreeSet<TileCoord>,
    session: u64,
}

impl TileLoader {
    /// Starts the worker; `wake` is called after each tile (the app asks egui to repaint).
    pub fn new(wake: impl Fn() + Send + 'static) -> TileLoader {
        let load = |r: Request| Loaded {
            session: r.session,
            coord: r.coord,
            result: r.source.read(r.coord).map_err(|e| e.to_string()),
        };
        let (requests, results) = super::worker::spawn("loam-tile-loader", load, wake);
        TileLoader {
            // Without a worker thread nothing streams; the tiles loaded on opening still show.
            requests,
            results,
            in_flight: BTreeSet::new(),
            session: 0,
        }
    }

    /// Forgets everything asked for an earlier map; results for it will be dropped.
    pub fn start_session(&mut self, session: u64) {
        self.session = session;
        self.in_flight.clear();
    }

    /// True when `coord` was asked for and has not come back.
    pub fn is_loading(&self, coord: TileCoord) -> bool {
        self.in_flight.contains(&coord)
    }

    /// True when another request fits.
    pub fn has_room(&self) -> bool {
        self.requests.is_some() && self.in_flight.len() < MAX_IN_FLIGHT
    }

    /// Asks for a tile from `source` (the open map's, which knows the generation and depth
    /// the map was decided to be read as).
    pub fn request(&mut self, coord: TileCoord, source: Arc<TileSource>) {
        let Some(tx) = &self.requests else { return };
        let sent = tx.send(Request {
            session: self.session,
            coord,
            source,
        });
        if sent.is_ok() {
            self.in_flight.insert(coord);
        }
    }

    /// The tiles that came back for the current session since the last call.
    pub fn poll(&mut self) -> Vec<Loaded> {
        let mut out = Vec::new();
        while let Ok(l) = self.results.try_recv() {
            if l.session == self.session {
                self.in_flight.remove(&l.coord);
                out.push(l);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_requested_tile_comes_back_and_stale_ones_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        crate::sample::write_sample(dir.path()).unwrap();
        let (tx, rx) = mpsc::channel();
        let mut loader = TileLoader::new(move || {
            let _ = tx.send(());
        });
        let c = TileCoord::new(31, 31).unwrap();
        let source = crate::pipeline::source::open_source(&dir.path().join("Sample.wdt"), None)
            .unwrap()
            .unwrap()
            .tiles;
        let source = Arc::new(source);
        loader.start_session(1);
        loader.request(c, source.clone());
        assert!(loader.is_loading(c));
        rx.recv().unwrap();
        let got = loader.poll();
        assert_eq!(got.len(), 1);
        assert!(got[0].result.as_ref().is_ok_and(|t| t.0.coord == c));
        assert!(!loader.is_loading(c));

        loader.request(c, source);
        loader.start_session(2);
        rx.recv().unwrap();
        assert!(
            loader.poll().is_empty(),
            "a result for a closed map is dropped"
        );
    }
}
