//! The sky dome: one triangle over the whole view, each pixel coloured by how high its view
//! ray points, from the light's sky-top band straight up through the middle bands to the
//! horizon band and the fog colour below (`doc::light::SceneLight`). Drawn after the horizon at
//! the far depth, so only the pixels nothing covers are shaded, and with no tone mapping:
//! straight up, a pixel is the sky-top colour as the tables give it.
//!
//! The bands sit where Noggit Red's dome puts its rings (`src/noggit/Sky.cpp`, `angles[]`:
//! 90°, 18°, 10°, 3°, 0°, −30°); between two rings the colour runs linearly in the ray's
//! height (the sine of its elevation), as it does across the flat triangles of that dome.
//!
//! Not for: the light's colours (`doc::light`) or fog on the terrain (`render::shader`).

use glow::HasContext;

use super::frame::FrameParams;
use super::shader::uniforms;

const VERTEX_SHADER: &str = r#"
uniform mat4 u_inverse;
out vec4 v_far;
void main() {
    // One triangle covering the view: (-1,-1), (3,-1), (-1,3).
    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));
    // The far plane's point under each corner: linear in the view's x and y, so interpolating
    // it is exact, and no pixel pays for the matrix.
    v_far = u_inverse * vec4(p, 1.0, 1.0);
    gl_Position = vec4(p, 1.0, 1.0);
}
"#;

