//! Files last written by other tools (Noggit, TSWoW, converters): each quirk is made by patching
//! a Blizzard corpus file the way that tool writes it. loam must open it, re-save it untouched
//! byte for byte, convert it to the same content as the clean file, and `check` must warn (not
//! fail) about it.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use loam::cli::check::{self, Severity};
use loam::convert;
use loam::format::Generation;
use loam::format::v18;
use loam::model::{Map, Tile};
use loam::pipeline;
use proptest::prelude::*;

// ---- A small ADT patcher, independent of loam's own writer. ----

/// MCNK header fields that hold offsets from the MCNK tag.
const MCNK_OFFSET_FIELDS: [usize; 9] = [0x14, 0x18, 0x1C, 0x20, 0x24, 0x2C, 0x58, 0x60, 0x74];

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn set_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// A top-level chunk: readable tag and payload.
#[derive(Clone)]
struct Top {
    tag: [u8; 4],
    payload: Vec<u8>,
}

/// Splits a file into its top-level chunks.
fn split(bytes: &[u8]) -> Vec<Top> {
    let mut out = Vec::new();
    let mut p = 0;
    while p + 8 <= bytes.len() {
        let tag = [bytes[p + 3], bytes[p + 2], bytes[p + 1], bytes[p]];
        let size = u32_at(bytes, p + 4) as usize;
        out.push(Top {
            tag,
            payload: bytes[p + 8..p + 8 + size].to_vec(),
        });
        p += 8 + size;
    }
    out
}

/// Joins chunks back into a file, fixing MHDR offsets and MCIN offsets and sizes (as Blizzard
/// writes them: size = payload + 8). Other chunks keep their payloads.
fn join(chunks: &[Top]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = Vec::new();
    for c in chunks {
        at.push(out.len());
        out.extend_from_slice(&[c.tag[3], c.tag[2], c.tag[1], c.tag[0]]);
        out.extend_from_slice(&(c.payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&c.payload);
    }
    let find = |t: &[u8; 4]| chunks.iter().position(|c| &c.tag == t);
    if let Some(h) = find(b"MHDR") {
        let base = at[h] + 8;
        let slots: [&[u8; 4]; 11] = [
            b"MCIN", b"MTEX", b"MMDX", b"MMID", b"MWMO", b"MWID", b"MDDF", b"MODF", b"MFBO",
            b"MH2O", b"MTXF",
        ];
        for (k, t) in slots.iter().enumerate() {
            if let Some(i) = find(t) {
                set_u32(&mut out, base + 4 + k * 4, (at[i] - base) as u32);
            }
        }
    }
    if let Some(m) = find(b"MCIN") {
        let entries = at[m] + 8;
        let mcnks = chunks.iter().enumerate().filter(|(_, c)| &c.tag == b"MCNK");
        for (k, (i, c)) in mcnks.enumerate() {
            set_u32(&mut out, entries + k * 16, at[i] as u32);
            set_u32(&mut out, entries + k * 16 + 4, c.payload.len() as u32 + 8);
        }
    }
    out
}

/// The payload of the `n`th MCNK.
fn mcnk(chunks: &mut [Top], n: usize) -> &mut Vec<u8> {
    &mut chunks
        .iter_mut()
        .filter(|c| &c.tag == b"MCNK")
        .nth(n)
        .unwrap()
        .payload
}

/// Removes the sub-chunk whose offset (from the MCNK tag) is in header field `field`, shifting
/// the offsets of what follows it.
fn remove_sub(payload: &mut Vec<u8>, field: usize) {
    let ofs = u32_at(payload, field) as usize;
    let start = ofs - 8;
    let len = 8 + u32_at(payload, start + 4) as usize;
    payload.drain(start..start + len);
    for f in MCNK_OFFSET_FIELDS {
        let v = u32_at(payload, f) as usize;
        if v > ofs {
            set_u32(payload, f, (v - len) as u32);
        }
    }
}

fn corpus_bytes(rel: &str) -> Vec<u8> {
    std::fs::read(corpus_file(rel)).unwrap()
}

const CONTINENT: &str = "wowserhq-format/map/continent4229.adt";

// ---- What every quirk test asserts. ----

/// Writes `bytes` as a lone ADT in a fresh folder and opens it.
fn open_lone(dir: &Path, name: &str, bytes: &[u8]) -> pipeline::OpenedMap {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    pipeline::open_map(&path).unwrap_or_else(|e| panic!("{name} does not open: {e}"))
}

/// A tile's content as a user sees it (no quirks, no bytes kept for re-saving).
fn content(tile: &Tile) -> String {
    let mut out = format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}\n",
        tile.coord,
        tile.textures,
        tile.doodad_names,
        tile.wmo_names,
        tile.doodads,
        tile.wmos,
        tile.flight_bounds,
        tile.texture_flags
    );
    for c in &tile.chunks {
        let heights: Vec<u32> = c.heights.iter().map(|h| h.to_bits()).collect();
        out += &format!(
            "{:?} {:?} {:?} {:?} {} {} {:?} {:?} {:?} {:?} {:?} {:?}\n",
            heights,
            c.normals,
            c.shadow.as_ref().map(|s| s.rows.clone()),
            c.vertex_colors,
            c.holes,
            c.area_id,
            c.doodad_refs,
            c.wmo_refs,
            c.liquid,
            c.sound_emitters,
            c.low_quality_texture_map,
            c.no_effect_doodad,
        );
        for l in &c.layers {
            out += &format!(
                "  layer {} {:x} {} {:?}\n",
                l.texture,
                l.flags,
                l.effect_id,
                l.alpha.as_ref().map(|a| a.texels().to_vec())
            );
        }
    }
    out
}

