//! Saves killed midway (issue 14, part 4): `loam apply` rewriting a 16-tile 3.3.5 map in place
//! is SIGKILLed at moments spread over its run, then at moments aimed at its writing (soon after
//! its first temporary file appears) until a few kills have landed there. Whenever the kill
//! lands, every file of the map is whole: byte for byte either what it was or what a finished
//! save writes, never a mix and never cut short, and the map opens with every tile. The next
//! save removes what the killed one left behind (its hidden temporary files).

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

/// How often a watched save's folder is looked at for temporary files: often enough that an
/// aimed kill follows the start of the writing closely, seldom enough that the watching leaves
/// the save (on a two-core machine) most of the processor.
const WATCH_EVERY: Duration = Duration::from_micros(200);

/// The kills spread evenly over the measured save, whichever phase they land in.
const SPREAD: u32 = 12;

/// How many kills must land while files are being written before no more are aimed there.
/// One proves the claim; a few, at different depths into the writing, catch it in more than
/// one state (its first temporary file begun, all of them written and being flushed). The renames
/// that end it take too little time to be aimed at from outside.
const MID_WRITE_WANTED: usize = 3;

/// The bound on aimed kills, in number and in time. A slow or loaded machine only takes more
/// of them (each one aims from what the save is seen doing, not from a clock), so these are
/// generous; they stop a save that somehow never shows its temporary files from looping.
const MOST_AIMED: u32 = 60;
/// The bound in time, counted from the first aimed kill.
const AIMING_PATIENCE: Duration = Duration::from_secs(300);

/// When a kill is sent.
#[derive(Clone, Copy, Debug)]
enum Moment {
    /// So long after the save starts: the fixed spread over a measured run.
    AfterStart(Duration),
    /// So long after the save's first temporary file is seen: aimed at the writing itself,
    /// wherever it falls in this run, however slow the machine is today.
    AfterFirstTemporary(Duration),
}

/// Runs `loam apply` over `dir` and SIGKILLs it at `moment`. True when the kill landed, that
/// is the save had not finished (a save that finished first, or ended before its first
/// temporary file was seen, is not killed).
fn kill_at(dir: &Path, moment: Moment) -> bool {
    let mut child = apply_in_place(dir).spawn().unwrap();
    match moment {
        Moment::AfterStart(delay) => std::thread::sleep(delay),
        Moment::AfterFirstTemporary(delay) => loop {
            // `try_wait` reaps a finished save, and `kill` below then reports it not killed.
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if !temporaries(dir).is_empty() {
                std::thread::sleep(delay);
                break;
            }
            std::thread::sleep(WATCH_EVERY);
        },
    }
    let killed = child.kill().is_ok();
    let status = child.wait().unwrap();
    killed && !status.success()
}

/// The map's files before a save, and what a save that finishes leaves: a killed save's files
/// must each be one or the other.
struct Expected {
    /// The map's files as they were (by name, with their bytes).
    original: Vec<(String, Vec<u8>)>,
    /// The map's files as a save that finishes writes them.
    finished: Vec<(String, Vec<u8>)>,
}

/// Asserts that a save killed at `moment` left the map in `dir` whole: every file byte for byte
/// the original or the finished one, none vanished, the map opens with every tile, and the only
/// other files are temporary files of the map's own. Returns those temporary files: a kill that
/// leaves some landed while files were being written.
fn assert_whole(dir: &Path, moment: Moment, expected: &Expected) -> Vec<String> {
    let Expected { original, finished } = expected;
    // Every file is whole: what it was or what the finished save writes.
    let now = map_files(dir);
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    for (name, bytes) in &now {
        let was = original.iter().find(|(n, _)| n == name).map(|(_, b)| b);
        let will = finished.iter().find(|(n, _)| n == name).map(|(_, b)| b);
        assert!(
            was == Some(bytes) || will == Some(bytes),
            "killed at {moment:?}: {name} is neither the original nor the saved file \
             ({} bytes)",
            bytes.len()
        );
    }
    for (name, _) in original {
        assert!(
            names(&now).contains(name),
            "killed at {moment:?}: {name} vanished"
        );
    }
    // The map opens, every tile with it.
    let opened = loam::pipeline::open_map(&dir.join("Big.wdt")).expect("the map opens");
    assert!(
        opened.failed.is_empty(),
        "killed at {moment:?}: unreadable tiles: {:?}",
        opened.failed
    );
    assert_eq!(
        opened.map.tiles.len(),
        (SIDE * SIDE) as usize,
        "killed at {moment:?}"
    );

    let left = temporaries(dir);
    for t in &left {
        assert!(
            finished
                .iter()
                .any(|(n, _)| t.starts_with(&format!(".{n}.loam-tmp-"))),
            "killed at {moment:?}: a stray file {t}"
        );
    }
    left
}

