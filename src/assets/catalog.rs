//! The asset browser's catalogue: every known game path sorted into what a map maker picks
//! from (tileset textures, doodad models, WMOs), grouped by folder, filtered by text, and
//! flattened into the rows of a collapsible tree.
//!
//! Built from whatever names are known (the archives' listfiles, the open map's own names,
//! loose files, a user listfile); it holds names only, never bytes.
//!
//! Not for: reading files or drawing (the browser panel does that from the rows).

use std::collections::{BTreeSet, HashMap, HashSet};

use super::client::{display_form, normalise};

/// What a catalogue entry is, as the browser's tabs show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AssetKind {
    /// A terrain texture (`.blp` under `Tileset\`), paintable on the ground.
    Texture,
    /// A doodad model (`.m2`, or `.mdx` as the maps of every generation name them).
    Model,
    /// A world model object's root file (`.wmo`, not its `_NNN.wmo` groups).
    Wmo,
}

impl AssetKind {
    /// Every kind, in tab order.
    pub const ALL: [AssetKind; 3] = [AssetKind::Texture, AssetKind::Model, AssetKind::Wmo];

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            AssetKind::Texture => "Textures",
            AssetKind::Model => "Models",
            AssetKind::Wmo => "WMOs",
        }
    }
}

/// Which kind a game path is, if the browser lists it at all.
pub fn kind_of(game_path: &str) -> Option<AssetKind> {
    let key = normalise(game_path);
    let (stem, ext) = key.rsplit_once('.')?;
    match ext {
        "blp" if key.starts_with("tileset\\") => Some(AssetKind::Texture),
        "m2" | "mdx" => Some(AssetKind::Model),
        "wmo" if !is_wmo_part(stem) => Some(AssetKind::Wmo),
        _ => None,
    }
}

/// A WMO group (`name_000`) or a later client's level-of-detail root (`name_lod1`): not a
/// file one places.
fn is_wmo_part(stem: &str) -> bool {
    let Some((_, tail)) = stem.rsplit_once('_') else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (tail.len() == 3 && digits(tail)) || tail.strip_prefix("lod").is_some_and(digits)
}

/// One listed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The path as shown and as given to the tools (`\` separators, case as first seen).
    pub path: String,
    /// Its comparison key (lower case), what filtering matches against.
    key: String,
    /// Where the folder part of `key` ends (the index of the last `\`, or 0).
    folder_end: usize,
}

impl Entry {
    fn new(path: &str) -> Entry {
        let key = normalise(path);
        let folder_end = key.rfind('\\').unwrap_or(0);
        Entry {
            path: display_form(path),
            key,
            folder_end,
        }
    }

    /// The folders the file sits in, outermost first (keys).
    fn folders(&self) -> impl Iterator<Item = &str> {
        self.key[..self.folder_end]
            .split('\\')
            .filter(|s| !s.is_empty())
    }

    /// The file's name as shown.
    pub fn file_name(&self) -> &str {
        self.path.rsplit('\\').next().unwrap_or(&self.path)
    }
}

/// The names of one kind, sorted folder by folder (a folder's own files before its
/// sub-folders, as file browsers list them).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Entries of each kind.
    by_kind: HashMap<AssetKind, Vec<Entry>>,
}

impl Catalog {
    /// Sorts `names` into the kinds; a name given twice in any spelling is listed once (the
    /// first spelling wins); names of no kind are left out.
    pub fn build<'a>(names: impl IntoIterator<Item = &'a str>) -> Catalog {
        let mut seen = HashSet::new();
        let mut by_kind: HashMap<AssetKind, Vec<Entry>> = HashMap::new();
        for name in names {
            let Some(kind) = kind_of(name) else { continue };
            let entry = Entry::new(name);
            if seen.insert(entry.key.clone()) {
                by_kind.entry(kind).or_default().push(entry);
            }
        }
        for entries in by_kind.values_mut() {
            entries.sort_by(|a, b| {
                a.folders()
                    .cmp(b.folders())
                    .then_with(|| a.key[a.folder_end..].cmp(&b.key[b.folder_end..]))
            });
        }
        Catalog { by_kind }
    }

    /// The entries of one kind, in tree order.
    pub fn entries(&self, kind: AssetKind) -> &[Entry] {
        self.by_kind.get(&kind).map_or(&[], Vec::as_slice)
    }

    /// How many entries of each kind.
    pub fn count(&self, kind: AssetKind) -> usize {
        self.entries(kind).len()
    }

    /// The rows of the tree of `kind`: only entries whose path contains every word of
    /// `filter` (any case, `/` or `\`), inside the folders that are `open` (keys as in
    /// [`Row::Folder`]); with a filter every folder is open, so that matches show.
    pub fn rows(&self, kind: AssetKind, filter: &str, open: &HashSet<String>) -> Vec<Row> {
        let words: Vec<String> = filter
            .split_whitespace()
            .map(|w| w.to_ascii_lowercase().replace('/', "\\"))
            .collect();
        let entries = self.entries(kind);
        let matching: Vec<usize> = (0..entries.len())
            .filter(|&i| words.iter().all(|w| entries[i].key.contains(w.as_str())))
            .collect();
        // Files under each folder (at any depth), for the folder rows' counts.
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for &i in &matching {
            let e = &entries[i];
            for (end, _) in e.key[..e.folder_end].match_indices('\\') {
                *counts.entry(&e.key[..end]).or_default() += 1;
            }
            if e.folder_end > 0 {
                *counts.entry(&e.key[..e.folder_end]).or_default() += 1;
            }
        }
        let all_open = !words.is_empty();
        let mut rows = Vec::new();
        let mut shown: Vec<&str> = Vec::new(); // the folder path of the previous entry
        for &i in &matching {
            let e = &entries[i];
            let folders: Vec<&str> = e.folders().collect();
            let common = shown
                .iter()
                .zip(&folders)
                .take_while(|(a, b)| a == b)
                .count();
            // New folder rows from the first level that differs, while their parents are open.
            let mut visible = (0..common).all(|d| all_open || open.contains(folder_key(e, d)));
            for depth in common..folders.len() {
                if !visible {
                    break;
                }
                let key = folder_key(e, depth);
                let is_open = all_open || open.contains(key);
                rows.push(Row::Folder {
                    key: key.to_string(),
                    name: display_folder(&e.path, depth),
                    depth,
                    files: counts.get(key).copied().unwrap_or(0),
                    open: is_open,
                });
                visible = is_open;
            }
            if visible {
                rows.push(Row::File {
                    index: i,
                    depth: folders.len(),
                });
            }
            shown = folders;
        }
        rows
    }

    /// Every folder key of `kind` (to open or close them all).
    pub fn folders(&self, kind: AssetKind) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for e in self.entries(kind) {
            for d in 0..e.folders().count() {
                out.insert(folder_key(e, d).to_string());
            }
        }
        out
    }
}

