//! Drawing the terrain with OpenGL (glow): meshes built on the CPU, their GPU buffers and
//! textures (missing ones as `assets::procedural` stand-ins), overlays and the camera.
//!
//! Not for: egui widgets (see `ui`) or deciding what to draw when (see `app`). Nothing here
//! needs egui; a test can drive it from a bare GL context.

pub mod buffers;
pub mod camera;
pub mod frame;
pub mod gizmo;
pub mod horizon;
pub mod horizon_mesh;
pub mod liquid;
pub mod liquid_mesh;
pub mod marks;
pub mod mesh;
pub mod objects;
pub mod pass_timer;
pub mod pick;
pub mod scene;
pub mod shader;
pub mod sky;
pub mod terrain;
pub mod texture_store;

/// True when `renderer` (`GL_RENDERER`) names one of Mesa's rasterizers on the CPU
/// (`llvmpipe`, `softpipe`, `swrast`), whose costs and timer queries differ from a GPU's: the
/// texture store asks them for no anisotropy, the pass timer waits for passes instead of
/// querying.
pub fn is_software_rasterizer(renderer: &str) -> bool {
    let renderer = renderer.to_ascii_lowercase();
    ["llvmpipe", "softpipe", "swrast"]
        .iter()
        .any(|name| renderer.contains(name))
}
