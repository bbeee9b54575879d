//! Which client generation a `Data` folder belongs to, told from the archive names in it.
//!
//! Not for: the order archives load in (`order.rs`) or a map's own generation
//! (`format::Generation`, decided from a file's bytes).

use std::collections::BTreeSet;
use std::fmt;

/// The client generations loam tells apart by their `Data` folders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientGeneration {
    /// 0.5.3 / 0.5.5 alpha: content archives plus one small MPQ per map, WMO and WDL file
    /// (`World\Maps\Azeroth\Azeroth.wdt.MPQ`).
    Alpha,
    /// 0.6.0 beta: the vanilla archive set without any patch archive.
    V060,
    /// 1.12 (vanilla): `dbc.MPQ`, `terrain.MPQ`, `texture.MPQ`… and `patch.MPQ`.
    V112,
    /// 2.4.3 (The Burning Crusade): `common.MPQ`, `expansion.MPQ`, a locale folder.
    V243,
    /// 3.3.5 (Wrath of the Lich King): `common-2.MPQ` / `lichking.MPQ`, a locale folder.
    V335,
    /// The folder does not look like any of them; the reason says what was seen.
    Unknown(String),
}

impl fmt::Display for ClientGeneration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Alpha => f.write_str("0.5.3/0.5.5"),
            Self::V060 => f.write_str("0.6.0"),
            Self::V112 => f.write_str("1.12"),
            Self::V243 => f.write_str("2.4.3"),
            Self::V335 => f.write_str("3.3.5"),
            Self::Unknown(reason) => write!(f, "unknown ({reason})"),
        }
    }
}

/// The archives every vanilla-era `Data` folder (0.5.x to 1.12) holds.
pub(crate) const VANILLA_CONTENT: [&str; 10] = [
    "dbc.mpq",
    "fonts.mpq",
    "interface.mpq",
    "misc.mpq",
    "model.mpq",
    "sound.mpq",
    "speech.mpq",
    "terrain.mpq",
    "texture.mpq",
    "wmo.mpq",
];

/// Decides the generation from the lower-case names of the `.mpq` files directly in `Data/`
/// and whether per-file wrappers (`name.ext.mpq`) were found below it.
pub fn detect(top_level_mpqs: &BTreeSet<String>, has_per_file_wrappers: bool) -> ClientGeneration {
    let has = |n: &str| top_level_mpqs.contains(n);
    if has("lichking.mpq") || has("common-2.mpq") {
        return ClientGeneration::V335;
    }
    if has("common.mpq") || has("expansion.mpq") {
        return ClientGeneration::V243;
    }
    let vanilla = VANILLA_CONTENT.iter().filter(|n| has(n)).count();
    if has_per_file_wrappers {
        return ClientGeneration::Alpha;
    }
    if vanilla > 0 {
        // 1.x retail shipped patch.MPQ from the first patch on (and base.MPQ/backup.MPQ with
        // the installer); the 0.6.0 beta has the same content archives and none of these.
        if has("patch.mpq") || has("base.mpq") || has("backup.mpq") {
            return ClientGeneration::V112;
        }
        return ClientGeneration::V060;
    }
    let seen: Vec<&str> = top_level_mpqs.iter().map(String::as_str).take(8).collect();
    ClientGeneration::Unknown(if seen.is_empty() {
        "no .MPQ archives in Data".to_string()
    } else {
        format!("no known archive set among {}", seen.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn generations_from_archive_names() {
        assert_eq!(
            detect(&set(&["common.mpq", "common-2.mpq", "lichking.mpq"]), false),
            ClientGeneration::V335
        );
        assert_eq!(
            detect(&set(&["common.mpq", "expansion.mpq", "patch.mpq"]), false),
            ClientGeneration::V243
        );
        assert_eq!(
            detect(&set(&["dbc.mpq", "terrain.mpq", "patch.mpq"]), false),
            ClientGeneration::V112
        );
        assert_eq!(
            detect(&set(&["dbc.mpq", "terrain.mpq"]), false),
            ClientGeneration::V060
        );
        assert_eq!(
            detect(&set(&["model.mpq", "texture.mpq"]), true),
            ClientGeneration::Alpha
        );
        assert!(
            matches!(detect(&set(&["foo.mpq"]), false), ClientGeneration::Unknown(r) if r.contains("foo.mpq"))
        );
        assert_eq!(ClientGeneration::Alpha.to_string(), "0.5.3/0.5.5");
        assert_eq!(ClientGeneration::V335.to_string(), "3.3.5");
    }
}
