//! The archive loam writes a client's tables into (Map.dbc and AreaTable rows for a new map,
//! Light and AreaTrigger rows), and writing tables into it without losing what it held.
//!
//! Which archive, and why (docs/client-data.md, "Where loam writes the client's tables"):
//! - **3.3.5**: `Data/<locale>/patch-<locale>-4.MPQ`, the highest tier the client loads
//!   (`assets::client::order`) and the last custom locale patch the servers' extractors read
//!   (cMaNGOS's `System.cpp` reads `patch-<locale>-2` … `-4`; TrinityCore's `vmapexport.cpp`
//!   opens the locale patches after the common ones, so they win);
//! - **1.12**: `Data/patch-N.MPQ`, the first custom name free (1.12 has no locale archives).
//!
//! An archive loam wrote before that holds one of the tables is used again, so that every
//! command adds to one archive rather than scattering tables over several; the tables it
//! holds that a write does not replace (a map's Map.dbc row when a light is added, a map's
//! files) are carried over, block by block.
//!
//! Not for: the rows themselves (`assets::client`), a map's own archive (`pack`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::mpq::{Entry, Source, write_archive};
use super::pack::{MARKER, check_patch_name, holds, marker_text, replaceable, written_by_loam};
use crate::assets::client::{
    AREA_TABLE_DBC, AREA_TRIGGER_DBC, ClientData, ClientGeneration, LIGHT_DBC,
    LIGHT_FLOAT_BAND_DBC, LIGHT_INT_BAND_DBC, LIGHT_PARAMS_DBC, MAP_DBC, Mpq, locale_dir,
    normalise,
};
use crate::disk::{LoamError, Result};

/// Custom patch suffixes in the client's load order, after Blizzard's own (`patch`, `-2`, `-3`).
const CUSTOM_SUFFIXES: &str = "456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The tables loam writes: an archive of loam's holding one of them is loam's table archive.
pub const WRITTEN_TABLES: [&str; 7] = [
    MAP_DBC,
    AREA_TABLE_DBC,
    AREA_TRIGGER_DBC,
    LIGHT_DBC,
    LIGHT_PARAMS_DBC,
    LIGHT_INT_BAND_DBC,
    LIGHT_FLOAT_BAND_DBC,
];

/// The tables the servers' extractors take from the client (the rest only the client reads).
const SERVER_TABLES: [&str; 3] = [MAP_DBC, AREA_TABLE_DBC, AREA_TRIGGER_DBC];

/// Where a generation's client takes custom tables from: the folder and the name stem
/// (`patch-enUS`, `patch`).
pub fn table_folder(data_dir: &Path, generation: &ClientGeneration) -> Result<(PathBuf, String)> {
    match generation {
        ClientGeneration::V335 => {
            let (code, dir) = locale_dir(data_dir).ok_or_else(|| {
                LoamError::Usage(format!(
                    "{} has no locale folder (Data/enUS …) for the client's tables",
                    data_dir.display()
                ))
            })?;
            Ok((dir, format!("patch-{code}")))
        }
        ClientGeneration::V112 => Ok((data_dir.to_path_buf(), "patch".to_string())),
        other => Err(LoamError::Usage(format!(
            "loam writes the client's tables into 1.12 and 3.3.5 clients; this one reads as {other}"
        ))),
    }
}

/// The archive for the client's tables in `folder`: the one loam wrote before (it holds one of
/// [`WRITTEN_TABLES`] and loam's marker), else the first custom name free (`stem-4.MPQ`
/// first).
pub fn table_archive_name(folder: &Path, stem: &str) -> Result<String> {
    let taken: Vec<String> = std::fs::read_dir(folder)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let candidates = CUSTOM_SUFFIXES.chars().map(|c| format!("{stem}-{c}.MPQ"));
    let mut free = None;
    for name in candidates {
        match taken.iter().find(|t| t.eq_ignore_ascii_case(&name)) {
            Some(there) => {
                let path = folder.join(there);
                if written_by_loam(&path) && WRITTEN_TABLES.iter().any(|t| holds(&path, t)) {
                    return Ok(there.clone());
                }
            }
            None if free.is_none() => free = Some(name),
            None => {}
        }
    }
    free.ok_or_else(|| {
        LoamError::Usage(format!(
            "{} has every name from {stem}-4 to {stem}-Z",
            folder.display()
        ))
    })
}

