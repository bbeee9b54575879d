//! The sky and fog drawn from the client's light tables: a client built here with Light,
//! LightParams, LightIntBand and LightFloatBand in WoWDBDefs' published 3.3.5 and 1.12 layouts
//! (a global light and a local one over the bundled sample), screenshots looking straight up
//! and down at set times, and the centre of the view compared with the colours the tables
//! give, blended here by the rule `doc::light` documents (not by calling loam).

mod common;
mod editor_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{client_with, map_dbc, smpq_extract, wdbc};

/// The sample's folder name, and the Map.dbc id the client built here gives it.
const MAP: &str = "Sample";
const MAP_ID: u32 = 5;

/// The global light's sky-top colour at midnight, 06:00, noon and 18:00 (0xRRGGBB).
const GLOBAL_TOP: [u32; 4] = [0x101840, 0xE08040, 0x3070E0, 0xC05020];
/// The local light's sky-top colour, all day.
const LOCAL_TOP: u32 = 0x20C060;
/// The fog colour of both lights, all day.
const FOG: u32 = 0xB02090;

/// The local light: centre (world yards: x north, y west, z up), inner and outer radius
/// (yards). Off both axes, so that a reading with x and y swapped lands elsewhere.
const LOCAL_AT: [f64; 3] = [300.0, -200.0, 1000.0];
/// The world's corner offset: 32 tiles of 1600/3 yards.
const MAP_ORIGIN: f64 = 32.0 * 1600.0 / 3.0;
const LOCAL_RADII: [f64; 2] = [50.0, 150.0];

fn rgb(c: u32) -> [f64; 3] {
    [(c >> 16) & 255, (c >> 8) & 255, c & 255].map(|v| v as f64)
}

/// A LightIntBand / LightFloatBand row: ID, Num, Time[16], Data[16].
fn band(id: u32, keys: &[(u32, u32)]) -> Vec<Result<u32, usize>> {
    let mut row = vec![0u32; 34];
    row[0] = id;
    row[1] = keys.len() as u32;
    for (k, (t, v)) in keys.iter().enumerate() {
        row[2 + k] = *t;
        row[18 + k] = *v;
    }
    row.into_iter().map(Ok).collect()
}

/// The four light tables with `sets` LightParams ids a Light row (5: 1.12, 8: 3.3.5):
/// Light is ID, ContinentID, GameCoords[3], GameFalloffStart, GameFalloffEnd, LightParamsID[sets]
/// (WoWDBDefs' `definitions/Light.dbd`).
/// LightParams 1 is the global light's, 2 the local one's; set `p`'s colour bands are
/// LightIntBand rows (p − 1)·18 + 1 … and its floats LightFloatBand rows (p − 1)·6 + 1 …;
/// band 1 (the second) is the ambient light, 2 the sky top, 7 the fog; float band 0 the fog end (inches),
/// 1 the fog start as a fraction of it.
///
/// GameCoords are stored in the placement records' axes, times 36 (issue 51, checked against
/// Blizzard's 3.3.5 table, where Stormwind's lights sit at about (16518, 81, 25547) × 36):
/// stored x / 36 = 17066.67 − game y, stored y / 36 = height, stored z / 36 = 17066.67 − game x.
/// The global light is stored at (0, 0, 0).
fn light_tables(sets: usize) -> Vec<(&'static str, Vec<u8>)> {
    let inches = |v: f64| ((v * 36.0) as f32).to_bits();
    let stored = |game: [f64; 3]| {
        if game == [0.0; 3] {
            return [0.0; 3];
        }
        [MAP_ORIGIN - game[1], game[2], MAP_ORIGIN - game[0]]
    };
    let light_row = |id: u32, at: [f64; 3], radii: [f64; 2], params: u32| {
        let at = stored(at);
        let mut row = vec![id, MAP_ID, inches(at[0]), inches(at[1]), inches(at[2])];
        row.extend([inches(radii[0]), inches(radii[1])]);
        row.extend((0..sets).map(|k| if k == 0 { params } else { 0 }));
        row.into_iter().map(Ok).collect::<Vec<_>>()
    };
    let light = wdbc(
        7 + sets,
        &[
            light_row(1, [0.0; 3], [0.0; 2], 1),
            light_row(2, LOCAL_AT, LOCAL_RADII, 2),
        ],
        &[],
    );
    let params_row = |id| {
        let mut row = vec![Ok(0u32); 9];
        row[0] = Ok(id);
        row
    };
    let params = wdbc(9, &[params_row(1), params_row(2)], &[]);
    let global_top: Vec<(u32, u32)> = [0, 720, 1440, 2160].into_iter().zip(GLOBAL_TOP).collect();
    let int = wdbc(
        34,
        &[
            band(2, &[(0, 0x808080)]),
            band(3, &global_top),
            band(8, &[(0, FOG)]),
            band(18 + 2, &[(0, 0x808080)]),
            band(18 + 3, &[(0, LOCAL_TOP)]),
            band(18 + 8, &[(0, FOG)]),
        ],
        &[],
    );
    // The fog is whole 100 yards out at noon and 10,000 yards out at midnight.
    let fog_end = [(0, 360_000f32.to_bits()), (1440, 3_600f32.to_bits())];
    let fog_start = [(0, 0.1f32.to_bits())];
    let float = wdbc(
        34,
        &[
            band(1, &fog_end),
            band(2, &fog_start),
            band(7, &fog_end),
            band(8, &fog_start),
        ],
        &[],
    );
    vec![
        ("DBFilesClient\\Light.dbc", light),
        ("DBFilesClient\\LightParams.dbc", params),
        ("DBFilesClient\\LightIntBand.dbc", int),
        ("DBFilesClient\\LightFloatBand.dbc", float),
    ]
}

