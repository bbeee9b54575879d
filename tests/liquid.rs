//! Liquid edited with the liquid tools (through `loam apply`'s operations, the code the editor's
//! strokes run) saves in every generation: written, read back, and compared quad by quad — which
//! quads hold which kind of liquid, and the surface height at each of their corners. Chunks left
//! without liquid keep no liquid flag (the mark Noggit left stale), `wow-adt` reads an edited
//! 3.3.5 tile's MH2O with the same quads and types, and the depth bytes loam writes follow the
//! rule Blizzard's own MH2O data shows.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use loam::convert;
use loam::disk;
use loam::edit::History;
use loam::edit::ops;
use loam::edit::terrain::liquid::{LiquidStyle, depth_byte};
use loam::format::Generation;
use loam::model::chunk::FLAG_LIQUID_ANY;
use loam::model::coords::outer_vertex;
use loam::model::liquid::LiquidOrigin;
use loam::model::{Map, TileCoord};
use loam::pipeline;

const SAMPLE: &str = "resources/sample/Sample.wdt";

/// What a map's liquid is, quad by quad: (tile, chunk, quad) → (LiquidType, the surface height
/// at the quad's four corners).
type Cells = BTreeMap<(TileCoord, usize, usize), (u16, [u32; 4])>;

fn cells(map: &Map) -> Cells {
    let mut out = Cells::new();
    for (coord, i, layer) in common::liquid_layers(map) {
        let heights = layer.surface_heights();
        for q in 0..64 {
            if layer.wet_quads() >> q & 1 == 0 {
                continue;
            }
            let (r, k) = (q / 8, q % 8);
            let h = |r, k| layer.surface_height_at(&heights, r, k).to_bits();
            let corners = [h(r, k), h(r, k + 1), h(r + 1, k), h(r + 1, k + 1)];
            let old = out.insert((coord, i, q), (layer.liquid_type, corners));
            assert!(old.is_none(), "two layers on quad {q} of {coord:?} {i}");
        }
    }
    out
}

/// The same cells with each type folded to its classic kind (what MCLQ keeps).
fn classic(cells: &Cells) -> Cells {
    cells
        .iter()
        .map(|(k, (t, h))| (*k, (convert::liquid::classic_kind(*t), *h)))
        .collect()
}

/// A lake across the sample's tile corner, lowered into a basin; a magma river sloping across
/// a tile border; a pond of slow water (LiquidType 5) with part of it taken off again; deep and
/// fishable flags on the lake.
const EDITS: &str = r#"{"ops": [
  {"tool": "lower", "points": [[-20, -20]], "radius": 60, "strength": 6},
  {"tool": "liquid_add", "points": [[-20, -20]], "radius": 45, "kind": "water", "height": 2.5},
  {"tool": "liquid_add", "points": [[150, 40], [150, -60]], "radius": 12, "kind": "magma", "height": 40, "end_height": 31.5},
  {"tool": "liquid_add", "points": [[-200, 150]], "radius": 30, "liquid_type": 5, "height": 20},
  {"tool": "liquid_remove", "points": [[-190, 150]], "radius": 12},
  {"tool": "liquid_height", "points": [[-215, 150]], "radius": 8, "height": 21.25},
  {"tool": "liquid_flags", "points": [[-20, -20]], "radius": 20, "deep": true, "fishable": true}
]}"#;

fn edited(mut map: Map, style: LiquidStyle) -> Map {
    common::apply_ops(&mut map, EDITS, style);
    map
}

