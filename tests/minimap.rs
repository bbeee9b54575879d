//! `loam minimap`: the tiles' pictures as the client's files, decoded here by the `wow-blp`
//! crate's own parser (not loam's BLP reader), compared with the terrain they show, redrawn
//! only where the map changed, and named in a table that keeps the client's other maps.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::text;
use wow_mpq::ArchiveBuilder;

/// Decodes a BLP with wow-blp's parser and converter: (width, height, RGBA).
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let blp = wow_blp::parser::load_blp_from_buf(bytes).expect("wow-blp parses it");
    let image = wow_blp::convert::blp_to_image(&blp, 0).expect("wow-blp converts it");
    let rgba = image.to_rgba8();
    (rgba.width(), rgba.height(), rgba.into_raw())
}

/// The table's lines (key, file) of map `map`, read by hand.
fn lines_of(table: &str, map: &str) -> Vec<(String, String)> {
    table
        .split("\r\n")
        .filter_map(|l| l.split_once('\t'))
        .filter(|(k, _)| k.starts_with(&format!("{map}\\")))
        .map(|(k, f)| (k.to_string(), f.to_string()))
        .collect()
}

fn minimap(args: &[&str]) -> String {
    let mut all = vec!["minimap"];
    all.extend(args);
    text(&common::loam_ok(&all))
}

/// Writes the 2×2 picture of the sample's four tiles as one PNG for a person to look at.
fn stitch(tiles: &[((u8, u8), Vec<u8>)], png: &Path) {
    let side = 512;
    let mut rgba = vec![0u8; side * side * 4];
    for ((x, y), px) in tiles {
        let (ox, oy) = ((*x as usize - 31) * 256, (*y as usize - 31) * 256);
        for row in 0..256 {
            let at = ((oy + row) * side + ox) * 4;
            rgba[at..at + 256 * 4].copy_from_slice(&px[row * 256 * 4..(row + 1) * 256 * 4]);
        }
    }
    fs::create_dir_all(png.parent().unwrap()).unwrap();
    let file = fs::File::create(png).unwrap();
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), side as u32, side as u32);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap().write_image_data(&rgba).unwrap();
}

#[test]
fn the_sample_minimap_is_client_blps_of_the_terrain_from_above() {
    let dir = tempfile::tempdir().unwrap();
    let map = common::sample_in(dir.path().join("map"));
    let out = dir.path().join("out");
    minimap(&[
        map.join("Sample.wdt").to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    let folder = out.join("textures/Minimap");
    let table = fs::read_to_string(folder.join("md5translate.trs")).unwrap();
    assert!(table.starts_with("dir: Sample\r\n"), "{table:?}");
    assert!(table.ends_with("\r\n"));
    let lines = lines_of(&table, "Sample");
    let keys: Vec<&str> = lines.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "Sample\\map31_31.blp",
            "Sample\\map31_32.blp",
            "Sample\\map32_31.blp",
            "Sample\\map32_32.blp"
        ]
    );
    let opened = loam::pipeline::open_map(&map.join("Sample.wdt")).unwrap();
    let mut tiles = Vec::new();
    for (key, file) in &lines {
        let bytes = fs::read(folder.join(file)).unwrap();
        // BLP2, DXT compression (2), alpha depth 0, no mipmaps, 256×256.
        assert_eq!(&bytes[..4], b"BLP2");
        assert_eq!((bytes[8], bytes[9], bytes[11]), (2, 0, 0), "{key}");
        assert_eq!(&bytes[12..20], &[0, 1, 0, 0, 0, 1, 0, 0]);
        // Named by the MD5 of its bytes.
        assert_eq!(file, &loam::minimap::names::hashed_name(&bytes));
        let (w, h, rgba) = decode(&bytes);
        assert_eq!((w, h), (256, 256));
        let xy: Vec<u8> = key
            .trim_start_matches("Sample\\map")
            .trim_end_matches(".blp")
            .split('_')
            .map(|n| n.parse().unwrap())
            .collect();
        let tile = &opened.map.tiles
            [&loam::model::TileCoord::new(xy[0] as usize, xy[1] as usize).unwrap()];
        // A hole is black; the ground around it is not.
        let (hole_chunk, _) = tile
            .chunks
            .iter()
            .enumerate()
            .find(|(_, c)| c.holes != 0)
            .map(|(i, c)| (i, c.holes))
            .unwrap_or((usize::MAX, 0));
        if hole_chunk != usize::MAX {
            let c = &tile.chunks[hole_chunk];
            let bit = c.holes.trailing_zeros() as usize;
            let (row, col) = (bit / 4, bit % 4);
            let px = (hole_chunk % 16) * 16 + col * 4 + 2;
            let py = (hole_chunk / 16) * 16 + row * 4 + 2;
            let at = (py * 256 + px) * 4;
            assert!(
                rgba[at..at + 3].iter().all(|&v| v < 8),
                "{key}: hole at {px},{py}"
            );
        }
        // The picture is the terrain drawn from above: loam's drawing of the tile, to within
        // DXT1's error (a mean difference of a few levels).
        let mut textures = loam::minimap::new_cache();
        let source = loam::assets::client::AssetSource::new(None, Some(map.clone()));
        loam::minimap::load_textures(
            tile.textures.iter().map(String::as_str),
            &source,
            &mut textures,
        );
        let want = loam::minimap::raster::draw_tile(tile, &textures, 256);
        let diff: u64 = want
            .chunks(4)
            .zip(rgba.chunks(4))
            .map(|(a, b)| {
                (0..3)
                    .map(|k| (a[k] as i64 - b[k] as i64).unsigned_abs())
                    .sum::<u64>()
            })
            .sum();
        let mean = diff as f64 / (256.0 * 256.0 * 3.0);
        assert!(mean < 6.0, "{key}: mean difference {mean}");
        // Not one flat colour: hills, valley and textures show.
        let distinct: std::collections::BTreeSet<&[u8]> = rgba.chunks(4).collect();
        assert!(distinct.len() > 200, "{key}: {} colours", distinct.len());
        tiles.push(((xy[0], xy[1]), rgba));
    }
    stitch(
        &tiles,
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/render-tests/minimap-sample.png"),
    );
}

