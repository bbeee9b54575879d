//! Compiling and linking a GLSL program from a vertex and a fragment shader, for desktop GL 3.3
//! core or GLES 3.0, with the driver's log in the error, and the renderers' uniform locations
//! (`uniforms!`), looked up once. Shared by the terrain, object and liquid renderers.
//!
//! Not for: the shaders themselves (each renderer owns its sources).

use glow::HasContext;

/// GLSL every shader may call: the scene's light. It opens with the float precision, which
/// GLES wants before any float in a fragment shader (a second statement in the shader is
/// allowed).
const LIGHT_COMMON: &str = r#"
precision highp float;
// The scene's light (`shader::set_view`): where the fog starts and is whole (yards from the
// eye), the light every surface gets and the sun's.
uniform vec2 u_fog_range;
uniform vec3 u_ambient;
uniform vec3 u_sun_colour;
// Distance fog toward the fog colour `sky`, linear from the fog's start to its end, as the
// client's fog runs (`doc::light`).
vec3 hazed(vec3 color, vec3 world, vec3 eye, vec3 sky) {
    float span = max(u_fog_range.y - u_fog_range.x, 1.0);
    float fog = clamp((length(world - eye) - u_fog_range.x) / span, 0.0, 1.0);
    return mix(color, sky, fog);
}
// The light a surface gets: the ambient light plus the sun's times how squarely it faces the
// sun (`facing`, 0..1).
vec3 sunlit(float facing) {
    return u_ambient + u_sun_colour * facing;
}
"#;

/// GLSL every fragment shader may call besides [`LIGHT_COMMON`]: what only a fragment shader
/// can compute (`fwidth`).
const FRAGMENT_COMMON: &str = r#"
// A line about two pixels wide where the signed distance d crosses zero (brush rings,
// selection borders): 1 on the line, fading to 0 one pixel out.
float outline(float d) {
    float w = max(fwidth(d), 1e-4);
    return 1.0 - clamp(abs(d) / w - 1.0, 0.0, 1.0);
}
"#;

/// Prepends the GLSL version line (desktop GL 3.3 core or GLES 3.0) and the functions the
/// shaders share (the light's to every one, `outline` to fragment shaders).
fn with_version(gl: &glow::Context, kind: u32, source: &str) -> String {
    let header = if gl.version().is_embedded {
        "#version 300 es\n"
    } else {
        "#version 330 core\n"
    };
    let fragment = if kind == glow::FRAGMENT_SHADER {
        FRAGMENT_COMMON
    } else {
        ""
    };
    format!("{header}{LIGHT_COMMON}{fragment}{source}")
}

/// Compiles `vertex` and `fragment` and links them; `what` names the program in errors
/// ("terrain shader: …").
///
/// # Safety
/// `gl` must be the current context.
pub unsafe fn compile_program(
    gl: &glow::Context,
    vertex: &str,
    fragment: &str,
    what: &str,
) -> Result<glow::Program, String> {
    unsafe {
        let program = gl.create_program()?;
        let mut shaders = Vec::new();
        for (kind, src) in [
            (glow::VERTEX_SHADER, vertex),
            (glow::FRAGMENT_SHADER, fragment),
        ] {
            let shader = gl.create_shader(kind)?;
            gl.shader_source(shader, &with_version(gl, kind, src));
            gl.compile_shader(shader);
            if !gl.get_shader_compile_status(shader) {
                let log = gl.get_shader_info_log(shader);
                gl.delete_shader(shader);
                gl.delete_program(program);
                return Err(format!("{what} shader: {log}"));
            }
            gl.attach_shader(program, shader);
            shaders.push(shader);
        }
        gl.link_program(program);
        for s in shaders {
            gl.detach_shader(program, s);
            gl.delete_shader(s);
        }
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            return Err(format!("{what} program: {log}"));
        }
        Ok(program)
    }
}

/// The default light's fog colour at noon (`doc::light::ZoneLights::default_day`): what a
/// frame drawn without the sky (the offscreen tests) clears to.
pub const SKY_COLOR: [f32; 3] = [0.52, 0.66, 0.80];

/// The uniforms every lit renderer's shader shares: the camera, and the scene's light (fog,
/// ambient and sun), looked up once after the program links.
pub struct ViewUniforms {
    view_projection: Option<glow::UniformLocation>,
    eye: Option<glow::UniformLocation>,
    fog_colour: Option<glow::UniformLocation>,
    fog_range: Option<glow::UniformLocation>,
    ambient: Option<glow::UniformLocation>,
    sun_colour: Option<glow::UniformLocation>,
    sun: Option<glow::UniformLocation>,
    water: Option<glow::UniformLocation>,
}

