//! `loam screenshot MAP OUT.png --tour SECONDS` (issue 55): the camera flies over every tile,
//! tile by tile, printing the memory in use about once a second and then `tiles loaded N,
//! dropped M, peak memory X MB`. Needs `xvfb-run` and Mesa (`packaging/setup --tests`).

use std::process::Command;

/// A memory sample: seconds, MB, the tile flown over and the tiles to fly.
type Sample = (f64, f64, u32, u32);
/// The closing figures: tiles loaded, dropped, peak MB.
type Figures = (u64, u64, u64);

/// The tour of `map` in `seconds`: its memory samples and its closing figures.
fn tour_of(map: &std::path::Path, seconds: &str) -> (Vec<Sample>, Figures) {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("tour.png");
    let o = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_loam"))
        .arg("screenshot")
        .arg(map)
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
            let (i, n) = w.get(3)?.split_once('/')?;
            (w.len() == 7 && w[1] == "s" && w[4] == "memory").then(|| {
                let (i, n) = (i.parse().unwrap(), n.parse().unwrap());
                (w[0].parse().unwrap(), w[5].parse().unwrap(), i, n)
            })
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
fn a_tour_flies_every_tile_and_prints_its_memory_and_figures() {
    // The bundled sample's four tiles: every one stays within reach of the camera, so the
    // tour flies them without tiles streaming in and out (the 16 × 16 flight is below).
    let sample = format!("{}/resources/sample/Sample.wdt", env!("CARGO_MANIFEST_DIR"));
    let (samples, (_, _, peak)) = tour_of(std::path::Path::new(&sample), "4");
    assert!(
        samples.len() >= 2,
        "a sample about every second: {samples:?}"
    );
    let tiles: Vec<u32> = samples.iter().map(|s| s.2).collect();
    assert!(
        tiles.windows(2).all(|w| w[0] <= w[1]),
        "tile by tile: {tiles:?}"
    );
    assert!(
        samples.iter().all(|s| s.3 == 4),
        "four tiles to fly: {samples:?}"
    );
    let highest = samples.iter().map(|s| s.1).fold(0.0, f64::max);
    assert!(
        peak as f64 >= highest,
        "the peak is the highest resident set"
    );
}

/// A 16 × 16 map named `Grid` in `dir`: a WDT whose MAIN lists tiles 24..40 × 30..46, each a
/// copy of the corpus tile `Azeroth_38_46.adt`.
fn grid_map(dir: &std::path::Path) -> std::path::PathBuf {
    let chunk = |tag: &[u8; 4], data: &[u8]| {
        let mut out: Vec<u8> = tag.iter().rev().copied().collect();
        out.extend((data.len() as u32).to_le_bytes());
        out.extend(data);
        out
    };
    let corpus = format!(
        "{}/../shared/corpus/blizzardry/Azeroth_38_46.adt",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut main = vec![0u8; 4096 * 8];
    for y in 30..46 {
        for x in 24..40 {
            main[8 * (y * 64 + x)] = 1;
            std::fs::copy(&corpus, dir.join(format!("Grid_{x}_{y}.adt"))).unwrap();
        }
    }
    let mut wdt = chunk(b"MVER", &18u32.to_le_bytes());
    wdt.extend(chunk(b"MPHD", &[0; 32]));
    wdt.extend(chunk(b"MAIN", &main));
    let path = dir.join("Grid.wdt");
    std::fs::write(&path, wdt).unwrap();
    path
}

#[test]
fn a_tour_over_sixteen_by_sixteen_tiles_holds_its_memory_after_the_first_third() {
    // 256 tiles flown in 30 s: the camera leaves tiles behind about eight times a second, so
    // hundreds are read and dropped. Whatever a dropped tile leaves behind (its mesh, its
    // GL buffers and alpha textures, its decoded chunks) would make the resident set climb
    // with every tile; it must instead hold at what the first third reached, when the
    // camera has left the map's corner and as many tiles are near it as ever will be.
    let dir = tempfile::tempdir().unwrap();
    let map = grid_map(dir.path());
    let seconds = 30.0;
    let (samples, (loaded, dropped, peak)) = tour_of(&map, "30");
    assert!(
        samples.len() >= 10,
        "a sample about every second: {samples:?}"
    );
    assert!(samples.iter().all(|s| s.3 == 256), "256 tiles: {samples:?}");
    // A quiet machine reads 300 – 400 tiles in these 30 s; a loaded one draws fewer frames
    // and so asks for fewer, but any flight over 256 tiles reads far more than the 20 or so
    // within reach at once.
    assert!(
        loaded >= 60 && dropped >= 30,
        "tiles stream in and out: {loaded} loaded, {dropped} dropped"
    );
    let highest = |from: f64, to: f64| {
        samples
            .iter()
            .filter(|s| s.0 >= from && s.0 < to)
            .map(|s| s.1)
            .fold(0.0, f64::max)
    };
    let first = highest(0.0, seconds / 3.0);
    let later = highest(seconds / 3.0, f64::INFINITY);
    assert!(
        first > 0.0 && later > 0.0,
        "samples in each part: {samples:?}"
    );
    // 15 % covers the tiles in flight at a sample; a tile's alpha textures alone are 4 MB.
    assert!(
        later <= first * 1.15,
        "memory grew after the first third: {first} MB, then up to {later} MB ({samples:?})"
    );
    assert!(peak as f64 >= later, "the peak is the highest resident set");
}
