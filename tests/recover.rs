//! History survives a crash (issue 55, items 2 and 3): the autosave writes the undo history
//! beside the unsaved tiles, appending only the steps new since the last autosave; `loam
//! recover` lists the autosaves, prints a map's recovered steps and writes the recovered map,
//! with its last steps undone when asked, as the map as opened.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use loam::app::recovery::{Recovery, recovery_root};
use loam::doc::session::Session;
use loam::edit::History;
use loam::edit::history::Journaled;
use loam::edit::history::journal::decode_journal;
use loam::edit::ops;
use loam::edit::terrain::liquid::LiquidStyle;
use loam::model::{Map, TileCoord};
use loam::pipeline::journal::{self, STEP_HEADER};
use loam::pipeline::recovery::{self, Manifest};

/// Two strokes inside tile 31_31 of the sample: a raise, then paint with `texture`.
fn ops_json(texture: &str) -> String {
    serde_json::json!({"ops": [
        {"tool": "raise", "points": [[100, 100], [180, 140]], "radius": 40, "strength": 30, "falloff": "smooth"},
        {"tool": "paint", "points": [[120, 90], [160, 150]], "radius": 30, "strength": 0.8, "texture": texture}
    ]})
    .to_string()
}

/// A texture of the sample's tile 31_31 that is not its base, to paint with.
fn paint_texture(map: &Map) -> String {
    let t = &map.tiles[&TileCoord::new(31, 31).unwrap()];
    t.textures.last().unwrap().clone()
}

/// Runs `loam` with `LOAM_DATA_DIR` set to `data`.
fn loam_in(data: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(args)
        .env("LOAM_DATA_DIR", data)
        .output()
        .unwrap()
}

/// The map written to `dir` as loam reads it back.
fn read(dir: &Path) -> Map {
    loam::pipeline::open_map(&dir.join("Sample.wdt"))
        .unwrap()
        .map
}

/// Every tile of `a` and `b` the same, chunk by chunk (a whole tile's Debug text is too long
/// to read).
fn assert_same_tiles(what: &str, a: &Map, b: &Map) {
    assert_eq!(
        a.tiles.keys().collect::<Vec<_>>(),
        b.tiles.keys().collect::<Vec<_>>(),
        "{what}: tiles"
    );
    for (c, t) in &a.tiles {
        let u = &b.tiles[c];
        for (i, (x, y)) in t.chunks.iter().zip(&u.chunks).enumerate() {
            assert!(x == y, "{what}: tile {c:?} chunk {i} differs");
        }
        assert_eq!(t.textures, u.textures, "{what}: tile {c:?} textures");
    }
}

