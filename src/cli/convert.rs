//! `loam convert`: a map or tile to another generation, with a progress bar and a report of
//! everything dropped or changed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::assets::client::{AREA_TABLE_DBC, AreaNames};
use crate::convert;
use crate::disk::{self, LoamError};
use crate::format::Generation;
use crate::pipeline;

/// What a conversion writes besides the map's files.
#[derive(Debug, Clone, Default)]
pub struct Extras {
    /// Write the WDL (`Name.wdl`) beside the WDT.
    pub wdl: bool,
    /// Pack the written files into the archives the client reads (`--pack`).
    pub pack: bool,
    /// The patch archive's name (`--patch-name`); the first free one when `None`.
    pub patch_name: Option<String>,
    /// The game client whose `Data` folder receives the archives (`--client`); without it they
    /// go into the target folder.
    pub client: Option<PathBuf>,
    /// The map's row in the client's Map.dbc (with `client`).
    pub table: pipeline::tables::TableRequest,
    /// Draw the minimap and pack it with the map (`--minimap`).
    pub minimap: bool,
    /// Also write the servers' copy of the client here (`--server-data OUT`, with `client`).
    pub server_data: Option<PathBuf>,
}

/// Runs `loam convert --to TARGET [--area-map CSV] [--pack …] SRC DST`.
pub fn run(
    src: &Path,
    dst: &Path,
    to: Generation,
    from: Option<Generation>,
    area_map: Option<&Path>,
    extras: &Extras,
) -> Result<ExitCode, LoamError> {
    if extras.pack {
        // Before any work: a generation without an archive layout, or a name that is not a
        // patch's, is refused up front.
        pipeline::pack::layout(to)?;
        if let Some(n) = &extras.patch_name {
            pipeline::pack::check_patch_name(n)?;
        }
        if let Some(out) = &extras.server_data {
            pipeline::client_pack::check_server_data_out(out)?;
        }
    }
    let pack_dest = match (&extras.client, extras.pack) {
        (Some(c), true) => Some(
            crate::assets::client::find_data_dir(c).map_err(|e| LoamError::Usage(e.to_string()))?,
        ),
        (None, true) => Some(dst.to_path_buf()),
        (Some(_), false) => {
            return Err(LoamError::Usage("--client goes with --pack".into()));
        }
        (None, false) => None,
    };
    pipeline::check_writable(to)?;
    let options = convert::Options {
        area_map: area_map.map(read_area_map).transpose()?,
        for_client: extras.pack,
    };
    if dst.exists() && !dst.is_dir() {
        return Err(LoamError::Usage(format!(
            "{} exists and is not a folder",
            dst.display()
        )));
    }
    let bar = super::progress::tile_bar("{msg}", 0);
    bar.set_message("converting");
    let progress = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    };
    let converted = pipeline::stream::convert_map(src, from, to, &options, dst, &progress)?;
    bar.finish_and_clear();
    // A few names help find the problem; hundreds (a WDT copied without its tiles) do not.
    const SHOWN: usize = 5;
    for c in converted.missing.iter().take(SHOWN) {
        let name = disk::tile_file_name(&converted.name, *c);
        eprintln!(
            "warning: MAIN lists tile {}_{} but {name} is missing; it is not converted",
            c.x, c.y
        );
    }
    if converted.missing.len() > SHOWN {
        eprintln!(
            "warning: … and {} more tiles listed in MAIN are missing",
            converted.missing.len() - SHOWN
        );
    }
    println!(
        "read as {}; wrote {} file(s) to {}",
        converted.decision,
        converted.files,
        dst.display()
    );
    print!("{}", converted.report);
    if extras.wdl {
        let path = pipeline::wdl::write_wdl(dst, &converted.name, &converted.low_res)?;
        println!(
            "wrote {} ({} tiles)",
            path.display(),
            converted.low_res.len()
        );
    }
    if let Some(dest) = pack_dest {
        let extra = if extras.minimap {
            minimap_files(dst, &converted.name, to, extras.client.as_deref())?
        } else {
            Vec::new()
        };
        let Some(client) = &extras.client else {
            // Archives into a plain folder: no client to register the map with.
            let packed = pipeline::pack::pack_map_with(
                dst,
                &converted.name,
                to,
                &dest,
                extras.patch_name.as_deref(),
                &extra,
            )?;
            print_packed(&packed);
            return Ok(report_unreadable(&converted.name, &converted.failed));
        };
        let mut table = extras.table.clone();
        let ids = area_ids(&dst.join(format!("{}.wdt", converted.name)), to)?;
        let names = super::client::area_names(&super::client::open(client)?, client);
        if table.area_name.is_some() {
            table.map_areas = ids.clone();
        }
        let request = pipeline::client_pack::ClientPackRequest {
            patch_name: extras.patch_name.as_deref(),
            extra: &extra,
            table: &table,
            server_data: extras.server_data.as_deref(),
        };
        let done =
            pipeline::client_pack::pack_into_client(dst, &converted.name, to, &dest, &request)?;
        print_packed(&done.packed);
        if extras.minimap {
            check_minimap_reaches_client(&dest, &converted.name, to);
        }
        print!("{}", named_areas(&ids, &names));
        if let Some(map) = &options.area_map {
            print!("{}", named_mapping(map, &names));
        }
        let r = &done.registered;
        if !r.areas.is_empty() {
            let ids: Vec<String> = r.areas.iter().map(u32::to_string).collect();
            println!(
                "added area(s) {} to the client's AreaTable.dbc",
                ids.join(", ")
            );
        }
        match (&r.archive, r.id) {
            (Some(a), Some(id)) if r.added => println!(
                "added {} to the client's Map.dbc as map {id} (in {})",
                converted.name,
                a.display()
            ),
            (_, Some(id)) => println!(
                "the client's Map.dbc already names {} (map {id})",
                converted.name
            ),
            _ => {}
        }
        for w in r.warnings.iter().chain(&done.rows_apart) {
            eprintln!("warning: {w}");
        }
        if let (Some(out), Some(copy)) = (&extras.server_data, &done.server_data) {
            super::server_data::print_written(copy, out);
        }
        // Last, so that it is what the user reads when the command ends.
        if let Some(w) = &done.unseen_warning {
            eprintln!("warning: {w}");
        }
    }
    Ok(report_unreadable(&converted.name, &converted.failed))
}

