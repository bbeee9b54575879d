//! `loam trigger`: the area triggers a client's tables give a map, listed, added and removed.
//!
//! - `list CLIENT MAP`: one line each: id, game x y z, then `sphere R` or
//!   `box LENGTH WIDTH HEIGHT YAW_DEGREES`;
//! - `add CLIENT MAP --at X Y Z (--radius R | --box LENGTH WIDTH HEIGHT YAW_DEGREES)
//!   [--teleport-to MAPID X Y Z O --name TEXT --sql FILE] [--patch-name NAME]`: prints the
//!   new id; the yaw is stored in radians; a teleport adds its `areatrigger_teleport` row to
//!   the SQL file (`pipeline::teleport_sql`);
//! - `remove CLIENT ID`.
//!
//! AreaTrigger.dbc is written whole into the archive loam writes the client's tables into
//! (`pipeline::table_archive`), which the servers' extractors read, so a server knows the
//! trigger after its next extraction.
//!
//! Not for: the rows (`assets::client::area_triggers`).

use std::path::Path;
use std::process::ExitCode;

use super::TriggerCommand;
use crate::assets::client::{AREA_TRIGGER_DBC, AreaTrigger, ClientData, TriggerRows, TriggerShape};
use crate::disk::LoamError;
use crate::doc::client::Client;
use crate::pipeline::table_archive::write_tables;
use crate::pipeline::teleport_sql::{Teleport, append_teleport};

/// Runs one `loam trigger` action.
pub fn run(action: TriggerCommand) -> Result<ExitCode, LoamError> {
    match action {
        TriggerCommand::List { client, map } => list(&client, &map),
        TriggerCommand::Add {
            client,
            map,
            at,
            radius,
            box_size,
            teleport_to,
            name,
            sql,
            patch_name,
        } => {
            let shape = shape_of(radius, box_size.as_deref())?;
            let teleport = match (teleport_to, name, sql) {
                (Some(t), Some(name), Some(sql)) => Some((t, name, sql)),
                _ => None,
            };
            add(&client, &map, &at, shape, teleport, patch_name.as_deref())
        }
        TriggerCommand::Remove {
            client,
            id,
            patch_name,
        } => remove(&client, id, patch_name.as_deref()),
    }
}

fn usage(why: &str) -> LoamError {
    LoamError::Usage(why.to_string())
}

/// The client at `dir` and its AreaTrigger.dbc as rows to edit.
fn open_rows(dir: &Path) -> Result<(ClientData, TriggerRows), LoamError> {
    let data = ClientData::open(dir).map_err(|e| usage(&e.to_string()))?;
    let bytes = match data.read(AREA_TRIGGER_DBC) {
        Ok(Some(b)) => b,
        Ok(None) => {
            return Err(usage(&format!(
                "{}: the client has no {AREA_TRIGGER_DBC}",
                dir.display()
            )));
        }
        Err(e) => return Err(usage(&e.to_string())),
    };
    let rows = TriggerRows::read(&bytes, data.generation()).ok_or_else(|| {
        usage(&format!(
            "{}: {AREA_TRIGGER_DBC} fits no published {} layout",
            dir.display(),
            data.generation()
        ))
    })?;
    Ok((data, rows))
}

/// Map `map`'s Map.dbc id in the client at `dir`.
fn map_id(dir: &Path, map: &str) -> Result<u32, LoamError> {
    Client::open(dir).map_id(map).ok_or_else(|| {
        usage(&format!(
            "{}: Map.dbc names no map whose directory is {map}",
            dir.display()
        ))
    })
}

/// Prints map `map`'s triggers.
fn list(dir: &Path, map: &str) -> Result<ExitCode, LoamError> {
    let id = map_id(dir, map)?;
    let (_, rows) = open_rows(dir)?;
    let mut n = 0;
    for t in rows.triggers().into_iter().filter(|t| t.map == id) {
        n += 1;
        println!("{}", line(&t));
    }
    eprintln!("{n} area trigger(s) of {map} (Map.dbc id {id})");
    Ok(ExitCode::SUCCESS)
}

