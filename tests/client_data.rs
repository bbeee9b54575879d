//! Client folders of every generation built in temp dirs from corpus files, with StormLib's
//! `smpq` and with wow-mpq's builder: every lookup must return exactly the bytes the client
//! would load, and broken archives must give errors naming the archive and the file.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use loam::assets::client::{
    ArchiveKind, AssetError, AssetSource, ClientData, ClientGeneration, MapNames, Origin,
    glob_match, normalise, read_map_table,
};
use proptest::prelude::*;
use wow_mpq::{ArchiveBuilder, FormatVersion, ListfileOption};

fn corpus(rel: &str) -> Vec<u8> {
    std::fs::read(common::corpus().join(rel)).unwrap_or_else(|e| panic!("corpus file {rel}: {e}"))
}

/// Writes an archive with StormLib's `smpq` (installed by `packaging/setup --tests`): the files are staged
/// under their game paths in a scratch folder and added by relative path.
fn smpq(archive: &Path, files: &[(&str, &[u8])], options: &[&str]) {
    let stage = tempfile::tempdir().unwrap();
    let mut rel = Vec::new();
    for (game, bytes) in files {
        let path = game.replace('\\', "/");
        let on_disk = stage.path().join(&path);
        std::fs::create_dir_all(on_disk.parent().unwrap()).unwrap();
        std::fs::write(&on_disk, bytes).unwrap();
        rel.push(path);
    }
    std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
    let status = Command::new("smpq")
        .current_dir(stage.path())
        .args(["-c", "-q", "-f"])
        .args(options)
        .arg(archive)
        .args(&rel)
        .status()
        .unwrap_or_else(|e| {
            panic!("smpq could not be run ({e}): install it with `bash packaging/setup --tests` (Debian package smpq)")
        });
    assert!(status.success(), "smpq failed on {}", archive.display());
}

/// Rewrites one of an MPQ v1 archive's encrypted tables in place.
fn edit_table(archive: &Path, table: &str, edit: impl FnOnce(&mut [u32])) {
    let mut bytes = std::fs::read(archive).unwrap();
    let (hash_pos, block_pos, hashes, blocks) = v1_tables(&bytes);
    let (pos, entries) = if table == "(hash table)" {
        (hash_pos, hashes)
    } else {
        (block_pos, blocks)
    };
    let key = wow_mpq::hash_string(table, wow_mpq::hash_type::FILE_KEY);
    let mut words: Vec<u32> = bytes[pos..pos + entries * 16]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    wow_mpq::decrypt_block(&mut words, key);
    edit(&mut words);
    wow_mpq::encrypt_block(&mut words, key);
    for (c, w) in bytes[pos..].chunks_exact_mut(4).zip(&words) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    std::fs::write(archive, bytes).unwrap();
}

/// Removes the `(listfile)` from an archive's hash table (smpq always writes one), leaving a
/// listfile-less archive as Blizzard's alpha wrappers and many patches are.
fn drop_listfile(archive: &Path) {
    let a = wow_mpq::hash_string("(listfile)", wow_mpq::hash_type::NAME_A);
    let b = wow_mpq::hash_string("(listfile)", wow_mpq::hash_type::NAME_B);
    let mut dropped = false;
    edit_table(archive, "(hash table)", |words| {
        for slot in words.chunks_exact_mut(4) {
            if slot[0] == a && slot[1] == b {
                slot[3] = 0xFFFF_FFFE;
                dropped = true;
            }
        }
    });
    assert!(dropped, "{} had no (listfile)", archive.display());
}

/// Writes an archive with wow-mpq's builder (MPQ v1, zlib), with or without a `(listfile)`.
fn build(archive: &Path, files: &[(&str, &[u8])], listfile: bool) {
    build_as(FormatVersion::V1, archive, files, listfile);
}

/// [`build`] in another MPQ format version.
fn build_as(version: FormatVersion, archive: &Path, files: &[(&str, &[u8])], listfile: bool) {
    std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
    let mut b = ArchiveBuilder::new().version(version);
    if !listfile {
        b = b.listfile_option(ListfileOption::None);
    }
    for (game, bytes) in files {
        b = b.add_file_data(bytes.to_vec(), game);
    }
    b.build(archive).unwrap();
}

