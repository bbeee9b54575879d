//! The streaming whole-map conversion (`pipeline::stream`, what `loam convert` runs) writes exactly
//! the bytes the in-memory conversion (open everything, prepare, encode) writes, in every
//! direction, from split maps and from a monolithic 0.5.3 WDT read a tile at a time.

mod common;

use std::path::Path;

use common::{assert_same_files, assert_same_folders};
use loam::convert;
use loam::disk;
use loam::format::Generation;
use loam::pipeline;

/// The in-memory conversion of the map at `src`.
fn in_memory(src: &Path, from: Option<Generation>, to: Generation, dst: &Path) {
    let mut opened = pipeline::open_map_as(src, from).unwrap();
    convert::prepare_map(&mut opened.map, opened.generation, to);
    let files = pipeline::encode_map(&opened.map, to, true, None).unwrap();
    disk::write_files(dst, &files, |_| {}).unwrap();
}

fn streamed(src: &Path, from: Option<Generation>, to: Generation, dst: &Path) {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let c = pipeline::stream::convert_map(src, from, to, &Default::default(), dst, &|_, _| {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    assert!(c.failed.is_empty(), "{:?}", c.failed);
    assert_eq!(done.into_inner(), 4, "progress once per tile");
}

/// `wdt` converted to every generation, in memory into `dir/mem-{to}` and streamed into
/// `dir/str-{to}`, gives the same files both ways.
fn assert_streams_as_in_memory(what: &str, wdt: &Path, dir: &Path) {
    for to in Generation::ALL {
        let (a, b) = (dir.join(format!("mem-{to}")), dir.join(format!("str-{to}")));
        in_memory(wdt, None, to, &a);
        streamed(wdt, None, to, &b);
        assert_same_folders(&format!("{what} → {to}"), &a, &b);
    }
}

/// The sample written into `dir/src` and converted in memory to 0.5.3 into `dir/alpha`; returns
/// that WDT.
fn alpha_sample(dir: &Path) -> std::path::PathBuf {
    let src = common::sample_in(dir.join("src"));
    let alpha = dir.join("alpha");
    in_memory(&src.join("Sample.wdt"), None, Generation::Alpha053, &alpha);
    alpha.join("Sample.wdt")
}

#[test]
fn streaming_a_split_map_writes_what_the_in_memory_conversion_writes() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::sample_in(dir.path().join("src"));
    // The sample's textures folder is not part of the map.
    std::fs::remove_dir_all(src.join("Tileset")).ok();
    let wdt = src.join("Sample.wdt");
    assert_streams_as_in_memory("sample", &wdt, dir.path());
}

#[test]
fn streaming_a_monolithic_map_reads_it_a_tile_at_a_time_and_matches() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = alpha_sample(dir.path());
    assert_streams_as_in_memory("0.5.3", &wdt, dir.path());
    // 0.5.3 → 0.5.3 streamed is the file itself.
    assert_same_files(
        "0.5.3 re-save",
        &wdt,
        &dir.path().join("str-0.5.3/Sample.wdt"),
    );
}

#[test]
fn a_bad_tile_in_a_monolithic_map_is_left_out_and_the_rest_converts() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = alpha_sample(dir.path());
    // Break one MCNK tag of the last tile block (its MCIN still points at it).
    let mut bytes = std::fs::read(&wdt).unwrap();
    let mcnks: Vec<usize> = bytes
        .windows(4)
        .enumerate()
        .filter(|(_, w)| *w == b"KNCM")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(mcnks.len(), 4 * 256);
    let at = mcnks[3 * 256 + 100];
    bytes[at..at + 4].copy_from_slice(b"XXXX");
    std::fs::write(&wdt, &bytes).unwrap();

    let out = dir.path().join("out");
    let c = pipeline::stream::convert_map(
        &wdt,
        None,
        Generation::V335,
        &Default::default(),
        &out,
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(c.failed.len(), 1, "{:?}", c.failed);
    assert!(c.failed.values().next().unwrap().contains("Sample.wdt"));
    assert_eq!(
        common::folder_files(&out).len(),
        4,
        "the WDT and three tiles"
    );
}