fn only_tile(map: &Map) -> &Tile {
    assert_eq!(map.tiles.len(), 1);
    map.tiles.values().next().unwrap()
}

/// The tiles of every generation other than `opened`'s that `map` converts to, decoded back.
fn converted(opened: &pipeline::OpenedMap) -> Vec<(Generation, Vec<u8>)> {
    let mut out = Vec::new();
    for to in [Generation::V060, Generation::V112, Generation::V335] {
        if to == opened.generation {
            continue;
        }
        let mut map = opened.map.clone();
        convert::prepare_map(&mut map, opened.generation, to);
        let files = pipeline::encode_map(&map, to, false, None).unwrap();
        assert_eq!(files.len(), 1);
        out.push((to, files[0].bytes.clone()));
    }
    out
}

/// Opens the quirky and the clean file, and checks: the quirky one re-saves byte for byte, has
/// the clean one's content, converts to the same bytes as the clean one, and `check` warns with
/// `expect` in the message and reports no error.
fn assert_quirk_handled(quirky: &[u8], clean: &[u8], expect: &[&str]) -> pipeline::OpenedMap {
    let dir = tempfile::tempdir().unwrap();
    let q = open_lone(dir.path(), "quirky.adt", quirky);
    let c = open_lone(dir.path(), "clean.adt", clean);
    let (qt, ct) = (only_tile(&q.map), only_tile(&c.map));

    let resaved = v18::write_adt(qt, pipeline::alpha_target(&q.map));
    assert_same_bytes("untouched quirky tile", quirky, &resaved);
    assert_eq!(
        content(qt),
        content(ct),
        "content differs from the clean file"
    );

    assert_eq!(q.generation, c.generation);
    for ((to, qb), (_, cb)) in converted(&q).into_iter().zip(converted(&c)) {
        assert_same_bytes(&format!("converted to {to}"), &cb, &qb);
    }

    let problems = check::check_map(&q, check::DEFAULT_SEAM_THRESHOLD);
    let errors: Vec<_> = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "errors: {errors:?}");
    assert!(
        problems.iter().any(
            |p| p.severity == Severity::Warning && expect.iter().all(|e| p.message.contains(e))
        ),
        "no warning naming {expect:?}: {problems:?}"
    );
    // The clean file has no such warning.
    assert!(
        check::check_map(&c, check::DEFAULT_SEAM_THRESHOLD)
            .iter()
            .all(|p| !expect.iter().all(|e| p.message.contains(e))),
        "the clean file warns too"
    );
    q
}

