//! uniqueId clashes: which placements share a uniqueId without being the same object, and the
//! repair that gives each later object a fresh one (`loam fix --uids`).
//!
//! An object crossing a tile border is listed by every tile it overlaps, each time with the same
//! uid, model and position; those listings are one object and are no clash. Two listings of one
//! kind with one uid but a different model or position are two objects the client would take
//! for one (it skips a uid it has already loaded), so one of them disappears in game.
//! [`same_object`] is the one rule for that; `loam check` and the fix both use it.
//!
//! Not for: choosing uids for new objects (`objects::next_unique_id`) or editing objects
//! (`objects`). The fix changes uids only: records keep their place, models, transforms and
//! MCRF entries, so the undo history is not involved (it runs on a map opened from disk).

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use crate::model::objects::placements;
use crate::model::{Map, ObjectKind, Tile, TileCoord};

/// One record of one tile, as the clash rule sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// The tile whose MDDF/MODF holds the record.
    pub tile: TileCoord,
    /// Doodad (MDDF) or WMO (MODF).
    pub kind: ObjectKind,
    /// The record's index in the tile's doodads or WMOs.
    pub record: usize,
    /// The record's uniqueId.
    pub unique_id: u32,
    /// The model path the record names ("" when its name index points past the list).
    pub model: String,
    /// World position (x north, y west, z up).
    pub position: [f64; 3],
}

impl Listing {
    /// What makes two listings of one kind and uid the same object: the model path ignoring
    /// case (the client's file lookup ignores it) and the position to a hundredth of a yard
    /// (tools that write one object into several tiles may round it differently in each).
    fn identity(&self) -> (String, [i64; 3]) {
        (
            self.model.to_ascii_lowercase(),
            self.position.map(|v| (v * 100.0).round() as i64),
        )
    }
}

/// True when two listings are the same object, listed twice (by two tiles it overlaps, or twice
/// by one): same kind, same uid, same model ignoring case, same position to 0.01 yd.
pub fn same_object(a: &Listing, b: &Listing) -> bool {
    a.kind == b.kind && a.unique_id == b.unique_id && a.identity() == b.identity()
}

/// Every doodad and WMO record of the loaded tiles: tiles in row order (MAIN's order, the order
/// the 0.5.3 file and `loam check` go through them), then doodads, then WMOs, in record order.
pub fn listings(map: &Map) -> Vec<Listing> {
    let mut tiles: Vec<_> = map.tiles.values().collect();
    tiles.sort_by_key(|t| t.coord.index());
    tiles.into_iter().flat_map(tile_listings).collect()
}

/// The doodad and then WMO records of one tile, in record order.
pub fn tile_listings(t: &Tile) -> Vec<Listing> {
    [ObjectKind::Doodad, ObjectKind::Wmo]
        .into_iter()
        .flat_map(|kind| placements(t, kind).enumerate())
        .map(|(record, p)| Listing {
            tile: t.coord,
            kind: p.kind(),
            record,
            unique_id: p.unique_id(),
            model: p.model(t).cloned().unwrap_or_default(),
            position: p.position(),
        })
        .collect()
}

/// A listing whose uid an earlier listing of a different object already holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Clash {
    /// The first listing (in [`listings`] order) of that kind and uid: the object keeping it.
    pub first: Listing,
    /// The later listing of another object.
    pub other: Listing,
}

/// Every clash of the loaded tiles, in [`listings`] order. An object that clashes and crosses
/// tiles is one clash per tile listing it.
pub fn clashes(map: &Map) -> Vec<Clash> {
    clashes_among(listings(map))
}

/// Every clash among `listings`, taken in the order given ([`listings`] order for a map).
pub fn clashes_among(listings: impl IntoIterator<Item = Listing>) -> Vec<Clash> {
    let mut finder = ClashFinder::default();
    listings.into_iter().for_each(|l| finder.add(l));
    finder.clashes
}

/// Finds clashes among listings given one at a time, in [`listings`] order, holding only the
/// first listing of each kind and uid: `loam check` goes through a map's tiles this way without
/// keeping their objects.
#[derive(Debug, Default)]
pub struct ClashFinder {
    first: HashMap<(ObjectKind, u32), Listing>,
    /// The clashes found so far.
    pub clashes: Vec<Clash>,
}

