//! Brushes and undo: random strokes across a tile corner (sculpting, painting and liquid alike)
//! keep every shared vertex identical, liquid surfaces included, keep the layer invariants, and
//! undo/redo restore the model bit for bit.

mod common;

use loam::edit::lattice::{self, Vertex};
use loam::edit::ops::{self, Op, OpTool};
use loam::edit::terrain::liquid::LiquidStyle;
use loam::edit::terrain::paint::layers_consistent;
use loam::edit::{History, lattice::normals};
use loam::model::coords::{self, TileCoord};
use loam::model::{Map, Tile};
use proptest::prelude::*;

/// The corner shared by tiles (31, 31), (32, 31), (31, 32) and (32, 32), in world x, y.
fn corner() -> [f64; 2] {
    TileCoord::new(32, 32).unwrap().north_west()
}

/// A 2×2-tile map around `corner()` whose heights are a smooth function of world position, so it
/// starts seamless.
fn seamless_map() -> Map {
    let mut map = Map::new("Test");
    for (x, y) in [(31, 31), (32, 31), (31, 32), (32, 32)] {
        let coord = TileCoord::new(x, y).unwrap();
        let mut tile = Tile::flat(coord, "Tileset\\Test\\Base.blp", 0.0);
        for (i, chunk) in tile.chunks.iter_mut().enumerate() {
            for v in 0..145 {
                let [wx, wy] = coords::vertex_world_xy(coord, i % 16, i / 16, v);
                chunk.heights[v] = (20.0 * (wx / 50.0).sin() + 15.0 * (wy / 70.0).cos()) as f32;
            }
        }
        map.tile_flags[coord.index()] = 1;
        map.tiles.insert(coord, tile);
    }
    for coord in map.tiles.keys().copied().collect::<Vec<_>>() {
        normals::recompute_tile(&mut map, coord);
    }
    map
}

/// Everything an edit may change, with heights as bits (so -0.0 ≠ 0.0).
fn fingerprint(map: &Map) -> Vec<String> {
    let mut out = vec![format!("flags {}", map.flags)];
    for (c, t) in &map.tiles {
        out.push(format!("{c:?} textures {:?}", t.textures));
        for (i, ch) in t.chunks.iter().enumerate() {
            let heights: Vec<u32> = ch.heights.iter().map(|h| h.to_bits()).collect();
            let alphas: Vec<Option<Vec<u8>>> = ch
                .layers
                .iter()
                .map(|l| l.alpha.as_ref().map(|a| a.texels().to_vec()))
                .collect();
            let layers: Vec<(u32, u32)> = ch.layers.iter().map(|l| (l.texture, l.flags)).collect();
            out.push(format!(
                "{i} {heights:?} {:?} {layers:?} {alphas:?} {:?} {} {} {} {:?}",
                ch.normals, ch.vertex_colors, ch.holes, ch.area_id, ch.flags, ch.liquid
            ));
        }
    }
    out
}

/// Every copy of every shared border vertex holds the same height, normal and colour.
fn assert_no_seams(map: &Map) {
    for (coord, tile) in &map.tiles {
        for (i, chunk) in tile.chunks.iter().enumerate() {
            for v in 0..145 {
                let vertex = Vertex::of(*coord, i, v);
                for copy in vertex.copies() {
                    let Some(other) = map.tiles.get(&copy.tile) else {
                        continue;
                    };
                    let o = &other.chunks[copy.chunk];
                    assert_eq!(
                        chunk.heights[v].to_bits(),
                        o.heights[copy.index].to_bits(),
                        "height seam at {vertex:?}"
                    );
                    assert_eq!(
                        chunk.normals[v], o.normals[copy.index],
                        "normal seam at {vertex:?}"
                    );
                    let colour = |c: &loam::model::Chunk, k: usize| {
                        c.vertex_colors
                            .as_ref()
                            .map_or(loam::model::chunk::NEUTRAL_COLOR, |vc| vc[k])
                    };
                    assert_eq!(
                        colour(chunk, v),
                        colour(o, copy.index),
                        "colour seam at {vertex:?}"
                    );
                }
            }
        }
    }
}

/// The liquid kinds as `loam apply` names them.
const KINDS: [&str; 4] = ["water", "ocean", "magma", "slime"];

