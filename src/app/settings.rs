//! What the editor remembers between runs (through eframe's persistence): recent files, the
//! camera speed, the client data folder, overlays and the camera of each map.
//!
//! Not for: anything about the open map's content.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::command::keymap::Keymap;
use crate::format::Generation;
use crate::render::camera::Camera;
use crate::render::scene::ObjectFilter;

/// How many recent files the File menu lists.
pub const RECENT_LIMIT: usize = 10;
/// The storage key the settings live under.
pub const STORAGE_KEY: &str = "loam.settings";
/// Default fly speed in yards per second.
pub const DEFAULT_SPEED: f32 = 120.0;
/// Default autosave interval in seconds.
pub const DEFAULT_AUTOSAVE_SECS: u32 = 120;
pub use crate::command::{AUTOSAVE_RANGE, LeftPanel, ViewToggles};

/// Persisted editor settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Recently opened files, newest first.
    pub recent: Vec<PathBuf>,
    /// The game client's data folder, when configured (real textures then; procedural ones
    /// until then).
    pub client_data: Option<PathBuf>,
    /// Grids, tints and liquids shown (View menu).
    #[serde(flatten)]
    pub view: ViewToggles,
    /// The page the left panel shows.
    pub left_panel: LeftPanel,
    /// A listfile (one game path a line) whose names the asset browser adds to the client's.
    pub listfile: Option<PathBuf>,
    /// Which objects the 3D view draws, and the doodad draw distance.
    pub objects: ObjectFilter,
    /// How often unsaved edits are written to the recovery folder, in seconds.
    pub autosave_secs: u32,
    /// The view's time of day (View ▸ Time of day).
    pub time_of_day: crate::doc::light::TimeOfDay,
    /// The brush presets, in the list's order (a new user starts with loam's own).
    #[serde(default = "crate::edit::presets::shipped")]
    pub presets: Vec<crate::edit::presets::BrushPreset>,
    /// The Biome tool's kept biomes, in the list's order (a new user starts with loam's own).
    #[serde(default = "crate::edit::biome::shipped")]
    pub biomes: Vec<crate::edit::biome::Biome>,
    /// Folders the Script tool reads scripts from besides its own and the shipped examples.
    #[serde(default)]
    pub script_folders: Vec<std::path::PathBuf>,
    /// What is remembered per map: its camera, its generation, its bookmarks.
    #[serde(flatten)]
    pub per_map: PerMapSettings,
    /// The user's hands: the fly speed, the keys, the pen, the palette's recent entries.
    #[serde(flatten)]
    pub input: InputSettings,
}

/// What the editor remembers of each map, keyed by the file it was opened from (flattened into
/// [`Settings`], so the stored form is as before).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PerMapSettings {
    /// The camera last used on each map, keyed by the file it was opened from.
    pub cameras: BTreeMap<String, Camera>,
    /// The generation the user chose to read each map as (File ▸ Read as), keyed by the file
    /// or folder it was opened from ("0.6.0"); maps not listed are read as their bytes decide.
    pub read_as: BTreeMap<String, String>,
    /// Each map's named views (Go to & bookmarks), keyed as [`PerMapSettings::cameras`] is.
    pub bookmarks: BTreeMap<String, Vec<Bookmark>>,
}

/// How the user drives the editor (flattened into [`Settings`], so the stored form is as
/// before).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InputSettings {
    /// Fly speed in yards per second (the speed modifier multiplies it).
    pub camera_speed: f32,
    /// The user's keys (Settings ▸ Keys): a default set and the actions given keys of their own.
    pub keys: Keymap,
    /// A pen's pressure scales the brush strength, where the platform reports it.
    pub pen_pressure: bool,
    /// The names of the command palette's entries last run, most recent first.
    pub recent_commands: Vec<String>,
}

impl Default for InputSettings {
    fn default() -> Self {
        InputSettings {
            camera_speed: DEFAULT_SPEED,
            keys: Keymap::default(),
            pen_pressure: true,
            recent_commands: Vec::new(),
        }
    }
}

