//! The map's placed objects as the user sees them: one per uniqueId, whatever how many tiles
//! list it, with its model path and where it stands in world space.
//!
//! Tiles store placements per file (MDDF/MODF with name indices into MMDX/MWMO); an object
//! crossing a tile border is listed by every tile it touches under the same uniqueId, and the
//! client draws it once. [`collect`] gives that once-per-uid view for drawing and, later,
//! for selecting; [`placements`] goes through a tile's records of either kind alike.
//!
//! Not for: file records (see `placement`) or drawing (see `render`).

use std::collections::{BTreeMap, HashSet};

use super::TileCoord;
use super::map::Map;
use super::placement::{DoodadPlacement, WmoPlacement};
use super::tile::Tile;

/// Each uniqueId in a map's tiles on disk, with the tiles listing it (in the order read): what
/// a partly loaded map needs to give new objects unused uids and to load every tile an object
/// edit reaches.
pub type UidTiles = BTreeMap<u32, Vec<TileCoord>>;

/// Doodad (M2/MDX) or map object (WMO): the two uniqueId spaces the client keeps apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectKind {
    /// An M2 or MDX model (MDDF).
    Doodad,
    /// A WMO (MODF).
    Wmo,
}

/// One placed object.
#[derive(Debug, Clone, PartialEq)]
pub struct MapObject {
    /// Doodad or WMO.
    pub kind: ObjectKind,
    /// Map-wide unique id.
    pub unique_id: u32,
    /// Model path as the tile names it; `None` when the record's name index points past the
    /// tile's name list (a damaged or hand-edited file), which is drawn as a placeholder.
    pub model: Option<String>,
    /// World position (x north, y west, z up).
    pub position: [f64; 3],
    /// Rotation in degrees as the record stores it (see `coords::placement_matrix`).
    pub rotation: [f32; 3],
    /// Scale factor (doodads: record / 1024; WMOs: 1 before Legion).
    pub scale: f32,
    /// The WMO doodad set to show (WMOs only).
    pub doodad_set: u16,
    /// World-space box the record declares (WMOs only): min, max.
    pub record_bounds: Option<([f64; 3], [f64; 3])>,
    /// The first loaded tile that lists it.
    pub tile: TileCoord,
}

/// Every object of the loaded tiles (and a WMO-only map's global WMO), once per
/// (kind, uniqueId): the first tile in row order that lists a uid gives its record. Doodads
/// come first, then WMOs, each in tile order then record order.
pub fn collect(map: &Map) -> Vec<MapObject> {
    let mut seen: HashSet<(ObjectKind, u32)> = HashSet::new();
    let mut out = Vec::new();
    if let Some(g) = &map.global_wmo {
        let p = &g.placement;
        seen.insert((ObjectKind::Wmo, p.unique_id));
        out.push(MapObject {
            kind: ObjectKind::Wmo,
            unique_id: p.unique_id,
            model: Some(g.name.clone()),
            position: p.position,
            rotation: p.rotation,
            scale: 1.0,
            doodad_set: p.doodad_set,
            record_bounds: Some((p.bounds_min, p.bounds_max)),
            tile: TileCoord::new(0, 0).expect("0, 0 is on the map"),
        });
    }
    for kind in [ObjectKind::Doodad, ObjectKind::Wmo] {
        for tile in map.tiles_by_row() {
            for p in placements(tile, kind) {
                if !seen.insert((kind, p.unique_id())) {
                    continue;
                }
                let (scale, doodad_set, record_bounds) = match p {
                    Placement::Doodad(d) => (d.scale_factor(), 0, None),
                    // 3.3.5 and earlier pad this field (usually 0): WMOs are never scaled there.
                    Placement::Wmo(w) => (1.0, w.doodad_set, Some((w.bounds_min, w.bounds_max))),
                };
                out.push(MapObject {
                    kind,
                    unique_id: p.unique_id(),
                    model: p.model(tile).cloned(),
                    position: p.position(),
                    rotation: p.rotation(),
                    scale,
                    doodad_set,
                    record_bounds,
                    tile: tile.coord,
                });
            }
        }
    }
    out
}

