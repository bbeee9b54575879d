//! One opened MPQ archive: its header and classic hash and block tables (read with wow-mpq's
//! table readers, after checking that they lie inside the file), a lookup by name hash, and
//! reading one stored file.
//!
//! Reads go through positioned reads on a shared file handle, so one `Mpq` serves many
//! threads at once without a lock.
//!
//! Not for: the order of archives or which one wins (`mod.rs`); decoding stored bytes
//! (`stored.rs`).

use std::fs::File;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use wow_mpq::tables::{BlockTable, HashTable, HiBlockTable};
use wow_mpq::{FormatVersion, OpenOptions, hash_string, hash_type};

use super::error::{AssetError, io_err};
use super::stored::{self, Layout, flags};

/// The largest file loam will unpack (the 0.5.3 Azeroth WDT is about 1 GB); a bigger size in
/// a block table is taken as garbage rather than allocated.
const MAX_FILE_SIZE: u64 = 1 << 31;

/// Hash-table value of a slot that never held a file.
const SLOT_EMPTY: u32 = 0xFFFF_FFFF;

/// The 64-bit identity of a game path in every MPQ: the two name hashes (they fold case and
/// slash direction). Two different paths sharing both are indistinguishable to the client too.
pub fn name_key(game_path: &str) -> u64 {
    ((hash_string(game_path, hash_type::NAME_A) as u64) << 32)
        | hash_string(game_path, hash_type::NAME_B) as u64
}

#[derive(Debug, Clone, Copy)]
struct Block {
    /// Position relative to the archive's header (what FIX_KEY uses), high bits included.
    pos: u64,
    stored_size: u64,
    file_size: u64,
    flags: u32,
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    key: u64,
    block: u32,
}

/// An opened archive.
#[derive(Debug)]
pub struct Mpq {
    path: PathBuf,
    file: File,
    file_len: u64,
    archive_offset: u64,
    sector_size: usize,
    blocks: Vec<Block>,
    slots: Vec<Slot>,
}

/// One name-hash entry of an archive that points at a live block.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// [`name_key`] of the file.
    pub key: u64,
    /// Its block index.
    pub block: u32,
    /// The block is a deletion marker: a patch hiding the file of an earlier archive.
    pub deleted: bool,
}

fn bad(path: &Path, reason: impl Into<String>) -> AssetError {
    AssetError::BadArchive {
        archive: path.to_path_buf(),
        reason: reason.into(),
    }
}

fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

impl Mpq {
    /// Opens an archive and loads its hash and block tables.
    pub fn open(path: &Path) -> Result<Mpq, AssetError> {
        let file = File::open(path).map_err(io_err(path))?;
        let file_len = file.metadata().map_err(io_err(path))?.len();
        // wow-mpq is a large parser; a panic inside it must become an error naming the archive.
        let loaded = catch_unwind(AssertUnwindSafe(|| load_tables(path, file_len)))
            .map_err(|p| bad(path, format!("the MPQ reader failed: {}", panic_text(p))))??;
        Ok(Mpq {
            path: path.to_path_buf(),
            file,
            file_len,
            archive_offset: loaded.0,
            sector_size: loaded.1,
            blocks: loaded.2,
            slots: loaded.3,
        })
    }

