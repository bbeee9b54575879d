//! Docs that check themselves: a module path a doc comment names must still lead somewhere, and
//! docs/modules.md must name every folder of `src/` and nothing that is gone. Files move; the
//! comments and the map of the house that point at them are not compiled, so without this they
//! go stale silently (issue 44, item 6).
//!
//! Both tests read the tree as text and link nothing of the crate, so they stay fast.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The repository root.
fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file below `dir`, sorted so that failures list in a stable order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every folder below `dir`, as paths relative to it (`format/v18`).
fn folders(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy();
                out.push(rel.replace('\\', "/"));
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The crate's top-level modules, as src/lib.rs declares them (`mod app;`, `pub mod edit;`).
fn top_modules() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(repo().join("src/lib.rs")).unwrap();
    let mods: BTreeSet<String> = lib
        .lines()
        .filter_map(|l| {
            let l = l
                .trim_start()
                .strip_prefix("pub ")
                .unwrap_or(l.trim_start());
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_string())
        })
        .collect();
    assert!(mods.contains("edit"), "src/lib.rs declares no modules?");
    mods
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The text of each doc comment line (`//!` or `///`, not a `////` rule) of `text`, with its
/// 1-based line number.
fn doc_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, l)| {
        let l = l.trim_start();
        let body = l
            .strip_prefix("//!")
            .or_else(|| l.strip_prefix("///").filter(|rest| !rest.starts_with('/')))?;
        Some((i + 1, body))
    })
}

/// The paths in `text` that start with one of `firsts` as a whole segment (not after `::` or
/// inside a longer name) and go on with at least one `::segment`: `edit::Stroke::finish` in
/// "see `edit::Stroke::finish()`". A path stops at anything that is not `::` and a name, so
/// generics, calls and turbofish end it.
fn paths_in(text: &str, firsts: &dyn Fn(&str) -> bool) -> Vec<Vec<String>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = is_ident_char(chars[i])
            && (i == 0 || !(is_ident_char(chars[i - 1]) || chars[i - 1] == ':'));
        if !starts_word {
            i += 1;
            continue;
        }
        let mut segs = Vec::new();
        let mut j = i;
        loop {
            let start = j;
            while j < chars.len() && is_ident_char(chars[j]) {
                j += 1;
            }
            segs.push(chars[start..j].iter().collect::<String>());
            let more = j + 2 < chars.len()
                && chars[j] == ':'
                && chars[j + 1] == ':'
                && is_ident_char(chars[j + 2]);
            if !more {
                break;
            }
            j += 2;
        }
        if segs.len() > 1 && firsts(&segs[0]) {
            out.push(segs);
        }
        i = j.max(i + 1);
    }
    out
}

/// The crate paths one doc comment line names: every `crate::…` (or `loam::…`, the crate seen
/// from outside), and every backticked path whose first segment is a top-level module
/// (`edit::history`). Paths of other crates (`std::`, `egui::`) are not the crate's and are
/// left alone; so is `self::`/`super::`, which only the compiler can place.
fn crate_paths(line: &str, tops: &BTreeSet<String>) -> Vec<Vec<String>> {
    let rooted = |s: &str| s == "crate" || s == "loam";
    let mut out = paths_in(line, &rooted);
    // Odd pieces between backticks are code spans (a span never crosses lines in this tree).
    for span in line.split('`').skip(1).step_by(2) {
        out.extend(paths_in(span, &|s| tops.contains(s)));
    }
    out
}

/// The file of module `segs` (`["format", "v18"]`): `src/format/v18.rs` or
/// `src/format/v18/mod.rs`; the crate root for no segments.
fn module_file(segs: &[String]) -> Option<PathBuf> {
    let src = repo().join("src");
    if segs.is_empty() {
        return Some(src.join("lib.rs"));
    }
    let base = segs.iter().fold(src, |p, s| p.join(s));
    [base.with_extension("rs"), base.join("mod.rs")]
        .into_iter()
        .find(|p| p.is_file())
}

/// The names a `use` tree (the text after `use `, up to its `;`) brings in: each leaf's last
/// segment or its `as` name, `self` in a group standing for the group's prefix.
fn use_names(tree: &str) -> Vec<String> {
    // Tokens: names, and the punctuation of a tree; `::` splits like a space would.
    let spaced = tree
        .replace("::", " ")
        .replace('{', " { ")
        .replace('}', " } ")
        .replace(',', " , ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let mut names = Vec::new();
    // A stack of each open group's prefix (its last name); `last` is the path being read.
    let mut prefixes: Vec<Option<String>> = Vec::new();
    let mut last: Option<String> = None;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "{" => {
                prefixes.push(last.take());
            }
            "," | "}" => {
                if let Some(n) = last.take() {
                    names.push(n);
                }
                if tokens[i] == "}" {
                    prefixes.pop();
                }
            }
            "as" => {
                last = tokens.get(i + 1).map(|s| s.to_string());
                i += 1;
            }
            "self" if prefixes.last().is_some() => {
                last = prefixes.last().cloned().flatten();
            }
            name => last = Some(name.to_string()),
        }
        i += 1;
    }
    names.extend(last);
    names
}