/// The key of the folder at `depth` above an entry: its key up to that level.
fn folder_key(e: &Entry, depth: usize) -> &str {
    let mut end = 0;
    for (n, (i, _)) in e.key.match_indices('\\').enumerate() {
        end = i;
        if n == depth {
            break;
        }
    }
    &e.key[..end]
}

/// The shown name of the folder at `depth` of a display path.
fn display_folder(path: &str, depth: usize) -> String {
    path.split('\\').nth(depth).unwrap_or_default().to_string()
}

/// One line of the browser's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A folder: click to open or close it.
    Folder {
        /// Its key (lower-case path), what [`Catalog::rows`]' `open` holds.
        key: String,
        /// Its name as shown.
        name: String,
        /// How deep it sits (0: a top folder).
        depth: usize,
        /// How many matching files it holds at any depth.
        files: usize,
        /// Whether its contents are shown.
        open: bool,
    },
    /// A file: an index into [`Catalog::entries`] of the kind.
    File {
        /// The entry.
        index: usize,
        /// How deep it sits (its folder count).
        depth: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 10] = [
        "Tileset/Elwynn/ElwynnGrass.blp",
        "TILESET\\Elwynn\\elwynngrass.BLP",
        "Tileset\\Elwynn\\ElwynnDirt.blp",
        "Tileset\\Elwynn\\Sub\\Deep.blp",
        "Tileset\\Barrens\\BarrensRock.blp",
        "Textures\\Minimap\\map.blp",
        "World\\Generic\\Tree.mdx",
        "World\\Wmo\\Inn.wmo",
        "World\\Wmo\\Inn_000.wmo",
        "World\\Wmo\\Inn_lod1.wmo",
    ];

    #[test]
    fn names_sort_into_kinds_once_each() {
        let c = Catalog::build(NAMES);
        let paths = |k| {
            c.entries(k)
                .iter()
                .map(|e| e.path.as_str())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            paths(AssetKind::Texture),
            [
                "Tileset\\Barrens\\BarrensRock.blp",
                "Tileset\\Elwynn\\ElwynnDirt.blp",
                "Tileset\\Elwynn\\ElwynnGrass.blp",
                "Tileset\\Elwynn\\Sub\\Deep.blp",
            ]
        );
        assert_eq!(paths(AssetKind::Model), ["World\\Generic\\Tree.mdx"]);
        assert_eq!(paths(AssetKind::Wmo), ["World\\Wmo\\Inn.wmo"]);
    }

    #[test]
    fn the_tree_shows_open_folders_only_and_a_filter_opens_all() {
        let c = Catalog::build(NAMES);
        let closed = c.rows(AssetKind::Texture, "", &HashSet::new());
        assert_eq!(closed.len(), 1, "only the top folder: {closed:?}");
        assert!(
            matches!(&closed[0], Row::Folder { key, files: 4, open: false, .. } if key == "tileset")
        );

        let open: HashSet<String> = ["tileset", "tileset\\elwynn"]
            .map(String::from)
            .into_iter()
            .collect();
        let rows = c.rows(AssetKind::Texture, "", &open);
        let shown: Vec<String> = rows
            .iter()
            .map(|r| match r {
                Row::Folder { name, depth, .. } => format!("{depth}:{name}/"),
                Row::File { index, depth } => {
                    format!(
                        "{depth}:{}",
                        c.entries(AssetKind::Texture)[*index].file_name()
                    )
                }
            })
            .collect();
        assert_eq!(
            shown,
            [
                "0:Tileset/",
                "1:Barrens/",
                "1:Elwynn/",
                "2:ElwynnDirt.blp",
                "2:ElwynnGrass.blp",
                "2:Sub/",
            ]
        );

        let found = c.rows(AssetKind::Texture, "elwynn/ GRASS", &HashSet::new());
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(matches!(found[2], Row::File { depth: 2, .. }));
        assert!(c.rows(AssetKind::Texture, "nothing", &open).is_empty());
        assert_eq!(c.folders(AssetKind::Texture).len(), 4);
    }
}
