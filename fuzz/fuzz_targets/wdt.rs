//! Any bytes given to the v18 WDT decoder decode or fail with an error; a decoded map re-encodes
//! to bytes that decode to the same map.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::v18;

fuzz_target!(|data: &[u8]| {
    if let Ok(map) = v18::read_wdt(data, "Fuzz") {
        let again = v18::read_wdt(&v18::write_wdt(&map), "Fuzz").expect("what loam writes, loam reads");
        assert_eq!(again.tile_flags, map.tile_flags);
        assert_eq!(again.flags, map.flags);
    }
});
