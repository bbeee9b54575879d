//! The asset browser's state: the catalogue of names (built on a worker thread from the
//! client's listfiles, the open map's names, loose and extracted files and the user's
//! listfile), the tab, filter and open folders, the rows the panel shows, and texture
//! thumbnails decoded on a second worker, newest request first.
//!
//! Not for: widgets (`ui::asset_browser`) or where bytes come from (`doc::client`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex};

use crate::assets::blp;
use crate::assets::catalog::{AssetKind, Catalog, Row};
use crate::assets::client::LooseIndex;
use crate::assets::textures::{ByteSource, resample};

/// The side of a thumbnail in pixels.
pub const THUMB_SIDE: usize = 64;
/// Requests waiting at most; older ones (rows scrolled past) are dropped first.
const QUEUE_LIMIT: usize = 128;
/// Thumbnails kept at most (16 KiB of GPU memory each); past it the cache starts over with
/// what is on screen.
const CACHE_LIMIT: usize = 2048;

pub use crate::ui::asset_browser::Thumb;

/// The thumbnail worker's shared queue: paths to decode (newest last) and the source.
#[derive(Default)]
struct Queue {
    generation: u64,
    wanted: Vec<String>,
    source: Option<ByteSource>,
    closed: bool,
}

type Decoded = (u64, String, Result<Vec<u8>, String>);

/// Decodes thumbnails off the UI thread.
struct ThumbnailWorker {
    queue: Arc<(Mutex<Queue>, Condvar)>,
    results: Receiver<Decoded>,
}

impl ThumbnailWorker {
    fn new(wake: impl Fn() + Send + 'static) -> ThumbnailWorker {
        let queue: Arc<(Mutex<Queue>, Condvar)> = Arc::default();
        let (send, results) = mpsc::channel();
        let shared = queue.clone();
        std::thread::Builder::new()
            .name("loam-thumbnails".into())
            .spawn(move || {
                loop {
                    let (generation, name, source) = {
                        let (lock, ready) = &*shared;
                        let Ok(mut q) = lock.lock() else { return };
                        loop {
                            if q.closed {
                                return;
                            }
                            if let (Some(name), Some(source)) = (q.wanted.last(), &q.source) {
                                let job = (q.generation, name.clone(), source.clone());
                                q.wanted.pop();
                                break job;
                            }
                            q = match ready.wait(q) {
                                Ok(q) => q,
                                Err(_) => return,
                            };
                        }
                    };
                    let result = thumbnail(&source, &name);
                    if send.send((generation, name, result)).is_err() {
                        return;
                    }
                    wake();
                }
            })
            .ok();
        ThumbnailWorker { queue, results }
    }

    fn with_queue(&self, f: impl FnOnce(&mut Queue)) {
        let (lock, ready) = &*self.queue;
        if let Ok(mut q) = lock.lock() {
            f(&mut q);
            ready.notify_one();
        }
    }
}

impl Drop for ThumbnailWorker {
    fn drop(&mut self) {
        self.with_queue(|q| q.closed = true);
    }
}

/// Reads and shrinks one texture to a thumbnail.
pub fn thumbnail(source: &ByteSource, name: &str) -> Result<Vec<u8>, String> {
    let bytes = source(name)?.ok_or_else(|| format!("{name}: not found"))?;
    let image = blp::decode(&bytes).map_err(|e| format!("{name}: {e}"))?;
    Ok(resample(&image, THUMB_SIDE))
}

/// Where the browser's names come from (gathered on the UI thread, cheap; joined and sorted
/// on the worker).
#[derive(Default)]
pub struct NameSources {
    /// The opened client, whose listfiles, per-file wrappers and honoured loose files count.
    pub client: Option<Arc<crate::assets::client::ClientData>>,
    /// Folders whose files count by their path below the folder (the map's own folder, an
    /// extracted client).
    pub folders: Vec<PathBuf>,
    /// Names the open map references (textures, doodads, WMOs).
    pub map_names: Vec<String>,
    /// The user's listfile (Settings ▸ Listfile), one game path a line.
    pub listfile: Option<PathBuf>,
}

