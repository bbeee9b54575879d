//! Object edits: placing, moving, turning, scaling and deleting doodads and WMOs, each one undo
//! step in the same history as the brushes.
//!
//! The user edits one object per uniqueId; the files list it in every tile its bounds overlap
//! (MDDF/MODF, same uid and transform) and in the MCRF list of every chunk it overlaps. An edit
//! takes the object out of every loaded tile that lists it and writes it into exactly the tiles
//! and chunks its new world box overlaps. Only those tiles change: records of other objects keep
//! their order and their MCRF membership as the file had them (a full rebuild would need every
//! other model's bounds, and would re-derive what Blizzard's tools wrote from real bounds with
//! loam's stand-in boxes for models it cannot find).
//!
//! Not for: choosing what to edit (the ui, `loam apply`) or reading models (the caller gives
//! each model's box, or `None` for a missing model, which gets [`MISSING_DOODAD_BOX`]).
//!
//! The room: this module holds the object edits themselves; beside it, [`object_ops`] (the
//! object operations of `loam apply`), [`transform`] (pure transforms of placement records),
//! [`uids`] (uniqueId clashes and their repair), [`scatter`] (the scatter brush's maths) and
//! [`scatter_ops`] (the scatter and erase strokes and operations).
//!
//! Not for: the objects as the model holds them (`model::objects`) or drawing them (`render`).

pub mod object_ops;
pub mod scatter;
pub mod scatter_ops;
pub mod transform;
pub mod uids;

use std::collections::BTreeSet;

use super::stroke::{ObjectsChange, TerrainEdit, TileObjects};
use crate::edit::lattice;
use crate::model::coords::{CHUNKS_PER_SIDE, placed_box};
pub use crate::model::coords::{chunks_overlapping, tiles_overlapping};
pub use crate::model::objects::UidRange;
use crate::model::objects::{Placement, placements};
use crate::model::placement::doodad_scale_factor;
use crate::model::{DoodadPlacement, Map, ObjectKind, Tile, TileCoord, WmoPlacement};

/// A model-space box (min, max), as model files declare their bounds.
pub type ModelBox = ([f32; 3], [f32; 3]);

/// The box of a doodad whose model cannot be read: 2 yards wide and tall, standing on the
/// placement point (the MDDF record has no extents of its own). The view draws the same box.
pub const MISSING_DOODAD_BOX: ModelBox = ([-1.0, -1.0, 0.0], [1.0, 1.0, 2.0]);

/// The box of a WMO whose model cannot be read, when no record gives one: 10 yards each way.
pub const MISSING_WMO_BOX: ModelBox = ([-10.0, -10.0, 0.0], [10.0, 10.0, 20.0]);

/// One object as the user edits it: what a tile's record says, with the model named.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectRecord {
    /// Doodad or WMO.
    pub kind: ObjectKind,
    /// Model path as the tiles name it.
    pub model: String,
    /// Map-wide unique id.
    pub unique_id: u32,
    /// World position (x north, y west, z up).
    pub position: [f64; 3],
    /// Rotation in degrees as the record stores it (see `coords::placement_matrix`).
    pub rotation: [f32; 3],
    /// Doodads: scale with 1024 = 1. WMOs: the record's last word (padding before Legion).
    pub scale: u16,
    /// MDDF/MODF flags.
    pub flags: u16,
    /// WMOs: the doodad set shown.
    pub doodad_set: u16,
    /// WMOs: the name set.
    pub name_set: u16,
}

impl ObjectRecord {
    /// The scale factor the placement matrix uses (WMOs are never scaled before Legion).
    pub fn scale_factor(&self) -> f32 {
        match self.kind {
            ObjectKind::Doodad => doodad_scale_factor(self.scale) as f32,
            ObjectKind::Wmo => 1.0,
        }
    }

    /// The world box of the object with model box `model` (`None`: the model is missing).
    pub fn world_box(&self, model: Option<ModelBox>) -> ([f64; 3], [f64; 3]) {
        let model_box = model.unwrap_or(match self.kind {
            ObjectKind::Doodad => MISSING_DOODAD_BOX,
            ObjectKind::Wmo => MISSING_WMO_BOX,
        });
        placed_box(model_box, self.position, self.rotation, self.scale_factor())
    }
}

/// The object with this kind and uid as the first loaded tile (in row order) lists it.
pub fn find(map: &Map, kind: ObjectKind, unique_id: u32) -> Option<ObjectRecord> {
    map.tiles_by_row()
        .into_iter()
        .find_map(|t| record_in(t, kind, unique_id))
}

