//! Game paths as the client compares them: without regard to ASCII case or slash direction,
//! and the `--find` glob over them.
//!
//! Not for: MPQ name hashing (wow-mpq's `hash_string` folds case and slashes the same way).

/// The comparison key of a game path: ASCII lower case, `\` separators, no empty, `.` or
/// leading separators. `"/World//Maps\\X.WDT"` and `"world\\maps\\x.wdt"` have one key.
pub fn normalise(game_path: &str) -> String {
    let mut out = String::with_capacity(game_path.len());
    for part in game_path.split(['\\', '/']) {
        if part.is_empty() || part == "." {
            continue;
        }
        if !out.is_empty() {
            out.push('\\');
        }
        out.extend(part.chars().map(|c| c.to_ascii_lowercase()));
    }
    out
}

/// The spelling to show for a game path: `\` separators, case as given.
pub fn display_form(game_path: &str) -> String {
    game_path
        .split(['\\', '/'])
        .filter(|p| !p.is_empty() && *p != ".")
        .collect::<Vec<_>>()
        .join("\\")
}

/// The file name part of a game path (what the MPQ encryption key is derived from).
pub fn plain_name(game_path: &str) -> &str {
    game_path.rsplit(['\\', '/']).next().unwrap_or(game_path)
}

/// Whether `name` matches `pattern`, both compared as [`normalise`]d game paths. `?` is one
/// character and `*` any run of characters within one folder level; `**` crosses folders. A
/// pattern without a folder separator is matched against the file name alone, so `*.blp`
/// finds every BLP.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let pattern = normalise(pattern);
    let name = normalise(name);
    let subject = if pattern.contains('\\') {
        name.as_str()
    } else {
        plain_name(&name)
    };
    matches(pattern.as_bytes(), subject.as_bytes())
}

// Iterative wildcard matching with backtracking to the last star; `**` may consume `\`.
fn matches(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0, 0);
    // (pattern index after the star, subject index it was tried at, star crosses folders)
    let mut star: Option<(usize, usize, bool)> = None;
    while si < s.len() {
        if pi < p.len() && p[pi] == b'*' {
            let deep = p.get(pi + 1) == Some(&b'*');
            pi += if deep { 2 } else { 1 };
            star = Some((pi, si, deep));
            continue;
        }
        if pi < p.len() && (p[pi] == s[si] || (p[pi] == b'?' && s[si] != b'\\')) {
            pi += 1;
            si += 1;
            continue;
        }
        match star {
            Some((sp, ss, deep)) if deep || s[ss] != b'\\' => {
                star = Some((sp, ss + 1, deep));
                pi = sp;
                si = ss + 1;
            }
            _ => return false,
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_folds_case_and_slashes() {
        assert_eq!(normalise("/World//Maps\\X.WDT"), "world\\maps\\x.wdt");
        assert_eq!(normalise("world\\maps\\x.wdt"), "world\\maps\\x.wdt");
        assert_eq!(normalise("./a/./b"), "a\\b");
        assert_eq!(normalise(""), "");
        assert_eq!(
            display_form("Tileset/Elwynn//Grass.blp"),
            "Tileset\\Elwynn\\Grass.blp"
        );
        assert_eq!(plain_name("Tileset\\Elwynn\\Grass.blp"), "Grass.blp");
    }

    #[test]
    fn globs() {
        assert!(glob_match("*.blp", "Tileset\\Elwynn\\Grass.BLP"));
        assert!(!glob_match("*.blp", "Tileset\\Elwynn\\Grass.m2"));
        assert!(glob_match(
            "tileset/*/grass.blp",
            "Tileset\\Elwynn\\Grass.blp"
        ));
        assert!(!glob_match("tileset/*.blp", "Tileset\\Elwynn\\Grass.blp"));
        assert!(glob_match("tileset/**.blp", "Tileset\\Elwynn\\Grass.blp"));
        assert!(glob_match("**\\grass.blp", "Tileset\\Elwynn\\Grass.blp"));
        assert!(glob_match(
            "tileset\\elwynn\\gr?ss.blp",
            "Tileset\\Elwynn\\Grass.blp"
        ));
        assert!(!glob_match(
            "tileset\\elwynn?grass.blp",
            "Tileset\\Elwynn\\Grass.blp"
        ));
        assert!(glob_match(
            "World\\Maps\\Azeroth\\*",
            "world\\maps\\azeroth\\azeroth.wdt"
        ));
    }
}
