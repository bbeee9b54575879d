//! Bad input never panics: every corpus file cut and corrupted at many points decodes to a tile
//! or to a typed error naming the chunk and a byte offset inside the file.

mod common;

use common::*;
use loam::format::FormatError;
use loam::format::v18;
use proptest::prelude::*;

/// Offsets of every top-level chunk header, and of every MCNK's sub-chunk headers found by the
/// header offsets: the places where a corruption hurts most.
fn interesting_offsets(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= bytes.len() {
        out.push(at);
        out.push(at + 4);
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        if &bytes[at..at + 4] == b"KNCM" && out.len() < 400 {
            for field in [
                0x0C, 0x14, 0x18, 0x1C, 0x20, 0x24, 0x28, 0x2C, 0x58, 0x5C, 0x60, 0x64, 0x74,
            ] {
                out.push(at + 8 + field);
            }
        }
        at += 8 + size;
    }
    out
}

fn check_error(e: &FormatError, len: usize) {
    assert!(
        e.offset as usize <= len,
        "offset {} past the end {len}: {e}",
        e.offset
    );
    let shown = e.to_string();
    assert!(
        shown.contains("chunk ") && shown.contains("byte "),
        "{shown}"
    );
}

fn decode(bytes: &[u8]) {
    let depth = v18::sniff_alpha_depth(bytes);
    if let Err(e) = v18::read_adt(bytes, None, depth) {
        check_error(&e, bytes.len());
    }
}

#[test]
fn truncated_adts_fail_cleanly() {
    for rel in ADTS {
        let bytes = std::fs::read(corpus_file(rel)).unwrap();
        let mut cuts: Vec<usize> = interesting_offsets(&bytes)
            .into_iter()
            .step_by(3)
            .take(120)
            .collect();
        cuts.extend((0..60).map(|i| i * bytes.len() / 60));
        for cut in cuts {
            let cut = cut.min(bytes.len() - 1);
            let depth = v18::sniff_alpha_depth(&bytes[..cut]);
            let err =
                v18::read_adt(&bytes[..cut], None, depth).expect_err("a cut tile cannot be whole");
            check_error(&err, cut);
        }
    }
}

#[test]
fn corrupted_adts_never_panic() {
    for rel in ADTS {
        let original = std::fs::read(corpus_file(rel)).unwrap();
        let offsets = interesting_offsets(&original);
        for (i, &at) in offsets.iter().enumerate().take(300) {
            for value in [0xFFu8, 0x00, 0x7F] {
                let mut bytes = original.clone();
                // Overwrite a whole word so sizes and offsets become huge, zero or odd.
                for b in bytes.iter_mut().skip(at).take(4) {
                    *b = value.wrapping_add(i as u8);
                }
                decode(&bytes);
            }
        }
    }
}

#[test]
fn garbage_tags_are_reported_with_their_offset() {
    let mut bytes = std::fs::read(corpus_file("blizzardry/Azeroth_38_46.adt")).unwrap();
    bytes[12..16].copy_from_slice(b"ZZZZ"); // MHDR's tag
    let err = v18::read_adt(&bytes, None, v18::AlphaDepth::Nibble).unwrap_err();
    assert_eq!(
        err.kind,
        loam::format::ErrorKind::Missing(loam::format::chunk::tags::MHDR),
        "{err}"
    );

    let mut bytes = std::fs::read(corpus_file("blizzardry/Azeroth_38_46.adt")).unwrap();
    bytes[8..12].copy_from_slice(&17u32.to_le_bytes());
    let err = v18::read_adt(&bytes, None, v18::AlphaDepth::Nibble).unwrap_err();
    assert_eq!(
        (err.offset, err.kind.clone()),
        (8, loam::format::ErrorKind::UnsupportedVersion(17)),
        "{err}"
    );
}

#[test]
fn wdts_cut_or_corrupted_never_panic() {
    for rel in WDTS {
        let original = std::fs::read(corpus_file(rel)).unwrap();
        for cut in (0..original.len()).step_by(997) {
            if let Err(e) = v18::read_wdt(&original[..cut], "X") {
                check_error(&e, cut);
            }
        }
        for at in [
            0,
            4,
            8,
            12,
            16,
            20,
            52,
            56,
            60,
            original.len() - 8,
            original.len() - 4,
        ] {
            let mut bytes = original.clone();
            bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            if let Err(e) = v18::read_wdt(&bytes, "X") {
                check_error(&e, bytes.len());
            }
        }
    }
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let err = loam::pipeline::open_map(std::path::Path::new("/no/such/Map_1_2.adt")).unwrap_err();
    assert!(err.to_string().contains("/no/such/Map_1_2.adt"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random bytes spliced into a real tile at random places.
    #[test]
    fn randomly_mutated_tiles_never_panic(edits in proptest::collection::vec((0usize..453_825, any::<u32>()), 1..8)) {
        let mut bytes = std::fs::read(corpus_file("blizzardry/Azeroth_38_46.adt")).unwrap();
        for (at, v) in edits {
            let at = at.min(bytes.len() - 4);
            bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        decode(&bytes);
    }

    /// Pure noise, with a valid-looking MVER in front.
    #[test]
    fn noise_never_panics(mut noise in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let mut bytes = b"REVM\x04\x00\x00\x00\x12\x00\x00\x00".to_vec();
        bytes.append(&mut noise);
        decode(&bytes);
        let _ = v18::read_wdt(&bytes, "X");
    }
}

#[test]
fn a_huge_liquid_layer_count_is_an_error_not_an_allocation() {
    let mut bytes = std::fs::read(corpus_file("wowserhq-format/map/continent4229.adt")).unwrap();
    let mh2o = bytes.windows(4).position(|w| w == b"O2HM").unwrap() + 8;
    let chunk237 = mh2o + 237 * 12;
    bytes[chunk237 + 4..chunk237 + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = v18::read_adt(&bytes, None, v18::AlphaDepth::Nibble).unwrap_err();
    assert_eq!(err.chunk, loam::format::chunk::tags::MH2O, "{err}");
}
