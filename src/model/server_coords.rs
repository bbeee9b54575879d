//! The servers' coordinates and the places a user types: the `.go xyz X Y Z MAPID` line the
//! TrinityCore, AzerothCore and MaNGOS servers take, and the Go to box's other forms (world
//! x y z, tile and chunk).
//!
//! The servers' world position is loam's world position (`super::coords`): x north, y west,
//! z up, in yards, the origin at the centre of the 64×64 tile grid. TrinityCore's
//! `src/server/game/Grids/GridDefines.h` sets `MAX_NUMBER_OF_GRIDS = 64`,
//! `SIZE_OF_GRIDS = 533.3333f` (one ADT tile) and `CENTER_GRID_ID = MAX_NUMBER_OF_GRIDS / 2`,
//! and finds a position's grid as `gx = 63 - (int)(CENTER_GRID_ID - x / SIZE_OF_GRIDS)`
//! (`ComputeGridCoordSimple`): x = 32 · 533.33 is the map's edge with the first row of tiles,
//! and x falls by one tile per row of ADT files (the file name's second number), y by one tile
//! per column (its first number), exactly as [`super::TileCoord::north_west`] says. A
//! placement record (MDDF, MODF; wowdev.wiki ADT/v18) stores the same point from the map's
//! corner instead: server x = 32 · TILESIZE − its third value, server y = 32 · TILESIZE − its
//! first ([`super::coords::placement_to_world`]).
//!
//! `.go xyz` itself: `cs_go.cpp`'s `HandleGoXYZCommand(handler, float x, float y,
//! Optional<float> z, Optional<uint32> id, Optional<float> o)` (TrinityCore): x and y, then
//! optionally z, the Map.dbc id and the orientation; without z the server puts the player on
//! the ground, without an id on the player's own map.
//!
//! Not for: where the editor's camera goes (the app) or Map.dbc (`doc::client`).

use super::TileCoord;
use super::coords::{CHUNK_SIZE, CHUNKS_PER_SIDE};

/// A place the user asked to go to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Place {
    /// A world position; `z` when it was given.
    World {
        /// North.
        x: f64,
        /// West.
        y: f64,
        /// Up, when given (the ground under x, y otherwise).
        z: Option<f64>,
        /// The Map.dbc id a `.go xyz` line named.
        map_id: Option<u32>,
    },
    /// A tile, or one chunk of it (column east, row south, 0..16 each).
    Tile(TileCoord, Option<(usize, usize)>),
}

impl Place {
    /// The world (x, y) the place stands for: a tile's or chunk's centre.
    pub fn world_xy(&self) -> [f64; 2] {
        match *self {
            Place::World { x, y, .. } => [x, y],
            Place::Tile(tile, chunk) => {
                let [nx, ny] = tile.north_west();
                match chunk {
                    Some((cx, cy)) => [
                        nx - (cy as f64 + 0.5) * CHUNK_SIZE,
                        ny - (cx as f64 + 0.5) * CHUNK_SIZE,
                    ],
                    None => {
                        let half = CHUNK_SIZE * CHUNKS_PER_SIDE as f64 / 2.0;
                        [nx - half, ny - half]
                    }
                }
            }
        }
    }
}

/// The `.go xyz` line that takes a player to `world` (loam's world position, which is the
/// servers'), on map `map_id` when known: two decimals, as a GM types them.
pub fn go_xyz(world: [f64; 3], map_id: Option<u32>) -> String {
    let [x, y, z] = world;
    let mut line = format!(".go xyz {x:.2} {y:.2} {z:.2}");
    if let Some(id) = map_id {
        line.push_str(&format!(" {id}"));
    }
    line
}

/// Reads what the user typed into Go to: a `.go xyz X Y [Z [MAPID [O]]]` line (also
/// `.go X Y Z`, the servers' shorthand), world `X Y [Z]` (commas allowed), or a tile as
/// `tile 32 48`, `32_48` or `32 48` followed by `chunk 3 7` / `3,7`. Says what is wrong
/// otherwise.
pub fn parse_place(text: &str) -> Result<Place, String> {
    let lower = text.trim().to_lowercase();
    let cleaned = lower.replace([',', '_'], " ");
    let mut words: Vec<&str> = cleaned.split_whitespace().collect();
    if words.is_empty() {
        return Err("type a place: .go xyz X Y Z, X Y Z, or tile X Y [chunk X Y]".into());
    }
    let go = matches!(words[0], ".go" | "go" | ".gm" | "goxyz" | ".goxyz");
    if go {
        words.remove(0);
        if words.first() == Some(&"xyz") {
            words.remove(0);
        }
        return world(&words, true);
    }
    if words[0] == "tile" {
        return tile(&words[1..]);
    }
    let numbers: Option<Vec<f64>> = words.iter().map(|w| w.parse::<f64>().ok()).collect();
    let Some(numbers) = numbers else {
        return tile(&words);
    };
    let integral = numbers
        .iter()
        .all(|n| n.fract() == 0.0 && *n >= 0.0 && *n < 64.0);
    // `32_48` or `32 48`: a tile when both are tile numbers and the text said so with `_`,
    // or when they could not be a world position anyway (a world position needs x and y
    // and most are larger than 64).
    if integral && (text.contains('_') || numbers.len() == 2 || numbers.len() == 4) {
        return tile(&words);
    }
    world(&words, false)
}

