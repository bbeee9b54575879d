//! Pasting a [`Clipboard`] into a map, and `loam apply`'s `paste` operation (copy a rectangle,
//! paste it at each point, one undo step).
//!
//! The rules (docs/scripting.md, "Paste", says them to map makers):
//! - Snapping: the point where the pasted rectangle's north-west corner lands goes to the
//!   nearest outer vertex, as the copied corners do, so every vertex, texel and quad lands on
//!   one of the target's: a paste is a lattice-for-lattice copy, never a resampling.
//! - Turning: `turns` quarter turns clockwise seen from above (north → east → south → west),
//!   after mirroring; mirroring swaps west and east (about the north–south axis). The point
//!   is the north-west corner of the turned rectangle. Every layer turns and mirrors alike;
//!   objects' places and headings follow (a mirrored model itself stays as it is: placement
//!   records cannot mirror a model).
//! - Heights: every copy of a shared vertex is written, so no seam opens; normals and water
//!   depths follow as in sculpting. `Relative` shifts the pasted heights (water surfaces and
//!   objects with them) so that the vertex landing on the point keeps the target's height
//!   there. `blend` yards: inside that distance from the rectangle's edge the pasted height
//!   is mixed with the target's (smoothstep from the target's at the edge to the paste's).
//! - Textures: a target chunk the paste covers whole from one source chunk takes that chunk's
//!   layers and alpha maps as they were (texture names added to the tile's list as needed).
//!   Elsewhere each covered texel takes the source's texture weights and each uncovered one
//!   keeps its own; the chunk then needs a layer for every texture with weight anywhere, its
//!   own layers first in their order. Where that is more than four, the chunk keeps its
//!   layers and alpha as they were and is reported refused, as painting does.
//! - Holes: a target hole (2×2 quads) changes only when the paste covers all four quads; it
//!   is cut when at least two of them come from cut holes (an aligned paste copies exactly).
//! - Liquids: each covered quad takes the source quad's liquid (type, deep, fishable) or
//!   becomes dry; surface heights come along per vertex.
//! - Objects: each object copied gets a fresh uniqueId (the map's range when it has one),
//!   moves with the rectangle and is written into the tiles and chunks its box overlaps.

use std::collections::BTreeSet;

use serde::Deserialize;

use super::clipboard::{self, Clipboard, LatticeRect, TEXELS_PER_QUAD, Texel};
use crate::edit::history::History;
use crate::edit::lattice::patch::Patch;
use crate::edit::lattice::{self, MAP_STEPS, STEPS_PER_CHUNK, Vertex, chunks_in};
use crate::edit::objects::{self, ModelBox, NewUids, ObjectRecord, ObjectStroke};
use crate::edit::outcome::OpResult;
use crate::edit::stroke::Stroke;
use crate::edit::terrain::layer_flags;
use crate::edit::terrain::liquid::{self, LiquidStyle};
use crate::edit::terrain::paint::MAX_LAYERS;
use crate::edit::terrain::sculpt::commit_heights;
use crate::model::alpha::{ALPHA_SIDE, ALPHA_TEXELS, AlphaMap};
use crate::model::chunk::{Chunk, LAYER_USE_ALPHA, Layer};
use crate::model::coords;
use crate::model::{Map, TileCoord};

/// The `tool` names that select a paste.
pub const NAMES: [&str; 1] = ["paste"];

/// How pasted heights meet the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HeightMode {
    /// The source's heights as they were.
    #[default]
    Absolute,
    /// Shifted so that the vertex landing on the paste point keeps the target's height.
    Relative,
}

/// The layers a paste can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PasteLayer {
    /// Heights (and normals).
    Heights,
    /// Texture layers and alpha maps.
    Textures,
    /// Vertex colours.
    Colours,
    /// Holes.
    Holes,
    /// Liquids.
    Liquids,
    /// Doodads and WMOs.
    Objects,
}

impl PasteLayer {
    /// Every layer.
    pub const ALL: [PasteLayer; 6] = [
        PasteLayer::Heights,
        PasteLayer::Textures,
        PasteLayer::Colours,
        PasteLayer::Holes,
        PasteLayer::Liquids,
        PasteLayer::Objects,
    ];
}

/// How a clipboard is pasted.
#[derive(Debug, Clone, PartialEq)]
pub struct PasteOptions {
    /// Quarter turns clockwise seen from above, 0..4.
    pub turns: u8,
    /// Swap west and east (before turning).
    pub mirror: bool,
    /// Absolute or relative heights.
    pub heights: HeightMode,
    /// Yards over which the paste's edges blend into the target's heights (0: none).
    pub blend: f32,
    /// The layers carried.
    pub layers: Vec<PasteLayer>,
}

impl Default for PasteOptions {
    fn default() -> Self {
        PasteOptions {
            turns: 0,
            mirror: false,
            heights: HeightMode::Absolute,
            blend: 0.0,
            layers: PasteLayer::ALL.to_vec(),
        }
    }
}

impl PasteOptions {
    fn has(&self, layer: PasteLayer) -> bool {
        self.layers.contains(&layer)
    }
}

/// Where a clipboard lands: the target lattice corner and the transform. Pure geometry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Target outer vertex of the footprint's north-west corner.
    pub at: [i32; 2],
    /// The clipboard's quads west-east and north-south.
    pub size: [usize; 2],
    /// Quarter turns clockwise.
    pub turns: u8,
    /// Mirrored west-east before turning.
    pub mirror: bool,
}

impl Placement {
    /// The footprint's quads west-east and north-south (turned).
    pub fn footprint(&self) -> [usize; 2] {
        if self.turns % 2 == 1 {
            [self.size[1], self.size[0]]
        } else {
            self.size
        }
    }

    /// The clipboard point (east, south of its north-west corner) that lands on footprint
    /// point (`u` east, `v` south of the footprint's corner); `scale` units per quad (1 for
    /// vertices and quads, 8 for alpha texels).
    pub fn source_of(&self, [u, v]: [f64; 2], scale: f64) -> [f64; 2] {
        let [fw, fh] = self.footprint().map(|n| n as f64 * scale);
        let (mut p, mut size) = ([u, v], [fw, fh]);
        for _ in 0..self.turns % 4 {
            // One clockwise turn takes (s, t) in a w×h rectangle to (h − t, s); undo it.
            p = [p[1], size[0] - p[0]];
            size = [size[1], size[0]];
        }
        if self.mirror {
            p[0] = size[0] - p[0];
        }
        p
    }

