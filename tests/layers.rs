//! The arrows of the house: lower layers never import higher ones. Read from the sources,
//! so that a change that makes an arrow point up fails here rather than in a later review.
//! (`../shared/design.md`, "The house as it should be".)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every `.rs` file below `src/<dir>`, with its text up to its unit tests.
fn sources(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
                out.push((p.display().to_string(), code));
            }
        }
    }
    assert!(!out.is_empty(), "no sources in src/{dir}");
    out
}

/// Lines of `dir` that name any of `higher` as a path (`crate::app`, …).
fn uses_of(dir: &str, higher: &[&str]) -> Vec<String> {
    sources(dir)
        .into_iter()
        .flat_map(|(file, code)| {
            code.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim_start().starts_with("//"))
                .filter(|(_, l)| higher.iter().any(|h| l.contains(h)))
                .map(|(i, l)| format!("{file}:{}: {}", i + 1, l.trim()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_panels_and_the_intents_never_import_the_app() {
    assert_eq!(uses_of("ui", &["crate::app"]), Vec::<String>::new());
    assert_eq!(
        uses_of("command", &["crate::app", "crate::ui"]),
        Vec::<String>::new()
    );
}

#[test]
fn the_model_and_the_codecs_know_nothing_above_them() {
    let above = [
        "crate::app",
        "crate::ui",
        "crate::render",
        "crate::command",
        "crate::cli",
        "crate::disk",
        "crate::edit",
    ];
    assert_eq!(uses_of("model", &above), Vec::<String>::new());
    assert_eq!(uses_of("format", &above), Vec::<String>::new());
}

/// The first path segment of each path `code` names after `prefix` (`super::`,
/// `crate::edit::`): `super::seams::Seam` gives `seams`, `super::{cells, stroke::Stroke}` gives
/// `cells` and `stroke`.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue; // `a::super::` or `notsuper::`: not this prefix.
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(group.split(',').map(ident));
        } else {
            out.insert(ident(rest));
        }
    }
    out.remove("");
    out
}

/// Every folder below `src/` that holds modules, as `edit` or `assets/client`.
fn module_folders() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.push(
                    p.strip_prefix(&root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn modules_side_by_side_import_each_other_without_circles() {
    let mut circles = Vec::new();
    for folder in module_folders() {
        let crate_path = format!("crate::{}::", folder.replace('/', "::"));
        // The folder's own files (not those of folders below it), by module name.
        let files: Vec<(String, String)> = sources(&folder)
            .into_iter()
            .filter(|(f, _)| {
                let parent = Path::new(f).parent().unwrap();
                parent.ends_with(&folder) && !f.ends_with("mod.rs")
            })
            .map(|(f, code)| {
                let stem = Path::new(&f)
                    .file_stem()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (stem, code)
            })
            .collect();
        let names: BTreeSet<&String> = files.iter().map(|(n, _)| n).collect();
        let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (me, code) in &files {
            let named = names_after(code, "super::")
                .into_iter()
                .chain(names_after(code, &crate_path));
            deps.entry(me.clone())
                .or_default()
                .extend(named.filter(|n| n != me && names.contains(n)));
        }
        // Depth-first search for a path back to where it started.
        fn reaches(
            deps: &BTreeMap<String, BTreeSet<String>>,
            from: &str,
            to: &str,
            seen: &mut BTreeSet<String>,
        ) -> bool {
            deps.get(from)
                .into_iter()
                .flatten()
                .any(|d| d == to || (seen.insert(d.clone()) && reaches(deps, d, to, seen)))
        }
        circles.extend(
            names
                .iter()
                .filter(|n| reaches(&deps, n, n, &mut BTreeSet::new()))
                .map(|n| format!("{folder}/{n}.rs")),
        );
    }
    assert!(circles.is_empty(), "modules in a circle: {circles:?}");
}

#[test]
fn the_module_reader_sees_grouped_and_plain_paths() {
    let code = "use super::{cells, stroke::Stroke};\nlet x = super::seams::within(t);\n\
                use crate::edit::{self, uids};\nfoo::super::not_this();";
    let got = names_after(code, "super::");
    assert_eq!(
        got,
        ["cells", "seams", "stroke"].map(String::from).into(),
        "{got:?}"
    );
    assert_eq!(
        names_after(code, "crate::edit::"),
        ["self", "uids"].map(String::from).into()
    );
}

#[test]
fn disk_is_files_only_and_the_pipeline_sits_below_the_document() {
    let codecs_and_above = [
        "crate::format",
        "crate::convert",
        "crate::pipeline",
        "crate::edit",
        "crate::doc",
        "crate::assets",
        "crate::app",
        "crate::cli",
    ];
    assert_eq!(uses_of("disk", &codecs_and_above), Vec::<String>::new());
    let above_pipeline = [
        "crate::doc",
        "crate::edit",
        "crate::app",
        "crate::ui",
        "crate::cli",
    ];
    assert_eq!(uses_of("pipeline", &above_pipeline), Vec::<String>::new());
}

#[test]
fn the_document_needs_no_window() {
    let windowed = [
        "crate::app",
        "crate::ui",
        "crate::render",
        "crate::command",
        "crate::cli",
        "egui",
        "eframe",
        "glow",
    ];
    assert_eq!(uses_of("doc", &windowed), Vec::<String>::new());
}

#[test]
fn the_app_is_one_shell_whose_components_are_structs_of_their_own() {
    let outside: Vec<String> = sources("app")
        .into_iter()
        .filter(|(file, _)| !file.ends_with("mod.rs"))
        .flat_map(|(file, code)| {
            code.lines()
                .filter(|l| l.trim_start().starts_with("impl LoamApp"))
                .map(|l| format!("{file}: {}", l.trim()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(outside, Vec::<String>::new());
}

#[test]
fn the_minimap_sits_beside_the_pipeline_below_the_document() {
    let above = [
        "crate::doc",
        "crate::edit",
        "crate::app",
        "crate::ui",
        "crate::render",
        "crate::command",
        "crate::cli",
    ];
    assert_eq!(uses_of("minimap", &above), Vec::<String>::new());
    // The arrow points one way: the pipeline never draws a minimap.
    assert_eq!(
        uses_of("pipeline", &["crate::minimap"]),
        Vec::<String>::new()
    );
}

#[test]
fn images_sit_above_the_edit_layer_and_the_pipeline_below_the_document() {
    let above = [
        "crate::doc",
        "crate::app",
        "crate::ui",
        "crate::render",
        "crate::command",
        "crate::cli",
    ];
    assert_eq!(uses_of("images", &above), Vec::<String>::new());
    // The layouts are pure edits: the edit layer and the pipeline never read or write an image file.
    assert_eq!(uses_of("edit", &["crate::images"]), Vec::<String>::new());
    assert_eq!(
        uses_of("pipeline", &["crate::images"]),
        Vec::<String>::new()
    );
}
