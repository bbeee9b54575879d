//! The Scatter tool as a component: the palette (models with weights and scale ranges), the
//! brush's settings, the palettes saved by name beside the settings, and the strokes dragged
//! in the view, each handed to the one op runner as a `scatter` or `erase_objects` operation
//! (one undo step), the code `loam apply` runs. While the drag goes, each dab already runs on
//! the map so that its objects show at once; the release takes them back out and the op runner
//! places the very same ones (same seed, same points) as the one undo step.
//!
//! Each palette model gets a thumbnail, drawn on a worker thread and kept by model path until
//! the map's files change.
//!
//! Not for: placing the objects (`edit::objects::scatter_ops`) or drawing the panel (`ui::palette_panel`).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender};

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::assets::textures::ByteSource;
use crate::command::{Intent, ScatterIntent};
use crate::doc::editing::Tool;
use crate::edit::objects::scatter::Circle;
use crate::edit::objects::scatter_ops::{
    EraseFilter, ObjectBrushOp, PaletteModel, ScatterBrush, ScatterStroke, erase_dab,
};
use crate::edit::objects::{ModelBox, NewUids, ObjectStroke};
use crate::edit::ops::{Operation, OpsFile};
use crate::model::ObjectKind;
use crate::ui::palette_panel::{PaletteThumb, PaletteView};
use crate::ui::viewport::ViewportInput;

/// The side of a palette thumbnail in pixels.
pub const THUMB_SIDE: usize = 96;

/// The file the named palettes live in, inside loam's data directory (beside the settings).
const PALETTES_FILE: &str = "palettes.json";

/// The tool's state.
#[derive(Debug, Default)]
pub struct ScatterTool {
    palette: Vec<PaletteModel>,
    brush: ScatterBrush,
    /// The stroke under way.
    stroke: Option<LiveStroke>,
    /// Each palette model's placement box as the op runner reads it (`None`: a stand-in),
    /// read once per path so that the dabs of a drag do not read model files again.
    boxes: HashMap<String, Option<ModelBox>>,
    /// Strokes run so far: each takes the brush's seed plus this, so strokes differ and a
    /// session repeats.
    strokes: u64,
    pending: Option<OpsFile>,
    /// The named palettes, read from disk the first time they are wanted.
    saved: Option<BTreeMap<String, Vec<PaletteModel>>>,
    /// The palette models' thumbnails (started with the first view).
    thumbnails: Option<Thumbnails>,
}

/// A request to the thumbnail worker: a model path and where its files are read from.
type ThumbJob = (String, ByteSource);
/// The worker's answer: the path, and its thumbnail's RGBA pixels or why there are none.
type ThumbAnswer = (String, Result<Vec<u8>, String>);

/// The palette's thumbnails: a worker that draws them and those drawn, by model path (lower
/// case), as egui textures.
struct Thumbnails {
    requests: Option<Sender<ThumbJob>>,
    answers: Receiver<ThumbAnswer>,
    /// Drawn (or failed, with the message), by lower-case path.
    done: HashMap<String, Result<egui::TextureHandle, String>>,
    /// Asked and not answered yet.
    asked: std::collections::HashSet<String>,
    /// The map's files, as the worker reads them.
    source: Option<ByteSource>,
}

impl std::fmt::Debug for Thumbnails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thumbnails")
            .field("done", &self.done.len())
            .field("asked", &self.asked)
            .finish_non_exhaustive()
    }
}

/// Reads one model and draws its thumbnail (what the worker does per request), with its first
/// texture when that reads and decodes.
fn draw_thumbnail((path, source): ThumbJob) -> ThumbAnswer {
    use crate::app::scene::object_loader::{ModelAnswer, prepare_model};
    let drawn = match prepare_model(&source, &path) {
        ModelAnswer::Ready(m) => {
            let texture = m
                .texture_files
                .first()
                .and_then(|t| source(t).ok().flatten())
                .and_then(|bytes| crate::assets::blp::decode(&bytes).ok());
            Ok(crate::assets::models::thumbnail::render(
                &m.mesh,
                texture.as_ref(),
                THUMB_SIDE,
            ))
        }
        ModelAnswer::Missing => Err(format!("{path}: not found")),
        ModelAnswer::Failed(e) => Err(e),
    };
    (path, drawn)
}

impl Thumbnails {
    /// The worker started; `wake` asks for a repaint after each thumbnail.
    fn new(wake: std::sync::Arc<dyn Fn() + Send + Sync>) -> Thumbnails {
        let (requests, answers) = crate::app::scene::worker::spawn(
            "loam-palette-thumbnails",
            draw_thumbnail,
            move || wake(),
        );
        Thumbnails {
            requests,
            answers,
            done: HashMap::new(),
            asked: std::collections::HashSet::new(),
            source: None,
        }
    }