/// A client at `root` of the 3.3.5 (or, with `v112`, the 1.12) generation holding the light
/// tables and a Map.dbc naming the sample's folder.
fn client(root: &Path, v112: bool) -> PathBuf {
    let map = if v112 {
        map_dbc(42, 4, MAP_ID, MAP, "Sample")
    } else {
        map_dbc(66, 5, MAP_ID, MAP, "Sample")
    };
    let mut files = light_tables(if v112 { 5 } else { 8 });
    files.push(("DBFilesClient\\Map.dbc", map));
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    client_with(root, v112, &files)
}

/// Screenshots the sample with `client` from `eye` toward `target` at `time`; returns the
/// colour at the centre of the 3D view.
fn centre(client: &Path, eye: [f64; 3], target: [f64; 3], time: &str, png: &Path) -> [f64; 3] {
    let sample = format!("{}/resources/sample/Sample.wdt", env!("CARGO_MANIFEST_DIR"));
    let client = ["--client".as_ref(), client.as_os_str()];
    centre_of(Path::new(&sample), &client, eye, target, time, png)
}

/// Screenshots the map at `wdt` (with `extra` arguments) from `eye` toward `target` at
/// `time`; returns the colour at the centre of the 3D view.
fn centre_of(
    wdt: &Path,
    extra: &[&std::ffi::OsStr],
    eye: [f64; 3],
    target: [f64; 3],
    time: &str,
    png: &Path,
) -> [f64; 3] {
    let mut view: Vec<String> = eye.iter().chain(&target).map(|v| v.to_string()).collect();
    view.insert(0, "--view".into());
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_loam"))
        .arg("screenshot")
        .arg(wdt)
        .args([png.to_str().unwrap(), "--size", "1280x800"])
        .args(extra)
        .args(["--time", time, "--no-objects"])
        .args(&view)
        .output()
        .expect("xvfb-run is missing: install them with `bash packaging/setup --tests`");
    assert!(
        out.status.success(),
        "loam screenshot failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    let w = info.width as usize;
    // The 3D view lies between the side panels (about x 280 – 1010) and between the menu and
    // status bars (about y 25 – 775): its centre is near (645, 400).
    let i = (400 * w + 645) * 4;
    [buf[i], buf[i + 1], buf[i + 2]].map(f64::from)
}

fn assert_near(got: [f64; 3], want: [f64; 3], what: &str) {
    assert!(
        (0..3).all(|k| (got[k] - want[k]).abs() <= 3.0),
        "{what}: got {got:?}, the tables give {want:?}"
    );
}

/// `a` weighted `wa` plus `b` weighted `1 − wa`.
fn mix(a: [f64; 3], b: [f64; 3], wa: f64) -> [f64; 3] {
    std::array::from_fn(|k| a[k] * wa + b[k] * (1.0 - wa))
}

fn up(at: [f64; 3]) -> [[f64; 3]; 2] {
    [at, [at[0], at[1], at[2] + 100.0]]
}

#[test]
fn the_sky_straight_up_is_the_tables_sky_top_blended_over_the_lights_and_the_day() {
    let dir = tempfile::tempdir().unwrap();
    let wrath = client(&dir.path().join("wrath"), false);
    let shot = |name: &str| dir.path().join(format!("{name}.png"));

    // Under the global light only (far outside the local one): the band at its keys.
    let far = [2000.0, -200.0, 1000.0];
    let [eye, target] = up(far);
    for (time, key) in [("00:00", 0), ("06:00", 1), ("12:00", 2)] {
        let got = centre(&wrath, eye, target, time, &shot(&format!("global-{key}")));
        assert_near(
            got,
            rgb(GLOBAL_TOP[key]),
            &format!("global light at {time}"),
        );
    }
    // Between keys: 09:00 is halfway from 06:00 to noon.
    let got = centre(&wrath, eye, target, "09:00", &shot("global-0900"));
    assert_near(
        got,
        mix(rgb(GLOBAL_TOP[1]), rgb(GLOBAL_TOP[2]), 0.5),
        "global light at 09:00",
    );

    // Where the light would stand with north and west swapped, 707 yards from where it is:
    // the global light only.
    let [eye, target] = up([LOCAL_AT[1], LOCAL_AT[0], LOCAL_AT[2]]);
    let got = centre(&wrath, eye, target, "12:00", &shot("swapped"));
    assert_near(
        got,
        rgb(GLOBAL_TOP[2]),
        "where a swapped reading would put the light",
    );

    // Inside the local light's inner radius: its colour alone.
    let [eye, target] = up([LOCAL_AT[0] + 20.0, LOCAL_AT[1], LOCAL_AT[2]]);
    let got = centre(&wrath, eye, target, "12:00", &shot("inside"));
    assert_near(got, rgb(LOCAL_TOP), "inside the local light");

    // In its falloff ring, 100 yards out: r = (100 − 50) / (150 − 50) = 0.5, so the local
    // light weighs 1 − r and the global one r.
    let [eye, target] = up([LOCAL_AT[0] + 100.0, LOCAL_AT[1], LOCAL_AT[2]]);
    let want = mix(rgb(LOCAL_TOP), rgb(GLOBAL_TOP[2]), 0.5);
    let got = centre(&wrath, eye, target, "12:00", &shot("ring"));
    assert_near(got, want, "in the local light's falloff ring at noon");
    let want = mix(rgb(LOCAL_TOP), rgb(GLOBAL_TOP[1]), 0.5);
    let got = centre(&wrath, eye, target, "06:00", &shot("ring-dawn"));
    assert_near(got, want, "in the local light's falloff ring at dawn");

    // The same tables in the 1.12 layout (LightParamsID[5]) give the same sky.
    let vanilla = client(&dir.path().join("vanilla"), true);
    let got = centre(&vanilla, eye, target, "12:00", &shot("ring-112"));
    assert_near(
        got,
        mix(rgb(LOCAL_TOP), rgb(GLOBAL_TOP[2]), 0.5),
        "1.12 tables, falloff ring at noon",
    );
}

#[test]
fn the_fog_colour_reaches_the_far_terrain_as_far_as_the_tables_say() {
    let dir = tempfile::tempdir().unwrap();
    let wrath = client(&dir.path().join("wrath"), false);
    // Looking down on the sample from 600 yards up: the ground is 600 yards away or more.
    let eye = [0.0, 0.0, 600.0];
    let target = [0.0, 0.0, 0.0];
    // At noon the fog is whole 100 yards out: the ground is the fog colour.
    let noon = centre(
        &wrath,
        eye,
        target,
        "12:00",
        &dir.path().join("fog-noon.png"),
    );
    assert_near(noon, rgb(FOG), "the ground under noon's fog");
    // At midnight it is whole 10,000 yards out: the ground shows through.
    let night = centre(
        &wrath,
        eye,
        target,
        "00:00",
        &dir.path().join("fog-night.png"),
    );
    let fog = rgb(FOG);
    assert!(
        (0..3).any(|k| (night[k] - fog[k]).abs() > 30.0),
        "midnight's thin fog hides the ground: {night:?}"
    );
    // View ▸ Fog off (`--no-fog`): at noon the ground shows through, not the fog colour.
    let sample = format!("{}/resources/sample/Sample.wdt", env!("CARGO_MANIFEST_DIR"));
    let clear = centre_of(
        Path::new(&sample),
        &["--client".as_ref(), wrath.as_os_str(), "--no-fog".as_ref()],
        eye,
        target,
        "12:00",
        &dir.path().join("no-fog.png"),
    );
    assert!(
        (0..3).any(|k| (clear[k] - fog[k]).abs() > 30.0),
        "with the fog off the ground shows: {clear:?}"
    );
}

/// True when `p` is a colour of the default noon sky: on the dome's run from the sky-top band
/// down through the middle bands to the horizon and the fog colour, within 6 per channel.
fn is_default_sky(p: [f64; 3]) -> bool {
    use loam::doc::light::{DayTime, ZoneLights};
    let light = ZoneLights::default_day().at([0.0; 3], DayTime::NOON, false);
    let mut bands: Vec<[f32; 3]> = light.sky.to_vec();
    bands.push(light.fog);
    bands.windows(2).any(|w| {
        (0..=64).any(|k| {
            let t = k as f32 / 64.0;
            (0..3).all(|c| {
                let band = (w[0][c] * (1.0 - t) + w[1][c] * t) * 255.0;
                (f64::from(band) - p[c]).abs() <= 6.0
            })
        })
    })
}

#[test]
fn beyond_the_loaded_tiles_the_wdl_draws_the_horizon() {
    use loam::format::wdl::{WdlTile, write};
    use loam::model::TileCoord;
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/sample");
    let map = dir.path().join("Sample");
    std::fs::create_dir_all(&map).unwrap();
    let files = ["Sample.wdt", "Sample_31_31.adt", "Sample_31_32.adt"];
    for name in files
        .into_iter()
        .chain(["Sample_32_31.adt", "Sample_32_32.adt"])
    {
        std::fs::copy(sample.join(name), map.join(name)).unwrap();
    }
    let wdt = map.join("Sample.wdt");
    // From above the sample's east edge, looking east and a little down, past the loaded
    // tiles: without a WDL the view's centre is the sky below the horizon.
    let eye = [0.0, -420.0, 300.0];
    let target = [0.0, -3000.0, 0.0];
    let bare = centre_of(
        &wdt,
        &[],
        eye,
        target,
        "12:00",
        &dir.path().join("bare.png"),
    );
    assert!(is_default_sky(bare), "without a WDL the sky: {bare:?}");

    // A WDL with hills 100 to 220 yards high on the six columns of tiles east of the sample
    // (the sample's own tiles are left out of it): the same ray meets them about 1,700
    // yards out, well inside the drawing of the horizon and before the fog is whole.
    let heights: [f32; 545] = std::array::from_fn(|i| {
        let (r, c) = if i < 289 {
            (i / 17, i % 17)
        } else {
            ((i - 289) / 16, (i - 289) % 16)
        };
        let hill = (r as f32 / 16.0 * std::f32::consts::PI).sin()
            * (c as f32 / 16.0 * std::f32::consts::PI).sin();
        100.0 + 120.0 * hill
    });
    let hills = WdlTile::new(&heights, [0; 16], false);
    let tiles = (33..39)
        .flat_map(|x| (26..38).map(move |y| TileCoord::new(x, y).unwrap()))
        .map(|c| (c, hills.clone()))
        .collect();
    std::fs::write(map.join("Sample.wdl"), write(&tiles)).unwrap();
    let png = Path::new(env!("CARGO_TARGET_TMPDIR")).join("horizon.png");
    let hills = centre_of(&wdt, &[], eye, target, "12:00", &png);
    assert!(
        !is_default_sky(hills),
        "beyond the loaded tiles the WDL's hills, not sky: {hills:?} ({})",
        png.display()
    );
    // View ▸ Horizon off (`--no-horizon`): the sky again.
    let off = centre_of(
        &wdt,
        &["--no-horizon".as_ref()],
        eye,
        target,
        "12:00",
        &dir.path().join("no-horizon.png"),
    );
    assert!(is_default_sky(off), "with the horizon off the sky: {off:?}");
}

/// `loam light list CLIENT MAP` (issue 51): the map's lights in game coordinates, each read
/// back from the rows this file writes by the rule.
#[test]
fn light_list_prints_each_light_of_the_map_where_the_tables_put_it() {
    let dir = tempfile::tempdir().unwrap();
    let wrath = client(&dir.path().join("wrath"), false);
    let o = Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(["light", "list"])
        .arg(&wrath)
        .arg(MAP)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "1\tglobal\t0.00 0.00\t1");
    let [x, y, z] = LOCAL_AT;
    let [inner, outer] = LOCAL_RADII;
    assert_eq!(
        lines[1],
        format!("2\t{x:.2} {y:.2} {z:.2}\t{inner:.2} {outer:.2}\t2")
    );
    // A map the table does not name is an error naming it.
    let o = Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(["light", "list"])
        .arg(&wrath)
        .arg("Nowhere")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("Nowhere"));
}

