//! Texture rules (issue 52): the `paint_rules` operation run by `loam apply` on the bundled
//! sample, after a `raise` that makes a steep hill beside the valley, read back with the
//! `wow-adt` crate. Where the brush is at full strength every texel shows what the rules say
//! of the triangle the client draws there, worked out here from the written heights: a steep
//! texel its rock, a gentle one no rock, a low one its sand; the textures no rule names are
//! gone; chunks the brush misses keep their layers byte for byte. Where more than four
//! textures would show in a chunk the weakest goes and the operation says where; undo and
//! redo give back the map bit for bit.

mod common;

use std::fs;
use std::path::Path;

use loam::edit::History;
use loam::edit::ops::{self, Operation};
use loam::edit::terrain::rules_ops;

const TILE: f64 = 1600.0 / 3.0;
const CHUNK: f64 = TILE / 16.0;
const UNIT: f64 = CHUNK / 8.0;
const TILES: [(u8, u8); 4] = [(31, 31), (32, 31), (31, 32), (32, 32)];
const GRASS: &str = "Tileset\\Loam\\Sample\\Grass06.blp";
const SAND: &str = "Tileset\\Loam\\Sample\\Sand51.blp";
const ROCK: &str = "Tileset\\Loam\\Sample\\Rock10.blp";

/// Near the valley's floor where the four tiles meet; the brush reaches a hill raised beside it.
const CENTRE: [f64; 2] = [20.0, 0.0];
const RADIUS: f64 = 130.0;
const INNER: f64 = 120.0;

fn rules_op() -> String {
    let esc = |s: &str| s.replace('\\', "\\\\");
    format!(
        r#"{{"tool": "paint_rules", "points": [{CENTRE:?}], "radius": {RADIUS}, "inner_radius": {INNER},
            "rules": [{{"texture": "{}"}},
                      {{"texture": "{}", "height": [-1000, 8], "blend": 2}},
                      {{"texture": "{}", "slope": [35, 90], "blend": 4}}]}}"#,
        esc(GRASS),
        esc(SAND),
        esc(ROCK)
    )
}

const HILL: &str =
    r#"{"tool": "raise", "points": [[75, 45]], "radius": 28, "inner_radius": 4, "strength": 40}"#;

/// A layer's 64×64 weights as the file stores them (8-bit RLE or plain 8-bit).
fn alpha(m: &wow_adt::McnkChunk, k: usize) -> Vec<u8> {
    let layer = &m.layers.as_ref().unwrap().layers[k];
    let data = &m.alpha.as_ref().unwrap().data[layer.offset_in_mcal as usize..];
    if layer.flags.value & 0x200 != 0 {
        common::decode_rle_alpha(data)
    } else {
        data[..4096].to_vec()
    }
}

