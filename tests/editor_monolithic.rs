//! A 0.5.x monolithic WDT in the editor: opening reads its header only, tiles stream in by
//! offset, and Save writes exactly what the old whole-file save wrote (every other tile copied
//! from the file), never losing a tile it could not read.

mod common;

use std::path::{Path, PathBuf};

use common::assert_same_bytes;
use loam::convert;
use loam::doc::session::Session;
use loam::format::{Generation, alpha};
use loam::model::TileCoord;
use loam::pipeline;

/// The bundled sample written as a 0.5.3 monolithic WDT into `dir`; returns its path.
fn alpha_sample(dir: &Path) -> PathBuf {
    let mut map = loam::sample::sample_map();
    convert::prepare_map(&mut map, Generation::V335, Generation::Alpha053);
    let path = dir.join("Sample.wdt");
    std::fs::write(&path, alpha::write_wdt(&map)).unwrap();
    path
}

fn tile(x: usize, y: usize) -> TileCoord {
    TileCoord::new(x, y).unwrap()
}

/// Raises one vertex of `t`, the same way in any map.
fn edit(map: &mut loam::model::Map, t: TileCoord) {
    map.tiles.get_mut(&t).unwrap().chunks[5].heights[40] += 7.5;
}

#[test]
fn opening_reads_no_tile_and_tiles_stream_in_as_the_whole_read_has_them() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = alpha_sample(dir.path());
    let whole = pipeline::open_map(&wdt).unwrap().map;

    let mut s = Session::open(&wdt).unwrap();
    assert_eq!(s.generation, Generation::Alpha053);
    assert!(s.map.tiles.is_empty(), "opening decodes no tile");
    assert_eq!(s.on_disk.len(), 4);
    assert_eq!(s.tile_path(tile(31, 31)), wdt);

    s.load_now(&[tile(32, 31)]);
    assert_eq!(s.map.tiles.len(), 1);
    assert_eq!(s.map.tiles[&tile(32, 31)], whole.tiles[&tile(32, 31)]);
    s.load_all();
    assert_eq!(s.map.tiles, whole.tiles);
    assert_eq!(
        s.map.map_wide_names, whole.map_wide_names,
        "the name lists and every tile's view of them, as the whole read has them"
    );
}

#[test]
fn opening_does_not_touch_the_tiles_so_damaged_blocks_fail_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = alpha_sample(dir.path());
    let h = pipeline::source::read_monolithic_header(&wdt, "Sample").unwrap();
    let mut bytes = std::fs::read(&wdt).unwrap();
    // Every tile block's MHDR destroyed: a reader that decoded tiles at open would fail.
    for &(_, at) in &h.tiles {
        bytes[at..at + 8].fill(0xEE);
    }
    std::fs::write(&wdt, &bytes).unwrap();

    let mut s = Session::open(&wdt).expect("the header alone opens");
    assert_eq!(s.on_disk.len(), 4);
    s.load_all();
    assert!(s.map.tiles.is_empty());
    assert_eq!(s.failed.len(), 4);
    let why = &s.failed[&tile(31, 31)];
    assert!(why.contains("Sample.wdt"), "{why}");
}

#[test]
fn save_writes_what_the_whole_file_save_wrote_and_unloaded_tiles_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = alpha_sample(dir.path());
    // What saving the whole map in memory writes: the old editor's save.
    let mut whole = pipeline::open_map(&wdt).unwrap().map;
    edit(&mut whole, tile(31, 32));
    let expected = alpha::write_wdt(&whole);

    let mut s = Session::open(&wdt).unwrap();
    assert_eq!(
        s.save().unwrap().files,
        0,
        "nothing edited, nothing written"
    );
    s.load_now(&[tile(31, 32)]);
    edit(&mut s.map, tile(31, 32));
    s.mark_edited(tile(31, 32));
    assert_eq!(s.save().unwrap().files, 1);
    assert!(s.edited.is_empty());
    assert_same_bytes("saved WDT", &expected, &std::fs::read(&wdt).unwrap());

    // The blocks moved; tiles not in memory are read from where they are now.
    assert!(s.unload(tile(31, 32)));
    s.load_all();
    assert!(s.failed.is_empty(), "{:?}", s.failed);
    assert_eq!(s.map.tiles, whole.tiles);

    // A second edit and save, on the file the first save wrote.
    edit(&mut s.map, tile(32, 32));
    s.mark_edited(tile(32, 32));
    s.save().unwrap();
    edit(&mut whole, tile(32, 32));
    assert_same_bytes(
        "second save",
        &alpha::write_wdt(&whole),
        &std::fs::read(&wdt).unwrap(),
    );
}

#[test]
fn a_tile_that_cannot_be_read_stops_the_save_and_the_file_stays_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = alpha_sample(dir.path());
    let h = pipeline::source::read_monolithic_header(&wdt, "Sample").unwrap();
    let mut bytes = std::fs::read(&wdt).unwrap();
    let bad = h.tiles.iter().find(|t| t.0 == tile(32, 31)).unwrap().1;
    bytes[bad..bad + 8].fill(0xEE);
    std::fs::write(&wdt, &bytes).unwrap();

    let mut s = Session::open(&wdt).unwrap();
    s.load_now(&[tile(31, 31)]);
    edit(&mut s.map, tile(31, 31));
    s.mark_edited(tile(31, 31));
    let err = s
        .save()
        .expect_err("saving over the file would drop tile 32_31");
    assert!(err.to_string().contains("Sample.wdt"), "{err}");
    assert_same_bytes("untouched", &bytes, &std::fs::read(&wdt).unwrap());
    assert!(s.edited.contains(&tile(31, 31)), "the edit stays unsaved");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "no temp file left: {leftovers:?}");

    // Save as writes every other tile elsewhere and says what it left out.
    let out = dir.path().join("out");
    let summary = s.save_as(&out, Generation::V335).unwrap();
    assert_eq!(summary.files, 4, "WDT and three tiles");
    assert!(
        summary.report.to_string().contains("could not be read"),
        "{}",
        summary.report
    );
}

#[test]
fn save_as_streams_every_tile_edited_or_not_in_every_direction() {
    let dir = tempfile::tempdir().unwrap();
    let wdt = alpha_sample(dir.path());
    for to in [Generation::Alpha053, Generation::V112, Generation::V335] {
        // Expected: the whole map converted in memory, with the edit.
        let mut whole = pipeline::open_map(&wdt).unwrap().map;
        edit(&mut whole, tile(32, 32));
        convert::prepare_map(&mut whole, Generation::Alpha053, to);
        let expected = pipeline::encode_map(&whole, to, true, None).unwrap();

        let mut s = Session::open(&wdt).unwrap();
        s.load_now(&[tile(32, 32)]);
        edit(&mut s.map, tile(32, 32));
        s.mark_edited(tile(32, 32));
        let out = dir.path().join(to.label());
        s.save_as(&out, to).unwrap();
        for f in &expected {
            assert_same_bytes(
                &format!("{to}: {}", f.name),
                &f.bytes,
                &std::fs::read(out.join(&f.name)).unwrap(),
            );
        }
        // The session goes on on the written map with the same tiles in memory.
        assert_eq!(s.generation, to);
        assert_eq!(s.source, out.join("Sample.wdt"));
        assert_eq!(s.map.tiles.len(), 1);
        assert!(s.edited.is_empty());
        assert_eq!(s.on_disk.len(), 4);
    }
}
