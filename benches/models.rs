//! Decoding the corpus models into GPU-ready meshes (`assets::models`): an M2 with its skin, a
//! 0.5.3 MDX, and a WMO root with its group files, all from memory (companions through a fetch
//! over a map of byte vectors, as a client's cache would serve them). For scale, the same files
//! through the `wow-m2` / `wow-wmo` crates where those read them (parse only: they build no
//! mesh).

use std::collections::HashMap;
use std::hint::black_box;
use std::io::Cursor;

use criterion::{Criterion, criterion_group, criterion_main};
use loam::assets::models;

fn corpus(rel: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A model and its companions, keyed by the names the reader asks for.
struct Input {
    path: &'static str,
    bytes: Vec<u8>,
    companions: HashMap<String, Vec<u8>>,
}

fn input(path: &'static str, companions: &[(&str, &str)]) -> Input {
    Input {
        path,
        bytes: corpus(path),
        companions: companions
            .iter()
            .map(|(asked, file)| (asked.to_string(), corpus(file)))
            .collect(),
    }
}

fn bench(c: &mut Criterion) {
    let inputs = [
        (
            "m2/tank",
            input(
                "wowserhq-format/model/tank.m2",
                &[(
                    "wowserhq-format/model/tank00.skin",
                    "wowserhq-format/model/tank00.skin",
                )],
            ),
        ),
        (
            "m2/creature",
            input(
                "wowserhq-format/model/creature.m2",
                &[(
                    "wowserhq-format/model/creature01.skin",
                    "wowserhq-format/model/creature01.skin",
                )],
            ),
        ),
        ("mdx/boar", input("alpha-mdx/Boar.mdx", &[])),
        ("mdx/ballista", input("alpha-mdx/Ballista.mdx", &[])),
        (
            "wmo/prison_hq",
            input(
                "warcraft-net/WMO/prisonHQ_Redridge.wmo",
                &[
                    (
                        "warcraft-net/WMO/prisonHQ_Redridge_000.wmo",
                        "warcraft-net/WMO/prisonHQ_Redridge_000.wmo",
                    ),
                    (
                        "warcraft-net/WMO/prisonHQ_Redridge_001.wmo",
                        "warcraft-net/WMO/prisonHQ_Redridge_001.wmo",
                    ),
                    (
                        "warcraft-net/WMO/prisonHQ_Redridge_002.wmo",
                        "warcraft-net/WMO/prisonHQ_Redridge_002.wmo",
                    ),
                ],
            ),
        ),
        (
            "wmo/inn",
            input(
                "wowserhq-format/mapobj/inn.wmo",
                &[
                    (
                        "wowserhq-format/mapobj/inn_000.wmo",
                        "wowserhq-format/mapobj/inn_000.wmo",
                    ),
                    (
                        "wowserhq-format/mapobj/inn_003.wmo",
                        "wowserhq-format/mapobj/inn_003.wmo",
                    ),
                ],
            ),
        ),
    ];
    let mut group = c.benchmark_group("models");
    for (name, input) in &inputs {
        let fetch = |p: &str| input.companions.get(p).cloned();
        models::read_model_bytes(input.path, &input.bytes, &fetch).expect("the corpus reads");
        group.bench_function(format!("read/{name}"), |b| {
            b.iter(|| models::read_model_bytes(input.path, black_box(&input.bytes), &fetch))
        });
    }
    // The crates on what they read, for scale.
    let tank = &inputs[0].1;
    let tank_skin = &tank.companions["wowserhq-format/model/tank00.skin"];
    group.bench_function("wow_m2/m2/tank", |b| {
        b.iter(|| {
            let m = wow_m2::parse_m2(&mut Cursor::new(black_box(&tank.bytes)));
            let s = wow_m2::parse_skin(&mut Cursor::new(black_box(tank_skin)));
            (m.is_ok(), s.is_ok())
        })
    });
    let prison = &inputs[4].1;
    group.bench_function("wow_wmo/wmo/prison_hq", |b| {
        b.iter(|| {
            let root = wow_wmo::parse_wmo(&mut Cursor::new(black_box(&prison.bytes))).is_ok();
            let groups = prison
                .companions
                .values()
                .filter(|g| wow_wmo::parse_wmo(&mut Cursor::new(black_box(g))).is_ok())
                .count();
            (root, groups)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
