//! `loam light`: the lights a client's tables give a map, listed, added, edited and removed.
//!
//! - `list CLIENT MAP`: one line each: the row id, its place in game coordinates (as `.go xyz`
//!   takes them), its inner and outer radius in yards, and its parameter set ids;
//! - `add CLIENT MAP --at X Y Z --radius INNER OUTER [--like ID] [--band NAME=HH:MM=RRGGBB]…
//!   [--fog-end YARDS] [--patch-name NAME]`: prints the new id;
//! - `edit CLIENT ID [--at …] [--radius …] [--band …] [--fog-end …]`, `remove CLIENT ID`.
//!
//! The tables are read as the client reads them (its highest-priority copies) and written
//! whole into the archive loam writes the client's tables into (`pipeline::table_archive`).
//! The map is named by its Map.dbc directory.
//!
//! Not for: reading the tables (`assets::client::light_tables`), editing their rows
//! (`assets::client::light_rows`), their axes (`model::coords::light_to_world`).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use super::{LightCommand, LightPlaceArgs};
use crate::assets::client::{
    COLOUR_BAND_NAMES, ClientData, LIGHT_DBC, LIGHT_FLOAT_BAND_DBC, LIGHT_INT_BAND_DBC,
    LIGHT_PARAMS_DBC, LightPlace, LightTableRows,
};
use crate::disk::LoamError;
use crate::doc::client::Client;
use crate::doc::light::DayTime;
use crate::model::coords::{LIGHT_UNITS_PER_YARD, light_to_world, world_to_light};
use crate::pipeline::table_archive::write_tables;

/// Runs one `loam light` action.
pub fn run(action: LightCommand) -> Result<ExitCode, LoamError> {
    match action {
        LightCommand::List { client, map } => list(&client, &map),
        LightCommand::Add {
            client,
            map,
            like,
            place,
        } => add(&client, &map, like, &place),
        LightCommand::Edit { client, id, place } => edit(&client, id, &place),
        LightCommand::Remove {
            client,
            id,
            patch_name,
        } => remove(&client, id, patch_name.as_deref()),
    }
}

/// Prints map `map`'s lights in the client at `dir`; a usage error naming what is missing
/// when the client has no light tables, or no map of that name.
pub fn list(dir: &Path, map: &str) -> Result<ExitCode, LoamError> {
    let client = Client::open(dir);
    let tables = match &client.lights {
        Ok(Some(t)) => t.clone(),
        Ok(None) => {
            return Err(LoamError::Usage(format!(
                "{}: the client has no Light.dbc",
                dir.display()
            )));
        }
        Err(e) => return Err(LoamError::Usage(format!("{}: {e}", dir.display()))),
    };
    let id = map_id(&client, dir, map)?;
    let mut n = 0;
    for l in tables.lights.iter().filter(|l| l.map == id) {
        n += 1;
        let params: Vec<String> = (l.params.iter())
            .filter(|p| **p != 0)
            .map(u32::to_string)
            .collect();
        let yards = |v: f32| f64::from(v) / LIGHT_UNITS_PER_YARD;
        // The global light is stored at (0, 0, 0): it has no place.
        let at = if l.coords == [0.0; 3] {
            "global".to_string()
        } else {
            let [x, y, z] = light_to_world(l.coords);
            format!("{x:.2} {y:.2} {z:.2}")
        };
        println!(
            "{}\t{at}\t{:.2} {:.2}\t{}",
            l.id,
            yards(l.falloff_start),
            yards(l.falloff_end),
            params.join(",")
        );
    }
    eprintln!("{n} light(s) of {map} (Map.dbc id {id})");
    Ok(ExitCode::SUCCESS)
}

