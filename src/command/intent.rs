//! What the user asked for: the one enum every panel, menu and shortcut emits and the app
//! carries out, so that the ui never changes the model or the session itself. Requests without
//! a value are [`Command`]s (one table with their labels and keys); the variants here carry a
//! value, or group one dialog's requests.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::Command;
use super::keymap::{Action, BrushAdjust, Preset};
use crate::assets::catalog::AssetKind;
use crate::edit::objects::transform::{Axis, TransformMode};
use crate::edit::tools::{PlaceOptions, ToolSettings};
use crate::format::Generation;
use crate::model::TileCoord;
use crate::render::scene::ObjectFilter;

/// One request from the ui.
#[derive(Debug, Clone, PartialEq)]
pub enum Intent {
    /// A request without a value, from the one table of them (menus, buttons, keys).
    Command(Command),
    /// View ▸ Time of day: the clock the sky and light are drawn at.
    SetTimeOfDay(crate::doc::light::TimeOfDay),
    /// The File ▸ Save as… dialog.
    SaveAs(SaveAsIntent),
    /// The File ▸ Open from client… dialog.
    OpenFromClient(OpenFromClientIntent),
    /// Open this .wdt, .adt or folder of tiles.
    Open(PathBuf),
    /// Reopen the current map read as this generation (`None`: as its bytes decide), and
    /// remember the choice for it.
    ReadAs(Option<Generation>),
    /// The File ▸ Export for client dialog.
    Export(ExportIntent),
    /// Set the autosave interval, in seconds.
    AutosaveSecs(u32),
    /// The status bar's breakdown of the frame time shows: time the passes on the GPU.
    MeasurePasses,
    /// Open recovered map number N (of those offered) with its autosaved tiles as unsaved edits.
    RestoreRecovered(usize),
    /// Delete recovered map number N's autosaved tiles.
    DiscardRecovered(usize),
    /// Leave recovered map number N for the next start.
    RecoverLater(usize),
    /// Answer to "quit with unsaved changes?": true = discard and quit.
    ConfirmQuit(bool),
    /// Move the camera over a tile.
    GoToTile(TileCoord),
    /// Show or hide the chunk grid.
    ShowChunkGrid(bool),
    /// Show or hide the tile grid.
    ShowTileGrid(bool),
    /// Show or hide the layer-count map.
    ShowLayerCount(bool),
    /// Show or hide the area overlay and its legend.
    ShowAreas(bool),
    /// Show or hide where ground effects grow (and where they are switched off).
    ShowGroundEffects(bool),
    /// View ▸ Lights.
    ShowLights(bool),
    /// View ▸ Area triggers.
    ShowAreaTriggers(bool),
    /// Show or hide liquid surfaces.
    ShowLiquids(bool),
    /// Draw the light's distance fog, or see as far as the drawing reaches.
    ShowFog(bool),
    /// Draw the map's distant terrain from its WDL beyond the loaded tiles.
    ShowHorizon(bool),
    /// Write this record over the object with its kind and uniqueId (typed in the object panel).
    EditObject(crate::edit::objects::ObjectRecord),
    /// G, R or T with objects selected: move, turn or scale them with the mouse until a click.
    TransformSelection(TransformMode),
    /// X, Y or Z during a transform: lock it to that axis (again: unlock).
    TransformAxis(Axis),
    /// Give the open map this uniqueId range for new objects (first, last), or none.
    SetUidRange(Option<(u32, u32)>),
    /// Select every object of the loaded tiles that uses this model path.
    SelectSameModel(String),
    /// Change what a click places and how (the object panel).
    SetPlaceOptions(PlaceOptions),
    /// Show or hide kinds of objects, or change the doodad draw distance.
    SetObjectFilter(ObjectFilter),
    /// Set the fly speed in yards per second.
    CameraSpeed(f32),
    /// Open or close the list of models drawn as placeholders.
    ShowMissingModels(bool),
    /// New tool and brush settings from the tool panel.
    SetTools(Box<ToolSettings>),
    /// Undo or redo until this many history steps are applied.
    HistoryGoTo(usize),
    /// Show this page of the left panel (tile map or asset browser).
    ShowLeftPanel(LeftPanel),
    /// Show this tab of the asset browser.
    BrowserTab(AssetKind),
    /// New asset browser filter text.
    BrowserFilter(String),
    /// Open or close a folder of the asset browser (by key).
    BrowserToggleFolder(String),
    /// A file clicked in the asset browser: a texture becomes the paint texture; a model or
    /// WMO is selected for placing.
    PickAsset(AssetKind, String),
    /// Bake the shadow maps of these chunks (tile, index) at the settings' sun, one undo step:
    /// the Copy & paste tool's selection.
    BakeShadowsIn(Vec<(crate::model::TileCoord, usize)>),
    /// Set the sun shadow bakes use (Edit ▸ Bake shadows, the re-bake after sculpting).
    SetShadowSun(crate::edit::derived::shadows::Sun),
    /// Edit ▸ Bake shadows adds the placed models' shadows (true) or bakes the terrain alone.
    ShadowModels(bool),
    /// The File ▸ New map… dialog.
    NewMap(NewMapIntent),
    /// Add a flat tile at this place of the open map (the tile map's context menu), meeting the
    /// tiles beside it; written to disk at once.
    AddTile(TileCoord),
    /// Remove this tile from the open map (the tile map's context menu): the WDT stops listing
    /// it and its file is deleted, at once.
    RemoveTile(TileCoord),
    /// The File ▸ Import image… and File ▸ Export images… dialogs.
    Images(ImagesIntent),
    /// The Edit ▸ Textures… dialog.
    Textures(TexturesIntent),
    /// The Copy & paste tool.
    Clipboard(ClipboardIntent),
    /// Make this the tool (its key, the command palette).
    SelectTool(crate::edit::tools::Tool),
    /// Make this kind of work the tool bar's, on its last mode (its key).
    SelectKind(crate::edit::tools::ToolKind),
    /// Step a brush setting this many times (its keys: one; the wheel with a modifier: the
    /// notches turned, negative down).
    AdjustBrush(BrushAdjust, f32),
    /// Settings ▸ Keys.
    Keys(KeysIntent),
    /// Open the command palette with this typed (empty: as a key opens it).
    PaletteQuery(String),
    /// Go to & bookmarks.
    Places(PlacesIntent),
    /// Let a pen's pressure scale the brush strength (true) or not.
    PenPressure(bool),
    /// The Scatter tool's palette and brush.
    Scatter(ScatterIntent),
    /// The vertex selection tool.
    Selection(SelectionIntent),
    /// The road tool.
    Road(RoadIntent),
    /// The Lights and Area triggers tools.
    Zone(ZoneIntent),
    /// The tool panel's brush presets.
    Presets(PresetsIntent),
    /// The Biome tool's kept biomes.
    Biomes(BiomesIntent),
    /// The Script tool's scripts.
    Scripts(ScriptsIntent),
}

