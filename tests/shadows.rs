//! Baked shadows (issue 32): `loam fix --shadows` writes MCSH and the MCNK flag that another
//! reader (`wow-adt`) finds, with bits that agree with a ray cast written here from the
//! definition (docs/shadows.md), not with loam's baker; and the baker never panics on odd
//! heights.

mod common;

use common::{corpus_file, loam, text};
use loam::edit::derived::shadows::{Sun, Terrain};
use loam::model::{Map, Tile, TileCoord};
use proptest::prelude::*;

/// Yards between two outer vertices.
const UNIT: f64 = 100.0 / 24.0;

/// One tile's heights as `wow-adt` reads them from the file: outer vertices on a 129×129 grid
/// and inner ones on 128×128, row 0 the north edge, column 0 the west.
struct Heights {
    outer: Vec<f64>,
    inner: Vec<f64>,
}

impl Heights {
    fn outer(&self, col: usize, row: usize) -> f64 {
        self.outer[row * 129 + col]
    }

    /// The four triangles of quad (`qx`, `qy`) in (east, south, up) yards.
    fn triangles(&self, qx: usize, qy: usize) -> [[[f64; 3]; 3]; 4] {
        let p =
            |col: usize, row: usize| [col as f64 * UNIT, row as f64 * UNIT, self.outer(col, row)];
        let m = [
            (qx as f64 + 0.5) * UNIT,
            (qy as f64 + 0.5) * UNIT,
            self.inner[qy * 128 + qx],
        ];
        let (nw, ne, se, sw) = (p(qx, qy), p(qx + 1, qy), p(qx + 1, qy + 1), p(qx, qy + 1));
        [[nw, ne, m], [ne, se, m], [se, sw, m], [sw, nw, m]]
    }
}

/// The surface height at (east, south) yards: the plane of whichever triangle holds the point.
fn surface(h: &Heights, e: f64, s: f64) -> f64 {
    let (qx, qy) = (
        ((e / UNIT) as usize).min(127),
        ((s / UNIT) as usize).min(127),
    );
    for tri in h.triangles(qx, qy) {
        // Barycentric coordinates in the horizontal plane.
        let (a, b, c) = (tri[0], tri[1], tri[2]);
        let det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
        let l1 = ((b[1] - c[1]) * (e - c[0]) + (c[0] - b[0]) * (s - c[1])) / det;
        let l2 = ((c[1] - a[1]) * (e - c[0]) + (a[0] - c[0]) * (s - c[1])) / det;
        let l3 = 1.0 - l1 - l2;
        if l1 >= -1e-9 && l2 >= -1e-9 && l3 >= -1e-9 {
            return l1 * a[2] + l2 * b[2] + l3 * c[2];
        }
    }
    unreachable!("a point of a quad lies in one of its triangles")
}

/// True when a ray from the surface at (east, south) toward the sun meets a triangle of the
/// tile. The quads under the ray are walked in order (a grid traversal), until the ray leaves
/// the tile or rises above its highest vertex.
fn shadowed(h: &Heights, top: f64, e: f64, s: f64, sun: (f64, f64)) -> bool {
    let (az, el) = (sun.0.to_radians(), sun.1.to_radians());
    let d = [az.sin() * el.cos(), -az.cos() * el.cos(), el.sin()];
    let o = [e, s, surface(h, e, s) + 0.005];
    let (mut qx, mut qy) = ((e / UNIT) as i64, (s / UNIT) as i64);
    let step = |v: f64| if v > 0.0 { 1 } else { -1 };
    let (sx, sy) = (step(d[0]), step(d[1]));
    // Ray length (along d) to the next vertical grid line in x and y, and between lines.
    let next = |p: f64, q: i64, dv: f64, sv: i64| {
        if dv.abs() < 1e-12 {
            f64::INFINITY
        } else {
            let line = if sv > 0 { (q + 1) as f64 } else { q as f64 } * UNIT;
            (line - p) / dv
        }
    };
    let (mut tx, mut ty) = (next(e, qx, d[0], sx), next(s, qy, d[1], sy));
    let (dx, dy) = (
        (UNIT / d[0]).abs().min(f64::INFINITY),
        (UNIT / d[1]).abs().min(f64::INFINITY),
    );
    let mut t_in = 0.0;
    while (0..128).contains(&qx) && (0..128).contains(&qy) {
        if o[2] + t_in * d[2] > top {
            return false;
        }
        if h.triangles(qx as usize, qy as usize)
            .iter()
            .any(|tri| common::meets(o, d, tri))
        {
            return true;
        }
        if tx < ty {
            t_in = tx;
            tx += dx;
            qx += sx;
        } else {
            t_in = ty;
            ty += dy;
            qy += sy;
        }
    }
    false
}

