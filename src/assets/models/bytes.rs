//! Bounds-checked little-endian reads for the model readers: a cursor that knows the absolute
//! offset of every byte it hands out, a walker over `tag + size + payload` chunks (WMO stores
//! tags byte-reversed, MDX does not), and decoders of packed arrays.
//!
//! Not for: the meaning of any field (see `m2`, `mdx`, `wmo`).

use super::error::{ModelError, ModelErrorKind, Result};
use crate::format::cursor::Site;

/// Where an error is: a chunk tag in reading order, or a named part of a chunkless file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// A chunk tag as it reads ("MOGP").
    Tag([u8; 4]),
    /// A part of a chunkless file ("header", "vertices").
    Part(&'static str),
}

impl Label {
    /// The label as the error message shows it.
    pub fn name(self) -> String {
        match self {
            Label::Part(p) => p.to_string(),
            Label::Tag(t) => t
                .iter()
                .map(|&b| {
                    if b.is_ascii_graphic() || b == b' ' {
                        (b as char).to_string()
                    } else {
                        format!("\\x{b:02x}")
                    }
                })
                .collect(),
        }
    }

    /// An error labelled with this at absolute `offset`.
    pub fn error(self, offset: usize, kind: ModelErrorKind) -> ModelError {
        ModelError::at(self.name(), offset as u64, kind)
    }
}

/// A little-endian cursor over part of a model file, its errors carrying a [`Label`] (see
/// [`crate::format::cursor`]).
pub type Cursor<'a> = crate::format::cursor::Cursor<'a, Label>;

impl Site for Label {
    type Error = ModelError;
    fn truncated(self, offset: usize, needed: usize, available: usize) -> ModelError {
        self.error(
            offset,
            ModelErrorKind::Truncated {
                needed: needed as u64,
                available: available as u64,
            },
        )
    }
}

impl<'a> Cursor<'a> {
    /// An error at the current position.
    pub fn error(&self, kind: ModelErrorKind) -> ModelError {
        self.site().error(self.offset(), kind)
    }

    /// The next `count` records of `size` bytes each, as one slice (the product is checked
    /// against what is left before anything is allocated).
    pub fn records(&mut self, count: usize, size: usize) -> Result<&'a [u8]> {
        let n = count.checked_mul(size).ok_or_else(|| {
            self.error(ModelErrorKind::Truncated {
                needed: u64::MAX,
                available: self.remaining() as u64,
            })
        })?;
        self.bytes(n)
    }

    /// A u32 element count, refused when `count * size` cannot fit in what is left (so that a
    /// damaged count never allocates).
    pub fn count(&mut self, size: usize) -> Result<usize> {
        let at = self.offset();
        let n = self.u32()? as usize;
        if n.saturating_mul(size) > self.remaining() {
            return Err(self.site().error(
                at,
                ModelErrorKind::Truncated {
                    needed: (n as u64).saturating_mul(size as u64),
                    available: self.remaining() as u64,
                },
            ));
        }
        Ok(n)
    }
}

/// A chunk found by [`chunks`].
#[derive(Debug, Clone, Copy)]
pub struct Chunk<'a> {
    /// The tag in reading order ("MOGP"), whatever order the file stores it in.
    pub tag: [u8; 4],
    /// Absolute offset of the chunk header.
    pub offset: usize,
    /// The payload, cut at the end of the data when the size field runs past it.
    pub payload: &'a [u8],
    /// The size field as stored.
    pub declared: usize,
}

impl<'a> Chunk<'a> {
    /// Absolute offset of the payload.
    pub fn payload_offset(&self) -> usize {
        self.offset + 8
    }

    /// This chunk, or an error when its size field runs past the end of the data: a reader
    /// calls this on the chunks it decodes, and lets a cut-short chunk it skips (the last one,
    /// necessarily) go, so that damage in parts loam does not read costs nothing.
    pub fn complete(self) -> Result<Chunk<'a>> {
        if self.payload.len() < self.declared {
            return Err(self.label().error(
                self.offset,
                ModelErrorKind::Truncated {
                    needed: self.declared as u64,
                    available: self.payload.len() as u64,
                },
            ));
        }
        Ok(self)
    }

    /// A cursor over the payload.
    pub fn cursor(&self) -> Cursor<'a> {
        Cursor::new(self.payload, self.payload_offset(), Label::Tag(self.tag))
    }

    /// The label errors in this chunk carry.
    pub fn label(&self) -> Label {
        Label::Tag(self.tag)
    }

    /// An error in this chunk `relative` bytes into its payload.
    pub fn error(&self, relative: usize, kind: ModelErrorKind) -> ModelError {
        self.label().error(self.payload_offset() + relative, kind)
    }
}

/// Walks `tag + u32 size + payload` chunks laid end to end in `data` (absolute offset `base`).
/// `reversed`: the file stores tags byte-reversed (WMO). A chunk whose size runs past the end
/// is yielded cut short (see [`Chunk::complete`]) and ends the walk; a header cut short is an
/// error.
pub fn chunks(data: &[u8], base: usize, reversed: bool) -> Chunks<'_> {
    Chunks {
        data,
        pos: 0,
        base,
        reversed,
    }
}