/// What the Script tool's panel asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum ScriptsIntent {
    /// Read the scripts again.
    Reload,
    /// Pick another folder to read scripts from.
    AddFolder,
    /// Choose the Script tool with this script file's brush of this name (its folder read
    /// from now on when it is not one of the scripts folders).
    Choose(std::path::PathBuf, String),
}

/// What the Biome tool's panel asks the app to do with the kept biomes.
#[derive(Debug, Clone, PartialEq)]
pub enum BiomesIntent {
    /// Put kept biome N in the tool.
    Pick(usize),
    /// Keep the tool's biome in the list under its name (replacing one of that name).
    Keep,
    /// Take kept biome N out of the list.
    Delete(usize),
    /// Write the kept biomes to a biome file in a folder the user picks.
    Export,
    /// Add the biomes of a biome file the user picks.
    Import,
    /// Add the selected doodads' models to the tool's biome's palette.
    AddSelected,
}

/// What the tool panel's presets ask the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum PresetsIntent {
    /// Show (or hide) the list.
    Show(bool),
    /// The name typed for the next preset saved, or for a rename.
    Name(String),
    /// Keep the current tool's settings as a preset under the typed name.
    Save,
    /// Put preset N's settings in the tool panel.
    Pick(usize),
    /// Give preset N the typed name.
    Rename(usize),
    /// Forget preset N.
    Delete(usize),
    /// Write the presets to a file (`{"presets": [...]}`) in a folder the user picks.
    Export,
    /// Add the presets of a file the user picks.
    Import,
}

/// What the Settings ▸ Keys window asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum KeysIntent {
    /// Wait for the next key press, to give it to this action.
    Listen(Action),
    /// The key pressed while listening: taken at once when nothing else has it, else shown
    /// with what it clashes with until accepted or cancelled.
    Pressed(egui::KeyboardShortcut),
    /// Take the key shown despite its clashes (the other actions lose it).
    Accept,
    /// Stop listening, or drop the key shown.
    Cancel,
    /// Take every key away from this action.
    Clear(Action),
    /// This action's default keys again.
    Reset(Action),
    /// Every action's default keys again.
    ResetAll,
    /// Put the user's keys on this default set.
    Preset(Preset),
    /// Close the window.
    Close,
}