/// The object's record in one tile, if the tile lists it.
fn record_in(tile: &Tile, kind: ObjectKind, unique_id: u32) -> Option<ObjectRecord> {
    let p = placements(tile, kind).find(|p| p.unique_id() == unique_id)?;
    Some(record_of(tile, p))
}

/// The record of placement `p` of `tile` (its model named; an empty name when the record's
/// index points past the tile's list).
pub fn record_of(tile: &Tile, p: Placement<'_>) -> ObjectRecord {
    let (scale, flags, doodad_set, name_set) = match p {
        Placement::Doodad(d) => (d.scale, d.flags, 0, 0),
        Placement::Wmo(w) => (w.scale, w.flags, w.doodad_set, w.name_set),
    };
    ObjectRecord {
        kind: p.kind(),
        model: p.model(tile).cloned().unwrap_or_default(),
        unique_id: p.unique_id(),
        position: p.position(),
        rotation: p.rotation(),
        scale,
        flags,
        doodad_set,
        name_set,
    }
}

/// Where new objects' uniqueIds come from: above every uid the map uses (in memory, and in its
/// tiles still on disk when the map is partly loaded), inside `range` when the map has one.
#[derive(Debug, Clone, Copy, Default)]
pub struct NewUids<'a> {
    /// The map's uniqueId range (Settings ▸ uniqueId range), if any.
    pub range: Option<UidRange>,
    /// The uids of the map's tiles on disk and the tiles listing each, when not every tile
    /// is in memory; `None` when the map is whole in memory.
    pub on_disk: Option<&'a crate::model::objects::UidTiles>,
}

impl NewUids<'_> {
    /// The uids used by tiles of `map` that are not in memory (those in memory speak for
    /// themselves, edits included).
    pub fn elsewhere<'m>(&'m self, map: &'m Map) -> impl Iterator<Item = u32> + 'm {
        self.on_disk
            .into_iter()
            .flatten()
            .filter(|(_, tiles)| tiles.iter().any(|c| !map.tiles.contains_key(c)))
            .map(|(&uid, _)| uid)
    }

    /// The uid a new object of `map` takes ([`next_unique_id_in`] over the uids in memory
    /// and [`NewUids::elsewhere`]).
    pub fn next(&self, map: &Map) -> Result<u32, String> {
        let in_memory = unique_ids(map).into_iter().map(|(_, u)| u);
        next_unique_id_in(in_memory.chain(self.elsewhere(map)), self.range)
    }
}

/// The uid a new object takes: above every uid in `used` (the map's, on disk and in memory),
/// or, with a range, above every used uid inside it and from its start; refused when the
/// range is used up.
pub fn next_unique_id_in(
    used: impl IntoIterator<Item = u32>,
    range: Option<UidRange>,
) -> Result<u32, String> {
    match range {
        None => {
            let top = used.into_iter().max().unwrap_or(0);
            top.checked_add(1)
                .ok_or_else(|| "every uniqueId is used".to_string())
        }
        Some(r) => {
            let top = used
                .into_iter()
                .filter(|u| (r.first..=r.last).contains(u))
                .max();
            match top {
                None => Ok(r.first),
                Some(t) if t < r.last => Ok(t + 1),
                Some(_) => Err(format!(
                    "the uniqueId range {}-{} is used up: choose another in Settings",
                    r.first, r.last
                )),
            }
        }
    }
}

/// A uniqueId above every one the map's loaded tiles use (doodads and WMOs alike, so that one
/// number never names two objects even in tools that keep one space).
pub fn next_unique_id(map: &Map) -> u32 {
    let top = map
        .tiles
        .values()
        .flat_map(|t| {
            t.doodads
                .iter()
                .map(|d| d.unique_id)
                .chain(t.wmos.iter().map(|w| w.unique_id))
        })
        .chain(map.global_wmo.iter().map(|g| g.placement.unique_id))
        .max();
    top.map_or(1, |u| u.saturating_add(1))
}

/// Collects the object state of each tile before an edit first changes it.
#[derive(Debug, Default)]
pub struct ObjectStroke {
    before: Vec<(TileCoord, TileObjects)>,
}

impl ObjectStroke {
    /// Remembers a tile's objects as they are now, unless already remembered.
    fn touch(&mut self, map: &Map, coord: TileCoord) {
        if self.before.iter().any(|(c, _)| *c == coord) {
            return;
        }
        if let Some(t) = map.tiles.get(&coord) {
            self.before.push((coord, TileObjects::of(t)));
        }
    }

