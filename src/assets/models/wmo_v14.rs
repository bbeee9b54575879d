//! WMO v14 (0.5.x): one file holding MVER, a MOMO chunk that wraps the root chunks, then one
//! MOGP chunk per group. Differences from v17 that matter here (wowdev wiki, WMO): MOHD has no
//! bounding box (the client computed it from the groups on load; so does loam, from MOGI),
//! MOMT records are 44 bytes with a version word first, MOGI records 40 bytes (absolute offset
//! and size first), the MOGP header is 0x80 bytes, MOPY 4 bytes per triangle, MOBA keeps the
//! material id in byte 1 and a 16-bit start index, and MOIN takes MOVI's place (without it the
//! vertices are the triangles' corners in order).
//!
//! No real v14 file could be found anywhere (corpus README): this reader is built from the spec
//! and tested on files written from the spec (`tests/models.rs`); docs/formats.md says so.

use super::bytes::{Label, chunks};
use super::error::{ModelErrorKind, Result};
use super::{WmoModel, wmo};

pub(super) fn read(bytes: &[u8]) -> Result<WmoModel> {
    let mut root = None;
    let mut groups = Vec::new();
    for chunk in chunks(bytes, 0, true) {
        let chunk = chunk?;
        match &chunk.tag {
            b"MOMO" if root.is_none() => {
                let momo = chunk.complete()?;
                root = Some(wmo::root(
                    chunks(momo.payload, momo.payload_offset(), true),
                    14,
                )?);
            }
            b"MOGP" => {
                let index = groups.len() as u32;
                groups.push((index, String::new(), wmo::group(&chunk.complete()?, 14)?));
            }
            _ => {}
        }
    }
    let root = root.ok_or_else(|| Label::Part("file").error(0, ModelErrorKind::Missing("MOMO")))?;
    let missing = (groups.len() as u32..root.n_groups).collect();
    wmo::assemble(14, root, groups, missing)
}