    /// The footprint point where clipboard point (`s` east, `t` south) lands (the inverse of
    /// [`Placement::source_of`]), in quads.
    pub fn target_of(&self, [s, t]: [f64; 2]) -> [f64; 2] {
        let mut size = self.size.map(|n| n as f64);
        let mut p = [s, t];
        if self.mirror {
            p[0] = size[0] - p[0];
        }
        for _ in 0..self.turns % 4 {
            p = [size[1] - p[1], p[0]];
            size = [size[1], size[0]];
        }
        p
    }

    /// The record rotation of an object turned and mirrored with the rectangle: mirroring
    /// west-east negates the turn about the up axis and the tilt about the north axis
    /// (F·Rz(b)·Ry(a)·Rx(c)·F = Rz(−b)·Ry(a)·Rx(−c), F the mirror); each clockwise quarter
    /// turn takes 90° off the turn about the up axis (positive turns are counter-clockwise).
    pub fn rotation_of(&self, r: [f32; 3]) -> [f32; 3] {
        let [a, mut b, mut c] = r;
        if self.mirror {
            b = -b;
            c = -c;
        }
        b -= 90.0 * f32::from(self.turns % 4);
        [a, b.rem_euclid(360.0), c]
    }
}

/// What a paste needs besides the map: model boxes (objects' tiles and chunks), where new
/// uids come from, and the structure new liquid takes.
pub struct PasteContext<'a> {
    /// Each model path's own box (`None`: a stand-in box).
    pub model_box: &'a dyn Fn(&str) -> Option<ModelBox>,
    /// Where new objects' uids come from.
    pub uids: &'a NewUids<'a>,
    /// The structure new liquid takes.
    pub style: LiquidStyle,
}

/// A paste in progress: its terrain and object changes, ending as one undo step.
#[derive(Debug, Default)]
pub struct PasteStroke {
    terrain: Stroke,
    objects: ObjectStroke,
    /// Objects placed so far, and how many tiles their boxes overlapped that the map lacks.
    placed: usize,
    skipped: usize,
}

impl PasteStroke {
    /// A new paste step.
    pub fn new() -> PasteStroke {
        PasteStroke {
            terrain: Stroke::new("Paste"),
            ..PasteStroke::default()
        }
    }

    /// Puts back everything the paste changed, recording nothing (a cancelled preview, or a
    /// point that failed). The terrain goes first: its chunk snapshots may hold reference
    /// lists that the objects' own snapshot then puts right.
    pub fn revert(self, map: &mut Map) {
        if let Some(edit) = self.terrain.finish(map) {
            let mut scratch = History::default();
            scratch.push(map, edit);
            scratch.undo(map);
        }
        self.objects.revert(map);
    }

    /// Ends the step: records it in `history` (when it changed anything) and says what it did.
    pub fn finish(self, map: &mut Map, history: &mut History) -> OpResult {
        let mut terrain = self.terrain;
        let refused = std::mem::take(&mut terrain.refused);
        let mut label = format!("Paste, {} object(s)", self.placed);
        if self.skipped > 0 {
            label.push_str(&format!(
                "; {} object listing(s) not written to tiles the map lacks",
                self.skipped
            ));
        }
        let edit = match (terrain.finish(map), self.objects.finish(map, "")) {
            (Some(mut t), o) => {
                t.objects.extend(o.map(|o| o.objects).unwrap_or_default());
                Some(t)
            }
            (None, o) => o,
        };
        let Some(mut edit) = edit else {
            return OpResult {
                label: "Paste".into(),
                chunks: 0,
                refused,
                tiles: Vec::new(),
            };
        };
        edit.label = format!("{label}, {} chunks", edit.chunks.len());
        OpResult::push(map, edit, history, refused)
    }
}

/// Pastes `clip` with its north-west corner (after turning) at world `at` (snapped to the
/// nearest outer vertex) into `stroke`. Refused, changing nothing, when `at` is off the map
/// or relative heights have no height to start from.
pub fn paste(
    map: &mut Map,
    clip: &Clipboard,
    at: [f64; 2],
    options: &PasteOptions,
    cx: &PasteContext,
    stroke: &mut PasteStroke,
) -> Result<(), String> {
    let place = Placement {
        at: clipboard::snap(at)?,
        size: [clip.width(), clip.height()],
        turns: options.turns % 4,
        mirror: options.mirror,
    };
    let offset = match options.heights {
        HeightMode::Absolute => 0.0,
        HeightMode::Relative => {
            let [ax, ay] = place.at;
            let target = lattice::height(
                map,
                Vertex {
                    gx: ax,
                    gy: ay,
                    inner: false,
                },
            )
            .ok_or_else(|| format!("paste: no loaded terrain under ({}, {})", at[0], at[1]))?;
            let [s, t] = place.source_of([0.0, 0.0], 1.0);
            let source = clip
                .outer
                .get(s as usize, t as usize)
                .copied()
                .flatten()
                .ok_or("paste: the copied corner landing on the point had no terrain")?;
            target - source.height
        }
    };
    if options.has(PasteLayer::Heights) {
        paste_heights(
            map,
            clip,
            &place,
            offset,
            options.blend,
            &mut stroke.terrain,
        );
    }
    if options.has(PasteLayer::Liquids) {
        paste_liquids(map, clip, &place, offset, cx.style, &mut stroke.terrain);
    }
    if options.has(PasteLayer::Textures) {
        paste_textures(map, clip, &place, &mut stroke.terrain);
    }
    if options.has(PasteLayer::Holes) {
        paste_holes(map, clip, &place, &mut stroke.terrain);
    }
    if options.has(PasteLayer::Colours) {
        paste_colours(map, clip, &place, &mut stroke.terrain);
    }
    if options.has(PasteLayer::Objects) {
        paste_objects(map, clip, &place, offset, cx, stroke)?;
    }
    Ok(())
}

