//! The one bounds-checked little-endian cursor under every decoder: map chunks (`format`) and
//! model files (`assets::models`) alike. It knows the absolute file offset of every byte it
//! hands out, and turns a read past the end into the caller's error through its [`Site`] (a
//! chunk tag for map files, a label for models), so each error names where it happened.
//!
//! Not for: walking chunks or the meaning of any field (see `format::chunk`,
//! `assets::models::bytes`).

/// Where a cursor reads, as its errors name it (a chunk tag, a part of a model file).
pub trait Site: Copy {
    /// The error a failed read becomes.
    type Error;
    /// Reading `needed` bytes at absolute `offset` found only `available`.
    fn truncated(self, offset: usize, needed: usize, available: usize) -> Self::Error;
}

/// A little-endian cursor over `data`, whose first byte is at absolute offset `base` of the
/// file, reading in `site`.
#[derive(Debug, Clone)]
pub struct Cursor<'a, S> {
    data: &'a [u8],
    pos: usize,
    base: usize,
    site: S,
}

impl<'a, S: Site> Cursor<'a, S> {
    /// A cursor over `data` (absolute offset `base`), reading in `site`.
    pub fn new(data: &'a [u8], base: usize, site: S) -> Cursor<'a, S> {
        Cursor {
            data,
            pos: 0,
            base,
            site,
        }
    }

    /// Where it reads, as its errors name it.
    pub fn site(&self) -> S {
        self.site
    }

    /// The same cursor, its errors naming `site` (a sub-chunk read in place).
    pub fn relabel(mut self, site: S) -> Cursor<'a, S> {
        self.site = site;
        self
    }

    /// Position relative to the start of `data`.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Moves to relative position `pos`; false (and unmoved) when it is past the end.
    pub fn set_position(&mut self, pos: usize) -> bool {
        let inside = pos <= self.data.len();
        if inside {
            self.pos = pos;
        }
        inside
    }

    /// Absolute offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Bytes of `data` in all.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True when `data` is empty.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], S::Error> {
        if n > self.remaining() {
            return Err(self.site.truncated(self.offset(), n, self.remaining()));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize) -> Result<(), S::Error> {
        self.bytes(n).map(|_| ())
    }

    /// The next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], S::Error> {
        let b = self.bytes(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// A u8.
    pub fn u8(&mut self) -> Result<u8, S::Error> {
        Ok(self.array::<1>()?[0])
    }

    /// A little-endian u16.
    pub fn u16(&mut self) -> Result<u16, S::Error> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// A little-endian i16.
    pub fn i16(&mut self) -> Result<i16, S::Error> {
        Ok(i16::from_le_bytes(self.array()?))
    }

    /// A little-endian u32.
    pub fn u32(&mut self) -> Result<u32, S::Error> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// A little-endian u64.
    pub fn u64(&mut self) -> Result<u64, S::Error> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A little-endian f32.
    pub fn f32(&mut self) -> Result<f32, S::Error> {
        Ok(f32::from_le_bytes(self.array()?))
    }

    /// Three little-endian f32s.
    pub fn vec3(&mut self) -> Result<[f32; 3], S::Error> {
        Ok([self.f32()?, self.f32()?, self.f32()?])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A site whose errors are the (offset, needed, available) of the failed read.
    #[derive(Debug, Clone, Copy)]
    struct Plain;

    impl Site for Plain {
        type Error = (usize, usize, usize);
        fn truncated(self, offset: usize, needed: usize, available: usize) -> Self::Error {
            (offset, needed, available)
        }
    }

    #[test]
    fn reads_little_endian_and_names_the_absolute_offset_of_a_short_read() {
        let data = [1, 0, 0, 0, 0x34, 0x12, 9];
        let mut c = Cursor::new(&data, 100, Plain);
        assert_eq!(c.u32(), Ok(1));
        assert_eq!(c.u16(), Ok(0x1234));
        assert_eq!(c.offset(), 106);
        assert_eq!(c.u32(), Err((106, 4, 1)), "needed 4 at 106, one left");
        assert_eq!(c.u8(), Ok(9), "a failed read moves nothing");
        assert!(!c.set_position(8));
        assert!(c.set_position(4));
        assert_eq!(c.remaining(), 3);
    }
}
