//! A game client's data: the folder holding `Data/`, its generation, its MPQ archives in the
//! client's own order, per-file wrappers (0.5.x) and loose files, answering "the bytes of this
//! game path" the way the client would.
//!
//! Not for: decoding what is read (BLP, models) or caching decoded assets; the map's own
//! folder on top of the client is [`AssetSource`].

mod area_names;
mod area_table;
mod area_triggers;
mod dbc;
#[cfg(test)]
pub(crate) use dbc::test_table;
mod error;
mod generation;
mod ground_effect_names;
pub mod light_rows;
mod light_tables;
mod liquids;
mod loose;
mod map_table;
mod maps;
mod mpq;
mod order;
mod path;
mod source;
mod stored;

use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{OnceLock, RwLock};

pub use crate::model::table_rows::DbcRows;
pub use area_names::{Area, AreaNames, Zone};
pub use area_table::{AREA_TABLE_DBC, add_areas, read_area_ids};
pub use area_triggers::{AREA_TRIGGER_DBC, AreaTrigger, TriggerRows, TriggerShape};
pub use error::AssetError;
pub use generation::ClientGeneration;
pub use ground_effect_names::{
    GROUND_EFFECT_DOODAD_DBC, GROUND_EFFECT_TEXTURE_DBC, GroundEffect, GroundEffectNames,
};
pub use light_rows::{
    COLOUR_BAND_NAMES, FLOAT_BAND_NAMES, LightPlace, LightTableRows, MAX_BAND_KEYS,
};
pub use light_tables::{
    BandRow, LIGHT_DBC, LIGHT_FLOAT_BAND_DBC, LIGHT_INT_BAND_DBC, LIGHT_PARAMS_DBC,
    LIGHT_SKYBOX_DBC, LightRow, LightTables,
};
pub use liquids::{
    CLASSIC_PATTERNS, CLASSIC_TEXTURES, ClientLiquid, LIQUID_FRAME_MS, LIQUID_FRAMES,
    LIQUID_TYPE_DBC, frame_path, frame_paths, kind_patterns, kind_textures, liquid_frame,
    read_liquid_table,
};
pub use loose::LooseIndex;
pub use map_table::{MapEntry, MapRowOutcome, add_map};
pub use maps::{ClientMap, MAP_DBC, MapListing, MapNames, MapRow, read_map_table, wdt_path};
pub use mpq::{Mpq, name_key};
pub use order::{ArchiveKind, archive_stack_with};
pub use path::{display_form, glob_match, normalise};
pub use source::AssetSource;

use error::io_err;

/// The locale folder of a `Data` folder (`Data/enUS`, the one holding `locale-enUS.MPQ` or
/// `patch-enUS.MPQ`) and its locale code, when the client has one (2.4.3 and 3.3.5).
pub fn locale_dir(data_dir: &Path) -> Option<(String, PathBuf)> {
    order::locale_folder(&order::list_folder(data_dir))
}

/// One archive of the client, for listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveInfo {
    /// The archive file.
    pub path: PathBuf,
    /// Files in its hash table (deletion markers not counted); 1 for a per-file wrapper.
    pub files: usize,
    /// Its role in the stack.
    pub kind: ArchiveKind,
}

/// Where a game path is served from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// An archive of the client's stack (or a 0.5.x per-file wrapper).
    Archive {
        /// The archive file.
        path: PathBuf,
        /// Its role.
        kind: ArchiveKind,
    },
    /// A loose file under the client's `Data` folder.
    Loose(PathBuf),
    /// A file in the open map's folder.
    MapFolder(PathBuf),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Archive { path, kind } => write!(f, "{} ({kind})", path.display()),
            Self::Loose(p) => write!(f, "{} (loose)", p.display()),
            Self::MapFolder(p) => write!(f, "{} (map folder)", p.display()),
        }
    }
}

/// Which archive entry serves a name hash.
#[derive(Debug, Clone, Copy)]
enum Served {
    Archive {
        archive: u32,
        block: u32,
    },
    /// A later patch's deletion marker hides the file.
    Deleted,
    /// A 0.5.x per-file wrapper (index into `wrappers`).
    Wrapper(u32),
}

/// The index keys are MPQ name hashes already; hashing them again would only cost time.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type KeyMap = HashMap<u64, Served, BuildHasherDefault<KeyHasher>>;

