//! The texture spray (issue 54, item 3): a paint operation with `spray` lays small splotches
//! at random places inside the brush. Checked on a flat map: only texels within the brush plus
//! a splotch's reach change, fewer of them than a plain dab paints, the same seed paints the
//! same texels and another seed other ones; the editor's Spray texture tool writes the same
//! operation.

use loam::edit::History;
use loam::edit::ops::{self, Op};
use loam::edit::terrain::liquid::LiquidStyle;
use loam::edit::tools::{Tool, ToolSettings};
use loam::model::coords::{self, TileCoord};
use loam::model::{Map, Tile};

const TEXTURE: &str = "Tileset\\Test\\Scree.blp";

fn flat_map() -> Map {
    let mut map = Map::new("Test");
    for (x, y) in [(31, 31), (32, 31), (31, 32), (32, 32)] {
        let coord = TileCoord::new(x, y).unwrap();
        map.tile_flags[coord.index()] = 1;
        map.tiles
            .insert(coord, Tile::flat(coord, "Tileset\\Test\\Base.blp", 0.0));
    }
    map
}

fn paint(spray: Option<(u32, f32, u32)>) -> Op {
    let [x, y] = TileCoord::new(32, 32).unwrap().north_west();
    let mut json = serde_json::json!({"tool": "paint", "points": [[x + 40.0, y + 40.0]],
        "radius": 30.0, "inner_radius": 10.0, "texture": TEXTURE});
    if let Some((rate, size, seed)) = spray {
        json["spray"] = serde_json::json!({"rate": rate, "size": size, "seed": seed});
    }
    let file = ops::parse(&serde_json::json!({ "ops": [json] }).to_string()).unwrap();
    match file.ops.into_iter().next().unwrap() {
        ops::Operation::Brush(op) => op,
        other => panic!("{other:?}"),
    }
}

/// Each texel (world x, y) where the texture shows, with its weight.
fn painted(map: &Map) -> Vec<([f64; 2], u8)> {
    let mut out = Vec::new();
    for (coord, tile) in &map.tiles {
        for (i, chunk) in tile.chunks.iter().enumerate() {
            let Some(layer) = chunk.layers.iter().position(|l| {
                tile.textures.get(l.texture as usize).map(String::as_str) == Some(TEXTURE)
            }) else {
                continue;
            };
            let Some(alpha) = chunk.layers[layer].alpha.as_ref() else {
                continue;
            };
            let [nx, ny] = coords::chunk_north_west(*coord, i % 16, i / 16);
            for row in 0..64 {
                for col in 0..64 {
                    let a = alpha.get(row, col);
                    if a > 0 {
                        let step = coords::CHUNK_SIZE / 64.0;
                        let at = [
                            nx - (row as f64 + 0.5) * step,
                            ny - (col as f64 + 0.5) * step,
                        ];
                        out.push((at, a));
                    }
                }
            }
        }
    }
    out
}

fn run(op: &Op) -> Map {
    let mut map = flat_map();
    ops::apply(&mut map, op, &mut History::default(), LiquidStyle::Mh2o).unwrap();
    map
}

#[test]
fn a_spray_paints_splotches_inside_the_brush_and_a_seed_repeats_them() {
    let [x, y] = TileCoord::new(32, 32).unwrap().north_west();
    let centre = [x + 40.0, y + 40.0];
    let whole = painted(&run(&paint(None)));
    let sprayed_map = run(&paint(Some((6, 2.5, 7))));
    let sprayed = painted(&sprayed_map);
    assert!(!sprayed.is_empty(), "the spray painted something");
    assert!(
        sprayed.len() * 2 < whole.len(),
        "splotches cover less than a whole dab: {} of {} texels",
        sprayed.len(),
        whole.len()
    );
    // Nothing beyond the brush and a splotch's reach (plus a texel's diagonal).
    let reach = 30.0 + 2.5 + coords::CHUNK_SIZE / 64.0;
    for (at, _) in &sprayed {
        let d = ((at[0] - centre[0]).powi(2) + (at[1] - centre[1]).powi(2)).sqrt();
        assert!(d <= reach, "a texel {d} yards out");
    }
    // Splotches, not a ring: texels far apart from each other are painted, and the painted
    // texels are not all near the centre.
    assert!(sprayed.iter().any(|(at, _)| {
        ((at[0] - centre[0]).powi(2) + (at[1] - centre[1]).powi(2)).sqrt() > 12.0
    }));
    // The same seed, the same map; another seed, other texels.
    assert!(run(&paint(Some((6, 2.5, 7)))) == sprayed_map);
    assert!(run(&paint(Some((6, 2.5, 8)))) != sprayed_map);
}

#[test]
fn the_spray_tool_writes_a_paint_operation_with_its_spray_and_reads_back_as_itself() {
    let mut s = ToolSettings::default();
    s.choose(Tool::SprayTexture);
    s.spray_rate = 9;
    s.spray_size = 4.0;
    s.noise_seed = 3;
    let op = s.op();
    assert_eq!(op.tool, ops::OpTool::Paint);
    let spray = op.spray.expect("the spray's settings");
    assert_eq!((spray.rate, spray.size, spray.seed), (9, 4.0, 3));
    let back = ToolSettings::for_op(&op, ToolSettings::default());
    assert_eq!(back.tool, Tool::SprayTexture);
    assert_eq!((back.spray_rate, back.spray_size), (9, 4.0));
    // A plain paint has no spray; spray on another tool, or out of range, is refused.
    assert!(ToolSettings::default().op().spray.is_none());
    let [x, y] = TileCoord::new(32, 32).unwrap().north_west();
    for bad in [
        serde_json::json!({"tool": "raise", "points": [[x, y]], "radius": 5, "spray": {"rate": 3, "size": 2}}),
        serde_json::json!({"tool": "paint", "points": [[x, y]], "radius": 5, "texture": TEXTURE, "spray": {"rate": 0, "size": 2}}),
        serde_json::json!({"tool": "paint", "points": [[x, y]], "radius": 5, "texture": TEXTURE, "spray": {"rate": 3, "size": 50}}),
    ] {
        let e = ops::parse(&serde_json::json!({ "ops": [bad] }).to_string()).unwrap_err();
        assert!(e.contains("spray"), "{e}");
    }
}
