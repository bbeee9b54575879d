//! Helpers shared by the integration tests: where the corpus is and how to compare bytes.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub mod ground;
pub mod written;

/// The shared corpus folder, `../shared/corpus` beside the checkout: CI always has it, a fresh
/// clone does not (README.md). A test that needs it fails here, naming the folder it looked in,
/// rather than later at a read that says only "No such file or directory".
pub fn corpus() -> PathBuf {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The checkout's parent spelled out, so the message names the folder without a `..`.
    let dir = checkout
        .parent()
        .unwrap_or(checkout)
        .join("shared")
        .join("corpus");
    assert!(
        dir.is_dir(),
        "the corpus is missing: looked in {} (the tests read real map files from \
         ../shared/corpus beside the checkout; see README.md)",
        dir.display()
    );
    dir
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

/// Asserts two files hold the same bytes, naming the first differing offset.
pub fn assert_same_files(what: &str, expected: &std::path::Path, actual: &std::path::Path) {
    assert_same_bytes(
        what,
        &std::fs::read(expected).unwrap(),
        &std::fs::read(actual).unwrap(),
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

/// The world's north-west corner x (and y), in yards, written out here rather than taken from
/// loam, so that expected tiles and chunks do not come from the code under test.
pub const ORIGIN: f64 = 32.0 * 1600.0 / 3.0;

/// The (tile x, tile y) and chunk index (row · 16 + column) of every chunk square that the world
/// box x0..x1 (north), y0..y1 (west) overlaps, touching edges not counted; by plain arithmetic.
pub fn cells_overlapping(
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
) -> std::collections::BTreeSet<((u8, u8), usize)> {
    let chunk = 1600.0 / 3.0 / 16.0;
    let mut out = std::collections::BTreeSet::new();
    // Global chunk rows run south from the origin, columns east.
    for row in 0..64 * 16 {
        let (north, south) = (
            ORIGIN - row as f64 * chunk,
            ORIGIN - (row + 1) as f64 * chunk,
        );
        if !(x0 < north && x1 > south) {
            continue;
        }
        for col in 0..64 * 16 {
            let (west, east) = (
                ORIGIN - col as f64 * chunk,
                ORIGIN - (col + 1) as f64 * chunk,
            );
            if y0 < west && y1 > east {
                out.insert((
                    ((col / 16) as u8, (row / 16) as u8),
                    (row % 16) * 16 + col % 16,
                ));
            }
        }
    }
    out
}

/// A Map.dbc of one map in a layout of `fields` fields with the display name's first locale
/// at `name_field`: id, directory, then the name, as wowdev's and AzerothCore's tables lay
/// them out (3.3.5: 66 fields, name at 5; 1.12: 42 fields, name at 4).
pub fn map_dbc(fields: usize, name_field: usize, id: u32, directory: &str, name: &str) -> Vec<u8> {
    let mut strings = vec![0u8];
    let dir_at = strings.len() as u32;
    strings.extend_from_slice(directory.as_bytes());
    strings.push(0);
    let name_at = strings.len() as u32;
    strings.extend_from_slice(name.as_bytes());
    strings.push(0);
    let mut record = vec![0u32; fields];
    record[0] = id;
    record[1] = dir_at;
    record[name_field] = name_at;
    let mut out = b"WDBC".to_vec();
    for v in [1, fields as u32, fields as u32 * 4, strings.len() as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in record {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&strings);
    out
}

/// An AreaTable.dbc in WoWDBDefs' published layout (`definitions/AreaTable.dbd`): ID,
/// ContinentID, ParentAreaID first, AreaName_lang's first locale at field 11 in both 1.12
/// (`BUILD 1.11.0.5344-1.12.2.6005`: 25 fields) and 3.3.5 (`BUILD 3.0.1.8622-3.3.5.12340`: 36
/// fields); every other field 0. `rows`: (id, map, parent zone, name).
pub fn area_table(fields: usize, rows: &[(u32, u32, u32, &str)]) -> Vec<u8> {
    let mut strings = vec![0u8];
    let mut out = b"WDBC".to_vec();
    let mut records = Vec::new();
    for (id, map, parent, name) in rows {
        let mut record = vec![0u32; fields];
        record[0] = *id;
        record[1] = *map;
        record[2] = *parent;
        record[3] = *id; // AreaBit: any distinct number
        record[11] = strings.len() as u32;
        strings.extend_from_slice(name.as_bytes());
        strings.push(0);
        records.extend(record);
    }
    for v in [rows.len(), fields, fields * 4, strings.len()] {
        out.extend_from_slice(&(v as u32).to_le_bytes());
    }
    for v in records {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&strings);
    out
}

/// A 3.3.5 client folder at `root` (its base and patch archives, an enUS locale archive),
/// whose `locale-enUS.MPQ` holds `files`; or, with `v112`, a 1.12 one whose `patch.MPQ` does.
pub fn client_with(root: &std::path::Path, v112: bool, files: &[(&str, &[u8])]) -> PathBuf {
    let archive = |path: PathBuf, files: &[(&str, &[u8])]| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut b = wow_mpq::ArchiveBuilder::new();
        for (name, bytes) in files {
            b = b.add_file_data(bytes.to_vec(), name);
        }
        b.build(&path).unwrap();
    };
    let data = root.join("Data");
    let (base, top): (&[&str], &str) = if v112 {
        (
            &["dbc.MPQ", "terrain.MPQ", "texture.MPQ", "model.MPQ"],
            "patch.MPQ",
        )
    } else {
        (
            &[
                "common.MPQ",
                "common-2.MPQ",
                "expansion.MPQ",
                "lichking.MPQ",
                "patch.MPQ",
            ],
            "enUS/locale-enUS.MPQ",
        )
    };
    for n in base {
        archive(data.join(n), &[("Textures\\x.blp", b"x")]);
    }
    archive(data.join(top), files);
    root.to_path_buf()
}

/// The root ADT at `path` as the `wow-adt` crate reads it: a reader that is not loam's.
pub fn root_adt(path: &std::path::Path) -> wow_adt::RootAdt {
    let bytes = std::fs::read(path).unwrap();
    let wow_adt::ParsedAdt::Root(root) =
        wow_adt::parse_adt(&mut std::io::Cursor::new(bytes)).unwrap()
    else {
        panic!("{}: not a root ADT", path.display())
    };
    *root
}

/// A chunk's 145 absolute heights (MCNK base + MCVT) as `wow-adt` reads them.
pub fn absolute_heights(m: &wow_adt::McnkChunk) -> Vec<f32> {
    let base = m.header.position[2];
    let relative = &m.heights.as_ref().expect("MCVT").heights;
    relative.iter().map(|h| base + h).collect()
}

/// `loam apply --to 3.3.5 MAP OPS OUT`, which must succeed; what it said.
pub fn apply_335(map: &std::path::Path, ops: &std::path::Path, out: &std::path::Path) -> String {
    let o = loam_ok(&[
        "apply",
        map.to_str().unwrap(),
        ops.to_str().unwrap(),
        "--to",
        "3.3.5",
        out.to_str().unwrap(),
    ]);
    text(&o)
}

/// Every file directly in a folder, by name.
pub fn folder_files(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Two folders hold the same file names with the same bytes.
pub fn assert_same_folders(what: &str, a: &std::path::Path, b: &std::path::Path) {
    let (a, b) = (folder_files(a), folder_files(b));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{what}"
    );
    for (name, bytes) in &a {
        assert_same_bytes(&format!("{what}: {name}"), bytes, &b[name]);
    }
}

/// Runs the `loam` binary with `args`.
pub fn loam<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(args)
        .output()
        .expect("loam runs")
}

/// Runs the `loam` binary with `args`, which must succeed (else the test fails with the
/// command and what it printed).
pub fn loam_ok<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Output {
    let o = loam(args);
    let words: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
    assert!(o.status.success(), "loam {}: {}", words.join(" "), text(&o));
    o
}

/// What a run of the binary printed: its stdout, then its stderr.
pub fn text(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// Runs the `loam` binary with `args`, then the paths `src` and `out` (`loam fix --seams SRC
/// OUT`, `loam convert --to 1.12 SRC OUT`…).
pub fn loam_on(
    args: &[&str],
    src: &std::path::Path,
    out: &std::path::Path,
) -> std::process::Output {
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    all.extend([src.as_os_str(), out.as_os_str()]);
    loam(&all)
}

/// `loam convert --to TO --pack --client GAME [extra…] MAP OUT`: a map packed into a client's
/// archives (and written to OUT).
pub fn pack_into(
    game: &std::path::Path,
    to: &str,
    extra: &[&str],
    map: &std::path::Path,
    out: &std::path::Path,
) -> std::process::Output {
    let mut args = vec![
        "convert",
        "--to",
        to,
        "--pack",
        "--client",
        game.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    loam_on(&args, map, out)
}

/// The uniqueId of every placement (doodads, then WMOs, tile by tile) the map's tiles list.
pub fn object_uids(map: &loam::model::Map) -> impl Iterator<Item = u32> + '_ {
    map.tiles.values().flat_map(|t| {
        t.doodads
            .iter()
            .map(|d| d.unique_id)
            .chain(t.wmos.iter().map(|w| w.unique_id))
    })
}

/// The bundled sample written into the folder `dir`; returns `dir`.
pub fn sample_in(dir: PathBuf) -> PathBuf {
    loam::sample::write_sample(&dir).unwrap();
    dir
}

/// Applies the brush operations of an `--apply` file (`json`) to `map`, in order, each as one
/// step of a fresh history; returns that history.
pub fn apply_ops(
    map: &mut loam::model::Map,
    json: &str,
    style: loam::edit::terrain::liquid::LiquidStyle,
) -> loam::edit::History {
    let parsed = loam::edit::ops::parse(json).unwrap();
    let mut history = loam::edit::History::default();
    for op in &parsed.ops {
        loam::edit::ops::apply(map, op.brush().unwrap(), &mut history, style).unwrap();
    }
    history
}

/// The texture file names a model lists, as `wow-m2` reads them (trailing NULs dropped).
pub fn m2_texture_names(model: &wow_m2::M2Model) -> Vec<String> {
    model
        .textures
        .iter()
        .map(|t| {
            t.filename
                .string
                .to_string_lossy()
                .trim_end_matches('\0')
                .to_string()
        })
        .collect()
}

/// An object operation with no fields set.
pub fn object_op(
    tool: loam::edit::objects::object_ops::ObjectTool,
) -> loam::edit::objects::object_ops::ObjectOp {
    loam::edit::objects::object_ops::ObjectOp {
        tool,
        model: None,
        position: None,
        rotation: None,
        scale: None,
        uid: None,
        doodad_set: None,
    }
}

/// Whether a vertex (row `r`, column `k` of the 9×9 outer grid) is a corner of a quad that the
/// 8×8 bit mask `wet` (bit row · 8 + column) marks.
pub fn is_wet_corner(wet: u64, r: usize, k: usize) -> bool {
    [(0, 0), (0, 1), (1, 0), (1, 1)].iter().any(|&(dr, dk)| {
        let (qr, qk) = (r as i32 - dr, k as i32 - dk);
        (0..8).contains(&qr) && (0..8).contains(&qk) && wet >> (qr * 8 + qk) & 1 == 1
    })
}

/// `dir`, made, holding the corpus files `(corpus path, name)`.
pub fn folder_of(dir: &std::path::Path, files: &[(&str, &str)]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for (rel, name) in files {
        std::fs::copy(corpus_file(rel), dir.join(name)).unwrap();
    }
    dir.to_path_buf()
}

/// The corpus's pvpzone WDT and its one tile in the folder `dir`, made; returns the folder.
pub fn pvpzone_folder(dir: &std::path::Path) -> PathBuf {
    folder_of(
        dir,
        &[
            ("wowserhq-format/map/pvpzone.wdt", "pvpzone.wdt"),
            ("wowserhq-format/map/pvpzone3430.adt", "pvpzone_34_30.adt"),
        ],
    )
}

/// Every liquid layer of the map's chunks, with its tile and chunk index, tile by tile.
pub fn liquid_layers(
    map: &loam::model::Map,
) -> impl Iterator<Item = (loam::model::TileCoord, usize, &loam::model::LiquidLayer)> {
    map.tiles.iter().flat_map(|(coord, tile)| {
        tile.chunks.iter().enumerate().flat_map(move |(i, chunk)| {
            chunk
                .liquid
                .iter()
                .flat_map(move |l| l.layers.iter().map(move |layer| (*coord, i, layer)))
        })
    })
}

/// Runs `loam new NAME --to GEN --tiles X0 Y0 X1 Y1 EXTRA… OUT` (`tiles` as "X0 Y0 X1 Y1");
/// panics with its output when it fails; returns what it printed.
pub fn loam_new(
    name: &str,
    to: &str,
    tiles: &str,
    extra: &[&str],
    out: &std::path::Path,
) -> String {
    let mut args = vec!["new", name, "--to", to, "--tiles"];
    args.extend(tiles.split_whitespace());
    args.extend(extra);
    args.push(out.to_str().expect("a UTF-8 path"));
    let o = loam(&args);
    assert!(o.status.success(), "loam {args:?}: {}", text(&o));
    text(&o)
}

/// An 8-bit RLE alpha map (MCLY flag 0x200) decoded as the ADT documents describe it, so that
/// tests do not lean on loam's own decoder: a count byte whose top bit is set repeats the next
/// byte, else copies that many bytes; the low 7 bits count. Stops at 4096 texels.
pub fn decode_rle_alpha(data: &[u8]) -> Vec<u8> {
    let (mut out, mut i) = (Vec::with_capacity(4096), 0);
    while out.len() < 4096 {
        let (fill, n) = (data[i] & 0x80 != 0, usize::from(data[i] & 0x7F));
        if fill {
            out.extend(std::iter::repeat_n(data[i + 1], n));
            i += 2;
        } else {
            out.extend_from_slice(&data[i + 1..i + 1 + n]);
            i += 1 + n;
        }
    }
    out.truncate(4096);
    out
}

fn vsub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn vcross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn vdot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Möller–Trumbore: the ray `o + t d` meets triangle `tri` at some t > 0.
pub fn meets(o: [f64; 3], d: [f64; 3], tri: &[[f64; 3]; 3]) -> bool {
    let (e1, e2) = (vsub(tri[1], tri[0]), vsub(tri[2], tri[0]));
    let p = vcross(d, e2);
    let det = vdot(e1, p);
    if det.abs() < 1e-12 {
        return false;
    }
    let s = vsub(o, tri[0]);
    let u = vdot(s, p) / det;
    if !(0.0..=1.0).contains(&u) {
        return false;
    }
    let q = vcross(s, e1);
    let v = vdot(d, q) / det;
    if v < 0.0 || u + v > 1.0 {
        return false;
    }
    vdot(e2, q) / det > 1e-6
}

/// A WDBC table of four-byte fields; a record's `Err(k)` field points at the k-th string.
pub fn wdbc(fields: usize, rows: &[Vec<Result<u32, usize>>], strings: &[&str]) -> Vec<u8> {
    let mut block = vec![0u8];
    let mut at = Vec::new();
    for s in strings {
        at.push(block.len() as u32);
        block.extend_from_slice(s.as_bytes());
        block.push(0);
    }
    let mut b = b"WDBC".to_vec();
    for v in [rows.len(), fields, fields * 4, block.len()] {
        b.extend_from_slice(&(v as u32).to_le_bytes());
    }
    for row in rows {
        for f in row {
            let v = match f {
                Ok(v) => *v,
                Err(k) => at[*k],
            };
            b.extend_from_slice(&v.to_le_bytes());
        }
    }
    b.extend(block);
    b
}

/// Extracts `game_path` from `archive` into `scratch` with StormLib's `smpq` (a reader that
/// is not loam's) and returns its bytes.
pub fn smpq_extract(
    archive: &std::path::Path,
    game_path: &str,
    scratch: &std::path::Path,
) -> Vec<u8> {
    std::fs::create_dir_all(scratch).unwrap();
    let run = std::process::Command::new("smpq")
        .args(["-x", "-f", archive.to_str().unwrap(), game_path])
        .current_dir(scratch)
        .output()
        .expect("smpq runs (install it with `bash packaging/setup --tests`)");
    assert!(run.status.success(), "smpq -x {game_path}: {run:?}");
    std::fs::read(scratch.join(game_path.replace('\\', "/"))).unwrap()
}
