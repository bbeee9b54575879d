//! CPU-side terrain meshes: turns one model [`Tile`] into the flat arrays the GPU draws
//! (vertices, triangle indices and a per-chunk RGBA texture of layer alphas and shadow).
//!
//! Not for: uploading (see `render::terrain`) or anything that needs a GL context, so it can be
//! unit-tested and benchmarked on its own. Positions come from `model::coords`; this module holds
//! no coordinate constants of its own.

use super::liquid_mesh::{LiquidMesh, build_liquid_mesh};
use crate::model::chunk::{self as chunk_cells, effects_off};
use crate::model::coords::{
    VERTICES_PER_CHUNK, chunk_north_west, inner_vertex, outer_vertex, vertex_grid_position,
};
use crate::model::{Chunk, Tile, TileCoord};

/// Chunks in one tile.
pub const CHUNKS_PER_TILE: usize = 256;
/// Side length in texels of one chunk's slice of the alpha texture.
pub const ALPHA_SIDE: usize = 64;
/// Texels in one chunk's slice of the alpha texture.
pub const ALPHA_SLICE_TEXELS: usize = ALPHA_SIDE * ALPHA_SIDE;
/// Marks an unused texture-layer slot in [`TerrainVertex::layers`].
pub const NO_LAYER: u8 = 255;
/// Triangles a chunk has when no hole is cut: 8×8 quads, each a fan of four around its inner vertex.
pub const TRIANGLES_PER_CHUNK: usize = 8 * 8 * 4;
/// Quads along one side of a chunk.
const QUADS: usize = 8;

/// One terrain vertex as the shader reads it; `#[repr(C)]` so its bytes go to a VBO unchanged.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct TerrainVertex {
    /// World position (x north, y west, z up).
    pub position: [f32; 3],
    /// Unit normal in world axes, 127 = 1.0; the fourth byte is padding.
    pub normal: [i8; 4],
    /// Vertex colour RGBA, 0x7F = neutral (the shader doubles it so neutral is no tint).
    pub color: [u8; 4],
    /// Position inside the chunk: (east, south) in 0..=1, the alpha and shadow texture coordinate.
    pub uv: [f32; 2],
    /// For each of the chunk's four layer slots, the index into the tile's texture list, or
    /// [`NO_LAYER`].
    pub layers: [u8; 4],
    /// Which slice of the tile's alpha texture array belongs to this vertex's chunk (0..256).
    pub chunk: u32,
}

/// Everything the GPU needs to draw one tile.
#[derive(Debug, Clone)]
pub struct TileMesh {
    /// Which tile this is.
    pub coord: TileCoord,
    /// 145 vertices per chunk, chunk after chunk (row by row), MCVT order inside a chunk.
    pub vertices: Vec<TerrainVertex>,
    /// Triangle list over `vertices`; quads under a hole have none.
    pub indices: Vec<u32>,
    /// 256 slices of 64×64 RGBA texels (each a u32 whose bytes in memory are R, G, B, A), chunk
    /// after chunk: R, G, B = the alpha of layers 1, 2, 3; A = 255 where the shadow map shades
    /// the texel. Rows run south, columns east.
    pub alpha: Vec<u32>,
    /// Lowest and highest terrain height, for framing and culling.
    pub height_range: (f32, f32),
    /// Each chunk's area id, row by row, for the area overlay.
    pub area_ids: Vec<u32>,
    /// Each chunk's 8×8 cells (chunk after chunk, rows south, columns east): the ground effect
    /// id that grows there, 0 where none does, [`EFFECTS_OFF`] where they are switched off.
    pub effects: Vec<u32>,
    /// The tile's liquid surfaces.
    pub liquid: LiquidMesh,
}

/// Converts a model normal (x north, y west, z up, 127 = 1.0) into the vertex form.
fn pack_normal(n: [i8; 3]) -> [i8; 4] {
    [n[0], n[1], n[2], 0]
}

/// The texture slots of a chunk: the tile texture index of each layer, [`NO_LAYER`] where the
/// chunk has fewer layers or names a texture the tile does not list.
fn layer_slots(chunk: &Chunk, texture_count: usize) -> [u8; 4] {
    let mut slots = [NO_LAYER; 4];
    for (slot, layer) in slots.iter_mut().zip(&chunk.layers) {
        if (layer.texture as usize) < texture_count && layer.texture < NO_LAYER as u32 {
            *slot = layer.texture as u8;
        }
    }
    slots
}