/// The names module file `file` defines at its top level: items (`fn`, `struct`, `enum`,
/// `trait`, `type`, `const`, `static`, `union`, `mod`, `macro_rules!`) and `pub use`
/// re-exports. Top level means column 0, which rustfmt guarantees, so that methods and
/// items of inline `mod tests` do not count.
fn items_of(file: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut names = BTreeSet::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.starts_with(char::is_whitespace) {
            continue;
        }
        // Visibility first: `pub`, `pub(crate)`, `pub(in …)`.
        let mut rest = line;
        if let Some(r) = rest.strip_prefix("pub") {
            rest = match r.strip_prefix('(') {
                Some(r) => r.split_once(')').map_or(r, |(_, after)| after),
                None => r,
            };
            rest = rest.trim_start();
        }
        if let Some(tree) = rest.strip_prefix("use ") {
            if !line.starts_with("pub") {
                continue;
            }
            // A tree may run over several lines, up to its `;`.
            let mut tree = tree.to_string();
            while !tree.contains(';') {
                match lines.next() {
                    Some(l) => tree.push_str(l),
                    None => break,
                }
            }
            names.extend(use_names(tree.split(';').next().unwrap_or("")));
            continue;
        }
        if let Some(r) = rest.strip_prefix("macro_rules!") {
            names.insert(r.trim().trim_end_matches('{').trim().to_string());
            continue;
        }
        let mut words = rest.split_whitespace().peekable();
        // Qualifiers before the keyword (`const` only when a `fn` follows).
        while let Some(w) = words.peek() {
            match *w {
                "async" | "unsafe" | "extern" | "\"C\"" => drop(words.next()),
                _ => break,
            }
        }
        let Some(mut keyword) = words.next() else {
            continue;
        };
        if keyword == "const" && words.peek().is_some_and(|w| *w == "fn" || *w == "unsafe") {
            keyword = words.find(|w| *w == "fn").unwrap_or(keyword);
        }
        let is_item = matches!(
            keyword,
            "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union" | "mod"
        );
        let name = words
            .next()
            .filter(|w| *w != "mut")
            .or_else(|| words.next());
        if let (true, Some(name)) = (is_item, name) {
            let name: String = name.chars().take_while(|c| is_ident_char(*c)).collect();
            if !name.is_empty() {
                names.insert(name);
            }
        }
    }
    names
}

/// Why `path` does not resolve, or `None` when it does: after its root (`crate`, `loam`, or
/// none), its leading segments must be modules (each a file or folder), and the first segment
/// after them an item that module defines or re-exports. What follows that item (a variant,
/// method or field) is not followed further.
fn unresolved(path: &[String]) -> Option<String> {
    let rooted = path.first().is_some_and(|s| s == "crate" || s == "loam");
    let segs = &path[usize::from(rooted)..];
    let modules = (0..=segs.len())
        .take_while(|&n| module_file(&segs[..n]).is_some())
        .last()
        .unwrap_or(0);
    if modules == segs.len() {
        return None;
    }
    let file = module_file(&segs[..modules])?;
    let item = &segs[modules];
    if items_of(&file).contains(item) {
        return None;
    }
    let rel = file.strip_prefix(repo()).unwrap_or(&file).display();
    Some(format!("no module or item `{item}` in {rel}"))
}

/// Each doc comment path of the `.rs` files under `dir` that does not resolve, as
/// "file:line: `path`: why".
fn stale_paths(dir: &Path, tops: &BTreeSet<String>, only_rooted: bool) -> Vec<String> {
    let mut stale = Vec::new();
    for file in rust_files(dir) {
        let text = std::fs::read_to_string(&file).unwrap();
        let rel = file.strip_prefix(repo()).unwrap().display().to_string();
        for (n, line) in doc_lines(&text) {
            let paths = if only_rooted {
                // Outside the crate, `edit::…` may be a test's own module: only `loam::` counts.
                let rooted = |s: &str| s == "loam";
                paths_in(line, &rooted)
            } else {
                crate_paths(line, tops)
            };
            for segs in paths {
                if let Some(why) = unresolved(&segs) {
                    stale.push(format!("{rel}:{n}: `{}`: {why}", segs.join("::")));
                }
            }
        }
    }
    stale
}

#[test]
fn every_module_path_a_doc_comment_names_resolves() {
    let tops = top_modules();
    let mut stale = stale_paths(&repo().join("src"), &tops, false);
    for dir in ["tests", "benches", "examples"] {
        let dir = repo().join(dir);
        if dir.is_dir() {
            stale.extend(stale_paths(&dir, &tops, true));
        }
    }
    assert!(
        stale.is_empty(),
        "doc comments name paths that do not resolve (point them at the module that does \
         the job now):\n{}",
        stale.join("\n")
    );
}

/// Where a path named in docs/modules.md lives: paths under `src/` are written without it;
/// these start from the repository root instead.
const FROM_ROOT: &[&str] = &[
    "tests/",
    "benches/",
    "examples/",
    "docs/",
    "fuzz/",
    ".ci/",
    "resources/",
];

