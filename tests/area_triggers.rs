//! `loam trigger list/add/remove` (issue 51, part 3): area triggers written into the client's
//! AreaTrigger.dbc where the servers' extractors read it, read back with StormLib's `smpq`
//! and `wow_dbc`'s typed 3.3.5 table (readers that are not loam's), and the teleport rows'
//! SQL run against each core's `areatrigger_teleport` definition in SQLite.

mod common;
mod editor_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{client_with, loam, loam_ok, map_dbc, smpq_extract, text, wdbc};

const MAP: &str = "Sample";
const MAP_ID: u32 = 5;

/// The client's own triggers: a sphere on the sample's map and a box on another map, in
/// WoWDBDefs' 3.3.5 layout (`BUILD 3.0.1.8303-3.3.5.12340`): ID, ContinentID, Pos[3], Radius,
/// Box_length, Box_width, Box_height, Box_yaw.
fn old_triggers() -> Vec<u8> {
    let f = |v: f32| Ok(v.to_bits());
    wdbc(
        10,
        &[
            vec![
                Ok(45),
                Ok(MAP_ID),
                f(10.0),
                f(-20.0),
                f(30.0),
                f(5.0),
                f(0.0),
                f(0.0),
                f(0.0),
                f(0.0),
            ],
            vec![
                Ok(78),
                Ok(0),
                f(1.0),
                f(2.0),
                f(3.0),
                f(0.0),
                f(8.0),
                f(4.0),
                f(6.0),
                f(1.0),
            ],
        ],
        &[],
    )
}

/// A global light, so that the light tables are there to carry over (Light, LightParams and
/// the band tables in their 3.3.5 layouts).
fn light_tables() -> Vec<(&'static str, Vec<u8>)> {
    let mut light = vec![Ok(1), Ok(MAP_ID), Ok(0), Ok(0), Ok(0), Ok(0), Ok(0), Ok(1)];
    light.resize(15, Ok(0));
    let mut params = vec![Ok(1)];
    params.resize(9, Ok(0));
    let band = |id: u32| {
        let mut row = vec![Ok(id), Ok(1), Ok(0)];
        row.resize(34, Ok(0));
        row
    };
    vec![
        ("DBFilesClient\\Light.dbc", wdbc(15, &[light], &[])),
        ("DBFilesClient\\LightParams.dbc", wdbc(9, &[params], &[])),
        (
            "DBFilesClient\\LightIntBand.dbc",
            wdbc(34, &(1..=18).map(band).collect::<Vec<_>>(), &[]),
        ),
        (
            "DBFilesClient\\LightFloatBand.dbc",
            wdbc(34, &(1..=6).map(band).collect::<Vec<_>>(), &[]),
        ),
    ]
}

