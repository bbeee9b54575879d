//! Helpers shared by the integration tests: where the corpus is and how to compare bytes.
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared corpus folder (always present beside the checkout, in CI too).
pub fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// A corpus file.
pub fn corpus_file(rel: &str) -> PathBuf {
    let p = corpus().join(rel);
    assert!(p.exists(), "corpus file {} is missing", p.display());
    p
}

/// The Blizzard-written ADTs of the corpus.
pub const ADTS: [&str; 4] = [
    "wowserhq-format/map/continent4229.adt",
    "warcraft-net/ADT/Northrend_37_25.adt",
    "wowserhq-format/map/pvpzone3430.adt",
    "blizzardry/Azeroth_38_46.adt",
];

/// The Blizzard-written WDTs of the corpus.
pub const WDTS: [&str; 2] = ["blizzardry/Azeroth.wdt", "wowserhq-format/map/pvpzone.wdt"];

/// Asserts two byte strings are equal, naming the first differing offset.
pub fn assert_same_bytes(what: &str, expected: &[u8], actual: &[u8]) {
    if expected == actual {
        return;
    }
    let first = expected
        .iter()
        .zip(actual)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(actual.len()));
    let window = |b: &[u8]| b[first.saturating_sub(8)..(first + 16).min(b.len())].to_vec();
    panic!(
        "{what}: differs at byte {first} (0x{first:x}); lengths {} vs {}\n expected {:02x?}\n actual   {:02x?}",
        expected.len(),
        actual.len(),
        window(expected),
        window(actual)
    );
}

/// The bundled sample written into `dir`, with the first 64 bytes of tile 32_31 destroyed so
/// that it cannot be read; returns the WDT.
pub fn sample_with_a_bad_tile(dir: &std::path::Path) -> PathBuf {
    loam::sample::write_sample(dir).unwrap();
    let bad = dir.join("Sample_32_31.adt");
    let mut bytes = std::fs::read(&bad).unwrap();
    bytes[..64].fill(0xEE);
    std::fs::write(&bad, &bytes).unwrap();
    dir.join("Sample.wdt")
}