/// The records of a WDBC table (its bytes after the header, before the string block).
fn records(table: &[u8]) -> &[u8] {
    let word = |i: usize| u32::from_le_bytes(table[4 * i..4 * i + 4].try_into().unwrap()) as usize;
    &table[20..20 + word(1) * word(3)]
}

/// `loam light add` then `light list` (issue 51): the new light reads back where it was put;
/// the four tables, extracted with StormLib and read with `wow_dbc`'s typed 3.3.5 tables,
/// hold the new rows at the ids the rule gives and every old row byte for byte; the
/// sky at the new light's centre at noon is the sky-top colour given, and its falloff ring
/// the blend with the global light. Then `light edit` moves it and `light remove` takes it
/// away with its set.
#[test]
fn light_add_writes_rows_every_reader_sees_and_the_sky_shows_them() {
    use wow_dbc::DbcTable;
    use wow_dbc::wrath_tables::{light::Light, light_int_band::LightIntBand};
    let dir = tempfile::tempdir().unwrap();
    let wrath = client(&dir.path().join("wrath"), false);
    let before: std::collections::BTreeMap<_, _> = light_tables(8).into_iter().collect();
    // Off both axes, away from the first local light (300, −200).
    let at = [-150.0, 250.0, 1000.0];
    const NEW_TOP: u32 = 0xC02080;
    let o = common::loam_ok(&[
        "light",
        "add",
        wrath.to_str().unwrap(),
        MAP,
        "--at",
        "-150",
        "250",
        "1000",
        "--radius",
        "40",
        "120",
        "--band",
        "sky-top=12:00=C02080",
    ]);
    let id: u32 = String::from_utf8_lossy(&o.stdout).trim().parse().unwrap();
    assert_eq!(id, 3, "one above the table's largest id");

    let list = common::loam_ok(&["light", "list", wrath.to_str().unwrap(), MAP]);
    let list = String::from_utf8_lossy(&list.stdout).into_owned();
    // Set 3: one above LightParams' largest (2), whose band rows (37…54, 13…18) are free.
    assert!(
        list.lines()
            .any(|l| l == "3\t-150.00 250.00 1000.00\t40.00 120.00\t3"),
        "{list}"
    );

    let archive = wrath.join("Data/enUS/patch-enUS-4.MPQ");
    let x = |name: &str| smpq_extract(&archive, name, &dir.path().join("x"));
    let light = x("DBFilesClient\\Light.dbc");
    let old = &before["DBFilesClient\\Light.dbc"];
    assert_eq!(
        &records(&light)[..records(old).len()],
        records(old),
        "old Light rows"
    );
    let rows = Light::read(&mut light.as_slice()).unwrap().rows;
    let new = rows.iter().find(|r| r.id.id == 3).expect("row 3");
    assert_eq!(new.continent_id.id, MAP_ID as i32);
    // The rule: stored x = 17066.67 − game y, y = height, z = 17066.67 − game x, × 36.
    let want = [MAP_ORIGIN - at[1], at[2], MAP_ORIGIN - at[0]].map(|v| (v * 36.0) as f32);
    assert_eq!(new.game_coords, want);
    assert_eq!(
        (new.game_falloff_start, new.game_falloff_end),
        (1440.0, 4320.0)
    );
    assert_eq!(new.light_params_id, [3, 0, 0, 0, 0, 0, 0, 0]);
    for table in ["LightParams", "LightIntBand", "LightFloatBand"] {
        let name = format!("DBFilesClient\\{table}.dbc");
        let got = x(&name);
        let old = &before[name.as_str()];
        assert_eq!(
            &records(&got)[..records(old).len()],
            records(old),
            "old {table} rows"
        );
    }
    let bands = LightIntBand::read(&mut x("DBFilesClient\\LightIntBand.dbc").as_slice())
        .unwrap()
        .rows;
    // Set 3's sky top is row (3 − 1)·18 + 3 = 39; its fog (row 44) the global light's copy.
    let top = bands.iter().find(|r| r.id.id == 39).expect("row 39");
    assert_eq!(
        (top.num, top.time[0], top.data[0]),
        (1, 1440, NEW_TOP as i32)
    );
    let fog = bands.iter().find(|r| r.id.id == 44).expect("row 44");
    assert_eq!((fog.num, fog.data[0]), (1, FOG as i32));

    // The sky: the new light's colour at its centre, the blend in its falloff ring.
    let shot = |name: &str| dir.path().join(format!("{name}.png"));
    let [eye, target] = up(at);
    let got = centre(&wrath, eye, target, "12:00", &shot("new-centre"));
    assert_near(got, rgb(NEW_TOP), "at the new light's centre");
    let [eye, target] = up([at[0], at[1] + 80.0, at[2]]);
    let got = centre(&wrath, eye, target, "12:00", &shot("new-ring"));
    let want = mix(rgb(NEW_TOP), rgb(GLOBAL_TOP[2]), 0.5);
    assert_near(got, want, "in the new light's falloff ring");

    // Moved 500 yards north and recoloured: listed there; the old place the global light's.
    common::loam_ok(&[
        "light",
        "edit",
        wrath.to_str().unwrap(),
        "3",
        "--at",
        "350",
        "250",
        "1000",
        "--band",
        "sky-top=00:00=FF0000",
    ]);
    let list = common::loam_ok(&["light", "list", wrath.to_str().unwrap(), MAP]);
    assert!(
        String::from_utf8_lossy(&list.stdout)
            .lines()
            .any(|l| l == "3\t350.00 250.00 1000.00\t40.00 120.00\t3"),
        "{}",
        common::text(&list)
    );
    let [eye, target] = up(at);
    let got = centre(&wrath, eye, target, "12:00", &shot("moved-away"));
    assert_near(
        got,
        rgb(GLOBAL_TOP[2]),
        "where the light stood before it moved",
    );

    // Removed: the list and the tables lose it and its set; the old rows are as they were.
    common::loam_ok(&["light", "remove", wrath.to_str().unwrap(), "3"]);
    let list = common::loam_ok(&["light", "list", wrath.to_str().unwrap(), MAP]);
    assert!(
        !String::from_utf8_lossy(&list.stdout)
            .lines()
            .any(|l| l.starts_with("3\t"))
    );
    for (name, old) in &before {
        assert_eq!(records(&x(name)), records(old), "{name} after the removal");
    }
    // A light that is not there is an error naming it.
    let o = common::loam(&["light", "remove", wrath.to_str().unwrap(), "3"]);
    assert!(
        !o.status.success() && common::text(&o).contains("no light 3"),
        "{}",
        common::text(&o)
    );
}

