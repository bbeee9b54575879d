//! Zones by name on the command line: with a client whose AreaTable.dbc (built here in the
//! published layout, `common::area_table`) names the sample's areas, `loam info --client`
//! and `loam convert --pack --client` show each area id's zone and subzone; without a table
//! they stay numbers and the user is told why.

mod common;

use common::{area_table, client_with, loam, text};

const AREAS: &[(u32, u32, u32, &str)] = &[
    (1, 0, 0, "Elwynn Forest"),
    (2, 0, 1, "Goldshire"),
    (14, 1, 0, "Durotar"),
];

fn sample_tile() -> String {
    format!(
        "{}/resources/sample/Sample_31_31.adt",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn info_with_a_335_or_a_112_client_names_the_tiles_zones_and_subzones() {
    let dir = tempfile::tempdir().unwrap();
    for (v112, fields) in [(false, 36), (true, 25)] {
        let game = client_with(
            &dir.path().join(format!("game-{fields}")),
            v112,
            &[("DBFilesClient\\AreaTable.dbc", &area_table(fields, AREAS))],
        );
        let o = common::loam_ok(&["info", &sample_tile(), "--client", game.to_str().unwrap()]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("\n         1  Elwynn Forest\n"), "{out}");
        assert!(
            out.contains("\n         2  Elwynn Forest › Goldshire\n"),
            "{out}"
        );
        assert!(!out.contains("Durotar"), "only the tile's areas: {out}");
        let o = loam(&[
            "info",
            &sample_tile(),
            "--json",
            "--client",
            game.to_str().unwrap(),
        ]);
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            json["tiles"][0]["area_names"]["2"],
            "Elwynn Forest › Goldshire"
        );
    }
}

#[test]
fn without_a_readable_table_the_ids_stay_numbers_and_the_note_says_why() {
    let dir = tempfile::tempdir().unwrap();
    // A table of another shape (20 fields) is not guessed at.
    let game = client_with(
        dir.path(),
        false,
        &[("DBFilesClient\\AreaTable.dbc", &area_table(20, AREAS))],
    );
    let o = common::loam_ok(&["info", &sample_tile(), "--client", game.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("  area ids: 1 2\n"));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("no DBFilesClient\\AreaTable.dbc loam can read"),
        "{}",
        text(&o)
    );
}

/// `loam convert --to 3.3.5 --pack --client GAME [extra…] WDT OUT`, which must succeed; its
/// standard output.
fn pack(game: &std::path::Path, wdt: &str, extra: &[&str], out: &std::path::Path) -> String {
    let o = common::pack_into(game, "3.3.5", extra, std::path::Path::new(wdt), out);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_pack_into_a_client_names_the_areas_the_map_will_show() {
    let dir = tempfile::tempdir().unwrap();
    let map_dbc = common::map_dbc(66, 5, 571, "Northrend", "Northrend");
    let game = client_with(
        &dir.path().join("game"),
        false,
        &[
            ("DBFilesClient\\AreaTable.dbc", &area_table(36, &AREAS[..1])),
            ("DBFilesClient\\Map.dbc", &map_dbc),
        ],
    );
    let wdt = format!("{}/resources/sample/Sample.wdt", env!("CARGO_MANIFEST_DIR"));
    let out = dir.path().join("out");
    let said = pack(&game, &wdt, &[], &out);
    assert!(
        said.contains("areas in the converted map, named from the client's"),
        "{said}"
    );
    assert!(said.contains("         1  Elwynn Forest\n"), "{said}");
    assert!(
        said.contains("         2  (not in the client's table)\n"),
        "{said}"
    );

    // With --area-map, its pairs show with the names of the new ids.
    let csv = dir.path().join("areas.csv");
    std::fs::write(&csv, "old,new\n2,1\n1,77\n").unwrap();
    let area_map = ["--area-map", csv.to_str().unwrap()];
    let said = pack(&game, &wdt, &area_map, &dir.path().join("mapped"));
    assert!(
        said.contains("--area-map, the new ids as the client names them:"),
        "{said}"
    );
    assert!(
        said.contains("         1 → 77       (not in the client's table)\n"),
        "{said}"
    );
    assert!(
        said.contains("         2 → 1        Elwynn Forest\n"),
        "{said}"
    );
}
