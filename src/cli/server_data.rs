//! `loam server-data CLIENT OUT`: a copy of the client's `Data` folder in which the servers'
//! map extractors find every map the client loads (see `pipeline::server_data`).

use std::path::Path;
use std::process::ExitCode;

use crate::disk::LoamError;
use crate::pipeline::server_data::write_server_data;

use crate::pipeline::server_data::ServerData;

/// Runs `loam server-data`.
pub fn run(client: &Path, out: &Path) -> Result<ExitCode, LoamError> {
    let written = write_server_data(client, out)?;
    print_written(&written, out);
    Ok(ExitCode::SUCCESS)
}

/// Says what a servers' copy written to `out` holds, and where to run the extractor (also
/// `convert --pack --client --server-data`'s words).
pub fn print_written(written: &ServerData, out: &Path) {
    for (archive, sources) in &written.merged {
        let names: Vec<String> = sources
            .iter()
            .map(|s| {
                s.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        println!("merged {} into {}", names.join(", "), archive.display());
    }
    println!(
        "linked {} archive(s) unchanged into {}",
        written.linked.len(),
        out.join("Data").display()
    );
    if written.merged.is_empty() {
        println!("the extractors read every patch this client loads: nothing needed merging");
    }
    for w in &written.warnings {
        eprintln!("warning: {w}");
    }
    println!("run the server's map extractor on {}", out.display());
}