impl ClashFinder {
    /// Takes the next listing.
    pub fn add(&mut self, l: Listing) {
        match self.first.get(&(l.kind, l.unique_id)) {
            Some(f) if !same_object(f, &l) => self.clashes.push(Clash {
                first: f.clone(),
                other: l,
            }),
            Some(_) => {}
            None => {
                self.first.insert((l.kind, l.unique_id), l);
            }
        }
    }
}

/// One object [`renumber`] gave a new uid.
#[derive(Debug, Clone, PartialEq)]
pub struct Renumbered {
    /// Doodad or WMO.
    pub kind: ObjectKind,
    /// Its model path, as the first tile listing it names it.
    pub model: String,
    /// Its world position.
    pub position: [f64; 3],
    /// Every tile that lists it (row order); each now lists it under `new`.
    pub tiles: Vec<TileCoord>,
    /// The uid it shared with another object.
    pub old: u32,
    /// Its new uid.
    pub new: u32,
}

impl fmt::Display for Renumbered {
    /// "tile 31_31 doodad World\X.m2 at (x, y): uniqueId 5 -> 9001" ("tiles 31_31, 32_31 …"
    /// for an object several tiles list).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tiles: Vec<String> = self
            .tiles
            .iter()
            .map(|t| format!("{}_{}", t.x, t.y))
            .collect();
        write!(
            f,
            "{} {} {} {} at ({:.2}, {:.2}): uniqueId {} -> {}",
            if tiles.len() == 1 { "tile" } else { "tiles" },
            tiles.join(", "),
            match self.kind {
                ObjectKind::Doodad => "doodad",
                ObjectKind::Wmo => "WMO",
            },
            self.model,
            self.position[0],
            self.position[1],
            self.old,
            self.new
        )
    }
}

/// Gives every object that shares its uid with an earlier, different object (see [`clashes`])
/// a fresh uid above every uid of the map, the same one in every tile listing that object.
/// The first object keeps the uid. Returns what changed, in the order the new uids were given.
pub fn renumber(map: &mut Map) -> Vec<Renumbered> {
    let used = listings(map)
        .iter()
        .map(|l| l.unique_id)
        .chain(map.global_wmo.iter().map(|g| g.placement.unique_id))
        .collect();
    let plan = Renumbering::plan(clashes(map), used);
    for tile in map.tiles.values_mut() {
        plan.apply(tile);
    }
    plan.changes
}

/// The new uids a map's clashes call for, worked out from its clashes and the uids it uses
/// (its records' and its global WMO's), so that tiles can be renumbered one at a time
/// ([`Renumbering::apply`]) without holding the map (`loam fix --uids` streams).
#[derive(Debug, Clone, Default)]
pub struct Renumbering {
    /// What changes, in the order the new uids were given.
    pub changes: Vec<Renumbered>,
    /// The new uid of each renumbered record: (tile, kind, record) → uid.
    assignments: HashMap<(TileCoord, ObjectKind, usize), u32>,
}

impl Renumbering {
    /// The renumbering of `clashes` (in [`clashes`] order) in a map whose records and global
    /// WMO use the uids `used`.
    pub fn plan(clashes: Vec<Clash>, used: BTreeSet<u32>) -> Renumbering {
        let mut changes: Vec<Renumbered> = Vec::new();
        // Listings of one renumbered object found so far, to give its other tiles the same uid.
        let mut given: Vec<(Listing, usize)> = Vec::new();
        let mut fresh = FreshIds::new(used);
        let mut assignments = HashMap::new();
        for Clash { other, .. } in clashes {
            let change = match given.iter().find(|(l, _)| same_object(l, &other)) {
                Some(&(_, k)) => {
                    changes[k].tiles.push(other.tile);
                    k
                }
                None => {
                    changes.push(Renumbered {
                        kind: other.kind,
                        model: other.model.clone(),
                        position: other.position,
                        tiles: vec![other.tile],
                        old: other.unique_id,
                        new: fresh.next(),
                    });
                    given.push((other.clone(), changes.len() - 1));
                    changes.len() - 1
                }
            };
            assignments.insert((other.tile, other.kind, other.record), changes[change].new);
        }
        for c in &mut changes {
            c.tiles.dedup();
        }
        Renumbering {
            changes,
            assignments,
        }
    }

