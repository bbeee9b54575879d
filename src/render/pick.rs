//! Picking on the CPU: the terrain height under a world position (interpolated over the same
//! triangles the mesh draws) and the first terrain point a ray hits.
//!
//! Not for: GPU read-backs; the model is the truth and is already in memory.

use glam::Vec3;

use crate::model::coords::{UNIT_SIZE, inner_vertex, outer_vertex, world_to_chunk_grid};
use crate::model::{Map, TileCoord};

/// What lies under a point of the terrain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerrainPoint {
    /// World position on the surface.
    pub world: [f64; 3],
    /// The tile it is on.
    pub tile: TileCoord,
    /// Chunk column in the tile (0..16).
    pub chunk_x: usize,
    /// Chunk row in the tile (0..16).
    pub chunk_y: usize,
    /// The chunk's area id.
    pub area_id: u32,
}

/// The terrain under world (x, y): `None` off the loaded tiles or inside a hole.
pub fn terrain_at(map: &Map, x: f64, y: f64) -> Option<TerrainPoint> {
    surface_at(map, x, y, false)
}

/// The terrain surface under world (x, y), holes included when `through_holes` (the surface a
/// hole cuts is still where the brush acts: a hole must be clickable to fill it).
pub fn surface_at(map: &Map, x: f64, y: f64, through_holes: bool) -> Option<TerrainPoint> {
    let (tile, chunk_x, chunk_y, [south, east]) = world_to_chunk_grid(x, y)?;
    let chunk = map.tiles.get(&tile)?.chunks.get(chunk_y * 16 + chunk_x)?;
    let row = (south.floor() as usize).min(7);
    let col = (east.floor() as usize).min(7);
    if !through_holes && chunk.has_hole(row / 2, col / 2) {
        return None;
    }
    // Barycentric interpolation in the fan triangle around the quad's inner vertex, as drawn.
    let (fs, fe) = (south - row as f32, east - col as f32);
    let h = |i: usize| chunk.heights[i];
    let c = h(inner_vertex(row, col));
    let (nw, ne) = (h(outer_vertex(row, col)), h(outer_vertex(row, col + 1)));
    let (sw, se) = (
        h(outer_vertex(row + 1, col)),
        h(outer_vertex(row + 1, col + 1)),
    );
    // Offsets from the centre: u east, v south, each -0.5..0.5.
    let (u, v) = (fe - 0.5, fs - 0.5);
    let z = if v.abs() >= u.abs() {
        if v < 0.0 {
            fan(c, nw, ne, -v, u)
        } else {
            fan(c, sw, se, v, u)
        }
    } else if u > 0.0 {
        fan(c, ne, se, u, v)
    } else {
        fan(c, nw, sw, -u, v)
    };
    Some(TerrainPoint {
        world: [x, y, z as f64],
        tile,
        chunk_x,
        chunk_y,
        area_id: chunk.area_id,
    })
}

/// Height in a fan triangle (centre `c`, edge corners `a` at side -0.5 and `b` at +0.5):
/// `depth` is how far out from the centre toward the edge (0..0.5), `side` the position along
/// the edge (-0.5..0.5).
fn fan(c: f32, a: f32, b: f32, depth: f32, side: f32) -> f32 {
    let t = depth * 2.0; // 0 at the centre, 1 on the edge
    let edge = if t > 1e-6 {
        let s = (side / depth * 0.5 + 0.5).clamp(0.0, 1.0);
        a + (b - a) * s
    } else {
        c
    };
    c + (edge - c) * t
}

