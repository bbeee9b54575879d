//! Shadows cast by models (`edit::derived::model_shadows`): the corpus troll tent (a WMO) and rabbit (an
//! M2), placed on a sloping tile, cast shadow bits that agree with a ray cast written here from
//! the definition (from each cell's centre on the ground toward the sun, against every placed
//! triangle, Möller–Trumbore) in at least 97% of the cells around them; shadows only add to
//! what a terrain bake set; `loam fix --shadows --models` writes them.

mod common;

use std::sync::Arc;

use common::{corpus_file, text};
use loam::edit::derived::model_shadows::{self, Caster, Shape};
use loam::edit::derived::shadows::Sun;
use loam::model::{DoodadPlacement, Tile, TileCoord, WmoPlacement};

/// The model's triangles as loam's reader gives them (a companion group or skin read beside it).
fn shape(rel: &str) -> Shape {
    let fetch = |p: &str| {
        let path = std::path::Path::new(p);
        std::fs::read(path).ok().or_else(|| {
            let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
            std::fs::read_dir(path.parent()?)
                .ok()?
                .flatten()
                .find(|e| e.file_name().to_string_lossy().to_ascii_lowercase() == name)
                .and_then(|e| std::fs::read(e.path()).ok())
        })
    };
    let model = loam::assets::models::read_model(&corpus_file(rel).to_string_lossy(), &fetch)
        .unwrap_or_else(|e| panic!("{rel}: {e}"));
    Arc::new(model.mesh().triangles())
}

/// A tile sloping up toward the east by 1 yd in 20.
fn slope(coord: TileCoord) -> Tile {
    let mut t = Tile::flat(coord, "A.blp", 0.0);
    for (i, c) in t.chunks.iter_mut().enumerate() {
        for k in 0..145 {
            let [_, y] = loam::model::coords::vertex_world_xy(coord, i % 16, i / 16, k);
            c.heights[k] = ((coord.north_west()[1] - y) / 20.0) as f32;
        }
    }
    t
}

/// The tent (name 0) at `position`, turned `turn` degrees about up, with a box 20 yd around.
fn tent_at(position: [f64; 3], turn: f32) -> WmoPlacement {
    WmoPlacement {
        name_index: 0,
        unique_id: 1,
        position,
        rotation: [0.0, turn, 0.0],
        bounds_min: position.map(|v| v - 20.0),
        bounds_max: position.map(|v| v + 20.0),
        flags: 0,
        doodad_set: 0,
        name_set: 0,
        scale: 0,
    }
}

/// The placed triangles in world space: the record's turn about up (y angle), then west, then
/// north, then the scale, as the ADT documents' placement matrix reads in world axes.
fn placed(shape: &Shape, c: &Caster) -> Vec<[[f64; 3]; 3]> {
    let [rx, ry, rz] = c.rotation.map(|d| f64::from(d).to_radians());
    let turn = |v: [f32; 3]| -> [f64; 3] {
        let [x, y, z] = v.map(|a| f64::from(a) * f64::from(c.scale));
        // About north (x) by rz.
        let (y, z) = (y * rz.cos() - z * rz.sin(), y * rz.sin() + z * rz.cos());
        // About west (y) by rx.
        let (x, z) = (x * rx.cos() + z * rx.sin(), -x * rx.sin() + z * rx.cos());
        // About up (z) by ry.
        let (x, y) = (x * ry.cos() - y * ry.sin(), x * ry.sin() + y * ry.cos());
        [x + c.position[0], y + c.position[1], z + c.position[2]]
    };
    shape.iter().map(|t| t.map(turn)).collect()
}