/// Writes `map` (already of generation `generation`) to a folder and reads it back.
fn round_trip(map: &Map, generation: Generation) -> Map {
    let files = pipeline::encode_map(map, generation, true, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    disk::write_files(dir.path(), &files, |_| {}).unwrap();
    let opened = pipeline::open_map_as(&dir.path().join("Sample.wdt"), Some(generation)).unwrap();
    assert!(
        opened.failed.is_empty(),
        "{generation}: {:?}",
        opened.failed
    );
    opened.map
}

/// Every chunk's liquid flags say exactly which MCLQ instances it holds (none without liquid).
fn assert_flags_true(map: &Map, what: &str) {
    for (coord, tile) in &map.tiles {
        for (i, chunk) in tile.chunks.iter().enumerate() {
            let expected = chunk.liquid.iter().flat_map(|l| &l.layers).fold(0, |f, l| {
                f | match l.origin {
                    LiquidOrigin::Mclq(_) => loam::format::mclq::flag_for_type(l.liquid_type),
                    LiquidOrigin::Mh2o => 0,
                }
            });
            assert_eq!(
                chunk.flags & FLAG_LIQUID_ANY,
                expected,
                "{what}: liquid flags of {coord:?} chunk {i}"
            );
        }
    }
}

#[test]
fn edited_liquid_comes_back_from_every_generation() {
    let sample = pipeline::open_map(Path::new(SAMPLE)).unwrap();
    assert_eq!(sample.generation, Generation::V335);
    let map = edited(sample.map, LiquidStyle::Mh2o);
    let before = cells(&map);
    // The edits did what the test means to save.
    let kinds: std::collections::BTreeSet<u16> = before.values().map(|(t, _)| *t).collect();
    assert_eq!(
        kinds,
        [1, 3, 5].into_iter().collect(),
        "water, magma, slow water"
    );
    let tiles: std::collections::BTreeSet<TileCoord> = before.keys().map(|k| k.0).collect();
    assert_eq!(tiles.len(), 4, "the lake spans all four tiles");
    let lake = before.values().filter(|(t, _)| *t == 1).count();
    assert!(lake > 100, "{lake} lake quads");
    assert_flags_true(&map, "edited 3.3.5");

    for target in [
        Generation::Alpha053,
        Generation::V060,
        Generation::V112,
        Generation::V335,
    ] {
        let mut prepared = map.clone();
        let report = convert::prepare_map(&mut prepared, Generation::V335, target);
        let back = round_trip(&prepared, target);
        assert_flags_true(&back, &target.to_string());
        if target == Generation::V335 {
            assert_eq!(
                cells(&back),
                before,
                "3.3.5 keeps every quad, type and height"
            );
            let deep = back
                .tiles
                .values()
                .flat_map(|t| &t.chunks)
                .filter_map(|c| c.liquid.as_ref().and_then(|l| l.attributes).map(|a| a.deep));
            assert!(deep.into_iter().any(|d| d != 0), "deep flags kept");
        } else {
            // MCLQ keeps the classic kind; type 5 (slow water) becomes water. Heights are exact.
            assert_eq!(cells(&back), classic(&before), "{target}");
            assert!(
                report.to_string().contains("fishable/deep masks dropped"),
                "{target}: the report says what MCLQ cannot hold: {report}"
            );
        }
    }
}

#[test]
fn liquid_edited_on_an_older_map_saves_in_its_own_generation() {
    let sample = pipeline::open_map(Path::new(SAMPLE)).unwrap().map;
    for target in [Generation::Alpha053, Generation::V060, Generation::V112] {
        // The sample as that generation's editor would open it.
        let mut old = sample.clone();
        convert::prepare_map(&mut old, Generation::V335, target);
        let old = round_trip(&old, target);
        let map = edited(old, LiquidStyle::of(target));
        let before = cells(&map);
        assert!(!before.is_empty());
        assert!(
            map.tiles
                .values()
                .flat_map(|t| &t.chunks)
                .flat_map(|c| c.liquid.iter().flat_map(|l| &l.layers))
                .all(|l| matches!(l.origin, LiquidOrigin::Mclq(_))),
            "{target}: new liquid takes the generation's MCLQ form"
        );
        assert_flags_true(&map, &format!("edited {target}"));
        let back = round_trip(&map, target);
        assert_eq!(cells(&back), classic(&before), "{target}");
        assert_flags_true(&back, &format!("{target} read back"));
        // Deep water is MCLQ's fatigue bit (0x80) in the tile bytes.
        let fatigue = back
            .tiles
            .values()
            .flat_map(|t| &t.chunks)
            .flat_map(|c| c.liquid.iter().flat_map(|l| &l.layers))
            .any(|l| matches!(&l.origin, LiquidOrigin::Mclq(e) if e.tiles.iter().any(|t| t & 0x80 != 0)));
        assert!(fatigue, "{target}: deep flag kept as fatigue");
    }
}

#[test]
fn removing_all_liquid_leaves_no_stale_flags() {
    // pvpzone3430 holds MCLQ ocean in a 3.3.5 tile; take all of it away.
    let path = common::corpus().join("wowserhq-format/map/pvpzone3430.adt");
    let opened = pipeline::open_map(&path).unwrap();
    let mut map = opened.map;
    let had = map.tiles.values().next().unwrap().liquid_chunk_count();
    assert!(had > 0, "the tile has liquid to remove");
    let with_flags = |m: &Map| {
        m.tiles
            .values()
            .flat_map(|t| &t.chunks)
            .filter(|c| c.flags & FLAG_LIQUID_ANY != 0)
            .count()
    };
    assert!(with_flags(&map) > 0, "its chunks carry MCLQ liquid flags");
    let coord = *map.tiles.keys().next().unwrap();
    let [x, y] = coord.north_west();
    let half = loam::model::coords::TILE_SIZE / 2.0;
    let op = format!(
        r#"{{"ops": [{{"tool": "liquid_remove", "points": [[{}, {}]], "radius": 400, "shape": "square", "inner_radius": 400}}]}}"#,
        x - half,
        y - half
    );
    let file = ops::parse(&op).unwrap();
    let mut history = History::default();
    let r = ops::apply(
        &mut map,
        file.ops[0].brush().unwrap(),
        &mut history,
        LiquidStyle::Mh2o,
    )
    .unwrap();
    assert_eq!(r.chunks, had, "every chunk with liquid changed");
    assert_eq!(with_flags(&map), 0);
    for target in [Generation::V112, Generation::V335] {
        let mut prepared = map.clone();
        convert::prepare_map(&mut prepared, opened.generation, target);
        let files = pipeline::encode_map(&prepared, target, false, None).unwrap();
        let dir = tempfile::tempdir().unwrap();
        disk::write_files(dir.path(), &files, |_| {}).unwrap();
        let back = pipeline::open_map_as(&dir.path().join(&files[0].name), Some(target)).unwrap();
        let tile = back.map.tiles.values().next().unwrap();
        assert_eq!(tile.liquid_chunk_count(), 0, "{target}");
        assert_eq!(
            with_flags(&back.map),
            0,
            "{target}: no stale MCNK liquid flag"
        );
        // The bytes too: every MCNK header's flags word (offset 8 + 0) has no liquid bit.
        let bytes = &files[0].bytes;
        let mut at = 0;
        let mut mcnks = 0;
        while at + 8 <= bytes.len() {
            let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
            if &bytes[at..at + 4] == b"KNCM" {
                let flags = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap());
                assert_eq!(flags & FLAG_LIQUID_ANY, 0, "{target}: MCNK {mcnks} flags");
                mcnks += 1;
            }
            at += 8 + size;
        }
        assert_eq!(mcnks, 256, "{target}");
    }
}