/// The iterator of [`chunks`].
#[derive(Debug, Clone)]
pub struct Chunks<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
    reversed: bool,
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Result<Chunk<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.data.len() {
            return None;
        }
        let at = self.base + self.pos;
        let Some(header) = self.data.get(self.pos..self.pos + 8) else {
            let available = (self.data.len() - self.pos) as u64;
            self.pos = self.data.len();
            return Some(Err(Label::Part("chunk header").error(
                at,
                ModelErrorKind::Truncated {
                    needed: 8,
                    available,
                },
            )));
        };
        let mut tag = [header[0], header[1], header[2], header[3]];
        if self.reversed {
            tag.reverse();
        }
        let declared = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
        let start = self.pos + 8;
        let end = start.saturating_add(declared).min(self.data.len());
        self.pos = if end - start < declared {
            self.data.len()
        } else {
            end
        };
        Some(Ok(Chunk {
            tag,
            offset: at,
            payload: &self.data[start..end],
            declared,
        }))
    }
}

/// The records of an M2-style array: the `u32 count, u32 offset` pair stored at `at` of `data`
/// names `count` records of `size` bytes starting at `offset` (relative to `data`, whose first
/// byte is at absolute `base`). Errors name `label` and the pair's own offset.
pub fn counted<'a>(
    data: &'a [u8],
    base: usize,
    at: usize,
    size: usize,
    label: &'static str,
) -> Result<(usize, &'a [u8])> {
    let mut c = Cursor::new(data, base, Label::Part(label));
    c.skip(at)?;
    let count = c.u32()? as usize;
    let offset = c.u32()? as usize;
    if count == 0 {
        return Ok((0, &[]));
    }
    let end = count
        .checked_mul(size)
        .and_then(|n| n.checked_add(offset))
        .filter(|&end| end <= data.len());
    match end {
        Some(end) => Ok((count, &data[offset..end])),
        None => Err(Label::Part(label).error(
            base + at,
            ModelErrorKind::OutOfRange {
                what: "array end",
                index: (offset as u64).saturating_add((count as u64).saturating_mul(size as u64)),
                limit: data.len() as u64,
            },
        )),
    }
}

/// Packed `[f32; N]` records (the slice length must be a multiple of `4 * N`; a tail is ignored).
pub fn f32_records<const N: usize>(bytes: &[u8]) -> Vec<[f32; N]> {
    bytes
        .chunks_exact(4 * N)
        .map(|r| std::array::from_fn(|i| f32_at(r, 4 * i)))
        .collect()
}

/// Packed little-endian u16s (a trailing odd byte is ignored).
pub fn u16s(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|r| u16::from_le_bytes([r[0], r[1]]))
        .collect()
}

/// The f32 at `at` of a record whose length the caller checked.
pub fn f32_at(r: &[u8], at: usize) -> f32 {
    f32::from_le_bytes([r[at], r[at + 1], r[at + 2], r[at + 3]])
}

/// The u32 at `at` of a record whose length the caller checked.
pub fn u32_at(r: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([r[at], r[at + 1], r[at + 2], r[at + 3]])
}

/// The u16 at `at` of a record whose length the caller checked.
pub fn u16_at(r: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([r[at], r[at + 1]])
}

/// The text up to the first NUL (or the end) of `bytes`, read as Latin-1-safe lossy UTF-8: game
/// paths are ASCII, and a stray high byte must not fail a whole model.
pub fn c_string(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// The NUL-terminated string starting at `offset` of a string block (MOTX, MODN, MOGN), or
/// `None` when the offset is outside the block.
pub fn string_at(block: &[u8], offset: usize) -> Option<String> {
    block.get(offset..).map(c_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_reports_absolute_offsets() {
        let data = [1u8, 0, 2, 0, 0, 0, 9];
        let mut c = Cursor::new(&data, 100, Label::Part("header"));
        assert_eq!(c.bytes(2).unwrap(), [1, 0]);
        assert_eq!(c.u32().unwrap(), 2);
        let e = c.u32().unwrap_err();
        assert_eq!((e.chunk.as_str(), e.offset), ("header", 106));
        // A count that cannot fit is refused at the count's own offset.
        let big = [0xff, 0xff, 0xff, 0x7f];
        let e = Cursor::new(&big, 8, Label::Tag(*b"VRTX"))
            .count(12)
            .unwrap_err();
        assert_eq!((e.chunk.as_str(), e.offset), ("VRTX", 8));
    }

    #[test]
    fn chunks_read_both_tag_orders_and_cut_a_chunk_that_runs_past_the_end() {
        let mut b = Vec::new();
        b.extend_from_slice(b"REVM");
        b.extend_from_slice(&4u32.to_le_bytes());
        b.extend_from_slice(&17u32.to_le_bytes());
        b.extend_from_slice(b"DHOM");
        b.extend_from_slice(&99u32.to_le_bytes());
        b.extend_from_slice(&[1, 2]);
        let got: Vec<_> = chunks(&b, 0, true).collect::<Result<_>>().unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(&got[0].tag, b"MVER");
        assert!(got[0].complete().is_ok());
        assert_eq!(got[1].payload, [1, 2]);
        let e = got[1].complete().unwrap_err();
        assert_eq!((e.chunk.as_str(), e.offset), ("MOHD", 12));
        let plain: Vec<_> = chunks(&b[..12], 0, false).collect();
        assert_eq!(&plain[0].as_ref().unwrap().tag, b"REVM");
        // A header cut short is an error of its own.
        let e = chunks(&b[..15], 0, true).nth(1).unwrap().unwrap_err();
        assert_eq!((e.chunk.as_str(), e.offset), ("chunk header", 12));
    }

    #[test]
    fn strings_stop_at_nul_and_offsets_outside_are_none() {
        let block = b"a.blp\0b.blp\0";
        assert_eq!(string_at(block, 6).as_deref(), Some("b.blp"));
        assert_eq!(string_at(block, 12).as_deref(), Some(""));
        assert_eq!(string_at(block, 13), None);
    }
}
