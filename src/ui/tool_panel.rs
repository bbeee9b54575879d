//! The tool panel: the tools, the brush (radius, hardness, strength, falloff, shape, spacing) and
//! each tool's own settings. It edits a copy of the settings and returns it when changed.

use egui::{ComboBox, DragValue, Slider};

use super::labelled;
use crate::command::{Command, Intent};
use crate::command::{Tool, ToolSettings};
use crate::edit::terrain::liquid::LiquidKind;
use crate::edit::terrain::sculpt::FlattenMode;
use crate::edit::{Falloff, Shape};

/// What the panel shows besides the settings.
#[derive(Debug, Clone, Default)]
pub struct ToolsView {
    /// Texture paths of the tile under the cursor (or the first loaded tile), to pick from.
    pub textures: Vec<String>,
    /// A message about the last stroke (refused chunks), if any.
    pub note: Option<String>,
    /// The client's LiquidType.dbc rows (id, name), when a 3.3.5 client is set.
    pub liquid_types: Vec<(u16, String)>,
    /// The client's zone names, for the Area tool's picker (`None` without a client or when
    /// its AreaTable cannot be read).
    pub areas: Option<std::sync::Arc<crate::assets::client::AreaNames>>,
    /// The open map's Map.dbc id, when the client's table names it: its zones come first.
    pub map_id: Option<u32>,
    /// The Copy & paste tool's panel.
    pub clipboard: super::clipboard_panel::ClipboardView,
    /// The Scatter tool's panel.
    pub palette: super::palette_panel::PaletteView,
    /// What grows under the cursor (`edit::derived::ground_effects::describe_at`), for the
    /// ground-effects tools.
    pub effect_here: Option<String>,
    /// The bundled stamp brushes: (name, file), found once.
    pub stamps: &'static [(String, std::path::PathBuf)],
    /// The vertex selection tool's panel.
    pub selection: super::selection_panel::SelectionView,
    /// The road tool's panel.
    pub road: super::road_panel::RoadView,
    /// The brush presets.
    pub presets: super::presets_panel::PresetsView,
    /// The flatten target kept across strokes, described, while locked.
    pub flatten_locked: Option<String>,
    /// The kept biomes' names, in the list's order.
    pub biomes: Vec<String>,
    /// The Script tool's brushes and the chosen one's parameters.
    pub scripts: super::script_panel::ScriptsView,
    /// The Lights and Area triggers tools' panel.
    pub zone: super::zone_panel::ZoneView,
}

