//! A stroke: everything one press-drag-release (or one scripted operation) changed, captured as
//! the before and after state of each touched chunk, so undo and redo are swaps. The history
//! keeps it packed (`history::stored`).

use crate::model::table_rows::TableChange;
use crate::model::{Chunk, DoodadPlacement, FlightBounds, Map, Tile, TileCoord, WmoPlacement};

/// A chunk's state before and after an edit.
#[derive(Debug, Clone)]
pub struct ChunkChange {
    /// The tile.
    pub tile: TileCoord,
    /// Chunk index in the tile.
    pub chunk: usize,
    /// The chunk before the edit.
    pub before: Chunk,
    /// The chunk after the edit.
    pub after: Chunk,
}

/// A tile's texture list (MTEX) with its per-texture flags (MTXF), which must move with it
/// when an entry is removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextureList {
    /// Texture paths.
    pub names: Vec<String>,
    /// Their MTXF flags, when the tile has them.
    pub flags: Option<Vec<u32>>,
}

impl TextureList {
    /// The list of `tile` as it is now.
    pub fn of(tile: &Tile) -> TextureList {
        TextureList {
            names: tile.textures.clone(),
            flags: tile.texture_flags.clone(),
        }
    }
}

/// A tile's texture list before and after an edit (painting can add a texture, removing
/// unused ones takes some away).
#[derive(Debug, Clone)]
pub struct TextureListChange {
    /// The tile.
    pub tile: TileCoord,
    /// The list before.
    pub before: TextureList,
    /// The list after.
    pub after: TextureList,
}

/// The objects of one tile: its model names, placement records and each chunk's MCRF lists.
/// Object edits swap these, so undo gives back the exact records, uids and order included.
#[derive(Debug, Clone, PartialEq)]
pub struct TileObjects {
    /// Doodad model names (MMDX).
    pub doodad_names: Vec<String>,
    /// WMO names (MWMO).
    pub wmo_names: Vec<String>,
    /// MDDF records.
    pub doodads: Vec<DoodadPlacement>,
    /// MODF records.
    pub wmos: Vec<WmoPlacement>,
    /// Per chunk: its doodad and WMO reference lists.
    pub refs: Vec<(Vec<u32>, Vec<u32>)>,
}

impl TileObjects {
    /// The objects of `tile` as they are now.
    pub fn of(tile: &Tile) -> TileObjects {
        TileObjects {
            doodad_names: tile.doodad_names.clone(),
            wmo_names: tile.wmo_names.clone(),
            doodads: tile.doodads.clone(),
            wmos: tile.wmos.clone(),
            refs: tile
                .chunks
                .iter()
                .map(|c| (c.doodad_refs.clone(), c.wmo_refs.clone()))
                .collect(),
        }
    }

    /// Puts these objects back into `tile`.
    pub(crate) fn restore(&self, tile: &mut Tile) {
        tile.doodad_names = self.doodad_names.clone();
        tile.wmo_names = self.wmo_names.clone();
        tile.doodads = self.doodads.clone();
        tile.wmos = self.wmos.clone();
        for (chunk, (d, w)) in tile.chunks.iter_mut().zip(&self.refs) {
            chunk.doodad_refs = d.clone();
            chunk.wmo_refs = w.clone();
        }
    }

    /// Approximate bytes held.
    pub(crate) fn size_bytes(&self) -> usize {
        let names = |v: &[String]| v.iter().map(|s| s.len() + 24).sum::<usize>();
        names(&self.doodad_names)
            + names(&self.wmo_names)
            + self.doodads.len() * std::mem::size_of::<DoodadPlacement>()
            + self.wmos.len() * std::mem::size_of::<WmoPlacement>()
            + self
                .refs
                .iter()
                .map(|(d, w)| 48 + 4 * (d.len() + w.len()))
                .sum::<usize>()
    }
}

/// A tile's objects before and after an edit.
#[derive(Debug, Clone)]
pub struct ObjectsChange {
    /// The tile.
    pub tile: TileCoord,
    /// Its objects before.
    pub before: TileObjects,
    /// Its objects after.
    pub after: TileObjects,
}

impl ObjectsChange {
    /// The chunks whose reference lists differ, or chunk 0 when only the tile's records or
    /// names did: a tile counts as edited through the chunks a step names.
    fn touched(&self) -> Vec<(TileCoord, usize)> {
        let mut out: Vec<(TileCoord, usize)> = self
            .before
            .refs
            .iter()
            .zip(&self.after.refs)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, _)| (self.tile, i))
            .collect();
        if out.is_empty() {
            out.push((self.tile, 0));
        }
        out
    }
}

