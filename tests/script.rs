//! User brushes in Lua (issue 53): `loam script` runs the shipped examples
//! (resources/scripts) and scripts written here on the bundled sample, and the written files
//! are read back with the `wow-adt` crate, a reader that is not loam's. The terrace example
//! terraces exactly the vertices within its radius and leaves no seam; a placing script puts
//! its objects on the drawn ground at the asked places with fresh uids; the sandbox refuses
//! `os.execute` and `io.open` and nothing is written; a runaway loop stops at the time limit;
//! a syntax error names the file and line; a failed stroke leaves the map and the history as
//! they were.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::ground::{Ground, Key, distance};
use common::text;
use common::written;
use loam::doc::script::host::StrokeContext;
use loam::doc::script::{Limits, Script, StrokeRequest};
use loam::edit::History;
use loam::edit::objects::NewUids;

/// The sample's north-western hill (120 yd high at world (300, 280)).
const PEAK: [f64; 2] = [300.0, 280.0];
/// Just north-west of where the sample's four tiles meet: a brush here covers all four.
const CORNER: [f64; 2] = [10.0, 12.0];

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/scripts")
}

/// A temporary folder with the bundled sample in it, and the sample's WDT.
fn with_sample() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let map = common::sample_in(dir.path().join("sample")).join("Sample.wdt");
    (dir, map)
}

/// `loam script MAP FILE --brush B --points P --radius R [extra…] --to 3.3.5 dir/name`.
fn script(
    map: &Path,
    file: &Path,
    brush: &str,
    points: &[[f64; 2]],
    radius: f64,
    extra: &[&str],
    out: &Path,
) -> std::process::Output {
    let points: Vec<String> = points
        .iter()
        .map(|p| format!("{},{}", p[0], p[1]))
        .collect();
    let radius = radius.to_string();
    let points = points.join(";");
    let mut args = vec![
        "script",
        map.to_str().unwrap(),
        file.to_str().unwrap(),
        "--brush",
        brush,
        "--points",
        &points,
        "--radius",
        &radius,
    ];
    args.extend_from_slice(extra);
    args.extend(["--to", "3.3.5", out.to_str().unwrap()]);
    common::loam(&args)
}

/// As [`script`], which must succeed; what it said.
fn script_ok(
    map: &Path,
    file: &Path,
    brush: &str,
    points: &[[f64; 2]],
    radius: f64,
    extra: &[&str],
    out: &Path,
) -> String {
    let o = script(map, file, brush, points, radius, extra, out);
    assert!(o.status.success(), "loam script {brush}: {}", text(&o));
    text(&o)
}

/// No copy of any vertex differs from another, and `loam check --seam-threshold 0` agrees.
fn assert_no_seam(dir: &Path, ground: &Ground) {
    for (k, hs) in &ground.heights {
        assert!(
            hs.iter().all(|h| h.to_bits() == hs[0].to_bits()),
            "{k:?}: copies {hs:?}"
        );
    }
    let o = common::loam_ok(&[
        "check",
        "--seam-threshold",
        "0",
        dir.join("Sample.wdt").to_str().unwrap(),
    ]);
    assert!(!text(&o).contains("seam"), "{}", text(&o));
}

/// Each vertex of `after` against `before`: `inside(key, z0, z)` for those within `radius`
/// of `centre` (a hundredth of a yard of slack either way is left out), bit for bit the same
/// outside. Returns how many inside changed.
fn compare(
    before: &Ground,
    after: &Ground,
    centre: [f64; 2],
    radius: f64,
    mut inside: impl FnMut(&Key, f32, f32),
) -> usize {
    let mut changed = 0;
    for (k, hs) in &after.heights {
        let (z0, z) = (before.height(k), hs[0]);
        let d = distance(k, centre);
        if d > radius + 0.01 {
            assert_eq!(z.to_bits(), z0.to_bits(), "{k:?} lies outside the brush");
        } else if d < radius - 0.01 {
            inside(k, z0, z);
            changed += usize::from(z != z0);
        }
    }
    changed
}

