//! A tile seen straight from above, drawn on the CPU: its texture layers blended by their alpha
//! maps, tinted by the vertex colours, lit by the sun through the normals, darkened by the baked
//! shadows, liquids laid over where they stand above the ground, holes black. The
//! same light and blend as the editor's terrain shader (`render::terrain`), so a minimap looks
//! like the view from above.
//!
//! Why the CPU and not the GPU: a top-down picture of a height field has nothing to hide
//! behind anything else, so it is a per-pixel formula; on the CPU it runs without a window or
//! GL driver (servers, CI, Windows' console alike), gives the same bytes on every machine, and
//! a tile takes milliseconds.
//!
//! Image orientation: row 0 is the tile's north edge (chunk row 0), column 0 its west edge
//! (chunk column 0), as the tile's own chunk grid lies.
//!
//! Not for: file names and archives (`minimap::names`, `minimap::export`).

use std::collections::HashMap;

use crate::assets::blp::Image;
use crate::model::coords::{CHUNKS_PER_SIDE, SUN, inner_vertex, outer_vertex};
use crate::model::liquid::{LIQUID_QUADS, liquid_type};
use crate::model::{Chunk, Tile};

/// A layer texture brought down to the size one repeat covers in the picture: at minimap scale
/// a texture repeat (an eighth of a chunk) is a few pixels, so its colour is its mean over
/// each of those pixels (a box-filtered mip), not a texel picked out of it.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerTexture {
    /// Side of the reduced texture.
    side: usize,
    /// Linear RGB, 0..1, row by row.
    rgb: Vec<[f32; 3]>,
}

impl LayerTexture {
    /// `image` box-filtered down to `side`×`side` (at least 1), as the editor's texture store
    /// reduces textures (`assets::textures::resample`).
    pub fn from_image(image: &Image, side: usize) -> LayerTexture {
        let side = side.max(1);
        let rgba = crate::assets::textures::resample(image, side);
        let rgb = rgba
            .chunks(4)
            .map(|p| [p[0], p[1], p[2]].map(|c| f32::from(c) / 255.0))
            .collect();
        LayerTexture { side, rgb }
    }

    /// One colour all over: the stand-in of a texture that is not found.
    pub fn solid(rgb: [u8; 3]) -> LayerTexture {
        LayerTexture {
            side: 1,
            rgb: vec![rgb.map(|c| f32::from(c) / 255.0)],
        }
    }

    /// The reduced texture's values as bytes, for fingerprints of what a picture was drawn from.
    pub fn bytes(&self) -> Vec<u8> {
        self.rgb
            .iter()
            .flat_map(|c| c.iter().flat_map(|v| v.to_le_bytes()))
            .collect()
    }

    /// The colour at repeat coordinates (`u`, `v`) (any real; the texture wraps), bilinear.
    fn sample(&self, u: f32, v: f32) -> [f32; 3] {
        let s = self.side as f32;
        let (x, y) = (u.rem_euclid(1.0) * s - 0.5, v.rem_euclid(1.0) * s - 0.5);
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let at = |xi: f32, yi: f32| {
            let xi = (xi as i64).rem_euclid(self.side as i64) as usize;
            let yi = (yi as i64).rem_euclid(self.side as i64) as usize;
            self.rgb[yi * self.side + xi]
        };
        let (a, b, c, d) = (
            at(x0, y0),
            at(x0 + 1.0, y0),
            at(x0, y0 + 1.0),
            at(x0 + 1.0, y0 + 1.0),
        );
        std::array::from_fn(|k| {
            let top = a[k] + (b[k] - a[k]) * fx;
            let bottom = c[k] + (d[k] - c[k]) * fx;
            top + (bottom - top) * fy
        })
    }
}

/// The textures a tile's layers name, by path (as the tile spells it).
pub type LayerTextures = HashMap<String, LayerTexture>;

/// The side a layer texture is reduced to for a picture `samples` across a tile: the samples
/// one texture repeat covers (a tile holds 16 chunks of 8 repeats).
pub fn texture_side(samples: usize) -> usize {
    (samples / (CHUNKS_PER_SIDE * 8)).max(1)
}

