//! Alpha map (MCAL) encodings: 4-bit (all 64×64, or 63×63 "fixed"), 8-bit, and the
//! run-length form of MCLY flag 0x200. Each decodes to and encodes from 64×64 8-bit texels.
//!
//! 4-bit texels widen as `v * 17` (the client's `v | v << 4`), so a 4-bit map survives a
//! decode/encode exactly; 8-bit texels narrow to the nearest 4-bit step.

use crate::model::alpha::{ALPHA_SIDE, ALPHA_TEXELS};
use crate::model::chunk::{LAYER_ALPHA_COMPRESSED, LAYER_USE_ALPHA, Layer};

/// Bytes of a 4-bit alpha map.
pub const NIBBLE_BYTES: usize = 2048;
/// Bytes of an 8-bit alpha map.
pub const BYTE_BYTES: usize = 4096;
/// Longest run the RLE form can express.
const MAX_RUN: usize = 0x7F;

/// Texels of a 4-bit map; `fixed` replaces the last row and column by the ones before them.
pub fn decode_nibble(bytes: &[u8; NIBBLE_BYTES], fixed: bool) -> Box<[u8; ALPHA_TEXELS]> {
    let mut out = Box::new([0u8; ALPHA_TEXELS]);
    for (pair, &b) in out.chunks_exact_mut(2).zip(bytes.iter()) {
        pair[0] = (b & 0x0F) * 17;
        pair[1] = (b >> 4) * 17;
    }
    if fixed {
        fix_last_row_and_column(&mut out);
    }
    out
}

/// Copies row and column 62 over 63, as the client does for "fixed" maps.
pub fn fix_last_row_and_column(texels: &mut [u8; ALPHA_TEXELS]) {
    for row in 0..ALPHA_SIDE {
        texels[row * ALPHA_SIDE + 63] = texels[row * ALPHA_SIDE + 62];
    }
    let (head, last) = texels.split_at_mut(63 * ALPHA_SIDE);
    last.copy_from_slice(&head[62 * ALPHA_SIDE..63 * ALPHA_SIDE]);
}

/// The nearest 4-bit step of an 8-bit texel.
pub fn to_nibble(texel: u8) -> u8 {
    NIBBLE_OF[texel as usize]
}

/// [`to_nibble`] for every byte: a table lookup instead of a division per texel, which made
/// 4-bit encoding the slowest part of saving a tile.
const NIBBLE_OF: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut t = 0;
    while t < 256 {
        table[t] = ((t + 8) / 17) as u8;
        t += 1;
    }
    table
};

/// 4-bit bytes of a map (row and column 63 are written as they are, which for a map read in the
/// fixed form repeats 62).
pub fn encode_nibble(texels: &[u8; ALPHA_TEXELS]) -> Box<[u8; NIBBLE_BYTES]> {
    // `(t + 8) / 17` as a multiply and shift over fixed-size blocks, which the compiler turns into
    // vector code; a table lookup per texel was half of a tile's save time.
    fn nibble(t: u8) -> u8 {
        (((t as u32 + 8) * 241) >> 12) as u8
    }
    let mut out = Box::new([0u8; NIBBLE_BYTES]);
    for (o, t) in out.chunks_exact_mut(16).zip(texels.chunks_exact(32)) {
        let o: &mut [u8; 16] = o.try_into().expect("chunks of 16");
        let t: &[u8; 32] = t.try_into().expect("chunks of 32");
        for i in 0..16 {
            o[i] = nibble(t[2 * i]) | nibble(t[2 * i + 1]) << 4;
        }
    }
    out
}

/// One MCLY record as a writer lays it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerRecord {
    /// Index into the tile's texture list.
    pub texture: u32,
    /// MCLY flags, 0x100 set exactly when the layer has an alpha map.
    pub flags: u32,
    /// Offset of the layer's map in the MCAL block.
    pub offset: u32,
    /// Ground effect id.
    pub effect_id: u32,
}

/// The MCLY records and MCAL block of layers stored with 4-bit maps, as every generation before
/// 3.x stores them: no RLE (0x200 cleared), one 2048-byte map per layer after the first.
pub fn nibble_layers(layers: &[Layer]) -> (Vec<LayerRecord>, Vec<u8>) {
    let mut block = Vec::new();
    let records = layers
        .iter()
        .enumerate()
        .map(|(k, layer)| {
            let mut flags = layer.flags & !LAYER_ALPHA_COMPRESSED;
            let mut offset = 0;
            match &layer.alpha {
                Some(map) if k > 0 => {
                    offset = block.len() as u32;
                    flags |= LAYER_USE_ALPHA;
                    block.extend_from_slice(&encode_nibble(map.texels())[..]);
                }
                _ => flags &= !LAYER_USE_ALPHA,
            }
            LayerRecord {
                texture: layer.texture,
                flags,
                offset,
                effect_id: layer.effect_id,
            }
        })
        .collect();
    (records, block)
}

