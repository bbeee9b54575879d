//! The terrain renderer drawn offscreen through an EGL surfaceless context (Mesa's software
//! device, no X server), with assertions on the pixels. Each test also writes its picture to
//! `target/render-tests/` for a person to look at.
//!
//! Needs the EGL runtime packages `bash packaging/setup --tests` installs.

use std::path::PathBuf;

use glow::HasContext;
use glutin::api::egl::context::PossiblyCurrentContext;
use glutin::api::egl::device::Device;
use glutin::api::egl::display::Display;
use glutin::config::{Api, ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Version};
use glutin::prelude::*;

use loam::model::coords::{CHUNK_SIZE, inner_vertex, vertex_world_xy};
use loam::model::{Chunk, Layer, Tile, TileCoord};
use loam::render::camera::Camera;
use loam::render::frame::{FrameParams, Overlays};
use loam::render::mesh::build_tile_mesh;
use loam::render::terrain::{SKY_COLOR, TerrainRenderer, area_colour};

#[path = "render_egl/animation.rs"]
mod animation;
mod common;
#[path = "render_egl/liquid.rs"]
mod liquid;
#[path = "render_egl/objects.rs"]
mod objects;

const W: i32 = 320;
const H: i32 = 240;

/// A GL 3.3 core context on Mesa's software EGL device, current on this thread.
struct Egl {
    gl: glow::Context,
    _context: PossiblyCurrentContext,
    _display: Display,
}

fn egl() -> Egl {
    let devices = Device::query_devices().expect(
        "EGL is not available: install them with `bash packaging/setup --tests` (libegl1, libegl-mesa0, libgl1-mesa-dri)",
    );
    let device = devices
        .into_iter()
        .find(|d| d.extensions().contains("EGL_MESA_device_software"))
        .expect("no EGL_MESA_device_software device (Mesa's llvmpipe); install them with `bash packaging/setup --tests`");
    // SAFETY: the device comes from EGL itself; no native display is involved.
    let display = unsafe { Display::with_device(&device, None) }.expect("EGL display");
    let template = ConfigTemplateBuilder::new()
        .with_surface_type(ConfigSurfaceTypes::empty())
        .with_api(Api::OPENGL)
        .build();
    // SAFETY: the template is valid for this display.
    let config = unsafe { display.find_configs(template) }
        .expect("EGL configs")
        .next()
        .expect("an EGL config without surfaces");
    let attributes = ContextAttributesBuilder::new()
        .with_profile(GlProfile::Core)
        .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
        .build(None);
    // SAFETY: config and attributes come from this display.
    let context = unsafe { display.create_context(&config, &attributes) }
        .expect("GL 3.3 core context")
        .make_current_surfaceless()
        .expect("surfaceless make-current");
    // SAFETY: the context is current on this thread; the loader returns its functions.
    let gl =
        unsafe { glow::Context::from_loader_function_cstr(|name| display.get_proc_address(name)) };
    Egl {
        gl,
        _context: context,
        _display: display,
    }
}

/// Draws `tiles` with `camera` into a W×H framebuffer and returns RGBA rows, top row first.
fn render(camera: &Camera, tiles: &[&Tile], overlays: Overlays, png: &str) -> Vec<u8> {
    render_with(camera, tiles, overlays, png, &[])
}

/// As `render`, with real textures (path, square mip chain) given to the store after the
/// tiles are uploaded, as the texture worker's results arrive in the app.
fn render_with(
    camera: &Camera,
    tiles: &[&Tile],
    overlays: Overlays,
    png: &str,
    real: &[(String, Vec<Vec<u8>>)],
) -> Vec<u8> {
    let egl = egl();
    let gl = &egl.gl;
    let mut renderer = TerrainRenderer::new(gl).expect("the terrain shader compiles");
    for t in tiles {
        renderer
            .upload(gl, &build_tile_mesh(t), &t.textures)
            .expect("upload");
    }
    for (name, levels) in real {
        renderer
            .set_texture(gl, name, levels)
            .expect("texture upload");
        assert!(renderer.has_texture(name));
    }
    // SAFETY: plain GL calls on the current context with objects created here.
    let pixels = unsafe {
        assert_eq!(offscreen(gl, W, H), glow::FRAMEBUFFER_COMPLETE);
        renderer.draw(gl, &frame_params(camera, W, H, overlays));
        picture(gl, W, H, png)
    };
    renderer.destroy(gl);
    pixels
}

