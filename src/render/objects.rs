//! Placed models on the GPU: one upload per model (vertex, colour and index buffers), one
//! texture per model texture path, and each frame one instanced draw per (model, batch) with
//! the world matrices of the model's visible instances; boxes for placeholders and outlines.
//!
//! Animated models are skinned on the CPU ([`ObjectRenderer::pose`]): once per frame per model
//! with a visible instance, whatever its instance count, and the moved vertices replace its
//! vertex buffer. Every instance of a model therefore shows the same moment of its stand
//! sequence, where the client starts each instance at its own time; a model off screen, or
//! whose bones never move, costs nothing. CPU skinning over a bone palette in the shader
//! because the instanced draw stays as it is, Mesa's llvmpipe gains nothing from moving the
//! work into a vertex shader it also runs on the CPU, and the 0.5.x MDX groups (any number of
//! bones, equal weights) need no second vertex layout.
//!
//! Not for: reading model files (`assets::models` gives the meshes) or choosing what is
//! visible (`render::scene` builds the draw list).

use super::shader::uniforms;
use std::collections::HashMap;

use glow::HasContext;

use super::frame::FrameParams;
use super::scene::{DrawList, ModelId};
use super::texture_store::texture_key;
use crate::assets::models::wmo_light::BatchLight;
use crate::assets::models::{BlendMode, Indices, ModelMesh, Rig, TextureRef, Vertex};

/// Alpha below which an alpha-keyed texel is discarded. The client's alpha reference for
/// `GxBlend_AlphaKey` is not documented in the specs we have; half keeps leaves and fences
/// readable.
const ALPHA_KEY_THRESHOLD: f32 = 0.5;
/// Blended batches drop texels that would add nothing.
const BLEND_THRESHOLD: f32 = 1.0 / 255.0;

/// One batch as drawn.
struct GpuBatch {
    first_index: u32,
    index_count: i32,
    blend: BlendMode,
    /// Texture key, `None` for a replaceable or absent texture (drawn plain grey).
    texture: Option<String>,
    unlit: bool,
    unfogged: bool,
    /// The model's vertex colours add light (a WMO group's fixed-up MOCV).
    vertex_colors: bool,
    /// Lit by this ambient colour and not the sun (a WMO interior group's, MOHD).
    interior_ambient: Option<[f32; 3]>,
    /// Index into the renderer's samplers: bit 0 clamps s, bit 1 clamps t.
    sampler: usize,
}

/// One uploaded model.
struct GpuModel {
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    cbo: Option<glow::Buffer>,
    ebo: glow::Buffer,
    index_type: u32,
    batches: Vec<GpuBatch>,
    /// The bones that move it, for a model whose bones move.
    animation: Option<Animation>,
}

/// What posing an animated model needs: its bind pose, its rig, and the time its vertex
/// buffer shows.
struct Animation {
    rig: std::sync::Arc<Rig>,
    bind: Vec<Vertex>,
    posed_at: Option<f64>,
    /// The skinned vertices, kept between frames to spare the allocation.
    scratch: Vec<Vertex>,
}

/// Draw statistics of the last frame.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Instances drawn as models.
    pub instances: usize,
    /// Placeholder and outline boxes drawn.
    pub boxes: usize,
    /// GL draw calls made for objects.
    pub draw_calls: usize,
}

/// The object renderer: a shader, the uploaded models and their textures.
pub struct ObjectRenderer {
    program: glow::Program,
    uniforms: Uniforms,
    /// The camera and light uniforms every renderer shares.
    view: super::shader::ViewUniforms,
    models: HashMap<ModelId, GpuModel>,
    textures: HashMap<String, glow::Texture>,
    /// 1×1 white, for batches without a texture and boxes.
    white: glow::Texture,
    /// Repeat/clamp combinations: bit 0 clamps s, bit 1 clamps t.
    samplers: [glow::Sampler; 4],
    /// The frame's instance matrices, all models together.
    instance_buffer: glow::Buffer,
    cube: GpuModel,
    cube_edges: glow::Buffer,
}

