//! Brush costs on a 2×2-tile map: one raise dab of radius 30 yd at the tile corner (touching all
//! four tiles, normals included), one paint dab of radius 30 yd, and recording, undoing and
//! redoing a 200-dab stroke (the history packs each step: `edit::history::stored`).
//! Targets: ≤ 0.5 ms, ≤ 0.5 ms, ≤ 5 ms. Also a liquid dab of radius 30 yd at the corner, into
//! MH2O and into MCLQ (held to the brushes' ≤ 0.5 ms).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use loam::edit::terrain::liquid::{self, LiquidEdit, LiquidStyle, Surface};
use loam::edit::terrain::paint::{self, Paint, PaintMode};
use loam::edit::terrain::sculpt::{self, Sculpt};
use loam::edit::{Brush, History, Stroke, lattice::normals};
use loam::model::coords::{self, TileCoord};
use loam::model::map::TILE_PRESENT;
use loam::model::{Map, Tile};

fn map() -> Map {
    let mut map = Map::new("Bench");
    for (x, y) in [(31, 31), (32, 31), (31, 32), (32, 32)] {
        let coord = TileCoord::new(x, y).expect("on the map");
        let mut tile = Tile::flat(coord, "Tileset\\Bench\\Base.blp", 0.0);
        for (i, chunk) in tile.chunks.iter_mut().enumerate() {
            for v in 0..145 {
                let [wx, wy] = coords::vertex_world_xy(coord, i % 16, i / 16, v);
                chunk.heights[v] = (20.0 * (wx / 50.0).sin() + 15.0 * (wy / 70.0).cos()) as f32;
            }
        }
        map.tile_flags[coord.index()] = TILE_PRESENT;
        map.tiles.insert(coord, tile);
    }
    for coord in map.tiles.keys().copied().collect::<Vec<_>>() {
        normals::recompute_tile(&mut map, coord);
    }
    map
}

fn brushes(c: &mut Criterion) {
    let base = map();
    let [cx, cy] = TileCoord::new(32, 32).expect("on the map").north_west();
    let brush = Brush {
        radius: 30.0,
        inner_radius: 10.0,
        strength: 1.0,
        ..Brush::default()
    };

    c.bench_function("raise dab r30 at tile corner (4 tiles, normals)", |b| {
        b.iter_batched_ref(
            || (base.clone(), Stroke::new("Raise")),
            |(m, s)| sculpt::dab(m, &brush, Sculpt::Raise, cx, cy, s),
            BatchSize::LargeInput,
        )
    });

    let paint = Paint {
        texture: "Tileset\\Bench\\Grass.blp".into(),
        opacity: 0.5,
        mode: PaintMode::Paint,
    };
    c.bench_function("paint dab r30", |b| {
        b.iter_batched_ref(
            || (base.clone(), Stroke::new("Paint")),
            |(m, s)| paint::dab(m, &brush, &paint, cx - 100.0, cy - 100.0, s),
            BatchSize::LargeInput,
        )
    });

    // A 200-dab raise stroke across the corner, recorded as one step.
    let mut stroked = base.clone();
    let mut history = History::default();
    let mut stroke = Stroke::new("Raise");
    for k in 0..200 {
        let t = k as f64 / 199.0;
        sculpt::dab(
            &mut stroked,
            &brush,
            Sculpt::Raise,
            cx - 150.0 + 300.0 * t,
            cy - 40.0 + 80.0 * t,
            &mut stroke,
        );
    }
    let edit = stroke
        .finish(&mut stroked)
        .expect("the stroke changed terrain");
    let chunks = edit.chunks.len();
    let recorded = edit.clone();
    history.push(&mut stroked, edit);
    eprintln!(
        "the 200-dab stroke keeps {} bytes in the history",
        history.size_bytes()
    );
    // Recording it: the step packed (only what changed, as differences, compressed).
    let mut packed_on = stroked.clone();
    c.bench_function("record a 200-dab stroke as a step", |b| {
        b.iter_batched(
            || recorded.clone(),
            |e| {
                let mut h = History::default();
                h.push(&mut packed_on, e);
                h
            },
            BatchSize::SmallInput,
        )
    });
    // Guard the figure: undo must really restore the untouched terrain.
    let after = stroked.clone();
    history.undo(&mut stroked);
    assert!(stroked == base && stroked != after, "undo restores the map");
    history.redo(&mut stroked);
    eprintln!("the 200-dab stroke touched {chunks} chunks");
    c.bench_function("undo and redo of a 200-dab stroke", |b| {
        b.iter(|| {
            history.undo(&mut stroked);
            history.redo(&mut stroked);
        })
    });
}

fn liquid_dabs(c: &mut Criterion) {
    let base = map();
    let [cx, cy] = TileCoord::new(32, 32).expect("on the map").north_west();
    let brush = Brush {
        radius: 30.0,
        inner_radius: 30.0,
        ..Brush::default()
    };
    let add = LiquidEdit::Add {
        liquid_type: 1,
        surface: Surface::Flat(5.0),
    };
    for (style, name) in [
        (LiquidStyle::Mh2o, "liquid dab r30 at tile corner (MH2O)"),
        (LiquidStyle::Mclq, "liquid dab r30 at tile corner (MCLQ)"),
    ] {
        c.bench_function(name, |b| {
            b.iter_batched_ref(
                || (base.clone(), Stroke::new("Add liquid")),
                |(m, s)| liquid::dab(m, &brush, add, style, cx, cy, s),
                BatchSize::LargeInput,
            )
        });
    }
}

criterion_group!(benches, brushes, liquid_dabs);
criterion_main!(benches);