/// One trigger as `list` prints it.
pub fn line(t: &AreaTrigger) -> String {
    let [x, y, z] = t.at;
    let shape = match t.shape {
        TriggerShape::Sphere { radius } => format!("sphere {radius}"),
        TriggerShape::Box {
            length,
            width,
            height,
            yaw,
        } => format!(
            "box {length} {width} {height} {:.2}",
            f64::from(yaw).to_degrees()
        ),
    };
    format!("{}\t{x} {y} {z}\t{shape}", t.id)
}

/// The shape `--radius` or `--box` gives.
fn shape_of(radius: Option<f64>, box_size: Option<&[f64]>) -> Result<TriggerShape, LoamError> {
    match (radius, box_size) {
        (Some(r), None) => Ok(TriggerShape::Sphere { radius: r as f32 }),
        (None, Some(b)) => Ok(TriggerShape::Box {
            length: b[0] as f32,
            width: b[1] as f32,
            height: b[2] as f32,
            yaw: b[3].to_radians() as f32,
        }),
        _ => Err(usage(
            "give the trigger --radius R or --box LENGTH WIDTH HEIGHT YAW_DEGREES",
        )),
    }
}

/// Adds a trigger; with a teleport, its SQL row too.
fn add(
    dir: &Path,
    map: &str,
    at: &[f64],
    shape: TriggerShape,
    teleport: Option<(Vec<f64>, String, std::path::PathBuf)>,
    patch_name: Option<&str>,
) -> Result<ExitCode, LoamError> {
    let map_id = map_id(dir, map)?;
    let (data, mut rows) = open_rows(dir)?;
    if at.iter().any(|v| !v.is_finite()) {
        return Err(usage("--at takes three finite numbers"));
    }
    let trigger = AreaTrigger {
        id: 0,
        map: map_id,
        at: [at[0] as f32, at[1] as f32, at[2] as f32],
        shape,
    };
    let id = rows.add(trigger).map_err(|e| usage(&e))?;
    // The SQL is checked before the table is written, so that a refused name leaves both alone.
    let teleport = match teleport {
        Some((t, name, sql)) => {
            let target_map = t[0];
            if target_map.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&target_map) {
                return Err(usage(&format!(
                    "--teleport-to: {target_map} is not a map id"
                )));
            }
            let tp = Teleport {
                trigger: id,
                name,
                map: target_map as u32,
                at: [t[1] as f32, t[2] as f32, t[3] as f32],
                orientation: t[4] as f32,
            };
            crate::pipeline::teleport_sql::teleport_sql(&tp)?;
            Some((tp, sql))
        }
        None => None,
    };
    write(&data, patch_name, &rows)?;
    if let Some((tp, sql)) = teleport {
        append_teleport(&sql, &tp)?;
        eprintln!(
            "added trigger {id}'s areatrigger_teleport row to {}",
            sql.display()
        );
    }
    println!("{id}");
    Ok(ExitCode::SUCCESS)
}

/// Removes trigger `id`.
fn remove(dir: &Path, id: u32, patch_name: Option<&str>) -> Result<ExitCode, LoamError> {
    let (data, mut rows) = open_rows(dir)?;
    if !rows.remove(id) {
        return Err(usage(&format!("{AREA_TRIGGER_DBC} has no trigger {id}")));
    }
    write(&data, patch_name, &rows)?;
    eprintln!("removed trigger {id}");
    Ok(ExitCode::SUCCESS)
}

/// Writes AreaTrigger.dbc into the client's table archive and says where, with any warning.
fn write(data: &ClientData, patch_name: Option<&str>, rows: &TriggerRows) -> Result<(), LoamError> {
    let table = [(AREA_TRIGGER_DBC, rows.to_bytes())];
    let written = write_tables(data.data_dir(), patch_name, &table)?;
    eprintln!(
        "wrote {AREA_TRIGGER_DBC} into {}",
        written.archive.display()
    );
    for w in &written.warnings {
        eprintln!("warning: {w}");
    }
    Ok(())
}
