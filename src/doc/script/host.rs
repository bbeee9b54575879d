//! A loaded script and its strokes: [`Script::load`] runs the file once in a fresh sandbox
//! (which declares its brushes), [`Script::stroke`] runs one stroke of a named brush, each dab
//! in turn, as one undo step in the document's history. A stroke that fails (a Lua error, the
//! time or memory limit) is taken back whole: the map is left as it was and the history has
//! no new step.
//!
//! Not for: the sandbox's rules (`sandbox`), what a dab reads and writes (`dab`).

use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Function, Lua, Table};

use super::ScriptError;
use super::api::{self, Declared, Printed};
use super::dab::{self, World};
use super::decl::{self, BrushDecl, ParamValue};
use super::sandbox::{self, Deadline, Limits};
use crate::edit::History;
use crate::edit::objects::{ModelBox, NewUids};
use crate::edit::outcome::OpResult;
use crate::edit::stroke::TerrainEdit;
use crate::edit::terrain::brush::{stroke_brush, stroke_dabs, stroke_reach, validate_stroke};
use crate::model::{Map, TileCoord};

/// A script file, run once: its Lua state and the brushes it declared.
pub struct Script {
    path: PathBuf,
    lua: Lua,
    deadline: Deadline,
    limits: Limits,
    declared: Declared,
    printed: Printed,
}

/// One stroke of a brush: where, how big, how strong, with which parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct StrokeRequest {
    /// The brush's name, as declared.
    pub brush: String,
    /// World (x, y) points; dabs are spaced along the lines between them (a quarter of the
    /// radius apart), a single point is one dab.
    pub points: Vec<[f64; 2]>,
    /// Radius in yards.
    pub radius: f32,
    /// Full-strength radius in yards (default: a third of the radius).
    pub inner_radius: Option<f32>,
    /// Strength, 0..=1 (default 1).
    pub strength: Option<f32>,
    /// Parameter values by key; the rest take their defaults.
    pub params: Vec<(String, ParamValue)>,
}

impl StrokeRequest {
    /// The tiles the stroke can read or change (for a map read tile by tile).
    pub fn reach(&self) -> Vec<TileCoord> {
        stroke_reach(&self.points, self.radius)
    }
}

/// What a stroke did.
#[derive(Debug, Clone, PartialEq)]
pub struct StrokeOutcome {
    /// The undo step's label, chunks and tiles changed.
    pub result: OpResult,
    /// Lines the script printed during the stroke.
    pub printed: Vec<String>,
}

/// What places objects during a stroke: each model's own box and where new uids come from.
pub struct StrokeContext<'a> {
    /// A model path's own box (`None`: a stand-in box).
    pub model_box: &'a dyn Fn(&str) -> Option<ModelBox>,
    /// Where new objects' uniqueIds come from.
    pub uids: &'a NewUids<'a>,
}

