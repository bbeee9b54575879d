//! Lua brushes (issue 53): one dab of the shipped terrace script over about 5,000 vertices of
//! the bundled sample (a 118 yd brush on its north-western hill), the whole of it as a stroke
//! runs it: the vertices read, the script's loop over them in Lua (each height read, floored
//! and written back), the heights stored to every copy, normals, and the undo step. The issue
//! asks ≤ 5 ms on the 2-core machine. A second case runs a script that only reads every
//! vertex (nothing to store), and a third an empty dab function (the vertices read, no loop).

use std::path::Path;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use loam::doc::script::host::StrokeContext;
use loam::doc::script::{Limits, Script, StrokeRequest};
use loam::edit::History;
use loam::edit::objects::NewUids;

/// The sample's north-western hill.
const PEAK: [f64; 2] = [300.0, 280.0];
/// A radius holding about 5,000 vertices (outer and inner: two per 4.17 yd square).
const RADIUS: f32 = 118.0;

fn request(brush: &str) -> StrokeRequest {
    StrokeRequest {
        brush: brush.to_string(),
        points: vec![PEAK],
        radius: RADIUS,
        inner_radius: None,
        strength: None,
        params: Vec::new(),
    }
}

fn script_benches(c: &mut Criterion) {
    let sample = loam::sample::sample_map();
    let terrace = Script::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/scripts/terrace.lua"),
        Limits::default(),
    )
    .expect("the example loads");
    let reader = Script::from_source(
        Path::new("read.lua"),
        r#"
local b = loam.brush("Read", {})
function b.dab(dab, params)
  local n, sum = 0, 0
  for v in dab:vertices() do n = n + 1; sum = sum + v.z * v.weight end
  print(n)
end
"#,
        Limits::default(),
    )
    .expect("loads");
    let empty = Script::from_source(
        Path::new("empty.lua"),
        "local b = loam.brush(\"Empty\", {})\nfunction b.dab(dab, params) end\n",
        Limits::default(),
    )
    .expect("loads");
    let uids = NewUids::default();
    let cx = StrokeContext {
        model_box: &|_| None,
        uids: &uids,
    };
    // How many vertices the dab holds, from the reading script's own count.
    let mut map = sample.clone();
    let counted = reader
        .stroke(&mut map, &request("Read"), &cx, &mut History::default())
        .expect("runs");
    eprintln!("vertices in the dab: {}", counted.printed.join(" "));
    let mut group = c.benchmark_group("lua brush");
    group.bench_function(
        "terrace dab over ~5,000 vertices (read, write, store)",
        |b| {
            b.iter_batched(
                || (sample.clone(), History::default()),
                |(mut map, mut history)| {
                    let done = terrace
                        .stroke(&mut map, &request("Terrace"), &cx, &mut history)
                        .expect("runs");
                    assert!(done.result.chunks > 0);
                    map
                },
                BatchSize::LargeInput,
            );
        },
    );
    let mut map = sample.clone();
    group.bench_function("reading dab over ~5,000 vertices (Lua only)", |b| {
        b.iter(|| {
            reader
                .stroke(&mut map, &request("Read"), &cx, &mut History::default())
                .expect("runs")
        });
    });
    group.bench_function("empty dab (the vertices read, no Lua loop)", |b| {
        b.iter(|| {
            empty
                .stroke(&mut map, &request("Empty"), &cx, &mut History::default())
                .expect("runs")
        });
    });
    group.finish();
}

criterion_group!(benches, script_benches);
criterion_main!(benches);