#[test]
fn only_changed_tiles_are_drawn_again_and_their_old_files_go() {
    let dir = tempfile::tempdir().unwrap();
    let map = common::sample_in(dir.path().join("map"));
    let out = dir.path().join("out");
    let wdt = map.join("Sample.wdt");
    let said = minimap(&[wdt.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(said.contains("4 tile(s) drawn, 0 unchanged"), "{said}");
    let folder = out.join("textures/Minimap");
    let before = lines_of(
        &fs::read_to_string(folder.join("md5translate.trs")).unwrap(),
        "Sample",
    );
    let said = minimap(&[wdt.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(said.contains("0 tile(s) drawn, 4 unchanged"), "{said}");
    // Raise a hill in tile 32_32 only (world -300, -300 is inside it, far from its borders),
    // saved over the map (its textures stay beside it).
    let ops = dir.path().join("ops.json");
    fs::write(
        &ops,
        r#"{"ops": [{"tool": "raise", "points": [[-300, -300]], "radius": 60, "strength": 80}]}"#,
    )
    .unwrap();
    let edited = map.clone();
    common::apply_335(&wdt, &ops, &edited);
    let said = minimap(&[
        edited.join("Sample.wdt").to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(said.contains("1 tile(s) drawn, 3 unchanged"), "{said}");
    let after = lines_of(
        &fs::read_to_string(folder.join("md5translate.trs")).unwrap(),
        "Sample",
    );
    let changed: Vec<&str> = before
        .iter()
        .zip(&after)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a.0.as_str())
        .collect();
    assert_eq!(changed, ["Sample\\map32_32.blp"]);
    // The old picture of 32_32 is gone; every file the table names is there.
    let old_file = &before
        .iter()
        .find(|(k, _)| k == "Sample\\map32_32.blp")
        .unwrap()
        .1;
    assert!(!folder.join(old_file).exists());
    for (_, f) in &after {
        assert!(folder.join(f).is_file());
    }
}

#[test]
fn the_table_keeps_the_clients_other_maps_and_the_alpha_gets_its_txt() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("Game");
    let data = game.join("Data");
    fs::create_dir_all(&data).unwrap();
    for n in ["dbc.MPQ", "terrain.MPQ", "texture.MPQ"] {
        ArchiveBuilder::new()
            .add_file_data(b"x".to_vec(), "x.txt")
            .build(data.join(n))
            .unwrap();
    }
    let theirs = "dir: Azeroth\r\nAzeroth\\map32_48.blp\tf16354735dad4e22e175a398a01992ba.blp\r\n";
    ArchiveBuilder::new()
        .add_file_data(
            theirs.as_bytes().to_vec(),
            "textures\\Minimap\\md5translate.trs",
        )
        .build(data.join("patch.MPQ"))
        .unwrap();
    let map = common::sample_in(dir.path().join("map"));
    let out = dir.path().join("out");
    let v112 = dir.path().join("v112");
    common::loam_ok(&[
        "convert",
        "--to",
        "1.12",
        map.join("Sample.wdt").to_str().unwrap(),
        v112.to_str().unwrap(),
    ]);
    minimap(&[
        v112.join("Sample.wdt").to_str().unwrap(),
        out.to_str().unwrap(),
        "--client",
        game.to_str().unwrap(),
    ]);
    let table = fs::read_to_string(out.join("textures/Minimap/md5translate.trs")).unwrap();
    assert!(table.starts_with(theirs), "{table}");
    assert_eq!(lines_of(&table, "Sample").len(), 4);

    // 0.5.3: md5translate.txt, and both key forms where y is below 10.
    let alpha = dir.path().join("alpha");
    common::loam_new("Old", "0.5.3", "3 8 3 9", &[], &alpha);
    let aout = dir.path().join("aout");
    minimap(&[
        alpha.join("Old.wdt").to_str().unwrap(),
        aout.to_str().unwrap(),
    ]);
    let table = fs::read_to_string(aout.join("textures/Minimap/md5translate.txt")).unwrap();
    let keys: Vec<String> = lines_of(&table, "Old")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        keys,
        [
            "Old\\map3_08.blp",
            "Old\\map3_09.blp",
            "Old\\map3_8.blp",
            "Old\\map3_9.blp"
        ]
    );
}

/// PSNR (dB) and largest error of `decoded` against `drawn`, over RGB.
fn psnr(drawn: &[u8], decoded: &[u8]) -> (f64, i32) {
    let (mut squares, mut largest) = (0.0, 0);
    for (a, b) in drawn.chunks(4).zip(decoded.chunks(4)) {
        for c in 0..3 {
            let d = i32::from(a[c]) - i32::from(b[c]);
            squares += f64::from(d * d);
            largest = largest.max(d.abs());
        }
    }
    let mse = squares / (drawn.len() / 4 * 3) as f64;
    (10.0 * (255.0 * 255.0 / mse).log10(), largest)
}

#[test]
fn a_minimap_tile_keeps_cluster_fits_largest_error_and_comes_near_its_quality() {
    // The sample's tile 31_31 drawn with its own textures, encoded as loam writes minimaps
    // (range fit, blocks left far off fitted again by clusters) and, for comparison, by
    // texpresso's cluster fit and range fit everywhere; all decoded by wow-blp's parser.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/sample");
    let bytes = fs::read(dir.join("Sample_31_31.adt")).unwrap();
    let tile = loam::format::v18::read_adt(
        &bytes,
        loam::model::TileCoord::new(31, 31),
        loam::format::v18::sniff_alpha_depth(&bytes),
    )
    .unwrap();
    let source = loam::assets::client::AssetSource::new(None, Some(dir));
    let mut textures = loam::minimap::new_cache();
    loam::minimap::load_textures(
        tile.textures.iter().map(String::as_str),
        &source,
        &mut textures,
    );
    let side = loam::minimap::TILE_PIXELS;
    let rgba = loam::minimap::raster::draw_tile(&tile, &textures, side);
    let image = loam::assets::blp::Image {
        width: side,
        height: side,
        rgba: rgba.clone(),
    };
    let (w, h, ours) = decode(&loam::assets::blp::encode_dxt1(&image).unwrap());
    assert_eq!((w, h), (side as u32, side as u32));
    let everywhere = |algorithm| {
        let pixels = image::RgbaImage::from_raw(side as u32, side as u32, rgba.clone()).unwrap();
        let blp = wow_blp::convert::image_to_blp(
            image::DynamicImage::ImageRgba8(pixels),
            false,
            wow_blp::convert::BlpTarget::Blp2(wow_blp::convert::Blp2Format::Dxt1 {
                has_alpha: false,
                compress_algorithm: algorithm,
            }),
            image::imageops::FilterType::Triangle,
        )
        .unwrap();
        decode(&wow_blp::encode::encode_blp(&blp).unwrap()).2
    };
    let ours = psnr(&rgba, &ours);
    let cluster = psnr(
        &rgba,
        &everywhere(wow_blp::convert::DxtAlgorithm::ClusterFit),
    );
    let range = psnr(&rgba, &everywhere(wow_blp::convert::DxtAlgorithm::RangeFit));
    assert!(
        ours.1 <= cluster.1,
        "largest error {ours:?}, cluster fit {cluster:?}"
    );
    assert!(
        ours.0 > range.0 + 0.3 && ours.0 >= cluster.0 - 2.5,
        "PSNR: ours {ours:?}, cluster fit {cluster:?}, range fit {range:?}"
    );
}
