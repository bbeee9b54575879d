//! The MCLY flags a texture layer carries for its alpha map, in one place for every edit that
//! rewrites layers (painting, pasting, removing a texture): the base layer has no alpha map and
//! says so; every other layer says it has one, and says it is compressed only where the map's
//! alpha is 8-bit (`Map::big_alpha`, the only depth with run-length encoding).
//!
//! Not for: how alpha maps are encoded (`format::mcal`).

use crate::model::chunk::{LAYER_ALPHA_COMPRESSED, LAYER_USE_ALPHA};

/// `flags` without the alpha flags: what a layer carries once it is the chunk's base, which
/// covers the chunk and so has no alpha map.
pub fn as_base(flags: u32) -> u32 {
    flags & !(LAYER_USE_ALPHA | LAYER_ALPHA_COMPRESSED)
}

/// `flags` of a layer that gains an alpha map it did not have (a texture new to the chunk, or
/// a former base painted over): it has alpha now, compressed as a painted layer is where the
/// map's alpha is 8-bit (`big`).
pub fn gaining_alpha(flags: u32, big: bool) -> u32 {
    if big {
        flags | LAYER_USE_ALPHA | LAYER_ALPHA_COMPRESSED
    } else {
        flags | LAYER_USE_ALPHA
    }
}

/// `flags` of a layer put at slot `slot` of a chunk: the base has no alpha flags; the others
/// have alpha, and keep a compressed flag only where the map's alpha is 8-bit (`big`).
pub fn at_slot(flags: u32, slot: usize, big: bool) -> u32 {
    if slot == 0 {
        return as_base(flags);
    }
    let flags = flags | LAYER_USE_ALPHA;
    if big {
        flags
    } else {
        flags & !LAYER_ALPHA_COMPRESSED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flag outside the alpha pair (MCLY's animation bits), which every rule keeps.
    const OTHER: u32 = 0x40;

    #[test]
    fn the_base_carries_no_alpha_flags_and_keeps_the_rest() {
        let all = OTHER | LAYER_USE_ALPHA | LAYER_ALPHA_COMPRESSED;
        assert_eq!(as_base(all), OTHER);
        assert_eq!(at_slot(all, 0, true), OTHER);
    }

    #[test]
    fn a_layer_gaining_alpha_is_compressed_only_over_8_bit_alpha() {
        assert_eq!(
            gaining_alpha(OTHER, true),
            OTHER | LAYER_USE_ALPHA | LAYER_ALPHA_COMPRESSED
        );
        assert_eq!(gaining_alpha(OTHER, false), OTHER | LAYER_USE_ALPHA);
    }

    #[test]
    fn alpha_slots_say_they_have_alpha_and_drop_compression_over_4_bit_alpha() {
        assert_eq!(at_slot(OTHER, 2, true), OTHER | LAYER_USE_ALPHA);
        assert_eq!(
            at_slot(LAYER_ALPHA_COMPRESSED, 1, true),
            LAYER_USE_ALPHA | LAYER_ALPHA_COMPRESSED
        );
        assert_eq!(at_slot(LAYER_ALPHA_COMPRESSED, 1, false), LAYER_USE_ALPHA);
    }
}