impl NameSources {
    /// Every name, any spelling, duplicates included (the catalogue keeps one); a listfile
    /// that cannot be read is reported, the rest still counts.
    pub fn gather(self) -> (Vec<String>, Option<String>) {
        let mut names = self.map_names;
        if let Some(c) = &self.client {
            names.extend(c.names());
        }
        for folder in &self.folders {
            names.extend(folder_names(folder));
        }
        let mut problem = None;
        if let Some(list) = &self.listfile {
            match std::fs::read(list) {
                Ok(text) => names.extend(
                    String::from_utf8_lossy(&text)
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(str::to_string),
                ),
                Err(e) => problem = Some(format!("listfile {}: {e}", list.display())),
            }
        }
        (names, problem)
    }
}

/// The game paths of the files under `folder`.
fn folder_names(folder: &Path) -> Vec<String> {
    let index: LooseIndex = crate::assets::client::walk_loose(folder);
    index.names().map(str::to_string).collect()
}

/// The thumbnails decoded so far, those asked for, and the worker decoding them; `generation`
/// counts restarts, so that a late answer for the previous map is dropped.
struct Thumbnails {
    thumbs: HashMap<String, Thumb>,
    asked: HashSet<String>,
    worker: ThumbnailWorker,
    generation: u64,
}