const FRAGMENT_SHADER: &str = r#"
in vec4 v_far;
uniform vec3 u_eye;
uniform vec3 u_bands[6]; // sky top, middle, band 1, band 2, horizon, fog
out vec4 o_color;
void main() {
    float h = normalize(v_far.xyz / v_far.w - u_eye).z;
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

/// Rows of the view the sky is sampled at to find its lowest.
const SAMPLE_ROWS: usize = 64;

/// The lowest row of the view (clip-space y, −1 at the bottom) where some ray from `eye`
/// rises to `floor` (the sine of its elevation) or higher, one sample row lower for the rays
/// between samples; 1.0 when none does. `inverse` maps clip space back to the world. The
/// camera has no roll, so along a row a ray's elevation is extreme at the middle or the edges,
/// which are sampled.
pub fn sky_bottom(inverse: &glam::Mat4, eye: glam::Vec3, floor: f32) -> f32 {
    let step = 2.0 / SAMPLE_ROWS as f32;
    let mut bottom = 1.0f32;
    for r in 0..=SAMPLE_ROWS {
        let y = -1.0 + r as f32 * step;
        let reaches = (0..=16).any(|k| {
            let x = -1.0 + k as f32 / 8.0;
            let far = *inverse * glam::Vec4::new(x, y, 1.0, 1.0);
            let ray = (far.truncate() / far.w - eye).normalize();
            ray.z >= floor
        });
        if reaches {
            bottom = bottom.min(y - step);
        }
    }
    bottom.max(-1.0)
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

    /// Fills what the horizon left of the view with the sky: at the far depth, passing only
    /// where depth is still the cleared 1.0, and writing none. Where every ray falls more
    /// steeply than `floor` (a sine of elevation, `HorizonRenderer::sky_floor`) the ground
    /// covers the view, so the rows below the last ray that does not are left out: on a
    /// software renderer each pixel a pass touches costs, shaded or not.
    pub fn draw(&self, gl: &glow::Context, params: &FrameParams, floor: Option<f32>) {
        let light = &params.light;
        let mut bands: Vec<f32> = light.sky.iter().flatten().copied().collect();
        bands.extend(light.fog);
        let inverse = params.view_projection.inverse();
        let bottom = floor.map_or(-1.0, |f| sky_bottom(&inverse, params.eye, f));
        if bottom >= 1.0 {
            return;
        }
        let inverse = inverse.to_cols_array();
        // SAFETY: plain GL calls on the caller's current context with objects it owns.
        unsafe {
            // egui set the viewport and scissor to the view's rectangle; the sky's rows are
            // the part of it above `bottom`.
            let mut viewport = [0i32; 4];
            let mut scissor = [0i32; 4];
            gl.get_parameter_i32_slice(glow::VIEWPORT, &mut viewport);
            gl.get_parameter_i32_slice(glow::SCISSOR_BOX, &mut scissor);
            let was_scissored = gl.is_enabled(glow::SCISSOR_TEST);
            if bottom > -1.0 {
                let row = viewport[1] + ((bottom + 1.0) * 0.5 * viewport[3] as f32).floor() as i32;
                let (low, high) = if was_scissored {
                    (scissor[1].max(row), scissor[1] + scissor[3])
                } else {
                    (row, viewport[1] + viewport[3])
                };
                let (x, width) = if was_scissored {
                    (scissor[0], scissor[2])
                } else {
                    (viewport[0], viewport[2])
                };
                gl.enable(glow::SCISSOR_TEST);
                gl.scissor(x, low, width, (high - low).max(0));
            }
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.depth_mask(false);
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
            if bottom > -1.0 {
                gl.scissor(scissor[0], scissor[1], scissor[2], scissor[3]);
                if !was_scissored {
                    gl.disable(glow::SCISSOR_TEST);
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn inverse(pitch: f32) -> (glam::Mat4, glam::Vec3) {
        let eye = glam::Vec3::new(0.0, 0.0, 100.0);
        let forward = glam::Vec3::new(pitch.cos(), 0.0, pitch.sin());
        let view = glam::camera::rh::view::look_to_mat4(eye, forward, glam::Vec3::Z);
        let proj = glam::camera::rh::proj::opengl::perspective(0.9, 1.3, 1.0, 2000.0);
        ((proj * view).inverse(), eye)
    }

    /// The elevation sine of the ray through clip-space (`x`, `y`).
    fn elevation(inverse: &glam::Mat4, eye: glam::Vec3, x: f32, y: f32) -> f32 {
        let far = *inverse * glam::Vec4::new(x, y, 1.0, 1.0);
        (far.truncate() / far.w - eye).normalize().z
    }

    #[test]
    fn no_ray_below_the_sky_bottom_reaches_the_floor() {
        for pitch in [-0.6f32, -0.2, 0.0, 0.3] {
            let (inv, eye) = inverse(pitch);
            for floor in [-0.3f32, -0.05, 0.0, 0.2] {
                let bottom = sky_bottom(&inv, eye, floor);
                // Far finer than the function's own samples.
                for r in 0..400 {
                    let y = -1.0 + r as f32 / 200.0;
                    if y >= bottom {
                        continue;
                    }
                    for k in 0..=100 {
                        let x = -1.0 + k as f32 / 50.0;
                        assert!(
                            elevation(&inv, eye, x, y) < floor,
                            "pitch {pitch}, floor {floor}: ({x}, {y}) below {bottom}"
                        );
                    }
                }
                // And it is no more than two sample rows below the lowest ray that reaches.
                let lowest = (0..400).map(|r| -1.0 + r as f32 / 200.0).find(|&y| {
                    (0..=100).any(|k| elevation(&inv, eye, -1.0 + k as f32 / 50.0, y) >= floor)
                });
                if let Some(y) = lowest {
                    assert!(bottom >= y - 2.0 * 2.0 / SAMPLE_ROWS as f32 - 0.01);
                }
            }
        }
    }

    #[test]
    fn a_level_view_has_sky_down_to_its_middle_and_none_when_nothing_reaches() {
        let (inv, eye) = inverse(0.0);
        let bottom = sky_bottom(&inv, eye, 0.0);
        assert!(
            (-2.0 / SAMPLE_ROWS as f32 - 1e-4..=0.0).contains(&bottom),
            "{bottom}"
        );
        assert_eq!(sky_bottom(&inv, eye, -1.0), -1.0);
        assert_eq!(sky_bottom(&inv, eye, 1.5), 1.0);
    }
}
