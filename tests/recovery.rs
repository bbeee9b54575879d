//! Crash recovery end to end: the real `loam` window (under Xvfb) opens the sample with
//! scripted edits (`--apply`), autosaves them, and is killed with SIGKILL; the map's files are
//! untouched; a new editor (the real app, driven through egui_kittest) offers the recovered
//! map, Restore brings the edits back as unsaved tiles, and Save writes them.

mod common;
mod editor_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use loam::app::LoamApp;
use loam::app::intent::Intent;
use loam::app::recovery::{Recovery, recovery_root};
use loam::model::{Map, TileCoord};
use loam::pipeline::recovery::{MANIFEST, Manifest};

/// A raise stroke inside tile 31_31 of the sample (x north, y west; the sample's four tiles
/// meet at 0, 0).
const OPS: &str = r#"{"ops": [{"tool": "raise", "points": [[100, 100], [180, 140]], "radius": 40, "strength": 30, "falloff": "smooth"}]}"#;

/// Every file of `dir` with its bytes, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    common::folder_files(dir).into_iter().collect()
}

/// The sample with the operations applied through the library, written as 3.3.5 and read
/// back (a height is stored relative to its chunk's base, so a write can move it by an ulp):
/// what the edits should be once on disk.
fn expected(map_wdt: &Path, out: &Path) -> Map {
    let mut map = loam::pipeline::open_map(map_wdt).unwrap().map;
    common::apply_ops(
        &mut map,
        OPS,
        loam::edit::terrain::liquid::LiquidStyle::Mh2o,
    );
    let files =
        loam::pipeline::encode_map(&map, loam::format::Generation::V335, true, None).unwrap();
    loam::disk::write_files(out, &files, |_| {}).unwrap();
    loam::pipeline::open_map(&out.join("Sample.wdt"))
        .unwrap()
        .map
}