// ---- The quirks. ----

/// Noggit: flag 0x1 kept, MCSH removed, ofsShadow and sizeShadow 0.
#[test]
fn shadow_flag_without_mcsh() {
    let mut chunks = split(&corpus_bytes(CONTINENT));
    let chunk = 0;
    let payload = mcnk(&mut chunks, chunk);
    assert_eq!(
        u32_at(payload, 0) & 1,
        1,
        "test needs a chunk with a shadow"
    );
    remove_sub(payload, 0x2C);
    let mut clean_chunks = chunks.clone();
    let p = mcnk(&mut chunks, chunk);
    set_u32(p, 0x2C, 0);
    set_u32(p, 0x30, 0);
    // The clean form: no flag, ofsShadow where MCSH would be (at MCAL), size 0.
    let p = mcnk(&mut clean_chunks, chunk);
    let flags = u32_at(p, 0);
    set_u32(p, 0, flags & !1);
    let alpha = u32_at(p, 0x24);
    set_u32(p, 0x2C, alpha);
    set_u32(p, 0x30, 0);
    let opened = assert_quirk_handled(
        &join(&chunks),
        &join(&clean_chunks),
        &["chunk 0,0", "MCSH", "Noggit"],
    );
    let tile = only_tile(&opened.map);
    assert!(tile.chunks[0].shadow.is_none());
    assert!(tile.chunks[1].shadow.is_some() || tile.chunks[1].flags & 1 == 0);
}

/// Noggit: sizeLiquid 8 with ofsLiquid 0 and no MCLQ.
#[test]
fn liquid_size_eight_without_mclq() {
    let original = corpus_bytes(CONTINENT);
    let mut chunks = split(&original);
    let p = mcnk(&mut chunks, 3);
    assert_eq!((u32_at(p, 0x60), u32_at(p, 0x64)), (0, 0));
    set_u32(p, 0x64, 8);
    assert_quirk_handled(
        &join(&chunks),
        &original,
        &["chunk 3,0", "sizeLiquid", "Noggit"],
    );
}

/// Converters: MCIN sizes without the 8-byte chunk header.
#[test]
fn mcin_sizes_without_header() {
    let original = corpus_bytes(CONTINENT);
    let mut bytes = original.clone();
    let mcin = bytes.windows(4).position(|w| w == b"NICM").unwrap() + 8;
    for k in 0..256 {
        let at = mcin + k * 16 + 4;
        let v = u32_at(&bytes, at);
        set_u32(&mut bytes, at, v - 8);
    }
    assert_quirk_handled(&bytes, &original, &["MCIN", "8-byte"]);
}