/// Overlays with the tile grid off: the pictures whose pixels are compared show only what is drawn.
fn no_grid() -> Overlays {
    Overlays {
        tile_grid: false,
        ..Overlays::default()
    }
}

/// What a frame is drawn with: `camera`'s view of a `w`×`h` picture and `overlays`.
fn frame_params(camera: &Camera, w: i32, h: i32, overlays: Overlays) -> FrameParams {
    FrameParams {
        view_projection: camera.view_projection(w as f32 / h as f32),
        far_view_projection: camera.view_projection(w as f32 / h as f32),
        eye: camera.eye(),
        overlays,
        light: loam::doc::light::ZoneLights::default_day().at(
            [0.0; 3],
            loam::doc::light::DayTime::NOON,
            false,
        ),
    }
}

/// The `w`×`h` framebuffer's RGBA rows, top row first, also written to
/// `target/render-tests/{png}` for a person to look at.
///
/// # Safety
/// `gl` must be current, with the framebuffer bound.
unsafe fn picture(gl: &glow::Context, w: i32, h: i32, png: &str) -> Vec<u8> {
    flipped_and_saved(&unsafe { read_back(gl, w, h) }, w, h, png)
}

/// Binds a new framebuffer of `w`×`h` (RGBA8 colour, 24-bit depth), sets the viewport to it and
/// clears it to the sky colour; returns its completeness status as GL checked it before clearing.
///
/// # Safety
/// A GL context must be current on this thread.
unsafe fn offscreen(gl: &glow::Context, w: i32, h: i32) -> u32 {
    // SAFETY: the caller has a current context; the objects are created here.
    unsafe {
        let fbo = gl.create_framebuffer().unwrap();
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        for (attachment, format) in [
            (glow::COLOR_ATTACHMENT0, glow::RGBA8),
            (glow::DEPTH_ATTACHMENT, glow::DEPTH_COMPONENT24),
        ] {
            let rb = gl.create_renderbuffer().unwrap();
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
            gl.renderbuffer_storage(glow::RENDERBUFFER, format, w, h);
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                attachment,
                glow::RENDERBUFFER,
                Some(rb),
            );
        }
        let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
        gl.viewport(0, 0, w, h);
        gl.clear_color(SKY_COLOR[0], SKY_COLOR[1], SKY_COLOR[2], 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
        status
    }
}

/// The bound framebuffer's `w`×`h` RGBA pixels, bottom row first as GL gives them; asserts GL
/// reported no error.
///
/// # Safety
/// A GL context must be current on this thread.
unsafe fn read_back(gl: &glow::Context, w: i32, h: i32) -> Vec<u8> {
    let mut pixels = vec![0u8; (w * h * 4) as usize];
    // SAFETY: the caller has a current context; the buffer holds w×h RGBA pixels.
    unsafe {
        gl.read_pixels(
            0,
            0,
            w,
            h,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut pixels)),
        );
        assert_eq!(gl.get_error(), glow::NO_ERROR);
    }
    pixels
}

