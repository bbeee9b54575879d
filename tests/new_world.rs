//! From nothing to a client folder: `loam new`, `loam apply`, then `convert --pack --client`
//! into a 3.3.5 and a 1.12 client. What lands there is read back the way the servers' map
//! extractors read it (their archive lists, read here with StormLib's `smpq` and the `wow-adt`
//! crate, not loam's readers), and the way the client lists its maps (`loam client --maps`).

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{loam, text};
use wow_mpq::ArchiveBuilder;

/// Writes an MPQ at `path` holding `files`.
fn archive(path: &Path, files: &[(&str, &[u8])]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut b = ArchiveBuilder::new();
    for (name, bytes) in files {
        b = b.add_file_data(bytes.to_vec(), name);
    }
    b.build(path).unwrap();
}

/// A 3.3.5 client: the base archives, Blizzard's three patches, and the enUS locale archives
/// whose top one holds a Map.dbc naming Northrend (571).
fn client_335(root: &Path) -> PathBuf {
    let data = root.join("Data");
    for n in [
        "common.MPQ",
        "common-2.MPQ",
        "expansion.MPQ",
        "lichking.MPQ",
    ] {
        archive(&data.join(n), &[("Textures\\x.blp", b"x")]);
    }
    for n in ["patch.MPQ", "patch-2.MPQ", "patch-3.MPQ"] {
        archive(&data.join(n), &[("Interface\\x.lua", b"x")]);
    }
    let old = common::map_dbc(66, 5, 530, "Expansion01", "Outland");
    let top = common::map_dbc(66, 5, 571, "Northrend", "Northrend");
    archive(
        &data.join("enUS/locale-enUS.MPQ"),
        &[("DBFilesClient\\Map.dbc", &old)],
    );
    archive(
        &data.join("enUS/patch-enUS-3.MPQ"),
        &[("DBFilesClient\\Map.dbc", &top)],
    );
    root.to_path_buf()
}

/// A 1.12 client whose patch-2.MPQ holds a Map.dbc naming Kalimdor (1).
fn client_112(root: &Path) -> PathBuf {
    let data = root.join("Data");
    for n in ["dbc.MPQ", "terrain.MPQ", "texture.MPQ", "model.MPQ"] {
        archive(&data.join(n), &[("Textures\\x.blp", b"x")]);
    }
    archive(&data.join("patch.MPQ"), &[("Interface\\x.lua", b"x")]);
    let table = common::map_dbc(42, 4, 1, "Kalimdor", "Kalimdor");
    archive(
        &data.join("patch-2.MPQ"),
        &[("DBFilesClient\\Map.dbc", &table)],
    );
    root.to_path_buf()
}

/// The archives `names` (space-separated, without `.MPQ`) in `folder`, in that order.
fn chain(folder: &Path, names: &str) -> Vec<PathBuf> {
    names
        .split_whitespace()
        .map(|n| folder.join(format!("{n}.MPQ")))
        .collect()
}

/// Extracts `game_path` from the first archive of `chain` (highest priority first) that holds
/// it, with StormLib's `smpq`: what an extractor reading those archives gets.
fn extract(chain: &[PathBuf], game_path: &str, scratch: &Path) -> Option<Vec<u8>> {
    for a in chain.iter().filter(|a| a.exists()) {
        let out = scratch.join(format!("x{}", rand_name(a, game_path)));
        fs::create_dir_all(&out).unwrap();
        let run = Command::new("smpq")
            .args(["-x", "-f", a.to_str().unwrap(), game_path])
            .current_dir(&out)
            .output()
            .expect("smpq runs (install it with `bash packaging/setup --tests`)");
        let file = out.join(game_path.replace('\\', "/"));
        if run.status.success()
            && let Ok(bytes) = fs::read(&file)
        {
            return Some(bytes);
        }
    }
    None
}

