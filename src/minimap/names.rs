//! How the client finds a tile's minimap: not by a path of its own but through one table for
//! all maps, `textures\Minimap\md5translate.trs` (1.12 – 3.3.5; `md5translate.txt`, a loose
//! file, in 0.5.x and 0.6.0), whose lines map a tile's name to a file in `textures\Minimap\`:
//!
//! ```text
//! dir: Azeroth
//! Azeroth\map32_48.blp<TAB>0123456789abcdef0123456789abcdef.blp
//! ```
//!
//! Sources (docs/client-data.md, "Minimaps"): wowdev.wiki/TRS (grammar; "x is not zero-padded
//! but y is zero-padded to two digits"; the file name is "an md5 hash of their content");
//! Noggit Red's `MapIndex::saveMinimapMD5translate` and `WorldRender::saveMinimap` (the same
//! key, TAB-separated); the 3.3.5 client's lookup format `%s\map%d_%02d.blp` as reconstructed
//! by several projects, which also skip `dir:` lines, match keys without regard to case and
//! split lines on CR or LF; MobCat/MacroMap's tests of every build from 0.5.3 to 3.3.5
//! (`md5translate.txt` until 0.11, `.trs` from 0.12.0.3988). An md5translate-era
//! reconstruction formats the alpha key `%s\map%d_%d.blp` (y not padded) for a build not
//! known for sure, so for 0.5.x and 0.6.0 a tile whose y is below 10 gets both keys: the
//! client looks up one, the other is never asked for.
//!
//! Lines end in CRLF, the last one too (a reconstruction's tokenizer drops a last line without
//! an end), with no blank lines (one stops some parsers).
//!
//! Not for: drawing or writing the tiles (`raster`, `export`).

use std::collections::BTreeMap;

use crate::format::Generation;
use crate::model::TileCoord;

/// The table's game path in `generation`'s client.
pub fn table_path(generation: Generation) -> &'static str {
    if generation <= Generation::V060 {
        "textures\\Minimap\\md5translate.txt"
    } else {
        "textures\\Minimap\\md5translate.trs"
    }
}

/// The folder the minimap files are in, as a game path.
pub const MINIMAP_FOLDER: &str = "textures\\Minimap";

/// The keys the client of `generation` may look tile `c` of map `map` up by (see the module's
/// doc): one, or for 0.5.x/0.6.0 with y below 10, two.
pub fn tile_keys(map: &str, c: TileCoord, generation: Generation) -> Vec<String> {
    let padded = format!("{map}\\map{}_{:02}.blp", c.x, c.y);
    let plain = format!("{map}\\map{}_{}.blp", c.x, c.y);
    if generation <= Generation::V060 && plain != padded {
        vec![padded, plain]
    } else {
        vec![padded]
    }
}

/// The file name a minimap tile's BLP gets: the MD5 of its bytes, in lower-case hex.
pub fn hashed_name(blp: &[u8]) -> String {
    use md5::{Digest, Md5};
    let digest = Md5::digest(blp);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{hex}.blp")
}

/// The table: for each map (by its `dir:` name, as written), its keys and the files they name,
/// in file order within a map.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Md5Translate {
    /// Maps in the order they came, each with its lines.
    pub maps: Vec<(String, Vec<(String, String)>)>,
}

impl Md5Translate {
    /// Reads a table as the client does: `dir:` lines start a map (and only group lines for
    /// tools), other lines are `key<TAB>file`; lines of neither form are skipped. Lines before
    /// any `dir:` are kept under the map their key names.
    pub fn parse(text: &str) -> Md5Translate {
        let mut t = Md5Translate::default();
        for line in text.split(['\r', '\n']).filter(|l| !l.trim().is_empty()) {
            if let Some(dir) = line.strip_prefix("dir:") {
                let dir = dir.trim().to_string();
                if !t.maps.iter().any(|(d, _)| d.eq_ignore_ascii_case(&dir)) {
                    t.maps.push((dir, Vec::new()));
                }
                continue;
            }
            let Some((key, file)) = line.split_once('\t') else {
                continue;
            };
            let key = key.trim();
            // Trimmed as a `dir:` line's name is, so that a written table reads back the same.
            let map = key
                .split('\\')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string();
            let entry = (key.to_string(), file.trim().to_string());
            match t
                .maps
                .iter_mut()
                .find(|(d, _)| d.eq_ignore_ascii_case(&map))
            {
                Some((_, lines)) => lines.push(entry),
                None => t.maps.push((map, vec![entry])),
            }
        }
        t
    }

    /// The lines of map `map` (any case), if it has any.
    pub fn lines_of(&self, map: &str) -> Option<&[(String, String)]> {
        self.maps
            .iter()
            .find(|(d, _)| d.eq_ignore_ascii_case(map))
            .map(|(_, l)| l.as_slice())
    }