/// `pixels` (from `read_back`) with the top row first, also written to
/// `target/render-tests/{png}` for a person to look at.
fn flipped_and_saved(pixels: &[u8], w: i32, h: i32, png: &str) -> Vec<u8> {
    // GL rows run bottom-up.
    let row = (w * 4) as usize;
    let mut flipped = Vec::with_capacity(pixels.len());
    for r in (0..h as usize).rev() {
        flipped.extend_from_slice(&pixels[r * row..(r + 1) * row]);
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    loam::app::screenshot::write_png(&dir.join(png), w as usize, h as usize, &flipped).unwrap();
    flipped
}

fn pixel(img: &[u8], x: i32, y: i32) -> [u8; 3] {
    pixel_in(img, W, x, y)
}

/// The RGB of pixel (x, y) of an RGBA picture `width` pixels wide, top row first.
fn pixel_in(img: &[u8], width: i32, x: i32, y: i32) -> [u8; 3] {
    let i = ((y * width + x) * 4) as usize;
    [img[i], img[i + 1], img[i + 2]]
}

fn is_sky(p: [u8; 3]) -> bool {
    let sky = SKY_COLOR.map(|c| (c * 255.0).round() as i32);
    (0..3).all(|i| (p[i] as i32 - sky[i]).abs() <= 2)
}

fn corpus_tile() -> Tile {
    let path = common::corpus().join("wowserhq-format/map/continent4229.adt");
    loam::pipeline::open_map(&path)
        .expect("corpus tile opens")
        .map
        .tiles
        .into_values()
        .next()
        .expect("one tile")
}

/// A camera straight above world (x, y), `height` yards over `ground`, north up on screen.
fn looking_down(x: f64, y: f64, ground: f64, height: f64, fov_deg: f32) -> Camera {
    Camera {
        position: [x, y, ground + height],
        yaw: 0.0,
        pitch: -1.55,
        fov_y: fov_deg.to_radians(),
    }
}

#[test]
fn a_corpus_tile_covers_the_view() {
    let tile = corpus_tile();
    let [nx, ny] = tile.coord.north_west();
    let mid = tile.chunks[136].heights[0] as f64;
    // Above the highest peak, so nothing rises past the camera.
    let top = build_tile_mesh(&tile).height_range.1 as f64;
    // A narrow view so that the tile fills it even down in its valleys.
    let camera = looking_down(
        nx - 8.0 * CHUNK_SIZE,
        ny - 8.0 * CHUNK_SIZE,
        top,
        150.0,
        30.0,
    );
    let img = render(
        &camera,
        &[&tile],
        Overlays::default(),
        "corpus-tile-top.png",
    );
    let sky = (0..H)
        .flat_map(|y| (0..W).map(move |x| (x, y)))
        .filter(|&(x, y)| is_sky(pixel(&img, x, y)))
        .count();
    assert!(
        sky < (W * H / 200) as usize,
        "{sky} of {} pixels show the sky",
        W * H
    );
    // The terrain is not one flat colour: layers, lighting and shadows vary it.
    let distinct: std::collections::BTreeSet<[u8; 3]> = (0..H)
        .step_by(8)
        .flat_map(|y| (0..W).step_by(8).map(move |x| (x, y)))
        .map(|(x, y)| pixel(&img, x, y))
        .collect();
    assert!(distinct.len() > 50, "{} distinct colours", distinct.len());

    // The layer-count map: chunks at four layers turn red.
    let counted = Overlays {
        layer_count: true,
        chunk_grid: true,
        ..Overlays::default()
    };
    let img = render(&camera, &[&tile], counted, "corpus-layer-count.png");
    let red = (0..H)
        .flat_map(|y| (0..W).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let [r, g, b] = pixel(&img, x, y);
            r as i32 > 2 * g as i32 && r as i32 > 2 * b as i32
        })
        .count();
    assert!(red > (W * H / 20) as usize, "{red} red pixels");

    // The area overlay: two halves of the tile in two areas, tinted in their two colours.
    let mut zoned = tile.clone();
    for (i, c) in zoned.chunks.iter_mut().enumerate() {
        c.area_id = if i % 16 < 8 { 1 } else { 2 };
    }
    let (a, b) = (area_colour(1), area_colour(2));
    let far = |p: [u8; 3], q: [u8; 3]| -> i32 {
        (0..3).map(|k| (p[k] as i32 - q[k] as i32).pow(2)).sum()
    };
    assert!(
        far(a, b) > 100 * 100,
        "areas 1 and 2 differ at a glance: {a:?} {b:?}"
    );
    let areas = Overlays {
        areas: true,
        ..Overlays::default()
    };
    let img = render(&camera, &[&zoned], areas, "corpus-areas.png");
    let (mut near_a, mut near_b) = (0usize, 0usize);
    for y in 0..H {
        for x in 0..W {
            let p = pixel(&img, x, y);
            if far(p, a) < far(p, b) {
                near_a += 1;
            } else {
                near_b += 1;
            }
        }
    }
    let quarter = (W * H / 4) as usize;
    assert!(
        near_a > quarter && near_b > quarter,
        "{near_a} pixels nearer area 1's colour, {near_b} nearer area 2's"
    );

    // A slanted view for people to look at.
    let mut oblique = Camera {
        yaw: -std::f32::consts::FRAC_PI_4 * 3.0,
        pitch: -0.6,
        ..Camera::default()
    };
    oblique.frame([nx - 266.0, ny - 266.0, mid], 560.0);
    render(
        &oblique,
        &[&tile],
        Overlays::default(),
        "corpus-tile-oblique.png",
    );
}

