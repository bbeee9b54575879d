//! File ▸ Export for client… and Save as…'s WDL checkbox driven through egui_kittest with the
//! real app: the export picks the client folder, writes the patch into its Data folder, and
//! says where; Save as writes the WDL unless told not to.

mod common;
mod editor_support;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use loam::app::LoamApp;
use loam::app::file_picker::ScriptedDialogs;

fn harness(dialogs: &ScriptedDialogs) -> Harness<'static, LoamApp> {
    editor_support::harness(editor_support::Opening {
        dialogs: dialogs.clone(),
        ..Default::default()
    })
}

#[test]
fn export_for_client_writes_a_patch_into_the_clients_data_folder() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    std::fs::create_dir_all(&data).unwrap();
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs);
    h.run();
    editor_support::click_each(&mut h, &["File", "Export for client…"]);
    h.get_by_label("Write the WDL (distant terrain)");
    h.get_by_label("1.12").click();
    h.run();
    dialogs.answer_folder(Some(dir.path().to_path_buf()));
    h.get_by_label("Client folder…").click();
    h.run();
    h.get_by_label("Export").click();
    h.run();
    let archive = data.join("patch-4.MPQ");
    assert!(archive.is_file(), "no archive in {}", data.display());
    let mut a = wow_mpq::Archive::open(&archive).unwrap();
    let names: Vec<String> = a.list().unwrap().into_iter().map(|e| e.name).collect();
    for want in [
        "World\\Maps\\Sample\\Sample.wdt",
        "World\\Maps\\Sample\\Sample.wdl",
        "World\\Maps\\Sample\\Sample_32_32.adt",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} not in {names:?}");
    }
    assert!(
        h.query_by_label("Client folder…").is_none(),
        "the dialog closed"
    );
    assert!(h.query_all_by_label_contains("exported to").count() >= 1);
}

#[test]
fn export_into_a_112_client_says_what_its_servers_will_not_see_and_writes_their_copy() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Game/Data");
    std::fs::create_dir_all(&data).unwrap();
    // A 1.12 client as Blizzard shipped it: Map.dbc in dbc.MPQ, patch.MPQ and patch-2.MPQ
    // theirs, so every custom patch lies beyond the servers' extractors.
    let table = common::map_dbc(42, 4, 1, "Kalimdor", "Kalimdor");
    for (name, file, bytes) in [
        ("dbc.MPQ", "DBFilesClient\\Map.dbc", table.as_slice()),
        ("terrain.MPQ", "x.txt", b"x"),
        ("patch.MPQ", "y.txt", b"y"),
        ("patch-2.MPQ", "z.txt", b"z"),
    ] {
        wow_mpq::ArchiveBuilder::new()
            .add_file_data(bytes.to_vec(), file)
            .build(data.join(name))
            .unwrap();
    }
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs);
    h.run();
    editor_support::click_each(&mut h, &["File", "Export for client…"]);
    h.get_by_label("1.12").click();
    h.run();
    dialogs.answer_folder(Some(dir.path().join("Game")));
    h.get_by_label("Client folder…").click();
    h.run();
    h.get_by_label("Export").click();
    h.run();
    assert!(data.join("patch-4.MPQ").is_file() && data.join("patch-5.MPQ").is_file());
    // The dialog stays up with what the extractors miss, the archives named, and the mend.
    let said = "the servers' map extractors will not see Sample's files (in patch-4.MPQ), \
                DBFilesClient\\Map.dbc row (in patch-5.MPQ)";
    // Once in the status line, once in the dialog.
    assert_eq!(h.query_all_by_label_contains(said).count(), 2);
    assert_eq!(h.query_all_by_label_contains("loam server-data").count(), 2);
    h.get_by_label("Close");
    // Again with the servers' copy: written, and the warning now points at it.
    let copy = dir.path().join("server");
    h.get_by_label("Write the servers' copy").click();
    h.run();
    dialogs.answer_folder(Some(copy.clone()));
    h.get_by_label("Folder…").click();
    h.run();
    h.get_by_label("Export").click();
    h.run();
    assert!(
        copy.join("Data/patch-2.MPQ").is_file(),
        "no copy in {}",
        copy.display()
    );
    let points = format!("the servers' copy written to {} has them", copy.display());
    assert_eq!(h.query_all_by_label_contains(&points).count(), 2);
    // Closed, only the status line keeps it.
    h.get_by_label("Close").click();
    h.run();
    assert_eq!(h.query_all_by_label_contains(&points).count(), 1);
}

#[test]
fn save_as_writes_the_wdl_unless_unticked() {
    for wdl in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let dialogs = ScriptedDialogs::default();
        let mut h = harness(&dialogs);
        h.run();
        editor_support::click_each(&mut h, &["File", "Save as…"]);
        h.get_by_label("Target 1.12").click();
        h.run();
        if !wdl {
            h.get_by_label("Write the WDL (distant terrain)").click();
            h.run();
        }
        dialogs.answer_folder(Some(dir.path().to_path_buf()));
        editor_support::click_each(&mut h, &["Choose folder…", "Write"]);
        assert!(dir.path().join("Sample.wdt").is_file());
        let path = dir.path().join("Sample.wdl");
        assert_eq!(path.is_file(), wdl, "WDL ticked: {wdl}");
        if wdl {
            let back = loam::pipeline::wdl::read_wdl(&path).unwrap();
            assert_eq!(back.tiles.len(), 4);
            // 1.12 WDLs have no MAHO.
            assert!(back.tiles.values().all(|t| t.holes.is_none()));
        }
    }
}