/// Shows the panel; returns an intent when a setting changed.
pub fn show(ui: &mut egui::Ui, settings: &ToolSettings, view: &ToolsView) -> Vec<Intent> {
    let mut s = settings.clone();
    ui.heading("Tools");
    super::tool_bar::show(ui, &mut s, &view.scripts.items);
    let presets = super::presets_panel::show(ui, &view.presets);
    if s.tool == Tool::Scatter {
        // An object brush: the radius is the brush's, the rest the palette panel's.
        ui.separator();
        ui.add(
            Slider::new(&mut s.brush.radius, 1.0..=200.0)
                .logarithmic(true)
                .text("Radius"),
        );
        let mut out = presets;
        out.extend(super::palette_panel::show(ui, &view.palette));
        if s != *settings {
            out.push(Intent::SetTools(Box::new(s)));
        }
        return out;
    }
    if !s.tool.is_brush() {
        // None is a brush: the object panel follows (the app draws it), or the tool's own.
        let mut out = presets;
        match s.tool {
            Tool::CopyPaste => {
                ui.separator();
                out.extend(super::clipboard_panel::show(ui, &view.clipboard));
            }
            Tool::SelectVertices => {
                ui.separator();
                if view.selection.options.shape == crate::edit::tools::SelectShape::Brush {
                    ui.add(
                        Slider::new(&mut s.brush.radius, 1.0..=200.0)
                            .logarithmic(true)
                            .text("Radius"),
                    );
                }
                out.extend(super::selection_panel::show(ui, &view.selection));
            }
            Tool::Road => {
                ui.separator();
                out.extend(super::road_panel::show(ui, &view.road));
            }
            Tool::Lights => {
                ui.separator();
                out.extend(super::zone_panel::show_lights(ui, &view.zone));
            }
            Tool::Triggers => {
                ui.separator();
                out.extend(super::zone_panel::show_triggers(ui, &view.zone));
            }
            _ => {}
        }
        if s != *settings {
            out.push(Intent::SetTools(Box::new(s)));
        }
        return out;
    }
    ui.separator();
    ui.label("Brush");
    ui.add(
        Slider::new(&mut s.brush.radius, 1.0..=200.0)
            .logarithmic(true)
            .text("Radius"),
    );
    let radius = s.brush.radius;
    ui.add(Slider::new(&mut s.brush.inner_radius, 0.0..=radius).text("Inner radius"));
    let (max, what) = s.tool.strength();
    s.brush.strength = s.brush.strength.min(max);
    ui.add(Slider::new(&mut s.brush.strength, 0.0..=max).text(what));
    ui.add(Slider::new(&mut s.brush.spacing, 0.05..=1.0).text("Spacing"));
    ComboBox::from_label("Falloff")
        .selected_text(format!("{:?}", s.brush.falloff))
        .show_ui(ui, |ui| {
            for f in [
                Falloff::Linear,
                Falloff::Smooth,
                Falloff::Gaussian,
                Falloff::Flat,
            ] {
                ui.selectable_value(&mut s.brush.falloff, f, format!("{f:?}"));
            }
        });
    ComboBox::from_label("Shape")
        .selected_text(format!("{:?}", s.brush.shape))
        .show_ui(ui, |ui| {
            for f in [Shape::Circle, Shape::Square] {
                ui.selectable_value(&mut s.brush.shape, f, format!("{f:?}"));
            }
        });
    let mut out = presets;
    if crate::edit::ops::OpTool::STAMPED.contains(&s.op().tool) {
        stamp_row(ui, &mut s, view, &mut out);
    }
    if s.tool.sculpts() {
        ui.checkbox(&mut s.objects_follow_ground, "Objects follow the ground")
            .on_hover_text(
                "Doodads and WMOs standing on the sculpted chunks move up and down with it",
            );
        ui.checkbox(&mut s.rebake_shadows, "Re-bake shadows after sculpting")
            .on_hover_text(
                "Each stroke bakes the shadow maps of the chunks it changed and those around them again",
            );
        if s.rebake_shadows {
            sun_row(ui, &mut s.shadow_sun);
        }
    }
    ui.separator();
    match s.tool {
        Tool::Flatten => {
            typed_height(
                ui,
                &mut s.flatten_height,
                "Typed height (else: height under the first click)",
                ("Height", 0.5),
            );
            let mut sloping = s.flatten_slope.is_some();
            ui.checkbox(&mut sloping, "Sloping plane (else level)")
                .on_hover_text("Flatten toward a plane through the height, rising at a slope toward a direction; Ctrl+click takes the ground's plane");
            if sloping {
                let [mut slope, mut direction] = s.flatten_slope.unwrap_or([10.0, 0.0]);
                ui.horizontal_wrapped(|ui| {
                    labelled(
                        ui,
                        "Slope",
                        DragValue::new(&mut slope).range(0.0..=89.0).suffix("°"),
                    );
                    labelled(
                        ui,
                        "Rises toward",
                        DragValue::new(&mut direction)
                            .range(0.0..=359.9)
                            .suffix("°"),
                    )
                    .on_hover_text("Compass direction: 0 north, 90 east");
                });
                s.flatten_slope = Some([slope, direction]);
            } else {
                s.flatten_slope = None;
            }
            ui.checkbox(&mut s.flatten_lock, "Lock the target across strokes")
                .on_hover_text(
                    "Every stroke flattens toward the first one's height or plane, until unlocked",
                );
            if let Some(locked) = &view.flatten_locked {
                ui.label(format!("Locked: {locked}"));
            }
            ui.weak("Ctrl+click takes the ground's plane under the cursor (and locks it).");
            ComboBox::from_label("Mode")
                .selected_text(format!("{:?}", s.flatten_mode))
                .show_ui(ui, |ui| {
                    for m in [
                        FlattenMode::Both,
                        FlattenMode::RaiseOnly,
                        FlattenMode::LowerOnly,
                    ] {
                        ui.selectable_value(&mut s.flatten_mode, m, format!("{m:?}"));
                    }
                });
        }
        Tool::Noise => {
            ui.horizontal(|ui| {
                labelled(ui, "Seed", DragValue::new(&mut s.noise_seed));
            });
            ui.add(Slider::new(&mut s.noise_scale, 2.0..=200.0).text("Wavelength (yd)"));
        }
        Tool::Ramp => {
            ui.label("Drag from the start of the slope to its end.");
        }
        Tool::Erode => super::erosion_panel::show(ui, &mut s.erosion),
        Tool::TextureRules => super::rules_panel::show(ui, &mut s.rules, &view.textures),
        Tool::Script => out.extend(super::script_panel::show(ui, &mut s.script, &view.scripts)),
        Tool::Biome => out.extend(super::biome_panel::show(
            ui,
            &mut s.biome,
            &view.biomes,
            &view.textures,
        )),
        Tool::SwapTexture => {
            let fields = [
                ("Replace", "Tile texture to replace", &mut s.swap_from),
                ("With", "Tile texture to put in", &mut s.texture),
            ];
            for (label, pick, path) in fields {
                ui.horizontal(|ui| {
                    labelled(ui, label, egui::TextEdit::singleline(path));
                });
                ComboBox::from_label(pick)
                    .selected_text(short(path))
                    .show_ui(ui, |ui| {
                        for t in &view.textures {
                            ui.selectable_value(path, t.clone(), short(t));
                        }
                    });
            }
            ui.label("Chunks under the brush paint the second texture where they painted the first; alpha maps are kept.");
        }
        Tool::Paint | Tool::EraseTexture | Tool::SprayTexture => {
            quick_palette(
                ui,
                &mut s.texture,
                &view.textures,
                &settings.recent_textures,
            );
            ComboBox::from_label("Tile textures")
                .selected_text(short(&s.texture))
                .show_ui(ui, |ui| {
                    for t in &view.textures {
                        ui.selectable_value(&mut s.texture, t.clone(), short(t));
                    }
                });
            ui.horizontal(|ui| {
                labelled(
                    ui,
                    "Texture path",
                    egui::TextEdit::singleline(&mut s.texture),
                );
            });
            ui.add(Slider::new(&mut s.opacity, 0.0..=1.0).text("Opacity"));
            if s.tool == Tool::SprayTexture {
                ui.add(Slider::new(&mut s.spray_rate, 1..=64).text("Splotches a dab"));
                ui.add(Slider::new(&mut s.spray_size, 0.5..=20.0).text("Splotch size (yd)"));
                ui.add(DragValue::new(&mut s.noise_seed).prefix("Seed "));
            }
        }
        Tool::Shade => {
            ui.horizontal(|ui| {
                let label = ui.label("Colour");
                ui.color_edit_button_srgb(&mut s.color)
                    .labelled_by(label.id);
            });
        }
        tool if tool.is_liquid() => liquid_options(ui, &mut s, &view.liquid_types),
        Tool::EffectsOff | Tool::EffectsOn => {
            ui.label(
                "Detail doodads (grass, pebbles) grow in each 8×8 cell from the layer that \
                 covers most of it, unless the cell is switched off here. Which effect a \
                 texture grows: Edit > Textures… > Ground effect. View > Ground effects shows \
                 them.",
            );
            match &view.effect_here {
                Some(here) => ui.label(here),
                None => ui.weak("Point at the ground to see what grows there."),
            };
        }
        Tool::Area => {
            ui.horizontal(|ui| {
                labelled(ui, "Area id", DragValue::new(&mut s.area_id));
            });
            if let Some(names) = &view.areas {
                match names.describe(s.area_id) {
                    Some(name) => ui.label(name),
                    None => ui.weak("not in the client's AreaTable"),
                };
            }
            ui.label("Ctrl+click picks the area id under the cursor.");
            if let Some(names) = &view.areas {
                super::area_picker::show(ui, names, view.map_id, &mut s.area_id);
            }
        }
        _ => {}
    }
    if let Some(note) = &view.note {
        ui.separator();
        ui.colored_label(egui::Color32::from_rgb(240, 180, 80), note);
    }
    if s != *settings {
        out.push(Intent::SetTools(Box::new(s)));
    }
    out
}