/// `light add` into a 1.12 client: the rows go into `Data/patch-4.MPQ` in the 1.12 layout
/// (five parameter sets a light), and a band name that does not exist is refused with the
/// names that do, writing nothing.
#[test]
fn light_add_writes_a_vanilla_client_its_own_layout_and_refuses_unknown_bands() {
    use wow_dbc::DbcTable;
    use wow_dbc::vanilla_tables::light::Light;
    let dir = tempfile::tempdir().unwrap();
    let vanilla = client(&dir.path().join("vanilla"), true);
    let bad = common::loam(&[
        "light",
        "add",
        vanilla.to_str().unwrap(),
        MAP,
        "--at",
        "0",
        "0",
        "0",
        "--radius",
        "10",
        "20",
        "--band",
        "sky=12:00=FFFFFF",
    ]);
    assert!(!bad.status.success());
    assert!(
        common::text(&bad).contains("sky-top"),
        "{}",
        common::text(&bad)
    );
    assert!(
        !vanilla.join("Data/patch-4.MPQ").exists(),
        "nothing written"
    );
    let o = common::loam_ok(&[
        "light",
        "add",
        vanilla.to_str().unwrap(),
        MAP,
        "--at",
        "10",
        "20",
        "30",
        "--radius",
        "10",
        "20",
        "--like",
        "2",
        "--fog-end",
        "500",
    ]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "3");
    let light = smpq_extract(
        &vanilla.join("Data/patch-4.MPQ"),
        "DBFilesClient\\Light.dbc",
        &dir.path().join("x"),
    );
    let rows = Light::read(&mut light.as_slice()).unwrap().rows;
    let new = rows.iter().find(|r| r.id.id == 3).expect("row 3");
    assert_eq!(new.light_params[0], 3, "a copy of light 2's set");
    assert_eq!(new.light_params.len(), 5);
}

