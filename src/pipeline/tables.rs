//! A packed map's row in the client's tables, and archive names the servers' extractors read.
//!
//! The client loads no map that `DBFilesClient\Map.dbc` does not name. When a map is packed
//! into a client's `Data` folder, the table the client reads now (the highest-priority copy in
//! its archive stack) gets a row for the map (`assets::client::add_map`) and is written back
//! into an archive that wins over every other copy:
//!
//! - **3.3.5**: `Data/<locale>/patch-<locale>-4.MPQ`. The locale patches load last of all, in the
//!   client (the `patch-<locale>-N` tier is the highest: warcraft-rs's "WoW Patch Chain
//!   Summary", and Noggit's `loadMPQs` order) and in the servers' extractors (TrinityCore's and
//!   cMaNGOS's extractors open every locale archive after the base ones "so localized DBCs
//!   override common fallback data"); cMaNGOS's `contrib/extractor/System.cpp` reads the
//!   locale's `locale-`, `patch-<locale>`, and `patch-<locale>-2` … `-4`, so `-4` is the one
//!   custom name both read. Blizzard's own tables are in `locale-<locale>.MPQ` and
//!   `patch-<locale>(-2,-3).MPQ`, all below it.
//! - **1.12**: `Data/patch-N.MPQ` (1.12 has no locale archives; its tables are in `dbc.MPQ` and
//!   the patches over it).
//!
//! After writing, the client folder is read again as the client would, and a table that still
//! lacks the row (an archive loading later hides ours) is reported, not assumed away.
//!
//! Not for: the row itself (`assets::client::map_table`), the map's own archive (`pack`).

use std::path::{Path, PathBuf};

use super::pack::{holds, replaceable, written_by_loam};
use super::table_archive::{put_tables, table_archive_name};
use crate::assets::client::{
    AREA_TABLE_DBC, ClientData, ClientGeneration, MAP_DBC, MapEntry, MapRowOutcome, add_areas,
    add_map, archive_stack_with, locale_dir, read_map_table,
};
use crate::disk::{LoamError, Result};

/// What the user asked the map's row to be.
#[derive(Debug, Clone, Default)]
pub struct TableRequest {
    /// The shown name (`--map-name`); the folder name when `None`.
    pub name: Option<String>,
    /// The id (`--map-id`); the next free one when `None`.
    pub id: Option<u32>,
    /// The map's AreaTable id (0: none).
    pub area: u32,
    /// The name of the areas to add to AreaTable.dbc (`--area-name`): one row for each area
    /// id of `map_areas` the table lacks. `None`: AreaTable is not touched.
    pub area_name: Option<String>,
    /// The area ids the map's chunks use.
    pub map_areas: Vec<u32>,
}

/// What [`register_map`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct Registered {
    /// The map's id in Map.dbc; `None` when loam could not give it a row (the warnings say
    /// why: a client of another generation, one without the table).
    pub id: Option<u32>,
    /// True when the row was added now (false: the table named the map already).
    pub added: bool,
    /// The AreaTable ids added now.
    pub areas: Vec<u32>,
    /// The archive the table was written into, when it was.
    pub archive: Option<PathBuf>,
    /// What the user should know: a name the extractors do not read, an archive that hides ours.
    pub warnings: Vec<String>,
}

/// The rows a map is to have, worked out from the client's tables as it reads them now.
#[derive(Debug, Clone)]
struct RowPlan {
    generation: ClientGeneration,
    /// The map's id.
    id: u32,
    /// True when its Map.dbc row is new.
    added: bool,
    /// The AreaTable ids added.
    areas: Vec<u32>,
    /// Map.dbc as it will read: with the new row, or as it is.
    map_table: Vec<u8>,
    /// AreaTable.dbc as it will read, when there is one: with the new rows, or as it is.
    area_table: Option<Vec<u8>>,
    /// True when the AreaTable rows were asked for (`--area-name`).
    areas_asked: bool,
    /// The folder the tables' own archive goes into, and its name's stem (`patch`,
    /// `patch-enUS`).
    folder: PathBuf,
    stem: String,
}

impl RowPlan {
    /// True when a table changes.
    fn changes(&self) -> bool {
        self.added || !self.areas.is_empty()
    }

    /// The tables an archive of them holds: Map.dbc, and AreaTable when it changed or was asked
    /// for (our own archive may have carried it from an earlier export), or when `keep_areas`.
    fn tables(&self, keep_areas: bool) -> Vec<(&'static str, Vec<u8>)> {
        let mut out = vec![(MAP_DBC, self.map_table.clone())];
        if let Some(t) = &self.area_table
            && (self.areas_asked || keep_areas)
        {
            out.push((AREA_TABLE_DBC, t.clone()));
        }
        out
    }

