//! Objects placed by loam save in every generation loam writes: doodads and a WMO placed with
//! `loam apply`'s object operations on the sample map (one inside a tile, one across a tile
//! border, one on the corner of four tiles, a WMO across a border), prepared for 0.5.3, 0.6.0,
//! 1.12 and 3.3.5, written, read back, and compared object by object: the same tiles list each
//! one, with the same uid, model (`.m2` named `.mdx` for the MDX clients), position, rotation,
//! scale and chunks' MCRF entries. The 0.5.3 file is also checked against the rules of
//! `alpha-0.5.3.md` that its readers need: each name once in MDNM/MONM, the name counts, MAIN
//! entries, the tile block's order and offsets, MCRF pointing at records that exist.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::object_op as op;
use loam::disk;
use loam::edit::History;
use loam::edit::objects::ModelBox;
use loam::edit::objects::object_ops::{self, ObjectOp, ObjectTool};
use loam::format::Generation;
use loam::model::{Map, ObjectKind, TileCoord};
use loam::pipeline;

const TARGETS: [Generation; 4] = [
    Generation::Alpha053,
    Generation::V060,
    Generation::V112,
    Generation::V335,
];

const FERN: &str = "World\\Loam\\Test\\Fern.m2";
/// An upper-case extension: the rename to `.mdx` must still happen.
const STONE: &str = "World\\Loam\\Test\\Stone.M2";
const HUT: &str = "World\\Loam\\Test\\Hut.wmo";

fn at(x: usize, y: usize) -> TileCoord {
    TileCoord::new(x, y).unwrap()
}

/// The hut is 40 yards square and 15 tall; the doodads' models cannot be read (the 2-yard
/// stand-in box, times the scale).
fn model_box(path: &str) -> Option<ModelBox> {
    (path == HUT).then_some(([-20.0, -20.0, 0.0], [20.0, 20.0, 15.0]))
}

fn place(model: &str, position: &[f64], rotation: [f32; 3], scale: Option<f32>) -> ObjectOp {
    ObjectOp {
        model: Some(model.to_string()),
        position: Some(position.to_vec()),
        rotation: Some(rotation),
        scale,
        ..op(ObjectTool::Place)
    }
}

/// An object: its kind and uniqueId.
type Key = (ObjectKind, u32);

/// The sample map (tiles 31_31, 32_31, 31_32, 32_32 around the world's origin; x falls to the
/// south, y to the east) with four placed objects; returns it and, for each placed object, its
/// uid and the tiles that must list it.
fn placed_map() -> (Map, Vec<(Key, BTreeSet<TileCoord>)>) {
    let mut map = loam::sample::sample_map();
    let mut history = History::default();
    let mut hut = place(HUT, &[-100.0, 5.0], [0.0, 30.0, 0.0], None);
    hut.doodad_set = Some(1);
    let ops = [
        // Inside tile 31_31, on the ground.
        (
            place(FERN, &[100.0, 100.0], [0.0, 45.0, 0.0], None),
            vec![at(31, 31)],
        ),
        // 0.4 yd north of the border between rows 31 and 32, 3 yd wide: in both.
        (
            place(FERN, &[0.4, 200.0, 12.5], [0.0, 90.0, 0.0], Some(1.5)),
            vec![at(31, 31), at(31, 32)],
        ),
        // On the corner of all four tiles.
        (
            place(STONE, &[-0.5, -0.5, 3.0], [10.0, 0.0, -20.0], Some(0.75)),
            vec![at(31, 31), at(32, 31), at(31, 32), at(32, 32)],
        ),
        // Across the border between columns 31 and 32, south of the origin.
        (hut, vec![at(31, 32), at(32, 32)]),
    ];
    let mut placed = Vec::new();
    for (op, tiles) in ops {
        let kind = object_ops::kind_of_model(op.model.as_deref().unwrap());
        let before = loam::edit::objects::unique_ids(&map);
        object_ops::apply(&mut map, &op, &mut history, &model_box).unwrap();
        let new: Vec<_> = loam::edit::objects::unique_ids(&map)
            .difference(&before)
            .copied()
            .collect();
        assert_eq!(new.len(), 1, "one new object");
        assert_eq!(new[0].0, kind);
        placed.push((new[0], tiles.into_iter().collect()));
    }
    (map, placed)
}

