//! The `loam` binary end to end: info, check and convert on the corpus.

mod common;

use std::process::Command;

use common::*;

#[test]
fn convert_to_the_same_version_reproduces_every_corpus_adt() {
    for rel in ADTS {
        let src = corpus_file(rel);
        let out = tempfile::tempdir().unwrap();
        let o = loam_on(&["convert", "--to", "3.3.5"], &src, out.path());
        assert!(o.status.success(), "{rel}: {}", text(&o));
        let name = src.file_name().unwrap();
        // Northrend is 3.3.5; Azeroth_38_46 reads as 1.12-compatible and still must not change.
        let written = std::fs::read(out.path().join(name)).unwrap();
        assert_same_bytes(rel, &std::fs::read(&src).unwrap(), &written);
    }
}

#[test]
fn convert_of_a_wdt_writes_the_wdt_and_its_tiles_unchanged() {
    let src = corpus_file("blizzardry/Azeroth.wdt");
    let out = tempfile::tempdir().unwrap();
    let o = loam_on(&["convert", "--to", "3.3.5"], &src, out.path());
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("Azeroth_35_20.adt is missing") && text(&o).contains("and 681 more"),
        "missing tiles are reported: {}",
        text(&o)
    );
    assert_same_files("Azeroth.wdt", &src, &out.path().join("Azeroth.wdt"));
    assert_same_files(
        "Azeroth_38_46.adt",
        &corpus_file("blizzardry/Azeroth_38_46.adt"),
        &out.path().join("Azeroth_38_46.adt"),
    );
    let written: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    // The WDT, the tile and the WDL convert writes beside them; no temporary files.
    assert_eq!(written.len(), 3, "no temp files left behind: {written:?}");
    assert!(out.path().join("Azeroth.wdl").is_file());

    let pvp = corpus_file("wowserhq-format/map/pvpzone.wdt");
    let o = loam_on(&["convert", "--to", "3.3.5"], &pvp, out.path());
    assert!(o.status.success(), "{}", text(&o));
    assert_same_files("pvpzone.wdt", &pvp, &out.path().join("pvpzone.wdt"));
}

#[test]
fn info_reports_the_facts_of_continent4229() {
    let src = corpus_file("wowserhq-format/map/continent4229.adt");
    let o = loam(&["info", src.to_str().unwrap()]);
    assert!(o.status.success());
    let t = text(&o);
    for fact in [
        "generation 3.3.5",
        "tile 42_29",
        "textures: 16",
        "Tileset\\PlagueLandsEast\\EastPlaguedBaseDirt.blp",
        "doodads: 381 placements of 67 models",
        "WMOs: 19 placements of 11 models",
        "liquid: 9 chunks (9 ocean (MH2O))",
        "holes: 1",
    ] {
        assert!(t.contains(fact), "missing {fact:?} in:\n{t}");
    }
    let o = loam(&["info", "--json", src.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["tiles"][0]["doodads"], 381);
    assert_eq!(v["tiles"][0]["wmos"], 19);
    assert_eq!(v["tiles"][0]["textures"].as_array().unwrap().len(), 16);
    assert_eq!(v["generation"], "3.3.5");
}

#[test]
fn check_passes_good_files_and_fails_broken_ones_with_location() {
    let good = corpus_file("warcraft-net/ADT/Northrend_37_25.adt");
    common::loam_ok(&["check", good.to_str().unwrap()]);

    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(&good).unwrap();
    bytes.truncate(200_000);
    let broken = dir.path().join("Northrend_37_25.adt");
    std::fs::write(&broken, &bytes).unwrap();
    let o = loam(&["check", broken.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("Northrend_37_25.adt") && t.contains("chunk MCNK") && t.contains("byte"),
        "{t}"
    );
}

#[test]
fn convert_to_vanilla_drops_what_1_12_cannot_hold_and_says_so() {
    let src = corpus_file("warcraft-net/ADT/Northrend_37_25.adt");
    let out = tempfile::tempdir().unwrap();
    let o = loam_on(&["convert", "--to", "1.12"], &src, out.path());
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("vertex colours (MCCV) dropped"), "{t}");
    assert!(t.contains("MH2O layers rewritten as MCLQ"), "{t}");
    assert!(t.contains("8-bit alpha rounded to 4-bit"), "{t}");
    let written = out.path().join("Northrend_37_25.adt");
    common::loam_ok(&["check", written.to_str().unwrap()]);
    let o = loam(&["info", "--json", written.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["generation"], "1.12");
    assert_eq!(v["tiles"][0]["vertex_color_chunks"], 0);
    assert_eq!(v["tiles"][0]["liquid_chunks"], 17);
}

#[test]
fn unknown_target_and_bad_paths_are_clear_errors() {
    let o = loam(&["convert", "--to", "2.4", "a.adt", "out"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("unknown generation"), "{}", text(&o));
    let o = loam(&["info", "/nonexistent/x.adt"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("/nonexistent/x.adt"), "{}", text(&o));
}

/// Runs `loam ARGS` with its output into a pipe, reads the first line and closes the pipe, as
/// `loam ARGS | head -n 1` does; returns that line, the exit status and what went to stderr.
fn first_line_then_close(args: &[&str]) -> (String, std::process::ExitStatus, String) {
    use std::io::{BufRead, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("loam runs");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the pipe closes with most of the output unread.
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (first, child.wait().unwrap(), err)
}

/// What a command ended by a closed pipe must look like: one line read, no panic, the status a
/// shell gives a program that SIGPIPE ended.
fn assert_ended_quietly(
    what: &str,
    (first, status, err): (String, std::process::ExitStatus, String),
) {
    assert!(!first.trim().is_empty(), "{what}: no first line");
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert_eq!(status.code(), Some(141), "{what}: {status}; {err}");
}

#[test]
fn check_whose_reader_stops_after_one_line_ends_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    loam::sample::write_sample(dir.path()).unwrap();
    let wdt = dir.path().join("Sample.wdt");
    // Every chunk lifted by its own amount: a seam on every chunk border, each one listed.
    let mut opened = loam::pipeline::open_map(&wdt).unwrap();
    for tile in opened.map.tiles.values_mut() {
        for (i, chunk) in tile.chunks.iter_mut().enumerate() {
            chunk.heights.iter_mut().for_each(|h| *h += 0.5 + i as f32);
        }
    }
    let files = loam::pipeline::encode_map(&opened.map, opened.generation, true, None).unwrap();
    loam::disk::write_files(dir.path(), &files, |_| {}).unwrap();
    let all = loam(&["check", wdt.to_str().unwrap()]);
    assert!(
        all.stdout.len() > 1 << 17,
        "the test needs more output than a pipe holds: {} bytes",
        all.stdout.len()
    );
    assert_ended_quietly(
        "check",
        first_line_then_close(&["check", wdt.to_str().unwrap()]),
    );
}

#[test]
fn client_whose_reader_stops_after_one_line_ends_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    std::fs::create_dir_all(&data).unwrap();
    let mut builder = wow_mpq::ArchiveBuilder::new();
    for i in 0..4000 {
        builder = builder.add_file_data(
            vec![i as u8],
            &format!("World\\Maps\\Pipe\\Tileset\\texture_number_{i:05}.blp"),
        );
    }
    builder.build(data.join("common.MPQ")).unwrap();
    let args = ["client", dir.path().to_str().unwrap(), "--find", "*.blp"];
    let all = loam(&args);
    assert!(all.stdout.len() > 1 << 17, "{} bytes", all.stdout.len());
    assert_ended_quietly("client --find", first_line_then_close(&args));
}