/// The file or folder paths docs/modules.md names: every code span that reads as one (has a
/// `/` or ends in `.rs`, no spaces), and the names in the first column of its tree of the
/// house. `render/terrain.rs::area_colour` names the file.
fn named_in_modules_md(text: &str) -> Vec<(usize, String)> {
    let looks_like_path = |s: &str| {
        !s.is_empty()
            && (s.contains('/') || s.ends_with(".rs"))
            && s.chars().all(|c| is_ident_char(c) || "./-:".contains(c))
            && !s.starts_with("../")
    };
    let mut out = Vec::new();
    let mut in_block = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        let spans: Vec<&str> = if in_block {
            // The tree: `cli/        one file per command …`; a continuation line starts blank.
            line.trim_start()
                .split("  ")
                .next()
                .unwrap_or("")
                .split(',')
                .map(str::trim)
                .collect()
        } else {
            line.split('`').skip(1).step_by(2).collect()
        };
        for span in spans {
            let path = span.split("::").next().unwrap_or(span);
            if looks_like_path(path) {
                out.push((i + 1, path.to_string()));
            }
        }
    }
    out
}

#[test]
fn docs_modules_md_names_every_folder_and_only_what_exists() {
    let text = std::fs::read_to_string(repo().join("docs/modules.md")).unwrap();
    let mut problems = Vec::new();

    // Every folder, as `format/v18/` or inside a longer path (`assets/client/maps.rs`), not
    // as the tail of another folder's path.
    for folder in folders(&repo().join("src")) {
        let needle = format!("{folder}/");
        let named = text.match_indices(&needle).any(|(at, _)| {
            text[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !(is_ident_char(c) || "/.-".contains(c)))
        });
        if !named {
            problems.push(format!("src/{folder}/ is not in docs/modules.md"));
        }
    }

    for (line, path) in named_in_modules_md(&text) {
        let on_disk = if FROM_ROOT.iter().any(|r| path.starts_with(r)) {
            repo().join(&path)
        } else {
            repo().join("src").join(&path)
        };
        let exists = if path.ends_with('/') {
            on_disk.is_dir()
        } else {
            on_disk.exists()
        };
        if !exists {
            problems.push(format!(
                "docs/modules.md:{line}: `{path}` does not exist ({})",
                on_disk.strip_prefix(repo()).unwrap_or(&on_disk).display()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The scanners themselves, on made-up lines: the two tests above pass vacuously if these
/// find nothing.
#[test]
fn the_scanners_find_what_they_should_and_nothing_else() {
    let tops: BTreeSet<String> = ["edit", "format", "error"].map(String::from).into();
    let found = |line: &str| -> Vec<String> {
        crate_paths(line, &tops)
            .into_iter()
            .map(|p| p.join("::"))
            .collect()
    };
    assert_eq!(
        found(" see `edit::Stroke::finish()` and [x](crate::format::v18), not `std::error::Error`"),
        ["crate::format::v18", "edit::Stroke::finish"]
    );
    assert_eq!(
        found(" `Vec::<u8>::new`, edit::history outside a span, `edit`"),
        Vec::<String>::new()
    );
    assert_eq!(
        use_names("a::{b, c::{self, D as E}, f::G}"),
        ["b", "c", "E", "G"]
    );
    assert_eq!(
        use_names("open::{OpenedMap, open_map}"),
        ["OpenedMap", "open_map"]
    );
    let path = |p: &str| p.split("::").map(String::from).collect::<Vec<_>>();
    for resolves in [
        "crate::edit::history::History::push",
        "edit::history",
        "format::v18",
        "loam::pipeline::open_map",
        "crate::error",
    ] {
        assert_eq!(unresolved(&path(resolves)), None, "{resolves}");
    }
    // The stale paths issue 44 found, and an item a module does not have.
    for stale in [
        "app::editing",
        "crate::render::procedural",
        "edit::history::Gone",
    ] {
        assert!(unresolved(&path(stale)).is_some(), "{stale}");
    }
    assert_eq!(
        named_in_modules_md(
            "a `edit/x.rs::f` and `loam apply`\n```\n  main.rs, bin/a.rs   b\n```\n"
        ),
        [
            (1, "edit/x.rs".to_string()),
            (3, "main.rs".into()),
            (3, "bin/a.rs".into())
        ]
    );
}

#[test]
fn a_module_defines_its_top_level_items_and_re_exports_but_not_methods() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.rs");
    let text = "pub(crate) const fn made() {}\nstatic mut COUNT: u8 = 0;\n\
                pub struct Shape;\nimpl Shape {\n    pub fn area(&self) {}\n}\n\
                use hidden::Private;\npub use a::{\n    B,\n    c::D as E,\n};\n\
                macro_rules! shout {\n    () => {};\n}\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n";
    std::fs::write(&file, text).unwrap();
    let want: BTreeSet<String> = ["made", "COUNT", "Shape", "B", "E", "shout", "tests"]
        .map(String::from)
        .into();
    assert_eq!(items_of(&file), want);
}