uniforms! {
    /// Uniform locations looked up once.
    struct Uniforms {
        texture: "u_texture",
        alpha_test: "u_alpha_test",
        flags: "u_flags",
        tint: "u_tint",
        interior: "u_interior",
    }
}

const VERTEX_SHADER: &str = r#"
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in vec4 a_color;
layout(location = 4) in mat4 a_model;
uniform mat4 u_view_projection;
out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
out vec4 v_color;
void main() {
    vec4 world = a_model * vec4(a_position, 1.0);
    v_world = world.xyz;
    // Placement matrices scale uniformly, so the model matrix turns normals too.
    v_normal = mat3(a_model) * a_normal;
    v_uv = a_uv;
    v_color = a_color;
    gl_Position = u_view_projection * world;
}
"#;

const FRAGMENT_SHADER: &str = r#"
precision highp float;
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in vec4 v_color;
uniform sampler2D u_texture;
uniform float u_alpha_test;
uniform ivec3 u_flags; // unlit, unfogged, vertex colours add light
// A WMO interior group's light: rgb the WMO's ambient colour (MOHD), a 1 (0: the sun's).
uniform vec4 u_interior;
uniform vec4 u_tint;
uniform vec3 u_light;
uniform vec3 u_eye;
uniform vec3 u_sky;
out vec4 o_color;
void main() {
    vec4 texel = texture(u_texture, v_uv) * u_tint;
    if (texel.a < u_alpha_test) discard;
    vec3 light = vec3(1.0);
    // WMO groups as the client lights them (assets::models::wmo_light::batch_light): inside,
    // the WMO's ambient and no sun; outside, the sun; both plus twice the fixed-up MOCV.
    if (u_flags.x == 0 && u_interior.a > 0.5) {
        light = u_interior.rgb;
    } else if (u_flags.x == 0) {
        vec3 n = normalize(v_normal);
        // Faces are drawn from both sides: light the side the eye sees.
        if (dot(n, u_eye - v_world) < 0.0) n = -n;
        light = sunlit(max(dot(n, -u_light), 0.0));
    }
    if (u_flags.x == 0 && u_flags.z != 0) light = clamp(light + 2.0 * v_color.rgb, 0.0, 1.0);
    vec3 color = texel.rgb * light;
    if (u_flags.y == 0) color = hazed(color, v_world, u_eye, u_sky);
    o_color = vec4(color, texel.a);
}
"#;

/// The blend factors of a blend mode, `None` for the opaque ones.
fn blend_factors(mode: BlendMode) -> Option<(u32, u32)> {
    use BlendMode::*;
    Some(match mode {
        Opaque | AlphaKey => return None,
        Alpha => (glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA),
        Add => (glow::SRC_ALPHA, glow::ONE),
        Mod => (glow::DST_COLOR, glow::ZERO),
        Mod2x => (glow::DST_COLOR, glow::SRC_COLOR),
        ModAdd => (glow::DST_COLOR, glow::ONE),
        InvSrcAlphaAdd => (glow::ONE_MINUS_SRC_ALPHA, glow::ONE),
        InvSrcAlphaOpaque => (glow::ONE_MINUS_SRC_ALPHA, glow::ZERO),
        SrcAlphaOpaque => (glow::SRC_ALPHA, glow::ZERO),
        NoAlphaAdd => (glow::ONE, glow::ONE),
        ConstantAlpha => (glow::CONSTANT_ALPHA, glow::ONE_MINUS_CONSTANT_ALPHA),
        Screen => (glow::ONE_MINUS_DST_COLOR, glow::ONE),
        BlendAdd => (glow::ONE, glow::ONE_MINUS_SRC_ALPHA),
    })
}

