//! Any bytes given to the WMO reader, as a root (v14 single file, or v16/v17 root) and as every
//! group file it asks for, read or fail with an error, never panic; a WMO that reads has indices
//! inside its vertices, batches inside its indices and one colour per vertex when it has any.
//! The first byte chooses where the root's bytes end and the group's begin.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::assets::models;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let split = usize::from(first) * rest.len() / 255;
    let (root, group) = rest.split_at(split);
    let fetch = |_: &str| Some(group.to_vec());
    if let Ok(wmo) = models::read_wmo("fuzz.wmo", root, &fetch) {
        let mesh = &wmo.mesh;
        let n = mesh.vertices.len() as u32;
        assert!(mesh.indices.iter().all(|i| i < n));
        for b in &mesh.batches {
            assert!((b.first_index + b.index_count) as usize <= mesh.indices.len());
        }
        assert!(
            mesh.colors
                .as_ref()
                .is_none_or(|c| c.len() == mesh.vertices.len())
        );
    }
});