/// Waits for a manifest under `root` (the editor's first autosave).
fn wait_for_manifest(root: &Path, child: &mut std::process::Child) -> (PathBuf, Manifest) {
    let start = Instant::now();
    loop {
        if let Some((dir, Ok(m))) = loam::pipeline::recovery::list(root).into_iter().next() {
            return (dir, m);
        }
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            if let Some(e) = child.stderr.as_mut() {
                let _ = e.read_to_string(&mut err);
            }
            panic!("the editor exited ({status}) before autosaving: {err}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "no autosave within 180 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn harness(root: PathBuf, open: PathBuf) -> Harness<'static, LoamApp> {
    editor_support::harness(editor_support::Opening {
        open: Some(open),
        window_frames: true,
        recovery: Some(root),
        ..Default::default()
    })
}

#[test]
fn a_killed_editor_s_edits_are_restored_from_the_recovery_folder_and_saved() {
    let tmp = tempfile::tempdir().unwrap();
    let map_dir = common::sample_in(tmp.path().join("map"));
    let wdt = map_dir.join("Sample.wdt");
    let before = files(&map_dir);
    let ops_file = tmp.path().join("ops.json");
    std::fs::write(&ops_file, OPS).unwrap();
    let data = tmp.path().join("data");

    // The real editor, edits applied as unsaved, autosaving every second.
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_loam"))
        .arg(&wdt)
        .arg("--apply")
        .arg(&ops_file)
        .env("LOAM_DATA_DIR", &data)
        .env("LOAM_AUTOSAVE_SECS", "1")
        // Its settings go here, not into the user's.
        .env("XDG_DATA_HOME", tmp.path().join("xdg"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xvfb-run is missing: install them with `bash packaging/setup --tests`");
    let root = recovery_root(&data);
    let (dir, manifest) = wait_for_manifest(&root, &mut child);
    // SIGKILL the editor itself (xvfb-run's child): no chance to clean up.
    let killed = Command::new("kill")
        .args(["-9", &manifest.pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success(), "kill -9 {}", manifest.pid);
    let status = child.wait().unwrap();
    assert!(!status.success(), "the editor was killed, not closed");

    let t = TileCoord::new(31, 31).unwrap();
    assert_eq!(
        manifest.tiles,
        vec![(31, 31)],
        "the stroke's tile is autosaved"
    );
    assert_eq!(manifest.map, "Sample");
    assert_eq!(manifest.generation, "3.3.5");
    assert!(dir.join(MANIFEST).is_file());
    // The map's own files were never written.
    assert!(files(&map_dir) == before, "the map's files changed");

    // A new editor offers the recovered map; Restore brings the edits back unsaved.
    let want = expected(&wdt, &tmp.path().join("expected"));
    let mut h = harness(root.clone(), wdt.clone());
    h.run();
    h.get_by_label(loam::ui::dialogs::RESTORE_TITLE);
    assert_eq!(h.state().recovery().unwrap().offers.len(), 1);
    h.get_by_label("Restore").click();
    h.run();
    assert!(h.query_by_label(loam::ui::dialogs::RESTORE_TITLE).is_none());
    let s = h.state().session().unwrap();
    assert_eq!(s.edited.iter().copied().collect::<Vec<_>>(), vec![t]);
    assert!(h.state().has_unsaved());
    let restored = &s.map.tiles[&t];
    let restored_chunks = restored.chunks.clone();
    let original = loam::pipeline::open_map(&wdt).unwrap().map.tiles[&t].clone();
    assert_ne!(restored.chunks, original.chunks, "the edits came back");
    // The tile as the killed editor held it, bit for bit: the autosave's tile (which a file
    // cannot make exact) is replaced by the opened tile with the recovered step replayed,
    // since both write the same bytes.
    let mut in_memory = loam::pipeline::open_map(&wdt).unwrap().map;
    common::apply_ops(
        &mut in_memory,
        OPS,
        loam::edit::terrain::liquid::LiquidStyle::Mh2o,
    );
    assert_eq!(restored.chunks.len(), in_memory.tiles[&t].chunks.len());
    // Compared chunk by chunk: a whole tile's Debug text is too long to read.
    for (i, (a, b)) in restored
        .chunks
        .iter()
        .zip(&in_memory.tiles[&t].chunks)
        .enumerate()
    {
        assert!(a == b, "chunk {i} differs from the edited tile");
    }
    let note = h.state().message().unwrap_or_default().to_string();
    assert!(note.contains("with its 1 undo step(s)"), "{note}");
    // The history came back with the tiles: the stroke is listed, and Undo takes the tile
    // back to the map as opened, bit for bit.
    let (labels, head) = h.state().editing().history.labels();
    assert_eq!((labels.len(), head), (1, 1), "{labels:?}");
    assert!(labels[0].starts_with("Raise"), "{labels:?}");
    let ctx = h.ctx.clone();
    h.state_mut()
        .handle(&ctx, Intent::Command(loam::command::Command::Undo));
    h.run();
    let undone = &h.state().session().unwrap().map.tiles[&t];
    for (i, (a, b)) in undone.chunks.iter().zip(&original.chunks).enumerate() {
        assert!(a == b, "chunk {i}: undo did not give the tile as opened");
    }
    assert!(!h.state().editing().history.can_undo());
    h.state_mut()
        .handle(&ctx, Intent::Command(loam::command::Command::Redo));
    h.run();
    let redone = &h.state().session().unwrap().map.tiles[&t];
    assert!(
        redone.chunks == restored_chunks,
        "redo gives the restored tile again"
    );

    // Save writes them over the map, and nothing is left to recover.
    let ctx = h.ctx.clone();
    h.state_mut()
        .handle(&ctx, Intent::Command(loam::command::Command::Save));
    assert!(h.state().session().unwrap().edited.is_empty());
    let saved = loam::pipeline::open_map(&wdt).unwrap().map;
    assert_eq!(saved.tiles[&t].chunks, want.tiles[&t].chunks);
    assert!(
        !dir.exists(),
        "a save of everything removes the recovery folder"
    );
}

#[test]
fn discard_removes_the_recovered_edits_and_later_keeps_them() {
    let tmp = tempfile::tempdir().unwrap();
    let map_dir = common::sample_in(tmp.path().join("map"));
    let wdt = map_dir.join("Sample.wdt");
    let root = tmp.path().join("recovery");
    // An autosave as a killed run leaves it (its pid is not a running loam).
    let opened = loam::pipeline::open_map(&wdt).unwrap().map;
    let t = TileCoord::new(32, 32).unwrap();
    let snap = loam::pipeline::recovery::Snapshot {
        source: wdt.clone(),
        header: opened.header_only(),
        generation: loam::format::Generation::V335,
        tiles: vec![opened.tiles[&t].clone()],
        reuse: Vec::new(),
        files: vec![wdt.clone()],
        journal: None,
    };
    let dir = loam::pipeline::recovery::folder_for(&root, &wdt);
    loam::pipeline::recovery::write(&dir, &snap).unwrap();
    // The source changed since: the dialog says so.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(map_dir.join("Sample.wdt"), std::fs::read(&wdt).unwrap()).unwrap();
    let mut later = harness(root.clone(), wdt.clone());
    later.run();
    later.get_by_label_contains("Changed on disk since the autosave");
    later.get_by_label("Later").click();
    later.run();
    assert!(
        later
            .query_by_label(loam::ui::dialogs::RESTORE_TITLE)
            .is_none()
    );
    assert!(dir.join(MANIFEST).is_file(), "Later keeps the folder");
    drop(later);

    let mut h = harness(root.clone(), wdt.clone());
    h.run();
    h.get_by_label("Discard").click();
    h.run();
    assert!(!dir.exists(), "Discard removes the folder");
    assert!(h.state().session().unwrap().edited.is_empty());
}

#[test]
fn a_monolithic_map_s_recovered_tile_is_restored_and_saved_into_the_wdt() {
    let tmp = tempfile::tempdir().unwrap();
    let split = common::sample_in(tmp.path().join("split"));
    // The sample as a 0.5.3 monolithic WDT, written by loam's converter.
    let mono = tmp.path().join("mono");
    let converted = Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(["convert", "--to", "0.5.3"])
        .arg(split.join("Sample.wdt"))
        .arg(&mono)
        .output()
        .unwrap();
    assert!(converted.status.success(), "{converted:?}");
    let wdt = mono.join("Sample.wdt");
    // An autosave as a killed run leaves it: tile 32_31 raised by 25 yards, with its objects.
    let t = TileCoord::new(32, 31).unwrap();
    let mut s = loam::doc::session::Session::open(&wdt).unwrap();
    s.load_all();
    assert_eq!(s.generation, loam::format::Generation::Alpha053);
    let mut edited = s.map.tiles[&t].clone();
    edited
        .chunks
        .iter_mut()
        .for_each(|c| c.heights.iter_mut().for_each(|h| *h += 25.0));
    let snap = loam::pipeline::recovery::Snapshot {
        source: wdt.clone(),
        header: s.map.header_only(),
        generation: s.generation,
        tiles: vec![edited.clone()],
        reuse: Vec::new(),
        files: vec![wdt.clone()],
        journal: None,
    };
    let root = tmp.path().join("recovery");
    loam::pipeline::recovery::write(&loam::pipeline::recovery::folder_for(&root, &wdt), &snap)
        .unwrap();

    // The reference: the same tile saved by a session of a copy of the map, no recovery.
    let copy = tmp.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    std::fs::copy(&wdt, copy.join("Sample.wdt")).unwrap();
    let mut direct = loam::doc::session::Session::open(&copy.join("Sample.wdt")).unwrap();
    direct.load_all();
    direct.map.tiles.insert(t, edited.clone());
    direct.mark_edited(t);
    direct.save().unwrap();
    let mut reference = loam::doc::session::Session::open(&copy.join("Sample.wdt")).unwrap();
    reference.load_all();
    let want = &reference.map.tiles[&t];
    assert_ne!(want.chunks, s.map.tiles[&t].chunks);

    let mut h = harness(root, wdt.clone());
    h.run();
    h.get_by_label("Restore").click();
    h.run();
    assert_eq!(
        h.state()
            .session()
            .unwrap()
            .edited
            .iter()
            .copied()
            .collect::<Vec<_>>(),
        vec![t]
    );
    let ctx = h.ctx.clone();
    h.state_mut()
        .handle(&ctx, Intent::Command(loam::command::Command::Save));
    assert!(h.state().session().unwrap().edited.is_empty());
    let mut back = loam::doc::session::Session::open(&wdt).unwrap();
    back.load_all();
    assert!(back.failed.is_empty(), "{:?}", back.failed);
    let got = &back.map.tiles[&t];
    assert!(
        got.chunks == want.chunks,
        "the restored tile's chunks differ"
    );
    assert_eq!(got.doodad_names, want.doodad_names);
    assert_eq!(got.wmo_names, want.wmo_names);
    assert_eq!(got.doodads, want.doodads);
    assert!(!want.doodads.is_empty(), "the tile has objects to keep");
    // Both saves wrote the same file.
    assert!(
        std::fs::read(&wdt).unwrap() == std::fs::read(copy.join("Sample.wdt")).unwrap(),
        "the saved WDTs differ"
    );
    // The other tiles are as they were.
    for (c, tile) in &s.map.tiles {
        if *c != t {
            assert_eq!(back.map.tiles[c].chunks, tile.chunks, "{c:?}");
        }
    }
}

#[test]
fn a_later_autosave_copies_only_the_tiles_changed_since_and_keeps_the_others() {
    let tmp = tempfile::tempdir().unwrap();
    loam::sample::write_sample(tmp.path()).unwrap();
    let wdt = tmp.path().join("Sample.wdt");
    let mut s = loam::doc::session::Session::open(&wdt).unwrap();
    s.load_all();
    let [a, b] = [(31, 31), (32, 32)].map(|(x, y)| TileCoord::new(x, y).unwrap());
    let raise = |s: &mut loam::doc::session::Session, t: TileCoord, by: f32| {
        for c in &mut s.map.tiles.get_mut(&t).unwrap().chunks {
            c.heights.iter_mut().for_each(|h| *h += by);
        }
        s.mark_edited(t);
    };
    raise(&mut s, a, 5.0);
    raise(&mut s, b, 7.0);
    let root = tmp.path().join("recovery");
    let mut r = Recovery::at(root.clone());
    assert!(
        r.autosave(&mut s, &loam::edit::History::default(), 1)
            .is_none()
    );
    assert_eq!(r.finish(), None);
    let dir = r.folder(&wdt);
    let first = loam::pipeline::recovery::read_manifest(&dir).unwrap();
    assert_eq!(first.tiles, vec![(31, 31), (32, 32)]);
    let b_file = |m: &Manifest| std::fs::read(dir.join(&m.snapshot).join("Sample_32_32.adt"));
    let b_bytes = b_file(&first).unwrap();

    // Only tile a changes: the next snapshot copies a alone and takes b's file as it was.
    raise(&mut s, a, 3.0);
    let mut probe = s.changed_since_autosave.clone();
    assert_eq!(probe.iter().copied().collect::<Vec<_>>(), vec![a]);
    let snap = loam::app::recovery::snapshot(&mut s, false);
    assert_eq!(
        snap.tiles.iter().map(|t| t.coord).collect::<Vec<_>>(),
        vec![a]
    );
    assert_eq!(snap.reuse, vec![b]);
    assert!(s.changed_since_autosave.is_empty());
    // The app's own path: the same choice, written.
    s.changed_since_autosave.append(&mut probe);
    assert!(
        r.autosave(&mut s, &loam::edit::History::default(), 1)
            .is_none()
    );
    assert_eq!(r.finish(), None);
    let second = loam::pipeline::recovery::read_manifest(&dir).unwrap();
    assert_ne!(second.snapshot, first.snapshot);
    assert_eq!(second.tiles, vec![(31, 31), (32, 32)]);
    assert!(
        b_file(&second).unwrap() == b_bytes,
        "b's file is the one written before"
    );
    assert!(
        !dir.join(&first.snapshot).exists(),
        "the old snapshot is gone"
    );
    let back = loam::pipeline::recovery::read_tiles(&dir, &second, &s.map).unwrap();
    // What a save of the tiles in memory reads back as: the restored tiles must equal it.
    let out = tmp.path().join("reference");
    let files =
        loam::pipeline::encode_map(&s.map, loam::format::Generation::V335, true, None).unwrap();
    loam::disk::write_files(&out, &files, |_| {}).unwrap();
    let reference = loam::pipeline::open_map(&out.join("Sample.wdt"))
        .unwrap()
        .map;
    assert_eq!(back.len(), 2);
    for t in back {
        assert!(
            t.chunks == reference.tiles[&t.coord].chunks,
            "tile {:?} is not the one in memory",
            t.coord
        );
    }
}
