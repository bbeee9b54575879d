//! The archives a client loads, in its own order (lowest priority first, the last one wins).
//!
//! Sources (see docs/client-data.md, "Archive order"): for 2.4.3/3.3.5, the servers' extractors
//! (which search the general patches before the locale archives) and warcraft-rs's patch-chain
//! tests, which agree on base < locale base < general patches < locale patches; Noggit's
//! `loadMPQs` supplies the names, the 1.12 `Data` folder listing, and the
//! alpha notes (specs/alpha-0.5.3.md) for 0.5.x per-file wrappers.
//!
//! Not for: opening the archives or deciding the generation.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::generation::{ClientGeneration, VANILLA_CONTENT};

/// What role an archive plays in the client's stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveKind {
    /// Content shipped with the game (`common.MPQ`, `texture.MPQ`…).
    Base,
    /// A patch over the base archives (`patch.MPQ`, `patch-2.MPQ`, custom `patch-4.MPQ`…).
    Patch,
    /// A locale archive (`enUS/locale-enUS.MPQ`…).
    Locale,
    /// A patch over the locale archives (`enUS/patch-enUS.MPQ`…).
    LocalePatch,
    /// A 0.5.x wrapper holding exactly one file (`Azeroth.wdt.MPQ`).
    PerFile,
}

impl std::fmt::Display for ArchiveKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Base => "base",
            Self::Patch => "patch",
            Self::Locale => "locale",
            Self::LocalePatch => "locale patch",
            Self::PerFile => "per-file",
        })
    }
}

/// Suffixes of custom patches after `patch.MPQ`, in the order Noggit (and the 3.3.5 client)
/// loads them: `patch-2` … `patch-9`, then `patch-A` … `patch-Z`.
const PATCH_SUFFIXES: &str = "23456789abcdefghijklmnopqrstuvwxyz";

/// Locale folders, the usual ones first so that a client with several picks English.
const LOCALES: [&str; 12] = [
    "enUS", "enGB", "deDE", "frFR", "esES", "esMX", "ruRU", "koKR", "zhCN", "zhTW", "enCN", "enTW",
];

/// The regular files of a folder by lower-case name (a case-insensitive lookup on any OS).
pub(crate) fn list_folder(dir: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_ascii_lowercase();
            out.insert(name, e.path());
        }
    }
    out
}

/// The locale folder of a `Data` folder (the one holding `locale-xxXX.MPQ`), with its code.
pub(crate) fn locale_folder(data: &BTreeMap<String, PathBuf>) -> Option<(String, PathBuf)> {
    LOCALES.iter().find_map(|code| {
        let dir = data.get(&code.to_ascii_lowercase())?;
        let files = list_folder(dir);
        let lower = code.to_ascii_lowercase();
        (files.contains_key(&format!("locale-{lower}.mpq"))
            || files.contains_key(&format!("patch-{lower}.mpq")))
        .then(|| (code.to_string(), dir.clone()))
    })
}

type Stack = Vec<(PathBuf, ArchiveKind)>;

/// Appends archive `name` (lower case) when the folder has it as a file, or it is the archive
/// about to be written (`also`).
fn push(
    stack: &mut Stack,
    files: &BTreeMap<String, PathBuf>,
    name: &str,
    kind: ArchiveKind,
    also: Option<&Path>,
) {
    if let Some(p) = files
        .get(name)
        .filter(|p| p.is_file() || Some(p.as_path()) == also)
    {
        stack.push((p.clone(), kind));
    }
}

/// Appends `stem.mpq` and its numbered and lettered successors, in load order.
fn push_patches(
    stack: &mut Stack,
    files: &BTreeMap<String, PathBuf>,
    stem: &str,
    kind: ArchiveKind,
    also: Option<&Path>,
) {
    push(stack, files, &format!("{stem}.mpq"), kind, also);
    for c in PATCH_SUFFIXES.chars() {
        push(stack, files, &format!("{stem}-{c}.mpq"), kind, also);
    }
}

/// The archive stack of a `Data` folder, lowest priority first. Per-file wrappers of 0.5.x
/// are not listed here: they are found by walking the folder (`ClientData::open`).
pub fn archive_stack(
    generation: &ClientGeneration,
    data_dir: &Path,
) -> Vec<(PathBuf, ArchiveKind)> {
    archive_stack_with(generation, data_dir, None)
}

