//! `loam light list CLIENT MAP`: the lights a client's tables give a map, one line each: the
//! row id, its place in game coordinates (as `.go xyz` takes them), its inner and outer radius
//! in yards, and its parameter set ids. The map is named by its Map.dbc directory.
//!
//! Not for: reading the tables (`assets::client::light_tables`) or their axes
//! (`model::coords::light_to_world`).

use std::path::Path;
use std::process::ExitCode;

use crate::disk::LoamError;
use crate::doc::client::Client;
use crate::model::coords::{LIGHT_UNITS_PER_YARD, light_to_world};

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
    let id = client.map_id(map).ok_or_else(|| {
        LoamError::Usage(format!(
            "{}: Map.dbc names no map whose directory is {map}",
            dir.display()
        ))
    })?;
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
