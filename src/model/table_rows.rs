//! A client table whose fields are all four bytes (Light, LightParams, the light bands,
//! AreaTrigger), as the zone tools edit it: rows added, changed or removed by id, every other
//! row and the string block written back exactly as they were read. The map keeps the tables
//! its zone edits ([`crate::model::Map::client_tables`]), so that an edit of them is an undo
//! step like any other; [`TableChange`] is such a step's part.
//!
//! Why not `wow_dbc`'s typed tables: its writer lays the string block out anew and knows one
//! layout per generation; these tables hold no strings loam changes, and keeping the bytes
//! of every row loam did not touch is what lets a user trust an edit of Blizzard's table.
//!
//! Not for: what the fields mean (`assets::client::light_rows`, `area_triggers`).

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
        let header = bytes.get(..HEADER_BYTES)?;
        let word = |i: usize| u32::from_le_bytes(header[4 * i..4 * i + 4].try_into().unwrap());
        if &header[..4] != b"WDBC" || word(2) as usize != fields || word(3) as usize != fields * 4 {
            return None;
        }
        let (records, size) = (word(1) as usize, word(4) as usize);
        let block_at = records.checked_mul(fields * 4)?.checked_add(HEADER_BYTES)?;
        let strings = bytes.get(block_at..block_at.checked_add(size)?)?.to_vec();
        let rows = bytes[HEADER_BYTES..block_at]
            .chunks_exact(fields * 4)
            .map(|r| {
                r.chunks_exact(4)
                    .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
                    .collect()
            })
            .collect();
        Some(DbcRows {
            fields,
            rows,
            strings,
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

/// A row of a table at its place: its index among the rows, and its words.
pub type PlacedRow = (usize, Vec<u32>);

/// One row of one client table before and after an edit: added (`before` none), removed
/// (`after` none) or changed. The row's index is kept so that undo puts a removed row back
/// where it was, and the table's bytes come back exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct TableChange {
    /// The table's game path (`DBFilesClient\Light.dbc`).
    pub table: String,
    /// The row's id.
    pub id: u32,
    /// The row before, at its index.
    pub before: Option<PlacedRow>,
    /// The row after, at its index.
    pub after: Option<PlacedRow>,
}

impl TableChange {
    /// The rows of `table` that differ between `old` and `new` (edits that keep the order of
    /// the rows both hold, as every zone edit does).
    pub fn between(table: &str, old: &DbcRows, new: &DbcRows) -> Vec<TableChange> {
        // Most tables of a gesture are untouched (a light moved changes Light.dbc alone):
        // comparing the rows costs far less than indexing them.
        if old.rows == new.rows {
            return Vec::new();
        }
        let index = |t: &DbcRows| -> std::collections::HashMap<u32, usize> {
            t.rows.iter().enumerate().map(|(i, r)| (r[0], i)).collect()
        };
        let (in_old, in_new) = (index(old), index(new));
        let mut out = Vec::new();
        for (i, r) in old.rows.iter().enumerate() {
            match in_new.get(&r[0]) {
                Some(&j) if new.rows[j] == *r => {}
                Some(&j) => out.push(TableChange {
                    table: table.to_string(),
                    id: r[0],
                    before: Some((i, r.clone())),
                    after: Some((j, new.rows[j].clone())),
                }),
                None => out.push(TableChange {
                    table: table.to_string(),
                    id: r[0],
                    before: Some((i, r.clone())),
                    after: None,
                }),
            }
        }
        for (j, r) in new.rows.iter().enumerate() {
            if !in_old.contains_key(&r[0]) {
                out.push(TableChange {
                    table: table.to_string(),
                    id: r[0],
                    before: None,
                    after: Some((j, r.clone())),
                });
            }
        }
        out
    }

    /// Bytes held, for the history's budget.
    pub fn size_bytes(&self) -> usize {
        let row = |r: &Option<PlacedRow>| r.as_ref().map_or(0, |(_, w)| 4 * w.len() + 32);
        std::mem::size_of::<TableChange>() + self.table.len() + row(&self.before) + row(&self.after)
    }
}

/// The client's tables a map's zone edits, by game path, with a count of the changes made to
/// them, so that what is drawn from them (the view's light, the zone overlays) is worked out
/// again only when they change. Two are equal when their tables are: the count is
/// bookkeeping, and undo gives back equal tables under a higher count.
#[derive(Debug, Clone, Default)]
pub struct ClientTables {
    tables: std::collections::BTreeMap<String, DbcRows>,
    revision: u64,
}

impl PartialEq for ClientTables {
    fn eq(&self, other: &Self) -> bool {
        self.tables == other.tables
    }
}

impl ClientTables {
    /// The table at game path `table`, when held.
    pub fn get(&self, table: &str) -> Option<&DbcRows> {
        self.tables.get(table)
    }

    /// Holds `rows` as table `table` (as read from the client: not an edit).
    pub fn insert(&mut self, table: &str, rows: DbcRows) {
        self.tables.insert(table.to_string(), rows);
        self.revision += 1;
    }

    /// Every table held, by game path.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &DbcRows)> {
        self.tables.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// True when no table is held.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Counts every change: a new value means the tables may differ from when it was read.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Puts one side of `changes` into the tables (see [`apply_table_changes`]).
    pub fn apply(&mut self, changes: &[TableChange], forward: bool) {
        if !changes.is_empty() {
            apply_table_changes(&mut self.tables, changes, forward);
            self.revision += 1;
        }
    }
}

/// Puts one side of `changes` into `tables`: "after" when `forward`, else "before". Rows
/// leave first, then the changed ones are replaced, then rows come in at their indices in
/// ascending order, so that the rows end in the order the side had. A table not held is
/// left alone.
pub fn apply_table_changes(
    tables: &mut std::collections::BTreeMap<String, DbcRows>,
    changes: &[TableChange],
    forward: bool,
) {
    fn sides(c: &TableChange, forward: bool) -> (&Option<PlacedRow>, &Option<PlacedRow>) {
        if forward {
            (&c.before, &c.after)
        } else {
            (&c.after, &c.before)
        }
    }
    let side = |c| sides(c, forward);
    for c in changes {
        if let (Some(_), None) = side(c)
            && let Some(t) = tables.get_mut(&c.table)
        {
            t.remove(c.id);
        }
    }
    for c in changes {
        if let (Some(_), Some((_, row))) = side(c)
            && let Some(r) = tables.get_mut(&c.table).and_then(|t| t.get_mut(c.id))
        {
            *r = row.clone();
        }
    }
    let mut coming: Vec<&TableChange> = changes
        .iter()
        .filter(|c| matches!(side(c), (None, Some(_))))
        .collect();
    coming.sort_by_key(|c| side(c).1.as_ref().map_or(0, |(i, _)| *i));
    for c in coming {
        if let (None, Some((i, row))) = side(c)
            && let Some(t) = tables.get_mut(&c.table)
        {
            let at = (*i).min(t.rows.len());
            let mut row = row.clone();
            row.resize(t.fields, 0);
            t.rows.insert(at, row);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::client::test_table;

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

    proptest::proptest! {
        #[test]
        fn any_bytes_read_without_a_panic_and_a_table_reads_back_as_written(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
            fields in 1usize..6,
            rows in proptest::collection::vec(
                proptest::collection::vec(proptest::prelude::any::<u32>(), 6), 0..8),
            strings in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..20),
        ) {
            // Whatever the bytes, an answer (a header that fits, or none), never a panic.
            if let Some(t) = DbcRows::read(&bytes, fields) {
                proptest::prop_assert_eq!(t.to_bytes().len() <= bytes.len(), true);
            }
            let mut table = DbcRows::empty(fields);
            table.strings = strings;
            for r in rows {
                table.push(r);
            }
            let back = DbcRows::read(&table.to_bytes(), fields).unwrap();
            proptest::prop_assert_eq!(back, table);
        }
    }

    #[test]
    fn changes_between_two_tables_take_either_one_to_the_other_byte_for_byte() {
        let row = |id: u32, v: u32| vec![id, v, v + 1];
        let mut old = DbcRows::empty(3);
        for id in 1..=6 {
            old.push(row(id, id * 10));
        }
        let mut new = old.clone();
        new.remove(2);
        new.remove(5);
        new.get_mut(4).unwrap()[1] = 99;
        new.push(row(7, 70));
        new.push(row(8, 80));
        let changes = TableChange::between("T", &old, &new);
        assert_eq!(changes.len(), 5);
        let mut tables = std::collections::BTreeMap::from([("T".to_string(), old.clone())]);
        apply_table_changes(&mut tables, &changes, true);
        assert_eq!(tables["T"].to_bytes(), new.to_bytes());
        apply_table_changes(&mut tables, &changes, false);
        // The removed rows come back at their places, not at the end.
        assert_eq!(tables["T"].to_bytes(), old.to_bytes());
        assert!(TableChange::between("T", &old, &old).is_empty());
    }
}
