//! loam's own BLP2 decoder: the first mip level of the palettized, DXT1/3/5 and raw BGRA
//! encodings to RGBA, and the raw BGRA writer. `blp::decode` uses it only where `wow-blp`
//! refuses a file this one reads (see the parent module).
//!
//! Not for: BLP1 or JPEG-compressed BLPs, which are reported as unsupported.

use super::{BlpError, Image, u32_at};

const HEADER: usize = 20 + 16 * 4 * 2;
const PALETTE: usize = 256 * 4;

/// Decodes mip level 0 of a BLP2 file.
pub fn decode(bytes: &[u8]) -> Result<Image, BlpError> {
    if bytes.get(0..4) != Some(b"BLP2") {
        return Err(BlpError::NotBlp2);
    }
    if bytes.len() < HEADER + PALETTE {
        return Err(BlpError::Damaged {
            offset: bytes.len(),
            what: "header cut short",
        });
    }
    let (encoding, alpha_depth, alpha_type) = (bytes[8], bytes[9], bytes[10]);
    let width = u32_at(bytes, 12)? as usize;
    let height = u32_at(bytes, 16)? as usize;
    let max = super::MAX_SIDE as usize;
    if width == 0 || height == 0 || width > max || height > max {
        return Err(BlpError::Damaged {
            offset: 12,
            what: "size out of range",
        });
    }
    let offset = u32_at(bytes, 20)? as usize;
    let size = u32_at(bytes, 20 + 64)? as usize;
    let data = offset
        .checked_add(size)
        .and_then(|end| bytes.get(offset..end))
        .ok_or(BlpError::Damaged {
            offset: 20,
            what: "mip 0 lies outside the file",
        })?;
    let pixels = width * height;
    let mut rgba = vec![0u8; pixels * 4];
    let short = BlpError::Damaged {
        offset: offset + size,
        what: "mip 0 is too short",
    };
    match encoding {
        1 => {
            let palette = &bytes[HEADER..HEADER + PALETTE];
            let index = data.get(..pixels).ok_or(short.clone())?;
            let alpha = &data[pixels..];
            for (i, &p) in index.iter().enumerate() {
                let c = &palette[p as usize * 4..p as usize * 4 + 4];
                let a = match alpha_depth {
                    0 => 255,
                    1 => {
                        let bit = alpha.get(i / 8).ok_or(short.clone())? >> (i % 8) & 1;
                        bit * 255
                    }
                    4 => {
                        let nib = alpha.get(i / 2).ok_or(short.clone())? >> ((i % 2) * 4) & 0xF;
                        nib * 17
                    }
                    8 => *alpha.get(i).ok_or(short.clone())?,
                    _ => {
                        return Err(BlpError::Damaged {
                            offset: 9,
                            what: "alpha depth is not 0, 1, 4 or 8",
                        });
                    }
                };
                rgba[i * 4..i * 4 + 4].copy_from_slice(&[c[2], c[1], c[0], a]);
            }
        }
        2 => {
            let block_bytes = if alpha_type == 0 || alpha_depth <= 1 {
                8
            } else {
                16
            };
            let (bw, bh) = (width.div_ceil(4), height.div_ceil(4));
            if data.len() < bw * bh * block_bytes {
                return Err(short);
            }
            for by in 0..bh {
                for bx in 0..bw {
                    let at = (by * bw + bx) * block_bytes;
                    let block = &data[at..at + block_bytes];
                    let texels = match block_bytes {
                        8 => dxt_color(block, true),
                        _ => {
                            let mut t = dxt_color(&block[8..], false);
                            let alphas = if alpha_type == 7 {
                                dxt5_alpha(&block[..8])
                            } else {
                                dxt3_alpha(&block[..8])
                            };
                            for (px, a) in t.iter_mut().zip(alphas) {
                                px[3] = a;
                            }
                            t
                        }
                    };
                    for (k, px) in texels.iter().enumerate() {
                        let (x, y) = (bx * 4 + k % 4, by * 4 + k / 4);
                        if x < width && y < height {
                            let i = (y * width + x) * 4;
                            rgba[i..i + 4].copy_from_slice(px);
                        }
                    }
                }
            }
        }
        3 => {
            let src = data.get(..pixels * 4).ok_or(short)?;
            for (dst, s) in rgba.chunks_exact_mut(4).zip(src.chunks_exact(4)) {
                dst.copy_from_slice(&[s[2], s[1], s[0], s[3]]);
            }
        }
        _ => {
            return Err(BlpError::Unsupported {
                encoding,
                alpha_type,
            });
        }
    }
    Ok(Image {
        width,
        height,
        rgba,
    })
}

/// RGB565 to RGBA8.
fn rgb565(c: u16) -> [u8; 4] {
    let r = (c >> 11 & 31) as u32;
    let g = (c >> 5 & 63) as u32;
    let b = (c & 31) as u32;
    [
        (r * 255 / 31) as u8,
        (g * 255 / 63) as u8,
        (b * 255 / 31) as u8,
        255,
    ]
}

