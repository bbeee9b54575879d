//! Object operations as data, for `loam apply`: place, move, rotate, scale and delete doodads
//! and WMOs, each one undo step run through [`crate::edit::objects`], the code the editor's object
//! tool uses.
//!
//! Not for: brush operations (`ops`) or reading models (the caller gives each model's box).

use serde::Deserialize;

use crate::edit::history::History;
use crate::edit::lattice;
use crate::edit::objects::{self, ModelBox, ObjectRecord, ObjectStroke};
use crate::edit::outcome::OpResult;
use crate::model::placement::{doodad_scale_fits, doodad_scale_record};
use crate::model::{Map, ObjectKind};

/// What an object operation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectTool {
    /// Place `model` at `position` (a `.wmo` path places a WMO).
    Place,
    /// Move object `uid` to `position`.
    Move,
    /// Give object `uid` the record rotation `rotation`.
    Rotate,
    /// Give doodad `uid` the scale `scale`.
    Scale,
    /// Delete object `uid`.
    Delete,
}

impl ObjectTool {
    /// The tool names the `tool` field takes.
    pub const NAMES: [&'static str; 5] = ["place", "move", "rotate", "scale", "delete"];

    fn label(self) -> &'static str {
        match self {
            ObjectTool::Place => "Place",
            ObjectTool::Move => "Move",
            ObjectTool::Rotate => "Rotate",
            ObjectTool::Scale => "Scale",
            ObjectTool::Delete => "Delete",
        }
    }
}

/// One object operation (world coordinates as the brush operations use them).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectOp {
    /// The operation.
    pub tool: ObjectTool,
    /// place: the model path (`.m2`, `.mdx` or `.wmo`).
    pub model: Option<String>,
    /// place, move: world [x, y] (on the ground) or [x, y, z].
    pub position: Option<Vec<f64>>,
    /// place, rotate: the record's rotation in degrees (default 0, 0, 0 for place).
    pub rotation: Option<[f32; 3]>,
    /// place, scale: scale factor (default 1; doodads only, 1/1024 to 63.99).
    pub scale: Option<f32>,
    /// place: the uniqueId (default: above every one in the map); the others: which object.
    pub uid: Option<u32>,
    /// place: the WMO's doodad set (default 0).
    pub doodad_set: Option<u16>,
}

impl ObjectOp {
    /// Rejects missing required fields and fields the tool does not take.
    pub fn validate(&self) -> Result<(), String> {
        use ObjectTool::*;
        let fields: [(&str, bool, &[ObjectTool], &[ObjectTool]); 6] = [
            ("model", self.model.is_some(), &[Place], &[Place]),
            (
                "position",
                self.position.is_some(),
                &[Place, Move],
                &[Place, Move],
            ),
            (
                "rotation",
                self.rotation.is_some(),
                &[Place, Rotate],
                &[Rotate],
            ),
            ("scale", self.scale.is_some(), &[Place, Scale], &[Scale]),
            (
                "uid",
                self.uid.is_some(),
                &[Place, Move, Rotate, Scale, Delete],
                &[Move, Rotate, Scale, Delete],
            ),
            ("doodad_set", self.doodad_set.is_some(), &[Place], &[]),
        ];
        let name = self.tool.label().to_lowercase();
        for (field, present, allowed, required) in fields {
            if present && !allowed.contains(&self.tool) {
                return Err(format!("{name} takes no \"{field}\""));
            }
            if !present && required.contains(&self.tool) {
                return Err(format!("{name} needs \"{field}\""));
            }
        }
        if let Some(p) = &self.position
            && !(p.len() == 2 || p.len() == 3)
        {
            return Err(format!("position has {} numbers, not 2 or 3", p.len()));
        }
        if let Some(s) = self.scale
            && !doodad_scale_fits(f64::from(s))
        {
            return Err(format!("scale {s} is outside 1/1024 to 63.99"));
        }
        Ok(())
    }
}