fn terrace_at(centre: [f64; 2]) {
    let (dir, map) = with_sample();
    let out = dir.path().join("terraced");
    let (radius, step) = (40.0, 8.0f64);
    let said = script_ok(
        &map,
        &examples().join("terrace.lua"),
        "Terrace",
        &[centre],
        radius,
        &["--param", "step=8"],
        &out,
    );
    assert!(said.contains("stroke: Script Terrace, "), "{said}");
    let before = Ground::read(map.parent().unwrap());
    let after = Ground::read(&out);
    let changed = compare(&before, &after, centre, radius, |k, z0, z| {
        let want = (f64::from(z0) / step).floor() * step;
        assert!(
            (f64::from(z) - want).abs() < 1e-3,
            "{k:?}: {z0} became {z}, not {want}"
        );
    });
    assert!(changed > 50, "the brush terraced the ground: {changed}");
    assert_no_seam(&out, &after);
}

#[test]
fn the_terrace_example_terraces_exactly_the_vertices_within_the_radius_on_a_hill() {
    terrace_at(PEAK);
}

#[test]
fn the_terrace_example_terraces_across_four_tiles_with_no_seam() {
    terrace_at(CORNER);
}

#[test]
fn a_placing_script_puts_its_objects_on_the_ground_at_the_asked_places_with_fresh_uids() {
    let (dir, map) = with_sample();
    let file = dir.path().join("place.lua");
    // Three places asked relative to the dab; one with its own height.
    fs::write(
        &file,
        r#"
local b = loam.brush("Three crates", {})
function b.dab(dab, params)
  local a = loam.place{ model = "World\\Crate.m2", x = dab.x + 5, y = dab.y - 7 }
  local c = loam.place{ model = "World\\Crate.m2", x = dab.x - 12.5, y = dab.y + 3, yaw = 90, scale = 2 }
  local d = loam.place{ model = "World\\Crate.m2", x = dab.x, y = dab.y, z = 500 }
  print("uids", a, c, d)
end
"#,
    )
    .unwrap();
    let out = dir.path().join("placed");
    let said = script_ok(&map, &file, "Three crates", &[CORNER], 20.0, &[], &out);
    let before = written::read(map.parent().unwrap());
    let after = written::read(&out);
    let placed: Vec<_> = written::new_doodads(&before, &after).into_iter().collect();
    assert_eq!(placed.len(), 3, "{said}");
    let top = before
        .doodads
        .keys()
        .chain(&before.wmos)
        .copied()
        .max()
        .unwrap_or(0);
    let asked = [
        [CORNER[0] + 5.0, CORNER[1] - 7.0],
        [CORNER[0] - 12.5, CORNER[1] + 3.0],
        [CORNER[0], CORNER[1]],
    ];
    for (i, (uid, d)) in placed.iter().enumerate() {
        assert_eq!(*uid, top + 1 + i as u32, "fresh uids, in order: {said}");
        assert!(
            said.contains(&uid.to_string()),
            "the script printed it: {said}"
        );
        let [x, y] = asked[i];
        assert!(
            (d.at[0] - x).abs() < 0.01 && (d.at[1] - y).abs() < 0.01,
            "{uid} at {:?}, asked ({x}, {y})",
            d.at
        );
        let want = if i == 2 { 500.0 } else { after.ground(x, y).0 };
        assert!(
            (d.at[2] - want).abs() < 0.01,
            "{uid} stands at {}, the ground is at {want}",
            d.at[2]
        );
        assert_eq!(d.model, "World\\Crate.m2");
    }
    assert_eq!(placed[1].1.scale, 2048);
    assert!((placed[1].1.rotation[1] - 90.0).abs() < 1e-4);
}

#[test]
fn the_prop_placer_example_puts_its_count_inside_the_brush_on_the_ground() {
    let (dir, map) = with_sample();
    let out = dir.path().join("props");
    let said = script_ok(
        &map,
        &examples().join("prop_placer.lua"),
        "Prop placer",
        &[PEAK],
        30.0,
        &["--param", "count=7", "--param", "seed=4"],
        &out,
    );
    assert!(said.contains("placed 7 "), "{said}");
    let before = written::read(map.parent().unwrap());
    let after = written::read(&out);
    let placed: Vec<_> = written::new_doodads(&before, &after).into_iter().collect();
    assert_eq!(placed.len(), 7, "{said}");
    for (uid, d) in &placed {
        let r = (d.at[0] - PEAK[0]).hypot(d.at[1] - PEAK[1]);
        assert!(r <= 30.01, "{uid} is {r} yd from the centre");
        let (ground, _) = after.ground(d.at[0], d.at[1]);
        assert!(
            (d.at[2] - ground).abs() < 0.01,
            "{uid}: {} on {ground}",
            d.at[2]
        );
        let s = f64::from(d.scale) / 1024.0;
        assert!((0.79..=1.21).contains(&s), "{uid}: scale {s}");
    }
}

