//! CPU-side liquid meshes: one quad per wet liquid quad of each chunk's layers, at the layer's
//! surface heights, with the water depth and the liquid's kind at each corner for the shader.
//!
//! Not for: uploading (see `render::liquid`) or editing (see `edit::terrain::liquid`). Positions come
//! from `model::coords`.

use crate::model::coords::{outer_vertex, vertex_world_xy};
use crate::model::liquid::{LIQUID_QUADS, classic_kind, liquid_type};
use crate::model::{Chunk, Tile};

/// One liquid vertex as the shader reads it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct LiquidVertex {
    /// World position (x north, y west, z up) on the surface.
    pub position: [f32; 3],
    /// Yards of liquid above the ground here (negative where the ground is above the surface).
    pub depth: f32,
    /// The classic kind: 0 water, 1 ocean, 2 magma, 3 slime.
    pub kind: u32,
}

/// A tile's liquid surfaces.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiquidMesh {
    /// Four vertices per wet quad.
    pub vertices: Vec<LiquidVertex>,
    /// Two triangles per wet quad.
    pub indices: Vec<u32>,
}

impl LiquidMesh {
    /// True when the tile has no liquid to draw.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Number of quads.
    pub fn quad_count(&self) -> usize {
        self.indices.len() / 6
    }
}

/// The shader's kind number for a LiquidType id.
fn kind_index(t: u16) -> u32 {
    match classic_kind(t) {
        liquid_type::OCEAN => 1,
        liquid_type::MAGMA => 2,
        liquid_type::SLIME => 3,
        _ => 0,
    }
}

/// Builds the liquid surfaces of a tile.
pub fn build_liquid_mesh(tile: &Tile) -> LiquidMesh {
    let mut mesh = LiquidMesh::default();
    for (i, chunk) in tile.chunks.iter().enumerate().take(256) {
        push_chunk(&mut mesh, tile, i % 16, i / 16, chunk);
    }
    mesh
}

/// Adds the wet quads of one chunk's layers.
fn push_chunk(mesh: &mut LiquidMesh, tile: &Tile, cx: usize, cy: usize, chunk: &Chunk) {
    let Some(liquid) = &chunk.liquid else {
        return;
    };
    for layer in &liquid.layers {
        let wet = layer.wet_quads();
        if wet == 0 {
            continue;
        }
        let heights = layer.surface_heights();
        let kind = kind_index(layer.liquid_type);
        for q in 0..LIQUID_QUADS * LIQUID_QUADS {
            if wet >> q & 1 == 0 {
                continue;
            }
            let (row, col) = (q / LIQUID_QUADS, q % LIQUID_QUADS);
            let base = mesh.vertices.len() as u32;
            for (r, c) in [
                (row, col),
                (row, col + 1),
                (row + 1, col + 1),
                (row + 1, col),
            ] {
                let surface = layer.surface_height_at(&heights, r, c);
                let v = outer_vertex(r, c);
                let [x, y] = vertex_world_xy(tile.coord, cx, cy, v);
                mesh.vertices.push(LiquidVertex {
                    position: [x as f32, y as f32, surface],
                    depth: surface - chunk.heights[v],
                    kind,
                });
            }
            mesh.indices
                .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TileCoord;
    use crate::model::liquid::{ChunkLiquid, LiquidLayer, LiquidOrigin};

    #[test]
    fn each_wet_quad_is_one_surface_quad_at_its_heights() {
        let coord = TileCoord::new(10, 20).unwrap();
        let mut tile = Tile::flat(coord, "a.blp", 5.0);
        let mut heights = vec![8.0; 4];
        heights[3] = 9.0;
        tile.chunks[17].liquid = Some(ChunkLiquid {
            layers: vec![LiquidLayer {
                liquid_type: 7, // slow magma
                vertex_format: 1,
                min_height: 8.0,
                max_height: 9.0,
                x: 2,
                y: 3,
                width: 1,
                height: 1,
                exists: u64::MAX,
                exists_omitted: true,
                exists_padding: 0,
                heights: Some(heights),
                depths: None,
                uvs: None,
                origin: LiquidOrigin::Mh2o,
            }],
            attributes: None,
        });
        let mesh = build_liquid_mesh(&tile);
        assert_eq!(mesh.quad_count(), 1, "only the rectangle's one quad");
        let v = &mesh.vertices;
        assert_eq!(v[0].kind, 2);
        // Corner order: (row, col), (row, col+1), (row+1, col+1), (row+1, col).
        assert_eq!(
            v.iter().map(|v| v.position[2]).collect::<Vec<_>>(),
            [8.0, 8.0, 9.0, 8.0]
        );
        assert_eq!(v[2].depth, 4.0);
        let [x, y] = vertex_world_xy(coord, 1, 1, outer_vertex(3, 2));
        assert_eq!([v[0].position[0], v[0].position[1]], [x as f32, y as f32]);
    }
}
