//! The IFF-style chunk layer every generation shares: `tag (4, byte-reversed) + size (4) +
//! payload`. Bounds-checked reads that report where they failed, and a writer that patches
//! sizes and offsets after the fact.
//!
//! Not for: the meaning of any chunk (see the per-generation codecs).

use super::cursor::{Cursor, Site};
use std::fmt;
use std::path::{Path, PathBuf};

/// A chunk tag in reading order ("MCNK"); files store it byte-reversed ("KNCM").
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tag(pub [u8; 4]);

impl Tag {
    /// The tag whose on-disk bytes are `bytes`.
    pub fn from_disk(bytes: [u8; 4]) -> Tag {
        Tag([bytes[3], bytes[2], bytes[1], bytes[0]])
    }

    /// The bytes a file stores for this tag.
    pub fn to_disk(self) -> [u8; 4] {
        let b = self.0;
        [b[3], b[2], b[1], b[0]]
    }

    /// A tag from its readable name; names shorter than 4 bytes are padded with spaces.
    pub const fn new(name: &[u8; 4]) -> Tag {
        Tag(*name)
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in &self.0 {
            if b.is_ascii_graphic() {
                write!(f, "{}", b as char)?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tag({self})")
    }
}

/// What went wrong while decoding.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ErrorKind {
    /// Fewer bytes remained than a field needs.
    #[error("truncated: needs {needed} bytes, {available} left")]
    Truncated { needed: usize, available: usize },
    /// A chunk's size runs past the end of its container.
    #[error("chunk size {size} runs past the end ({available} bytes left)")]
    SizePastEnd { size: u32, available: usize },
    /// A different chunk than the layout requires.
    #[error("expected chunk {expected}, found {found}")]
    UnexpectedTag { expected: Tag, found: Tag },
    /// A required chunk is absent.
    #[error("missing chunk {0}")]
    Missing(Tag),
    /// An offset points outside the data it indexes.
    #[error("offset {offset} is outside 0..{limit}")]
    OffsetOutOfRange { offset: u64, limit: u64 },
    /// A chunk has a size the format does not allow.
    #[error("bad size {size}: {why}")]
    BadSize { size: u64, why: &'static str },
    /// A version this codec does not read.
    #[error("unsupported version {0}")]
    UnsupportedVersion(u32),
    /// Any other inconsistency.
    #[error("{0}")]
    Invalid(String),
}

/// A decoding error: which file, which chunk, which byte, and what.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}: chunk {chunk} at byte {offset} (0x{offset:x}): {kind}", display_path(.file))]
pub struct FormatError {
    /// The file being read, when known.
    pub file: Option<PathBuf>,
    /// The innermost chunk being read.
    pub chunk: Tag,
    /// Absolute byte offset in the file where the problem is.
    pub offset: u64,
    /// What went wrong.
    pub kind: ErrorKind,
}

fn display_path(path: &Option<PathBuf>) -> String {
    match path {
        Some(p) => p.display().to_string(),
        None => "<memory>".to_string(),
    }
}

impl FormatError {
    /// An error in chunk `chunk` at absolute `offset`.
    pub fn new(chunk: Tag, offset: usize, kind: ErrorKind) -> FormatError {
        FormatError {
            file: None,
            chunk,
            offset: offset as u64,
            kind,
        }
    }

    /// The same error, naming the file it came from.
    pub fn in_file(mut self, path: &Path) -> FormatError {
        self.file = Some(path.to_path_buf());
        self
    }
}

/// Result of decoding.
pub type Result<T, E = FormatError> = std::result::Result<T, E>;

/// A chunk found in a byte buffer.
#[derive(Debug, Clone, Copy)]
pub struct RawChunk<'a> {
    /// Its tag.
    pub tag: Tag,
    /// Absolute file offset of the tag.
    pub offset: usize,
    /// The size field as stored.
    pub size: u32,
    /// The payload (`size` bytes after the header).
    pub payload: &'a [u8],
}

impl<'a> RawChunk<'a> {
    /// Absolute offset of the payload's first byte.
    pub fn payload_offset(&self) -> usize {
        self.offset + 8
    }

    /// A bounds-checked reader over the payload.
    pub fn reader(&self) -> Reader<'a> {
        Reader::new(self.payload, self.payload_offset(), self.tag)
    }

    /// An error in this chunk at `relative` bytes into its payload.
    pub fn error(&self, relative: usize, kind: ErrorKind) -> FormatError {
        FormatError::new(self.tag, self.payload_offset() + relative, kind)
    }

    /// An error at the start of this chunk's payload: its size is wrong, and `why`.
    pub fn bad_size(&self, why: &'static str) -> FormatError {
        self.error(
            0,
            ErrorKind::BadSize {
                size: self.size as u64,
                why,
            },
        )
    }
}