/// A folder name for one extraction.
fn rand_name(a: &Path, p: &str) -> String {
    format!("{}-{}", a.file_name().unwrap().to_string_lossy(), p.len())
        .replace(['\\', '/', '.'], "_")
}

/// The rows of a WDBC table read by hand: (id, directory) from each record's first two fields.
fn dbc_rows(bytes: &[u8]) -> Vec<(u32, String)> {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let (records, size, strings) = (word(4), word(12), word(16));
    let block = &bytes[20 + records * size..20 + records * size + strings];
    (0..records)
        .map(|r| {
            let at = 20 + r * size;
            let s = &block[word(at + 4)..];
            let end = s.iter().position(|&b| b == 0).unwrap();
            (
                word(at) as u32,
                String::from_utf8_lossy(&s[..end]).into_owned(),
            )
        })
        .collect()
}

/// A new map Isle of four tiles at height 10, edited with a raise stroke, written as `to`
/// into `dir/edited<to>`; returns that folder.
fn make_edited(dir: &Path, to: &str) -> PathBuf {
    let new = dir.join(format!("new{to}"));
    common::loam_new("Isle", to, "30 30 31 31", &["--height", "10"], &new);
    // A raise stroke at world (0, 0), the south-east corner of tile 31_31 (the only tile it reaches).
    let ops = dir.join("ops.json");
    fs::write(
        &ops,
        r#"{"ops": [{"tool": "raise", "points": [[0, 0], [30, 30]], "radius": 40, "strength": 20}]}"#,
    )
    .unwrap();
    let edited = dir.join(format!("edited{to}"));
    common::loam_ok(&[
        "apply",
        new.join("Isle.wdt").to_str().unwrap(),
        ops.to_str().unwrap(),
        "--to",
        to,
        edited.to_str().unwrap(),
    ]);
    edited
}

/// The new map made, edited with a raise stroke and packed into the client at `game`; returns
/// the edited folder (whose files must land in the client unchanged).
fn make_and_pack(dir: &Path, game: &Path, to: &str, patch: &str) -> PathBuf {
    let edited = make_edited(dir, to);
    let packed = dir.join(format!("packed{to}"));
    let o = common::pack_into(
        game,
        to,
        &["--map-name", "The Isle", "--minimap"],
        &edited.join("Isle.wdt"),
        &packed,
    );
    let said = text(&o);
    assert!(o.status.success(), "{said}");
    // WDT, WDL, four tiles, the md5translate table and the minimap tiles (tiles that look
    // alike share a file).
    assert!(said.contains("minimap: 4 tile(s) drawn"), "{said}");
    assert!(said.contains(patch), "{said}");
    if to == "1.12" {
        // 1.12's extractors read only Blizzard's patches: the pack says, last, what they miss
        // and how to reach them.
        let last = String::from_utf8_lossy(&o.stderr);
        let last = last.lines().last().unwrap_or_default();
        assert!(
            last.contains(
                "warning: the servers' map extractors will not see Isle's files (in patch-4.MPQ), \
                 DBFilesClient\\Map.dbc row (in patch-5.MPQ)"
            ) && last.contains("loam server-data"),
            "{said}"
        );
    } else {
        assert!(!said.contains("warning"), "{said}");
    }
    packed
}

/// Every file in every archive loam wrote into `data` (those holding its `(loam)` marker) is
/// stored in sectors: the libmpq 0.3 in cMaNGOS's and vmangos's extractors cannot read a file
/// stored as a single unit (block flag 0x01000000).
fn assert_sectored_for_libmpq(data: &Path) {
    let mut seen = 0;
    for e in walkdir(data) {
        let Ok(mut a) = wow_mpq::Archive::open(&e) else {
            continue;
        };
        if a.read_file("(loam)").is_err() {
            continue;
        }
        for f in a.list().unwrap() {
            let info = a.find_file(&f.name).unwrap().unwrap();
            assert_eq!(info.flags & 0x0100_0000, 0, "{} in {}", f.name, e.display());
            seen += 1;
        }
    }
    assert!(seen > 0, "loam wrote no archive under {}", data.display());
}