fn open(dir: &Path) -> ClientData {
    ClientData::open(dir).unwrap_or_else(|e| panic!("open {}: {e}", dir.display()))
}

fn read(client: &ClientData, path: &str) -> Vec<u8> {
    client
        .read(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .unwrap_or_else(|| panic!("{path}: not found"))
}

fn archive_of(client: &ClientData, path: &str) -> PathBuf {
    match client.served_by(path) {
        Some(Origin::Archive { path, .. }) => path,
        other => panic!("{path} served by {other:?}"),
    }
}

/// loam reads the classic hash and block tables itself in every MPQ version (wow-mpq's loader
/// also reads v3/v4 HET and BET tables, trusting their sizes): archives of each version, as
/// wow-mpq writes them (v3 and v4 with HET and BET beside the classic tables), serve their files.
#[test]
fn archives_of_every_mpq_version_serve_their_files() {
    let wdt = corpus("blizzardry/Azeroth.wdt");
    let path = "World\\Maps\\Azeroth\\Azeroth.wdt";
    for version in [
        FormatVersion::V1,
        FormatVersion::V2,
        FormatVersion::V3,
        FormatVersion::V4,
    ] {
        let dir = tempfile::tempdir().unwrap();
        build_as(
            version,
            &dir.path().join("Data/common.MPQ"),
            &[(path, &wdt), ("a.txt", b"a")],
            false,
        );
        let client = open(dir.path());
        assert_eq!(read(&client, path), wdt, "{version:?}");
        assert_eq!(read(&client, "A.TXT"), b"a", "{version:?}");
    }
}

#[test]
fn wotlk_client_patches_and_locale_archives_override_in_client_order() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    let (grass_old, grass_new) = (
        corpus("wowserhq-format/blp/dxt1a.blp"),
        corpus("wowserhq-format/blp/dxt3.blp"),
    );
    let rabbit = corpus("blizzardry/Rabbit.m2");
    let wdt = corpus("blizzardry/Azeroth.wdt");
    let (dbc_old, dbc_new) = (b"WDBC old".to_vec(), b"WDBC new table".to_vec());
    build(
        &data.join("common.MPQ"),
        &[
            ("Tileset\\Elwynn\\Grass.blp", &grass_old),
            ("Creature\\Rabbit\\Rabbit.m2", &rabbit),
        ],
        true,
    );
    smpq(
        &data.join("lichking.MPQ"),
        &[("World\\Maps\\Azeroth\\Azeroth.wdt", &wdt)],
        &["-M", "2"],
    );
    smpq(
        &data.join("patch.MPQ"),
        &[("Tileset\\Elwynn\\Grass.blp", b"patch 1")],
        &["-M", "2"],
    );
    smpq(
        &data.join("patch-3.MPQ"),
        &[("Tileset\\Elwynn\\Grass.blp", b"patch 3")],
        &["-M", "2"],
    );
    // A custom patch named by letter loads after the numbered ones.
    smpq(
        &data.join("patch-A.MPQ"),
        &[("Tileset\\Elwynn\\Grass.blp", &grass_new)],
        &["-M", "1", "-C", "BZIP2"],
    );
    smpq(
        &data.join("enUS/locale-enUS.MPQ"),
        &[("DBFilesClient\\Map.dbc", &dbc_old)],
        &["-M", "2"],
    );
    smpq(
        &data.join("enUS/patch-enUS.MPQ"),
        &[("DBFilesClient\\Map.dbc", &dbc_new)],
        &["-M", "2"],
    );
    // The stock 3.3.5 client ignores loose files in Data.
    std::fs::create_dir_all(data.join("Tileset/Elwynn")).unwrap();
    std::fs::write(data.join("Tileset/Elwynn/Grass.blp"), b"loose").unwrap();

    let client = open(dir.path());
    assert_eq!(client.generation(), &ClientGeneration::V335);
    assert_eq!(client.generation().to_string(), "3.3.5");
    let order: Vec<(String, ArchiveKind)> = client
        .archives()
        .iter()
        .map(|a| {
            (
                a.path.file_name().unwrap().to_string_lossy().into_owned(),
                a.kind,
            )
        })
        .collect();
    assert_eq!(
        order,
        [
            ("common.MPQ".to_string(), ArchiveKind::Base),
            ("lichking.MPQ".to_string(), ArchiveKind::Base),
            ("locale-enUS.MPQ".to_string(), ArchiveKind::Locale),
            ("patch.MPQ".to_string(), ArchiveKind::Patch),
            ("patch-3.MPQ".to_string(), ArchiveKind::Patch),
            ("patch-A.MPQ".to_string(), ArchiveKind::Patch),
            ("patch-enUS.MPQ".to_string(), ArchiveKind::LocalePatch),
        ]
    );
    assert_eq!(
        client.archives()[0].files,
        3,
        "two files and the (listfile)"
    );
    for spelling in [
        "Tileset\\Elwynn\\Grass.blp",
        "tileset/elwynn/GRASS.BLP",
        "/TILESET//Elwynn\\grass.blp",
    ] {
        assert_eq!(read(&client, spelling), grass_new, "{spelling}");
        assert_eq!(archive_of(&client, spelling), data.join("patch-A.MPQ"));
    }
    assert_eq!(read(&client, "creature/rabbit/rabbit.m2"), rabbit);
    assert_eq!(read(&client, "World\\Maps\\Azeroth\\Azeroth.wdt"), wdt);
    assert_eq!(read(&client, "DBFilesClient\\Map.dbc"), dbc_new);
    assert_eq!(
        archive_of(&client, "dbfilesclient/map.dbc"),
        data.join("enUS/patch-enUS.MPQ")
    );
    assert_eq!(client.read("Tileset\\Elwynn\\Dirt.blp").unwrap(), None);
    assert_eq!(client.served_by("Tileset\\Elwynn\\Dirt.blp"), None);

    let names = client.names();
    assert!(
        names.contains(&"Tileset\\Elwynn\\Grass.blp".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"DBFilesClient\\Map.dbc".to_string()),
        "{names:?}"
    );
    assert_eq!(
        names
            .iter()
            .filter(|n| n.eq_ignore_ascii_case("tileset\\elwynn\\grass.blp"))
            .count(),
        1
    );
    assert!(!names.iter().any(|n| n.starts_with('(')));

    // The map folder wins over the client.
    let map = dir.path().join("mymap/World/Maps/Azeroth");
    std::fs::create_dir_all(&map).unwrap();
    std::fs::write(map.join("azeroth.WDT"), b"edited").unwrap();
    let source = AssetSource::new(Some(std::sync::Arc::new(client)), Some(map.clone()));
    assert_eq!(
        source
            .read("World\\Maps\\Azeroth\\Azeroth.wdt")
            .unwrap()
            .unwrap(),
        b"edited"
    );
    assert_eq!(
        source.served_by("world/maps/azeroth/azeroth.wdt"),
        Some(Origin::MapFolder(map.join("azeroth.WDT")))
    );
    assert_eq!(
        source.read("Tileset\\Elwynn\\Grass.blp").unwrap().unwrap(),
        grass_new
    );
}