impl Script {
    /// Reads and runs `path` in a fresh sandbox under `limits`; its brushes are declared then.
    pub fn load(path: &Path, limits: Limits) -> Result<Script, ScriptError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ScriptError::new(path, format!("cannot read the script: {e}")))?;
        Script::from_source(path, &text, limits)
    }

    /// As [`Script::load`], for text already read (named `path` in errors).
    pub fn from_source(path: &Path, text: &str, limits: Limits) -> Result<Script, ScriptError> {
        let name_err = |e: ScriptError| e.in_file(path);
        let (lua, deadline) = sandbox::new_state(&limits).map_err(name_err)?;
        let folder = path.parent().unwrap_or(Path::new("."));
        let (declared, printed) = api::install(&lua, folder)
            .map_err(ScriptError::from_lua)
            .map_err(name_err)?;
        sandbox::run_file(&lua, &deadline, path, text, &limits).map_err(name_err)?;
        let script = Script {
            path: path.to_path_buf(),
            lua,
            deadline,
            limits,
            declared,
            printed,
        };
        if script.declared.borrow().is_empty() {
            return Err(ScriptError::new(
                path,
                "declares no brush (call loam.brush(name, params))",
            ));
        }
        Ok(script)
    }

    /// The file it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The brushes it declared, in order.
    pub fn brushes(&self) -> Vec<BrushDecl> {
        self.declared
            .borrow()
            .iter()
            .map(|(d, _)| d.clone())
            .collect()
    }

    /// Lines printed while loading (and not yet taken).
    pub fn take_printed(&self) -> Vec<String> {
        std::mem::take(&mut *self.printed.borrow_mut())
    }

    /// The declaration and `dab` function of brush `name`.
    fn brush(&self, name: &str) -> Result<(BrushDecl, Function), ScriptError> {
        let declared = self.declared.borrow();
        let Some((decl, table)) = declared.iter().find(|(d, _)| d.name == name) else {
            let names: Vec<&str> = declared.iter().map(|(d, _)| d.name.as_str()).collect();
            return Err(ScriptError::new(
                &self.path,
                format!("has no brush {name:?} (it declares {})", names.join(", ")),
            ));
        };
        let f: Option<Function> = table.get("dab").ok();
        let f = f.ok_or_else(|| {
            ScriptError::new(
                &self.path,
                format!("brush {name:?} has no dab function (function brush.dab(dab, params))"),
            )
        })?;
        Ok((decl.clone(), f))
    }

    /// Runs one stroke of `request` on `map` as one undo step in `history`. On any error the
    /// map is as it was and the history unchanged.
    pub fn stroke(
        &self,
        map: &mut Map,
        request: &StrokeRequest,
        cx: &StrokeContext,
        history: &mut History,
    ) -> Result<StrokeOutcome, ScriptError> {
        let fail = |m: String| ScriptError::new(&self.path, m);
        validate_stroke("script", &request.points, request.radius, request.strength)
            .map_err(fail)?;
        let (decl, f) = self.brush(&request.brush)?;
        let values = decl::values(&decl, &request.params).map_err(fail)?;
        let params = decl::to_table(&self.lua, &values)
            .map_err(|e| ScriptError::from_lua(e).in_file(&self.path))?;
        let brush = stroke_brush(
            request.radius,
            request.inner_radius,
            request.strength,
            None,
            None,
            None,
        );
        let label = format!("Script {}", decl.name);
        // The map moves into the stroke's world (shared with the Lua values) and back after.
        let world = Rc::new(World::new(std::mem::replace(map, Map::new("")), &label));
        self.take_printed();
        self.deadline.start(self.limits.time);
        let ran = self.run_dabs(&world, &f, &params, &brush, request, cx);
        self.deadline.stop();
        let printed = self.take_printed();
        // A script may keep a dab or vertex after its stroke (in a global): those keep the
        // world alive, so the map is taken out of it rather than out of the Rc.
        let world_map = std::mem::replace(&mut *world.map.borrow_mut(), Map::new(""));
        *map = world_map;
        let refused = world.stroke.borrow().refused.clone();
        let edit = finish(map, &world, &label);
        match ran {
            Ok(()) => {
                let result = match edit {
                    Some(edit) => OpResult::push(map, edit, history, refused),
                    None => OpResult {
                        label,
                        chunks: 0,
                        refused,
                        tiles: Vec::new(),
                    },
                };
                Ok(StrokeOutcome { result, printed })
            }
            Err(e) => {
                // Take everything back: the step goes through a history of its own, undone.
                if let Some(edit) = edit {
                    let mut scratch = History::default();
                    scratch.push(map, edit);
                    scratch.undo(map);
                }
                Err(ScriptError::from_lua(e).in_file(&self.path))
            }
        }
    }

    /// Runs the brush's `dab` function for each dab of the stroke, writing each dab's changes
    /// before the next reads the ground.
    fn run_dabs(
        &self,
        world: &Rc<World>,
        f: &Function,
        params: &Table,
        brush: &crate::edit::terrain::brush::Brush,
        request: &StrokeRequest,
        cx: &StrokeContext,
    ) -> mlua::Result<()> {
        let loam: Table = self.lua.globals().get("loam")?;
        let stubs: (Function, Function) = (loam.get("ground")?, loam.get("place")?);
        let result = self.lua.scope(|scope| {
            let w = world.clone();
            loam.set(
                "ground",
                scope.create_function(move |_, (x, y): (f64, f64)| Ok(api::ground(&w, x, y)))?,
            )?;
            let w = world.clone();
            loam.set(
                "place",
                scope.create_function(move |_, t: Table| {
                    api::place(&w, &t, cx.uids, cx.model_box)
                })?,
            )?;
            for centre in stroke_dabs(brush, &request.points) {
                world.begin_dab(brush, centre);
                dab::call(&self.lua, world, f, params)?;
                world.end_dab();
            }
            Ok(())
        });
        loam.set("ground", stubs.0)?;
        loam.set("place", stubs.1)?;
        result
    }
}

/// The stroke's one undo step: terrain and objects together; `None` when nothing changed.
fn finish(map: &mut Map, world: &World, label: &str) -> Option<TerrainEdit> {
    let stroke = std::mem::take(&mut *world.stroke.borrow_mut());
    let objects = std::mem::take(&mut *world.objects.borrow_mut());
    let terrain = stroke.finish(map);
    let placed = objects.finish(map, label);
    let mut edit = match (terrain, placed) {
        (None, None) => return None,
        (Some(t), None) => t,
        (None, Some(o)) => o,
        (Some(mut t), Some(o)) => {
            t.objects = o.objects;
            t
        }
    };
    // The terrain part names the chunks ("Script Terrace, 12 chunks"); objects alone keep
    // the plain label.
    if edit.label.is_empty() {
        edit.label = label.to_string();
    }
    Some(edit)
}