/// The stamp row: none or a bundled stamp, or any image (`Image…`), and its turn.
fn stamp_row(ui: &mut egui::Ui, s: &mut ToolSettings, view: &ToolsView, out: &mut Vec<Intent>) {
    let chosen = s
        .brush
        .stamp
        .as_ref()
        .map(|st| short(&st.path).trim_end_matches(".png").to_string());
    ui.horizontal(|ui| {
        ComboBox::from_label("Stamp")
            .selected_text(chosen.clone().unwrap_or_else(|| "None".into()))
            .show_ui(ui, |ui| {
                if ui.selectable_label(chosen.is_none(), "None").clicked() {
                    s.brush.stamp = None;
                }
                for (name, path) in view.stamps {
                    let on = s
                        .brush
                        .stamp
                        .as_ref()
                        .is_some_and(|st| std::path::Path::new(&st.path) == path.as_path());
                    if ui.selectable_label(on, name).clicked() && !on {
                        s.brush.stamp = Some(crate::edit::terrain::brush::Stamp {
                            path: path.to_string_lossy().into_owned(),
                            mask: None,
                        });
                    }
                }
            });
        if ui
            .button("Stamp file…")
            .on_hover_text("Any grey image as the brush's shape and strength")
            .clicked()
        {
            out.push(Intent::Command(Command::PickStamp));
        }
    });
    if s.brush.stamp.is_some() {
        ui.add(Slider::new(&mut s.brush.rotation, -180.0..=180.0).text("Turn (°)"));
        ui.label("The image covers the brush's square; falloff and shape do not apply.");
    }
}

