//! A step as the history keeps it: only what changed, packed. A stroke is captured as whole
//! chunks before and after (`stroke::TerrainEdit`), some 40 KB a chunk for the pair; kept so,
//! 256 MiB held about 400 large strokes. Here each chunk keeps, of its big arrays (heights as
//! their bits, normals, vertex colours, shadow map, alpha maps), only the wrapping difference
//! of after and before, word by word, packed ([`Packed`]): a vertex or texel the step left
//! alone is zero, and runs of zeros pack to almost nothing. The one difference takes the chunk
//! either way, exactly: undo takes it from the map's "after", redo adds it to "before". The
//! small fields (flags, holes, area, references, liquid…) are kept whole, before and after,
//! when they differ.
//!
//! This relies on what a linear history guarantees: a step is undone only while the map holds
//! its "after" state, and redone only while it holds its "before".
//!
//! Not for: capturing a stroke (`stroke`) or the record and its budget (`history`).

use std::sync::Arc;

use crate::model::alpha::{ALPHA_TEXELS, AlphaMap, AlphaSource};
use crate::model::chunk::{Chunk, ChunkHeaderExtras, ChunkQuirks, Layer, ShadowMap, SoundEmitter};
use crate::model::liquid::ChunkLiquid;
use crate::model::table_rows::TableChange;
use crate::model::{Map, TileCoord};

use super::super::stroke::{
    BoundsChange, ObjectsChange, TerrainEdit, TextureListChange, apply_tile_changes,
};

/// The difference between two arrays of `width`-byte little-endian words, packed: each word's
/// wrapping difference (after − before), its bytes regrouped by significance (all first bytes,
/// then all second bytes…), LZ4-compressed with the length in front. A word the step left
/// alone is zeros; a height or texel nudged a little differs in its low bytes only, so the
/// high planes are runs of 0x00 or 0xFF that pack to almost nothing. Shared (`Arc`), so that
/// the autosave takes a copy of a step for its thread without copying these bytes.
#[derive(Debug, Clone)]
pub(super) struct Packed(pub(super) Arc<[u8]>);

/// A word of up to 8 bytes from little-endian `bytes`.
fn word(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b))
}

impl Packed {
    /// The difference `b − a` of two byte arrays of `width`-byte words (the same length);
    /// `None` when they are equal. With `predict`, each word's difference is kept as its
    /// change from the word before's: a brush's smooth falloff over an alpha map's texels then
    /// leaves small, repeating numbers.
    fn diff(a: &[u8], b: &[u8], width: usize, predict: bool) -> Option<Packed> {
        debug_assert_eq!(a.len(), b.len());
        if a == b {
            return None;
        }
        let words = a.len() / width;
        let mask = if width == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * width)) - 1
        };
        let mut planes = vec![0u8; a.len()];
        let mut last = 0u64;
        for (i, (x, y)) in a.chunks_exact(width).zip(b.chunks_exact(width)).enumerate() {
            let d = word(y).wrapping_sub(word(x)) & mask;
            let kept = if predict {
                d.wrapping_sub(last) & mask
            } else {
                d
            };
            last = d;
            for k in 0..width {
                planes[k * words + i] = (kept >> (8 * k)) as u8;
            }
        }
        Some(Packed(lz4_flex::compress_prepend_size(&planes).into()))
    }

    /// Adds the difference to `bytes` (`forward`: before to after) or takes it away;
    /// `predict` as it was made.
    fn apply(&self, bytes: &mut [u8], (width, predict): (usize, bool), forward: bool) {
        // The delta was made by this process from arrays of this length: it always unpacks.
        let planes = lz4_flex::decompress_size_prepended(&self.0).unwrap_or_default();
        let words = bytes.len() / width;
        if planes.len() != bytes.len() {
            return;
        }
        let mask = if width == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * width)) - 1
        };
        let mut last = 0u64;
        for (i, w) in bytes.chunks_exact_mut(width).enumerate() {
            let kept =
                (0..width).fold(0u64, |d, k| d | u64::from(planes[k * words + i]) << (8 * k));
            let d = if predict {
                kept.wrapping_add(last) & mask
            } else {
                kept
            };
            last = d;
            let v = if forward {
                word(w).wrapping_add(d)
            } else {
                word(w).wrapping_sub(d)
            } & mask;
            for (k, b) in w.iter_mut().enumerate() {
                *b = (v >> (8 * k)) as u8;
            }
        }
    }
}

