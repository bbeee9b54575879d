//! Liquid surfaces drawn offscreen (EGL, Mesa's software device) over the terrain: water added
//! over a dip with the liquid tool shows there in water's colour (and its texture, once the
//! store holds it), and removing it shows the terrain again, pixel for pixel. Pictures go to `target/render-tests/` like the terrain's.

use loam::assets::client::CLASSIC_TEXTURES;
use loam::edit::terrain::liquid::{self, LiquidEdit, LiquidStyle, Surface};
use loam::edit::{Brush, Stroke};
use loam::model::coords::{CHUNK_SIZE, vertex_world_xy};
use loam::model::liquid::liquid_type;
use loam::model::{Map, Tile, TileCoord};
use loam::render::camera::Camera;
use loam::render::liquid::LiquidRenderer;
use loam::render::mesh::build_tile_mesh;
use loam::render::terrain::TerrainRenderer;
use loam::render::texture_store::mip_chain;

const W: i32 = 240;
const H: i32 = 240;

/// Draws the tile's terrain and liquid, looking straight down; RGBA rows, top first.
fn draw(camera: &Camera, tile: &Tile, png: &str) -> Vec<u8> {
    draw_with(camera, tile, png, None)
}

/// As `draw`, with a real texture (a solid colour) given to the store for water's texture path.
fn draw_with(camera: &Camera, tile: &Tile, png: &str, water: Option<[u8; 4]>) -> Vec<u8> {
    let egl = super::egl();
    let gl = &egl.gl;
    let mut terrain = TerrainRenderer::new(gl).expect("terrain shader");
    let mut liquid = LiquidRenderer::new(gl).expect("the liquid shader compiles");
    let mesh = build_tile_mesh(tile);
    terrain.upload(gl, &mesh, &tile.textures).unwrap();
    liquid.upload(gl, tile.coord, &mesh.liquid).unwrap();
    let names = CLASSIC_TEXTURES.map(String::from);
    if let Some(rgba) = water {
        let levels = mip_chain(64, rgba.repeat(64 * 64));
        terrain.set_texture(gl, &names[0], &levels).unwrap();
    }
    // SAFETY: plain GL calls on the current context with objects created here.
    let pixels = unsafe {
        super::offscreen(gl, W, H);
        let params = super::frame_params(camera, W, H, super::no_grid());
        terrain.draw(gl, &params);
        liquid.draw(gl, &params, Some((&terrain, &names)));
        super::picture(gl, W, H, png)
    };
    liquid.destroy(gl);
    terrain.destroy(gl);
    pixels
}

/// As `super::pixel_in`, widened so that differences can go below zero.
fn pixel(img: &[u8], x: i32, y: i32) -> [i32; 3] {
    super::pixel_in(img, W, x, y).map(i32::from)
}

#[test]
fn water_over_a_dip_shows_and_removing_it_shows_the_terrain_again() {
    let coord = TileCoord::new(30, 30).unwrap();
    let mut map = Map::new("Dip");
    let mut tile = Tile::flat(coord, "Tileset\\Test\\Grass.blp", 10.0);
    // A bowl 8 yards deep around the middle of chunk (8, 8).
    let [nx, ny] = coord.north_west();
    let centre = [nx - 8.5 * CHUNK_SIZE, ny - 8.5 * CHUNK_SIZE];
    for (i, chunk) in tile.chunks.iter_mut().enumerate() {
        for v in 0..145 {
            let [x, y] = vertex_world_xy(coord, i % 16, i / 16, v);
            let d = ((x - centre[0]).powi(2) + (y - centre[1]).powi(2)).sqrt();
            chunk.heights[v] = 10.0 - (8.0 * (1.0 - d / 40.0)).max(0.0) as f32;
        }
    }
    map.tiles.insert(coord, tile);
    let camera = Camera {
        position: [centre[0], centre[1], 130.0],
        yaw: 0.0,
        pitch: -1.55,
        fov_y: 40f32.to_radians(),
    };
    let dry = draw(&camera, &map.tiles[&coord], "liquid-dry.png");

    let brush = Brush {
        radius: 30.0,
        inner_radius: 30.0,
        ..Brush::default()
    };
    let mut stroke = Stroke::new("Add liquid");
    let add = LiquidEdit::Add {
        liquid_type: liquid_type::WATER,
        surface: Surface::Flat(9.0),
    };
    let changed = liquid::dab(
        &mut map,
        &brush,
        add,
        LiquidStyle::Mh2o,
        centre[0],
        centre[1],
        &mut stroke,
    );
    assert!(changed.len() >= 4, "{changed:?}");
    let wet = draw(&camera, &map.tiles[&coord], "liquid-water.png");

    // The middle of the view is the bottom of the bowl: water-coloured now (blue, far less red
    // than the stand-in ground texture it covers).
    let (cx, cy) = (W / 2, H / 2);
    let (d, w) = (pixel(&dry, cx, cy), pixel(&wet, cx, cy));
    assert!(w[2] > w[0] + 40, "water is blue: {w:?}");
    assert!(
        w[0] < d[0] - 40,
        "the ground {d:?} shows through as water {w:?}"
    );
    // Outside the brush the view is unchanged (the water stays in its quads).
    assert_eq!(pixel(&dry, 5, 5), pixel(&wet, 5, 5));
    let changed_pixels = (0..W * H)
        .filter(|i| {
            dry[(*i * 4) as usize..(*i * 4 + 3) as usize]
                != wet[(*i * 4) as usize..(*i * 4 + 3) as usize]
        })
        .count();
    assert!(changed_pixels > 3000, "{changed_pixels} pixels show water");

    // With the client's water texture in the store (here solid red), water shows it.
    let textured = draw_with(
        &camera,
        &map.tiles[&coord],
        "liquid-textured.png",
        Some([255, 0, 0, 255]),
    );
    let t = pixel(&textured, cx, cy);
    assert!(
        t[0] > w[0] + 60,
        "the texture tints the water: {t:?} against {w:?}"
    );
    assert_eq!(
        pixel(&textured, 5, 5),
        pixel(&dry, 5, 5),
        "the ground is untouched"
    );

    let mut stroke = Stroke::new("Remove liquid");
    liquid::dab(
        &mut map,
        &brush,
        LiquidEdit::Remove,
        LiquidStyle::Mh2o,
        centre[0],
        centre[1],
        &mut stroke,
    );
    assert_eq!(map.tiles[&coord].liquid_chunk_count(), 0);
    let again = draw(&camera, &map.tiles[&coord], "liquid-removed.png");
    assert!(
        again == dry,
        "with the water removed the frame is the dry frame again"
    );
}