/// The 16 colours of a DXT colour block; `dxt1` allows the transparent three-colour mode.
fn dxt_color(block: &[u8], dxt1: bool) -> [[u8; 4]; 16] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let (a, b) = (rgb565(c0), rgb565(c1));
    let mix = |wa: u32, wb: u32, d: u32| -> [u8; 4] {
        std::array::from_fn(|i| {
            if i == 3 {
                255
            } else {
                ((a[i] as u32 * wa + b[i] as u32 * wb) / d) as u8
            }
        })
    };
    let palette = if c0 > c1 || !dxt1 {
        [a, b, mix(2, 1, 3), mix(1, 2, 3)]
    } else {
        [a, b, mix(1, 1, 2), [0, 0, 0, 0]]
    };
    let bits = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    std::array::from_fn(|k| palette[(bits >> (2 * k) & 3) as usize])
}

/// Explicit 4-bit alphas of a DXT3 block.
fn dxt3_alpha(block: &[u8]) -> [u8; 16] {
    std::array::from_fn(|k| (block[k / 2] >> ((k % 2) * 4) & 0xF) * 17)
}

/// Interpolated alphas of a DXT5 block.
fn dxt5_alpha(block: &[u8]) -> [u8; 16] {
    let (a0, a1) = (block[0] as u32, block[1] as u32);
    let table: [u32; 8] = if a0 > a1 {
        std::array::from_fn(|i| match i {
            0 => a0,
            1 => a1,
            _ => (a0 * (8 - i as u32) + a1 * (i as u32 - 1)) / 7,
        })
    } else {
        std::array::from_fn(|i| match i {
            0 => a0,
            1 => a1,
            6 => 0,
            7 => 255,
            _ => (a0 * (6 - i as u32) + a1 * (i as u32 - 1)) / 5,
        })
    };
    let bits = block[2..8]
        .iter()
        .rev()
        .fold(0u64, |acc, &b| acc << 8 | b as u64);
    std::array::from_fn(|k| table[(bits >> (3 * k) & 7) as usize] as u8)
}

/// Writes an image as a BLP2 file with raw BGRA texels (encoding 3), one mip level.
pub fn encode_raw(image: &Image) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + PALETTE + image.rgba.len());
    out.extend_from_slice(b"BLP2");
    out.extend_from_slice(&1u32.to_le_bytes()); // type: not JPEG
    out.extend_from_slice(&[3, 8, 8, 0]); // raw BGRA, 8-bit alpha, alpha type 8, no mips
    out.extend_from_slice(&(image.width as u32).to_le_bytes());
    out.extend_from_slice(&(image.height as u32).to_le_bytes());
    let data_at = (HEADER + PALETTE) as u32;
    let mut offsets = [0u32; 16];
    let mut sizes = [0u32; 16];
    offsets[0] = data_at;
    sizes[0] = image.rgba.len() as u32;
    offsets
        .iter()
        .for_each(|o| out.extend_from_slice(&o.to_le_bytes()));
    sizes
        .iter()
        .for_each(|s| out.extend_from_slice(&s.to_le_bytes()));
    out.resize(HEADER + PALETTE, 0);
    for px in image.rgba.chunks_exact(4) {
        out.extend_from_slice(&[px[2], px[1], px[0], px[3]]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_files_round_trip() {
        let image = Image {
            width: 3,
            height: 2,
            rgba: (0..24).map(|i| i as u8 * 10).collect(),
        };
        assert_eq!(decode(&encode_raw(&image)), Ok(image));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert_eq!(decode(b"nope"), Err(BlpError::NotBlp2));
        let mut b = encode_raw(&Image {
            width: 4,
            height: 4,
            rgba: vec![7; 64],
        });
        b.truncate(b.len() - 10);
        assert!(decode(&b).is_err());
        b[8] = 9;
        assert!(decode(&b).is_err());
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_after_the_magic_decode_or_fail_cleanly(
            header in proptest::collection::vec(proptest::num::u8::ANY, 16),
            body in proptest::collection::vec(proptest::num::u8::ANY, 0..3000),
            encoding in 0u8..5,
        ) {
            let mut bytes = b"BLP2".to_vec();
            bytes.extend(&header);
            bytes[8] = encoding;
            // Small sizes and an in-file mip 0, so decoding goes deep.
            bytes[12..20].copy_from_slice(&[8, 0, 0, 0, 8, 0, 0, 0]);
            bytes.extend(((HEADER + PALETTE) as u32).to_le_bytes());
            bytes.resize(20 + 64, 0);
            bytes.extend((body.len() as u32).to_le_bytes());
            bytes.resize(HEADER + PALETTE, 0);
            bytes.extend(&body);
            let _ = decode(&bytes);
        }
    }

    #[test]
    fn a_dxt1_block_decodes() {
        // c0 = pure red, c1 = pure blue, all texels index 0 except the second (index 1).
        let mut block = [0u8; 8];
        block[0..2].copy_from_slice(&0xF800u16.to_le_bytes());
        block[2..4].copy_from_slice(&0x001Fu16.to_le_bytes());
        block[4] = 0b0000_0100;
        let t = dxt_color(&block, true);
        assert_eq!(t[0], [255, 0, 0, 255]);
        assert_eq!(t[1], [0, 0, 255, 255]);
    }

    #[test]
    fn dxt5_alpha_interpolates() {
        let block = [255u8, 0, 0b0000_1010, 0, 0, 0, 0, 0];
        let a = dxt5_alpha(&block);
        assert_eq!(a[0], (255 * 6 / 7) as u8); // index 2
        assert_eq!(a[1], 0); // index 1 = a1
    }
}
