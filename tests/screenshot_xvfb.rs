//! End to end: the real window under Xvfb, `loam screenshot` on the sample and on a corpus tile,
//! and the PNG checked (size, terrain drawn in the 3D view). Needs `xvfb-run` and Mesa's GL (see
//! `packaging/setup --tests`). The PNGs stay in `target/xvfb-tests/` for a person to look at.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../xvfb-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `loam screenshot ARGS` under Xvfb.
fn screenshot(args: &[&str]) {
    let out = run_screenshot(args);
    assert!(
        out.status.success(),
        "loam screenshot failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn run_screenshot(args: &[&str]) -> std::process::Output {
    run_screenshot_in(args, &[])
}

/// Runs `loam screenshot ARGS` under Xvfb with these environment variables set.
fn run_screenshot_in(args: &[&str], env: &[(&str, &Path)]) -> std::process::Output {
    Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_loam"))
        .arg("screenshot")
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("xvfb-run is missing: install them with `bash packaging/setup --tests`")
}

#[test]
fn a_map_that_does_not_open_fails_the_screenshot() {
    let dir = out_dir();
    let png = dir.join("nothing.png");
    let _ = std::fs::remove_file(&png);
    let out = run_screenshot(&["/nonexistent/Nowhere.wdt", png.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not open"));
    assert!(!png.exists());
}

/// Decodes an RGBA PNG: (width, height, pixels).
fn read_png(path: &Path) -> (usize, usize, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width as usize, info.height as usize, buf)
}

/// True when `p` is a colour of the default noon sky: on the dome's run from the sky-top band
/// down through the middle bands to the horizon and the fog colour (`render::sky`), within 6
/// per channel.
fn is_sky(p: [i32; 3]) -> bool {
    use loam::doc::light::{DayTime, ZoneLights};
    let light = ZoneLights::default_day().at([0.0; 3], DayTime::NOON, false);
    let mut bands: Vec<[f32; 3]> = light.sky.to_vec();
    bands.push(light.fog);
    let bands: Vec<[f32; 3]> = bands.iter().map(|c| c.map(|v| v * 255.0)).collect();
    bands.windows(2).any(|w| {
        (0..=32).any(|k| {
            let t = k as f32 / 32.0;
            (0..3).all(|c| (w[0][c] * (1.0 - t) + w[1][c] * t - p[c] as f32).abs() <= 6.0)
        })
    })
}

/// Share of the 3D view (right of the side panel, between menu and status bar) that is not sky.
fn terrain_share(w: usize, h: usize, px: &[u8]) -> f64 {
    let (mut n, mut terrain) = (0usize, 0usize);
    for y in (h / 10..h * 9 / 10).step_by(4) {
        for x in (w * 3 / 10..w).step_by(4) {
            let i = (y * w + x) * 4;
            n += 1;
            if !is_sky([0, 1, 2].map(|c| px[i + c] as i32)) {
                terrain += 1;
            }
        }
    }
    terrain as f64 / n as f64
}

#[test]
fn the_window_screenshots_the_sample_and_a_corpus_tile() {
    let dir = out_dir();
    let sample = dir.join("sample.png");
    screenshot(&[sample.to_str().unwrap(), "--size", "960x600"]);
    let (w, h, px) = read_png(&sample);
    assert_eq!((w, h), (960, 600));
    let share = terrain_share(w, h, &px);
    assert!(share > 0.4, "the sample covers {share:.2} of the view");

    let corpus = common::corpus().join("wowserhq-format/map/continent4229.adt");
    let tile = dir.join("continent4229.png");
    screenshot(&[
        corpus.to_str().unwrap(),
        tile.to_str().unwrap(),
        "--size",
        "960x600",
        "--tile",
        "42",
        "29",
    ]);
    let (w, h, px) = read_png(&tile);
    assert_eq!((w, h), (960, 600));
    let share = terrain_share(w, h, &px);
    assert!(share > 0.3, "the corpus tile covers {share:.2} of the view");
}

/// Mean absolute difference per channel between two screenshots' 3D views.
fn view_difference(a: &(usize, usize, Vec<u8>), b: &(usize, usize, Vec<u8>)) -> f64 {
    assert_eq!((a.0, a.1), (b.0, b.1));
    let (w, h) = (a.0, a.1);
    let (mut sum, mut n) = (0u64, 0u64);
    for y in (h / 10..h * 9 / 10).step_by(2) {
        for x in (w * 3 / 10..w * 8 / 10).step_by(2) {
            let i = (y * w + x) * 4;
            for c in 0..3 {
                sum += (a.2[i + c] as i32 - b.2[i + c] as i32).unsigned_abs() as u64;
                n += 1;
            }
        }
    }
    sum as f64 / n as f64
}

#[test]
fn the_sample_is_textured_from_a_client_archive_written_by_stormlib() {
    let dir = out_dir();
    let scratch = tempfile::tempdir().unwrap();
    // The reference: the sample with its textures loose beside it.
    let loose = scratch.path().join("loose");
    loam::sample::write_sample(&loose).unwrap();
    // The same map without them, and a 3.3.5 client whose common.MPQ (written by StormLib's
    // smpq, not by the crate loam reads with) holds them.
    let bare = scratch.path().join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    for f in loam::sample::sample_files().unwrap() {
        std::fs::write(bare.join(&f.name), &f.bytes).unwrap();
    }
    let stage = scratch.path().join("stage");
    let mut names = Vec::new();
    // The sample's models too, so that the archive view equals the loose one object for object.
    for t in loam::sample::texture_files()
        .into_iter()
        .chain(loam::sample::model_files())
    {
        let p = stage.join(&t.name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, &t.bytes).unwrap();
        names.push(t.name);
    }
    let client = scratch.path().join("WoW");
    std::fs::create_dir_all(client.join("Data")).unwrap();
    let status = Command::new("smpq")
        .current_dir(&stage)
        .args(["-c", "-q", "-f"])
        .arg(client.join("Data").join("common.MPQ"))
        .args(&names)
        .status()
        .expect(
            "smpq is missing: install it with `bash packaging/setup --tests` (Debian package smpq)",
        );
    assert!(status.success());

    let shot = |name: &str, map: &Path, client: Option<&Path>| {
        let png = dir.join(name);
        let mut args = vec![
            map.join("Sample.wdt").to_str().unwrap().to_string(),
            png.to_str().unwrap().to_string(),
            "--size".into(),
            "960x600".into(),
        ];
        if let Some(c) = client {
            args.extend(["--client".into(), c.to_str().unwrap().to_string()]);
        }
        screenshot(&args.iter().map(String::as_str).collect::<Vec<_>>());
        read_png(&png)
    };
    let reference = shot("client-reference.png", &loose, None);
    let stand_ins = shot("client-none.png", &bare, None);
    let from_archive = shot("client-archive.png", &bare, Some(&client));
    let off = view_difference(&reference, &stand_ins);
    let on = view_difference(&reference, &from_archive);
    assert!(
        off > 8.0,
        "without the textures the view shows stand-ins (difference {off:.1})"
    );
    assert!(
        on < 1.0,
        "from the archive the view is the loose-texture view (difference {on:.2}, stand-ins {off:.1})"
    );

    // The asset browser over the same archive: its thumbnails are those textures, decoded off
    // the UI thread; without the client the same rows show grey "missing" squares.
    let browse = |name: &str, client: Option<&Path>| {
        let png = dir.join(name);
        let mut args = vec![
            bare.join("Sample.wdt").to_str().unwrap().to_string(),
            png.to_str().unwrap().to_string(),
            "--browse".into(),
            "tileset".into(),
        ];
        if let Some(c) = client {
            args.extend(["--client".into(), c.to_str().unwrap().to_string()]);
        }
        screenshot(&args.iter().map(String::as_str).collect::<Vec<_>>());
        coloured_share(&read_png(&png), 260)
    };
    let with = browse("asset-browser.png", Some(&client));
    let without = browse("asset-browser-no-client.png", None);
    // Both show the same tabs and rows (the selected tab is tinted); five 36-pixel
    // thumbnails add about 3% of the panel's pixels.
    assert!(
        with - without > 0.02,
        "thumbnails colour the panel: {with:.3} with the client, {without:.3} without"
    );
}

/// The share of clearly coloured (not grey) pixels in the leftmost `width` columns.
fn coloured_share((w, h, px): &(usize, usize, Vec<u8>), width: usize) -> f64 {
    let mut n = 0;
    for y in 0..*h {
        for x in 0..width.min(*w) {
            let p = &px[(y * w + x) * 4..][..3];
            let (lo, hi) = (p.iter().min().unwrap(), p.iter().max().unwrap());
            if hi - lo > 30 {
                n += 1;
            }
        }
    }
    n as f64 / (width.min(*w) * h) as f64
}

/// Share of the 3D view's pixels (sampled) that differ by more than 40 in some channel.
fn changed_share(a: &(usize, usize, Vec<u8>), b: &(usize, usize, Vec<u8>)) -> f64 {
    assert_eq!((a.0, a.1), (b.0, b.1));
    let (w, h) = (a.0, a.1);
    let (mut changed, mut n) = (0usize, 0usize);
    for y in (h / 10..h * 9 / 10).step_by(2) {
        for x in (w * 3 / 10..w * 8 / 10).step_by(2) {
            let i = (y * w + x) * 4;
            n += 1;
            if (0..3).any(|c| (a.2[i + c] as i32 - b.2[i + c] as i32).abs() > 40) {
                changed += 1;
            }
        }
    }
    changed as f64 / n as f64
}

#[test]
fn the_sample_shows_its_own_models_standing_on_the_terrain() {
    let dir = out_dir();
    // Close to the tower, looking across the grove (docs/images/sample-objects.png).
    let view = ["--view", "280", "130", "90", "130", "50", "30"];
    let shot = |name: &str, extra: &[&str]| {
        let png = dir.join(name);
        let mut args = vec![png.to_str().unwrap(), "--size", "960x600"];
        args.extend(view);
        args.extend(extra);
        screenshot(&args);
        read_png(&png)
    };
    let with = shot("sample-objects.png", &[]);
    let without = shot("sample-no-objects.png", &["--no-objects"]);
    let share = changed_share(&with, &without);
    assert!(
        share > 0.015,
        "the trees, boulders and tower change {share:.3} of the view"
    );
    // Every model was found: no magenta placeholder anywhere in the view.
    let (w, h, px) = &with;
    let magenta = (0..w * h)
        .filter(|i| {
            let p = &px[i * 4..i * 4 + 3];
            p[0] as i32 > p[1] as i32 + 60 && p[2] as i32 > p[1] as i32 + 60
        })
        .count();
    assert!(magenta < 20, "{magenta} magenta (placeholder) pixels");
}

/// Share of the window's pixels that differ between two screenshots of the same size.
fn pixels_differing(a: &(usize, usize, Vec<u8>), b: &(usize, usize, Vec<u8>)) -> f64 {
    assert_eq!((a.0, a.1), (b.0, b.1));
    let differ =
        a.2.chunks_exact(4)
            .zip(b.2.chunks_exact(4))
            .filter(|(p, q)| p[..3] != q[..3])
            .count();
    differ as f64 / (a.0 * a.1) as f64
}

#[test]
fn placeholders_mark_missing_models_without_covering_the_terrain() {
    // The corpus tile with 381 doodads and 19 WMOs, no client: every model is missing.
    let dir = out_dir();
    let corpus = common::corpus().join("wowserhq-format/map/continent4229.adt");
    let with = dir.join("continent4229-placeholders.png");
    let without = dir.join("continent4229-no-objects.png");
    for (png, extra) in [(&with, None), (&without, Some("--no-objects"))] {
        let mut args = vec![
            corpus.to_str().unwrap(),
            png.to_str().unwrap(),
            "--size",
            "1280x800",
        ];
        args.extend(extra);
        screenshot(&args);
    }
    let share = pixels_differing(&read_png(&with), &read_png(&without));
    // Filled boxes made it 12.5% here, and 45% on a 25-tile map of users'.
    assert!(
        share <= 0.12,
        "placeholders change {:.1}% of the window",
        share * 100.0
    );
    assert!(share > 0.002, "the placeholders are drawn: {share}");
}

/// Pixels of exactly `rgb` inside the 3D view of a 1280×800 window (between the side panels,
/// below the menu, above the status bar).
fn in_view_of_colour((w, _, px): &(usize, usize, Vec<u8>), rgb: [u8; 3]) -> usize {
    px.chunks_exact(4)
        .enumerate()
        .filter(|(i, p)| {
            let (x, y) = (i % w, i / w);
            (300..1000).contains(&x) && (40..760).contains(&y) && p[..3] == rgb
        })
        .count()
}

/// Share of the pixels inside the 3D view that differ between two screenshots.
fn view_pixels_differing(a: &(usize, usize, Vec<u8>), b: &(usize, usize, Vec<u8>)) -> f64 {
    assert_eq!((a.0, a.1), (b.0, b.1));
    let w = a.0;
    let (mut all, mut differ) = (0, 0);
    for (i, (p, q)) in a.2.chunks_exact(4).zip(b.2.chunks_exact(4)).enumerate() {
        let (x, y) = (i % w, i / w);
        if (300..1000).contains(&x) && (40..760).contains(&y) {
            all += 1;
            differ += usize::from(p[..3] != q[..3]);
        }
    }
    differ as f64 / all as f64
}

#[test]
fn a_staged_road_and_a_box_selection_are_drawn_over_the_view() {
    let dir = out_dir();
    let shot = |name: &str, extra: &[&str], view: &[&str]| {
        let png = dir.join(name);
        let mut args = vec![png.to_str().unwrap().to_string()];
        args.extend(view.iter().chain(extra).map(|s| s.to_string()));
        screenshot(&args.iter().map(String::as_str).collect::<Vec<_>>());
        read_png(&png)
    };
    // Five control points over the north-east hill: each a red dot (`app/toolbox/road_tool.rs`).
    let hill = ["--view", "520", "-600", "240", "170", "-270", "40"];
    let road = shot(
        "road-staged.png",
        &["--road", "-20,-470;110,-420;150,-320;90,-230;170,-150"],
        &hill,
    );
    let plain = shot("road-plain.png", &[], &hill);
    let red = [255, 90, 60];
    assert!(
        in_view_of_colour(&road, red) >= 5 * 20,
        "{} red pixels",
        in_view_of_colour(&road, red)
    );
    assert!(in_view_of_colour(&plain, red) < 5, "no dots without a road");
    assert!(view_pixels_differing(&road, &plain) > 0.005);
    // A 90-yard box of vertices, drawn as points.
    let flank = ["--view", "360", "110", "220", "245", "225", "80"];
    let selected = shot(
        "selection-staged.png",
        &["--select-box", "200", "180", "290", "270"],
        &flank,
    );
    let plain = shot("selection-plain.png", &[], &flank);
    let share = view_pixels_differing(&selected, &plain);
    assert!(
        share > 0.01,
        "the points change {:.2}% of the view",
        share * 100.0
    );
}

/// Copies a folder tree.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

#[test]
fn screenshots_half_a_second_apart_differ_where_things_move() {
    // The sample with its trees replaced by the corpus creature (whose stand sequence moves
    // its bones) and a lake added by the liquid operations: `--anim-time` pins the clock, so
    // the same time draws the same picture and half a second later the view has moved.
    let tmp = tempfile::tempdir().unwrap();
    let map = tmp.path().join("Sample");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/sample"),
        &map,
    );
    let models = map.join("World/Loam/Sample");
    std::fs::copy(
        common::corpus_file("wowserhq-format/model/creature.m2"),
        models.join("Tree01.m2"),
    )
    .unwrap();
    std::fs::remove_file(models.join("Tree0100.skin")).unwrap();
    std::fs::copy(
        common::corpus_file("wowserhq-format/model/creature01.skin"),
        models.join("Tree0101.skin"),
    )
    .unwrap();
    let ops = Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/examples/liquids.json");
    let dir = out_dir();
    let shot = |seconds: &str, name: &str| {
        let png = dir.join(name);
        screenshot(&[
            map.to_str().unwrap(),
            png.to_str().unwrap(),
            "--size",
            "960x600",
            "--apply",
            ops.to_str().unwrap(),
            "--view",
            "60",
            "90",
            "25",
            "10",
            "30",
            "0",
            "--anim-time",
            seconds,
        ]);
        read_png(&png)
    };
    let early = shot("0.2", "anim-0.2s.png");
    let again = shot("0.2", "anim-0.2s-again.png");
    let late = shot("0.7", "anim-0.7s.png");
    assert_eq!(
        view_difference(&early, &again),
        0.0,
        "a pinned time draws alike"
    );
    let moved = view_difference(&early, &late);
    assert!(
        moved > 0.3,
        "half a second later the view moved by only {moved}"
    );
}

/// A screenshot neither draws the panels a user left behind nor leaves its own for the user's
/// next session: eframe keeps egui's memory (panel widths, scroll places) in loam's storage,
/// and the Windows build's picture is compared with the Linux build's (`.ci/windows-smoke`).
#[test]
fn a_screenshot_keeps_no_panels_for_the_next_session() {
    let home = tempfile::tempdir().unwrap();
    let png = out_dir().join("no-memory.png");
    let data = home.path().join("data");
    let env = [
        ("XDG_DATA_HOME", home.path()),
        ("XDG_CONFIG_HOME", home.path()),
        ("LOAM_DATA_DIR", data.as_path()),
    ];
    let out = run_screenshot_in(&[png.to_str().unwrap(), "--size", "800x600"], &env);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stored: Vec<String> = walk(home.path())
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(
        stored.iter().all(|s| !s.contains("\"egui\"")),
        "the screenshot kept egui's memory: {stored:?}"
    );
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