fn op(tool: OpTool, points: Vec<[f64; 2]>, radius: f32, strength: f32) -> Op {
    let points_given = points.len();
    let mut json = serde_json::json!({"tool": tool_name(tool), "points": points, "radius": radius, "strength": strength});
    let extra = match tool {
        OpTool::Paint | OpTool::EraseTexture => {
            serde_json::json!({"texture": format!("Tileset\\Test\\T{}.blp", (radius as u32) % 6)})
        }
        OpTool::Area => serde_json::json!({"area_id": radius as u32}),
        OpTool::Impassable | OpTool::GroundEffects => {
            serde_json::json!({"on": (radius as u32).is_multiple_of(2)})
        }
        OpTool::Shade => serde_json::json!({"color": [200, (radius * 3.0) as u8, 40]}),
        OpTool::LiquidAdd if points_given > 2 => serde_json::json!({
            "kind": KINDS[radius as usize % 4],
            "height": strength * 30.0,
            "end_height": -strength * 10.0,
        }),
        OpTool::LiquidAdd => serde_json::json!({"liquid_type": 5 + radius as u16 % 8}),
        OpTool::LiquidHeight => serde_json::json!({"height": strength * 25.0 - 5.0}),
        OpTool::LiquidFlags => {
            serde_json::json!({"deep": strength > 0.5, "fishable": radius > 20.0})
        }
        OpTool::Plane => serde_json::json!({
            "through": [[0.0, 0.0, strength * 20.0], [50.0, 0.0, 10.0], [0.0, 50.0, -radius]],
        }),
        _ => serde_json::json!({}),
    };
    json.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    serde_json::from_value(json).unwrap()
}

fn tool_name(t: OpTool) -> &'static str {
    match t {
        OpTool::Raise => "raise",
        OpTool::Lower => "lower",
        OpTool::Flatten => "flatten",
        OpTool::Plane => "plane",
        OpTool::Smooth => "smooth",
        OpTool::Ramp => "ramp",
        OpTool::Noise => "noise",
        OpTool::Paint => "paint",
        OpTool::EraseTexture => "erase_texture",
        OpTool::HoleAdd => "hole_add",
        OpTool::HoleRemove => "hole_remove",
        OpTool::Shade => "shade",
        OpTool::Area => "area",
        OpTool::Impassable => "impassable",
        OpTool::GroundEffects => "ground_effects",
        OpTool::LiquidAdd => "liquid_add",
        OpTool::LiquidRemove => "liquid_remove",
        OpTool::LiquidHeight => "liquid_height",
        OpTool::LiquidFlags => "liquid_flags",
    }
}

/// Every copy of a liquid surface vertex shared by chunks (and tiles) that both hold liquid
/// there has the same height.
fn assert_no_liquid_seams(map: &Map) {
    // Each wet vertex's height per copy, by lattice vertex.
    let mut seen: std::collections::HashMap<(i32, i32), f32> = std::collections::HashMap::new();
    for (coord, i, layer) in common::liquid_layers(map) {
        let heights = layer.surface_heights();
        let wet = layer.wet_quads();
        for r in 0..9usize {
            for k in 0..9usize {
                let corner = common::is_wet_corner(wet, r, k);
                if !corner {
                    continue;
                }
                let v = Vertex::of(coord, i, coords::outer_vertex(r, k));
                let h = layer.surface_height_at(&heights, r, k);
                if let Some(prev) = seen.insert((v.gx, v.gy), h) {
                    assert_eq!(prev.to_bits(), h.to_bits(), "liquid seam at {v:?}");
                }
            }
        }
    }
}

const TOOLS: [OpTool; 19] = [
    OpTool::LiquidAdd,
    OpTool::LiquidRemove,
    OpTool::LiquidHeight,
    OpTool::LiquidFlags,
    OpTool::Ramp,
    OpTool::Raise,
    OpTool::Lower,
    OpTool::Flatten,
    OpTool::Plane,
    OpTool::Smooth,
    OpTool::Noise,
    OpTool::Paint,
    OpTool::EraseTexture,
    OpTool::HoleAdd,
    OpTool::HoleRemove,
    OpTool::Shade,
    OpTool::Area,
    OpTool::Impassable,
    OpTool::GroundEffects,
];

