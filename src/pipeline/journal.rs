//! The autosave's undo journal: the open map's history beside its recovery snapshot, so that a
//! recovered map comes back with its steps. Each autosave appends only what is new since the
//! last one (the steps recorded since, and the record's shape now), never the whole history
//! again: a day of steps costs each autosave only the minutes since the last.
//!
//! The file is a header, then records, each `kind, length, CRC-32, payload`:
//! - a step: its sequence number (counted from the first step the history ever held, dropped
//!   ones included) and its bytes (`edit::history::journal`, opaque here). A step written again
//!   under a sequence already there replaces it (an undo, then a new step, discards the redo
//!   branch);
//! - a state: how many oldest steps the history dropped, how many it holds, how many of those
//!   are applied, and which one the map was last saved at.
//!
//! The manifest names the journal file and the length it vouches for (written after the
//! journal, so a kill between the two leaves the older, consistent pair); a whole rewrite goes
//! to a new file, never over the one the manifest names. A file cut short mid-record reads up
//! to its last whole record.
//!
//! Not for: a step's encoding (`edit::history::journal`) or when to autosave (`app::recovery`).

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use crate::disk::{LoamError, Result, io_err, write_atomic};

/// The first bytes of a journal file, with its layout version.
pub const MAGIC: &[u8; 8] = b"LOAMJNL1";
/// Bytes of a record's frame before its payload: kind, length, CRC-32.
const FRAME: usize = 1 + 4 + 4;
/// Bytes from the start of a step's record to the step's own bytes (frame and sequence).
pub const STEP_HEADER: u64 = FRAME as u64 + 8;
const STEP: u8 = 1;
const STATE: u8 = 2;

/// The history's shape at an autosave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JournalState {
    /// Oldest steps dropped under the memory budget, ever: the sequence of the first held.
    pub dropped: u64,
    /// Steps held (the undone ones, which can be redone, included).
    pub len: u64,
    /// Steps applied: the map holds the state after the first `head` of those held.
    pub head: u64,
    /// Where among the held steps (0 to `len`) the map was last saved, if it is one of them.
    pub saved: Option<u64>,
}

/// What one autosave adds to the journal.
#[derive(Debug, Clone, Default)]
pub struct JournalWrite {
    /// Start a new file (nothing written yet for this map, or the last write failed) rather
    /// than append to the one the manifest names.
    pub whole: bool,
    /// The steps new since the last autosave, by sequence, encoded.
    pub steps: Vec<(u64, Vec<u8>)>,
    /// The history's shape now.
    pub state: JournalState,
}

/// A journal read back: the held steps of its last state, oldest first.
#[derive(Debug, Clone, Default)]
pub struct Journal {
    /// The last whole state record (none when the file has none).
    pub state: Option<JournalState>,
    /// The held steps of that state, oldest first: (byte offset of the record in the file, the
    /// step's bytes).
    pub steps: Vec<(u64, Vec<u8>)>,
    /// Bytes read: the end of the last whole record.
    pub end: u64,
    /// True when bytes followed the last whole record (a write cut short).
    pub torn: bool,
}

/// A new journal file name (a whole rewrite never writes over the file the manifest names).
pub fn new_name() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format!("history-{}-{}.journal", now.as_secs(), now.subsec_nanos())
}

fn record(out: &mut Vec<u8>, kind: u8, payload: &[u8]) {
    let mut crc = crc32fast::Hasher::new();
    crc.update(&[kind]);
    crc.update(payload);
    out.push(kind);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    out.extend_from_slice(payload);
}

fn state_bytes(s: &JournalState) -> Vec<u8> {
    let mut p = Vec::with_capacity(33);
    for v in [s.dropped, s.len, s.head] {
        p.extend_from_slice(&v.to_le_bytes());
    }
    p.push(u8::from(s.saved.is_some()));
    p.extend_from_slice(&s.saved.unwrap_or(0).to_le_bytes());
    p
}

/// The records of `w` (its steps, then its state).
pub fn records(w: &JournalWrite) -> Vec<u8> {
    let size: usize = w.steps.iter().map(|(_, b)| FRAME + 8 + b.len()).sum();
    let mut out = Vec::with_capacity(size + FRAME + 33);
    for (seq, bytes) in &w.steps {
        let mut p = Vec::with_capacity(8 + bytes.len());
        p.extend_from_slice(&seq.to_le_bytes());
        p.extend_from_slice(bytes);
        record(&mut out, STEP, &p);
    }
    record(&mut out, STATE, &state_bytes(&w.state));
    out
}