/// A script whose dab runs `body`, written into `dir`.
fn body_script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let file = dir.join(name);
    fs::write(
        &file,
        format!("local b = loam.brush(\"B\", {{}})\nfunction b.dab(dab, params)\n{body}\nend\n"),
    )
    .unwrap();
    file
}

#[test]
fn the_sandbox_refuses_os_execute_and_io_open_and_nothing_is_written() {
    let (dir, map) = with_sample();
    let marker = dir.path().join("marker");
    for (name, body, says) in [
        (
            "os.lua",
            format!("  os.execute('touch {}')", marker.display()),
            "`os.execute` is not allowed",
        ),
        (
            "io.lua",
            format!("  io.open('{}', 'w')", marker.display()),
            "`io.open` is not allowed",
        ),
        (
            "require.lua",
            "  require('os')".to_string(),
            "`require` is not allowed",
        ),
    ] {
        // The refused call comes after the script has already moved the ground.
        let body = format!("  for v in dab:vertices() do v.z = v.z + 10 end\n{body}");
        let file = body_script(dir.path(), name, &body);
        let out = dir.path().join(name.replace(".lua", ""));
        let o = script(&map, &file, "B", &[PEAK], 20.0, &[], &out);
        assert!(!o.status.success(), "{name}: {}", text(&o));
        assert!(text(&o).contains(says), "{name}: {}", text(&o));
        assert!(
            text(&o).contains(&format!("{name}:4:")),
            "{name}: the file and line: {}",
            text(&o)
        );
        assert!(!out.exists(), "{name}: nothing written");
    }
    assert!(!marker.exists(), "the script reached the disk");
}

#[test]
fn a_runaway_loop_stops_at_the_time_limit_and_nothing_is_written() {
    let (dir, map) = with_sample();
    let file = body_script(
        dir.path(),
        "loop.lua",
        "  for v in dab:vertices() do v.z = 0 end\n  while true do end",
    );
    let out = dir.path().join("out");
    let start = Instant::now();
    let o = script(
        &map,
        &file,
        "B",
        &[PEAK],
        20.0,
        &["--time-limit", "1"],
        &out,
    );
    let took = start.elapsed();
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("time limit of 1 s"), "{}", text(&o));
    assert!(text(&o).contains("loop.lua:4:"), "{}", text(&o));
    assert!(took < Duration::from_secs(30), "stopped after {took:?}");
    assert!(!out.exists(), "nothing written");
}

