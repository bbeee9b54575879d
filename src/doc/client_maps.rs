//! File ▸ Open from client: copies one map's files out of the client's archives into loam's
//! cache folder, on a worker thread, and hands back the WDT to open.
//!
//! Why a copy: every reader of the map (the editor session, `convert`, the tile loader) reads
//! files from a folder, and a map opened from the client is saved elsewhere anyway (Save asks
//! for a folder: loam never writes into the client). The copy holds exactly the files the
//! client would load, found by name (archives without a listfile work too): the WDT, the WDL
//! and every `Name_X_Y.adt` of the 64×64 grid the client serves. A file already in the cache
//! with the same size is not copied again.
//!
//! Not for: listing the maps (`assets::client::maps`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};

use rayon::prelude::*;

use crate::assets::client::{ClientData, ClientMap, wdt_path};

/// The cache folder maps from clients are copied into: `$LOAM_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/loam`, else `~/.cache/loam` (`%LOCALAPPDATA%\loam` on Windows), else
/// the temporary folder.
pub fn cache_root() -> PathBuf {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = var("LOAM_CACHE_DIR") {
        return dir;
    }
    if let Some(dir) = var("XDG_CACHE_HOME").or_else(|| var("LOCALAPPDATA")) {
        return dir.join("loam");
    }
    if let Some(home) = var("HOME") {
        return home.join(".cache").join("loam");
    }
    std::env::temp_dir().join("loam")
}

/// The folder a client's maps are copied under: one per client folder, so that two clients
/// never share copies.
pub fn client_cache(client: &ClientData) -> PathBuf {
    // A stable name from the client's path (FNV-1a: no dependency, stable across runs).
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in client.data_dir().to_string_lossy().bytes() {
        hash = (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    cache_root()
        .join("client-maps")
        .join(format!("{hash:016x}"))
}

/// True when `path` lies in the cache of maps copied from clients (Save then asks for a
/// folder instead of writing there).
pub fn is_client_copy(path: &Path) -> bool {
    path.starts_with(cache_root().join("client-maps"))
}

/// The game paths of one map's files that the client serves.
pub fn map_files(client: &ClientData, directory: &str) -> Vec<String> {
    let wdt = wdt_path(directory);
    let folder = &wdt[..wdt.len() - directory.len() - 5];
    let mut files = vec![wdt.clone(), format!("{folder}\\{directory}.wdl")];
    for y in 0..64 {
        for x in 0..64 {
            files.push(format!("{folder}\\{directory}_{x}_{y}.adt"));
        }
    }
    files.retain(|f| client.served_by(f).is_some());
    files
}

/// Copies the map's files under `into` (at their game paths) and returns the WDT's path on
/// disk. Fails naming the first file that could not be read or written; files already
/// copied stay (they are exact copies).
pub fn copy_map(client: &ClientData, map: &ClientMap, into: &Path) -> Result<PathBuf, String> {
    let files = map_files(client, &map.directory);
    if !files
        .iter()
        .any(|f| f.eq_ignore_ascii_case(&wdt_path(&map.directory)))
    {
        return Err(format!("the client serves no {}", map.wdt));
    }
    let on_disk = |game: &str| -> PathBuf {
        game.split('\\')
            .fold(into.to_path_buf(), |p, part| p.join(part))
    };
    files
        .par_iter()
        .try_for_each(|game| -> Result<(), String> {
            let bytes = client
                .read(game)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("{game}: listed but not served"))?;
            let dest = on_disk(game);
            if std::fs::metadata(&dest).is_ok_and(|m| m.len() == bytes.len() as u64) {
                return Ok(());
            }
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            crate::disk::write_atomic(&dest, &bytes).map_err(|e| e.to_string())
        })?;
    Ok(on_disk(&wdt_path(&map.directory)))
}

/// A copy under way on a worker thread.
pub struct Copying {
    /// The map being copied.
    pub map: ClientMap,
    done: Receiver<Result<PathBuf, String>>,
}

impl Copying {
    /// Starts copying `map` out of `client`; `wake` asks for a repaint when it is done.
    pub fn start(
        client: Arc<ClientData>,
        map: ClientMap,
        wake: impl Fn() + Send + 'static,
    ) -> Copying {
        let (send, done) = mpsc::channel();
        let job = map.clone();
        std::thread::Builder::new()
            .name("loam-client-map".into())
            .spawn(move || {
                let into = client_cache(&client);
                let _ = send.send(copy_map(&client, &job, &into));
                wake();
            })
            .ok();
        Copying { map, done }
    }

    /// The WDT to open (or why not), once the copy is done.
    pub fn poll(&self) -> Option<Result<PathBuf, String>> {
        match self.done.try_recv() {
            Ok(r) => Some(r),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => {
                Some(Err("the copying thread stopped".to_string()))
            }
        }
    }
}
