//! The horizon: the whole map's low-resolution terrain (`doc::horizon`), one mesh of 8 × 8
//! quads a tile (every other WDL sample: at this distance and under the fog the finer grid
//! costs a software renderer four times the triangles for nothing seen), drawn after the sky
//! and before the terrain, under the fog, with a projection of its own that reaches across
//! the map; tiles outside the view are skipped. The tiles the terrain renderer draws are left out
//! (a 64 × 64 mask the fragment shader reads), and depth is cleared after it, so the real
//! terrain always lies over it.
//!
//! Not for: where the heights come from (`doc::horizon`) or the light (`doc::light`).

use glow::HasContext;

use super::shader::{ViewUniforms, uniforms};
use super::terrain::FrameParams;
use crate::doc::horizon::HorizonTiles;
use crate::model::TileCoord;
use crate::model::coords::{CHUNK_SIZE, TILES_PER_SIDE};

/// How far the horizon reaches (yards): across the whole map from any point of it.
pub const HORIZON_FAR: f32 = 50_000.0;
/// Its near plane (yards): nothing of it lies nearer than the loaded tiles around the eye.
pub const HORIZON_NEAR: f32 = 20.0;

const VERTEX_SHADER: &str = r#"
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_tile;
uniform mat4 u_view_projection;
out vec3 v_world;
out vec3 v_normal;
flat out ivec2 v_tile;
void main() {
    v_world = a_position;
    v_normal = a_normal;
    v_tile = ivec2(a_tile);
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
"#;

const FRAGMENT_SHADER: &str = r#"
in vec3 v_world;
in vec3 v_normal;
flat in ivec2 v_tile;
uniform sampler2D u_drawn;
uniform vec3 u_eye;
uniform vec3 u_sky;
uniform vec3 u_light;
out vec4 o_color;
void main() {
    if (texelFetch(u_drawn, v_tile, 0).r > 0.5) discard;
    // A plain ground colour: at this distance the fog gives most of it.
    vec3 ground = vec3(0.36, 0.40, 0.28);
    vec3 color = ground * sunlit(max(dot(normalize(v_normal), -u_light), 0.0));
    o_color = vec4(hazed(color, v_world, u_eye, u_sky), 1.0);
}
"#;

uniforms! {
    /// Uniform locations looked up once.
    struct Uniforms {
        drawn: "u_drawn",
    }
}

/// The horizon's vertices (position, normal, tile x and y) and triangles, built on the CPU,
/// and each tile's bounding box (its triangles are [`TILE_INDICES`] in a row, in tile order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HorizonMesh {
    vertices: Vec<f32>,
    indices: Vec<u32>,
    boxes: Vec<[glam::Vec3; 2]>,
}

/// Floats a vertex takes.
const STRIDE: usize = 8;
/// Vertices along a tile's side: every other one of the WDL's 17.
const SIDE: usize = 9;
/// Indices a tile's triangles take.
const TILE_INDICES: usize = (SIDE - 1) * (SIDE - 1) * 6;

impl HorizonMesh {
    /// A 9 × 9 grid of each tile's outer heights (every other sample), normals from the
    /// neighbouring samples.
    pub fn build(tiles: &HorizonTiles) -> HorizonMesh {
        let mut mesh = HorizonMesh::default();
        for (coord, h) in tiles {
            let first = (mesh.vertices.len() / STRIDE) as u32;
            let [north, west] = coord.north_west();
            let at = |r: usize, c: usize| h[r.min(16) * 17 + c.min(16)];
            let mut bounds = [glam::Vec3::splat(f32::MAX), glam::Vec3::splat(f32::MIN)];
            for r in (0..17usize).step_by(2) {
                for c in (0..17usize).step_by(2) {
                    let x = (north - r as f64 * CHUNK_SIZE) as f32;
                    let y = (west - c as f64 * CHUNK_SIZE) as f32;
                    // Rows run south (−x), columns east (−y).
                    let dx = (at(r.saturating_sub(1), c) - at(r + 1, c))
                        / ((r.min(15) + 1 - r.saturating_sub(1)) as f32 * CHUNK_SIZE as f32);
                    let dy = (at(r, c.saturating_sub(1)) - at(r, c + 1))
                        / ((c.min(15) + 1 - c.saturating_sub(1)) as f32 * CHUNK_SIZE as f32);
                    let n = glam::Vec3::new(-dx, -dy, 1.0).normalize();
                    let p = glam::Vec3::new(x, y, h[r * 17 + c]);
                    bounds = [bounds[0].min(p), bounds[1].max(p)];
                    mesh.vertices.extend([p.x, p.y, p.z, n.x, n.y, n.z]);
                    mesh.vertices.extend([coord.x as f32, coord.y as f32]);
                }
            }
            let side = SIDE as u32;
            for r in 0..side - 1 {
                for c in 0..side - 1 {
                    let v = first + r * side + c;
                    mesh.indices
                        .extend([v, v + side, v + 1, v + 1, v + side, v + side + 1]);
                }
            }
            mesh.boxes.push(bounds);
        }
        mesh
    }