/// Writes `w` to the journal `path`: a new file (atomically) when `w.whole`, else appended to
/// the file after its first `valid` bytes (what the manifest vouches for: anything after them
/// is a write the manifest never named, cut off first). Returns the file's length after.
pub fn write(path: &Path, w: &JournalWrite, valid: u64) -> Result<u64> {
    let body = records(w);
    if w.whole {
        let mut all = Vec::with_capacity(MAGIC.len() + body.len());
        all.extend_from_slice(MAGIC);
        all.extend_from_slice(&body);
        write_atomic(path, &all)?;
        return Ok(all.len() as u64);
    }
    let mut f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io_err(path))?;
    let len = f.metadata().map_err(io_err(path))?.len();
    if len < valid || valid < MAGIC.len() as u64 {
        return Err(LoamError::Usage(format!(
            "{}: {len} bytes, the manifest names {valid}",
            path.display()
        )));
    }
    if len > valid {
        f.set_len(valid).map_err(io_err(path))?;
    }
    f.seek(SeekFrom::Start(valid)).map_err(io_err(path))?;
    f.write_all(&body).map_err(io_err(path))?;
    f.sync_data().map_err(io_err(path))?;
    Ok(valid + body.len() as u64)
}

/// A corrupt journal: the file and where.
fn corrupt(path: &Path, offset: u64, what: &str) -> LoamError {
    LoamError::Usage(format!(
        "{}: corrupt undo journal at byte {offset}: {what}",
        path.display()
    ))
}

/// Reads the journal `path` up to `limit` bytes (what the manifest vouches for; the whole file
/// when `None`). A record cut short at the end (a kill mid-write) ends the reading; anything
/// else wrong (a bad checksum with more after it, an unknown record) is an error naming the
/// file and the byte.
pub fn read(path: &Path, limit: Option<u64>) -> Result<Journal> {
    let mut bytes = crate::disk::read_file(path)?;
    if let Some(limit) = limit {
        bytes.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    }
    if bytes.get(..MAGIC.len()) != Some(&MAGIC[..]) {
        return Err(corrupt(
            path,
            0,
            "not a loam undo journal (or another version)",
        ));
    }
    let mut pos = MAGIC.len();
    let mut held: BTreeMap<u64, (u64, Vec<u8>)> = BTreeMap::new();
    let mut journal = Journal {
        end: pos as u64,
        ..Journal::default()
    };
    while pos < bytes.len() {
        let at = pos as u64;
        let Some(frame) = bytes.get(pos..pos + FRAME) else {
            journal.torn = true;
            break;
        };
        let kind = frame[0];
        let len = u32::from_le_bytes([frame[1], frame[2], frame[3], frame[4]]) as usize;
        let crc = u32::from_le_bytes([frame[5], frame[6], frame[7], frame[8]]);
        let Some(payload) = bytes.get(pos + FRAME..pos + FRAME + len) else {
            journal.torn = true;
            break;
        };
        let mut h = crc32fast::Hasher::new();
        h.update(&[kind]);
        h.update(payload);
        if h.finalize() != crc {
            // The last record of the file may be one whose bytes never reached the disk.
            if pos + FRAME + len == bytes.len() {
                journal.torn = true;
                break;
            }
            return Err(corrupt(path, at, "checksum mismatch"));
        }
        match kind {
            STEP if len >= 8 => {
                let seq = u64::from_le_bytes(payload[..8].try_into().unwrap_or([0; 8]));
                held.insert(seq, (at, payload[8..].to_vec()));
            }
            STATE if len == 33 => {
                let word = |i: usize| {
                    u64::from_le_bytes(payload[i * 8..i * 8 + 8].try_into().unwrap_or([0; 8]))
                };
                let state = JournalState {
                    dropped: word(0),
                    len: word(1),
                    head: word(2),
                    saved: (payload[24] == 1)
                        .then(|| u64::from_le_bytes(payload[25..33].try_into().unwrap_or([0; 8]))),
                };
                if state.head > state.len || state.saved.is_some_and(|s| s > state.len) {
                    return Err(corrupt(path, at, "a state past its own steps"));
                }
                // Steps before the first held are gone for good.
                held = held.split_off(&state.dropped);
                journal.state = Some(state);
            }
            _ => return Err(corrupt(path, at, &format!("unknown record {kind}"))),
        }
        pos += FRAME + len;
        journal.end = pos as u64;
    }
    if let Some(s) = journal.state {
        journal.steps = (s.dropped..s.dropped + s.len)
            .map(|seq| {
                held.remove(&seq).ok_or_else(|| {
                    corrupt(
                        path,
                        journal.end,
                        &format!("step {seq} of the last state was never written"),
                    )
                })
            })
            .collect::<Result<_>>()?;
    }
    Ok(journal)
}

/// Removes the journal files of `dir` other than `keep`.
pub fn remove_others(dir: &Path, keep: Option<&str>) {
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.starts_with("history-") && name.ends_with(".journal") && Some(&*name) != keep {
                let _ = fs::remove_file(e.path());
            }
        }
    }
}
