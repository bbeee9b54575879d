//! The one error type of the client data layer: every message names the archive (or loose
//! file) and, where a stored file is involved, the file and the byte offset.

use std::path::PathBuf;

/// What went wrong while opening a client folder or reading a file out of it.
#[derive(Debug, thiserror::Error)]
pub enum AssetError {
    /// The filesystem refused (a missing folder, an unreadable archive or loose file).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The folder given is not a game folder nor its `Data` folder.
    #[error("{}: {reason}", dir.display())]
    NotAClient {
        /// The folder given.
        dir: PathBuf,
        /// Why it was refused.
        reason: String,
    },
    /// An archive's header or tables are unreadable (truncated, garbled, unsupported).
    #[error("{}: {reason}", archive.display())]
    BadArchive {
        /// The archive file.
        archive: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A file was found in an archive but its stored bytes do not decode.
    #[error("{}: {file} (stored at byte {offset}): {reason}", archive.display())]
    BadFile {
        /// The archive file.
        archive: PathBuf,
        /// The game path asked for.
        file: String,
        /// Absolute byte offset of the stored file (or of the failing sector) in the archive.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
}

pub(crate) fn io_err(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> AssetError + '_ {
    move |source| AssetError::Io {
        path: path.to_path_buf(),
        source,
    }
}
