//! The list of the editor's components: one of each, and the order the shell passes intents
//! down and draws their windows in.
//!
//! Not for: what any component does (its own file) or the frame loop (`app/mod.rs`).

use super::component::Component;
use super::{
    asset_browser, autosave, brushes, daylight, export, images, keys, map_edits, missing_models,
    new_map, object_tool, open_from_client, opening, palette, places, road_tool, save_as,
    scatter_tool, terrain_clipboard, texture_tools, vertex_selection, view_settings, window,
};

/// Every component of the editor.
pub struct Components {
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
    /// Edit ▸ Textures….
    pub textures: texture_tools::TextureTools,
    /// The title, quitting and the status line's Dismiss.
    pub window: window::Window,
    /// The autosave's clock and the recovered maps' offer.
    pub autosave: autosave::Autosave,
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
    /// Opening maps and choosing the client.
    pub opening: opening::Opening,
    /// The View and Settings menus' setters, and Go to tile.
    pub view_settings: view_settings::ViewSettings,
    /// The notice over the view about missing models, and their list.
    pub missing_models: missing_models::MissingModels,
    /// The view's light and its clock.
    pub daylight: daylight::Daylight,
    /// The vertex selection tool and its selection.
    pub vertex_selection: vertex_selection::VertexSelection,
    /// The road tool and the road being edited.
    pub road_tool: road_tool::RoadTool,
    /// Settings ▸ Keys.
    pub keys: keys::KeySettings,
    /// Go to & bookmarks, and Copy .go xyz.
    pub places: places::Places,
    /// The command palette (last: what it runs passes every other component first).
    pub palette: palette::Palette,
}

impl Components {
    /// Every component, in the order intents pass them and windows are drawn (a component
    /// may hand an intent on as another: the asset browser a model to the object tool, the
    /// Copy & paste tool its bake to the Edit menu's).
    pub fn all(&mut self) -> [&mut dyn Component; 23] {
        [
            &mut self.save_as,
            &mut self.open_from_client,
            &mut self.export,
            &mut self.new_map,
            &mut self.images,
            &mut self.textures,
            &mut self.window,
            &mut self.autosave,
            &mut self.browser,
            &mut self.scatter_tool,
            &mut self.object_tool,
            &mut self.terrain_clipboard,
            &mut self.map_edits,
            &mut self.brushes,
            &mut self.opening,
            &mut self.view_settings,
            &mut self.missing_models,
            &mut self.daylight,
            &mut self.vertex_selection,
            &mut self.road_tool,
            &mut self.keys,
            &mut self.places,
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
            save_as: Default::default(),
            open_from_client: Default::default(),
            export: Default::default(),
            new_map: Default::default(),
            images: Default::default(),
            textures: Default::default(),
            window: Default::default(),
            autosave: Default::default(),
            browser,
            scatter_tool: Default::default(),
            object_tool: Default::default(),
            terrain_clipboard: Default::default(),
            map_edits: Default::default(),
            brushes: Default::default(),
            opening: Default::default(),
            view_settings: Default::default(),
            missing_models: Default::default(),
            daylight: Default::default(),
            vertex_selection: Default::default(),
            road_tool: Default::default(),
            keys: Default::default(),
            places: Default::default(),
            palette: Default::default(),
        }
    }
}