    /// Takes in the worker's answers as egui textures, and asks for `models` not asked yet.
    fn update(&mut self, ctx: &egui::Context, models: &[PaletteModel]) {
        while let Ok((path, drawn)) = self.answers.try_recv() {
            let key = path.to_ascii_lowercase();
            // An answer from before the files changed is not wanted.
            if !self.asked.remove(&key) {
                continue;
            }
            let done = drawn.map(|rgba| {
                ctx.load_texture(
                    format!("palette-thumb:{key}"),
                    egui::ColorImage::from_rgba_unmultiplied([THUMB_SIDE, THUMB_SIDE], &rgba),
                    egui::TextureOptions::LINEAR,
                )
            });
            self.done.insert(key, done);
        }
        let (Some(tx), Some(source)) = (&self.requests, &self.source) else {
            return;
        };
        for m in models {
            let key = m.model.to_ascii_lowercase();
            if !self.done.contains_key(&key)
                && !self.asked.contains(&key)
                && tx.send((m.model.clone(), source.clone())).is_ok()
            {
                self.asked.insert(key);
            }
        }
    }

    /// What the panel shows for `model`.
    fn of(&self, model: &str) -> PaletteThumb {
        match self.done.get(&model.to_ascii_lowercase()) {
            Some(Ok(t)) => PaletteThumb::Ready(t.id()),
            Some(Err(why)) => PaletteThumb::Missing(why.clone()),
            None => PaletteThumb::Drawing,
        }
    }
}

/// A stroke under way: its operation (the settings when it started, the dab centres so far)
/// and what its dabs already did to the map.
struct LiveStroke {
    op: ObjectBrushOp,
    /// The map's change so far: taken back at release, before the op runner runs `op`.
    live: Live,
}

/// What a stroke's dabs did to the map so far.
enum Live {
    /// Scattering: the stroke placing objects.
    Scatter(Box<ScatterStroke>),
    /// Erasing: the objects taken out and which ones the brush takes.
    Erase(ObjectStroke, EraseFilter),
    /// Nothing to show (no palette, or settings the op runner will refuse with a message).
    Nothing,
}

impl std::fmt::Debug for LiveStroke {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveStroke").field("op", &self.op).finish()
    }
}

impl LiveStroke {
    /// The dab centres so far.
    fn points(&mut self) -> &mut Vec<[f64; 2]> {
        match &mut self.op {
            ObjectBrushOp::Scatter(op) => &mut op.points,
            ObjectBrushOp::Erase(op) => &mut op.points,
        }
    }
}