/// A tile's MHDR flags and flight bounds (MFBO) before and after an edit that lifted the ground
/// through them (`flight_bounds`).
#[derive(Debug, Clone)]
pub struct BoundsChange {
    /// The tile.
    pub tile: TileCoord,
    /// Flags and planes before.
    pub before: (u32, Option<FlightBounds>),
    /// Flags and planes after.
    pub after: (u32, Option<FlightBounds>),
}

/// One undoable step.
#[derive(Debug, Clone)]
pub struct TerrainEdit {
    /// What the step did, as the history panel shows it ("Raise, 12 chunks").
    pub label: String,
    /// Changed chunks.
    pub chunks: Vec<ChunkChange>,
    /// Changed texture lists.
    pub textures: Vec<TextureListChange>,
    /// Map flags before and after, when they changed.
    pub map_flags: Option<(u32, u32)>,
    /// Changed tile objects (placements, names, MCRF lists).
    pub objects: Vec<ObjectsChange>,
    /// Flight bounds widened over ground the step lifted through them.
    pub bounds: Vec<BoundsChange>,
    /// Rows of the client's tables the zone tools changed (`Map::client_tables`).
    pub tables: Vec<TableChange>,
    /// True while the model already holds the "after" state (the stroke was applied live), so
    /// recording it has nothing to apply.
    pub(crate) already_applied: bool,
}

impl TerrainEdit {
    /// A step that changes only rows of the client's tables (the Light and Triggers tools),
    /// not yet applied.
    pub fn of_tables(label: String, tables: Vec<TableChange>) -> TerrainEdit {
        TerrainEdit {
            label,
            chunks: Vec::new(),
            textures: Vec::new(),
            map_flags: None,
            objects: Vec::new(),
            bounds: Vec::new(),
            tables,
            already_applied: false,
        }
    }

    /// The (tile, chunk) pairs this step changes.
    pub fn touched(&self) -> Vec<(TileCoord, usize)> {
        self.chunks
            .iter()
            .map(|c| (c.tile, c.chunk))
            .chain(self.objects.iter().flat_map(ObjectsChange::touched))
            .collect()
    }

    /// Puts the "after" side into `map` (a step recorded before it was applied).
    pub(crate) fn apply_after(&self, map: &mut Map) {
        for c in &self.chunks {
            if let Some(t) = map.tiles.get_mut(&c.tile) {
                t.chunks[c.chunk] = c.after.clone();
            }
        }
        apply_tile_changes(
            map,
            (
                &self.textures,
                self.map_flags,
                &self.objects,
                &self.bounds,
                &self.tables,
            ),
            true,
        );
    }
}

/// A step's changes above the chunks: texture lists, map flags, objects, flight bounds, the
/// client's table rows.
pub(crate) type TileChanges<'a> = (
    &'a [TextureListChange],
    Option<(u32, u32)>,
    &'a [ObjectsChange],
    &'a [BoundsChange],
    &'a [TableChange],
);

/// Puts one side of `changes` into `map`: "after" when `forward`, else "before".
pub(crate) fn apply_tile_changes(
    map: &mut Map,
    (textures, map_flags, objects, bounds, tables): TileChanges,
    forward: bool,
) {
    map.client_tables.apply(tables, forward);
    for t in textures {
        if let Some(tile) = map.tiles.get_mut(&t.tile) {
            let list = if forward { &t.after } else { &t.before };
            tile.textures = list.names.clone();
            tile.texture_flags = list.flags.clone();
        }
    }
    if let Some((before, after)) = map_flags {
        map.flags = if forward { after } else { before };
    }
    for o in objects {
        if let Some(tile) = map.tiles.get_mut(&o.tile) {
            if forward { &o.after } else { &o.before }.restore(tile);
        }
    }
    for b in bounds {
        if let Some(tile) = map.tiles.get_mut(&b.tile) {
            (tile.flags, tile.flight_bounds) = if forward { b.after } else { b.before };
        }
    }
}

impl std::fmt::Display for TerrainEdit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label)
    }
}

/// Collects the state of everything a stroke touches, before it first touches it.
#[derive(Debug, Default)]
pub struct Stroke {
    name: String,
    before: Vec<((TileCoord, usize), Chunk)>,
    /// The keys of `before`, for a quick "already remembered?" (an import touches thousands).
    remembered: std::collections::HashSet<(TileCoord, usize)>,
    textures_before: Vec<(TileCoord, TextureList)>,
    flags_before: Option<u32>,
    /// Chunks where a paint dab was refused (four layers, none free), for the UI to show.
    pub refused: Vec<(TileCoord, usize)>,
}

