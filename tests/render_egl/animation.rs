//! Moving water and living models drawn offscreen (EGL, Mesa's software device): the same
//! scene — a flat tile with a pond, the corpus rabbit (whose stand sequence moves its bones)
//! and the corpus tank (whose bones never move) — drawn at two times half a second apart
//! differs on the pond and on the rabbit, and nowhere else. Pictures go to
//! `target/render-tests/` like the terrain's.

use std::sync::Arc;

use glam::{Mat4, Vec3, Vec4};

use loam::assets::models::{AnyModel, read_model};
use loam::edit::terrain::liquid::{self, LiquidEdit, LiquidStyle, Surface};
use loam::edit::{Brush, Stroke};
use loam::model::coords::CHUNK_SIZE;
use loam::model::liquid::liquid_type;
use loam::model::{Map, Tile, TileCoord};
use loam::render::camera::Camera;
use loam::render::liquid::LiquidRenderer;
use loam::render::mesh::build_tile_mesh;
use loam::render::objects::ObjectRenderer;
use loam::render::scene::DrawList;
use loam::render::terrain::TerrainRenderer;

const W: i32 = 320;
const H: i32 = 320;
const GROUND: f64 = 10.0;

fn corpus_model(rel: &str) -> AnyModel {
    let path = crate::common::corpus().join(rel);
    let fetch = |p: &str| std::fs::read(p).ok();
    read_model(&path.to_string_lossy(), &fetch).expect("corpus model reads")
}

/// The scene: the tile with its pond, the models and where they stand.
struct Scene {
    tile: Tile,
    camera: Camera,
    rabbit: AnyModel,
    tank: AnyModel,
    rabbit_at: Mat4,
    tank_at: Mat4,
    pond: ([f64; 2], f64),
}

fn scene() -> Scene {
    let coord = TileCoord::new(30, 30).unwrap();
    let mut map = Map::new("Pond");
    map.tiles.insert(
        coord,
        Tile::flat(coord, "Tileset\\Test\\Grass.blp", GROUND as f32),
    );
    let [nx, ny] = coord.north_west();
    let centre = [nx - 8.5 * CHUNK_SIZE, ny - 8.5 * CHUNK_SIZE];
    let pond = ([centre[0] + 22.0, centre[1]], 10.0);
    let brush = Brush {
        radius: pond.1 as f32,
        inner_radius: pond.1 as f32,
        ..Brush::default()
    };
    let mut stroke = Stroke::new("Add liquid");
    let add = LiquidEdit::Add {
        liquid_type: liquid_type::WATER,
        surface: Surface::Flat(GROUND as f32 + 1.0),
    };
    let changed = liquid::dab(
        &mut map,
        &brush,
        add,
        LiquidStyle::Mh2o,
        pond.0[0],
        pond.0[1],
        &mut stroke,
    );
    assert!(!changed.is_empty());
    let at = |dx: f64, dy: f64, scale: f32| {
        Mat4::from_translation(Vec3::new(
            (centre[0] + dx) as f32,
            (centre[1] + dy) as f32,
            GROUND as f32,
        )) * Mat4::from_scale(Vec3::splat(scale))
    };
    Scene {
        tile: map.tiles.remove(&coord).unwrap(),
        camera: Camera {
            position: [centre[0], centre[1], GROUND + 110.0],
            yaw: 0.0,
            pitch: -1.55,
            fov_y: 45f32.to_radians(),
        },
        rabbit: corpus_model("blizzardry/Rabbit.m2"),
        tank: corpus_model("wowserhq-format/model/tank.m2"),
        rabbit_at: at(-18.0, 8.0, 40.0),
        tank_at: at(-15.0, -22.0, 1.5),
        pond,
    }
}

/// Draws the scene `seconds` into the animations; RGBA rows, top first.
fn draw(s: &Scene, seconds: f64, png: &str) -> Vec<u8> {
    let egl = super::egl();
    let gl = &egl.gl;
    let mut terrain = TerrainRenderer::new(gl).expect("terrain shader");
    let mut objects = ObjectRenderer::new(gl).expect("object shader");
    let mut liquid = LiquidRenderer::new(gl).expect("liquid shader");
    let mesh = build_tile_mesh(&s.tile);
    terrain.upload(gl, &mesh, &s.tile.textures).unwrap();
    liquid.upload(gl, s.tile.coord, &mesh.liquid).unwrap();
    let AnyModel::Model(rabbit) = &s.rabbit else {
        panic!("the rabbit is an M2")
    };
    let rig = Arc::new(rabbit.rig.clone().expect("the rabbit's bones move"));
    objects
        .upload_rigged(gl, 1, &rabbit.mesh, &[], rig)
        .unwrap();
    let AnyModel::Model(tank) = &s.tank else {
        panic!("the tank is an M2")
    };
    assert!(tank.rig.is_none(), "the tank's bones never move");
    objects.upload(gl, 2, &tank.mesh, &[]).unwrap();
    let list = DrawList {
        models: vec![(1, vec![s.rabbit_at]), (2, vec![s.tank_at])],
        ..DrawList::default()
    };
    // SAFETY: plain GL calls on the current context with objects created here.
    let pixels = unsafe {
        super::offscreen(gl, W, H);
        let params = super::frame_params(&s.camera, W, H, super::no_grid());
        terrain.draw(gl, &params);
        assert_eq!(
            objects.pose(gl, &list, seconds),
            1,
            "only the rabbit is posed"
        );
        assert_eq!(objects.pose(gl, &list, seconds), 0, "once per time");
        objects.draw(gl, &params, &list);
        liquid.set_time(seconds);
        liquid.draw(gl, &params, None);
        super::picture(gl, W, H, png)
    };
    liquid.destroy(gl);
    objects.destroy(gl);
    terrain.destroy(gl);
    pixels
}