/// Each vertex's (south, east) position in quad units, MCVT order, computed once.
static GRID: std::sync::LazyLock<[[f32; 2]; VERTICES_PER_CHUNK]> =
    std::sync::LazyLock::new(|| std::array::from_fn(vertex_grid_position));

/// For each byte of a shadow row, its eight bits (least significant first) as 0 or 0xFF.
static BIT_BYTES: std::sync::LazyLock<[[u8; 8]; 256]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|byte| std::array::from_fn(|bit| ((byte >> bit) as u8 & 1).wrapping_neg()))
});

/// Vertex colours of a chunk without MCCV.
static NEUTRAL_COLORS: [[u8; 4]; VERTICES_PER_CHUNK] =
    [crate::model::chunk::NEUTRAL_COLOR; VERTICES_PER_CHUNK];

/// Appends a chunk's 145 vertices.
fn push_vertices(
    out: &mut Vec<TerrainVertex>,
    tile: TileCoord,
    chunk_x: usize,
    chunk_y: usize,
    chunk: &Chunk,
    slots: [u8; 4],
) {
    let [north, west] = chunk_north_west(tile, chunk_x, chunk_y);
    let unit = crate::model::coords::UNIT_SIZE;
    let index = (chunk_y * 16 + chunk_x) as u32;
    let colors = chunk.vertex_colors.as_deref().unwrap_or(&NEUTRAL_COLORS);
    let grid: &[[f32; 2]; VERTICES_PER_CHUNK] = &GRID;
    for i in 0..VERTICES_PER_CHUNK {
        let [south, east] = grid[i];
        let color = colors[i];
        out.push(TerrainVertex {
            position: [
                (north - south as f64 * unit) as f32,
                (west - east as f64 * unit) as f32,
                chunk.heights[i],
            ],
            normal: pack_normal(chunk.normals[i]),
            color,
            uv: [east / QUADS as f32, south / QUADS as f32],
            layers: slots,
            chunk: index,
        });
    }
}

/// Appends the triangles of a chunk whose first vertex is `base`, skipping quads under holes.
fn push_indices(out: &mut Vec<u32>, base: u32, holes: u16) {
    for row in 0..QUADS {
        for col in 0..QUADS {
            // A hole bit covers 2×2 quads of the 4×4 low-resolution grid.
            if holes >> ((row / 2) * 4 + col / 2) & 1 == 1 {
                continue;
            }
            let nw = base + outer_vertex(row, col) as u32;
            let ne = base + outer_vertex(row, col + 1) as u32;
            let sw = base + outer_vertex(row + 1, col) as u32;
            let se = base + outer_vertex(row + 1, col + 1) as u32;
            let c = base + inner_vertex(row, col) as u32;
            // Counter-clockwise seen from above (+z) in world axes (x north, y west).
            out.extend_from_slice(&[c, ne, nw, c, se, ne, c, sw, se, c, nw, sw]);
        }
    }
}

/// Alpha of a layer slot without a map: the slot is empty.
static NO_ALPHA: [u8; 4096] = [0; 4096];
/// Alpha of a layer without a map (the file omitted it): it covers the whole chunk.
static FULL_ALPHA: [u8; 4096] = [255; 4096];

/// Appends a chunk's texels, each RGBA in a u32 whose bytes in memory are R, G, B, A: layer 1..3 alphas in R,
/// G, B, 255 in A where the shadow map is set. One pass, each texel written once, with no
/// branches in the loop, so that the compiler vectorises it.
fn push_alpha(out: &mut Vec<u32>, chunk: &Chunk) {
    let map = |k: usize| match chunk.layers.get(k) {
        Some(l) => l.alpha.as_ref().map_or(&FULL_ALPHA, |a| a.texels()),
        None => &NO_ALPHA,
    };
    let (r, g, b) = (map(1), map(2), map(3));
    let shadow = chunk.shadow.as_ref();
    let start = out.len();
    out.resize(start + ALPHA_SLICE_TEXELS, 0);
    let rows = out[start..]
        .chunks_exact_mut(ALPHA_SIDE)
        .zip(r.chunks_exact(ALPHA_SIDE))
        .zip(g.chunks_exact(ALPHA_SIDE))
        .zip(b.chunks_exact(ALPHA_SIDE));
    let expand: &[[u8; 8]; 256] = &BIT_BYTES;
    let mut a = [0u8; ALPHA_SIDE];
    for (row, (((line, r), g), b)) in rows.enumerate() {
        // The row's shadow bits as 0 / 0xFF bytes, eight at a time from a table: a variable
        // shift per texel would cost more than the rest of the loop.
        let bits = shadow.map_or(0, |s| s.rows[row]);
        for (k, eight) in a.chunks_exact_mut(8).enumerate() {
            eight.copy_from_slice(&expand[(bits >> (8 * k)) as usize & 0xFF]);
        }
        for col in 0..ALPHA_SIDE {
            line[col] = u32::from_ne_bytes([r[col], g[col], b[col], a[col]]);
        }
    }
}