fn world(words: &[&str], go: bool) -> Result<Place, String> {
    let numbers: Result<Vec<f64>, String> = words
        .iter()
        .map(|w| {
            w.parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .ok_or(format!("{w:?} is not a number"))
        })
        .collect();
    let numbers = numbers?;
    let most = if go { 5 } else { 3 };
    if numbers.len() < 2 || numbers.len() > most {
        return Err(if go {
            ".go xyz takes X Y, then optionally Z, the map id and the orientation".into()
        } else {
            "a world position is X Y or X Y Z".into()
        });
    }
    let map_id = match numbers.get(3) {
        Some(&id) if id >= 0.0 && id.fract() == 0.0 && id <= u32::MAX as f64 => Some(id as u32),
        Some(id) => return Err(format!("{id} is not a map id")),
        None => None,
    };
    Ok(Place::World {
        x: numbers[0],
        y: numbers[1],
        z: numbers.get(2).copied(),
        map_id,
    })
}

fn tile(words: &[&str]) -> Result<Place, String> {
    let numbers: Vec<usize> = words
        .iter()
        .filter(|w| **w != "chunk")
        .map(|w| {
            w.parse::<usize>()
                .map_err(|_| format!("{w:?} is not a tile number"))
        })
        .collect::<Result<_, _>>()?;
    let bad = || "a tile is X Y (0 to 63), a chunk of it X Y (0 to 15)".to_string();
    if numbers.len() != 2 && numbers.len() != 4 {
        return Err(bad());
    }
    let tile = TileCoord::new(numbers[0], numbers[1]).ok_or_else(bad)?;
    let chunk = match numbers.get(2..4) {
        Some(&[cx, cy]) if cx < CHUNKS_PER_SIDE && cy < CHUNKS_PER_SIDE => Some((cx, cy)),
        Some(_) => return Err(bad()),
        None => None,
    };
    Ok(Place::Tile(tile, chunk))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::coords::TILE_SIZE;

    #[test]
    fn a_tiles_corner_is_the_servers_grid_edge() {
        // Tile 32_32's north-west corner is the world origin: CENTER_GRID_ID = 32.
        let t = TileCoord::new(32, 32).unwrap();
        assert_eq!(t.north_west(), [0.0, 0.0]);
        // One row of files further (y + 1) is one SIZE_OF_GRIDS further south (x smaller).
        let south = TileCoord::new(32, 33).unwrap().north_west();
        assert!((south[0] + 533.3333).abs() < 1e-3, "{south:?}");
        assert_eq!(
            go_xyz([1600.0, -5333.3333, 12.345], Some(1)),
            ".go xyz 1600.00 -5333.33 12.35 1"
        );
        assert_eq!(go_xyz([1.0, 2.0, 3.0], None), ".go xyz 1.00 2.00 3.00");
        assert!((TILE_SIZE - 533.3333).abs() < 1e-4);
    }

    #[test]
    fn places_read_in_every_form() {
        let go = parse_place(".go xyz -8913.23 554.63 93.79 0 3.14").unwrap();
        assert_eq!(
            go,
            Place::World {
                x: -8913.23,
                y: 554.63,
                z: Some(93.79),
                map_id: Some(0)
            }
        );
        assert_eq!(
            parse_place(".go xyz 100 200").unwrap(),
            Place::World {
                x: 100.0,
                y: 200.0,
                z: None,
                map_id: None
            }
        );
        assert_eq!(
            parse_place("1600.5, -5333.2, 40").unwrap(),
            Place::World {
                x: 1600.5,
                y: -5333.2,
                z: Some(40.0),
                map_id: None
            }
        );
        let t = TileCoord::new(42, 29).unwrap();
        assert_eq!(parse_place("tile 42 29").unwrap(), Place::Tile(t, None));
        assert_eq!(parse_place("42_29").unwrap(), Place::Tile(t, None));
        assert_eq!(
            parse_place("tile 42 29 chunk 3 7").unwrap(),
            Place::Tile(t, Some((3, 7)))
        );
        assert_eq!(
            parse_place("42_29 3,7").unwrap(),
            Place::Tile(t, Some((3, 7)))
        );
        assert!(parse_place("tile 64 1").is_err());
        assert!(parse_place(".go xyz north 1").is_err());
        assert!(parse_place("").is_err());
        // A chunk's centre: half a chunk in from the tile's corner.
        let [x, y] = Place::Tile(t, Some((0, 0))).world_xy();
        let [nx, ny] = t.north_west();
        assert!(
            (nx - x - CHUNK_SIZE / 2.0).abs() < 1e-9 && (ny - y - CHUNK_SIZE / 2.0).abs() < 1e-9
        );
    }
}
