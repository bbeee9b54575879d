//! The `loam` table a script calls: `loam.brush` (declare a brush), `loam.noise` (value
//! noise, the same as the built-in Noise sculpt), `loam.random` (a seeded splitmix64 stream),
//! `loam.ground` and `loam.place` (the map, during a stroke only), `loam.image` (a grey image
//! beside the script, the one file a script can read), and `print` (collected for the status
//! line and the command's output).
//!
//! Not for: one dab's vertices and objects (`dab`) or the sandbox's refusals (`sandbox`).

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

use mlua::{Lua, Table, UserData, UserDataMethods, Value};

use super::dab::World;
use super::decl::{self, BrushDecl};
use crate::edit::lattice;
use crate::edit::objects::scatter::{self, Rng};
use crate::edit::objects::{self, ModelBox, NewUids, ObjectRecord};
use crate::edit::terrain::brush::StampMask;
use crate::edit::terrain::sculpt::value_noise;
use crate::model::{ObjectKind, coords};

/// The brushes a script declared, in order, with the tables their `dab` functions are read
/// from.
pub type Declared = Rc<RefCell<Vec<(BrushDecl, Table)>>>;

/// Lines the script printed.
pub type Printed = Rc<RefCell<Vec<String>>>;

/// What a map function says outside a stroke.
fn outside_stroke(name: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "loam.{name} works only inside a brush's dab function (during a stroke)"
    ))
}

/// Puts the `loam` table and `print` into `lua` for the script in `folder`; returns where
/// declared brushes and printed lines go.
pub fn install(lua: &Lua, folder: &Path) -> mlua::Result<(Declared, Printed)> {
    let declared: Declared = Rc::default();
    let printed: Printed = Rc::default();
    let loam = lua.create_table()?;
    let into = declared.clone();
    loam.set(
        "brush",
        lua.create_function(move |lua, (name, params): (String, Option<Table>)| {
            if name.trim().is_empty() {
                return Err(mlua::Error::runtime("loam.brush: the name is empty"));
            }
            if into.borrow().iter().any(|(d, _)| d.name == name) {
                return Err(mlua::Error::runtime(format!(
                    "loam.brush: {name:?} is declared twice"
                )));
            }
            let params = decl::read_params(params)?;
            let table = lua.create_table()?;
            into.borrow_mut()
                .push((BrushDecl { name, params }, table.clone()));
            Ok(table)
        })?,
    )?;
    loam.set(
        "noise",
        lua.create_function(
            |_, (x, y, scale, seed): (f64, f64, Option<f64>, Option<i64>)| {
                let scale = scale.unwrap_or(1.0);
                if !(scale > 0.0 && scale.is_finite()) {
                    return Err(mlua::Error::runtime(format!(
                        "loam.noise: the scale is a positive number, not {scale}"
                    )));
                }
                Ok(f64::from(value_noise(
                    seed.unwrap_or(0) as u32,
                    x / scale,
                    y / scale,
                )))
            },
        )?,
    )?;
    loam.set(
        "random",
        lua.create_function(|_, seed: Option<i64>| Ok(LuaRng(Rng::new(seed.unwrap_or(0) as u64))))?,
    )?;
    let folder = folder.to_path_buf();
    loam.set(
        "image",
        lua.create_function(move |_, name: String| image(&folder, &name))?,
    )?;
    for name in ["ground", "place"] {
        loam.set(
            name,
            lua.create_function(move |_, _: mlua::MultiValue| -> mlua::Result<()> {
                Err(outside_stroke(name))
            })?,
        )?;
    }
    lua.globals().set("loam", loam)?;
    let lines = printed.clone();
    lua.globals().set(
        "print",
        lua.create_function(move |lua, args: mlua::MultiValue| {
            let mut words = Vec::new();
            for v in args {
                words.push(match lua.coerce_string(v.clone())? {
                    Some(s) => s.to_string_lossy(),
                    None => match v {
                        Value::Boolean(b) => b.to_string(),
                        other => other.type_name().to_string(),
                    },
                });
            }
            lines.borrow_mut().push(words.join("\t"));
            Ok(())
        })?,
    )?;
    Ok((declared, printed))
}

/// A seeded random stream as a script holds it.
struct LuaRng(Rng);

impl UserData for LuaRng {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method_mut("next", |_, r, ()| Ok(r.0.unit()));
    }
}

/// A grey image as a script reads it: `width`, `height`, `:at(u, v)`.
struct LuaImage(Arc<StampMask>);

