//! Object edits (issue: object placement): random place, move and delete sequences across tile
//! corners keep every object in exactly the tiles and chunks its box overlaps, once per tile and
//! with one uid, through a 3.3.5 save and re-read; undo and redo restore the map bit for bit;
//! untouched tiles encode to the same bytes. An object moved across a tile border is read by the
//! independent `wow-adt` crate in both tiles, in the right MCRF lists.

use std::collections::{BTreeMap, BTreeSet};

mod common;

use common::{ORIGIN, cells_overlapping, object_op as op};
use loam::disk;
use loam::edit::History;
use loam::edit::objects::object_ops::{self, ObjectTool};
use loam::format::Generation;
use loam::model::map::TILE_PRESENT;
use loam::model::{Map, Tile, TileCoord};
use loam::pipeline;
use proptest::prelude::*;

/// Tiles (31, 31) to (32, 32) around the world's origin, flat, and tile (30, 30) that no edit
/// comes near.
fn map() -> Map {
    let mut map = Map::new("Objects");
    for (x, y) in [(31, 31), (32, 31), (31, 32), (32, 32), (30, 30)] {
        let c = TileCoord::new(x, y).unwrap();
        map.tiles.insert(c, Tile::flat(c, "Tileset\\A.blp", 5.0));
        map.tile_flags[c.index()] = TILE_PRESENT;
    }
    map
}

/// An object as the test expects it: centre x, y and half side (the stand-in box of a missing
/// doodad is 2 yards square, times the scale; quarter turns keep it square).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Expected {
    x: f64,
    y: f64,
    half: f64,
}

/// The tile and chunk cells the object's box overlaps.
fn expected_cells(e: Expected) -> Cells {
    cells_overlapping(e.x - e.half, e.x + e.half, e.y - e.half, e.y + e.half)
}

/// Where each uid is listed: (tile, chunk) cells of its MCRF entries, and the tiles with a record.
/// (tile x, tile y) and chunk index.
type Cells = BTreeSet<((u8, u8), usize)>;

fn listed(map: &Map) -> BTreeMap<u32, (Cells, BTreeSet<(u8, u8)>)> {
    let mut out: BTreeMap<u32, (Cells, BTreeSet<_>)> = BTreeMap::new();
    for t in map.tiles.values() {
        let key = (t.coord.x, t.coord.y);
        let uids: Vec<u32> = t.doodads.iter().map(|d| d.unique_id).collect();
        let distinct: BTreeSet<u32> = uids.iter().copied().collect();
        assert_eq!(distinct.len(), uids.len(), "a tile lists an object twice");
        for d in &t.doodads {
            assert!(
                (d.name_index as usize) < t.doodad_names.len(),
                "name index in range"
            );
            out.entry(d.unique_id).or_default().1.insert(key);
        }
        for (i, c) in t.chunks.iter().enumerate() {
            for &r in &c.doodad_refs {
                let uid = t.doodads[r as usize].unique_id;
                assert!(
                    out.entry(uid).or_default().0.insert((key, i)),
                    "a chunk lists an object twice"
                );
            }
        }
    }
    out
}

/// Checks that the map lists exactly the expected objects where their boxes say, each record
/// with the object's position (to `tolerance`: a saved file stores f32).
fn check(map: &Map, expected: &BTreeMap<u32, Expected>, tolerance: f64) {
    let found = listed(map);
    assert_eq!(
        found.keys().copied().collect::<Vec<_>>(),
        expected.keys().copied().collect::<Vec<_>>(),
        "nothing lost, nothing added"
    );
    for (uid, e) in expected {
        let cells = expected_cells(*e);
        let tiles: BTreeSet<(u8, u8)> = cells.iter().map(|(t, _)| *t).collect();
        let (got_cells, got_tiles) = &found[uid];
        assert_eq!(got_tiles, &tiles, "uid {uid}: tiles");
        assert_eq!(got_cells, &cells, "uid {uid}: chunks");
        for t in map.tiles.values() {
            for d in t.doodads.iter().filter(|d| d.unique_id == *uid) {
                assert!(
                    (d.position[0] - e.x).abs() <= tolerance
                        && (d.position[1] - e.y).abs() <= tolerance,
                    "uid {uid}: record at {:?}, expected ({}, {})",
                    d.position,
                    e.x,
                    e.y
                );
            }
        }
    }
}

