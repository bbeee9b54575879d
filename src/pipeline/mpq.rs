//! MPQ archives written the way Blizzard's clients of 0.5.3 – 3.3.5 have theirs: format 1,
//! 4 KB sectors (block size 3), every file stored in sectors behind a sector offset table, each
//! sector zlib-compressed where that makes it smaller, a `(listfile)` last.
//!
//! Why loam writes the bytes itself rather than through `wow-mpq`'s builder (whose hashing,
//! encryption and compression it uses): the builder stores any file no larger than one sector
//! as a *single unit* (flag 0x01000000, no sector table), which the libmpq 0.3 in the servers'
//! map extractors (cMaNGOS's `contrib/extractor`) cannot read — a small `Map.dbc` or
//! `md5translate.trs` is lost to the server — and it writes an uncompressible file of several
//! sectors with a sector table but without the compression flag that announces one, which
//! StormLib then reads as file data. Blizzard's archives of these generations use neither.
//!
//! Not for: reading archives (`assets::client`), or choosing which files go where
//! (`pipeline::pack`, `pipeline::tables`).

use std::fs::{self, File};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use wow_mpq::compression::flags::ZLIB;
use wow_mpq::{compress, encrypt_block, hash_string, hash_type};

use crate::assets::client::Mpq;
use crate::disk::{LoamError, Pending, Result, io_err, temp_path};

/// Block size exponent in the header: sectors of 512 << 3 = 4096 bytes, as in Blizzard's own
/// archives of these clients.
const BLOCK_SIZE: u16 = 3;
/// Bytes in one sector.
const SECTOR: usize = 512 << BLOCK_SIZE;
/// The format-1 header's size.
const HEADER_SIZE: u32 = 32;
/// Block flags: the file exists; its sectors may be compressed (and a sector table leads it).
const FLAG_EXISTS: u32 = 0x8000_0000;
const FLAG_COMPRESS: u32 = 0x0000_0200;

/// Where one archived file's bytes come from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A file on disk, read when its turn comes (so that a large map is never all in memory).
    Path(PathBuf),
    /// Bytes in memory.
    Bytes(Vec<u8>),
    /// A file of another archive, read (and decoded) when its turn comes.
    Block {
        /// The archive.
        archive: Arc<Mpq>,
        /// Its block index.
        block: u32,
    },
}

/// One file to archive: its game path (`World\Maps\Name\Name.wdt`) and its bytes.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The path the client asks for, with backslashes.
    pub game: String,
    /// Its bytes.
    pub source: Source,
}

impl Entry {
    /// `game` from the file at `path`.
    pub fn file(game: &str, path: &Path) -> Self {
        Entry {
            game: game.to_string(),
            source: Source::Path(path.to_path_buf()),
        }
    }

    /// `game` holding `bytes`.
    pub fn bytes(game: &str, bytes: Vec<u8>) -> Self {
        Entry {
            game: game.to_string(),
            source: Source::Bytes(bytes),
        }
    }
}

/// Writes `entries` (the first, in block order, first: the 0.5.x wrappers' readers take the
/// first block) and, when `listfile`, a `(listfile)` naming them and itself, as an archive at `target`:
/// at a temporary name beside it, flushed, then renamed over it, so a failure leaves `target`
/// as it was. A game path given twice (in any case) keeps its last spelling and bytes.
pub fn write_archive(entries: &[Entry], listfile: bool, target: &Path) -> Result<()> {
    let tmp = temp_path(target)?;
    match write_to(entries, listfile, &tmp) {
        Ok(()) => Pending::written_at(tmp, target).commit(),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(match e {
                LoamError::Usage(why) => LoamError::Usage(format!("{}: {why}", target.display())),
                other => other,
            })
        }
    }
}

/// One file's entry in the block table.
struct Block {
    offset: u32,
    packed: u32,
    size: u32,
    flags: u32,
}