#[test]
fn wow_adt_reads_the_edited_mh2o_with_the_same_quads_and_types() {
    let sample = pipeline::open_map(Path::new(SAMPLE)).unwrap();
    let map = edited(sample.map, LiquidStyle::Mh2o);
    let files = pipeline::encode_map(&map, Generation::V335, true, None).unwrap();
    let mut checked = 0;
    for file in files.iter().filter(|f| f.name.ends_with(".adt")) {
        let coord = disk::parse_tile_file_name(&file.name).unwrap().1;
        let ours = &map.tiles[&coord];
        let mut cursor = std::io::Cursor::new(file.bytes.clone());
        let wow_adt::ParsedAdt::Root(root) = wow_adt::parse_adt(&mut cursor).unwrap() else {
            panic!("not a root ADT")
        };
        let water = root.water_data.as_ref();
        for (i, chunk) in ours.chunks.iter().enumerate() {
            // Ours: quad → type.
            let mut want = BTreeMap::new();
            for layer in chunk.liquid.iter().flat_map(|l| &l.layers) {
                for q in 0..64 {
                    if layer.wet_quads() >> q & 1 == 1 {
                        want.insert(q, layer.liquid_type);
                    }
                }
            }
            // Theirs: each instance's bitmap covers its rectangle, row by row.
            let mut got = BTreeMap::new();
            if let Some(entry) = water.map(|w| &w.entries[i]) {
                for (n, inst) in entry.instances.iter().enumerate() {
                    let bitmap = entry.exists_bitmaps.get(n).copied().flatten();
                    let (w, h) = (inst.width as usize, inst.height as usize);
                    for r in 0..h {
                        for k in 0..w {
                            let bit = r * w + k;
                            if bitmap.is_none_or(|b| b >> bit & 1 == 1) {
                                let q =
                                    (inst.y_offset as usize + r) * 8 + inst.x_offset as usize + k;
                                got.insert(q, inst.liquid_type);
                            }
                        }
                    }
                }
            }
            assert_eq!(got, want, "{coord:?} chunk {i}");
            checked += want.len();
        }
    }
    assert!(checked > 100, "{checked} quads compared");
}

