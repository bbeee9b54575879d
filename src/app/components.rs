//! The list of the editor's components: one of each, and the order the shell passes intents
//! down and draws their windows in.
//!
//! Not for: what any component does (its own file) or the frame loop (`app/mod.rs`).

use super::component::Component;
use crate::app::{
    files::autosave, files::export, files::images, files::new_map, files::open_from_client,
    files::opening, files::save_as, keys, palette, toolbox::asset_browser, toolbox::biomes,
    toolbox::brushes, toolbox::map_edits, toolbox::mask_preview, toolbox::object_tool,
    toolbox::presets, toolbox::road_tool, toolbox::scatter_tool, toolbox::script_tool,
    toolbox::terrain_clipboard, toolbox::texture_tools, toolbox::vertex_selection,
    toolbox::zone_tool, view_options::daylight, view_options::missing_models, view_options::places,
    view_options::view_settings, view_options::zone_marks, window,
};

/// Every component of the editor, grouped as their files are.
pub struct Components {
    /// The file menu's and the dialogs' components.
    pub files: FileComponents,
    /// The tools' components.
    pub toolbox: ToolComponents,
    /// The View and Settings menus' components.
    pub view: ViewComponents,
    /// The title, quitting and the status line's Dismiss.
    pub window: window::Window,
    /// Settings ▸ Keys.
    pub keys: keys::KeySettings,
    /// The command palette (last: what it runs passes every other component first).
    pub palette: palette::Palette,
}

/// The file menu's and the dialogs' components.
#[derive(Default)]
pub struct FileComponents {
    /// File ▸ Save and Save as….
    pub save_as: save_as::SaveAs,
    /// File ▸ Open from client…, and the map being copied out of the client.
    pub open_from_client: open_from_client::OpenFromClient,
    /// File ▸ Export for client….
    pub export: export::Export,
    /// File ▸ New map…, and the tile map's Add tile / Remove tile.
    pub new_map: new_map::NewMap,
    /// File ▸ Import image… and Export images….
    pub images: images::TerrainImages,
    /// The autosave's clock and the recovered maps' offer.
    pub autosave: autosave::Autosave,
    /// Opening maps and choosing the client.
    pub opening: opening::Opening,
}

/// The tools' components.
pub struct ToolComponents {
    /// Edit ▸ Textures….
    pub textures: texture_tools::TextureTools,
    /// The asset browser (left panel, Assets page).
    pub browser: asset_browser::AssetBrowser,
    /// The Scatter tool: its palette, brush and named palettes.
    pub scatter_tool: scatter_tool::ScatterTool,
    /// The object tool (the selection itself is the document's).
    pub object_tool: object_tool::ObjectTool,
    /// The Copy & paste tool and its clipboard (kept across maps).
    pub terrain_clipboard: terrain_clipboard::TerrainClipboard,
    /// Undo, redo, stitch seams, bake shadows.
    pub map_edits: map_edits::MapEdits,
    /// The brushes and the tool panel's settings.
    pub brushes: brushes::Brushes,
    /// The vertex selection and road tools.
    pub shaping: ShapingTools,
    /// The tool panel's brush presets.
    pub presets: presets::Presets,
    /// The Biome tool's kept biomes.
    pub biomes: biomes::Biomes,
    /// The Rules and Biome tools' mask preview under the cursor.
    pub mask_preview: mask_preview::MaskPreview,
    /// The Script tool and its Lua brushes.
    pub script_tool: script_tool::ScriptTool,
    /// The Lights and Area triggers tools.
    pub zone_tool: zone_tool::ZoneTool,
}

/// The tools that shape the ground through chosen vertices and curves.
#[derive(Default)]
pub struct ShapingTools {
    /// The vertex selection tool and its selection.
    pub vertex_selection: vertex_selection::VertexSelection,
    /// The road tool and the road being edited.
    pub road_tool: road_tool::RoadTool,
}

/// The View and Settings menus' components.
#[derive(Default)]
pub struct ViewComponents {
    /// The View and Settings menus' setters, and Go to tile.
    pub view_settings: view_settings::ViewSettings,
    /// The notice over the view about missing models, and their list.
    pub missing_models: missing_models::MissingModels,
    /// The view's light and its clock.
    pub daylight: daylight::Daylight,
    /// Go to & bookmarks, and Copy .go xyz.
    pub places: places::Places,
    /// View ▸ Lights and View ▸ Area triggers.
    pub zone_marks: zone_marks::ZoneMarks,
}

impl Components {
    /// Every component, in the order intents pass them and windows are drawn (a component
    /// may hand an intent on as another: the asset browser a model to the object tool, the
    /// Copy & paste tool its bake to the Edit menu's).
    pub fn all(&mut self) -> [&mut dyn Component; 29] {
        [
            &mut self.files.save_as,
            &mut self.files.open_from_client,
            &mut self.files.export,
            &mut self.files.new_map,
            &mut self.files.images,
            &mut self.toolbox.textures,
            &mut self.window,
            &mut self.files.autosave,
            &mut self.toolbox.browser,
            &mut self.toolbox.scatter_tool,
            &mut self.toolbox.object_tool,
            &mut self.toolbox.terrain_clipboard,
            &mut self.toolbox.map_edits,
            &mut self.toolbox.presets,
            &mut self.toolbox.biomes,
            &mut self.toolbox.brushes,
            &mut self.toolbox.mask_preview,
            &mut self.toolbox.script_tool,
            &mut self.files.opening,
            &mut self.view.view_settings,
            &mut self.view.missing_models,
            &mut self.view.daylight,
            &mut self.view.zone_marks,
            &mut self.toolbox.shaping.vertex_selection,
            &mut self.toolbox.shaping.road_tool,
            &mut self.toolbox.zone_tool,
            &mut self.keys,
            &mut self.view.places,
            &mut self.palette,
        ]
    }

    /// True while any component has an edit under way that undo and autosave wait for.
    pub fn busy(&mut self) -> bool {
        self.all().iter().any(|c| c.is_busy())
    }
}

impl Components {
    /// The components as a new editor starts, the asset browser given its workers.
    pub fn new(browser: asset_browser::AssetBrowser) -> Components {
        Components {
            files: Default::default(),
            toolbox: ToolComponents {
                textures: Default::default(),
                browser,
                scatter_tool: Default::default(),
                object_tool: Default::default(),
                terrain_clipboard: Default::default(),
                map_edits: Default::default(),
                brushes: Default::default(),
                shaping: Default::default(),
                presets: Default::default(),
                biomes: Default::default(),
                mask_preview: Default::default(),
                script_tool: Default::default(),
                zone_tool: Default::default(),
            },
            view: Default::default(),
            window: Default::default(),
            keys: Default::default(),
            palette: Default::default(),
        }
    }
}