fn write_to(entries: &[Entry], listfile: bool, path: &Path) -> Result<()> {
    // The last of each game path (the client's hashing ignores case and slash direction).
    let mut chosen: Vec<&Entry> = Vec::new();
    for e in entries {
        let key = normal(&e.game);
        match chosen.iter_mut().find(|c| normal(&c.game) == key) {
            Some(c) => *c = e,
            None => chosen.push(e),
        }
    }
    let list = listfile.then(|| {
        let mut text = String::new();
        for e in &chosen {
            text.push_str(&e.game.replace('/', "\\"));
            text.push_str("\r\n");
        }
        // It names itself too, as wow-mpq's and StormLib's listings of it expect.
        text.push_str("(listfile)\r\n");
        Entry::bytes("(listfile)", text.into_bytes())
    });
    let all: Vec<&Entry> = chosen.into_iter().chain(list.as_ref()).collect();

    let file = File::create(path).map_err(io_err(path))?;
    let mut out = BufWriter::new(file);
    out.write_all(&[0; HEADER_SIZE as usize])
        .map_err(io_err(path))?;
    let mut pos = u64::from(HEADER_SIZE);
    let mut blocks = Vec::with_capacity(all.len());
    for e in &all {
        let data = match &e.source {
            Source::Path(p) => std::borrow::Cow::Owned(fs::read(p).map_err(io_err(p))?),
            Source::Bytes(b) => std::borrow::Cow::Borrowed(b),
            Source::Block { archive, block } => std::borrow::Cow::Owned(
                archive
                    .read_block(*block, &e.game)
                    .map_err(|err| LoamError::Usage(err.to_string()))?,
            ),
        };
        let stored = sectored(&data)?;
        blocks.push(Block {
            offset: offset32(pos)?,
            packed: offset32(stored.len() as u64)?,
            size: offset32(data.len() as u64)?,
            flags: if data.is_empty() {
                FLAG_EXISTS
            } else {
                FLAG_EXISTS | FLAG_COMPRESS
            },
        });
        out.write_all(&stored).map_err(io_err(path))?;
        pos += stored.len() as u64;
    }

    let hash_pos = offset32(pos)?;
    let hash = hash_table(&all)?;
    out.write_all(&hash).map_err(io_err(path))?;
    pos += hash.len() as u64;
    let block_pos = offset32(pos)?;
    let block = block_table(&blocks);
    out.write_all(&block).map_err(io_err(path))?;
    pos += block.len() as u64;

    let mut header = Vec::with_capacity(HEADER_SIZE as usize);
    header.extend_from_slice(b"MPQ\x1A");
    header.extend_from_slice(&HEADER_SIZE.to_le_bytes());
    header.extend_from_slice(&offset32(pos)?.to_le_bytes());
    header.extend_from_slice(&0u16.to_le_bytes()); // format 1
    header.extend_from_slice(&BLOCK_SIZE.to_le_bytes());
    header.extend_from_slice(&hash_pos.to_le_bytes());
    header.extend_from_slice(&block_pos.to_le_bytes());
    header.extend_from_slice(&((hash.len() / 16) as u32).to_le_bytes());
    header.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    out.seek(SeekFrom::Start(0)).map_err(io_err(path))?;
    out.write_all(&header).map_err(io_err(path))?;
    let file = out
        .into_inner()
        .map_err(|e| LoamError::Usage(e.error().to_string()))?;
    file.sync_all().map_err(io_err(path))
}

/// A file's stored form: the sector offset table, then each 4 KB sector, zlib-compressed
/// (method byte 0x02 first) where that is smaller, else as it is. Empty files store nothing.
fn sectored(data: &[u8]) -> Result<Vec<u8>> {
    if data.is_empty() {
        return Ok(Vec::new());
    }
    let count = data.len().div_ceil(SECTOR);
    let table = (count + 1) * 4;
    let mut offsets = Vec::with_capacity(count + 1);
    let mut body = Vec::new();
    for sector in data.chunks(SECTOR) {
        offsets.push(table + body.len());
        let packed = compress(sector, ZLIB)
            .map_err(|e| LoamError::Usage(format!("compressing a sector: {e}")))?;
        // wow-mpq's `compress` returns the sector as it is unless compressing saves a byte; a
        // reader takes a sector shorter than its size as compressed.
        body.extend_from_slice(if packed.len() < sector.len() {
            &packed
        } else {
            sector
        });
    }
    offsets.push(table + body.len());
    let mut stored = Vec::with_capacity(table + body.len());
    for o in offsets {
        stored.extend_from_slice(&offset32(o as u64)?.to_le_bytes());
    }
    stored.extend_from_slice(&body);
    Ok(stored)
}