    /// The archive file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every hash entry that points at a block holding a file (or a deletion marker).
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.slots.iter().filter_map(|s| {
            let b = self.blocks.get(s.block as usize)?;
            (b.flags & flags::EXISTS != 0).then_some(Entry {
                key: s.key,
                block: s.block,
                deleted: b.flags & flags::DELETE_MARKER != 0,
            })
        })
    }

    /// How many files the hash table holds (deletion markers not counted).
    pub fn file_count(&self) -> usize {
        self.entries().filter(|e| !e.deleted).count()
    }

    /// The block of `game_path`, probing this archive's own hash table as the client does.
    pub fn find(&self, game_path: &str) -> Option<u32> {
        let key = name_key(game_path);
        let n = self.slots.len();
        if n == 0 {
            return None;
        }
        let start = hash_string(game_path, hash_type::TABLE_OFFSET) as usize & (n - 1);
        for i in 0..n {
            let slot = self.slots[(start + i) & (n - 1)];
            if slot.block == SLOT_EMPTY {
                return None;
            }
            if slot.key == key && (slot.block as usize) < self.blocks.len() {
                return Some(slot.block);
            }
        }
        None
    }

    /// The block holding the most bytes: the payload of a 0.5.x per-file wrapper, whose
    /// other file is a 16-byte MD5.
    pub fn largest_block(&self) -> Option<u32> {
        self.entries()
            .filter(|e| !e.deleted)
            .max_by_key(|e| self.blocks[e.block as usize].file_size)
            .map(|e| e.block)
    }

    /// Reads and decodes block `block`, reported (and keyed, when encrypted) as `game_path`.
    pub fn read_block(&self, block: u32, game_path: &str) -> Result<Vec<u8>, AssetError> {
        let bad_file = |offset: u64, reason: String| AssetError::BadFile {
            archive: self.path.clone(),
            file: game_path.to_string(),
            offset,
            reason,
        };
        let b = *self
            .blocks
            .get(block as usize)
            .ok_or_else(|| bad_file(0, format!("block {block} is outside the block table")))?;
        let start = self.archive_offset + b.pos;
        if b.flags & flags::PATCH_FILE != 0 {
            return Err(bad_file(
                start,
                "an incremental patch file (Cataclysm format), not supported".into(),
            ));
        }
        if start
            .checked_add(b.stored_size)
            .is_none_or(|end| end > self.file_len)
        {
            return Err(bad_file(
                start,
                format!(
                    "{} stored bytes run past the end of the archive ({} bytes)",
                    b.stored_size, self.file_len
                ),
            ));
        }
        if b.file_size > MAX_FILE_SIZE {
            return Err(bad_file(
                start,
                format!("implausible size of {} bytes", b.file_size),
            ));
        }
        let mut stored = vec![0u8; b.stored_size as usize];
        read_exact_at(&self.file, &mut stored, start)
            .map_err(|e| bad_file(start, e.to_string()))?;
        let key = if b.flags & flags::ENCRYPTED != 0 {
            stored::file_key(game_path, b.flags, b.pos as u32, b.file_size as u32)
        } else {
            0
        };
        let layout = Layout {
            flags: b.flags,
            file_size: b.file_size as usize,
            sector_size: self.sector_size,
            key,
        };
        match catch_unwind(|| stored::decode(&stored, layout)) {
            Ok(Ok(bytes)) => Ok(bytes),
            Ok(Err(e)) => Err(bad_file(start + e.offset, e.reason)),
            Err(p) => Err(bad_file(
                start,
                format!("the decompressor failed: {}", panic_text(p)),
            )),
        }
    }

    /// The names in the archive's `(listfile)`, when it has a readable one.
    pub fn listfile(&self) -> Option<Vec<String>> {
        let block = self.find("(listfile)")?;
        let bytes = self.read_block(block, "(listfile)").ok()?;
        let text = String::from_utf8_lossy(&bytes);
        Some(
            text.split(['\r', '\n', ';'])
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
        )
    }
}

type Tables = (u64, usize, Vec<Block>, Vec<Slot>);