/// Pastes `clip` at each of `points` as one undo step in `history`.
pub fn paste_step(
    map: &mut Map,
    clip: &Clipboard,
    points: &[[f64; 2]],
    options: &PasteOptions,
    cx: &PasteContext,
    history: &mut History,
) -> Result<OpResult, String> {
    let mut stroke = PasteStroke::new();
    for &p in points {
        if let Err(e) = paste(map, clip, p, options, cx, &mut stroke) {
            // Nothing half-done stays behind: put back what earlier points changed.
            stroke.revert(map);
            return Err(e);
        }
    }
    Ok(stroke.finish(map, history))
}

/// The lattice window the footprint covers, clamped to the map: (gx0, gy0, gx1, gy1).
fn window(place: &Placement) -> (i32, i32, i32, i32) {
    let [fw, fh] = place.footprint();
    let [ax, ay] = place.at;
    (
        ax.clamp(0, MAP_STEPS),
        ay.clamp(0, MAP_STEPS),
        (ax + fw as i32).clamp(0, MAP_STEPS),
        (ay + fh as i32).clamp(0, MAP_STEPS),
    )
}

/// The clipboard vertex landing on target vertex `v`, if the footprint covers it.
fn source_vertex(clip: &Clipboard, place: &Placement, v: Vertex) -> Option<clipboard::VertexData> {
    let half = if v.inner { 0.5 } else { 0.0 };
    let [fw, fh] = place.footprint();
    let (u, w) = (
        f64::from(v.gx - place.at[0]) + half,
        f64::from(v.gy - place.at[1]) + half,
    );
    if u < 0.0 || w < 0.0 || u > fw as f64 || w > fh as f64 {
        return None;
    }
    let [s, t] = place.source_of([u, w], 1.0);
    if v.inner {
        let (s, t) = ((s - 0.5).round(), (t - 0.5).round());
        clip.inner.get(s as usize, t as usize).copied().flatten()
    } else {
        clip.outer
            .get(s.round() as usize, t.round() as usize)
            .copied()
            .flatten()
    }
}

/// Every target vertex of the footprint: outer, then inner.
fn footprint_vertices(place: &Placement) -> impl Iterator<Item = Vertex> {
    let (gx0, gy0, gx1, gy1) = window(place);
    let outer = (gy0..=gy1).flat_map(move |gy| {
        (gx0..=gx1).map(move |gx| Vertex {
            gx,
            gy,
            inner: false,
        })
    });
    let inner = (gy0..gy1).flat_map(move |gy| {
        (gx0..gx1).map(move |gx| Vertex {
            gx,
            gy,
            inner: true,
        })
    });
    outer.chain(inner)
}

fn paste_heights(
    map: &mut Map,
    clip: &Clipboard,
    place: &Placement,
    offset: f32,
    blend: f32,
    stroke: &mut Stroke,
) {
    let (gx0, gy0, gx1, gy1) = window(place);
    let mut patch = Patch::read(map, gx0, gy0, gx1, gy1);
    let [fw, fh] = place.footprint();
    let margin = coords::yards_to_steps(f64::from(blend.max(0.0)));
    for v in footprint_vertices(place) {
        let (Some(src), Some(old)) = (source_vertex(clip, place, v), patch.get(v)) else {
            continue;
        };
        let pasted = src.height + offset;
        let new = if margin > 0.0 {
            let half = if v.inner { 0.5 } else { 0.0 };
            let (u, w) = (
                f64::from(v.gx - place.at[0]) + half,
                f64::from(v.gy - place.at[1]) + half,
            );
            let edge = u.min(fw as f64 - u).min(w).min(fh as f64 - w);
            let t = (edge / margin).clamp(0.0, 1.0);
            let weight = (t * t * (3.0 - 2.0 * t)) as f32;
            old + (pasted - old) * weight
        } else {
            pasted
        };
        patch.set(v, new);
    }
    commit_heights(map, &patch, stroke);
}

fn paste_colours(map: &mut Map, clip: &Clipboard, place: &Placement, stroke: &mut Stroke) {
    for v in footprint_vertices(place) {
        let Some(src) = source_vertex(clip, place, v) else {
            continue;
        };
        for c in v.copies() {
            crate::edit::terrain::shade::set_colour(map, c, src.colour, stroke);
        }
    }
}

/// The clipboard quad landing on target quad (`qx`, `qy`), if the footprint covers it.
fn source_quad(
    clip: &Clipboard,
    place: &Placement,
    qx: i32,
    qy: i32,
) -> Option<clipboard::QuadData> {
    let [fw, fh] = place.footprint();
    let (u, v) = (qx - place.at[0], qy - place.at[1]);
    if u < 0 || v < 0 || u >= fw as i32 || v >= fh as i32 {
        return None;
    }
    let [s, t] = place.source_of([f64::from(u) + 0.5, f64::from(v) + 0.5], 1.0);
    clip.quads
        .get(s.floor() as usize, t.floor() as usize)
        .copied()
        .flatten()
}

fn paste_holes(map: &mut Map, clip: &Clipboard, place: &Placement, stroke: &mut Stroke) {
    let (gx0, gy0, gx1, gy1) = window(place);
    for (tile, index, ccol, crow) in chunks_in(gx0 + 1, gy0 + 1, gx1, gy1) {
        let Some(t) = map.tiles.get(&tile) else {
            continue;
        };
        let (ox, oy) = (ccol * STEPS_PER_CHUNK, crow * STEPS_PER_CHUNK);
        let mut holes = t.chunks[index].holes;
        for r in 0..4 {
            for k in 0..4 {
                let quads: Option<Vec<bool>> = [(0, 0), (1, 0), (0, 1), (1, 1)]
                    .iter()
                    .map(|(dx, dy)| {
                        source_quad(clip, place, ox + 2 * k + dx, oy + 2 * r + dy).map(|q| q.hole)
                    })
                    .collect();
                let Some(quads) = quads else { continue };
                let bit = 1u16 << (r * 4 + k);
                if quads.iter().filter(|&&h| h).count() >= 2 {
                    holes |= bit;
                } else {
                    holes &= !bit;
                }
            }
        }
        if holes != t.chunks[index].holes {
            stroke.snapshot(map, tile, index);
            map.tiles.get_mut(&tile).expect("loaded").chunks[index].holes = holes;
        }
    }
}

