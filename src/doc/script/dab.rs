//! What a script sees of one dab, and how what it wrote reaches the map. During a stroke the
//! map is held by [`World`], shared with the Lua values that read it; a dab's vertices are
//! read into plain arrays once ([`DabData`]) and handed to Lua as arrays; each vertex is a small
//! Lua table made on the Lua side (so that `v.z` stays inside Lua), read back when the dab
//! function returns (or asks for the vertices again), and after its `dab` function
//! returns, the heights go back through a lattice window to every copy of each vertex (seams
//! stay shut, normals are recomputed), colours through the shade rules and texture weights
//! through the paint rules (`edit::terrain::vertex_alpha`).
//!
//! Not for: the sandbox (`sandbox`) or the `loam` functions that are not about one dab (`api`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use mlua::{Lua, UserData, UserDataFields, UserDataMethods, Value};

use crate::edit::lattice::Vertex;
use crate::edit::lattice::patch::Patch;
use crate::edit::objects::{self, ObjectStroke};
use crate::edit::stroke::Stroke;
use crate::edit::terrain::brush::Brush;
use crate::edit::terrain::{sculpt, shade, vertex_alpha};
use crate::model::{Map, ObjectKind, TileCoord};

/// The map and the stroke's records while a script runs: shared by every Lua value of the
/// stroke, taken back by the host when the stroke ends.
pub struct World {
    /// The map (moved here for the stroke's length).
    pub map: RefCell<Map>,
    /// The chunks, texture lists and flags the stroke touched, before it touched them.
    pub stroke: RefCell<Stroke>,
    /// The tiles' objects before the stroke touched them.
    pub objects: RefCell<ObjectStroke>,
    /// The dab under way.
    pub dab: RefCell<DabData>,
    /// For each `dab:vertices()` of the dab under way, the Lua function that gathers the
    /// heights its vertex tables hold, read back by [`sync`].
    pub lists: RefCell<Vec<mlua::Function>>,
}

/// One vertex of a dab.
#[derive(Debug, Clone)]
pub struct DabVertex {
    /// Which vertex.
    pub vertex: Vertex,
    /// World x (north) and y (west).
    pub xy: [f64; 2],
    /// Its height as read.
    pub z0: f32,
    /// Its height as the script left it.
    pub z: f64,
    /// The brush's falloff there (0..=1, strength not included).
    pub weight: f64,
    /// A colour the script wrote.
    pub color: Option<[u8; 3]>,
}

/// A dab's centre, brush and vertices, and the texture weights the script set.
#[derive(Debug, Default)]
pub struct DabData {
    /// World centre.
    pub centre: [f64; 2],
    /// The brush.
    pub brush: Brush,
    /// Every loaded vertex within the radius, outer and inner.
    pub vertices: Vec<DabVertex>,
    /// Texture weights set, by (vertex slot, texture).
    pub alphas: BTreeMap<(usize, String), f32>,
    /// The lattice window the dab's heights were read from and go back through.
    pub patch: Option<Patch>,
}

impl DabData {
    /// The brush's falloff at world (`x`, `y`).
    pub fn weight(&self, x: f64, y: f64) -> f64 {
        // The brush measures east and south, as the lattice tools give it.
        let (dx, dy) = (self.centre[1] - y, self.centre[0] - x);
        f64::from(self.brush.weight_at(
            dx,
            dy,
            f64::from(self.brush.radius),
            f64::from(self.brush.inner_radius),
        ))
    }
}

impl World {
    /// A world holding `map` for a stroke named `name`.
    pub fn new(map: Map, name: &str) -> World {
        World {
            map: RefCell::new(map),
            stroke: RefCell::new(Stroke::new(name)),
            objects: RefCell::new(ObjectStroke::default()),
            dab: RefCell::new(DabData::default()),
            lists: RefCell::new(Vec::new()),
        }
    }

