//! Any bytes given to the 0.6.0 ADT decoder decode or fail with an error; what loam writes of a
//! decoded tile, loam reads, and writing that again gives the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::v060;

fuzz_target!(|data: &[u8]| {
    if let Ok(tile) = v060::read_adt(data, None) {
        let bytes = v060::write_adt(&tile);
        let again = v060::read_adt(&bytes, Some(tile.coord)).expect("what loam writes, loam reads");
        assert!(
            v060::write_adt(&again) == bytes,
            "a written tile rewrites to the same bytes"
        );
    }
});
