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

#[test]
fn the_edit_modules_import_each_other_without_circles() {
    let files = sources("edit");
    let names: BTreeSet<String> = files
        .iter()
        .map(|(f, _)| {
            Path::new(f)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n != "mod")
        .collect();
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, code) in &files {
        let me = Path::new(file)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if me == "mod" {
            continue;
        }
        let d = deps.entry(me.clone()).or_default();
        for n in &names {
            if n != &me
                && (code.contains(&format!("super::{n}"))
                    || code.contains(&format!("crate::edit::{n}")))
            {
                d.insert(n.clone());
            }
        }
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
    let circles: Vec<&String> = names
        .iter()
        .filter(|n| reaches(&deps, n, n, &mut BTreeSet::new()))
        .collect();
    assert!(circles.is_empty(), "edit modules in a circle: {circles:?}");
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
