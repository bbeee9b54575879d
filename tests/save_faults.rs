//! Saves under faults: a full disk (a small tmpfs), a read-only folder (a read-only bind mount)
//! and a rename that fails halfway. The originals stay byte-identical and readable, the error
//! names the file and the reason and lists what was and was not written, no temporary file is
//! left, and the editor keeps the unwritten edits in memory, unsaved.
//!
//! The mounts need a mount namespace: each such test runs itself again inside
//! `unshare --user --map-root-user --mount` (root alone is not enough: root writes through
//! permission bits). Without `unshare` the test fails; it never skips.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use loam::disk::LoamError;
use loam::doc::session::Session;
use loam::model::TileCoord;

/// Set in the re-run child: the folder it mounted.
const CHILD_ENV: &str = "LOAM_FAULT_TEST_DIR";

/// Runs test `name` of this binary again inside a new user and mount namespace, after `setup`
/// (a shell line with `$D`, an empty folder) mounted something; asserts the child passed.
fn in_namespace(name: &str, setup: &str) {
    let dir = tempfile::tempdir().unwrap();
    let exe = std::env::current_exe().unwrap();
    let script = format!("set -e; D=\"$1\"; {setup}; shift; exec \"$@\"");
    let out = Command::new("unshare")
        .args([
            "--user",
            "--map-root-user",
            "--mount",
            "sh",
            "-c",
            &script,
            "sh",
        ])
        .arg(dir.path())
        .arg(&exe)
        .args(["--exact", name, "--nocapture", "--test-threads", "1"])
        .env(CHILD_ENV, dir.path())
        .output()
        .expect("unshare (util-linux) is needed for the fault tests");
    let text = common::text(&out);
    assert!(out.status.success(), "in the namespace: {text}");
    assert!(text.contains("1 passed"), "the child ran no test: {text}");
}

/// Every file of `dir` with its bytes, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    common::folder_files(dir).into_iter().collect()
}

/// The sample in `dir`, opened, with tiles 31_31 and 32_32 raised by 10 yards and edited.
fn edited_sample(dir: &Path) -> (Session, [TileCoord; 2]) {
    loam::sample::write_sample(dir).unwrap();
    let mut s = Session::open(&dir.join("Sample.wdt")).unwrap();
    s.load_all();
    let tiles = [(31, 31), (32, 32)].map(|(x, y)| TileCoord::new(x, y).unwrap());
    for t in tiles {
        for c in &mut s.map.tiles.get_mut(&t).unwrap().chunks {
            c.heights.iter_mut().for_each(|h| *h += 10.0);
        }
        s.mark_edited(t);
    }
    (s, tiles)
}

/// Checks a failed save: nothing written, the error names a tile file and `reason`, the
/// originals are as `before`, no temporary file is left and both edits are still unsaved.
fn assert_nothing_written(
    s: &Session,
    err: &LoamError,
    dir: &Path,
    before: &[(String, Vec<u8>)],
    reason: &str,
) {
    let text = err.to_string();
    assert!(text.contains(reason), "{text}");
    assert!(
        text.contains(&dir.join("Sample_31_31.adt").display().to_string())
            || text.contains(&dir.join("Sample_32_32.adt").display().to_string()),
        "the error names the file: {text}"
    );
    assert!(text.contains("nothing was written"), "{text}");
    match err {
        LoamError::Save {
            written,
            not_written,
            ..
        } => {
            assert!(written.is_empty());
            assert_eq!(
                not_written,
                &vec![dir.join("Sample_31_31.adt"), dir.join("Sample_32_32.adt")]
            );
        }
        other => panic!("not a save error: {other:?}"),
    }
    assert!(files(dir) == before, "the originals changed");
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.contains("loam-tmp")),
        "temporary files left: {names:?}"
    );
    assert_eq!(s.edited.len(), 2, "the edits stay unsaved");
    // The originals still read.
    let mut back = Session::open(&dir.join("Sample.wdt")).unwrap();
    back.load_all();
    assert!(back.failed.is_empty(), "{:?}", back.failed);
}

