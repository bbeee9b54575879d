//! A rectangular window of the vertex lattice read out of the map once per dab: heights (and,
//! on demand, vertex colours) of every outer and inner vertex in it, from whichever loaded copy
//! holds them. Tools change the window; [`Patch::store`] writes each changed vertex to every
//! copy, so vertices shared by chunks and tiles stay identical, in the files too.

use super::exact;
use crate::edit::lattice::{MAP_STEPS, STEPS_PER_CHUNK, Vertex, chunks_in};
use crate::model::Map;
use crate::model::coords::{self, TileCoord};

/// A window of lattice columns `gx0..=gx1` and rows `gy0..=gy1`.
#[derive(Debug, Clone)]
pub struct Patch {
    /// First lattice column.
    pub gx0: i32,
    /// First lattice row.
    pub gy0: i32,
    /// Outer vertices per row.
    pub width: usize,
    /// Outer vertex rows.
    pub height: usize,
    /// Outer heights, row by row; `None` where no loaded tile has the vertex.
    pub outer: Vec<Option<f32>>,
    /// Inner heights of quad (col, row), (width−1)×(height−1); `None` where not loaded.
    pub inner: Vec<Option<f32>>,
    original_outer: Vec<Option<f32>>,
    original_inner: Vec<Option<f32>>,
}

impl Patch {
    /// Reads the window around lattice point (`cx`, `cy`) reaching `reach` steps in each direction.
    pub fn around(map: &Map, cx: f64, cy: f64, reach: f64) -> Patch {
        let gx0 = ((cx - reach).floor() as i32).clamp(0, MAP_STEPS);
        let gy0 = ((cy - reach).floor() as i32).clamp(0, MAP_STEPS);
        let gx1 = ((cx + reach).ceil() as i32).clamp(0, MAP_STEPS);
        let gy1 = ((cy + reach).ceil() as i32).clamp(0, MAP_STEPS);
        Patch::read(map, gx0, gy0, gx1, gy1)
    }

    /// Reads lattice columns `gx0..=gx1`, rows `gy0..=gy1`.
    pub fn read(map: &Map, gx0: i32, gy0: i32, gx1: i32, gy1: i32) -> Patch {
        let width = (gx1 - gx0 + 1) as usize;
        let height = (gy1 - gy0 + 1) as usize;
        let mut outer = vec![None; width * height];
        let mut inner = vec![None; width.saturating_sub(1) * height.saturating_sub(1)];
        for (tile, chunk, c, r) in chunks_in(gx0, gy0, gx1, gy1) {
            let Some(t) = map.tiles.get(&tile) else {
                continue;
            };
            let heights = &t.chunks[chunk].heights;
            for row in 0..=8 {
                for col in 0..=8 {
                    let (gx, gy) = (c * STEPS_PER_CHUNK + col, r * STEPS_PER_CHUNK + row);
                    if (gx0..=gx1).contains(&gx) && (gy0..=gy1).contains(&gy) {
                        outer[(gy - gy0) as usize * width + (gx - gx0) as usize] =
                            Some(heights[coords::outer_vertex(row as usize, col as usize)]);
                    }
                    if row < 8 && col < 8 && (gx0..gx1).contains(&gx) && (gy0..gy1).contains(&gy) {
                        inner[(gy - gy0) as usize * (width - 1) + (gx - gx0) as usize] =
                            Some(heights[coords::inner_vertex(row as usize, col as usize)]);
                    }
                }
            }
        }
        Patch {
            gx0,
            gy0,
            width,
            height,
            original_outer: outer.clone(),
            original_inner: inner.clone(),
            outer,
            inner,
        }
    }

    /// The slot of vertex `v` in `outer` or `inner`, if inside the window.
    pub fn slot(&self, v: Vertex) -> Option<usize> {
        let (x, y) = (v.gx - self.gx0, v.gy - self.gy0);
        let (w, h) = if v.inner {
            (self.width as i32 - 1, self.height as i32 - 1)
        } else {
            (self.width as i32, self.height as i32)
        };
        (x >= 0 && y >= 0 && x < w && y < h).then(|| (y * w + x) as usize)
    }

