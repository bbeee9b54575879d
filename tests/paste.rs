//! Copy and paste of terrain (issue 31, its library and `loam apply` part): a 2×2-chunk region
//! of the bundled sample pasted onto the corner its four tiles share, read back with the
//! `wow-adt` crate (heights, layers, alpha maps, objects with fresh uids), `loam check` finding
//! no seam, and undo through the library giving back every touched tile bit for bit.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use common::{loam, text};
use loam::edit::History;
use loam::edit::copy::paste::{HeightMode, PasteLayer, PasteOp};
use loam::edit::objects::{ModelBox, NewUids};
use loam::edit::ops::{self, OpContext};
use loam::edit::terrain::liquid::LiquidStyle;
use loam::edit::terrain::paint::layers_consistent;
use loam::model::{Map, Tile, TileCoord};
use proptest::prelude::*;

/// The copied region: chunks (12..14, 12..14) of tile 31_31 (whose doodads 1249, 1250 and
/// 1251 stand in it), by two corners a little off the lattice (they snap to it).
const FROM: &str = "[[133.3, 133.3], [66.7, 66.7]]";
/// Where its north-west corner lands: one chunk north-west of world (0, 0), the corner the
/// sample's four tiles share, so the four chunks land one in each tile.
const POINT: &str = "[[33.3, 33.3]]";

fn root(path: &Path) -> wow_adt::RootAdt {
    common::root_adt(path)
}

/// The chunk of `adt` at (x, y).
fn chunk(adt: &wow_adt::RootAdt, x: usize, y: usize) -> &wow_adt::McnkChunk {
    adt.mcnk_chunks
        .iter()
        .find(|m| (m.header.index_x as usize, m.header.index_y as usize) == (x, y))
        .unwrap()
}

fn heights(m: &wow_adt::McnkChunk) -> Vec<f32> {
    common::absolute_heights(m)
}

/// Layer `k`'s alpha map, decoded here from the MCAL bytes (the sample's 8-bit RLE), so that
/// the comparison does not lean on loam's own decoder.
fn alpha(m: &wow_adt::McnkChunk, k: usize) -> Vec<u8> {
    let layer = &m.layers.as_ref().unwrap().layers[k];
    assert_ne!(layer.flags.value & 0x200, 0, "the sample stores RLE alpha");
    common::decode_rle_alpha(&m.alpha.as_ref().unwrap().data[layer.offset_in_mcal as usize..])
}

/// A source chunk of tile 31_31 (x, y), the tile it lands in and the chunk there.
type Pair = ((usize, usize), (u8, u8), (usize, usize));

/// The four pairs, row by row.
fn pairs() -> Vec<Pair> {
    let mut out = Vec::new();
    for j in 0..2 {
        for i in 0..2 {
            let (gx, gy) = (15 + i, 15 + j);
            out.push((
                (12 + i, 12 + j),
                (31 + (gx / 16) as u8, 31 + (gy / 16) as u8),
                (gx % 16, gy % 16),
            ));
        }
    }
    out
}

