//! The game data the user browses in the editor, driven through egui_kittest with the real
//! app: the asset browser over a client built from corpus files (tabs, tree, filter,
//! thumbnails decoded off the UI thread, a click that sets the paint texture), a user
//! listfile naming files of an archive without one, and File ▸ Open from client with the map
//! named from a Map.dbc.

mod editor_support;

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use wow_mpq::{ArchiveBuilder, FormatVersion, ListfileOption};

use loam::app::LoamApp;
use loam::app::file_picker::ScriptedDialogs;
use loam::assets::catalog::AssetKind;
use loam::doc::editing::Tool;

fn corpus(rel: &str) -> PathBuf {
    common::corpus().join(rel)
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Writes an archive with wow-mpq's builder, with or without a `(listfile)`.
fn archive(path: &Path, files: &[(&str, Vec<u8>)], listfile: bool) {
    let mut b = ArchiveBuilder::new().version(FormatVersion::V1);
    if !listfile {
        b = b.listfile_option(ListfileOption::None);
    }
    for (game, bytes) in files {
        b = b.add_file_data(bytes.clone(), game);
    }
    b.build(path).unwrap();
}

/// A 3.3.5 client folder (common.MPQ + lichking.MPQ, the later one winning) in `game`.
fn client_335(
    game: &Path,
    common: &[(&str, Vec<u8>)],
    lichking: &[(&str, Vec<u8>)],
    listfile: bool,
) {
    let data = game.join("Data");
    std::fs::create_dir_all(&data).unwrap();
    archive(&data.join("common.MPQ"), common, listfile);
    archive(&data.join("lichking.MPQ"), lichking, listfile);
}

fn harness(dialogs: &ScriptedDialogs, client: Option<PathBuf>) -> Harness<'static, LoamApp> {
    editor_support::scripted(dialogs, None, client)
}

/// A few frames: enough for a click to take effect. Not `Harness::run`, which fails when
/// a worker's answer asks for more frames than it allows.
fn settle(h: &mut Harness<'_, LoamApp>) {
    h.run_steps(6);
}

/// Steps the app until `done` holds (workers answer on their own threads).
fn run_until(h: &mut Harness<'_, LoamApp>, what: &str, done: impl Fn(&LoamApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
        h.step();
    }
    settle(h);
}

fn show_assets(h: &mut Harness<'_, LoamApp>) {
    h.get_by_label("Assets").click();
    settle(h);
    run_until(h, "the catalogue", |a| !a.browser().is_building());
}

