//! M2 skin profiles: which of the model's vertices a level of detail uses, its triangles, its
//! submeshes and the texture units that draw them. Up to M2 version 263 the profiles are
//! embedded in the M2 (offsets relative to the M2); from 264 each is an `NN.skin` file starting
//! with `SKIN` (offsets relative to the skin file). The record is the same either way.
//!
//! Not for: bone palettes, shadow batches or the later-expansion skin fields.

use super::bytes::{Label, counted, u16_at, u16s};
use super::error::{ModelErrorKind, Result};

/// A skin profile's header (five arrays and `boneCountMax`).
pub const PROFILE_SIZE: usize = 44;

/// One skin profile, decoded as far as drawing the bind pose needs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Profile {
    /// For each skin vertex, the M2 vertex it is.
    pub vertices: Vec<u16>,
    /// Triangle list indices into `vertices`.
    pub indices: Vec<u16>,
    /// Submeshes: ranges of `indices`.
    pub submeshes: Vec<Submesh>,
    /// Texture units (`M2Batch`): what draws each submesh with which material and texture.
    pub units: Vec<TextureUnit>,
    /// Absolute offsets of the arrays, for errors about one of their records.
    pub vertices_at: usize,
    /// See `vertices_at`.
    pub indices_at: usize,
    /// See `vertices_at`.
    pub submeshes_at: usize,
    /// See `vertices_at`.
    pub units_at: usize,
}

/// A range of a profile's triangle indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Submesh {
    /// First index (with the section's `level` as the high 16 bits).
    pub index_start: u32,
    /// Number of indices.
    pub index_count: u32,
}

/// What one `M2Batch` record says about drawing a submesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureUnit {
    /// The submesh drawn.
    pub submesh: u16,
    /// Index into the M2's render flags (materials).
    pub material: u16,
    /// Index into the M2's texture lookup table (`textureComboIndex`).
    pub texture_combo: u16,
    /// Number of textures (the first is the one drawn here).
    pub texture_count: u16,
}

/// Reads a `.skin` file (M2 version 264).
pub fn read_file(bytes: &[u8]) -> Result<Profile> {
    match bytes.get(0..4) {
        Some(b"SKIN") => profile(bytes, 4, 48),
        Some(m) => Err(Label::Part("skin header")
            .error(0, ModelErrorKind::UnknownMagic([m[0], m[1], m[2], m[3]]))),
        None => Err(Label::Part("skin header").error(
            0,
            ModelErrorKind::Truncated {
                needed: 4,
                available: bytes.len() as u64,
            },
        )),
    }
}

/// Reads the profile whose header is at `at` of `data` (an M2 or a skin file), with submesh
/// records of `submesh_size` bytes (32 before M2 version 260, 48 from it).
pub fn profile(data: &[u8], at: usize, submesh_size: usize) -> Result<Profile> {
    let (_, vertices) = counted(data, 0, at, 2, "skin vertices")?;
    let (_, indices) = counted(data, 0, at + 8, 2, "skin indices")?;
    let (_, submeshes) = counted(data, 0, at + 24, submesh_size, "submeshes")?;
    let (_, units) = counted(data, 0, at + 32, 24, "texture units")?;
    Ok(Profile {
        vertices: u16s(vertices),
        indices: u16s(indices),
        submeshes: submeshes
            .chunks_exact(submesh_size)
            .map(|r| {
                // `level` is the high word of the starts, for skins past 65 535 indices.
                let level = u32::from(u16_at(r, 2));
                Submesh {
                    index_start: (level << 16) | u32::from(u16_at(r, 8)),
                    index_count: u32::from(u16_at(r, 10)),
                }
            })
            .collect(),
        units: units
            .chunks_exact(24)
            .map(|r| TextureUnit {
                submesh: u16_at(r, 4),
                material: u16_at(r, 10),
                texture_count: u16_at(r, 14),
                texture_combo: u16_at(r, 16),
            })
            .collect(),
        vertices_at: offset_of(data, vertices),
        indices_at: offset_of(data, indices),
        submeshes_at: offset_of(data, submeshes),
        units_at: offset_of(data, units),
    })
}

/// Offset of `part` (a subslice of `data`, or empty) in `data`.
fn offset_of(data: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize).saturating_sub(data.as_ptr() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A skin file with 3 vertices, one triangle, one submesh and one unit.
    fn tiny_skin() -> Vec<u8> {
        let mut b = b"SKIN".to_vec();
        let arrays_end = 4 + PROFILE_SIZE;
        let verts_at = arrays_end;
        let idx_at = verts_at + 6;
        let sub_at = idx_at + 6;
        let unit_at = sub_at + 48;
        for (count, at) in [
            (3, verts_at),
            (3, idx_at),
            (0, 0),
            (1, sub_at),
            (1, unit_at),
        ] {
            b.extend_from_slice(&(count as u32).to_le_bytes());
            b.extend_from_slice(&(at as u32).to_le_bytes());
        }
        b.extend_from_slice(&0u32.to_le_bytes());
        for v in [5u16, 6, 7, 0, 2, 1] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let mut sub = [0u8; 48];
        sub[10] = 3;
        b.extend_from_slice(&sub);
        let mut unit = [0u8; 24];
        unit[10] = 1;
        unit[16] = 2;
        b.extend_from_slice(&unit);
        b
    }

    #[test]
    fn a_skin_file_decodes_its_arrays() {
        let p = read_file(&tiny_skin()).unwrap();
        assert_eq!(p.vertices, [5, 6, 7]);
        assert_eq!(p.indices, [0, 2, 1]);
        assert_eq!(
            p.submeshes,
            [Submesh {
                index_start: 0,
                index_count: 3
            }]
        );
        assert_eq!((p.units[0].material, p.units[0].texture_combo), (1, 2));
    }

    #[test]
    fn an_array_past_the_end_names_itself() {
        let mut b = tiny_skin();
        b[4 + 24] = 200; // 200 submeshes of 48 bytes cannot fit
        let e = read_file(&b).unwrap_err();
        assert_eq!((e.chunk.as_str(), e.offset), ("submeshes", 28));
        assert!(read_file(b"SKI").is_err());
        assert!(read_file(b"NOPE").is_err());
    }
}