/// Writes `tables` (game path, whole bytes) into the archive at `target` with loam's marker,
/// carrying over every other file it holds (loam's own archive: `replaceable` refused any
/// other). At a temporary name, then renamed over it.
pub fn put_tables(target: &Path, tables: &[(&str, Vec<u8>)]) -> Result<()> {
    let replaced = |name: &str| {
        let n = normalise(name);
        n == normalise("(listfile)")
            || n == normalise(MARKER)
            || tables.iter().any(|(t, _)| normalise(t) == n)
    };
    let mut entries = Vec::new();
    if target.is_file() {
        let old = Arc::new(Mpq::open(target).map_err(|e| LoamError::Usage(e.to_string()))?);
        let names = old.listfile().ok_or_else(|| {
            LoamError::Usage(format!(
                "{}: loam's archive has no readable (listfile); its files cannot be carried over",
                target.display()
            ))
        })?;
        for name in names.into_iter().filter(|n| !replaced(n)) {
            if let Some(block) = old.find(&name) {
                entries.push(Entry {
                    game: name,
                    source: Source::Block {
                        archive: Arc::clone(&old),
                        block,
                    },
                });
            }
        }
    }
    entries.extend(tables.iter().map(|(p, b)| Entry::bytes(p, b.clone())));
    entries.push(Entry::bytes(MARKER, marker_text()));
    write_archive(&entries, true, target)
}

/// What [`write_tables`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct TablesWritten {
    /// The archive written.
    pub archive: PathBuf,
    /// What the user should know: a name the servers' extractors do not read, an archive that
    /// hides a table.
    pub warnings: Vec<String>,
}

/// Writes `tables` into the client at `data_dir`: into the archive named `patch_name` (in the
/// locale folder when it names the locale, else in `Data`), or into loam's table archive
/// ([`table_folder`], [`table_archive_name`]). Afterwards the client is read again as it
/// loads its archives, and a table it does not read as written is reported.
pub fn write_tables(
    data_dir: &Path,
    patch_name: Option<&str>,
    tables: &[(&str, Vec<u8>)],
) -> Result<TablesWritten> {
    let client = ClientData::open(data_dir).map_err(|e| LoamError::Usage(e.to_string()))?;
    let generation = client.generation().clone();
    let (folder, stem) = table_folder(data_dir, &generation)?;
    let (folder, name) = match patch_name {
        Some(n) => {
            check_patch_name(n)?;
            let in_locale = n
                .to_ascii_lowercase()
                .starts_with(&stem.to_ascii_lowercase())
                && stem != "patch";
            let dir = if in_locale {
                folder.clone()
            } else {
                data_dir.to_path_buf()
            };
            (dir, n.to_string())
        }
        None => (folder.clone(), table_archive_name(&folder, &stem)?),
    };
    let target = replaceable(&folder.join(&name))?;
    put_tables(&target, tables)?;
    let mut warnings = Vec::new();
    let for_server = tables
        .iter()
        .any(|(t, _)| SERVER_TABLES.iter().any(|s| s.eq_ignore_ascii_case(t)));
    if generation == ClientGeneration::V335
        && for_server
        && !name.eq_ignore_ascii_case(&format!("{stem}-4.MPQ"))
    {
        warnings.push(format!(
            "{name}: the client reads it, but the servers' map extractors read the locale's \
             patches only up to {stem}-4.MPQ, so a server will not see these rows"
        ));
    }
    let again = ClientData::open(data_dir).map_err(|e| LoamError::Usage(e.to_string()))?;
    for (table, bytes) in tables {
        if again.read(table).ok().flatten().as_deref() != Some(bytes.as_slice()) {
            warnings.push(format!(
                "{} holds the new {table}, but an archive the client loads after it has its \
                 own and hides it",
                target.display()
            ));
        }
    }
    Ok(TablesWritten {
        archive: target,
        warnings,
    })
}
