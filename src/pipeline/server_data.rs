//! A copy of a client's `Data` folder as the servers' map extractors read it.
//!
//! The extractors open a fixed list of archives, not the client's whole stack: the 1.12
//! servers' `contrib/extractor/System.cpp` (vmangos: `model`, `dbc`, `terrain`, `patch`,
//! `patch-2`; cMaNGOS classic and MaNGOS Zero: `dbc`, `terrain`, `patch`, `patch-2`) and the
//! 3.3.5 ones (cMaNGOS WotLK: `common`, `common-2`, `lichking`, `expansion`, `patch`,
//! `patch-2` … `patch-5`, then the locale's `locale-`, `patch-<locale>`, `patch-<locale>-2` …
//! `-4`). A custom patch the client loads beyond those (`patch-3.MPQ` in 1.12, where every
//! custom patch lies beyond; `patch-6.MPQ` or `patch-A.MPQ` in 3.3.5) never reaches the
//! server. [`write_server_data`] writes `OUT/Data` with every archive of the client linked (or
//! copied) under its own name, except that the patches beyond the list are merged, in the
//! client's order, into the last patch the extractor reads (`patch-2.MPQ` in 1.12, `patch-5.MPQ`
//! and `patch-<locale>-4.MPQ` in 3.3.5) over that archive's own files: the extractor run on
//! OUT then sees what the client sees. The client's folder is only read.
//!
//! Not for: packing a map (`pipeline::pack`) or the client's tables (`pipeline::tables`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::extractors::extractor_patch;
use super::mpq::{Entry, Source, write_archive};
use crate::assets::client::{ClientData, ClientGeneration, Mpq, locale_dir, name_key};
use crate::disk::{LoamError, Result, io_err};

/// What [`write_server_data`] wrote.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerData {
    /// Archives linked or copied unchanged, by their path under OUT.
    pub linked: Vec<PathBuf>,
    /// Each merged archive under OUT, with the client archives merged into it (the extractor's
    /// own first, when the client has it).
    pub merged: Vec<(PathBuf, Vec<PathBuf>)>,
    /// What the copy could not carry (files a merged archive holds but names nowhere).
    pub warnings: Vec<String>,
}

/// Writes `out/Data`: the archives of the client at `client` (its folder or its `Data`) as its
/// servers' map extractors would need them to see what the client sees (see the module).
/// Refuses an `out` that already has a `Data` folder.
pub fn write_server_data(client: &Path, out: &Path) -> Result<ServerData> {
    let data = ClientData::open(client).map_err(|e| LoamError::Usage(e.to_string()))?;
    let generation = data.generation().clone();
    let data_dir = data.data_dir().to_path_buf();
    if !matches!(generation, ClientGeneration::V112 | ClientGeneration::V335) {
        return Err(LoamError::Usage(format!(
            "{}: loam knows the servers' extractors of 1.12 and 3.3.5 clients; this one reads as {generation}",
            data_dir.display()
        )));
    }
    let out_data = out.join("Data");
    if out_data.exists() {
        return Err(LoamError::Usage(format!(
            "{} exists; give a new folder",
            out_data.display()
        )));
    }
    let locale = locale_dir(&data_dir)
        .map(|(code, _)| code)
        .unwrap_or_default();

    // Each merge target (lower-case path under Data) and the client archives going into it.
    let mut merges: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    let mut copies = Vec::new();
    for info in data.archives() {
        let rel = info
            .path
            .strip_prefix(&data_dir)
            .unwrap_or(&info.path)
            .to_path_buf();
        let file = rel
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        match extractor_patch(&generation, info.kind, &locale) {
            Some((last, read)) if file == last.to_ascii_lowercase() || !read.contains(&file) => {
                merges
                    .entry(rel.with_file_name(&last))
                    .or_default()
                    .push(info.path.clone());
            }
            _ => copies.push(rel),
        }
    }
    // The extractor's own last patch, alone, is a plain copy (under the client's spelling).
    let mut result = ServerData::default();
    let mut merge_list = Vec::new();
    for (target, sources) in merges {
        let own = |p: &PathBuf| {
            p.file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase())
                == target
                    .file_name()
                    .map(|n| n.to_string_lossy().to_ascii_lowercase())
        };
        if let [only] = sources.as_slice()
            && own(only)
        {
            copies.push(only.strip_prefix(&data_dir).unwrap_or(only).to_path_buf());
        } else {
            merge_list.push((target, sources));
        }
    }

    fs::create_dir_all(&out_data).map_err(io_err(&out_data))?;
    for rel in copies {
        let from = data_dir.join(&rel);
        let to = out_data.join(&rel);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent).map_err(io_err(parent))?;
        }
        // A hard link costs no space and leaves the client's file as it is (nothing here
        // writes into it); another volume gets a copy.
        if fs::hard_link(&from, &to).is_err() {
            fs::copy(&from, &to).map_err(io_err(&to))?;
        }
        result.linked.push(to);
    }
    for (target, sources) in merge_list {
        let to = out_data.join(&target);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent).map_err(io_err(parent))?;
        }
        let (entries, unnamed, hides_below) = merged_entries(&sources)?;
        for marker in hides_below {
            result.warnings.push(format!(
                "{marker} is a deletion marker for a file of an archive below the merge; the \
                 server's copy still has that file"
            ));
        }
        for (archive, count) in unnamed {
            result.warnings.push(format!(
                "{}: {count} file(s) its (listfile) does not name cannot be carried into {}",
                archive.display(),
                to.display()
            ));
        }
        write_archive(&entries, true, &to)?;
        result.merged.push((to, sources));
    }
    Ok(result)
}

