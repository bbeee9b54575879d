//! Placed models drawn offscreen (EGL, Mesa's software device): corpus models where their
//! placement puts them, textured; placeholders for missing models; a WMO's chosen doodad set.
//! Pictures go to `target/render-tests/` like the terrain's.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use glam::{Mat4, Vec3, Vec4};

use loam::app::scene::gl_bridge::GlState;
use loam::app::scene::object_scene::ObjectScene;
use loam::assets::models::{AnyModel, TextureRef, read_model};
use loam::assets::textures::ByteSource;
use loam::model::coords::placement_matrix;
use loam::model::{DoodadPlacement, Map, Tile, TileCoord, WmoPlacement};
use loam::render::camera::Camera;
use loam::render::mesh::build_tile_mesh;
use loam::render::objects::ObjectRenderer;
use loam::render::scene::{DrawList, ObjectFilter};
use loam::render::terrain::TerrainRenderer;
use loam::render::texture_store::texture_key;

const W: i32 = 400;
const H: i32 = 400;

fn corpus(rel: &str) -> PathBuf {
    crate::common::corpus().join(rel)
}

/// Reads a corpus model with its companions from its folder.
fn corpus_model(rel: &str) -> AnyModel {
    let path = corpus(rel);
    let fetch = |p: &str| std::fs::read(p).ok();
    read_model(&path.to_string_lossy(), &fetch).expect("corpus model reads")
}

/// What to draw in one offscreen frame.
struct Frame<'a> {
    camera: Camera,
    tiles: &'a [&'a Tile],
    /// (id, model, per-batch vertex light) uploaded before drawing.
    models: Vec<(u32, &'a AnyModel)>,
    /// Every texture name → one solid colour.
    texture_color: Option<[u8; 4]>,
    list: DrawList,
}

/// Draws `tile` and what `list` names with no model uploaded (boxes and markers only).
fn draw_without_models(camera: Camera, tile: &Tile, list: DrawList, png: &str) -> Vec<u8> {
    let tiles = [tile];
    let frame = Frame {
        camera,
        tiles: &tiles,
        models: vec![],
        texture_color: None,
        list,
    };
    draw(&frame, png)
}

/// Draws a frame into a W×H framebuffer; RGBA rows, top first.
fn draw(frame: &Frame, png: &str) -> Vec<u8> {
    let egl = super::egl();
    let gl = &egl.gl;
    let mut terrain = TerrainRenderer::new(gl).expect("terrain shader");
    let mut objects = ObjectRenderer::new(gl).expect("the object shader compiles");
    for t in frame.tiles {
        terrain
            .upload(gl, &build_tile_mesh(t), &t.textures)
            .unwrap();
    }
    for (id, model) in &frame.models {
        objects.upload(gl, *id, model.mesh(), &[]).expect("upload");
        assert!(objects.has_model(*id));
        if let Some(c) = frame.texture_color {
            for t in &model.mesh().textures {
                if let TextureRef::File(name) = t {
                    objects
                        .set_texture(gl, name, 4, 4, &c.repeat(16))
                        .expect("texture");
                    assert!(objects.has_texture(name));
                }
            }
        }
    }
    // SAFETY: plain GL calls on the current context with objects created here.
    let pixels = unsafe {
        assert_eq!(super::offscreen(gl, W, H), glow::FRAMEBUFFER_COMPLETE);
        let params = super::frame_params(&frame.camera, W, H, super::no_grid());
        terrain.draw(gl, &params);
        let stats = objects.draw(gl, &params, &frame.list);
        let uploaded: usize = frame
            .list
            .models
            .iter()
            .filter(|(id, _)| frame.models.iter().any(|(m, _)| m == id))
            .map(|(_, m)| m.len())
            .sum();
        assert_eq!(
            stats.instances, uploaded,
            "every listed instance of an uploaded model is drawn"
        );
        super::picture(gl, W, H, png)
    };
    objects.destroy(gl);
    terrain.destroy(gl);
    pixels
}

fn pixel(img: &[u8], x: i32, y: i32) -> [u8; 3] {
    super::pixel_in(img, W, x, y)
}