/// Noggit: a chunk whose textures were all removed has an empty MCLY and MCAL.
#[test]
fn empty_mcly() {
    let original = corpus_bytes(CONTINENT);
    let mut chunks = split(&original);
    let p = mcnk(&mut chunks, 7);
    assert!(u32_at(p, 12) > 0);
    // Empty MCLY: drop its records; empty MCAL: drop the alpha maps.
    let mcly = u32_at(p, 0x1C) as usize - 8;
    let n = u32_at(p, 12) as usize;
    p.drain(mcly + 8..mcly + 8 + n * 16);
    set_u32(p, mcly + 4, 0);
    for f in MCNK_OFFSET_FIELDS {
        let v = u32_at(p, f) as usize;
        if v > mcly + 8 {
            set_u32(p, f, (v - n * 16) as u32);
        }
    }
    let mcal = u32_at(p, 0x24) as usize - 8;
    let alpha = u32_at(p, mcal + 4) as usize;
    p.drain(mcal + 8..mcal + 8 + alpha);
    set_u32(p, mcal + 4, 0);
    for f in MCNK_OFFSET_FIELDS {
        let v = u32_at(p, f) as usize;
        if v > mcal + 8 {
            set_u32(p, f, (v - alpha) as u32);
        }
    }
    set_u32(p, 12, 0);
    set_u32(p, 0x28, 8);
    let quirky = join(&chunks);
    let dir = tempfile::tempdir().unwrap();
    let q = open_lone(dir.path(), "quirky.adt", &quirky);
    let tile = only_tile(&q.map);
    assert!(tile.chunks[7].layers.is_empty());
    assert_same_bytes(
        "untouched",
        &quirky,
        &v18::write_adt(tile, pipeline::alpha_target(&q.map)),
    );
    // Everything else is the original's.
    let c = open_lone(dir.path(), "clean.adt", &original);
    let mut expected = only_tile(&c.map).clone();
    expected.chunks[7].layers.clear();
    assert_eq!(content(tile), content(&expected));
    for (to, bytes) in converted(&q) {
        let back = v18::read_adt(&bytes, None, v18::AlphaDepth::Infer);
        if to != Generation::V060 {
            let back = back.unwrap();
            assert!(back.chunks[7].layers.is_empty(), "{to}");
        }
    }
    let problems = check::check_map(&q, check::DEFAULT_SEAM_THRESHOLD);
    assert!(problems.iter().all(|p| p.severity == Severity::Warning));
    assert!(
        problems
            .iter()
            .any(|p| p.message.contains("chunk 7,0") && p.message.contains("no layers"))
    );
}

/// Noggit/TSWoW: lower-case, forward-slash paths, kept byte for byte.
#[test]
fn lower_case_forward_slash_paths() {
    let original = corpus_bytes(CONTINENT);
    let mut chunks = split(&original);
    for c in chunks.iter_mut() {
        if &c.tag == b"MTEX" || &c.tag == b"MMDX" {
            // Same length, so MMID offsets still hold.
            for b in c.payload.iter_mut() {
                *b = if *b == b'\\' {
                    b'/'
                } else {
                    b.to_ascii_lowercase()
                };
            }
        }
    }
    let quirky = join(&chunks);
    let dir = tempfile::tempdir().unwrap();
    let q = open_lone(dir.path(), "quirky.adt", &quirky);
    let tile = only_tile(&q.map);
    assert_same_bytes(
        "untouched",
        &quirky,
        &v18::write_adt(tile, pipeline::alpha_target(&q.map)),
    );
    let c = open_lone(dir.path(), "clean.adt", &original);
    let clean = only_tile(&c.map);
    let lower = |v: &[String]| -> Vec<String> {
        v.iter()
            .map(|s| s.replace('\\', "/").to_ascii_lowercase())
            .collect()
    };
    assert_eq!(tile.textures, lower(&clean.textures));
    assert_eq!(tile.doodad_names, lower(&clean.doodad_names));
    assert_eq!(tile.chunks, clean.chunks);
    let problems = check::check_map(&q, check::DEFAULT_SEAM_THRESHOLD);
    assert!(problems.iter().all(|p| p.severity == Severity::Warning));
    for tag in ["MTEX", "MMDX"] {
        assert!(
            problems
                .iter()
                .any(|p| p.message.starts_with(tag) && p.message.contains("lower case")),
            "{tag}: {problems:?}"
        );
    }
    assert!(!problems.iter().any(|p| p.message.starts_with("MWMO")));
}

/// A sub-chunk's size runs past the end of its MCNK (the last one, MCSE).
#[test]
fn sub_chunk_size_past_mcnk_end() {
    let original = corpus_bytes(CONTINENT);
    let mut chunks = split(&original);
    let p = mcnk(&mut chunks, 9);
    let mcse = u32_at(p, 0x58) as usize - 8;
    assert_eq!(
        mcse + 8 + u32_at(p, mcse + 4) as usize,
        p.len(),
        "MCSE is last"
    );
    set_u32(p, mcse + 4, 0x100);
    assert_quirk_handled(
        &join(&chunks),
        &original,
        &["chunk 9,0", "MCSE", "past the end"],
    );
}

