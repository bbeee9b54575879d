//! File ▸ Export for client… driven through egui_kittest with the real app: the dialog picks
//! the client folder, writes the patch into its Data folder, and says where.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use loam::app::dialogs::ScriptedDialogs;
use loam::app::{LoamApp, StartOptions};

fn harness(dialogs: &ScriptedDialogs) -> Harness<'static, LoamApp> {
    let dialogs = dialogs.clone();
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_max_steps(256)
        .build_eframe(move |cc| {
            LoamApp::new(
                cc,
                StartOptions {
                    open: None,
                    dialogs: Box::new(dialogs),
                    screenshot: None,
                    read_as: None,
                    client: None,
                },
            )
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
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Export for client…").click();
    h.run();
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
