//! The evidence behind loam's default sun and what docs/shadows.md says about Blizzard's baked
//! shadows: reads the corpus tiles that carry Blizzard's own MCSH and prints
//!
//! 1. how often a doodad's own position is shadowed, with the bit layout the ADT documents give
//!    (row = south, column = east) and with rows and columns swapped: a check of the layout;
//! 2. the direction in which shadows trail away from doodads (the sun stands opposite);
//! 3. how a terrain-only bake agrees with Blizzard's maps at that azimuth, elevation by
//!    elevation, beside the agreement of an empty map;
//! 4. the shadow of each WALLPOST01 WMO measured along that direction (its height is known from
//!    the placement's bounds), which bounds the sun's elevation.
//!
//! `cargo run --example shadow_sun`

use std::path::Path;

use loam::edit::derived::shadows::{Sun, Terrain};
use loam::model::coords::{self, CHUNKS_PER_SIDE};
use loam::model::{Map, Tile, TileCoord};

const TILES: [&str; 3] = [
    "warcraft-net/ADT/Northrend_37_25.adt",
    "wowserhq-format/map/continent4229.adt",
    "wowserhq-format/map/pvpzone3430.adt",
];

/// Cells across a tile.
const N: i64 = 1024;

struct Case {
    name: &'static str,
    map: Map,
    coord: TileCoord,
}

impl Case {
    fn tile(&self) -> &Tile {
        &self.map.tiles[&self.coord]
    }

    /// Blizzard's bit at tile cell (`px` east, `py` south), `None` off the tile or without MCSH.
    fn bit(&self, px: i64, py: i64) -> Option<bool> {
        if !(0..N).contains(&px) || !(0..N).contains(&py) {
            return None;
        }
        let c = &self.tile().chunks[(py / 64 * 16 + px / 64) as usize];
        Some(
            c.shadow
                .as_ref()?
                .get((py % 64) as usize, (px % 64) as usize),
        )
    }

    /// The tile cell (east, south) of a world position.
    fn cell(&self, x: f64, y: f64) -> (f64, f64) {
        let [gx, gy] = coords::world_to_lattice(x, y);
        let tile = CHUNKS_PER_SIDE as f64 * 8.0;
        (
            (gx - self.coord.x as f64 * tile) * 8.0,
            (gy - self.coord.y as f64 * tile) * 8.0,
        )
    }

    fn doodad_cells(&self) -> Vec<(i64, i64)> {
        self.tile()
            .doodads
            .iter()
            .map(|d| self.cell(d.position[0], d.position[1]))
            .map(|(x, y)| (x as i64, y as i64))
            .filter(|&(x, y)| (0..N).contains(&x) && (0..N).contains(&y))
            .collect()
    }