/// No model can be read: every object uses the stand-in box.
fn no_model(_: &str) -> Option<loam::edit::objects::ModelBox> {
    None
}

#[derive(Debug, Clone)]
enum Step {
    Place { x: f64, y: f64, scale: u8, turn: u8 },
    Move { which: usize, x: f64, y: f64 },
    Delete { which: usize },
}

fn step() -> impl Strategy<Value = Step> {
    // Within 80 yards of the corner four tiles share, boxes up to 40 yards across.
    let xy = -80.0..80.0f64;
    prop_oneof![
        3 => (xy.clone(), xy.clone(), 1u8..20, 0u8..4)
            .prop_map(|(x, y, scale, turn)| Step::Place { x, y, scale, turn }),
        2 => (0usize..100, xy.clone(), xy.clone()).prop_map(|(which, x, y)| Step::Move { which, x, y }),
        1 => (0usize..100).prop_map(|which| Step::Delete { which }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn placements_stay_where_their_boxes_are_through_save_and_undo(steps in proptest::collection::vec(step(), 1..12)) {
        let mut map = map();
        let original = map.clone();
        let far = TileCoord::new(30, 30).unwrap();
        let far_bytes = pipeline::encode_map(&map, Generation::V335, false, Some(&[far])).unwrap();
        let mut history = History::default();
        let mut expected: BTreeMap<u32, Expected> = BTreeMap::new();
        for s in &steps {
            let live: Vec<u32> = expected.keys().copied().collect();
            match *s {
                Step::Place { x, y, scale, turn } => {
                    let mut o = op(ObjectTool::Place);
                    o.model = Some("World\\Missing\\Bush.m2".into());
                    o.position = Some(vec![x, y, 5.0]);
                    o.scale = Some(scale as f32);
                    o.rotation = Some([0.0, 90.0 * turn as f32, 0.0]);
                    let r = object_ops::apply(&mut map, &o, &mut history, &no_model).unwrap();
                    let uid = expected.keys().chain(Some(&0)).max().copied().unwrap() + 1;
                    prop_assert!(r.label.contains(&format!("uid {uid}")), "{}", r.label);
                    expected.insert(uid, Expected { x, y, half: scale as f64 });
                }
                Step::Move { which, x, y } if !live.is_empty() => {
                    let uid = live[which % live.len()];
                    let mut o = op(ObjectTool::Move);
                    o.uid = Some(uid);
                    o.position = Some(vec![x, y]);
                    object_ops::apply(&mut map, &o, &mut history, &no_model).unwrap();
                    let e = expected.get_mut(&uid).unwrap();
                    (e.x, e.y) = (x, y);
                }
                Step::Delete { which } if !live.is_empty() => {
                    let uid = live[which % live.len()];
                    let mut o = op(ObjectTool::Delete);
                    o.uid = Some(uid);
                    object_ops::apply(&mut map, &o, &mut history, &no_model).unwrap();
                    expected.remove(&uid);
                }
                _ => {}
            }
            check(&map, &expected, 0.0);
        }

        // Saved as 3.3.5 and read back, the records and MCRF lists are the same.
        let dir = tempfile::tempdir().unwrap();
        let files = pipeline::encode_map(&map, Generation::V335, true, None).unwrap();
        disk::write_files(dir.path(), &files, |_| {}).unwrap();
        let back = pipeline::open_map(&dir.path().join("Objects.wdt")).unwrap();
        check(&back.map, &expected, 1e-2);
        let far_after = pipeline::encode_map(&map, Generation::V335, false, Some(&[far])).unwrap();
        prop_assert!(far_after[0].bytes == far_bytes[0].bytes, "the untouched tile is byte-identical");

        let edited = map.clone();
        while history.undo(&mut map).is_some() {}
        prop_assert!(map == original, "undo restores the map bit for bit");
        while history.redo(&mut map).is_some() {}
        prop_assert!(map == edited, "redo reapplies bit for bit");
    }
}

#[test]
fn an_object_moved_across_a_tile_border_is_read_by_wow_adt_in_both_tiles() {
    let mut map = map();
    let mut history = History::default();
    // A 6-yard box (scale 3) in tile (31, 31), 20 yards north-west of the corner.
    let mut place = op(ObjectTool::Place);
    place.model = Some("World\\Missing\\Rock.m2".into());
    place.position = Some(vec![20.0, 20.0]);
    place.scale = Some(3.0);
    place.rotation = Some([0.0, 90.0, 0.0]);
    place.uid = Some(4000);
    object_ops::apply(&mut map, &place, &mut history, &no_model).unwrap();
    let a = TileCoord::new(31, 31).unwrap();
    let b = TileCoord::new(32, 31).unwrap();
    assert_eq!(map.tiles[&a].doodads.len(), 1);
    assert!(map.tiles[&b].doodads.is_empty());
    // Onto the border between (31, 31) and (32, 31): y = 1 is 1 yard west of it.
    let mut mv = op(ObjectTool::Move);
    mv.uid = Some(4000);
    mv.position = Some(vec![20.0, 1.0, 7.5]);
    let r = object_ops::apply(&mut map, &mv, &mut history, &no_model).unwrap();
    assert_eq!(r.tiles, vec![a, b]);

    let dir = tempfile::tempdir().unwrap();
    let files = pipeline::encode_map(&map, Generation::V335, true, None).unwrap();
    disk::write_files(dir.path(), &files, |_| {}).unwrap();
    let expected = expected_cells(Expected {
        x: 20.0,
        y: 1.0,
        half: 3.0,
    });
    for coord in [a, b] {
        let path = dir
            .path()
            .join(format!("Objects_{}_{}.adt", coord.x, coord.y));
        let mut f = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
        let wow_adt::ParsedAdt::Root(root) = wow_adt::parse_adt(&mut f).unwrap() else {
            panic!("not a root ADT")
        };
        assert_eq!(root.doodad_placements.len(), 1, "listed once in {coord:?}");
        let d = &root.doodad_placements[0];
        assert_eq!(d.unique_id, 4000);
        assert_eq!(root.models[d.name_id as usize], "World\\Missing\\Rock.m2");
        // The record stores (ORIGIN − y, z, ORIGIN − x).
        assert_eq!(
            d.position,
            [(ORIGIN - 1.0) as f32, 7.5, (ORIGIN - 20.0) as f32]
        );
        assert_eq!(d.rotation, [0.0, 90.0, 0.0]);
        assert_eq!(d.scale, 3072);
        let chunks: BTreeSet<usize> = root
            .mcnk_chunks
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                m.refs
                    .as_ref()
                    .is_some_and(|r| r.doodad_refs(m.header.n_doodad_refs as usize) == [0])
            })
            .map(|(i, _)| i)
            .collect();
        let want: BTreeSet<usize> = expected
            .iter()
            .filter(|(t, _)| *t == (coord.x, coord.y))
            .map(|(_, c)| *c)
            .collect();
        assert!(!want.is_empty());
        assert_eq!(chunks, want, "MCRF of {coord:?}");
    }
}