/// A chunk's MCNK flags and MCSH bytes, if it has them.
type ChunkShadow = (u32, Option<Vec<u8>>);

/// Reads a written tile with `wow-adt`: its heights, and per chunk (by index_y × 16 + index_x)
/// the flags and the MCSH bytes.
fn read_with_wow_adt(bytes: Vec<u8>) -> (Heights, Vec<ChunkShadow>) {
    let wow_adt::ParsedAdt::Root(root) =
        wow_adt::parse_adt(&mut std::io::Cursor::new(bytes)).expect("wow-adt reads it")
    else {
        panic!("a root ADT")
    };
    let mut h = Heights {
        outer: vec![0.0; 129 * 129],
        inner: vec![0.0; 128 * 128],
    };
    let mut chunks = vec![(0, None); 256];
    assert_eq!(root.mcnk_chunks.len(), 256);
    for c in &root.mcnk_chunks {
        let (cx, cy) = (c.header.index_x as usize, c.header.index_y as usize);
        // Heights are relative to the header position's height: its third value.
        let base = c.header.position[2] as f64;
        let mcvt = &c.heights.as_ref().expect("MCVT").heights;
        for row in 0..=8 {
            for col in 0..=8 {
                h.outer[(cy * 8 + row) * 129 + cx * 8 + col] = base + mcvt[row * 17 + col] as f64;
                if row < 8 && col < 8 {
                    h.inner[(cy * 8 + row) * 128 + cx * 8 + col] =
                        base + mcvt[row * 17 + 9 + col] as f64;
                }
            }
        }
        chunks[cy * 16 + cx] = (
            c.header.flags.value,
            c.shadow.as_ref().map(|s| s.shadow_map.clone()),
        );
    }
    (h, chunks)
}

fn fix_shadows(tile: &str, sun: Option<(&str, &str)>) -> (Vec<u8>, String) {
    let out = tempfile::tempdir().unwrap();
    let src = corpus_file(tile);
    let mut args: Vec<std::ffi::OsString> = vec!["fix".into(), "--shadows".into()];
    if let Some((az, el)) = sun {
        args.extend(["--sun".into(), az.into(), el.into()]);
    }
    args.extend([src.clone().into_os_string(), out.path().as_os_str().into()]);
    let o = loam(&args);
    assert!(o.status.success(), "{}", text(&o));
    let name = src.file_name().unwrap();
    (std::fs::read(out.path().join(name)).unwrap(), text(&o))
}

#[test]
fn baked_bits_agree_with_a_ray_cast_from_the_definition() {
    // A rugged tile (Eastern Plaguelands) and a low sun, so that the shadows are many and
    // an empty map could not pass.
    let sun = (315.0, 30.0);
    let (bytes, report) = fix_shadows("wowserhq-format/map/continent4229.adt", Some(("315", "30")));
    assert!(report.contains("shadows: 256 chunks baked"), "{report}");
    let (h, chunks) = read_with_wow_adt(bytes);
    let top = h
        .outer
        .iter()
        .chain(&h.inner)
        .copied()
        .fold(f64::MIN, f64::max);
    let (mut agree, mut total, mut set) = (0u64, 0u64, 0u64);
    for (i, (flags, mcsh)) in chunks.iter().enumerate() {
        assert_eq!(flags & 1, 1, "chunk {i}: the has-shadow flag");
        let mcsh = mcsh.as_ref().expect("an MCSH in every chunk");
        assert_eq!(mcsh.len(), 512);
        let (cx, cy) = (i % 16, i / 16);
        // Every third cell each way: 22 × 22 cells of each of the 256 chunks.
        for r in (0..64).step_by(3) {
            for c in (0..64).step_by(3) {
                let e = (cx as f64 * 8.0 + (c as f64 + 0.5) / 8.0) * UNIT;
                let s = (cy as f64 * 8.0 + (r as f64 + 0.5) / 8.0) * UNIT;
                let expected = shadowed(&h, top, e, s, sun);
                // Row r is 8 bytes, column c is bit c % 8 of byte c / 8, LSB first.
                let bit = mcsh[r * 8 + c / 8] >> (c % 8) & 1 == 1;
                agree += (bit == expected) as u64;
                set += expected as u64;
                total += 1;
            }
        }
    }
    let share = agree as f64 / total as f64;
    let shadowed_share = set as f64 / total as f64;
    assert!(
        (0.2..0.8).contains(&shadowed_share),
        "the reference shadows {shadowed_share:.3} of the cells: too few or too many to test"
    );
    assert!(share >= 0.97, "{agree} of {total} cells agree ({share:.4})");
}