/// An opened client folder. `Send + Sync`: share it in an `Arc` with worker threads.
#[derive(Debug)]
pub struct ClientData {
    data_dir: PathBuf,
    generation: ClientGeneration,
    mpqs: Vec<(Mpq, ArchiveKind)>,
    wrappers: Vec<(String, PathBuf)>,
    infos: Vec<ArchiveInfo>,
    index: KeyMap,
    loose: Option<LooseIndex>,
    listed: OnceLock<Vec<String>>,
    added_names: RwLock<Vec<String>>,
    skipped: Vec<AssetError>,
}

impl std::fmt::Debug for KeyHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyHasher")
    }
}

/// The files under `root` by their game path below it (an extracted client, a map's folder).
pub fn walk_loose(root: &Path) -> LooseIndex {
    loose::walk(root).loose
}

/// Whether a generation's client reads loose files under `Data/` (docs/client-data.md).
fn honours_loose_files(g: &ClientGeneration) -> bool {
    matches!(
        g,
        ClientGeneration::Alpha | ClientGeneration::V060 | ClientGeneration::V112
    )
}

/// The `Data` folder for `dir`: `dir` itself when it is named `Data` (any case), else its
/// child of that name.
pub fn find_data_dir(dir: &Path) -> Result<PathBuf, AssetError> {
    let meta = std::fs::metadata(dir).map_err(io_err(dir))?;
    if !meta.is_dir() {
        return Err(AssetError::NotAClient {
            dir: dir.to_path_buf(),
            reason: "not a folder".into(),
        });
    }
    if dir
        .file_name()
        .is_some_and(|n| n.eq_ignore_ascii_case("data"))
    {
        return Ok(dir.to_path_buf());
    }
    order::list_folder(dir)
        .remove("data")
        .filter(|p| p.is_dir())
        .ok_or_else(|| AssetError::NotAClient {
            dir: dir.to_path_buf(),
            reason: "no Data folder here (give the game folder or its Data folder)".into(),
        })
}

/// A 0.5.x wrapper's name: `Azeroth.wdt.MPQ` wraps `Azeroth.wdt` (an extension before
/// `.mpq`); `model.MPQ` does not.
fn wrapped_path(archive_game_path: &str) -> Option<&str> {
    let stem = archive_game_path.get(..archive_game_path.len().checked_sub(4)?)?;
    path::plain_name(stem).contains('.').then_some(stem)
}

impl ClientData {
    /// Opens a game folder (the one holding `Data/`) or its `Data/` folder: tells the
    /// generation, opens the archives in the client's order and indexes every name they hold.
    pub fn open(dir: &Path) -> Result<ClientData, AssetError> {
        Self::open_reading(dir, &|_, _| true, true)
    }

    /// The client as a program that reads only some of its archives and no loose files sees
    /// it: the servers' map extractors open a fixed list of archives (`pipeline::server_data`).
    /// `keep` says, for each archive of the client's stack, whether that program opens it.
    pub fn open_archives_only(
        dir: &Path,
        keep: &dyn Fn(&Path, ArchiveKind) -> bool,
    ) -> Result<ClientData, AssetError> {
        Self::open_reading(dir, keep, false)
    }