    /// Reads the dab of `brush` at `centre`: every loaded vertex whose world place is within
    /// the radius.
    pub fn begin_dab(&self, brush: &Brush, centre: [f64; 2]) {
        let map = self.map.borrow();
        let radius = f64::from(brush.radius);
        // One window read for the dab: its heights, and the window the writes go back through.
        let [cx, cy] = crate::model::coords::world_to_lattice(centre[0], centre[1]);
        let reach = crate::model::coords::yards_to_steps(radius) + 2.0;
        let patch = Patch::around(&map, cx, cy, reach);
        let mut data = DabData {
            centre,
            brush: brush.clone(),
            vertices: Vec::new(),
            alphas: BTreeMap::new(),
            patch: None,
        };
        for (v, _, _) in patch.vertices(cx, cy) {
            let xy = v.world_xy();
            if (xy[0] - centre[0]).hypot(xy[1] - centre[1]) > radius {
                continue;
            }
            let Some(z0) = patch.get(v) else {
                continue;
            };
            data.vertices.push(DabVertex {
                vertex: v,
                xy,
                z0,
                z: f64::from(z0),
                weight: data.weight(xy[0], xy[1]),
                color: None,
            });
        }
        data.patch = Some(patch);
        *self.dab.borrow_mut() = data;
    }

    /// Writes what the script changed in the dab to the map: heights to every copy (normals
    /// and water depths after them), colours, texture weights. Returns the chunks changed.
    pub fn end_dab(&self) -> Vec<(TileCoord, usize)> {
        let mut data = std::mem::take(&mut *self.dab.borrow_mut());
        let mut map = self.map.borrow_mut();
        let mut stroke = self.stroke.borrow_mut();
        let mut changed = Vec::new();
        let moved: Vec<&DabVertex> = data
            .vertices
            .iter()
            .filter(|d| (d.z as f32).to_bits() != d.z0.to_bits() && d.z.is_finite())
            .collect();
        if let (false, Some(mut patch)) = (moved.is_empty(), data.patch.take()) {
            for d in moved {
                patch.set(d.vertex, d.z as f32);
            }
            changed.extend(sculpt::commit_heights(&mut map, &patch, &mut stroke));
        }
        for d in data.vertices.iter().filter(|d| d.color.is_some()) {
            let [r, g, b] = d.color.unwrap_or_default();
            let alpha = shade::colour_of(&map, d.vertex)[3];
            for c in d.vertex.copies() {
                if shade::set_colour(&mut map, c, [r, g, b, alpha], &mut stroke) {
                    changed.push((c.tile, c.chunk));
                }
            }
        }
        let mut by_texture: BTreeMap<&str, Vec<(Vertex, f32)>> = BTreeMap::new();
        for ((slot, texture), a) in &data.alphas {
            by_texture
                .entry(texture.as_str())
                .or_default()
                .push((data.vertices[*slot].vertex, *a));
        }
        for (texture, targets) in by_texture {
            changed.extend(vertex_alpha::set_vertex_weights(
                &mut map,
                texture,
                &targets,
                &mut stroke,
            ));
        }
        changed
    }
}

/// `dab` as a script sees it.
pub struct LuaDab(pub Rc<World>);

/// One object near the dab as a script sees it (read when `dab:objects()` was called).
pub struct LuaObject {
    world: Rc<World>,
    kind: ObjectKind,
    model: String,
    position: [f64; 3],
    uid: u32,
}

impl UserData for LuaDab {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("x", |_, d| Ok(d.0.dab.borrow().centre[0]));
        fields.add_field_method_get("y", |_, d| Ok(d.0.dab.borrow().centre[1]));
        fields.add_field_method_get("radius", |_, d| {
            Ok(f64::from(d.0.dab.borrow().brush.radius))
        });
        fields.add_field_method_get("inner_radius", |_, d| {
            Ok(f64::from(d.0.dab.borrow().brush.inner_radius))
        });
        fields.add_field_method_get("strength", |_, d| {
            Ok(f64::from(d.0.dab.borrow().brush.strength))
        });
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("weight", |_, d, (x, y): (f64, f64)| {
            Ok(d.0.dab.borrow().weight(x, y))
        });
        methods.add_method("vertices", |lua, d, ()| vertices(lua, &d.0));
        methods.add_method("objects", |lua, d, ()| {
            let world = &d.0;
            let found = objects_near(world);
            let list = lua.create_table_with_capacity(found.len(), 0)?;
            for o in found {
                list.push(o)?;
            }
            Ok(list)
        });
    }
}

/// The doodads whose place lies within the dab's radius, each once.
fn objects_near(world: &Rc<World>) -> Vec<LuaObject> {
    let (centre, radius) = {
        let d = world.dab.borrow();
        (d.centre, f64::from(d.brush.radius))
    };
    let map = world.map.borrow();
    let [x, y] = centre;
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    let area = ([x - radius, y - radius, 0.0], [x + radius, y + radius, 0.0]);
    for coord in crate::model::coords::tiles_overlapping(area) {
        let Some(t) = map.tiles.get(&coord) else {
            continue;
        };
        for d in &t.doodads {
            let p = d.position;
            if (p[0] - x).hypot(p[1] - y) <= radius && seen.insert(d.unique_id) {
                out.push(LuaObject {
                    world: world.clone(),
                    kind: ObjectKind::Doodad,
                    model: t
                        .doodad_names
                        .get(d.name_index as usize)
                        .cloned()
                        .unwrap_or_default(),
                    position: p,
                    uid: d.unique_id,
                });
            }
        }
    }
    out
}