/// Two frames of `tile` with `model` uploaded as `id`: first listed nowhere, then listed once at
/// `matrix`, with every texture the first and then the second of `colors`; saved as
/// `{png}-none.png` and `{png}.png`.
fn without_and_with(
    camera: Camera,
    tile: &Tile,
    (id, model): (u32, &AnyModel),
    colors: [Option<[u8; 4]>; 2],
    matrix: Mat4,
    png: &str,
) -> (Vec<u8>, Vec<u8>) {
    let tiles = [tile];
    let frame = |texture_color, list| Frame {
        camera,
        tiles: &tiles,
        models: vec![(id, model)],
        texture_color,
        list,
    };
    let empty = draw(
        &frame(colors[0], DrawList::default()),
        &format!("{png}-none.png"),
    );
    let placed = draw(
        &frame(
            colors[1],
            DrawList {
                models: vec![(id, vec![matrix])],
                ..DrawList::default()
            },
        ),
        &format!("{png}.png"),
    );
    (empty, placed)
}

/// Where a world point lands in the picture (x right, y down), or `None` behind the eye.
fn project(vp: Mat4, p: Vec3) -> Option<[f32; 2]> {
    let c = vp * Vec4::new(p.x, p.y, p.z, 1.0);
    (c.w > 0.0).then(|| {
        let n = c.truncate() / c.w;
        [
            (n.x * 0.5 + 0.5) * W as f32,
            (1.0 - (n.y * 0.5 + 0.5)) * H as f32,
        ]
    })
}

/// The pixel box (min x, min y, max x, max y) of every vertex of `model` placed by `matrix`.
fn projected_box(vp: Mat4, matrix: Mat4, model: &AnyModel) -> [f32; 4] {
    let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for v in &model.mesh().vertices {
        let [x, y] = project(vp, matrix.transform_point3(Vec3::from(v.position))).unwrap();
        b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
    }
    b
}

/// The pixel box of the pixels that differ between two pictures, and how many differ.
fn changed_box(a: &[u8], b: &[u8]) -> ([i32; 4], usize) {
    let mut bx = [i32::MAX, i32::MAX, i32::MIN, i32::MIN];
    let mut n = 0;
    for y in 0..H {
        for x in 0..W {
            let (p, q) = (pixel(a, x, y), pixel(b, x, y));
            if (0..3).any(|i| (p[i] as i32 - q[i] as i32).abs() > 3) {
                bx = [bx[0].min(x), bx[1].min(y), bx[2].max(x), bx[3].max(y)];
                n += 1;
            }
        }
    }
    (bx, n)
}

/// A flat tile of the sample's texture at height 0, with world (x, y) in its middle.
fn ground() -> (Tile, [f64; 2]) {
    let coord = TileCoord::new(32, 32).unwrap();
    let tile = Tile::flat(coord, "Tileset\\Grass.blp", 0.0);
    let [nx, ny] = coord.north_west();
    (tile, [nx - 266.0, ny - 266.0])
}

fn looking_down(x: f64, y: f64, height: f64) -> Camera {
    Camera {
        position: [x, y, height],
        yaw: 0.0,
        pitch: -1.55,
        fov_y: 50f32.to_radians(),
    }
}

/// Asserts that the picture's changed pixels cover the projected box, to a pixel or two.
fn assert_stands_in(changed: [i32; 4], expected: [f32; 4], what: &str) {
    for i in 0..4 {
        assert!(
            (changed[i] as f32 - expected[i]).abs() <= 2.5,
            "{what}: drawn over {changed:?}, its vertices project to {expected:?}"
        );
    }
}

/// Draws `model` (uploaded as `id`) placed at `place(x, y)` over the flat ground tile at
/// (x, y), looked at from `height` yards up, with `without_and_with`: both frames, the box of the
/// changed pixels and their count. Asserts that the box covers the model's projected vertices.
fn drawn_over_ground(
    (id, model): (u32, &AnyModel),
    height: f64,
    place: impl Fn(f64, f64) -> Mat4,
    colors: [Option<[u8; 4]>; 2],
    png: &str,
) -> (Vec<u8>, Vec<u8>, [i32; 4], usize) {
    let (tile, [x, y]) = ground();
    let camera = looking_down(x, y, height);
    let vp = camera.view_projection(W as f32 / H as f32);
    let matrix = place(x, y);
    let (empty, placed) = without_and_with(camera, &tile, (id, model), colors, matrix, png);
    let (changed, n) = changed_box(&empty, &placed);
    assert_stands_in(changed, projected_box(vp, matrix, model), png);
    (empty, placed, changed, n)
}

