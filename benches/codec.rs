//! Decode into the full model (alpha maps decoded to 64×64 bytes) and encode back, for the
//! largest corpus tiles. Target: ≤ 0.5 ms each for Northrend_37_25 on the project machine.

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use loam::format::v18;

fn corpus(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn codec(c: &mut Criterion) {
    for (name, rel) in [
        ("continent4229", "wowserhq-format/map/continent4229.adt"),
        ("Northrend_37_25", "warcraft-net/ADT/Northrend_37_25.adt"),
    ] {
        let bytes = corpus(rel);
        let depth = v18::sniff_alpha_depth(&bytes);
        let tile = v18::read_adt(&bytes, None, depth).expect("corpus tile decodes");
        let target = v18::AlphaTarget {
            big: depth == v18::AlphaDepth::Big,
        };
        c.bench_function(&format!("decode/{name}"), |b| {
            b.iter(|| v18::read_adt(std::hint::black_box(&bytes), None, depth).expect("decodes"))
        });
        c.bench_function(&format!("encode/{name}"), |b| {
            b.iter(|| v18::write_adt(std::hint::black_box(&tile), target))
        });
    }
}

criterion_group!(benches, codec);
criterion_main!(benches);
