//! Any bytes given to the BLP decoders (the chosen path, loam's own and wow-blp behind its
//! header check) decode or fail with an error, never panic; a decoded image has the bytes its
//! size says.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::assets::blp;

fuzz_target!(|data: &[u8]| {
    for image in [
        blp::decode(data),
        blp::decode_ours(data),
        blp::decode_wow_blp(data),
    ]
    .into_iter()
    .flatten()
    {
        assert_eq!(image.rgba.len(), image.width * image.height * 4);
    }
});