#[test]
fn a_save_onto_a_full_disk_writes_nothing_and_keeps_the_edits() {
    let Some(mounted) = std::env::var_os(CHILD_ENV).map(PathBuf::from) else {
        // 8 MiB: the sample (4.9 MB) fits, then a filler takes all but ~1.5 MB, room for
        // one tile's temporary file but not two.
        in_namespace(
            "a_save_onto_a_full_disk_writes_nothing_and_keeps_the_edits",
            "mount -t tmpfs -o size=8m loamtest \"$D\"",
        );
        return;
    };
    let dir = mounted.join("map");
    let (mut s, tiles) = edited_sample(&dir);
    let before = files(&dir);
    let filler = mounted.join("filler");
    fill_all_but(&filler, 1_500_000);
    let err = s.save().unwrap_err();
    assert_nothing_written(&s, &err, &dir, &before, "No space left on device");
    assert!(s.map.tiles[&tiles[0]].chunks[0].heights[0] > 0.0);

    // Room again: the same save goes through and the edits are written.
    std::fs::remove_file(&filler).unwrap();
    s.save().unwrap();
    assert!(s.edited.is_empty());
    let mut back = Session::open(&dir.join("Sample.wdt")).unwrap();
    back.load_all();
    for t in tiles {
        assert_eq!(back.map.tiles[&t].chunks, s.map.tiles[&t].chunks);
    }
}

/// Writes `path` until the disk is full, then gives back `room` bytes.
fn fill_all_but(path: &Path, room: u64) {
    use std::io::Write;
    let mut f = std::fs::File::create(path).unwrap();
    let block = vec![0xAB_u8; 64 * 1024];
    loop {
        match f.write(&block) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.raw_os_error() == Some(28) => break,
            Err(e) => panic!("filling: {e}"),
        }
    }
    let len = f.metadata().unwrap().len();
    f.set_len(len.saturating_sub(room)).unwrap();
    f.sync_all().unwrap();
}

#[test]
fn a_save_into_a_read_only_folder_writes_nothing_and_keeps_the_edits() {
    let Some(mounted) = std::env::var_os(CHILD_ENV).map(PathBuf::from) else {
        // The sample is written first, then its folder is bound read-only over itself.
        in_namespace(
            "a_save_into_a_read_only_folder_writes_nothing_and_keeps_the_edits",
            &format!(
                "mkdir \"$D/map\" && {} sample \"$D/map\" >/dev/null && \
                 mount --bind \"$D/map\" \"$D/map\" && mount -o remount,bind,ro \"$D/map\"",
                env!("CARGO_BIN_EXE_loam")
            ),
        );
        return;
    };
    let dir = mounted.join("map");
    let before = files(&dir);
    assert!(
        std::fs::write(dir.join("probe"), b"x").is_err(),
        "the folder is read-only"
    );
    let mut s = Session::open(&dir.join("Sample.wdt")).unwrap();
    s.load_all();
    let tiles = [(31, 31), (32, 32)].map(|(x, y)| TileCoord::new(x, y).unwrap());
    for t in tiles {
        s.map.tiles.get_mut(&t).unwrap().chunks[0].heights[0] += 10.0;
        s.mark_edited(t);
    }
    let err = s.save().unwrap_err();
    assert_nothing_written(&s, &err, &dir, &before, "Read-only file system");

    // The command line's whole-map write into the same folder fails the same way.
    let ops = mounted.join("ops.json");
    std::fs::write(
        &ops,
        r#"{"ops": [{"tool": "raise", "points": [[100, 100]], "radius": 30, "strength": 5}]}"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_loam"))
        .arg("apply")
        .arg(dir.join("Sample.wdt"))
        .arg(&ops)
        .args(["--to", "3.3.5"])
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("Read-only file system") && err.contains("Sample_31_31.adt"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert!(files(&dir) == before, "the originals changed");
}

#[test]
fn a_rename_that_fails_halfway_lists_what_was_written_and_keeps_the_rest_unsaved() {
    let dir = tempfile::tempdir().unwrap();
    let (mut s, tiles) = edited_sample(dir.path());
    // Tile 32_32's file is replaced by a folder with something in it: its temporary file is
    // written, but the rename over it fails, after 31_31's succeeded.
    let blocked = dir.path().join("Sample_32_32.adt");
    let original = std::fs::read(&blocked).unwrap();
    std::fs::remove_file(&blocked).unwrap();
    std::fs::create_dir(&blocked).unwrap();
    std::fs::write(blocked.join("keep"), &original).unwrap();
    let err = s.save().unwrap_err();
    let text = err.to_string();
    assert!(text.contains(&blocked.display().to_string()), "{text}");
    assert!(
        text.contains("written: Sample_31_31.adt; not written, as they were: Sample_32_32.adt"),
        "{text}"
    );
    // 31_31 is saved; 32_32 stays edited, in memory.
    assert_eq!(s.edited.iter().copied().collect::<Vec<_>>(), vec![tiles[1]]);
    let mut back = Session::open(&dir.path().join("Sample.wdt")).unwrap();
    back.load_now(&[tiles[0]]);
    assert_eq!(
        back.map.tiles[&tiles[0]].chunks,
        s.map.tiles[&tiles[0]].chunks
    );
    assert_eq!(std::fs::read(blocked.join("keep")).unwrap(), original);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains("loam-tmp")), "{names:?}");
}