fn apply(sample: &Path, op: &str, out: &Path) -> String {
    let ops = out.with_extension("json");
    fs::write(&ops, format!(r#"{{"ops": [{op}]}}"#)).unwrap();
    common::apply_335(&sample.join("Sample.wdt"), &ops, out)
}

#[test]
fn a_paste_over_a_tile_corner_brings_heights_layers_alpha_and_objects_and_opens_no_seam() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::sample_in(dir.path().join("sample"));
    let out = dir.path().join("out");
    let said = apply(
        &sample,
        &format!(r#"{{"tool": "paste", "from": {FROM}, "points": {POINT}}}"#),
        &out,
    );
    assert!(said.contains("op 0: Paste, 3 object(s)"), "{said}");
    let tile = |dir: &Path, x: u8, y: u8| root(&dir.join(format!("Sample_{x}_{y}.adt")));
    let source = tile(&sample, 31, 31);
    let mut old_uids = BTreeSet::new();
    for (x, y) in [(31, 31), (32, 31), (31, 32), (32, 32)] {
        let t = tile(&sample, x, y);
        old_uids.extend(t.doodad_placements.iter().map(|d| d.unique_id));
        old_uids.extend(t.wmo_placements.iter().map(|w| w.unique_id));
    }
    let (mut alphas, mut moved) = (0, 0);
    for ((sx, sy), (tx, ty), (cx, cy)) in pairs() {
        let target = tile(&out, tx, ty);
        let (a, b) = (chunk(&source, sx, sy), chunk(&target, cx, cy));
        let was = heights(chunk(&tile(&sample, tx, ty), cx, cy));
        moved += usize::from(
            heights(a)
                .iter()
                .zip(&was)
                .any(|(p, q)| (p - q).abs() > 0.1),
        );
        for (i, (p, q)) in heights(a).iter().zip(heights(b)).enumerate() {
            assert!(
                (p - q).abs() < 1e-3,
                "{tx}_{ty} chunk ({cx}, {cy}) vertex {i}: {p} vs {q}"
            );
        }
        let (la, lb) = (
            &a.layers.as_ref().unwrap().layers,
            &b.layers.as_ref().unwrap().layers,
        );
        assert_eq!(la.len(), lb.len(), "{tx}_{ty} ({cx}, {cy}) layers");
        for (k, (p, q)) in la.iter().zip(lb).enumerate() {
            assert!(
                source.textures[p.texture_id as usize]
                    .eq_ignore_ascii_case(&target.textures[q.texture_id as usize]),
                "layer {k}"
            );
            assert_eq!((p.flags, p.effect_id), (q.flags, q.effect_id));
            if k > 0 {
                assert_eq!(alpha(a, k), alpha(b, k), "{tx}_{ty} ({cx}, {cy}) alpha {k}");
                alphas += 1;
            }
        }
        assert_eq!(a.header.holes_low_res, b.header.holes_low_res);
    }
    assert!(
        alphas >= 4,
        "the region paints more than its base: {alphas} alpha maps"
    );
    assert!(
        moved >= 3,
        "the target's ground differed before: {moved} chunks"
    );
    // The three doodads, 100 yards south-east (records store (ORIGIN − y, z, ORIGIN − x)),
    // each under a uid the map did not use, each a different one.
    let inside = [1249, 1250, 1251];
    let mut new_uids = BTreeSet::new();
    for d in source
        .doodad_placements
        .iter()
        .filter(|d| inside.contains(&d.unique_id))
    {
        let model = &source.models[d.name_id as usize];
        let want = [d.position[0] + 100.0, d.position[1], d.position[2] + 100.0];
        let mut found = None;
        for (x, y) in [(31, 31), (32, 31), (31, 32), (32, 32)] {
            let t = tile(&out, x, y);
            for e in &t.doodad_placements {
                let close = (0..3).all(|k| (e.position[k] - want[k]).abs() < 0.01);
                if close && t.models[e.name_id as usize] == *model {
                    found = Some((e.unique_id, e.rotation));
                }
            }
        }
        let (uid, rotation) = found.unwrap_or_else(|| panic!("no copy of uid {}", d.unique_id));
        assert!(!old_uids.contains(&uid), "uid {uid} was the map's already");
        assert_eq!(
            rotation.map(|r| r.rem_euclid(360.0)),
            d.rotation.map(|r| r.rem_euclid(360.0))
        );
        new_uids.insert(uid);
    }
    assert_eq!(new_uids.len(), 3, "three fresh uids, each its own");
    let check = loam(&["check", out.join("Sample.wdt").to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check));
    assert!(text(&check).contains("no problems"), "{}", text(&check));
    assert!(
        !text(&check).to_lowercase().contains("seam"),
        "{}",
        text(&check)
    );
}

#[test]
fn relative_heights_land_on_the_targets_height_and_other_layers_stay() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::sample_in(dir.path().join("sample"));
    let out = dir.path().join("out");
    apply(
        &sample,
        &format!(
            r#"{{"tool": "paste", "from": {FROM}, "points": {POINT}, "heights": "relative", "layers": ["heights"]}}"#
        ),
        &out,
    );
    let tile = |dir: &Path, x: u8, y: u8| root(&dir.join(format!("Sample_{x}_{y}.adt")));
    let source = tile(&sample, 31, 31);
    // The source's north-west vertex lands on the target's north-west vertex, whose height
    // stays; everything else moves by the same offset.
    let offset = heights(chunk(&source, 15, 15))[0] - heights(chunk(&source, 12, 12))[0];
    assert!(offset.abs() > 0.1, "the sample is not flat there: {offset}");
    for ((sx, sy), (tx, ty), (cx, cy)) in pairs() {
        let (before, after) = (tile(&sample, tx, ty), tile(&out, tx, ty));
        let b = chunk(&after, cx, cy);
        for (i, (p, q)) in heights(chunk(&source, sx, sy))
            .iter()
            .zip(heights(b))
            .enumerate()
        {
            assert!(
                (p + offset - q).abs() < 1e-3,
                "{tx}_{ty} ({cx}, {cy}) vertex {i}"
            );
        }
        let old = chunk(&before, cx, cy);
        let (la, lb) = (
            &old.layers.as_ref().unwrap().layers,
            &b.layers.as_ref().unwrap().layers,
        );
        assert_eq!(
            la.iter().map(|l| l.texture_id).collect::<Vec<_>>(),
            lb.iter().map(|l| l.texture_id).collect::<Vec<_>>(),
            "textures were not asked for"
        );
        assert_eq!(
            after.doodad_placements.len(),
            before.doodad_placements.len()
        );
    }
}

fn no_image(p: &str) -> Result<loam::edit::images::image_ops::ImageInput, String> {
    Err(format!("no image {p}"))
}

fn context<'a>(boxes: &'a dyn Fn(&str) -> Option<ModelBox>) -> OpContext<'a> {
    static UIDS: NewUids = NewUids {
        range: None,
        on_disk: None,
    };
    OpContext {
        model_box: boxes,
        uids: &UIDS,
        style: LiquidStyle::Mh2o,
        read_image: &no_image,
    }
}