#[test]
fn models_cast_the_shadows_a_ray_cast_from_the_definition_finds() {
    let coord = TileCoord::new(32, 32).unwrap();
    let mut tile = slope(coord);
    let [nx, ny] = coord.north_west();
    let ground = |y: f64| (ny - y) / 20.0;
    let tent = shape("blizzardry/trolltent.wmo");
    let rabbit = shape("blizzardry/Rabbit.m2");
    assert!(
        tent.len() > 50 && rabbit.len() > 50,
        "{} {}",
        tent.len(),
        rabbit.len()
    );
    let (tx, ty) = (nx - 250.0, ny - 260.0);
    let (rx, ry) = (nx - 280.0, ny - 300.0);
    tile.wmo_names = vec!["World\\trolltent.wmo".into()];
    tile.doodad_names = vec!["World\\Rabbit.m2".into()];
    tile.wmos.push(tent_at([tx, ty, ground(ty)], 37.0));
    tile.doodads.push(DoodadPlacement {
        name_index: 0,
        unique_id: 2,
        position: [rx, ry, ground(ry)],
        rotation: [0.0, 200.0, 0.0],
        scale: 4096,
        flags: 0,
    });
    let sun = Sun::new(315.0, 40.0).unwrap();
    let casters = model_shadows::casters_of(&tile);
    let shape_of = |m: &str| match m {
        "World\\trolltent.wmo" => Some(tent.clone()),
        "World\\Rabbit.m2" => Some(rabbit.clone()),
        _ => None,
    };
    let heights = |_: f64, y: f64| Some(ground(y) as f32);
    let cast = model_shadows::cast_onto(&mut tile, &casters, sun, &shape_of, &heights);
    assert_eq!(cast.objects, 2);
    assert!(cast.cells > 500, "{} cells", cast.cells);

    // The definition: a cell is shadowed when the ray from its centre on the ground toward
    // the sun meets a placed triangle.
    let world: Vec<[[f64; 3]; 3]> = casters
        .iter()
        .flat_map(|c| placed(if c.unique_id == 1 { &tent } else { &rabbit }, c))
        .collect();
    let (az, el) = (sun.azimuth.to_radians(), sun.elevation.to_radians());
    let d = [az.cos() * el.cos(), -az.sin() * el.cos(), el.sin()];
    let cell = 1600.0 / 3.0 / 1024.0;
    let (mut agree, mut all, mut shadowed) = (0u32, 0u32, 0u32);
    // Cells within 80 yd of either object (their shadows and the ground around them).
    for r in 0..1024usize {
        for k in 0..1024usize {
            let (x, y) = (nx - (r as f64 + 0.5) * cell, ny - (k as f64 + 0.5) * cell);
            let near = |(ox, oy): (f64, f64)| (x - ox).abs() < 80.0 && (y - oy).abs() < 80.0;
            if !near((tx, ty)) && !near((rx, ry)) {
                continue;
            }
            let o = [x, y, ground(y) + 1e-4];
            let truth = world.iter().any(|t| common::meets(o, d, t));
            let c = &tile.chunks[(r / 64) * 16 + k / 64];
            let bit = c.shadow.as_ref().is_some_and(|s| s.get(r % 64, k % 64));
            all += 1;
            agree += u32::from(bit == truth);
            shadowed += u32::from(truth);
        }
    }
    let share = f64::from(agree) / f64::from(all);
    assert!(
        shadowed > 500,
        "{shadowed} cells in the shadows by the definition"
    );
    assert!(share >= 0.97, "{agree} of {all} cells agree ({share:.4})");
    eprintln!("model shadows: {agree} of {all} cells agree ({share:.4}), {shadowed} shadowed");
}

#[test]
fn model_shadows_only_add_to_a_terrain_bake() {
    let coord = TileCoord::new(32, 32).unwrap();
    let mut tile = slope(coord);
    let [nx, ny] = coord.north_west();
    tile.wmo_names = vec!["World\\trolltent.wmo".into()];
    tile.wmos.push(tent_at([nx - 100.0, ny - 100.0, 5.0], 0.0));
    // A terrain bake's bits, here every other row of chunk 0.
    tile.chunks[0].shadow = Some(loam::model::ShadowMap {
        rows: Box::new(std::array::from_fn(
            |r| if r % 2 == 0 { u64::MAX } else { 0 },
        )),
    });
    let before: Vec<_> = tile.chunks.iter().map(|c| c.shadow.clone()).collect();
    let tent = shape("blizzardry/trolltent.wmo");
    let casters = model_shadows::casters_of(&tile);
    let cast = model_shadows::cast_onto(
        &mut tile,
        &casters,
        Sun::DEFAULT,
        &|_| Some(tent.clone()),
        &|_, y| Some(((ny - y) / 20.0) as f32),
    );
    assert!(!cast.changed.is_empty());
    for (b, c) in before.iter().zip(&tile.chunks) {
        if let Some(b) = b {
            let a = c.shadow.as_ref().unwrap();
            for (rb, ra) in b.rows.iter().zip(a.rows.iter()) {
                assert_eq!(rb & ra, *rb, "a bit the terrain set stays set");
            }
        }
    }
    // A model the caller cannot give is listed, not cast.
    let cast = model_shadows::cast_onto(&mut tile, &casters, Sun::DEFAULT, &|_| None, &|_, _| None);
    assert_eq!(cast.objects, 0);
    assert!(cast.missing.contains("World\\trolltent.wmo"));
}

