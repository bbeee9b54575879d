//! The terrain on the GPU: one shader program, per tile a vertex/index buffer and a texture
//! array of chunk alpha maps, and the map-wide store of layer textures (`texture_store`) that
//! every tile samples through its own list of slots.
//!
//! Not for: building meshes (see `render::mesh`) or choosing which tiles to keep (the app
//! does). Every call takes the `glow::Context` so the same code draws into egui's window, an
//! offscreen EGL framebuffer in tests, or the screenshot window.

use super::shader::uniforms;
use std::collections::HashMap;

use glow::HasContext;

use super::frame::FrameParams;
use super::mesh::{ALPHA_SIDE, CHUNKS_PER_TILE, TerrainVertex, TileMesh};
use super::texture_store::{TextureStore, texture_key};
use crate::model::TileCoord;
use crate::model::coords::{CHUNK_SIZE, TILE_SIZE};

pub use super::shader::SKY_COLOR;

/// One tile's GPU objects.
struct GpuTile {
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    ebo: glow::Buffer,
    alpha: glow::Texture,
    /// 8×8 texels a chunk: the ground effect of each cell (`mesh::TileMesh::effects`).
    effects: glow::Texture,
    /// The tile's texture list as store keys; layer `i` of a chunk samples `textures[i]`.
    textures: Vec<String>,
    /// Each chunk's area overlay colour, packed `0xRRGGBB`.
    area_colours: [u32; CHUNKS_PER_TILE],
    index_count: i32,
}

/// The area overlay's colour of an area id: a hue drawn from the id's bits, so that
/// neighbouring ids (a zone's subzones are often numbered in a row) differ at a glance and an
/// id has the same colour in every session; grey for 0 (no area).
pub fn area_colour(id: u32) -> [u8; 3] {
    if id == 0 {
        return [128, 128, 128];
    }
    // A multiplicative hash spreads consecutive ids around the hue circle.
    let h = id.wrapping_mul(0x9E37_79B9);
    let hue = (h >> 8) as f32 / (1u32 << 24) as f32 * 6.0;
    let value = if h & 0x80 == 0 { 0.95 } else { 0.75 };
    let (saturation, sector) = (0.7, hue.floor());
    let f = hue - sector;
    let (p, q, t) = (
        value * (1.0 - saturation),
        value * (1.0 - saturation * f),
        value * (1.0 - saturation * (1.0 - f)),
    );
    let (r, g, b) = match sector as u32 {
        0 => (value, t, p),
        1 => (q, value, p),
        2 => (p, value, t),
        3 => (p, q, value),
        4 => (t, p, value),
        _ => (value, p, q),
    };
    [r, g, b].map(|c| (c * 255.0).round() as u8)
}

/// The texture unit of the ground-effects overlay (0: alpha, 1..=4: the texture store).
const EFFECTS_UNIT: u32 = 5;

/// Entries of a tile's texture list the shader can address (`mesh::NO_LAYER` is 255).
const MAX_TILE_TEXTURES: usize = 255;

/// The terrain renderer: a shader and the tiles uploaded so far.
pub struct TerrainRenderer {
    program: glow::Program,
    tiles: HashMap<TileCoord, GpuTile>,
    store: TextureStore,
    uniforms: Uniforms,
    /// The camera and light uniforms every renderer shares.
    view: super::shader::ViewUniforms,
}

uniforms! {
    /// Uniform locations looked up once.
    struct Uniforms {
        alpha: "u_alpha",
        slots: "u_slots[0]",
        sizes: "u_sizes",
        overlays: "u_overlays",
        areas: "u_areas[0]",
        brush: "u_brush",
        rect: "u_rect",
        rect_on: "u_rect_on",
        effects: "u_effects",
        effects_on: "u_effects_on",
    }
    arrays {
        diffuse: "u_diffuse"; 4,
    }
}