#[test]
fn the_browser_lists_client_files_by_kind_with_thumbnails_and_a_click_sets_the_paint_texture() {
    let game = tempfile::tempdir().unwrap();
    let blp = |f: &str| read(&corpus(&format!("wowserhq-format/blp/{f}")));
    client_335(
        game.path(),
        &[
            ("Tileset\\Test\\Dxt1.blp", blp("dxt1a.blp")),
            ("Tileset\\Test\\Palette.blp", blp("pala8.blp")),
            ("Tileset\\Test\\Broken.blp", b"not a blp".to_vec()),
            (
                "Custom\\Doodads\\Rabbit.m2",
                read(&corpus("blizzardry/Rabbit.m2")),
            ),
            (
                "Custom\\Wmo\\TrollTent.wmo",
                read(&corpus("blizzardry/trolltent.wmo")),
            ),
            (
                "Custom\\Wmo\\TrollTent_000.wmo",
                read(&corpus("blizzardry/trolltent_000.wmo")),
            ),
        ],
        // The later archive wins: this Palette.blp is the DXT5 one.
        &[("TILESET\\test\\palette.BLP", blp("dxt5.blp"))],
        true,
    );
    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, Some(game.path().to_path_buf()));
    settle(&mut h);
    show_assets(&mut h);

    let catalog = h.state().browser().catalog();
    // The sample map's own textures count too (names the open map references).
    let sample_textures = h
        .state()
        .session()
        .unwrap()
        .map
        .tiles
        .values()
        .next()
        .unwrap()
        .textures
        .clone();
    for t in &sample_textures {
        assert!(
            catalog
                .entries(AssetKind::Texture)
                .iter()
                .any(|e| e.path.eq_ignore_ascii_case(t)),
            "{t} is not listed"
        );
    }
    assert_eq!(catalog.count(AssetKind::Texture), 3 + sample_textures.len());
    // The sample's own models count too, once each whatever their spelling.
    let distinct = |names: Vec<&String>| {
        names
            .into_iter()
            .map(|n| n.to_ascii_lowercase().replace('/', "\\"))
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    let s = h.state().session().unwrap();
    let doodads = distinct(s.map.tiles.values().flat_map(|t| &t.doodad_names).collect());
    let wmos = distinct(s.map.tiles.values().flat_map(|t| &t.wmo_names).collect());
    assert_eq!(catalog.count(AssetKind::Model), 1 + doodads);
    assert_eq!(
        catalog.count(AssetKind::Wmo),
        1 + wmos,
        "groups are not listed"
    );

    // The tree: open Tileset, then Test.
    let top = format!("Tileset  ({})", 3 + sample_textures.len());
    h.get_by_label(&top).click();
    settle(&mut h);
    h.get_by_label("Test  (3)").click();
    settle(&mut h);
    run_until(&mut h, "the thumbnails", |a| {
        a.browser().thumbnails_settled()
    });
    // Two decode; the broken one is answered as missing (with why, on hover).
    assert_eq!(h.state().browser().thumbnails_ready(), 2);
    let missing = h.state().browser().thumbnail("Tileset\\Test\\Broken.blp");
    assert!(matches!(
        missing,
        Some(loam::app::toolbox::asset_browser::Thumb::Missing(_))
    ));

    h.get_by_label("Dxt1.blp").click();
    settle(&mut h);
    let tools = &h.state().editing().settings;
    assert_eq!(tools.texture, "Tileset\\Test\\Dxt1.blp");
    assert_eq!(tools.tool, Tool::Paint);
    h.get_by_label("Dxt1.blp  (painting)");

    // Models and WMOs are listed; clicking one selects it and says where it is read from.
    h.get_by_label(&format!("Models ({})", 1 + doodads)).click();
    settle(&mut h);
    h.get_by_label("Custom  (1)").click();
    settle(&mut h);
    h.get_by_label("Doodads  (1)").click();
    settle(&mut h);
    h.get_by_label("Rabbit.m2").click();
    settle(&mut h);
    assert_eq!(
        h.state().browser().selected,
        Some((AssetKind::Model, "Custom\\Doodads\\Rabbit.m2".to_string()))
    );
    assert!(
        editor_support::shows(&h, "common.MPQ"),
        "the detail line names the archive"
    );
    h.get_by_label(&format!("WMOs ({})", 1 + wmos)).click();
    settle(&mut h);
    // Folders stay open across tabs (their keys are whole paths): Custom is open already.
    h.get_by_label("Wmo  (1)").click();
    settle(&mut h);
    assert!(h.query_by_label("TrollTent.wmo").is_some());

    // The filter keeps matching paths only, with their folders open.
    h.get_by_label_contains("Textures (").click();
    settle(&mut h);
    h.get_by_label("Filter").click();
    settle(&mut h);
    h.get_by_label("Filter").type_text("test/ pal");
    settle(&mut h);
    assert!(h.query_by_label("Palette.blp").is_some());
    assert!(h.query_by_label("Dxt1.blp  (painting)").is_none());
}

#[test]
fn a_user_listfile_names_the_files_of_an_archive_without_one() {
    let game = tempfile::tempdir().unwrap();
    let blp = read(&corpus("wowserhq-format/blp/dxt1a.blp"));
    client_335(
        game.path(),
        &[("Tileset\\Hidden\\Unlisted.blp", blp)],
        &[("Tileset\\Hidden\\Other.blp", b"x".to_vec())],
        false,
    );
    let list = game.path().join("my-listfile.txt");
    std::fs::write(
        &list,
        "Tileset\\Hidden\\Unlisted.blp\r\nTileset\\Hidden\\NotThere.blp\r\n",
    )
    .unwrap();

    let dialogs = ScriptedDialogs::default();
    let mut h = harness(&dialogs, Some(game.path().to_path_buf()));
    settle(&mut h);
    show_assets(&mut h);
    let listed = |a: &LoamApp| {
        a.browser()
            .catalog()
            .entries(AssetKind::Texture)
            .iter()
            .any(|e| e.path == "Tileset\\Hidden\\Unlisted.blp")
    };
    assert!(
        !listed(h.state()),
        "no listfile: the archive's names are unknown"
    );

    dialogs.answer_map(Some(list.clone()));
    h.get_by_label("Settings").click();
    settle(&mut h);
    h.get_by_label("Add listfile…").click();
    settle(&mut h);
    run_until(&mut h, "the catalogue", |a| !a.browser().is_building());
    assert!(listed(h.state()));
    assert_eq!(h.state().settings().listfile, Some(list));
    // A listfile name is shown whether or not the client serves it: the thumbnail says.
    h.get_by_label_contains("Tileset").click();
    settle(&mut h);
    h.get_by_label("Hidden  (2)").click();
    settle(&mut h);
    run_until(&mut h, "the thumbnails", |a| {
        a.browser().thumbnails_settled()
    });
    assert_eq!(h.state().browser().thumbnails_ready(), 1);
}