    /// Height of `v`, if loaded and inside the window.
    pub fn get(&self, v: Vertex) -> Option<f32> {
        let slot = self.slot(v)?;
        if v.inner {
            self.inner[slot]
        } else {
            self.outer[slot]
        }
    }

    /// Every loaded vertex of the window with its lattice offset from (`cx`, `cy`).
    pub fn vertices(&self, cx: f64, cy: f64) -> impl Iterator<Item = (Vertex, f64, f64)> + '_ {
        let outer = (0..self.height).flat_map(move |y| (0..self.width).map(move |x| (x, y, false)));
        let inner = (0..self.height.saturating_sub(1))
            .flat_map(move |y| (0..self.width - 1).map(move |x| (x, y, true)));
        outer.chain(inner).filter_map(move |(x, y, is_inner)| {
            let v = Vertex {
                gx: self.gx0 + x as i32,
                gy: self.gy0 + y as i32,
                inner: is_inner,
            };
            self.get(v)?;
            let half = if is_inner { 0.5 } else { 0.0 };
            Some((v, v.gx as f64 + half - cx, v.gy as f64 + half - cy))
        })
    }

    /// Sets the height of `v` (ignored outside the window or where not loaded).
    pub fn set(&mut self, v: Vertex, h: f32) {
        if let Some(slot) = self.slot(v) {
            let cell = if v.inner {
                &mut self.inner[slot]
            } else {
                &mut self.outer[slot]
            };
            if cell.is_some() {
                *cell = Some(h);
            }
        }
    }

    /// The vertices whose height changed since reading.
    pub fn changed(&self) -> Vec<Vertex> {
        let mut out = Vec::new();
        for (i, (a, b)) in self.outer.iter().zip(&self.original_outer).enumerate() {
            if a.map(f32::to_bits) != b.map(f32::to_bits) {
                out.push(Vertex {
                    gx: self.gx0 + (i % self.width) as i32,
                    gy: self.gy0 + (i / self.width) as i32,
                    inner: false,
                });
            }
        }
        let w = self.width - 1;
        for (i, (a, b)) in self.inner.iter().zip(&self.original_inner).enumerate() {
            if a.map(f32::to_bits) != b.map(f32::to_bits) {
                out.push(Vertex {
                    gx: self.gx0 + (i % w) as i32,
                    gy: self.gy0 + (i / w) as i32,
                    inner: true,
                });
            }
        }
        out
    }

    /// Writes changed heights to every loaded copy, each shared one as a float every copy's
    /// chunk stores alike (`exact::settle`); `before_write(tile, chunk)` is called once for
    /// each chunk about to change (so a stroke can snapshot it first). Returns the chunks written.
    pub fn store(
        &self,
        map: &mut Map,
        mut before_write: impl FnMut(&Map, TileCoord, usize),
    ) -> Vec<(TileCoord, usize)> {
        let changed = self.changed();
        let mut written: Vec<(TileCoord, usize)> = Vec::new();
        // A set beside the list: a whole-tile import writes thousands of chunks.
        let mut seen = std::collections::HashSet::new();
        for v in &changed {
            for c in v.copies() {
                if map.tiles.contains_key(&c.tile) && seen.insert((c.tile, c.chunk)) {
                    before_write(map, c.tile, c.chunk);
                    written.push((c.tile, c.chunk));
                }
            }
        }
        for &v in &changed {
            let h = self.get(v).expect("changed vertices are loaded");
            for c in v.copies() {
                if let Some(t) = map.tiles.get_mut(&c.tile) {
                    t.chunks[c.chunk].heights[c.index] = h;
                }
            }
        }
        // So that each copy also reads back alike once saved relative to its chunk's base.
        exact::settle(map, &changed);
        written
    }
}
