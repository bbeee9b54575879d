//! The Script tool as a component: the Lua brushes of the scripts in loam's folders (the
//! user's `scripts` folder beside the settings, the examples loam ships, and any folder the
//! user adds), read once and again on Reload; a drag in the view collects the stroke's points
//! and the release runs the chosen brush over them as one undo step (`doc::script`). A script
//! that fails names its file and line in the status line, and the map is as it was.
//!
//! Not for: the sandbox and the brushes' API (`doc::script`) or the panel's widgets
//! (`ui::script_panel`, the tool bar's modes).

use std::path::PathBuf;

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::{Intent, ScriptsIntent};
use crate::doc::script::{Limits, ParamDecl, Script, ScriptError, StrokeRequest};
use crate::edit::objects::NewUids;
use crate::edit::tools::Tool;
use crate::ui::script_panel::{ScriptItem, ScriptsView};
use crate::ui::viewport::ViewportInput;

/// The folder of example scripts loam ships, beside the bundled sample's folder.
const SHIPPED_FOLDER: &str = "scripts";

/// The tool's state.
#[derive(Default)]
pub struct ScriptTool {
    /// Each script file found, loaded (or why not); read the first time they are wanted.
    scripts: Option<Vec<(PathBuf, Result<Script, ScriptError>)>>,
    /// The folders they were read from (the panel lists them each frame: no file system
    /// calls there).
    read_from: Vec<PathBuf>,
    /// The points of the stroke under way.
    stroke: Option<Vec<[f64; 2]>>,
}

impl std::fmt::Debug for ScriptTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptTool")
            .field("scripts", &self.scripts.as_ref().map(Vec::len))
            .field("stroke", &self.stroke)
            .finish()
    }
}

