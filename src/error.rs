//! The crate's error: what can go wrong opening, checking, converting or saving, with the
//! file (and, for bad bytes, the chunk and byte offset through [`FormatError`]) it concerns.
//!
//! Not for: deciding what to do about an error (the commands and the editor show it).

use std::path::{Path, PathBuf};

use crate::format::FormatError;

/// Anything that can go wrong opening, checking or saving.
#[derive(Debug, thiserror::Error)]
pub enum LoamError {
    /// The filesystem refused.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A file's bytes do not decode.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// Windows would not let loam replace a file: another program has it open without sharing
    /// it (the game client, another editor), or it is read-only. Nothing was replaced.
    #[error(
        "{}: another program has this file open, or it is read-only, so Windows will not let \
         loam replace it ({source}). Close it there (the game client, another editor) or clear \
         its read-only mark, then save again",
        path.display()
    )]
    InUse {
        /// The file that could not be replaced.
        path: PathBuf,
        /// What Windows said.
        source: std::io::Error,
    },
    /// The request itself makes no sense (a wrong extension, an unsupported target).
    #[error("{0}")]
    Usage(String),
    /// A save of several files stopped on a failure: what failed, which files were written
    /// whole and which were left as they were on disk.
    #[error("{cause}; {}", save_outcome(written, not_written))]
    Save {
        /// The failure that stopped the save (it names the file and the reason).
        cause: Box<LoamError>,
        /// Files that were written whole before the failure.
        written: Vec<PathBuf>,
        /// Files that were not written: their old content (or their absence) is as it was.
        not_written: Vec<PathBuf>,
    },
}

/// "written: A; not written: B, C", by file name.
fn save_outcome(written: &[PathBuf], not_written: &[PathBuf]) -> String {
    let names = |v: &[PathBuf]| {
        v.iter()
            .map(|p| {
                p.file_name()
                    .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
            })
            .collect::<Vec<String>>()
            .join(", ")
    };
    match (written.is_empty(), not_written.is_empty()) {
        (true, _) => format!(
            "nothing was written, the files on disk are as they were (not written: {})",
            names(not_written)
        ),
        (false, true) => format!("written: {}", names(written)),
        (false, false) => format!(
            "written: {}; not written, as they were: {}",
            names(written),
            names(not_written)
        ),
    }
}

/// Result of file operations.
pub type Result<T> = std::result::Result<T, LoamError>;

/// Turns an OS error about `path` into [`LoamError::Io`].
pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> LoamError + '_ {
    move |source| LoamError::Io {
        path: path.to_path_buf(),
        source,
    }
}
