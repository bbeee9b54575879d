//! Any bytes given to the image reader of the terrain imports (heightmaps, alpha maps, vertex
//! colours, stamps) decode or fail with an error, never panic; a decoded image has the samples
//! its size says, each a fraction of full scale.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::edit::images::heightmap::Samples;
use loam::images::io::decode_raster;

fuzz_target!(|data: &[u8]| {
    if let Ok(r) = decode_raster(data) {
        let n = r.width * r.height * r.channels;
        let len = match &r.samples {
            Samples::U8(v) => v.len(),
            Samples::U16(v) => v.len(),
            Samples::F32(v) => v.len(),
        };
        assert_eq!(len, n);
        if r.width > 0 && r.height > 0 && !matches!(r.samples, Samples::F32(_)) {
            let v = r.at(r.width - 1, r.height - 1, r.channels - 1);
            assert!((0.0..=1.0).contains(&v));
        }
    }
});
