//! Layer textures off the UI thread: the app asks for the texture paths of the tiles it draws,
//! a worker thread reads their bytes through a pluggable `ByteSource`, decodes them and makes
//! their mip chains, and hands them back; results for an earlier map or source are dropped.
//! Until a texture arrives (and for good when it is missing) its tiles show the procedural
//! stand-in.
//!
//! Not for: GL (the renderer's texture store) or where bytes come from (`assets::textures`).

use std::collections::{BTreeMap, HashSet};
use std::sync::mpsc::{Receiver, Sender};

use crate::assets::textures::{ByteSource, load_texture};
use crate::render::texture_store::{mip_chain, texture_key};

/// One texture to read.
struct Request {
    session: u64,
    name: String,
    source: ByteSource,
}

/// A texture ready for the GPU: the path as the tile names it and its square mip chain.
pub struct Decoded {
    /// The game path.
    pub name: String,
    /// Level 0 first, down to 1×1.
    pub levels: Vec<Vec<u8>>,
}

/// What the worker answered for one path.
struct Answer {
    session: u64,
    name: String,
    result: Result<Option<Decoded>, String>,
}

/// Reads, decodes and prepares one texture (what the worker does per request).
fn prepare(source: &ByteSource, name: &str) -> Result<Option<Decoded>, String> {
    Ok(load_texture(source, name)?.map(|(side, rgba)| Decoded {
        name: name.to_string(),
        levels: mip_chain(side, rgba),
    }))
}

/// The worker thread and what the app knows about each path of the open map.
pub struct TextureLoader {
    requests: Option<Sender<Request>>,
    results: Receiver<Answer>,
    session: u64,
    source: Option<ByteSource>,
    /// Keys asked for and not answered yet.
    in_flight: HashSet<String>,
    /// Keys answered, in any way.
    answered: HashSet<String>,
    /// Paths with no file (key → path as first named).
    missing: BTreeMap<String, String>,
    /// Paths that exist but failed to read or decode (key → message).
    failed: BTreeMap<String, String>,
}

impl TextureLoader {
    /// Starts the worker; `wake` is called after each texture (the app asks egui to repaint).
    pub fn new(wake: impl Fn() + Send + 'static) -> TextureLoader {
        let answer = |r: Request| Answer {
            result: prepare(&r.source, &r.name),
            session: r.session,
            name: r.name,
        };
        let (requests, results) = super::worker::spawn("loam-texture-loader", answer, wake);
        TextureLoader {
            // Without a worker every texture keeps its stand-in.
            requests,
            results,
            session: 0,
            source: None,
            in_flight: HashSet::new(),
            answered: HashSet::new(),
            missing: BTreeMap::new(),
            failed: BTreeMap::new(),
        }
    }

    /// Starts over with a new map or byte source: forgets every answer; answers still coming
    /// for the old source are dropped.
    pub fn start(&mut self, source: ByteSource) {
        self.session += 1;
        self.source = Some(source);
        self.in_flight.clear();
        self.answered.clear();
        self.missing.clear();
        self.failed.clear();
    }