impl UserData for LuaObject {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("model", |_, o| Ok(o.model.clone()));
        fields.add_field_method_get("x", |_, o| Ok(o.position[0]));
        fields.add_field_method_get("y", |_, o| Ok(o.position[1]));
        fields.add_field_method_get("z", |_, o| Ok(o.position[2]));
        fields.add_field_method_get("uid", |_, o| Ok(o.uid));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("remove", |_, o, ()| {
            let mut map = o.world.map.borrow_mut();
            let mut stroke = o.world.objects.borrow_mut();
            Ok(objects::remove(&mut map, &mut stroke, o.kind, o.uid))
        });
    }
}

/// What builds a dab's vertices on the Lua side: each vertex a small table `{z, weight, slot}`
/// (reads and writes of `v.z` stay inside Lua, which is what makes a 5,000-vertex dab cheap)
/// whose metatable answers `x`, `y`, `color`, `alpha`, `set_alpha` and refuses other writes.
/// It returns the iterator and the list of the vertices made, which [`sync`] reads back.
const VERTICES_LUA: &str = r#"
local setmetatable, rawget, error, tostring, type = setmetatable, rawget, error, tostring, type
return function(xs, ys, zs, ws, colour, set_colour, alpha, set_alpha)
  local meta = { __metatable = false }
  meta.__index = function(v, k)
    local slot = rawget(v, "slot")
    if k == "x" then return xs[slot]
    elseif k == "y" then return ys[slot]
    elseif k == "color" then return colour(slot)
    elseif k == "alpha" then return alpha
    elseif k == "set_alpha" then return set_alpha
    end
    return nil
  end
  meta.__newindex = function(v, k, value)
    if k == "color" then return set_colour(rawget(v, "slot"), value) end
    error("v." .. tostring(k) .. " cannot be set: a vertex's z and color can", 2)
  end
  local all, n, i = {}, #zs, 0
  local function next_vertex()
    i = i + 1
    if i > n then return nil end
    local v = setmetatable({ z = zs[i], weight = ws[i], slot = i }, meta)
    all[i] = v
    return v
  end
  -- The heights the vertices made so far hold, as one array of numbers (reading them here
  -- spares the host a reference to each vertex table); or nil, the slot and what its z is.
  local function heights()
    local out = {}
    for k = 1, #all do
      local z = rawget(all[k], "z")
      if type(z) ~= "number" then return nil, k, type(z) end
      out[k] = z
    end
    return out
  end
  return next_vertex, heights
end
"#;

/// The index in the dab's vertices of Lua's `slot` (1-based), refused when it names none (a
/// script can `rawset` a vertex's slot).
fn index_of(world: &World, slot: usize) -> mlua::Result<usize> {
    slot.checked_sub(1)
        .filter(|&i| i < world.dab.borrow().vertices.len())
        .ok_or_else(|| mlua::Error::runtime("not a vertex of this dab"))
}