/// The light tables as the open map holds them in the editor.
fn held_rows(
    h: &egui_kittest::Harness<'_, loam::app::LoamApp>,
) -> loam::assets::client::LightTableRows {
    let map = editor_support::map(h);
    loam::assets::client::LightTableRows::from_held(
        &map.client_tables,
        &loam::assets::client::ClientGeneration::V335,
    )
    .unwrap()
}

#[test]
fn the_light_tool_adds_moves_and_keys_a_light_each_one_undo_step() {
    use egui::{Key, Modifiers};
    use egui_kittest::kittest::Queryable;
    use loam::doc::editing::Tool;

    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_support::harness(editor_support::Opening {
        client: Some(client(dir.path(), false)),
        window_frames: true,
        ..Default::default()
    });
    h.run();
    let view = h.get_by_label(loam::ui::viewport::VIEWPORT_LABEL).rect();
    editor_support::choose_tool(&mut h, Tool::Lights);
    // The panel lists the map's one placed light (the global one has no place).
    assert!(editor_support::shows(&h, "1 light(s)"));
    assert!(editor_support::shows(&h, "light 2"));
    let as_read = editor_support::map(&h).client_tables;
    let steps = h.state().editing().history.len();
    assert!(
        !h.state().has_unsaved(),
        "reading the tables to show them is no edit"
    );

    // Add: a new light, copying the global light's sets, one step.
    h.get_by_label("Add light").click();
    h.run_steps(3);
    let rows = held_rows(&h);
    assert_eq!(rows.placed(MAP_ID), vec![2, 3]);
    let (_, place, sets) = rows.light(3).unwrap();
    assert_ne!(
        sets[0], 1,
        "the new light has its own copy of the global light's set"
    );
    assert_eq!(
        rows.colour_band(sets[0], 2),
        rows.colour_band(1, 2),
        "the copy carries the global light's sky-top keys"
    );
    assert_eq!(h.state().editing().history.len(), steps + 1);
    let (labels, _) = h.state().editing().history.labels();
    assert_eq!(labels.last().unwrap(), "Add light");
    assert!(h.state().has_unsaved(), "a light added is a change to save");

    // Move: drag the gizmo's north arrow; the light moves along x only, one step.
    let (centre, _, _) = loam::doc::zone::light_in_world(&place);
    let camera = *h.state().camera();
    let vp = camera.view_projection(view.width() / view.height());
    let c = glam::Vec3::new(centre[0] as f32, centre[1] as f32, centre[2] as f32);
    let g = loam::render::gizmo::layout(c, None, vp, camera.eye()).unwrap();
    let screen = |n: [f32; 2]| {
        egui::pos2(
            view.center().x + n[0] * view.width() / 2.0,
            view.center().y - n[1] * view.height() / 2.0,
        )
    };
    let (from, tip) = (screen(g.centre), screen(g.axes[0].0));
    let grab = from + (tip - from) * 0.7;
    editor_support::drag(&mut h, grab, grab + (tip - from) * 0.8, Modifiers::NONE);
    let (_, moved, _) = held_rows(&h).light(3).unwrap();
    let (now, _, _) = loam::doc::zone::light_in_world(&moved);
    assert!(now[0] - centre[0] > 1.0, "{centre:?} → {now:?}");
    assert!((now[1] - centre[1]).abs() < 0.01 && (now[2] - centre[2]).abs() < 0.01);
    assert_eq!(h.state().editing().history.len(), steps + 2);
    assert_eq!(
        h.state().editing().history.labels().0.last().unwrap(),
        "Move light 3"
    );

    // A band key: the first band shown is "direct"; Add key puts one at the view's time.
    let keys_before = held_rows(&h).colour_band(sets[0], 0).len();
    h.get_by_label_contains("Add key at").click();
    h.run_steps(3);
    assert_eq!(held_rows(&h).colour_band(sets[0], 0).len(), keys_before + 1);
    assert_eq!(h.state().editing().history.len(), steps + 3);

    // Undo all three: the tables as read, bit for bit.
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
    }
    assert!(editor_support::map(&h).client_tables == as_read);
    assert!(
        !h.state().has_unsaved(),
        "undone back to the tables as read"
    );
    for (name, rows) in editor_support::map(&h).client_tables.iter() {
        assert_eq!(
            rows.to_bytes(),
            as_read.get(name).unwrap().to_bytes(),
            "{name}"
        );
    }
}