    /// Gives `tile`'s renumbered records their new uids.
    pub fn apply(&self, tile: &mut Tile) {
        if self.assignments.is_empty() {
            return;
        }
        let uid = |kind, record| self.assignments.get(&(tile.coord, kind, record)).copied();
        for (record, d) in tile.doodads.iter_mut().enumerate() {
            if let Some(u) = uid(ObjectKind::Doodad, record) {
                d.unique_id = u;
            }
        }
        for (record, w) in tile.wmos.iter_mut().enumerate() {
            if let Some(u) = uid(ObjectKind::Wmo, record) {
                w.unique_id = u;
            }
        }
    }
}

/// Hands out uids no record of the map uses: counting up from above the largest, and, should
/// that reach `u32::MAX`, the smallest unused ones (a map can never use them all).
struct FreshIds {
    next: Option<u32>,
    used: BTreeSet<u32>,
}

impl FreshIds {
    fn new(used: BTreeSet<u32>) -> FreshIds {
        // As the editor's `objects::next_unique_id`: above every uid, saturating at u32::MAX.
        let top = used.last().map_or(1, |u| u.saturating_add(1));
        FreshIds {
            next: (!used.contains(&top)).then_some(top),
            used,
        }
    }

    fn next(&mut self) -> u32 {
        let uid = match self.next {
            Some(u) => {
                self.next = u.checked_add(1);
                u
            }
            None => (1..=u32::MAX)
                .find(|u| !self.used.contains(u))
                .expect("a map has fewer than 2^32 records"),
        };
        self.used.insert(uid);
        uid
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DoodadPlacement, Tile, WmoPlacement};

    fn doodad(name_index: u32, uid: u32, x: f64) -> DoodadPlacement {
        DoodadPlacement {
            name_index,
            unique_id: uid,
            position: [x, 100.0, 5.0],
            rotation: [0.0; 3],
            scale: 1024,
            flags: 0,
        }
    }

    fn wmo(uid: u32, x: f64) -> WmoPlacement {
        WmoPlacement {
            name_index: 0,
            unique_id: uid,
            position: [x, 0.0, 0.0],
            rotation: [0.0; 3],
            bounds_min: [0.0; 3],
            bounds_max: [1.0; 3],
            flags: 0,
            doodad_set: 0,
            name_set: 0,
            scale: 0,
        }
    }

    fn tile(x: usize, y: usize) -> Tile {
        let mut t = Tile::flat(TileCoord::new(x, y).unwrap(), "A.blp", 0.0);
        t.doodad_names = vec!["World\\Tree.m2".into(), "World\\Rock.m2".into()];
        t.wmo_names = vec!["World\\Inn.wmo".into()];
        t
    }

    fn uids(map: &Map, x: usize, y: usize) -> (Vec<u32>, Vec<u32>) {
        let t = &map.tiles[&TileCoord::new(x, y).unwrap()];
        (
            t.doodads.iter().map(|d| d.unique_id).collect(),
            t.wmos.iter().map(|w| w.unique_id).collect(),
        )
    }

    /// Tile (31, 31) and its east neighbour (32, 31), and (31, 32) south of it, which comes
    /// after (32, 31) in row order though before it in the tile map's (column-first) order.
    fn clashing_map() -> Map {
        let mut map = Map::new("T");
        let mut a = tile(31, 31);
        // uid 5: a tree, listed again by the east tile (one object); a rock with uid 5 in the
        // same tile (another object); uid 7: a WMO, and a doodad 7 (another space, no clash).
        a.doodads = vec![doodad(0, 5, 10.0), doodad(1, 5, 20.0), doodad(0, 7, 30.0)];
        a.wmos = vec![wmo(7, 1.0)];
        let mut east = tile(32, 31);
        // The tree again in other case and within rounding; the rock again (still a clash, and
        // the same object as the rock in `a`); a third object with uid 5.
        east.doodad_names[0] = "WORLD\\TREE.M2".into();
        east.doodads = vec![doodad(0, 5, 10.001), doodad(1, 5, 20.0), doodad(1, 5, 40.0)];
        east.wmos = vec![wmo(7, 2.0)];
        let mut south = tile(31, 32);
        south.doodads = vec![doodad(0, 900, 50.0)];
        for t in [a, east, south] {
            map.tiles.insert(t.coord, t);
        }
        map
    }

