//! MDDF (36-byte) and MODF (64-byte) placement records, shared by every generation.

use super::chunk::{RawChunk, Reader, Result, Writer, tags};
use crate::model::coords;
use crate::model::placement::{DoodadPlacement, WmoPlacement};

/// Bytes of one MDDF record.
pub const DOODAD_RECORD: usize = 36;
/// Bytes of one MODF record.
pub const WMO_RECORD: usize = 64;

/// Every MDDF record of `mddf`; an error when it is not a whole number of them.
pub fn read_doodads(mddf: &RawChunk) -> Result<Vec<DoodadPlacement>> {
    read_records(mddf, (DOODAD_RECORD, "not a multiple of 36"), read_doodad)
}

/// Every MODF record of `modf`; an error when it is not a whole number of them.
pub fn read_wmos(modf: &RawChunk) -> Result<Vec<WmoPlacement>> {
    read_records(modf, (WMO_RECORD, "not a multiple of 64"), read_wmo)
}

/// The `size`-byte records of `c`, each read by `read`; an error saying `why` when the chunk is
/// not a whole number of them.
fn read_records<T>(
    c: &RawChunk,
    (size, why): (usize, &'static str),
    read: fn(&mut Reader) -> Result<T>,
) -> Result<Vec<T>> {
    if !c.payload.len().is_multiple_of(size) {
        return Err(c.bad_size(why));
    }
    let mut r = c.reader();
    (0..c.payload.len() / size).map(|_| read(&mut r)).collect()
}

/// MDDF: `doodads`' records, chunk header and all.
pub fn put_mddf(w: &mut Writer, doodads: &[DoodadPlacement]) {
    let c = w.begin(tags::MDDF);
    doodads.iter().for_each(|d| write_doodad(w, d));
    w.end(c);
}

/// MODF: `wmos`' records, chunk header and all.
pub fn put_modf(w: &mut Writer, wmos: &[WmoPlacement]) {
    let c = w.begin(tags::MODF);
    wmos.iter().for_each(|p| write_wmo(w, p));
    w.end(c);
}

/// Reads one MDDF record.
pub fn read_doodad(r: &mut Reader) -> Result<DoodadPlacement> {
    Ok(DoodadPlacement {
        name_index: r.u32()?,
        unique_id: r.u32()?,
        position: coords::placement_to_world(r.vec3()?),
        rotation: r.vec3()?,
        scale: r.u16()?,
        flags: r.u16()?,
    })
}

/// Writes one MDDF record.
pub fn write_doodad(w: &mut Writer, d: &DoodadPlacement) {
    w.u32(d.name_index);
    w.u32(d.unique_id);
    w.vec3(coords::world_to_placement(d.position));
    w.vec3(d.rotation);
    w.u16(d.scale);
    w.u16(d.flags);
}

/// Reads one MODF record.
pub fn read_wmo(r: &mut Reader) -> Result<WmoPlacement> {
    let name_index = r.u32()?;
    let unique_id = r.u32()?;
    let position = coords::placement_to_world(r.vec3()?);
    let rotation = r.vec3()?;
    let (bounds_min, bounds_max) = coords::placement_box_to_world(r.vec3()?, r.vec3()?);
    Ok(WmoPlacement {
        name_index,
        unique_id,
        position,
        rotation,
        bounds_min,
        bounds_max,
        flags: r.u16()?,
        doodad_set: r.u16()?,
        name_set: r.u16()?,
        scale: r.u16()?,
    })
}

/// Writes one MODF record.
pub fn write_wmo(w: &mut Writer, p: &WmoPlacement) {
    w.u32(p.name_index);
    w.u32(p.unique_id);
    w.vec3(coords::world_to_placement(p.position));
    w.vec3(p.rotation);
    let (min, max) = coords::world_box_to_placement(p.bounds_min, p.bounds_max);
    w.vec3(min);
    w.vec3(max);
    w.u16(p.flags);
    w.u16(p.doodad_set);
    w.u16(p.name_set);
    w.u16(p.scale);
}