/// The accessible name of a quick palette button ("Texture: Grass.blp").
pub fn quick_texture_label(path: &str) -> String {
    format!("Texture: {}", short(path))
}

/// The quick palette: the tile's textures, then the last ten painted with, one click each.
fn quick_palette(ui: &mut egui::Ui, texture: &mut String, tile: &[String], recent: &[String]) {
    for (what, list) in [("Tile", tile), ("Recent", recent)] {
        if list.is_empty() {
            continue;
        }
        ui.horizontal_wrapped(|ui| {
            ui.weak(what);
            for t in list {
                let r = ui
                    .selectable_label(*texture == *t, short(t))
                    .on_hover_text(t.as_str());
                r.widget_info(|| {
                    egui::WidgetInfo::selected(
                        egui::Role::Button,
                        true,
                        *texture == *t,
                        quick_texture_label(t),
                    )
                });
                if r.clicked() {
                    *texture = t.clone();
                }
            }
        });
    }
}

/// The file name of a texture path.
fn short(path: &str) -> String {
    path.rsplit(['\\', '/']).next().unwrap_or(path).to_string()
}

/// The liquid tools' settings: kind, surface height, flags.
fn liquid_options(ui: &mut egui::Ui, s: &mut ToolSettings, client_types: &[(u16, String)]) {
    if matches!(s.tool, Tool::LiquidAdd | Tool::River) && !client_types.is_empty() {
        let shown = s
            .liquid_type
            .and_then(|id| client_types.iter().find(|(i, _)| *i == id))
            .map_or_else(
                || "(a classic kind)".to_string(),
                |(i, n)| format!("{i} {n}"),
            );
        ComboBox::from_label("LiquidType.dbc")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for (id, name) in client_types {
                    if ui
                        .selectable_label(s.liquid_type == Some(*id), format!("{id} {name}"))
                        .clicked()
                    {
                        s.liquid_type = Some(*id);
                        s.liquid_kind = LiquidKind::of_type(*id);
                    }
                }
            });
    }
    if matches!(s.tool, Tool::LiquidAdd | Tool::River) {
        ComboBox::from_label("Liquid")
            .selected_text(s.liquid_kind.name())
            .show_ui(ui, |ui| {
                for k in LiquidKind::ALL {
                    ui.selectable_value(&mut s.liquid_kind, k, k.name());
                }
            });
        let mut exact = s.liquid_type.is_some();
        ui.checkbox(&mut exact, "Exact LiquidType id (3.3.5)")
            .on_hover_text(
                "A LiquidType.dbc row, e.g. 5 for slow water; 1.12 and older keep its classic kind",
            );
        if exact {
            let mut id = s.liquid_type.unwrap_or(s.liquid_kind.liquid_type());
            ui.horizontal(|ui| {
                labelled(ui, "LiquidType", DragValue::new(&mut id).range(1..=1000));
            });
            s.liquid_type = Some(id);
        } else {
            s.liquid_type = None;
        }
    }
    if matches!(s.tool, Tool::LiquidAdd | Tool::LiquidHeight | Tool::River) {
        let untyped = if s.tool == Tool::LiquidHeight {
            "Typed height (else: the ground under the first click)"
        } else {
            "Typed height (else: the surface or ground under the first click)"
        };
        typed_height(ui, &mut s.liquid_height, untyped, ("Surface height", 0.25));
        ui.label("Ctrl+click picks the liquid surface height and kind under the cursor.");
    }
    match s.tool {
        Tool::River => {
            ui.label(
                "Drag from upstream to downstream: the surface falls from the height at the \
                 press to the surface or ground under the release.",
            );
        }
        Tool::LiquidFlags => {
            ui.checkbox(&mut s.liquid_deep, "Deep (fatigue)");
            ui.checkbox(&mut s.liquid_fishable, "Fishable (3.3.5 MH2O only)");
            ui.label("Paints both flags as set here on the liquid under the brush.");
        }
        _ => {}
    }
}

