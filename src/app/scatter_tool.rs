//! The Scatter tool as a component: the palette (models with weights and scale ranges), the
//! brush's settings, the palettes saved by name beside the settings, and the strokes dragged
//! in the view, each handed to the one op runner as a `scatter` or `erase_objects` operation
//! (one undo step), the code `loam apply` runs.
//!
//! Not for: placing the objects (`edit::scatter_ops`) or drawing the panel (`ui::palette_panel`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::component::Component;
use super::context::AppCtx;
use crate::command::{Intent, ScatterIntent};
use crate::doc::editing::Tool;
use crate::edit::ops::{Operation, OpsFile};
use crate::edit::scatter_ops::{ObjectBrushOp, PaletteModel, ScatterBrush};
use crate::model::ObjectKind;
use crate::ui::palette_panel::PaletteView;
use crate::ui::viewport::ViewportInput;

/// The file the named palettes live in, inside loam's data directory (beside the settings).
const PALETTES_FILE: &str = "palettes.json";

/// The tool's state.
#[derive(Debug, Default)]
pub struct ScatterTool {
    palette: Vec<PaletteModel>,
    brush: ScatterBrush,
    /// The dab centres of the stroke under way.
    stroke: Option<Vec<[f64; 2]>>,
    /// Strokes run so far: each takes the brush's seed plus this, so strokes differ and a
    /// session repeats.
    strokes: u64,
    pending: Option<OpsFile>,
    /// The named palettes, read from disk the first time they are wanted.
    saved: Option<BTreeMap<String, Vec<PaletteModel>>>,
}

impl ScatterTool {
    /// Where the named palettes are kept: loam's data directory (`$LOAM_DATA_DIR`, else
    /// beside eframe's settings).
    fn store_path(&self) -> Option<PathBuf> {
        super::recovery::data_dir().map(|d| d.join(PALETTES_FILE))
    }

    /// The named palettes, read once (a file that cannot be read counts as none).
    fn saved(&mut self) -> &mut BTreeMap<String, Vec<PaletteModel>> {
        if self.saved.is_none() {
            let read = self
                .store_path()
                .and_then(|p| std::fs::read_to_string(p).ok())
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or_default();
            self.saved = Some(read);
        }
        self.saved.get_or_insert_with(BTreeMap::new)
    }