#[test]
fn a_syntax_error_names_the_file_and_line() {
    let (dir, map) = with_sample();
    let file = dir.path().join("broken.lua");
    fs::write(
        &file,
        "local b = loam.brush(\"B\", {})\n\nfunction b.dab(dab, params\n  return 1\nend\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = script(&map, &file, "B", &[PEAK], 20.0, &[], &out);
    assert!(!o.status.success());
    let said = text(&o);
    assert!(said.contains("broken.lua:4:"), "{said}");
    assert!(!out.exists());
}

#[test]
fn a_failed_stroke_leaves_the_map_and_the_history_as_they_were() {
    let mut map = loam::sample::sample_map();
    let original = map.clone();
    let text = r#"
local b = loam.brush("Half", { }) 
local dabs = 0
function b.dab(dab, params)
  dabs = dabs + 1
  for v in dab:vertices() do v.z = v.z + 5; v.color = {255, 0, 0} end
  for _, o in ipairs(dab:objects()) do o:remove() end
  loam.place{ model = "World\\Crate.m2", x = dab.x, y = dab.y }
  if dabs == 3 then error("third dab") end
end
"#;
    let script = Script::from_source(Path::new("half.lua"), text, Limits::default()).unwrap();
    let mut history = History::default();
    let uids = NewUids::default();
    let cx = StrokeContext {
        model_box: &|_| None,
        uids: &uids,
    };
    let request = StrokeRequest {
        brush: "Half".into(),
        points: vec![PEAK, [PEAK[0] - 60.0, PEAK[1]]],
        radius: 20.0,
        inner_radius: None,
        strength: None,
        params: Vec::new(),
    };
    let e = script
        .stroke(&mut map, &request, &cx, &mut history)
        .unwrap_err();
    assert_eq!(e.to_string(), "half.lua:9: third dab");
    assert!(map == original, "the map is as it was");
    assert!(history.is_empty());
    // The same stroke that does not fail is one undo step, and undoing it gives the map back.
    let ok = Script::from_source(
        Path::new("half.lua"),
        &text.replace("dabs == 3", "dabs == -1"),
        Limits::default(),
    )
    .unwrap();
    let done = ok.stroke(&mut map, &request, &cx, &mut history).unwrap();
    assert!(done.result.chunks > 0, "{:?}", done.result);
    assert_eq!(history.len(), 1);
    assert!(map != original);
    history.undo(&mut map);
    assert!(map == original, "undone bit for bit");
}

#[test]
fn the_height_noise_example_moves_only_the_ground_inside_and_a_seed_repeats_it() {
    let (dir, map) = with_sample();
    let run = |name: &str, seed: &str| {
        let out = dir.path().join(name);
        script_ok(
            &map,
            &examples().join("height_noise.lua"),
            "Height noise",
            &[CORNER],
            50.0,
            &["--param", &format!("seed={seed}"), "--param", "amplitude=6"],
            &out,
        );
        out
    };
    let (a, b, c) = (run("a", "7"), run("b", "7"), run("c", "8"));
    let before = Ground::read(map.parent().unwrap());
    let after = Ground::read(&a);
    let moved = compare(&before, &after, CORNER, 50.0, |k, z0, z| {
        assert!((z - z0).abs() <= 6.001, "{k:?}: moved {}", z - z0);
    });
    assert!(moved > 100, "{moved}");
    assert_no_seam(&a, &after);
    common::assert_same_folders("the same seed", &a, &b);
    assert_ne!(common::folder_files(&a), common::folder_files(&c));
}

#[test]
fn the_texture_by_slope_example_paints_the_steep_ground_only() {
    let (dir, map) = with_sample();
    let out = dir.path().join("slope");
    // The sample's own rock: most chunks there already show four textures.
    let rock = "Tileset\\Loam\\Sample\\Rock10.blp";
    let (radius, low, high) = (80.0, 20.0, 30.0);
    let said = script_ok(
        &map,
        &examples().join("texture_by_slope.lua"),
        "Texture by slope",
        &[PEAK],
        radius,
        &[
            "--param",
            &format!("texture={rock}"),
            "--param",
            &format!("min_slope={low}"),
            "--param",
            &format!("full_slope={high}"),
        ],
        &out,
    );
    // Chunks that had four other textures are refused, and said so.
    let refused: Vec<(usize, usize, usize, usize)> = said
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("refused at tile ")?;
            let (tile, rest) = rest.split_once(" chunk ")?;
            let (chunk, _) = rest.split_once(':')?;
            let (tx, ty) = tile.split_once('_')?;
            let (cx, cy) = chunk.split_once(',')?;
            Some((
                tx.parse().ok()?,
                ty.parse().ok()?,
                cx.parse().ok()?,
                cy.parse().ok()?,
            ))
        })
        .collect();
    let before = written::read(map.parent().unwrap());
    let after = written::read(&out);
    let keys = Ground::read(&out);
    let (mut steep, mut flat) = (0, 0);
    for k in keys.heights.keys().filter(|k| !k.2) {
        let [x, y] = common::ground::world(k);
        let d = distance(k, PEAK);
        let (was, w) = (
            before.texture_weight(rock, x, y),
            after.texture_weight(rock, x, y),
        );
        if d > radius + 0.01 {
            assert_eq!(w, was, "{k:?}: rock changed outside the brush");
            continue;
        }
        // The slope a yard around, as the client draws the ground.
        let g = |dx: f64, dy: f64| after.ground(x + dx, y + dy).0;
        let (gx, gy) = (
            (g(1.0, 0.0) - g(-1.0, 0.0)) / 2.0,
            (g(0.0, 1.0) - g(0.0, -1.0)) / 2.0,
        );
        let slope = gx.hypot(gy).atan().to_degrees();
        if slope < low - 1.0 {
            assert_eq!(w, was, "{k:?}: rock changed on a {slope}° slope");
            flat += 1;
        } else if slope > high + 1.0
            && d < radius / 3.0 - 0.01
            && !refused.contains(&written::locate(x, y).0)
        {
            assert!(w > 0.98, "{k:?}: {w} rock on a {slope}° slope");
            steep += 1;
        }
    }
    assert!(
        steep > 10 && flat > 10,
        "steep {steep}, flat {flat}: {said}"
    );
}

