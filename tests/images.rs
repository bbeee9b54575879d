//! Terrain as images (issue 30): heightmaps in Noggit Red's layout written by another program
//! (the `png` crate here, not loam's writer) imported through `loam apply`, and read back with
//! the `wow-adt` crate; `loam export-images` then import giving every height back within half a
//! 16-bit step and the alpha maps and vertex colours exactly; a map-wide image over a 2×2 block
//! leaving no seam; one image into one tile of the bundled sample leaving no seam at all,
//! not even float noise.

mod common;

use std::fs;
use std::path::Path;

use common::text;

/// Writes `values` (row by row) as a 16-bit PNG of `channels` (1 grey, 3 RGB) with the `png`
/// crate, each value repeated in every channel.
fn png16(path: &Path, width: usize, values: &[u16], channels: usize) {
    let file = fs::File::create(path).unwrap();
    let mut e = png::Encoder::new(file, width as u32, (values.len() / width) as u32);
    e.set_depth(png::BitDepth::Sixteen);
    e.set_color(if channels == 1 {
        png::ColorType::Grayscale
    } else {
        png::ColorType::Rgb
    });
    let mut w = e.write_header().unwrap();
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|v| std::iter::repeat_n(v.to_be_bytes(), channels).flatten())
        .collect();
    w.write_image_data(&bytes).unwrap();
}

/// Every chunk of the ADT at `path` as wow-adt reads it: (chunk x, chunk y, 145 absolute
/// heights in MCVT order).
fn adt_heights(path: &Path) -> Vec<(usize, usize, Vec<f32>)> {
    let root = common::root_adt(path);
    root.mcnk_chunks
        .iter()
        .map(|m| {
            let h = common::absolute_heights(m);
            (m.header.index_x as usize, m.header.index_y as usize, h)
        })
        .collect()
}

/// The pixel of a 257×257 tile image that holds vertex `index` of chunk (`cx`, `cy`).
fn pixel_of(cx: usize, cy: usize, index: usize) -> (usize, usize) {
    let (row, rem) = (index / 17, index % 17);
    if rem < 9 {
        (cx * 16 + rem * 2, cy * 16 + row * 2)
    } else {
        (cx * 16 + (rem - 9) * 2 + 1, cy * 16 + row * 2 + 1)
    }
}

fn apply(map: &Path, ops: &Path, out: &Path) -> String {
    common::apply_335(map, ops, out)
}

#[test]
fn a_16_bit_png_from_another_program_lands_on_every_vertex() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new");
    common::loam_new("Isle", "3.3.5", "30 30 30 30", &[], &new);
    // Distinct values everywhere; the mixed pixels (never read) hold nonsense.
    let mut values = vec![0u16; 257 * 257];
    for j in 0..257 {
        for i in 0..257 {
            values[j * 257 + i] = if i % 2 == j % 2 {
                ((i * 977 + j * 131) % 65536) as u16
            } else {
                65535 - (i as u16)
            };
        }
    }
    let (min, max) = (-250.5f64, 1733.25f64);
    for (channels, name) in [(1, "grey"), (3, "rgb")] {
        let image = dir.path().join(format!("Isle_30_30_{name}.png"));
        png16(&image, 257, &values, channels);
        let ops = dir.path().join(format!("{name}.json"));
        fs::write(
            &ops,
            format!(
                r#"{{"ops": [{{"tool": "import_heightmap", "image": "{}", "tile": [30, 30], "min": {min}, "max": {max}}}]}}"#,
                image.file_name().unwrap().to_string_lossy()
            ),
        )
        .unwrap();
        let out = dir.path().join(format!("out-{name}"));
        let said = apply(&new.join("Isle.wdt"), &ops, &out);
        assert!(said.contains("Import heightmap, 256 chunks"), "{said}");
        let chunks = adt_heights(&out.join("Isle_30_30.adt"));
        assert_eq!(chunks.len(), 256);
        for (cx, cy, heights) in chunks {
            for (index, got) in heights.into_iter().enumerate() {
                let (px, py) = pixel_of(cx, cy, index);
                let want = min + f64::from(values[py * 257 + px]) / 65535.0 * (max - min);
                let tolerance = want.abs().max(1.0) * 4.0 * f64::from(f32::EPSILON);
                assert!(
                    (f64::from(got) - want).abs() <= tolerance,
                    "{name}: chunk {cx},{cy} vertex {index}: {got} vs {want}"
                );
            }
        }
    }
}

