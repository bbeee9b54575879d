//! A day of undo (issue 55, item 1): 5,000 random strokes over the bundled sample (raise, lower,
//! smooth and paint, radius 20–60 yd, up to 180 yd long) through one history of the default 256 MiB budget keep
//! every step; undoing half gives the map as it was after the first half, undoing the rest the
//! map as opened, bit for bit in memory and byte for byte in the files written from it (their
//! heights read back with `wow-adt`); redoing everything gives the last map again.

mod common;

use loam::edit::History;
use loam::edit::history::DEFAULT_BUDGET;
use loam::edit::ops::{self, Op};
use loam::edit::terrain::liquid::LiquidStyle;
use loam::format::Generation;
use loam::model::Map;

/// A small seeded generator (xorshift64*), so the day is the same every run.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `lo..hi`.
    fn within(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (self.next() >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
    }
}

/// One random stroke over the sample's four tiles: two to four points, a tool, a radius.
fn stroke(dice: &mut Dice, textures: &[String]) -> Op {
    // A hand's stroke: two to four points, each within 60 yd of the one before, anywhere
    // over the sample's tiles 31..=32 (world x and y from about −533 to +533).
    let n = 2 + dice.next() % 3;
    let mut at = [dice.within(-480.0, 480.0), dice.within(-480.0, 480.0)];
    let mut points = vec![at];
    for _ in 1..n {
        at = [
            at[0] + dice.within(-60.0, 60.0),
            at[1] + dice.within(-60.0, 60.0),
        ];
        points.push(at);
    }
    let radius = dice.within(20.0, 60.0);
    let mut json = serde_json::json!({"points": points, "radius": radius});
    match dice.next() % 8 {
        0..=2 => {
            json["tool"] = "raise".into();
            json["strength"] = dice.within(0.5, 6.0).into();
        }
        3 => {
            json["tool"] = "lower".into();
            json["strength"] = dice.within(0.5, 6.0).into();
        }
        4 => {
            json["tool"] = "smooth".into();
            json["strength"] = dice.within(0.1, 1.0).into();
        }
        _ => {
            json["tool"] = "paint".into();
            json["strength"] = dice.within(0.2, 1.0).into();
            json["texture"] = textures[(dice.next() % textures.len() as u64) as usize]
                .clone()
                .into();
        }
    }
    serde_json::from_value(json).expect("a stroke")
}

/// The files a 3.3.5 save of `map` writes, by name.
fn files(map: &Map) -> Vec<(String, Vec<u8>)> {
    loam::pipeline::encode_map(map, Generation::V335, true, None)
        .expect("encodes")
        .into_iter()
        .map(|f| (f.name, f.bytes))
        .collect()
}

/// Every tile's absolute heights as `wow-adt` reads them from `files`.
fn heights(dir: &std::path::Path, files: &[(String, Vec<u8>)]) -> Vec<Vec<f32>> {
    let mut out = Vec::new();
    for (name, bytes) in files.iter().filter(|(n, _)| n.ends_with(".adt")) {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let root = common::root_adt(&path);
        for m in &root.mcnk_chunks {
            out.push(common::absolute_heights(m));
        }
    }
    out
}

#[test]
fn five_thousand_strokes_stay_undoable_within_the_budget_bit_for_bit() {
    let mut map = loam::sample::sample_map();
    let opened = map.clone();
    let textures: Vec<String> = map.tiles.values().next().unwrap().textures.clone();
    let mut dice = Dice(0x1007_0A11_DA7A);
    let mut history = History::default();
    let mut halfway = None;
    const STROKES: usize = 5_000;
    for i in 0..STROKES {
        if i == STROKES / 2 {
            halfway = Some((map.clone(), history.len()));
        }
        let op = stroke(&mut dice, &textures);
        ops::apply(&mut map, &op, &mut history, LiquidStyle::Mh2o).expect("the stroke runs");
    }
    let last = map.clone();
    // Strokes that changed nothing (a point off the loaded tiles) make no step.
    let steps = history.len();
    assert!(steps > STROKES * 9 / 10, "{steps} steps");
    let bytes = history.size_bytes();
    eprintln!(
        "{steps} steps in {:.1} MiB: {} bytes a step",
        bytes as f64 / f64::from(1 << 20),
        bytes / steps
    );
    assert!(bytes <= DEFAULT_BUDGET, "{bytes} bytes");
    let (labels, head) = history.labels();
    assert_eq!((labels.len(), head), (steps, steps), "no step was dropped");

    // Undo back to the half: the map after the first half of the strokes.
    let (halfway, steps_then) = halfway.unwrap();
    for _ in steps_then..steps {
        assert!(history.undo(&mut map).is_some());
    }
    assert!(
        map == halfway,
        "undoing the second half gives the map after the first"
    );
    // The rest: the map as opened.
    while history.undo(&mut map).is_some() {}
    assert!(map == opened, "undoing every step gives the map as opened");
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("opened"), dir.path().join("undone"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let (fa, fb) = (files(&opened), files(&map));
    assert_eq!(
        fa, fb,
        "the files written after undoing all are those of the map as opened"
    );
    assert_eq!(heights(&a, &fa), heights(&b, &fb));
    // And forward again.
    while history.redo(&mut map).is_some() {}
    assert!(map == last, "redoing every step gives the last map");
}