/// The encrypted hash table: a power of two at least twice the file count (16 at least), each
/// file at its name's slot or the next free one after it.
fn hash_table(files: &[&Entry]) -> Result<Vec<u8>> {
    let size = (files.len() * 2).max(16).next_power_of_two();
    let mut words = vec![u32::MAX; size * 4];
    for (index, e) in files.iter().enumerate() {
        let start = hash_string(&e.game, hash_type::TABLE_OFFSET) as usize;
        let slot = (0..size)
            .map(|i| (start + i) % size)
            .find(|&s| words[s * 4 + 3] == u32::MAX)
            .ok_or_else(|| LoamError::Usage("the archive's hash table is full".into()))?;
        words[slot * 4] = hash_string(&e.game, hash_type::NAME_A);
        words[slot * 4 + 1] = hash_string(&e.game, hash_type::NAME_B);
        words[slot * 4 + 2] = 0; // locale neutral, platform 0
        words[slot * 4 + 3] = index as u32;
    }
    encrypt_block(&mut words, hash_string("(hash table)", hash_type::FILE_KEY));
    Ok(bytes_of(&words))
}

/// The encrypted block table.
fn block_table(blocks: &[Block]) -> Vec<u8> {
    let mut words: Vec<u32> = blocks
        .iter()
        .flat_map(|b| [b.offset, b.packed, b.size, b.flags])
        .collect();
    encrypt_block(
        &mut words,
        hash_string("(block table)", hash_type::FILE_KEY),
    );
    bytes_of(&words)
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A game path as the archive's hash sees it: upper case, backslashes.
fn normal(game: &str) -> String {
    game.to_ascii_uppercase().replace('/', "\\")
}

/// `v` as a format-1 offset or size, which is 32 bits.
fn offset32(v: u64) -> Result<u32> {
    u32::try_from(v).map_err(|_| {
        LoamError::Usage("the archive would pass 4 GiB, more than MPQ format 1 can address".into())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wow_mpq::Archive;

    /// Reads every file back through wow-mpq's reader and checks each block's flags: sectored
    /// (never single-unit), compressed-flagged, 4 KB sectors.
    #[test]
    fn small_large_empty_and_incompressible_files_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("patch-4.MPQ");
        let small = b"tiny table".to_vec();
        let text: Vec<u8> = (0..20_000u32).flat_map(|i| (i % 7).to_le_bytes()).collect();
        // A xorshift stream: no sector of it compresses.
        let mut x = 0x2545_F491u32;
        let noise: Vec<u8> = (0..9000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        let on_disk = dir.path().join("a.adt");
        fs::write(&on_disk, &text).unwrap();
        let entries = vec![
            Entry::bytes("DBFilesClient\\Map.dbc", small.clone()),
            Entry::file("World\\Maps\\A\\A_1_2.adt", &on_disk),
            Entry::bytes("noise.bin", noise.clone()),
            Entry::bytes("empty.txt", Vec::new()),
            Entry::bytes("dbfilesclient/map.DBC", b"last wins".to_vec()),
        ];
        write_archive(&entries, true, &target).unwrap();

        let mut a = Archive::open(&target).unwrap();
        assert_eq!(a.read_file("DBFilesClient\\Map.dbc").unwrap(), b"last wins");
        assert_eq!(a.read_file("World\\Maps\\A\\A_1_2.adt").unwrap(), text);
        assert_eq!(a.read_file("noise.bin").unwrap(), noise);
        assert_eq!(a.read_file("empty.txt").unwrap(), b"");
        let list = String::from_utf8(a.read_file("(listfile)").unwrap()).unwrap();
        assert_eq!(
            list,
            "dbfilesclient\\map.DBC\r\nWorld\\Maps\\A\\A_1_2.adt\r\nnoise.bin\r\nempty.txt\r\n(listfile)\r\n"
        );

        let bytes = fs::read(&target).unwrap();
        assert_eq!(&bytes[..4], b"MPQ\x1A");
        assert_eq!(
            u16::from_le_bytes([bytes[14], bytes[15]]),
            3,
            "4 KB sectors"
        );
        for name in [
            "DBFilesClient\\Map.dbc",
            "World\\Maps\\A\\A_1_2.adt",
            "noise.bin",
        ] {
            let info = a.find_file(name).unwrap().unwrap();
            assert_eq!(info.flags & 0x0100_0000, 0, "{name} is not single-unit");
            assert_ne!(
                info.flags & FLAG_COMPRESS,
                0,
                "{name} announces its sector table"
            );
        }
    }

    #[test]
    fn a_failed_write_leaves_the_target_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("patch-4.MPQ");
        fs::write(&target, b"before").unwrap();
        let missing = dir.path().join("missing.adt");
        let e = write_archive(&[Entry::file("x.adt", &missing)], true, &target).unwrap_err();
        assert!(e.to_string().contains("missing.adt"), "{e}");
        assert_eq!(fs::read(&target).unwrap(), b"before");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}