/// The screen rectangle (x0, y0, x1, y1) around world points, `margin` pixels wider.
fn screen_rect(s: &Scene, points: &[Vec3], margin: f32) -> [f32; 4] {
    let vp = s.camera.view_projection(W as f32 / H as f32);
    let mut r = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for p in points {
        let c = vp * Vec4::new(p.x, p.y, p.z, 1.0);
        let (x, y) = (
            (c.x / c.w + 1.0) * 0.5 * W as f32,
            (1.0 - c.y / c.w) * 0.5 * H as f32,
        );
        r = [r[0].min(x), r[1].min(y), r[2].max(x), r[3].max(y)];
    }
    [r[0] - margin, r[1] - margin, r[2] + margin, r[3] + margin]
}

/// The eight corners of a model-space box placed by `m`.
fn box_corners(m: Mat4, lo: [f32; 3], hi: [f32; 3]) -> Vec<Vec3> {
    (0..8)
        .map(|i| {
            m.transform_point3(Vec3::new(
                if i & 1 == 0 { lo[0] } else { hi[0] },
                if i & 2 == 0 { lo[1] } else { hi[1] },
                if i & 4 == 0 { lo[2] } else { hi[2] },
            ))
        })
        .collect()
}

fn inside(r: [f32; 4], x: i32, y: i32) -> bool {
    (x as f32) >= r[0] && (x as f32) <= r[2] && (y as f32) >= r[1] && (y as f32) <= r[3]
}

#[test]
fn half_a_second_later_only_the_water_and_the_animated_model_have_moved() {
    let s = scene();
    let early = draw(&s, 0.2, "animation-0.2s.png");
    let late = draw(&s, 0.7, "animation-0.7s.png");
    assert_eq!(
        early,
        draw(&s, 0.2, "animation-0.2s-again.png"),
        "a time draws alike"
    );

    // The pond: every liquid quad the brush touched lies within a quad (4⅙ yards) of its circle.
    let (c, r) = s.pond;
    let quad = CHUNK_SIZE / 8.0;
    let reach = (r + 1.5 * quad) as f32;
    let h = GROUND as f32 + 1.0;
    let pond = screen_rect(
        &s,
        &[
            Vec3::new(c[0] as f32 - reach, c[1] as f32 - reach, h),
            Vec3::new(c[0] as f32 + reach, c[1] as f32 + reach, h),
        ],
        1.0,
    );
    // The rabbit: its declared box covers every pose of its animations.
    let AnyModel::Model(rabbit) = &s.rabbit else {
        unreachable!()
    };
    let b = rabbit.file_bounds.union(rabbit.mesh.bounds);
    let rabbit_box = screen_rect(&s, &box_corners(s.rabbit_at, b.min, b.max), 2.0);
    let tb = s.tank.mesh().bounds;
    let tank_box = screen_rect(&s, &box_corners(s.tank_at, tb.min, tb.max), 0.0);

    let (mut in_pond, mut on_rabbit, mut elsewhere, mut tank_drawn) = (0, 0, Vec::new(), 0);
    for y in 0..H {
        for x in 0..W {
            let i = ((y * W + x) * 4) as usize;
            let differs = (0..3).any(|k| early[i + k].abs_diff(late[i + k]) > 1);
            if inside(tank_box, x, y) && !super::is_sky(super::pixel_in(&early, W, x, y)) {
                tank_drawn += 1;
            }
            if !differs {
                continue;
            }
            if inside(pond, x, y) {
                in_pond += 1;
            } else if inside(rabbit_box, x, y) {
                on_rabbit += 1;
            } else {
                elsewhere.push((x, y));
            }
        }
    }
    assert!(in_pond > 500, "the water moved in only {in_pond} pixels");
    assert!(
        on_rabbit > 30,
        "the rabbit moved in only {on_rabbit} pixels"
    );
    assert!(
        tank_drawn > 30,
        "the still tank is in the picture ({tank_drawn} pixels)"
    );
    assert!(
        elsewhere.is_empty(),
        "{} pixels changed outside the pond and the rabbit, e.g. {:?}",
        elsewhere.len(),
        &elsewhere[..elsewhere.len().min(5)]
    );
}
