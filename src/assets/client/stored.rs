//! Turning a file's stored bytes (as cut out of an archive) into its contents: sector table,
//! decryption, decompression.
//!
//! Why not wow-mpq's `Archive::read_file`: in wow-mpq 0.7.0 it derives the encryption key from
//! the whole path instead of the plain file name and decrypts the trailing 1–3 bytes that
//! Storm leaves plain, so every encrypted file written by StormLib reads as an error or as
//! wrong bytes (a `(listfile)` of zeros). The tables, the key hash, the block decryption and
//! the decompressors still come from wow-mpq.
//!
//! Not for: finding files (the hash index lives in `mpq.rs`).

use wow_mpq::{decompress, decrypt_block, hash_string, hash_type};

/// Block flags (MPQ format) this module acts on.
pub(crate) mod flags {
    pub const IMPLODE: u32 = 0x0000_0100;
    pub const COMPRESS: u32 = 0x0000_0200;
    pub const ENCRYPTED: u32 = 0x0001_0000;
    pub const FIX_KEY: u32 = 0x0002_0000;
    pub const PATCH_FILE: u32 = 0x0010_0000;
    pub const SINGLE_UNIT: u32 = 0x0100_0000;
    pub const DELETE_MARKER: u32 = 0x0200_0000;
    pub const EXISTS: u32 = 0x8000_0000;
}

/// The PKWARE DCL method id the decompressor takes for imploded data.
const METHOD_IMPLODE: u8 = 0x08;

/// Why stored bytes do not decode, with the offset inside the stored file.
#[derive(Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset inside the stored file where the problem is.
    pub offset: u64,
    /// What is wrong.
    pub reason: String,
}

fn fail(offset: usize, reason: impl Into<String>) -> DecodeError {
    DecodeError {
        offset: offset as u64,
        reason: reason.into(),
    }
}

/// How one stored file is laid out, from its block table entry.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// Block flags.
    pub flags: u32,
    /// Size of the file's contents.
    pub file_size: usize,
    /// The archive's sector size.
    pub sector_size: usize,
    /// Decryption key of the first sector (0 when not encrypted).
    pub key: u32,
}

/// The key a file is encrypted with: the hash of its plain name (after the last `\`), adjusted
/// by position and size when the block says FIX_KEY.
pub fn file_key(game_path: &str, flags: u32, block_pos: u32, file_size: u32) -> u32 {
    let base = hash_string(super::path::plain_name(game_path), hash_type::FILE_KEY);
    if flags & flags::FIX_KEY != 0 {
        base.wrapping_add(block_pos) ^ file_size
    } else {
        base
    }
}

/// Decrypts whole 32-bit words in place; the 0–3 trailing bytes stay as stored (Storm
/// never encrypts them).
fn decrypt(data: &mut [u8], key: u32) {
    let whole = data.len() / 4 * 4;
    let mut words: Vec<u32> = data[..whole]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    decrypt_block(&mut words, key);
    for (c, w) in data[..whole].chunks_exact_mut(4).zip(words) {
        c.copy_from_slice(&w.to_le_bytes());
    }
}

/// One unit (a sector or a single-unit file) after decryption: stored as is when its size is
/// already the expected size, else compressed (a method byte first) or imploded.
fn expand(unit: &[u8], flags: u32, expected: usize, at: usize) -> Result<Vec<u8>, DecodeError> {
    if unit.len() == expected {
        return Ok(unit.to_vec());
    }
    if unit.len() > expected {
        return Err(fail(
            at,
            format!("{} stored bytes for {expected} bytes of data", unit.len()),
        ));
    }
    let out = if flags & flags::COMPRESS != 0 {
        let (&method, rest) = unit
            .split_first()
            .ok_or_else(|| fail(at, "empty compressed sector"))?;
        decompress(rest, method, expected).map_err(|e| {
            fail(
                at,
                format!("decompression (method {method:#04x}) failed: {e}"),
            )
        })?
    } else if flags & flags::IMPLODE != 0 {
        decompress(unit, METHOD_IMPLODE, expected)
            .map_err(|e| fail(at, format!("explode failed: {e}")))?
    } else {
        return Err(fail(
            at,
            format!("{} stored bytes for {expected} bytes of data", unit.len()),
        ));
    };
    if out.len() != expected {
        return Err(fail(
            at,
            format!("decompressed to {} bytes, expected {expected}", out.len()),
        ));
    }
    Ok(out)
}