const VERTEX_SHADER: &str = r#"
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_color;
layout(location = 3) in vec2 a_uv;
layout(location = 4) in uvec4 a_layers;
layout(location = 5) in uint a_chunk;
uniform mat4 u_view_projection;
out vec3 v_world;
out vec3 v_normal;
out vec4 v_color;
out vec2 v_uv;
flat out uvec4 v_layers;
flat out uint v_chunk;
void main() {
    v_world = a_position;
    v_normal = a_normal;
    v_color = a_color;
    v_uv = a_uv;
    v_layers = a_layers;
    v_chunk = a_chunk;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
"#;

const FRAGMENT_SHADER: &str = r#"
precision highp float;
precision highp sampler2DArray;
in vec3 v_world;
in vec3 v_normal;
in vec4 v_color;
in vec2 v_uv;
flat in uvec4 v_layers;
flat in uint v_chunk;
uniform sampler2DArray u_alpha;
// Each cell's ground effect: RGB its hue, A 1 where it grows, 0.5 where switched off.
uniform sampler2DArray u_effects;
uniform int u_effects_on;
// The store's texture arrays by size class: 64, 128, 256, 512 texels.
uniform sampler2DArray u_diffuse0;
uniform sampler2DArray u_diffuse1;
uniform sampler2DArray u_diffuse2;
uniform sampler2DArray u_diffuse3;
// The tile's texture list as store slots, four to a vector: class << 16 | layer.
uniform uvec4 u_slots[64];
uniform vec3 u_light;     // direction the light travels
uniform vec2 u_sizes;     // chunk size, tile size (yards)
// The tile's area overlay colours, one packed 0xRRGGBB a chunk, four to a vector.
uniform uvec4 u_areas[64];
uniform ivec4 u_overlays; // chunk grid, tile grid, layer count, areas
uniform vec4 u_brush;     // x, y, radius, enabled
uniform vec4 u_rect;      // x0, y0, x1, y1 of the outlined rectangle
uniform int u_rect_on;
uniform vec3 u_eye;
uniform vec3 u_sky;
out vec4 o_color;

// Layer textures repeat eight times across a chunk, as in the client: WebWowViewerCpp's
// commonADTMaterial.glsl (calcAdtAlphaUV, transformADTUV) gives each vertex its index 0..8
// across the chunk as the layer UV, scaled by 1 unless a later client's MTXP says otherwise.
// Gradients are taken outside the class branch so that mip selection is well defined.
vec3 layer_color(uint index, vec2 uv, vec2 dx, vec2 dy) {
    uint slot = u_slots[index / 4u][index % 4u];
    uint class_index = slot >> 16;
    vec3 at = vec3(uv, float(slot & 0xFFFFu));
    if (class_index == 0u) return textureGrad(u_diffuse0, at, dx, dy).rgb;
    if (class_index == 1u) return textureGrad(u_diffuse1, at, dx, dy).rgb;
    if (class_index == 2u) return textureGrad(u_diffuse2, at, dx, dy).rgb;
    return textureGrad(u_diffuse3, at, dx, dy).rgb;
}

// 1 on a grid line of spacing `size`, fading out over about one pixel.
float grid(float size, float width) {
    vec2 p = v_world.xy / size;
    vec2 d = abs(fract(p - 0.5) - 0.5) / max(fwidth(p), vec2(1e-6));
    return 1.0 - clamp(min(d.x, d.y) - width, 0.0, 1.0);
}

void main() {
    vec4 alpha = texture(u_alpha, vec3(v_uv, float(v_chunk)));
    vec2 uv = v_uv * 8.0;
    vec2 dx = dFdx(uv);
    vec2 dy = dFdy(uv);
    vec3 color = v_layers.x != 255u ? layer_color(v_layers.x, uv, dx, dy) : vec3(0.5);
    if (v_layers.y != 255u) color = mix(color, layer_color(v_layers.y, uv, dx, dy), alpha.r);
    if (v_layers.z != 255u) color = mix(color, layer_color(v_layers.z, uv, dx, dy), alpha.g);
    if (v_layers.w != 255u) color = mix(color, layer_color(v_layers.w, uv, dx, dy), alpha.b);
    // MCCV: 0x7F is neutral, so twice the stored value is the tint.
    color *= clamp(v_color.rgb * 2.0, 0.0, 2.0);
    float diffuse = max(dot(normalize(v_normal), -u_light), 0.0);
    color *= sunlit(diffuse) * mix(1.0, 0.55, alpha.a);

    if (u_overlays.z != 0) {
        int n = int(v_layers.x != 255u) + int(v_layers.y != 255u)
              + int(v_layers.z != 255u) + int(v_layers.w != 255u);
        vec3 tint = n <= 1 ? vec3(0.2, 0.4, 1.0)
                  : n == 2 ? vec3(0.2, 0.9, 0.3)
                  : n == 3 ? vec3(1.0, 0.85, 0.2)
                  : vec3(1.0, 0.1, 0.1);
        color = mix(color, tint, n >= 4 ? 0.7 : 0.45);
    }
    if (u_overlays.w != 0) {
        uint rgb = u_areas[v_chunk / 4u][v_chunk % 4u];
        vec3 tint = vec3(uvec3(rgb >> 16, rgb >> 8, rgb) & 255u) / 255.0;
        color = mix(color, tint, 0.55);
    }
    if (u_effects_on != 0) {
        vec2 cells = v_uv * 8.0;
        ivec2 cell = clamp(ivec2(floor(cells)), ivec2(0), ivec2(7));
        vec4 e = texelFetch(u_effects, ivec3(cell, int(v_chunk)), 0);
        vec2 f = cells - vec2(cell);
        if (e.a > 0.75) {
            // Four dots a cell, at places hashed from the cell: where its doodads would grow.
            float dots = 0.0;
            float r = max(0.07, 1.5 * fwidth(cells.x));
            for (int k = 0; k < 4; k++) {
                float seed = float(cell.x * 31 + cell.y * 17 + k * 7) + float(v_chunk) * 0.37;
                vec2 p = 0.15 + 0.7 * fract(sin(vec2(seed, seed + 1.7)) * vec2(43758.5453, 22578.1459));
                dots = max(dots, 1.0 - smoothstep(r * 0.7, r, length(f - p)));
            }
            color = mix(color, e.rgb, 0.22);
            color = mix(color, e.rgb * 1.15, 0.9 * dots);
        } else if (e.a > 0.25) {
            float hatch = step(0.5, fract((f.x + f.y) * 3.0));
            color = mix(color, vec3(0.2, 0.05, 0.05), 0.3 + 0.3 * hatch);
        }
    }
    if (u_overlays.x != 0) color = mix(color, vec3(0.1), 0.6 * grid(u_sizes.x, 0.0));
    if (u_overlays.y != 0) color = mix(color, vec3(1.0, 0.9, 0.2), 0.9 * grid(u_sizes.y, 0.5));
    if (u_rect_on != 0) {
        vec2 lo = u_rect.xy, hi = u_rect.zw;
        vec2 p = v_world.xy;
        // Distance outside (positive) or inside (negative) the rectangle's border.
        vec2 d2 = max(lo - p, p - hi);
        float d = max(d2.x, d2.y);
        float line = outline(d);
        if (d < 0.0) color = mix(color, vec3(0.6, 0.85, 1.0), 0.18);
        color = mix(color, vec3(1.0), 0.9 * line);
    }
    if (u_brush.w > 0.5) {
        float d = length(v_world.xy - u_brush.xy);
        float ring = outline(d - u_brush.z);
        color = mix(color, vec3(1.0), 0.9 * ring);
        if (d < u_brush.z) color = mix(color, vec3(1.0, 1.0, 0.6), 0.12);
    }
    o_color = vec4(hazed(color, v_world, u_eye, u_sky), 1.0);
}
"#;

impl TerrainRenderer {
    /// Compiles the shader. Fails (with the driver's log) when the context cannot run it.
    pub fn new(gl: &glow::Context) -> Result<TerrainRenderer, String> {
        // SAFETY: plain GL calls on the caller's current context.
        unsafe {
            let (program, uniforms) =
                Uniforms::compile(gl, VERTEX_SHADER, FRAGMENT_SHADER, "terrain")?;
            Ok(TerrainRenderer {
                program,
                tiles: HashMap::new(),
                store: TextureStore::new(gl),
                uniforms,
                view: super::shader::ViewUniforms::locate(gl, program),
            })
        }
    }

    /// The tiles on the GPU.
    pub fn tile_coords(&self) -> Vec<TileCoord> {
        self.tiles.keys().copied().collect()
    }

    /// Uploads (or replaces) a tile's mesh with its texture list (game paths, in the tile's
    /// order). Each path draws its procedural stand-in until `set_texture` gives its real one.
    pub fn upload(
        &mut self,
        gl: &glow::Context,
        mesh: &TileMesh,
        textures: &[String],
    ) -> Result<(), String> {
        self.remove(gl, mesh.coord);
        let keys: Vec<String> = textures
            .iter()
            .take(MAX_TILE_TEXTURES)
            .map(|n| texture_key(n))
            .collect();
        for key in &keys {
            self.store.ensure_stand_in(gl, key)?;
        }
        // SAFETY: plain GL calls on the caller's current context; buffer sizes come from the
        // slices passed.
        let tile = unsafe { upload_tile(gl, mesh, keys)? };
        self.tiles.insert(mesh.coord, tile);
        Ok(())
    }

    /// Gives a texture path its real texture: `levels` is the square mip chain of a side in
    /// `texture_store::CLASS_SIDES` (see `texture_store::mip_chain`). Every tile naming the
    /// path shows it from the next frame.
    pub fn set_texture(
        &mut self,
        gl: &glow::Context,
        name: &str,
        levels: &[Vec<u8>],
    ) -> Result<(), String> {
        self.store.set_real(gl, &texture_key(name), levels)
    }

    /// The packed store slot of a path's real texture (`class << 16 | layer`), for another
    /// renderer sampling the store (the liquid's); `None` while only its stand-in is there.
    pub fn real_texture_slot(&self, name: &str) -> Option<u32> {
        let key = texture_key(name);
        if !self.store.has_real(&key) {
            return None;
        }
        self.store.slot(&key).map(|s| s.packed())
    }

    /// Binds the store's four size-class arrays to texture units `first_unit..first_unit + 4`.
    pub fn bind_textures(&self, gl: &glow::Context, first_unit: u32) {
        self.store.bind(gl, first_unit);
    }

    /// True when a path's real texture is on the GPU.
    pub fn has_texture(&self, name: &str) -> bool {
        self.store.has_real(&texture_key(name))
    }

    /// Forgets every layer texture (a new client data folder); tiles must be uploaded again.
    pub fn clear_textures(&mut self, gl: &glow::Context) {
        for coord in self.tile_coords() {
            self.remove(gl, coord);
        }
        self.store.destroy(gl);
    }

    /// Frees a tile's GPU objects.
    pub fn remove(&mut self, gl: &glow::Context, coord: TileCoord) {
        if let Some(t) = self.tiles.remove(&coord) {
            // SAFETY: the objects were created on this context and are no longer used.
            unsafe { delete_tile(gl, &t) };
        }
    }

    /// Draws every uploaded tile into the bound framebuffer and viewport. Sets the GL state it
    /// needs (depth test, no blending, no culling) and restores what egui expects after.
    pub fn draw(&self, gl: &glow::Context, params: &FrameParams) {
        // SAFETY: plain GL calls on the caller's current context with objects it owns.
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.depth_mask(true);
            gl.disable(glow::BLEND);
            gl.disable(glow::CULL_FACE);
            gl.use_program(Some(self.program));
            let u = &self.uniforms;
            let camera = (&params.view_projection, params.eye);
            super::shader::set_view(gl, &self.view, camera, &params.light);
            gl.uniform_2_f32(u.sizes.as_ref(), CHUNK_SIZE as f32, TILE_SIZE as f32);
            let o = params.overlays;
            gl.uniform_4_i32(
                u.overlays.as_ref(),
                o.chunk_grid as i32,
                o.tile_grid as i32,
                o.layer_count as i32,
                o.areas as i32,
            );
            let (bxy, br, on) = o.brush.map_or(([0.0, 0.0], 0.0, 0.0), |(p, r)| (p, r, 1.0));
            gl.uniform_4_f32(u.brush.as_ref(), bxy[0], bxy[1], br, on);
            let r = o.rect.unwrap_or_default();
            gl.uniform_4_f32(u.rect.as_ref(), r[0], r[1], r[2], r[3]);
            gl.uniform_1_i32(u.rect_on.as_ref(), o.rect.is_some() as i32);
            gl.uniform_1_i32(u.effects_on.as_ref(), o.ground_effects as i32);
            gl.uniform_1_i32(u.effects.as_ref(), EFFECTS_UNIT as i32);
            gl.uniform_1_i32(u.alpha.as_ref(), 0);
            for (i, loc) in u.diffuse.iter().enumerate() {
                gl.uniform_1_i32(loc.as_ref(), 1 + i as i32);
            }
            self.store.bind(gl, 1);
            let mut slots = [0u32; 256];
            for tile in self.tiles.values() {
                // Looked up each frame, so that a texture that arrived since shows at once.
                for (slot, key) in slots.iter_mut().zip(&tile.textures) {
                    *slot = self.store.slot(key).map_or(0, |s| s.packed());
                }
                gl.uniform_4_u32_slice(u.slots.as_ref(), &slots);
                if o.areas {
                    gl.uniform_4_u32_slice(u.areas.as_ref(), &tile.area_colours);
                }
                if o.ground_effects {
                    gl.active_texture(glow::TEXTURE0 + EFFECTS_UNIT);
                    gl.bind_texture(glow::TEXTURE_2D_ARRAY, Some(tile.effects));
                }
                gl.active_texture(glow::TEXTURE0);
                gl.bind_texture(glow::TEXTURE_2D_ARRAY, Some(tile.alpha));
                gl.bind_vertex_array(Some(tile.vao));
                gl.draw_elements(glow::TRIANGLES, tile.index_count, glow::UNSIGNED_INT, 0);
            }
            gl.bind_vertex_array(None);
            for unit in 1..=EFFECTS_UNIT {
                gl.active_texture(glow::TEXTURE0 + unit);
                gl.bind_texture(glow::TEXTURE_2D_ARRAY, None);
            }
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D_ARRAY, None);
            gl.use_program(None);
            gl.disable(glow::DEPTH_TEST);
        }
    }

    /// Frees everything (call from `on_exit`).
    pub fn destroy(&mut self, gl: &glow::Context) {
        self.clear_textures(gl);
        // SAFETY: the program was created on this context.
        unsafe { gl.delete_program(self.program) };
    }
}

