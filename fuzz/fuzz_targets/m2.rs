//! Any bytes given to the M2 reader, as the model and as its `.skin` file, read or fail with an
//! error, never panic; a model that reads has indices inside its vertices and batches inside
//! its indices. The first byte chooses where the model's bytes end and the skin's begin.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::assets::models;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let split = usize::from(first) * rest.len() / 255;
    let (m2, skin) = rest.split_at(split);
    let fetch = |_: &str| Some(skin.to_vec());
    if let Ok(model) = models::read_m2("fuzz.m2", m2, &fetch) {
        let n = model.mesh.vertices.len() as u32;
        assert!(model.mesh.indices.iter().all(|i| i < n));
        for b in &model.mesh.batches {
            assert!((b.first_index + b.index_count) as usize <= model.mesh.indices.len());
        }
    }
    // The whole input as an M2 with an embedded skin (versions up to 263).
    let _ = models::read_model_bytes("fuzz.m2", rest, &|_| None);
});