/// Reads the chunk header at `pos` of `data` (whose first byte is at absolute `base`); the
/// payload must fit in `data`. `context` names the enclosing chunk for errors.
pub fn chunk_at<'a>(data: &'a [u8], pos: usize, base: usize, context: Tag) -> Result<RawChunk<'a>> {
    let header = data.get(pos..pos.saturating_add(8)).ok_or_else(|| {
        FormatError::new(
            context,
            base + pos.min(data.len()),
            ErrorKind::Truncated {
                needed: 8,
                available: data.len().saturating_sub(pos),
            },
        )
    })?;
    let tag = Tag::from_disk([header[0], header[1], header[2], header[3]]);
    let size = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
    let start = pos + 8;
    let available = data.len() - start;
    if size as usize > available {
        return Err(FormatError::new(
            tag,
            base + pos,
            ErrorKind::SizePastEnd { size, available },
        ));
    }
    Ok(RawChunk {
        tag,
        offset: base + pos,
        size,
        payload: &data[start..start + size as usize],
    })
}

/// Reads the chunk at `pos`, checking its tag.
pub fn expect_chunk<'a>(data: &'a [u8], pos: usize, base: usize, tag: Tag) -> Result<RawChunk<'a>> {
    let chunk = chunk_at(data, pos, base, tag)?;
    if chunk.tag != tag {
        return Err(FormatError::new(
            tag,
            base + pos,
            ErrorKind::UnexpectedTag {
                expected: tag,
                found: chunk.tag,
            },
        ));
    }
    Ok(chunk)
}

/// Iterates the chunks laid end to end in `data`.
pub struct ChunkIter<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
    context: Tag,
    clamp: bool,
}

impl<'a> ChunkIter<'a> {
    /// Chunks of `data`, whose first byte is at absolute `base`.
    pub fn new(data: &'a [u8], base: usize, context: Tag) -> ChunkIter<'a> {
        ChunkIter {
            data,
            pos: 0,
            base,
            context,
            clamp: false,
        }
    }

    /// Like [`ChunkIter::new`], but a chunk whose size runs past the end of `data` is yielded
    /// with its payload cut at the end (its `size` as stored, longer than its payload) and ends
    /// the iteration, instead of being an error: nothing can follow it, so reading it up to the
    /// end is safe.
    pub fn clamping(data: &'a [u8], base: usize, context: Tag) -> ChunkIter<'a> {
        ChunkIter {
            clamp: true,
            ..ChunkIter::new(data, base, context)
        }
    }

    /// Relative position of the next chunk.
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for ChunkIter<'a> {
    type Item = Result<RawChunk<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.data.len() {
            return None;
        }
        match chunk_at(self.data, self.pos, self.base, self.context) {
            Ok(chunk) => {
                self.pos += 8 + chunk.payload.len();
                Some(Ok(chunk))
            }
            Err(FormatError {
                kind: ErrorKind::SizePastEnd { size, .. },
                ..
            }) if self.clamp => {
                let start = self.pos + 8;
                let header = self.data.get(self.pos..start)?;
                self.pos = self.data.len();
                Some(Ok(RawChunk {
                    tag: Tag::from_disk([header[0], header[1], header[2], header[3]]),
                    offset: self.base + start - 8,
                    size,
                    payload: &self.data[start..],
                }))
            }
            Err(e) => {
                self.pos = self.data.len();
                Some(Err(e))
            }
        }
    }
}

/// A bounds-checked little-endian cursor over part of a map file, its errors naming the chunk
/// it reads in (see [`super::cursor`]).
pub type Reader<'a> = Cursor<'a, Tag>;

impl Site for Tag {
    type Error = FormatError;
    fn truncated(self, offset: usize, needed: usize, available: usize) -> FormatError {
        FormatError::new(self, offset, ErrorKind::Truncated { needed, available })
    }
}

impl Reader<'_> {
    /// Moves to relative position `pos`.
    pub fn seek(&mut self, pos: usize) -> Result<()> {
        if !self.set_position(pos) {
            return Err(self.error(ErrorKind::OffsetOutOfRange {
                offset: pos as u64,
                limit: self.len() as u64,
            }));
        }
        Ok(())
    }

    /// An error at the current position.
    pub fn error(&self, kind: ErrorKind) -> FormatError {
        FormatError::new(self.site(), self.offset(), kind)
    }
}

/// A little-endian byte writer that builds chunks and patches sizes and offsets.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
}

/// A chunk opened by [`Writer::begin`], closed by [`Writer::end`].
#[must_use]
#[derive(Debug, Clone, Copy)]
pub struct OpenChunk {
    header: usize,
}

impl OpenChunk {
    /// Offset of the chunk's tag in the writer.
    pub fn offset(&self) -> usize {
        self.header
    }

    /// Offset of the chunk's payload in the writer.
    pub fn payload_offset(&self) -> usize {
        self.header + 8
    }
}

