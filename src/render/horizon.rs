//! The horizon: the whole map's low-resolution terrain (`doc::horizon`), drawn before the
//! sky and the terrain, under the fog, with a projection of its own that reaches across the
//! map. Each frame the tiles in view are put nearest first (so the depth test spares the
//! pixels a nearer hill already covers) at a level of detail that falls with distance (8 × 8
//! quads a tile near the eye down to one far away: under the fog the finer grid costs a
//! software renderer triangles for nothing seen), with skirts where a tile meets one of another
//! level or the real terrain, so no crack shows the sky. The tiles the terrain renderer draws are
//! skipped, and depth is cleared after the sky, so the real terrain always lies over it.
//!
//! Not for: the mesh and each frame's triangles (`render::horizon_mesh`), where the heights
//! come from (`doc::horizon`) or the light (`doc::light`).

use std::collections::BTreeSet;

use glow::HasContext;

use super::frame::FrameParams;
use super::horizon_mesh::{Ground, HorizonMesh, MeshTile, STRIDE, frame_indices, sky_floor};
use super::shader::ViewUniforms;
use crate::model::TileCoord;

/// How far the horizon reaches (yards): across the whole map from any point of it.
pub const HORIZON_FAR: f32 = 50_000.0;
/// Its near plane (yards): nothing of it lies nearer than the loaded tiles around the eye.
pub const HORIZON_NEAR: f32 = 20.0;

// Lit and fogged at the vertices: the horizon is far, smooth and coarse, and a software
// renderer pays for every operation per pixel, so its pixels only take the colour.
const VERTEX_SHADER: &str = r#"
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_view_projection;
uniform vec3 u_eye;
uniform vec3 u_sky;
uniform vec3 u_light;
out vec3 v_color;
void main() {
    // A plain ground colour: at this distance the fog gives most of it.
    vec3 ground = vec3(0.36, 0.40, 0.28);
    vec3 color = ground * sunlit(max(dot(a_normal, -u_light), 0.0));
    v_color = hazed(color, a_position, u_eye, u_sky);
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
"#;

// No discard: a shader that may discard loses the early depth test that makes drawing the
// tiles nearest first pay.
const FRAGMENT_SHADER: &str = r#"
in vec3 v_color;
out vec4 o_color;
void main() {
    o_color = vec4(v_color, 1.0);
}
"#;

/// The horizon on the GPU.
pub struct HorizonRenderer {
    program: glow::Program,
    view: ViewUniforms,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    ebo: glow::Buffer,
    /// The mesh's tiles, as uploaded.
    tiles: Vec<MeshTile>,
    /// The ground under the horizon and the terrain, as uploaded.
    ground: Ground,
    /// The tiles the terrain renderer draws, skipped.
    drawn: BTreeSet<TileCoord>,
    /// The last frame's indices (kept to reuse the allocation).
    indices: Vec<u32>,
}

impl HorizonRenderer {
    /// Compiles the shader and makes the (empty) buffers.
    pub fn new(gl: &glow::Context) -> Result<HorizonRenderer, String> {
        // SAFETY: plain GL calls on the caller's current context.
        unsafe {
            let program =
                super::shader::compile_program(gl, VERTEX_SHADER, FRAGMENT_SHADER, "horizon")?;
            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            let ebo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ebo));
            let stride = (STRIDE * 4) as i32;
            for (loc, offset) in [(0, 0), (1, 12)] {
                gl.enable_vertex_attrib_array(loc);
                gl.vertex_attrib_pointer_f32(loc, 3, glow::FLOAT, false, stride, offset);
            }
            gl.bind_vertex_array(None);
            Ok(HorizonRenderer {
                view: ViewUniforms::locate(gl, program),
                program,
                vao,
                vbo,
                ebo,
                tiles: Vec::new(),
                ground: Ground::default(),
                drawn: BTreeSet::new(),
                indices: Vec::new(),
            })
        }
    }

    /// Replaces the mesh.
    pub fn upload(&mut self, gl: &glow::Context, mesh: &HorizonMesh) {
        // SAFETY: plain GL calls on the caller's current context; sizes come from the slice.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&mesh.vertices),
                glow::STATIC_DRAW,
            );
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
        }
        self.tiles = mesh.tiles.clone();
        self.ground = mesh.ground.clone();
    }

    /// The sine of the elevation below which every view ray from `eye` meets the horizon or
    /// the terrain, so the sky need not be drawn (see [`sky_floor`]); `None` when no such
    /// bound is known.
    pub fn sky_floor(&self, eye: glam::Vec3) -> Option<f32> {
        sky_floor(&self.ground, eye)
    }

    /// Skips the tiles the terrain renderer draws (the mesh leaves them out too once it is
    /// built again; this covers the frames before).
    pub fn set_drawn(&mut self, drawn: impl IntoIterator<Item = TileCoord>) {
        self.drawn = drawn.into_iter().collect();
    }

    /// Draws the horizon with its own far-reaching projection (`params.far_view_projection`),
    /// writing depth so the sky drawn next fills only what it leaves; the caller clears depth
    /// before the terrain.
    pub fn draw(&mut self, gl: &glow::Context, params: &FrameParams) {
        let far = &params.far_view_projection;
        frame_indices(&self.tiles, &self.drawn, far, params.eye, &mut self.indices);
        if self.indices.is_empty() {
            return;
        }
        // SAFETY: plain GL calls on the caller's current context with objects it owns; the
        // indices name vertices of the uploaded mesh (`frame_indices` reads its tiles).
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LESS);
            gl.depth_mask(true);
            gl.disable(glow::BLEND);
            gl.disable(glow::CULL_FACE);
            gl.use_program(Some(self.program));
            super::shader::set_view(gl, &self.view, (far, params.eye), &params.light);
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.ebo));
            gl.buffer_data_u8_slice(
                glow::ELEMENT_ARRAY_BUFFER,
                bytemuck::cast_slice(&self.indices),
                glow::STREAM_DRAW,
            );
            let count = self.indices.len() as i32;
            gl.draw_elements(glow::TRIANGLES, count, glow::UNSIGNED_INT, 0);
            gl.bind_vertex_array(None);
            gl.use_program(None);
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
        }
    }
}
