//! `loam new`: a new map (`loam new NAME --to GEN --tiles X0 Y0 X1 Y1 OUT`), a new WMO-only
//! map (`loam new NAME --to GEN --wmo PATH OUT`), and tiles added to or removed from a map
//! (`loam new --add-tiles X0 Y0 X1 Y1 MAP`, `loam new --remove-tiles X0 Y0 X1 Y1 MAP`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::assets::client::ClientData;
use crate::assets::models;
use crate::convert::blank::{DEFAULT_TEXTURE, blank_tile};
use crate::disk::LoamError;
use crate::doc::new_map::{self as create, NewMap};
use crate::format::Generation;
use crate::model::blank::TileRect;

/// What `loam new` was asked to do.
#[derive(Debug, Clone)]
pub enum NewArgs {
    /// A terrain map of the tiles in `tiles`.
    Map {
        /// The map's name.
        name: String,
        /// The folder to write into.
        out: PathBuf,
        /// The generation.
        to: Generation,
        /// Its tiles.
        tiles: TileRect,
    },
    /// A WMO-only map.
    WmoOnly {
        /// The map's name.
        name: String,
        /// The folder to write into.
        out: PathBuf,
        /// The generation.
        to: Generation,
        /// The WMO's game path.
        wmo: String,
    },
    /// Tiles added to the map whose WDT is `map`.
    Add {
        /// The map's WDT.
        map: PathBuf,
        /// The tiles.
        tiles: TileRect,
    },
    /// Tiles removed from the map whose WDT is `map`.
    Remove {
        /// The map's WDT.
        map: PathBuf,
        /// The tiles.
        tiles: TileRect,
    },
}

/// What new tiles are made of, and the client to check names against.
#[derive(Debug, Clone, Default)]
pub struct Ground {
    /// The texture (default [`DEFAULT_TEXTURE`]).
    pub texture: Option<String>,
    /// The height in yards.
    pub height: f32,
    /// The area id of every chunk.
    pub area: u32,
    /// The game client whose archives must hold the texture (or the WMO).
    pub client: Option<PathBuf>,
}

/// Reads `--tiles X0 Y0 X1 Y1` (or `--add-tiles`, `--remove-tiles`).
pub fn tile_rect(flag: &str, v: &[usize]) -> Result<TileRect, LoamError> {
    match v {
        [x0, y0, x1, y1] => TileRect::new(*x0, *y0, *x1, *y1).ok_or_else(|| {
            LoamError::Usage(format!("{flag}: tile numbers run from 0 to 63, not {v:?}"))
        }),
        _ => Err(LoamError::Usage(format!("{flag} takes X0 Y0 X1 Y1"))),
    }
}

/// Runs `loam new`.
pub fn run(args: NewArgs, ground: &Ground) -> Result<ExitCode, LoamError> {
    let client = ground
        .client
        .as_deref()
        .map(ClientData::open)
        .transpose()
        .map_err(|e| LoamError::Usage(e.to_string()))?;
    let texture = ground.texture.as_deref().unwrap_or(DEFAULT_TEXTURE);
    if let Some(c) = &client
        && !matches!(args, NewArgs::WmoOnly { .. } | NewArgs::Remove { .. })
        && c.read(texture).ok().flatten().is_none()
    {
        return Err(LoamError::Usage(format!(
            "the client has no texture {texture}; name one it has with --texture (`loam \
             client DIR --find \"tileset\\**\"` lists them)"
        )));
    }
    match args {
        NewArgs::Map {
            name,
            out,
            to,
            tiles,
        } => {
            let new = NewMap {
                name,
                generation: to,
                tiles: tiles.coords(),
                blank: blank_tile(to, texture, ground.height, ground.area),
            };
            let bar = super::progress::tile_bar("writing", new.tiles.len() as u64);
            let made = create::create_map(&new, &out, &|done, _| bar.set_position(done as u64))?;
            bar.finish_and_clear();
            println!(
                "wrote {} ({} {} tile(s), {texture} at {} yd) and {}",
                made.wdt.display(),
                made.tiles,
                to,
                ground.height,
                made.wdl.display()
            );
            // A flat 0.6.0 tile is byte for byte a flat 1.12 one but for nothing a reader can
            // see (the height order shows only once heights differ): say which it is.
            let from = if to == Generation::V060 {
                "--from 0.6.0 "
            } else {
                ""
            };
            println!("open it with: loam {from}{}", made.wdt.display());
        }
        NewArgs::WmoOnly { name, out, to, wmo } => {
            let bounds = wmo_bounds(&wmo, &out, client.as_ref())?;
            let wdt = create::create_wmo_only(&name, to, &wmo, bounds, &out)?;
            println!("wrote {} (a WMO-only map of {wmo})", wdt.display());
        }
        NewArgs::Add { map, tiles } => {
            let done =
                create::add_tiles(&map, &tiles.coords(), texture, ground.height, ground.area)?;
            println!(
                "added {} tile(s) to {}; {} border vertices met the tiles beside them{}",
                done.tiles.len(),
                done.wdt.display(),
                done.met,
                wdl_line(&done.wdl)
            );
        }
        NewArgs::Remove { map, tiles } => {
            let done = create::remove_tiles(&map, &tiles.coords())?;
            println!(
                "removed {} tile(s) from {}{}",
                done.tiles.len(),
                done.wdt.display(),
                wdl_line(&done.wdl)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// ", and NAME.wdl" when a WDL was brought up to date.
fn wdl_line(wdl: &Option<PathBuf>) -> String {
    wdl.as_ref()
        .map(|p| format!("; {} updated", p.display()))
        .unwrap_or_default()
}

/// The model box of the WMO at game path `wmo`, read from `client`, or else from under the
/// folder the map is written into (where the editor also looks for a map's own models).
fn wmo_bounds(
    wmo: &str,
    out: &Path,
    client: Option<&ClientData>,
) -> Result<([f32; 3], [f32; 3]), LoamError> {
    let loose = |p: &str| std::fs::read(out.join(p.replace('\\', "/"))).ok();
    let model = match client {
        Some(c) => models::read_model(wmo, &|p: &str| c.read(p).ok().flatten()),
        None => models::read_model(wmo, &loose),
    }
    .map_err(|e| {
        LoamError::Usage(format!(
            "{e}\n(the WMO is read from --client DIR, or without it from {} joined with its \
             game path)",
            out.display()
        ))
    })?;
    if !matches!(model, models::AnyModel::Wmo(_)) {
        return Err(LoamError::Usage(format!("{wmo} is not a WMO")));
    }
    let b = model.placement_bounds();
    Ok((b.min, b.max))
}