#[test]
fn archives_without_a_listfile_still_serve_every_path_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    let blp = corpus("wowserhq-format/blp/pala8.blp");
    let m2 = corpus("blizzardry/Rabbit.m2");
    build(
        &data.join("common.MPQ"),
        &[("Tileset\\Barrens\\Sand.blp", &blp)],
        false,
    );
    smpq(
        &data.join("common-2.MPQ"),
        &[("Creature\\Rabbit\\Rabbit.m2", &m2)],
        &["-M", "1"],
    );
    drop_listfile(&data.join("common-2.MPQ"));
    let client = open(dir.path());
    assert_eq!(read(&client, "TILESET\\barrens\\sand.blp"), blp);
    assert_eq!(read(&client, "creature/rabbit/Rabbit.M2"), m2);
    assert!(client.names().is_empty(), "{:?}", client.names());
    assert_eq!(
        client.archives()[1].files,
        2,
        "the model and StormLib's (attributes)"
    );

    let listfile = dir.path().join("names.txt");
    std::fs::write(&listfile, "tileset\\barrens\\sand.blp\r\nTileset\\Barrens\\Sand.blp\nCreature/Rabbit/Rabbit.m2\nNot\\There.blp\n").unwrap();
    assert_eq!(client.add_listfile(&listfile).unwrap(), 4);
    assert_eq!(
        client.names(),
        ["Creature\\Rabbit\\Rabbit.m2", "Tileset\\Barrens\\Sand.blp"]
    );
}