/// [`archive_stack`] as it will be once the archive `also` (a file in the `Data` folder or its
/// locale folder, which may not exist yet) is written: where a new archive will load, and so
/// which archives will load after it.
pub fn archive_stack_with(
    generation: &ClientGeneration,
    data_dir: &Path,
    also: Option<&Path>,
) -> Vec<(PathBuf, ArchiveKind)> {
    let mut top = list_folder(data_dir);
    // The new archive joins the listing of its own folder under its lower-case name.
    let add = |listing: &mut BTreeMap<String, PathBuf>, folder: &Path| {
        if let Some(a) = also
            && a.parent() == Some(folder)
            && let Some(n) = a.file_name()
        {
            listing
                .entry(n.to_string_lossy().to_ascii_lowercase())
                .or_insert_with(|| a.to_path_buf());
        }
    };
    add(&mut top, data_dir);
    let mut stack = Vec::new();
    match generation {
        ClientGeneration::Alpha | ClientGeneration::V060 | ClientGeneration::V112 => {
            // The content archives hold disjoint folders, so their mutual order does not
            // matter; base.MPQ/backup.MPQ come first as the installer's oldest layer.
            for name in ["backup.mpq", "base.mpq"]
                .iter()
                .chain(VANILLA_CONTENT.iter())
            {
                push(&mut stack, &top, name, ArchiveKind::Base, also);
            }
            push_patches(&mut stack, &top, "patch", ArchiveKind::Patch, also);
        }
        ClientGeneration::V243 | ClientGeneration::V335 => {
            // Base archives, then the locale's base archives, then the general patches, then
            // the locale's patches: a `patch-N.MPQ` wins over `locale-<locale>.MPQ` (where
            // Blizzard keeps the tables) and loses to `patch-<locale>-N.MPQ`. The evidence is
            // in docs/client-data.md, "Archive order".
            for name in [
                "common.mpq",
                "common-2.mpq",
                "expansion.mpq",
                "lichking.mpq",
            ] {
                push(&mut stack, &top, name, ArchiveKind::Base, also);
            }
            let locale = locale_folder(&top).map(|(code, dir)| {
                let mut files = list_folder(&dir);
                add(&mut files, &dir);
                (code.to_ascii_lowercase(), files)
            });
            if let Some((l, files)) = &locale {
                for stem in [
                    "base",
                    "backup",
                    "locale",
                    "speech",
                    "expansion-locale",
                    "expansion-speech",
                    "lichking-locale",
                    "lichking-speech",
                ] {
                    push(
                        &mut stack,
                        files,
                        &format!("{stem}-{l}.mpq"),
                        ArchiveKind::Locale,
                        also,
                    );
                }
            }
            push_patches(&mut stack, &top, "patch", ArchiveKind::Patch, also);
            if let Some((l, files)) = &locale {
                push_patches(
                    &mut stack,
                    files,
                    &format!("patch-{l}"),
                    ArchiveKind::LocalePatch,
                    also,
                );
            }
        }
        ClientGeneration::Unknown(_) => {
            // Still serve what is there: every archive in Data, patches last.
            let mut rest: Vec<(&String, &PathBuf)> = top
                .iter()
                .filter(|(n, _)| n.ends_with(".mpq") && !n.starts_with("patch"))
                .collect();
            rest.sort();
            for (n, _) in rest {
                push(&mut stack, &top, n, ArchiveKind::Base, also);
            }
            push_patches(&mut stack, &top, "patch", ArchiveKind::Patch, also);
        }
    }
    stack
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(stack: &[(PathBuf, ArchiveKind)]) -> Vec<String> {
        stack
            .iter()
            .map(|(p, _)| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn an_archive_about_to_be_written_takes_its_place_in_the_load_order() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path();
        std::fs::create_dir_all(data.join("enUS")).unwrap();
        for n in [
            "common.MPQ",
            "patch.MPQ",
            "patch-3.MPQ",
            "enUS/locale-enUS.MPQ",
        ] {
            std::fs::write(data.join(n), b"").unwrap();
        }
        let g = ClientGeneration::V335;
        // The locale's base archive loads below the general patches (docs/client-data.md).
        assert_eq!(
            names(&archive_stack(&g, data)),
            ["common.MPQ", "locale-enUS.MPQ", "patch.MPQ", "patch-3.MPQ"]
        );
        let with = archive_stack_with(&g, data, Some(&data.join("patch-2.MPQ")));
        assert_eq!(
            names(&with),
            [
                "common.MPQ",
                "locale-enUS.MPQ",
                "patch.MPQ",
                "patch-2.MPQ",
                "patch-3.MPQ",
            ]
        );
        let locale = archive_stack_with(&g, data, Some(&data.join("enUS/patch-enUS-4.MPQ")));
        assert_eq!(names(&locale).last().unwrap(), "patch-enUS-4.MPQ");
        // Nothing was written.
        assert!(!data.join("patch-2.MPQ").exists());
    }
}