/// A sky box model: a cube 2,000 yards across seen from inside (two-sided, unlit, unfogged,
/// its texture absent so that it draws plain), written by loam's sample M2 writer; the M2 and
/// its skin.
fn cube_skybox() -> (Vec<u8>, Vec<u8>) {
    use loam::sample::mesh::{Mesh, Part};
    let h = 1000.0f32;
    let corners: Vec<[f32; 3]> = (0..8)
        .map(|k| {
            let s = |bit: u32| if k & bit == 0 { -h } else { h };
            [s(1), s(2), s(4)]
        })
        .collect();
    let faces: [[u16; 4]; 6] = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ];
    let indices: Vec<u16> = faces
        .iter()
        .flat_map(|f| [f[0], f[1], f[2], f[0], f[2], f[3]])
        .collect();
    let mesh = Mesh {
        normals: corners
            .iter()
            .map(|c| {
                let l = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
                c.map(|v| -v / l)
            })
            .collect(),
        uvs: vec![[0.0, 0.0]; 8],
        parts: vec![Part {
            first_vertex: 0,
            vertex_count: 8,
            first_index: 0,
            index_count: indices.len(),
            material: 0,
        }],
        positions: corners,
        indices,
    };
    let material = loam::sample::m2::M2Material {
        texture: "Environments\\Stars\\TestSkyboxAbsent.blp",
        render_flags: 0x1 | 0x2 | 0x4,
        blend: 0,
    };
    loam::sample::m2::encode("TestSkybox", &mesh, &[material], &[])
}