/// Reads the header with wow-mpq, checks the classic hash and block tables lie inside the file
/// (a garbled header must not size an allocation), then reads them.
fn load_tables(path: &Path, file_len: u64) -> Result<Tables, AssetError> {
    let archive = OpenOptions::new()
        .load_tables(false)
        .open(path)
        .map_err(|e| bad(path, format!("not a readable MPQ archive: {e}")))?;
    let offset = archive.archive_offset();
    let h = archive.header().clone();
    if h.block_size > 16 {
        return Err(bad(
            path,
            format!("sector size shift {} is implausible", h.block_size),
        ));
    }
    if h.format_version >= FormatVersion::V3 && h.hash_table_size == 0 {
        return Err(bad(
            path,
            "an MPQ v3/v4 archive without a classic hash table (not a client up to 3.3.5)",
        ));
    }
    if !h.hash_table_size.is_power_of_two() {
        return Err(bad(
            path,
            format!(
                "hash table size {} is not a power of two",
                h.hash_table_size
            ),
        ));
    }
    let (hash_bytes, block_bytes) = (
        h.hash_table_size as u64 * 16,
        h.block_table_size as u64 * 16,
    );
    // A v4 header also gives each table's size on disk: smaller than its entries means
    // compressed, which only later clients' archives (v4, Mists of Pandaria on) do.
    if let Some(v4) = &h.v4_data {
        for (what, on_disk, entries) in [
            ("hash", v4.hash_table_size_64, hash_bytes),
            ("block", v4.block_table_size_64, block_bytes),
        ] {
            if on_disk != 0 && on_disk != entries {
                return Err(bad(
                    path,
                    format!(
                        "{what} table stored in {on_disk} bytes for {entries} bytes of entries \
                         (compressed: an MPQ v4 archive of a client after 3.3.5)"
                    ),
                ));
            }
        }
    }
    let hash_pos =
        offset + (h.hash_table_pos as u64 | (h.hash_table_pos_hi.unwrap_or(0) as u64) << 32);
    let block_pos =
        offset + (h.block_table_pos as u64 | (h.block_table_pos_hi.unwrap_or(0) as u64) << 32);
    for (what, pos, len) in [
        ("hash", hash_pos, hash_bytes),
        ("block", block_pos, block_bytes),
    ] {
        if pos.checked_add(len).is_none_or(|end| end > file_len) {
            return Err(bad(
                path,
                format!(
                    "{what} table at byte {pos} ({len} bytes) runs past the end of the file ({file_len} bytes); truncated?"
                ),
            ));
        }
    }
    // loam reads the classic hash and block tables itself, whatever the version: wow-mpq's
    // `load_tables` also loads `(attributes)` (every version) and the HET and BET tables (v3
    // and v4), trusting the sizes they declare, and garbled ones made it allocate gigabytes
    // (found by the fuzz target `mpq_lookup`; both kept in tests/alloc_limits.rs). Clients up
    // to 3.3.5 read neither, and every archive they read has the classic tables.
    let tables = || -> wow_mpq::Result<_> {
        let mut file = File::open(path)?;
        let hash = HashTable::read(&mut file, hash_pos, h.hash_table_size)?;
        let block = BlockTable::read(&mut file, block_pos, h.block_table_size)?;
        let hi = match h.hi_block_table_pos {
            Some(pos) if pos != 0 => {
                let at = offset + pos;
                let end = at.saturating_add(h.block_table_size as u64 * 2);
                (end <= file_len)
                    .then(|| HiBlockTable::read(&mut file, at, h.block_table_size))
                    .transpose()?
            }
            _ => None,
        };
        Ok(entries(&hash, &block, hi.as_ref()))
    };
    let (blocks, slots) =
        tables().map_err(|e| bad(path, format!("hash/block tables unreadable: {e}")))?;
    Ok((offset, 512usize << h.block_size, blocks, slots))
}

/// loam's view of an archive's block and hash tables.
fn entries(
    hash: &HashTable,
    block: &BlockTable,
    hi: Option<&HiBlockTable>,
) -> (Vec<Block>, Vec<Slot>) {
    let blocks: Vec<Block> = block
        .entries()
        .iter()
        .enumerate()
        .map(|(i, e)| Block {
            pos: e.file_pos as u64 | hi.map_or(0, |t| t.get_file_pos_high(i) << 32),
            stored_size: e.compressed_size as u64,
            file_size: e.file_size as u64,
            flags: e.flags,
        })
        .collect();
    let slots = hash
        .entries()
        .iter()
        .map(|e| Slot {
            key: (e.name_1 as u64) << 32 | e.name_2 as u64,
            block: e.block_index,
        })
        .collect();
    (blocks, slots)
}