#[test]
fn chunks_without_a_shadow_map_get_one_and_the_flag() {
    // Northrend_37_25 lacks MCSH in 3 chunks (corpus README); the fix gives all 256 one.
    let before = std::fs::read(corpus_file("warcraft-net/ADT/Northrend_37_25.adt")).unwrap();
    let (_, old) = read_with_wow_adt(before);
    let missing = old.iter().filter(|(_, m)| m.is_none()).count();
    assert_eq!(missing, 3);
    let (after, report) = fix_shadows("warcraft-net/ADT/Northrend_37_25.adt", None);
    assert!(
        report.contains("sun azimuth 315°, elevation 55°"),
        "the default sun: {report}"
    );
    let (_, new) = read_with_wow_adt(after);
    for (i, (flags, mcsh)) in new.iter().enumerate() {
        assert_eq!(flags & 1, 1, "chunk {i}");
        assert_eq!(mcsh.as_ref().map(Vec::len), Some(512), "chunk {i}");
    }
}

#[test]
fn a_bad_sun_is_refused_with_a_message() {
    let out = tempfile::tempdir().unwrap();
    let src = corpus_file("blizzardry/Azeroth_38_46.adt");
    for (az, el) in [("10", "0"), ("10", "91"), ("nan", "30")] {
        let o = loam(&[
            "fix".as_ref(),
            "--shadows".as_ref(),
            "--sun".as_ref(),
            az.as_ref(),
            el.as_ref(),
            src.as_os_str(),
            out.path().as_os_str(),
        ]);
        assert!(!o.status.success(), "--sun {az} {el}");
        assert!(text(&o).contains("sun"), "{}", text(&o));
    }
}

/// A height a careless tool could leave: ordinary, flat, huge, or not a number at all.
fn odd_height() -> impl Strategy<Value = f32> {
    prop_oneof![
        -1000.0f32..1000.0,
        Just(0.0f32),
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(f32::MAX),
        Just(-f32::MAX),
        Just(1e30f32),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_baker_never_panics_on_odd_heights(
        heights in proptest::collection::vec(odd_height(), 145),
        chunk in 0usize..256,
        az in -720.0f64..720.0,
        el in 0.01f64..=90.0,
    ) {
        let coord = TileCoord::new(10, 20).unwrap();
        let mut map = Map::new("Odd");
        let mut tile = Tile::flat(coord, "A.blp", 0.0);
        for (k, c) in tile.chunks.iter_mut().enumerate() {
            for (v, h) in c.heights.iter_mut().enumerate() {
                *h = heights[(v + k) % 145];
            }
        }
        map.tiles.insert(coord, tile);
        let sun = Sun::new(az, el).unwrap();
        let terrain = Terrain::around_tile(&map, coord);
        let (cx, cy) = (10 * 16 + chunk as i32 % 16, 20 * 16 + chunk as i32 / 16);
        let s = terrain.bake_chunk(cx, cy, sun, chunk % 2 == 0);
        // Where the chunk is one plane of ordinary heights no shadow can fall; otherwise any
        // answer is fine as long as there is one.
        if heights.iter().all(|h| *h == heights[0] && h.is_finite()) {
            prop_assert!(s.rows.iter().all(|r| *r == 0));
        }
    }
}

#[test]
fn check_judges_only_shadows_baked_over_terrain_and_finds_the_moved_terrain() {
    use loam::cli::check::check_tile;
    use loam::edit::derived::shadows::{self, Staleness};
    let stale = |t: &Tile| {
        check_tile(t)
            .into_iter()
            .filter(|m| m.contains("stale shadows"))
            .collect::<Vec<_>>()
    };
    // Blizzard's shadows are the models' and are never judged (docs/shadows.md).
    for name in [
        "warcraft-net/ADT/Northrend_37_25.adt",
        "wowserhq-format/map/continent4229.adt",
        "wowserhq-format/map/pvpzone3430.adt",
        "blizzardry/Azeroth_38_46.adt",
    ] {
        let map = loam::pipeline::open_map(&corpus_file(name)).unwrap().map;
        let tile = map.tiles.values().next().unwrap();
        assert!(!Staleness::of(tile, Sun::DEFAULT).judged(), "{name}");
        assert_eq!(stale(tile), Vec::<String>::new(), "{name}");
    }
    // Baked by loam: judged, and up to date.
    let mut map = loam::pipeline::open_map(&corpus_file("wowserhq-format/map/continent4229.adt"))
        .unwrap()
        .map;
    let coord = *map.tiles.keys().next().unwrap();
    shadows::bake_map(&mut map, Sun::DEFAULT, |_, _, _| {});
    let fresh = Staleness::of(&map.tiles[&coord], Sun::DEFAULT);
    assert!(fresh.judged());
    assert_eq!(stale(&map.tiles[&coord]), Vec::<String>::new());
    // A tower raised in chunk 6,6 after the bake shadows its south-east neighbours.
    let tile = map.tiles.get_mut(&coord).unwrap();
    for h in tile.chunks[6 * 16 + 6].heights.iter_mut() {
        *h += 150.0;
    }
    let found = stale(&map.tiles[&coord]);
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("chunk 7,7: stale shadows")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .all(|m| ["chunk 6,", "chunk 7,", "chunk 8,", "chunk 9,"]
                .iter()
                .any(|p| m.starts_with(p))),
        "only chunks down-sun of the tower: {found:?}"
    );
}