/// A checkbox saying whether `height` is typed (else the tool takes it from the first click;
/// its text is `untyped`) and, when it is, a field labelled `label` that drags by `speed`.
fn typed_height(
    ui: &mut egui::Ui,
    height: &mut Option<f32>,
    untyped: &str,
    (label, speed): (&str, f64),
) {
    let mut typed = height.is_some();
    ui.checkbox(&mut typed, untyped);
    if typed {
        let mut h = height.unwrap_or(0.0);
        ui.horizontal(|ui| {
            labelled(ui, label, DragValue::new(&mut h).speed(speed));
        });
        *height = Some(h);
    } else {
        *height = None;
    }
}

/// The sun the shadow bakes use: azimuth (degrees clockwise from north) and elevation.
pub fn sun_row(ui: &mut egui::Ui, sun: &mut crate::edit::derived::shadows::Sun) {
    ui.horizontal(|ui| {
        labelled(
            ui,
            "Sun azimuth",
            DragValue::new(&mut sun.azimuth)
                .range(0.0..=359.9)
                .suffix("°"),
        )
        .on_hover_text("Where the light comes from, clockwise from north (315: the north-west)");
        labelled(
            ui,
            "elevation",
            DragValue::new(&mut sun.elevation)
                .range(1.0..=90.0)
                .suffix("°"),
        )
        .on_hover_text("Degrees above the horizon (55: Blizzard's own baked shadows)");
    });
}
