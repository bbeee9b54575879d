//! What the side panels and the menu show, built from the document as plain view data, and the
//! left and right panels' layout. The panels themselves (`ui::menu`, `ui::tile_map`,
//! `ui::tool_panel`, `ui::object_panel`, `ui::history`) only see these views and return intents.
//!
//! The status bar's line is assembled here too.
//!
//! Not for: the widgets (`ui`) or carrying the intents out (the components).

use super::context::AppCtx;
use super::settings::{LeftPanel, Settings};
use crate::app::toolbox::asset_browser::AssetBrowser;
use crate::app::toolbox::asset_picking;
use crate::app::toolbox::object_tool::ObjectTool;
use crate::app::toolbox::object_view;
use crate::command::{Intent, PlaceOptions, ToolSettings};
use crate::doc::Document;
use crate::doc::client::Client;
use crate::doc::session::Session;
use crate::edit::objects::ObjectRecord;
use crate::edit::tools::Tool;
use crate::render::pick::TerrainPoint;
use crate::ui;

/// The menu bar's view of the document and the settings.
pub(super) fn menu_state(doc: &Document, settings: &Settings) -> ui::menu::MenuState {
    ui::menu::MenuState {
        recent: settings.recent.clone(),
        has_map: doc.session.is_some(),
        unsaved: doc.has_unsaved(),
        can_undo: doc.editing.history.can_undo(),
        can_redo: doc.editing.history.can_redo(),
        shadow_sun: doc.editing.settings.shadow_sun,
        shadow_models: doc.editing.settings.shadow_models,
        view: settings.view,
        objects: settings.objects,
        uid_range: doc
            .session
            .as_ref()
            .map(|_| doc.uids.range().map(|r| (r.first, r.last))),
        camera_speed: settings.input.camera_speed,
        time_of_day: settings.time_of_day,
        autosave_secs: settings.autosave_secs,
        client: doc.client.as_ref().map(Client::describe),
        client_has_archives: doc.client_data().is_some(),
        listfile: settings.listfile.clone(),
        generation: doc
            .session
            .as_ref()
            .map(|s| (s.generation, s.decision.reason.clone())),
        read_as: doc
            .session
            .as_ref()
            .and_then(|s| settings.read_as_for(&s.source)),
        pen_pressure: settings.input.pen_pressure,
    }
}

/// The status bar's view: the cursor, the area under it, the frame time, unsaved and loaded
/// tiles, the message, and how the textures and objects stand.
pub(super) fn status(cx: &AppCtx) -> ui::status::StatusInfo {
    // Read before the struct literal: a lock taken inside it would live to the end of the
    // statement, and `object_status` locks the same state.
    let uploaded = cx.gl.lock().uploaded.len();
    let pass_times = cx.gl.lock().pass_times();
    let session = cx.doc.session.as_ref();
    ui::status::StatusInfo {
        hover: cx.view.hover,
        area_name: cx.view.hover.and_then(|p| {
            let names = &cx.doc.client.as_ref()?.areas;
            names.describe(p.area_id)
        }),
        frame_ms: cx.shell.frame_ms,
        pass_times,
        cpu_frame_ms: cx.shell.cpu_frame_ms,
        unsaved: if cx.has_unsaved() {
            session.map_or(0, |s| s.edited.len())
        } else {
            0
        },
        tiles_loaded: (session.map_or(0, |s| s.map.tiles.len()), uploaded),
        message: cx.shell.message.clone(),
        textures: cx.streams.textures.status(),
        objects: object_view::object_status(&cx.streams.objects, session, &cx.gl),
        go_xyz: crate::app::view_options::places::current_go_xyz(cx),
        light: (cx.doc.client.as_ref())
            .and_then(|c| c.lights.as_ref().err())
            .map(|why| format!("default light: {why}")),
    }
}