/// Slope (degrees) and height of the triangle the client draws at (`u`, `v`) quads into a
/// chunk of absolute heights `h`: its plane through three points, from their cross product.
fn ground(h: &[f32], u: f64, v: f64) -> (f64, f64) {
    let (qx, qy) = ((u.floor() as usize).min(7), (v.floor() as usize).min(7));
    let (fx, fy) = (u - qx as f64, v - qy as f64);
    let p = |x: f64, y: f64, i: usize| [x * UNIT, y * UNIT, f64::from(h[i])];
    let o = |dx: usize, dy: usize| p(dx as f64, dy as f64, (qy + dy) * 17 + qx + dx);
    let m = p(0.5, 0.5, qy * 17 + 9 + qx);
    let (a, b) = if fy <= fx && fy <= 1.0 - fx {
        (o(0, 0), o(1, 0))
    } else if fy >= fx && fy >= 1.0 - fx {
        (o(0, 1), o(1, 1))
    } else if fx < 0.5 {
        (o(0, 0), o(0, 1))
    } else {
        (o(1, 0), o(1, 1))
    };
    let (e1, e2) = (
        [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
        [m[0] - a[0], m[1] - a[1], m[2] - a[2]],
    );
    let n = [
        e1[1] * e2[2] - e1[2] * e2[1],
        e1[2] * e2[0] - e1[0] * e2[2],
        e1[0] * e2[1] - e1[1] * e2[0],
    ];
    let horizontal = (n[0] * n[0] + n[1] * n[1]).sqrt();
    let slope = horizontal.atan2(n[2].abs()).to_degrees();
    // The height on the plane: n · (p − a) = 0.
    let (px, py) = (fx * UNIT, fy * UNIT);
    let height = a[2] - (n[0] * (px - a[0]) + n[1] * (py - a[1])) / n[2];
    (slope, height)
}

#[test]
fn steep_ground_takes_its_rock_gentle_ground_none_and_low_ground_its_sand() {
    let dir = tempfile::tempdir().unwrap();
    let map = common::sample_in(dir.path().join("sample")).join("Sample.wdt");
    let ops = dir.path().join("rules.json");
    fs::write(&ops, format!(r#"{{"ops": [{HILL}, {}]}}"#, rules_op())).unwrap();
    let out = dir.path().join("out");
    let said = common::apply_335(&map, &ops, &out);
    assert!(said.contains("op 1: Texture rules, "), "{said}");

    let (mut steep, mut gentle, mut low, mut untouched) = (0, 0, 0, 0);
    for (tx, ty) in TILES {
        let name = format!("Sample_{tx}_{ty}.adt");
        let root = common::root_adt(&out.join(&name));
        let old = common::root_adt(&dir.path().join("sample").join(&name));
        let index = |t: &str| root.textures.iter().position(|n| n.eq_ignore_ascii_case(t));
        for (m, was) in root.mcnk_chunks.iter().zip(&old.mcnk_chunks) {
            let (cx, cy) = (m.header.index_x as f64, m.header.index_y as f64);
            let north = (32.0 - f64::from(ty)) * TILE - cy * CHUNK;
            let west = (32.0 - f64::from(tx)) * TILE - cx * CHUNK;
            let near = ((north - CHUNK / 2.0 - CENTRE[0]).powi(2)
                + (west - CHUNK / 2.0 - CENTRE[1]).powi(2))
            .sqrt();
            let layers = &m.layers.as_ref().unwrap().layers;
            if near > RADIUS + CHUNK {
                // The brush misses the chunk: its layers and alpha are as they were.
                let old_layers = &was.layers.as_ref().unwrap().layers;
                assert_eq!(layers.len(), old_layers.len());
                for k in 1..layers.len() {
                    assert_eq!(
                        alpha(m, k),
                        alpha(was, k),
                        "{name} chunk {cx},{cy} layer {k}"
                    );
                }
                untouched += 1;
                continue;
            }
            let heights = common::absolute_heights(m);
            // Each texture's weight at each texel: the base takes what the others leave.
            let mut weight = vec![[0u32; 4096]; root.textures.len()];
            let mut rest = [255u32; 4096];
            for k in 1..layers.len() {
                for (i, a) in alpha(m, k).into_iter().enumerate() {
                    weight[layers[k].texture_id as usize][i] += u32::from(a);
                    // (The sample's own blend lets a texel's layers pass 255 a little.)
                    rest[i] = rest[i].saturating_sub(u32::from(a));
                }
            }
            for i in 0..4096 {
                weight[layers[0].texture_id as usize][i] += rest[i];
            }
            let of = |t: &str, i: usize| index(t).map_or(0, |k| weight[k][i]);
            for i in 0..4096 {
                let (row, col) = ((i / 64) as f64, (i % 64) as f64);
                let (u, v) = ((col + 0.5) / 8.0, (row + 0.5) / 8.0);
                let (x, y) = (north - v * UNIT, west - u * UNIT);
                if ((x - CENTRE[0]).powi(2) + (y - CENTRE[1]).powi(2)).sqrt() > INNER - 1.0 {
                    continue;
                }
                let (slope, height) = ground(&heights, u, v);
                let named = of(GRASS, i) + of(SAND, i) + of(ROCK, i);
                assert_eq!(
                    named, 255,
                    "{name} {cx},{cy} texel {i}: only the rules' textures"
                );
                if slope >= 40.0 {
                    assert!(
                        of(ROCK, i) >= 250,
                        "steep ({slope:.1}°) texel {i}: rock {}",
                        of(ROCK, i)
                    );
                    steep += 1;
                } else if slope <= 30.0 {
                    assert_eq!(of(ROCK, i), 0, "gentle ({slope:.1}°) texel {i} has rock");
                    if height >= 10.0 {
                        assert_eq!(of(SAND, i), 0, "high ({height:.1}) texel {i} has sand");
                        gentle += 1;
                    } else if height <= 6.0 {
                        assert!(
                            of(SAND, i) >= 250,
                            "low ({height:.1}) texel {i} of {name} {cx},{cy}: sand {}",
                            of(SAND, i)
                        );
                        low += 1;
                    }
                }
            }
        }
    }
    assert!(
        steep > 200 && gentle > 200 && low > 200 && untouched > 100,
        "the brush saw each kind of ground: {steep} steep, {gentle} gentle, {low} low, {untouched} chunks missed"
    );
}

/// The operation of `json` as `loam apply` parses it.
fn parse(json: &str) -> rules_ops::RulesOp {
    let file = ops::parse(&format!(r#"{{"ops": [{json}]}}"#)).unwrap();
    match file.ops.into_iter().next().unwrap() {
        Operation::Rules(op) => op,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_fifth_texture_drops_the_weakest_says_where_and_undo_gives_back_the_map() {
    let mut map = loam::sample::sample_map();
    // A chunk already showing four textures: a small brush at its middle adds a fifth.
    let (coord, chunk) = map
        .tiles
        .iter()
        .flat_map(|(c, t)| t.chunks.iter().enumerate().map(move |(i, ch)| (*c, i, ch)))
        .find(|(_, _, ch)| ch.layers.len() == 4)
        .map(|(c, i, _)| (c, i))
        .expect("the sample has a chunk of four layers");
    let [nx, ny] = loam::model::coords::chunk_north_west(coord, chunk % 16, chunk / 16);
    let centre = [nx - CHUNK / 2.0, ny - CHUNK / 2.0];
    let op = parse(&format!(
        r#"{{"tool": "paint_rules", "points": [{centre:?}], "radius": 8, "inner_radius": 4,
            "rules": [{{"texture": "Tileset\\Test\\Moss.blp"}}]}}"#
    ));
    let original = map.clone();
    let mut history = History::default();
    let r = rules_ops::apply(&mut map, &op, &mut history).unwrap();
    assert!(r.refused.contains(&(coord, chunk)), "{r:?}");
    assert!(r.label.contains("the weakest left out"), "{}", r.label);
    let c = &map.tiles[&coord].chunks[chunk];
    assert_eq!(c.layers.len(), 4);
    loam::edit::terrain::paint::layers_consistent(c).unwrap();
    let tile = &map.tiles[&coord];
    assert!(
        c.layers
            .iter()
            .any(|l| tile.textures[l.texture as usize] == "Tileset\\Test\\Moss.blp"),
        "the rule's texture shows"
    );
    let painted = map.clone();
    history.undo(&mut map);
    assert_eq!(map, original);
    history.redo(&mut map);
    assert_eq!(map, painted);
}

#[test]
fn bad_rules_get_a_clear_error() {
    for (json, says) in [
        (
            r#"{"tool": "paint_rules", "points": [[0, 0]], "radius": 10, "rules": [{"texture": "a.blp", "slope": [50, 10]}]}"#,
            "rules[0]: `slope`",
        ),
        (
            r#"{"tool": "paint_rules", "points": [[0, 0]], "radius": 10, "rules": [{"texture": "a.blp", "colour": 1}]}"#,
            "unknown field `colour`",
        ),
        (
            r#"{"tool": "erode", "kind": "thermal", "points": [[0, 0]], "radius": 10, "talus": 30}"#,
            "`iterations`",
        ),
    ] {
        let e = ops::parse(&format!(r#"{{"ops": [{json}]}}"#)).unwrap_err();
        assert!(e.contains("ops[0] (operation 1 of 1, tool"), "{e}");
        assert!(e.contains(says), "{json}: {e}");
    }
    let _ = Path::new(".");
}