impl ViewUniforms {
    /// Looks the shared uniforms up in `program` (`u_view_projection`, `u_eye`, `u_sky` for
    /// the fog colour, `u_fog_range`, `u_ambient`, `u_sun_colour`, `u_light` for the sun's
    /// direction, `u_water` for the river and ocean colours); a shader that lacks one simply does not get it.
    ///
    /// # Safety
    /// A GL context must be current and `program` linked in it.
    pub unsafe fn locate(gl: &glow::Context, program: glow::Program) -> ViewUniforms {
        // SAFETY: plain GL queries on the caller's current context.
        unsafe {
            let at = |name: &str| gl.get_uniform_location(program, name);
            ViewUniforms {
                view_projection: at("u_view_projection"),
                eye: at("u_eye"),
                fog_colour: at("u_sky"),
                fog_range: at("u_fog_range"),
                ambient: at("u_ambient"),
                sun_colour: at("u_sun_colour"),
                sun: at("u_light"),
                water: at("u_water[0]"),
            }
        }
    }
}

/// Sets the uniforms every renderer's shader has: the camera's view-projection matrix and eye,
/// and the frame's light (`doc::light::SceneLight`): the fog colour and range, the ambient
/// and sun colours and the sun's direction.
///
/// # Safety
/// A GL context must be current, with the program the locations belong to in use.
pub unsafe fn set_view(
    gl: &glow::Context,
    u: &ViewUniforms,
    camera: (&glam::Mat4, glam::Vec3),
    light: &crate::doc::light::SceneLight,
) {
    let (view_projection, eye) = camera;
    let v3 = |loc: &Option<glow::UniformLocation>, c: [f32; 3]| {
        // SAFETY: plain GL calls on the caller's current context.
        unsafe { gl.uniform_3_f32(loc.as_ref(), c[0], c[1], c[2]) }
    };
    // SAFETY: plain GL calls on the caller's current context.
    unsafe {
        let matrix = view_projection.to_cols_array();
        gl.uniform_matrix_4_f32_slice(u.view_projection.as_ref(), false, &matrix);
        gl.uniform_2_f32(u.fog_range.as_ref(), light.fog_range[0], light.fog_range[1]);
    }
    v3(&u.eye, eye.to_array());
    v3(&u.fog_colour, light.fog);
    v3(&u.ambient, light.ambient);
    v3(&u.sun_colour, light.diffuse);
    v3(&u.sun, light.sun);
    let water: Vec<f32> = [light.river, light.ocean]
        .iter()
        .flatten()
        .flatten()
        .copied()
        .collect();
    // SAFETY: plain GL calls on the caller's current context.
    unsafe { gl.uniform_3_f32_slice(u.water.as_ref(), &water) };
}

/// Declares a renderer's uniform locations as a struct with a `locate(gl, program)` that looks
/// every one up once, after the program links: `field: "u_name"` for one uniform, and in an
/// `arrays` block `field: "u_name"; N` for `u_name0` … `u_name{N-1}`.
macro_rules! uniforms {
    (
        $(#[$meta:meta])*
        struct $name:ident { $($field:ident: $uniform:literal),* $(,)? }
        $(arrays { $($array:ident: $prefix:literal; $n:literal),* $(,)? })?
    ) => {
        $(#[$meta])*
        struct $name {
            $($field: Option<glow::UniformLocation>,)*
            $($($array: [Option<glow::UniformLocation>; $n],)*)?
        }

        impl $name {
            /// Compiles `vertex` and `fragment` into a program (see `shader::compile_program`)
            /// and looks its uniforms up.
            ///
            /// # Safety
            /// A GL context must be current.
            unsafe fn compile(
                gl: &glow::Context,
                vertex: &str,
                fragment: &str,
                what: &str,
            ) -> Result<(glow::Program, $name), String> {
                // SAFETY: the caller's current context.
                unsafe {
                    let program = $crate::render::shader::compile_program(gl, vertex, fragment, what)?;
                    Ok((program, $name::locate(gl, program)))
                }
            }

            /// Looks every uniform up in `program`.
            ///
            /// # Safety
            /// A GL context must be current and `program` linked in it.
            unsafe fn locate(gl: &glow::Context, program: glow::Program) -> $name {
                use glow::HasContext;
                // SAFETY: plain GL queries on the caller's current context.
                unsafe {
                    $name {
                        $($field: gl.get_uniform_location(program, $uniform),)*
                        $($($array: std::array::from_fn(|i| {
                            gl.get_uniform_location(program, &format!("{}{i}", $prefix))
                        }),)*)?
                    }
                }
            }
        }
    };
}
pub(crate) use uniforms;
