//! The `wow-blp` crate behind loam's `Image` and `BlpError`, with a header check in front: the
//! crate adds mip offsets and sizes as `u32` (overflow panics in debug builds) and allocates
//! whatever size the header claims, so both are checked here first.
//!
//! Not for: choosing a decoder (the parent module does).

use super::{BlpError, Image, MAX_SIDE, u32_at};

/// Where the width, height and the mip offset and size tables sit, per magic.
struct Layout {
    width_at: usize,
    offsets_at: usize,
}

/// Checks what `wow-blp` trusts: a known magic, sides of 1..=`MAX_SIDE`, and every mip entry
/// of the offset/size tables inside the file.
pub fn check_header(bytes: &[u8]) -> Result<(), BlpError> {
    let layout = match bytes.get(0..4) {
        // magic, type, encoding/alpha depth/alpha type/mips, width, height, tables
        Some(b"BLP2") => Layout {
            width_at: 12,
            offsets_at: 20,
        },
        // magic, content, alpha bits, width, height, extra, has mips, tables
        Some(b"BLP1") => Layout {
            width_at: 12,
            offsets_at: 28,
        },
        _ => return Err(BlpError::NotBlp2),
    };
    for at in [layout.width_at, layout.width_at + 4] {
        let side = u32_at(bytes, at)?;
        if side == 0 || side > MAX_SIDE {
            return Err(BlpError::Damaged {
                offset: at,
                what: "size out of range",
            });
        }
    }
    for i in 0..16 {
        let at = layout.offsets_at + i * 4;
        let offset = u32_at(bytes, at)? as u64;
        let size = u32_at(bytes, at + 64)? as u64;
        if offset + size > bytes.len() as u64 {
            return Err(BlpError::Damaged {
                offset: at,
                what: "a mip level lies outside the file",
            });
        }
    }
    Ok(())
}

/// Decodes mip level 0 (call `check_header` first).
pub fn decode(bytes: &[u8]) -> Result<Image, BlpError> {
    let blp = wow_blp::parser::parse_blp(bytes).map_err(|e| BlpError::Refused(e.to_string()))?;
    let image = wow_blp::convert::blp_to_image(&blp, 0)
        .map_err(|e| BlpError::Refused(e.to_string()))?
        .to_rgba8();
    Ok(Image {
        width: image.width() as usize,
        height: image.height() as usize,
        rgba: image.into_raw(),
    })
}
