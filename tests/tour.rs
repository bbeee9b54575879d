//! `loam screenshot MAP OUT.png --tour SECONDS` (issue 55): the camera flies over every tile of
//! a 16 × 16 map (copies of a corpus tile), tiles stream in and out, and the memory sampled
//! each second stops growing after the first third of the flight (the last third within a
//! tenth of the second). Needs `xvfb-run` and Mesa
//! (`packaging/setup --tests`).

mod common;

use std::process::Command;

/// The tour's memory samples (seconds, MB) and its closing figures (loaded, dropped, peak MB).
fn tour(seconds: &str) -> (Vec<(f64, f64)>, (u64, u64, u64)) {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("map");
    common::loam_ok(&[
        "new",
        "Tour",
        "--to",
        "3.3.5",
        "--tiles",
        "24",
        "24",
        "39",
        "39",
        map.to_str().unwrap(),
    ]);
    let tile = common::corpus_file("blizzardry/Azeroth_38_46.adt");
    let mut copies = 0;
    for e in std::fs::read_dir(&map).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "adt") {
            std::fs::copy(&tile, e.path()).unwrap();
            copies += 1;
        }
    }
    assert_eq!(copies, 256);
    let png = dir.path().join("tour.png");
    let o = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_loam"))
        .arg("screenshot")
        .arg(map.join("Tour.wdt"))
        .arg(&png)
        .args(["--size", "1280x800", "--tour", seconds])
        .output()
        .expect("xvfb-run is missing: install them with `bash packaging/setup --tests`");
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(png.is_file(), "the last frame is written");
    let samples = text
        .lines()
        .filter_map(|l| l.strip_prefix("tour "))
        .filter_map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            // tour T s tile I/N memory X MB
            (w.len() == 7 && w[1] == "s" && w[4] == "memory")
                .then(|| (w[0].parse().unwrap(), w[5].parse().unwrap()))
        })
        .collect();
    let last = text
        .lines()
        .find_map(|l| l.strip_prefix("tiles loaded "))
        .unwrap_or_else(|| panic!("no closing line: {text}"));
    // N, dropped M, peak memory X MB
    let n: Vec<u64> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(
        n.len(),
        3,
        "tiles loaded N, dropped M, peak memory X MB: {last}"
    );
    (samples, (n[0], n[1], n[2]))
}

#[test]
fn a_tour_of_a_16_by_16_map_streams_tiles_in_and_out_and_memory_stops_growing() {
    let seconds = 30.0;
    let (samples, (loaded, dropped, peak)) = tour("30");
    assert!(loaded >= 16, "tiles loaded along the way: {loaded}");
    assert!(dropped >= 8, "far tiles dropped: {dropped}");
    assert!(
        samples.len() >= 6,
        "a sample about every second: {samples:?}"
    );
    // After the first third (the camera leaving the map's corner, where fewer tiles lie
    // around it) the resident set stops growing: the last third stays within a tenth of the
    // second's highest.
    let third = |k: f64| -> Vec<f64> {
        (samples.iter())
            .filter(|s| s.0 >= seconds * k / 3.0 && s.0 < seconds * (k + 1.0) / 3.0)
            .map(|s| s.1)
            .collect()
    };
    let (second, last) = (third(1.0), third(2.0));
    assert!(!second.is_empty() && !last.is_empty(), "{samples:?}");
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    assert!(
        max(&last) <= max(&second) * 1.10,
        "memory grew after the first third: {samples:?}"
    );
    assert!(
        peak as f64 >= max(&last),
        "the peak is the highest resident set"
    );
}