/// `dab:vertices()`: the heights written so far read back, then a fresh iterator.
fn vertices(lua: &Lua, world: &Rc<World>) -> mlua::Result<mlua::Function> {
    sync(world)?;
    let factory: mlua::Function = match lua.named_registry_value("loam.vertices")? {
        Some(f) => f,
        None => {
            let f: mlua::Function = lua.load(VERTICES_LUA).set_name("=loam").eval()?;
            lua.set_named_registry_value("loam.vertices", &f)?;
            f
        }
    };
    let (xs, ys, zs, ws) = {
        let d = world.dab.borrow();
        let v = &d.vertices;
        (
            lua.create_sequence_from(v.iter().map(|v| v.xy[0]))?,
            lua.create_sequence_from(v.iter().map(|v| v.xy[1]))?,
            lua.create_sequence_from(v.iter().map(|v| v.z))?,
            lua.create_sequence_from(v.iter().map(|v| v.weight))?,
        )
    };
    let w = world.clone();
    let colour =
        lua.create_function(move |lua, slot: usize| colour_table(lua, &w, index_of(&w, slot)?))?;
    let w = world.clone();
    let set_colour = lua.create_function(move |_, (slot, t): (usize, Value)| {
        let Value::Table(t) = t else {
            return Err(mlua::Error::runtime(
                "v.color takes {r, g, b}, each 0 to 255",
            ));
        };
        let mut rgb = [0u8; 3];
        for (k, c) in rgb.iter_mut().enumerate() {
            let x: f64 = t
                .get(k + 1)
                .map_err(|_| mlua::Error::runtime("v.color takes {r, g, b}, each 0 to 255"))?;
            *c = x.round().clamp(0.0, 255.0) as u8;
        }
        let i = index_of(&w, slot)?;
        w.dab.borrow_mut().vertices[i].color = Some(rgb);
        Ok(())
    })?;
    let w = world.clone();
    let alpha_fn = lua.create_function(move |_, (v, texture): (mlua::Table, String)| {
        let slot: usize = v.raw_get("slot")?;
        Ok(alpha(&w, index_of(&w, slot)?, texture))
    })?;
    let w = world.clone();
    let set_alpha_fn =
        lua.create_function(move |_, (v, texture, a): (mlua::Table, String, f64)| {
            let slot: usize = v.raw_get("slot")?;
            set_alpha(&w, index_of(&w, slot)?, texture, a)
        })?;
    let (next, heights): (mlua::Function, mlua::Function) =
        factory.call((xs, ys, zs, ws, colour, set_colour, alpha_fn, set_alpha_fn))?;
    world.lists.borrow_mut().push(heights);
    Ok(next)
}

/// Reads the heights the script left in the vertex tables made so far back into the dab.
pub fn sync(world: &World) -> mlua::Result<()> {
    let lists = std::mem::take(&mut *world.lists.borrow_mut());
    let mut dab = world.dab.borrow_mut();
    for heights in lists {
        let (zs, _, kind): (Option<mlua::Table>, Option<usize>, Option<String>) =
            heights.call(())?;
        let Some(zs) = zs else {
            return Err(mlua::Error::runtime(format!(
                "v.z is a number, not {}",
                kind.unwrap_or_default()
            )));
        };
        for (i, z) in zs.sequence_values::<f64>().enumerate() {
            let z = z?;
            if !z.is_finite() {
                return Err(mlua::Error::runtime(format!(
                    "v.z must be a finite number, not {z}"
                )));
            }
            if let Some(d) = dab.vertices.get_mut(i) {
                d.z = z;
            }
        }
    }
    Ok(())
}

/// `v.color` as a script reads it: what it wrote in this dab, else the map's.
fn colour_table(lua: &Lua, world: &World, slot: usize) -> mlua::Result<Value> {
    let (vertex, written) = {
        let d = &world.dab.borrow().vertices[slot];
        (d.vertex, d.color)
    };
    let [r, g, b] = written.unwrap_or_else(|| {
        let c = shade::colour_of(&world.map.borrow(), vertex);
        [c[0], c[1], c[2]]
    });
    Ok(Value::Table(lua.create_sequence_from([r, g, b])?))
}

/// `v:alpha(texture)`: a weight set in this dab, else the map's.
fn alpha(world: &World, slot: usize, texture: String) -> f64 {
    let dab = world.dab.borrow();
    if let Some(a) = dab.alphas.get(&(slot, texture.clone())) {
        return f64::from(*a);
    }
    let vertex = dab.vertices[slot].vertex;
    let map = world.map.borrow();
    vertex_alpha::weight_at_vertex(&map, vertex, &texture).map_or(0.0, f64::from)
}

/// `v:set_alpha(texture, a)`.
fn set_alpha(world: &World, slot: usize, texture: String, a: f64) -> mlua::Result<()> {
    if !(0.0..=1.0).contains(&a) {
        return Err(mlua::Error::runtime(format!(
            "v:set_alpha takes a weight from 0 to 1, not {a}"
        )));
    }
    world
        .dab
        .borrow_mut()
        .alphas
        .insert((slot, texture), a as f32);
    Ok(())
}

/// Calls `f(dab, params)` for the dab the world holds.
pub fn call(
    lua: &Lua,
    world: &Rc<World>,
    f: &mlua::Function,
    params: &mlua::Table,
) -> mlua::Result<()> {
    let dab = lua.create_userdata(LuaDab(world.clone()))?;
    f.call::<()>((dab, params.clone()))?;
    sync(world)
}