/// One tile's record of an object, with the chunks whose MCRF lists name it.
#[derive(Debug, Clone)]
struct Entry {
    model: String,
    position: [f64; 3],
    rotation: [f32; 3],
    scale: u16,
    flags: u16,
    doodad_set: u16,
    bounds: Option<([f64; 3], [f64; 3])>,
    chunks: BTreeSet<usize>,
}

type Objects = BTreeMap<Key, BTreeMap<TileCoord, Entry>>;

/// Every object of the map, by kind and uid, with each tile's record of it.
fn objects(map: &Map) -> Objects {
    let mut out: Objects = BTreeMap::new();
    for t in map.tiles.values() {
        let refs = |pick: fn(&loam::model::Chunk) -> &Vec<u32>, i: usize| -> BTreeSet<usize> {
            (0..256)
                .filter(|&c| pick(&t.chunks[c]).contains(&(i as u32)))
                .collect()
        };
        for (i, d) in t.doodads.iter().enumerate() {
            let e = Entry {
                model: t.doodad_names[d.name_index as usize].clone(),
                position: d.position,
                rotation: d.rotation,
                scale: d.scale,
                flags: d.flags,
                doodad_set: 0,
                bounds: None,
                chunks: refs(|c| &c.doodad_refs, i),
            };
            let prev = out
                .entry((ObjectKind::Doodad, d.unique_id))
                .or_default()
                .insert(t.coord, e);
            assert!(
                prev.is_none(),
                "tile {:?} lists doodad {} twice",
                t.coord,
                d.unique_id
            );
        }
        for (i, w) in t.wmos.iter().enumerate() {
            let e = Entry {
                model: t.wmo_names[w.name_index as usize].clone(),
                position: w.position,
                rotation: w.rotation,
                scale: w.scale,
                flags: w.flags,
                doodad_set: w.doodad_set,
                bounds: Some((w.bounds_min, w.bounds_max)),
                chunks: refs(|c| &c.wmo_refs, i),
            };
            let prev = out
                .entry((ObjectKind::Wmo, w.unique_id))
                .or_default()
                .insert(t.coord, e);
            assert!(
                prev.is_none(),
                "tile {:?} lists WMO {} twice",
                t.coord,
                w.unique_id
            );
        }
    }
    out
}

/// The model path a target's files name: the 0.5.x and 0.6.0 clients load `.mdx` doodads
/// (`docs/conversion.md`), written here by hand rather than by the converter under test.
fn expected_model(kind: ObjectKind, name: &str, target: Generation) -> String {
    let mdx = matches!(target, Generation::Alpha053 | Generation::V060);
    if kind == ObjectKind::Doodad && mdx && name.to_ascii_lowercase().ends_with(".m2") {
        format!("{}.mdx", &name[..name.len() - 3])
    } else {
        name.to_string()
    }
}

/// Within the f32 precision of a placement record: file coordinates reach 17066 yd, where one
/// f32 step is 0.002 yd.
fn close(a: [f64; 3], b: [f64; 3]) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() <= 0.005)
}

fn assert_same_objects(target: Generation, before: &Objects, back: &Objects) {
    assert_eq!(
        back.keys().collect::<Vec<_>>(),
        before.keys().collect::<Vec<_>>(),
        "{target}: the same objects"
    );
    for (key, tiles) in before {
        let got = &back[key];
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            tiles.keys().collect::<Vec<_>>(),
            "{target}: {key:?} is listed by the same tiles"
        );
        for (coord, e) in tiles {
            let g = &got[coord];
            let what = format!("{target}: {key:?} in tile {coord:?}");
            assert_eq!(g.model, expected_model(key.0, &e.model, target), "{what}");
            assert!(
                close(g.position, e.position),
                "{what}: {:?} vs {:?}",
                g.position,
                e.position
            );
            assert_eq!(g.rotation, e.rotation, "{what}: rotation");
            assert_eq!(g.scale, e.scale, "{what}: scale");
            assert_eq!(g.flags, e.flags, "{what}: flags");
            assert_eq!(g.doodad_set, e.doodad_set, "{what}: doodad set");
            if let (Some(a), Some(b)) = (g.bounds, e.bounds) {
                assert!(
                    close(a.0, b.0) && close(a.1, b.1),
                    "{what}: bounds {a:?} vs {b:?}"
                );
            }
            assert_eq!(g.chunks, e.chunks, "{what}: MCRF chunks");
        }
    }
}