/// An optional array that may come or go: its difference while present on both sides, else
/// both sides whole.
#[derive(Debug, Clone)]
pub(super) enum Optional<T> {
    /// Present before and after: the difference of its words.
    Diff(Packed),
    /// Present on one side only (or changed in kind): before and after.
    Swap(Option<T>, Option<T>),
}

/// What a layer is, but for its alpha map's texels and kept file bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LayerKind {
    pub(super) texture: u32,
    pub(super) flags: u32,
    pub(super) effect_id: u32,
    pub(super) alpha: bool,
}

impl LayerKind {
    fn of(l: &Layer) -> LayerKind {
        LayerKind {
            texture: l.texture,
            flags: l.flags,
            effect_id: l.effect_id,
            alpha: l.alpha.is_some(),
        }
    }
}

/// Layer `layer`'s alpha map change: the difference of its texels (a side without the layer,
/// or without an alpha map, counting as all zeros) and the file bytes kept on each side.
#[derive(Debug, Clone)]
pub(super) struct AlphaDelta {
    pub(super) layer: usize,
    pub(super) texels: Option<Packed>,
    pub(super) sources: Option<(Option<AlphaSource>, Option<AlphaSource>)>,
}

/// How a chunk's layers changed: the layers' kinds on each side when they differ (a layer
/// added, removed or changed), and the alpha maps that changed, each as a difference, so that
/// a paint stroke adding a layer keeps what it painted, not two copies of every layer.
#[derive(Debug, Clone)]
pub(super) struct Layers {
    pub(super) kinds: Option<(Vec<LayerKind>, Vec<LayerKind>)>,
    pub(super) alphas: Vec<AlphaDelta>,
}

/// The texels of layer `i` of `layers`, zeros where there is none.
fn texels_of(layers: &[Layer], i: usize) -> &[u8; ALPHA_TEXELS] {
    static NONE: [u8; ALPHA_TEXELS] = [0; ALPHA_TEXELS];
    layers
        .get(i)
        .and_then(|l| l.alpha.as_ref())
        .map_or(&NONE, |a| a.texels())
}

fn source_of(layers: &[Layer], i: usize) -> Option<&AlphaSource> {
    layers.get(i)?.alpha.as_ref()?.source()
}

/// A chunk's small fields, kept whole.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Rest {
    pub(super) flags: u32,
    pub(super) base_height: u32,
    pub(super) holes: u16,
    pub(super) area_id: u32,
    pub(super) low_quality_texture_map: [u8; 16],
    pub(super) no_effect_doodad: [u8; 8],
    pub(super) doodad_refs: Vec<u32>,
    pub(super) wmo_refs: Vec<u32>,
    pub(super) liquid: Option<ChunkLiquid>,
    pub(super) sound_emitters: Vec<SoundEmitter>,
    pub(super) extras: ChunkHeaderExtras,
    pub(super) quirks: ChunkQuirks,
}

impl Rest {
    fn of(c: &Chunk) -> Rest {
        Rest {
            flags: c.flags,
            base_height: c.base_height.to_bits(),
            holes: c.holes,
            area_id: c.area_id,
            low_quality_texture_map: c.low_quality_texture_map,
            no_effect_doodad: c.no_effect_doodad,
            doodad_refs: c.doodad_refs.clone(),
            wmo_refs: c.wmo_refs.clone(),
            liquid: c.liquid.clone(),
            sound_emitters: c.sound_emitters.clone(),
            extras: c.extras.clone(),
            quirks: c.quirks.clone(),
        }
    }

    fn put(&self, c: &mut Chunk) {
        c.flags = self.flags;
        c.base_height = f32::from_bits(self.base_height);
        c.holes = self.holes;
        c.area_id = self.area_id;
        c.low_quality_texture_map = self.low_quality_texture_map;
        c.no_effect_doodad = self.no_effect_doodad;
        c.doodad_refs = self.doodad_refs.clone();
        c.wmo_refs = self.wmo_refs.clone();
        c.liquid = self.liquid.clone();
        c.sound_emitters = self.sound_emitters.clone();
        c.extras = self.extras.clone();
        c.quirks = self.quirks.clone();
    }

    /// Approximate bytes held.
    fn size_bytes(&self) -> usize {
        std::mem::size_of::<Rest>()
            + 4 * (self.doodad_refs.len() + self.wmo_refs.len())
            + self.liquid.as_ref().map_or(0, |_| 2048)
            + self.sound_emitters.len() * std::mem::size_of::<SoundEmitter>()
    }
}