fn paste_liquids(
    map: &mut Map,
    clip: &Clipboard,
    place: &Placement,
    offset: f32,
    style: LiquidStyle,
    stroke: &mut Stroke,
) {
    let (gx0, gy0, gx1, gy1) = window(place);
    let mut quads = Vec::new();
    for qy in gy0..gy1 {
        for qx in gx0..gx1 {
            let Some(q) = source_quad(clip, place, qx, qy) else {
                continue;
            };
            let copy = Vertex {
                gx: qx,
                gy: qy,
                inner: true,
            }
            .copies()
            .next();
            if let Some(c) = copy {
                let (r, k) = (c.index / 17, c.index % 17 - 9);
                quads.push((c.tile, c.chunk, r * 8 + k, q.liquid));
            }
        }
    }
    let mut heights = std::collections::HashMap::new();
    for v in footprint_vertices(place).filter(|v| !v.inner) {
        if let Some(h) = source_vertex(clip, place, v).and_then(|s| s.liquid) {
            heights.insert((v.gx, v.gy), h + offset);
        }
    }
    liquid::set_quads(map, &quads, &heights, style, stroke);
}

/// A texel's weight for each texture of a chunk's layers (base first), by layer.
fn layer_weights(alpha: impl Fn(usize) -> u8, layers: usize) -> [u8; MAX_LAYERS] {
    let mut w = [0u8; MAX_LAYERS];
    let mut others = 0u32;
    for (k, slot) in w
        .iter_mut()
        .enumerate()
        .take(layers.min(MAX_LAYERS))
        .skip(1)
    {
        *slot = alpha(k);
        others += u32::from(*slot);
    }
    w[0] = 255u32.saturating_sub(others) as u8;
    w
}

fn paste_textures(map: &mut Map, clip: &Clipboard, place: &Placement, stroke: &mut Stroke) {
    let (gx0, gy0, gx1, gy1) = window(place);
    let big = map.big_alpha();
    let t = TEXELS_PER_QUAD as i32;
    let [fw, fh] = place.footprint();
    for (tile, index, ccol, crow) in chunks_in(gx0 + 1, gy0 + 1, gx1, gy1) {
        if !map.tiles.contains_key(&tile) {
            continue;
        }
        // The clipboard texel landing on each of the chunk's texels, where the paste covers it.
        let mut covered: Vec<Option<Texel>> = vec![None; ALPHA_TEXELS];
        for row in 0..ALPHA_SIDE as i32 {
            for col in 0..ALPHA_SIDE as i32 {
                let u = ccol * STEPS_PER_CHUNK * t + col - place.at[0] * t;
                let v = crow * STEPS_PER_CHUNK * t + row - place.at[1] * t;
                if u < 0 || v < 0 || u >= fw as i32 * t || v >= fh as i32 * t {
                    continue;
                }
                let [s, tt] =
                    place.source_of([f64::from(u) + 0.5, f64::from(v) + 0.5], f64::from(t));
                covered[(row * ALPHA_SIDE as i32 + col) as usize] = clip
                    .texels
                    .get(s.floor() as usize, tt.floor() as usize)
                    .copied()
                    .filter(|x| x.palette != Texel::NONE);
            }
        }
        if covered.iter().all(Option::is_none) {
            continue;
        }
        let first = covered[0].map(|x| x.palette);
        let whole = first.is_some() && covered.iter().all(|x| x.map(|x| x.palette) == first);
        let result = match first.filter(|_| whole) {
            Some(p) => whole_chunk(&clip.palettes[p as usize], &covered, big),
            None => mixed_chunk(map, clip, tile, index, &covered, big),
        };
        let Some((names, mut layers)) = result else {
            stroke.refused.push((tile, index));
            continue;
        };
        // Texture indices in the tile's list, adding the names it lacks.
        let mut list = map.tiles[&tile].textures.clone();
        for (layer, name) in layers.iter_mut().zip(&names) {
            layer.texture = match list.iter().position(|n| n.eq_ignore_ascii_case(name)) {
                Some(i) => i as u32,
                None => {
                    list.push(name.clone());
                    (list.len() - 1) as u32
                }
            };
        }
        if map.tiles[&tile].chunks[index].layers == layers {
            continue;
        }
        if list != map.tiles[&tile].textures {
            stroke.snapshot_textures(map, tile);
            map.tiles.get_mut(&tile).expect("loaded").textures = list;
        }
        stroke.snapshot(map, tile, index);
        map.tiles.get_mut(&tile).expect("loaded").chunks[index].layers = layers;
    }
}

/// A chunk covered whole from one source chunk: its layers and alpha as they were (names and
/// layers; texture indices are filled in by the caller). `None` past four layers.
fn whole_chunk(
    palette: &[clipboard::LayerKind],
    covered: &[Option<Texel>],
    big: bool,
) -> Option<(Vec<String>, Vec<Layer>)> {
    if palette.is_empty() || palette.len() > MAX_LAYERS {
        return None;
    }
    let layers = palette
        .iter()
        .enumerate()
        .map(|(k, l)| Layer {
            texture: 0,
            flags: layer_flags::at_slot(l.flags, k, big),
            effect_id: l.effect_id,
            alpha: (k > 0).then(|| {
                let mut texels = Box::new([0u8; ALPHA_TEXELS]);
                for (t, c) in texels.iter_mut().zip(covered) {
                    *t = c.map_or(0, |c| c.alpha[k - 1]);
                }
                AlphaMap::from_texels(texels)
            }),
        })
        .collect();
    Some((palette.iter().map(|l| l.texture.clone()).collect(), layers))
}