    /// [`open`](Self::open) with the archives `keep` allows, and loose files when `loose`.
    fn open_reading(
        dir: &Path,
        keep: &dyn Fn(&Path, ArchiveKind) -> bool,
        loose: bool,
    ) -> Result<ClientData, AssetError> {
        let data_dir = find_data_dir(dir)?;
        let top: BTreeSet<String> = order::list_folder(&data_dir)
            .into_keys()
            .filter(|n| n.ends_with(".mpq"))
            .collect();
        let modern = [
            "common.mpq",
            "common-2.mpq",
            "expansion.mpq",
            "lichking.mpq",
        ]
        .iter()
        .any(|n| top.contains(*n));
        // Only the vanilla-era layouts need the walk: for loose files and 0.5.x wrappers.
        let walk = if modern {
            loose::Walk::default()
        } else {
            loose::walk(&data_dir)
        };
        let wrappers: Vec<(String, PathBuf)> = walk
            .archives
            .into_iter()
            .filter_map(|(game, p)| Some((display_form(wrapped_path(&game)?), p)))
            .collect();
        let generation = generation::detect(&top, !wrappers.is_empty());
        let wrappers = if generation == ClientGeneration::Alpha {
            wrappers
        } else {
            Vec::new()
        };

        let mut mpqs = Vec::new();
        let mut infos = Vec::new();
        let mut index = KeyMap::default();
        let stack: Vec<_> = order::archive_stack(&generation, &data_dir)
            .into_iter()
            .filter(|(p, kind)| keep(p, *kind))
            .collect();
        let mut skipped = Vec::new();
        for (path, kind) in stack {
            // One damaged archive (a half-downloaded custom patch) must not hide the rest of
            // the client: it is skipped and reported, unless nothing else opens.
            let mpq = match Mpq::open(&path) {
                Ok(m) => m,
                Err(e) => {
                    skipped.push(e);
                    continue;
                }
            };
            let archive = mpqs.len() as u32;
            for e in mpq.entries() {
                let served = if e.deleted {
                    Served::Deleted
                } else {
                    Served::Archive {
                        archive,
                        block: e.block,
                    }
                };
                index.insert(e.key, served);
            }
            infos.push(ArchiveInfo {
                path,
                files: mpq.file_count(),
                kind,
            });
            mpqs.push((mpq, kind));
        }
        for (i, (game, p)) in wrappers.iter().enumerate() {
            index.insert(name_key(game), Served::Wrapper(i as u32));
            infos.push(ArchiveInfo {
                path: p.clone(),
                files: 1,
                kind: ArchiveKind::PerFile,
            });
        }
        if mpqs.is_empty()
            && wrappers.is_empty()
            && let Some(first) = skipped.drain(..).next()
        {
            return Err(first);
        }
        let loose = (loose && honours_loose_files(&generation)).then_some(walk.loose);
        Ok(ClientData {
            data_dir,
            generation,
            mpqs,
            wrappers,
            infos,
            index,
            loose,
            listed: OnceLock::new(),
            added_names: RwLock::new(Vec::new()),
            skipped,
        })
    }

    /// The client generation told from the folder.
    pub fn generation(&self) -> &ClientGeneration {
        &self.generation
    }

    /// The `Data` folder.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The archives that could not be opened and were left out, with why.
    pub fn skipped(&self) -> &[AssetError] {
        &self.skipped
    }

    /// The archives in priority order (the last one wins), per-file wrappers last.
    pub fn archives(&self) -> &[ArchiveInfo] {
        &self.infos
    }

    /// The loose files the client honours, when it honours any.
    pub fn loose_files(&self) -> Option<&LooseIndex> {
        self.loose.as_ref()
    }

    fn lookup(&self, game_path: &str) -> Option<(String, Lookup<'_>)> {
        let key = normalise(game_path);
        if key.is_empty() {
            return None;
        }
        if let Some(p) = self.loose.as_ref().and_then(|l| l.get_normalised(&key)) {
            return Some((key, Lookup::Loose(p)));
        }
        let found = match *self.index.get(&name_key(&key))? {
            Served::Deleted => return None,
            Served::Archive { archive, block } => {
                Lookup::Archive(&self.mpqs[archive as usize], block)
            }
            Served::Wrapper(w) => Lookup::Wrapper(&self.wrappers[w as usize].1),
        };
        Some((key, found))
    }

    /// The bytes the client would load for `game_path` (any case, `/` or `\`): `Ok(None)`
    /// when no archive or honoured loose file has it, `Err` when it is there but unreadable.
    pub fn read(&self, game_path: &str) -> Result<Option<Vec<u8>>, AssetError> {
        let Some((key, found)) = self.lookup(game_path) else {
            return Ok(None);
        };
        let name = display_form(game_path);
        match found {
            Lookup::Loose(p) => std::fs::read(p).map(Some).map_err(io_err(p)),
            Lookup::Archive((mpq, _), block) => mpq.read_block(block, &name).map(Some),
            Lookup::Wrapper(p) => {
                let mpq = Mpq::open(p)?;
                // The payload's name inside a wrapper is not known for certain: try the full
                // path and the plain name, then take the largest block (the other is an MD5).
                let block = mpq
                    .find(&key)
                    .or_else(|| mpq.find(path::plain_name(&key)))
                    .or_else(|| mpq.largest_block());
                match block {
                    Some(b) => mpq.read_block(b, &name).map(Some),
                    None => Err(AssetError::BadArchive {
                        archive: p.to_path_buf(),
                        reason: format!("per-file wrapper of {name} holds no file"),
                    }),
                }
            }
        }
    }