/// One chunk's change as kept.
#[derive(Debug, Clone)]
pub(super) struct StoredChunk {
    pub(super) tile: TileCoord,
    pub(super) chunk: usize,
    pub(super) heights: Option<Packed>,
    pub(super) normals: Option<Packed>,
    pub(super) colors: Option<Optional<Box<[[u8; 4]; 145]>>>,
    pub(super) shadow: Option<Optional<ShadowMap>>,
    pub(super) layers: Option<Layers>,
    pub(super) rest: Option<Box<(Rest, Rest)>>,
}

/// The bytes of a height array.
fn height_bytes(h: &[f32; 145]) -> Vec<u8> {
    h.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect()
}

fn normal_bytes(n: &[[i8; 3]; 145]) -> Vec<u8> {
    n.iter().flatten().map(|&v| v as u8).collect()
}

fn shadow_bytes(s: &ShadowMap) -> Vec<u8> {
    s.rows.iter().flat_map(|r| r.to_le_bytes()).collect()
}

/// The change of an optional array: none when equal.
fn optional<T: Clone + PartialEq>(
    a: &Option<T>,
    b: &Option<T>,
    (bytes, width): (impl Fn(&T) -> Vec<u8>, usize),
) -> Option<Optional<T>> {
    match (a, b) {
        (Some(x), Some(y)) => Packed::diff(&bytes(x), &bytes(y), width, false).map(Optional::Diff),
        _ if a == b => None,
        _ => Some(Optional::Swap(a.clone(), b.clone())),
    }
}

fn layers(a: &[Layer], b: &[Layer]) -> Option<Layers> {
    let (ka, kb): (Vec<LayerKind>, Vec<LayerKind>) = (
        a.iter().map(LayerKind::of).collect(),
        b.iter().map(LayerKind::of).collect(),
    );
    let mut alphas = Vec::new();
    for i in 0..a.len().max(b.len()) {
        let texels = Packed::diff(texels_of(a, i), texels_of(b, i), 1, true);
        let (sa, sb) = (source_of(a, i), source_of(b, i));
        let sources = (sa != sb).then(|| (sa.cloned(), sb.cloned()));
        if texels.is_some() || sources.is_some() {
            alphas.push(AlphaDelta {
                layer: i,
                texels,
                sources,
            });
        }
    }
    let kinds = (ka != kb).then_some((ka, kb));
    (kinds.is_some() || !alphas.is_empty()).then_some(Layers { kinds, alphas })
}

/// Takes `layers` from one side of `change` to the other (toward "after" when `forward`).
fn apply_layers(layers: &mut Vec<Layer>, change: &Layers, forward: bool) {
    // The texels first, on the side the map holds (a layer it lacks counts as zeros).
    let mut texels: Vec<Box<[u8; ALPHA_TEXELS]>> = Vec::new();
    let count = match &change.kinds {
        Some((a, b)) => if forward { b } else { a }.len(),
        None => layers.len(),
    };
    for i in 0..count.max(layers.len()) {
        texels.push(Box::new(*texels_of(layers, i)));
    }
    for d in &change.alphas {
        if let (Some(x), Some(t)) = (&d.texels, texels.get_mut(d.layer)) {
            x.apply(&mut t[..], (1, true), forward);
        }
    }
    if let Some((a, b)) = &change.kinds {
        let kinds = if forward { b } else { a };
        let old = std::mem::take(layers);
        for (i, k) in kinds.iter().enumerate() {
            let source = old.get(i).and_then(|l| l.alpha.as_ref()?.source().cloned());
            layers.push(Layer {
                texture: k.texture,
                flags: k.flags,
                effect_id: k.effect_id,
                alpha: k
                    .alpha
                    .then(|| AlphaMap::with_source(Box::new([0; ALPHA_TEXELS]), source)),
            });
        }
    }
    for (i, l) in layers.iter_mut().enumerate() {
        let Some(alpha) = &mut l.alpha else {
            continue;
        };
        let delta = change.alphas.iter().find(|d| d.layer == i);
        let source = match delta.and_then(|d| d.sources.as_ref()) {
            Some((a, b)) => if forward { b } else { a }.clone(),
            None => alpha.source().cloned(),
        };
        let t = texels
            .get(i)
            .map_or_else(|| Box::new([0; ALPHA_TEXELS]), |t| t.clone());
        *alpha = AlphaMap::with_source(t, source);
    }
}

