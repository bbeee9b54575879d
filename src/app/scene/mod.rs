//! What streams to the 3D view and how it gets there: tiles, layer textures, models and model
//! textures read on worker threads, the placed objects as the view shows them, the bridge to
//! the GL renderers, and the camera's moves from the view's input.
//!
//! Not for: drawing (`render`), where the view looks (`app::view`), or components: nothing
//! here handles an intent.

pub mod camera_control;
pub mod gl_bridge;
pub mod object_loader;
pub mod object_scene;
pub mod streams;
pub mod textures;
pub mod tile_loader;
pub(super) mod worker;