    /// What the plan did, once written into `archive`.
    fn registered(&self, archive: Option<PathBuf>, warnings: Vec<String>) -> Registered {
        Registered {
            id: Some(self.id),
            added: self.added,
            areas: self.areas.clone(),
            archive,
            warnings,
        }
    }
}

/// The rows map `directory` is to have in the client whose `Data` folder is `data_dir`, or
/// why loam gives it none (see [`register_map`]).
fn plan_rows(
    data_dir: &Path,
    directory: &str,
    req: &TableRequest,
) -> Result<std::result::Result<RowPlan, Registered>> {
    let usage = |e: String| LoamError::Usage(e);
    let skipped = |why: String| {
        Err(Registered {
            id: None,
            added: false,
            areas: Vec::new(),
            archive: None,
            warnings: vec![format!(
                "{why}; add map {directory} to the client's {MAP_DBC} by hand, or the client \
                 will not load it"
            )],
        })
    };
    let client = match ClientData::open(data_dir) {
        Ok(c) => c,
        Err(e) => return Ok(skipped(e.to_string())),
    };
    let generation = client.generation().clone();
    let (folder, stem) = match &generation {
        ClientGeneration::V335 => {
            let Some((code, dir)) = locale_dir(data_dir) else {
                return Ok(skipped(format!(
                    "{} has no locale folder (Data/enUS …) for the client's tables",
                    data_dir.display()
                )));
            };
            (dir, format!("patch-{code}"))
        }
        ClientGeneration::V112 => (data_dir.to_path_buf(), "patch".to_string()),
        other => {
            return Ok(skipped(format!(
                "loam adds Map.dbc rows to 1.12 and 3.3.5 clients; this one reads as {other}"
            )));
        }
    };
    let table = match client.read(MAP_DBC) {
        Ok(Some(t)) => t,
        Ok(None) => return Ok(skipped(format!("the client has no {MAP_DBC}"))),
        Err(e) => return Ok(skipped(e.to_string())),
    };
    let entry = MapEntry {
        directory: directory.to_string(),
        name: req.name.clone().unwrap_or_else(|| directory.to_string()),
        id: req.id,
        // With new areas, the map's own is the first of them.
        area_table_id: match &req.area_name {
            Some(_) => req
                .map_areas
                .iter()
                .copied()
                .find(|a| *a != 0)
                .unwrap_or(req.area),
            None => req.area,
        },
    };
    let (map_bytes, outcome) = add_map(&table, &generation, &entry).map_err(usage)?;
    let (MapRowOutcome::Present(id) | MapRowOutcome::Added(id)) = outcome;
    // The areas, when asked: rows for the map's area ids the table lacks.
    let current_areas = client.read(AREA_TABLE_DBC).ok().flatten();
    let (area_bytes, areas) = match (&req.area_name, &current_areas) {
        (Some(name), Some(t)) => {
            add_areas(t, &generation, id, &req.map_areas, name).map_err(usage)?
        }
        (Some(_), None) => {
            return Err(usage(format!(
                "the client has no {AREA_TABLE_DBC} to add areas to"
            )));
        }
        (None, _) => (None, Vec::new()),
    };
    Ok(Ok(RowPlan {
        generation,
        id,
        added: map_bytes.is_some(),
        areas,
        map_table: map_bytes.unwrap_or(table),
        area_table: area_bytes.or(current_areas),
        areas_asked: req.area_name.is_some(),
        folder,
        stem,
    }))
}

/// Gives map `directory` a row in the Map.dbc of the client whose `Data` folder is
/// `data_dir` (see the module's doc), unless it has one. A client loam writes no tables for
/// (another generation, no table, a table of another layout) is a warning, not an error: the
/// map's files are packed all the same. An id the user asked for that another map has is an
/// error.
pub fn register_map(data_dir: &Path, directory: &str, req: &TableRequest) -> Result<Registered> {
    let plan = match plan_rows(data_dir, directory, req)? {
        Ok(p) => p,
        Err(skipped) => return Ok(skipped),
    };
    if !plan.changes() {
        return Ok(plan.registered(None, Vec::new()));
    }
    let name = table_archive_name(&plan.folder, &plan.stem)?;
    let mut warnings = Vec::new();
    let stem = &plan.stem;
    if plan.generation == ClientGeneration::V335
        && !name.eq_ignore_ascii_case(&format!("{stem}-4.MPQ"))
    {
        warnings.push(format!(
            "{name}: the client reads it, but the servers' map extractors read the locale's \
             patches only up to {stem}-4.MPQ (taken by another tool's archive), so a server \
             will not know map {}; free {stem}-4.MPQ and export again",
            plan.id
        ));
    }
    let target = replaceable(&plan.folder.join(&name))?;
    // The archive may hold light or trigger rows written before: they stay.
    put_tables(&target, &plan.tables(false))?;
    warnings.extend(hidden_row_warning(
        data_dir,
        directory,
        &plan.generation,
        plan.id,
        &target,
    ));
    Ok(plan.registered(Some(target), warnings))
}