/// Draws `tile` from above as an RGBA picture `side`×`side` (2×2 samples a pixel, averaged).
/// `textures` holds each of the tile's texture paths; a missing one is drawn mid grey.
pub fn draw_tile(tile: &Tile, textures: &LayerTextures, side: usize) -> Vec<u8> {
    let samples = side * 2;
    let sun = normalised(SUN);
    let grey = LayerTexture::solid([128, 128, 128]);
    let layer_textures: Vec<&LayerTexture> = tile
        .textures
        .iter()
        .map(|t| textures.get(t).unwrap_or(&grey))
        .collect();
    let mut fine = vec![[0.0f32; 4]; samples * samples];
    let per_chunk = samples as f32 / CHUNKS_PER_SIDE as f32;
    for (i, out) in fine.iter_mut().enumerate() {
        let (sx, sy) = (i % samples, i / samples);
        // Quad units across the tile: 8 quads a chunk.
        let qx = (sx as f32 + 0.5) / per_chunk * 8.0;
        let qy = (sy as f32 + 0.5) / per_chunk * 8.0;
        let (cx, cy) = ((qx / 8.0) as usize, (qy / 8.0) as usize);
        let chunk = tile.chunk(cx.min(15), cy.min(15));
        *out = shade(
            chunk,
            &layer_textures,
            qx - cx as f32 * 8.0,
            qy - cy as f32 * 8.0,
            sun,
        );
    }
    let mut rgba = Vec::with_capacity(side * side * 4);
    for y in 0..side {
        for x in 0..side {
            let mut sum = [0.0f32; 4];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let p = fine[(y * 2 + dy) * samples + x * 2 + dx];
                for k in 0..4 {
                    sum[k] += p[k];
                }
            }
            rgba.extend(sum.map(|s| (s / 4.0 * 255.0).round().clamp(0.0, 255.0) as u8));
        }
    }
    rgba
}

fn normalised(v: [f32; 3]) -> [f32; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|c| c / l)
}