#[test]
fn a_hole_shows_the_background() {
    let tile = corpus_tile();
    let (index, chunk) = tile
        .chunks
        .iter()
        .enumerate()
        .find(|(_, c)| c.holes != 0)
        .expect("continent4229 has a chunk with holes");
    let bit = chunk.holes.trailing_zeros() as usize;
    let (hole_row, hole_col) = (bit / 4, bit % 4);
    // The hole covers quads 2r..2r+2 × 2c..2c+2; its middle is the outer vertex between them,
    // which no drawn triangle reaches (all four quads around it are cut).
    let (cx, cy) = (index % 16, index / 16);
    let [x, y] = vertex_world_xy(
        tile.coord,
        cx,
        cy,
        loam::model::coords::outer_vertex(2 * hole_row + 1, 2 * hole_col + 1),
    );
    let ground = chunk.heights[inner_vertex(2 * hole_row, 2 * hole_col)] as f64;
    let camera = looking_down(x, y, ground, 12.0, 20.0);
    let img = render(&camera, &[&tile], Overlays::default(), "corpus-hole.png");
    assert!(
        is_sky(pixel(&img, W / 2, H / 2)),
        "{:?}",
        pixel(&img, W / 2, H / 2)
    );
    // Further out the terrain around the hole is drawn.
    let wide = looking_down(x, y, ground, 120.0, 60.0);
    let img = render(&wide, &[&tile], Overlays::default(), "corpus-hole-wide.png");
    assert!(is_sky(pixel(&img, W / 2, H / 2)));
    assert!(!is_sky(pixel(&img, 10, 10)));
}

/// A flat tile whose west half uses one texture and east half another.
fn two_texture_tile() -> Tile {
    let coord = TileCoord::new(30, 30).unwrap();
    let chunks = (0..256)
        .map(|i| {
            let mut c = Chunk::flat(0.0);
            c.layers = vec![Layer {
                texture: if i % 16 < 8 { 0 } else { 1 },
                flags: 0,
                effect_id: 0,
                alpha: None,
            }];
            c
        })
        .collect();
    Tile {
        coord,
        flags: 0,
        textures: vec![
            "Tileset\\Test\\Meadow.blp".into(),
            "Tileset\\Test\\Cobbles.blp".into(),
        ],
        texture_flags: None,
        doodad_names: vec![],
        wmo_names: vec![],
        doodads: vec![],
        wmos: vec![],
        chunks,
        flight_bounds: None,
        unknown_chunks: vec![],
        quirks: Default::default(),
    }
}

fn mean(img: &[u8], xs: std::ops::Range<i32>) -> [f64; 3] {
    let mut sum = [0.0; 3];
    let mut n = 0.0;
    for y in 0..H {
        for x in xs.clone() {
            let p = pixel(img, x, y);
            for c in 0..3 {
                sum[c] += p[c] as f64;
            }
            n += 1.0;
        }
    }
    sum.map(|s| s / n)
}

#[test]
fn two_differently_named_layers_give_two_colours() {
    let tile = two_texture_tile();
    let (camera, overlays) = over_the_texture_border(&tile);
    let img = render(&camera, &[&tile], overlays, "two-layers.png");
    let west = mean(&img, 0..W / 2 - 4);
    let east = mean(&img, W / 2 + 4..W);
    let distance: f64 = (0..3).map(|c| (west[c] - east[c]).abs()).sum();
    assert!(distance > 30.0, "west {west:?} east {east:?}");
    // Each half is its texture's name colour under the same light.
    let expect = |name: &str| loam::assets::procedural::name_color(name).map(|c| c as f64);
    let (a, b) = (expect(&tile.textures[0]), expect(&tile.textures[1]));
    for (m, e) in [(west, a), (east, b)] {
        let spread = tint_spread(m, e);
        assert!(
            spread < 0.15,
            "colour is not the texture's tint: {m:?} vs {e:?}"
        );
    }
}