impl ScatterTool {
    /// Where the named palettes are kept: loam's data directory (`$LOAM_DATA_DIR`, else
    /// beside eframe's settings).
    fn store_path(&self) -> Option<PathBuf> {
        crate::app::recovery::data_dir().map(|d| d.join(PALETTES_FILE))
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
                if crate::edit::objects::object_ops::kind_of_model(&model) == ObjectKind::Wmo {
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
                let Some(path) = cx.shell.dialogs.pick_json("a palette") else {
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
    /// apart (each run on the map at once), the release hands the stroke over as one
    /// operation.
    fn follow_pointer(&mut self, input: &ViewportInput, cx: &mut AppCtx, radius: f64) {
        let at = cx.view.hover.map(|p| [p.world[0], p.world[1]]);
        if input.brush_pressed
            && let Some(p) = at
        {
            self.start(cx, radius, p);
            self.dab(cx, p);
        } else if input.brush_held
            && let (Some(stroke), Some(p)) = (&mut self.stroke, at)
            && stroke
                .points()
                .last()
                .is_none_or(|l| (l[0] - p[0]).hypot(l[1] - p[1]) >= radius * 0.5)
        {
            self.dab(cx, p);
        }
        if !input.brush_held
            && let Some(stroke) = self.stroke.take()
        {
            self.finish(cx, stroke);
        }
    }

    /// Starts a stroke at `first` with the brush's settings now and the next seed (the first
    /// dab is left to `dab`, like the others).
    fn start(&mut self, cx: &mut AppCtx, radius: f64, first: [f64; 2]) {
        // A stroke left over (the pointer went without a release) is taken back first.
        self.take_back(cx);
        let seed = self.brush.seed.wrapping_add(self.strokes);
        self.strokes += 1;
        // The settings are checked with a point: an operation without one is refused.
        let op = self.brush.op(&self.palette, vec![first], radius, seed);
        let live = match &op {
            ObjectBrushOp::Scatter(s) if s.models.is_empty() => Live::Nothing,
            ObjectBrushOp::Scatter(s) => match s.settings() {
                Ok(settings) => {
                    Live::Scatter(Box::new(ScatterStroke::new(settings, s.seed.unwrap_or(0))))
                }
                Err(_) => Live::Nothing,
            },
            ObjectBrushOp::Erase(e) => Live::Erase(
                ObjectStroke::default(),
                EraseFilter::new(e.models.as_deref(), e.wmos.unwrap_or(false)),
            ),
        };
        let mut stroke = LiveStroke { op, live };
        stroke.points().clear();
        self.stroke = Some(stroke);
    }

    /// Adds a dab at `p` to the stroke and runs it on the map as the op runner will (the
    /// same model boxes and uid sources), so that its objects show now.
    fn dab(&mut self, cx: &mut AppCtx, p: [f64; 2]) {
        let Some(stroke) = &mut self.stroke else {
            return;
        };
        stroke.points().push(p);
        if let ObjectBrushOp::Scatter(op) = &stroke.op {
            let models = op.models.iter().map(|m| m.model.as_str());
            super::operation_runs::cache_boxes(cx, models, &mut self.boxes);
        }
        let on_disk = super::operation_runs::disk_uids(cx);
        let uids = NewUids {
            range: cx.doc.uids.range(),
            on_disk: on_disk.as_deref(),
        };
        let boxes = &self.boxes;
        let model_box = |path: &str| boxes.get(path).copied().flatten();
        let Some(s) = &mut cx.doc.session else {
            return;
        };
        let changed = match &mut stroke.live {
            Live::Scatter(live) => live.dab(&mut s.map, p, &model_box, &uids),
            Live::Erase(objects, filter) => {
                let radius = match &stroke.op {
                    ObjectBrushOp::Scatter(op) => op.radius,
                    ObjectBrushOp::Erase(op) => op.radius,
                };
                let circle = Circle { centre: p, radius };
                erase_dab(&mut s.map, objects, &circle, filter)
            }
            Live::Nothing => 0,
        };
        if changed > 0 {
            cx.streams.objects.invalidate();
        }
    }

    /// Takes what the stroke under way did back off the map (nothing is recorded).
    fn take_back(&mut self, cx: &mut AppCtx) {
        let Some(stroke) = self.stroke.take() else {
            return;
        };
        self.revert(cx, stroke.live);
    }

    /// Takes `live`'s change back off the map.
    fn revert(&mut self, cx: &mut AppCtx, live: Live) {
        let Some(s) = &mut cx.doc.session else {
            return;
        };
        match live {
            Live::Scatter(live) => live.cancel(&mut s.map),
            Live::Erase(objects, _) => objects.revert(&mut s.map),
            Live::Nothing => return,
        }
        cx.streams.objects.invalidate();
    }

    /// Takes the stroke's live change back and hands the stroke over as one operation, which
    /// places the same objects again as one undo step (nothing with an empty palette,
    /// unless erasing every model).
    fn finish(&mut self, cx: &mut AppCtx, stroke: LiveStroke) {
        self.revert(cx, stroke.live);
        let no_models = match &stroke.op {
            ObjectBrushOp::Scatter(op) => op.models.is_empty(),
            ObjectBrushOp::Erase(op) => op.models.as_ref().is_some_and(Vec::is_empty),
        };
        if no_models {
            return;
        }
        self.pending = Some(OpsFile {
            ops: vec![Operation::ObjectBrush(stroke.op)],
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

    /// True when no palette thumbnail is being drawn (a screenshot waits for them).
    pub fn thumbnails_settled(&self) -> bool {
        self.thumbnails
            .as_ref()
            .is_none_or(|t| t.asked.is_empty() || t.requests.is_none())
    }

    /// What the panel shows; `map_models` are the open map's doodad models. Takes in the
    /// thumbnails drawn since (as textures of `ctx`) and asks for those missing.
    pub fn view(
        &mut self,
        ctx: &egui::Context,
        cx: &AppCtx,
        map_models: Vec<String>,
    ) -> PaletteView {
        let thumbnails = self.thumbnails.get_or_insert_with(|| {
            let mut t = Thumbnails::new(cx.streams.repaint.clone());
            t.source = Some(cx.doc.byte_source());
            t
        });
        thumbnails.update(ctx, &self.palette);
        let thumbs = self
            .palette
            .iter()
            .map(|m| thumbnails.of(&m.model))
            .collect();
        let saved = self.saved().keys().cloned().collect();
        PaletteView {
            thumbnails: thumbs,
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
                    && crate::edit::objects::object_ops::kind_of_model(&path)
                        == ObjectKind::Doodad =>
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
            self.take_back(cx);
            return;
        }
        let radius = f64::from(cx.doc.editing.settings.brush.radius);
        self.follow_pointer(input, cx, radius);
    }

    /// The stroke released, once: the shell runs it.
    fn take_ops(&mut self) -> Option<OpsFile> {
        self.pending.take()
    }

    /// A stroke is under way.
    fn is_busy(&self) -> bool {
        self.stroke.is_some()
    }

    /// New files (a map or client opened): thumbnails are drawn again from them, and model
    /// boxes read again.
    fn sources_changed(&mut self, _cx: &mut AppCtx, source: &ByteSource) {
        self.boxes.clear();
        if let Some(t) = &mut self.thumbnails {
            t.done.clear();
            t.asked.clear();
            t.source = Some(source.clone());
        }
    }
}
