//! Client archives (`pipeline::pack`, `loam convert --pack`): what is packed reads back, through
//! wow-mpq, StormLib's `smpq` and loam's own client reader, as exactly the bytes written to the
//! folder; an archive loam did not write is never replaced.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use loam::assets::client::ClientData;
use loam::convert;
use loam::format::Generation;
use loam::pipeline::{self, pack, stream};
use wow_mpq::{Archive, ArchiveBuilder};

/// The bundled sample written to `dir/src`, converted to `to` in `dir/out` with its WDL.
fn converted_sample(dir: &Path, to: Generation) -> PathBuf {
    let src = common::sample_in(dir.join("src"));
    let out = dir.join("out");
    let c = stream::convert_map(
        &src.join("Sample.wdt"),
        None,
        to,
        &convert::Options::default(),
        &out,
        &|_, _| {},
    )
    .unwrap();
    pipeline::wdl::write_wdl(&out, &c.name, &c.low_res).unwrap();
    out
}

fn smpq(args: &[&str]) -> String {
    let out = Command::new("smpq")
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("smpq could not be run ({e}): install it with `bash packaging/setup --tests`")
        });
    assert!(out.status.success(), "smpq {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// The folder `rel` in `dir`, made.
fn new_folder(dir: &Path, rel: &str) -> PathBuf {
    let path = dir.join(rel);
    fs::create_dir_all(&path).unwrap();
    path
}

/// Writes an MPQ at `path` holding one file, `name`, of `bytes`.
fn archive_holding(path: impl AsRef<Path>, name: &str, bytes: &[u8]) {
    ArchiveBuilder::new()
        .add_file_data(bytes.to_vec(), name)
        .build(path)
        .unwrap();
}

/// Extracts `archive` with smpq into the new folder `x`.
fn smpq_extract(archive: &Path, x: &Path) {
    fs::create_dir_all(x).unwrap();
    let run = Command::new("smpq")
        .current_dir(x)
        .args(["-x", archive.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
}

#[test]
fn a_335_patch_reads_back_through_wow_mpq_and_smpq_as_the_folders_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let out = converted_sample(dir.path(), Generation::V335);
    let loose = common::folder_files(&out);
    assert_eq!(loose.len(), 6, "{:?}", loose.keys());
    assert!(loose.contains_key("Sample.wdl"));
    let dest = new_folder(dir.path(), "Data");
    let packed = pack::pack_map(&out, "Sample", Generation::V335, &dest, None).unwrap();
    let [(archive, listed)] = packed.archives.as_slice() else {
        panic!("one patch archive: {packed:?}")
    };
    assert_eq!(archive, &dest.join("patch-4.MPQ"));
    assert_eq!(listed.len(), 6);

    let mut a = Archive::open(archive).unwrap();
    // The archive lists its files: the listfile names each map file, the marker and itself.
    let names: Vec<String> = a.list().unwrap().into_iter().map(|e| e.name).collect();
    for name in loose.keys() {
        let game = format!("World\\Maps\\Sample\\{name}");
        assert!(names.contains(&game), "{game} not listed in {names:?}");
        assert_eq!(&a.read_file(&game).unwrap(), &loose[name], "{game}");
    }
    assert!(names.iter().any(|n| n == "(listfile)"), "{names:?}");
    assert!(names.iter().any(|n| n == pack::MARKER), "{names:?}");

    // StormLib, a reader that shares no code with wow-mpq, lists and extracts the same.
    let listing = smpq(&["-l", archive.to_str().unwrap()]);
    for name in loose.keys() {
        assert!(
            listing.contains(&format!("World/Maps/Sample/{name}")),
            "smpq does not list {name}:\n{listing}"
        );
    }
    let x = dir.path().join("x");
    smpq_extract(archive, &x);
    for (name, bytes) in &loose {
        let got = fs::read(x.join("World/Maps/Sample").join(name))
            .unwrap_or_else(|e| panic!("smpq extracted no {name}: {e}"));
        assert!(&got == bytes, "smpq's {name} differs");
    }
}

#[test]
fn a_053_map_packs_into_per_file_wrappers_the_client_reader_serves() {
    let dir = tempfile::tempdir().unwrap();
    let out = converted_sample(dir.path(), Generation::Alpha053);
    let loose = common::folder_files(&out);
    assert_eq!(
        loose.keys().collect::<Vec<_>>(),
        ["Sample.wdl", "Sample.wdt"]
    );
    // An alpha client's Data folder: its base archives (told apart by name) and the wrappers.
    let data = new_folder(dir.path(), "client/Data");
    for base in ["model.MPQ", "texture.MPQ"] {
        archive_holding(data.join(base), "readme.txt", b"x");
    }
    let packed = pack::pack_map(&out, "Sample", Generation::Alpha053, &data, None).unwrap();
    assert_eq!(packed.archives.len(), 2);
    for name in ["Sample.wdt", "Sample.wdl"] {
        let wrapper = data.join(format!("World/Maps/Sample/{name}.MPQ"));
        let mut a = Archive::open(&wrapper).unwrap();
        assert!(
            a.read_file(name).unwrap() == loose[name],
            "{name} in its wrapper"
        );
        // StormLib extracts the payload, the archive's first block (readers that do not know
        // the name take the first or the largest), as the same bytes.
        let x = dir.path().join(format!("x-{name}"));
        smpq_extract(&wrapper, &x);
        let first = fs::read(x.join("File00000000.xxx")).unwrap();
        assert!(
            first == loose[name],
            "smpq's first block of {name}.MPQ differs"
        );
    }
    let client = ClientData::open(&dir.path().join("client")).unwrap();
    for name in ["Sample.wdt", "Sample.wdl"] {
        let got = client
            .read(&format!("World\\Maps\\Sample\\{name}"))
            .unwrap()
            .unwrap_or_else(|| panic!("the client reader does not serve {name}"));
        assert!(got == loose[name], "{name} as the client reader serves it");
    }
}

#[test]
fn the_client_reader_serves_a_patch_over_a_335_stack() {
    let dir = tempfile::tempdir().unwrap();
    let out = converted_sample(dir.path(), Generation::V335);
    let data = new_folder(dir.path(), "client/Data");
    for base in [
        "common.MPQ",
        "lichking.MPQ",
        "patch.MPQ",
        "patch-2.MPQ",
        "patch-3.MPQ",
    ] {
        archive_holding(data.join(base), "World\\Maps\\Sample\\Sample.wdt", b"old");
    }
    pack::pack_map(&out, "Sample", Generation::V335, &data, None).unwrap();
    assert!(data.join("patch-4.MPQ").is_file());
    let client = ClientData::open(&dir.path().join("client")).unwrap();
    for (name, bytes) in common::folder_files(&out) {
        let got = client
            .read(&format!("World\\Maps\\Sample\\{name}"))
            .unwrap()
            .unwrap();
        assert!(
            got == bytes,
            "{name}: the new patch must win over the base archives"
        );
    }
}

#[test]
fn an_archive_loam_did_not_write_is_left_alone_and_its_own_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let out = converted_sample(dir.path(), Generation::V112);
    let data = new_folder(dir.path(), "Data");
    let theirs = data.join("patch-4.MPQ");
    archive_holding(&theirs, "Interface\\x.lua", b"a player's mod");
    let before = fs::read(&theirs).unwrap();
    let e =
        pack::pack_map(&out, "Sample", Generation::V112, &data, Some("patch-4.MPQ")).unwrap_err();
    assert!(e.to_string().contains("not written by loam"), "{e}");
    assert_eq!(fs::read(&theirs).unwrap(), before);
    // Without a name, the next free one is taken.
    let first = pack::pack_map(&out, "Sample", Generation::V112, &data, None).unwrap();
    assert_eq!(first.archives[0].0, data.join("patch-5.MPQ"));
    // loam's own archive is replaced when named again, and nothing else appears.
    let again =
        pack::pack_map(&out, "Sample", Generation::V112, &data, Some("PATCH-5.mpq")).unwrap();
    assert_eq!(again.archives[0].0, data.join("patch-5.MPQ"));
    let mut names: Vec<String> = fs::read_dir(&data)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["patch-4.MPQ", "patch-5.MPQ"],
        "no temporary files left"
    );
    assert_eq!(fs::read(&theirs).unwrap(), before);
}