    /// Replaces map `map`'s lines with `lines` (key → file), keeping every other map's.
    pub fn set_map(&mut self, map: &str, lines: &BTreeMap<String, String>) {
        let lines: Vec<(String, String)> =
            lines.iter().map(|(k, f)| (k.clone(), f.clone())).collect();
        match self
            .maps
            .iter_mut()
            .find(|(d, _)| d.eq_ignore_ascii_case(map))
        {
            Some((_, l)) => *l = lines,
            None => self.maps.push((map.to_string(), lines)),
        }
    }

    /// The table as the client reads it: each map's `dir:` line then its lines, CRLF after
    /// every line.
    pub fn write(&self) -> String {
        let mut out = String::new();
        for (dir, lines) in &self.maps {
            out.push_str(&format!("dir: {dir}\r\n"));
            for (key, file) in lines {
                out.push_str(&format!("{key}\t{file}\r\n"));
            }
        }
        out
    }

    /// Every file name the table names (to keep the files still in use).
    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.maps
            .iter()
            .flat_map(|(_, l)| l.iter().map(|(_, f)| f.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_pad_y_only_and_the_alpha_gets_both_forms() {
        let c = TileCoord::new(32, 8).unwrap();
        assert_eq!(
            tile_keys("Isle", c, Generation::V335),
            ["Isle\\map32_08.blp"]
        );
        assert_eq!(
            tile_keys("Isle", c, Generation::Alpha053),
            ["Isle\\map32_08.blp", "Isle\\map32_8.blp"]
        );
        let c = TileCoord::new(5, 48).unwrap();
        assert_eq!(
            tile_keys("Isle", c, Generation::V060),
            ["Isle\\map5_48.blp"]
        );
        assert_eq!(
            table_path(Generation::V112),
            "textures\\Minimap\\md5translate.trs"
        );
        assert_eq!(
            table_path(Generation::Alpha053),
            "textures\\Minimap\\md5translate.txt"
        );
    }

    #[test]
    fn a_table_reads_as_the_client_reads_it_and_keeps_other_maps_when_one_is_replaced() {
        // LF and CRLF mixed, a blank line, a line without a tab, and a line before any dir:.
        let text = "Kalimdor\\map1_02.blp\tk1.blp\ndir: Azeroth\r\nAzeroth\\map32_48.blp\ta.blp\r\n\
                    \r\nnot a line\nAzeroth\\map32_49.blp\tb.blp\ndir: Isle\r\nIsle\\map1_01.blp\told.blp\r\n";
        let mut t = Md5Translate::parse(text);
        assert_eq!(
            t.lines_of("kalimdor").unwrap(),
            [("Kalimdor\\map1_02.blp".into(), "k1.blp".into())]
        );
        assert_eq!(t.lines_of("Azeroth").unwrap().len(), 2);
        t.set_map(
            "isle",
            &[("Isle\\map1_01.blp".to_string(), "new.blp".to_string())].into(),
        );
        let written = t.write();
        assert_eq!(
            written,
            "dir: Kalimdor\r\nKalimdor\\map1_02.blp\tk1.blp\r\ndir: Azeroth\r\n\
             Azeroth\\map32_48.blp\ta.blp\r\nAzeroth\\map32_49.blp\tb.blp\r\ndir: Isle\r\n\
             Isle\\map1_01.blp\tnew.blp\r\n"
        );
        assert_eq!(Md5Translate::parse(&written), t);
        assert_eq!(t.files().count(), 4);
        // Found by the property below: a map name ending in a control character trims the same
        // on its `dir:` line and in its keys.
        let odd = Md5Translate::parse("\0\u{b}\\\t");
        assert_eq!(Md5Translate::parse(&odd.write()), odd);
    }

    proptest::proptest! {
        /// Any text reads without a panic, and a table read back from its own writing is the
        /// same table (what a merge with a client's odd table writes stays what it read).
        #[test]
        fn any_text_reads_and_a_written_table_reads_back_the_same(text in "(dir: ?[A-Za-z ]{0,6}|[A-Za-z]{1,5}\\\\map[0-9]{1,2}_[0-9]{2}\\.blp\t[0-9a-f]{0,8}\\.blp|[^\r\n]{0,12})([\r\n]{1,2}(dir: ?[A-Za-z ]{0,6}|[A-Za-z]{1,5}\\\\map[0-9]{1,2}_[0-9]{2}\\.blp\t[0-9a-f]{0,8}\\.blp|[^\r\n]{0,12})){0,8}") {
            let t = Md5Translate::parse(&text);
            proptest::prop_assert_eq!(Md5Translate::parse(&t.write()), t);
        }
    }

    #[test]
    fn the_hashed_name_is_the_md5_of_the_bytes() {
        // RFC 1321's test vector for "abc".
        assert_eq!(hashed_name(b"abc"), "900150983cd24fb0d6963f7d28e17f72.blp");
    }
}