/// The file's last chunk claims more bytes than the file has.
#[test]
fn chunk_size_past_file_end() {
    let original = corpus_bytes(CONTINENT);
    let chunks = split(&original);
    let last = chunks.last().unwrap();
    let at = original.len() - last.payload.len() - 8;
    let mut bytes = original.clone();
    set_u32(&mut bytes, at + 4, last.payload.len() as u32 + 40);
    // MCIN says what the MCNK header says, as a tool that miscounted would.
    let mcin = bytes.windows(4).position(|w| w == b"NICM").unwrap() + 8;
    set_u32(
        &mut bytes,
        mcin + 255 * 16 + 4,
        last.payload.len() as u32 + 48,
    );
    assert_quirk_handled(&bytes, &original, &["past the end of the file"]);
}

/// Noggit and converters: a WDT without MWMO.
#[test]
fn wdt_without_mwmo() {
    let original = corpus_bytes("wowserhq-format/map/pvpzone.wdt");
    assert_eq!(&original[original.len() - 8..original.len() - 4], b"OMWM");
    let quirky = &original[..original.len() - 8];
    let map = v18::read_wdt(quirky, "pvpzone").unwrap();
    assert_same_bytes("untouched WDT", quirky, &v18::write_wdt(&map));
    let clean = v18::read_wdt(&original, "pvpzone").unwrap();
    assert_eq!(map.tile_flags, clean.tile_flags);
    assert_eq!(
        (map.flags, map.header_extra),
        (clean.flags, clean.header_extra)
    );
    assert_eq!(map.global_wmo, clean.global_wmo);
    let opened = pipeline::OpenedMap {
        map,
        folder: PathBuf::from("."),
        generation: Generation::V335,
        decision: loam::format::evidence::Decision {
            generation: Generation::V335,
            reason: "test".into(),
            assumed: false,
        },
        kind: pipeline::MapKind::SplitWdt,
        wdt: Some(PathBuf::from("pvpzone.wdt")),
        missing_tiles: Vec::new(),
        failed: Default::default(),
        lone_tile_file: None,
    };
    let problems = check::check_map(&opened, check::DEFAULT_SEAM_THRESHOLD);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].severity, Severity::Warning);
    assert!(problems[0].message.contains("no MWMO"));
    for to in [Generation::V060, Generation::V112] {
        let mut map = opened.map.clone();
        convert::prepare_map(&mut map, Generation::V335, to);
        let files = pipeline::encode_map(&map, to, true, None).unwrap();
        assert!(!files[0].bytes.is_empty(), "{to}");
    }
}