    fn shadowed_share(&self) -> f64 {
        let (mut set, mut all) = (0u64, 0u64);
        for c in &self.tile().chunks {
            if let Some(s) = &c.shadow {
                set += s.rows.iter().map(|r| r.count_ones() as u64).sum::<u64>();
                all += 4096;
            }
        }
        set as f64 / all.max(1) as f64
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let cases: Vec<Case> = TILES
        .iter()
        .map(|name| {
            let map = loam::pipeline::open_map(&root.join(name))
                .expect("corpus tile")
                .map;
            let coord = *map.tiles.keys().next().expect("a tile");
            Case { name, map, coord }
        })
        .collect();

    println!(
        "1. Shadowed share, and at doodad positions (documented layout / rows and columns swapped)"
    );
    for c in &cases {
        let cells = c.doodad_cells();
        let at = |swap: bool| {
            let hits = cells
                .iter()
                .filter(|&&(x, y)| if swap { c.bit(y, x) } else { c.bit(x, y) }.unwrap_or(false))
                .count();
            hits as f64 / cells.len().max(1) as f64
        };
        println!(
            "   {}: {:.3} of cells; {} doodads: {:.3} / {:.3}",
            c.name,
            c.shadowed_share(),
            cells.len(),
            at(false),
            at(true)
        );
    }

    println!("2. Direction shadows trail from doodads (mean bit 4..64 cells out, by bearing)");
    let mut sun_azimuths = Vec::new();
    for c in cases.iter().filter(|c| c.shadowed_share() > 0.0) {
        let cells = c.doodad_cells();
        let mean_along = |bearing: f64| {
            let (e, s) = (bearing.to_radians().sin(), -bearing.to_radians().cos());
            let (mut set, mut n) = (0u64, 0u64);
            for &(x, y) in &cells {
                for k in 4..64 {
                    let p = (x + (k as f64 * e) as i64, y + (k as f64 * s) as i64);
                    if let Some(b) = c.bit(p.0, p.1) {
                        set += b as u64;
                        n += 1;
                    }
                }
            }
            set as f64 / n.max(1) as f64
        };
        let (best, score) = (0..360)
            .map(|b| (b as f64, mean_along(b as f64)))
            .fold((0.0, f64::MIN), |a, b| if b.1 > a.1 { b } else { a });
        let opposite = mean_along((best + 180.0) % 360.0);
        println!(
            "   {}: shadows trail toward {best}° (mean bit {score:.3}; {opposite:.3} the other way): sun at azimuth {}°",
            c.name,
            (best + 180.0) % 360.0
        );
        sun_azimuths.push((best + 180.0) % 360.0);
    }
    let azimuth = sun_azimuths
        .first()
        .copied()
        .unwrap_or(Sun::DEFAULT.azimuth);

    println!(
        "3. Terrain-only bake against Blizzard's bits at azimuth {azimuth}° (every other cell)"
    );
    for c in cases.iter().filter(|c| c.shadowed_share() > 0.0) {
        let terrain = Terrain::around_tile(&c.map, c.coord);
        let mut line = format!("   {}: empty map {:.3};", c.name, 1.0 - c.shadowed_share());
        for el in [15.0, 30.0, 45.0, 60.0, 75.0] {
            let sun = Sun::new(azimuth, el).expect("a sun");
            let (mut agree, mut n, mut ours, mut both) = (0u64, 0u64, 0u64, 0u64);
            for py in (0..N).step_by(2) {
                for px in (0..N).step_by(2) {
                    let Some(b) = c.bit(px, py) else { continue };
                    let gx = c.coord.x as f64 * 128.0 + (px as f64 + 0.5) / 8.0;
                    let gy = c.coord.y as f64 * 128.0 + (py as f64 + 0.5) / 8.0;
                    let o = terrain.shadowed(gx, gy, sun);
                    agree += (o == b) as u64;
                    ours += o as u64;
                    both += (o && b) as u64;
                    n += 1;
                }
            }
            line += &format!(
                " el {el}: agree {:.3}, loam shadows {:.3} (Blizzard too: {:.3});",
                agree as f64 / n as f64,
                ours as f64 / n as f64,
                both as f64 / ours.max(1) as f64
            );
        }
        println!("{line}");
    }

    println!("4. WALLPOST01 shadows along the trail direction");
    let trail = (azimuth + 180.0) % 360.0;
    let (e, s) = (trail.to_radians().sin(), -trail.to_radians().cos());
    for c in &cases {
        let t = c.tile();
        for w in &t.wmos {
            let name = &t.wmo_names[w.name_index as usize];
            if !name.to_ascii_uppercase().ends_with("WALLPOST01.WMO") {
                continue;
            }
            let (x, y) = c.cell(w.position[0], w.position[1]);
            let run = (0..400)
                .take_while(|&k| {
                    c.bit((x + k as f64 * e) as i64, (y + k as f64 * s) as i64) == Some(true)
                })
                .count();
            let height = w.bounds_max[2] - w.position[2];
            let length = run as f64 * coords::UNIT_SIZE / 8.0;
            println!(
                "   {}: post {height:.1} yd above its origin, shadow from its centre {run} cells ({length:.1} yd): elevation about {:.0}°",
                c.name,
                height.atan2(length).to_degrees()
            );
        }
    }
}
