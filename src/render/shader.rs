//! Compiling and linking a GLSL program from a vertex and a fragment shader, for desktop GL 3.3
//! core or GLES 3.0, with the driver's log in the error, and the renderers' uniform locations
//! (`uniforms!`), looked up once. Shared by the terrain, object and liquid renderers.
//!
//! Not for: the shaders themselves (each renderer owns its sources).

use glow::HasContext;

/// GLSL every fragment shader may call. It opens with the float precision, which GLES wants
/// before any float in a fragment shader (a second statement in the shader is allowed).
const FRAGMENT_COMMON: &str = r#"
precision highp float;
// Distance haze, so that far things read as far: toward the sky from 1200 yards out.
vec3 hazed(vec3 color, vec3 world, vec3 eye, vec3 sky) {
    float fog = clamp((length(world - eye) - 1200.0) / 2600.0, 0.0, 1.0);
    return mix(color, sky, fog * 0.7);
}
// A line about two pixels wide where the signed distance d crosses zero (brush rings,
// selection borders): 1 on the line, fading to 0 one pixel out.
float outline(float d) {
    float w = max(fwidth(d), 1e-4);
    return 1.0 - clamp(abs(d) / w - 1.0, 0.0, 1.0);
}
"#;

/// Prepends the GLSL version line (desktop GL 3.3 core or GLES 3.0), and to a fragment shader
/// the functions they share.
fn with_version(gl: &glow::Context, kind: u32, source: &str) -> String {
    let header = if gl.version().is_embedded {
        "#version 300 es\n"
    } else {
        "#version 330 core\n"
    };
    let common = if kind == glow::FRAGMENT_SHADER {
        FRAGMENT_COMMON
    } else {
        ""
    };
    format!("{header}{common}{source}")
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

/// The colour behind the terrain (holes and the sky show it), which the haze fades to.
pub const SKY_COLOR: [f32; 3] = [0.52, 0.66, 0.80];

/// The sun's direction, for the lit shaders (terrain and objects).
pub fn sun() -> glam::Vec3 {
    glam::Vec3::from(crate::model::coords::SUN).normalize()
}

/// Sets the uniforms every renderer's shader has: the camera's view-projection matrix and eye,
/// and the sky colour the haze fades to.
///
/// # Safety
/// A GL context must be current, with the program the locations belong to in use.
pub unsafe fn set_view(
    gl: &glow::Context,
    locations: [Option<&glow::UniformLocation>; 3],
    camera: (&glam::Mat4, glam::Vec3),
) {
    let [view_projection, eye, sky] = locations;
    let sky_color = SKY_COLOR;
    let (matrix, eye_at) = camera;
    // SAFETY: plain GL calls on the caller's current context.
    unsafe {
        gl.uniform_matrix_4_f32_slice(view_projection, false, &matrix.to_cols_array());
        gl.uniform_3_f32(eye, eye_at.x, eye_at.y, eye_at.z);
        gl.uniform_3_f32(sky, sky_color[0], sky_color[1], sky_color[2]);
    }
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
