//! The uniqueId range a map's new objects take, kept in a small file beside the map
//! (`Name.loam-uids.json`), so that several people editing one map each take their own range
//! and no two of them hand out the same uid: no database server needed.
//!
//! Not for: choosing uids (`edit::objects::next_unique_id_in`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{LoamError, Result, write_atomic};
use crate::model::objects::UidRange;

/// The file's contents.
#[derive(Debug, Serialize, Deserialize)]
struct RangeFile {
    first: u32,
    last: u32,
}

/// The range file of map `name` in `folder`.
pub fn path(folder: &Path, name: &str) -> PathBuf {
    folder.join(format!("{name}.loam-uids.json"))
}

/// The map's range, `None` when it has no range file.
pub fn read(folder: &Path, name: &str) -> Result<Option<UidRange>> {
    let p = path(folder, name);
    let text = match std::fs::read_to_string(&p) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(LoamError::Io { path: p, source }),
    };
    let f: RangeFile = serde_json::from_str(&text)
        .map_err(|e| LoamError::Usage(format!("{}: {e}", p.display())))?;
    UidRange::new(f.first, f.last)
        .map(Some)
        .map_err(|e| LoamError::Usage(format!("{}: {e}", p.display())))
}

/// Stores the map's range (atomically), or removes the file for `None`.
pub fn write(folder: &Path, name: &str, range: Option<UidRange>) -> Result<()> {
    let p = path(folder, name);
    match range {
        Some(r) => {
            let text = serde_json::to_string_pretty(&RangeFile {
                first: r.first,
                last: r.last,
            })
            .map_err(|e| LoamError::Usage(e.to_string()))?;
            write_atomic(&p, text.as_bytes())
        }
        None => match std::fs::remove_file(&p) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(LoamError::Io { path: p, source }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_is_written_read_back_and_cleared() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(dir.path(), "Azeroth").unwrap(), None);
        let r = UidRange::new(200_000, 299_999).unwrap();
        write(dir.path(), "Azeroth", Some(r)).unwrap();
        assert!(path(dir.path(), "Azeroth").exists());
        assert_eq!(read(dir.path(), "Azeroth").unwrap(), Some(r));
        write(dir.path(), "Azeroth", None).unwrap();
        assert_eq!(read(dir.path(), "Azeroth").unwrap(), None);
        std::fs::write(path(dir.path(), "Bad"), r#"{"first": 9, "last": 3}"#).unwrap();
        let e = read(dir.path(), "Bad").unwrap_err().to_string();
        assert!(e.contains("Bad.loam-uids.json"), "{e}");
    }
}
