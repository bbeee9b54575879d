//! Liquid surfaces on the GPU: per tile a vertex/index buffer of its wet quads, drawn after the
//! terrain and objects, translucent, coloured by kind (water, ocean, magma, slime) and darker
//! and more opaque where the water is deep; each kind's texture from the client, when the
//! terrain's texture store holds it, blended over its colour. The caller names each kind's
//! texture for the frame (the client's animations cycle through theirs, see
//! `assets::client::liquid_frame`); a kind drawn without a texture moves too, its colour
//! rippled by a pattern that drifts with [`LiquidRenderer::set_time`].
//!
//! Not for: building the quads (see `render::liquid_mesh`). Every call takes the
//! `glow::Context`, as the terrain renderer's do.

use super::shader::uniforms;
use std::collections::HashMap;

use glow::HasContext;

use super::frame::FrameParams;
use super::liquid_mesh::{LiquidMesh, LiquidVertex};
use super::terrain::TerrainRenderer;
use crate::model::TileCoord;

/// One tile's GPU objects.
struct GpuLiquid {
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    ebo: glow::Buffer,
    index_count: i32,
}

uniforms! {
    /// Uniform locations looked up once.
    struct Uniforms {
        brush: "u_brush",
        slots: "u_slots",
        textured: "u_textured",
        time: "u_time",
    }
    arrays {
        diffuse: "u_diffuse"; 4,
    }
}

/// The liquid renderer: a shader and the tiles' surfaces uploaded so far.
pub struct LiquidRenderer {
    program: glow::Program,
    tiles: HashMap<TileCoord, GpuLiquid>,
    uniforms: Uniforms,
    /// Seconds into the animation the next draw shows.
    time: f64,
    /// The camera and light uniforms every renderer shares.
    view: super::shader::ViewUniforms,
}