/// The browser.
pub struct AssetBrowser {
    /// The tab shown.
    pub kind: AssetKind,
    /// The filter text.
    pub filter: String,
    /// Folders opened (keys).
    pub open: HashSet<String>,
    /// The file last clicked.
    pub selected: Option<(AssetKind, String)>,
    catalog: Arc<Catalog>,
    building: Option<Receiver<(Catalog, Option<String>)>>,
    /// Why a name source failed, if one did.
    pub problem: Option<String>,
    rows: Vec<Row>,
    rows_stale: bool,
    thumbnails: Thumbnails,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl AssetBrowser {
    /// An empty browser; `wake` asks for a repaint when a worker has something.
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> AssetBrowser {
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(wake);
        let w = wake.clone();
        AssetBrowser {
            kind: AssetKind::Texture,
            filter: String::new(),
            open: HashSet::new(),
            selected: None,
            catalog: Arc::default(),
            building: None,
            problem: None,
            rows: Vec::new(),
            rows_stale: true,
            thumbnails: Thumbnails {
                thumbs: HashMap::new(),
                asked: HashSet::new(),
                worker: ThumbnailWorker::new(move || w()),
                generation: 0,
            },
            wake,
        }
    }

    /// Starts over for a new map or client: rebuilds the catalogue from `names` on a worker
    /// and reads thumbnails through `source`.
    pub fn restart(&mut self, names: NameSources, source: ByteSource) {
        self.thumbnails.generation += 1;
        let generation = self.thumbnails.generation;
        self.thumbnails.thumbs.clear();
        self.thumbnails.asked.clear();
        self.thumbnails.worker.with_queue(|q| {
            q.generation = generation;
            q.wanted.clear();
            q.source = Some(source);
        });
        let (send, recv) = mpsc::channel();
        let wake = self.wake.clone();
        std::thread::Builder::new()
            .name("loam-catalogue".into())
            .spawn(move || {
                let (names, problem) = names.gather();
                let catalog = Catalog::build(names.iter().map(String::as_str));
                let _ = send.send((catalog, problem));
                wake();
            })
            .ok();
        self.building = Some(recv);
    }

    /// True while the catalogue is being built.
    pub fn is_building(&self) -> bool {
        self.building.is_some()
    }

    /// The catalogue.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Takes in what the workers finished: the catalogue, and thumbnails (uploaded to egui).
    pub fn poll(&mut self, ctx: &egui::Context) {
        if let Some(recv) = &self.building
            && let Ok((catalog, problem)) = recv.try_recv()
        {
            self.catalog = Arc::new(catalog);
            self.problem = problem;
            self.building = None;
            self.rows_stale = true;
        }
        while let Ok((generation, name, result)) = self.thumbnails.worker.results.try_recv() {
            if generation != self.thumbnails.generation {
                continue;
            }
            let thumb = match result {
                Ok(rgba) => Thumb::Ready(ctx.load_texture(
                    format!("thumb:{name}"),
                    egui::ColorImage::from_rgba_unmultiplied([THUMB_SIDE, THUMB_SIDE], &rgba),
                    egui::TextureOptions::LINEAR,
                )),
                Err(why) => Thumb::Missing(why),
            };
            self.thumbnails.thumbs.insert(name, thumb);
        }
    }

    /// Asks for the thumbnails of `paths` (the rows on screen), newest first.
    pub fn want_thumbnails(&mut self, paths: Vec<String>) {
        let new: Vec<String> = paths
            .into_iter()
            .filter(|p| !self.thumbnails.asked.contains(p))
            .collect();
        if new.is_empty() {
            return;
        }
        if self.thumbnails.thumbs.len() > CACHE_LIMIT {
            self.thumbnails.thumbs.clear();
            self.thumbnails.asked.clear();
        }
        self.thumbnails.asked.extend(new.iter().cloned());
        let dropped = std::cell::RefCell::new(Vec::new());
        self.thumbnails.worker.with_queue(|q| {
            // Popped from the end: the first row on screen is decoded first.
            q.wanted.extend(new.into_iter().rev());
            if q.wanted.len() > QUEUE_LIMIT {
                let excess = q.wanted.len() - QUEUE_LIMIT;
                dropped.borrow_mut().extend(q.wanted.drain(..excess));
            }
        });
        for p in dropped.into_inner() {
            // Scrolled past before its turn: ask again when it shows.
            self.thumbnails.asked.remove(&p);
        }
    }

    /// A path's thumbnail, if answered.
    pub fn thumbnail(&self, path: &str) -> Option<&Thumb> {
        self.thumbnails.thumbs.get(path)
    }

    /// How many thumbnails are ready (tests and screenshots wait for them).
    pub fn thumbnails_ready(&self) -> usize {
        self.thumbnails
            .thumbs
            .values()
            .filter(|t| matches!(t, Thumb::Ready(_)))
            .count()
    }

    /// True when every thumbnail asked for has been answered.
    pub fn thumbnails_settled(&self) -> bool {
        self.thumbnails
            .asked
            .iter()
            .all(|p| self.thumbnails.thumbs.contains_key(p))
    }

    /// Recomputes the rows when the tab, filter, open folders or catalogue changed.
    pub fn refresh(&mut self) {
        if self.rows_stale {
            self.rows = self.catalog.rows(self.kind, &self.filter, &self.open);
            self.rows_stale = false;
        }
    }

    /// The rows of the current tab, filter and open folders (as of the last
    /// [`refresh`](Self::refresh)).
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// What the panel shows of the browser.
    pub fn view(&self) -> crate::ui::asset_browser::BrowserView<'_> {
        crate::ui::asset_browser::BrowserView {
            catalog: &self.catalog,
            kind: self.kind,
            filter: &self.filter,
            building: self.is_building(),
            problem: self.problem.as_deref(),
            rows: &self.rows,
            selected: self.selected.as_ref().map(|(_, p)| p.as_str()),
            thumbs: &self.thumbnails.thumbs,
        }
    }

    /// Shows another tab.
    pub fn set_kind(&mut self, kind: AssetKind) {
        self.kind = kind;
        self.rows_stale = true;
    }

    /// Sets the filter text.
    pub fn set_filter(&mut self, filter: String) {
        self.filter = filter;
        self.rows_stale = true;
    }

    /// Opens or closes a folder.
    pub fn toggle_folder(&mut self, key: String) {
        if !self.open.remove(&key) {
            self.open.insert(key);
        }
        self.rows_stale = true;
    }
}