    /// Puts every touched tile's objects back as they were before the stroke (a cancelled
    /// interactive edit), recording nothing.
    pub fn revert(self, map: &mut Map) {
        for (coord, before) in self.before {
            if let Some(t) = map.tiles.get_mut(&coord) {
                before.restore(t);
            }
        }
    }

    /// The undo step for everything done since the stroke began, labelled `label`; `None`
    /// when nothing changed.
    pub fn finish(self, map: &Map, label: &str) -> Option<TerrainEdit> {
        let objects: Vec<ObjectsChange> = self
            .before
            .into_iter()
            .filter_map(|(tile, before)| {
                let after = TileObjects::of(map.tiles.get(&tile)?);
                (after != before).then_some(ObjectsChange {
                    tile,
                    before,
                    after,
                })
            })
            .collect();
        if objects.is_empty() {
            return None;
        }
        Some(TerrainEdit {
            label: label.to_string(),
            chunks: Vec::new(),
            textures: Vec::new(),
            map_flags: None,
            objects,
            bounds: Vec::new(),
            tables: Vec::new(),
            already_applied: true,
        })
    }
}

/// What an edit did to the tiles.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Placed {
    /// Tiles that now list the object.
    pub tiles: Vec<TileCoord>,
    /// Tiles the object's box overlaps that are not loaded (or have no file): they do not
    /// list it.
    pub skipped: Vec<TileCoord>,
}

/// Takes the object (kind, uid) out of every loaded tile that lists it; true when one did.
pub fn remove(map: &mut Map, stroke: &mut ObjectStroke, kind: ObjectKind, unique_id: u32) -> bool {
    let listing: Vec<TileCoord> = map
        .tiles
        .values()
        .filter(|t| record_in(t, kind, unique_id).is_some())
        .map(|t| t.coord)
        .collect();
    for coord in &listing {
        stroke.touch(map, *coord);
        if let Some(t) = map.tiles.get_mut(coord) {
            remove_from_tile(t, kind, unique_id);
        }
    }
    !listing.is_empty()
}

/// Writes `object` into every loaded tile its box overlaps (taking out whatever record of the
/// same kind and uid was there), with the MCRF entries of the chunks it overlaps. `model` is
/// the model's own box, `None` when it cannot be read.
pub fn put(
    map: &mut Map,
    stroke: &mut ObjectStroke,
    object: &ObjectRecord,
    model: Option<ModelBox>,
) -> Placed {
    remove(map, stroke, object.kind, object.unique_id);
    put_new(map, stroke, object, model)
}

/// As [`put`], for an object whose uid no loaded tile lists yet (a new one, its uid fresh from
/// [`next_unique_id_in`]): it skips looking for an old record to take out, which a brush that
/// places thousands of objects in one dab cannot afford (each look scans every record).
pub fn put_new(
    map: &mut Map,
    stroke: &mut ObjectStroke,
    object: &ObjectRecord,
    model: Option<ModelBox>,
) -> Placed {
    let world = object.world_box(model);
    let mut placed = Placed::default();
    for coord in tiles_overlapping(world) {
        if !map.tiles.contains_key(&coord) {
            placed.skipped.push(coord);
            continue;
        }
        stroke.touch(map, coord);
        if let Some(t) = map.tiles.get_mut(&coord) {
            add_to_tile(t, object, world);
            placed.tiles.push(coord);
        }
    }
    placed
}

/// Appends the object's record to a tile and its index to the chunks its box overlaps.
fn add_to_tile(tile: &mut Tile, o: &ObjectRecord, world: ([f64; 3], [f64; 3])) {
    let chunks = chunks_overlapping(tile.coord, world);
    let names = match o.kind {
        ObjectKind::Doodad => &mut tile.doodad_names,
        ObjectKind::Wmo => &mut tile.wmo_names,
    };
    // Paths match without regard to case, as in the client: one name per model.
    let name_index = match names.iter().position(|n| n.eq_ignore_ascii_case(&o.model)) {
        Some(i) => i,
        None => {
            names.push(o.model.clone());
            names.len() - 1
        }
    } as u32;
    match o.kind {
        ObjectKind::Doodad => {
            let index = tile.doodads.len() as u32;
            tile.doodads.push(DoodadPlacement {
                name_index,
                unique_id: o.unique_id,
                position: o.position,
                rotation: o.rotation,
                scale: o.scale,
                flags: o.flags,
            });
            for c in chunks {
                tile.chunks[c].doodad_refs.push(index);
            }
        }
        ObjectKind::Wmo => {
            let index = tile.wmos.len() as u32;
            tile.wmos.push(WmoPlacement {
                name_index,
                unique_id: o.unique_id,
                position: o.position,
                rotation: o.rotation,
                bounds_min: world.0,
                bounds_max: world.1,
                flags: o.flags,
                doodad_set: o.doodad_set,
                name_set: o.name_set,
                scale: o.scale,
            });
            for c in chunks {
                tile.chunks[c].wmo_refs.push(index);
            }
        }
    }
}