/// Doodad or WMO, from a model path's extension.
pub fn kind_of_model(path: &str) -> ObjectKind {
    if path.to_ascii_lowercase().ends_with(".wmo") {
        ObjectKind::Wmo
    } else {
        ObjectKind::Doodad
    }
}

/// The object an operation names by uid: a doodad, else a WMO. A uid both kinds use is refused,
/// since the operation could not say which it means.
fn named(map: &Map, uid: u32) -> Result<ObjectRecord, String> {
    match (
        objects::find(map, ObjectKind::Doodad, uid),
        objects::find(map, ObjectKind::Wmo, uid),
    ) {
        (Some(_), Some(_)) => Err(format!(
            "uid {uid} names both a doodad and a WMO (loam check lists such clashes)"
        )),
        (Some(o), None) | (None, Some(o)) => Ok(o),
        (None, None) => Err(format!("no loaded tile lists an object with uid {uid}")),
    }
}

/// A world position made from an operation's numbers, or why it cannot be.
type WorldPosition = Result<[f64; 3], String>;

/// The object as `op` leaves it: the new object of a place (taking `uid`), or object `uid` of
/// `map` moved, turned or scaled (as it is, for a delete). `at` makes the op's 2 or 3 numbers
/// a world position.
fn record_after(
    map: &Map,
    op: &ObjectOp,
    uid: u32,
    at: &dyn Fn(&[f64]) -> WorldPosition,
) -> Result<ObjectRecord, String> {
    let given = || at(op.position.as_deref().unwrap_or_default());
    if op.tool == ObjectTool::Place {
        let model = op.model.clone().unwrap_or_default();
        let kind = kind_of_model(&model);
        let scale = op.scale.unwrap_or(1.0);
        if kind == ObjectKind::Wmo && scale != 1.0 {
            return Err(
                "a WMO cannot be scaled: MODF has no scale before Legion (3.3.5 and older)".into(),
            );
        }
        if kind == ObjectKind::Doodad && op.doodad_set.is_some() {
            return Err("doodad_set is for WMOs".into());
        }
        return Ok(ObjectRecord {
            kind,
            model,
            unique_id: uid,
            position: given()?,
            rotation: op.rotation.unwrap_or([0.0; 3]),
            scale: match kind {
                ObjectKind::Doodad => doodad_scale_record(f64::from(scale)),
                ObjectKind::Wmo => 0,
            },
            flags: 0,
            doodad_set: op.doodad_set.unwrap_or(0),
            name_set: 0,
        });
    }
    let mut record = named(map, uid)?;
    match op.tool {
        ObjectTool::Move => record.position = given()?,
        ObjectTool::Rotate => record.rotation = op.rotation.unwrap_or_default(),
        ObjectTool::Scale => {
            if record.kind == ObjectKind::Wmo {
                return Err(format!(
                    "uid {uid} is a WMO: MODF has no scale before Legion (3.3.5 and older)"
                ));
            }
            record.scale = doodad_scale_record(f64::from(op.scale.unwrap_or(1.0)));
        }
        ObjectTool::Place | ObjectTool::Delete => {}
    }
    Ok(record)
}

/// The tiles `op` needs in memory besides those listing its object on disk (load those
/// first, so that the object is found): the tiles the object's box overlaps where the
/// operation leaves it, since each of them lists it (3.3.5) or may. Empty when the op names
/// no object of `map` or is malformed: running it then fails with the reason.
pub fn box_reach(
    map: &Map,
    op: &ObjectOp,
    model_box: &dyn Fn(&str) -> Option<ModelBox>,
) -> Vec<crate::model::TileCoord> {
    // Where an object stands is all that decides its tiles; its height is not needed (and the
    // ground under it may not be in memory yet).
    let flat = |p: &[f64]| match *p {
        [x, y] | [x, y, _] => Ok([x, y, 0.0]),
        _ => Err(String::new()),
    };
    match record_after(map, op, op.uid.unwrap_or_default(), &flat) {
        Ok(r) if op.tool != ObjectTool::Delete => {
            objects::tiles_overlapping(r.world_box(model_box(&r.model)))
        }
        _ => Vec::new(),
    }
}

