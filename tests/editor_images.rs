//! File ▸ Import image… and File ▸ Export images…, driven through egui_kittest with the real app:
//! a 16-bit heightmap picked, imported over the sample as one undo step (Undo gives every
//! height back), and the sample's images written from the Export dialog on its worker.

mod editor_support;

use egui_kittest::kittest::Queryable;
use loam::app::file_picker::ScriptedDialogs;
use loam::model::TileCoord;

/// The heights of tile 31_31 of the open map.
fn heights(h: &egui_kittest::Harness<'_, loam::app::LoamApp>) -> Vec<f32> {
    let s = h.state().session().unwrap();
    let t = &s.map.tiles[&TileCoord::new(31, 31).unwrap()];
    t.chunks
        .iter()
        .flat_map(|c| c.heights.iter().copied())
        .collect()
}

#[test]
fn a_picked_heightmap_imports_as_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    // A ramp from 0 (west) to 65535 (east), written by the png crate.
    let image = dir.path().join("Sample_31_31_height.png");
    let mut e = png::Encoder::new(std::fs::File::create(&image).unwrap(), 257, 257);
    e.set_depth(png::BitDepth::Sixteen);
    e.set_color(png::ColorType::Grayscale);
    let bytes: Vec<u8> = (0..257 * 257)
        .flat_map(|i| (((i % 257) * 65535 / 256) as u16).to_be_bytes())
        .collect();
    e.write_header().unwrap().write_image_data(&bytes).unwrap();

    let dialogs = ScriptedDialogs::default();
    let mut h = editor_support::harness(editor_support::Opening {
        dialogs: dialogs.clone(),
        ..Default::default()
    });
    h.run();
    let before = heights(&h);
    editor_support::click_each(&mut h, &["File", "Import image…"]);
    dialogs.answer_map(Some(image.clone()));
    h.get_by_label("Image…").click();
    h.run();
    assert!(
        editor_support::shows(&h, "Sample_31_31_height.png (257×257)"),
        "the chosen image and its size are shown"
    );
    h.get_by_label("Import").click();
    h.run();
    h.run();
    let after = heights(&h);
    assert_ne!(before, after);
    // The west edge is black, the east edge white, over the range the dialog showed (the
    // sample's own, as no range was recorded beside the image).
    let s = h.state().session().unwrap();
    let t = &s.map.tiles[&TileCoord::new(31, 31).unwrap()];
    let (lo, hi) = (t.chunks[0].heights[0], t.chunks[15].heights[8]);
    assert!(hi > lo + 100.0, "a ramp west to east: {lo} … {hi}");
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(heights(&h), before, "one undo step gives every height back");
    assert!(
        h.query_by_label("Import image").is_none(),
        "the dialog closed"
    );
}

#[test]
fn the_export_dialog_writes_the_maps_images_on_its_worker() {
    let dir = tempfile::tempdir().unwrap();
    let dialogs = ScriptedDialogs::default();
    let mut h = editor_support::harness(editor_support::Opening {
        dialogs: dialogs.clone(),
        ..Default::default()
    });
    h.run();
    editor_support::click_each(&mut h, &["File", "Export images…"]);
    assert!(
        editor_support::shows(&h, "Tile 31_31's heights"),
        "a preview"
    );
    dialogs.answer_folder(Some(dir.path().to_path_buf()));
    h.get_by_label("Folder…").click();
    h.run();
    h.get_by_label("Export").click();
    for _ in 0..300 {
        h.run();
        if h.query_by_label("Export images").is_none() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(
        h.query_by_label("Export images").is_none(),
        "the dialog closed when done"
    );
    for f in [
        "Sample_31_31_height.png",
        "Sample_32_32_vcol.png",
        "Sample_heights.json",
    ] {
        assert!(dir.path().join(f).is_file(), "{f}");
    }
    let alpha = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".blp.png")
        })
        .count();
    assert_eq!(alpha, 16, "four textures in each of four tiles");
}

#[test]
fn a_bundled_stamp_chosen_in_the_tool_panel_shapes_the_brush() {
    let mut h = editor_support::harness(editor_support::Opening::default());
    h.run();
    h.get_by_label("Stamp").click();
    h.run();
    h.get_by_label("crater").click();
    h.run();
    let settings = &h.state().editing().settings;
    let stamp = settings.brush.stamp.as_ref().expect("a stamp chosen");
    assert!(stamp.path.ends_with("crater.png"), "{}", stamp.path);
    let mask = stamp.mask.as_ref().expect("its pixels read when chosen");
    assert_eq!((mask.width, mask.height), (128, 128));
    // The ring is strong, its centre and corners nothing.
    assert!(mask.at(0.5, 0.5) < 0.05);
    assert!(mask.at(0.5 + 0.55 / 2.0, 0.5) > 0.9);
    assert_eq!(mask.at(0.0, 0.0), 0.0);
    assert!(
        h.query_all_by_label("Turn (°)").next().is_some(),
        "the turn slider shows"
    );
}
