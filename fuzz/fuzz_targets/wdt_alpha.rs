//! Any bytes given to the 0.5.3/0.5.5 monolithic WDT decoder (header, every embedded tile
//! block and alpha MCNK) decode or fail with an error, strict and tolerant alike; what loam
//! writes of a decoded map, loam reads, and writing that again gives the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::alpha;

fuzz_target!(|data: &[u8]| {
    let _ = alpha::is_monolithic(data);
    let _ = alpha::read_wdt_tolerant(data, "Fuzz");
    if let Ok(map) = alpha::read_wdt(data, "Fuzz") {
        let bytes = alpha::write_wdt(&map);
        let again = alpha::read_wdt(&bytes, "Fuzz").expect("what loam writes, loam reads");
        assert_eq!(again.tiles.len(), map.tiles.len());
        assert!(
            alpha::write_wdt(&again) == bytes,
            "a written WDT rewrites to the same bytes"
        );
    }
});
