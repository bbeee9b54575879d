//! `loam check --client DIR MAP`: what would stop a map working in that client or on a server
//! that extracts it: no Map.dbc row for its folder, a WDT without MWMO (Noggit's WDTs lacked
//! it and the emulators' extractors rejected them: azerothcore-wotlk #5135, TrinityCore
//! #26537), liquid types LiquidType.dbc does not define, area ids AreaTable.dbc does not
//! define. (Tiles the WDT lists but the folder lacks are `check`'s own.)
//!
//! A table the client lacks, or one loam cannot read, is said once as a warning: the check it
//! would have made is not made, rather than guessed.

use crate::assets::client::{
    AREA_TABLE_DBC, ClientData, ClientGeneration, LIQUID_TYPE_DBC, MAP_DBC, read_area_ids,
    read_liquid_table, read_map_table,
};
use crate::format::Generation;
use crate::pipeline::extractors::{extractor_view, unseen_between, unseen_warning};

use super::problem::{MapUses, Problem, Severity};

/// The problems `uses` (a map read as `generation`) has in `client`.
pub fn client_problems(
    uses: &MapUses,
    generation: Generation,
    client: &ClientData,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let client_gen = client.generation();
    let error = |message: String| Problem::error(uses.wdt.clone(), message);
    let warning = |message: String| Problem {
        file: uses.wdt.clone(),
        message,
        severity: Severity::Warning,
    };
    let table = |path: &str| client.read(path).ok().flatten();
    match table(MAP_DBC).map(|b| read_map_table(&b, client_gen)) {
        None => out.push(warning(format!(
            "the client has no {MAP_DBC}: the map row is not checked"
        ))),
        Some(None) => out.push(warning(format!(
            "the client's {MAP_DBC} does not fit loam's {client_gen} layout: the map row is not \
             checked"
        ))),
        Some(Some(rows)) => {
            if !rows
                .iter()
                .any(|(_, d, _)| d.eq_ignore_ascii_case(&uses.name))
            {
                out.push(error(format!(
                    "the client's {MAP_DBC} has no row for {}: the client will not load the map \
                     and the servers' extractors skip it (`loam convert --pack --client` adds one)",
                    uses.name
                )));
            }
        }
    }
    if uses.wdt_lacks_mwmo {
        out.push(error(
            "the WDT has no MWMO chunk: the servers' map extractors reject such WDTs \
             (azerothcore-wotlk #5135, TrinityCore #26537); `loam convert --pack --client` writes one"
                .to_string(),
        ));
    }
    // MH2O names LiquidType rows; the classic MCLQ kinds (1 to 4) every client has.
    let new_liquids: Vec<(u16, _)> = uses
        .liquids
        .iter()
        .filter(|(id, _)| generation == Generation::V335 || **id > 4)
        .map(|(id, c)| (*id, *c))
        .collect();
    if !new_liquids.is_empty() {
        match table(LIQUID_TYPE_DBC).and_then(|b| read_liquid_table(&b)) {
            None => out.push(warning(format!(
                "the client's {LIQUID_TYPE_DBC} cannot be read: liquid types are not checked"
            ))),
            Some(rows) => {
                for (id, c) in new_liquids {
                    if !rows.iter().any(|r| r.id == id) {
                        out.push(error(format!(
                            "liquid type {id} (first in tile {}_{}) is not in the client's \
                             {LIQUID_TYPE_DBC}",
                            c.x, c.y
                        )));
                    }
                }
            }
        }
    }
    let areas: Vec<_> = uses.areas.iter().filter(|(id, _)| **id != 0).collect();
    if !areas.is_empty() {
        match table(AREA_TABLE_DBC).and_then(|b| read_area_ids(&b, client_gen)) {
            None if matches!(client_gen, ClientGeneration::V112 | ClientGeneration::V335) => out
                .push(warning(format!(
                    "the client's {AREA_TABLE_DBC} cannot be read: area ids are not checked"
                ))),
            None => out.push(warning(format!(
                "loam knows no {client_gen} layout of {AREA_TABLE_DBC}: area ids are not checked"
            ))),
            Some(ids) => {
                for (id, c) in areas {
                    if !ids.contains(id) {
                        out.push(error(format!(
                            "area id {id} (first in tile {}_{}) is not in the client's \
                             {AREA_TABLE_DBC}",
                            c.x, c.y
                        )));
                    }
                }
            }
        }
    }
    // What the client loads of the map but the servers' extractors would not (a row in a
    // custom patch beyond their list): the server then knows no such map.
    if matches!(client_gen, ClientGeneration::V112 | ClientGeneration::V335)
        && let Ok(server) = extractor_view(client.data_dir())
    {
        let ids: Vec<u32> = uses.areas.keys().copied().collect();
        let unseen = unseen_between(client, &server, &uses.name, &ids);
        if let Some(w) = unseen_warning(&unseen, client_gen, &uses.name, client.data_dir(), None) {
            out.push(error(w));
        }
    }
    out
}