#[test]
fn a_save_killed_at_any_moment_leaves_every_file_whole_and_the_next_save_cleans_up() {
    let root = tempfile::tempdir().unwrap();
    let original_dir = root.path().join("original");
    std::fs::create_dir(&original_dir).unwrap();
    big_map(&original_dir);
    let original = map_files(&original_dir);

    // What a save that finishes writes, how long it takes, and for how long its temporary
    // files are on disk: the first aimed kills go that deep into the writing.
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
        std::thread::sleep(WATCH_EVERY);
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
    let expected = Expected { original, finished };

    // Kills spread over the run (before the writing, during it, after it: wherever they land,
    // every file must be whole), then kills aimed at the writing until enough have landed
    // there. The spread is timed from the measured run, which a busy machine makes a poor
    // guide to the next one (one such run finished before 15 of 24 timed kills); the aimed
    // kills wait for their own run's first temporary file, so they land in its writing
    // however slow the machine is.
    let mut caught_mid_write: Option<PathBuf> = None;
    let mut kills = 0;
    let mut attempts = 0;
    // One kill and its checks; true when it landed while files were being written.
    let mut kill_and_check = |moment: Moment| {
        let dir = root.path().join(format!("killed-{attempts}"));
        attempts += 1;
        copy_folder(&original_dir, &dir);
        let killed = kill_at(&dir, moment);
        kills += usize::from(killed);
        let left = assert_whole(&dir, moment, &expected);
        let landed = killed && !left.is_empty();
        if landed && caught_mid_write.is_none() {
            caught_mid_write = Some(dir);
        } else {
            // Each copy of the map is 42 MB; only the one the next save cleans up is kept.
            std::fs::remove_dir_all(&dir).unwrap();
        }
        landed
    };
    let mut mid_write = 0;
    for i in 1..=SPREAD {
        let moment = Moment::AfterStart(full.mul_f64(f64::from(i) / f64::from(SPREAD + 1)));
        mid_write += usize::from(kill_and_check(moment));
    }
    // How long this machine keeps temporary files on disk, as far as the kills have shown:
    // first the measured run's, halved each time an aimed kill finds the writing over.
    let mut window = writing.map_or(Duration::ZERO, |(from, to)| to - from);
    let mut late = 0;
    let aiming = Instant::now();
    for n in 0..MOST_AIMED {
        if mid_write >= MID_WRITE_WANTED || aiming.elapsed() > AIMING_PATIENCE {
            break;
        }
        // Right at the first temporary file, then a quarter, a half and three quarters of the
        // way through the writing as last seen, so that kills land at different depths in it.
        let depth = window.mul_f64(f64::from(n % 4) / 4.0);
        if kill_and_check(Moment::AfterFirstTemporary(depth)) {
            mid_write += 1;
        } else {
            late += 1;
            window /= 2;
        }
    }
    assert!(
        kills > 0,
        "no run was killed before it finished (a full save takes {full:?})"
    );
    let dir = caught_mid_write.unwrap_or_else(|| {
        panic!(
            "no kill landed while files were being written ({attempts} runs, {kills} killed, \
             {late} aimed kills too late; full save {full:?}, temporary files seen {writing:?})"
        )
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
        expected.finished.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    let opened = loam::pipeline::open_map(&dir.join("Big.wdt")).expect("the map opens");
    assert!(opened.failed.is_empty());
}
