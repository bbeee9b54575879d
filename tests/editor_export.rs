//! File ▸ Export for client… and Save as…'s WDL checkbox driven through egui_kittest with the
//! real app: the export picks the client folder, writes the patch into its Data folder, and
//! says where; Save as writes the WDL unless told not to.

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
