//! What the servers' map extractors see of a client: which of its archives they open, and
//! which of a packed map's parts (its files, its Map.dbc row, its AreaTable rows) they would
//! therefore miss.
//!
//! The extractors open a fixed list of archives, not the client's whole stack (the lists and
//! their sources: `pipeline::server_data`, docs/new-world.md). A map maker who packs a map
//! into a client and then runs the extractor on that client gets no map, silently, when any
//! part of it lies in an archive beyond the list; [`unseen_by_extractors`] finds such parts by
//! reading the client twice, as the client does and as the extractor does, so that the pack and
//! `loam check --client` can say so and name the mend (`loam server-data`).
//!
//! Not for: writing the server's copy (`pipeline::server_data`) or the client's tables
//! (`pipeline::tables`).

use std::path::{Path, PathBuf};

use crate::assets::client::{
    AREA_TABLE_DBC, ArchiveKind, ClientData, ClientGeneration, MAP_DBC, locale_dir, read_area_ids,
    read_map_table, wdt_path,
};
use crate::disk::{LoamError, Result};
use crate::format::Generation;

/// The base patches the 1.12 servers' extractors read, in load order (vmangos's and cMaNGOS
/// classic's `contrib/extractor/System.cpp`).
pub const EXTRACTOR_PATCHES_112: [&str; 2] = ["patch.mpq", "patch-2.mpq"];

/// The base patches the 3.3.5 servers' extractors read, in load order (cMaNGOS WotLK's
/// `contrib/extractor/System.cpp`; TrinityCore's and AzerothCore's `map_extractor` alike).
pub const EXTRACTOR_PATCHES_335: [&str; 5] = [
    "patch.mpq",
    "patch-2.mpq",
    "patch-3.mpq",
    "patch-4.mpq",
    "patch-5.mpq",
];

/// How many locale patches (`patch-<locale>`, `-2` … `-4`) the 3.3.5 extractors read.
pub const EXTRACTOR_LOCALE_PATCHES_335: usize = 4;

/// Among a `generation` client's archives of `kind`, the last one its servers' extractors read
/// (as they spell it: they open it by that name, and file names are case-sensitive off Windows)
/// and every one they read (lower case). `None` when they read every archive of that kind, or
/// loam knows no extractor list for the generation. `locale` is the locale code (`enUS`).
pub fn extractor_patch(
    generation: &ClientGeneration,
    kind: ArchiveKind,
    locale: &str,
) -> Option<(String, Vec<String>)> {
    let lower = |names: &[&str]| names.iter().map(|s| s.to_string()).collect();
    match (generation, kind) {
        (ClientGeneration::V112, ArchiveKind::Patch) => {
            Some(("patch-2.MPQ".into(), lower(&EXTRACTOR_PATCHES_112)))
        }
        (ClientGeneration::V335, ArchiveKind::Patch) => {
            Some(("patch-5.MPQ".into(), lower(&EXTRACTOR_PATCHES_335)))
        }
        (ClientGeneration::V335, ArchiveKind::LocalePatch) => {
            let read = (1..=EXTRACTOR_LOCALE_PATCHES_335)
                .map(|i| match i {
                    1 => format!("patch-{locale}.mpq"),
                    i => format!("patch-{locale}-{i}.mpq"),
                })
                .map(|n| n.to_ascii_lowercase())
                .collect();
            Some((
                format!("patch-{locale}-{EXTRACTOR_LOCALE_PATCHES_335}.MPQ"),
                read,
            ))
        }
        _ => None,
    }
}

/// The client generation whose servers read maps of generation `g`, when loam knows their
/// extractors (1.12 and 3.3.5).
pub fn client_generation(g: Generation) -> Option<ClientGeneration> {
    match g {
        Generation::V112 => Some(ClientGeneration::V112),
        Generation::V335 => Some(ClientGeneration::V335),
        _ => None,
    }
}

/// Which extractors read which patches, in words, for messages.
fn extractor_list(generation: &ClientGeneration) -> &'static str {
    match generation {
        ClientGeneration::V112 => {
            "vmangos's and cMaNGOS classic's read only patch.MPQ and patch-2.MPQ"
        }
        _ => {
            "TrinityCore's, AzerothCore's and cMaNGOS's read only patch.MPQ, patch-2 … patch-5.MPQ \
             and the locale's patch-<locale> … patch-<locale>-4.MPQ"
        }
    }
}

/// True when the servers' extractors of a generation-`g` client open the patch archive named
/// `archive` (a file name in `Data`); true too for a generation whose extractors loam does not
/// know, so that nothing is said of them.
pub fn extractors_read_patch(g: Generation, archive: &str) -> bool {
    let Some(generation) = client_generation(g) else {
        return true;
    };
    extractor_patch(&generation, ArchiveKind::Patch, "")
        .is_none_or(|(_, read)| read.contains(&archive.to_ascii_lowercase()))
}