/// The folders scripts are read from: the user's, the shipped examples, and those added in
/// the settings, each once (as absolute paths, so that a script is known by one path).
pub fn folders(cx: &AppCtx) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let user = crate::app::recovery::data_dir().map(|d| crate::doc::script::user_folder(&d));
    let shipped = crate::app::startup::sample_path()
        .ok()
        .and_then(|p| Some(p.parent()?.parent()?.join(SHIPPED_FOLDER)));
    for f in user
        .into_iter()
        .chain(shipped)
        .chain(cx.settings.script_folders.iter().cloned())
    {
        let f = std::fs::canonicalize(&f).unwrap_or(f);
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

impl ScriptTool {
    /// The scripts, read now if they are not yet.
    fn scripts(&mut self, cx: &AppCtx) -> &[(PathBuf, Result<Script, ScriptError>)] {
        let read_from = &mut self.read_from;
        self.scripts.get_or_insert_with(|| {
            *read_from = folders(cx);
            read_from
                .iter()
                .flat_map(|f| crate::doc::script::script_files(f))
                .map(|path| {
                    // Loaded once: the state keeps the brushes for the strokes.
                    let loaded = Script::load(&path, Limits::default());
                    (path, loaded)
                })
                .collect()
        })
    }

    /// What the panel and the tool bar show.
    pub fn view(&mut self, cx: &AppCtx) -> ScriptsView {
        if cx.doc.editing.settings.tool.kind() != crate::edit::tools::ToolKind::Scripts {
            return ScriptsView::default();
        }
        let choice = cx.doc.editing.settings.script.clone();
        let mut items = Vec::new();
        let mut params = Vec::new();
        for (path, loaded) in self.scripts(cx) {
            match loaded {
                Ok(script) => {
                    for b in script.brushes() {
                        if choice.file.as_ref() == Some(path) && choice.brush == b.name {
                            params = b.params.clone();
                        }
                        items.push(ScriptItem {
                            file: path.clone(),
                            brush: Ok(b.name),
                        });
                    }
                }
                Err(e) => items.push(ScriptItem {
                    file: path.clone(),
                    brush: Err(e.to_string()),
                }),
            }
        }
        ScriptsView {
            items,
            params,
            folders: self.read_from.clone(),
        }
    }

    /// Follows the view's pointer: a press starts a stroke, a drag adds points half a radius
    /// apart, the release runs it.
    fn follow_pointer(&mut self, input: &ViewportInput, cx: &mut AppCtx) {
        let radius = f64::from(cx.doc.editing.settings.brush.radius);
        let at = cx.view.hover.map(|p| [p.world[0], p.world[1]]);
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
            self.run(cx, points);
        }
    }

    /// Runs the chosen brush over `points` as one undo step; what it printed, or where it
    /// failed, goes to the status line.
    fn run(&mut self, cx: &mut AppCtx, points: Vec<[f64; 2]>) {
        let settings = cx.doc.editing.settings.clone();
        let choice = &settings.script;
        let Some(file) = &choice.file else {
            cx.shell.message = Some("choose a script brush in the tool bar first".into());
            return;
        };
        let source = cx.doc.byte_source();
        let model_box = |path: &str| {
            crate::assets::models::placement_box(path, &|p: &str| source(p).ok().flatten())
        };
        let on_disk = super::operation_runs::disk_uids(cx);
        let uids = NewUids {
            range: cx.doc.uids.range(),
            on_disk: on_disk.as_deref(),
        };
        let scripts = self.scripts.get_or_insert_with(Vec::new);
        let Some((_, loaded)) = scripts.iter().find(|(p, _)| p == file) else {
            cx.shell.message = Some(format!("{}: no such script (Reload?)", file.display()));
            return;
        };
        let script = match loaded {
            Ok(s) => s,
            Err(e) => {
                cx.shell.message = Some(e.to_string());
                return;
            }
        };
        let decls: Vec<ParamDecl> = script
            .brushes()
            .into_iter()
            .find(|b| b.name == choice.brush)
            .map(|b| b.params)
            .unwrap_or_default();
        let params = decls
            .iter()
            .filter_map(|d| Some((d.key.clone(), d.parse(choice.params.get(&d.key)?).ok()?)))
            .collect();
        let b = &settings.brush;
        let request = StrokeRequest {
            brush: choice.brush.clone(),
            points,
            radius: b.radius,
            inner_radius: Some(b.inner_radius),
            strength: Some(b.strength.clamp(0.0, 1.0)),
            params,
        };
        let Some(s) = &mut cx.doc.session else {
            return;
        };
        let context = crate::doc::script::host::StrokeContext {
            model_box: &model_box,
            uids: &uids,
        };
        match script.stroke(&mut s.map, &request, &context, &mut cx.doc.editing.history) {
            Ok(outcome) => {
                let mut said = outcome.printed;
                said.push(outcome.result.label.clone());
                cx.shell.message = Some(said.join(" · "));
                let tiles = outcome.result.tiles;
                cx.streams.objects.invalidate();
                cx.redraw(tiles.iter().copied().collect());
                cx.after_edit(tiles.into_iter().map(|t| (t, 0)).collect());
            }
            Err(e) => cx.shell.message = Some(e.to_string()),
        }
    }
}

impl Component for ScriptTool {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Scripts(ScriptsIntent::Reload) => {
                self.scripts = None;
                let n = self.scripts(cx).len();
                cx.shell.message = Some(format!("{n} script(s) read"));
            }
            Intent::Scripts(ScriptsIntent::Choose(file, brush)) => {
                let file = std::fs::canonicalize(&file).unwrap_or(file);
                if let Some(folder) = file.parent()
                    && !folders(cx).iter().any(|f| f == folder)
                {
                    cx.settings.script_folders.push(folder.to_path_buf());
                    self.scripts = None;
                }
                let s = &mut cx.doc.editing.settings;
                s.choose(Tool::Script);
                s.script = crate::edit::tools::ScriptChoice {
                    file: Some(file),
                    brush,
                    params: Default::default(),
                };
            }
            Intent::Scripts(ScriptsIntent::AddFolder) => {
                if let Some(folder) = cx.shell.dialogs.pick_folder() {
                    let folder = std::fs::canonicalize(&folder).unwrap_or(folder);
                    if !cx.settings.script_folders.contains(&folder) {
                        cx.settings.script_folders.push(folder);
                    }
                    self.scripts = None;
                }
            }
            other => return Some(other),
        }
        None
    }

    fn drive(&mut self, input: &ViewportInput, cx: &mut AppCtx) {
        if cx.doc.editing.settings.tool != Tool::Script || cx.doc.session.is_none() {
            self.stroke = None;
            return;
        }
        self.follow_pointer(input, cx);
    }

    fn is_busy(&self) -> bool {
        self.stroke.is_some()
    }
}
