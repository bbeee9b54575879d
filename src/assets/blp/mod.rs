//! BLP textures: decoding any BLP the classic clients ship (BLP2 palettized, DXT1/3/5 and raw
//! BGRA; BLP1 palettized and JPEG) to RGBA at full resolution, and writing raw BGRA BLP2 files
//! (what the bundled sample ships).
//!
//! Decoding goes through the `wow-blp` crate. Our own BLP2 decoder (`ours`) stays for the one
//! case the corpus proves `wow-blp` refuses: raw BGRA files whose alpha-type byte is not one of
//! 0, 1, 7, 8 (the corpus `raw.blp` has 2). Both decoders were compared pixel for pixel on the
//! corpus (`tests/blp_decoders.rs`); see docs/formats.md, "BLP textures".
//!
//! Not for: mip levels stored in the file (the GPU makes its own), BLP0 (external mip files,
//! Warcraft III beta only) or finding files (see `assets::textures`).

mod ours;
mod wow;

pub use ours::encode_raw;

/// The little-endian `u32` at `at` of a BLP header, or where the header was cut short.
fn u32_at(b: &[u8], at: usize) -> Result<u32, BlpError> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or(BlpError::Damaged {
            offset: at,
            what: "header cut short",
        })
}

/// A decoded image, RGBA8 rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

/// Why a BLP could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlpError {
    /// The first four bytes are not a BLP magic this decoder reads.
    #[error("not a BLP2 file (bytes 0..4)")]
    NotBlp2,
    /// An encoding loam does not decode.
    #[error("unsupported BLP encoding {encoding} (alpha type {alpha_type}) at byte 8")]
    Unsupported {
        /// The encoding byte.
        encoding: u8,
        /// The alpha type byte.
        alpha_type: u8,
    },
    /// The header points outside the file or sizes are nonsense.
    #[error("damaged BLP at byte {offset}: {what}")]
    Damaged {
        /// Where in the file the problem shows.
        offset: usize,
        /// What is wrong.
        what: &'static str,
    },
    /// `wow-blp` refused the file; its own message.
    #[error("wow-blp: {0}")]
    Refused(String),
}

/// Which decoder produced an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoder {
    /// The `wow-blp` crate.
    WowBlp,
    /// loam's own BLP2 decoder.
    Ours,
}

/// The largest side accepted. Client textures are at most 1024 wide (3.3.5 skyboxes); this
/// leaves room and keeps a damaged header from asking for gigabytes.
pub const MAX_SIDE: u32 = 4096;

/// Decodes mip level 0 of a BLP file with the decoder chosen for it (see the module docs).
pub fn decode(bytes: &[u8]) -> Result<Image, BlpError> {
    decode_reporting(bytes).map(|(image, _)| image)
}

/// As `decode`, and says which decoder did the work.
pub fn decode_reporting(bytes: &[u8]) -> Result<(Image, Decoder), BlpError> {
    if needs_ours(bytes) {
        return ours::decode(bytes).map(|i| (i, Decoder::Ours));
    }
    decode_wow_blp(bytes).map(|i| (i, Decoder::WowBlp))
}

/// Decodes mip level 0 with loam's own decoder only (BLP2 only; for comparison and tests).
pub fn decode_ours(bytes: &[u8]) -> Result<Image, BlpError> {
    ours::decode(bytes)
}

/// Decodes mip level 0 with `wow-blp` only, after a header check that keeps damaged sizes and
/// offsets away from it (for comparison and tests).
pub fn decode_wow_blp(bytes: &[u8]) -> Result<Image, BlpError> {
    wow::check_header(bytes)?;
    wow::decode(bytes)
}

/// Encodes `image` as BLP2 DXT1 without alpha or mipmaps: the form of Blizzard's minimap tiles
/// (Noggit Red's minimap writer: "this mirrors blizzards : dxt1, no mipmap"), with `wow-blp`'s
/// container and texpresso's block encoders. Transparent texels come out black.
///
/// Each 4×4 block is first fitted by its colour range (texpresso's range fit, about 0.3 µs a
/// block); only a block that fit leaves more than [`REFIT_ERROR`] off is fitted again by
/// clusters (about 15 µs), and the better of the two is kept (docs/performance.md,
/// "Minimaps").
pub fn encode_dxt1(image: &Image) -> Result<Vec<u8>, BlpError> {
    use wow_blp::convert::{Blp2Format, BlpTarget, DxtAlgorithm, image_to_blp};
    let pixels =
        image::RgbaImage::from_raw(image.width as u32, image.height as u32, image.rgba.clone())
            .ok_or_else(|| BlpError::Refused("pixel buffer does not match the size".into()))?;
    let target = BlpTarget::Blp2(Blp2Format::Dxt1 {
        has_alpha: false,
        compress_algorithm: DxtAlgorithm::RangeFit,
    });
    let mut blp = image_to_blp(
        image::DynamicImage::ImageRgba8(pixels),
        false,
        target,
        image::imageops::FilterType::Triangle,
    )
    .map_err(|e| BlpError::Refused(e.to_string()))?;
    if let wow_blp::BlpContent::Dxt1(dxt) = &mut blp.content
        && let Some(level0) = dxt.images.first_mut()
    {
        refit_blocks(image, &mut level0.content);
    }
    wow_blp::encode::encode_blp(&blp).map_err(|e| BlpError::Refused(e.to_string()))
}