/// Adds a light to map `map`; prints its id.
fn add(
    dir: &Path,
    map: &str,
    like: Option<u32>,
    args: &LightPlaceArgs,
) -> Result<ExitCode, LoamError> {
    let client = Client::open(dir);
    let map_id = map_id(&client, dir, map)?;
    let (data, mut rows) = open_rows(dir)?;
    let (Some(at), Some(radius)) = (&args.at, &args.radius) else {
        return Err(usage("light add needs --at X Y Z and --radius INNER OUTER"));
    };
    let like = match like {
        Some(id) => id,
        None => rows.global_light(map_id).ok_or_else(|| {
            usage(&format!(
                "{LIGHT_DBC} has no global light for {map} to copy; name one with --like"
            ))
        })?,
    };
    let place = place_of(at, radius)?;
    let id = rows.add_light(map_id, place, like).map_err(|e| usage(&e))?;
    apply_bands(&mut rows, id, args)?;
    write(&data, args.patch_name.as_deref(), &rows)?;
    println!("{id}");
    Ok(ExitCode::SUCCESS)
}

/// Moves, resizes or recolours light `id`.
fn edit(dir: &Path, id: u32, args: &LightPlaceArgs) -> Result<ExitCode, LoamError> {
    let (data, mut rows) = open_rows(dir)?;
    let (_, old, _) = rows
        .light(id)
        .ok_or_else(|| usage(&format!("{LIGHT_DBC} has no light {id}")))?;
    if args.at.is_none() && args.radius.is_none() && args.bands.is_empty() && args.fog_end.is_none()
    {
        return Err(usage(
            "light edit needs something to change: --at, --radius, --band or --fog-end",
        ));
    }
    let mut place = old;
    if let Some(at) = &args.at {
        place.coords = world_to_light([at[0], at[1], at[2]]);
    }
    if let Some(r) = &args.radius {
        let (inner, outer) = radii(r)?;
        place.inner = inner;
        place.outer = outer;
    }
    rows.set_place(id, place).map_err(|e| usage(&e))?;
    apply_bands(&mut rows, id, args)?;
    write(&data, args.patch_name.as_deref(), &rows)?;
    eprintln!("light {id} changed");
    Ok(ExitCode::SUCCESS)
}

/// Removes light `id`.
fn remove(dir: &Path, id: u32, patch_name: Option<&str>) -> Result<ExitCode, LoamError> {
    let (data, mut rows) = open_rows(dir)?;
    rows.remove_light(id).map_err(|e| usage(&e))?;
    write(&data, patch_name, &rows)?;
    eprintln!("light {id} removed");
    Ok(ExitCode::SUCCESS)
}

fn usage(why: &str) -> LoamError {
    LoamError::Usage(why.to_string())
}

/// Map `map`'s Map.dbc id in `client`.
fn map_id(client: &Client, dir: &Path, map: &str) -> Result<u32, LoamError> {
    client.map_id(map).ok_or_else(|| {
        LoamError::Usage(format!(
            "{}: Map.dbc names no map whose directory is {map}",
            dir.display()
        ))
    })
}

/// The client at `dir` and its four light tables as rows to edit.
fn open_rows(dir: &Path) -> Result<(ClientData, LightTableRows), LoamError> {
    let data = ClientData::open(dir).map_err(|e| usage(&e.to_string()))?;
    let read = |name: &str| match data.read(name) {
        Ok(Some(b)) => Ok(b),
        Ok(None) => Err(usage(&format!(
            "{}: the client has no {name}",
            dir.display()
        ))),
        Err(e) => Err(usage(&e.to_string())),
    };
    let rows = LightTableRows::read(
        &read(LIGHT_DBC)?,
        &read(LIGHT_PARAMS_DBC)?,
        &read(LIGHT_INT_BAND_DBC)?,
        &read(LIGHT_FLOAT_BAND_DBC)?,
        data.generation(),
    )
    .map_err(|e| usage(&format!("{}: {e}", dir.display())))?;
    Ok((data, rows))
}

/// Writes the four tables and reports where, with any warning.
fn write(
    data: &ClientData,
    patch_name: Option<&str>,
    rows: &LightTableRows,
) -> Result<(), LoamError> {
    let written = write_tables(data.data_dir(), patch_name, &rows.tables())?;
    eprintln!("wrote the light tables into {}", written.archive.display());
    for w in &written.warnings {
        eprintln!("warning: {w}");
    }
    Ok(())
}