/// How many recently run palette entries are remembered.
pub const RECENT_COMMANDS: usize = 8;

/// A view of a map the user named, to come back to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bookmark {
    /// The user's name for it.
    pub name: String,
    /// Where the camera was and where it looked.
    pub camera: Camera,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            recent: Vec::new(),
            client_data: None,
            view: ViewToggles::default(),
            left_panel: LeftPanel::Tiles,
            listfile: None,
            objects: ObjectFilter::default(),
            autosave_secs: DEFAULT_AUTOSAVE_SECS,
            time_of_day: Default::default(),
            presets: crate::edit::presets::shipped(),
            biomes: crate::edit::biome::shipped(),
            script_folders: Vec::new(),
            per_map: PerMapSettings::default(),
            input: InputSettings::default(),
        }
    }
}

impl Settings {
    /// The settings eframe kept in `storage` (the defaults when there are none, or when
    /// `fresh`: a screenshot must not depend on what a user left behind), sanitized.
    pub fn restored(storage: Option<&dyn eframe::Storage>, fresh: bool) -> Settings {
        let mut settings = match storage {
            Some(s) if !fresh => eframe::get_value::<Settings>(s, STORAGE_KEY).unwrap_or_default(),
            _ => Settings::default(),
        };
        settings.sanitize();
        settings
    }

    /// Puts `path` first in the recent list, without duplicates, keeping at most
    /// [`RECENT_LIMIT`].
    pub fn add_recent(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(RECENT_LIMIT);
    }

    /// The remembered camera of a map, when there is a usable one.
    pub fn camera_for(&self, key: &str) -> Option<Camera> {
        self.per_map
            .cameras
            .get(key)
            .copied()
            .filter(Camera::is_valid)
    }

    /// The generation remembered for reading the map at `path`, if the user chose one.
    pub fn read_as_for(&self, path: &Path) -> Option<Generation> {
        self.per_map
            .read_as
            .get(&path.display().to_string())
            .and_then(|g| g.parse().ok())
    }

    /// Remembers (or, with `None`, forgets) the generation to read the map at `path` as.
    pub fn set_read_as(&mut self, path: &Path, from: Option<Generation>) {
        let key = path.display().to_string();
        match from {
            Some(g) => {
                self.per_map.read_as.insert(key, g.label().to_string());
            }
            None => {
                self.per_map.read_as.remove(&key);
            }
        }
    }

    /// Makes the stored values usable (a hand-edited or old file may hold nonsense).
    pub fn sanitize(&mut self) {
        self.time_of_day.sanitize();
        if !self.input.camera_speed.is_finite() || self.input.camera_speed <= 0.0 {
            self.input.camera_speed = DEFAULT_SPEED;
        }
        self.input.camera_speed = self.input.camera_speed.clamp(1.0, 5000.0);
        self.recent.truncate(RECENT_LIMIT);
        self.autosave_secs = self
            .autosave_secs
            .clamp(*AUTOSAVE_RANGE.start(), *AUTOSAVE_RANGE.end());
        self.per_map.cameras.retain(|_, c| c.is_valid());
        self.per_map
            .read_as
            .retain(|_, g| g.parse::<Generation>().is_ok());
        for marks in self.per_map.bookmarks.values_mut() {
            marks.retain(|b| b.camera.is_valid());
        }
        self.per_map.bookmarks.retain(|_, marks| !marks.is_empty());
        self.input.recent_commands.truncate(RECENT_COMMANDS);
    }