/// What the Go to & bookmarks window asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum PlacesIntent {
    /// Fly to the place typed (a `.go xyz` line, world x y z, tile and chunk).
    GoTo(String),
    /// Keep the camera as a bookmark of the open map under this name.
    Save(String),
    /// Put the camera where bookmark N of the open map was saved.
    Jump(usize),
    /// Give bookmark N this name.
    Rename(usize, String),
    /// Forget bookmark N.
    Delete(usize),
    /// Close the window.
    Close,
}

/// What the Scatter tool's panel asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum ScatterIntent {
    /// Add this model (a path) to the palette.
    Add(String),
    /// Add the models of the selected doodads to the palette.
    AddSelected,
    /// Replace palette entry `i`.
    Entry(usize, crate::edit::objects::scatter_ops::PaletteModel),
    /// Take entry `i` out of the palette.
    Remove(usize),
    /// The brush's settings.
    Brush(crate::edit::objects::scatter_ops::ScatterBrush),
    /// Save the palette under this name (beside the settings).
    Save(String),
    /// Make the palette saved under this name the palette.
    Load(String),
    /// Forget the palette saved under this name.
    Delete(String),
    /// Write the palette to a file in a folder the user picks (named after `String`, or
    /// `palette`), to share it.
    Export(String),
    /// Make a palette file the user picks (an export) the palette.
    Import,
}

/// What the Save as… dialog asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum SaveAsIntent {
    /// Show the dialog (what [`Command::SaveAs`] asks).
    Open,
    /// Choose the target generation (the report is recomputed).
    Target(Generation),
    /// Ask for the folder.
    PickFolder,
    /// Write the map as the dialog says.
    Write,
    /// Close without writing.
    Cancel,
    /// Write the WDL with the map (on by default).
    Wdl(bool),
}

/// What the Open from client dialog asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum OpenFromClientIntent {
    /// List the client's maps (what [`Command::OpenFromClient`] asks).
    Open,
    /// Open this map (its folder name under `World\Maps\`) from the client's archives.
    Map(String),
    /// Close the dialog.
    Close,
}

/// What the Copy & paste tool's panel and keys ask the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum ClipboardIntent {
    /// Copy the selected rectangle into the clipboard (Ctrl+C) and start pasting.
    Copy,
    /// Paste with clicks (true, Ctrl+V) or select a rectangle with drags (false).
    Pasting(bool),
    /// How the next pastes turn, mirror and what they carry.
    Options(crate::edit::copy::paste::PasteOptions),
    /// Bake the shadow maps of the chunks the selection overlaps.
    BakeShadows,
}

/// What the vertex selection tool's panel asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum SelectionIntent {
    /// How the view selects and how the edits go.
    Options(crate::edit::tools::SelectionOptions),
    /// Do this to the selected vertices, as one undo step.
    Apply(crate::edit::tools::SelectionAction),
    /// Clicks pick the plane's points (true) instead of selecting (false).
    PickPlane(bool),
    /// Forget the picked plane points.
    ClearPlanePoints,
    /// Select nothing.
    Clear,
    /// Select the loaded vertices inside this world box (x0, y0, x1, y1), as a drag would
    /// (`loam screenshot --select-box`).
    SelectBox([f64; 4]),
}

/// What the road tool's panel asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum RoadIntent {
    /// The road's widths and texture.
    Options(crate::edit::tools::RoadOptions),
    /// Type the bed height at control point N (`None`: the terrain's there).
    PointHeight(usize, Option<f32>),
    /// Delete control point N.
    Delete(usize),
    /// Start over with these control points (world x, y), as clicks would place them (`loam
    /// screenshot --road`).
    Points(Vec<[f64; 2]>),
    /// Lay the road, as one undo step (the `road` operation).
    Apply,
    /// Drop the control points without laying the road.
    Clear,
}

/// What the Lights and Area triggers tools' panels ask the app to do; each change of the
/// client's tables is one undo step (a widget dragged, or a colour picked, makes one step
/// when the mouse is let go).
#[derive(Debug, Clone, PartialEq)]
pub enum ZoneIntent {
    /// Select this light (Lights) or trigger (Area triggers); `None` selects nothing.
    Select(Option<u32>),
    /// Add a light or trigger at `at` (world), or at the ground the view looks at; a light
    /// gets copies of light `like`'s parameter sets (the map's global light's without).
    Add {
        /// Where; `None`: the ground the view looks at.
        at: Option<[f64; 3]>,
        /// The light whose sets to copy.
        like: Option<u32>,
    },
    /// Copy the selected light (its sets copied) or trigger, a little east of it.
    Copy,
    /// Delete the selected light or trigger.
    Delete,
    /// Change the selected light.
    Light(crate::doc::zone::LightChange),
    /// Put this trigger in place of the one with its id.
    Trigger(crate::assets::client::AreaTrigger),
    /// Show band N in the Light tool's panel (the colour bands, then the float bands).
    Band(usize),
}

