//! The parts of an MCNK every generation writes the same way: the normals, the layer records,
//! the object references, the shadow rows, the sound emitters, the stored form of a height,
//! and the header flags a 0.5.x or 0.6.0 chunk ends up with. Each codec frames them its own way
//! (sub-chunk headers or none, quirks kept) and lays out its own header.
//!
//! Not for: reading (each codec's `read`), alpha maps (`mcal`) or liquids (`mclq`).

use crate::format::chunk::Writer;
use crate::model::chunk::{Chunk, FLAG_HAS_SHADOW, FLAG_HAS_VERTEX_COLORS, FLAG_LIQUID_ANY};
use crate::model::coords::VERTICES_PER_CHUNK;

/// MCNR's 145 normals (x, y, z as signed bytes), vertex `order(k)` of the chunk's at place `k`.
pub fn put_normals(w: &mut Writer, normals: &[[i8; 3]], order: impl Fn(usize) -> usize) {
    for k in 0..VERTICES_PER_CHUNK {
        let n = normals[order(k)];
        w.bytes(&[n[0] as u8, n[1] as u8, n[2] as u8]);
    }
}

/// MCLY's records from 0.6.0 on: texture index, flags, alpha-map offset and effect id, each a
/// u32.
pub fn put_layer_records(w: &mut Writer, records: impl IntoIterator<Item = [u32; 4]>) {
    for record in records {
        for field in record {
            w.u32(field);
        }
    }
}

/// MCRF: the doodad references, then the WMO references.
pub fn put_refs(w: &mut Writer, chunk: &Chunk) {
    for &r in chunk.doodad_refs.iter().chain(&chunk.wmo_refs) {
        w.u32(r);
    }
}

/// MCSH's 64 rows of the shadow map, when the chunk has one; returns the bytes written.
pub fn put_shadow(w: &mut Writer, chunk: &Chunk) -> u32 {
    let Some(shadow) = &chunk.shadow else {
        return 0;
    };
    let start = w.len();
    for row in shadow.rows.iter() {
        w.u64(*row);
    }
    (w.len() - start) as u32
}

/// MCSE: the sound emitter records as read.
pub fn put_sounds(w: &mut Writer, chunk: &Chunk) {
    for e in &chunk.sound_emitters {
        w.bytes(&e.record);
    }
}

/// Vertex `i`'s height as a file relative to `base` stores it: the relative value the file was
/// read with while it still gives the height (bit for bit), else the difference.
pub fn stored_height(chunk: &Chunk, i: usize, base: f32) -> f32 {
    let h = chunk.heights[i];
    match &chunk.quirks.relative_heights {
        Some(r) if base + r[i] == h => r[i],
        _ => h - base,
    }
}

/// The header flags of a 0.5.x or 0.6.0 chunk: the chunk's own, with the shadow flag saying
/// whether it has a map, no vertex colours (neither stores them), and the liquid flags of the
/// MCLQ instances written.
pub fn mclq_era_flags(chunk: &Chunk, liquid_flags: u32) -> u32 {
    let mut flags = chunk.flags & !(FLAG_HAS_SHADOW | FLAG_LIQUID_ANY | FLAG_HAS_VERTEX_COLORS);
    if chunk.shadow.is_some() {
        flags |= FLAG_HAS_SHADOW;
    }
    flags | liquid_flags
}