#[test]
fn a_light_whose_parameters_name_a_sky_box_draws_it_around_the_eye() {
    let dir = tempfile::tempdir().unwrap();
    // The local light's set (2) names LightSkybox row 4, whose model the client holds; the
    // global light's names none.
    let mut files = light_tables(8);
    let params_row = |id: u32, skybox: u32| {
        let mut row = vec![Ok(0u32); 9];
        row[0] = Ok(id);
        row[2] = Ok(skybox);
        row
    };
    files[1].1 = wdbc(9, &[params_row(1, 0), params_row(2, 4)], &[]);
    let skyboxes = wdbc(
        3,
        &[vec![Ok(4), Err(0), Ok(0)]],
        &["Environments\\Stars\\TestSkybox.mdx"],
    );
    files.push(("DBFilesClient\\LightSkybox.dbc", skyboxes));
    files.push((
        "DBFilesClient\\Map.dbc",
        map_dbc(66, 5, MAP_ID, MAP, "Sample"),
    ));
    let (m2, skin) = cube_skybox();
    files.push(("Environments\\Stars\\TestSkybox.m2", m2));
    files.push(("Environments\\Stars\\TestSkybox00.skin", skin));
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    let wrath = client_with(&dir.path().join("wrath"), false, &files);
    let shot = |name: &str| {
        let p = dir.path().join(format!("{name}.png"));
        if let Some(keep) = std::env::var_os("SKYBOX_SHOTS") {
            let _ = std::fs::create_dir_all(&keep);
            return std::path::Path::new(&keep).join(format!("{name}.png"));
        }
        p
    };

    // Inside the local light: the cube's plain grey fills the view where the sky was.
    let [eye, target] = up(LOCAL_AT);
    let inside = centre(&wrath, eye, target, "12:00", &shot("skybox"));
    let sky = rgb(LOCAL_TOP);
    let far_from = |c: [f64; 3], want: [f64; 3]| (0..3).any(|k| (c[k] - want[k]).abs() > 30.0);
    assert!(
        far_from(inside, sky),
        "the sky box hides the sky: {inside:?}"
    );
    assert!(
        (inside[0] - inside[1]).abs() <= 3.0 && (inside[1] - inside[2]).abs() <= 3.0,
        "an untextured unlit model draws grey: {inside:?}"
    );
    // Far outside it, under the global light (no sky box): the sky as the tables give it.
    let [eye, target] = up([2000.0, -200.0, 1000.0]);
    let outside = centre(&wrath, eye, target, "12:00", &shot("no-skybox"));
    assert_near(
        outside,
        rgb(GLOBAL_TOP[2]),
        "no sky box under the global light",
    );
}