    /// Writes the named palettes back; what went wrong, if anything.
    fn write_saved(&mut self) -> Result<(), String> {
        let path = self
            .store_path()
            .ok_or("no data directory to keep palettes in")?;
        let text = serde_json::to_string_pretty(self.saved()).map_err(|e| e.to_string())?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Adds `model` unless the palette has it (paths match without regard to case).
    fn add(&mut self, model: String) {
        if !self
            .palette
            .iter()
            .any(|m| m.model.eq_ignore_ascii_case(&model))
        {
            self.palette.push(PaletteModel {
                model,
                weight: 1.0,
                scale: None,
            });
        }
    }

    /// Carries out one of the panel's intents; a problem comes back as a message.
    fn act(&mut self, intent: ScatterIntent, cx: &mut AppCtx) -> Result<(), String> {
        match intent {
            ScatterIntent::Add(model) => {
                if crate::edit::object_ops::kind_of_model(&model) == ObjectKind::Wmo {
                    return Err(format!(
                        "{model} is a WMO: the scatter brush places doodads"
                    ));
                }
                self.add(model);
            }
            ScatterIntent::AddSelected => {
                let s = cx.doc.session.as_ref().ok_or("no map is open")?;
                let mut any = false;
                for (kind, uid) in &cx.doc.selection {
                    if *kind == ObjectKind::Doodad
                        && let Some(r) = crate::edit::objects::find(&s.map, *kind, *uid)
                    {
                        self.add(r.model);
                        any = true;
                    }
                }
                if !any {
                    return Err("select doodads with the Objects tool first".into());
                }
            }
            ScatterIntent::Entry(i, m) => {
                if let Some(e) = self.palette.get_mut(i) {
                    *e = m;
                }
            }
            ScatterIntent::Remove(i) => {
                if i < self.palette.len() {
                    self.palette.remove(i);
                }
            }
            ScatterIntent::Brush(b) => self.brush = b,
            ScatterIntent::Save(name) => {
                let name = name.trim().to_string();
                if name.is_empty() {
                    return Err("give the palette a name".into());
                }
                let palette = self.palette.clone();
                self.saved().insert(name, palette);
                self.write_saved()?;
            }
            ScatterIntent::Load(name) => {
                let palette = self
                    .saved()
                    .get(&name)
                    .cloned()
                    .ok_or_else(|| format!("no palette is saved as {name}"))?;
                self.palette = palette;
            }
            ScatterIntent::Delete(name) => {
                self.saved().remove(&name);
                self.write_saved()?;
            }
            ScatterIntent::Export(name) => {
                let Some(folder) = cx.shell.dialogs.pick_folder() else {
                    return Ok(());
                };
                let stem = name.trim();
                let stem = if stem.is_empty() { "palette" } else { stem };
                let path = folder.join(format!("{stem}.json"));
                let text =
                    serde_json::to_string_pretty(&self.palette).map_err(|e| e.to_string())?;
                std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
                cx.shell.message = Some(format!("palette written to {}", path.display()));
            }
            ScatterIntent::Import => {
                let Some(path) = cx.shell.dialogs.pick_palette() else {
                    return Ok(());
                };
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let palette: Vec<PaletteModel> = serde_json::from_str(&text)
                    .map_err(|e| format!("{}: not a palette: {e}", path.display()))?;
                self.palette = palette;
            }
        }
        Ok(())
    }

    /// Follows the view's pointer: a press starts a stroke, a drag adds dabs half a radius
    /// apart, the release hands the stroke over as one operation.
    fn follow_pointer(&mut self, input: &ViewportInput, at: Option<[f64; 3]>, radius: f64) {
        let at = at.map(|p| [p[0], p[1]]);
        if input.brush_pressed
            && let Some(p) = at
        {
            self.stroke = Some(vec![p]);
        } else if input.brush_held
            && let (Some(points), Some(p)) = (&mut self.stroke, at)
            && points
                .last()
                .is_none_or(|l| (l[0] - p[0]).hypot(l[1] - p[1]) >= radius * 0.5)
        {
            points.push(p);
        }
        if !input.brush_held
            && let Some(points) = self.stroke.take()
        {
            self.finish(points, radius);
        }
    }

    /// Hands the stroke through `points` over as one operation (nothing with an empty
    /// palette, unless erasing every model).
    fn finish(&mut self, points: Vec<[f64; 2]>, radius: f64) {
        let erase_any = self.brush.erase && !self.brush.erase_palette_only;
        if self.palette.is_empty() && !erase_any {
            return;
        }
        let seed = self.brush.seed.wrapping_add(self.strokes);
        self.strokes += 1;
        let op = self.brush.op(&self.palette, points, radius, seed);
        self.pending = Some(OpsFile {
            ops: vec![Operation::ObjectBrush(op)],
            folder: None,
        });
    }

    /// Takes up a script's last operation when it is `scatter` or `erase_objects` (`--apply`):
    /// its palette and settings become the tool's, the tool is chosen with the script's
    /// radius and the brush cursor sits on its last point, so the panel shows what ran.
    pub fn follow_script(&mut self, cx: &mut AppCtx, file: &OpsFile) {
        let Some(Operation::ObjectBrush(op)) = file.ops.last() else {
            return;
        };
        let (points, radius) = match op {
            ObjectBrushOp::Scatter(op) => {
                self.palette = op.models.clone();
                self.brush = ScatterBrush {
                    density: op.density,
                    spacing: op.spacing.unwrap_or(0.0),
                    scale: op.scale.unwrap_or([1.0, 1.0]),
                    yaw: op.yaw.unwrap_or([0.0, 360.0]),
                    tilt: op.tilt.unwrap_or(0.0),
                    max_slope: op.max_slope,
                    erase: false,
                    // The next stroke should not repeat the script's places.
                    seed: op.seed.unwrap_or(0).wrapping_add(1),
                    ..self.brush.clone()
                };
                (&op.points, op.radius)
            }
            ObjectBrushOp::Erase(op) => {
                self.brush.erase = true;
                self.brush.erase_wmos = op.wmos.unwrap_or(false);
                self.brush.erase_palette_only = op.models.is_some();
                if let Some(models) = &op.models {
                    self.palette.clear();
                    models.iter().for_each(|m| self.add(m.clone()));
                }
                (&op.points, op.radius)
            }
        };
        let settings = &mut cx.doc.editing.settings;
        settings.tool = Tool::Scatter;
        settings.brush.radius = radius as f32;
        if let (Some(last), Some(s)) = (points.last(), &cx.doc.session) {
            let z = crate::edit::lattice::height_at(&s.map, last[0], last[1]).unwrap_or(0.0);
            cx.view.shown_cursor = Some([last[0], last[1], f64::from(z)]);
        }
    }

    /// What the panel shows; `map_models` are the open map's doodad models.
    pub fn view(&mut self, map_models: Vec<String>) -> PaletteView {
        let saved = self.saved().keys().cloned().collect();
        PaletteView {
            palette: self.palette.clone(),
            brush: self.brush.clone(),
            map_models,
            saved,
        }
    }
}

/// The doodad models the open map's loaded tiles name, each once (any case), sorted.
pub fn map_models(cx: &AppCtx) -> Vec<String> {
    let Some(s) = &cx.doc.session else {
        return Vec::new();
    };
    let mut seen = std::collections::BTreeMap::new();
    for t in s.map.tiles.values() {
        for n in &t.doodad_names {
            seen.entry(n.to_ascii_lowercase())
                .or_insert_with(|| n.clone());
        }
    }
    seen.into_values().collect()
}

impl Component for ScatterTool {
    /// The panel's intents, and a model picked in the asset browser while the tool is the
    /// Scatter tool (it joins the palette).
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Scatter(i) => {
                if let Err(e) = self.act(i, cx) {
                    cx.shell.message = Some(e);
                }
                None
            }
            Intent::PickAsset(kind, path)
                if cx.doc.editing.settings.tool == Tool::Scatter
                    && kind == crate::assets::catalog::AssetKind::Model
                    && crate::edit::object_ops::kind_of_model(&path) == ObjectKind::Doodad =>
            {
                self.add(path);
                None
            }
            other => Some(other),
        }
    }

    /// With the Scatter tool: strokes.
    fn drive(&mut self, input: &ViewportInput, cx: &mut AppCtx) {
        if cx.doc.editing.settings.tool != Tool::Scatter {
            self.stroke = None;
            return;
        }
        let radius = f64::from(cx.doc.editing.settings.brush.radius);
        self.follow_pointer(input, cx.view.hover.map(|p| p.world), radius);
    }

    /// The stroke released, once: the shell runs it.
    fn take_ops(&mut self) -> Option<OpsFile> {
        self.pending.take()
    }

    /// A stroke is under way.
    fn is_busy(&self) -> bool {
        self.stroke.is_some()
    }
}
