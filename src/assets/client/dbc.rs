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
