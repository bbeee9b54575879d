//! Any bytes given to the 0.6.0 WDT decoder decode or fail with an error; what loam's 0.6.0
//! writer makes of a decoded map, loam reads, and writing that again gives the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::v060;

fuzz_target!(|data: &[u8]| {
    if let Ok(map) = v060::read_wdt(data, "Fuzz") {
        let bytes = v060::write_wdt(&map);
        let again = v060::read_wdt(&bytes, "Fuzz").expect("what loam writes, loam reads");
        assert_eq!(again.tile_flags, map.tile_flags);
        assert!(
            v060::write_wdt(&again) == bytes,
            "a written WDT rewrites to the same bytes"
        );
    }
});