/// The files of `sources` (lowest priority first) as the client sees them: each name from
/// every archive's `(listfile)`, the last archive holding it winning, a deletion marker
/// removing it; with each archive's count of files no listfile names, and the deletion markers
/// that hide a file of an archive below the merge (which the merge cannot carry).
type Merged = (Vec<Entry>, Vec<(PathBuf, usize)>, Vec<String>);
fn merged_entries(sources: &[PathBuf]) -> Result<Merged> {
    let mut names: BTreeMap<String, Entry> = BTreeMap::new();
    let mut unnamed = Vec::new();
    let mut hides_below = Vec::new();
    for path in sources {
        let mpq = Arc::new(Mpq::open(path).map_err(|e| LoamError::Usage(e.to_string()))?);
        let listed = mpq.listfile().unwrap_or_default();
        let deleted: std::collections::HashSet<u32> = mpq
            .entries()
            .filter(|e| e.deleted)
            .map(|e| e.block)
            .collect();
        let mut keys = std::collections::HashSet::new();
        for name in listed {
            let Some(block) = mpq.find(&name) else {
                continue;
            };
            keys.insert(name_key(&name));
            let key = name.to_ascii_uppercase().replace('/', "\\");
            if key == "(LISTFILE)" || key == "(ATTRIBUTES)" || key == "(SIGNATURE)" {
                continue;
            }
            if deleted.contains(&block) {
                if names.remove(&key).is_none() {
                    hides_below.push(format!("{}: {name}", path.display()));
                }
            } else {
                names.insert(
                    key,
                    Entry {
                        game: name.clone(),
                        source: Source::Block {
                            archive: mpq.clone(),
                            block,
                        },
                    },
                );
            }
        }
        for special in ["(listfile)", "(attributes)", "(signature)"] {
            keys.insert(name_key(special));
        }
        let missing = mpq.entries().filter(|e| !keys.contains(&e.key)).count();
        if missing > 0 {
            unnamed.push((path.clone(), missing));
        }
    }
    Ok((names.into_values().collect(), unnamed, hides_below))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wow_mpq::{Archive, ArchiveBuilder, ListfileOption};

    fn archive(path: &Path, files: &[(&str, &[u8])], listfile: bool) {
        let mut b = ArchiveBuilder::new().listfile_option(if listfile {
            ListfileOption::Generate
        } else {
            ListfileOption::None
        });
        for (name, bytes) in files {
            b = b.add_file_data(bytes.to_vec(), name);
        }
        b.build(path).unwrap();
    }

    /// A temporary folder with a client's `Game/Data` holding the archives `names`, each with
    /// one file; the folder and the Data path.
    fn client_with(names: &[&str]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("Game/Data");
        fs::create_dir_all(&data).unwrap();
        for n in names {
            archive(&data.join(n), &[("x.txt", b"base")], true);
        }
        (dir, data)
    }

    #[test]
    fn patches_beyond_the_list_merge_into_its_last_in_the_clients_order() {
        let (dir, data) = client_with(&["dbc.MPQ", "terrain.MPQ", "model.MPQ", "patch.MPQ"]);
        archive(
            &data.join("patch-2.MPQ"),
            &[("a.txt", b"blizzard"), ("b.txt", b"kept")],
            true,
        );
        archive(&data.join("patch-3.MPQ"), &[("a.txt", b"three")], true);
        archive(&data.join("patch-A.MPQ"), &[("a.txt", b"letter")], true);
        archive(&data.join("patch-4.MPQ"), &[("c.txt", b"unnamed")], false);

        let out = dir.path().join("srv");
        let got = write_server_data(&dir.path().join("Game"), &out).unwrap();
        let merged = out.join("Data/patch-2.MPQ");
        assert_eq!(got.merged.len(), 1);
        let (path, sources) = &got.merged[0];
        assert_eq!(path, &merged);
        let names: Vec<_> = sources
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        // The client's order: numbers before letters, so patch-A wins.
        assert_eq!(
            names,
            ["patch-2.MPQ", "patch-3.MPQ", "patch-4.MPQ", "patch-A.MPQ"]
        );
        let mut a = Archive::open(&merged).unwrap();
        assert_eq!(a.read_file("a.txt").unwrap(), b"letter");
        assert_eq!(a.read_file("b.txt").unwrap(), b"kept");
        assert!(a.read_file("c.txt").is_err(), "no listfile names it");
        assert!(
            got.warnings
                .iter()
                .any(|w| w.contains("patch-4.MPQ: 1 file(s)")),
            "{:?}",
            got.warnings
        );
        for n in ["dbc.MPQ", "terrain.MPQ", "model.MPQ", "patch.MPQ"] {
            assert_eq!(
                fs::read(out.join("Data").join(n)).unwrap(),
                fs::read(data.join(n)).unwrap()
            );
        }
        for n in ["patch-3.MPQ", "patch-4.MPQ", "patch-A.MPQ"] {
            assert!(
                !out.join("Data").join(n).exists(),
                "{n} is merged, not copied"
            );
        }
        // The client is as it was, and OUT is never written over.
        assert!(data.join("patch-A.MPQ").is_file());
        let e = write_server_data(&dir.path().join("Game"), &out).unwrap_err();
        assert!(e.to_string().contains("exists"), "{e}");
    }

    #[test]
    fn a_client_whose_patches_the_extractors_all_read_is_only_linked() {
        let (dir, data) = client_with(&["dbc.MPQ", "terrain.MPQ", "patch.MPQ", "patch-2.MPQ"]);
        let got = write_server_data(&data, &dir.path().join("srv")).unwrap();
        assert!(got.merged.is_empty());
        assert_eq!(got.linked.len(), 4);
    }
}
