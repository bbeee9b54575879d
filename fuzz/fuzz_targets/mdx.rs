//! Any bytes given to the MDX reader read or fail with an error, never panic; a model that
//! reads has indices inside its vertices and batches inside its indices.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::assets::models;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = models::read_mdx("fuzz.mdx", data) {
        let n = model.mesh.vertices.len() as u32;
        assert!(model.mesh.indices.iter().all(|i| i < n));
        for b in &model.mesh.batches {
            assert!((b.first_index + b.index_count) as usize <= model.mesh.indices.len());
            assert!(
                b.material
                    .texture
                    .is_none_or(|t| t < model.mesh.textures.len())
            );
        }
    }
});
