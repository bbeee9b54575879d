//! Where texture bytes come from: a folder of loose client files (the client data folder, or
//! the map's own folder and the folders above it) and BLP decoding; model files (M2, MDX, WMO)
//! decoded into GPU-ready meshes ([`models`]).
//!
//! The client's MPQ archives, per-file wrappers and loose files are [`client`].
//!
//! A texture that is not found gets a stand-in (`procedural`): a stable colour from its name.

pub mod blp;
pub mod catalog;
pub mod client;
pub mod models;
pub mod procedural;
pub mod textures;