#[test]
fn a_corpus_m2_stands_where_its_placement_puts_it_textured() {
    let tank = corpus_model("wowserhq-format/model/tank.m2");
    // Turned a quarter about the up axis, tipped, and twice the size: a wrong rotation order
    // or axis would move the drawn pixels off the projected vertices.
    let place = |x: f64, y: f64| {
        let placement = DoodadPlacement {
            name_index: 0,
            unique_id: 1,
            position: [x + 5.0, y - 3.0, 0.0],
            rotation: [10.0, 90.0, 20.0],
            scale: 2048,
            flags: 0,
        };
        placement_matrix(
            placement.position,
            placement.rotation,
            placement.scale_factor(),
        )
        .as_mat4()
    };
    let red_texture = [None, Some([220, 30, 30, 255])];
    let (empty, placed, changed, n) =
        drawn_over_ground((1, &tank), 60.0, place, red_texture, "objects-m2");
    assert!(n > 200, "the tank covers {n} pixels");
    // Textured: its pixels are the texture's red, lit.
    let mut red = 0;
    for yy in changed[1]..=changed[3] {
        for xx in changed[0]..=changed[2] {
            let p = pixel(&placed, xx, yy);
            if p != pixel(&empty, xx, yy) && p[0] > 2 * p[1].max(p[2]) {
                red += 1;
            }
        }
    }
    assert!(red * 10 > n * 8, "{red} of {n} changed pixels are red");
}

#[test]
fn a_corpus_wmo_stands_where_its_placement_puts_it_textured() {
    let inn = corpus_model("wowserhq-format/mapobj/inn.wmo");
    let place = |x: f64, y: f64| {
        placement_matrix([x - 10.0, y + 4.0, 0.5], [0.0, 30.0, 0.0], 1.0).as_mat4()
    };
    let green = Some([30, 200, 40, 255]);
    let (_, placed, changed, n) =
        drawn_over_ground((7, &inn), 160.0, place, [green, green], "objects-wmo");
    assert!(n > 500, "the inn covers {n} pixels");
    let centre = pixel(
        &placed,
        (changed[0] + changed[2]) / 2,
        (changed[1] + changed[3]) / 2,
    );
    assert!(
        centre[1] > centre[0] && centre[1] > centre[2],
        "textured green at its middle: {centre:?}"
    );
}

/// A byte source over files by game path.
fn source(files: HashMap<String, Vec<u8>>) -> ByteSource {
    Arc::new(move |name: &str| Ok(files.get(&texture_key(name)).cloned()))
}

