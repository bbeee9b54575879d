//! `loam client DIR [--find GLOB | --maps]`: what a game client folder holds — its generation,
//! its archives in priority order and how many maps — or which archive serves each path
//! matching a glob, or its maps one per line.

use std::path::Path;
use std::process::ExitCode;

use crate::assets::client::{AREA_TABLE_DBC, AreaNames, ClientData, glob_match};
use crate::disk::LoamError;

/// The area names of the client in `dir`, for the commands that show area ids (`info`,
/// `convert`); says on stderr when the client has none loam can read, since the ids then
/// show as bare numbers.
pub fn area_names(client: &ClientData, dir: &Path) -> AreaNames {
    let names = client.area_names();
    if names.is_empty() {
        eprintln!(
            "note: {}: no {AREA_TABLE_DBC} loam can read in this {} client; area ids show as numbers",
            dir.display(),
            client.generation()
        );
    }
    names
}

/// Opens the game client in `dir` (a usage error when it is not one).
pub fn open(dir: &Path) -> Result<ClientData, LoamError> {
    ClientData::open(dir).map_err(|e| LoamError::Usage(e.to_string()))
}

/// Prints the client's generation, archives and map count, or with `find` the matching paths
/// and where each is served from, or with `maps` the maps. Exits 1 when `find` matches
/// nothing.
pub fn run(dir: &Path, find: Option<&str>, maps: bool) -> Result<ExitCode, LoamError> {
    let client = open(dir)?;
    if let Some(pattern) = find {
        let mut found = 0usize;
        for name in client.names().iter().filter(|n| glob_match(pattern, n)) {
            found += 1;
            match client.served_by(name) {
                Some(origin) => println!("{name}\t{origin}"),
                None => println!("{name}\t(not served)"),
            }
        }
        eprintln!("{found} path(s) match {pattern}");
        return Ok(if found == 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        });
    }
    if maps {
        let listing = client.maps();
        for m in &listing.maps {
            match &m.table {
                Some((id, name)) => println!("{}\t{id}\t{name}", m.directory),
                None => println!("{}", m.directory),
            }
        }
        eprintln!("{} map(s); {}", listing.maps.len(), listing.names);
        return Ok(ExitCode::SUCCESS);
    }
    println!("client: {}", client.generation());
    println!("data folder: {}", client.data_dir().display());
    let archives = client.archives();
    println!("archives, lowest priority first ({}):", archives.len());
    for (i, a) in archives.iter().enumerate() {
        let shown = a.path.strip_prefix(client.data_dir()).unwrap_or(&a.path);
        println!(
            "{:>4}  {:<12} {:>8} files  {}",
            i + 1,
            a.kind.to_string(),
            a.files,
            shown.display()
        );
    }
    for e in client.skipped() {
        println!("left out (unreadable): {e}");
    }
    if let Some(loose) = client.loose_files() {
        println!("loose files honoured: {}", loose.len());
    } else {
        println!("loose files: not read by this client");
    }
    let listing = client.maps();
    println!(
        "maps: {} ({}; --maps lists them)",
        listing.maps.len(),
        listing.names
    );
    Ok(ExitCode::SUCCESS)
}