/// The tile map's view: the camera, the tiles present, loaded, drawn, edited and unreadable,
/// and the tile last gone to.
pub(super) fn tile_map(cx: &AppCtx) -> ui::tile_map::TileMapState {
    let camera = &cx.view.camera;
    let mut state = ui::tile_map::TileMapState {
        camera: Some(([camera.position[0], camera.position[1]], camera.yaw)),
        drawn: cx.gl.lock().uploaded.clone(),
        gone_to: cx.view.gone_to,
        ..Default::default()
    };
    if let Some(s) = &cx.doc.session {
        state.present = s.map.present_tiles().into_iter().collect();
        state.loaded = s.map.tiles.keys().copied().collect();
        state.edited = s.edited.clone();
        state.unreadable = s.failed.clone();
    }
    state
}

/// What the left panel draws from.
pub(super) struct Left<'a> {
    /// The page shown (Map or Assets).
    pub page: LeftPanel,
    /// The open document.
    pub doc: &'a Document,
    /// The tile map's view.
    pub tile_map: &'a ui::tile_map::TileMapState,
    /// The asset browser (its page polls and refreshes it).
    pub browser: &'a mut AssetBrowser,
}

/// The left panel: the Map / Assets tabs, then the tile map or the asset browser.
pub(super) fn left(ui: &mut egui::Ui, left: Left) -> Vec<Intent> {
    let mut intents = Vec::new();
    ui.horizontal(|ui| {
        for (p, label) in [(LeftPanel::Tiles, "Map"), (LeftPanel::Assets, "Assets")] {
            if ui.selectable_label(left.page == p, label).clicked() && left.page != p {
                intents.push(Intent::ShowLeftPanel(p));
            }
        }
    });
    ui.separator();
    match left.page {
        LeftPanel::Tiles => {
            if let Some(t) = left.doc.session.as_ref().map(Session::title) {
                ui.label(t);
            }
            intents.extend(ui::tile_map::show(ui, left.tile_map));
        }
        LeftPanel::Assets => intents.extend(asset_picking::draw_browser(
            ui,
            left.browser,
            &left.doc.editing.settings.texture,
            left.doc.client_data(),
        )),
    }
    intents
}

/// The area overlay's legend: the area ids of the loaded tiles by chunk count, named from
/// the client's AreaTable when one is set.
pub(super) fn area_legend(doc: &Document) -> Vec<ui::area_legend::LegendEntry> {
    let Some(s) = &doc.session else {
        return Vec::new();
    };
    let mut counts = std::collections::BTreeMap::<u32, usize>::new();
    for c in s.map.tiles.values().flat_map(|t| &t.chunks) {
        *counts.entry(c.area_id).or_default() += 1;
    }
    let names = doc.client.as_ref().map(|c| &c.areas);
    let mut entries: Vec<ui::area_legend::LegendEntry> = counts
        .into_iter()
        .map(|(id, chunks)| ui::area_legend::LegendEntry {
            id,
            colour: crate::render::terrain::area_colour(id),
            name: names.and_then(|n| n.describe(id)),
            chunks,
        })
        .collect();
    entries.sort_by(|a, b| b.chunks.cmp(&a.chunks).then(a.id.cmp(&b.id)));
    entries
}

/// What the right panel shows: the tools, the object panel with the object tool, the history.
pub(super) struct RightView {
    settings: ToolSettings,
    tools: ui::tool_panel::ToolsView,
    /// With the object tool: the selected records, the placing options and the transform
    /// under way, described.
    selected: Option<(Vec<ObjectRecord>, PlaceOptions, Option<String>)>,
    history: (Vec<String>, usize),
    can_redo: bool,
}