const VERTEX_SHADER: &str = r#"
layout(location = 0) in vec3 a_position;
layout(location = 1) in float a_depth;
layout(location = 2) in uint a_kind;
uniform mat4 u_view_projection;
out vec3 v_world;
out float v_depth;
flat out uint v_kind;
void main() {
    v_world = a_position;
    v_depth = a_depth;
    v_kind = a_kind;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
"#;

const FRAGMENT_SHADER: &str = r#"
precision highp float;
precision highp sampler2DArray;
in vec3 v_world;
in float v_depth;
flat in uint v_kind;
uniform vec3 u_eye;
uniform vec3 u_sky;
uniform vec3 u_water[4]; // river shallow, deep; ocean shallow, deep
uniform vec4 u_brush;
// The terrain store's arrays by size class, and per kind its texture's slot
// (class << 16 | layer) and whether it has one.
uniform sampler2DArray u_diffuse0;
uniform sampler2DArray u_diffuse1;
uniform sampler2DArray u_diffuse2;
uniform sampler2DArray u_diffuse3;
uniform uvec4 u_slots;
uniform uvec4 u_textured;
uniform float u_time;
out vec4 o_color;
vec3 liquid_texture(uint slot, vec2 uv) {
    uint class_index = slot >> 16;
    vec3 at = vec3(uv, float(slot & 0xFFFFu));
    if (class_index == 0u) return texture(u_diffuse0, at).rgb;
    if (class_index == 1u) return texture(u_diffuse1, at).rgb;
    if (class_index == 2u) return texture(u_diffuse2, at).rgb;
    return texture(u_diffuse3, at).rgb;
}
void main() {
    // Shallow and deep colours of water, ocean, magma and slime.
    // Water and ocean take the light's river and ocean bands (`doc::light`).
    vec3 shallow[4] = vec3[4](u_water[0], u_water[2],
                              vec3(1.00, 0.62, 0.10), vec3(0.55, 0.80, 0.20));
    vec3 deep[4] = vec3[4](u_water[1], u_water[3],
                           vec3(0.80, 0.18, 0.02), vec3(0.20, 0.42, 0.05));
    uint k = min(v_kind, 3u);
    // Full depth tint at 8 yards of water.
    float d = clamp(v_depth / 8.0, 0.0, 1.0);
    vec3 color = mix(shallow[k], deep[k], d);
    if (u_textured[k] != 0u) {
        // One repeat every two liquid quads (8⅓ yards).
        vec3 tex = liquid_texture(u_slots[k], v_world.xy / 8.3333);
        color = mix(color, tex, 0.6);
    } else {
        // The stand-in moves too: two wave trains drifting across each other (±10%).
        vec2 p = v_world.xy / 8.3333;
        float waves = sin(dot(p, vec2(2.1, 1.3)) * 3.1416 + u_time * 2.4)
                    * sin(dot(p, vec2(-1.2, 2.3)) * 3.1416 - u_time * 1.7);
        color *= 1.0 + 0.1 * waves;
    }
    float alpha = k == 2u ? 0.92 : (k == 3u ? 0.85 : mix(0.45, 0.85, d));
    if (k < 2u) {
        // Glancing views see the sky in the surface.
        vec3 view = normalize(u_eye - v_world);
        float fresnel = pow(1.0 - clamp(view.z, 0.0, 1.0), 4.0);
        color = mix(color, u_sky, 0.5 * fresnel);
        alpha = mix(alpha, 1.0, 0.5 * fresnel);
    }
    if (u_brush.w > 0.5) {
        float ring = outline(length(v_world.xy - u_brush.xy) - u_brush.z);
        color = mix(color, vec3(1.0), 0.9 * ring);
        alpha = max(alpha, ring);
    }
    o_color = vec4(hazed(color, v_world, u_eye, u_sky), alpha);
}
"#;

impl LiquidRenderer {
    /// Compiles the shader. Fails (with the driver's log) when the context cannot run it.
    pub fn new(gl: &glow::Context) -> Result<LiquidRenderer, String> {
        // SAFETY: plain GL calls on the caller's current context.
        unsafe {
            let (program, uniforms) =
                Uniforms::compile(gl, VERTEX_SHADER, FRAGMENT_SHADER, "liquid")?;
            Ok(LiquidRenderer {
                program,
                tiles: HashMap::new(),
                uniforms,
                time: 0.0,
                view: super::shader::ViewUniforms::locate(gl, program),
            })
        }
    }

    /// Uploads (or replaces) a tile's liquid; a tile without liquid just drops the old one.
    pub fn upload(
        &mut self,
        gl: &glow::Context,
        coord: TileCoord,
        mesh: &LiquidMesh,
    ) -> Result<(), String> {
        self.remove(gl, coord);
        if mesh.is_empty() {
            return Ok(());
        }
        // SAFETY: plain GL calls on the caller's current context; sizes come from the slices.
        let tile = unsafe { upload_tile(gl, mesh)? };
        self.tiles.insert(coord, tile);
        Ok(())
    }

    /// True when no tile's liquid is on the GPU: the pass draws nothing.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Sets the time the next draws show, in seconds (the procedural stand-ins' drift).
    pub fn set_time(&mut self, seconds: f64) {
        self.time = seconds;
    }

    /// Frees a tile's liquid.
    pub fn remove(&mut self, gl: &glow::Context, coord: TileCoord) {
        if let Some(t) = self.tiles.remove(&coord) {
            // SAFETY: the objects were created on this context and are no longer used.
            unsafe {
                gl.delete_vertex_array(t.vao);
                gl.delete_buffer(t.vbo);
                gl.delete_buffer(t.ebo);
            }
        }
    }

    /// Draws every tile's liquid, blended over what is already drawn, tested against but not
    /// writing depth (so surfaces behind each other all show). `textures` gives the store to
    /// sample and each kind's texture path (water, ocean, magma, slime); kinds whose texture the
    /// store does not hold (yet) are drawn in their colour. Restores what egui expects.
    pub fn draw(
        &self,
        gl: &glow::Context,
        params: &FrameParams,
        textures: Option<(&TerrainRenderer, &[String; 4])>,
    ) {
        if self.tiles.is_empty() || !params.overlays.liquids {
            return;
        }
        // SAFETY: plain GL calls on the caller's current context with objects it owns.
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.depth_mask(false);
            gl.enable(glow::BLEND);
            gl.blend_func_separate(
                glow::SRC_ALPHA,
                glow::ONE_MINUS_SRC_ALPHA,
                glow::ONE,
                glow::ONE_MINUS_SRC_ALPHA,
            );
            gl.disable(glow::CULL_FACE);
            // Liquid often lies exactly on the ground (pvpzone3430's ocean at 0 over ground at
            // 0): pulled toward the eye, it wins the depth test instead of flickering.
            gl.enable(glow::POLYGON_OFFSET_FILL);
            gl.polygon_offset(-1.0, -4.0);
            gl.use_program(Some(self.program));
            let u = &self.uniforms;
            let camera = (&params.view_projection, params.eye);
            super::shader::set_view(gl, &self.view, camera, &params.light);
            let (bxy, br, on) = params
                .overlays
                .brush
                .map_or(([0.0, 0.0], 0.0, 0.0), |(p, r)| (p, r, 1.0));
            gl.uniform_4_f32(u.brush.as_ref(), bxy[0], bxy[1], br, on);
            // Wrapped to keep the sines' arguments precise in f32 (a whole number of periods
            // of both wave trains is not needed: a jump once an hour is invisible).
            gl.uniform_1_f32(u.time.as_ref(), self.time.rem_euclid(3600.0) as f32);
            let slots: [Option<u32>; 4] = match textures {
                Some((store, names)) => {
                    store.bind_textures(gl, 0);
                    std::array::from_fn(|k| store.real_texture_slot(&names[k]))
                }
                None => [None; 4],
            };
            for (i, loc) in u.diffuse.iter().enumerate() {
                gl.uniform_1_i32(loc.as_ref(), i as i32);
            }
            gl.uniform_4_u32_slice(u.slots.as_ref(), &slots.map(|s| s.unwrap_or(0)));
            gl.uniform_4_u32_slice(u.textured.as_ref(), &slots.map(|s| s.is_some() as u32));
            for tile in self.tiles.values() {
                gl.bind_vertex_array(Some(tile.vao));
                gl.draw_elements(glow::TRIANGLES, tile.index_count, glow::UNSIGNED_INT, 0);
            }
            gl.bind_vertex_array(None);
            for unit in 0..4 {
                gl.active_texture(glow::TEXTURE0 + unit);
                gl.bind_texture(glow::TEXTURE_2D_ARRAY, None);
            }
            gl.active_texture(glow::TEXTURE0);
            gl.use_program(None);
            gl.depth_mask(true);
            gl.disable(glow::POLYGON_OFFSET_FILL);
            gl.disable(glow::BLEND);
            gl.disable(glow::DEPTH_TEST);
        }
    }

    /// Frees everything (call from `on_exit`).
    pub fn destroy(&mut self, gl: &glow::Context) {
        let coords: Vec<TileCoord> = self.tiles.keys().copied().collect();
        for c in coords {
            self.remove(gl, c);
        }
        // SAFETY: the program was created on this context.
        unsafe { gl.delete_program(self.program) };
    }
}

/// Creates a tile's buffers.
unsafe fn upload_tile(gl: &glow::Context, mesh: &LiquidMesh) -> Result<GpuLiquid, String> {
    unsafe {
        let (vao, vbo) = super::buffers::vertex_array(gl, bytemuck::cast_slice(&mesh.vertices))?;
        let ebo = super::buffers::static_buffer(
            gl,
            glow::ELEMENT_ARRAY_BUFFER,
            bytemuck::cast_slice(&mesh.indices),
        )?;
        let stride = std::mem::size_of::<LiquidVertex>() as i32;
        gl.enable_vertex_attrib_array(0);
        gl.vertex_attrib_pointer_f32(0, 3, glow::FLOAT, false, stride, 0);
        gl.enable_vertex_attrib_array(1);
        gl.vertex_attrib_pointer_f32(1, 1, glow::FLOAT, false, stride, 12);
        gl.enable_vertex_attrib_array(2);
        gl.vertex_attrib_pointer_i32(2, 1, glow::UNSIGNED_INT, stride, 16);
        gl.bind_vertex_array(None);
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        Ok(GpuLiquid {
            vao,
            vbo,
            ebo,
            index_count: mesh.indices.len() as i32,
        })
    }
}