/// A chunk partly covered, or from several source chunks: each texel's texture weights (the
/// source's where covered, the chunk's own elsewhere) as layers, the chunk's own textures
/// first. `None` when that takes more than four layers.
fn mixed_chunk(
    map: &Map,
    clip: &Clipboard,
    tile: TileCoord,
    index: usize,
    covered: &[Option<Texel>],
    big: bool,
) -> Option<(Vec<String>, Vec<Layer>)> {
    let t = &map.tiles[&tile];
    let chunk: &Chunk = &t.chunks[index];
    // Textures by name (first spelling wins), each with its weight per texel and the layer
    // it came from (flags, effect).
    let mut names: Vec<String> = Vec::new();
    let mut weights: Vec<Vec<u8>> = Vec::new();
    let mut kinds: Vec<(u32, u32, bool)> = Vec::new();
    let mut slot = |name: &str, flags: u32, effect: u32, own: bool| -> usize {
        match names.iter().position(|n| n.eq_ignore_ascii_case(name)) {
            Some(i) => i,
            None => {
                names.push(name.to_string());
                weights.push(vec![0; ALPHA_TEXELS]);
                kinds.push((flags, effect, own));
                names.len() - 1
            }
        }
    };
    let own: Vec<usize> = chunk
        .layers
        .iter()
        .map(|l| {
            slot(
                t.texture_name(l.texture).unwrap_or(""),
                l.flags,
                l.effect_id,
                true,
            )
        })
        .collect();
    // Only the source chunks this chunk's texels come from.
    let used: BTreeSet<u32> = covered.iter().flatten().map(|t| t.palette).collect();
    let palettes: Vec<Vec<usize>> = clip
        .palettes
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if !used.contains(&(i as u32)) {
                return Vec::new();
            }
            p.iter()
                .map(|l| slot(&l.texture, l.flags, l.effect_id, false))
                .collect()
        })
        .collect();
    for (i, c) in covered.iter().enumerate() {
        let (slots, w) = match c {
            Some(texel) => {
                let slots = &palettes[texel.palette as usize];
                (slots, layer_weights(|k| texel.alpha[k - 1], slots.len()))
            }
            None => {
                let w = layer_weights(
                    |k| chunk.layers[k].alpha.as_ref().map_or(0, |a| a.texels()[i]),
                    chunk.layers.len(),
                );
                (&own, w)
            }
        };
        for (&s, &v) in slots.iter().zip(&w) {
            weights[s][i] = weights[s][i].saturating_add(v);
        }
    }
    let needed: Vec<usize> = (0..names.len())
        .filter(|&s| weights[s].iter().any(|&w| w > 0))
        .collect();
    if needed.is_empty() || needed.len() > MAX_LAYERS {
        return None;
    }
    let layers = needed
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let (flags, effect_id, was_own) = kinds[s];
            // A texture new to the chunk, or the old base now painted over it, gets the
            // compression a painted layer gets.
            let was_alpha = was_own && flags & LAYER_USE_ALPHA != 0;
            let flags = if k > 0 && !was_alpha {
                layer_flags::gaining_alpha(flags, big)
            } else {
                flags
            };
            Layer {
                texture: 0,
                flags: layer_flags::at_slot(flags, k, big),
                effect_id,
                alpha: (k > 0).then(|| {
                    let mut texels = Box::new([0u8; ALPHA_TEXELS]);
                    texels.copy_from_slice(&weights[s]);
                    AlphaMap::from_texels(texels)
                }),
            }
        })
        .collect();
    Some((needed.iter().map(|&s| names[s].clone()).collect(), layers))
}

/// Where object `o`, copied from `source`, lands with `uid`.
pub fn moved_object(
    source: LatticeRect,
    place: &Placement,
    o: &ObjectRecord,
    offset: f32,
    uid: u32,
) -> ObjectRecord {
    let [gx, gy] = coords::world_to_lattice(o.position[0], o.position[1]);
    let local = [gx - f64::from(source.gx0), gy - f64::from(source.gy0)];
    let [u, v] = place.target_of(local);
    let [x, y] = coords::lattice_to_world(f64::from(place.at[0]) + u, f64::from(place.at[1]) + v);
    ObjectRecord {
        unique_id: uid,
        position: [x, y, o.position[2] + f64::from(offset)],
        rotation: place.rotation_of(o.rotation),
        ..o.clone()
    }
}

fn paste_objects(
    map: &mut Map,
    clip: &Clipboard,
    place: &Placement,
    offset: f32,
    cx: &PasteContext,
    stroke: &mut PasteStroke,
) -> Result<(), String> {
    if clip.objects.is_empty() {
        return Ok(());
    }
    let mut used: BTreeSet<u32> = objects::unique_ids(map)
        .into_iter()
        .map(|(_, u)| u)
        .chain(cx.uids.elsewhere(map))
        .collect();
    for o in &clip.objects {
        let uid = objects::next_unique_id_in(used.iter().copied(), cx.uids.range)?;
        used.insert(uid);
        let record = moved_object(clip.source, place, o, offset, uid);
        let placed = objects::put(
            map,
            &mut stroke.objects,
            &record,
            (cx.model_box)(&record.model),
        );
        stroke.placed += 1;
        stroke.skipped += placed.skipped.len();
    }
    Ok(())
}

/// One paste operation of an `OPS.json`: copy `from`, paste at each of `points`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasteOp {
    /// Always `paste`.
    pub tool: String,
    /// Two opposite world corners [[x0, y0], [x1, y1]] of the copied rectangle.
    pub from: [[f64; 2]; 2],
    /// Where the pasted rectangle's north-west corner lands, once per point.
    pub points: Vec<[f64; 2]>,
    /// Degrees turned clockwise seen from above: 0, 90, 180 or 270 (default 0).
    pub rotate: Option<i32>,
    /// Swap west and east, before turning (default false).
    pub mirror: Option<bool>,
    /// `absolute` (default) or `relative`.
    pub heights: Option<HeightMode>,
    /// Yards over which the edges blend into the target's heights (default 0).
    pub blend: Option<f32>,
    /// The layers carried (default all).
    pub layers: Option<Vec<PasteLayer>>,
    /// The editor's clipboard, copied earlier (perhaps from another map): pasted instead of
    /// copying `from` now. Never in a script.
    #[serde(skip)]
    pub clipboard: Option<std::sync::Arc<Clipboard>>,
}

impl PasteOp {
    /// The rectangle pasted: the clipboard's source, else `from`.
    fn source_rect(&self) -> Result<LatticeRect, String> {
        match &self.clipboard {
            Some(clip) => Ok(clip.source),
            None => LatticeRect::from_world(self.from[0], self.from[1]),
        }
    }