    /// True when there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }
}

/// True when the box (`min`, `max`) may show through `view_projection`: false only when all
/// its corners lie beyond one side of the view.
fn may_show(view_projection: &glam::Mat4, [min, max]: &[glam::Vec3; 2]) -> bool {
    let corners = (0..8).map(|k| {
        let pick = |bit: usize, lo: f32, hi: f32| if k & bit == 0 { lo } else { hi };
        *view_projection
            * glam::Vec4::new(
                pick(1, min.x, max.x),
                pick(2, min.y, max.y),
                pick(4, min.z, max.z),
                1.0,
            )
    });
    let corners: Vec<glam::Vec4> = corners.collect();
    let outside = |test: &dyn Fn(&glam::Vec4) -> bool| corners.iter().all(test);
    !(outside(&|c| c.x < -c.w)
        || outside(&|c| c.x > c.w)
        || outside(&|c| c.y < -c.w)
        || outside(&|c| c.y > c.w)
        || outside(&|c| c.z < -c.w)
        || outside(&|c| c.z > c.w))
}

/// The horizon on the GPU.
pub struct HorizonRenderer {
    program: glow::Program,
    uniforms: Uniforms,
    view: ViewUniforms,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    ebo: glow::Buffer,
    drawn: glow::Texture,
    index_count: i32,
    /// Each tile's bounding box, in the order of its triangles.
    boxes: Vec<[glam::Vec3; 2]>,
    /// The mask as last uploaded, one byte a tile.
    mask: Vec<u8>,
}