    /// Which archive or loose file serves `game_path`, if any.
    pub fn served_by(&self, game_path: &str) -> Option<Origin> {
        Some(match self.lookup(game_path)?.1 {
            Lookup::Loose(p) => Origin::Loose(p.to_path_buf()),
            Lookup::Archive((mpq, kind), _) => Origin::Archive {
                path: mpq.path().to_path_buf(),
                kind: *kind,
            },
            Lookup::Wrapper(p) => Origin::Archive {
                path: p.to_path_buf(),
                kind: ArchiveKind::PerFile,
            },
        })
    }

    /// Adds the names of a listfile (one game path a line) to [`names`](Self::names); returns
    /// how many lines it held.
    pub fn add_listfile(&self, listfile: &Path) -> Result<usize, AssetError> {
        let text = std::fs::read(listfile).map_err(io_err(listfile))?;
        let lines: Vec<String> = String::from_utf8_lossy(&text)
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        let n = lines.len();
        match self.added_names.write() {
            Ok(mut names) => names.extend(lines),
            Err(poisoned) => poisoned.into_inner().extend(lines),
        }
        Ok(n)
    }

    /// Every known game path that the client serves: the archives' listfiles, per-file
    /// wrappers, honoured loose files and added listfiles, one spelling per path
    /// (case-insensitively), sorted. Files in archives without a listfile appear only when a
    /// listfile names them; they are served by name all the same.
    pub fn names(&self) -> Vec<String> {
        let listed = self.listed.get_or_init(|| {
            self.mpqs
                .iter()
                .filter_map(|(m, _)| m.listfile())
                .flatten()
                .chain(self.wrappers.iter().map(|(n, _)| n.clone()))
                .collect()
        });
        let added = match self.added_names.read() {
            Ok(a) => a.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        let loose = self.loose.iter().flat_map(|l| l.names());
        let mut by_key: HashMap<String, String> = HashMap::new();
        for name in listed
            .iter()
            .map(String::as_str)
            .chain(added.iter().map(String::as_str))
            .chain(loose)
        {
            let key = normalise(name);
            if key.is_empty() || key.starts_with('(') {
                continue;
            }
            let spelled = display_form(name);
            by_key
                .entry(key)
                .and_modify(|kept| {
                    if !is_readable(kept) && is_readable(&spelled) {
                        *kept = spelled.clone();
                    }
                })
                .or_insert(spelled);
        }
        let mut out: Vec<String> = by_key
            .into_iter()
            .filter(|(k, _)| self.lookup(k).is_some())
            .map(|(_, v)| v)
            .collect();
        out.sort_by_key(|n| n.to_ascii_lowercase());
        out
    }
}

/// Mixed case reads better than the all-upper or all-lower spellings some listfiles use.
fn is_readable(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase()) && name.chars().any(|c| c.is_ascii_lowercase())
}

enum Lookup<'a> {
    Loose(&'a Path),
    Archive(&'a (Mpq, ArchiveKind), u32),
    Wrapper(&'a Path),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_data_is_shareable_across_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<ClientData>();
        shareable::<AssetSource>();
    }

    #[test]
    fn wrapper_names() {
        assert_eq!(
            wrapped_path("World\\Maps\\Azeroth\\Azeroth.wdt.MPQ"),
            Some("World\\Maps\\Azeroth\\Azeroth.wdt")
        );
        assert_eq!(wrapped_path("model.MPQ"), None);
        assert_eq!(wrapped_path("x"), None);
    }

    #[test]
    fn data_folder_is_found_in_any_case() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("DATA")).unwrap();
        assert_eq!(find_data_dir(dir.path()).unwrap(), dir.path().join("DATA"));
        assert_eq!(
            find_data_dir(&dir.path().join("DATA")).unwrap(),
            dir.path().join("DATA")
        );
        let empty = tempfile::tempdir().unwrap();
        assert!(matches!(
            find_data_dir(empty.path()),
            Err(AssetError::NotAClient { .. })
        ));
    }
}
