//! The sky dome: one triangle over the whole view, each pixel coloured by how high its view
//! ray points, from the light's sky-top band straight up through the middle bands to the
//! horizon band and the fog colour below (`doc::light::SceneLight`). Drawn first, without
//! depth, and with no tone mapping: straight up, a pixel is the sky-top colour as the tables
//! give it.
//!
//! The bands sit where Noggit Red's dome puts its rings (`src/noggit/Sky.cpp`, `angles[]`:
//! 90°, 18°, 10°, 3°, 0°, −30°); between two rings the colour runs linearly in the ray's
//! height (the sine of its elevation), as it does across the flat triangles of that dome.
//!
//! Not for: the light's colours (`doc::light`) or fog on the terrain (`render::shader`).

use glow::HasContext;

use super::shader::uniforms;
use super::terrain::FrameParams;

const VERTEX_SHADER: &str = r#"
out vec2 v_ndc;
void main() {
    // One triangle covering the view: (-1,-1), (3,-1), (-1,3).
    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));
    v_ndc = p;
    gl_Position = vec4(p, 1.0, 1.0);
}
"#;

const FRAGMENT_SHADER: &str = r#"
in vec2 v_ndc;
uniform mat4 u_inverse;
uniform vec3 u_eye;
uniform vec3 u_bands[6]; // sky top, middle, band 1, band 2, horizon, fog
out vec4 o_color;
void main() {
    vec4 far = u_inverse * vec4(v_ndc, 1.0, 1.0);
    float h = normalize(far.xyz / far.w - u_eye).z;
    // The rings' heights: sin 90°, 18°, 10°, 3°, 0°, -30°.
    float ring[6] = float[6](1.0, 0.309017, 0.173648, 0.052336, 0.0, -0.5);
    vec3 color = u_bands[5];
    if (h >= ring[0]) color = u_bands[0];
    for (int i = 0; i < 5; i++) {
        if (h < ring[i] && h >= ring[i + 1]) {
            color = mix(u_bands[i], u_bands[i + 1], (ring[i] - h) / (ring[i] - ring[i + 1]));
        }
    }
    o_color = vec4(color, 1.0);
}
"#;

uniforms! {
    /// Uniform locations looked up once.
    struct Uniforms {
        inverse: "u_inverse",
        eye: "u_eye",
        bands: "u_bands[0]",
    }
}

/// The sky's program and the empty vertex array its triangle is drawn from.
pub struct SkyRenderer {
    program: glow::Program,
    vao: glow::VertexArray,
    uniforms: Uniforms,
}

impl SkyRenderer {
    /// Compiles the shader. Fails (with the driver's log) when the context cannot run it.
    pub fn new(gl: &glow::Context) -> Result<SkyRenderer, String> {
        // SAFETY: plain GL calls on the caller's current context.
        unsafe {
            let (program, uniforms) = Uniforms::compile(gl, VERTEX_SHADER, FRAGMENT_SHADER, "sky")?;
            let vao = gl.create_vertex_array()?;
            Ok(SkyRenderer {
                program,
                vao,
                uniforms,
            })
        }
    }

    /// Fills the view with the sky, leaving depth untouched so everything drawn after is in
    /// front of it.
    pub fn draw(&self, gl: &glow::Context, params: &FrameParams) {
        let light = &params.light;
        let mut bands: Vec<f32> = light.sky.iter().flatten().copied().collect();
        bands.extend(light.fog);
        let inverse = params.view_projection.inverse().to_cols_array();
        // SAFETY: plain GL calls on the caller's current context with objects it owns.
        unsafe {
            gl.disable(glow::DEPTH_TEST);
            gl.disable(glow::BLEND);
            gl.disable(glow::CULL_FACE);
            gl.use_program(Some(self.program));
            let u = &self.uniforms;
            gl.uniform_matrix_4_f32_slice(u.inverse.as_ref(), false, &inverse);
            gl.uniform_3_f32(u.eye.as_ref(), params.eye.x, params.eye.y, params.eye.z);
            gl.uniform_3_f32_slice(u.bands.as_ref(), &bands);
            gl.bind_vertex_array(Some(self.vao));
            gl.draw_arrays(glow::TRIANGLES, 0, 3);
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
        }
    }
}
