//! Any bytes given to the v18 ADT decoder (1.12 and 3.3.5) decode or fail with an error. What
//! loam writes of a decoded tile, loam reads, and writing that again gives the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::v18;

fuzz_target!(|data: &[u8]| {
    let depth = v18::sniff_alpha_depth(data);
    if let Ok(tile) = v18::read_adt(data, None, depth) {
        let alpha = v18::AlphaTarget {
            big: depth == v18::AlphaDepth::Big,
        };
        let read_depth = if alpha.big {
            v18::AlphaDepth::Big
        } else {
            v18::AlphaDepth::Nibble
        };
        let bytes = v18::write_adt(&tile, alpha);
        let again = v18::read_adt(&bytes, Some(tile.coord), read_depth)
            .expect("what loam writes, loam reads");
        assert!(
            v18::write_adt(&again, alpha) == bytes,
            "a written tile rewrites to the same bytes"
        );
    }
});