/// Removes every record of (kind, uid) from a tile: later records move down one place and
/// every chunk's MCRF list follows; a model name no record uses any more is dropped.
fn remove_from_tile(tile: &mut Tile, kind: ObjectKind, unique_id: u32) {
    loop {
        let index = match kind {
            ObjectKind::Doodad => tile.doodads.iter().position(|d| d.unique_id == unique_id),
            ObjectKind::Wmo => tile.wmos.iter().position(|w| w.unique_id == unique_id),
        };
        let Some(index) = index else {
            break;
        };
        let index = index as u32;
        let name = match kind {
            ObjectKind::Doodad => tile.doodads.remove(index as usize).name_index,
            ObjectKind::Wmo => tile.wmos.remove(index as usize).name_index,
        };
        for chunk in &mut tile.chunks {
            let refs = match kind {
                ObjectKind::Doodad => &mut chunk.doodad_refs,
                ObjectKind::Wmo => &mut chunk.wmo_refs,
            };
            refs.retain(|&r| r != index);
            refs.iter_mut()
                .filter(|r| **r > index)
                .for_each(|r| *r -= 1);
        }
        drop_unused_name(tile, kind, name);
    }
}

/// Drops name `index` of a tile's doodad or WMO list when no record uses it, renumbering the
/// records' name indices above it.
fn drop_unused_name(tile: &mut Tile, kind: ObjectKind, index: u32) {
    let used = match kind {
        ObjectKind::Doodad => tile.doodads.iter().any(|d| d.name_index == index),
        ObjectKind::Wmo => tile.wmos.iter().any(|w| w.name_index == index),
    };
    let names = match kind {
        ObjectKind::Doodad => &mut tile.doodad_names,
        ObjectKind::Wmo => &mut tile.wmo_names,
    };
    if used || index as usize >= names.len() {
        return;
    }
    names.remove(index as usize);
    match kind {
        ObjectKind::Doodad => tile
            .doodads
            .iter_mut()
            .filter(|d| d.name_index > index)
            .for_each(|d| d.name_index -= 1),
        ObjectKind::Wmo => tile
            .wmos
            .iter_mut()
            .filter(|w| w.name_index > index)
            .for_each(|w| w.name_index -= 1),
    }
}

/// The record rotation that keeps `rotation`'s turn about the up axis (its second angle) and
/// tips the object so that its up axis is `normal` (the ground's, pointing up).
pub fn aligned_to(rotation: [f32; 3], normal: [f64; 3]) -> [f32; 3] {
    let n = glam::DVec3::from(normal).normalize_or(glam::DVec3::Z);
    // Undo the turn (Rz(b)) so that the tilt angles apply to the turned object's own axes.
    let b = f64::from(rotation[1]).to_radians();
    let (sin, cos) = b.sin_cos();
    let local = glam::DVec3::new(cos * n.x + sin * n.y, -sin * n.x + cos * n.y, n.z);
    // Ry(a)·Rx(c) takes up (0, 0, 1) to (sin a cos c, −sin c, cos a cos c).
    let c = (-local.y).clamp(-1.0, 1.0).asin();
    let a = local.x.atan2(local.z);
    [a.to_degrees() as f32, rotation[1], c.to_degrees() as f32]
}

/// The ground's normal at world (x, y): that of the triangle the client draws there (what
/// Align to slope tips an object to, and what the scatter brush tilts toward).
pub fn ground_normal(map: &Map, x: f64, y: f64) -> Option<[f64; 3]> {
    lattice::surface_at(map, x, y).map(|(_, n)| n)
}

