//! The evidence behind `edit::derived::ground_effects`' rule and docs/ground-effects.md: for each corpus
//! tile, how many of Blizzard's stored low-quality texture map cells loam's rule reproduces,
//! beside the two plain rules it combines (alpha as share everywhere; layers blended upward
//! everywhere) and loam's rule read with rows and columns swapped (a check of the layout);
//! then the smallest share Blizzard's named layer has of the largest, which sets how far off a
//! cell must be before `loam check` calls it stale.
//!
//! `cargo run --example ground_effect_rule`

use std::path::Path;

use loam::edit::derived::ground_effects::{self, CELLS, named_layer};
use loam::model::Chunk;

const TILES: [&str; 4] = [
    "warcraft-net/ADT/Northrend_37_25.adt",
    "wowserhq-format/map/continent4229.adt",
    "wowserhq-format/map/pvpzone3430.adt",
    "blizzardry/Azeroth_38_46.adt",
];

/// Shares under one plain rule: `upward` blends each layer over those below, else alpha is
/// the share and the base has the rest.
fn plain_shares(c: &Chunk, upward: bool) -> Vec<[f64; 4]> {
    let n = c.layers.len().min(4);
    let mut out = vec![[0.0; 4]; 64];
    for row in 0..64 {
        for col in 0..64 {
            let a = |i: usize| {
                c.layers[i]
                    .alpha
                    .as_ref()
                    .map_or(0.0, |m| m.get(row, col) as f64)
            };
            let cell = &mut out[row / 8 * 8 + col / 8];
            let mut left = 255.0;
            if upward {
                for i in (1..n).rev() {
                    cell[i] += a(i) * left / 255.0;
                    left -= a(i) * left / 255.0;
                }
            } else {
                for (i, share) in cell.iter_mut().enumerate().take(n).skip(1) {
                    *share += a(i);
                    left -= a(i);
                }
            }
            cell[0] += left.max(0.0);
        }
    }
    out
}

fn largest(s: &[f64; 4], n: usize) -> usize {
    (1..n.min(4)).fold(0, |b, i| if s[i] >= s[b] { i } else { b })
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    println!(
        "tile: cells | loam's rule | alpha as share | blended upward | loam's, transposed | smallest named/largest | stale cells"
    );
    for name in TILES {
        let map = loam::pipeline::open_map(&root.join(name))
            .expect("corpus tile")
            .map;
        let tile = map.tiles.values().next().expect("a tile");
        let (mut cells, mut loam, mut share, mut upward, mut transposed) =
            (0u64, 0u64, 0u64, 0u64, 0u64);
        let (mut smallest, mut stale) = (f64::INFINITY, 0usize);
        for c in tile.chunks.iter().filter(|c| c.layers.len() > 1) {
            let ours = ground_effects::texture_map(c);
            let shares = ground_effects::cell_shares(c);
            let (s, u) = (plain_shares(c, false), plain_shares(c, true));
            let n = c.layers.len();
            stale += ground_effects::stale_cells(c).len();
            for row in 0..CELLS {
                for col in 0..CELLS {
                    let stored = named_layer(&c.low_quality_texture_map, row, col);
                    let k = row * CELLS + col;
                    cells += 1;
                    loam += u64::from(named_layer(&ours, row, col) == stored);
                    transposed += u64::from(named_layer(&ours, col, row) == stored);
                    share += u64::from(largest(&s[k], n) == usize::from(stored));
                    upward += u64::from(largest(&u[k], n) == usize::from(stored));
                    let best = shares[k][largest(&shares[k], n)];
                    if usize::from(stored) < n && best > 0.0 {
                        smallest = smallest.min(shares[k][usize::from(stored)] / best);
                    }
                }
            }
        }
        let pct = |x: u64| 100.0 * x as f64 / cells.max(1) as f64;
        println!(
            "{name}: {cells} | {:.2}% | {:.2}% | {:.2}% | {:.2}% | {:.3} | {stale}",
            pct(loam),
            pct(share),
            pct(upward),
            pct(transposed),
            smallest
        );
    }
}