/// After the tables were written into `target`: a warning when the client, read as it loads
/// its archives, still lacks row `id` (an archive loading later hides ours).
fn hidden_row_warning(
    data_dir: &Path,
    directory: &str,
    generation: &ClientGeneration,
    id: u32,
    target: &Path,
) -> Option<String> {
    let seen = ClientData::open(data_dir)
        .ok()
        .and_then(|c| c.read(MAP_DBC).ok().flatten())
        .and_then(|b| read_map_table(&b, generation))
        .is_some_and(|rows| {
            rows.iter()
                .any(|(i, d, _)| *i == i64::from(id) && d.eq_ignore_ascii_case(directory))
        });
    (!seen).then(|| {
        format!(
            "{} holds the new row, but an archive the client loads after it has its own {MAP_DBC} \
             and hides it",
            target.display()
        )
    })
}

/// Where a pack's table rows go when it asked for them in the map's own archive.
#[derive(Debug, Clone)]
pub enum Carried {
    /// In the map's archive: the tables to add to it (game path, bytes), whole, and what the
    /// rows will be once it is written.
    InArchive {
        /// The tables, each whole as the client will read it.
        tables: Vec<(&'static str, Vec<u8>)>,
        /// The rows (its `archive` is the map's archive).
        registered: Registered,
    },
    /// In their own archive ([`register_map`]), with why not in the map's when the user named
    /// that archive.
    Apart(Option<String>),
}

/// Whether map `directory`'s table rows can go into `archive`, the patch archive its files are
/// packed into (in `data_dir`): when the user `named` it, or it is the archive an earlier pack
/// put them in, and the servers' extractors read it (`extractors_read`), and no archive the
/// client loads after it has a table of its own that would hide them. Keeping map and rows in
/// one archive that the extractors read is what lets a server see a new map without
/// `loam server-data`.
pub fn rows_for_archive(
    data_dir: &Path,
    directory: &str,
    req: &TableRequest,
    archive: &Path,
    named: bool,
    extractors_read: bool,
) -> Result<Carried> {
    let file = archive
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let carried_before = archive.is_file() && written_by_loam(archive) && holds(archive, MAP_DBC);
    if !named && !carried_before {
        return Ok(Carried::Apart(None));
    }
    if !extractors_read {
        return Ok(Carried::Apart(named.then(|| {
            format!(
                "the table rows are not put into {file}: the servers' extractors do not read it \
                 either way"
            )
        })));
    }
    let plan = match plan_rows(data_dir, directory, req)? {
        Ok(p) => p,
        Err(_) => return Ok(Carried::Apart(None)),
    };
    let keep_areas = carried_before && holds(archive, AREA_TABLE_DBC);
    let tables = plan.tables(keep_areas);
    let stack = archive_stack_with(&plan.generation, data_dir, Some(archive));
    let same = |p: &Path| {
        p.parent() == archive.parent()
            && p.file_name().map(|n| n.to_ascii_lowercase())
                == archive.file_name().map(|n| n.to_ascii_lowercase())
    };
    let later = stack
        .iter()
        .skip_while(|(p, _)| !same(p))
        .skip(1)
        .map(|(p, _)| p);
    for p in later {
        if let Some((table, _)) = tables.iter().find(|(t, _)| holds(p, t)) {
            return Ok(Carried::Apart(Some(format!(
                "the table rows are not put into {file}: {} loads after it and has its own \
                 {table}, which would hide them from the client",
                p.file_name().unwrap_or_default().to_string_lossy()
            ))));
        }
    }
    let registered = plan.registered(Some(archive.to_path_buf()), Vec::new());
    Ok(Carried::InArchive { tables, registered })
}

/// After a pack that carried the rows in the map's archive: the warning [`register_map`]
/// gives when the client, read again, lacks the row.
pub fn check_carried(data_dir: &Path, directory: &str, registered: &Registered) -> Option<String> {
    let (Some(id), Some(archive)) = (registered.id, &registered.archive) else {
        return None;
    };
    let generation = ClientData::open(data_dir).ok()?.generation().clone();
    hidden_row_warning(data_dir, directory, &generation, id, archive)
}