    /// Rejects a malformed paste.
    pub fn validate(&self) -> Result<(), String> {
        if self.tool != "paste" {
            return Err(format!("unknown tool {}", self.tool));
        }
        let rect = self.source_rect()?;
        if rect.width().saturating_mul(rect.height()) > clipboard::MAX_QUADS {
            return Err(format!(
                "`from` spans {}×{} quads: a copy holds at most four tiles' area ({} quads)",
                rect.width(),
                rect.height(),
                clipboard::MAX_QUADS
            ));
        }
        if self.points.is_empty() {
            return Err("paste needs at least one point".into());
        }
        for &p in &self.points {
            clipboard::snap(p)?;
        }
        if let Some(r) = self.rotate
            && ![0, 90, 180, 270].contains(&r)
        {
            return Err(format!("rotate must be 0, 90, 180 or 270, not {r}"));
        }
        if let Some(b) = self.blend
            && !(b >= 0.0 && b.is_finite())
        {
            return Err(format!("blend must be 0 or more yards, not {b}"));
        }
        if self.layers.as_ref().is_some_and(Vec::is_empty) {
            return Err("layers is empty: name at least one, or leave it out for all".into());
        }
        Ok(())
    }

    /// The options it pastes with.
    pub fn options(&self) -> PasteOptions {
        PasteOptions {
            turns: (self.rotate.unwrap_or(0).rem_euclid(360) / 90) as u8,
            mirror: self.mirror.unwrap_or(false),
            heights: self.heights.unwrap_or_default(),
            blend: self.blend.unwrap_or(0.0),
            layers: self
                .layers
                .clone()
                .unwrap_or_else(|| PasteLayer::ALL.to_vec()),
        }
    }

    /// The tiles it reads or changes: the copied rectangle's, and around each footprint a
    /// chunk's margin (normals are recomputed a vertex beyond the paste) and the boxes of the
    /// objects it brings, as far as `map` holds them yet (ask again once loaded).
    pub fn reach(&self, map: &Map, model_box: &dyn Fn(&str) -> Option<ModelBox>) -> Vec<TileCoord> {
        let Ok(rect) = self.source_rect() else {
            return Vec::new();
        };
        // A clipboard holds its own copy: only where it lands is read.
        let (mut out, objects): (BTreeSet<TileCoord>, Vec<_>) = match &self.clipboard {
            Some(clip) => (BTreeSet::new(), clip.objects.clone()),
            None => (
                clipboard::reach(rect).into_iter().collect(),
                clipboard::objects_inside(map, rect),
            ),
        };
        let options = self.options();
        for &p in &self.points {
            let Ok(at) = clipboard::snap(p) else { continue };
            let place = Placement {
                at,
                size: [rect.width(), rect.height()],
                turns: options.turns,
                mirror: options.mirror,
            };
            let [fw, fh] = place.footprint();
            let m = coords::CHUNK_SIZE;
            let [x1, y1] = coords::lattice_to_world(f64::from(at[0]), f64::from(at[1]));
            let [x0, y0] = coords::lattice_to_world(
                f64::from(at[0]) + fw as f64,
                f64::from(at[1]) + fh as f64,
            );
            out.extend(coords::tiles_overlapping((
                [x0 - m, y0 - m, 0.0],
                [x1 + m, y1 + m, 0.0],
            )));
            if options.has(PasteLayer::Objects) {
                for o in &objects {
                    let moved = moved_object(rect, &place, o, 0.0, o.unique_id);
                    out.extend(objects::tiles_overlapping(
                        moved.world_box(model_box(&o.model)),
                    ));
                }
            }
        }
        out.into_iter().collect()
    }
}