/// The editor on the client in `game`, with File ▸ Open from client… clicked.
fn open_from_client(dialogs: &ScriptedDialogs, game: &Path) -> Harness<'static, LoamApp> {
    let mut h = harness(dialogs, Some(game.to_path_buf()));
    settle(&mut h);
    h.get_by_label("File").click();
    settle(&mut h);
    h.get_by_label("Open from client…").click();
    settle(&mut h);
    h
}

#[test]
fn a_map_opens_from_the_client_and_save_asks_for_a_folder() {
    let cache = tempfile::tempdir().unwrap();
    // SAFETY: the only test of this binary that reads the variable sets it before the app
    // starts, and no other thread of this test reads the environment meanwhile.
    unsafe { std::env::set_var("LOAM_CACHE_DIR", cache.path()) };

    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/sample");
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for e in std::fs::read_dir(&sample).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            let name = p
                .file_name()
                .unwrap()
                .to_string_lossy()
                .replace("Sample", "Custom");
            files.push((format!("World\\Maps\\Custom\\{name}"), read(&p)));
        }
    }
    assert_eq!(files.len(), 5, "the sample's WDT and four tiles");
    files.push((
        "DBFilesClient\\Map.dbc".into(),
        common::map_dbc(66, 5, 901, "Custom", "My Custom Map"),
    ));
    let borrowed: Vec<(&str, Vec<u8>)> =
        files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    let game = tempfile::tempdir().unwrap();
    // No listfile: the map is found through Map.dbc, its tiles by name.
    client_335(
        game.path(),
        &borrowed,
        &[("Tileset\\Other.blp", b"x".to_vec())],
        false,
    );

    let dialogs = ScriptedDialogs::default();
    let mut h = open_from_client(&dialogs, game.path());
    let maps = h.state().message().map(str::to_string);
    assert!(
        editor_support::shows(&h, "map(s)"),
        "the dialog is up; {maps:?}"
    );
    h.get_by_label("Custom  My Custom Map (map 901)").click();
    settle(&mut h);
    run_until(&mut h, "the copy", |a| !a.is_copying());

    let s = h.state().session().expect("the map opened");
    assert_eq!(s.map.name, "Custom");
    assert!(s.source.starts_with(cache.path()), "{}", s.source.display());
    assert_eq!(s.known_tiles().len(), 4);
    for (game_path, bytes) in &files[..5] {
        let file = game_path.rsplit('\\').next().unwrap();
        let on_disk = s.source.parent().unwrap().join(file);
        assert_eq!(&read(&on_disk), bytes, "{game_path} copied exactly");
    }

    // Save never writes into the copy: it asks for a folder.
    let before = read(&s.source);
    let tile = *s.map.tiles.keys().next().unwrap();
    h.state_mut().mark_edited(tile);
    h.get_by_label("File").click();
    settle(&mut h);
    h.get_by_label("Save").click();
    settle(&mut h);
    assert!(h.state().save_as_shown(), "Save as… is up");
    assert_eq!(read(&h.state().session().unwrap().source), before);
}

#[test]
fn open_from_client_says_why_a_map_has_no_display_name() {
    let game = tempfile::tempdir().unwrap();
    // A 1.12 Map.dbc copied into a 3.3.5 client: the map is listed by its folder, and the
    // dialog says the table does not fit rather than leaving the name out silently.
    client_335(
        game.path(),
        &[
            ("World\\Maps\\Custom\\Custom.wdt", b"MVER".to_vec()),
            (
                "DBFilesClient\\Map.dbc",
                common::map_dbc(42, 4, 901, "Custom", "Old Map"),
            ),
        ],
        &[("Tileset\\Other.blp", b"x".to_vec())],
        true,
    );
    let dialogs = ScriptedDialogs::default();
    let h = open_from_client(&dialogs, game.path());
    assert!(h.query_by_label("Custom").is_some(), "listed by folder");
    assert!(
        h.query_by_label(
            "no display names: DBFilesClient\\Map.dbc does not fit the 3.3.5 layout (written by \
             another tool, or from another client?)"
        )
        .is_some(),
        "the reason is shown"
    );
}
