//! Saves killed midway (issue 14, part 4): `loam apply` rewriting a 16-tile 3.3.5 map in place
//! is SIGKILLed at moments spread over its run. Whenever the kill lands, every file of the map
//! is whole: byte for byte either what it was or what a finished save writes, never a mix and
//! never cut short, and the map opens with every tile. The next save removes what the killed
//! one left behind (its hidden temporary files).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{ORIGIN, corpus_file};

const SIDE: u32 = 4;

/// The map's files by name (hidden temporary files apart), with their bytes.
fn map_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "ops.json")
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect();
    out.sort();
    out
}

/// The hidden temporary files a save left in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".loam-tmp-"))
        .collect()
}

/// A SIDE×SIDE 3.3.5 map named Big in `dir`: copies of the corpus's largest tile (2.6 MB)
/// beside a WDT whose MAIN lists them, plus the script that raises every tile.
fn big_map(dir: &Path) -> PathBuf {
    let mut wdt = std::fs::read(corpus_file("wowserhq-format/map/pvpzone.wdt")).unwrap();
    let main = wdt.windows(4).position(|w| w == b"NIAM").unwrap() + 8;
    for i in 0..4096u32 {
        let present = (i % 64) < SIDE && (i / 64) < SIDE;
        let at = main + i as usize * 8;
        wdt[at..at + 4].copy_from_slice(&u32::from(present).to_le_bytes());
    }
    std::fs::write(dir.join("Big.wdt"), wdt).unwrap();
    let tile = corpus_file("warcraft-net/ADT/Northrend_37_25.adt");
    for y in 0..SIDE {
        for x in 0..SIDE {
            std::fs::copy(&tile, dir.join(format!("Big_{x}_{y}.adt"))).unwrap();
        }
    }
    // A stroke through every tile's middle (world coordinates: x north, y west, from the map's
    // centre), so that every tile's file changes.
    let points: Vec<String> = (0..SIDE * SIDE)
        .map(|i| {
            let (x, y) = (f64::from(i % SIDE) + 0.5, f64::from(i / SIDE) + 0.5);
            let tile = 1600.0 / 3.0;
            format!("[{}, {}]", ORIGIN - y * tile, ORIGIN - x * tile)
        })
        .collect();
    let ops = format!(
        r#"{{"ops": [{{"tool": "raise", "points": [{}], "radius": 40, "strength": 5}}]}}"#,
        points.join(", ")
    );
    std::fs::write(dir.join("ops.json"), ops).unwrap();
    dir.join("Big.wdt")
}

/// `loam apply` of the map's script, saving as 3.3.5 over the map's own folder.
fn apply_in_place(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_loam"));
    cmd.arg("apply")
        .arg(dir.join("Big.wdt"))
        .arg(dir.join("ops.json"))
        .args(["--to", "3.3.5"])
        .arg(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    cmd
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn a_save_killed_at_any_moment_leaves_every_file_whole_and_the_next_save_cleans_up() {
    let root = tempfile::tempdir().unwrap();
    let original_dir = root.path().join("original");
    std::fs::create_dir(&original_dir).unwrap();
    big_map(&original_dir);
    let original = map_files(&original_dir);

    // What a save that finishes writes, how long it takes, and when its temporary files are
    // on disk (watched every millisecond): kills are aimed there too, since on a busy machine
    // the writing can be a small part of the run.
    let finished_dir = root.path().join("finished");
    copy_folder(&original_dir, &finished_dir);
    let start = Instant::now();
    let mut child = apply_in_place(&finished_dir).spawn().unwrap();
    let mut writing: Option<(Duration, Duration)> = None;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if !temporaries(&finished_dir).is_empty() {
            let now = start.elapsed();
            writing = Some(writing.map_or((now, now), |(from, _)| (from, now)));
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let full = start.elapsed();
    assert!(status.success(), "the uninterrupted save failed");
    let finished = map_files(&finished_dir);
    assert!(temporaries(&finished_dir).is_empty());
    let changed = original
        .iter()
        .filter(|(n, b)| finished.iter().any(|(m, c)| m == n && c != b))
        .count();
    assert!(
        changed >= (SIDE * SIDE) as usize,
        "the save changed {changed} files"
    );

    // Kills spread over the run, then over the time the files were being written, until one
    // has landed while they were.
    let mut caught_mid_write = None;
    let mut kills = 0;
    for attempt in 0..24u32 {
        let dir = root.path().join(format!("killed-{attempt}"));
        copy_folder(&original_dir, &dir);
        let delay = match writing {
            Some((from, to)) if attempt >= 12 => {
                from + (to - from).mul_f64((f64::from(attempt - 12) + 0.5) / 12.0)
            }
            _ => full.mul_f64(f64::from(attempt % 12 + 1) / 13.0),
        };
        let mut child = apply_in_place(&dir).spawn().unwrap();
        std::thread::sleep(delay);
        let killed = child.kill().is_ok();
        let status = child.wait().unwrap();
        kills += usize::from(killed && !status.success());

        // Every file is whole: what it was or what the finished save writes.
        let now = map_files(&dir);
        let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        for (name, bytes) in &now {
            let was = original.iter().find(|(n, _)| n == name).map(|(_, b)| b);
            let will = finished.iter().find(|(n, _)| n == name).map(|(_, b)| b);
            assert!(
                was == Some(bytes) || will == Some(bytes),
                "killed after {delay:?}: {name} is neither the original nor the saved file \
                 ({} bytes)",
                bytes.len()
            );
        }
        for (name, _) in &original {
            assert!(
                names(&now).contains(name),
                "killed after {delay:?}: {name} vanished"
            );
        }
        // The map opens, every tile with it.
        let opened = loam::pipeline::open_map(&dir.join("Big.wdt")).expect("the map opens");
        assert!(
            opened.failed.is_empty(),
            "unreadable tiles: {:?}",
            opened.failed
        );
        assert_eq!(opened.map.tiles.len(), (SIDE * SIDE) as usize);

        let left = temporaries(&dir);
        for t in &left {
            assert!(
                finished
                    .iter()
                    .any(|(n, _)| t.starts_with(&format!(".{n}.loam-tmp-"))),
                "a stray file {t}"
            );
        }
        if !left.is_empty() && caught_mid_write.is_none() {
            caught_mid_write = Some(dir);
            break;
        }
    }
    assert!(
        kills > 0,
        "no run was killed before it finished (a full save takes {full:?})"
    );
    let dir = caught_mid_write.unwrap_or_else(|| {
        panic!("no kill landed while files were being written ({kills} kills, full save {full:?})")
    });

    // The next save finishes and leaves nothing of the killed one behind.
    assert!(apply_in_place(&dir).status().unwrap().success());
    assert!(
        temporaries(&dir).is_empty(),
        "left behind: {:?}",
        temporaries(&dir)
    );
    // The killed save's tiles may be raised already; the next save raises them again, so only
    // the set of files and their readability are compared.
    let now = map_files(&dir);
    assert_eq!(
        now.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        finished.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    let opened = loam::pipeline::open_map(&dir.join("Big.wdt")).expect("the map opens");
    assert!(opened.failed.is_empty());
}
