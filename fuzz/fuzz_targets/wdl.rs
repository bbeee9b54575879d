//! Any bytes given to the WDL reader read or fail with an error; the tiles of a WDL that reads
//! are written again by loam's writer, and that file reads back as the same tiles (heights and
//! hole masks), and writes again to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::wdl;

fuzz_target!(|data: &[u8]| {
    if let Ok(read) = wdl::read(data) {
        let bytes = wdl::write(&read.tiles);
        let back = wdl::read(&bytes).expect("what loam writes, loam reads");
        assert!(back.tiles == read.tiles, "the tiles come back as they were");
        assert!(
            wdl::write(&back.tiles) == bytes,
            "written tiles rewrite to the same bytes"
        );
    }
});