/// The client at `dir` as its servers' map extractors read it: only the archives on their
/// list, and no loose files. Refuses a client of a generation whose extractors loam does not
/// know.
pub fn extractor_view(dir: &Path) -> Result<ClientData> {
    let client = ClientData::open(dir).map_err(|e| LoamError::Usage(e.to_string()))?;
    let generation = client.generation().clone();
    if !matches!(generation, ClientGeneration::V112 | ClientGeneration::V335) {
        return Err(LoamError::Usage(format!(
            "{}: loam knows the servers' extractors of 1.12 and 3.3.5 clients; this one reads as {generation}",
            client.data_dir().display()
        )));
    }
    let locale = locale_dir(client.data_dir())
        .map(|(code, _)| code)
        .unwrap_or_default();
    let keep = |path: &Path, kind: ArchiveKind| {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        extractor_patch(&generation, kind, &locale).is_none_or(|(_, read)| read.contains(&file))
    };
    ClientData::open_archives_only(client.data_dir(), &keep)
        .map_err(|e| LoamError::Usage(e.to_string()))
}

/// A part of a packed map that the client loads but the servers' extractors will not see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unseen {
    /// What it is, in words, after the map's name: "files", "Map.dbc row", "AreaTable rows 5001".
    pub what: String,
    /// The archive the client reads it from, when it is one.
    pub archive: Option<PathBuf>,
}

impl std::fmt::Display for Unseen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.archive {
            Some(a) => write!(
                f,
                "{} (in {})",
                self.what,
                a.file_name().unwrap_or_default().to_string_lossy()
            ),
            None => f.write_str(&self.what),
        }
    }
}

/// The parts of map `map` (its folder name under `World\Maps`) that the client at `dir` loads
/// but its servers' extractors will not: the WDT, the map's Map.dbc row, and the AreaTable
/// rows of `areas` (0 is no area and is skipped). Parts the client itself lacks are not
/// listed: they are another problem (`loam check --client` names them). With the client's
/// generation; the list is empty for a generation whose extractors loam does not know.
pub fn unseen_by_extractors(
    dir: &Path,
    map: &str,
    areas: &[u32],
) -> Result<(ClientGeneration, Vec<Unseen>)> {
    let client = ClientData::open(dir).map_err(|e| LoamError::Usage(e.to_string()))?;
    let generation = client.generation().clone();
    if !matches!(generation, ClientGeneration::V112 | ClientGeneration::V335) {
        return Ok((generation, Vec::new()));
    }
    let server = extractor_view(dir)?;
    Ok((generation, unseen_between(&client, &server, map, areas)))
}

/// [`unseen_by_extractors`] over the two views of one client.
pub fn unseen_between(
    client: &ClientData,
    server: &ClientData,
    map: &str,
    areas: &[u32],
) -> Vec<Unseen> {
    let generation = client.generation().clone();
    let mut out = Vec::new();
    let from = |path: &str| match client.served_by(path) {
        Some(crate::assets::client::Origin::Archive { path, .. }) => Some(path),
        Some(crate::assets::client::Origin::Loose(p)) => Some(p),
        _ => None,
    };
    let wdt = wdt_path(map);
    let has = |c: &ClientData, path: &str| c.read(path).ok().flatten().is_some();
    if has(client, &wdt) && !has(server, &wdt) {
        out.push(Unseen {
            what: "files".into(),
            archive: from(&wdt),
        });
    }
    let row = |c: &ClientData| {
        c.read(MAP_DBC)
            .ok()
            .flatten()
            .and_then(|b| read_map_table(&b, &generation))
            .is_some_and(|rows| rows.iter().any(|(_, d, _)| d.eq_ignore_ascii_case(map)))
    };
    if row(client) && !row(server) {
        out.push(Unseen {
            what: format!("{MAP_DBC} row"),
            archive: from(MAP_DBC),
        });
    }
    let ids = |c: &ClientData| {
        c.read(AREA_TABLE_DBC)
            .ok()
            .flatten()
            .and_then(|b| read_area_ids(&b, &generation))
            .unwrap_or_default()
    };
    let wanted: Vec<u32> = areas.iter().copied().filter(|a| *a != 0).collect();
    if !wanted.is_empty() {
        let (theirs, seen) = (ids(client), ids(server));
        let missing: Vec<String> = wanted
            .iter()
            .filter(|a| theirs.contains(a) && !seen.contains(a))
            .map(u32::to_string)
            .collect();
        if !missing.is_empty() {
            out.push(Unseen {
                what: format!("{AREA_TABLE_DBC} rows {}", missing.join(", ")),
                archive: from(AREA_TABLE_DBC),
            });
        }
    }
    out
}

/// The one warning for `unseen` parts of map `map` in the client at `client` (as the user named
/// it): what the extractors miss, why, and the mend (`loam server-data`, or the copy already
/// written to `server_copy`). `None` when nothing is unseen.
pub fn unseen_warning(
    unseen: &[Unseen],
    generation: &ClientGeneration,
    map: &str,
    client: &Path,
    server_copy: Option<&Path>,
) -> Option<String> {
    if unseen.is_empty() {
        return None;
    }
    let parts: Vec<String> = unseen.iter().map(Unseen::to_string).collect();
    let mend = match server_copy {
        Some(out) => format!(
            "the servers' copy written to {} has them: run the extractor there",
            out.display()
        ),
        None => format!(
            "run `loam server-data {} OUT` (or add `--server-data OUT` to the pack) and point \
             the extractor at OUT",
            client.display()
        ),
    };
    Some(format!(
        "the servers' map extractors will not see {map}'s {}: they open a fixed list of \
         archives ({}); {mend}",
        parts.join(", "),
        extractor_list(generation)
    ))
}