#[test]
fn undo_gives_back_every_touched_tile_bit_for_bit_and_redo_the_paste() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::sample_in(dir.path().join("sample"));
    let mut map = loam::pipeline::open_map(&sample.join("Sample.wdt"))
        .unwrap()
        .map;
    let before = map.tiles.clone();
    let file = ops::parse(&format!(
        r#"{{"ops": [{{"tool": "paste", "from": {FROM}, "points": {POINT}, "rotate": 90, "mirror": true}}]}}"#
    ))
    .unwrap();
    let no_box = |_: &str| None;
    let mut history = History::default();
    let r = ops::run(&mut map, &file.ops[0], &mut history, &context(&no_box)).unwrap();
    let all: Vec<TileCoord> = before.keys().copied().collect();
    assert_eq!(r.tiles, all, "the paste touches all four tiles");
    let after = map.tiles.clone();
    for c in &all {
        assert_ne!(after[c], before[c], "{c:?} changed");
    }
    history.undo(&mut map);
    for c in &all {
        assert!(map.tiles[c] == before[c], "{c:?} is back as it was");
    }
    history.redo(&mut map);
    assert!(map.tiles == after, "redo puts the paste back");
}

/// Two flat tiles with a second texture painted over part of each and a tree.
fn small_map() -> Map {
    let mut map = Map::new("P");
    for x in [31, 32] {
        let c = TileCoord::new(x, 31).unwrap();
        let mut t = Tile::flat(c, "a.blp", x as f32);
        t.textures.push("b.blp".into());
        for (i, chunk) in t.chunks.iter_mut().enumerate().filter(|(i, _)| i % 5 == 0) {
            let mut texels = Box::new([0u8; 4096]);
            for (k, v) in texels.iter_mut().enumerate() {
                *v = ((k + i) % 200) as u8;
            }
            chunk.layers.push(loam::model::Layer {
                texture: 1,
                flags: 0x100,
                effect_id: 0,
                alpha: Some(loam::model::AlphaMap::from_texels(texels)),
            });
        }
        map.tiles.insert(c, t);
    }
    map
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn paste_never_panics_and_leaves_layers_consistent(
        a in (-300.0..700.0f64, -700.0..300.0f64),
        b in (-300.0..700.0f64, -700.0..300.0f64),
        points in proptest::collection::vec((-1000.0..1000.0f64, -1000.0..1000.0f64), 0..3),
        rotate in prop_oneof![Just(0), Just(90), Just(180), Just(270), Just(45), Just(-90)],
        mirror in any::<bool>(),
        relative in any::<bool>(),
        blend in prop_oneof![Just(0.0f32), 0.0..50.0f32, Just(-1.0f32)],
        layers in proptest::sample::subsequence(PasteLayer::ALL.to_vec(), 0..=6),
    ) {
        let mut map = small_map();
        // Heights far from the map's edge stand on the map; the rest is off it or unloaded.
        let op = PasteOp {
            tool: "paste".into(),
            from: [[a.0, a.1], [b.0, b.1]],
            points: points.into_iter().map(|(x, y)| [x, y]).collect(),
            rotate: Some(rotate),
            mirror: Some(mirror),
            heights: Some(if relative { HeightMode::Relative } else { HeightMode::Absolute }),
            blend: Some(blend),
            layers: Some(layers),
            clipboard: None,
        };
        let no_box = |_: &str| None;
        let mut history = History::default();
        let result = ops::run(
            &mut map,
            &ops::Operation::Paste(op),
            &mut history,
            &context(&no_box),
        );
        if result.is_ok() {
            for t in map.tiles.values() {
                for c in &t.chunks {
                    prop_assert!(layers_consistent(c).is_ok());
                }
            }
        }
    }
}

#[test]
fn the_example_file_parses_as_two_pastes() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/examples/paste.json");
    let file = ops::parse(&fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(file.ops.len(), 2);
    assert!(
        file.ops
            .iter()
            .all(|o| matches!(o, ops::Operation::Paste(_)))
    );
    let bad = r#"{"ops": [{"tool": "paste", "from": [[0, 0], [1, 1]], "points": [[0, 0]]}]}"#;
    let err = ops::parse(bad).unwrap_err();
    assert!(err.contains("less than one quad"), "{err}");
    let turned = r#"{"ops": [{"tool": "paste", "from": [[0, 0], [9, 9]], "points": [[0, 0]], "rotate": 45}]}"#;
    assert!(ops::parse(turned).unwrap_err().contains("rotate must be"));
}