/// Says which archives and loose files a pack wrote.
fn print_packed(packed: &pipeline::pack::Packed) {
    for f in &packed.loose {
        println!("wrote {}", f.display());
    }
    for (archive, files) in &packed.archives {
        println!("packed {} file(s) into {}", files.len(), archive.display());
    }
}

/// The converted map's area ids as the client will name them (`--area-map`'s results
/// included), one line each: the ids a map maker must recognise before trusting the pack.
fn named_areas(ids: &[u32], names: &AreaNames) -> String {
    if names.is_empty() {
        return String::new();
    }
    let mut s = format!("areas in the converted map, named from the client's {AREA_TABLE_DBC}:\n");
    // 0 is no area at all.
    for id in ids.iter().filter(|id| **id != 0) {
        let name = names
            .describe(*id)
            .unwrap_or_else(|| "(not in the client's table)".to_string());
        s.push_str(&format!("  {id:>8}  {name}\n"));
    }
    s
}

/// `--area-map`'s pairs with the names the client gives the new ids, so that a CSV pointing at
/// the wrong zone shows before the map is played.
fn named_mapping(map: &convert::AreaMap, names: &AreaNames) -> String {
    if names.is_empty() || map.ids.is_empty() {
        return String::new();
    }
    let mut pairs: Vec<(u32, u32)> = map.ids.iter().map(|(o, n)| (*o, *n)).collect();
    pairs.sort_unstable();
    let mut s = String::from("--area-map, the new ids as the client names them:\n");
    for (old, new) in pairs {
        let name = names
            .describe(new)
            .unwrap_or_else(|| "(not in the client's table)".to_string());
        s.push_str(&format!("  {old:>8} → {new:<8} {name}\n"));
    }
    s
}

/// The area ids the chunks of the map at `wdt` (read as `g`) use, read a few tiles at a time.
fn area_ids(wdt: &Path, g: Generation) -> Result<Vec<u32>, LoamError> {
    let mut ids = std::collections::BTreeSet::new();
    match pipeline::source::open_source(wdt, Some(g))? {
        Some(source) => {
            source.visit_tiles(
                |t| t.chunks.iter().map(|c| c.area_id).collect::<Vec<u32>>(),
                |a| ids.extend(a),
            );
        }
        None => {
            let opened = pipeline::open_map_as(wdt, Some(g))?;
            ids.extend(
                opened
                    .map
                    .tiles
                    .values()
                    .flat_map(|t| t.chunks.iter().map(|c| c.area_id)),
            );
        }
    }
    Ok(ids.into_iter().collect())
}

/// Draws the minimap of the map just written to `dst` into `dst` (so that a later run into the
/// same folder draws only the changed tiles), with textures and the md5translate table of
/// `client`; returns the files to pack.
fn minimap_files(
    dst: &Path,
    name: &str,
    to: Generation,
    client: Option<&Path>,
) -> Result<Vec<(String, PathBuf)>, LoamError> {
    let client = client
        .map(crate::assets::client::ClientData::open)
        .transpose()
        .map_err(|e| LoamError::Usage(e.to_string()))?
        .map(std::sync::Arc::new);
    let written = crate::minimap::export::write_minimap(
        &dst.join(format!("{name}.wdt")),
        Some(to),
        dst,
        client,
        &|_, _| {},
    )?;
    println!(
        "minimap: {} tile(s) drawn, {} unchanged",
        written.drawn, written.kept
    );
    Ok(written.files)
}

/// Warns when the client, read as it loads its archives, does not see map `name`'s minimap
/// lines (a table in an archive that loads later hides ours).
fn check_minimap_reaches_client(data: &Path, name: &str, to: Generation) {
    let table = crate::minimap::names::table_path(to);
    let seen = crate::assets::client::ClientData::open(data)
        .ok()
        .and_then(|c| c.read(table).ok().flatten())
        .map(|b| crate::minimap::names::Md5Translate::parse(&String::from_utf8_lossy(&b)))
        .is_some_and(|t| t.lines_of(name).is_some_and(|l| !l.is_empty()));
    if !seen {
        eprintln!(
            "warning: the client's {table} does not list {name}'s minimap: an archive that \
             loads after the patch has its own copy of the table"
        );
    }
}

/// Lists the tiles that could not be read (and so were not written) on stderr; the exit code
/// is 1 when there are any, so that scripts notice.
pub fn report_unreadable(
    map: &str,
    failed: &std::collections::BTreeMap<crate::model::TileCoord, String>,
) -> ExitCode {
    for (c, why) in failed {
        eprintln!(
            "error: {} not written: {why}",
            disk::tile_file_name(map, *c)
        );
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "{} tile(s) could not be read; every other tile was written",
            failed.len()
        );
        ExitCode::from(1)
    }
}

/// Reads an `--area-map` CSV.
fn read_area_map(path: &Path) -> Result<convert::AreaMap, LoamError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoamError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    convert::AreaMap::parse(&text, path).map_err(LoamError::Usage)
}
