//! Limits on input (issue 14, part 5): no count or size field makes a decoder allocate beyond
//! what the file's size justifies. Real files of every kind loam reads (corpus tiles, WDTs,
//! models, textures, and files loam writes in 0.5.3, 0.5.5, 0.6.0, 1.12 and 3.3.5) get each
//! count, size and offset field set to huge values, and a counting global allocator checks that
//! the decoder's peak heap use stays within `K × input size + C` for the kind's documented K and
//! C (docs/reliability.md, "Limits on input").

mod alpha_support;
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use alpha_support::corpus_tiles;
use common::*;
use loam::assets::{blp, models};
use loam::format::{alpha, proto055, v18, v060};
use loam::model::Map;
use loam::model::map::TILE_PRESENT;
use loam::model::monolithic::MapWideNames;

/// Counts the heap bytes the process holds and the most it held. Decoders use rayon (a tile's
/// MCNKs decode in parallel), so the count is global; [`peak_of`] lets one measurement run at a
/// time.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static MEASURING: Mutex<()> = Mutex::new(());

fn add(n: usize) {
    let now = HELD.fetch_add(n, Ordering::SeqCst) + n;
    PEAK.fetch_max(now, Ordering::SeqCst);
}

fn sub(n: usize) {
    HELD.fetch_sub(n, Ordering::SeqCst);
}

// SAFETY: every call is forwarded to the system allocator unchanged; only counters are kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        add(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        sub(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size);
        sub(layout.size());
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Runs one test of this file while no other does. The allocator's count is global (decoders
/// use rayon's threads), so a test that built its inputs while another measured would count
/// against that decoder: a tight bound failed so once on a busy machine (67.1 MB against
/// 64 MiB, the decoder alone holding less). Every test runs whole inside its turn.
fn serial(test: impl FnOnce()) {
    let _turn = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    test();
}

/// The most heap bytes held while `decode` ran beyond what was held before it (its result
/// included). Called inside a test's [`serial`] turn, so nothing else allocates meanwhile.
fn peak_of(decode: impl FnOnce()) -> usize {
    let before = HELD.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    decode();
    PEAK.load(Ordering::SeqCst).saturating_sub(before)
}

/// A file kind's bound: a decoder may hold at most `k × input + c` bytes.
#[derive(Clone, Copy)]
struct Bound {
    k: usize,
    c: usize,
}

const MIB: usize = 1 << 20;

/// Terrain files (ADT, WDT of every generation). A decoded tile holds 8-bit alpha where the file
/// had 4-bit, f32 heights and normals, and per-chunk vectors: a few times the file's size. The
/// worst case is a name list (MTEX, MMDX, MDNM, ...) of zero bytes: each byte is an empty name,
/// one 24-byte `String` each. The constant covers the fixed-size parts (4096 MAIN entries, 256
/// chunk records) of a tiny file.
const TERRAIN: Bound = Bound { k: 24, c: 4 * MIB };
/// Models (M2, MDX, WMO): meshes widen indices and vertices into the renderer's layout.
const MODELS: Bound = Bound { k: 16, c: 4 * MIB };
/// BLP: a DXT1 image decodes to 8 bytes of RGBA per input byte (4 bits a texel), mip level 0
/// only. The wow-blp path's header check allows up to 65535 × 65535 before it reads the data, so
/// what bounds it is the data's size check before its buffers.
const TEXTURES: Bound = Bound { k: 20, c: 4 * MIB };

/// The huge values every field is set to, and one below its own value (a size one short).
fn values_for(original: u32) -> [u32; 3] {
    [0xFFFF_FFFF, 0x7FFF_FFFF, original.wrapping_sub(1)]
}

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// Sets the word at each of `fields` to each huge value in turn and checks `decode`'s peak
/// against `bound`; returns how many variants ran.
fn check_fields(
    what: &str,
    bytes: &[u8],
    fields: &[usize],
    bound: Bound,
    decode: &dyn Fn(&[u8]),
) -> usize {
    let groups: Vec<Vec<usize>> = fields.iter().map(|&f| vec![f]).collect();
    check_groups(what, bytes, &groups, bound, decode)
}