#[test]
fn placed_objects_come_back_from_every_generation() {
    let (map, placed) = placed_map();
    let before = objects(&map);
    // The edit did what the test means to save: each placed object in exactly its tiles, named
    // by at least one chunk of each.
    for (key, tiles) in &placed {
        let listed: BTreeSet<TileCoord> = before[key].keys().copied().collect();
        assert_eq!(&listed, tiles, "{key:?}");
        assert!(
            before[key].values().all(|e| !e.chunks.is_empty()),
            "{key:?}"
        );
    }
    for target in TARGETS {
        let mut prepared = map.clone();
        loam::convert::prepare_map(&mut prepared, Generation::V335, target);
        let files = pipeline::encode_map(&prepared, target, true, None).unwrap();
        let dir = tempfile::tempdir().unwrap();
        disk::write_files(dir.path(), &files, |_| {}).unwrap();
        // A 0.6.0 map without liquid has nothing its bytes prove it by (see `format::evidence`),
        // so it is read as 0.6.0 by choice, as `--from 0.6.0` would; the others are sniffed.
        let from = (target == Generation::V060).then_some(target);
        let opened = pipeline::open_map_as(&dir.path().join("Sample.wdt"), from).unwrap();
        assert_eq!(opened.generation, target);
        assert!(opened.failed.is_empty(), "{target}: {:?}", opened.failed);
        assert_eq!(opened.map.tiles.len(), 4, "{target}");
        assert_same_objects(target, &before, &objects(&opened.map));
        if target == Generation::Alpha053 {
            let bytes = std::fs::read(dir.path().join("Sample.wdt")).unwrap();
            assert_alpha_rules(&bytes, &map, true);
        }
    }
}

