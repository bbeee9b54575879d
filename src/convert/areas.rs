//! Area id translation between generations: a CSV of `old,new` pairs (`--area-map`).
//!
//! Alpha clients key areas as `zone << 16 | subzone` numbers of their own AreaTable; 1.12 and
//! 3.3.5 use AreaTable row ids. No table ships with loam, so without a map ids pass through and
//! the report says so.

use std::collections::HashMap;
use std::path::Path;

use super::Report;
use crate::model::Tile;

/// A translation of area ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AreaMap {
    /// old id → new id.
    pub ids: HashMap<u32, u32>,
}

impl AreaMap {
    /// Parses `old,new` lines; blank lines, `#` comments and a header line that is not numeric
    /// are skipped. Errors name the line.
    pub fn parse(text: &str, source: &Path) -> Result<AreaMap, String> {
        let mut ids = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut fields = line.split(',').map(str::trim);
            let (Some(a), Some(b), None) = (fields.next(), fields.next(), fields.next()) else {
                return Err(format!(
                    "{}:{}: expected `old,new`, found `{line}`",
                    source.display(),
                    n + 1
                ));
            };
            match (parse_id(a), parse_id(b)) {
                (Some(old), Some(new)) => {
                    if ids.insert(old, new).is_some_and(|prev| prev != new) {
                        return Err(format!(
                            "{}:{}: area {old} is mapped twice",
                            source.display(),
                            n + 1
                        ));
                    }
                }
                _ if n == 0 && ids.is_empty() => continue, // a header such as `old,new`
                _ => {
                    return Err(format!(
                        "{}:{}: `{line}` is not two area ids",
                        source.display(),
                        n + 1
                    ));
                }
            }
        }
        Ok(AreaMap { ids })
    }

    /// Rewrites the tile's area ids, counting what was mapped and what passed through.
    pub fn apply(&self, tile: &mut Tile, report: &mut Report) {
        for c in &mut tile.chunks {
            match self.ids.get(&c.area_id) {
                Some(&new) => {
                    if new != c.area_id {
                        c.area_id = new;
                        report.note("area ids mapped by --area-map", 1);
                    }
                }
                None => report.note(
                    format!("area id {} not in --area-map, passed through", c.area_id),
                    1,
                ),
            }
        }
    }
}

/// A decimal or 0x-prefixed hexadecimal id.
fn parse_id(s: &str) -> Option<u32> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pairs_comments_and_a_header() {
        let m = AreaMap::parse(
            "old,new\n# zone 12\n0x000C0001, 40\n2266,12\n\n",
            Path::new("a.csv"),
        )
        .unwrap();
        assert_eq!(m.ids.get(&0x000C_0001), Some(&40));
        assert_eq!(m.ids.get(&2266), Some(&12));
    }

    #[test]
    fn bad_lines_name_the_file_and_line() {
        let e = AreaMap::parse("1,2\n3;4\n", Path::new("m.csv")).unwrap_err();
        assert!(e.starts_with("m.csv:2:"), "{e}");
        let e = AreaMap::parse("1,2\n1,3\n", Path::new("m.csv")).unwrap_err();
        assert!(e.contains("mapped twice"), "{e}");
    }
}