fn stroke_strategy() -> impl Strategy<Value = Op> {
    (
        0..TOOLS.len(),
        proptest::collection::vec((-60.0f64..60.0, -60.0f64..60.0), 2..4),
        4.0f32..50.0,
        0.05f32..1.0,
    )
        .prop_map(|(t, pts, radius, strength)| {
            let [cx, cy] = corner();
            op(
                TOOLS[t],
                pts.into_iter().map(|(dx, dy)| [cx + dx, cy + dy]).collect(),
                radius,
                strength,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn strokes_keep_seams_closed_and_undo_redo_are_exact(strokes in proptest::collection::vec(stroke_strategy(), 1..6)) {
        let mut map = seamless_map();
        let original = fingerprint(&map);
        let mut history = History::default();
        for s in &strokes {
            ops::apply(&mut map, s, &mut history, LiquidStyle::Mh2o).unwrap();
            assert_no_seams(&map);
            assert_no_liquid_seams(&map);
            for tile in map.tiles.values() {
                for c in &tile.chunks {
                    prop_assert!(layers_consistent(c).is_ok(), "{:?}", layers_consistent(c));
                }
            }
        }
        let edited = fingerprint(&map);
        while history.undo(&mut map).is_some() {}
        prop_assert!(fingerprint(&map) == original, "undo restores the model bit for bit");
        while history.redo(&mut map).is_some() {}
        prop_assert!(fingerprint(&map) == edited, "redo reapplies bit for bit");
    }
}

#[test]
fn a_raise_at_the_tile_corner_moves_all_four_tiles_equally_with_one_undo_step() {
    let mut map = seamless_map();
    let [cx, cy] = corner();
    let before = lattice::height_at(&map, cx, cy).unwrap();
    let mut history = History::default();
    let r = ops::apply(
        &mut map,
        &op(OpTool::Raise, vec![[cx, cy], [cx + 10.0, cy]], 30.0, 5.0),
        &mut history,
        LiquidStyle::Mh2o,
    )
    .unwrap();
    assert_eq!(history.len(), 1);
    assert!(r.label.starts_with("Raise, ") && r.chunks >= 4, "{r:?}");
    let corner_vertex = Vertex {
        gx: 32 * 128,
        gy: 32 * 128,
        inner: false,
    };
    let copies: Vec<f32> = corner_vertex
        .copies()
        .map(|c| map.tiles[&c.tile].chunks[c.chunk].heights[c.index])
        .collect();
    assert_eq!(copies.len(), 4);
    assert!(copies.iter().all(|h| *h == copies[0]));
    assert!(copies[0] > before + 4.0, "{} → {}", before, copies[0]);
    let touched_tiles: std::collections::BTreeSet<_> = history_touched(&mut map, &mut history);
    assert_eq!(touched_tiles.len(), 4);
}

fn history_touched(map: &mut Map, history: &mut History) -> std::collections::BTreeSet<TileCoord> {
    let touched = history.undo(map).unwrap();
    history.redo(map);
    touched.into_iter().map(|(t, _)| t).collect()
}

#[test]
fn painting_a_fifth_texture_is_refused_where_four_layers_show() {
    let mut map = seamless_map();
    let [cx, cy] = corner();
    let p = [cx - 100.0, cy - 100.0];
    let mut history = History::default();
    for k in 1..=3 {
        let mut o = op(OpTool::Paint, vec![p], 40.0, 1.0);
        o.texture = Some(format!("Tileset\\Test\\Layer{k}.blp"));
        o.opacity = Some(0.3);
        ops::apply(&mut map, &o, &mut history, LiquidStyle::Mh2o).unwrap();
    }
    let mut fifth = op(OpTool::Paint, vec![p], 10.0, 1.0);
    fifth.texture = Some("Tileset\\Test\\Fifth.blp".into());
    let r = ops::apply(&mut map, &fifth, &mut history, LiquidStyle::Mh2o).unwrap();
    assert!(!r.refused.is_empty(), "{r:?}");
    for tile in map.tiles.values() {
        for c in &tile.chunks {
            assert!(c.layers.len() <= 4);
            layers_consistent(c).unwrap();
        }
    }
}

#[test]
fn unknown_fields_and_misplaced_fields_are_errors() {
    assert!(
        ops::parse(r#"{"ops": [{"tool": "raise", "points": [[0, 0]], "radius": 5, "colour": 1}]}"#)
            .unwrap_err()
            .contains("colour")
    );
    assert!(
        ops::parse(
            r#"{"ops": [{"tool": "raise", "points": [[0, 0]], "radius": 5, "texture": "a"}]}"#
        )
        .unwrap_err()
        .contains("texture")
    );
    assert!(
        ops::parse(r#"{"ops": [{"tool": "paint", "points": [[0, 0]], "radius": 5}]}"#)
            .unwrap_err()
            .contains("texture")
    );
    assert!(
        ops::parse(r#"{"ops": [{"tool": "teleport", "points": [[0, 0]], "radius": 5}]}"#).is_err()
    );
    assert!(
        ops::parse(r#"{"ops": [{"tool": "raise", "points": [[0, 0]], "radius": 5}], "extra": 1}"#)
            .is_err()
    );
}

/// Issue 55, item 6: right after an undo, a step that pushes the history past its budget must
/// drop the oldest applied steps and the undone ones, not bring the undone step back as applied.
#[test]
fn a_budget_drop_right_after_an_undo_discards_the_undone_step() {
    let mut map = seamless_map();
    let [cx, cy] = corner();
    let raise = |map: &mut Map, history: &mut History, x: f64, radius: f32| {
        ops::apply(
            map,
            &op(OpTool::Raise, vec![[cx + x, cy + 20.0]], radius, 1.0),
            history,
            LiquidStyle::Mh2o,
        )
        .unwrap();
    };
    // The same steps in a roomy history first, for each step's size.
    let steps: [(f64, f32); 3] = [(20.0, 3.0), (50.0, 3.0), (80.0, 3.0)];
    let (big_at, big_radius) = (60.0, 40.0);
    let mut probe = History::default();
    let mut probe_map = map.clone();
    let mut sizes = Vec::new();
    for (x, r) in steps {
        let before = probe.size_bytes();
        raise(&mut probe_map, &mut probe, x, r);
        sizes.push(probe.size_bytes() - before);
    }
    probe.undo(&mut probe_map);
    let mut roomy = History::default();
    let mut big_map = probe_map.clone();
    raise(&mut big_map, &mut roomy, big_at, big_radius);
    let big = roomy.size_bytes();
    assert!(big >= sizes[0] + sizes[2], "{big} vs {sizes:?}");
    // Room for all three small steps, and for the second with the big one, not the first too.
    let budget = sizes[1] + big;
    let mut history = History::with_budget(budget);
    raise(&mut map, &mut history, steps[0].0, steps[0].1);
    let after_first = map.clone();
    raise(&mut map, &mut history, steps[1].0, steps[1].1);
    let second = history.labels().0[1].clone();
    raise(&mut map, &mut history, steps[2].0, steps[2].1);
    assert_eq!(history.len(), 3);
    history.undo(&mut map);
    // The redo branch goes, and the oldest step goes to make room for the big one.
    raise(&mut map, &mut history, big_at, big_radius);
    let (labels, head) = history.labels();
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert_eq!(labels[0], second, "{labels:?}");
    assert_eq!(head, 2);
    assert!(!history.can_redo());
    assert_eq!(
        history.size_bytes(),
        sizes[1] + big,
        "sizes match the steps kept"
    );
    while history.undo(&mut map).is_some() {}
    assert!(
        map == after_first,
        "undoing everything left gives the map after the dropped first step"
    );
}

#[test]
fn the_history_drops_the_oldest_steps_beyond_its_byte_budget_and_keeps_the_saved_point() {
    let mut map = seamless_map();
    let [cx, cy] = corner();
    // Room for about five of these steps (each the same size: a raise of the same radius
    // on flat ground), measured on a history of its own.
    let step = {
        let mut probe = History::default();
        ops::apply(
            &mut map.clone(),
            &op(OpTool::Raise, vec![[cx, cy]], 30.0, 1.0),
            &mut probe,
            LiquidStyle::Mh2o,
        )
        .unwrap();
        probe.size_bytes()
    };
    let budget = step * 11 / 2;
    let mut history = History::with_budget(budget);
    let mut labels = 0;
    for k in 0..12 {
        ops::apply(
            &mut map,
            &op(OpTool::Raise, vec![[cx + k as f64 * 7.0, cy]], 30.0, 1.0),
            &mut history,
            LiquidStyle::Mh2o,
        )
        .unwrap();
        labels += 1;
        if k == 10 {
            history.set_saved();
        }
    }
    assert!(history.size_bytes() <= budget, "{}", history.size_bytes());
    assert!(
        history.len() < labels,
        "oldest steps were dropped ({} kept)",
        history.len()
    );
    assert!(!history.is_saved());
    history.undo(&mut map);
    assert!(
        history.is_saved(),
        "undoing back to the saved point is clean"
    );
}
