//! Compiling and linking a GLSL program from a vertex and a fragment shader, for desktop GL 3.3
//! core or GLES 3.0, with the driver's log in the error. Shared by the terrain and object
//! renderers.
//!
//! Not for: the shaders themselves (each renderer owns its sources).

use glow::HasContext;

/// Prepends the GLSL version line: desktop GL 3.3 core or GLES 3.0.
fn with_version(gl: &glow::Context, source: &str) -> String {
    let header = if gl.version().is_embedded {
        "#version 300 es\n"
    } else {
        "#version 330 core\n"
    };
    format!("{header}{source}")
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
            gl.shader_source(shader, &with_version(gl, src));
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