/// The spread of per-channel ratios of a measured colour to an expected one: small when the
/// measured colour is the expected one under some light.
/// Straight down over the border between chunk columns 7 and 8 of `tile`, north up (west is
/// left), without the tile grid.
fn over_the_texture_border(tile: &Tile) -> (Camera, Overlays) {
    let [nx, ny] = tile.coord.north_west();
    let camera = looking_down(
        nx - 8.0 * CHUNK_SIZE,
        ny - 8.0 * CHUNK_SIZE,
        0.0,
        100.0,
        40.0,
    );
    let overlays = Overlays {
        tile_grid: false,
        ..Overlays::default()
    };
    (camera, overlays)
}

fn tint_spread(measured: [f64; 3], expected: [f64; 3]) -> f64 {
    let r: Vec<f64> = (0..3).map(|c| measured[c] / expected[c].max(1.0)).collect();
    r.iter().cloned().fold(f64::MIN, f64::max) - r.iter().cloned().fold(f64::MAX, f64::min)
}

#[test]
fn a_real_texture_shows_its_colour_and_a_missing_one_its_stand_in() {
    use loam::render::texture_store::mip_chain;
    let tile = two_texture_tile();
    let (camera, overlays) = over_the_texture_border(&tile);
    // Meadow gets a real 256×256 texture; Cobbles has none and keeps its stand-in. Eleven
    // other textures of the same size fill the store past its first capacity, so the array is
    // grown (and Meadow copied over) before the draw.
    let meadow = [40u8, 90, 210];
    let mut real = vec![(
        "TILESET/test/MEADOW.blp".to_string(), // spelled otherwise than the tile: same texture
        mip_chain(
            256,
            [meadow[0], meadow[1], meadow[2], 255].repeat(256 * 256),
        ),
    )];
    for i in 0..11u8 {
        real.push((
            format!("Tileset\\Other{i}.blp"),
            mip_chain(256, [i * 20, 255 - i * 20, 0, 255].repeat(256 * 256)),
        ));
    }
    let img = render_with(&camera, &[&tile], overlays, "real-texture.png", &real);
    let west = mean(&img, 0..W / 2 - 4);
    let east = mean(&img, W / 2 + 4..W);
    let stand_in = loam::assets::procedural::name_color(&tile.textures[1]).map(|c| c as f64);
    assert!(
        tint_spread(west, meadow.map(|c| c as f64)) < 0.15,
        "west is not the real texture's colour: {west:?}"
    );
    assert!(
        tint_spread(east, stand_in) < 0.15,
        "east is not the stand-in's colour: {east:?}"
    );
    // And not the other way round: the west half is no longer Meadow's stand-in.
    let meadow_stand_in = loam::assets::procedural::name_color(&tile.textures[0]).map(|c| c as f64);
    assert!(tint_spread(west, meadow_stand_in) > 0.3, "{west:?}");
}

#[test]
fn the_pass_timer_asks_the_gpu_only_while_its_figures_are_wanted() {
    // Draws inside timer queries leave memory behind in llvmpipe, so the passes are timed on
    // the GPU only for frames someone reads (`--measure`, the status bar's tooltip).
    use loam::render::pass_timer::{Pass, PassTimer};
    let egl = egl();
    let gl = &egl.gl;
    let mut timer = PassTimer::new(gl);
    assert!(timer.measures_gpu(), "llvmpipe has timer queries");
    let frame = |timer: &mut PassTimer| {
        timer.begin_frame(gl);
        // SAFETY: a plain clear on the current context.
        timer.time(gl, Pass::Terrain, || unsafe {
            gl.clear(glow::COLOR_BUFFER_BIT)
        });
        timer.end_frame(gl);
        // SAFETY: as above; the queries' results are there by the next frame.
        unsafe { gl.finish() };
    };
    for _ in 0..8 {
        frame(&mut timer);
    }
    let idle = timer.last().expect("the CPU's figures");
    assert_eq!(idle.gpu, [None; 6], "no GPU figures unless wanted");
    for _ in 0..8 {
        timer.want_gpu();
        frame(&mut timer);
    }
    let wanted = timer.last().expect("figures");
    assert!(
        wanted.gpu[0].is_some(),
        "the terrain's GPU time: {wanted:?}"
    );
    // Once no one asks, a few dozen frames later the GPU is left alone again.
    for _ in 0..40 {
        frame(&mut timer);
    }
    assert_eq!(timer.last().unwrap().gpu, [None; 6]);
    timer.destroy(gl);
}