/// As [`check_fields`], but each group's words are set together: the same field in every chunk
/// of a kind at once (see [`every_chunk_groups`]), so that no chunk is left out and the huge
/// values add up.
fn check_groups(
    what: &str,
    bytes: &[u8],
    groups: &[Vec<usize>],
    bound: Bound,
    decode: &dyn Fn(&[u8]),
) -> usize {
    let limit = bound.k * bytes.len() + bound.c;
    let peak = peak_of(|| decode(bytes));
    assert!(peak <= limit, "{what} as it is: peak {peak} > {limit}");
    let mut worst = (peak, None);
    let mut runs = 1;
    let mut mutated = bytes.to_vec();
    for group in groups {
        let group: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&at| at + 4 <= bytes.len())
            .collect();
        let (Some(&first), Some(&last)) = (group.first(), group.last()) else {
            continue;
        };
        for which in 0..3 {
            let mut v = 0;
            for &at in &group {
                v = values_for(word(bytes, at))[which];
                mutated[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            let peak = peak_of(|| decode(&mutated));
            assert!(
                peak <= limit,
                "{what}: {} word(s) at bytes {first}..={last} (first 0x{first:x}) set to \
                 0x{v:08x}: peak {peak} bytes > {limit} ({} × {} + {})",
                group.len(),
                bound.k,
                bytes.len(),
                bound.c
            );
            if peak > worst.0 {
                worst = (peak, Some((first, group.len(), v)));
            }
            runs += 1;
        }
        for &at in &group {
            mutated[at..at + 4].copy_from_slice(&bytes[at..at + 4]);
        }
    }
    // The figures docs/reliability.md quotes (`cargo test --test alloc_limits -- --nocapture`).
    println!(
        "{what}: {} bytes, {runs} variants, worst peak {} bytes ({:.1} × input) with \
         (first byte, words, value) {:x?}",
        bytes.len(),
        worst.0,
        worst.0 as f64 / bytes.len() as f64,
        worst.1
    );
    runs
}

/// The chunks of an IFF-style run (tag, u32 size, payload) from `at`: (tag offset, size).
fn chunks_from(bytes: &[u8], mut at: usize, end: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    while at + 8 <= end {
        let size = word(bytes, at + 4) as usize;
        out.push((at, size));
        at = at.saturating_add(8).saturating_add(size);
    }
    out
}

/// Every u32 of `len` bytes from `at`.
fn words(at: usize, len: usize) -> impl Iterator<Item = usize> {
    (at..at + len).step_by(4)
}

/// The count, size and offset fields of a split ADT (v18 or 0.6.0): every top-level size field;
/// every word of MHDR, of the first 4 MCIN entries and of MH2O's header for 8 chunks and their
/// first instances; and, for every 64th MCNK, its whole header, its sub-chunks' size fields and
/// every word of its MCLY.
fn adt_fields(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, (at, size)) in chunks_from(bytes, 0, bytes.len()).into_iter().enumerate() {
        out.push(at + 4);
        let tag = &bytes[at..at + 4];
        let payload = at + 8;
        let inside = size.min(bytes.len().saturating_sub(payload));
        match tag {
            b"RDHM" => out.extend(words(payload, inside.min(64))),
            b"NICM" => out.extend(words(payload, inside.min(4 * 16))),
            b"O2HM" => out.extend(words(payload, inside.min(8 * 12 + 4 * 24))),
            b"KNCM" if i % 64 == 0 && inside >= 128 => {
                out.extend(words(payload, 128));
                for (sub, sub_size) in chunks_from(bytes, payload + 128, payload + inside) {
                    out.push(sub + 4);
                    if &bytes[sub..sub + 4] == b"YLCM" {
                        out.extend(words(sub + 8, sub_size.min(64)));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Every count, size and offset field of every chunk of a split ADT (or of a tile block from
/// `at`), grouped by kind: word k of every MCNK header at once, the size of every MCNK's
/// sub-chunk with the same tag, word k of every MCLY entry, of every MCIN entry, of every MH2O
/// chunk header and of every MH2O instance. [`adt_fields`] sets single fields; these set each
/// field in all chunks together.
fn every_chunk_groups(bytes: &[u8], at: usize) -> Vec<Vec<usize>> {
    use std::collections::BTreeMap;
    let mut groups: BTreeMap<(&'static str, [u8; 4], usize), Vec<usize>> = BTreeMap::new();
    for (chunk, size) in chunks_from(bytes, at, bytes.len()) {
        let payload = chunk + 8;
        let inside = size.min(bytes.len().saturating_sub(payload));
        match &bytes[chunk..chunk + 4] {
            b"NICM" => {
                for entry in (payload..payload + inside - inside % 16).step_by(16) {
                    for k in 0..4 {
                        groups
                            .entry(("mcin", *b"    ", k))
                            .or_default()
                            .push(entry + 4 * k);
                    }
                }
            }
            b"O2HM" => {
                for header in (payload..payload + inside.min(256 * 12) - inside.min(256 * 12) % 12)
                    .step_by(12)
                {
                    for k in 0..3 {
                        groups
                            .entry(("mh2o", *b"    ", k))
                            .or_default()
                            .push(header + 4 * k);
                    }
                    // The chunk's instances: (offset from MH2O's data, count).
                    let (first, count) = (
                        word(bytes, header) as usize,
                        word(bytes, header + 4) as usize,
                    );
                    for i in 0..count.min(8) {
                        let instance = payload.saturating_add(first).saturating_add(24 * i);
                        if first != 0 && instance + 24 <= payload + inside {
                            for k in 0..6 {
                                groups
                                    .entry(("mh2o instance", *b"    ", k))
                                    .or_default()
                                    .push(instance + 4 * k);
                            }
                        }
                    }
                }
            }
            b"KNCM" if inside >= 128 => {
                for k in 0..32 {
                    groups
                        .entry(("mcnk", *b"    ", k))
                        .or_default()
                        .push(payload + 4 * k);
                }
                for (sub, sub_size) in chunks_from(bytes, payload + 128, payload + inside) {
                    let tag: [u8; 4] = bytes[sub..sub + 4].try_into().unwrap();
                    groups
                        .entry(("sub-chunk size", tag, 0))
                        .or_default()
                        .push(sub + 4);
                    if &tag == b"YLCM" {
                        let layers =
                            sub_size.min(payload + inside - (sub + 8).min(payload + inside));
                        for entry in (sub + 8..sub + 8 + layers - layers % 16).step_by(16) {
                            for k in 0..4 {
                                groups
                                    .entry(("mcly", *b"    ", k))
                                    .or_default()
                                    .push(entry + 4 * k);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    groups.into_values().collect()
}

/// [`every_chunk_groups`] of each of the first tile blocks of a monolithic WDT (from their MHDR).
fn monolithic_groups(bytes: &[u8]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for (at, size) in chunks_from(bytes, 0, bytes.len()) {
        if &bytes[at..at + 4] == b"NIAM" {
            let inside = size.min(bytes.len().saturating_sub(at + 8));
            for e in (0..inside / 16).map(|e| at + 8 + e * 16) {
                let tile = word(bytes, e) as usize;
                if tile != 0 && tile < bytes.len() {
                    out.extend(every_chunk_groups(bytes, tile));
                }
            }
        }
    }
    out
}

/// The fields of a WDT of any generation: every top-level size field and every word of MPHD;
/// for a monolithic WDT also the first MAIN entries that point at tiles, and each embedded
/// tile's chunks as in [`adt_fields`] (its MHDR, MCIN and MCNKs follow the same pattern).
fn wdt_fields(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    for (at, size) in chunks_from(bytes, 0, bytes.len()) {
        out.push(at + 4);
        let payload = at + 8;
        let inside = size.min(bytes.len().saturating_sub(payload));
        match &bytes[at..at + 4] {
            b"DHPM" => out.extend(words(payload, inside.min(128))),
            b"NIAM" => {
                let present: Vec<usize> = (0..inside / 16)
                    .map(|e| payload + e * 16)
                    .filter(|&e| word(bytes, e) != 0)
                    .take(4)
                    .collect();
                for e in present {
                    out.extend(words(e, 8));
                    let tile = word(bytes, e) as usize;
                    if tile < bytes.len() {
                        // The embedded tile block, from its MHDR on, as an ADT without MVER.
                        out.extend(
                            adt_fields(&bytes[tile..])
                                .into_iter()
                                .map(|f| f + tile)
                                .take(300),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Every word of the first `len` bytes: the headers of models and textures, where their counts
/// and offsets live.
fn header_fields(bytes: &[u8], len: usize) -> Vec<usize> {
    words(0, len.min(bytes.len().saturating_sub(3))).collect()
}

fn v18_adt(bytes: &[u8]) {
    let _ = v18::read_adt(bytes, None, v18::sniff_alpha_depth(bytes));
}

#[test]
fn v18_adts_allocate_within_their_bound() {
    serial(|| {
        let mut runs = 0;
        for rel in ADTS {
            let bytes = std::fs::read(corpus_file(rel)).unwrap();
            runs += check_fields(rel, &bytes, &adt_fields(&bytes), TERRAIN, &v18_adt);
            runs += check_groups(
                rel,
                &bytes,
                &every_chunk_groups(&bytes, 0),
                TERRAIN,
                &v18_adt,
            );
        }
        // 8-bit alpha read as such: the MCAL sizes then count double.
        let bytes = std::fs::read(corpus_file(ADTS[0])).unwrap();
        runs += check_fields(ADTS[0], &bytes, &adt_fields(&bytes), TERRAIN, &|b| {
            let _ = v18::read_adt(b, None, v18::AlphaDepth::Big);
        });
        assert!(runs > 1000, "{runs} variants");
    });
}

#[test]
fn v18_and_0_6_0_wdts_allocate_within_their_bound() {
    serial(|| {
        for rel in WDTS {
            let bytes = std::fs::read(corpus_file(rel)).unwrap();
            check_fields(rel, &bytes, &wdt_fields(&bytes), TERRAIN, &|b| {
                let _ = v18::read_wdt(b, "X");
            });
        }
    });
}

/// Corpus tiles as loam writes them for the older generations.
fn old_generation_map() -> Map {
    let mut map = Map::new("Limits");
    for (_, _, tile) in corpus_tiles(&ADTS[2..]) {
        map.tile_flags[tile.coord.index()] = TILE_PRESENT;
        map.tiles.insert(tile.coord, tile);
    }
    map
}

#[test]
fn loam_written_0_6_0_adts_allocate_within_their_bound() {
    serial(|| {
        let map = old_generation_map();
        for tile in map.tiles.values() {
            let bytes = v060::write_adt(tile);
            let decode = |b: &[u8]| {
                let _ = v060::read_adt(b, None);
            };
            check_fields("0.6.0 ADT", &bytes, &adt_fields(&bytes), TERRAIN, &decode);
            check_groups(
                "0.6.0 ADT",
                &bytes,
                &every_chunk_groups(&bytes, 0),
                TERRAIN,
                &decode,
            );
        }
        let wdt = v060::write_wdt(&map);
        check_fields("0.6.0 WDT", &wdt, &wdt_fields(&wdt), TERRAIN, &|b| {
            let _ = v060::read_wdt(b, "X");
        });
    });
}

#[test]
fn loam_written_monolithic_wdts_allocate_within_their_bound() {
    serial(|| {
        let map = old_generation_map();
        let bytes = alpha::write_wdt(&map);
        let decode = |b: &[u8]| {
            let _ = alpha::read_wdt_tolerant(b, "X");
        };
        let runs = check_fields("0.5.3 WDT", &bytes, &wdt_fields(&bytes), TERRAIN, &decode)
            + check_groups(
                "0.5.3 WDT",
                &bytes,
                &monolithic_groups(&bytes),
                TERRAIN,
                &decode,
            );
        assert!(runs > 500, "{runs} variants");
    });
}

#[test]
fn loam_written_prototype_adts_allocate_within_their_bound() {
    serial(|| {
        let map = old_generation_map();
        let (wdt, adts) = proto055::write_map(&map);
        let names = alpha::read_wdt(&wdt, "X").unwrap().map_wide_names.unwrap();
        for (coord, bytes) in &adts {
            // No MVER: the tile block's chunks start at MHDR.
            let decode = |b: &[u8]| {
                let mut names: MapWideNames = names.clone();
                let _ = proto055::read_adt(b, *coord, &mut names);
            };
            check_fields(
                "0.5.5 prototype ADT",
                bytes,
                &adt_fields(bytes),
                TERRAIN,
                &decode,
            );
            check_groups(
                "0.5.5 prototype ADT",
                bytes,
                &every_chunk_groups(bytes, 0),
                TERRAIN,
                &decode,
            );
        }
    });
}

#[test]
fn models_allocate_within_their_bound() {
    serial(|| {
        let corpus = corpus();
        for rel in [
            "blizzardry/Rabbit.m2",
            "wowserhq-format/model/creature.m2",
            "wowserhq-format/model/tank.m2",
        ] {
            let bytes = std::fs::read(corpus.join(rel)).unwrap();
            let skin = std::fs::read(corpus.join(rel.replace(".m2", "00.skin")))
                .or_else(|_| std::fs::read(corpus.join(rel.replace(".m2", "01.skin"))))
                .unwrap();
            // The model's header (0x130 bytes of counts and offsets) and the skin's.
            check_fields(rel, &bytes, &header_fields(&bytes, 0x130), MODELS, &|b| {
                let _ = models::read_m2("x.m2", b, &|_| Some(skin.clone()));
            });
            check_fields(rel, &skin, &header_fields(&skin, 0x30), MODELS, &|s| {
                let _ = models::read_m2("x.m2", &bytes, &|_| Some(s.to_vec()));
            });
        }
        for rel in [
            "alpha-mdx/Ballista.mdx",
            "alpha-mdx/Misc_1H_Wrench_A_01.mdx",
        ] {
            let bytes = std::fs::read(corpus.join(rel)).unwrap();
            let fields: Vec<usize> = chunks_from(&bytes, 4, bytes.len())
                .iter()
                .map(|(at, _)| at + 4)
                .collect();
            check_fields(rel, &bytes, &fields, MODELS, &|b| {
                let _ = models::read_mdx("x.mdx", b);
            });
        }
        for (root, group) in [
            ("blizzardry/trolltent.wmo", "blizzardry/trolltent_000.wmo"),
            (
                "warcraft-net/WMO/duskwood_lumbermill.wmo",
                "warcraft-net/WMO/duskwood_lumbermill_000.wmo",
            ),
        ] {
            let root = std::fs::read(corpus.join(root)).unwrap();
            let group = std::fs::read(corpus.join(group)).unwrap();
            let root_fields: Vec<usize> = chunks_from(&root, 0, root.len())
                .iter()
                .map(|(at, _)| at + 4)
                .collect();
            check_fields("WMO root", &root, &root_fields, MODELS, &|b| {
                let _ = models::read_wmo("x.wmo", b, &|_| Some(group.clone()));
            });
            // Group: size fields of its chunks and of MOGP's sub-chunks (after its 0x44-byte header).
            let mut group_fields: Vec<usize> = chunks_from(&group, 0, group.len())
                .iter()
                .map(|(at, _)| at + 4)
                .collect();
            if let Some(&(mogp, size)) = chunks_from(&group, 0, group.len())
                .iter()
                .find(|(at, _)| &group[*at..*at + 4] == b"PGOM")
            {
                group_fields.extend(words(mogp + 8, 0x44));
                let end = (mogp + 8 + size).min(group.len());
                group_fields.extend(
                    chunks_from(&group, mogp + 8 + 0x44, end)
                        .iter()
                        .map(|(at, _)| at + 4),
                );
            }
            check_fields("WMO group", &group, &group_fields, MODELS, &|g| {
                let _ = models::read_wmo("x.wmo", &root, &|_| Some(g.to_vec()));
            });
        }
    });
}

#[test]
fn textures_allocate_within_their_bound() {
    serial(|| {
        let dir = corpus().join("wowserhq-format/blp");
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        names.push(corpus().join("blizzardry/RabbitSkin.blp"));
        assert!(names.len() >= 9);
        for path in names {
            let bytes = std::fs::read(&path).unwrap();
            // Header: magic, type fields, width, height, 16 mip offsets, 16 mip sizes (and the
            // palette's first words).
            check_fields(
                &path.display().to_string(),
                &bytes,
                &header_fields(&bytes, 0x9C),
                TEXTURES,
                &|b| {
                    let _ = blp::decode_ours(b);
                    let _ = blp::decode_wow_blp(b);
                },
            );
        }
    });
}

#[test]
fn the_counter_sees_a_decoders_allocations() {
    serial(|| {
        // The harness itself must be able to fail: a decoded tile holds far more than nothing.
        let bytes = std::fs::read(corpus_file(ADTS[3])).unwrap();
        let peak = peak_of(|| {
            let tile = v18::read_adt(&bytes, None, v18::AlphaDepth::Nibble).unwrap();
            std::hint::black_box(&tile);
        });
        assert!(
            peak > bytes.len() / 2,
            "peak {peak} for a {} byte tile",
            bytes.len()
        );
        let big = peak_of(|| {
            std::hint::black_box(vec![0u8; 3 * MIB]);
        });
        assert!(big >= 3 * MIB);
    });
}

/// Opens `name` from tests/data/fuzz as a client's only archive and reads a few files; returns
/// the peak heap use.
fn open_fuzzed_archive(name: &str) -> usize {
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/fuzz")
            .join(name),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("Data")).unwrap();
    std::fs::write(dir.path().join("Data/common.MPQ"), &bytes).unwrap();
    // A decompressor that panics (caught by loam) runs the panic hook, and the default hook
    // captures and prints a backtrace when RUST_BACKTRACE is set, reading debug info: megabytes
    // that are the test harness's, not loam's. The hook is quiet while the archive is read.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let peak = peak_of(|| {
        if let Ok(client) = loam::assets::client::ClientData::open(dir.path()) {
            for name in [
                "(listfile)",
                "(attributes)",
                "World\\Maps\\Azeroth\\Azeroth.wdt",
                "a",
            ] {
                let _ = client.read(name);
            }
        }
    });
    std::panic::set_hook(hook);
    peak
}

/// Found by the `mpq_lookup` fuzz target: an 841-byte archive whose `(attributes)` sector
/// offsets made wow-mpq's table loader allocate 2.5 GB. loam now reads v1/v2 tables itself.
#[test]
fn fuzz_found_mpq_with_garbled_attributes_opens_without_a_huge_allocation() {
    serial(|| {
        let peak = open_fuzzed_archive("mpq_lookup-attributes-oom.mpq");
        assert!(peak <= 4 * MIB, "peak {peak} bytes for an 841 byte archive");
    });
}

/// Found by the `mpq_lookup` fuzz target (long run): a 208-byte MPQ v4 archive (minimised from
/// 1 181) whose HET table size made wow-mpq's table loader ask for 8.6 EB, which aborts the
/// process outside a sanitizer. loam now reads the classic tables itself for every version.
#[test]
fn fuzz_found_mpq_v4_whose_het_table_asks_for_exabytes_opens_without_it() {
    serial(|| {
        let peak = open_fuzzed_archive("mpq_lookup-het-oom.mpq");
        assert!(peak <= 4 * MIB, "peak {peak} bytes for a 208 byte archive");
    });
}

/// Found by the `mpq_lookup` fuzz target: a file whose PKWARE-imploded data makes the `implode`
/// crate panic; loam's `catch_unwind` around wow-mpq's decompressors turns it into an error (a
/// panic escaping would fail this test). Its block claims ~50 MB unpacked from a few bytes and
/// the decompressor allocates what is claimed: MPQ reads are bounded by the declared size (at
/// most 2 GiB, `MAX_FILE_SIZE`), not by the archive's size (docs/reliability.md, known gaps).
#[test]
fn fuzz_found_mpq_whose_decompressor_panics_reads_as_an_error() {
    serial(|| {
        let peak = open_fuzzed_archive("mpq_lookup-implode-panic.mpq");
        assert!(peak <= 64 * MIB, "peak {peak} bytes");
    });
}
