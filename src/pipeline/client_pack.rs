//! A map packed into a game client's `Data` folder, whole: its archive, its rows in the
//! client's tables, what the servers' map extractors will still miss of them, and, when asked,
//! the servers' copy of the client. `loam convert --pack --client` and File ▸ Export for
//! client both pack through [`pack_into_client`], so that they agree on where the rows go and
//! on what they warn about.
//!
//! Where the rows go: into the map's own archive when the user named it (or an earlier pack
//! put them there), the extractors read it, and no archive the client loads later has a table
//! that would hide them (`pipeline::tables::rows_for_archive`); else into their own archive
//! (`pipeline::tables::register_map`), with why when the user had named one.
//!
//! Not for: the archive bytes (`pipeline::pack`, `pipeline::mpq`), the rows themselves
//! (`assets::client::map_table`), or the extractors' lists (`pipeline::extractors`).

use std::path::{Path, PathBuf};

use super::extractors::{
    Unseen, client_generation, extractors_read_patch, unseen_by_extractors, unseen_warning,
};
use super::pack::{Layout, Packed, check_patch_name, default_patch_name, layout, pack_map_with};
use super::server_data::{ServerData, write_server_data};
use super::tables::{
    Carried, Registered, TableRequest, check_carried, register_map, rows_for_archive,
};
use crate::assets::client::ClientGeneration;
use crate::disk::{LoamError, Result, io_err};
use crate::format::Generation;

/// What a pack into a client is asked to do besides packing the map's files.
#[derive(Debug, Clone, Copy)]
pub struct ClientPackRequest<'a> {
    /// The patch archive's name (`--patch-name`); the archive loam wrote for this map before,
    /// or the first free name, when `None`.
    pub patch_name: Option<&'a str>,
    /// Files packed beside the map's (game path, file): its minimap.
    pub extra: &'a [(String, PathBuf)],
    /// The map's rows in the client's tables.
    pub table: &'a TableRequest,
    /// Also write the servers' copy of the client here (`--server-data OUT`).
    pub server_data: Option<&'a Path>,
}

/// What [`pack_into_client`] did.
#[derive(Debug, Clone)]
pub struct ClientPack {
    /// The archives written.
    pub packed: Packed,
    /// The map's rows.
    pub registered: Registered,
    /// Why the rows are not in the archive the user named, when they are not.
    pub rows_apart: Option<String>,
    /// What the client loads that the servers' extractors will not see.
    pub unseen: Vec<Unseen>,
    /// [`unseen`](Self::unseen) in one warning naming the mend; `None` when nothing is unseen.
    pub unseen_warning: Option<String>,
    /// The servers' copy, when asked for.
    pub server_data: Option<ServerData>,
}

/// Packs map `name`, written to `folder` as generation `g`, into the client whose `Data` folder
/// is `data_dir` with its table rows (see the module), then reads the client as its servers'
/// extractors do and, when asked, writes their copy of it.
pub fn pack_into_client(
    folder: &Path,
    name: &str,
    g: Generation,
    data_dir: &Path,
    req: &ClientPackRequest,
) -> Result<ClientPack> {
    let (packed, carried) = match layout(g)? {
        Layout::Patch => {
            let patch = match req.patch_name {
                Some(n) => {
                    check_patch_name(n)?;
                    n.to_string()
                }
                None => default_patch_name(data_dir, name)?,
            };
            let archive = super::pack::replaceable(&data_dir.join(&patch))?;
            let carried = rows_for_archive(
                data_dir,
                name,
                req.table,
                &archive,
                req.patch_name.is_some(),
                extractors_read_patch(g, &patch),
            )?;
            // The tables travel as files beside the map's, staged in a temporary folder.
            let staging = tempfile::tempdir().map_err(io_err(Path::new("temporary folder")))?;
            let mut extra = req.extra.to_vec();
            if let Carried::InArchive { tables, .. } = &carried {
                for (i, (game, bytes)) in tables.iter().enumerate() {
                    let file = staging.path().join(format!("table{i}.dbc"));
                    std::fs::write(&file, bytes).map_err(io_err(&file))?;
                    extra.push((game.to_string(), file));
                }
            }
            let packed = pack_map_with(folder, name, g, data_dir, Some(&patch), &extra)?;
            (packed, carried)
        }
        Layout::PerFile => (
            pack_map_with(folder, name, g, data_dir, None, req.extra)?,
            Carried::Apart(None),
        ),
    };
    let (registered, rows_apart) = match carried {
        Carried::InArchive { mut registered, .. } => {
            let hidden = check_carried(data_dir, name, &registered);
            registered.warnings.extend(hidden);
            (registered, None)
        }
        Carried::Apart(why) => (register_map(data_dir, name, req.table)?, why),
    };
    // A map of a generation without extractors loam knows (0.5.x) is not looked for.
    let (generation, unseen) = match client_generation(g) {
        Some(_) => unseen_by_extractors(data_dir, name, &req.table.map_areas)?,
        None => (ClientGeneration::Unknown(String::new()), Vec::new()),
    };
    let server_data = req
        .server_data
        .map(|out| write_server_data(data_dir, out))
        .transpose()?;
    let unseen_warning = unseen_warning(&unseen, &generation, name, data_dir, req.server_data);
    Ok(ClientPack {
        packed,
        registered,
        rows_apart,
        unseen,
        unseen_warning,
        server_data,
    })
}

/// Refuses `--server-data OUT` before any work when OUT already has a `Data` folder (the copy
/// would be refused after the pack, which is too late to say so).
pub fn check_server_data_out(out: &Path) -> Result<()> {
    let data = out.join("Data");
    if data.exists() {
        return Err(LoamError::Usage(format!(
            "{} exists; give a new folder for the servers' copy",
            data.display()
        )));
    }
    Ok(())
}