/// "Objects follow the ground": every object standing in a chunk that terrain edit `edit`
/// changed moves up or down by as much as the ground under its placement point did; the
/// object changes join `edit`, so one undo step takes back both. The map holds `edit`'s result.
pub fn follow_ground(
    map: &mut Map,
    edit: &mut TerrainEdit,
    model_box: &dyn Fn(&str) -> Option<ModelBox>,
) {
    let touched: BTreeSet<(TileCoord, usize)> =
        edit.chunks.iter().map(|c| (c.tile, c.chunk)).collect();
    let tiles: BTreeSet<TileCoord> = touched.iter().map(|(t, _)| *t).collect();
    let mut standing: Vec<(ObjectKind, u32, f64, f64)> = Vec::new();
    for coord in &tiles {
        let Some(t) = map.tiles.get(coord) else {
            continue;
        };
        let points = t
            .doodads
            .iter()
            .map(|d| (ObjectKind::Doodad, d.unique_id, d.position))
            .chain(
                t.wmos
                    .iter()
                    .map(|w| (ObjectKind::Wmo, w.unique_id, w.position)),
            );
        for (kind, uid, p) in points {
            let Some((tile, cx, cy, _)) = crate::model::coords::world_to_chunk_grid(p[0], p[1])
            else {
                continue;
            };
            let key = (kind, uid, p[0], p[1]);
            if touched.contains(&(tile, cy * CHUNKS_PER_SIDE + cx))
                && !standing.iter().any(|s| (s.0, s.1) == (kind, uid))
            {
                standing.push(key);
            }
        }
    }
    if standing.is_empty() {
        return;
    }
    // The ground under each object before the edit: put the old chunks back for a moment.
    let swap = |map: &mut Map, before: bool| {
        for c in &edit.chunks {
            if let Some(t) = map.tiles.get_mut(&c.tile) {
                t.chunks[c.chunk] = if before {
                    c.before.clone()
                } else {
                    c.after.clone()
                };
            }
        }
    };
    swap(map, true);
    let old: Vec<Option<f32>> = standing
        .iter()
        .map(|s| lattice::height_at(map, s.2, s.3))
        .collect();
    swap(map, false);
    let mut stroke = ObjectStroke::default();
    for (s, h0) in standing.iter().zip(old) {
        let (Some(h0), Some(h1)) = (h0, lattice::height_at(map, s.2, s.3)) else {
            continue;
        };
        if h0 == h1 {
            continue;
        }
        if let Some(mut r) = find(map, s.0, s.1) {
            r.position[2] += f64::from(h1) - f64::from(h0);
            put(map, &mut stroke, &r, model_box(&r.model));
        }
    }
    if let Some(moved) = stroke.finish(map, "") {
        edit.objects.extend(moved.objects);
    }
}

