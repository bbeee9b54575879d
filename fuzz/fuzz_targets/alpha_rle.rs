//! The RLE alpha decoder never reads past its input, and the encoder's output of whatever it
//! decoded decodes to the same texels.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::mcal;

fuzz_target!(|data: &[u8]| {
    if let Ok((texels, used)) = mcal::decode_rle(data) {
        assert!(used <= data.len());
        let again = mcal::decode_rle(&mcal::encode_rle(&texels)).expect("own output decodes");
        assert_eq!(&again.0[..], &texels[..]);
    }
});