/// The summed squared error (over a block's 16 texels and three channels) above which a range
/// fit block is fitted again by clusters: an average of 6 levels off per channel. Measured on
/// a drawn minimap tile of the sample (its real textures) and of a continent tile (stand-in
/// colours, hard edges): cluster fit everywhere gives 42.5 / 33.9 dB PSNR, range fit
/// everywhere 39.8 / 30.2 dB, this 40.2 / 33.5 dB with cluster fit's largest error, for 4 %
/// and 55 % of cluster fit's time.
pub const REFIT_ERROR: u32 = 16 * 3 * 6 * 6;

/// Fits again, by clusters, the blocks of `blocks` (DXT1 of `image`, 8 bytes a block, row by
/// row) whose range fit is off by more than [`REFIT_ERROR`], keeping the better fit.
fn refit_blocks(image: &Image, blocks: &mut [u8]) {
    use texpresso::{Algorithm, Format, Params};
    let across = image.width.div_ceil(4);
    let cluster = Params {
        algorithm: Algorithm::ClusterFit,
        ..Params::default()
    };
    for (b, block) in blocks.chunks_exact_mut(8).enumerate() {
        let (bx, by) = (b % across, b / across);
        let mut texels = [[0u8; 4]; 16];
        let mut mask = 0u32;
        for (i, texel) in texels.iter_mut().enumerate() {
            let (x, y) = (bx * 4 + i % 4, by * 4 + i / 4);
            if x < image.width && y < image.height {
                let at = 4 * (y * image.width + x);
                texel.copy_from_slice(&image.rgba[at..at + 4]);
                mask |= 1 << i;
            }
        }
        let error = |block: &[u8]| {
            let decoded = Format::Bc1.decompress_block(block);
            (0..16)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| {
                    (0..3)
                        .map(|c| {
                            let d = i32::from(decoded[i][c]) - i32::from(texels[i][c]);
                            (d * d) as u32
                        })
                        .sum::<u32>()
                })
                .sum::<u32>()
        };
        let ranged = error(block);
        if ranged <= REFIT_ERROR {
            continue;
        }
        let mut clustered = [0u8; 8];
        Format::Bc1.compress_block_masked(texels, mask, cluster, &mut clustered);
        if error(&clustered) < ranged {
            block.copy_from_slice(&clustered);
        }
    }
}

/// True for the case `wow-blp` refuses and ours reads: BLP2 raw BGRA (encoding 3) with an
/// alpha type byte `wow-blp` does not know. Raw texels are four bytes whatever that byte says.
fn needs_ours(bytes: &[u8]) -> bool {
    bytes.get(0..4) == Some(b"BLP2")
        && bytes.get(8) == Some(&3)
        && bytes.get(10).is_some_and(|t| !matches!(t, 0 | 1 | 7 | 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(alpha_type: u8) -> Vec<u8> {
        let mut b = encode_raw(&Image {
            width: 2,
            height: 2,
            rgba: (0..16).map(|i| i as u8 * 15).collect(),
        });
        b[10] = alpha_type;
        b
    }

    #[test]
    fn raw_with_an_unknown_alpha_type_goes_to_ours_and_the_rest_to_wow_blp() {
        let (image, by) = decode_reporting(&raw(2)).unwrap();
        assert_eq!(by, Decoder::Ours);
        assert_eq!(
            image.rgba,
            (0..16).map(|i| i as u8 * 15).collect::<Vec<_>>()
        );
        assert!(decode_wow_blp(&raw(2)).is_err(), "wow-blp still refuses it");
        let (image8, by8) = decode_reporting(&raw(8)).unwrap();
        assert_eq!(by8, Decoder::WowBlp);
        assert_eq!(image8, image);
    }

    #[test]
    fn garbage_fails_cleanly_on_every_path() {
        for bytes in [&b""[..], b"BLP2", b"BLP1\0\0\0\0", b"nope nope nope nope"] {
            assert!(decode(bytes).is_err());
            assert!(decode_ours(bytes).is_err());
            assert!(decode_wow_blp(bytes).is_err());
        }
    }
}