/// Every file under `dir`.
fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            out.extend(walkdir(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

/// `loam server-data GAME OUT`, checked to succeed; returns OUT/Data.
fn server_data(game: &Path, out: &Path) -> PathBuf {
    common::loam_ok(&["server-data", game.to_str().unwrap(), out.to_str().unwrap()]);
    out.join("Data")
}

/// Checks what an extractor reading `dbc_chain` (tables) and `map_chain` (map files) finds:
/// the map under id `id`, exactly four tiles, each the packed file, the stroke in its heights.
fn extracted_as_a_server_would(
    dbc_chain: &[PathBuf],
    map_chain: &[PathBuf],
    packed: &Path,
    id: u32,
    scratch: &Path,
) {
    let table = extract(dbc_chain, "DBFilesClient\\Map.dbc", scratch).expect("a Map.dbc");
    let rows = dbc_rows(&table);
    assert!(rows.contains(&(id, "Isle".to_string())), "{rows:?}");
    let wdt = extract(map_chain, "World\\Maps\\Isle\\Isle.wdt", scratch).expect("the WDT");
    assert_eq!(wdt, fs::read(packed.join("Isle.wdt")).unwrap());
    // MAIN: 4096 entries of 8 bytes after MVER (12) and MPHD (8 + 32) and MAIN's header.
    let main = &wdt[12 + 40 + 8..];
    let listed: Vec<(usize, usize)> = (0..4096)
        .filter(|i| main[i * 8] & 1 == 1)
        .map(|i| (i % 64, i / 64))
        .collect();
    assert_eq!(listed, [(30, 30), (31, 30), (30, 31), (31, 31)]);
    let mut highest = f32::MIN;
    for (x, y) in listed {
        let path = format!("World\\Maps\\Isle\\Isle_{x}_{y}.adt");
        let adt = extract(map_chain, &path, scratch).expect("every tile");
        assert_eq!(
            adt,
            fs::read(packed.join(format!("Isle_{x}_{y}.adt"))).unwrap()
        );
        let wow_adt::ParsedAdt::Root(root) =
            wow_adt::parse_adt(&mut std::io::Cursor::new(adt)).unwrap()
        else {
            panic!("a root ADT")
        };
        for mcnk in &root.mcnk_chunks {
            for h in common::absolute_heights(mcnk) {
                assert!(h >= 10.0 - 1e-3, "nothing below the new map's height");
                highest = highest.max(h);
            }
        }
    }
    assert!(
        highest > 15.0,
        "the raise stroke is in the extracted heights: {highest}"
    );
}

#[test]
fn a_new_335_map_lands_where_the_client_and_the_servers_extractors_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let game = client_335(&dir.path().join("Game"));
    let packed = make_and_pack(dir.path(), &game, "3.3.5", "patch-4.MPQ");
    let data = game.join("Data");
    // cMaNGOS's lists (contrib/extractor/System.cpp), highest priority first.
    let locale = chain(
        &data.join("enUS"),
        "patch-enUS-4 patch-enUS-3 patch-enUS-2 patch-enUS locale-enUS",
    );
    let base = chain(
        &data,
        "patch-5 patch-4 patch-3 patch-2 patch expansion lichking common-2 common",
    );
    // The next free id above Northrend's.
    extracted_as_a_server_would(&locale, &base, &packed, 572, dir.path());
    assert_sectored_for_libmpq(&data);
    let o = loam(&["client", "--maps", game.to_str().unwrap()]);
    assert!(text(&o).contains("Isle\t572\tThe Isle"), "{}", text(&o));
    // Exporting again keeps the archives and the id: nothing is added twice.
    let again = common::pack_into(
        &game,
        "3.3.5",
        &[],
        &dir.path().join("edited3.3.5/Isle.wdt"),
        &dir.path().join("again"),
    );
    assert!(
        text(&again).contains("already names Isle (map 572)"),
        "{}",
        text(&again)
    );
    assert!(text(&again).contains("patch-4.MPQ"), "{}", text(&again));
    assert!(!data.join("patch-5.MPQ").exists());
}

#[test]
fn a_new_112_map_lands_in_the_client_and_in_the_copy_its_servers_extractors_read() {
    let dir = tempfile::tempdir().unwrap();
    let game = client_112(&dir.path().join("Game"));
    let packed = make_and_pack(dir.path(), &game, "1.12", "patch-4.MPQ");
    let data = game.join("Data");
    assert_sectored_for_libmpq(&data);
    let o = loam(&["client", "--maps", game.to_str().unwrap()]);
    assert!(text(&o).contains("Isle\t2\tThe Isle"), "{}", text(&o));
    // vmangos's list (contrib/extractor/System.cpp; cMaNGOS classic's lacks model), highest
    // priority first: in the client folder itself the extractor never sees the map.
    let list = "patch-2 patch terrain dbc model";
    let in_client = chain(&data, list);
    assert_eq!(
        extract(&in_client, "World\\Maps\\Isle\\Isle.wdt", dir.path()),
        None
    );
    let rows = dbc_rows(&extract(&in_client, "DBFilesClient\\Map.dbc", dir.path()).unwrap());
    assert_eq!(rows, [(1, "Kalimdor".to_string())]);
    // The server's copy: the same list finds all of it, and Blizzard's patch-2 files still.
    let served = server_data(&game, &dir.path().join("server"));
    let chain = chain(&served, list);
    extracted_as_a_server_would(&chain, &chain, &packed, 2, dir.path());
    let rows = dbc_rows(&extract(&chain, "DBFilesClient\\Map.dbc", dir.path()).unwrap());
    assert!(rows.contains(&(1, "Kalimdor".to_string())), "{rows:?}");
    assert_sectored_for_libmpq(&served);
    // The client's folder is as it was: the copy links, it does not move.
    assert!(data.join("patch-4.MPQ").is_file() && data.join("patch-2.MPQ").is_file());
    let o = loam(&[
        "server-data",
        game.to_str().unwrap(),
        dir.path().join("server").to_str().unwrap(),
    ]);
    assert!(
        !o.status.success() && text(&o).contains("exists"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_patch_name_the_extractors_skip_is_warned_about_and_a_taken_id_refused() {
    let dir = tempfile::tempdir().unwrap();
    let game = client_335(&dir.path().join("Game"));
    let new = dir.path().join("new");
    common::loam_new("Isle", "3.3.5", "1 1 1 1", &[], &new);
    let pack = |extra: &[&str], out: &str| {
        text(&common::pack_into(
            &game,
            "3.3.5",
            extra,
            &new.join("Isle.wdt"),
            &dir.path().join(out),
        ))
    };
    let said = pack(&["--patch-name", "patch-A.MPQ", "--map-id", "571"], "o1");
    assert!(said.contains("map id 571 is taken by Northrend"), "{said}");
    // The server's copy merges patch-A into patch-5, the last patch the extractors read.
    let said = pack(&["--patch-name", "patch-A.MPQ"], "o2");
    assert!(
        said.contains("added Isle to the client's Map.dbc"),
        "{said}"
    );
    // The rows go where the extractors read them all the same, and the map's archive is named
    // as what they miss.
    assert!(
        said.contains(
            "warning: the table rows are not put into patch-A.MPQ: the servers' extractors do \
             not read it either way"
        ),
        "{said}"
    );
    assert!(
        said.contains("will not see Isle's files (in patch-A.MPQ): they open a fixed list")
            && !said.contains("Map.dbc row (in")
            && said.contains("loam server-data"),
        "{said}"
    );
    let served = server_data(&game, &dir.path().join("server"));
    assert!(!served.join("patch-A.MPQ").exists());
    let base = chain(
        &served,
        "patch-5 patch-4 patch-3 patch-2 patch expansion lichking common-2 common",
    );
    let wdt = extract(&base, "World\\Maps\\Isle\\Isle.wdt", dir.path()).expect("the WDT");
    assert_eq!(wdt, fs::read(dir.path().join("o2/Isle.wdt")).unwrap());
    let locale = chain(
        &served.join("enUS"),
        "patch-enUS-4 patch-enUS-3 patch-enUS-2 patch-enUS locale-enUS",
    );
    let rows = dbc_rows(&extract(&locale, "DBFilesClient\\Map.dbc", dir.path()).unwrap());
    assert!(rows.iter().any(|(_, d)| d == "Isle"), "{rows:?}");
}

/// A WDBC table of `fields` u32 fields and `ids` rows (every other field 0, strings empty).
fn table_of_ids(fields: u32, ids: &[u32]) -> Vec<u8> {
    let mut b = b"WDBC".to_vec();
    for v in [ids.len() as u32, fields, fields * 4, 1] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for id in ids {
        b.extend_from_slice(&id.to_le_bytes());
        b.resize(b.len() + (fields as usize - 1) * 4, 0);
    }
    b.push(0);
    b
}

#[test]
fn check_with_a_client_names_what_would_stop_the_map_in_the_client_and_on_a_server() {
    let dir = tempfile::tempdir().unwrap();
    let game = client_335(&dir.path().join("Game"));
    // The client's 3.3.5 AreaTable (36 fields) knows area 12; LiquidType (45) knows 1 and 2.
    archive(
        &game.join("Data/enUS/patch-enUS-2.MPQ"),
        &[
            ("DBFilesClient\\AreaTable.dbc", &table_of_ids(36, &[12])),
            ("DBFilesClient\\LiquidType.dbc", &table_of_ids(45, &[1, 2])),
        ],
    );
    let new = dir.path().join("new");
    common::loam_new("Isle", "3.3.5", "4 4 4 4", &["--area", "77"], &new);
    let ops = dir.path().join("ops.json");
    // A pool of LiquidType 333 in the middle of tile 4_4.
    let [x, y] =
        loam::model::coords::chunk_north_west(loam::model::TileCoord::new(4, 4).unwrap(), 8, 8);
    fs::write(
        &ops,
        format!(
            r#"{{"ops": [{{"tool": "liquid_add", "points": [[{x}, {y}]], "radius": 20, "liquid_type": 333, "height": 5}}]}}"#
        ),
    )
    .unwrap();
    let map = dir.path().join("map");
    common::loam_ok(&[
        "apply",
        new.join("Isle.wdt").to_str().unwrap(),
        ops.to_str().unwrap(),
        "--to",
        "3.3.5",
        map.to_str().unwrap(),
    ]);
    // A WDT as Noggit wrote them: no MWMO (loam's ends with an empty one).
    let wdt = map.join("Isle.wdt");
    let bytes = fs::read(&wdt).unwrap();
    assert_eq!(&bytes[bytes.len() - 8..], b"OMWM\0\0\0\0");
    fs::write(&wdt, &bytes[..bytes.len() - 8]).unwrap();
    let check = |wdt: &Path| {
        let o = loam(&[
            "check",
            "--client",
            game.to_str().unwrap(),
            wdt.to_str().unwrap(),
        ]);
        (o.status.code(), text(&o))
    };
    let (code, said) = check(&wdt);
    assert_eq!(code, Some(1), "{said}");
    for want in [
        "has no row for Isle",
        "the WDT has no MWMO chunk",
        "TrinityCore #26537",
        "liquid type 333 (first in tile 4_4) is not in the client's DBFilesClient\\LiquidType.dbc",
        "area id 77 (first in tile 4_4) is not in the client's DBFilesClient\\AreaTable.dbc",
    ] {
        assert!(said.contains(want), "{want:?} not in:\n{said}");
    }
    // Without --client none of it is asked.
    let plain = loam(&["check", wdt.to_str().unwrap()]);
    assert!(plain.status.success(), "{}", text(&plain));
    // Packed with its row and its area (asked for), with the MWMO packing writes: only the
    // liquid type remains.
    let o = common::pack_into(
        &game,
        "3.3.5",
        &["--area-name", "Isle Shore"],
        &wdt,
        &dir.path().join("packed"),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("added area(s) 77 to the client's AreaTable.dbc"),
        "{}",
        text(&o)
    );
    let (_, said) = check(&dir.path().join("packed/Isle.wdt"));
    assert!(
        !said.contains("has no row") && !said.contains("MWMO"),
        "{said}"
    );
    assert!(
        !said.contains("area id 77") && said.contains("liquid type 333"),
        "{said}"
    );
    // The area is on the new map (read by hand: the last record's first two fields).
    let client = loam::assets::client::ClientData::open(&game).unwrap();
    let areas = client
        .read("DBFilesClient\\AreaTable.dbc")
        .unwrap()
        .unwrap();
    let maps = client.read("DBFilesClient\\Map.dbc").unwrap().unwrap();
    let map_id = dbc_rows(&maps).iter().find(|(_, d)| d == "Isle").unwrap().0;
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let records = word(&areas, 4) as usize;
    let last = 20 + (records - 1) * 144;
    assert_eq!((word(&areas, last), word(&areas, last + 4)), (77, map_id));
}

/// A 1.12 client with Blizzard's `patch.MPQ` but no `patch-2.MPQ` (its Map.dbc, naming
/// Kalimdor, in `dbc.MPQ`): one whose `patch-2.MPQ` name is free for a map maker's archive.
fn client_112_without_patch_2(root: &Path) -> PathBuf {
    let data = root.join("Data");
    for n in ["terrain.MPQ", "texture.MPQ", "model.MPQ"] {
        archive(&data.join(n), &[("Textures\\x.blp", b"x")]);
    }
    let table = common::map_dbc(42, 4, 1, "Kalimdor", "Kalimdor");
    archive(&data.join("dbc.MPQ"), &[("DBFilesClient\\Map.dbc", &table)]);
    archive(&data.join("patch.MPQ"), &[("Interface\\x.lua", b"x")]);
    root.to_path_buf()
}

/// The 1.12 servers' extractors' archive lists, highest priority first: vmangos's and cMaNGOS
/// classic's `contrib/extractor/System.cpp` (cMaNGOS classic and MaNGOS Zero do not open
/// `model`).
const EXTRACTORS_112: [(&str, &str); 2] = [
    ("vmangos", "patch-2 patch terrain dbc model"),
    ("cMaNGOS classic", "patch-2 patch terrain dbc"),
];

#[test]
fn a_112_map_packed_into_patch_2_carries_its_row_where_both_extractors_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let game = client_112_without_patch_2(&dir.path().join("Game"));
    let edited = make_edited(dir.path(), "1.12");
    let packed = dir.path().join("packed");
    let o = common::pack_into(
        &game,
        "1.12",
        &["--patch-name", "patch-2.MPQ", "--minimap"],
        &edited.join("Isle.wdt"),
        &packed,
    );
    let said = text(&o);
    assert!(o.status.success(), "{said}");
    assert!(
        said.contains("added Isle to the client's Map.dbc as map 2 (in ")
            && said.contains("patch-2.MPQ)"),
        "{said}"
    );
    assert!(!said.contains("warning"), "{said}");
    let data = game.join("Data");
    // One archive holds it all: no table archive beside it.
    let mpqs: Vec<String> = fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("patch"))
        .collect();
    assert_eq!(mpqs.len(), 2, "{mpqs:?}");
    for (server, list) in EXTRACTORS_112 {
        let archives = chain(&data, list);
        let rows = dbc_rows(&extract(&archives, "DBFilesClient\\Map.dbc", dir.path()).unwrap());
        assert!(
            rows.contains(&(1, "Kalimdor".to_string())),
            "{server}: {rows:?}"
        );
        extracted_as_a_server_would(&archives, &archives, &packed, 2, dir.path());
    }
    assert_sectored_for_libmpq(&data);
    // The client lists it too, and `check --client` finds nothing the servers would miss.
    let o = loam(&["client", "--maps", game.to_str().unwrap()]);
    assert!(text(&o).contains("Isle\t2\tIsle"), "{}", text(&o));
    let o = loam(&[
        "check",
        "--client",
        game.to_str().unwrap(),
        packed.join("Isle.wdt").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    // Packing again into the same archive keeps the row there (the archive is rewritten whole).
    let again = common::pack_into(
        &game,
        "1.12",
        &["--patch-name", "patch-2.MPQ"],
        &edited.join("Isle.wdt"),
        &dir.path().join("again"),
    );
    assert!(
        text(&again).contains("already names Isle (map 2)") && !text(&again).contains("warning"),
        "{}",
        text(&again)
    );
    let rows = dbc_rows(
        &extract(
            &chain(&data, "patch-2"),
            "DBFilesClient\\Map.dbc",
            dir.path(),
        )
        .unwrap(),
    );
    assert!(rows.contains(&(2, "Isle".to_string())), "{rows:?}");
}

#[test]
fn a_112_pack_beyond_the_extractors_lists_says_so_last_and_check_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let game = client_112_without_patch_2(&dir.path().join("Game"));
    let new = dir.path().join("new");
    common::loam_new("Isle", "1.12", "1 1 1 1", &[], &new);
    let o = common::pack_into(
        &game,
        "1.12",
        &["--patch-name", "patch-3.MPQ"],
        &new.join("Isle.wdt"),
        &dir.path().join("packed"),
    );
    assert!(o.status.success(), "{}", text(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    let last = stderr.lines().last().unwrap_or_default();
    // The map in patch-3 and its row in the first free table archive, patch-4: both beyond
    // the extractors' lists, both named, with the mend.
    assert!(
        last.starts_with(
            "warning: the servers' map extractors will not see Isle's files (in patch-3.MPQ), \
             DBFilesClient\\Map.dbc row (in patch-4.MPQ)"
        ) && last.contains("loam server-data"),
        "{}",
        text(&o)
    );
    let data = game.join("Data");
    for (server, list) in EXTRACTORS_112 {
        let archives = chain(&data, list);
        assert_eq!(
            extract(&archives, "World\\Maps\\Isle\\Isle.wdt", dir.path()),
            None,
            "{server}"
        );
    }
    let check = |game: &Path| {
        let o = loam(&[
            "check",
            "--client",
            game.to_str().unwrap(),
            dir.path().join("packed/Isle.wdt").to_str().unwrap(),
        ]);
        (o.status.code(), text(&o))
    };
    let (code, said) = check(&game);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("will not see Isle's files (in patch-3.MPQ), DBFilesClient\\Map.dbc row"),
        "{said}"
    );
    // In the servers' copy they see it all, and check says nothing of them.
    let served = server_data(&game, &dir.path().join("server"));
    let (code, said) = check(served.parent().unwrap());
    assert_eq!(code, Some(0), "{said}");
    for (server, list) in EXTRACTORS_112 {
        let archives = chain(&served, list);
        let rows = dbc_rows(&extract(&archives, "DBFilesClient\\Map.dbc", dir.path()).unwrap());
        assert!(rows.iter().any(|(_, d)| d == "Isle"), "{server}: {rows:?}");
    }
}

/// Every file under `root` by its path below it, with its bytes.
fn tree(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir(root)
        .into_iter()
        .map(|p| {
            (
                p.strip_prefix(root).unwrap().to_path_buf(),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn server_data_with_the_pack_is_the_copy_server_data_writes_after_it() {
    for (to, make) in [
        ("1.12", client_112 as fn(&Path) -> PathBuf),
        ("3.3.5", client_335),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let game = make(&dir.path().join("Game"));
        let new = dir.path().join("new");
        common::loam_new("Isle", to, "1 1 1 1", &[], &new);
        let with = dir.path().join("with");
        let o = common::pack_into(
            &game,
            to,
            &[
                "--patch-name",
                "patch-A.MPQ",
                "--server-data",
                with.to_str().unwrap(),
            ],
            &new.join("Isle.wdt"),
            &dir.path().join("packed"),
        );
        let said = text(&o);
        assert!(o.status.success(), "{said}");
        assert!(
            said.contains(&format!(
                "run the server's map extractor on {}",
                with.display()
            )),
            "{said}"
        );
        // What the extractors miss in the client is said with the copy that has it.
        assert!(
            said.contains(&format!(
                "the servers' copy written to {} has them",
                with.display()
            )),
            "{said}"
        );
        let after = dir.path().join("after");
        server_data(&game, &after);
        let (a, b) = (tree(&with), tree(&after));
        assert!(a.len() > 5, "{to}: {} files", a.len());
        assert_eq!(
            a.iter().map(|(p, _)| p).collect::<Vec<_>>(),
            b.iter().map(|(p, _)| p).collect::<Vec<_>>(),
            "{to}"
        );
        for ((p, x), (_, y)) in a.iter().zip(&b) {
            assert!(x == y, "{to}: {} differs", p.display());
        }
        // An OUT that has a Data folder already is refused before anything is packed.
        let o = common::pack_into(
            &game,
            to,
            &["--server-data", with.to_str().unwrap()],
            &new.join("Isle.wdt"),
            &dir.path().join("packed2"),
        );
        assert!(
            !o.status.success() && text(&o).contains("give a new folder"),
            "{}",
            text(&o)
        );
        assert!(!dir.path().join("packed2").exists());
    }
}

#[test]
fn a_335_map_named_into_patch_5_keeps_its_row_in_the_locale_patch_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let game = client_335(&dir.path().join("Game"));
    let new = dir.path().join("new");
    common::loam_new("Isle", "3.3.5", "30 30 31 31", &["--height", "12"], &new);
    let packed = dir.path().join("packed");
    let o = common::pack_into(
        &game,
        "3.3.5",
        &["--patch-name", "patch-5.MPQ"],
        &new.join("Isle.wdt"),
        &packed,
    );
    let said = text(&o);
    assert!(o.status.success(), "{said}");
    // The locale patches load after every general patch and carry Blizzard's newest Map.dbc:
    // a row in patch-5 would be hidden, so it goes to patch-enUS-4, which both client and
    // extractors read.
    assert!(
        said.contains(
            "warning: the table rows are not put into patch-5.MPQ: patch-enUS-3.MPQ loads after \
             it and has its own DBFilesClient\\Map.dbc, which would hide them from the client"
        ),
        "{said}"
    );
    assert!(said.contains("patch-enUS-4.MPQ)"), "{said}");
    assert!(!said.contains("will not see"), "{said}");
    let data = game.join("Data");
    let locale = chain(
        &data.join("enUS"),
        "patch-enUS-4 patch-enUS-3 patch-enUS-2 patch-enUS locale-enUS",
    );
    let base = chain(
        &data,
        "patch-5 patch-4 patch-3 patch-2 patch expansion lichking common-2 common",
    );
    let rows = dbc_rows(&extract(&locale, "DBFilesClient\\Map.dbc", dir.path()).unwrap());
    assert!(rows.contains(&(572, "Isle".to_string())), "{rows:?}");
    let wdt = extract(&base, "World\\Maps\\Isle\\Isle.wdt", dir.path()).expect("the WDT");
    assert_eq!(wdt, fs::read(packed.join("Isle.wdt")).unwrap());
}
