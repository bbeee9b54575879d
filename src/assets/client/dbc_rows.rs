//! An editable copy of a client table whose fields are all four bytes (Light, LightParams, the
//! light bands, AreaTrigger): rows added, changed or removed by id, every other row and the
//! string block written back exactly as they were read.
//!
//! Why not `wow_dbc`'s typed tables: its writer lays the string block out anew and knows one
//! layout per generation; these tables hold no strings loam changes, and keeping the bytes
//! of every row loam did not touch is what lets a user trust an edit of Blizzard's table.
//!
//! Not for: what the fields mean (`light_rows`, `area_triggers`).

/// The WDBC header: magic, record count, field count, record size, string block size.
const HEADER_BYTES: usize = 20;

/// A table's rows as words, in file order; the first word of each row is its id.
#[derive(Debug, Clone, PartialEq)]
pub struct DbcRows {
    fields: usize,
    rows: Vec<Vec<u32>>,
    strings: Vec<u8>,
}

impl DbcRows {
    /// The table in `bytes` when its header says `fields` four-byte fields and the records
    /// and string block fit in the bytes; `None` otherwise.
    pub fn read(bytes: &[u8], fields: usize) -> Option<DbcRows> {
        let table = super::dbc::RawTable::read(bytes, fields)?;
        let rows = (0..table.records())
            .map(|r| (0..fields).map(|f| table.word(r, f)).collect())
            .collect();
        let block_at = HEADER_BYTES + table.records() * fields * 4;
        // RawTable::read checked that the declared block fits in the bytes.
        let size = u32::from_le_bytes(bytes[16..20].try_into().ok()?) as usize;
        Some(DbcRows {
            fields,
            rows,
            strings: bytes[block_at..block_at + size].to_vec(),
        })
    }

    /// An empty table of `fields` fields (with the one-byte string block the clients' tables
    /// carry: offset 0 is the empty string).
    pub fn empty(fields: usize) -> DbcRows {
        DbcRows {
            fields,
            rows: Vec::new(),
            strings: vec![0],
        }
    }

    /// Fields a row holds.
    pub fn fields(&self) -> usize {
        self.fields
    }

    /// The rows, in file order.
    pub fn rows(&self) -> &[Vec<u32>] {
        &self.rows
    }

    /// The largest id in the table (0 when it is empty).
    pub fn largest_id(&self) -> u32 {
        self.rows.iter().map(|r| r[0]).max().unwrap_or(0)
    }

    /// The row with id `id`.
    pub fn get(&self, id: u32) -> Option<&[u32]> {
        self.rows.iter().find(|r| r[0] == id).map(Vec::as_slice)
    }

    /// The row with id `id`, to change in place.
    pub fn get_mut(&mut self, id: u32) -> Option<&mut Vec<u32>> {
        self.rows.iter_mut().find(|r| r[0] == id)
    }

    /// Appends `row` (its length made the table's field count: cut, or padded with zeros).
    pub fn push(&mut self, mut row: Vec<u32>) {
        row.resize(self.fields, 0);
        self.rows.push(row);
    }

    /// Puts `row` in place of the row with its id, or appends it when there is none.
    pub fn put(&mut self, mut row: Vec<u32>) {
        row.resize(self.fields, 0);
        match self.get_mut(row[0]) {
            Some(r) => *r = row,
            None => self.rows.push(row),
        }
    }

    /// Removes the row with id `id`; false when there was none.
    pub fn remove(&mut self, id: u32) -> bool {
        let before = self.rows.len();
        self.rows.retain(|r| r[0] != id);
        self.rows.len() != before
    }

    /// The table as a client reads it: the header, the rows in order, the string block as read.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + self.rows.len() * self.fields * 4);
        out.extend_from_slice(b"WDBC");
        for v in [
            self.rows.len(),
            self.fields,
            self.fields * 4,
            self.strings.len(),
        ] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for row in &self.rows {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.strings);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::client::dbc::test_table;

    #[test]
    fn untouched_rows_and_the_string_block_come_back_byte_for_byte() {
        let rows = vec![
            vec![Ok(3), Err(0), Ok(7)],
            vec![Ok(9), Err(1), Ok(0xDEAD_BEEF)],
        ];
        let bytes = test_table(3, &rows, &["one", "two"]);
        let mut t = DbcRows::read(&bytes, 3).unwrap();
        assert_eq!(t.to_bytes(), bytes);
        assert_eq!(t.largest_id(), 9);
        t.push(vec![10, 0]);
        let grown = t.to_bytes();
        // The old records are a prefix of the new ones, the string block the same tail.
        let old_records = &bytes[HEADER_BYTES..HEADER_BYTES + 2 * 12];
        assert_eq!(&grown[HEADER_BYTES..HEADER_BYTES + 2 * 12], old_records);
        assert_eq!(
            grown[HEADER_BYTES + 2 * 12..][..12],
            [10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        assert!(grown.ends_with(b"\0one\0two\0"));
        assert_eq!(u32::from_le_bytes(grown[4..8].try_into().unwrap()), 3);
        assert!(t.remove(3));
        assert!(!t.remove(3));
        assert_eq!(DbcRows::read(&t.to_bytes(), 3).unwrap().rows().len(), 2);
        // Another layout is not read as this one.
        assert!(DbcRows::read(&bytes, 4).is_none());
    }
}
