//! Zones by name in the editor (egui_kittest, no GL): with a client whose AreaTable.dbc names
//! the sample's areas, the Area tool's picker lists the open map's zones as a tree, finds a
//! subzone by typing part of its name and sets the tool's area id with a click, and the
//! status bar names the area under the cursor.

mod common;
mod editor_support;

use egui_kittest::kittest::Queryable;
use loam::doc::editing::Tool;
use loam::ui::viewport::VIEWPORT_LABEL;

/// A 3.3.5 client whose Map.dbc names the sample (map 800) and whose AreaTable names zones on
/// it and on another map.
fn client(root: &std::path::Path) -> std::path::PathBuf {
    let areas = common::area_table(
        36,
        &[
            (1, 800, 0, "Elwynn Forest"),
            (2, 800, 1, "Goldshire"),
            (87, 800, 1, "Lion's Pride Inn"),
            (12, 800, 0, "Westfall"),
            (14, 1, 0, "Durotar"),
            (362, 1, 14, "Razor Hill"),
        ],
    );
    let maps = common::map_dbc(66, 5, 800, "Sample", "Sample Isle");
    common::client_with(
        root,
        false,
        &[
            ("DBFilesClient\\AreaTable.dbc", &areas),
            ("DBFilesClient\\Map.dbc", &maps),
        ],
    )
}

#[test]
fn the_area_picker_finds_a_subzone_by_part_of_its_name_and_the_status_bar_names_the_ground() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_support::harness(editor_support::Opening {
        client: Some(client(dir.path())),
        window_frames: true,
        ..Default::default()
    });
    h.run();
    let view = h.get_by_label(VIEWPORT_LABEL).rect();
    editor_support::choose_tool(&mut h, Tool::Area);
    assert_eq!(h.state().editing().settings.tool, Tool::Area);

    // The status bar names what lies under the cursor (the sample's tiles load over the
    // first frames).
    let at = view.center() + egui::vec2(-30.0, 40.0);
    let point = editor_support::ground_under(&mut h, at);
    let name = match point.area_id {
        1 => "Elwynn Forest",
        2 => "Elwynn Forest › Goldshire",
        other => panic!("the sample's areas are 1 and 2, not {other}"),
    };
    assert!(
        h.query_by_label(&format!("area {} {name}", point.area_id))
            .is_some(),
        "the status bar names area {}",
        point.area_id
    );

    // The open map's zones, closed: no subzone and no other map's zone shows.
    assert!(h.query_by_label("Elwynn Forest").is_some());
    assert!(h.query_by_label("Westfall").is_some());
    assert!(h.query_by_label("Durotar").is_none());
    assert!(h.query_by_label("Lion's Pride Inn").is_none());

    // Other maps' zones come with the box ticked.
    h.get_by_label("Zones of every map").click();
    h.run();
    assert!(h.query_by_label("Durotar").is_some());

    editor_support::type_into(&mut h, "Find zone", "pride");
    h.run();
    assert!(
        h.query_by_label("Westfall").is_none(),
        "Westfall has no 'pride'"
    );
    assert!(h.query_by_label("Durotar").is_none(), "nor has Durotar");
    assert!(
        h.query_by_label("Elwynn Forest").is_some(),
        "its zone stays as the tree's root"
    );
    h.get_by_label("Lion's Pride Inn").click();
    h.run();
    assert_eq!(h.state().editing().settings.area_id, 87);
    assert!(
        h.query_by_label("Elwynn Forest › Lion's Pride Inn")
            .is_some()
    );
}