impl StoredChunk {
    fn new(tile: TileCoord, chunk: usize, a: &Chunk, b: &Chunk) -> StoredChunk {
        let (ra, rb) = (Rest::of(a), Rest::of(b));
        StoredChunk {
            tile,
            chunk,
            heights: Packed::diff(
                &height_bytes(&a.heights),
                &height_bytes(&b.heights),
                4,
                false,
            ),
            normals: Packed::diff(
                &normal_bytes(&a.normals),
                &normal_bytes(&b.normals),
                1,
                false,
            ),
            colors: optional(
                &a.vertex_colors,
                &b.vertex_colors,
                (|c| c.iter().flatten().copied().collect(), 1),
            ),
            shadow: optional(&a.shadow, &b.shadow, (shadow_bytes, 8)),
            layers: layers(&a.layers, &b.layers),
            rest: (ra != rb).then(|| Box::new((ra, rb))),
        }
    }

    /// Takes `c` from one side to the other: toward "after" when `forward`.
    fn apply(&self, c: &mut Chunk, forward: bool) {
        if let Some(d) = &self.heights {
            let mut bytes = height_bytes(&c.heights);
            d.apply(&mut bytes, (4, false), forward);
            for (h, b) in c.heights.iter_mut().zip(bytes.chunks_exact(4)) {
                *h = f32::from_bits(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            }
        }
        if let Some(d) = &self.normals {
            let mut bytes = normal_bytes(&c.normals);
            d.apply(&mut bytes, (1, false), forward);
            for (n, b) in c.normals.iter_mut().flatten().zip(bytes) {
                *n = b as i8;
            }
        }
        match &self.colors {
            Some(Optional::Diff(d)) => {
                if let Some(colors) = &mut c.vertex_colors {
                    let mut bytes: Vec<u8> = colors.iter().flatten().copied().collect();
                    d.apply(&mut bytes, (1, false), forward);
                    for (v, b) in colors.iter_mut().flatten().zip(bytes) {
                        *v = b;
                    }
                }
            }
            Some(Optional::Swap(a, b)) => c.vertex_colors = if forward { b } else { a }.clone(),
            None => {}
        }
        match &self.shadow {
            Some(Optional::Diff(d)) => {
                if let Some(shadow) = &mut c.shadow {
                    let mut bytes = shadow_bytes(shadow);
                    d.apply(&mut bytes, (8, false), forward);
                    for (r, b) in shadow.rows.iter_mut().zip(bytes.chunks_exact(8)) {
                        *r = u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
                    }
                }
            }
            Some(Optional::Swap(a, b)) => c.shadow = if forward { b } else { a }.clone(),
            None => {}
        }
        if let Some(change) = &self.layers {
            apply_layers(&mut c.layers, change, forward);
        }
        if let Some(rest) = &self.rest {
            if forward { &rest.1 } else { &rest.0 }.put(c);
        }
    }

    /// Bytes held.
    fn size_bytes(&self) -> usize {
        let packed = |p: &Option<Packed>| p.as_ref().map_or(0, |p| p.0.len());
        let optional = |o: Option<usize>| o.unwrap_or(0);
        std::mem::size_of::<StoredChunk>()
            + packed(&self.heights)
            + packed(&self.normals)
            + optional(self.colors.as_ref().map(|c| match c {
                Optional::Diff(p) => p.0.len(),
                Optional::Swap(..) => 2 * 580,
            }))
            + optional(self.shadow.as_ref().map(|c| match c {
                Optional::Diff(p) => p.0.len(),
                Optional::Swap(..) => 2 * 512,
            }))
            + self.layers.as_ref().map_or(0, |l| {
                l.kinds.as_ref().map_or(0, |(a, b)| {
                    (a.len() + b.len()) * std::mem::size_of::<LayerKind>()
                }) + l
                    .alphas
                    .iter()
                    .map(|d| {
                        std::mem::size_of::<AlphaDelta>()
                            + packed(&d.texels)
                            + d.sources.as_ref().map_or(0, |(a, b)| {
                                [a, b]
                                    .iter()
                                    .map(|s| s.as_ref().map_or(0, |s| s.bytes.len()))
                                    .sum()
                            })
                    })
                    .sum::<usize>()
            })
            + self
                .rest
                .as_ref()
                .map_or(0, |r| r.0.size_bytes() + r.1.size_bytes())
    }
}

/// One step as the history keeps it.
#[derive(Debug, Clone)]
pub struct StoredEdit {
    /// What the step did, as the history panel shows it.
    pub label: String,
    // Shared (`Arc`): the autosave takes copies of steps for its thread, which then cost a
    // count each rather than a copy of the step.
    pub(super) chunks: Arc<[StoredChunk]>,
    pub(super) textures: Arc<[TextureListChange]>,
    pub(super) map_flags: Option<(u32, u32)>,
    pub(super) objects: Arc<[ObjectsChange]>,
    pub(super) bounds: Arc<[BoundsChange]>,
    pub(super) tables: Arc<[TableChange]>,
    /// The chunks the step changes, as undo and redo report them.
    pub(super) touched: Vec<(TileCoord, usize)>,
    /// True while the map already holds the "after" state (just recorded), so the record's
    /// first `edit` has nothing to do.
    pub(super) already_applied: bool,
}

impl StoredEdit {
    /// `edit` packed; the map holds its "after" state.
    pub fn pack(edit: TerrainEdit) -> StoredEdit {
        let touched = edit.touched();
        StoredEdit {
            label: edit.label,
            chunks: edit
                .chunks
                .iter()
                .map(|c| StoredChunk::new(c.tile, c.chunk, &c.before, &c.after))
                .collect(),
            textures: edit.textures.into(),
            map_flags: edit.map_flags,
            objects: edit.objects.into(),
            bounds: edit.bounds.into(),
            tables: edit.tables.into(),
            touched,
            already_applied: true,
        }
    }