#[test]
fn fix_shadows_with_models_reads_them_from_the_maps_folder() {
    // A lone tile with the tent beside it: `--models` finds it in the map's folder.
    let dir = tempfile::tempdir().unwrap();
    let coord = TileCoord::new(32, 32).unwrap();
    common::loam_new("Tent", "3.3.5", "32 32 32 32", &[], dir.path());
    let wdt = dir.path().join("Tent.wdt");
    let mut opened = loam::pipeline::open_map(&wdt).unwrap();
    let mut tile = slope(coord);
    let [nx, ny] = coord.north_west();
    tile.wmo_names = vec!["trolltent.wmo".into()];
    tile.wmos.push(tent_at([nx - 200.0, ny - 200.0, 10.0], 0.0));
    opened.map.tiles.insert(coord, tile);
    let files =
        loam::pipeline::encode_map(&opened.map, opened.generation, opened.writes_wdt(), None)
            .unwrap();
    loam::disk::write_files(dir.path(), &files, |_| {}).unwrap();
    for f in ["trolltent.wmo", "trolltent_000.wmo"] {
        std::fs::copy(corpus_file(&format!("blizzardry/{f}")), dir.path().join(f)).unwrap();
    }
    let shadowed = |out: &std::path::Path| -> u32 {
        let map = loam::pipeline::open_map(&out.join("Tent.wdt")).unwrap().map;
        map.tiles[&coord]
            .chunks
            .iter()
            .filter_map(|c| c.shadow.as_ref())
            .map(|s| s.rows.iter().map(|r| r.count_ones()).sum::<u32>())
            .sum()
    };
    let plain = dir.path().join("plain");
    let o = common::loam_on(&["fix", "--shadows"], &wdt, &plain);
    assert!(o.status.success(), "{}", text(&o));
    let with = dir.path().join("with");
    let o = common::loam_on(&["fix", "--shadows", "--models"], &wdt, &with);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("model shadows: 1 object(s) cast"),
        "{}",
        text(&o)
    );
    let (a, b) = (shadowed(&plain), shadowed(&with));
    assert!(b > a + 200, "the tent adds its shadow: {a} → {b}");
}

#[test]
fn edit_bake_shadows_with_models_adds_their_shadows_in_one_undo_step() {
    use loam::doc::editing::Editing;
    let coord = TileCoord::new(32, 32).unwrap();
    let mut map = loam::model::Map::new("Tent");
    let mut tile = slope(coord);
    let [nx, ny] = coord.north_west();
    tile.wmo_names = vec!["World\\trolltent.wmo".into()];
    tile.wmos.push(tent_at([nx - 150.0, ny - 150.0, 7.5], 0.0));
    map.tiles.insert(coord, tile);
    let before = map.clone();
    let tent = shape("blizzardry/trolltent.wmo");
    let shapes = |p: &str| (p == "World\\trolltent.wmo").then(|| tent.clone());
    let shadowed = |m: &loam::model::Map| -> u32 {
        m.tiles[&coord]
            .chunks
            .iter()
            .filter_map(|c| c.shadow.as_ref())
            .map(|s| s.rows.iter().map(|r| r.count_ones()).sum::<u32>())
            .sum()
    };
    // Terrain alone: a gentle slope casts nothing.
    let mut editing = Editing::default();
    let mut terrain = map.clone();
    editing.bake_shadows_of(&mut terrain, None, Some(&shapes));
    assert_eq!(shadowed(&terrain), 0, "the setting is off by default");
    editing.settings.shadow_models = true;
    let ((_, touched), cast) = editing.bake_shadows_of(&mut map, None, Some(&shapes));
    let cast = cast.unwrap();
    assert_eq!(cast.objects, 1);
    assert!(shadowed(&map) > 200, "{}", shadowed(&map));
    assert!(!touched.is_empty());
    assert_eq!(editing.history.labels().1, 2, "one step for this bake");
    editing.undo(&mut map);
    assert_eq!(shadowed(&map), 0);
    assert_eq!(map.tiles[&coord].wmos, before.tiles[&coord].wmos);
}