#[test]
fn a_restored_map_brings_its_light_back_and_undo_takes_it_away() {
    use egui::{Key, Modifiers};
    use egui_kittest::kittest::Queryable;
    use loam::doc::editing::Tool;

    let dir = tempfile::tempdir().unwrap();
    let wrath = client(&dir.path().join("wrath"), false);
    let map = common::sample_in(dir.path().join("Sample")).join("Sample.wdt");
    let root = dir.path().join("recovery");
    let settings = loam::app::settings::Settings {
        autosave_secs: 15,
        ..Default::default()
    };
    let open = |settings| {
        editor_support::harness(editor_support::Opening {
            open: Some(map.clone()),
            client: Some(wrath.clone()),
            window_frames: true,
            recovery: Some(root.clone()),
            settings,
            ..Default::default()
        })
    };
    let mut h = open(Some(settings));
    h.run();
    let view = h.get_by_label(loam::ui::viewport::VIEWPORT_LABEL).rect();
    // A stroke (a tile to autosave) and a light added.
    let (before, _) = editor_support::one_stroke(&mut h, view.center() + egui::vec2(-30.0, 40.0));
    editor_support::choose_tool(&mut h, Tool::Lights);
    let as_read = editor_support::map(&h).client_tables;
    h.get_by_label("Add light").click();
    h.run_steps(3);
    assert_eq!(held_rows(&h).placed(MAP_ID), vec![2, 3]);
    // Until the autosave has written the journal with both steps.
    let start = std::time::Instant::now();
    loop {
        h.run_steps(5);
        let manifest = loam::pipeline::recovery::list(&root)
            .into_iter()
            .find_map(|(_, m)| m.ok());
        if manifest.is_some_and(|m| m.journal.is_some()) {
            break;
        }
        assert!(start.elapsed().as_secs() < 90, "no autosave within 90 s");
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    // As after a crash: the editor goes without saving, a new one offers the map back.
    drop(h);
    let mut h = open(None);
    h.run();
    h.get_by_label("Restore").click();
    h.run_steps(5);
    let (labels, head) = h.state().editing().history.labels();
    assert_eq!((labels.len(), head), (2, 2), "{labels:?}");
    assert_eq!(labels[1], "Add light");
    // The light is back in the tables the map holds, and undo takes it away again.
    assert_eq!(held_rows(&h).placed(MAP_ID), vec![2, 3]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(held_rows(&h).placed(MAP_ID), vec![2]);
    assert!(editor_support::map(&h).client_tables == as_read);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    for (coord, t) in &before.tiles {
        let now = &editor_support::map(&h).tiles[coord];
        assert!(
            now.chunks == t.chunks,
            "tile {coord:?} is as opened after undo"
        );
    }
}