#[test]
fn stormlib_archives_of_every_version_compression_and_encryption_read_back_exactly() {
    let files: Vec<(String, Vec<u8>)> = ["dxt1a", "dxt5", "pala0", "raw"]
        .iter()
        .map(|n| {
            (
                format!("Tileset\\Test\\{n}.blp"),
                corpus(&format!("wowserhq-format/blp/{n}.blp")),
            )
        })
        .chain([(
            "World\\Maps\\Azeroth\\Azeroth_38_46.adt".to_string(),
            corpus("blizzardry/Azeroth_38_46.adt"),
        )])
        .collect();
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let variants: &[&[&str]] = &[
        &["-M", "1", "-C", "none"],
        &["-M", "1", "-C", "ZLIB"],
        &["-M", "1", "-C", "PKWARE"],
        &["-M", "2", "-C", "BZIP2"],
        // v3 and v4 (later clients' formats): loam reads their classic tables, not HET/BET.
        &["-M", "3", "-C", "ZLIB"],
        &["-M", "4", "-C", "ZLIB"],
        &["-M", "1", "-C", "ZLIB", "-E"],
        &["-M", "1", "-C", "ZLIB", "-E", "-F"],
        &["-M", "1", "-C", "ZLIB", "-S"],
        &["-M", "1", "-U", "-C", "ZLIB"],
    ];
    for options in variants {
        let dir = tempfile::tempdir().unwrap();
        smpq(&dir.path().join("Data/common.MPQ"), &refs, options);
        let client = open(dir.path());
        for (name, bytes) in &files {
            assert!(
                client.read(name).unwrap().as_ref() == Some(bytes),
                "{name} with smpq {options:?}"
            );
        }
        // StormLib encrypts the (listfile) of v1 archives; it must still give the names.
        assert_eq!(
            client.names().len(),
            files.len(),
            "names with smpq {options:?}"
        );
    }
}

#[test]
fn vanilla_client_honours_loose_files_over_archives() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let adt = corpus("blizzardry/Azeroth_38_46.adt");
    let blp = corpus("blizzardry/RabbitSkin.blp");
    for name in ["dbc.MPQ", "model.MPQ", "wmo.MPQ"] {
        smpq(
            &data.join(name),
            &[(&format!("{name}.txt"), b"x")],
            &["-M", "1"],
        );
    }
    smpq(
        &data.join("terrain.MPQ"),
        &[("World\\Maps\\Azeroth\\Azeroth_38_46.adt", b"old")],
        &["-M", "1"],
    );
    smpq(
        &data.join("texture.MPQ"),
        &[("Creature\\Rabbit\\RabbitSkin.blp", b"old")],
        &["-M", "1"],
    );
    smpq(
        &data.join("patch.MPQ"),
        &[("World\\Maps\\Azeroth\\Azeroth_38_46.adt", b"patch 1")],
        &["-M", "1"],
    );
    build(
        &data.join("patch-2.MPQ"),
        &[("World\\Maps\\Azeroth\\Azeroth_38_46.adt", &adt)],
        true,
    );
    std::fs::create_dir_all(data.join("CREATURE/rabbit")).unwrap();
    std::fs::write(data.join("CREATURE/rabbit/rabbitskin.BLP"), &blp).unwrap();

    // Given the Data folder itself, in lower case.
    let client = open(&data);
    assert_eq!(client.generation(), &ClientGeneration::V112);
    assert_eq!(
        read(&client, "world\\maps\\azeroth\\azeroth_38_46.adt"),
        adt
    );
    assert_eq!(
        archive_of(&client, "World/Maps/Azeroth/Azeroth_38_46.adt"),
        data.join("patch-2.MPQ")
    );
    assert_eq!(read(&client, "Creature\\Rabbit\\RabbitSkin.blp"), blp);
    assert_eq!(
        client.served_by("Creature/Rabbit/RabbitSkin.blp"),
        Some(Origin::Loose(data.join("CREATURE/rabbit/rabbitskin.BLP")))
    );
    std::fs::create_dir_all(data.join("interface")).unwrap();
    std::fs::write(data.join("interface/Custom.txt"), b"c").unwrap();
    let client = open(&data);
    let names = client.names();
    assert!(
        names.contains(&"interface\\Custom.txt".to_string()),
        "{names:?}"
    );
    // One spelling per path: the archive's mixed-case one over the loose file's.
    assert_eq!(
        names
            .iter()
            .filter(|n| n.eq_ignore_ascii_case("creature\\rabbit\\rabbitskin.blp"))
            .collect::<Vec<_>>(),
        ["Creature\\Rabbit\\RabbitSkin.blp"]
    );

    // Without patch archives the same layout is the 0.6.0 beta.
    for p in ["patch.MPQ", "patch-2.MPQ"] {
        std::fs::remove_file(data.join(p)).unwrap();
    }
    let beta = open(dir.path());
    assert_eq!(beta.generation(), &ClientGeneration::V060);
    assert_eq!(
        read(&beta, "World\\Maps\\Azeroth\\Azeroth_38_46.adt"),
        b"old"
    );
}