    /// The tiles the step changes, each once.
    pub fn tiles(&self) -> Vec<TileCoord> {
        let mut tiles: Vec<TileCoord> = self
            .chunks
            .iter()
            .map(|c| c.tile)
            .chain(self.textures.iter().map(|t| t.tile))
            .chain(self.objects.iter().map(|o| o.tile))
            .chain(self.bounds.iter().map(|b| b.tile))
            .chain(self.touched.iter().map(|t| t.0))
            .collect();
        tiles.sort_unstable();
        tiles.dedup();
        tiles
    }

    /// The client tables whose rows the step changes (the Light and Triggers tools').
    pub fn table_names(&self) -> impl Iterator<Item = &str> {
        self.tables.iter().map(|c| c.table.as_str())
    }

    /// Puts the step's table rows into `map`'s held tables, "after" when `forward`: what a
    /// recovered map whose tables were read again from the client needs of its applied steps.
    pub fn apply_tables(&self, map: &mut Map, forward: bool) {
        map.client_tables.apply(&self.tables, forward);
    }

    /// Bytes held, for the history's budget.
    pub fn size_bytes(&self) -> usize {
        let names = |v: &[String]| v.iter().map(|s| s.len() + 24).sum::<usize>();
        std::mem::size_of::<StoredEdit>()
            + self.label.len()
            + self
                .chunks
                .iter()
                .map(StoredChunk::size_bytes)
                .sum::<usize>()
            + self
                .textures
                .iter()
                .map(|t| names(&t.before.names) + names(&t.after.names))
                .sum::<usize>()
            + self
                .objects
                .iter()
                .map(|o| o.before.size_bytes() + o.after.size_bytes())
                .sum::<usize>()
            + self.bounds.len() * std::mem::size_of::<BoundsChange>()
            + self
                .tables
                .iter()
                .map(TableChange::size_bytes)
                .sum::<usize>()
            + self.touched.len() * std::mem::size_of::<(TileCoord, usize)>()
    }

    /// Takes `map` from the step's "before" to its "after" (a replay, outside any record).
    pub(super) fn redo_on(&self, map: &mut Map) {
        self.apply(map, true);
    }

    fn apply(&self, map: &mut Map, forward: bool) -> Vec<(TileCoord, usize)> {
        for c in self.chunks.iter() {
            if let Some(t) = map.tiles.get_mut(&c.tile) {
                c.apply(&mut t.chunks[c.chunk], forward);
            }
        }
        apply_tile_changes(
            map,
            (
                &self.textures[..],
                self.map_flags,
                &self.objects[..],
                &self.bounds[..],
                &self.tables[..],
            ),
            forward,
        );
        self.touched.clone()
    }
}

impl undo::Edit for StoredEdit {
    type Target = Map;
    type Output = Vec<(TileCoord, usize)>;

