//! `loam apply` end to end: a tile sculpted, painted, holed and shaded by the example operations
//! and saved as 3.3.5 reopens with the same content, and a second reader (the wow-adt crate)
//! agrees on heights, layers and holes.

mod common;

use std::process::Command;

use common::*;
use loam::assets::client::AssetSource;
use loam::assets::models;
use loam::convert;
use loam::disk;
use loam::edit::objects::NewUids;
use loam::edit::terrain::liquid::LiquidStyle;
use loam::edit::{History, ops};
use loam::format::Generation;
use loam::pipeline;

#[test]
fn the_example_operations_save_reopen_and_agree_with_a_second_reader() {
    let src = corpus_file("wowserhq-format/map/continent4229.adt");
    let ops_file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("resources/examples/sculpt-paint.json");
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_loam"))
        .args([
            "apply",
            src.to_str().unwrap(),
            ops_file.to_str().unwrap(),
            "--to",
            "3.3.5",
            out.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    assert!(
        text.contains("op 0: Raise, ") && text.contains("op 6: Add holes, "),
        "{text}"
    );

    // The same operations in memory, through the library.
    let mut expected = pipeline::open_map(&src).unwrap().map;
    let original = expected.tiles.values().next().unwrap().clone();
    let json = std::fs::read_to_string(&ops_file).unwrap();
    apply_ops(&mut expected, &json, LiquidStyle::Mh2o);
    let want = expected.tiles.values().next().unwrap();
    assert_ne!(
        want.chunks, original.chunks,
        "the operations changed something"
    );
    assert!(
        want.textures
            .iter()
            .any(|t| t.ends_with("ElwynnGrassBase.blp"))
    );
    assert!(want.chunks.iter().any(|c| c.vertex_colors.is_some()));
    assert!(
        want.chunks.iter().filter(|c| c.holes != 0).count()
            > original.chunks.iter().filter(|c| c.holes != 0).count()
    );

    // loam reads back what it wrote.
    let written = out.path().join("continent4229.adt");
    let back = pipeline::open_map(&written).unwrap().map;
    let got = back.tiles.values().next().unwrap();
    assert_eq!(got.textures, want.textures);
    for (i, (a, b)) in want.chunks.iter().zip(&got.chunks).enumerate() {
        assert_eq!(a.heights, b.heights, "chunk {i}");
        assert_eq!(a.holes, b.holes, "chunk {i}");
        assert_eq!(a.vertex_colors, b.vertex_colors, "chunk {i}");
        assert_eq!(
            (a.area_id, a.flags & 0x2),
            (b.area_id, b.flags & 0x2),
            "chunk {i}"
        );
        assert_eq!(a.layers.len(), b.layers.len(), "chunk {i}");
        for (la, lb) in a.layers.iter().zip(&b.layers) {
            assert_eq!(la.texture, lb.texture, "chunk {i}");
            if let (Some(x), Some(y)) = (&la.alpha, &lb.alpha) {
                // The tile stores 4-bit alpha: each texel within half a step.
                assert!(
                    x.texels()
                        .iter()
                        .zip(y.texels().iter())
                        .all(|(p, q)| (*p as i32 - *q as i32).abs() <= 8),
                    "chunk {i}"
                );
            }
        }
    }

    // A second, independent reader agrees.
    let mut f = std::io::BufReader::new(std::fs::File::open(&written).unwrap());
    let wow_adt::ParsedAdt::Root(root) = wow_adt::parse_adt(&mut f).unwrap() else {
        panic!("not a root ADT")
    };
    assert_eq!(root.textures, want.textures);
    assert_eq!(root.mcnk_chunks.len(), 256);
    for (i, (mcnk, c)) in root.mcnk_chunks.iter().zip(&want.chunks).enumerate() {
        assert_eq!(mcnk.header.holes_low_res, c.holes, "chunk {i} holes");
        assert_eq!(
            mcnk.header.position[2], c.base_height,
            "chunk {i} base height (stored last)"
        );
        let rel = &mcnk.heights.as_ref().unwrap().heights;
        for (k, (r, h)) in rel.iter().zip(c.heights.iter()).enumerate() {
            assert_eq!(*r, h - c.base_height, "chunk {i} vertex {k}");
        }
        let layers = &mcnk.layers.as_ref().unwrap().layers;
        assert_eq!(
            layers.iter().map(|l| l.texture_id).collect::<Vec<_>>(),
            c.layers.iter().map(|l| l.texture).collect::<Vec<_>>(),
            "chunk {i}"
        );
    }
}

#[test]
fn object_operations_place_move_turn_scale_and_delete_through_the_binary() {
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/sample");
    let ops_file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/examples/objects.json");
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(["apply"])
        .arg(sample.join("Sample.wdt"))
        .arg(&ops_file)
        .args(["--to", "3.3.5"])
        .arg(out.path())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("op 6: Delete"), "{text}");
    let before = pipeline::open_map(&sample.join("Sample.wdt")).unwrap().map;
    let after = pipeline::open_map(&out.path().join("Sample.wdt"))
        .unwrap()
        .map;
    let records = |map: &loam::model::Map,
                   uid: u32|
     -> Vec<(loam::model::TileCoord, loam::model::DoodadPlacement)> {
        map.tiles
            .values()
            .flat_map(|t| {
                t.doodads
                    .iter()
                    .filter(|d| d.unique_id == uid)
                    .map(move |d| (t.coord, d.clone()))
            })
            .collect()
    };
    assert!(!records(&before, 1001).is_empty());
    assert!(records(&after, 1001).is_empty(), "uid 1001 deleted");

    // The tree: moved, turned and scaled; listed by the tile and chunks its real box overlaps.
    let tree = records(&after, 9000);
    assert_eq!(tree.len(), 1, "one tile holds the tree at (60, 90)");
    let (coord, d) = &tree[0];
    // Records store f32 relative to the map's corner: a few thousandths of a yard off.
    assert!((d.position[0] - 60.0).abs() < 1e-2 && (d.position[1] - 90.0).abs() < 1e-2);
    assert_eq!((d.rotation, d.scale), ([0.0, 120.0, 0.0], 2048));
    // Its box from the M2 header, read by the wow-m2 crate, turned 120° about the up axis and
    // scaled by 2.
    let m2 = std::fs::read(sample.join("World/Loam/Sample/Tree01.m2")).unwrap();
    let parsed = wow_m2::parse_m2(&mut std::io::Cursor::new(m2)).unwrap();
    let h = &parsed.model().header;
    let (lo, hi) = (h.bounding_box_min, h.bounding_box_max);
    let (s, c) = (120f64.to_radians().sin(), 120f64.to_radians().cos());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for (px, py) in [
        (lo[0], lo[1]),
        (lo[0], hi[1]),
        (hi[0], lo[1]),
        (hi[0], hi[1]),
    ] {
        let (px, py) = (2.0 * px as f64, 2.0 * py as f64);
        let (wx, wy) = (60.0 + c * px - s * py, 90.0 + s * px + c * py);
        (x0, x1, y0, y1) = (x0.min(wx), x1.max(wx), y0.min(wy), y1.max(wy));
    }
    let want: std::collections::BTreeSet<usize> = cells_overlapping(x0, x1, y0, y1)
        .into_iter()
        .map(|(t, chunk)| {
            assert_eq!(t, (coord.x, coord.y));
            chunk
        })
        .collect();
    let tile = &after.tiles[coord];
    let index = tile
        .doodads
        .iter()
        .position(|x| x.unique_id == 9000)
        .unwrap() as u32;
    let got: std::collections::BTreeSet<usize> = (0..256)
        .filter(|&i| tile.chunks[i].doodad_refs.contains(&index))
        .collect();
    assert!(want.len() > 1, "the doubled tree spans chunks: {want:?}");
    assert_eq!(got, want, "MCRF follows the model's own box");

    // The boulder got the next uid; the tower is a WMO with its set.
    let top = top_uid(&before);
    assert!(top < 9000);
    assert_eq!(records(&after, 9001).len(), 1);
    let tower: Vec<_> = after
        .tiles
        .values()
        .flat_map(|t| t.wmos.iter().filter(|w| w.unique_id == 9002))
        .collect();
    assert_eq!(tower.len(), 1);
    assert_eq!(tower[0].doodad_set, 1);
    let (bmin, bmax) = (tower[0].bounds_min, tower[0].bounds_max);
    assert!(bmin[0] < -150.0 && bmax[0] > -150.0 && bmin[1] < 200.0 && bmax[1] > 200.0);
    assert!(
        bmax[2] - bmin[2] > 20.0,
        "the tower's own height, not a stand-in box"
    );
}

#[test]
fn new_objects_take_uids_from_the_maps_range_file_until_it_is_used_up() {
    let dir = tempfile::tempdir().unwrap();
    loam::sample::write_sample(dir.path()).unwrap();
    std::fs::write(
        dir.path().join("Sample.loam-uids.json"),
        r#"{"first": 500000, "last": 500001}"#,
    )
    .unwrap();
    let place = |x: f64| {
        format!(
            r#"{{"tool": "place", "model": "World\\Loam\\Sample\\Boulder01.m2", "position": [{x}, 40]}}"#
        )
    };
    let run = |ops: &str| {
        let file = dir.path().join("ops.json");
        std::fs::write(&file, ops).unwrap();
        let out = dir.path().join("out");
        let o = Command::new(env!("CARGO_BIN_EXE_loam"))
            .args(["apply"])
            .arg(dir.path().join("Sample.wdt"))
            .arg(&file)
            .args(["--to", "3.3.5"])
            .arg(&out)
            .output()
            .unwrap();
        let text =
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
        (o.status.success(), text, out)
    };
    let (ok, text, out) = run(&format!(r#"{{"ops": [{}, {}]}}"#, place(30.0), place(60.0)));
    assert!(ok, "{text}");
    assert!(
        text.contains("uid 500000") && text.contains("uid 500001"),
        "{text}"
    );
    let map = pipeline::open_map(&out.join("Sample.wdt")).unwrap().map;
    let uids: Vec<u32> = map
        .tiles
        .values()
        .flat_map(|t| t.doodads.iter().map(|d| d.unique_id))
        .filter(|u| *u >= 500000)
        .collect();
    assert_eq!(uids, [500000, 500001]);
    // A third in the same two-uid range is refused with the reason.
    let (ok, text, _) = run(&format!(
        r#"{{"ops": [{}, {}, {}]}}"#,
        place(30.0),
        place(60.0),
        place(90.0)
    ));
    assert!(!ok);
    assert!(text.contains("used up"), "{text}");
}

/// The highest uniqueId the map's tiles use.
fn top_uid(map: &loam::model::Map) -> u32 {
    loam::edit::objects::unique_ids(map)
        .into_iter()
        .map(|(_, uid)| uid)
        .max()
        .unwrap()
}

/// Operations over the sample's four tiles: strokes across the borders where they meet (at
/// the world origin), a flatten inside one tile, and the object example's place, move, turn,
/// scale and delete (the tree moves between tiles, the tower spans two).
fn ops_across_the_sample() -> String {
    let objects = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/examples/objects.json"),
    )
    .unwrap();
    let objects: serde_json::Value = serde_json::from_str(&objects).unwrap();
    let mut ops: Vec<serde_json::Value> = serde_json::from_str(
        r#"[
        {"tool": "raise", "points": [[-120, 5], [120, -5]], "radius": 30, "strength": 4},
        {"tool": "smooth", "points": [[0, 0]], "radius": 40, "strength": 0.5},
        {"tool": "paint", "points": [[-40, 20], [40, 20]], "radius": 20, "texture": "Tileset\\Elwynn\\ElwynnGrassBase.blp"},
        {"tool": "hole_add", "points": [[10, 10]], "radius": 6},
        {"tool": "shade", "points": [[0, -30]], "radius": 35, "color": [255, 120, 60]},
        {"tool": "liquid_add", "points": [[-50, 50], [50, 50]], "radius": 25, "height": 5},
        {"tool": "area", "points": [[200, -200]], "radius": 20, "area_id": 12},
        {"tool": "noise", "points": [[-300, -300]], "radius": 30, "strength": 3, "seed": 3},
        {"tool": "flatten", "points": [[266, 266]], "radius": 20, "height": 50}
    ]"#,
    )
    .unwrap();
    ops.extend(objects["ops"].as_array().unwrap().iter().cloned());
    serde_json::json!({ "ops": ops }).to_string()
}

/// What `loam apply` wrote before it streamed: the map opened whole, the operations run on it,
/// every tile prepared and encoded.
fn applied_whole(map: &std::path::Path, ops_text: &str, to: Generation, dst: &std::path::Path) {
    let mut opened = pipeline::open_map(map).unwrap();
    let file = ops::parse(ops_text).unwrap();
    let assets = AssetSource::new(None, Some(map.parent().unwrap().to_path_buf()));
    let fetch = |p: &str| assets.read(p).ok().flatten();
    let model_box = |p: &str| models::placement_box(p, &fetch);
    let mut history = History::default();
    let uids = NewUids::default();
    let no_image = |p: &str| Err(format!("no image {p}"));
    let cx = ops::OpContext {
        model_box: &model_box,
        uids: &uids,
        style: LiquidStyle::of(opened.generation),
        read_image: &no_image,
    };
    for op in &file.ops {
        ops::run(&mut opened.map, op, &mut history, &cx).unwrap();
    }
    convert::prepare_map(&mut opened.map, opened.generation, to);
    let files = pipeline::encode_map(&opened.map, to, true, None).unwrap();
    disk::write_files(dst, &files, |_| {}).unwrap();
}

/// Runs `loam apply MAP OPS --to TO OUT`: success, and stdout with stderr.
fn apply_cmd(
    map: &std::path::Path,
    ops_text: &str,
    to: Generation,
    out: &std::path::Path,
) -> (bool, String) {
    let ops_file = out.with_extension("json");
    std::fs::write(&ops_file, ops_text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_loam"))
        .arg("apply")
        .arg(map)
        .arg(&ops_file)
        .args(["--to", &to.to_string()])
        .arg(out)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    (o.status.success(), text)
}

#[test]
fn applying_tile_by_tile_writes_what_applying_to_the_whole_map_writes() {
    let dir = tempfile::tempdir().unwrap();
    let sample = sample_in(dir.path().join("sample"));
    let mut sources = vec![(Generation::V335, sample.join("Sample.wdt"))];
    // The other generations loam reads tile by tile (0.5.3's monolithic WDT among them).
    for g in [Generation::Alpha053, Generation::V060, Generation::V112] {
        let folder = dir.path().join(format!("src-{g}"));
        pipeline::stream::convert_map(
            &sample.join("Sample.wdt"),
            None,
            g,
            &Default::default(),
            &folder,
            &|_, _| {},
        )
        .unwrap();
        sources.push((g, folder.join("Sample.wdt")));
    }
    let ops_text = ops_across_the_sample();
    for (from, map) in &sources {
        for to in [*from, Generation::V335, Generation::Alpha053] {
            let what = format!("{from} → {to}");
            let whole = dir.path().join(format!("whole-{from}-{to}"));
            let streamed = dir.path().join(format!("streamed-{from}-{to}"));
            applied_whole(map, &ops_text, to, &whole);
            let (ok, text) = apply_cmd(map, &ops_text, to, &streamed);
            assert!(ok, "{what}: {text}");
            assert!(
                text.contains("read 4 of the map's 4 tile(s)"),
                "{what}: the strokes at the origin reach every tile: {text}"
            );
            assert_same_folders(&what, &whole, &streamed);
        }
    }
}

#[test]
fn apply_reads_only_the_tiles_its_operations_reach() {
    let dir = tempfile::tempdir().unwrap();
    let sample = sample_in(dir.path().join("sample"));
    let map = sample.join("Sample.wdt");
    let before = pipeline::open_map(&map).unwrap().map;
    // A stroke in the middle of the north-west tile (31_31): that tile only.
    let raise =
        r#"{"tool": "raise", "points": [[266, 266]], "radius": 20, "strength": 4}"#.to_string();
    let out = dir.path().join("one");
    let (ok, text) = apply_cmd(
        &map,
        &format!(r#"{{"ops": [{raise}]}}"#),
        Generation::V335,
        &out,
    );
    assert!(ok, "{text}");
    assert!(text.contains("read 1 of the map's 4 tile(s)"), "{text}");
    let whole = dir.path().join("one-whole");
    applied_whole(
        &map,
        &format!(r#"{{"ops": [{raise}]}}"#),
        Generation::V335,
        &whole,
    );
    assert_same_folders("one stroke", &whole, &out);

    // A stroke inside that tile whose radius crosses into the tile west of it (y < 0); an
    // object of the south-east tile moved into the north-west one: the tiles each reaches,
    // and what applying to the whole map writes.
    let far_tile_uid =
        before.tiles[&loam::model::TileCoord::new(32, 32).unwrap()].doodads[0].unique_id;
    for (what, op, tiles) in [
        (
            "a stroke over a border",
            r#"{"tool": "raise", "points": [[266, 10]], "radius": 30, "strength": 4}"#.to_string(),
            2,
        ),
        (
            "an object moved between tiles",
            format!(r#"{{"tool": "move", "uid": {far_tile_uid}, "position": [266, 266]}}"#),
            2,
        ),
    ] {
        let ops = format!(r#"{{"ops": [{op}]}}"#);
        let (out, whole) = (
            dir.path().join(what),
            dir.path().join(format!("{what} whole")),
        );
        let (ok, text) = apply_cmd(&map, &ops, Generation::V335, &out);
        assert!(ok, "{what}: {text}");
        assert!(
            text.contains(&format!("read {tiles} of the map's 4 tile(s)")),
            "{what}: {text}"
        );
        applied_whole(&map, &ops, Generation::V335, &whole);
        assert_same_folders(what, &whole, &out);
    }

    // A new object in that tile takes a uid above every uid of the map, those of the tiles
    // left on disk included; one that names a uid another tile holds is refused.
    let top = top_uid(&before);
    let place = |extra: &str| {
        format!(
            r#"{{"ops": [{{"tool": "place", "model": "World\\Loam\\Sample\\Boulder01.m2", "position": [266, 266]{extra}}}]}}"#
        )
    };
    let out = dir.path().join("placed");
    let (ok, text) = apply_cmd(&map, &place(""), Generation::V335, &out);
    assert!(ok, "{text}");
    assert!(text.contains(&format!("(uid {})", top + 1)), "{text}");
    assert!(text.contains("read 1 of the map's 4 tile(s)"), "{text}");
    let (ok, text) = apply_cmd(
        &map,
        &place(&format!(r#", "uid": {far_tile_uid}"#)),
        Generation::V335,
        &dir.path().join("clash"),
    );
    assert!(!ok);
    assert!(
        text.contains(&format!("uid {far_tile_uid} is already used")),
        "{text}"
    );
}

/// Issue 54, item 5: an input error names the operation and the field, and a file of the wrong
/// shape is shown the right one.
#[test]
fn apply_errors_point_at_the_operation_and_field_and_show_the_files_shape() {
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/sample/Sample.wdt");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // A bare list, as people write it first.
    let (ok, said) = apply_cmd(
        &map,
        r#"[{"tool": "raise", "points": [[0, 0]], "radius": 5}]"#,
        Generation::V335,
        &out,
    );
    assert!(!ok, "{said}");
    assert!(
        said.contains(r#"{"ops": [{"tool": ..., ...}, ...]}"#),
        "{said}"
    );
    assert!(said.contains("bare list"), "{said}");
    // A misspelled field in the second operation.
    let (ok, said) = apply_cmd(
        &map,
        r#"{"ops": [
            {"tool": "raise", "points": [[0, 0]], "radius": 5},
            {"tool": "lower", "points": [[0, 0]], "raduis": 5}
        ]}"#,
        Generation::V335,
        &out,
    );
    assert!(!ok, "{said}");
    assert!(
        said.contains(r#"ops[1] (operation 2 of 2, tool "lower")"#),
        "{said}"
    );
    assert!(said.contains("`raduis`"), "{said}");
    // An unknown tool lists the tools there are, brushes and the others.
    let (ok, said) = apply_cmd(
        &map,
        r#"{"ops": [{"tool": "teleport", "points": [[0, 0]], "radius": 5}]}"#,
        Generation::V335,
        &out,
    );
    assert!(!ok, "{said}");
    assert!(
        said.contains("`teleport`") && said.contains("`raise`"),
        "{said}"
    );
    assert!(
        said.contains("scatter") && said.contains("import_heightmap"),
        "{said}"
    );
    // A field that belongs to another tool, in the first operation.
    let (ok, said) = apply_cmd(
        &map,
        r#"{"ops": [{"tool": "raise", "points": [[0, 0]], "radius": 5, "texture": "a.blp"}]}"#,
        Generation::V335,
        &out,
    );
    assert!(!ok, "{said}");
    assert!(
        said.contains(r#"ops[0] (operation 1 of 1, tool "raise")"#),
        "{said}"
    );
    assert!(said.contains("texture"), "{said}");
    assert!(!out.exists(), "nothing written");
}

/// `loam apply … --undo N` (issue 55, item 4): the operations run through the editor's history
/// and the last N steps are undone before writing, so the files are those of the operations
/// before them, byte for byte.
#[test]
fn apply_undo_writes_the_map_as_it_was_before_the_last_steps() {
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/sample/Sample.wdt");
    let dir = tempfile::tempdir().unwrap();
    let raise = r#"{"tool": "raise", "points": [[30, 40]], "radius": 25, "strength": 6}"#;
    let lower = r#"{"tool": "lower", "points": [[110, 150]], "radius": 25, "strength": 6}"#;
    let run = |name: &str, ops: &str, undo: Option<&str>| {
        let out = dir.path().join(name);
        let ops_file = dir.path().join(format!("{name}.json"));
        std::fs::write(&ops_file, ops).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_loam"));
        cmd.arg("apply")
            .arg(&map)
            .arg(&ops_file)
            .args(["--to", "3.3.5"])
            .arg(&out);
        if let Some(n) = undo {
            cmd.args(["--undo", n]);
        }
        let o = cmd.output().unwrap();
        let text =
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
        (o.status.success(), text, out)
    };
    let both = format!(r#"{{"ops": [{raise}, {lower}]}}"#);
    let (ok, said, one_undone) = run("one-undone", &both, Some("1"));
    assert!(ok, "{said}");
    assert!(said.contains("undone: Lower"), "{said}");
    let (ok, said, first_only) = run("first-only", &format!(r#"{{"ops": [{raise}]}}"#), None);
    assert!(ok, "{said}");
    assert_same_folders(
        "--undo 1 against the first operation alone",
        &first_only,
        &one_undone,
    );
    // Both undone: the map as opened (written by the same writer).
    let (ok, said, all_undone) = run("all-undone", &both, Some("2"));
    assert!(ok, "{said}");
    let (ok, said, none) = run("none", r#"{"ops": []}"#, None);
    assert!(ok, "{said}");
    assert_same_folders("--undo 2 against no operation", &none, &all_undone);
    // More than there are steps: an error, nothing written.
    let (ok, said, too_many) = run("too-many", &both, Some("3"));
    assert!(!ok && said.contains("--undo 3"), "{said}");
    assert!(!too_many.exists());
}
