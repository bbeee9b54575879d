//! Any bytes given to the v18 WDT decoder decode or fail with an error; what loam writes of a
//! decoded map, loam reads, and writing that again gives the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::v18;

fuzz_target!(|data: &[u8]| {
    if let Ok(map) = v18::read_wdt(data, "Fuzz") {
        let bytes = v18::write_wdt(&map);
        let again = v18::read_wdt(&bytes, "Fuzz").expect("what loam writes, loam reads");
        assert_eq!(again.tile_flags, map.tile_flags);
        assert_eq!(again.flags, map.flags);
        assert!(
            v18::write_wdt(&again) == bytes,
            "a written WDT rewrites to the same bytes"
        );
    }
});