/// A 2×2-tile map of gentle slopes with no shadow maps.
fn flat_map() -> Map {
    let mut map = Map::new("Flat");
    for (x, y) in [(31, 31), (32, 31), (31, 32), (32, 32)] {
        let coord = TileCoord::new(x, y).unwrap();
        map.tiles.insert(coord, Tile::flat(coord, "A.blp", 10.0));
    }
    map
}

#[test]
fn edit_bake_shadows_is_one_undo_step() {
    use loam::doc::editing::Editing;
    let mut map = flat_map();
    // A ridge in one tile, so there is a shadow to bake.
    let coord = TileCoord::new(31, 31).unwrap();
    for h in map.tiles.get_mut(&coord).unwrap().chunks[5 * 16 + 5]
        .heights
        .iter_mut()
    {
        *h += 40.0;
    }
    let before = map.clone();
    let mut editing = Editing::default();
    let (baked, touched) = editing.bake_shadows(&mut map);
    assert_eq!(baked.chunks, 4 * 256);
    assert_eq!(touched.len(), 4 * 256, "every chunk gains a map");
    assert!(baked.shadowed > 0);
    let shadowed_chunk = &map.tiles[&coord].chunks[6 * 16 + 6];
    assert!(shadowed_chunk.flags & 1 == 1);
    assert!(
        shadowed_chunk
            .shadow
            .as_ref()
            .unwrap()
            .rows
            .iter()
            .any(|r| *r != 0)
    );
    assert_eq!(editing.history.labels().1, 1, "one step");
    editing.undo(&mut map);
    assert_eq!(map, before);
}

#[test]
fn a_sculpt_stroke_rebakes_the_shadows_around_it_in_its_own_step() {
    use loam::doc::editing::Editing;
    use loam::model::coords;
    let mut map = flat_map();
    let mut editing = Editing::default();
    editing.settings.rebake_shadows = true;
    editing.settings.brush.radius = 15.0;
    editing.settings.brush.strength = 60.0;
    let coord = TileCoord::new(31, 31).unwrap();
    let [x, y] = coords::chunk_north_west(coord, 8, 8);
    let at = [x - 5.0, y - 5.0, 10.0];
    editing.begin(&mut map, at);
    editing.drag(&mut map, at);
    let uids = loam::edit::objects::NewUids::default();
    let touched = editing.end(&mut map, Some(at), (&|_| None, &uids));
    assert!(!touched.is_empty());
    let shadowed: u32 = map.tiles[&coord]
        .chunks
        .iter()
        .filter_map(|c| c.shadow.as_ref())
        .map(|s| s.rows.iter().map(|r| r.count_ones()).sum::<u32>())
        .sum();
    assert!(shadowed > 0, "the raised ground casts a shadow");
    // Only around the stroke: chunks far away have no map yet.
    assert!(map.tiles[&coord].chunks[0].shadow.is_none());
    assert_eq!(editing.history.labels().1, 1, "one step");
    editing.undo(&mut map);
    assert_eq!(map, flat_map());
}

#[test]
fn edit_bake_shadows_casts_from_the_sun_the_settings_hold() {
    use loam::doc::editing::Editing;
    let mut map = flat_map();
    let coord = TileCoord::new(31, 31).unwrap();
    for h in map.tiles.get_mut(&coord).unwrap().chunks[5 * 16 + 5]
        .heights
        .iter_mut()
    {
        *h += 40.0;
    }
    // A low sun in the south-east: the shadow falls the other way than the default's.
    let sun = loam::edit::derived::shadows::Sun::new(135.0, 30.0).unwrap();
    let bake = |sun| {
        let mut m = map.clone();
        loam::edit::derived::shadows::bake_map(&mut m, sun, |_, _, _| {});
        m
    };
    let (expected, default) = (bake(sun), bake(loam::edit::derived::shadows::Sun::DEFAULT));
    assert_ne!(expected, default);
    let mut editing = Editing::default();
    editing.settings.shadow_sun = sun;
    editing.bake_shadows(&mut map);
    assert_eq!(map, expected);
}