impl HorizonRenderer {
    /// Compiles the shader and makes the (empty) buffers and mask.
    pub fn new(gl: &glow::Context) -> Result<HorizonRenderer, String> {
        // SAFETY: plain GL calls on the caller's current context.
        unsafe {
            let (program, uniforms) =
                Uniforms::compile(gl, VERTEX_SHADER, FRAGMENT_SHADER, "horizon")?;
            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            let ebo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ebo));
            let stride = (STRIDE * 4) as i32;
            for (loc, size, offset) in [(0, 3, 0), (1, 3, 12), (2, 2, 24)] {
                gl.enable_vertex_attrib_array(loc);
                gl.vertex_attrib_pointer_f32(loc, size, glow::FLOAT, false, stride, offset);
            }
            gl.bind_vertex_array(None);
            let drawn = gl.create_texture()?;
            gl.bind_texture(glow::TEXTURE_2D, Some(drawn));
            for p in [glow::TEXTURE_MIN_FILTER, glow::TEXTURE_MAG_FILTER] {
                gl.tex_parameter_i32(glow::TEXTURE_2D, p, glow::NEAREST as i32);
            }
            let mask = vec![0u8; TILES_PER_SIDE * TILES_PER_SIDE];
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::R8 as i32,
                TILES_PER_SIDE as i32,
                TILES_PER_SIDE as i32,
                0,
                glow::RED,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(&mask)),
            );
            gl.bind_texture(glow::TEXTURE_2D, None);
            Ok(HorizonRenderer {
                view: ViewUniforms::locate(gl, program),
                program,
                uniforms,
                vao,
                vbo,
                ebo,
                drawn,
                index_count: 0,
                boxes: Vec::new(),
                mask,
            })
        }
    }

    /// Replaces the mesh.
    pub fn upload(&mut self, gl: &glow::Context, mesh: &HorizonMesh) {
        // SAFETY: plain GL calls on the caller's current context; sizes come from the slices.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&mesh.vertices),
                glow::STATIC_DRAW,
            );
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.ebo));
            gl.buffer_data_u8_slice(
                glow::ELEMENT_ARRAY_BUFFER,
                bytemuck::cast_slice(&mesh.indices),
                glow::STATIC_DRAW,
            );
            gl.bind_vertex_array(None);
        }
        self.index_count = mesh.indices.len() as i32;
        self.boxes = mesh.boxes.clone();
    }

    /// Leaves out the tiles the terrain renderer draws (uploaded to the mask when it changed).
    pub fn set_drawn(&mut self, gl: &glow::Context, drawn: impl IntoIterator<Item = TileCoord>) {
        let mut mask = vec![0u8; TILES_PER_SIDE * TILES_PER_SIDE];
        for c in drawn {
            mask[usize::from(c.y) * TILES_PER_SIDE + usize::from(c.x)] = 255;
        }
        if mask == self.mask {
            return;
        }
        // SAFETY: plain GL calls on the caller's current context; the slice is 64 × 64 bytes.
        unsafe {
            gl.bind_texture(glow::TEXTURE_2D, Some(self.drawn));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            gl.tex_sub_image_2d(
                glow::TEXTURE_2D,
                0,
                0,
                0,
                TILES_PER_SIDE as i32,
                TILES_PER_SIDE as i32,
                glow::RED,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(&mask)),
            );
            gl.bind_texture(glow::TEXTURE_2D, None);
        }
        self.mask = mask;
    }

    /// Draws the horizon with its own far-reaching projection (`params.far_view_projection`),
    /// then clears depth for the terrain.
    pub fn draw(&self, gl: &glow::Context, params: &FrameParams) {
        if self.index_count == 0 {
            return;
        }
        let far = &params.far_view_projection;
        // SAFETY: plain GL calls on the caller's current context with objects it owns.
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.depth_mask(true);
            gl.disable(glow::BLEND);
            gl.disable(glow::CULL_FACE);
            gl.use_program(Some(self.program));
            super::shader::set_view(gl, &self.view, (far, params.eye), &params.light);
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.drawn));
            gl.uniform_1_i32(self.uniforms.drawn.as_ref(), 0);
            gl.bind_vertex_array(Some(self.vao));
            // One draw per run of tiles in view (tiles are in row order, so a view holds a
            // few runs).
            let mut run: Option<(usize, usize)> = None;
            let visible = self.boxes.iter().map(|b| may_show(far, b));
            for (k, show) in visible.chain([false]).enumerate() {
                match (show, run) {
                    (true, None) => run = Some((k, k + 1)),
                    (true, Some((start, _))) => run = Some((start, k + 1)),
                    (false, Some((start, end))) => {
                        let count = ((end - start) * TILE_INDICES) as i32;
                        let offset = (start * TILE_INDICES * 4) as i32;
                        gl.draw_elements(glow::TRIANGLES, count, glow::UNSIGNED_INT, offset);
                        run = None;
                    }
                    (false, None) => {}
                }
            }
            gl.bind_vertex_array(None);
            gl.bind_texture(glow::TEXTURE_2D, None);
            gl.use_program(None);
            gl.clear(glow::DEPTH_BUFFER_BIT);
        }
    }

    /// Frees the GL objects.
    pub fn destroy(&mut self, gl: &glow::Context) {
        // SAFETY: the objects were created on this context and are no longer used.
        unsafe {
            gl.delete_program(self.program);
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.vbo);
            gl.delete_buffer(self.ebo);
            gl.delete_texture(self.drawn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_is_a_17_by_17_grid_lying_on_the_tile_with_upward_normals() {
        let c = TileCoord::new(32, 32).unwrap();
        let mut tiles = HorizonTiles::new();
        tiles.insert(c, [10.0; crate::doc::horizon::OUTER]);
        let m = HorizonMesh::build(&tiles);
        assert_eq!(m.vertices.len(), 81 * STRIDE);
        assert_eq!(m.indices.len(), TILE_INDICES);
        assert_eq!(m.boxes.len(), 1);
        let [north, west] = c.north_west();
        assert_eq!(m.vertices[0], north as f32);
        assert_eq!(m.vertices[1], west as f32);
        assert_eq!(m.vertices[2], 10.0);
        assert_eq!(&m.vertices[3..6], &[0.0, 0.0, 1.0]);
        assert_eq!(&m.vertices[6..8], &[32.0, 32.0]);
    }
}

#[cfg(test)]
mod culling {
    use super::*;

    #[test]
    fn a_tile_behind_the_eye_is_skipped_and_one_ahead_drawn() {
        let eye = glam::Vec3::new(0.0, 0.0, 100.0);
        let view = glam::camera::rh::view::look_to_mat4(eye, glam::Vec3::X, glam::Vec3::Z);
        let proj = glam::camera::rh::proj::opengl::perspective(1.0, 1.6, 20.0, 50_000.0);
        let vp = proj * view;
        let tile = |x: f32| {
            [
                glam::Vec3::new(x, -250.0, 0.0),
                glam::Vec3::new(x + 500.0, 250.0, 50.0),
            ]
        };
        assert!(may_show(&vp, &tile(1000.0)));
        assert!(!may_show(&vp, &tile(-2000.0)));
    }
}