#[test]
fn wmo_scale_and_uid_clashes_are_refused() {
    let mut map = map();
    let mut history = History::default();
    let mut inn = op(ObjectTool::Place);
    inn.model = Some("World\\wmo\\Inn.wmo".into());
    inn.position = Some(vec![100.0, 100.0, 0.0]);
    inn.scale = Some(2.0);
    let e = object_ops::apply(&mut map, &inn, &mut history, &no_model).unwrap_err();
    assert!(e.contains("cannot be scaled"), "{e}");
    inn.scale = None;
    inn.uid = Some(7);
    object_ops::apply(&mut map, &inn, &mut history, &no_model).unwrap();
    let mut tree = op(ObjectTool::Place);
    tree.model = Some("World\\Tree.m2".into());
    tree.position = Some(vec![50.0, 50.0]);
    tree.uid = Some(7);
    let e = object_ops::apply(&mut map, &tree, &mut history, &no_model).unwrap_err();
    assert!(e.contains("already used"), "{e}");
    // Left out, the uid goes above every one in use; z left out stands it on the ground.
    tree.uid = None;
    object_ops::apply(&mut map, &tree, &mut history, &no_model).unwrap();
    let placed = map.tiles[&TileCoord::new(31, 31).unwrap()]
        .doodads
        .iter()
        .find(|d| d.unique_id == 8)
        .expect("uid 8");
    assert_eq!(placed.position[2], 5.0, "on the flat ground at 5 yards");
    let mut scale = op(ObjectTool::Scale);
    scale.uid = Some(7);
    scale.scale = Some(1.5);
    let e = object_ops::apply(&mut map, &scale, &mut history, &no_model).unwrap_err();
    assert!(e.contains("WMO"), "{e}");
    // A WMO's record box is the world box of its model's box.
    let wmo = &map.tiles[&TileCoord::new(31, 31).unwrap()].wmos[0];
    assert_eq!(wmo.bounds_min, [90.0, 90.0, 0.0]);
    assert_eq!(wmo.bounds_max, [110.0, 110.0, 20.0]);
}

