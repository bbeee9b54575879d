//! A stroke: everything one press-drag-release (or one scripted operation) changed, captured as
//! the before and after state of each touched chunk, so undo and redo are swaps.

use crate::model::{Chunk, Map, TileCoord};

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

/// A tile's texture list before and after an edit (painting can add a texture).
#[derive(Debug, Clone)]
pub struct TextureListChange {
    /// The tile.
    pub tile: TileCoord,
    /// Texture paths before.
    pub before: Vec<String>,
    /// Texture paths after.
    pub after: Vec<String>,
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
    /// True while the model already holds the "after" state (the stroke was applied live), so
    /// the first `edit` call has nothing to do.
    pub(crate) already_applied: bool,
}

impl TerrainEdit {
    /// Approximate bytes held, for the history's memory budget.
    pub fn size_bytes(&self) -> usize {
        let chunk = |c: &Chunk| {
            let alpha = c
                .layers
                .iter()
                .filter_map(|l| l.alpha.as_ref())
                .map(|a| 4096 + a.source().map_or(0, |s| s.bytes.len()))
                .sum::<usize>();
            std::mem::size_of::<Chunk>()
                + 580
                + 435
                + c.vertex_colors.as_ref().map_or(0, |_| 580)
                + alpha
                + 512
        };
        self.chunks
            .iter()
            .map(|c| chunk(&c.before) + chunk(&c.after))
            .sum::<usize>()
            + self
                .textures
                .iter()
                .map(|t| {
                    t.before
                        .iter()
                        .chain(&t.after)
                        .map(String::len)
                        .sum::<usize>()
                })
                .sum::<usize>()
    }

    /// The (tile, chunk) pairs this step changes.
    pub fn touched(&self) -> Vec<(TileCoord, usize)> {
        self.chunks.iter().map(|c| (c.tile, c.chunk)).collect()
    }

    fn apply(&self, map: &mut Map, forward: bool) -> Vec<(TileCoord, usize)> {
        for c in &self.chunks {
            if let Some(t) = map.tiles.get_mut(&c.tile) {
                t.chunks[c.chunk] = if forward {
                    c.after.clone()
                } else {
                    c.before.clone()
                };
            }
        }
        for t in &self.textures {
            if let Some(tile) = map.tiles.get_mut(&t.tile) {
                tile.textures = if forward {
                    t.after.clone()
                } else {
                    t.before.clone()
                };
            }
        }
        if let Some((before, after)) = self.map_flags {
            map.flags = if forward { after } else { before };
        }
        self.touched()
    }
}

impl undo::Edit for TerrainEdit {
    type Target = Map;
    type Output = Vec<(TileCoord, usize)>;

    fn edit(&mut self, map: &mut Map) -> Self::Output {
        if std::mem::take(&mut self.already_applied) {
            return self.touched();
        }
        self.apply(map, true)
    }

    fn undo(&mut self, map: &mut Map) -> Self::Output {
        self.apply(map, false)
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
    textures_before: Vec<(TileCoord, Vec<String>)>,
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
        if self.before.iter().any(|(k, _)| *k == (tile, chunk)) {
            return;
        }
        if let Some(t) = map.tiles.get(&tile) {
            self.before.push(((tile, chunk), t.chunks[chunk].clone()));
        }
    }

    /// Remembers a tile's texture list as it is now, unless already remembered.
    pub fn snapshot_textures(&mut self, map: &Map, tile: TileCoord) {
        if self.textures_before.iter().any(|(k, _)| *k == tile) {
            return;
        }
        if let Some(t) = map.tiles.get(&tile) {
            self.textures_before.push((tile, t.textures.clone()));
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
    pub fn finish(self, map: &Map) -> Option<TerrainEdit> {
        let chunks: Vec<ChunkChange> = self
            .before
            .into_iter()
            .filter_map(|((tile, chunk), before)| {
                let after = map.tiles.get(&tile)?.chunks[chunk].clone();
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
                let after = map.tiles.get(&tile)?.textures.clone();
                (after != before).then_some(TextureListChange {
                    tile,
                    before,
                    after,
                })
            })
            .collect();
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
            already_applied: true,
        })
    }
}