/// The right panel's view of the document, the object tool and the terrain under the cursor
/// (whose tile's textures the paint tool offers).
pub(super) fn right_view(
    doc: &Document,
    tool: &ObjectTool,
    clipboard: ui::clipboard_panel::ClipboardView,
    palette: ui::palette_panel::PaletteView,
    hover: Option<TerrainPoint>,
) -> RightView {
    let tile_textures = doc.session.as_ref().and_then(|s| {
        let tile = hover
            .map(|p| p.tile)
            .or_else(|| s.map.tiles.keys().next().copied())?;
        Some(s.map.tiles.get(&tile)?.textures.clone())
    });
    let tools = ui::tool_panel::ToolsView {
        textures: tile_textures.unwrap_or_default(),
        stamps: crate::app::toolbox::stamps::bundled(),
        clipboard,
        palette,
        areas: doc
            .client
            .as_ref()
            .filter(|c| !c.areas.is_empty())
            .map(|c| c.areas.clone()),
        map_id: doc
            .client
            .as_ref()
            .zip(doc.session.as_ref())
            .and_then(|(c, s)| c.map_id(&s.map.name)),
        // Only the ground-effects tools show it: no string is made for it on other frames.
        effect_here: matches!(
            doc.editing.settings.tool,
            Tool::EffectsOff | Tool::EffectsOn
        )
        .then_some(())
        .and(doc.session.as_ref().zip(hover))
        .and_then(|(s, p)| {
            let names = doc.client.as_ref().map(|c| c.ground_effects.clone());
            let name = |id: u32| names.as_ref().map_or(id.to_string(), |n| n.label(id));
            crate::edit::derived::ground_effects::describe_at(&s.map, p.world[0], p.world[1], &name)
        }),
        liquid_types: doc.client.as_ref().map_or_else(Vec::new, |c| {
            c.liquid_types
                .iter()
                .map(|l| (l.id, l.name.clone()))
                .collect()
        }),
        flatten_locked: doc.editing.describe_flatten_lock(),
        selection: Default::default(),
        road: Default::default(),
        presets: Default::default(),
        biomes: Vec::new(),
        scripts: Default::default(),
        zone: Default::default(),
        note: (!doc.editing.refused.is_empty()).then(|| {
            let why = if doc.editing.settings.tool == Tool::SwapTexture {
                "they paint the new texture already"
            } else {
                "four textures already"
            };
            format!("{} chunk(s) refused: {why}", doc.editing.refused.len())
        }),
    };
    let settings = doc.editing.settings.clone();
    let selected = (settings.tool == Tool::Objects).then(|| {
        (
            doc.selected_objects(),
            tool.place.clone(),
            tool.transform().map(|(mode, axis)| mode.describe(axis)),
        )
    });
    RightView {
        settings,
        tools,
        selected,
        history: doc.editing.history.labels(),
        can_redo: doc.editing.history.can_redo(),
    }
}

/// Adds the vertex selection and road tools' panels (`selection`, `road`'s) to `view`; the
/// road's texture picker offers the paint tool's tile textures.
pub(super) fn with_shaping_tools(
    view: &mut RightView,
    selection: ui::selection_panel::SelectionView,
    road: &crate::app::toolbox::road_tool::RoadTool,
) {
    view.tools.selection = selection;
    view.tools.road = road.view(view.tools.textures.clone());
}

/// Adds the Lights and Area triggers tools' panel to `view`.
pub(super) fn with_zone(view: &mut RightView, zone: ui::zone_panel::ZoneView) {
    view.tools.zone = zone;
}

/// Adds the presets' section, the kept biomes' names and the Script tool's brushes to `view`.
pub(super) fn with_presets(
    view: &mut RightView,
    presets: ui::presets_panel::PresetsView,
    settings: &Settings,
    scripts: ui::script_panel::ScriptsView,
) {
    view.tools.presets = presets;
    view.tools.scripts = scripts;
    if view.settings.tool == Tool::Biome {
        view.tools.biomes = settings.biomes.iter().map(|b| b.name.clone()).collect();
    }
}

/// The right panel: the tools, the object panel with the object tool, and the history.
pub(super) fn right(ui: &mut egui::Ui, view: &RightView) -> Vec<Intent> {
    // The history keeps its place at the foot of the panel and the tools scroll above it:
    // a tool's settings can be taller than a small window, and Undo must stay in reach.
    let (labels, applied) = &view.history;
    // No frame of its own, so that it lines up with the tools above it.
    let mut intents = egui::Panel::bottom("loam-history")
        .resizable(false)
        .frame(egui::Frame::NONE)
        .show(ui, |ui| {
            ui::history::show(ui, labels, *applied, view.can_redo)
        })
        .inner;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            intents.extend(ui::tool_panel::show(ui, &view.settings, &view.tools));
            if let Some((selected, place, transform)) = &view.selected {
                intents.extend(ui::object_panel::show(
                    ui,
                    selected,
                    place,
                    transform.as_deref(),
                ));
            }
        });
    intents
}