fn client(root: &Path) -> PathBuf {
    let mut files = light_tables();
    files.push((
        "DBFilesClient\\Map.dbc",
        map_dbc(66, 5, MAP_ID, MAP, "Sample"),
    ));
    files.push(("DBFilesClient\\AreaTrigger.dbc", old_triggers()));
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    client_with(root, false, &files)
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn trigger_add_rows_read_back_exactly_and_stay_beside_the_light_rows() {
    use wow_dbc::DbcTable;
    use wow_dbc::wrath_tables::area_trigger::AreaTrigger;
    let dir = tempfile::tempdir().unwrap();
    let wow = client(&dir.path().join("wrath"));
    let c = wow.to_str().unwrap();
    let sql = dir.path().join("teleports.sql");

    let list = stdout(&loam_ok(&["trigger", "list", c, MAP]));
    assert_eq!(
        list, "45\t10 -20 30\tsphere 5\n",
        "only the sample's own trigger"
    );

    let sphere = loam_ok(&[
        "trigger",
        "add",
        c,
        MAP,
        "--at",
        "-100.5",
        "200.25",
        "40",
        "--radius",
        "7.5",
        "--teleport-to",
        "1",
        "16.5",
        "-30",
        "2",
        "3.25",
        "--name",
        "The Isle's gate",
        "--sql",
        sql.to_str().unwrap(),
    ]);
    assert_eq!(stdout(&sphere).trim(), "79", "one above the largest id");
    let boxed = loam_ok(&[
        "trigger", "add", c, MAP, "--at", "50", "60", "70", "--box", "20", "10", "6", "90",
    ]);
    assert_eq!(stdout(&boxed).trim(), "80");
    // A light added after the triggers goes into the same archive; the triggers stay.
    loam_ok(&[
        "light", "add", c, MAP, "--at", "0", "0", "0", "--radius", "5", "10",
    ]);

    let list = stdout(&loam_ok(&["trigger", "list", c, MAP]));
    assert_eq!(
        list,
        "45\t10 -20 30\tsphere 5\n79\t-100.5 200.25 40\tsphere 7.5\n80\t50 60 70\tbox 20 10 6 90.00\n"
    );

    let archive = wow.join("Data/enUS/patch-enUS-4.MPQ");
    let table = smpq_extract(
        &archive,
        "DBFilesClient\\AreaTrigger.dbc",
        &dir.path().join("x"),
    );
    let old = old_triggers();
    assert_eq!(
        &table[20..20 + 2 * 40],
        &old[20..20 + 2 * 40],
        "the old rows byte for byte"
    );
    let rows = AreaTrigger::read(&mut table.as_slice()).unwrap().rows;
    let row = |id: i32| rows.iter().find(|r| r.id.id == id).unwrap();
    assert_eq!(
        (row(79).continent_id.id, row(79).pos, row(79).radius),
        (MAP_ID as i32, [-100.5, 200.25, 40.0], 7.5)
    );
    let b = row(80);
    assert_eq!(
        (b.radius, b.box_length, b.box_width, b.box_height),
        (0.0, 20.0, 10.0, 6.0)
    );
    assert_eq!(b.box_yaw, 90f64.to_radians() as f32, "the yaw in radians");
    let light = smpq_extract(&archive, "DBFilesClient\\Light.dbc", &dir.path().join("y"));
    assert_eq!(
        u32::from_le_bytes(light[4..8].try_into().unwrap()),
        2,
        "the light rows too"
    );

    // The SQL names trigger 79 and runs against every core's table.
    let sql_text = std::fs::read_to_string(&sql).unwrap();
    for (core, schema) in CORE_TABLES {
        let got = sqlite(&format!(
            "{schema}\n{sql_text}\n{sql_text}\nSELECT * FROM areatrigger_teleport;\n"
        ));
        let want = match core {
            "cMaNGOS classic" => "79|The Isle's gate|0|0|0|0|1|16.5|-30.0|2.0|3.25",
            "cMaNGOS WotLK" => "79|The Isle's gate|0|0|0|0|0|0|0|1|16.5|-30.0|2.0|3.25",
            _ => "79|The Isle's gate|1|16.5|-30.0|2.0|3.25",
        };
        assert_eq!(got.trim(), want, "{core}: run twice, one row");
    }

    // Removed: gone from the list and the table; an unknown id is an error naming it.
    loam_ok(&["trigger", "remove", c, "79"]);
    let list = stdout(&loam_ok(&["trigger", "list", c, MAP]));
    assert!(!list.contains("79\t"), "{list}");
    let o = loam(&["trigger", "remove", c, "79"]);
    assert!(
        !o.status.success() && text(&o).contains("no trigger 79"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_refused_teleport_name_writes_neither_the_table_nor_the_sql() {
    let dir = tempfile::tempdir().unwrap();
    let wow = client(&dir.path().join("wrath"));
    let sql = dir.path().join("t.sql");
    let o = loam(&[
        "trigger",
        "add",
        wow.to_str().unwrap(),
        MAP,
        "--at",
        "0",
        "0",
        "0",
        "--radius",
        "3",
        "--teleport-to",
        "0",
        "1",
        "2",
        "3",
        "0",
        "--name",
        "C:\\gate",
        "--sql",
        sql.to_str().unwrap(),
    ]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("backslash"), "{}", text(&o));
    assert!(!sql.exists());
    assert!(!wow.join("Data/enUS/patch-enUS-4.MPQ").exists());
    // A teleport without its SQL file is a usage error from the argument parser.
    let o = loam(&[
        "trigger",
        "add",
        wow.to_str().unwrap(),
        MAP,
        "--at",
        "0",
        "0",
        "0",
        "--radius",
        "3",
        "--teleport-to",
        "0",
        "1",
        "2",
        "3",
        "0",
    ]);
    assert!(!o.status.success());
}

/// Runs `script` in a fresh in-memory SQLite database; its output.
fn sqlite(script: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("sqlite3")
        .arg(":memory:")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sqlite3 runs (install it with `bash packaging/setup --tests`)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "sqlite3: {out:?}"
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The cores' `areatrigger_teleport` tables, their columns, types, defaults and keys as the
/// cores define them, written in SQLite's dialect (MySQL's display widths, `COMMENT`s,
/// `FULLTEXT` keys and engine options dropped; `unsigned` kept as part of the type name):
/// - TrinityCore 3.3.5: the TDB 335 world database's table; `ObjectMgr::
///   LoadAreaTriggerTeleports` reads `ID, target_map, target_position_x, target_position_y,
///   target_position_z, target_orientation`;
/// - AzerothCore: `data/sql/base/db_world/areatrigger_teleport.sql`;
/// - cMaNGOS classic: `sql/base/mangos.sql` (mangos-classic);
/// - cMaNGOS WotLK: `sql/base/mangos.sql` (mangos-wotlk), whose loader reads `id,
///   required_level, required_item, required_item2, heroic_key, heroic_key2,
///   required_quest_done, required_quest_done_heroic, target_map, target_position_x …`.
const CORE_TABLES: [(&str, &str); 4] = [
    (
        "TrinityCore 3.3.5",
        "CREATE TABLE areatrigger_teleport (
            ID mediumint unsigned NOT NULL DEFAULT '0',
            Name text,
            target_map smallint unsigned NOT NULL DEFAULT '0',
            target_position_x float NOT NULL DEFAULT '0',
            target_position_y float NOT NULL DEFAULT '0',
            target_position_z float NOT NULL DEFAULT '0',
            target_orientation float NOT NULL DEFAULT '0',
            PRIMARY KEY (ID));",
    ),
    (
        "AzerothCore",
        "CREATE TABLE areatrigger_teleport (
            ID int unsigned NOT NULL DEFAULT '0',
            Name text,
            target_map smallint unsigned NOT NULL DEFAULT '0',
            target_position_x float NOT NULL DEFAULT '0',
            target_position_y float NOT NULL DEFAULT '0',
            target_position_z float NOT NULL DEFAULT '0',
            target_orientation float NOT NULL DEFAULT '0',
            PRIMARY KEY (ID));",
    ),
    (
        "cMaNGOS classic",
        "CREATE TABLE areatrigger_teleport (
            id mediumint unsigned NOT NULL DEFAULT '0',
            name text,
            required_level tinyint unsigned NOT NULL DEFAULT '0',
            required_item mediumint unsigned NOT NULL DEFAULT '0',
            required_item2 mediumint unsigned NOT NULL DEFAULT '0',
            required_quest_done int unsigned NOT NULL DEFAULT '0',
            target_map smallint unsigned NOT NULL DEFAULT '0',
            target_position_x float NOT NULL DEFAULT '0',
            target_position_y float NOT NULL DEFAULT '0',
            target_position_z float NOT NULL DEFAULT '0',
            target_orientation float NOT NULL DEFAULT '0',
            PRIMARY KEY (id));",
    ),
    (
        "cMaNGOS WotLK",
        "CREATE TABLE areatrigger_teleport (
            id mediumint unsigned NOT NULL DEFAULT '0',
            name text,
            required_level tinyint unsigned NOT NULL DEFAULT '0',
            required_item mediumint unsigned NOT NULL DEFAULT '0',
            required_item2 mediumint unsigned NOT NULL DEFAULT '0',
            heroic_key mediumint unsigned NOT NULL DEFAULT '0',
            heroic_key2 mediumint unsigned NOT NULL DEFAULT '0',
            required_quest_done int unsigned NOT NULL DEFAULT '0',
            required_quest_done_heroic int unsigned NOT NULL DEFAULT '0',
            target_map smallint unsigned NOT NULL DEFAULT '0',
            target_position_x float NOT NULL DEFAULT '0',
            target_position_y float NOT NULL DEFAULT '0',
            target_position_z float NOT NULL DEFAULT '0',
            target_orientation float NOT NULL DEFAULT '0',
            PRIMARY KEY (id));",
    ),
];

/// The triggers of the Sample map as the open map holds them in the editor.
fn held(
    h: &egui_kittest::Harness<'_, loam::app::LoamApp>,
) -> Vec<loam::assets::client::AreaTrigger> {
    let map = editor_support::map(h);
    let rows = loam::doc::zone::held_triggers(&map).expect("the tool read AreaTrigger.dbc");
    rows.triggers()
        .into_iter()
        .filter(|t| t.map == MAP_ID)
        .collect()
}

#[test]
fn the_triggers_tool_adds_moves_and_deletes_each_one_step_and_save_writes_the_table() {
    use egui::{Key, Modifiers};
    use egui_kittest::kittest::Queryable;
    use loam::doc::editing::Tool;

    let dir = tempfile::tempdir().unwrap();
    let client = client(&dir.path().join("client"));
    let map = common::sample_in(dir.path().join("Sample"));
    let mut h = editor_support::harness(editor_support::Opening {
        open: Some(map),
        client: Some(client.clone()),
        window_frames: true,
        ..Default::default()
    });
    h.run();
    let view = h.get_by_label(loam::ui::viewport::VIEWPORT_LABEL).rect();
    editor_support::choose_tool(&mut h, Tool::Triggers);
    assert!(editor_support::shows(&h, "1 trigger(s)"));
    let as_read = editor_support::map(&h).client_tables;
    let steps = h.state().editing().history.len();

    // Ctrl+click on the ground adds a sphere there, id one above the table's largest (78).
    let at = view.center() + egui::vec2(-30.0, 40.0);
    let ground = editor_support::ground_under(&mut h, at);
    h.event(egui::Event::ModifiersChanged(Modifiers::CTRL));
    for pressed in [true, false] {
        editor_support::primary(&h, at, pressed, Modifiers::CTRL);
        h.run_steps(2);
    }
    h.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(3);
    let added = *held(&h)
        .iter()
        .find(|t| t.id == 79)
        .expect("trigger 79 added");
    assert!((f64::from(added.at[0]) - ground.world[0]).abs() < 0.5);
    assert!((f64::from(added.at[1]) - ground.world[1]).abs() < 0.5);
    assert_eq!(
        added.shape,
        loam::assets::client::TriggerShape::Sphere { radius: 5.0 }
    );
    assert_eq!(h.state().editing().history.len(), steps + 1);

    // Its west arrow (the gizmo's second) moves it along y only.
    let camera = *h.state().camera();
    let vp = camera.view_projection(view.width() / view.height());
    let g =
        loam::render::gizmo::layout(glam::Vec3::from(added.at), None, vp, camera.eye()).unwrap();
    let screen = |n: [f32; 2]| {
        egui::pos2(
            view.center().x + n[0] * view.width() / 2.0,
            view.center().y - n[1] * view.height() / 2.0,
        )
    };
    let (from, tip) = (screen(g.centre), screen(g.axes[1].0));
    let grab = from + (tip - from) * 0.7;
    editor_support::drag(&mut h, grab, grab + (tip - from) * 0.8, Modifiers::NONE);
    let moved = *held(&h).iter().find(|t| t.id == 79).unwrap();
    assert!(
        moved.at[1] - added.at[1] > 0.5,
        "{:?} → {:?}",
        added.at,
        moved.at
    );
    assert!((moved.at[0] - added.at[0]).abs() < 0.01 && (moved.at[2] - added.at[2]).abs() < 0.01);
    assert_eq!(h.state().editing().history.len(), steps + 2);
    assert_eq!(
        h.state().editing().history.labels().0.last().unwrap(),
        "Move area trigger 79"
    );

    // Delete the client's own sphere 45; then undo it, and save: the table in the client's
    // patch-enUS-4.MPQ holds the old rows byte for byte and the new one as moved.
    h.get_by_label_contains("trigger 45").click();
    h.run();
    h.get_by_label("Delete").click();
    h.run_steps(3);
    assert!(held(&h).iter().all(|t| t.id != 45));
    assert_eq!(h.state().editing().history.len(), steps + 3);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(
        held(&h).iter().any(|t| t.id == 45),
        "undo brings trigger 45 back"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(3);
    let written = smpq_extract(
        &client.join("Data/enUS/patch-enUS-4.MPQ"),
        "DBFilesClient\\AreaTrigger.dbc",
        &dir.path().join("scratch"),
    );
    let old = old_triggers();
    assert_eq!(
        &written[20..20 + 2 * 40],
        &old[20..20 + 2 * 40],
        "the old rows, byte for byte"
    );
    let row: Vec<f32> = (0..10)
        .map(|k| f32::from_le_bytes(written[20 + 80 + 4 * k..][..4].try_into().unwrap()))
        .collect();
    assert_eq!(
        u32::from_le_bytes(written[100..104].try_into().unwrap()),
        79
    );
    assert_eq!(&row[2..6], &[moved.at[0], moved.at[1], moved.at[2], 5.0]);

    // Undo back to the tables as read.
    for _ in 0..2 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
    }
    assert!(editor_support::map(&h).client_tables == as_read);
}