/// The (kind, uid) pairs listed by the loaded tiles, each once.
pub fn unique_ids(map: &Map) -> BTreeSet<(ObjectKind, u32)> {
    map.tiles
        .values()
        .flat_map(|t| {
            t.doodads
                .iter()
                .map(|d| (ObjectKind::Doodad, d.unique_id))
                .chain(t.wmos.iter().map(|w| (ObjectKind::Wmo, w.unique_id)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(uid: u32, x: f64, y: f64) -> ObjectRecord {
        ObjectRecord {
            kind: ObjectKind::Doodad,
            model: "World\\Tree.m2".into(),
            unique_id: uid,
            position: [x, y, 10.0],
            rotation: [0.0; 3],
            scale: 1024,
            flags: 0,
            doodad_set: 0,
            name_set: 0,
        }
    }

    fn four_tiles() -> Map {
        let mut map = Map::new("T");
        for (x, y) in [(31, 31), (32, 31), (31, 32), (32, 32)] {
            let c = TileCoord::new(x, y).unwrap();
            map.tiles.insert(c, Tile::flat(c, "A.blp", 0.0));
        }
        map
    }

    #[test]
    fn an_object_on_the_map_corner_is_listed_by_all_four_tiles_and_their_corner_chunks() {
        let mut map = four_tiles();
        let mut stroke = ObjectStroke::default();
        // World (0, 0) is the corner the four tiles share.
        let placed = put(&mut map, &mut stroke, &tree(5, 0.5, -0.5), None);
        assert_eq!(placed.tiles.len(), 4);
        for t in map.tiles.values() {
            assert_eq!(t.doodads.len(), 1);
            assert_eq!(t.doodad_names, ["World\\Tree.m2"]);
            let listed: Vec<usize> = (0..256)
                .filter(|&c| t.chunks[c].doodad_refs == [0])
                .collect();
            assert_eq!(listed.len(), 1, "one corner chunk of tile {:?}", t.coord);
        }
        let edit = stroke.finish(&map, "Place").unwrap();
        assert_eq!(edit.objects.len(), 4);
    }

    #[test]
    fn removing_shifts_later_records_and_their_refs_and_drops_unused_names() {
        let c = TileCoord::new(31, 31).unwrap();
        let mut map = Map::new("T");
        map.tiles.insert(c, Tile::flat(c, "A.blp", 0.0));
        let [nx, ny] = c.north_west();
        let mut stroke = ObjectStroke::default();
        let mut rock = tree(2, nx - 100.0, ny - 100.0);
        rock.model = "World\\Rock.m2".into();
        put(&mut map, &mut stroke, &tree(1, nx - 40.0, ny - 40.0), None);
        put(&mut map, &mut stroke, &rock, None);
        put(
            &mut map,
            &mut stroke,
            &tree(3, nx - 300.0, ny - 300.0),
            None,
        );
        let t = &map.tiles[&c];
        assert_eq!(t.doodad_names, ["World\\Tree.m2", "World\\Rock.m2"]);
        remove(&mut map, &mut stroke, ObjectKind::Doodad, 2);
        let t = &map.tiles[&c];
        assert_eq!(
            t.doodad_names,
            ["World\\Tree.m2"],
            "the rock's name went with it"
        );
        let uids: Vec<u32> = t.doodads.iter().map(|d| d.unique_id).collect();
        assert_eq!(uids, [1, 3]);
        // The tree at 300 yd sits in chunk (8, 8) (37.5 yd chunks) and is now record 1.
        assert_eq!(t.chunks[8 * 16 + 8].doodad_refs, [1]);
        assert_eq!(t.chunks[16 + 1].doodad_refs, [0]);
        assert!(
            t.chunks
                .iter()
                .all(|c| c.doodad_refs.iter().all(|&r| r < 2))
        );
    }

    #[test]
    fn a_name_differing_only_in_case_is_the_same_model() {
        let mut map = four_tiles();
        let mut stroke = ObjectStroke::default();
        put(&mut map, &mut stroke, &tree(1, 100.0, 100.0), None);
        let mut lower = tree(2, 120.0, 120.0);
        lower.model = "world\\tree.M2".into();
        put(&mut map, &mut stroke, &lower, None);
        let t = &map.tiles[&TileCoord::new(31, 31).unwrap()];
        assert_eq!(t.doodad_names, ["World\\Tree.m2"]);
        assert!(t.doodads.iter().all(|d| d.name_index == 0));
    }

    #[test]
    fn a_range_hands_out_its_own_uids_and_says_when_it_is_used_up() {
        let r = UidRange::new(100, 102).unwrap();
        assert_eq!(next_unique_id_in([5, 900], Some(r)), Ok(100));
        assert_eq!(next_unique_id_in([5, 100, 900], Some(r)), Ok(101));
        assert!(
            next_unique_id_in([102], Some(r))
                .unwrap_err()
                .contains("used up")
        );
        assert_eq!(next_unique_id_in([5, 900], None), Ok(901));
        assert!(UidRange::new(0, 5).is_err() && UidRange::new(9, 3).is_err());
    }

    #[test]
    fn aligning_puts_the_models_up_axis_on_the_normal_and_keeps_its_turn() {
        for (turn, normal) in [
            (0.0f32, [0.3, 0.0, 1.0]),
            (37.0, [0.2, -0.4, 0.9]),
            (200.0, [-0.5, 0.1, 0.8]),
        ] {
            let r = aligned_to([5.0, turn, -3.0], normal);
            assert_eq!(r[1], turn);
            let m = crate::model::coords::placement_matrix([0.0; 3], r, 1.0);
            let up = m.transform_vector3(glam::DVec3::Z);
            let n = glam::DVec3::from(normal).normalize();
            assert!(
                (up - n).length() < 1e-5,
                "turn {turn}: up {up:?}, normal {n:?}"
            );
        }
    }

    #[test]
    fn next_uid_is_above_every_doodad_and_wmo() {
        let mut map = four_tiles();
        assert_eq!(next_unique_id(&map), 1);
        let mut stroke = ObjectStroke::default();
        put(&mut map, &mut stroke, &tree(41, 10.0, 10.0), None);
        let mut inn = tree(90, 200.0, 200.0);
        inn.kind = ObjectKind::Wmo;
        put(&mut map, &mut stroke, &inn, None);
        assert_eq!(next_unique_id(&map), 91);
    }
}