#[test]
fn alpha_per_file_wrappers_are_found_by_the_path_they_wrap() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    let wdt = corpus("blizzardry/Azeroth.wdt");
    let mdx = corpus("alpha-mdx/Ballista.mdx");
    smpq(
        &data.join("model.MPQ"),
        &[(
            "World\\Azeroth\\Elwynn\\PassiveDoodads\\Ballista\\Ballista.mdx",
            &mdx,
        )],
        &["-M", "1"],
    );
    smpq(&data.join("texture.MPQ"), &[("x.blp", b"x")], &["-M", "1"]);
    // The wrapper's payload name is not known for certain; with an unrelated name and no
    // listfile it is still found as the largest file beside the 16-byte MD5.
    smpq(
        &data.join("World/Maps/Azeroth/Azeroth.wdt.MPQ"),
        &[("payload", &wdt), ("payload.md5", &[7u8; 16])],
        &["-M", "1"],
    );
    drop_listfile(&data.join("World/Maps/Azeroth/Azeroth.wdt.MPQ"));
    smpq(
        &data.join("World/Maps/Kalidar/Kalidar.wdt.MPQ"),
        &[("Kalidar.wdt", b"kalidar")],
        &["-M", "1"],
    );
    let client = open(dir.path());
    assert_eq!(client.generation(), &ClientGeneration::Alpha);
    assert_eq!(client.generation().to_string(), "0.5.3/0.5.5");
    assert_eq!(read(&client, "World\\Maps\\Azeroth\\Azeroth.wdt"), wdt);
    assert_eq!(read(&client, "world/maps/kalidar/KALIDAR.WDT"), b"kalidar");
    assert_eq!(
        client.served_by("World\\Maps\\Azeroth\\Azeroth.wdt"),
        Some(Origin::Archive {
            path: data.join("World/Maps/Azeroth/Azeroth.wdt.MPQ"),
            kind: ArchiveKind::PerFile
        })
    );
    assert_eq!(
        read(
            &client,
            "world\\azeroth\\elwynn\\passivedoodads\\ballista\\ballista.mdx"
        ),
        mdx
    );
    assert!(
        client
            .names()
            .contains(&"World\\Maps\\Azeroth\\Azeroth.wdt".to_string())
    );
    assert_eq!(
        client
            .archives()
            .iter()
            .filter(|a| a.kind == ArchiveKind::PerFile)
            .count(),
        2
    );
}

#[test]
fn burning_crusade_layout_and_unknown_folders() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    smpq(
        &data.join("common.MPQ"),
        &[("a.txt", b"common")],
        &["-M", "1"],
    );
    smpq(
        &data.join("expansion.MPQ"),
        &[("a.txt", b"expansion")],
        &["-M", "2"],
    );
    smpq(
        &data.join("enGB/locale-enGB.MPQ"),
        &[("b.txt", b"locale")],
        &["-M", "2"],
    );
    let client = open(dir.path());
    assert_eq!(client.generation(), &ClientGeneration::V243);
    assert_eq!(read(&client, "A.TXT"), b"expansion");
    assert_eq!(read(&client, "b.txt"), b"locale");

    let other = tempfile::tempdir().unwrap();
    std::fs::create_dir(other.path().join("Data")).unwrap();
    let unknown = open(other.path());
    assert!(matches!(unknown.generation(), ClientGeneration::Unknown(r) if r.contains("no .MPQ")));
    let err = ClientData::open(&other.path().join("nope")).unwrap_err();
    assert!(err.to_string().contains("nope"), "{err}");
}