    /// The bookmarks of the map kept under `key`.
    pub fn bookmarks_for(&self, key: &str) -> &[Bookmark] {
        self.per_map.bookmarks.get(key).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_newest_first_and_bounded() {
        let mut s = Settings::default();
        for i in 0..15 {
            s.add_recent(Path::new(&format!("/m/{i}.wdt")));
        }
        s.add_recent(Path::new("/m/7.wdt"));
        assert_eq!(s.recent.len(), RECENT_LIMIT);
        assert_eq!(s.recent[0], PathBuf::from("/m/7.wdt"));
        assert_eq!(s.recent.iter().filter(|p| p.ends_with("7.wdt")).count(), 1);
    }

    #[test]
    fn settings_survive_a_round_trip_and_nonsense_is_repaired() {
        let mut s = Settings {
            input: InputSettings {
                camera_speed: 250.0,
                ..InputSettings::default()
            },
            ..Settings::default()
        };
        s.per_map.cameras.insert("a".into(), Camera::default());
        s.set_read_as(Path::new("/m/Old.wdt"), Some(Generation::V060));
        let text = serde_json::to_string(&s).unwrap();
        let back: Settings = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
        assert_eq!(
            back.read_as_for(Path::new("/m/Old.wdt")),
            Some(Generation::V060)
        );
        assert_eq!(back.read_as_for(Path::new("/m/New.wdt")), None);
        let mut bad = Settings {
            input: InputSettings {
                camera_speed: f32::NAN,
                ..InputSettings::default()
            },
            ..Settings::default()
        };
        bad.sanitize();
        assert_eq!(bad.input.camera_speed, DEFAULT_SPEED);
    }

    #[test]
    fn a_settings_file_from_before_keys_and_bookmarks_reads_with_their_defaults() {
        // The shape of a settings file written before this change: no keys, no bookmarks, no
        // pen pressure, no palette history.
        let old = r#"{"recent": ["/m/a.wdt"], "camera_speed": 90.0, "client_data": null,
            "tile_grid": true, "cameras": {}, "left_panel": "Tiles", "listfile": null,
            "read_as": {}, "autosave_secs": 300}"#;
        let s: Settings = serde_json::from_str(old).unwrap();
        assert_eq!(s.input.keys, Keymap::default());
        assert!(s.per_map.bookmarks.is_empty());
        assert!(s.input.pen_pressure, "pressure is on unless turned off");
        assert_eq!(s.input.camera_speed, 90.0);
        // And what is written now reads back whole.
        let mut now = s.clone();
        now.input.keys.set(
            crate::command::keymap::Action::Tool(crate::edit::tools::Tool::Smooth),
            vec![egui::KeyboardShortcut::new(
                egui::Modifiers::NONE,
                egui::Key::K,
            )],
        );
        now.per_map.bookmarks.insert(
            "/m/a.wdt".into(),
            vec![Bookmark {
                name: "gate".into(),
                camera: Camera::default(),
            }],
        );
        now.input.pen_pressure = false;
        let back: Settings = serde_json::from_str(&serde_json::to_string(&now).unwrap()).unwrap();
        assert_eq!(back, now);
        assert_eq!(back.bookmarks_for("/m/a.wdt")[0].name, "gate");
    }

    #[test]
    fn the_view_toggles_are_read_from_and_written_to_the_settings_top_level() {
        // A settings file written before the toggles were grouped, with some of them missing.
        let old = r#"{"camera_speed": 80.0, "chunk_grid": true, "liquids": false}"#;
        let s: Settings = serde_json::from_str(old).unwrap();
        let expected = ViewToggles {
            chunk_grid: true,
            liquids: false,
            ..ViewToggles::default()
        };
        assert_eq!(s.view, expected);
        assert!(s.view.tile_grid, "a missing toggle takes its default");
        let text: serde_json::Value = serde_json::to_value(&s).unwrap();
        assert_eq!(text["chunk_grid"], true);
        assert_eq!(text["tile_grid"], true);
        assert!(text.get("view").is_none(), "{text}");
        // The per-map and input groups are flattened too: the stored form is as before.
        assert_eq!(text["camera_speed"], 80.0);
        assert!(text.get("cameras").is_some(), "{text}");
        assert!(
            text.get("input").is_none() && text.get("per_map").is_none(),
            "{text}"
        );
    }
}