/// Waits for an autosave under `root` holding `steps` undo steps.
fn wait_for_autosave(root: &Path, steps: u64, child: &mut std::process::Child) -> Manifest {
    let start = Instant::now();
    loop {
        if let Some((_, Ok(m))) = recovery::list(root).into_iter().next()
            && m.journal.as_ref().is_some_and(|j| j.steps == steps)
        {
            return m;
        }
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            if let Some(e) = child.stderr.as_mut() {
                let _ = e.read_to_string(&mut err);
            }
            panic!("the editor exited ({status}) before autosaving: {err}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "no autosave with {steps} steps within 180 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_killed_editor_s_history_is_listed_printed_and_written_with_its_steps_undone() {
    let tmp = tempfile::tempdir().unwrap();
    let map_dir = common::sample_in(tmp.path().join("map"));
    let wdt = map_dir.join("Sample.wdt");
    let opened = read(&map_dir);
    let json = ops_json(&paint_texture(&opened));
    let ops_file = tmp.path().join("ops.json");
    std::fs::write(&ops_file, &json).unwrap();
    let data = tmp.path().join("data");

    // The real editor, two strokes applied as unsaved steps, autosaving every second.
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_loam"))
        .arg(&wdt)
        .arg("--apply")
        .arg(&ops_file)
        .env("LOAM_DATA_DIR", &data)
        .env("LOAM_AUTOSAVE_SECS", "1")
        .env("XDG_DATA_HOME", tmp.path().join("xdg"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xvfb-run is missing: install them with `bash packaging/setup --tests`");
    let manifest = wait_for_autosave(&recovery_root(&data), 2, &mut child);
    let killed = Command::new("kill")
        .args(["-9", &manifest.pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success(), "kill -9 {}", manifest.pid);
    assert!(!child.wait().unwrap().success(), "the editor was killed");

    // The same strokes through the library: their labels, and the map they make.
    let mut edited = opened.clone();
    let history = common::apply_ops(&mut edited, &json, LiquidStyle::Mh2o);
    let (labels, _) = history.labels();
    assert_eq!(labels.len(), 2);

    // --list: the map, when, and its two steps.
    let list = loam_in(&data, &["recover", "--list"]);
    assert!(list.status.success(), "{}", common::text(&list));
    let stdout = String::from_utf8(list.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    let fields: Vec<&str> = lines[0].split('\t').collect();
    let absolute = std::path::absolute(&wdt).unwrap();
    assert_eq!(fields[0], absolute.to_str().unwrap(), "{stdout}");
    assert!(
        fields[1].ends_with('Z') && fields[1].len() == 20,
        "{stdout}"
    );
    assert_eq!(fields[2], "2 steps", "{stdout}");

    // --history: the steps' labels, oldest first, as the history panel shows them.
    let printed = loam_in(&data, &["recover", wdt.to_str().unwrap(), "--history"]);
    assert!(printed.status.success(), "{}", common::text(&printed));
    let printed = String::from_utf8(printed.stdout).unwrap();
    assert_eq!(printed.lines().collect::<Vec<_>>(), labels, "{printed}");

    // The recovered map: the strokes are in it, as the library's strokes written and read.
    let out = tmp.path().join("recovered");
    let wrote = loam_in(
        &data,
        &[
            "recover",
            wdt.to_str().unwrap(),
            out.to_str().unwrap(),
            "--to",
            "3.3.5",
        ],
    );
    assert!(wrote.status.success(), "{}", common::text(&wrote));
    let want_dir = tmp.path().join("expected");
    let files =
        loam::pipeline::encode_map(&edited, loam::format::Generation::V335, true, None).unwrap();
    loam::disk::write_files(&want_dir, &files, |_| {}).unwrap();
    let recovered = read(&out);
    assert_same_tiles("recovered", &read(&want_dir), &recovered);
    let t = TileCoord::new(31, 31).unwrap();
    assert!(
        recovered.tiles[&t].chunks != opened.tiles[&t].chunks,
        "the strokes are in the recovered map"
    );

    // Both steps undone: the map as opened, in loam's model and in wow-adt's heights.
    let undone = tmp.path().join("undone");
    let wrote = loam_in(
        &data,
        &[
            "recover",
            wdt.to_str().unwrap(),
            undone.to_str().unwrap(),
            "--to",
            "3.3.5",
            "--undo",
            "2",
        ],
    );
    assert!(wrote.status.success(), "{}", common::text(&wrote));
    assert!(common::text(&wrote).contains(&format!("undone: {}", labels[0])));
    assert_same_tiles("undone", &opened, &read(&undone));
    let name = "Sample_31_31.adt";
    let (a, b) = (
        common::root_adt(&map_dir.join(name)),
        common::root_adt(&undone.join(name)),
    );
    for (x, y) in a.mcnk_chunks.iter().zip(&b.mcnk_chunks) {
        assert_eq!(common::absolute_heights(x), common::absolute_heights(y));
    }
    // One step undone: the raise alone.
    let one = tmp.path().join("one");
    let wrote = loam_in(
        &data,
        &[
            "recover",
            wdt.to_str().unwrap(),
            one.to_str().unwrap(),
            "--to",
            "3.3.5",
            "--undo",
            "1",
        ],
    );
    assert!(wrote.status.success(), "{}", common::text(&wrote));
    let one = read(&one);
    assert!(one.tiles[&t].chunks != recovered.tiles[&t].chunks);
    assert!(one.tiles[&t].chunks != opened.tiles[&t].chunks);
    // More than there are: an error, nothing written.
    let too_many = loam_in(
        &data,
        &[
            "recover",
            wdt.to_str().unwrap(),
            tmp.path().join("no").to_str().unwrap(),
            "--to",
            "3.3.5",
            "--undo",
            "3",
        ],
    );
    assert!(!too_many.status.success());
    assert!(!tmp.path().join("no").exists());
}

/// The sample opened as the editor holds it, every tile loaded.
fn session(dir: &Path) -> (PathBuf, Session) {
    loam::sample::write_sample(dir).unwrap();
    let wdt = dir.join("Sample.wdt");
    let mut s = Session::open(&wdt).unwrap();
    s.load_all();
    (wdt, s)
}

/// One raise stroke at (`x`, `y`) as a step of `history`, its tiles marked unsaved.
fn stroke(s: &mut Session, history: &mut History, x: f64, y: f64) {
    let op: ops::Op = serde_json::from_value(serde_json::json!({
        "tool": "raise", "points": [[x, y], [x + 40.0, y + 20.0]], "radius": 30, "strength": 8
    }))
    .unwrap();
    let done = ops::apply(&mut s.map, &op, history, LiquidStyle::Mh2o).unwrap();
    for t in done.tiles {
        s.mark_edited(t);
    }
}

/// Undoes the last step of `history`, its tiles marked unsaved (as the editor does).
fn undo(s: &mut Session, history: &mut History) {
    for (t, _) in history.undo(&mut s.map).unwrap() {
        s.mark_edited(t);
    }
}

/// The journal file the manifest of `dir` names, with its bytes.
fn journal_of(dir: &Path) -> (PathBuf, Vec<u8>) {
    let m = recovery::read_manifest(dir).unwrap();
    let path = dir.join(m.journal.unwrap().file);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

#[test]
fn a_later_autosave_appends_only_its_new_steps_and_a_cut_journal_reads_to_its_last_record() {
    let tmp = tempfile::tempdir().unwrap();
    let (wdt, mut s) = session(tmp.path());
    let opened = s.map.clone();
    let mut history = History::default();
    for i in 0..3 {
        stroke(&mut s, &mut history, 60.0 + 50.0 * i as f64, 80.0);
    }
    let mut r = Recovery::at(tmp.path().join("recovery"));
    assert!(r.autosave(&mut s, &history, 1).is_none());
    assert_eq!(r.finish(), None);
    let dir = r.folder(&wdt);
    let (path, first) = journal_of(&dir);

    // Two more steps: the second autosave appends them and the state, nothing else.
    stroke(&mut s, &mut history, 300.0, -200.0);
    stroke(&mut s, &mut history, -250.0, 250.0);
    assert!(r.autosave(&mut s, &history, 1).is_none());
    assert_eq!(r.finish(), None);
    let (path2, second) = journal_of(&dir);
    assert_eq!(path2, path, "the same file");
    assert!(
        second[..first.len()] == first[..],
        "the first part is unchanged"
    );
    let all = history
        .journal_since(&mut Journaled::default(), true)
        .encode();
    let new: u64 = all.steps[3..]
        .iter()
        .map(|(_, b)| STEP_HEADER + b.len() as u64)
        .sum();
    let state_record = 9 + 33;
    assert_eq!(
        second.len() as u64 - first.len() as u64,
        new + state_record,
        "the file grew by the new steps and a state"
    );

    // Undo two, then a new step: the redo branch is replaced under the same sequences.
    undo(&mut s, &mut history);
    undo(&mut s, &mut history);
    stroke(&mut s, &mut history, 0.0, -300.0);
    assert!(r.autosave(&mut s, &history, 1).is_none());
    assert_eq!(r.finish(), None);
    // And one undone step left for redo.
    undo(&mut s, &mut history);
    assert!(r.autosave(&mut s, &history, 1).is_none());
    assert_eq!(r.finish(), None);
    let (_, third) = journal_of(&dir);
    assert!(third[..second.len()] == second[..]);

    // Read back over the autosaved tiles: the same steps, the same head, and undo walks back
    // to the map as opened.
    let m = recovery::read_manifest(&dir).unwrap();
    let read = recovery::read_journal(&dir, &m).unwrap().unwrap();
    let steps = decode_journal(&path, &read).unwrap();
    let state = read.state.unwrap();
    let mut map = opened.clone();
    let autosaved = recovery::read_tiles(&dir, &m, &opened).unwrap();
    let header = opened.header_only();
    let same = |a: &loam::model::Tile, b: &loam::model::Tile| {
        recovery::same_on_disk(&header, loam::format::Generation::V335, a, b)
    };
    // A tile file cannot hold every height: what the autosave read back is a bit off here
    // and there, which the replay from the map as opened puts right (the editor and `loam
    // recover` do the same).
    let exact = loam::edit::history::exact_tiles(&opened, autosaved.clone(), &steps, &state, same);
    assert!(autosaved.iter().zip(&exact).all(|(a, b)| same(a, b)));
    for t in exact {
        map.tiles.insert(t.coord, t);
    }
    let mut back = History::from_journal(&mut map, steps, &state, 1 << 30);
    assert_eq!(back.labels(), history.labels());
    assert!(back.can_redo());
    back.redo(&mut map).unwrap();
    history.redo(&mut s.map).unwrap();
    while back.undo(&mut map).is_some() {}
    assert_same_tiles("undone from the journal", &opened, &map);
    assert!(back.is_saved(), "the map as opened is the saved state");

    // Cut mid-record (a kill while appending, here in its state record): read up to the last
    // whole record (the new steps), whose last state is the autosave's before.
    let cut = tmp.path().join("cut.journal");
    std::fs::write(&cut, &second[..second.len() - 5]).unwrap();
    let j = journal::read(&cut, None).unwrap();
    assert!(j.torn);
    assert_eq!(j.end, second.len() as u64 - state_record);
    assert_eq!(j.state.unwrap().len, 3);
    assert_eq!(j.steps.len(), 3);
    // Cut inside the first new step's frame: the first autosave's records, whole.
    std::fs::write(&cut, &second[..first.len() + 4]).unwrap();
    let j = journal::read(&cut, None).unwrap();
    assert!(j.torn);
    assert_eq!(j.end, first.len() as u64);
    assert_eq!(j.state.unwrap().len, 3);
    // What the manifest vouches for is read, not a byte more.
    let j = journal::read(&path, Some(first.len() as u64)).unwrap();
    assert!(!j.torn);
    assert_eq!(j.state.unwrap().len, 3);

    // A damaged byte inside: an error naming the file and the record's byte, not a panic.
    let mut bad = second.clone();
    let at = first.len() + 20;
    bad[at] ^= 0x55;
    std::fs::write(&cut, &bad).unwrap();
    let e = journal::read(&cut, None).unwrap_err().to_string();
    assert!(e.contains("cut.journal"), "{e}");
    assert!(e.contains(&format!("at byte {}:", first.len())), "{e}");
}

#[test]
fn steps_dropped_under_the_budget_leave_the_journal_and_the_rest_come_back() {
    let tmp = tempfile::tempdir().unwrap();
    let (wdt, mut s) = session(tmp.path());
    // A budget of about three steps: the oldest go as new ones come.
    let mut probe = History::default();
    let mut probe_map = s.map.clone();
    let op: ops::Op = serde_json::from_value(serde_json::json!({
        "tool": "raise", "points": [[60, 80], [100, 100]], "radius": 30, "strength": 8
    }))
    .unwrap();
    ops::apply(&mut probe_map, &op, &mut probe, LiquidStyle::Mh2o).unwrap();
    let mut history = History::with_budget(probe.size_bytes() * 3);
    let mut r = Recovery::at(tmp.path().join("recovery"));
    for i in 0..7 {
        stroke(&mut s, &mut history, -300.0 + 90.0 * i as f64, 80.0);
        assert!(r.autosave(&mut s, &history, 1).is_none());
        assert_eq!(r.finish(), None);
    }
    let state = history.journal_state();
    assert!(state.dropped > 0, "{state:?}");
    let dir = r.folder(&wdt);
    let m = recovery::read_manifest(&dir).unwrap();
    let read = recovery::read_journal(&dir, &m).unwrap().unwrap();
    assert_eq!(read.state.unwrap(), state);
    let (path, _) = journal_of(&dir);
    let steps = decode_journal(&path, &read).unwrap();
    let mut map = s.map.clone();
    let back = History::from_journal(&mut map, steps, &state, 1 << 30);
    assert_eq!(back.labels(), history.labels());
    assert!(!back.is_saved(), "the saved state was dropped");
}

#[test]
fn a_corrupt_journal_is_an_error_naming_the_file_and_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let (wdt, mut s) = session(&tmp.path().join("map"));
    let mut history = History::default();
    stroke(&mut s, &mut history, 60.0, 80.0);
    stroke(&mut s, &mut history, 160.0, 80.0);
    let data = tmp.path().join("data");
    let mut r = Recovery::at(recovery_root(&data));
    assert!(r.autosave(&mut s, &history, 1).is_none());
    assert_eq!(r.finish(), None);
    let (path, mut bytes) = journal_of(&r.folder(&wdt));
    // A byte of the first step's record (after the 8-byte header) flipped.
    bytes[8 + 30] ^= 0x0F;
    std::fs::write(&path, &bytes).unwrap();
    let o = loam_in(&data, &["recover", wdt.to_str().unwrap(), "--history"]);
    assert!(!o.status.success());
    let text = common::text(&o);
    assert!(text.contains(&path.display().to_string()), "{text}");
    assert!(text.contains("at byte 8:"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}
