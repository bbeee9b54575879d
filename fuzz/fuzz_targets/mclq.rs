//! Any bytes given to the MCLQ reader (v18/0.5.x instances with flow records, 0.6.0 without)
//! read or fail with an error; the instances written back read as the same bytes again. The
//! first byte picks the chunk's liquid flags (low 4 bits) and whether instances carry flows.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::chunk::{Reader, Writer, tags};
use loam::format::mclq;

fuzz_target!(|data: &[u8]| {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let flags = mclq::FLAG_ORDER
        .iter()
        .enumerate()
        .filter(|(i, _)| first >> i & 1 == 1)
        .fold(0, |f, (_, (flag, _))| f | flag);
    let flows = first & 0x10 == 0;
    let mut r = Reader::new(body, 0, tags::MCLQ);
    if let Ok(layers) = mclq::read_with(&mut r, flags, flows) {
        let bytes = write(&layers, flows);
        let mut r = Reader::new(&bytes, 0, tags::MCLQ);
        let back = mclq::read_with(&mut r, flags, flows).expect("what loam writes, loam reads");
        assert_eq!(back.len(), layers.len());
        assert!(
            write(&back, flows) == bytes,
            "written instances rewrite to the same bytes"
        );
    }
});

fn write(layers: &[loam::model::liquid::LiquidLayer], flows: bool) -> Vec<u8> {
    let mut w = Writer::with_capacity(layers.len() * mclq::INSTANCE_BYTES);
    for layer in layers {
        mclq::write_with(&mut w, layer, flows);
    }
    w.into_bytes()
}