/// A light's stored place from `--at` (game coordinates) and `--radius` (yards).
fn place_of(at: &[f64], radius: &[f64]) -> Result<LightPlace, LoamError> {
    let (inner, outer) = radii(radius)?;
    if at.iter().any(|v| !v.is_finite()) {
        return Err(usage("--at takes three finite numbers"));
    }
    Ok(LightPlace {
        coords: world_to_light([at[0], at[1], at[2]]),
        inner,
        outer,
    })
}

/// `--radius INNER OUTER` (yards) in the table's inches.
fn radii(r: &[f64]) -> Result<(f32, f32), LoamError> {
    let (inner, outer) = (r[0], r[1]);
    if !(inner.is_finite() && outer.is_finite() && 0.0 <= inner && inner <= outer && outer > 0.0) {
        return Err(usage(&format!(
            "--radius {inner} {outer}: the inner radius must be at least 0 and at most the \
             outer, which must be above 0"
        )));
    }
    let inches = |v: f64| (v * LIGHT_UNITS_PER_YARD) as f32;
    Ok((inches(inner), inches(outer)))
}

/// Applies `--band` and `--fog-end` to light `id`.
fn apply_bands(rows: &mut LightTableRows, id: u32, args: &LightPlaceArgs) -> Result<(), LoamError> {
    for (band, keys) in parse_bands(&args.bands)? {
        rows.set_colour_band(id, band, &keys)
            .map_err(|e| usage(&e))?;
    }
    if let Some(yards) = args.fog_end {
        if !(yards.is_finite() && yards > 0.0) {
            return Err(usage("--fog-end takes a distance above 0 yards"));
        }
        let inches = (yards * LIGHT_UNITS_PER_YARD) as f32;
        rows.set_float_band(id, 0, &[(0, inches)])
            .map_err(|e| usage(&e))?;
    }
    Ok(())
}

/// `--band NAME=HH:MM=RRGGBB` values, grouped by band: each band's keys (half-minutes, colour).
pub fn parse_bands(values: &[String]) -> Result<BTreeMap<usize, Vec<(u32, u32)>>, LoamError> {
    let mut out: BTreeMap<usize, Vec<(u32, u32)>> = BTreeMap::new();
    for v in values {
        let bad = |why: &str| usage(&format!("--band {v}: {why}"));
        let mut parts = v.split('=');
        let (Some(name), Some(time), Some(colour), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad("expected NAME=HH:MM=RRGGBB"));
        };
        let band = COLOUR_BAND_NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                bad(&format!(
                    "no band is called {name}; the bands are {}",
                    COLOUR_BAND_NAMES.join(", ")
                ))
            })?;
        let time = DayTime::parse(time.trim()).map_err(|e| bad(&e))?;
        let colour = colour.trim().trim_start_matches('#');
        if colour.len() != 6 {
            return Err(bad("the colour is six hex digits, RRGGBB"));
        }
        let colour = u32::from_str_radix(colour, 16)
            .map_err(|_| bad("the colour is six hex digits, RRGGBB"))?;
        out.entry(band)
            .or_default()
            .push((time.half_minutes(), colour));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_grouped_by_name_and_bad_ones_named() {
        let got = parse_bands(&[
            "sky-top=12:00=FF0000".into(),
            "fog=00:00=#00ff00".into(),
            "sky-top=06:30=0000FF".into(),
        ])
        .unwrap();
        assert_eq!(got[&2], [(1440, 0xFF0000), (780, 0x0000FF)]);
        assert_eq!(got[&7], [(0, 0x00FF00)]);
        for bad in [
            "sky=12:00=FF0000",
            "fog=25:00=FF0000",
            "fog=12:00=FFF",
            "fog=12:00",
        ] {
            let e = parse_bands(&[bad.into()]).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
    }
}
