//! Client tables (`DBFilesClient\*.dbc`) handed to the `wow_dbc` crate only when they can be
//! read safely: a modded client's patch archive can hold tables other tools wrote.
//!
//! Why a guard: `wow_dbc` indexes its string block with each string field's offset unchecked,
//! so a table with one bad offset (or one read with another layout, whose string fields are
//! numbers) panics inside the crate (found by fuzzing, `fuzz/fuzz_targets/dbc.rs`). The header
//! is checked against the bytes first, so that no count can make the crate allocate beyond the
//! file, and a panic that still happens is taken as "not this table".
//!
//! Not for: which table or layout to read (`maps`, `liquids`).

use std::panic::{AssertUnwindSafe, catch_unwind};

/// The WDBC header: magic, record count, field count, record size, string block size.
const HEADER_BYTES: usize = 20;

/// Runs `read` (a `wow_dbc` table read) on `bytes` when their WDBC header is whole and the
/// records and string block it declares fit in them; `None` when they do not, when `read`
/// finds no table, or when it panics.
pub fn read_guarded<T>(bytes: &[u8], read: impl FnOnce(&[u8]) -> Option<T>) -> Option<T> {
    if !header_fits(bytes) {
        return None;
    }
    catch_unwind(AssertUnwindSafe(|| read(bytes)))
        .ok()
        .flatten()
}

/// True when `bytes` start with a WDBC header whose records and string block fit in them.
fn header_fits(bytes: &[u8]) -> bool {
    if bytes.len() < HEADER_BYTES || &bytes[..4] != b"WDBC" {
        return false;
    }
    let field = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()) as u64;
    let (records, record_size, strings) = (field(1), field(3), field(4));
    records
        .checked_mul(record_size)
        .and_then(|r| r.checked_add(strings))
        .and_then(|n| n.checked_add(HEADER_BYTES as u64))
        .is_some_and(|n| n <= bytes.len() as u64)
}

/// The first filled locale of a `wow_dbc` localized string (a client fills the slot of its
/// locale; enGB comes first, as the clients' own column order has it).
macro_rules! first_locale {
    ($s:expr) => {{
        let s = &$s;
        [
            &s.en_gb, &s.ko_kr, &s.fr_fr, &s.de_de, &s.en_cn, &s.en_tw, &s.es_es, &s.es_mx,
        ]
        .into_iter()
        .find(|t| !t.is_empty())
        .cloned()
        .unwrap_or_default()
    }};
}
pub(super) use first_locale;

/// A table the `wow_dbc` crate has no layout for (the 0.5.x and 0.6.0 ones), read field by
/// field from a layout the caller knows (WoWDBDefs'): every field four bytes, strings as
/// offsets into the block after the records.
pub struct RawTable<'a> {
    bytes: &'a [u8],
    fields: usize,
    records: usize,
    block: &'a [u8],
}

impl<'a> RawTable<'a> {
    /// The table in `bytes` when its header says `fields` four-byte fields and its records
    /// and string block fit in the bytes; `None` otherwise (another layout, or cut short).
    pub fn read(bytes: &'a [u8], fields: usize) -> Option<RawTable<'a>> {
        if !header_fits(bytes) {
            return None;
        }
        let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
        if word(2) as usize != fields || word(3) as usize != fields * 4 {
            return None;
        }
        let (records, strings) = (word(1) as usize, word(4) as usize);
        let block_at = HEADER_BYTES + records * fields * 4;
        Some(RawTable {
            bytes,
            fields,
            records,
            block: &bytes[block_at..block_at + strings],
        })
    }

    /// How many records the table holds.
    pub fn records(&self) -> usize {
        self.records
    }

    /// Field `field` of record `record` as a number.
    pub fn word(&self, record: usize, field: usize) -> u32 {
        let at = HEADER_BYTES + (record * self.fields + field) * 4;
        u32::from_le_bytes(self.bytes[at..at + 4].try_into().unwrap())
    }

    /// Field `field` of record `record` as a string; `None` when its offset leaves the block
    /// or the string has no end there.
    pub fn string(&self, record: usize, field: usize) -> Option<String> {
        let s = self.block.get(self.word(record, field) as usize..)?;
        let end = s.iter().position(|&b| b == 0)?;
        Some(String::from_utf8_lossy(&s[..end]).into_owned())
    }

    /// The first filled one of the eight locale strings starting at field `first` (a
    /// `_lang` column of these clients: eight strings and a flags word); `None` when one of
    /// them cannot be read.
    pub fn first_locale(&self, record: usize, first: usize) -> Option<String> {
        let names = (first..first + 8)
            .map(|f| self.string(record, f))
            .collect::<Option<Vec<String>>>()?;
        Some(
            names
                .into_iter()
                .find(|n| !n.is_empty())
                .unwrap_or_default(),
        )
    }
}

/// A WDBC table of `fields` four-byte fields; `strings` go into the string block and a
/// record's `Err(k)` field points at the k-th of them. For the table readers' unit tests.
#[cfg(test)]
pub(crate) fn test_table(
    fields: usize,
    rows: &[Vec<Result<u32, usize>>],
    strings: &[&str],
) -> Vec<u8> {
    let mut block = vec![0u8];
    let mut at = Vec::new();
    for s in strings {
        at.push(block.len() as u32);
        block.extend_from_slice(s.as_bytes());
        block.push(0);
    }
    let mut b = b"WDBC".to_vec();
    for v in [rows.len(), fields, fields * 4, block.len()] {
        b.extend_from_slice(&(v as u32).to_le_bytes());
    }
    for row in rows {
        assert_eq!(row.len(), fields);
        for f in row {
            let v = match f {
                Ok(v) => *v,
                Err(k) => at[*k],
            };
            b.extend_from_slice(&v.to_le_bytes());
        }
    }
    b.extend(block);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(records: u32, fields: u32, strings: u32) -> Vec<u8> {
        let mut b = b"WDBC".to_vec();
        for v in [records, fields, fields * 4, strings] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }

    #[test]
    fn a_table_larger_than_its_bytes_is_not_read() {
        let mut b = header(1_000_000, 66, 1);
        b.resize(1000, 0);
        assert_eq!(read_guarded(&b, |_| Some(())), None);
        let mut whole = header(2, 3, 1);
        whole.resize(HEADER_BYTES + 2 * 12 + 1, 0);
        assert_eq!(read_guarded(&whole, |_| Some(())), Some(()));
        assert_eq!(read_guarded(b"WDB", |_| Some(())), None);
        assert_eq!(read_guarded(&header(0, 0, 0)[..19], |_| Some(())), None);
    }

    #[test]
    fn a_panic_in_the_reader_is_no_table() {
        let b = header(0, 1, 0);
        let panicking = |_: &[u8]| -> Option<()> { panic!("index out of bounds") };
        assert_eq!(read_guarded(&b, panicking), None);
    }
}
