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

/// What each module or sub-folder directly in `folder` names of its neighbours there: a file
/// by `super::NAME` or `crate::FOLDER::NAME`, a sub-folder by the same paths from any file
/// below it (with as many `super::` as it takes to climb back to `folder`). Sub-folders count
/// as one node each, so that two rooms that import each other are a circle too.
fn neighbours(folder: &str) -> BTreeMap<String, BTreeSet<String>> {
    let crate_path = format!("crate::{}::", folder.replace('/', "::"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(folder);
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, code) in sources(folder) {
        let rel = Path::new(&file).strip_prefix(&root).unwrap().to_path_buf();
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let is_mod = parts.last().is_some_and(|l| l == "mod.rs");
        if parts.len() == 1 && is_mod {
            continue; // the folder's own mod.rs declares its children
        }
        let node = parts[0].trim_end_matches(".rs").to_string();
        // How many `super::` lead from this file's module back to `folder`.
        let climb = if is_mod { parts.len() - 1 } else { parts.len() };
        let named = names_after(&code, &"super::".repeat(climb))
            .into_iter()
            .chain(names_after(&code, &crate_path));
        deps.entry(node.clone())
            .or_default()
            .extend(named.filter(|n| *n != node));
    }
    let names: BTreeSet<String> = deps.keys().cloned().collect();
    for d in deps.values_mut() {
        d.retain(|n| names.contains(n));
    }
    deps
}

#[test]
fn modules_side_by_side_import_each_other_without_circles() {
    let mut circles = Vec::new();
    for folder in module_folders() {
        let deps = neighbours(&folder);
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
            deps.keys()
                .filter(|n| reaches(&deps, n, n, &mut BTreeSet::new()))
                .map(|n| format!("{folder}/{n}")),
        );
    }
    assert!(circles.is_empty(), "modules in a circle: {circles:?}");
}

#[test]
fn rooms_that_import_each_other_are_a_circle() {
    // The reader sees a sub-folder's imports as the sub-folder's: `edit/terrain` names
    // `crate::edit::lattice`, and `edit/lattice`'s own files name nothing of `terrain`.
    let deps = neighbours("edit");
    assert!(deps["terrain"].contains("lattice"), "{:?}", deps["terrain"]);
    assert!(
        !deps["lattice"].contains("terrain"),
        "{:?}",
        deps["lattice"]
    );
    // A file two folders down climbs with `super::super::` (edit/terrain/liquid/brush.rs).
    let code = "use super::super::brush::Brush;\nuse super::layers::Layer;";
    assert_eq!(
        names_after(code, "super::super::"),
        ["brush"].map(String::from).into()
    );
}

#[test]
fn no_folder_holds_more_than_25_modules_directly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crowded: Vec<String> = std::iter::once(String::new())
        .chain(module_folders())
        .filter_map(|folder| {
            let n = std::fs::read_dir(root.join(&folder))
                .unwrap()
                .filter(|e| {
                    let p = e.as_ref().unwrap().path();
                    p.is_file() && p.extension().is_some_and(|x| x == "rs")
                })
                .count();
            (n > 25).then(|| format!("src/{folder}: {n} files"))
        })
        .collect();
    assert_eq!(crowded, Vec::<String>::new());
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
        // app/access.rs holds the accessors tests and scripts use, apart from the frame loop
        // (issue 57): the one other `impl LoamApp`, and no component.
        .filter(|(file, _)| !file.ends_with("mod.rs") && !file.ends_with("access.rs"))
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

/// The fields of each braced struct in `code`: (name, count), counting `name: Type` lines at
/// the struct's own depth.
fn struct_fields(code: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("struct ") {
        let rest = &code[at + "struct ".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = rest.find(['{', ';', '(']) else {
            continue;
        };
        if !rest[open..].starts_with('{') {
            continue;
        }
        let body = &rest[open + 1..];
        // Line by line, comments skipped (a `->` or a bracket in a doc line is no depth).
        let (mut depth, mut fields) = (1i32, 0);
        for line in body.lines() {
            let l = line.trim();
            if l.starts_with("//") {
                continue;
            }
            if depth == 1 {
                let l = ["pub(crate) ", "pub(super) ", "pub "]
                    .iter()
                    .find_map(|p| l.strip_prefix(p))
                    .unwrap_or(l);
                let ident: String = l
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !ident.is_empty() && l[ident.len()..].starts_with(':') {
                    fields += 1;
                }
            }
            for c in l.chars() {
                match c {
                    '{' | '(' | '[' | '<' => depth += 1,
                    '}' | ')' | ']' | '>' => depth -= 1,
                    _ => {}
                }
            }
            if depth <= 0 {
                break;
            }
        }
        out.push((name, fields));
    }
    out
}

#[test]
fn no_struct_of_the_app_holds_more_than_13_fields() {
    let wide: Vec<String> = sources("app")
        .into_iter()
        .flat_map(|(file, code)| {
            struct_fields(&code)
                .into_iter()
                .filter(|(_, n)| *n > 13)
                .map(move |(name, n)| format!("{file}: {name} has {n} fields"))
        })
        .collect();
    assert_eq!(wide, Vec::<String>::new());
    // The counter itself, on a made-up struct.
    let code = "pub struct A {\n    /// doc: not a field\n    pub a: u8,\n    b: Vec<(u8, u8)>,\n    \
                pub c: Option<[f32; 3]>,\n}\nstruct B;\n";
    assert_eq!(struct_fields(code), [("A".to_string(), 3)]);
}