#[test]
fn convert_pack_writes_into_the_clients_data_folder() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::sample_in(dir.path().join("src"));
    let data = new_folder(dir.path(), "Game/Data");
    let out = dir.path().join("out");
    let game = dir.path().join("Game");
    let run = common::loam_on(
        &[
            "convert",
            "--to",
            "3.3.5",
            "--pack",
            "--patch-name",
            "patch-L.MPQ",
            "--client",
            game.to_str().unwrap(),
        ],
        &src.join("Sample.wdt"),
        &out,
    );
    assert!(run.status.success(), "{run:?}");
    let archive = data.join("patch-L.MPQ");
    let mut a = Archive::open(&archive).unwrap();
    let wdl = a.read_file("World\\Maps\\Sample\\Sample.wdl").unwrap();
    assert_eq!(wdl, fs::read(out.join("Sample.wdl")).unwrap());
    // `loam ARGS SAMPLE OUT` fails, names `what` in its error and writes no OUT.
    let refused = |args: &[&str], out: &str, what: &str| {
        let run = common::loam_on(args, &src.join("Sample.wdt"), &dir.path().join(out));
        assert!(!run.status.success());
        assert!(
            String::from_utf8_lossy(&run.stderr).contains(what),
            "{run:?}"
        );
        assert!(!dir.path().join(out).exists());
    };
    // 0.6.0 has no archive layout: refused before anything is written.
    refused(&["convert", "--to", "0.6.0", "--pack"], "o060", "0.6.0");
    // Nor is a name that is not a patch's.
    refused(
        &[
            "convert",
            "--to",
            "3.3.5",
            "--pack",
            "--patch-name",
            "common.MPQ",
        ],
        "bad",
        "common.MPQ",
    );
}
