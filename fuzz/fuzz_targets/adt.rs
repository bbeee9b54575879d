//! Any bytes given to the v18 ADT decoder decode or fail with an error; an encoded result must
//! decode again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::v18;

fuzz_target!(|data: &[u8]| {
    let depth = v18::sniff_alpha_depth(data);
    if let Ok(tile) = v18::read_adt(data, None, depth) {
        let big = depth == v18::AlphaDepth::Big;
        let bytes = v18::write_adt(&tile, v18::AlphaTarget { big });
        v18::read_adt(&bytes, Some(tile.coord), depth).expect("what loam writes, loam reads");
    }
});