    #[test]
    fn one_object_in_two_tiles_is_no_clash_but_a_different_model_or_place_is() {
        let map = clashing_map();
        let found: Vec<(TileCoord, ObjectKind, usize)> = clashes(&map)
            .iter()
            .map(|c| (c.other.tile, c.other.kind, c.other.record))
            .collect();
        let (a, east) = (
            TileCoord::new(31, 31).unwrap(),
            TileCoord::new(32, 31).unwrap(),
        );
        assert_eq!(
            found,
            [
                (a, ObjectKind::Doodad, 1),
                (east, ObjectKind::Doodad, 1),
                (east, ObjectKind::Doodad, 2),
                (east, ObjectKind::Wmo, 0),
            ]
        );
    }

    #[test]
    fn renumbering_keeps_the_first_and_gives_each_other_object_one_fresh_uid() {
        let mut map = clashing_map();
        let changes = renumber(&mut map);
        // The largest uid is 900 (in the south tile, which row order visits last).
        assert_eq!(
            changes
                .iter()
                .map(|c| (c.kind, c.old, c.new, c.tiles.len()))
                .collect::<Vec<_>>(),
            [
                (ObjectKind::Doodad, 5, 901, 2),
                (ObjectKind::Doodad, 5, 902, 1),
                (ObjectKind::Wmo, 7, 903, 1),
            ]
        );
        assert_eq!(uids(&map, 31, 31), (vec![5, 901, 7], vec![7]));
        assert_eq!(uids(&map, 32, 31), (vec![5, 901, 902], vec![903]));
        assert_eq!(uids(&map, 31, 32), (vec![900], vec![]));
        assert!(clashes(&map).is_empty());
        assert_eq!(
            changes[0].to_string(),
            "tiles 31_31, 32_31 doodad World\\Rock.m2 at (20.00, 100.00): uniqueId 5 -> 901"
        );
        assert_eq!(
            changes[2].to_string(),
            "tile 32_31 WMO World\\Inn.wmo at (2.00, 0.00): uniqueId 7 -> 903"
        );
        // Nothing left to do: a second run changes nothing.
        assert!(renumber(&mut map).is_empty());
    }

    #[test]
    fn the_first_in_row_order_keeps_the_uid() {
        let mut map = Map::new("T");
        // (40, 10) is before (10, 20) in row order, after it in column order.
        let mut late_column = tile(40, 10);
        late_column.doodads = vec![doodad(0, 3, 1.0)];
        let mut early_column = tile(10, 20);
        early_column.doodads = vec![doodad(0, 3, 2.0)];
        for t in [late_column, early_column] {
            map.tiles.insert(t.coord, t);
        }
        let changes = renumber(&mut map);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].tiles, [TileCoord::new(10, 20).unwrap()]);
        assert_eq!(uids(&map, 40, 10).0, [3]);
        assert_eq!(uids(&map, 10, 20).0, [4]);
    }

    #[test]
    fn fresh_uids_wrap_to_unused_ones_at_the_top_of_the_range() {
        let mut map = Map::new("T");
        let mut t = tile(1, 1);
        t.doodads = vec![
            doodad(0, u32::MAX, 1.0),
            doodad(0, u32::MAX, 2.0),
            doodad(0, 1, 3.0),
            doodad(0, 1, 4.0),
        ];
        map.tiles.insert(t.coord, t);
        renumber(&mut map);
        assert_eq!(uids(&map, 1, 1).0, [u32::MAX, 2, 1, 3]);
    }
}