/// Runs the scene's workers until every model asked for is answered.
fn settle(scene: &mut ObjectScene, map: &Map) {
    let gl = GlState::new(None);
    scene.sync_map(map);
    let start = Instant::now();
    loop {
        scene.poll(&mut gl.lock());
        if scene.is_settled() {
            scene.poll(&mut gl.lock());
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "models never came"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn wmo_placement(name_index: u32, uid: u32, position: [f64; 3], set: u16) -> WmoPlacement {
    WmoPlacement {
        name_index,
        unique_id: uid,
        position,
        rotation: [0.0; 3],
        bounds_min: [position[0] - 8.0, position[1] - 6.0, position[2]],
        bounds_max: [position[0] + 8.0, position[1] + 6.0, position[2] + 10.0],
        flags: 0,
        doodad_set: set,
        name_set: 0,
        scale: 0,
    }
}

#[test]
fn missing_models_draw_placeholders_named_on_hover() {
    let (mut tile, [x, y]) = ground();
    tile.doodad_names = vec!["World\\Gone\\Tree.m2".into()];
    tile.doodads = vec![DoodadPlacement {
        name_index: 0,
        unique_id: 5,
        position: [x + 20.0, y, 0.0],
        rotation: [0.0; 3],
        scale: 2048,
        flags: 0,
    }];
    tile.wmo_names = vec!["World\\Gone\\Keep.wmo".into()];
    tile.wmos = vec![wmo_placement(0, 6, [x - 20.0, y, 0.0], 0)];
    let mut map = Map::new("T");
    map.tiles.insert(tile.coord, tile.clone());
    let mut scene = ObjectScene::new(Arc::new(|| {}));
    scene.start(source(HashMap::new()));
    settle(&mut scene, &map);

    let camera = looking_down(x, y, 120.0);
    let vp = camera.view_projection(W as f32 / H as f32);
    let list = scene.draw_list(vp, camera.eye(), &ObjectFilter::default());
    assert_eq!(list.placeholders.len(), 2);
    assert_eq!(list.model_instances(), 0);
    let img = draw_without_models(camera, &tile, list, "objects-placeholders.png");
    // Magenta over each placement: the doodad's 4-yard box (2 yards, scale 2) and the WMO's
    // record box.
    for (wx, wy) in [(x + 20.0, y), (x - 20.0, y)] {
        let [px, py] = project(vp, Vec3::new(wx as f32, wy as f32, 1.0)).unwrap();
        let p = pixel(&img, px as i32, py as i32);
        assert!(
            p[0] > p[1] + 60 && p[2] > p[1] + 60,
            "magenta at ({px}, {py}): {p:?}"
        );
    }
    // The hover text names the missing path.
    let (origin, dir) = camera.ray(
        {
            let [px, py] = project(vp, Vec3::new((x + 20.0) as f32, y as f32, 1.0)).unwrap();
            [px / W as f32 * 2.0 - 1.0, 1.0 - py / H as f32 * 2.0]
        },
        W as f32 / H as f32,
    );
    let (object, _) = scene
        .pick(origin, dir, &ObjectFilter::default())
        .expect("the placeholder is under the cursor");
    let text = scene.describe(object).unwrap();
    assert!(
        text.contains("World\\Gone\\Tree.m2 (not found)") && text.contains("uid 5"),
        "{text}"
    );
    // Hidden placeholders draw nothing.
    let hidden = ObjectFilter {
        placeholders: false,
        ..ObjectFilter::default()
    };
    assert!(
        scene
            .draw_list(vp, camera.eye(), &hidden)
            .placeholders
            .is_empty()
    );
}

/// The inn's root and present groups by game path.
fn inn_files(game_path: &str) -> HashMap<String, Vec<u8>> {
    let mut files = HashMap::new();
    for (suffix, file) in [
        ("", "inn.wmo"),
        ("_000", "inn_000.wmo"),
        ("_003", "inn_003.wmo"),
    ] {
        let bytes = std::fs::read(corpus("wowserhq-format/mapobj").join(file)).unwrap();
        files.insert(
            texture_key(&game_path.replace(".wmo", &format!("{suffix}.wmo"))),
            bytes,
        );
    }
    files
}

#[test]
fn a_wmo_shows_its_default_set_and_the_chosen_one() {
    let inn = match corpus_model("wowserhq-format/mapobj/inn.wmo") {
        AnyModel::Wmo(w) => w,
        _ => unreachable!(),
    };
    assert!(inn.doodad_sets.len() >= 3, "the inn has several sets");
    let (set1, set2) = (&inn.doodad_sets[1], &inn.doodad_sets[2]);
    assert!(set1.count > 0 && set2.count > 0);
    let path = "World\\wmo\\Inn.wmo";
    let (mut tile, [x, y]) = ground();
    tile.wmo_names = vec![path.into()];
    let position = [x, y, 0.0];
    let mut scene = ObjectScene::new(Arc::new(|| {}));
    let camera = looking_down(x, y, 150.0);
    let vp = camera.view_projection(W as f32 / H as f32);
    let wmo_matrix = placement_matrix(position, [0.0; 3], 1.0);
    // The inn's doodad models are not in the corpus: each shown doodad is a placeholder at
    // its MODD position.
    let shown = |set: u16, scene: &mut ObjectScene, tile: &mut Tile| {
        tile.wmos = vec![wmo_placement(0, 1, position, set)];
        let mut map = Map::new("T");
        map.tiles.insert(tile.coord, tile.clone());
        scene.start(source(inn_files(path)));
        settle(scene, &map);
        let far = ObjectFilter {
            doodad_distance: 10_000.0,
            ..ObjectFilter::default()
        };
        scene.draw_list(vp, camera.eye(), &far)
    };
    let default = inn.doodad_sets[0].count as usize;
    let with1 = shown(1, &mut scene, &mut tile);
    assert_eq!(with1.placeholders.len(), default + set1.count as usize);
    let with2 = shown(2, &mut scene, &mut tile);
    assert_eq!(with2.placeholders.len(), default + set2.count as usize);
    // Where a set-1 doodad stands (and no set-2 or default one near it) the picture with set 1
    // shows a placeholder and the one with set 2 does not.
    let centre = |d: &loam::assets::models::Doodad| -> [f32; 2] {
        let world = wmo_matrix.transform_point3(glam::DVec3::from(d.position.map(f64::from)));
        project(vp, world.as_vec3() + Vec3::Z).unwrap()
    };
    let range =
        |s: &loam::assets::models::DoodadSet| s.first as usize..(s.first + s.count) as usize;
    let others: Vec<[f32; 2]> = inn.doodads[range(&inn.doodad_sets[0])]
        .iter()
        .chain(&inn.doodads[range(set2)])
        .map(centre)
        .collect();
    // The set-1 doodad farthest (on screen) from every default and set-2 doodad: sets B and C
    // furnish the same rooms, so most of their doodads stand close together.
    let on_screen =
        |c: &[f32; 2]| (0.0..W as f32).contains(&c[0]) && (0.0..H as f32).contains(&c[1]);
    let (lonely, gap) = inn.doodads[range(set1)]
        .iter()
        .map(centre)
        .filter(on_screen)
        .map(|c| {
            let gap = others
                .iter()
                .map(|o| (o[0] - c[0]).hypot(o[1] - c[1]))
                .fold(f32::INFINITY, f32::min);
            (c, gap)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("set-1 doodads on screen");
    assert!(
        gap > 8.0,
        "a set-1 doodad away from the others: best gap {gap} px"
    );
    let img1 = draw_without_models(camera, &tile, with1, "objects-wmo-set1.png");
    let img2 = draw_without_models(camera, &tile, with2, "objects-wmo-set2.png");
    let magenta = |p: [u8; 3]| p[0] > p[1] + 60 && p[2] > p[1] + 60;
    let (lx, ly) = (lonely[0] as i32, lonely[1] as i32);
    assert!(magenta(pixel(&img1, lx, ly)), "set 1 shows its doodad");
    assert!(!magenta(pixel(&img2, lx, ly)), "set 2 does not");
}

/// The inn, white-textured, seen from above over the ground with `lights` per batch; returns
/// the pixels of the frame.
fn inn_lit(inn: &AnyModel, lights: &[loam::assets::models::wmo_light::BatchLight]) -> Vec<u8> {
    let (tile, [x, y]) = ground();
    let camera = looking_down(x, y, 160.0);
    let egl = super::egl();
    let gl = &egl.gl;
    let mut terrain = TerrainRenderer::new(gl).expect("terrain shader");
    let mut objects = ObjectRenderer::new(gl).expect("the object shader compiles");
    terrain
        .upload(gl, &build_tile_mesh(&tile), &tile.textures)
        .unwrap();
    objects.upload(gl, 9, inn.mesh(), lights).expect("upload");
    for t in &inn.mesh().textures {
        if let TextureRef::File(name) = t {
            objects
                .set_texture(gl, name, 4, 4, &[255; 4].repeat(16))
                .expect("texture");
        }
    }
    let mut list = DrawList::default();
    list.models.push((
        9,
        vec![placement_matrix([x, y, 0.5], [0.0; 3], 1.0).as_mat4()],
    ));
    // SAFETY: plain GL calls on the current context with objects created here.
    let pixels = unsafe {
        assert_eq!(super::offscreen(gl, W, H), glow::FRAMEBUFFER_COMPLETE);
        let params = super::frame_params(&camera, W, H, super::no_grid());
        terrain.draw(gl, &params);
        objects.draw(gl, &params, &list);
        super::picture(gl, W, H, "objects-wmo-light")
    };
    objects.destroy(gl);
    terrain.destroy(gl);
    pixels
}

#[test]
fn an_interior_group_takes_the_wmo_ambient_and_an_exterior_one_the_sun() {
    use loam::assets::models::wmo_light::BatchLight;
    let inn = corpus_model("wowserhq-format/mapobj/inn.wmo");
    let n = inn.mesh().batches.len();
    let inside = |c: f32| {
        vec![
            BatchLight {
                vertex_colors: false,
                interior_ambient: Some([c; 3]),
            };
            n
        ]
    };
    let dark = inn_lit(&inn, &inside(0.2));
    let bright = inn_lit(&inn, &inside(0.9));
    let brighter = (0..W * H)
        .filter(|i| {
            let (xx, yy) = (i % W, i / W);
            let (d, b) = (pixel(&dark, xx, yy), pixel(&bright, xx, yy));
            b[0] as i32 > d[0] as i32 + 60
        })
        .count();
    assert!(
        brighter > 500,
        "a brighter ambient lights {brighter} pixels more"
    );
    // Exterior batches (no interior ambient) are lit by the sun alone: as a model without
    // per-batch lights, whatever the interior frames did.
    let outside = vec![BatchLight::default(); n];
    assert_eq!(inn_lit(&inn, &outside), inn_lit(&inn, &[]));
    assert_ne!(inn_lit(&inn, &outside), dark);
}