/// One placement record of a tile, doodad or WMO, for code that treats both kinds alike.
#[derive(Debug, Clone, Copy)]
pub enum Placement<'a> {
    /// An MDDF record.
    Doodad(&'a DoodadPlacement),
    /// A MODF record.
    Wmo(&'a WmoPlacement),
}

impl<'a> Placement<'a> {
    /// Doodad or WMO.
    pub fn kind(self) -> ObjectKind {
        match self {
            Placement::Doodad(_) => ObjectKind::Doodad,
            Placement::Wmo(_) => ObjectKind::Wmo,
        }
    }

    /// The record's uniqueId.
    pub fn unique_id(self) -> u32 {
        match self {
            Placement::Doodad(d) => d.unique_id,
            Placement::Wmo(w) => w.unique_id,
        }
    }

    /// The record's index into the tile's model names of its kind.
    pub fn name_index(self) -> u32 {
        match self {
            Placement::Doodad(d) => d.name_index,
            Placement::Wmo(w) => w.name_index,
        }
    }

    /// World position (x north, y west, z up).
    pub fn position(self) -> [f64; 3] {
        match self {
            Placement::Doodad(d) => d.position,
            Placement::Wmo(w) => w.position,
        }
    }

    /// Rotation in degrees, as the record stores it.
    pub fn rotation(self) -> [f32; 3] {
        match self {
            Placement::Doodad(d) => d.rotation,
            Placement::Wmo(w) => w.rotation,
        }
    }

    /// The model path the record names in `tile` (MMDX or MWMO), `None` when its name index
    /// points past the list.
    pub fn model(self, tile: &'a Tile) -> Option<&'a String> {
        match self {
            Placement::Doodad(d) => tile.doodad_names.get(d.name_index as usize),
            Placement::Wmo(w) => tile.wmo_names.get(w.name_index as usize),
        }
    }
}

/// The tile's records of `kind`, in record order.
pub fn placements(tile: &Tile, kind: ObjectKind) -> impl Iterator<Item = Placement<'_>> {
    let (doodads, wmos) = match kind {
        ObjectKind::Doodad => (&tile.doodads[..], &[][..]),
        ObjectKind::Wmo => (&[][..], &tile.wmos[..]),
    };
    doodads
        .iter()
        .map(Placement::Doodad)
        .chain(wmos.iter().map(Placement::Wmo))
}

/// A range of uniqueIds that one editor hands out (Settings ▸ uniqueId range): first and last,
/// inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UidRange {
    /// The first uid of the range.
    pub first: u32,
    /// The last uid of the range.
    pub last: u32,
}

impl UidRange {
    /// A range, refused when it is empty or starts at 0 (0 is no uid).
    pub fn new(first: u32, last: u32) -> Result<UidRange, String> {
        if first == 0 || last < first {
            return Err(format!("uniqueId range {first}-{last} is empty"));
        }
        Ok(UidRange { first, last })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DoodadPlacement, Tile, WmoPlacement};

    fn doodad(uid: u32, name_index: u32, x: f64) -> DoodadPlacement {
        DoodadPlacement {
            name_index,
            unique_id: uid,
            position: [x, 0.0, 5.0],
            rotation: [0.0, 90.0, 0.0],
            scale: 512,
            flags: 0,
        }
    }

    #[test]
    fn an_object_listed_by_two_tiles_is_one_object() {
        let mut map = Map::new("T");
        let mut a = Tile::flat(TileCoord::new(31, 31).unwrap(), "A.blp", 0.0);
        a.doodad_names = vec!["Tree.m2".into()];
        a.doodads = vec![doodad(7, 0, 1.0), doodad(8, 0, 2.0)];
        let mut b = Tile::flat(TileCoord::new(32, 31).unwrap(), "A.blp", 0.0);
        b.doodad_names = vec!["Other.m2".into(), "Tree.m2".into()];
        // uid 7 again (the same tree seen from the neighbour), and a bad name index.
        b.doodads = vec![doodad(7, 1, 1.0), doodad(9, 5, 3.0)];
        b.wmo_names = vec!["Inn.wmo".into()];
        b.wmos = vec![WmoPlacement {
            name_index: 0,
            // The same number as a doodad: the client keeps the two spaces apart.
            unique_id: 7,
            position: [1.0, 2.0, 3.0],
            rotation: [0.0; 3],
            bounds_min: [0.0; 3],
            bounds_max: [2.0, 4.0, 6.0],
            flags: 0,
            doodad_set: 1,
            name_set: 0,
            scale: 0,
        }];
        map.tiles.insert(a.coord, a);
        map.tiles.insert(b.coord, b);
        let objects = collect(&map);
        let uids: Vec<(ObjectKind, u32)> = objects.iter().map(|o| (o.kind, o.unique_id)).collect();
        assert_eq!(
            uids,
            [
                (ObjectKind::Doodad, 7),
                (ObjectKind::Doodad, 8),
                (ObjectKind::Doodad, 9),
                (ObjectKind::Wmo, 7)
            ]
        );
        assert_eq!(objects[0].model.as_deref(), Some("Tree.m2"));
        assert_eq!(objects[0].scale, 0.5);
        assert_eq!(objects[2].model, None, "name index 5 of 2 names");
        assert_eq!(objects[3].model.as_deref(), Some("Inn.wmo"));
        assert_eq!(objects[3].doodad_set, 1);
        assert_eq!(objects[3].scale, 1.0, "the padding word is not a scale");
        assert_eq!(objects[3].record_bounds, Some(([0.0; 3], [2.0, 4.0, 6.0])));
    }
}
