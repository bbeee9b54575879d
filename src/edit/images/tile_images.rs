//! Alpha maps and vertex colours as images, in Noggit Red's layouts
//! (docs/notes/noggit-red-images.md): a texture's alpha over a tile is 1024×1024 8-bit grey, 64
//! texels a chunk with no shared border, pixel (64·cx + col, 64·cy + row); a tile's vertex
//! colours are 257×257 RGB on the heightmap's lattice (`edit::images::heightmap`), byte for byte the
//! MCCV values (127 = no tint), the mixed pixels the mean of their two outer neighbours.
//!
//! Not for: reading or writing image files (`images`).

#[cfg(test)]
use super::heightmap::Samples;
use super::heightmap::{Raster, TILE_PIXELS};
use crate::edit::stroke::Stroke;
use crate::model::alpha::ALPHA_SIDE;
use crate::model::chunk::{FLAG_HAS_VERTEX_COLORS, NEUTRAL_COLOR};
use crate::model::coords::{CHUNKS_PER_SIDE, TileCoord, VERTICES_PER_CHUNK};
use crate::model::{Map, Tile};

/// Pixels along a tile's side in an alpha image.
pub const ALPHA_PIXELS: usize = CHUNKS_PER_SIDE * ALPHA_SIDE;

/// The textures of `tile` that some chunk uses as an alpha layer (layer 1 and up): the ones an
/// alpha image can carry (the base layer's share is implicit).
pub fn alpha_textures(tile: &Tile) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for chunk in &tile.chunks {
        for layer in chunk.layers.iter().skip(1) {
            if let Some(name) = tile.texture_name(layer.texture)
                && !out.iter().any(|t| t.eq_ignore_ascii_case(name))
            {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The layer of `chunk` painting `texture` (any case), if it has one.
fn layer_of(tile: &Tile, chunk: usize, texture: &str) -> Option<usize> {
    tile.chunks[chunk].layers.iter().position(|l| {
        tile.texture_name(l.texture)
            .is_some_and(|n| n.eq_ignore_ascii_case(texture))
    })
}

/// `texture`'s alpha over `tile`, 1024×1024 row by row: its layer's texels where a chunk has it
/// as layer 1 and up; where it is the base layer, 255 less the other layers' sum (what the
/// client shows; never read back); 0 elsewhere.
pub fn tile_alpha(tile: &Tile, texture: &str) -> Vec<u8> {
    let mut out = vec![0u8; ALPHA_PIXELS * ALPHA_PIXELS];
    for (index, chunk) in tile.chunks.iter().enumerate() {
        let Some(layer) = layer_of(tile, index, texture) else {
            continue;
        };
        let (cx, cy) = (index % CHUNKS_PER_SIDE, index / CHUNKS_PER_SIDE);
        for row in 0..ALPHA_SIDE {
            for col in 0..ALPHA_SIDE {
                let value = match &chunk.layers[layer].alpha {
                    Some(a) if layer > 0 => a.get(row, col),
                    _ => {
                        let others: u32 = chunk.layers[1..]
                            .iter()
                            .filter_map(|l| l.alpha.as_ref())
                            .map(|a| u32::from(a.get(row, col)))
                            .sum();
                        255u32.saturating_sub(others) as u8
                    }
                };
                out[(cy * ALPHA_SIDE + row) * ALPHA_PIXELS + cx * ALPHA_SIDE + col] = value;
            }
        }
    }
    out
}

/// Writes channel 0 of `image` (resampled to 1024×1024 when it has another size) into the
/// alpha of `texture`'s layer in every chunk of `tile` that paints it as layer 1 and up, into
/// `stroke`. Returns the chunks changed, or why nothing can be: the tile is not loaded, or no
/// chunk has the texture as an alpha layer (import never adds a layer: a chunk holds at most
/// four, and which to give up is the user's call).
pub fn import_alpha(
    map: &mut Map,
    image: &Raster,
    tile: TileCoord,
    texture: &str,
    stroke: &mut Stroke,
) -> Result<usize, String> {
    let t = map
        .tiles
        .get(&tile)
        .ok_or_else(|| format!("tile {}_{} is not in the map", tile.x, tile.y))?;
    let targets: Vec<(usize, usize)> = (0..t.chunks.len())
        .filter_map(|c| layer_of(t, c, texture).filter(|&l| l > 0).map(|l| (c, l)))
        .collect();
    if targets.is_empty() {
        return Err(format!(
            "no chunk of tile {}_{} paints {texture} as an alpha layer (import never adds a \
             layer: paint the texture there first, or swap it in for another, within the \
             four-layer limit)",
            tile.x, tile.y
        ));
    }
    let scale = |n: usize| (n.max(1) - 1) as f64 / (ALPHA_PIXELS - 1) as f64;
    let (sx, sy) = (scale(image.width), scale(image.height));
    let mut changed = 0;
    for (index, layer) in targets {
        let (cx, cy) = (index % CHUNKS_PER_SIDE, index / CHUNKS_PER_SIDE);
        let mut texels = [0u8; ALPHA_SIDE * ALPHA_SIDE];
        for row in 0..ALPHA_SIDE {
            for col in 0..ALPHA_SIDE {
                let (px, py) = (cx * ALPHA_SIDE + col, cy * ALPHA_SIDE + row);
                let v = image.sample(px as f64 * sx, py as f64 * sy, 0);
                texels[row * ALPHA_SIDE + col] = (v * 255.0).round().clamp(0.0, 255.0) as u8;
            }
        }
        let current = map.tiles[&tile].chunks[index].layers[layer].alpha.as_ref();
        if current.is_some_and(|a| a.texels()[..] == texels[..]) {
            continue;
        }
        stroke.snapshot(map, tile, index);
        let chunk = &mut map.tiles.get_mut(&tile).expect("checked above").chunks[index];
        let alpha = chunk.layers[layer]
            .alpha
            .get_or_insert_with(Default::default);
        alpha.texels_mut().copy_from_slice(&texels);
        changed += 1;
    }
    Ok(changed)
}

/// `tile`'s vertex colours, 257×257 RGB row by row (neutral grey where a chunk has none).
pub fn tile_colours(tile: &Tile) -> Vec<u8> {
    let colour = |chunk: usize, index: usize| {
        let c = tile.chunks[chunk]
            .vertex_colors
            .as_ref()
            .map_or(NEUTRAL_COLOR, |v| v[index]);
        [c[0], c[1], c[2]]
    };
    let mean = |a: [u8; 3], b: [u8; 3]| {
        [0, 1, 2].map(|k| (u16::from(a[k]) + u16::from(b[k])).div_ceil(2) as u8)
    };
    super::heightmap::tile_lattice(colour, mean).concat()
}

/// Writes `image` (three channels, or grey as three equal ones; resampled when it is not
/// 257×257) as the vertex colours of `tile`, every vertex, into `stroke`; a chunk gets MCCV
/// (and its flag) when a colour is not neutral. Vertices on the tile's edges are written to the
/// neighbours' copies too, so no colour seam opens. Returns the chunks changed.
pub fn import_colours(
    map: &mut Map,
    image: &Raster,
    tile: TileCoord,
    stroke: &mut Stroke,
) -> Result<usize, String> {
    if !map.tiles.contains_key(&tile) {
        return Err(format!("tile {}_{} is not in the map", tile.x, tile.y));
    }
    let scale = |n: usize| (n.max(1) - 1) as f64 / (TILE_PIXELS - 1) as f64;
    let (sx, sy) = (scale(image.width), scale(image.height));
    let channel = |c: usize| if image.channels >= 3 { c } else { 0 };
    let mut writes: Vec<(TileCoord, usize, usize, [u8; 4])> = Vec::new();
    for j in 0..TILE_PIXELS {
        for i in 0..TILE_PIXELS {
            if i % 2 != j % 2 {
                continue;
            }
            let rgb = [0, 1, 2].map(|c| {
                let v = image.sample(i as f64 * sx, j as f64 * sy, channel(c));
                (v * 255.0).round().clamp(0.0, 255.0) as u8
            });
            let colour = [rgb[0], rgb[1], rgb[2], 0xFF];
            let vertex = crate::edit::lattice::Vertex {
                gx: i32::from(tile.x) * 128 + (i / 2) as i32,
                gy: i32::from(tile.y) * 128 + (j / 2) as i32,
                inner: i % 2 == 1,
            };
            for copy in vertex.copies() {
                writes.push((copy.tile, copy.chunk, copy.index, colour));
            }
        }
    }
    let mut changed = std::collections::BTreeSet::new();
    for (t, chunk, index, colour) in writes {
        let Some(c) = map.tiles.get(&t).map(|tile| &tile.chunks[chunk]) else {
            continue;
        };
        let now = c.vertex_colors.as_ref().map_or(NEUTRAL_COLOR, |v| v[index]);
        if now == colour {
            continue;
        }
        if changed.insert((t, chunk)) {
            stroke.snapshot(map, t, chunk);
        }
        let c = &mut map.tiles.get_mut(&t).expect("checked above").chunks[chunk];
        c.vertex_colors
            .get_or_insert_with(|| Box::new([NEUTRAL_COLOR; VERTICES_PER_CHUNK]))[index] = colour;
        c.flags |= FLAG_HAS_VERTEX_COLORS;
    }
    Ok(changed.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::alpha::AlphaMap;
    use crate::model::chunk::Layer;

    fn raster_u8(width: usize, channels: usize, bytes: &[u8]) -> Raster {
        Raster {
            width,
            height: bytes.len() / channels / width,
            channels,
            samples: Samples::U8(bytes.to_vec()),
        }
    }

    fn two_layer_tile(c: TileCoord) -> Tile {
        let mut t = Tile::flat(c, "base.blp", 0.0);
        t.textures.push("Tileset\\Grass.blp".into());
        for (i, chunk) in t.chunks.iter_mut().enumerate().filter(|(i, _)| i % 3 == 0) {
            let mut texels = Box::new([0u8; 4096]);
            for (k, v) in texels.iter_mut().enumerate() {
                *v = ((k * 31 + i) % 256) as u8;
            }
            chunk.layers.push(Layer {
                texture: 1,
                flags: 0x100,
                effect_id: 0,
                alpha: Some(AlphaMap::from_texels(texels)),
            });
        }
        t
    }

    #[test]
    fn an_alpha_image_round_trips_exactly_and_touches_only_chunks_that_paint_the_texture() {
        let c = TileCoord::new(3, 4).unwrap();
        let mut map = Map::new("A");
        map.tiles.insert(c, two_layer_tile(c));
        let image = tile_alpha(&map.tiles[&c], "tileset\\grass.blp");
        assert_eq!(alpha_textures(&map.tiles[&c]), ["Tileset\\Grass.blp"]);
        let before = map.tiles[&c].clone();
        // The same image back: nothing changes, the original bytes are kept.
        let raster = raster_u8(ALPHA_PIXELS, 1, &image);
        let mut stroke = Stroke::new("Import");
        assert_eq!(
            import_alpha(&mut map, &raster, c, "Tileset\\Grass.blp", &mut stroke),
            Ok(0)
        );
        assert_eq!(map.tiles[&c], before);
        // An inverted image lands in every painting chunk, and exports back exactly.
        let inverted: Vec<u8> = image.iter().map(|v| 255 - v).collect();
        let raster = raster_u8(ALPHA_PIXELS, 1, &inverted);
        let n = import_alpha(&mut map, &raster, c, "Tileset\\Grass.blp", &mut stroke).unwrap();
        assert_eq!(n, 86);
        let back = tile_alpha(&map.tiles[&c], "Tileset\\Grass.blp");
        for (i, chunk) in map.tiles[&c].chunks.iter().enumerate() {
            let (cx, cy) = (i % 16, i / 16);
            let at = (cy * 64) * ALPHA_PIXELS + cx * 64;
            if chunk.layers.len() > 1 {
                assert_eq!(back[at], inverted[at]);
            } else {
                assert_eq!(back[at], 0, "a chunk without the texture is black");
            }
        }
        // The base texture's image shows what the other layers leave.
        let base = tile_alpha(&map.tiles[&c], "base.blp");
        assert_eq!(base[0], 255 - back[0]);
        assert_eq!(base[64], 255, "chunk 1 has only its base layer");
        let err = import_alpha(&mut map, &raster, c, "Tileset\\Sand.blp", &mut stroke).unwrap_err();
        assert!(err.contains("never adds a layer"), "{err}");
    }

    #[test]
    fn vertex_colours_round_trip_and_reach_the_neighbours_edge() {
        let a = TileCoord::new(3, 4).unwrap();
        let b = TileCoord::new(4, 4).unwrap();
        let mut map = Map::new("C");
        map.tiles.insert(a, Tile::flat(a, "base.blp", 0.0));
        map.tiles.insert(b, Tile::flat(b, "base.blp", 0.0));
        let n = TILE_PIXELS;
        let mut rgb = vec![0u8; n * n * 3];
        for j in 0..n {
            for i in 0..n {
                let at = (j * n + i) * 3;
                rgb[at..at + 3].copy_from_slice(&[(i % 256) as u8, (j % 256) as u8, 200]);
            }
        }
        let mut stroke = Stroke::new("Import");
        import_colours(&mut map, &raster_u8(n, 3, &rgb), a, &mut stroke).unwrap();
        let back = tile_colours(&map.tiles[&a]);
        for j in 0..n {
            for i in 0..n {
                if i % 2 == j % 2 {
                    let at = (j * n + i) * 3;
                    assert_eq!(back[at..at + 3], rgb[at..at + 3], "pixel ({i}, {j})");
                }
            }
        }
        // b's west edge carries a's east column.
        let b_back = tile_colours(&map.tiles[&b]);
        assert_eq!(b_back[..3], [0, 0, 200]);
        assert_eq!(b_back[(2 * n) * 3..(2 * n) * 3 + 3], [0, 2, 200]);
        assert_eq!(b_back[6..9], [127, 127, 127], "b's next column untouched");
    }
}