    fn edit(&mut self, map: &mut Map) -> Self::Output {
        if std::mem::take(&mut self.already_applied) {
            return self.touched.clone();
        }
        self.apply(map, true)
    }

    fn undo(&mut self, map: &mut Map) -> Self::Output {
        self.apply(map, false)
    }
}

impl std::fmt::Display for StoredEdit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label)
    }
}

#[cfg(test)]
pub(in crate::edit::history) mod tests {
    use super::*;
    use crate::model::alpha::AlphaEncoding;
    use proptest::prelude::*;

    /// A chunk made from `seed`: its layers (one to four, some with kept file bytes), heights,
    /// normals, vertex colours, shadow and small fields all vary with it.
    pub(in crate::edit::history) fn chunk(seed: u64) -> Chunk {
        let mut r = seed | 1;
        let mut next = move || {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            r
        };
        let mut c = Chunk::flat((next() % 200) as f32 - 100.0);
        for h in c.heights.iter_mut() {
            if next() % 3 == 0 {
                *h += (next() % 1000) as f32 / 37.0;
            }
        }
        for n in c.normals.iter_mut().flatten() {
            *n = next() as i8;
        }
        let layers = 1 + (next() % 4) as usize;
        c.layers = (0..layers)
            .map(|i| Layer {
                texture: (next() % 6) as u32,
                flags: if i > 0 { 0x100 } else { 0 },
                effect_id: (next() % 3) as u32,
                alpha: (i > 0).then(|| {
                    let mut t = Box::new([0u8; 4096]);
                    let fill = next() % 3;
                    for v in t.iter_mut() {
                        if fill > 0 && next() % 4 == 0 {
                            *v = next() as u8;
                        }
                    }
                    let source = (next() % 2 == 0).then(|| AlphaSource {
                        encoding: AlphaEncoding::Byte,
                        bytes: vec![next() as u8; 16].into_boxed_slice(),
                    });
                    AlphaMap::with_source(t, source)
                }),
            })
            .collect();
        if next() % 2 == 0 {
            let mut colours = Box::new([[0x7F; 4]; 145]);
            colours[(next() % 145) as usize] = [next() as u8; 4];
            c.vertex_colors = Some(colours);
        }
        if next() % 2 == 0 {
            let mut rows = Box::new([0u64; 64]);
            rows[(next() % 64) as usize] = next();
            c.shadow = Some(ShadowMap { rows });
        }
        c.holes = (next() % 4) as u16;
        c.area_id = (next() % 3) as u32;
        c.doodad_refs = (0..next() % 3).map(|k| k as u32).collect();
        c
    }

    proptest! {
        /// Whatever differs between two chunks, the packed change takes the one to the other
        /// and back, exactly.
        #[test]
        fn a_packed_change_takes_a_chunk_either_way_exactly(a in any::<u64>(), b in any::<u64>(), same in 0u8..4) {
            let before = chunk(a);
            // Now and then the second chunk is the first with one thing changed, as most
            // steps are.
            let after = match same {
                0 => {
                    let mut c = before.clone();
                    c.heights[(b % 145) as usize] += 1.5;
                    c
                }
                1 => {
                    let mut c = before.clone();
                    if let Some(a) = c.layers.last_mut().and_then(|l| l.alpha.as_mut()) {
                        a.texels_mut()[(b % 4096) as usize] ^= 0x5A;
                    }
                    c
                }
                _ => chunk(b),
            };
            let stored = StoredChunk::new(TileCoord::new(1, 2).unwrap(), 3, &before, &after);
            let mut c = before.clone();
            stored.apply(&mut c, true);
            prop_assert!(c == after, "forward");
            stored.apply(&mut c, false);
            prop_assert!(c == before, "back");
        }
    }

    #[test]
    fn an_unchanged_chunk_keeps_nothing_and_a_nudged_height_little() {
        let c = chunk(7);
        let stored = StoredChunk::new(TileCoord::new(1, 2).unwrap(), 3, &c, &c);
        assert!(stored.heights.is_none() && stored.layers.is_none() && stored.rest.is_none());
        let mut nudged = c.clone();
        nudged.heights[40] += 0.25;
        let stored = StoredChunk::new(TileCoord::new(1, 2).unwrap(), 3, &c, &nudged);
        let kept = stored.heights.as_ref().unwrap().0.len();
        assert!(kept < 64, "{kept} bytes for one height");
    }
}