/// Creates a tile's buffers and textures.
unsafe fn upload_tile(
    gl: &glow::Context,
    mesh: &TileMesh,
    textures: Vec<String>,
) -> Result<GpuTile, String> {
    unsafe {
        let (vao, vbo) = super::buffers::vertex_array(gl, bytemuck::cast_slice(&mesh.vertices))?;
        let ebo = super::buffers::static_buffer(
            gl,
            glow::ELEMENT_ARRAY_BUFFER,
            bytemuck::cast_slice(&mesh.indices),
        )?;
        let stride = std::mem::size_of::<TerrainVertex>() as i32;
        let float_attrs: [(u32, i32, u32, bool, i32); 4] = [
            (0, 3, glow::FLOAT, false, 0),
            (1, 3, glow::BYTE, true, 12),
            (2, 4, glow::UNSIGNED_BYTE, true, 16),
            (3, 2, glow::FLOAT, false, 20),
        ];
        for (index, size, ty, normalized, offset) in float_attrs {
            gl.enable_vertex_attrib_array(index);
            gl.vertex_attrib_pointer_f32(index, size, ty, normalized, stride, offset);
        }
        gl.enable_vertex_attrib_array(4);
        gl.vertex_attrib_pointer_i32(4, 4, glow::UNSIGNED_BYTE, stride, 28);
        gl.enable_vertex_attrib_array(5);
        gl.vertex_attrib_pointer_i32(5, 1, glow::UNSIGNED_INT, stride, 32);
        gl.bind_vertex_array(None);
        gl.bind_buffer(glow::ARRAY_BUFFER, None);

        let alpha = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_2D_ARRAY, Some(alpha));
        gl.tex_image_3d(
            glow::TEXTURE_2D_ARRAY,
            0,
            glow::RGBA8 as i32,
            ALPHA_SIDE as i32,
            ALPHA_SIDE as i32,
            CHUNKS_PER_TILE as i32,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelUnpackData::Slice(Some(bytemuck::cast_slice(&mesh.alpha))),
        );
        // Alpha maps: linear, clamped to the chunk, no mipmaps.
        let t = glow::TEXTURE_2D_ARRAY;
        let clamp = glow::CLAMP_TO_EDGE as i32;
        gl.tex_parameter_i32(t, glow::TEXTURE_WRAP_S, clamp);
        gl.tex_parameter_i32(t, glow::TEXTURE_WRAP_T, clamp);
        gl.tex_parameter_i32(t, glow::TEXTURE_MIN_FILTER, glow::LINEAR as i32);
        gl.tex_parameter_i32(t, glow::TEXTURE_MAG_FILTER, glow::LINEAR as i32);

        gl.bind_texture(glow::TEXTURE_2D_ARRAY, None);
        let effects = effects_texture(gl, &mesh.effects)?;

        Ok(GpuTile {
            vao,
            vbo,
            ebo,
            alpha,
            effects,
            textures,
            area_colours: std::array::from_fn(|i| {
                let [r, g, b] = area_colour(mesh.area_ids.get(i).copied().unwrap_or(0));
                u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b)
            }),
            index_count: mesh.indices.len() as i32,
        })
    }
}