/// A cell of [`TileMesh::effects`] whose ground effects are switched off.
pub const EFFECTS_OFF: u32 = u32::MAX;

/// Every chunk's 8×8 ground-effect cells (see [`TileMesh::effects`]); a damaged tile's missing
/// chunks grow nothing.
fn effect_cells(tile: &Tile) -> Vec<u32> {
    let mut out = vec![0; CHUNKS_PER_TILE * 64];
    for (i, chunk) in tile.chunks.iter().enumerate().take(CHUNKS_PER_TILE) {
        for row in 0..8 {
            for col in 0..8 {
                out[i * 64 + row * 8 + col] = if effects_off(&chunk.no_effect_doodad, row, col) {
                    EFFECTS_OFF
                } else {
                    chunk_cells::effect_at(chunk, row, col).unwrap_or(0)
                };
            }
        }
    }
    out
}

/// Builds the GPU-ready mesh of a tile.
pub fn build_tile_mesh(tile: &Tile) -> TileMesh {
    let mut vertices = Vec::with_capacity(CHUNKS_PER_TILE * VERTICES_PER_CHUNK);
    let mut indices = Vec::with_capacity(CHUNKS_PER_TILE * TRIANGLES_PER_CHUNK * 3);
    let mut alpha = Vec::with_capacity(CHUNKS_PER_TILE * ALPHA_SLICE_TEXELS);
    let mut lo = f32::INFINITY;
    let mut hi = f32::NEG_INFINITY;
    // A damaged tile may hold fewer chunks; draw the ones it has.
    for (i, chunk) in tile.chunks.iter().enumerate().take(CHUNKS_PER_TILE) {
        let (chunk_x, chunk_y) = (i % 16, i / 16);
        let base = vertices.len() as u32;
        let slots = layer_slots(chunk, tile.textures.len());
        push_vertices(&mut vertices, tile.coord, chunk_x, chunk_y, chunk, slots);
        push_indices(&mut indices, base, chunk.holes);
        push_alpha(&mut alpha, chunk);
        let (l, h) = chunk.height_range();
        lo = lo.min(l);
        hi = hi.max(h);
    }
    TileMesh {
        coord: tile.coord,
        vertices,
        indices,
        alpha,
        height_range: if lo > hi { (0.0, 0.0) } else { (lo, hi) },
        area_ids: tile
            .chunks
            .iter()
            .take(CHUNKS_PER_TILE)
            .map(|c| c.area_id)
            .collect(),
        effects: effect_cells(tile),
        liquid: build_liquid_mesh(tile),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::coords::{CHUNK_SIZE, TILE_SIZE};
    use crate::model::{AlphaMap, Layer, ShadowMap};

    fn flat_tile() -> Tile {
        Tile {
            coord: TileCoord::new(32, 32).unwrap(),
            flags: 0,
            textures: vec!["a.blp".into(), "b.blp".into()],
            texture_flags: None,
            doodad_names: vec![],
            wmo_names: vec![],
            doodads: vec![],
            wmos: vec![],
            chunks: (0..256).map(|_| Chunk::flat(10.0)).collect(),
            flight_bounds: None,
            unknown_chunks: vec![],
            quirks: Default::default(),
        }
    }

    #[test]
    fn a_flat_tile_has_every_vertex_and_triangle() {
        let mesh = build_tile_mesh(&flat_tile());
        assert_eq!(mesh.vertices.len(), 256 * 145);
        assert_eq!(mesh.indices.len(), 256 * TRIANGLES_PER_CHUNK * 3);
        assert_eq!(mesh.alpha.len(), 256 * ALPHA_SLICE_TEXELS);
        assert_eq!(mesh.height_range, (10.0, 10.0));
        assert!(
            mesh.indices
                .iter()
                .all(|&i| (i as usize) < mesh.vertices.len())
        );
    }

    #[test]
    fn positions_span_the_tile_from_its_north_west_corner() {
        let tile = flat_tile();
        let mesh = build_tile_mesh(&tile);
        let [nx, ny] = tile.coord.north_west();
        let first = mesh.vertices[0].position;
        assert_eq!(first, [nx as f32, ny as f32, 10.0]);
        let last = mesh.vertices.last().unwrap().position;
        assert!((last[0] as f64 - (nx - TILE_SIZE)).abs() < 1e-2);
        assert!((last[1] as f64 - (ny - TILE_SIZE)).abs() < 1e-2);
        // The first inner vertex sits half a unit south-east of the corner.
        let inner = mesh.vertices[9].position;
        assert!((inner[0] as f64 - (nx - CHUNK_SIZE / 16.0)).abs() < 1e-2);
        assert_eq!(mesh.vertices[9].uv, [0.5 / 8.0, 0.5 / 8.0]);
        assert_eq!(mesh.vertices[145].chunk, 1);
    }

    #[test]
    fn triangles_face_up() {
        let mesh = build_tile_mesh(&flat_tile());
        for tri in mesh.indices.chunks_exact(3).take(8) {
            let p: Vec<_> = tri
                .iter()
                .map(|&i| mesh.vertices[i as usize].position)
                .collect();
            let a = [p[1][0] - p[0][0], p[1][1] - p[0][1]];
            let b = [p[2][0] - p[0][0], p[2][1] - p[0][1]];
            assert!(a[0] * b[1] - a[1] * b[0] > 0.0, "{tri:?}");
        }
    }

    #[test]
    fn a_hole_removes_its_four_quads() {
        let mut tile = flat_tile();
        tile.chunks[0].holes = 0b1 | 1 << 15;
        let mesh = build_tile_mesh(&tile);
        assert_eq!(
            mesh.indices.len(),
            (256 * TRIANGLES_PER_CHUNK - 2 * 4 * 4) * 3
        );
        // Quad (0, 0)'s inner vertex is no longer used; quad (0, 2)'s still is.
        let used = |v: usize| mesh.indices.contains(&(v as u32));
        assert!(!used(inner_vertex(0, 0)));
        assert!(!used(inner_vertex(1, 1)));
        assert!(used(inner_vertex(0, 2)));
        assert!(!used(inner_vertex(7, 7)));
    }

    #[test]
    fn layers_alpha_and_shadow_land_in_their_channels() {
        let mut tile = flat_tile();
        let mut texels = Box::new([0u8; 4096]);
        texels[64 + 2] = 200; // row 1, column 2
        let chunk = &mut tile.chunks[3];
        chunk.layers.push(Layer {
            texture: 1,
            flags: crate::model::chunk::LAYER_USE_ALPHA,
            effect_id: 0,
            alpha: Some(AlphaMap::from_texels(texels)),
        });
        chunk.layers.push(Layer {
            texture: 9, // not in the tile's list
            flags: 0,
            effect_id: 0,
            alpha: None,
        });
        let mut rows = Box::new([0u64; 64]);
        rows[5] = 1 << 7;
        chunk.shadow = Some(ShadowMap { rows });
        let mesh = build_tile_mesh(&tile);
        let slice: &[u8] =
            bytemuck::cast_slice(&mesh.alpha[3 * ALPHA_SLICE_TEXELS..4 * ALPHA_SLICE_TEXELS]);
        assert_eq!(slice[(64 + 2) * 4], 200);
        assert_eq!(slice[(64 + 3) * 4], 0);
        assert_eq!(slice[1], 255, "an alpha-less layer covers everything");
        assert_eq!(slice[(5 * 64 + 7) * 4 + 3], 255);
        assert_eq!(slice[(5 * 64 + 6) * 4 + 3], 0);
        assert_eq!(mesh.vertices[3 * 145].layers, [0, 1, NO_LAYER, NO_LAYER]);
        assert_eq!(mesh.vertices[0].layers, [0, NO_LAYER, NO_LAYER, NO_LAYER]);
    }

    #[test]
    fn vertex_colours_default_to_neutral() {
        let mut tile = flat_tile();
        let mut colors = Box::new([[0x7F, 0x7F, 0x7F, 0xFF]; 145]);
        colors[4] = [255, 0, 0, 255];
        tile.chunks[1].vertex_colors = Some(colors);
        let mesh = build_tile_mesh(&tile);
        assert_eq!(mesh.vertices[4].color, [0x7F, 0x7F, 0x7F, 0xFF]);
        assert_eq!(mesh.vertices[145 + 4].color, [255, 0, 0, 255]);
    }

    #[test]
    fn a_short_tile_does_not_panic() {
        let mut tile = flat_tile();
        tile.chunks.truncate(10);
        let mesh = build_tile_mesh(&tile);
        assert_eq!(mesh.vertices.len(), 10 * 145);
    }
}