#[test]
fn depth_bytes_follow_the_rule_blizzards_mh2o_shows() {
    // Every MH2O vertex of Northrend_37_25 with heights and depths: the stored depth against
    // the rule loam writes, ⌊9 × (surface − ground)⌋ clamped to 0..=255.
    let path = common::corpus().join("warcraft-net/ADT/Northrend_37_25.adt");
    let map = pipeline::open_map(&path).unwrap().map;
    let (mut total, mut same) = (0, 0);
    for tile in map.tiles.values() {
        for chunk in &tile.chunks {
            for layer in chunk.liquid.iter().flat_map(|l| &l.layers) {
                let (Some(h), Some(d)) = (&layer.heights, &layer.depths) else {
                    continue;
                };
                if !matches!(layer.origin, LiquidOrigin::Mh2o) {
                    continue;
                }
                let cols = layer.vertex_columns();
                for (i, (surface, depth)) in h.iter().zip(d).enumerate() {
                    let (r, k) = (layer.y as usize + i / cols, layer.x as usize + i % cols);
                    let ground = chunk.heights[outer_vertex(r, k)];
                    total += 1;
                    same += usize::from(depth_byte(*surface, ground) == *depth);
                }
            }
        }
    }
    assert!(total > 500, "{total} vertices");
    assert_eq!(same, total, "{same} of {total} depths follow the rule");
}

#[test]
fn sculpting_under_water_re_derives_its_depths() {
    let sample = pipeline::open_map(Path::new(SAMPLE)).unwrap().map;
    let mut map = sample.clone();
    let mut history = common::apply_ops(
        &mut map,
        r#"{"ops": [
          {"tool": "liquid_add", "points": [[30, -20]], "radius": 40, "kind": "water", "height": 0},
          {"tool": "lower", "points": [[30, -20]], "radius": 30, "strength": 5}
        ]}"#,
        LiquidStyle::Mh2o,
    );
    let mut checked = 0;
    for tile in map.tiles.values() {
        for chunk in &tile.chunks {
            for layer in chunk.liquid.iter().flat_map(|l| &l.layers) {
                let depths = layer.depths.as_ref().unwrap();
                let cols = layer.vertex_columns();
                let wet = layer.wet_quads();
                for (i, d) in depths.iter().enumerate() {
                    let (r, k) = (layer.y as usize + i / cols, layer.x as usize + i % cols);
                    // Where a wet quad has its corner, the surface is the 0 the edit set.
                    let corner = common::is_wet_corner(wet, r, k);
                    if !corner {
                        continue;
                    }
                    let ground = chunk.heights[outer_vertex(r, k)];
                    assert_eq!(*d, depth_byte(0.0, ground), "vertex {r},{k}");
                    checked += usize::from(*d > 0);
                }
            }
        }
    }
    assert!(checked > 50, "{checked} vertices under water");
    // One undo takes back the lowering and the depths with it.
    let lowered = map.clone();
    history.undo(&mut map);
    assert_ne!(map, lowered);
    history.undo(&mut map);
    assert!(map == sample, "both steps undone bit for bit");
}