    /// Asks for every path of `names` not asked for yet in this session.
    pub fn want<'a>(&mut self, names: impl IntoIterator<Item = &'a String>) {
        let (Some(tx), Some(source)) = (&self.requests, &self.source) else {
            return;
        };
        for name in names {
            let key = texture_key(name);
            if self.in_flight.contains(&key) || self.answered.contains(&key) {
                continue;
            }
            let sent = tx.send(Request {
                session: self.session,
                name: name.clone(),
                source: source.clone(),
            });
            if sent.is_ok() {
                self.in_flight.insert(key);
            }
        }
    }

    /// True when nothing asked for is still being read (a screenshot may be taken).
    pub fn is_settled(&self) -> bool {
        self.in_flight.is_empty() || self.requests.is_none()
    }

    /// The textures that arrived for this session since the last call; missing and failed
    /// paths are noted for `status`.
    pub fn poll(&mut self) -> Vec<Decoded> {
        let mut out = Vec::new();
        while let Ok(a) = self.results.try_recv() {
            if a.session != self.session {
                continue;
            }
            let key = texture_key(&a.name);
            self.in_flight.remove(&key);
            self.answered.insert(key.clone());
            match a.result {
                Ok(Some(d)) => out.push(d),
                Ok(None) => {
                    self.missing.insert(key, a.name);
                }
                Err(e) => {
                    self.failed.insert(key, e);
                }
            }
        }
        out
    }

    /// Textures the map asks for that were not found (drawn as their stand-in).
    pub fn missing_count(&self) -> usize {
        self.missing.len()
    }

    /// The status bar's line about textures without a real one, if there are any:
    /// "3 textures not found: Tileset\A.blp, …" and how many could not be decoded.
    pub fn status(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.missing.is_empty() {
            let names: Vec<&str> = self.missing.values().take(3).map(String::as_str).collect();
            let more = if self.missing.len() > 3 { ", …" } else { "" };
            parts.push(format!(
                "{} texture{} not found: {}{more}",
                self.missing.len(),
                if self.missing.len() == 1 { "" } else { "s" },
                names.join(", ")
            ));
        }
        if let Some(first) = self.failed.values().next() {
            parts.push(format!(
                "{} texture{} unreadable ({first})",
                self.failed.len(),
                if self.failed.len() == 1 { "" } else { "s" },
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::blp::{Image, encode_raw};
    use std::sync::Arc;
    use std::sync::mpsc;

    fn source() -> ByteSource {
        Arc::new(|name: &str| match name {
            "Tileset\\Red.blp" => Ok(Some(encode_raw(&Image {
                width: 256,
                height: 256,
                rgba: [200, 10, 10, 255].repeat(256 * 256),
            }))),
            "Tileset\\Broken.blp" => Ok(Some(b"BLP2 nonsense".to_vec())),
            "Tileset\\Unreadable.blp" => Err("disk on fire".into()),
            _ => Ok(None),
        })
    }

    /// A loader started on [`source`], and the channel its wake-ups arrive on.
    fn started() -> (TextureLoader, mpsc::Receiver<()>) {
        let (tx, woke) = mpsc::channel();
        let mut loader = TextureLoader::new(move || {
            let _ = tx.send(());
        });
        loader.start(source());
        (loader, woke)
    }

    /// Polls until nothing is in flight, waiting on the wake-up channel.
    fn drain(loader: &mut TextureLoader, woke: &mpsc::Receiver<()>) -> Vec<Decoded> {
        let mut got = Vec::new();
        while !loader.is_settled() {
            woke.recv().unwrap();
            got.extend(loader.poll());
        }
        got
    }

    #[test]
    fn textures_come_back_decoded_and_missing_ones_are_reported() {
        let (mut loader, woke) = started();
        let names: Vec<String> = [
            "Tileset\\Red.blp",
            "TILESET/red.blp", // the same texture, spelled otherwise: asked once
            "Tileset\\Gone.blp",
            "Tileset\\Broken.blp",
            "Tileset\\Unreadable.blp",
        ]
        .map(String::from)
        .to_vec();
        loader.want(&names);
        assert!(!loader.is_settled());
        let got = drain(&mut loader, &woke);
        assert_eq!(got.len(), 1, "one real texture");
        assert_eq!(got[0].name, "Tileset\\Red.blp");
        assert_eq!(got[0].levels.len(), 9, "256 down to 1");
        assert_eq!(&got[0].levels[0][..4], &[200, 10, 10, 255]);
        assert_eq!(got[0].levels[8], vec![200, 10, 10, 255]);
        let status = loader.status().unwrap();
        assert!(
            status.starts_with("1 texture not found: Tileset\\Gone.blp"),
            "{status}"
        );
        assert!(status.contains("2 textures unreadable"), "{status}");
        // Asking again for answered paths asks nothing.
        loader.want(&names);
        assert!(loader.is_settled());
    }

    #[test]
    fn results_for_an_earlier_session_are_dropped() {
        let (mut loader, woke) = started();
        loader.want(&["Tileset\\Red.blp".to_string()]);
        loader.start(source());
        woke.recv().unwrap();
        assert!(
            loader.poll().is_empty(),
            "the answer for the first source is dropped"
        );
        assert!(loader.status().is_none());
        // The new session asks again and gets it.
        loader.want(&["Tileset\\Red.blp".to_string()]);
        assert_eq!(drain(&mut loader, &woke).len(), 1);
    }
}
