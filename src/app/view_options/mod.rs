//! The View and Settings menus' components: the light and time of day, the grids, tints and
//! toggles, the zone lights and area triggers drawn over the view, Go to & bookmarks with the servers' coordinates, and the notice of models drawn as
//! placeholders.
//!
//! Not for: the key bindings and the command palette (`app::keys`, `app::palette`) or what
//! the editor remembers (`app::settings`).

pub(super) mod daylight;
pub(super) mod missing_models;
pub mod places;
pub(super) mod view_settings;
pub mod zone_marks;