/// The unit cube (0..1) as 8 corners, its 12 triangles and its 12 edges.
fn unit_cube() -> (Vec<Vertex>, Vec<u16>, Vec<u16>) {
    let cube = crate::assets::models::Aabb {
        min: [0.0; 3],
        max: [1.0; 3],
    };
    let vertices = (cube.corners().into_iter())
        .map(|p| Vertex {
            position: p,
            normal: p.map(|c| c * 2.0 - 1.0),
            ..Vertex::default()
        })
        .collect();
    let triangles = crate::assets::models::Aabb::FACE_TRIANGLES.to_vec();
    let edges = vec![
        0, 1, 1, 3, 3, 2, 2, 0, 4, 5, 5, 7, 7, 6, 6, 4, 0, 4, 1, 5, 3, 7, 2, 6,
    ];
    (vertices, triangles, edges)
}

impl ObjectRenderer {
    /// Compiles the shader and makes the shared objects.
    pub fn new(gl: &glow::Context) -> Result<ObjectRenderer, String> {
        // SAFETY: plain GL calls on the caller's current context.
        unsafe {
            let (program, uniforms) =
                Uniforms::compile(gl, VERTEX_SHADER, FRAGMENT_SHADER, "object")?;
            let white = gl.create_texture()?;
            gl.bind_texture(glow::TEXTURE_2D, Some(white));
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA8 as i32,
                1,
                1,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(&[255, 255, 255, 255])),
            );
            gl.tex_parameter_i32(
                glow::TEXTURE_2D,
                glow::TEXTURE_MIN_FILTER,
                glow::NEAREST as i32,
            );
            gl.bind_texture(glow::TEXTURE_2D, None);
            let mut samplers = Vec::new();
            for i in 0..4 {
                let s = gl.create_sampler()?;
                let wrap = |clamp: bool| {
                    if clamp {
                        glow::CLAMP_TO_EDGE as i32
                    } else {
                        glow::REPEAT as i32
                    }
                };
                gl.sampler_parameter_i32(s, glow::TEXTURE_WRAP_S, wrap(i & 1 != 0));
                gl.sampler_parameter_i32(s, glow::TEXTURE_WRAP_T, wrap(i & 2 != 0));
                gl.sampler_parameter_i32(
                    s,
                    glow::TEXTURE_MIN_FILTER,
                    glow::LINEAR_MIPMAP_LINEAR as i32,
                );
                gl.sampler_parameter_i32(s, glow::TEXTURE_MAG_FILTER, glow::LINEAR as i32);
                samplers.push(s);
            }
            let instance_buffer = gl.create_buffer()?;
            let (vertices, triangles, edges) = unit_cube();
            let cube_mesh = ModelMesh {
                vertices,
                colors: None,
                indices: Indices::U16(triangles),
                batches: Vec::new(),
                textures: Vec::new(),
                bounds: Default::default(),
            };
            let cube = upload_model(gl, &cube_mesh, &[], instance_buffer)?;
            let cube_edges = super::buffers::static_buffer(
                gl,
                glow::ELEMENT_ARRAY_BUFFER,
                bytemuck::cast_slice(&edges),
            )?;
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, None);
            Ok(ObjectRenderer {
                program,
                uniforms,
                view: super::shader::ViewUniforms::locate(gl, program),
                models: HashMap::new(),
                textures: HashMap::new(),
                white,
                samplers: samplers.try_into().map_err(|_| "samplers")?,
                instance_buffer,
                cube,
                cube_edges,
            })
        }
    }

    /// Uploads (or replaces) model `id`. `lights` says per batch how it is lit (a WMO group's
    /// vertex colours and interior ambient); missing entries mean by the sun alone.
    pub fn upload(
        &mut self,
        gl: &glow::Context,
        id: ModelId,
        mesh: &ModelMesh,
        lights: &[BatchLight],
    ) -> Result<(), String> {
        self.remove(gl, id);
        // SAFETY: plain GL calls on the caller's current context; sizes come from the mesh.
        let model = unsafe { upload_model(gl, mesh, lights, self.instance_buffer)? };
        self.models.insert(id, model);
        Ok(())
    }

    /// Uploads model `id` (as [`ObjectRenderer::upload`]) whose bones `rig` moves: drawn in its
    /// bind pose until [`ObjectRenderer::pose`] moves it. A rig that does not match the mesh
    /// (one influence per vertex) is ignored.
    pub fn upload_rigged(
        &mut self,
        gl: &glow::Context,
        id: ModelId,
        mesh: &ModelMesh,
        lights: &[BatchLight],
        rig: std::sync::Arc<Rig>,
    ) -> Result<(), String> {
        self.upload(gl, id, mesh, lights)?;
        if let Some(m) = self.models.get_mut(&id)
            && rig.influences.len() == mesh.vertices.len()
        {
            m.animation = Some(Animation {
                rig,
                bind: mesh.vertices.clone(),
                posed_at: None,
                scratch: Vec::with_capacity(mesh.vertices.len()),
            });
        }
        Ok(())
    }

    /// Moves every animated model with a visible instance in `list` to `seconds` into its
    /// stand sequence: one skinning per model, its vertex buffer replaced. Models posed at that
    /// time already, off screen or still are skipped. Returns how many were posed.
    pub fn pose(&mut self, gl: &glow::Context, list: &DrawList, seconds: f64) -> usize {
        let mut posed = 0;
        for (id, instances) in &list.models {
            if instances.is_empty() {
                continue;
            }
            let Some(model) = self.models.get_mut(id) else {
                continue;
            };
            let Some(a) = model.animation.as_mut() else {
                continue;
            };
            if a.posed_at == Some(seconds) {
                continue;
            }
            let bones = a.rig.pose(seconds);
            a.rig.skin(&a.bind, &bones, &mut a.scratch);
            // SAFETY: the buffer was made for exactly `bind.len()` vertices on this context.
            unsafe {
                gl.bind_buffer(glow::ARRAY_BUFFER, Some(model.vbo));
                gl.buffer_sub_data_u8_slice(
                    glow::ARRAY_BUFFER,
                    0,
                    bytemuck::cast_slice(&a.scratch),
                );
                gl.bind_buffer(glow::ARRAY_BUFFER, None);
            }
            a.posed_at = Some(seconds);
            posed += 1;
        }
        posed
    }

    /// True when model `id` is on the GPU.
    pub fn has_model(&self, id: ModelId) -> bool {
        self.models.contains_key(&id)
    }

    /// Gives a model texture path its pixels (RGBA8 rows, top first); mipmaps are made here.
    pub fn set_texture(
        &mut self,
        gl: &glow::Context,
        name: &str,
        width: usize,
        height: usize,
        rgba: &[u8],
    ) -> Result<(), String> {
        if width == 0 || height == 0 || rgba.len() != width * height * 4 {
            return Err(format!(
                "{name}: {width}×{height} texture with {} bytes",
                rgba.len()
            ));
        }
        let key = texture_key(name);
        // SAFETY: plain GL calls on the caller's current context; the slice holds w×h texels.
        unsafe {
            let texture = match self.textures.get(&key) {
                Some(t) => *t,
                None => gl.create_texture()?,
            };
            gl.bind_texture(glow::TEXTURE_2D, Some(texture));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA8 as i32,
                width as i32,
                height as i32,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(rgba)),
            );
            gl.generate_mipmap(glow::TEXTURE_2D);
            gl.bind_texture(glow::TEXTURE_2D, None);
            self.textures.insert(key, texture);
        }
        Ok(())
    }

    /// True when a model texture path has its pixels on the GPU.
    pub fn has_texture(&self, name: &str) -> bool {
        self.textures.contains_key(&texture_key(name))
    }

    /// Frees model `id`.
    pub fn remove(&mut self, gl: &glow::Context, id: ModelId) {
        if let Some(m) = self.models.remove(&id) {
            // SAFETY: the objects were created on this context and are no longer used.
            unsafe { delete_model(gl, &m) };
        }
    }

    /// Frees every model and texture (a new map or client); the shared objects stay.
    pub fn clear(&mut self, gl: &glow::Context) {
        let ids: Vec<ModelId> = self.models.keys().copied().collect();
        for id in ids {
            self.remove(gl, id);
        }
        for (_, t) in self.textures.drain() {
            // SAFETY: created on this context, no longer referenced.
            unsafe { gl.delete_texture(t) };
        }
    }

    /// Draws the list into the bound framebuffer (after the terrain, sharing its depth).
    /// Opaque and alpha-keyed batches first, then blended ones without depth writes; faces
    /// from both sides. Leaves GL as egui expects it.
    pub fn draw(&self, gl: &glow::Context, params: &FrameParams, list: &DrawList) -> DrawStats {
        let mut stats = DrawStats::default();
        let matrices: Vec<f32> = list
            .models
            .iter()
            .filter(|(id, _)| self.models.contains_key(id))
            .flat_map(|(_, m)| m.iter())
            .chain(list.placeholders.iter())
            .chain(list.markers.iter())
            .chain(list.bounds.iter())
            .chain(list.selected.iter())
            .flat_map(|m| m.to_cols_array())
            .collect();
        if matrices.is_empty() {
            return stats;
        }
        // SAFETY: plain GL calls on the caller's current context with objects it owns; every
        // instance range lies inside the buffer filled here.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.instance_buffer));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&matrices),
                glow::STREAM_DRAW,
            );
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.disable(glow::CULL_FACE);
            gl.use_program(Some(self.program));
            let u = &self.uniforms;
            let camera = (&params.view_projection, params.eye);
            super::shader::set_view(gl, &self.view, camera, &params.light);
            gl.uniform_1_i32(u.texture.as_ref(), 0);
            gl.active_texture(glow::TEXTURE0);

            // Where each model's instances start in the buffer.
            let mut first = 0usize;
            let mut ranges = Vec::new();
            for (id, m) in &list.models {
                if let Some(model) = self.models.get(id) {
                    ranges.push((model, first, m.len()));
                    first += m.len();
                    stats.instances += m.len();
                }
            }
            for blended in [false, true] {
                gl.depth_mask(!blended);
                if blended {
                    gl.enable(glow::BLEND);
                } else {
                    gl.disable(glow::BLEND);
                }
                for &(model, start, count) in &ranges {
                    self.bind_instances(gl, model, start);
                    gl.uniform_4_f32(u.tint.as_ref(), 1.0, 1.0, 1.0, 1.0);
                    for b in &model.batches {
                        let factors = blend_factors(b.blend);
                        if factors.is_some() != blended {
                            continue;
                        }
                        if let Some((src, dst)) = factors {
                            gl.blend_func(src, dst);
                        }
                        let threshold = match b.blend {
                            BlendMode::Opaque => 0.0,
                            BlendMode::AlphaKey => ALPHA_KEY_THRESHOLD,
                            _ => BLEND_THRESHOLD,
                        };
                        gl.uniform_1_f32(u.alpha_test.as_ref(), threshold);
                        gl.uniform_3_i32(
                            u.flags.as_ref(),
                            b.unlit as i32,
                            b.unfogged as i32,
                            b.vertex_colors as i32,
                        );
                        let [r, g, bl] = b.interior_ambient.unwrap_or_default();
                        let inside = b.interior_ambient.map_or(0.0, |_| 1.0);
                        gl.uniform_4_f32(u.interior.as_ref(), r, g, bl, inside);
                        let texture = b.texture.as_ref().and_then(|k| self.textures.get(k));
                        if texture.is_none() {
                            // No texture (or not arrived yet): plain grey.
                            gl.uniform_4_f32(u.tint.as_ref(), 0.6, 0.6, 0.6, 1.0);
                        }
                        gl.bind_texture(glow::TEXTURE_2D, Some(*texture.unwrap_or(&self.white)));
                        gl.bind_sampler(0, Some(self.samplers[b.sampler]));
                        let size = if model.index_type == glow::UNSIGNED_SHORT {
                            2
                        } else {
                            4
                        };
                        gl.draw_elements_instanced(
                            glow::TRIANGLES,
                            b.index_count,
                            model.index_type,
                            (b.first_index as usize * size) as i32,
                            count as i32,
                        );
                        if texture.is_none() {
                            gl.uniform_4_f32(u.tint.as_ref(), 1.0, 1.0, 1.0, 1.0);
                        }
                        stats.draw_calls += 1;
                    }
                }
            }
            gl.bind_sampler(0, None);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.white));

            // Placeholders: magenta edges (and, when asked, a see-through fill), and a solid
            // marker at the object's origin; outlines: yellow edges; the selection: white
            // edges, drawn over everything so it shows through walls.
            gl.uniform_1_f32(u.alpha_test.as_ref(), 0.0);
            gl.uniform_3_i32(u.flags.as_ref(), 1, 0, 0);
            gl.uniform_4_f32(u.interior.as_ref(), 0.0, 0.0, 0.0, 0.0);
            let cube = &self.cube;
            let magenta = [1.0, 0.2, 0.9];
            let placeholder_fill = list.placeholder_fill.then_some(0.35);
            let boxes = [
                (list.placeholders.len(), magenta, placeholder_fill, magenta),
                (list.markers.len(), magenta, Some(1.0), [0.35, 0.05, 0.3]),
                (list.bounds.len(), [1.0, 0.9, 0.2], None, [1.0, 0.9, 0.2]),
                (list.selected.len(), [1.0; 3], None, [1.0; 3]),
            ];
            for (i, (count, color, fill, edges)) in boxes.into_iter().enumerate() {
                if i == 3 {
                    gl.disable(glow::DEPTH_TEST);
                }
                if count > 0 {
                    self.bind_instances(gl, cube, first);
                    if let Some(alpha) = fill {
                        let see_through = alpha < 1.0;
                        if see_through {
                            gl.enable(glow::BLEND);
                            gl.blend_func(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA);
                        }
                        gl.depth_mask(!see_through);
                        gl.uniform_4_f32(u.tint.as_ref(), color[0], color[1], color[2], alpha);
                        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(cube.ebo));
                        gl.draw_elements_instanced(
                            glow::TRIANGLES,
                            36,
                            glow::UNSIGNED_SHORT,
                            0,
                            count as i32,
                        );
                        stats.draw_calls += 1;
                    }
                    gl.disable(glow::BLEND);
                    gl.depth_mask(true);
                    gl.uniform_4_f32(u.tint.as_ref(), edges[0], edges[1], edges[2], 1.0);
                    gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.cube_edges));
                    gl.draw_elements_instanced(
                        glow::LINES,
                        24,
                        glow::UNSIGNED_SHORT,
                        0,
                        count as i32,
                    );
                    // The VAO remembers the element buffer: give the cube its triangles back.
                    gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(cube.ebo));
                    stats.draw_calls += 1;
                    // A marker belongs to its placeholder's box: boxes count objects.
                    if i != 1 {
                        stats.boxes += count;
                    }
                    first += count;
                }
            }
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            gl.bind_texture(glow::TEXTURE_2D, None);
            gl.disable(glow::BLEND);
            gl.depth_mask(true);
            gl.use_program(None);
            gl.disable(glow::DEPTH_TEST);
        }
        stats
    }

    /// Points a model's instance attributes at its range of the frame's instance buffer.
    unsafe fn bind_instances(&self, gl: &glow::Context, model: &GpuModel, first: usize) {
        unsafe {
            gl.bind_vertex_array(Some(model.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.instance_buffer));
            let base = (first * 64) as i32;
            for column in 0..4u32 {
                gl.vertex_attrib_pointer_f32(
                    4 + column,
                    4,
                    glow::FLOAT,
                    false,
                    64,
                    base + column as i32 * 16,
                );
            }
            if model.cbo.is_none() {
                // No colour buffer: the attribute's constant value applies.
                gl.vertex_attrib_4_f32(3, 1.0, 1.0, 1.0, 1.0);
            }
        }
    }

    /// Frees everything (call from `on_exit`).
    pub fn destroy(&mut self, gl: &glow::Context) {
        self.clear(gl);
        // SAFETY: created on this context, no longer used.
        unsafe {
            delete_model(gl, &self.cube);
            gl.delete_buffer(self.cube_edges);
            gl.delete_buffer(self.instance_buffer);
            gl.delete_texture(self.white);
            for s in self.samplers {
                gl.delete_sampler(s);
            }
            gl.delete_program(self.program);
        }
    }
}