/// Frees a tile's objects.
unsafe fn delete_tile(gl: &glow::Context, t: &GpuTile) {
    unsafe {
        gl.delete_vertex_array(t.vao);
        gl.delete_buffer(t.vbo);
        gl.delete_buffer(t.ebo);
        gl.delete_texture(t.alpha);
        gl.delete_texture(t.effects);
    }
}

/// The ground-effects overlay's texture: 8×8 RGBA texels a chunk, nearest filtering (one
/// colour a cell). `cells` holds each cell's effect as `mesh::TileMesh::effects` does.
unsafe fn effects_texture(gl: &glow::Context, cells: &[u32]) -> Result<glow::Texture, String> {
    let texels: Vec<u8> = cells
        .iter()
        .flat_map(|&e| match e {
            super::mesh::EFFECTS_OFF => [0, 0, 0, 128],
            0 => [0, 0, 0, 0],
            id => {
                let [r, g, b] = area_colour(id);
                [r, g, b, 255]
            }
        })
        .collect();
    unsafe {
        let t = gl.create_texture()?;
        let target = glow::TEXTURE_2D_ARRAY;
        gl.bind_texture(target, Some(t));
        gl.tex_image_3d(
            target,
            0,
            glow::RGBA8 as i32,
            8,
            8,
            CHUNKS_PER_TILE as i32,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelUnpackData::Slice(Some(&texels)),
        );
        for (p, v) in [
            (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
            (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
            (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
            (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
        ] {
            gl.tex_parameter_i32(target, p, v as i32);
        }
        gl.bind_texture(target, None);
        Ok(t)
    }
}
