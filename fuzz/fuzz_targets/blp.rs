//! Any bytes given to the BLP decoders (the chosen path, loam's own and wow-blp behind its
//! header check) decode or fail with an error, never panic; a decoded image has the bytes its
//! size says.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::assets::blp;

fuzz_target!(|data: &[u8]| {
    for result in [blp::decode(data), blp::decode_ours(data), blp::decode_wow_blp(data)] {
        if let Ok(image) = result {
            assert_eq!(image.rgba.len(), image.width * image.height * 4);
        }
    }
});
