//! The one runner of scripted operations (an `OpsFile`'s list), shared by the editor (File ▸
//! apply, the screenshot command's `--apply`) and `loam apply`: before each operation the
//! tiles it reaches are read, so that it does on a streamed map what it does on the whole map
//! (no seams at the edge of what was loaded, the object found wherever it is); then it runs as
//! one undo step.
//!
//! Not for: what an operation does (see `edit::ops`) or printing and saving (the callers).

use std::collections::{BTreeMap, BTreeSet};

use crate::edit::History;
use crate::edit::ops::{self, OpContext, Operation};
use crate::edit::outcome::OpResult;
use crate::model::{Map, TileCoord};
use crate::pipeline::source::{TileSource, read_into};

use super::session::Session;

/// What operations run on: a map that may hold only some of its tiles, and reads more.
pub trait OpTarget {
    /// The map in memory.
    fn map(&mut self) -> &mut Map;
    /// Reads those of `wanted` that are on disk, not in memory and not failed before; true
    /// when it tried any (a tile is tried once).
    fn load(&mut self, wanted: &[TileCoord]) -> bool;
}

/// A map held whole: nothing more to read.
impl OpTarget for Map {
    fn map(&mut self) -> &mut Map {
        self
    }

    fn load(&mut self, _: &[TileCoord]) -> bool {
        false
    }
}

/// The editor's open map, streamed from its source.
impl OpTarget for Session {
    fn map(&mut self) -> &mut Map {
        &mut self.map
    }

    fn load(&mut self, wanted: &[TileCoord]) -> bool {
        let wanted: Vec<TileCoord> = wanted
            .iter()
            .filter(|c| !self.failed.contains_key(c))
            .copied()
            .collect();
        self.load_now(&wanted) > 0
    }
}

/// A map header with the tiles read so far from a tile source (`loam apply` on a streamed
/// map); tiles that cannot be read are listed in `failed`.
pub struct Streamed<'a> {
    /// The map in memory.
    pub map: &'a mut Map,
    /// Where its tiles are read from.
    pub tiles: &'a TileSource,
    /// Tiles that could not be read, with the reason.
    pub failed: &'a mut BTreeMap<TileCoord, String>,
}

impl OpTarget for Streamed<'_> {
    fn map(&mut self) -> &mut Map {
        self.map
    }

    fn load(&mut self, wanted: &[TileCoord]) -> bool {
        let wanted: BTreeSet<TileCoord> = wanted
            .iter()
            .filter(|c| {
                self.tiles.file_of(**c).is_some()
                    && !self.map.tiles.contains_key(c)
                    && !self.failed.contains_key(c)
            })
            .copied()
            .collect();
        let wanted: Vec<TileCoord> = wanted.into_iter().collect();
        self.failed.extend(read_into(self.map, self.tiles, &wanted));
        !wanted.is_empty()
    }
}

/// A script: its operations and what they need besides the map.
pub struct Script<'a> {
    /// The operations, in order.
    pub ops: &'a [Operation],
    /// Model boxes, uids, the liquid style and the image reader.
    pub cx: OpContext<'a>,
}