/// Creates a model's buffers and vertex array; its instance attributes read from
/// `instances` (pointed at the right range before each draw).
unsafe fn upload_model(
    gl: &glow::Context,
    mesh: &ModelMesh,
    lights: &[BatchLight],
    instances: glow::Buffer,
) -> Result<GpuModel, String> {
    unsafe {
        let (vao, vbo) = super::buffers::vertex_array(gl, bytemuck::cast_slice(&mesh.vertices))?;
        let stride = std::mem::size_of::<Vertex>() as i32;
        for (index, size, offset) in [(0u32, 3, 0), (1, 3, 12), (2, 2, 24)] {
            gl.enable_vertex_attrib_array(index);
            gl.vertex_attrib_pointer_f32(index, size, glow::FLOAT, false, stride, offset);
        }
        let cbo = match &mesh.colors {
            Some(colors) if colors.len() == mesh.vertices.len() => {
                let cbo = super::buffers::static_buffer(
                    gl,
                    glow::ARRAY_BUFFER,
                    bytemuck::cast_slice(colors),
                )?;
                gl.enable_vertex_attrib_array(3);
                gl.vertex_attrib_pointer_f32(3, 4, glow::UNSIGNED_BYTE, true, 4, 0);
                Some(cbo)
            }
            _ => None,
        };
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(instances));
        for column in 0..4u32 {
            gl.enable_vertex_attrib_array(4 + column);
            gl.vertex_attrib_pointer_f32(4 + column, 4, glow::FLOAT, false, 64, column as i32 * 16);
            gl.vertex_attrib_divisor(4 + column, 1);
        }
        let (indices, index_type): (&[u8], u32) = match &mesh.indices {
            Indices::U16(v) => (bytemuck::cast_slice(v), glow::UNSIGNED_SHORT),
            Indices::U32(v) => (bytemuck::cast_slice(v), glow::UNSIGNED_INT),
        };
        let ebo = super::buffers::static_buffer(gl, glow::ELEMENT_ARRAY_BUFFER, indices)?;
        gl.bind_vertex_array(None);
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, None);
        let index_len = mesh.indices.len() as u32;
        let batches = mesh
            .batches
            .iter()
            .enumerate()
            .filter(|(_, b)| b.index_count > 0 && b.first_index + b.index_count <= index_len)
            .map(|(i, b)| {
                let m = b.material;
                GpuBatch {
                    first_index: b.first_index,
                    index_count: b.index_count as i32,
                    blend: m.blend,
                    texture: m.texture.and_then(|t| match mesh.textures.get(t) {
                        Some(TextureRef::File(name)) => Some(texture_key(name)),
                        _ => None,
                    }),
                    unlit: m.unlit,
                    unfogged: m.unfogged,
                    vertex_colors: cbo.is_some() && lights.get(i).is_some_and(|l| l.vertex_colors),
                    interior_ambient: lights.get(i).and_then(|l| l.interior_ambient),
                    sampler: m.clamp_s as usize | (m.clamp_t as usize) << 1,
                }
            })
            .collect();
        Ok(GpuModel {
            vao,
            vbo,
            cbo,
            ebo,
            index_type,
            batches,
            animation: None,
        })
    }
}

/// Frees a model's objects.
unsafe fn delete_model(gl: &glow::Context, m: &GpuModel) {
    unsafe {
        gl.delete_vertex_array(m.vao);
        gl.delete_buffer(m.vbo);
        if let Some(c) = m.cbo {
            gl.delete_buffer(c);
        }
        gl.delete_buffer(m.ebo);
    }
}