#[test]
fn objects_follow_the_ground_when_asked_and_one_undo_takes_back_both() {
    use loam::edit::objects::follow_ground;
    use loam::edit::ops;
    use loam::edit::stroke::Stroke;
    use loam::edit::terrain::sculpt::Sculpt;

    let mut map = map();
    let mut history = History::default();
    for (uid, x) in [(1, 100.0), (2, 400.0)] {
        let mut o = op(ObjectTool::Place);
        o.model = Some("World\\Tree.m2".into());
        o.position = Some(vec![x, 100.0]);
        o.uid = Some(uid);
        object_ops::apply(&mut map, &o, &mut history, &no_model).unwrap();
    }
    let before = map.clone();
    // A raise of 6 yards at the first tree, through the editor's own dab function.
    let file = ops::parse(
        r#"{"ops": [{"tool": "raise", "points": [[100, 100]], "radius": 30, "strength": 6}]}"#,
    )
    .unwrap();
    let raise = file.ops[0].brush().unwrap().clone();
    let mut stroke = Stroke::new("Raise");
    for [x, y] in raise.dabs() {
        ops::dab(&mut map, &raise, Some(Sculpt::Raise), x, y, &mut stroke);
    }
    let mut edit = stroke.finish(&mut map).unwrap();
    follow_ground(&mut map, &mut edit, &no_model);
    let ground = loam::edit::lattice::height_at(&map, 100.0, 100.0).unwrap() as f64;
    assert!(
        ground > 5.0 + 3.0,
        "the ground rose under the tree: {ground}"
    );
    let z = |m: &Map, uid: u32| {
        m.tiles
            .values()
            .flat_map(|t| {
                t.doodads
                    .iter()
                    .filter(|d| d.unique_id == uid)
                    .map(|d| d.position[2])
            })
            .collect::<Vec<_>>()
    };
    assert!(
        z(&map, 1).iter().all(|&v| (v - ground).abs() < 1e-4),
        "{:?} vs {ground}",
        z(&map, 1)
    );
    assert!(z(&map, 2).iter().all(|&v| v == 5.0), "the far tree stays");
    history.push(&mut map, edit);
    history.undo(&mut map).unwrap();
    assert!(map == before, "one undo takes back the ground and the tree");
}

#[test]
fn the_quick_uid_scan_finds_what_the_full_reader_does_on_every_corpus_tile() {
    let mut seen = 0;
    for rel in common::ADTS {
        let bytes = std::fs::read(common::corpus_file(rel)).unwrap();
        let depth = loam::format::v18::sniff_alpha_depth(&bytes);
        let tile = loam::format::v18::read_adt(&bytes, None, depth).unwrap();
        let full: Vec<u32> = tile
            .doodads
            .iter()
            .map(|d| d.unique_id)
            .chain(tile.wmos.iter().map(|w| w.unique_id))
            .collect();
        seen += full.len();
        assert_eq!(
            loam::format::v18::adt::read_unique_ids(&bytes).unwrap(),
            full,
            "{rel}"
        );
    }
    assert!(seen > 2000, "the corpus places objects: {seen}");
}
