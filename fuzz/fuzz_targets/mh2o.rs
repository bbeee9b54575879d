//! Any bytes given to the MH2O decoder as the chunk's payload decode or fail with an error; the
//! liquid written back reads again and rewrites to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::chunk::{Writer, chunk_at, tags};
use loam::format::mh2o;
use loam::model::liquid::ChunkLiquid;

fuzz_target!(|data: &[u8]| {
    let Ok(liquid) = decode(data) else { return };
    let bytes = encode(&liquid);
    let back = decode(&bytes).expect("what loam writes, loam reads");
    assert!(
        encode(&back) == bytes,
        "written liquid rewrites to the same bytes"
    );
});

fn decode(payload: &[u8]) -> loam::format::chunk::Result<Vec<Option<ChunkLiquid>>> {
    let mut w = Writer::with_capacity(payload.len() + 8);
    w.chunk(tags::MH2O, payload);
    let bytes = w.into_bytes();
    let raw = chunk_at(&bytes, 0, 0, tags::FILE).expect("a whole chunk");
    mh2o::read(&raw)
}

fn encode(liquid: &[Option<ChunkLiquid>]) -> Vec<u8> {
    let refs: Vec<Option<&ChunkLiquid>> = liquid.iter().map(Option::as_ref).collect();
    mh2o::write(&refs)
}