impl UserData for LuaImage {
    fn add_fields<F: mlua::UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("width", |_, i| Ok(i.0.width));
        fields.add_field_method_get("height", |_, i| Ok(i.0.height));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("at", |_, i, (u, v): (f64, f64)| Ok(f64::from(i.0.at(u, v))));
    }
}

/// `loam.image(name)`: the image file `name` (PNG or TIFF) in the script's own folder, as
/// grey values 0..1 (a colour image's mean of red, green and blue). Only a bare file name is
/// taken, so that a script reads nothing but the images shipped beside it.
fn image(folder: &Path, name: &str) -> mlua::Result<LuaImage> {
    let plain = Path::new(name)
        .file_name()
        .is_some_and(|f| f == std::ffi::OsStr::new(name));
    if !plain || name.starts_with('.') {
        return Err(mlua::Error::runtime(format!(
            "loam.image takes the name of an image beside the script, not {name:?}"
        )));
    }
    let raster = crate::images::io::read_raster(&folder.join(name))
        .map_err(|e| mlua::Error::runtime(format!("loam.image: {e}")))?;
    Ok(LuaImage(Arc::new(StampMask::from_raster(&raster))))
}

/// `loam.ground(x, y)`: the height of the triangle the client draws there; nil off the
/// loaded ground.
pub fn ground(world: &World, x: f64, y: f64) -> Option<f64> {
    lattice::height_at(&world.map.borrow(), x, y).map(f64::from)
}

/// `loam.place{model=, x=, y=, z=, yaw=, scale=}`: a new doodad with a fresh uid (from the
/// map's range, as placing does), standing on the ground unless `z` is given. Returns the uid.
pub fn place(
    world: &World,
    args: &Table,
    uids: &NewUids,
    model_box: &dyn Fn(&str) -> Option<ModelBox>,
) -> mlua::Result<u32> {
    let model: String = args
        .get::<Option<String>>("model")?
        .filter(|m| !m.trim().is_empty())
        .ok_or_else(|| mlua::Error::runtime("loam.place needs `model`, a model path"))?;
    if objects::object_ops::kind_of_model(&model) != ObjectKind::Doodad {
        return Err(mlua::Error::runtime(format!(
            "loam.place places doodads (.m2, .mdx), not {model:?}"
        )));
    }
    let number = |k: &str| -> mlua::Result<Option<f64>> {
        match args.get::<Value>(k)? {
            Value::Nil => Ok(None),
            Value::Integer(n) => Ok(Some(n as f64)),
            Value::Number(n) if n.is_finite() => Ok(Some(n)),
            other => Err(mlua::Error::runtime(format!(
                "loam.place: `{k}` is a number, not {}",
                other.type_name()
            ))),
        }
    };
    let (Some(x), Some(y)) = (number("x")?, number("y")?) else {
        return Err(mlua::Error::runtime("loam.place needs `x` and `y`"));
    };
    let scale = number("scale")?.unwrap_or(1.0);
    if scale <= 0.0 {
        return Err(mlua::Error::runtime(format!(
            "loam.place: `scale` is positive, not {scale}"
        )));
    }
    let yaw = number("yaw")?.unwrap_or(0.0);
    // Where the file will say it stands (records keep f32 offsets from the map's corner).
    let w = coords::placement_to_world(coords::world_to_placement([x, y, 0.0]));
    let mut map = world.map.borrow_mut();
    let z = match number("z")? {
        Some(z) => z,
        None => lattice::height_at(&map, w[0], w[1])
            .map(f64::from)
            .ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "loam.place: no loaded ground at ({x}, {y}); give `z`"
                ))
            })?,
    };
    let uid = uids.next(&map).map_err(mlua::Error::runtime)?;
    let record = ObjectRecord {
        kind: ObjectKind::Doodad,
        model: model.clone(),
        unique_id: uid,
        position: [w[0], w[1], z],
        rotation: scatter::rotation(yaw, [0.0, 0.0, 1.0], 0.0),
        scale: crate::model::placement::doodad_scale_record(scale),
        flags: 0,
        doodad_set: 0,
        name_set: 0,
    };
    let mut stroke = world.objects.borrow_mut();
    let put = objects::put_new(&mut map, &mut stroke, &record, model_box(&model));
    if put.tiles.is_empty() {
        return Err(mlua::Error::runtime(format!(
            "loam.place: ({x}, {y}) is on no loaded tile"
        )));
    }
    Ok(uid)
}