/// Runs the script's operations in order on `target`, each one undo step in `history`, each
/// after reading the tiles it reaches; `each(i, result)` sees every outcome and stops the run
/// by returning false. Returns true when any tile was read on the way.
pub fn run(
    target: &mut impl OpTarget,
    script: &Script,
    history: &mut History,
    mut each: impl FnMut(usize, Result<OpResult, String>) -> bool,
) -> bool {
    let mut loaded = false;
    for (i, op) in script.ops.iter().enumerate() {
        // What an object operation reaches shows once its object is in memory: ask again
        // until nothing new is read.
        loop {
            let wanted = op.reach(target.map(), script.cx.uids.on_disk, script.cx.model_box);
            if !target.load(&wanted) {
                break;
            }
            loaded = true;
        }
        let result = ops::run(target.map(), op, history, &script.cx);
        if !each(i, result) {
            break;
        }
    }
    loaded
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::objects::NewUids;
    use crate::edit::terrain::liquid::LiquidStyle;
    use crate::model::Tile;

    /// A map whose tiles are read from `disk` as the runner asks, counting the reads.
    struct Lazy {
        map: Map,
        disk: BTreeMap<TileCoord, Tile>,
        reads: usize,
    }

    impl OpTarget for Lazy {
        fn map(&mut self) -> &mut Map {
            &mut self.map
        }

        fn load(&mut self, wanted: &[TileCoord]) -> bool {
            let mut tried = false;
            for c in wanted {
                if let Some(t) = self.disk.remove(c) {
                    self.map.tiles.insert(*c, t);
                    self.reads += 1;
                    tried = true;
                }
            }
            tried
        }
    }

    fn raise_at(p: [f64; 2]) -> String {
        format!(
            r#"{{"tool": "raise", "points": [[{}, {}]], "radius": 20, "strength": 4}}"#,
            p[0], p[1]
        )
    }

    /// Runs `count` raises at `p` on `target` with no models and no uids on disk; `each`
    /// answers each outcome. Returns what `run` returned and the history.
    fn run_raises(
        target: &mut impl OpTarget,
        p: [f64; 2],
        count: usize,
        each: impl FnMut(usize, Result<OpResult, String>) -> bool,
    ) -> (bool, History) {
        let ops: Vec<String> = (0..count).map(|_| raise_at(p)).collect();
        let file = ops::parse(&format!(r#"{{"ops": [{}]}}"#, ops.join(", "))).unwrap();
        let no_box = |_: &str| None;
        let uids = NewUids {
            range: None,
            on_disk: None,
        };
        let no_image = |p: &str| Err(format!("no image {p}"));
        let script = Script {
            ops: &file.ops,
            cx: OpContext {
                model_box: &no_box,
                uids: &uids,
                style: LiquidStyle::default(),
                read_image: &no_image,
            },
        };
        let mut history = History::default();
        let loaded = run(target, &script, &mut history, each);
        (loaded, history)
    }

    #[test]
    fn an_operation_reads_the_tiles_it_reaches_before_it_runs_and_each_is_one_step() {
        let coord = TileCoord::new(31, 40).unwrap();
        let [nx, ny] = coord.north_west();
        let inside = [nx - 200.0, ny - 200.0];
        let mut target = Lazy {
            map: Map::new("Runner"),
            disk: BTreeMap::from([(coord, Tile::flat(coord, "a.blp", 0.0))]),
            reads: 0,
        };
        let mut seen = Vec::new();
        let (loaded, history) = run_raises(&mut target, inside, 2, |i, r| {
            seen.push((i, r.map(|r| r.tiles)));
            true
        });
        assert!(loaded, "the tile under the brush was read");
        assert_eq!(target.reads, 1, "read once, not once per operation");
        assert_eq!(seen, vec![(0, Ok(vec![coord])), (1, Ok(vec![coord]))]);
        assert_eq!(history.labels().0.len(), 2, "one undo step per operation");
        let h = crate::edit::lattice::height_at(&target.map, inside[0], inside[1]).unwrap();
        assert!(h > 4.0, "both raises landed: {h}");
    }

    #[test]
    fn a_whole_map_reads_nothing_and_a_false_answer_stops_the_run() {
        let coord = TileCoord::new(31, 40).unwrap();
        let [nx, ny] = coord.north_west();
        let mut map = Map::new("Runner");
        map.tiles.insert(coord, Tile::flat(coord, "a.blp", 0.0));
        let mut ran = 0;
        let (loaded, history) = run_raises(&mut map, [nx - 100.0, ny - 100.0], 3, |_, _| {
            ran += 1;
            ran < 2
        });
        assert!(!loaded);
        assert_eq!(ran, 2, "the run stopped after the second operation");
        assert_eq!(history.labels().0.len(), 2);
    }
}