/// A world position from 2 or 3 numbers, on the ground when z is left out.
fn position(map: &Map, p: &[f64]) -> Result<[f64; 3], String> {
    match *p {
        [x, y, z] => Ok([x, y, z]),
        [x, y] => lattice::height_at(map, x, y)
            .map(|z| [x, y, f64::from(z)])
            .ok_or_else(|| format!("no loaded terrain under ({x}, {y}) to stand on")),
        _ => Err("position takes 2 or 3 numbers".into()),
    }
}

/// Applies one object operation as one undo step in `history`. `model_box` gives a model
/// path's own box, `None` when the model cannot be read (a stand-in box is used).
pub fn apply(
    map: &mut Map,
    op: &ObjectOp,
    history: &mut History,
    model_box: &dyn Fn(&str) -> Option<ModelBox>,
) -> Result<OpResult, String> {
    apply_in(map, op, history, model_box, &objects::NewUids::default())
}

/// As [`apply`], with new uids chosen by `uids` (the map's uniqueId range, and the uids of
/// its tiles not in memory).
pub fn apply_in(
    map: &mut Map,
    op: &ObjectOp,
    history: &mut History,
    model_box: &dyn Fn(&str) -> Option<ModelBox>,
    uids: &objects::NewUids,
) -> Result<OpResult, String> {
    op.validate()?;
    let mut stroke = ObjectStroke::default();
    let (label, placed) = match op.tool {
        ObjectTool::Place => {
            let uid = match op.uid {
                Some(u) => {
                    if objects::unique_ids(map).iter().any(|&(_, used)| used == u)
                        || uids.elsewhere(map).any(|used| used == u)
                    {
                        return Err(format!("uid {u} is already used by another object"));
                    }
                    u
                }
                None => uids.next(map)?,
            };
            let record = record_after(map, op, uid, &|p| position(map, p))?;
            let placed = objects::put(map, &mut stroke, &record, model_box(&record.model));
            (format!("Place {} (uid {uid})", record.model), placed)
        }
        tool => {
            let uid = op.uid.unwrap_or_default();
            let record = record_after(map, op, uid, &|p| position(map, p))?;
            let placed = if tool == ObjectTool::Delete {
                objects::remove(map, &mut stroke, record.kind, uid);
                objects::Placed::default()
            } else {
                objects::put(map, &mut stroke, &record, model_box(&record.model))
            };
            (
                format!("{} {} (uid {uid})", tool.label(), record.model),
                placed,
            )
        }
    };
    let mut label = label;
    if !placed.skipped.is_empty() {
        label.push_str(&format!(
            "; not in {} tile(s) its box overlaps that the map lacks",
            placed.skipped.len()
        ));
    }
    let edit = stroke.finish(map, &label);
    Ok(push_object_edit(map, history, edit, label))
}

/// Records an object stroke's edit (if it changed anything) as one undo step, and says which
/// tiles it touched: the end of every object operation (place … delete, scatter, erase).
pub(in crate::edit) fn push_object_edit(
    map: &mut Map,
    history: &mut History,
    edit: Option<crate::edit::stroke::TerrainEdit>,
    label: String,
) -> OpResult {
    let mut tiles: Vec<_> = edit
        .as_ref()
        .map(|e| e.objects.iter().map(|o| o.tile).collect())
        .unwrap_or_default();
    tiles.sort_unstable();
    tiles.dedup();
    if let Some(edit) = edit {
        history.push(map, edit);
    }
    OpResult {
        label,
        chunks: 0,
        refused: Vec::new(),
        tiles,
    }
}