#[test]
fn objects_edited_on_a_map_read_from_0_5_3_save_back_to_it() {
    let (mut map, placed) = placed_map();
    loam::convert::prepare_map(&mut map, Generation::V335, Generation::Alpha053);
    let dir = tempfile::tempdir().unwrap();
    let files = pipeline::encode_map(&map, Generation::Alpha053, true, None).unwrap();
    disk::write_files(dir.path(), &files, |_| {}).unwrap();
    let mut map = pipeline::open_map(&dir.path().join("Sample.wdt"))
        .unwrap()
        .map;
    assert!(map.map_wide_names.is_some(), "the read keeps MDNM/MONM");

    // On the alpha map: a doodad with a name MDNM has, a new model across the border between
    // columns 31 and 32, the hut moved into one tile, the corner stone deleted.
    let mut history = History::default();
    let fern = FERN.replace(".m2", ".mdx");
    let moss = "World\\Loam\\Test\\Moss.mdx";
    let (stone, hut) = (placed[2].0.1, placed[3].0.1);
    let mv = ObjectOp {
        uid: Some(hut),
        position: Some(vec![-100.0, -300.0]),
        ..op(ObjectTool::Move)
    };
    let delete = ObjectOp {
        uid: Some(stone),
        ..op(ObjectTool::Delete)
    };
    for op in [
        place(&fern, &[-200.0, -200.0], [0.0, 15.0, 0.0], None),
        place(moss, &[300.0, 0.3, 10.0], [0.0; 3], Some(2.0)),
        mv,
        delete,
    ] {
        object_ops::apply(&mut map, &op, &mut history, &model_box).unwrap();
    }
    let before = objects(&map);
    let moss_tiles: Vec<BTreeSet<TileCoord>> = before
        .values()
        .filter(|t| t.values().any(|e| e.model == moss))
        .map(|t| t.keys().copied().collect())
        .collect();
    assert_eq!(moss_tiles, [BTreeSet::from([at(31, 31), at(32, 31)])]);
    assert_eq!(
        before[&(ObjectKind::Wmo, hut)].keys().collect::<Vec<_>>(),
        [&at(32, 32)]
    );
    assert!(!before.contains_key(&(ObjectKind::Doodad, stone)));

    let files = pipeline::encode_map(&map, Generation::Alpha053, true, None).unwrap();
    let out = tempfile::tempdir().unwrap();
    disk::write_files(out.path(), &files, |_| {}).unwrap();
    let back = pipeline::open_map(&out.path().join("Sample.wdt")).unwrap();
    assert_eq!(back.generation, Generation::Alpha053);
    assert_same_objects(Generation::Alpha053, &before, &objects(&back.map));
    let bytes = std::fs::read(out.path().join("Sample.wdt")).unwrap();
    assert_alpha_rules(&bytes, &map, false);
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// The names of an MDNM/MONM payload, and the count MPHD must store for them.
fn names_of(payload: &[u8]) -> Vec<String> {
    payload
        .split(|&b| b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect()
}

/// The rules of `alpha-0.5.3.md` ("What existing readers of this format require", and the MPHD
/// name counts) on a written 0.5.3 WDT of `map`'s four tiles. `only_used`: MDNM/MONM hold no
/// name that no record uses (a map read from 0.5.3 keeps its lists, unused names and all).
fn assert_alpha_rules(bytes: &[u8], map: &Map, only_used: bool) {
    let mphd = 20;
    let main = mphd + 128;
    assert_eq!(&bytes[main..main + 4], b"NIAM");
    // MDNM right after MAIN, MONM right after MDNM.
    let mdnm_at = u32_at(bytes, mphd + 4) as usize;
    assert_eq!(mdnm_at, main + 8 + 65536);
    assert_eq!(&bytes[mdnm_at..mdnm_at + 4], b"MNDM");
    let mdnm_len = u32_at(bytes, mdnm_at + 4) as usize;
    let monm_at = u32_at(bytes, mphd + 12) as usize;
    assert_eq!(monm_at, mdnm_at + 8 + mdnm_len);
    assert_eq!(&bytes[monm_at..monm_at + 4], b"MNOM");
    let monm_len = u32_at(bytes, monm_at + 4) as usize;
    let mdnm = names_of(&bytes[mdnm_at + 8..mdnm_at + 8 + mdnm_len]);
    let monm = names_of(&bytes[monm_at + 8..monm_at + 8 + monm_len]);
    // Each name once, and exactly the names the tiles use (renamed for MDX by hand).
    let want = |kind: ObjectKind| -> BTreeSet<String> {
        map.tiles
            .values()
            .flat_map(|t| match kind {
                ObjectKind::Doodad => t
                    .doodads
                    .iter()
                    .map(|d| t.doodad_names[d.name_index as usize].clone())
                    .collect::<Vec<_>>(),
                ObjectKind::Wmo => t
                    .wmos
                    .iter()
                    .map(|w| t.wmo_names[w.name_index as usize].clone())
                    .collect(),
            })
            .map(|n| expected_model(kind, &n, Generation::Alpha053))
            .collect()
    };
    for (names, kind, count_at) in [
        (&mdnm, ObjectKind::Doodad, mphd),
        (&monm, ObjectKind::Wmo, mphd + 8),
    ] {
        let distinct: BTreeSet<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
        assert_eq!(
            distinct.len(),
            names.len(),
            "{kind:?} names repeat: {names:?}"
        );
        let set: BTreeSet<String> = names.iter().cloned().collect();
        let used = want(kind);
        assert!(
            used.is_subset(&set),
            "{kind:?} names {set:?} lack some of {used:?}"
        );
        if only_used {
            assert_eq!(set, used, "{kind:?} names");
        }
        // The count is the names plus the empty string after the last (0 for none).
        assert_eq!(
            u32_at(bytes, count_at) as usize,
            names.len() + 1,
            "{kind:?} count"
        );
    }
    assert!(
        mdnm.contains(&"World\\Loam\\Test\\Stone.mdx".to_string()),
        "{mdnm:?}"
    );
    assert!(monm.contains(&HUT.to_string()), "{monm:?}");

    // MAIN: each present tile has an offset and a size; the first tile follows MONM.
    let mut present = Vec::new();
    for i in 0..4096 {
        let e = main + 8 + i * 16;
        let (offset, size) = (u32_at(bytes, e) as usize, u32_at(bytes, e + 4) as usize);
        if offset == 0 && size == 0 {
            continue;
        }
        assert!(
            offset != 0 && size != 0,
            "MAIN {i}: offset {offset} size {size}"
        );
        present.push((i, offset, size));
    }
    let want_tiles: Vec<usize> = map
        .tiles
        .keys()
        .map(|c| c.index())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(present.iter().map(|p| p.0).collect::<Vec<_>>(), want_tiles);
    assert_eq!(
        present[0].1,
        monm_at + 8 + monm_len,
        "first MHDR right after MONM"
    );

    for (i, mhdr, size) in present {
        assert_eq!(&bytes[mhdr..mhdr + 4], b"RDHM", "tile {i}");
        let base = mhdr + 8;
        assert_eq!(u32_at(bytes, base), 64, "offsInfo");
        let mcin = base + 64;
        assert_eq!(&bytes[mcin..mcin + 4], b"NICM");
        let mtex = base + u32_at(bytes, base + 4) as usize;
        assert_eq!(mtex, mcin + 8 + 4096);
        assert_eq!(&bytes[mtex..mtex + 4], b"XETM");
        let mddf = base + u32_at(bytes, base + 12) as usize;
        assert_eq!(mddf, mtex + 8 + u32_at(bytes, mtex + 4) as usize);
        assert_eq!(&bytes[mddf..mddf + 4], b"FDDM");
        let mddf_len = u32_at(bytes, mddf + 4) as usize;
        assert_eq!(mddf_len % 36, 0);
        let modf = base + u32_at(bytes, base + 20) as usize;
        assert_eq!(modf, mddf + 8 + mddf_len);
        assert_eq!(&bytes[modf..modf + 4], b"FDOM");
        let modf_len = u32_at(bytes, modf + 4) as usize;
        assert_eq!(modf_len % 64, 0);
        assert_eq!(
            mhdr + size,
            modf + 8 + modf_len,
            "size reaches the first MCNK"
        );
        let (n_doodads, n_wmos) = (mddf_len / 36, modf_len / 64);
        for k in 0..n_doodads {
            let name = u32_at(bytes, mddf + 8 + k * 36) as usize;
            assert!(
                name < mdnm.len(),
                "tile {i} MDDF {k} names {name} of {}",
                mdnm.len()
            );
        }
        for k in 0..n_wmos {
            let name = u32_at(bytes, modf + 8 + k * 64) as usize;
            assert!(
                name < monm.len(),
                "tile {i} MODF {k} names {name} of {}",
                monm.len()
            );
        }
        for c in 0..256 {
            let at = u32_at(bytes, mcin + 8 + c * 16) as usize;
            assert_eq!(&bytes[at..at + 4], b"KNCM", "tile {i} MCIN {c}");
            let h = at + 8;
            let data = h + 128;
            assert_ne!(
                u32_at(bytes, h + 0x5C),
                0,
                "tile {i} chunk {c}: end of data"
            );
            assert_eq!(&bytes[h + 0x42..h + 0x44], &[0, 0], "holes padding");
            let (nd, nw) = (
                u32_at(bytes, h + 0x14) as usize,
                u32_at(bytes, h + 0x3C) as usize,
            );
            let mcrf = data + u32_at(bytes, h + 0x24) as usize;
            assert_eq!(&bytes[mcrf..mcrf + 4], b"FRCM");
            assert_eq!(u32_at(bytes, mcrf + 4) as usize, (nd + nw) * 4);
            for k in 0..nd + nw {
                let r = u32_at(bytes, mcrf + 8 + k * 4) as usize;
                let records = if k < nd { n_doodads } else { n_wmos };
                assert!(
                    r < records,
                    "tile {i} chunk {c} MCRF {k}: record {r} of {records}"
                );
            }
        }
    }
}
