//! The one error type of the model readers: every message names the file, the chunk (or, in the
//! chunkless M2 and skin files, the part: `header`, `vertices`, `submeshes`…) and the absolute
//! byte offset in that file.

/// Why a model file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {chunk} at byte {offset} (0x{offset:x}): {kind}", shown_file(.file))]
pub struct ModelError {
    /// The file as it was asked for (a game path or a file path); a companion file (`.skin`,
    /// `_NNN.wmo`) names itself, not the file that needed it.
    pub file: String,
    /// The chunk (`MOGP`, `GEOS`…) or, in chunkless files, the part (`header`, `vertices`…).
    pub chunk: String,
    /// Absolute byte offset in `file` where the problem shows.
    pub offset: u64,
    /// What is wrong.
    pub kind: ModelErrorKind,
}

/// What went wrong, without where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelErrorKind {
    /// The file (or a companion file it needs) could not be fetched.
    #[error("not found")]
    NotFound,
    /// The first bytes are no model magic loam reads.
    #[error("not a model file (magic {0:?})")]
    UnknownMagic([u8; 4]),
    /// A version of the format loam does not read.
    #[error("unsupported version {0}")]
    UnsupportedVersion(u32),
    /// Fewer bytes remain than a field or an array needs.
    #[error("truncated: needs {needed} bytes, {available} left")]
    Truncated {
        /// Bytes the read needs.
        needed: u64,
        /// Bytes that are left.
        available: u64,
    },
    /// An index or offset points outside what it indexes.
    #[error("{what} {index} is outside 0..{limit}")]
    OutOfRange {
        /// What the index is (`texture index`, `vertex index`…).
        what: &'static str,
        /// The value found.
        index: u64,
        /// The exclusive limit.
        limit: u64,
    },
    /// A required chunk or part is absent.
    #[error("missing {0}")]
    Missing(&'static str),
    /// Any other inconsistency.
    #[error("{0}")]
    Invalid(String),
}

impl ModelError {
    /// An error in `chunk` at absolute `offset`, file not yet known (see [`ModelError::in_file`]).
    pub fn at(chunk: impl Into<String>, offset: u64, kind: ModelErrorKind) -> ModelError {
        ModelError {
            file: String::new(),
            chunk: chunk.into(),
            offset,
            kind,
        }
    }

    /// A file (or companion file) that could not be fetched.
    pub fn not_found(file: &str) -> ModelError {
        ModelError {
            file: file.to_string(),
            chunk: "file".to_string(),
            offset: 0,
            kind: ModelErrorKind::NotFound,
        }
    }

    /// The same error naming `file`, unless it already names one (an error inside a companion
    /// file keeps the companion's name).
    pub fn in_file(mut self, file: &str) -> ModelError {
        if self.file.is_empty() {
            self.file = file.to_string();
        }
        self
    }
}

/// The file as messages show it (`<memory>` before a reader names it).
fn shown_file(file: &str) -> &str {
    if file.is_empty() { "<memory>" } else { file }
}

/// Result of the model readers.
pub type Result<T, E = ModelError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_file_chunk_and_offset() {
        let e = ModelError::at("MOGP", 0x58, ModelErrorKind::Missing("MOVT")).in_file("a.wmo");
        let shown = e.to_string();
        assert_eq!(shown, "a.wmo: MOGP at byte 88 (0x58): missing MOVT");
        // A companion file's name is kept when the caller adds its own.
        let inner = ModelError::not_found("a00.skin").in_file("a.m2");
        assert_eq!(inner.file, "a00.skin");
    }
}