/// MPQ v1 header fields: (hash table pos, block table pos, hash entries, block entries).
fn v1_tables(archive: &[u8]) -> (usize, usize, usize, usize) {
    let u = |o: usize| u32::from_le_bytes(archive[o..o + 4].try_into().unwrap()) as usize;
    (u(16), u(20), u(24), u(28))
}

#[test]
fn a_deletion_marker_in_a_patch_hides_the_base_file() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    smpq(
        &data.join("common.MPQ"),
        &[("gone.txt", b"base"), ("kept.txt", b"kept")],
        &["-M", "1"],
    );
    let patch = data.join("patch.MPQ");
    smpq(&patch, &[("gone.txt", b"marker")], &["-M", "1", "-A"]);
    drop_listfile(&patch);
    // Turn the patch's only block into a deletion marker (smpq cannot write one by itself).
    edit_table(&patch, "(block table)", |words| words[3] |= 0x0200_0000);
    let client = open(dir.path());
    assert_eq!(client.read("gone.txt").unwrap(), None);
    assert_eq!(client.served_by("gone.txt"), None);
    assert_eq!(read(&client, "kept.txt"), b"kept");
}

fn one_archive_client(bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("Data/common.MPQ");
    std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
    std::fs::write(&archive, bytes).unwrap();
    (dir, archive)
}

fn sample_archive() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.MPQ");
    let blp = corpus("wowserhq-format/blp/dxt5.blp");
    smpq(
        &path,
        &[("Tileset\\Big.blp", &blp)],
        &["-M", "1", "-C", "ZLIB"],
    );
    std::fs::read(path).unwrap()
}

#[test]
fn a_truncated_archive_is_an_error_naming_it() {
    let bytes = sample_archive();
    for cut in [bytes.len() - 10, bytes.len() / 2, 40, 10, 0] {
        let (dir, archive) = one_archive_client(&bytes[..cut]);
        let err = ClientData::open(dir.path()).unwrap_err();
        assert!(
            matches!(err, AssetError::BadArchive { .. }),
            "cut at {cut}: {err}"
        );
        assert!(
            err.to_string().contains(&archive.display().to_string()),
            "{err}"
        );
    }
}

#[test]
fn one_damaged_archive_is_left_out_and_the_rest_of_the_client_still_serves() {
    let bytes = sample_archive();
    let (dir, _) = one_archive_client(&bytes);
    // A half-written custom patch beside a good base archive (1.12 layout: patch.MPQ wins).
    let patch = dir.path().join("Data/patch-Z.MPQ");
    std::fs::write(&patch, &bytes[..bytes.len() / 2]).unwrap();
    let client = open(dir.path());
    assert_eq!(client.skipped().len(), 1);
    assert!(
        client.skipped()[0]
            .to_string()
            .contains(&patch.display().to_string()),
        "{}",
        client.skipped()[0]
    );
    let blp = corpus("wowserhq-format/blp/dxt5.blp");
    assert_eq!(read(&client, "tileset\\big.blp"), blp);
    let out = loam_cmd(&["client", dir.path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("left out (unreadable)"),
        "{text}"
    );
}

#[test]
fn a_garbled_hash_table_never_panics_and_finds_nothing_wrong() {
    let bytes = sample_archive();
    let (hash_pos, _, hashes, _) = v1_tables(&bytes);
    let mut garbled = bytes.clone();
    for (i, b) in garbled[hash_pos..hash_pos + hashes * 16]
        .iter_mut()
        .enumerate()
    {
        *b ^= (i as u8).wrapping_mul(37) | 1;
    }
    let (dir, _) = one_archive_client(&garbled);
    let client = open(dir.path());
    assert_eq!(client.read("Tileset\\Big.blp").unwrap(), None);
    // A hash table size that is not a power of two is refused outright.
    let mut odd = bytes.clone();
    odd[24..28].copy_from_slice(&3u32.to_le_bytes());
    let (dir, archive) = one_archive_client(&odd);
    let err = ClientData::open(dir.path()).unwrap_err();
    assert!(
        err.to_string().contains(&archive.display().to_string())
            && err.to_string().contains("power of"),
        "{err}"
    );
}

#[test]
fn a_file_that_fails_to_decompress_is_an_error_naming_archive_and_file() {
    let mut bytes = sample_archive();
    // The file's sectors start after the 32-byte header; garble the middle of its data.
    for b in &mut bytes[2_000..6_000] {
        *b = !*b;
    }
    let (dir, archive) = one_archive_client(&bytes);
    let client = open(dir.path());
    let err = client.read("tileset/big.blp").unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, AssetError::BadFile { .. }), "{text}");
    assert!(
        text.contains(&archive.display().to_string()) && text.contains("tileset\\big.blp"),
        "{text}"
    );
    assert!(text.contains("byte"), "{text}");
}