#[test]
fn export_then_import_gives_heights_within_half_a_step_and_alpha_and_colours_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::sample_in(dir.path().join("sample"));
    // A shaded stroke first, so that vertex colours are not all neutral.
    let shade = dir.path().join("shade.json");
    fs::write(
        &shade,
        r#"{"ops": [{"tool": "shade", "points": [[0, 0], [60, 90]], "radius": 50, "color": [200, 40, 90]}]}"#,
    )
    .unwrap();
    let orig = dir.path().join("orig");
    apply(&sample.join("Sample.wdt"), &shade, &orig);
    let images = dir.path().join("images");
    common::loam_ok(&[
        "export-images",
        orig.join("Sample.wdt").to_str().unwrap(),
        images.to_str().unwrap(),
    ]);
    let range: serde_json::Value =
        serde_json::from_slice(&fs::read(images.join("Sample_heights.json")).unwrap()).unwrap();
    let (min, max) = (
        range["min"].as_f64().unwrap(),
        range["max"].as_f64().unwrap(),
    );
    // Every image back, through the operations a user would write (no range: the recorded one).
    let mut ops = Vec::new();
    for e in fs::read_dir(&images).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let Some(rest) = name
            .strip_prefix("Sample_")
            .filter(|_| name.ends_with(".png"))
        else {
            continue;
        };
        let mut parts = rest.splitn(3, '_');
        let (x, y, kind) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        let tile = format!("[{x}, {y}]");
        ops.push(match kind {
            "height.png" => {
                format!(r#"{{"tool": "import_heightmap", "image": "{name}", "tile": {tile}}}"#)
            }
            "vcol.png" => {
                format!(r#"{{"tool": "import_colours", "image": "{name}", "tile": {tile}}}"#)
            }
            texture => {
                // tileset-loam-sample-rock10.blp.png → Tileset\Loam\Sample\Rock10.blp (any case).
                let t = texture.trim_end_matches(".png").replace('-', "\\\\");
                format!(
                    r#"{{"tool": "import_alpha", "image": "{name}", "tile": {tile}, "texture": "{t}"}}"#
                )
            }
        });
    }
    assert_eq!(ops.len(), 4 * 6, "height, vcol and four textures a tile");
    let ops_file = images.join("ops.json");
    fs::write(&ops_file, format!(r#"{{"ops": [{}]}}"#, ops.join(",\n"))).unwrap();
    let back = dir.path().join("back");
    apply(&orig.join("Sample.wdt"), &ops_file, &back);

    let half_step = (max - min) / 65535.0 / 2.0;
    let mut compared = 0;
    for tile in ["31_31", "31_32", "32_31", "32_32"] {
        let file = format!("Sample_{tile}.adt");
        let read = |dir: &Path| common::root_adt(&dir.join(&file));
        let (a, b) = (read(&orig), read(&back));
        for (ca, cb) in a.mcnk_chunks.iter().zip(&b.mcnk_chunks) {
            let ha = ca
                .heights
                .as_ref()
                .unwrap()
                .heights
                .iter()
                .map(|r| ca.header.position[2] + r);
            let hb = cb
                .heights
                .as_ref()
                .unwrap()
                .heights
                .iter()
                .map(|r| cb.header.position[2] + r);
            for (x, y) in ha.zip(hb) {
                let d = f64::from((x - y).abs());
                assert!(d <= half_step + 1e-4, "{file}: {x} came back as {y}");
                compared += 1;
            }
            assert_eq!(
                ca.alpha.as_ref().map(|m| &m.data),
                cb.alpha.as_ref().map(|m| &m.data),
                "{file}: alpha maps"
            );
            assert_eq!(
                format!("{:?}", ca.vertex_colors),
                format!("{:?}", cb.vertex_colors),
                "{file}: vertex colours"
            );
        }
    }
    assert_eq!(compared, 4 * 256 * 145);
    let shaded = fs::read(orig.join("Sample_32_32.adt")).unwrap();
    assert!(
        shaded.windows(4).any(|w| w == b"VCCM"),
        "the shade stroke wrote MCCV, so the colours compared are not all neutral"
    );
}

#[test]
fn a_map_wide_image_over_a_2x2_block_leaves_no_seam_and_meets_its_neighbours() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new");
    // A 3×3 map: the image covers the south-east 2×2; the others keep their ground and meet it.
    common::loam_new("Wide", "3.3.5", "29 29 31 31", &["--height", "20"], &new);
    let (w, h) = (301usize, 211usize);
    let mut values = vec![0u16; w * h];
    for y in 0..h {
        for x in 0..w {
            let (fx, fy) = (x as f64 / (w - 1) as f64, y as f64 / (h - 1) as f64);
            let bump = (-((fx - 0.4).powi(2) + (fy - 0.6).powi(2)) * 12.0).exp();
            values[y * w + x] = ((0.3 * fx + 0.2 * fy + 0.5 * bump) * 65535.0) as u16;
        }
    }
    let image = dir.path().join("island.png");
    png16(&image, w, &values, 1);
    let ops = dir.path().join("ops.json");
    fs::write(
        &ops,
        r#"{"ops": [{"tool": "import_heightmap", "image": "island.png", "tiles": [[31, 31], [30, 30]], "min": 0, "max": 400}]}"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let said = apply(&new.join("Wide.wdt"), &ops, &out);
    assert!(said.contains("Import heightmap"), "{said}");
    let o = common::loam_ok(&["check", out.join("Wide.wdt").to_str().unwrap()]);
    assert!(text(&o).contains("no problems"), "{}", text(&o));
    // The image's corners sit on the block's corner vertices.
    let corner = |tile: &str, cx, cy, index| {
        adt_heights(&out.join(format!("Wide_{tile}.adt")))
            .into_iter()
            .find(|(x, y, _)| (*x, *y) == (cx, cy))
            .unwrap()
            .2[index]
    };
    let nw = f64::from(values[0]) / 65535.0 * 400.0;
    let se = f64::from(values[w * h - 1]) / 65535.0 * 400.0;
    assert!((f64::from(corner("30_30", 0, 0, 0)) - nw).abs() < 1e-3);
    assert!((f64::from(corner("31_31", 15, 15, 144)) - se).abs() < 1e-3);
    // The neighbour outside shares the block's west edge and keeps its own ground beyond.
    let west = adt_heights(&out.join("Wide_29_30.adt"));
    let (_, _, edge) = west.iter().find(|(x, y, _)| (*x, *y) == (15, 0)).unwrap();
    assert!((f64::from(edge[8]) - nw).abs() < 1e-3, "the shared vertex");
    assert_eq!(edge[0], 20.0, "one step west: untouched");
}

#[test]
fn a_heightmap_imported_into_one_sample_tile_leaves_no_seam_at_all() {
    // The sample's chunks keep their heights over bases of their own (each chunk's lowest
    // height), so one imported height written to two chunks must still read back alike.
    let dir = tempfile::tempdir().unwrap();
    let sample = common::sample_in(dir.path().join("sample"));
    let mut values = vec![0u16; 257 * 257];
    for y in 0..257 {
        for x in 0..257 {
            let (fx, fy) = (x as f64 / 256.0, y as f64 / 256.0);
            let ridge = (fx * 7.3).sin() * (fy * 5.1).cos();
            values[y * 257 + x] = ((0.5 + 0.45 * ridge) * 65535.0) as u16;
        }
    }
    png16(&dir.path().join("ridge.png"), 257, &values, 1);
    let ops = dir.path().join("ops.json");
    fs::write(
        &ops,
        r#"{"ops": [{"tool": "import_heightmap", "image": "ridge.png", "tile": [32, 32], "min": -13.7, "max": 187.3}]}"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let said = apply(&sample.join("Sample.wdt"), &ops, &out);
    assert!(said.contains("Import heightmap, "), "{said}");
    let o = common::loam_ok(&[
        "check",
        "--seam-threshold",
        "0",
        out.join("Sample.wdt").to_str().unwrap(),
    ]);
    assert!(!text(&o).contains("seam"), "no seam at all:\n{}", text(&o));
    // And the image did land: the tile's north-west corner is the first pixel's height.
    let nw = adt_heights(&out.join("Sample_32_32.adt"))
        .into_iter()
        .find(|(x, y, _)| (*x, *y) == (0, 0))
        .unwrap()
        .2[0];
    let want = -13.7 + f64::from(values[0]) / 65535.0 * (187.3 + 13.7);
    assert!((f64::from(nw) - want).abs() < 1e-3, "{nw} vs {want}");
}

#[test]
fn a_stamp_shapes_a_raise_turned_and_scaled_with_the_brush() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new");
    common::loam_new("Flat", "3.3.5", "30 30 30 30", &[], &new);
    // The bundled ridge runs north–south; turned 90° it runs east–west.
    let ridge = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("resources/sample/stamps/ridge.png");
    let c = loam::model::TileCoord::new(30, 30).unwrap();
    let [n, w] = c.north_west();
    let (x, y) = (n - 266.0, w - 266.0);
    let ops = dir.path().join("ops.json");
    fs::write(
        &ops,
        format!(
            r#"{{"ops": [
                {{"tool": "raise", "points": [[{x}, {y}]], "radius": 80, "strength": 10, "stamp": "{r}"}},
                {{"tool": "raise", "points": [[{x}, {y2}]], "radius": 40, "strength": 10, "stamp": "{r}", "rotation": 90}}
            ]}}"#,
            r = ridge.display(),
            y2 = y - 150.0
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    apply(&new.join("Flat.wdt"), &ops, &out);
    let opened = loam::pipeline::open_map(&out.join("Flat.wdt")).unwrap();
    let h = |x: f64, y: f64| loam::edit::lattice::height_at(&opened.map, x, y).unwrap();
    // World x is north, y west. The first ridge: high along its north–south line, nothing
    // 60 yd east or west of it, nothing past its north end.
    assert!(h(x, y) > 8.0, "on the crest: {}", h(x, y));
    assert!(h(x + 50.0, y) > 4.0, "along it, north: {}", h(x + 50.0, y));
    assert!(h(x, y + 60.0) < 0.5, "west of it: {}", h(x, y + 60.0));
    assert!(h(x, y - 60.0) < 0.5, "east of it: {}", h(x, y - 60.0));
    assert!(h(x + 85.0, y) < 0.01, "past the square: {}", h(x + 85.0, y));
    // The second, turned a quarter and half the size: along east–west, not north–south.
    let y2 = y - 150.0;
    assert!(
        h(x, y2 - 20.0) > 3.0,
        "along the turned ridge: {}",
        h(x, y2 - 20.0)
    );
    assert!(h(x + 30.0, y2) < 0.5, "across it: {}", h(x + 30.0, y2));
}

#[test]
fn a_float_tiff_export_comes_back_without_quantisation() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::sample_in(dir.path().join("sample"));
    let images = dir.path().join("images");
    common::loam_ok(&[
        "export-images",
        "--heights",
        "--float",
        sample.join("Sample.wdt").to_str().unwrap(),
        images.to_str().unwrap(),
    ]);
    assert!(images.join("Sample_31_31_height.tif").is_file());
    assert!(!images.join("Sample_31_31_height.png").exists());
    let ops = images.join("ops.json");
    fs::write(
        &ops,
        r#"{"ops": [{"tool": "import_heightmap", "image": "Sample_31_31_height.tif", "tile": [31, 31]}]}"#,
    )
    .unwrap();
    let back = dir.path().join("back");
    apply(&sample.join("Sample.wdt"), &ops, &back);
    let (a, b) = (
        adt_heights(&sample.join("Sample_31_31.adt")),
        adt_heights(&back.join("Sample_31_31.adt")),
    );
    let mut worst = 0f32;
    for ((_, _, ha), (_, _, hb)) in a.iter().zip(&b) {
        for (x, y) in ha.iter().zip(hb) {
            worst = worst.max((x - y).abs());
        }
    }
    // f32 rounding only: far below a 16-bit step over the sample's ~166 yd (2.5 mm).
    assert!(worst < 1e-4, "worst difference {worst} yd");
}
