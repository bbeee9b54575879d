//! GL buffers as every renderer makes them: a buffer filled once, and a vertex array with its
//! vertex buffer, ready for the caller's attribute layout.
//!
//! Not for: attribute layouts or drawing (each renderer's own).

use glow::HasContext;

/// Makes a buffer holding `bytes` for drawing many times (`STATIC_DRAW`), bound to `target`
/// (`ARRAY_BUFFER`, `ELEMENT_ARRAY_BUFFER`) when it returns.
///
/// # Safety
/// A GL context must be current; with an element buffer, the vertex array it belongs to must
/// be bound.
pub unsafe fn static_buffer(
    gl: &glow::Context,
    target: u32,
    bytes: &[u8],
) -> Result<glow::Buffer, String> {
    // SAFETY: plain GL calls on the caller's current context.
    unsafe {
        let buffer = gl.create_buffer()?;
        gl.bind_buffer(target, Some(buffer));
        gl.buffer_data_u8_slice(target, bytes, glow::STATIC_DRAW);
        Ok(buffer)
    }
}

/// Makes a vertex array and a vertex buffer holding `vertices`; both are bound when it
/// returns, so that the caller's attribute pointers read from the buffer.
///
/// # Safety
/// A GL context must be current.
pub unsafe fn vertex_array(
    gl: &glow::Context,
    vertices: &[u8],
) -> Result<(glow::VertexArray, glow::Buffer), String> {
    // SAFETY: plain GL calls on the caller's current context.
    unsafe {
        let vao = gl.create_vertex_array()?;
        gl.bind_vertex_array(Some(vao));
        let vbo = static_buffer(gl, glow::ARRAY_BUFFER, vertices)?;
        Ok((vao, vbo))
    }
}