impl Writer {
    /// An empty writer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Writer {
        Writer {
            buf: Vec::with_capacity(capacity),
        }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// The bytes so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Starts a chunk; its size is filled in by [`Writer::end`].
    pub fn begin(&mut self, tag: Tag) -> OpenChunk {
        let header = self.buf.len();
        self.buf.extend_from_slice(&tag.to_disk());
        self.buf.extend_from_slice(&[0; 4]);
        OpenChunk { header }
    }

    /// Closes a chunk, storing its payload length as its size.
    pub fn end(&mut self, chunk: OpenChunk) {
        let size = (self.buf.len() - chunk.header - 8) as u32;
        self.patch_u32(chunk.header + 4, size);
    }

    /// Closes a chunk, storing `size` as its size field whatever the payload length (for
    /// reproducing files whose size fields lie).
    pub fn end_with_size(&mut self, chunk: OpenChunk, size: u32) {
        self.patch_u32(chunk.header + 4, size);
    }

    /// Writes a whole chunk.
    pub fn chunk(&mut self, tag: Tag, payload: &[u8]) {
        let c = self.begin(tag);
        self.bytes(payload);
        self.end(c);
    }

    /// Appends bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Appends `n` zero bytes.
    pub fn zeros(&mut self, n: usize) {
        self.buf.resize(self.buf.len() + n, 0);
    }

    /// Appends a u8.
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Appends a u16.
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends an i16.
    pub fn i16(&mut self, v: i16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends a u32.
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends a u64.
    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends an f32.
    pub fn f32(&mut self, v: f32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends three f32s.
    pub fn vec3(&mut self, v: [f32; 3]) {
        for c in v {
            self.f32(c);
        }
    }

    /// Overwrites bytes at `at`.
    pub fn patch_bytes(&mut self, at: usize, b: &[u8]) {
        self.buf[at..at + b.len()].copy_from_slice(b);
    }

    /// Overwrites the u32 at `at`.
    pub fn patch_u32(&mut self, at: usize, v: u32) {
        self.buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// Tags of every chunk the codecs name.
pub mod tags {
    use super::Tag;
    macro_rules! tags {
        ($($name:ident),*) => { $(#[doc = concat!("The ", stringify!($name), " chunk.")] pub const $name: Tag = Tag(*stringify!($name).as_bytes().first_chunk::<4>().unwrap());)* };
    }
    tags!(
        MVER, MPHD, MAIN, MWMO, MODF, MHDR, MCIN, MTEX, MMDX, MMID, MWID, MDDF, MH2O, MFBO, MTXF,
        MCNK, MCVT, MCCV, MCNR, MCLY, MCRF, MCSH, MCAL, MCLQ, MCSE, MDNM, MONM
    );
    /// Used for errors about the file as a whole, before any chunk is known.
    pub const FILE: Tag = Tag(*b"file");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_reversed_on_disk() {
        assert_eq!(tags::MCNK.to_disk(), *b"KNCM");
        assert_eq!(Tag::from_disk(*b"REVM"), tags::MVER);
    }

    #[test]
    fn writer_patches_sizes_and_reader_finds_them() {
        let mut w = Writer::default();
        let c = w.begin(tags::MVER);
        w.u32(18);
        w.end(c);
        w.chunk(tags::MTEX, b"a\0b\0");
        let bytes = w.into_bytes();
        let chunks: Vec<_> = ChunkIter::new(&bytes, 0, tags::FILE)
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[0].tag, tags::MVER);
        assert_eq!(chunks[0].reader().u32().unwrap(), 18);
        assert_eq!(chunks[1].offset, 12);
        assert_eq!(chunks[1].payload, b"a\0b\0");
    }

    #[test]
    fn oversized_chunk_is_an_error_with_its_offset() {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(b"REVM");
        bytes.extend_from_slice(&100u32.to_le_bytes());
        bytes.extend_from_slice(&[0; 4]);
        let err = chunk_at(&bytes, 0, 0, tags::FILE).unwrap_err();
        assert_eq!(err.chunk, tags::MVER);
        assert_eq!(err.offset, 0);
        assert!(matches!(
            err.kind,
            ErrorKind::SizePastEnd {
                size: 100,
                available: 4
            }
        ));
        let shown = err.in_file(Path::new("x.adt")).to_string();
        assert!(
            shown.contains("x.adt") && shown.contains("MVER") && shown.contains("byte 0"),
            "{shown}"
        );
    }

    #[test]
    fn reader_reports_absolute_offset_of_truncation() {
        let data = [1u8, 2, 3];
        let mut r = Reader::new(&data, 100, tags::MCNK);
        assert_eq!(r.u16().unwrap(), 0x0201);
        let err = r.u32().unwrap_err();
        assert_eq!(err.offset, 102);
        assert_eq!(
            err.kind,
            ErrorKind::Truncated {
                needed: 4,
                available: 1
            }
        );
    }
}
