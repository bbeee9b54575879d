//! Objects in the 3D view, CPU side: a model read and made GPU-ready as the worker threads do
//! (`app::scene::object_loader::prepare_model`: read, per-batch light, doodad matrices, texture list)
//! for the largest corpus M2 and WMO; and each frame's cull and draw list for every doodad and
//! WMO of Northrend_37_25 (2,294 doodads) seen from above the tile's middle.

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use loam::app::scene::object_loader::{ModelAnswer, prepare_model};
use loam::assets::textures::ByteSource;
use loam::edit::objects::{ObjectStroke, find, put};
use loam::model::coords::placement_matrix;
use loam::model::objects::collect;
use loam::model::{ObjectKind, TileCoord};
use loam::render::camera::Camera;
use loam::render::scene::{
    Instance, InstanceKind, InstanceLook, ObjectFilter, build_draw_list, pick,
};
use loam::render::texture_store::texture_key;

fn corpus(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(rel)
}

/// A byte source over corpus files by the names the reader asks for.
fn source(files: &[&str]) -> ByteSource {
    let map: HashMap<String, Vec<u8>> = files
        .iter()
        .map(|f| {
            (
                texture_key(f),
                std::fs::read(corpus(f)).expect("corpus file"),
            )
        })
        .collect();
    Arc::new(move |name: &str| Ok(map.get(&texture_key(name)).cloned()))
}

fn prepare(c: &mut Criterion) {
    let mut group = c.benchmark_group("objects/prepare");
    let inputs = [
        (
            "m2/creature",
            "wowserhq-format/model/creature.m2",
            vec![
                "wowserhq-format/model/creature.m2",
                "wowserhq-format/model/creature01.skin",
            ],
        ),
        (
            "wmo/prison_hq",
            "warcraft-net/WMO/prisonHQ_Redridge.wmo",
            vec![
                "warcraft-net/WMO/prisonHQ_Redridge.wmo",
                "warcraft-net/WMO/prisonHQ_Redridge_000.wmo",
                "warcraft-net/WMO/prisonHQ_Redridge_001.wmo",
                "warcraft-net/WMO/prisonHQ_Redridge_002.wmo",
            ],
        ),
    ];
    for (name, path, files) in inputs {
        let src = source(&files);
        assert!(matches!(prepare_model(&src, path), ModelAnswer::Ready(_)));
        group.bench_function(name, |b| b.iter(|| prepare_model(&src, black_box(path))));
    }
    group.finish();
}

fn cull(c: &mut Criterion) {
    let opened =
        loam::pipeline::open_map(&corpus("warcraft-net/ADT/Northrend_37_25.adt")).expect("opens");
    let objects = collect(&opened.map);
    let doodads = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Doodad)
        .count();
    assert_eq!(doodads, 2294);
    // Every object drawn as a model 4 yards across, one model id per path.
    let mut ids: HashMap<String, u32> = HashMap::new();
    let instances: Vec<Instance> = objects
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let next = ids.len() as u32;
            let id = *ids
                .entry(o.model.clone().unwrap_or_default())
                .or_insert(next);
            let kind = match o.kind {
                ObjectKind::Doodad => InstanceKind::Doodad,
                ObjectKind::Wmo => InstanceKind::Wmo,
            };
            Instance::new(
                i,
                kind,
                InstanceLook::Model(id),
                placement_matrix(o.position, o.rotation, o.scale).as_mat4(),
                (Vec3::new(-2.0, -2.0, 0.0), Vec3::new(2.0, 2.0, 4.0)),
            )
        })
        .collect();
    let tile = TileCoord::new(37, 25).unwrap();
    let [nx, ny] = tile.north_west();
    let ground = objects.iter().map(|o| o.position[2]).sum::<f64>() / objects.len() as f64;
    let mut camera = Camera {
        position: [nx - 266.0, ny - 266.0, ground + 150.0],
        ..Camera::default()
    };
    camera.look_at([nx - 400.0, ny - 266.0, ground]);
    let vp = camera.view_projection(16.0 / 9.0);
    let filter = ObjectFilter::default();
    let list = build_draw_list(&instances, vp, camera.eye(), &filter);
    assert!(list.model_instances() > 0 && list.model_instances() < instances.len());
    c.bench_function("objects/cull/northrend_37_25", |b| {
        b.iter(|| build_draw_list(black_box(&instances), vp, camera.eye(), &filter))
    });
    // Picking under the cursor (the view's centre) among the same instances, as every frame's
    // hover and every click with the object tool does.
    let (origin, dir) = camera.ray([0.0, 0.0], 16.0 / 9.0);
    assert!(pick(&instances, origin, dir, &filter).is_some());
    c.bench_function("objects/pick/northrend_37_25", |b| {
        b.iter(|| pick(black_box(&instances), origin, dir, &filter))
    });
}

/// Moving one doodad of Northrend_37_25 (an undo step's work: out of the tile, back in with
/// its MCRF entries), and encoding the tile after it, against encoding it untouched.
fn move_and_save(c: &mut Criterion) {
    let opened =
        loam::pipeline::open_map(&corpus("warcraft-net/ADT/Northrend_37_25.adt")).expect("opens");
    let map = opened.map;
    let tile = map.tiles.values().next().expect("one tile").clone();
    let d = &tile.doodads[100];
    let mut record = find(&map, ObjectKind::Doodad, d.unique_id).expect("listed");
    record.position[0] -= 3.0;
    let bytes = std::fs::read(corpus("warcraft-net/ADT/Northrend_37_25.adt")).expect("corpus");
    let alpha = loam::format::v18::AlphaTarget {
        big: loam::format::v18::sniff_alpha_depth(&bytes) == loam::format::v18::AlphaDepth::Big,
    };
    let mut group = c.benchmark_group("objects/save_after_move/northrend_37_25");
    group.bench_function("move", |b| {
        b.iter_batched(
            || map.clone(),
            |mut m| {
                let mut stroke = ObjectStroke::default();
                put(&mut m, &mut stroke, black_box(&record), None);
                stroke.finish(&m, "Move")
            },
            criterion::BatchSize::LargeInput,
        )
    });
    group.bench_function("encode", |b| {
        b.iter(|| loam::format::v18::write_adt(black_box(&tile), alpha))
    });
    group.finish();
}

criterion_group!(benches, prepare, cull, move_and_save);
criterion_main!(benches);