/// Decodes RLE bytes into texels; returns them and the number of bytes consumed. Runs past the
/// 4096th texel are clipped (some Blizzard maps overrun); input that ends early is an error
/// carrying the relative offset where it ran out.
///
/// Runs average six bytes, so calling memset/memcpy per run costs more than the copying itself:
/// runs are written as whole 16-byte blocks into a buffer with slack past the end, and the texels
/// are cut from it at the end. (Measured against a branch-free blend of both run kinds, which was
/// 60% slower.)
pub fn decode_rle(bytes: &[u8]) -> Result<(Box<[u8; ALPHA_TEXELS]>, usize), usize> {
    const BLOCK: usize = 16;
    const SLACK: usize = 128; // ≥ the longest run (127) rounded up to whole blocks
    let mut out = Box::new([0u8; ALPHA_TEXELS + SLACK]);
    let mut read = 0;
    let mut written = 0;
    while written < ALPHA_TEXELS {
        let control = *bytes.get(read).ok_or(read)?;
        read += 1;
        let count = (control & 0x7F) as usize;
        // A fixed-size view: block offsets below need no bounds checks.
        let dst: &mut [u8; SLACK] = (&mut out[written..written + SLACK])
            .try_into()
            .expect("written < 4096");
        if control & 0x80 != 0 {
            let value = *bytes.get(read).ok_or(read)?;
            read += 1;
            let fill = [value; BLOCK];
            dst[..BLOCK].copy_from_slice(&fill);
            dst[BLOCK..2 * BLOCK].copy_from_slice(&fill);
            if count > 2 * BLOCK {
                dst[2 * BLOCK..].fill(value);
            }
        } else if let Some(src) = bytes.get(read..read + SLACK) {
            let src: &[u8; SLACK] = src.try_into().expect("slice of SLACK bytes");
            dst[..2 * BLOCK].copy_from_slice(&src[..2 * BLOCK]);
            if count > 2 * BLOCK {
                dst[2 * BLOCK..].copy_from_slice(&src[2 * BLOCK..]);
            }
            read += count;
        } else {
            let src = bytes.get(read..read + count).ok_or(read)?;
            dst[..count].copy_from_slice(src);
            read += count;
        }
        written += count;
    }
    let mut texels = Box::new([0u8; ALPHA_TEXELS]);
    texels.copy_from_slice(&out[..ALPHA_TEXELS]);
    Ok((texels, read))
}

/// RLE bytes of a map: each row on its own (the client cannot read runs across rows), a fill
/// for every repeat of two or more, copies for the rest.
pub fn encode_rle(texels: &[u8; ALPHA_TEXELS]) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    for row in texels.chunks_exact(ALPHA_SIDE) {
        let mut i = 0;
        while i < row.len() {
            let run = row[i..]
                .iter()
                .take(MAX_RUN)
                .take_while(|&&v| v == row[i])
                .count();
            if run >= 2 {
                out.push(0x80 | run as u8);
                out.push(row[i]);
                i += run;
                continue;
            }
            let start = i;
            while i < row.len()
                && i - start < MAX_RUN
                && !(i + 1 < row.len() && row[i] == row[i + 1])
            {
                i += 1;
            }
            out.push((i - start) as u8);
            out.extend_from_slice(&row[start..i]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_fast_rounding_matches_the_table_for_every_byte() {
        let mut texels = Box::new([0u8; ALPHA_TEXELS]);
        for (i, t) in texels.iter_mut().enumerate() {
            *t = (i % 256) as u8;
        }
        let bytes = encode_nibble(&texels);
        for (i, &t) in texels.iter().enumerate() {
            let n = if i % 2 == 0 {
                bytes[i / 2] & 0x0F
            } else {
                bytes[i / 2] >> 4
            };
            assert_eq!(n, to_nibble(t), "texel value {t}");
        }
    }

    #[test]
    fn nibbles_widen_to_multiples_of_17() {
        let mut bytes = [0u8; NIBBLE_BYTES];
        bytes[0] = 0xF1;
        let t = decode_nibble(&bytes, false);
        assert_eq!((t[0], t[1], t[2]), (17, 255, 0));
    }

    #[test]
    fn fixed_form_repeats_the_last_row_and_column() {
        let mut bytes = [0u8; NIBBLE_BYTES];
        // Texel (0, 62) = 5, texel (62, 3) = 9.
        bytes[31] = 0x05;
        bytes[62 * 32 + 1] = 0x90;
        let t = decode_nibble(&bytes, true);
        assert_eq!(t[63], 5 * 17);
        assert_eq!(t[63 * 64 + 3], 9 * 17);
    }

    #[test]
    fn rle_of_a_flat_map_is_one_fill_per_row_pair() {
        let t = Box::new([200u8; ALPHA_TEXELS]);
        let e = encode_rle(&t);
        assert_eq!(e.len(), 64 * 2);
        assert_eq!(&e[..2], &[0x80 | 64, 200]);
    }

    #[test]
    fn truncated_rle_is_an_error_not_a_panic() {
        assert_eq!(decode_rle(&[0x85]).unwrap_err(), 1);
        assert_eq!(decode_rle(&[0x05, 1, 2]).unwrap_err(), 1);
        assert!(decode_rle(&[]).is_err());
        assert!(decode_rle(&[0x00]).is_err());
    }

    proptest! {
        #[test]
        fn rle_round_trips(seed in proptest::collection::vec(0u8..4, ALPHA_TEXELS)) {
            // Few distinct values make both runs and copies.
            let mut t = Box::new([0u8; ALPHA_TEXELS]);
            for (d, s) in t.iter_mut().zip(&seed) { *d = *s * 60; }
            let e = encode_rle(&t);
            let (back, used) = decode_rle(&e).unwrap();
            prop_assert_eq!(used, e.len());
            prop_assert_eq!(&back[..], &t[..]);
        }

        #[test]
        fn nibble_round_trips_at_4_bit_precision(seed in proptest::collection::vec(0u8..16, ALPHA_TEXELS)) {
            let mut t = Box::new([0u8; ALPHA_TEXELS]);
            for (d, s) in t.iter_mut().zip(&seed) { *d = *s * 17; }
            let back = decode_nibble(&encode_nibble(&t), false);
            prop_assert_eq!(&back[..], &t[..]);
        }

        #[test]
        fn rle_decoder_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let _ = decode_rle(&bytes);
        }
    }
}