/// The colour (linear RGBA, 0..1) of chunk `chunk` at quad coordinates (`fx`, `fy`), each 0..8.
fn shade(chunk: &Chunk, textures: &[&LayerTexture], fx: f32, fy: f32, sun: [f32; 3]) -> [f32; 4] {
    let (col, row) = ((fx as usize).min(7), (fy as usize).min(7));
    // A hole is black: the client's minimaps hold no alpha (DXT1 without it).
    if chunk.has_hole(row / 2, col / 2) {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let corners = Corners::at(fx, fy);
    // Layers: the base, then each blended over by its alpha map (64×64 over the chunk).
    let (ar, ac) = (
        ((fy / 8.0 * 64.0) as usize).min(63),
        ((fx / 8.0 * 64.0) as usize).min(63),
    );
    let mut color = [0.5f32; 3];
    for (k, layer) in chunk.layers.iter().take(4).enumerate() {
        let Some(tex) = textures.get(layer.texture as usize) else {
            continue;
        };
        let c = tex.sample(fx, fy);
        let a = match (k, &layer.alpha) {
            (0, _) => 1.0,
            (_, Some(map)) => f32::from(map.get(ar, ac)) / 255.0,
            (_, None) => 0.0,
        };
        for i in 0..3 {
            color[i] += (c[i] - color[i]) * a;
        }
    }
    // MCCV: 0x7F is neutral, so twice the stored value is the tint.
    if let Some(colors) = &chunk.vertex_colors {
        let tint = corners.mix(|i| {
            let [r, g, b, _] = colors[i];
            [r, g, b].map(f32::from)
        });
        for i in 0..3 {
            color[i] *= (tint[i] / 255.0 * 2.0).clamp(0.0, 2.0);
        }
    }
    let n = normalised(corners.mix(|i| chunk.normals[i].map(f32::from)));
    let diffuse = (-(n[0] * sun[0] + n[1] * sun[1] + n[2] * sun[2])).max(0.0);
    let mut light = 0.4 + 0.6 * diffuse;
    if chunk.shadow.as_ref().is_some_and(|s| s.get(ar, ac)) {
        light *= 0.55;
    }
    let mut rgb = color.map(|c| c * light);
    let ground = corners.mix(|i| [chunk.heights[i], 0.0, 0.0])[0];
    if let Some((liquid, depth)) = liquid_at(chunk, row, col, ground) {
        // Deeper water lets less of the ground through; lava and slime hide it.
        let opacity = match liquid {
            LiquidLook::Water | LiquidLook::Ocean => (0.55 + depth / 20.0).min(0.9),
            LiquidLook::Magma | LiquidLook::Slime => 1.0,
        };
        let over = liquid.color();
        for i in 0..3 {
            rgb[i] += (over[i] - rgb[i]) * opacity;
        }
    }
    [rgb[0], rgb[1], rgb[2], 1.0]
}

/// How a liquid is drawn from above.
#[derive(Debug, Clone, Copy, PartialEq)]
enum LiquidLook {
    Water,
    Ocean,
    Magma,
    Slime,
}

impl LiquidLook {
    fn color(self) -> [f32; 3] {
        match self {
            LiquidLook::Water => [0.16, 0.33, 0.45],
            LiquidLook::Ocean => [0.08, 0.22, 0.36],
            LiquidLook::Magma => [0.95, 0.42, 0.08],
            LiquidLook::Slime => [0.33, 0.58, 0.14],
        }
    }
}

/// The liquid over quad (`row`, `col`) of `chunk`, when its surface stands above `ground`,
/// with its depth there; the first layer that covers the quad.
fn liquid_at(chunk: &Chunk, row: usize, col: usize, ground: f32) -> Option<(LiquidLook, f32)> {
    let liquid = chunk.liquid.as_ref()?;
    liquid.layers.iter().find_map(|layer| {
        if layer.wet_quads() >> (row * LIQUID_QUADS + col) & 1 == 0 {
            return None;
        }
        let heights = layer.surface_heights();
        let surface = [(0, 0), (0, 1), (1, 0), (1, 1)]
            .iter()
            .map(|(dr, dc)| layer.surface_height_at(&heights, row + dr, col + dc))
            .sum::<f32>()
            / 4.0;
        let look = match crate::model::liquid::classic_kind(layer.liquid_type) {
            liquid_type::OCEAN => LiquidLook::Ocean,
            liquid_type::MAGMA => LiquidLook::Magma,
            liquid_type::SLIME => LiquidLook::Slime,
            _ => LiquidLook::Water,
        };
        (surface > ground).then_some((look, surface - ground))
    })
}

/// The three vertices of the triangle a point of a chunk lies in, with their weights: each
/// quad is four triangles around its inner vertex, as the client draws it.
struct Corners {
    index: [usize; 3],
    weight: [f32; 3],
}

impl Corners {
    /// The triangle under quad coordinates (`fx`, `fy`), each 0..8.
    fn at(fx: f32, fy: f32) -> Corners {
        let (col, row) = ((fx as usize).min(7), (fy as usize).min(7));
        // Position in the quad, -1..1 from its centre.
        let (u, v) = ((fx - col as f32) * 2.0 - 1.0, (fy - row as f32) * 2.0 - 1.0);
        let centre = inner_vertex(row, col);
        // The triangle is the one whose outer edge the point faces: the point is the centre
        // moved a fraction `t` of the way to a point of that edge, so its weights are the
        // centre's (1 - t) and the edge point's, shared by the edge's two corners.
        let t = u.abs().max(v.abs());
        let (a, b, along) = if v.abs() >= u.abs() {
            let edge = if v < 0.0 { row } else { row + 1 };
            ((edge, col), (edge, col + 1), u)
        } else {
            let edge = if u < 0.0 { col } else { col + 1 };
            ((row, edge), (row + 1, edge), v)
        };
        Corners {
            index: [centre, outer_vertex(a.0, a.1), outer_vertex(b.0, b.1)],
            weight: [1.0 - t, (t - along) / 2.0, (t + along) / 2.0],
        }
    }

    /// The weighted mix of a per-vertex value.
    fn mix(&self, value: impl Fn(usize) -> [f32; 3]) -> [f32; 3] {
        let mut out = [0.0; 3];
        for (i, w) in self.index.iter().zip(self.weight) {
            let v = value(*i);
            for k in 0..3 {
                out[k] += v[k] * w;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TileCoord;

    fn solid(rgb: [u8; 3]) -> LayerTextures {
        [("T".to_string(), LayerTexture::solid(rgb))].into()
    }

    #[test]
    fn a_flat_tile_is_its_texture_lit_by_the_sun_everywhere() {
        let tile = Tile::flat(TileCoord::new(1, 1).unwrap(), "T", 5.0);
        let img = draw_tile(&tile, &solid([200, 100, 50]), 32);
        let sun = normalised(SUN);
        let light = 0.4 + 0.6 * -sun[2];
        let want = [200.0, 100.0, 50.0].map(|c: f32| (c * light).round() as u8);
        for p in img.chunks(4) {
            for k in 0..3 {
                assert!(
                    (p[k] as i32 - want[k] as i32).abs() <= 1,
                    "{p:?} vs {want:?}"
                );
            }
            assert_eq!(p[3], 255);
        }
    }

    #[test]
    fn holes_are_black_and_shadows_darker_where_they_are() {
        let mut tile = Tile::flat(TileCoord::new(1, 1).unwrap(), "T", 5.0);
        // Chunk (0, 0): the north-west hole cell; chunk (1, 0): shadow on its first texel row.
        tile.chunks[0].holes = 1;
        let mut rows = Box::new([0u64; 64]);
        rows[..8].fill(u64::MAX);
        tile.chunks[1].shadow = Some(crate::model::ShadowMap { rows });
        let img = draw_tile(&tile, &solid([200, 200, 200]), 256);
        let px = |x: usize, y: usize| &img[(y * 256 + x) * 4..(y * 256 + x) * 4 + 4];
        // A chunk is 16 pixels; a hole cell a quarter of it.
        assert_eq!(px(1, 1), [0, 0, 0, 255]);
        assert!(px(5, 5)[0] > 100);
        let lit = px(16 + 8, 12)[0];
        let shaded = px(16 + 8, 0)[0];
        assert!(
            f32::from(shaded) < f32::from(lit) * 0.6,
            "{shaded} vs {lit}"
        );
    }

    #[test]
    fn a_slope_facing_the_sun_is_brighter_than_one_facing_away() {
        let mut tile = Tile::flat(TileCoord::new(1, 1).unwrap(), "T", 5.0);
        // West half of the tile faces north-west (towards the light), east half south-east.
        for (k, c) in tile.chunks.iter_mut().enumerate() {
            let n = if k % 16 < 8 {
                [60, 60, 90]
            } else {
                [-60, -60, 90]
            };
            c.normals.fill(n);
        }
        let img = draw_tile(&tile, &solid([200, 200, 200]), 64);
        let (west, east) = (img[(32 * 64 + 8) * 4], img[(32 * 64 + 56) * 4]);
        assert!(west > east + 40, "{west} vs {east}");
    }

    #[test]
    fn corners_interpolate_a_plane_exactly() {
        let plane = |x: f32, y: f32| 3.0 * x - 2.0 * y + 7.0;
        let value = |i: usize| {
            let (row, rem) = (i / 17, i % 17);
            let (x, y) = if rem < 9 {
                (rem as f32, row as f32)
            } else {
                (rem as f32 - 9.0 + 0.5, row as f32 + 0.5)
            };
            [plane(x, y), 0.0, 0.0]
        };
        for (fx, fy) in [
            (0.1, 0.2),
            (3.7, 5.5),
            (7.99, 0.01),
            (4.5, 4.5),
            (2.25, 6.9),
        ] {
            let got = Corners::at(fx, fy).mix(value)[0];
            assert!((got - plane(fx, fy)).abs() < 1e-4, "({fx}, {fy}): {got}");
        }
    }

    #[test]
    fn a_layer_texture_repeats_and_blends_between_its_texels() {
        // Black and white halves, reduced to 2×1 texels: a repeat's quarter points are the
        // texel centres, its edges wrap to the other side.
        let mut rgba = Vec::new();
        for x in 0..4 {
            let v = if x < 2 { 0 } else { 255 };
            rgba.extend([v, v, v, 255]);
        }
        let image = Image {
            width: 4,
            height: 1,
            rgba,
        };
        let t = LayerTexture::from_image(&image, 2);
        let grey = |u: f32| t.sample(u, 0.25)[0];
        assert!(grey(0.25) < 0.01 && grey(0.75) > 0.99);
        assert!((grey(0.5) - 0.5).abs() < 0.01, "between the texels");
        assert!((grey(1.25) - grey(0.25)).abs() < 1e-6 && (grey(-0.25) - grey(0.75)).abs() < 1e-6);
        assert!((grey(0.0) - 0.5).abs() < 0.01, "the edge wraps");
        assert_eq!(texture_side(512), 4);
    }
}