/// A WDT whose MPHD says 8-bit alpha over a tile whose maps are 4-bit.
#[test]
fn mphd_alpha_flag_disagrees_with_tiles() {
    // Azeroth_38_46 has no alpha maps (nothing to prove); continent4229 has 4-bit ones.
    let wdt = corpus_bytes("blizzardry/Azeroth.wdt");
    let adt = corpus_bytes(CONTINENT);
    let coord = v18::read_adt(&adt, None, v18::AlphaDepth::Nibble)
        .unwrap()
        .coord;
    let adt_name = format!("Azeroth_{}_{}.adt", coord.x, coord.y);
    // Only that one tile is listed.
    let mut clean_wdt = wdt.clone();
    let main = clean_wdt.windows(4).position(|w| w == b"NIAM").unwrap() + 8;
    for i in 0..4096 {
        let flag = u32::from(i == coord.y as usize * 64 + coord.x as usize);
        set_u32(&mut clean_wdt, main + i * 8, flag);
    }
    let mphd = clean_wdt.windows(4).position(|w| w == b"DHPM").unwrap() + 8;
    assert_eq!(
        u32_at(&clean_wdt, mphd) & 0x84,
        0,
        "the corpus WDT is 4-bit"
    );
    let mut quirky_wdt = clean_wdt.clone();
    set_u32(&mut quirky_wdt, mphd, u32_at(&clean_wdt, mphd) | 0x4);

    let open = |wdt: &[u8]| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Azeroth.wdt"), wdt).unwrap();
        std::fs::write(dir.path().join(&adt_name), &adt).unwrap();
        let opened = pipeline::open_map(&dir.path().join("Azeroth.wdt")).unwrap();
        (opened, dir)
    };
    let (q, _qd) = open(&quirky_wdt);
    let (c, _cd) = open(&clean_wdt);
    assert_eq!(content(only_tile(&q.map)), content(only_tile(&c.map)));
    let files = pipeline::encode_map(&q.map, q.generation, true, None).unwrap();
    assert_same_bytes("WDT", &quirky_wdt, &files[0].bytes);
    assert_same_bytes("ADT", &adt, &files[1].bytes);
    let problems = check::check_map(&q, check::DEFAULT_SEAM_THRESHOLD);
    assert!(problems.iter().all(|p| p.severity == Severity::Warning));
    assert!(
        problems
            .iter()
            .any(|p| p.message.contains("4-bit but the WDT says 8-bit")),
        "{problems:?}"
    );
    assert!(check::check_map(&c, check::DEFAULT_SEAM_THRESHOLD).is_empty());
    // Converted, the tile is written the way its (new) WDT says: the clean map's bytes.
    assert_eq!(
        (q.generation, c.generation),
        (Generation::V335, Generation::V335)
    );
    let to_112 = |opened: &pipeline::OpenedMap| {
        let mut map = opened.map.clone();
        convert::prepare_map(&mut map, opened.generation, Generation::V112);
        pipeline::encode_map(&map, Generation::V112, true, None).unwrap()
    };
    let (qf, cf) = (to_112(&q), to_112(&c));
    assert_same_bytes("converted WDT", &cf[0].bytes, &qf[0].bytes);
    assert_same_bytes("converted ADT", &cf[1].bytes, &qf[1].bytes);
}

/// `loam check` prints quirks as `warning:` lines and still succeeds.
#[test]
fn check_cli_warns_without_failing() {
    let original = corpus_bytes(CONTINENT);
    let mut chunks = split(&original);
    set_u32(mcnk(&mut chunks, 3), 0x64, 8);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quirky.adt");
    std::fs::write(&path, join(&chunks)).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    let warning = out
        .lines()
        .find(|l| l.starts_with("warning: "))
        .unwrap_or_else(|| panic!("no warning line: {out}"));
    assert!(
        warning.contains("quirky.adt") && warning.contains("chunk 3,0"),
        "{warning}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any of the quirk patches, on any chunk, with any header word scribbled, never panics.
    #[test]
    fn quirk_patches_on_random_chunks_never_panic(
        chunk in 0usize..256,
        kind in 0usize..5,
        field in 0usize..32,
        value in any::<u32>(),
    ) {
        let original = corpus_bytes(CONTINENT);
        let mut chunks = split(&original);
        let p = mcnk(&mut chunks, chunk);
        match kind {
            0 => {
                if u32_at(p, 0x2C) >= 8 && u32_at(p, 0x30) > 0 {
                    remove_sub(p, 0x2C);
                }
                set_u32(p, 0x2C, 0);
                set_u32(p, 0x30, 0);
                let flags = u32_at(p, 0);
                set_u32(p, 0, flags | 1);
            }
            1 => set_u32(p, 0x64, 8),
            2 => {
                let mcse = u32_at(p, 0x58) as usize;
                if mcse >= 8 && mcse + 4 <= p.len() {
                    set_u32(p, mcse - 4, value);
                }
            }
            _ => {}
        }
        if kind == 3 {
            set_u32(p, field * 4, value);
        }
        let bytes = join(&chunks);
        if let Ok(tile) = v18::read_adt(&bytes, None, v18::AlphaDepth::Infer) {
            let written = v18::write_adt(&tile, v18::AlphaTarget { big: false });
            let _ = v18::read_adt(&written, None, v18::AlphaDepth::Infer);
        }
        let _ = v18::sniff_alpha_depth(&bytes);
    }
}
