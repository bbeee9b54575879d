//! The tools' components: the brushes and their stamps, the object tool and the asset browser
//! it places from, scatter, roads, vertex selection, Copy & paste, Edit ▸ Textures…, the Edit
//! menu's steps over the history, what the view draws over the terrain for them, and the
//! operations the components hand over to run as undo steps.
//!
//! Not for: what an edit does (`edit`, `doc::editing`), the panels' widgets (`ui`), or the
//! shell that passes intents to these components (`app`).

pub mod asset_browser;
pub(super) mod asset_picking;
pub(super) mod biomes;
pub mod brushes;
pub(super) mod map_edits;
pub(super) mod mask_preview;
pub mod object_tool;
pub(super) mod object_view;
pub(super) mod operation_runs;
pub(super) mod overlays;
pub mod presets;
pub(super) mod road_tool;
pub(super) mod scatter_tool;
pub(super) mod script_tool;
pub(super) mod stamps;
pub(super) mod terrain_clipboard;
pub(super) mod texture_tools;
pub(super) mod vertex_selection;
pub(super) mod zone_tool;