/// The contents of a stored file.
pub fn decode(stored: &[u8], layout: Layout) -> Result<Vec<u8>, DecodeError> {
    let Layout {
        flags,
        file_size,
        sector_size,
        key,
    } = layout;
    let encrypted = flags & flags::ENCRYPTED != 0;
    if encrypted && key == 0 {
        return Err(fail(0, "encrypted, and its name (the key) is unknown"));
    }
    if flags & flags::SINGLE_UNIT != 0 || file_size == 0 {
        let mut unit = stored.to_vec();
        if encrypted {
            decrypt(&mut unit, key);
        }
        if flags & (flags::COMPRESS | flags::IMPLODE) == 0 {
            unit.truncate(file_size);
            if unit.len() < file_size {
                return Err(fail(
                    0,
                    format!("{} stored bytes for {file_size} bytes", stored.len()),
                ));
            }
            return Ok(unit);
        }
        return expand(&unit, flags, file_size, 0);
    }
    if sector_size == 0 {
        return Err(fail(0, "sector size 0"));
    }
    let sectors = file_size.div_ceil(sector_size);
    if flags & (flags::COMPRESS | flags::IMPLODE) == 0 {
        // Plain sectors back to back; each encrypted on its own when encrypted.
        if stored.len() < file_size {
            return Err(fail(
                0,
                format!("{} stored bytes for {file_size} bytes", stored.len()),
            ));
        }
        let mut out = stored[..file_size].to_vec();
        if encrypted {
            for (i, chunk) in out.chunks_mut(sector_size).enumerate() {
                decrypt(chunk, key.wrapping_add(i as u32));
            }
        }
        return Ok(out);
    }
    let table_len = (sectors + 1) * 4;
    let mut table = stored
        .get(..table_len)
        .ok_or_else(|| {
            fail(
                0,
                format!(
                    "sector table of {table_len} bytes runs past the stored file ({} bytes)",
                    stored.len()
                ),
            )
        })?
        .to_vec();
    if encrypted {
        decrypt(&mut table, key.wrapping_sub(1));
    }
    let offsets: Vec<usize> = table
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize)
        .collect();
    // Grown as sectors expand rather than sized from the block table's file size, which a
    // garbled archive sets to gigabytes over a few stored bytes (found by fuzzing).
    let mut out = Vec::with_capacity(file_size.min(stored.len().saturating_mul(4)));
    for i in 0..sectors {
        let (start, end) = (offsets[i], offsets[i + 1]);
        if start > end || end > stored.len() {
            return Err(fail(
                i * 4,
                format!(
                    "sector {i} spans bytes {start}..{end} of a {}-byte stored file",
                    stored.len()
                ),
            ));
        }
        let mut unit = stored[start..end].to_vec();
        if encrypted {
            decrypt(&mut unit, key.wrapping_add(i as u32));
        }
        let expected = sector_size.min(file_size - out.len());
        out.extend(expand(&unit, flags, expected, start)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_bytes_stay_plain() {
        let mut data = *b"abcdefg";
        decrypt(&mut data, 0x1234_5678);
        assert_eq!(&data[4..], b"efg");
        assert_ne!(&data[..4], b"abcd");
    }

    #[test]
    fn bad_sector_tables_are_errors() {
        let layout = Layout {
            flags: flags::COMPRESS | flags::EXISTS,
            file_size: 10_000,
            sector_size: 4096,
            key: 0,
        };
        assert!(
            decode(&[0; 8], layout)
                .unwrap_err()
                .reason
                .contains("sector table")
        );
        let mut stored = Vec::new();
        for o in [16u32, 9999, 20, 30] {
            stored.extend(o.to_le_bytes());
        }
        assert!(
            decode(&stored, layout)
                .unwrap_err()
                .reason
                .contains("sector 0")
        );
        let encrypted = Layout {
            flags: flags::ENCRYPTED | flags::EXISTS,
            ..layout
        };
        assert!(
            decode(&stored, encrypted)
                .unwrap_err()
                .reason
                .contains("encrypted")
        );
    }
}