/// Runs one paste operation as one undo step in `history`.
pub fn apply(
    map: &mut Map,
    op: &PasteOp,
    history: &mut History,
    cx: &PasteContext,
) -> Result<OpResult, String> {
    op.validate()?;
    if let Some(clip) = &op.clipboard {
        return paste_step(map, clip, &op.points, &op.options(), cx, history);
    }
    let rect = LatticeRect::from_world(op.from[0], op.from[1])?;
    let clip = clipboard::copy(map, rect)?;
    paste_step(map, &clip, &op.points, &op.options(), cx, history)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DoodadPlacement, Tile};

    const A: [f64; 2] = [0.5, 0.5];
    const B: [f64; 2] = [1.5, 0.5];

    fn place(turns: u8, mirror: bool) -> Placement {
        // A 2×1 strip: quad A west, quad B east.
        Placement {
            at: [0, 0],
            size: [2, 1],
            turns,
            mirror,
        }
    }

    #[test]
    fn turning_clockwise_puts_the_west_end_north_and_mirroring_swaps_west_and_east() {
        // Clockwise seen from above: west goes north, so A sits over B.
        let p = place(1, false);
        assert_eq!(p.footprint(), [1, 2]);
        assert_eq!(p.source_of([0.5, 0.5], 1.0), A);
        assert_eq!(p.source_of([0.5, 1.5], 1.0), B);
        // Half a turn: B A.
        assert_eq!(place(2, false).source_of([0.5, 0.5], 1.0), B);
        // Three quarters (a quarter counter-clockwise): west goes south, B over A.
        assert_eq!(place(3, false).source_of([0.5, 0.5], 1.0), B);
        assert_eq!(place(3, false).source_of([0.5, 1.5], 1.0), A);
        // Mirrored: B A; mirrored then turned: B over A.
        assert_eq!(place(0, true).source_of([0.5, 0.5], 1.0), B);
        assert_eq!(place(1, true).source_of([0.5, 0.5], 1.0), B);
        // Texels: the same picture at 8 units a quad.
        assert_eq!(place(1, false).source_of([3.5, 12.5], 8.0), [12.5, 4.5]);
        for turns in 0..4 {
            for mirror in [false, true] {
                let p = place(turns, mirror);
                for q in [[0.25, 0.75], [1.75, 0.0], [2.0, 1.0]] {
                    let back = p.source_of(p.target_of(q), 1.0);
                    assert!((back[0] - q[0]).abs() < 1e-12 && (back[1] - q[1]).abs() < 1e-12);
                }
            }
        }
    }

    #[test]
    fn an_objects_heading_turns_with_the_rectangle() {
        // Facing north (record 0): a clockwise quarter turn faces it east (world −y).
        let r = place(1, false).rotation_of([0.0, 0.0, 0.0]);
        assert_eq!(r, [0.0, 270.0, 0.0]);
        let m = coords::placement_matrix([0.0; 3], r, 1.0);
        let forward = m.transform_vector3(glam::DVec3::X);
        assert!((forward - glam::DVec3::new(0.0, -1.0, 0.0)).length() < 1e-9);
        // Facing north-west (45°) mirrored west-east: north-east (−45°), the tilt about
        // north negated, the tilt about west kept.
        assert_eq!(
            place(0, true).rotation_of([5.0, 45.0, 10.0]),
            [5.0, 315.0, -10.0]
        );
    }

    /// One tile whose outer vertex (gx, gy) stands at 1000·(gx − gx0) + (gy − gy0) and each
    /// inner vertex half a yard above its quad's north-west corner.
    fn numbered() -> (Map, TileCoord, [i32; 2]) {
        let c = TileCoord::new(31, 31).unwrap();
        let mut map = Map::new("P");
        map.tiles.insert(c, Tile::flat(c, "a.blp", 0.0));
        let origin = [31 * 128, 31 * 128];
        for index in 0..256 {
            for i in 0..coords::VERTICES_PER_CHUNK {
                let v = Vertex::of(c, index, i);
                let h = 1000.0 * (v.gx - origin[0]) as f32
                    + (v.gy - origin[1]) as f32
                    + if v.inner { 0.5 } else { 0.0 };
                map.tiles.get_mut(&c).unwrap().chunks[index].heights[i] = h;
            }
        }
        (map, c, origin)
    }

    fn world(g: [i32; 2]) -> [f64; 2] {
        coords::lattice_to_world(f64::from(g[0]), f64::from(g[1]))
    }

    fn cx_none() -> (impl Fn(&str) -> Option<ModelBox>, NewUids<'static>) {
        (|_: &str| None, NewUids::default())
    }

    fn run(map: &mut Map, rect: LatticeRect, at: [i32; 2], options: &PasteOptions) -> OpResult {
        let (boxes, uids) = cx_none();
        let cx = PasteContext {
            model_box: &boxes,
            uids: &uids,
            style: LiquidStyle::Mh2o,
        };
        let clip = clipboard::copy(map, rect).unwrap();
        paste_step(
            map,
            &clip,
            &[world(at)],
            options,
            &cx,
            &mut History::default(),
        )
        .unwrap()
    }

    fn h(map: &Map, g: [i32; 2]) -> f32 {
        lattice::height(
            map,
            Vertex {
                gx: g[0],
                gy: g[1],
                inner: false,
            },
        )
        .unwrap()
    }

    #[test]
    fn a_turned_paste_lands_each_corner_where_the_turn_takes_it() {
        let (mut map, _, [x0, y0]) = numbered();
        let rect = LatticeRect {
            gx0: x0 + 10,
            gy0: y0 + 10,
            gx1: x0 + 12,
            gy1: y0 + 11,
        };
        let at = [x0 + 40, y0 + 40];
        let turned = PasteOptions {
            turns: 1,
            ..PasteOptions::default()
        };
        run(&mut map, rect, at, &turned);
        // Source corners: NW 10010, NE 12010, SW 10011, SE 12011. Clockwise, the footprint
        // (1 wide, 2 tall) has NW→NE, NE→SE, SE→SW, SW→NW.
        assert_eq!(h(&map, [x0 + 41, y0 + 40]), 10010.0);
        assert_eq!(h(&map, [x0 + 41, y0 + 42]), 12010.0);
        assert_eq!(h(&map, [x0 + 40, y0 + 42]), 12011.0);
        assert_eq!(h(&map, [x0 + 40, y0 + 40]), 10011.0);
        // The middle of the north edge (11010) is the middle of the east side.
        assert_eq!(h(&map, [x0 + 41, y0 + 41]), 11010.0);
        // Outside the footprint: untouched.
        assert_eq!(h(&map, [x0 + 42, y0 + 40]), 42040.0);
        // Mirrored: NE lands on NW.
        let mirrored = PasteOptions {
            mirror: true,
            ..PasteOptions::default()
        };
        run(&mut map, rect, [x0 + 60, y0 + 60], &mirrored);
        assert_eq!(h(&map, [x0 + 60, y0 + 60]), 12010.0);
        assert_eq!(h(&map, [x0 + 62, y0 + 61]), 10011.0);
    }

    #[test]
    fn relative_heights_keep_the_targets_height_at_the_point_and_blend_eases_the_edge() {
        let (mut map, _, [x0, y0]) = numbered();
        let rect = LatticeRect {
            gx0: x0 + 10,
            gy0: y0 + 10,
            gx1: x0 + 14,
            gy1: y0 + 14,
        };
        let relative = PasteOptions {
            heights: HeightMode::Relative,
            ..PasteOptions::default()
        };
        run(&mut map, rect, [x0 + 50, y0 + 20], &relative);
        // Offset: 50020 − 10010 = 40010.
        assert_eq!(h(&map, [x0 + 50, y0 + 20]), 50020.0);
        assert_eq!(h(&map, [x0 + 53, y0 + 22]), 13012.0 + 40010.0);
        // Blend over two quads (8.33 yd): the edge keeps the target, a quad in is half-way
        // (smoothstep(½) = ½), two quads in is the paste.
        let (mut map, _, _) = numbered();
        let blended = PasteOptions {
            blend: (2.0 * coords::UNIT_SIZE) as f32,
            ..PasteOptions::default()
        };
        run(&mut map, rect, [x0 + 50, y0 + 20], &blended);
        assert_eq!(h(&map, [x0 + 50, y0 + 22]), 50022.0);
        assert_eq!(h(&map, [x0 + 51, y0 + 22]), (51022.0 + 11012.0) / 2.0);
        assert_eq!(h(&map, [x0 + 52, y0 + 22]), 12012.0);
    }

    fn layer(texture: u32, fill: u8) -> Layer {
        Layer {
            texture,
            flags: LAYER_USE_ALPHA,
            effect_id: 0,
            alpha: Some(AlphaMap::filled(fill)),
        }
    }

    #[test]
    fn a_chunk_covered_whole_takes_the_source_layers_and_a_fifth_texture_is_refused() {
        let c = TileCoord::new(31, 31).unwrap();
        let mut map = Map::new("P");
        let mut tile = Tile::flat(c, "a.blp", 0.0);
        tile.textures
            .extend(["b.blp", "c.blp", "d.blp", "e.blp"].map(String::from));
        // Chunk 0: a + e (a texel pattern); chunk 2: a, b, c, d.
        let mut texels = Box::new([0u8; ALPHA_TEXELS]);
        for (i, t) in texels.iter_mut().enumerate() {
            *t = (i % 251) as u8;
        }
        tile.chunks[0].layers.push(Layer {
            alpha: Some(AlphaMap::from_texels(texels.clone())),
            ..layer(4, 0)
        });
        tile.chunks[2]
            .layers
            .extend([layer(1, 10), layer(2, 20), layer(3, 30)]);
        map.tiles.insert(c, tile);
        let chunk0 = LatticeRect {
            gx0: 31 * 128,
            gy0: 31 * 128,
            gx1: 31 * 128 + 8,
            gy1: 31 * 128 + 8,
        };
        // Onto chunk 5, aligned: its layers become chunk 0's, texel for texel.
        let r = run(
            &mut map,
            chunk0,
            [31 * 128 + 40, 31 * 128],
            &PasteOptions::default(),
        );
        assert!(r.refused.is_empty());
        assert_eq!(
            map.tiles[&c].chunks[5].layers,
            map.tiles[&c].chunks[0].layers
        );
        // Half onto chunk 2 (four textures already, none hidden): e would be a fifth.
        let before = map.tiles[&c].chunks[2].clone();
        let r = run(
            &mut map,
            chunk0,
            [31 * 128 + 12, 31 * 128],
            &PasteOptions::default(),
        );
        assert_eq!(r.refused, [(c, 2)]);
        assert_eq!(map.tiles[&c].chunks[2].layers, before.layers);
        // Chunk 1's east half took chunk 0's west half: layer e at the copied texels, its
        // west half bare a.
        let one = &map.tiles[&c].chunks[1];
        assert_eq!(one.layers.len(), 2);
        let alpha = one.layers[1].alpha.as_ref().unwrap();
        assert_eq!(alpha.get(3, 40), texels[3 * 64 + 8]);
        assert_eq!(alpha.get(3, 10), 0);
        paint_consistent(one);
    }

    fn paint_consistent(c: &Chunk) {
        crate::edit::terrain::paint::layers_consistent(c).unwrap();
    }

    #[test]
    fn holes_liquid_and_objects_come_along_turned() {
        let c = TileCoord::new(31, 31).unwrap();
        let mut map = Map::new("P");
        map.tiles.insert(c, Tile::flat(c, "a.blp", 0.0));
        let (x0, y0) = (31 * 128, 31 * 128);
        // Chunk 0: its north-west hole cut, water on its north-west quad, a tree a quarter
        // quad in from its north-west corner.
        map.tiles.get_mut(&c).unwrap().chunks[0].holes = 1;
        let water = |map: &mut Map, gx: i32, gy: i32, h: f32| {
            let copy = Vertex {
                gx,
                gy,
                inner: true,
            }
            .copies()
            .next()
            .unwrap();
            let (r, k) = (copy.index / 17, copy.index % 17 - 9);
            let q = liquid::QuadLiquid {
                liquid_type: 5,
                deep: true,
                fishable: false,
            };
            let heights = [(0, 0), (1, 0), (0, 1), (1, 1)]
                .map(|(dx, dy)| ((gx + dx, gy + dy), h))
                .into_iter()
                .collect();
            liquid::set_quads(
                map,
                &[(copy.tile, copy.chunk, r * 8 + k, Some(q))],
                &heights,
                LiquidStyle::Mh2o,
                &mut Stroke::new("t"),
            );
        };
        water(&mut map, x0, y0, 3.0);
        let [tx, ty] = coords::lattice_to_world(f64::from(x0) + 0.25, f64::from(y0) + 0.25);
        let t = map.tiles.get_mut(&c).unwrap();
        t.doodad_names.push("Tree.m2".into());
        t.doodads.push(DoodadPlacement {
            name_index: 0,
            unique_id: 77,
            position: [tx, ty, 1.0],
            rotation: [0.0; 3],
            scale: 1024,
            flags: 0,
        });
        let chunk0 = LatticeRect {
            gx0: x0,
            gy0: y0,
            gx1: x0 + 8,
            gy1: y0 + 8,
        };
        let turned = PasteOptions {
            turns: 1,
            ..PasteOptions::default()
        };
        // Onto chunk (2, 1), a quarter turn clockwise: north-west goes north-east.
        run(&mut map, chunk0, [x0 + 16, y0 + 8], &turned);
        let target = &map.tiles[&c].chunks[16 + 2];
        assert_eq!(target.holes, 1 << 3, "the north-east hole");
        let q = liquid::quad_liquid(target, 7).expect("water on the north-east quad");
        assert_eq!((q.liquid_type, q.deep), (5, true));
        assert_eq!(liquid::quad_liquid(target, 0), None);
        assert_eq!(liquid::vertex_surface(target, 0, 8), Some(3.0));
        let t = &map.tiles[&c];
        let copy = t.doodads.iter().find(|d| d.unique_id != 77).unwrap();
        assert_eq!(copy.unique_id, 78, "a fresh uid above every other");
        // A quarter quad in from the north-east corner, facing east.
        let [ex, ey] =
            coords::lattice_to_world(f64::from(x0 + 24) - 0.25, f64::from(y0 + 8) + 0.25);
        assert!((copy.position[0] - ex).abs() < 1e-6 && (copy.position[1] - ey).abs() < 1e-6);
        assert_eq!(copy.rotation, [0.0, 270.0, 0.0]);
        assert!(t.chunks[16 + 2].doodad_refs.contains(&1));
    }

    #[test]
    fn a_failing_point_leaves_nothing_behind() {
        let (mut map, c, [x0, y0]) = numbered();
        let before = map.tiles[&c].clone();
        let rect = LatticeRect {
            gx0: x0,
            gy0: y0,
            gx1: x0 + 4,
            gy1: y0 + 4,
        };
        let clip = clipboard::copy(&map, rect).unwrap();
        let (boxes, uids) = cx_none();
        let cx = PasteContext {
            model_box: &boxes,
            uids: &uids,
            style: LiquidStyle::Mh2o,
        };
        let relative = PasteOptions {
            heights: HeightMode::Relative,
            ..PasteOptions::default()
        };
        // The second point has no terrain under it: relative heights cannot start there.
        let points = [world([x0 + 20, y0 + 20]), world([x0 + 400, y0 + 20])];
        let mut history = History::default();
        let err = paste_step(&mut map, &clip, &points, &relative, &cx, &mut history);
        assert!(err.unwrap_err().contains("no loaded terrain"));
        assert_eq!(map.tiles[&c], before);
    }
}