#[test]
fn a_whole_map_write_renames_the_wdt_last() {
    // The WDT's target is a folder, so its rename fails: every tile is written by then.
    let src = tempfile::tempdir().unwrap();
    loam::sample::write_sample(src.path()).unwrap();
    let map = loam::pipeline::open_map(&src.path().join("Sample.wdt"))
        .unwrap()
        .map;
    let files =
        loam::pipeline::encode_map(&map, loam::format::Generation::V335, true, None).unwrap();
    assert!(files[0].name.ends_with(".wdt"), "the WDT comes first");
    let out = tempfile::tempdir().unwrap();
    std::fs::create_dir(out.path().join("Sample.wdt")).unwrap();
    std::fs::write(out.path().join("Sample.wdt/x"), b"x").unwrap();
    let err = loam::disk::write_files(out.path(), &files, |_| {}).unwrap_err();
    match &err {
        LoamError::Save {
            written,
            not_written,
            ..
        } => {
            assert_eq!(written.len(), 4, "{err}");
            assert!(written.iter().all(|p| p.extension().unwrap() == "adt"));
            assert_eq!(not_written, &vec![out.path().join("Sample.wdt")]);
        }
        other => panic!("not a save error: {other:?}"),
    }
}

#[test]
fn the_editor_says_what_a_failed_save_wrote_and_keeps_the_rest_unsaved() {
    use egui_kittest::Harness;
    use loam::app::intent::Intent;
    use loam::app::{LoamApp, StartOptions};

    let dir = tempfile::tempdir().unwrap();
    loam::sample::write_sample(dir.path()).unwrap();
    let wdt = dir.path().join("Sample.wdt");
    let open = wdt.clone();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_max_steps(256)
        .build_eframe(move |cc| {
            LoamApp::new(
                cc,
                StartOptions {
                    open: Some(open),
                    dialogs: Box::new(loam::app::file_picker::ScriptedDialogs::default()),
                    screenshot: None,
                    read_as: None,
                    client: None,
                },
            )
        });
    h.run();
    let tiles = [(31, 31), (32, 32)].map(|(x, y)| TileCoord::new(x, y).unwrap());
    for t in tiles {
        let s = h.state_mut().session_mut().unwrap();
        s.load_now(&[t]);
        s.map.tiles.get_mut(&t).unwrap().chunks[0].heights[0] += 10.0;
        h.state_mut().mark_edited(t);
    }
    let blocked = dir.path().join("Sample_32_32.adt");
    std::fs::remove_file(&blocked).unwrap();
    std::fs::create_dir(&blocked).unwrap();
    std::fs::write(blocked.join("keep"), b"x").unwrap();
    let ctx = h.ctx.clone();
    h.state_mut()
        .handle(&ctx, Intent::Command(loam::command::Command::Save));
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(message.starts_with("save failed: "), "{message}");
    assert!(
        message.contains(&blocked.display().to_string()),
        "{message}"
    );
    assert!(
        message.contains("written: Sample_31_31.adt; not written, as they were: Sample_32_32.adt"),
        "{message}"
    );
    assert!(message.contains("1 tile(s) still unsaved"), "{message}");
    assert!(h.state().has_unsaved());
    let s = h.state().session().unwrap();
    assert_eq!(s.edited.iter().copied().collect::<Vec<_>>(), vec![tiles[1]]);
    // The unwritten edit is still in memory: the sample's height plus 10.
    let fresh = tempfile::tempdir().unwrap();
    loam::sample::write_sample(fresh.path()).unwrap();
    let original = loam::pipeline::open_map(&fresh.path().join("Sample.wdt"))
        .unwrap()
        .map;
    assert_eq!(
        s.map.tiles[&tiles[1]].chunks[0].heights[0],
        original.tiles[&tiles[1]].chunks[0].heights[0] + 10.0
    );
}