#[test]
fn the_client_command_lists_archives_and_finds_paths() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    smpq(
        &data.join("common.MPQ"),
        &[
            ("Tileset\\Elwynn\\Grass.blp", b"g"),
            ("Tileset\\Elwynn\\Dirt.blp", b"d"),
        ],
        &["-M", "1"],
    );
    smpq(
        &data.join("patch.MPQ"),
        &[("Tileset\\Elwynn\\Grass.blp", b"G")],
        &["-M", "1"],
    );
    let loam = env!("CARGO_BIN_EXE_loam");
    let out = Command::new(loam)
        .arg("client")
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("client: 2.4.3"), "{text}");
    let common = text.find("common.MPQ").unwrap();
    assert!(
        text[common..].contains("patch.MPQ"),
        "patch after common: {text}"
    );
    let out = Command::new(loam)
        .args(["client", "--find", "TILESET/*/gr*.BLP"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("Tileset\\Elwynn\\Grass.blp") && text.contains("patch.MPQ"),
        "{text}"
    );
    let out = Command::new(loam)
        .args(["client", "--find", "*.m2"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// A 1.12 client holding `World\\Maps\\Custom\\Custom.wdt` and, in its patch, `map_dbc` (or
/// no Map.dbc).
fn client_with_custom_map(map_dbc: Option<Vec<u8>>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    build(
        &data.join("terrain.MPQ"),
        &[("World\\Maps\\Custom\\Custom.wdt", b"MVER")],
        true,
    );
    let patch: Vec<(&str, &[u8])> = match &map_dbc {
        Some(table) => vec![("DBFilesClient\\Map.dbc", table)],
        None => vec![("Interface\\x.lua", b"x")],
    };
    build(&data.join("patch.MPQ"), &patch, true);
    dir
}

/// `loam client DIR --maps` on [`client_with_custom_map`]: stdout, stderr.
fn client_maps(map_dbc: Option<Vec<u8>>) -> (String, String) {
    let dir = client_with_custom_map(map_dbc);
    let out = loam_cmd(&["client", "--maps", dir.path().to_str().unwrap()]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    (stdout, stderr)
}

#[test]
fn the_client_command_lists_maps_and_says_why_names_are_missing() {
    let (stdout, stderr) = client_maps(Some(common::map_dbc(42, 4, 901, "Custom", "Old Map")));
    assert_eq!(stdout, "Custom\t901\tOld Map\n", "{stderr}");
    assert!(
        stderr.contains("1 map(s); names from DBFilesClient\\Map.dbc (1.12 layout)"),
        "{stderr}"
    );

    let (stdout, stderr) = client_maps(None);
    assert_eq!(stdout, "Custom\n");
    assert!(
        stderr.contains("the client has no DBFilesClient\\Map.dbc"),
        "{stderr}"
    );

    // A 3.3.5 table in a 1.12 client (a modder's copy from another client): the map is still
    // listed, by folder, and the user is told the table does not fit.
    let (stdout, stderr) = client_maps(Some(common::map_dbc(66, 5, 901, "Custom", "New Map")));
    assert_eq!(stdout, "Custom\n");
    assert!(stderr.contains("does not fit the 1.12 layout"), "{stderr}");

    let (stdout, stderr) = client_maps(Some(b"WDBC\xff\xff".to_vec()));
    assert_eq!(stdout, "Custom\n");
    assert!(stderr.contains("does not fit the 1.12 layout"), "{stderr}");

    // Without --maps the summary counts them and says where names came from.
    let dir = client_with_custom_map(None);
    let out = loam_cmd(&["client", dir.path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("client: 1.12"), "{text}");
    assert!(
        text.contains("maps: 1 (no display names: the client has no DBFilesClient\\Map.dbc"),
        "{text}"
    );
}

#[test]
fn map_tables_of_each_layout_name_their_maps() {
    let wrath = common::map_dbc(66, 5, 901, "Custom", "My Map");
    let rows = read_map_table(&wrath, &ClientGeneration::V335).expect("3.3.5 layout");
    assert_eq!(rows, [(901, "Custom".to_string(), "My Map".to_string())]);
    let vanilla = common::map_dbc(42, 4, 901, "Custom", "Old Map");
    let rows = read_map_table(&vanilla, &ClientGeneration::V112).expect("1.12 layout");
    assert_eq!(rows, [(901, "Custom".to_string(), "Old Map".to_string())]);
    // A layout that does not fit is no names, not misread ones.
    assert_eq!(read_map_table(&vanilla, &ClientGeneration::V335), None);
    assert_eq!(read_map_table(&wrath, &ClientGeneration::Alpha), None);
    assert_eq!(read_map_table(b"WDBC", &ClientGeneration::V335), None);

    // A client whose archives name no generation: each layout is tried, the fitting one named.
    for (table, layout, name) in [
        (vanilla, ClientGeneration::V112, "Old Map"),
        (wrath, ClientGeneration::V335, "My Map"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        build(
            &dir.path().join("Data/custom.MPQ"),
            &[
                ("World\\Maps\\Custom\\Custom.wdt", b"MVER"),
                ("DBFilesClient\\Map.dbc", &table),
            ],
            true,
        );
        let client = open(dir.path());
        assert!(matches!(client.generation(), ClientGeneration::Unknown(_)));
        let listing = client.maps();
        assert_eq!(listing.names, MapNames::Read(layout));
        assert_eq!(listing.maps.len(), 1);
        assert_eq!(listing.maps[0].table, Some((901, name.to_string())));
    }
}

proptest! {
    #[test]
    fn normalising_ignores_case_and_slashes(path in "[A-Za-z0-9_./\\\\]{0,40}", flips in proptest::collection::vec(any::<bool>(), 40)) {
        let varied: String = path
            .chars()
            .zip(flips.iter().cycle())
            .map(|(c, &f)| match (c, f) {
                ('/', true) => '\\',
                ('\\', true) => '/',
                (c, true) => c.to_ascii_uppercase(),
                (c, false) => c.to_ascii_lowercase(),
            })
            .collect();
        prop_assert_eq!(normalise(&path), normalise(&varied));
        prop_assert_eq!(normalise(&normalise(&path)), normalise(&path));
        prop_assert_eq!(loam::assets::client::name_key(&path), loam::assets::client::name_key(&varied));
        prop_assert!(glob_match("**", &path) || normalise(&path).is_empty());
    }

    #[test]
    fn archives_of_random_bytes_never_panic(mut bytes in proptest::collection::vec(any::<u8>(), 0..2048), header in any::<bool>(), sizes in any::<(u32, u32, u32, u32)>()) {
        if header && bytes.len() >= 32 {
            bytes[..4].copy_from_slice(b"MPQ\x1a");
            bytes[4..8].copy_from_slice(&32u32.to_le_bytes());
            bytes[12..14].copy_from_slice(&0u16.to_le_bytes());
            bytes[16..20].copy_from_slice(&(sizes.0 % 2048).to_le_bytes());
            bytes[20..24].copy_from_slice(&(sizes.1 % 2048).to_le_bytes());
            bytes[24..28].copy_from_slice(&(1u32 << (sizes.2 % 8)).to_le_bytes());
            bytes[28..32].copy_from_slice(&(sizes.3 % 64).to_le_bytes());
        }
        let (dir, _) = one_archive_client(&bytes);
        if let Ok(client) = ClientData::open(dir.path()) {
            for name in ["(listfile)", "Tileset\\Big.blp", "a"] {
                let _ = client.read(name);
            }
            let _ = client.names();
        }
    }
}

/// Runs the loam binary with `args`.
fn loam_cmd(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(args)
        .output()
        .unwrap()
}