impl Stroke {
    /// A stroke of the tool called `name` ("Raise").
    pub fn new(name: &str) -> Stroke {
        Stroke {
            name: name.to_string(),
            ..Stroke::default()
        }
    }

    /// Remembers chunk `chunk` of `tile` as it is now, unless already remembered.
    pub fn snapshot(&mut self, map: &Map, tile: TileCoord, chunk: usize) {
        if self.remembered.contains(&(tile, chunk)) {
            return;
        }
        if let Some(t) = map.tiles.get(&tile) {
            self.remembered.insert((tile, chunk));
            self.before.push(((tile, chunk), t.chunks[chunk].clone()));
        }
    }

    /// Remembers a tile's texture list as it is now, unless already remembered.
    pub fn snapshot_textures(&mut self, map: &Map, tile: TileCoord) {
        if self.textures_before.iter().any(|(k, _)| *k == tile) {
            return;
        }
        if let Some(t) = map.tiles.get(&tile) {
            self.textures_before.push((tile, TextureList::of(t)));
        }
    }

    /// Remembers the map flags as they are now, unless already remembered.
    pub fn snapshot_flags(&mut self, map: &Map) {
        self.flags_before.get_or_insert(map.flags);
    }

    /// Chunks touched so far.
    pub fn touched(&self) -> Vec<(TileCoord, usize)> {
        self.before.iter().map(|(k, _)| *k).collect()
    }

    /// The undoable step for everything done since [`Stroke::new`], with the model holding its
    /// result; `None` when nothing changed.
    ///
    /// A chunk whose alpha maps or layers changed gets its ground-effect texture map worked out
    /// again first (`ground_effects`), so no edit leaves one naming a layer that no longer
    /// covers the cell; a tile whose flight bounds the new ground pokes through gets them
    /// widened (`flight_bounds`, default margins), so none is left below the ground. Both go in
    /// the same undo step.
    pub fn finish(self, map: &mut Map) -> Option<TerrainEdit> {
        let chunks: Vec<ChunkChange> = self
            .before
            .into_iter()
            .filter_map(|((tile, chunk), before)| {
                let now = &mut map.tiles.get_mut(&tile)?.chunks[chunk];
                if crate::edit::derived::ground_effects::coverage_changed(&before, now) {
                    crate::edit::derived::ground_effects::refresh(now);
                }
                let after = now.clone();
                (after != before).then_some(ChunkChange {
                    tile,
                    chunk,
                    before,
                    after,
                })
            })
            .collect();
        let textures: Vec<TextureListChange> = self
            .textures_before
            .into_iter()
            .filter_map(|(tile, before)| {
                let after = TextureList::of(map.tiles.get(&tile)?);
                (after != before).then_some(TextureListChange {
                    tile,
                    before,
                    after,
                })
            })
            .collect();
        let bounds = widen_bounds(map, &chunks);
        let map_flags = self
            .flags_before
            .filter(|&f| f != map.flags)
            .map(|f| (f, map.flags));
        if chunks.is_empty() && textures.is_empty() && map_flags.is_none() {
            return None;
        }
        let n = chunks.len();
        Some(TerrainEdit {
            label: format!("{}, {n} chunk{}", self.name, if n == 1 { "" } else { "s" }),
            chunks,
            textures,
            map_flags,
            objects: Vec::new(),
            bounds,
            tables: Vec::new(),
            already_applied: true,
        })
    }
}

/// Widens the flight bounds of the tiles whose heights `chunks` changed where the ground now
/// pokes through them; tiles without flight bounds are left without (the client does not need
/// them; `loam fix --flight-bounds` adds them).
fn widen_bounds(map: &mut Map, chunks: &[ChunkChange]) -> Vec<BoundsChange> {
    let mut tiles: Vec<TileCoord> = chunks
        .iter()
        .filter(|c| c.before.heights != c.after.heights)
        .map(|c| c.tile)
        .collect();
    tiles.sort_unstable();
    tiles.dedup();
    let mut out = Vec::new();
    for coord in tiles {
        let Some(tile) = map.tiles.get_mut(&coord) else {
            continue;
        };
        if tile.flight_bounds.is_none()
            || crate::edit::derived::flight_bounds::poke_through(tile).is_empty()
        {
            continue;
        }
        let before = (tile.flags, tile.flight_bounds);
        crate::edit::derived::flight_bounds::update_tile(
            tile,
            crate::edit::derived::flight_bounds::Margins::DEFAULT,
            false,
        );
        out.push(BoundsChange {
            tile: coord,
            before,
            after: (tile.flags, tile.flight_bounds),
        });
    }
    out
}
