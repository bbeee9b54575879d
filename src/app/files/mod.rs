//! The file and dialog components: opening (maps, folders, the sample, dropped files, the
//! client folder), Save and Save as… with their conversion reports, Export for client, New
//! map and tiles, image import and export, Open from client, and the autosave's clock and
//! recovery dialog.
//!
//! Not for: reading and writing map files (`pipeline`, `disk`), the recovery folder itself
//! (`app::recovery`), or the file dialogs (`app::file_picker`).

pub(super) mod autosave;
pub mod export;
pub(super) mod images;
pub(super) mod new_map;
pub mod open_from_client;
pub(super) mod opening;
pub(super) mod save_as;
pub(super) mod save_as_report;
