//! The 4-bit alpha map (MCAL) decodes and encodes back to the same bytes, and the "fixed" form
//! (last row and column copied from the ones before) reaches a fixed point after one trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::mcal;

fuzz_target!(|data: &[u8]| {
    let mut bytes = [0u8; mcal::NIBBLE_BYTES];
    let n = data.len().min(mcal::NIBBLE_BYTES);
    bytes[..n].copy_from_slice(&data[..n]);
    let texels = mcal::decode_nibble(&bytes, false);
    assert_eq!(
        *mcal::encode_nibble(&texels),
        bytes,
        "4-bit alpha survives a trip exactly"
    );
    let fixed = mcal::decode_nibble(&bytes, true);
    let again = mcal::decode_nibble(&mcal::encode_nibble(&fixed), true);
    assert_eq!(again[..], fixed[..], "a fixed map survives a trip exactly");
    // The 8-bit texels of any map narrow to 4 bits and widen back within half a step.
    let wide: Vec<u8> = data.iter().copied().cycle().take(texels.len()).collect();
    if let Ok(wide) = <[u8; 4096]>::try_from(wide.as_slice()) {
        let narrowed = mcal::decode_nibble(&mcal::encode_nibble(&wide), false);
        for (a, b) in wide.iter().zip(narrowed.iter()) {
            assert!(a.abs_diff(*b) <= 8, "{a} became {b}");
        }
    }
});