#[test]
fn the_clear_model_example_removes_that_model_inside_the_brush_only() {
    let (dir, map) = with_sample();
    let before = written::read(map.parent().unwrap());
    let tree = "World\\Loam\\Sample\\Tree01.m2";
    // Centred on a tree, so that there is one to take.
    let centre = before
        .doodads
        .values()
        .find(|d| d.model == tree)
        .map(|d| [d.at[0], d.at[1]])
        .expect("the sample has trees");
    let radius = 60.0;
    let out = dir.path().join("cleared");
    let said = script_ok(
        &map,
        &examples().join("clear_model.lua"),
        "Clear model",
        &[centre],
        radius,
        &["--param", &format!("model={}", tree.to_lowercase())],
        &out,
    );
    let after = written::read(&out);
    let mut gone = 0;
    for (uid, d) in &before.doodads {
        let inside = (d.at[0] - centre[0]).hypot(d.at[1] - centre[1]) <= radius - 0.01;
        let kept = after.doodads.contains_key(uid);
        if inside && d.model == tree {
            assert!(!kept, "{uid} should be gone: {said}");
            gone += 1;
        } else if !inside || d.model != tree {
            assert!(kept, "{uid} ({}) should stay", d.model);
        }
    }
    assert!(
        gone >= 1 && said.contains(&format!("removed {gone} ")),
        "{said}"
    );
}

#[test]
fn the_image_brush_example_raises_the_ground_by_its_image() {
    let (dir, map) = with_sample();
    let out = dir.path().join("stamped");
    let (radius, height) = (60.0, 10.0);
    script_ok(
        &map,
        &examples().join("image_brush.lua"),
        "Image brush",
        &[CORNER],
        radius,
        &["--param", &format!("height={height}")],
        &out,
    );
    let before = Ground::read(map.parent().unwrap());
    let after = Ground::read(&out);
    let (mut ring, mut centre) = (0, 0);
    compare(&before, &after, CORNER, radius, |k, z0, z| {
        let rise = f64::from(z) - f64::from(z0);
        let d = distance(k, CORNER) / radius;
        // The image: a ring, white at 60 % of the radius, black at the centre and the rim.
        if (d - 0.6).abs() < 0.03 {
            assert!(rise > 0.8 * height, "{k:?}: {rise} on the ring");
            ring += 1;
        } else if d < 0.15 {
            assert!(rise.abs() < 1e-3, "{k:?}: {rise} at the centre");
            centre += 1;
        }
        assert!((-1e-3..=height + 1e-3).contains(&rise), "{k:?}: {rise}");
    });
    assert!(ring > 10 && centre > 3, "ring {ring}, centre {centre}");
    assert_no_seam(&out, &after);
}

#[test]
fn a_vertex_reads_back_what_the_script_wrote_and_keeps_its_place() {
    let mut map = loam::sample::sample_map();
    let uids = NewUids::default();
    let cx = StrokeContext {
        model_box: &|_| None,
        uids: &uids,
    };
    let request = StrokeRequest {
        brush: "B".into(),
        points: vec![PEAK],
        radius: 10.0,
        inner_radius: None,
        strength: None,
        params: Vec::new(),
    };
    let run = |map: &mut loam::model::Map, body: &str| {
        let text = format!(
            "local b = loam.brush(\"B\", {{}})\nfunction b.dab(dab, params)\n{body}\nend\n"
        );
        let script = Script::from_source(Path::new("v.lua"), &text, Limits::default()).unwrap();
        script.stroke(map, &request, &cx, &mut History::default())
    };
    let done = run(
        &mut map,
        r#"  local n = 0
  for v in dab:vertices() do
    local z = v.z
    v.z = z + 1
    assert(v.z == z + 1)
    v.color = {10, 20, 30}
    local c = v.color
    assert(c[1] == 10 and c[2] == 20 and c[3] == 30)
    v:set_alpha("Tileset\\Loam\\Sample\\Rock10.blp", 0.5)
    assert(v:alpha("Tileset\\Loam\\Sample\\Rock10.blp") == 0.5)
    assert(v.weight >= 0 and v.weight <= 1 and v.nothing == nil)
    n = n + 1
  end
  print(n)"#,
    )
    .unwrap();
    let n: usize = done.printed[0].parse().unwrap();
    assert!(n > 10, "{n}");
    let e = run(&mut map, "  for v in dab:vertices() do v.x = 0 end").unwrap_err();
    assert!(e.to_string().contains("v.x cannot be set"), "{e}");
    let e = run(
        &mut map,
        "  for v in dab:vertices() do rawset(v, 'slot', 0); local c = v.color end",
    )
    .unwrap_err();
    assert!(e.to_string().contains("not a vertex of this dab"), "{e}");
}