/// The first terrain point along a ray, within `max_distance` yards. Holes let the ray through
/// unless `holes_solid` (picking for the brushes and the cursor treats them as surface).
pub fn raycast(
    map: &Map,
    origin: Vec3,
    dir: Vec3,
    max_distance: f32,
    holes_solid: bool,
) -> Option<TerrainPoint> {
    let step = UNIT_SIZE as f32 * 0.5;
    let terrain_at = |map: &Map, x: f64, y: f64| surface_at(map, x, y, holes_solid);
    let above = |p: Vec3| terrain_at(map, p.x as f64, p.y as f64).map(|t| p.z as f64 - t.world[2]);
    let mut prev_t = 0.0f32;
    let mut prev = above(origin);
    let mut t = step;
    while t <= max_distance {
        let p = origin + dir * t;
        let now = above(p);
        if let (Some(a), Some(b)) = (prev, now)
            && a >= 0.0
            && b < 0.0
        {
            // Bisect between the last point above and the first below.
            let (mut lo, mut hi) = (prev_t, t);
            for _ in 0..20 {
                let mid = (lo + hi) * 0.5;
                match above(origin + dir * mid) {
                    Some(d) if d >= 0.0 => lo = mid,
                    _ => hi = mid,
                }
            }
            let hit = origin + dir * lo;
            return terrain_at(map, hit.x as f64, hit.y as f64);
        }
        if now.is_some_and(|d| d < 0.0) && prev.is_none() {
            // Entered the terrain from a hole or from off the map: the crossing is here.
            return terrain_at(map, p.x as f64, p.y as f64);
        }
        prev = now;
        prev_t = t;
        // Far from the ground the march can take longer strides.
        let gap = now.map_or(step, |d| (d as f32 * 0.5).max(step));
        t += gap.min(step * 16.0);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::coords::vertex_world_xy;
    use crate::model::{Chunk, Tile};

    fn map_with_one_tile(height: impl Fn(usize) -> f32) -> Map {
        let coord = TileCoord::new(30, 31).unwrap();
        let mut map = Map::new("T");
        let chunks = (0..256)
            .map(|_| {
                let mut c = Chunk::flat(0.0);
                for (i, h) in c.heights.iter_mut().enumerate() {
                    *h = height(i);
                }
                c
            })
            .collect();
        map.tiles.insert(
            coord,
            Tile {
                coord,
                flags: 0,
                textures: vec![],
                texture_flags: None,
                doodad_names: vec![],
                wmo_names: vec![],
                doodads: vec![],
                wmos: vec![],
                chunks,
                flight_bounds: None,
                unknown_chunks: vec![],
                quirks: Default::default(),
            },
        );
        map
    }

    #[test]
    fn heights_at_vertices_are_exact() {
        let map = map_with_one_tile(|i| i as f32);
        let t = TileCoord::new(30, 31).unwrap();
        for i in [0, 4, 9, 20, 77, 135, 144] {
            let [x, y] = vertex_world_xy(t, 2, 3, i);
            // Nudge toward the chunk's middle so a border vertex does not fall into the next chunk.
            let [cx, cy] = vertex_world_xy(t, 2, 3, inner_vertex(4, 4));
            let nudge = |v: f64, c: f64| v + (c - v).signum() * 1e-3;
            let p = terrain_at(&map, nudge(x, cx), nudge(y, cy)).unwrap();
            assert!((p.world[2] - i as f64).abs() < 0.05, "{i}: {}", p.world[2]);
            assert_eq!((p.chunk_x, p.chunk_y), (2, 3));
        }
    }

    #[test]
    fn holes_and_unloaded_tiles_have_no_terrain() {
        let mut map = map_with_one_tile(|_| 5.0);
        let t = TileCoord::new(30, 31).unwrap();
        map.tiles.get_mut(&t).unwrap().chunks[0].holes = 1;
        let [x, y] = vertex_world_xy(t, 0, 0, inner_vertex(0, 0));
        assert!(terrain_at(&map, x, y).is_none());
        let [x, y] = vertex_world_xy(t, 0, 0, inner_vertex(4, 4));
        assert_eq!(terrain_at(&map, x, y).unwrap().world[2], 5.0);
        assert!(terrain_at(&map, 0.0, 0.0).is_none());
    }

    #[test]
    fn a_ray_straight_down_hits_the_ground() {
        let map = map_with_one_tile(|_| 12.0);
        let t = TileCoord::new(30, 31).unwrap();
        let [x, y] = vertex_world_xy(t, 7, 7, 60);
        let hit = raycast(
            &map,
            Vec3::new(x as f32, y as f32, 300.0),
            Vec3::new(0.3, 0.0, -1.0).normalize(),
            2000.0,
            false,
        )
        .unwrap();
        assert!((hit.world[2] - 12.0).abs() < 0.01);
        assert!((hit.world[0] - (x + 0.3 / 1.0 * 288.0)).abs() < 1.0);
    }

    #[test]
    fn holes_stop_the_brush_ray_but_not_the_view_ray() {
        let mut map = map_with_one_tile(|_| 12.0);
        let t = TileCoord::new(30, 31).unwrap();
        for c in &mut map.tiles.get_mut(&t).unwrap().chunks {
            c.holes = 0xFFFF;
        }
        let [x, y] = vertex_world_xy(t, 7, 7, 60);
        let down = Vec3::new(0.0, 0.0, -1.0);
        let origin = Vec3::new(x as f32, y as f32, 300.0);
        assert!(raycast(&map, origin, down, 2000.0, false).is_none());
        let hit = raycast(&map, origin, down, 2000.0, true).expect("the surface under the hole");
        assert!((hit.world[2] - 12.0).abs() < 0.01);
    }
}