/// What the Textures dialog asks the app to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TexturesIntent {
    /// Show the dialog (what [`Command::Textures`] asks; its tile: the one under the cursor,
    /// or the first loaded).
    Open,
    /// Run the operation the form describes, as one undo step.
    Apply,
    /// Close the dialog.
    Cancel,
}

/// Which of a map's images an import reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    /// Heights from a grey image (one tile, or one image over a rectangle of tiles).
    Heights,
    /// One texture's alpha over a tile.
    Alpha,
    /// A tile's vertex colours.
    Colours,
}

/// What the image dialogs ask the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum ImagesIntent {
    /// Show the Import image dialog (what [`Command::ImportImage`] asks).
    OpenImport,
    /// Show the Export images dialog (what [`Command::ExportImages`] asks).
    OpenExport,
    /// Choose what the image is.
    Kind(ImageKind),
    /// Ask for the image file.
    PickImage,
    /// Choose how imported heights meet the ground.
    Mode(crate::edit::images::heightmap::ImportMode),
    /// Import it, as one undo step.
    Import,
    /// Ask for the folder the images go to.
    PickFolder,
    /// Write the images.
    Export,
    /// Close the dialog.
    Cancel,
}

/// What the New map dialog asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum NewMapIntent {
    /// Show the dialog (what [`Command::NewMap`] asks).
    Open,
    /// Choose the generation to write.
    Generation(Generation),
    /// Ask for the folder to write into.
    PickFolder,
    /// Write the map and open it.
    Create,
    /// Close without writing.
    Cancel,
}

/// What the Export for client dialog asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportIntent {
    /// Show the dialog (what [`Command::ExportForClient`] asks).
    Open,
    /// Choose the target generation.
    Target(Generation),
    /// Ask for the client (or output) folder.
    PickFolder,
    /// Write the WDL with the map (on by default).
    Wdl(bool),
    /// Draw and pack the minimap with the map (on by default).
    Minimap(bool),
    /// Also write the servers' copy of the client (what their map extractors read).
    ServerCopy(bool),
    /// Ask for the folder of the servers' copy.
    PickServerFolder,
    /// Convert, pack and write.
    Write,
    /// Close without writing.
    Cancel,
}

/// The pages of the left panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum LeftPanel {
    /// The tile map.
    #[default]
    Tiles,
    /// The asset browser.
    Assets,
}

/// What the View menu shows in the 3D view besides the terrain: grids, tints, liquids, the
/// fog and the horizon.
/// Saved with the settings (its fields at the settings' top level, as before it was grouped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewToggles {
    /// Draw chunk borders.
    pub chunk_grid: bool,
    /// Draw tile borders.
    pub tile_grid: bool,
    /// Tint chunks by layer count.
    pub layer_count: bool,
    /// Tint chunks by area id, with a legend of the areas' names.
    pub area_overlay: bool,
    /// Show where ground effects grow (dots) and where they are switched off (hatching).
    pub effects_overlay: bool,
    /// Draw liquid surfaces.
    pub liquids: bool,
    /// Draw the map's zone lights (Light.dbc) as their spheres.
    pub lights: bool,
    /// Draw the map's area triggers (AreaTrigger.dbc) as their spheres and boxes.
    pub area_triggers: bool,
    /// Draw the light's distance fog (off: nothing fades, as far as the drawing reaches).
    pub fog: bool,
    /// Draw the map's distant terrain from its WDL beyond the loaded tiles.
    pub horizon: bool,
}

impl Default for ViewToggles {
    fn default() -> Self {
        ViewToggles {
            chunk_grid: false,
            tile_grid: true,
            layer_count: false,
            area_overlay: false,
            effects_overlay: false,
            liquids: true,
            lights: false,
            area_triggers: false,
            fog: true,
            horizon: true,
        }
    }
}

/// The shortest and longest autosave intervals the setting takes, in seconds.
pub const AUTOSAVE_RANGE: std::ops::RangeInclusive<u32> = 15..=3600;
