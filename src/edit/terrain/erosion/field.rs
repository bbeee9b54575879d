//! The ground under an erosion brush as two dense grids (outer vertices and the inner ones at
//! the quads' centres) with the brush's weight at each vertex, read from a lattice window and
//! written back to it. Erosion works on these plain arrays so that its inner loops index
//! memory directly; the window (`lattice::patch`) then stores every changed vertex to every
//! copy, so the seams stay shut.
//!
//! Not for: the erosion rules themselves (`thermal`, `hydraulic`).

use crate::edit::lattice::Vertex;
use crate::edit::lattice::patch::Patch;

/// Heights and brush weights of a lattice window, outer and inner vertices apart.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Outer vertices per row.
    pub width: usize,
    /// Outer vertex rows.
    pub height: usize,
    /// Outer heights (yards), row by row.
    pub outer: Vec<f32>,
    /// Inner heights (yards) of quad (col, row), `width − 1` per row.
    pub inner: Vec<f32>,
    /// The brush's weight (0..=1) at each outer vertex; 0 outside the brush and where no
    /// loaded tile holds the vertex, so nothing there moves.
    pub outer_weight: Vec<f32>,
    /// The brush's weight at each inner vertex.
    pub inner_weight: Vec<f32>,
}

impl Field {
    /// The heights of `patch` with `weight(vertex, dx, dy)` at each loaded vertex, (`dx`,
    /// `dy`) its lattice offset from (`cx`, `cy`).
    pub fn read(
        patch: &Patch,
        cx: f64,
        cy: f64,
        weight: impl Fn(Vertex, f64, f64) -> f32,
    ) -> Field {
        let (width, height) = (patch.width, patch.height);
        let mut field = Field {
            width,
            height,
            outer: patch.outer.iter().map(|h| h.unwrap_or(0.0)).collect(),
            inner: patch.inner.iter().map(|h| h.unwrap_or(0.0)).collect(),
            outer_weight: vec![0.0; patch.outer.len()],
            inner_weight: vec![0.0; patch.inner.len()],
        };
        for (v, dx, dy) in patch.vertices(cx, cy) {
            let w = weight(v, dx, dy).clamp(0.0, 1.0);
            let (x, y) = ((v.gx - patch.gx0) as usize, (v.gy - patch.gy0) as usize);
            if v.inner {
                field.inner_weight[y * (width - 1) + x] = w;
            } else {
                field.outer_weight[y * width + x] = w;
            }
        }
        field
    }

    /// Writes every vertex whose height changed (bit for bit) into `patch`.
    pub fn write(&self, patch: &mut Patch) {
        let (gx0, gy0) = (patch.gx0, patch.gy0);
        let mut changed = Vec::new();
        for (i, (&h, old)) in self.outer.iter().zip(&patch.outer).enumerate() {
            if old.is_some_and(|o| o.to_bits() != h.to_bits()) {
                let v = Vertex {
                    gx: gx0 + (i % self.width) as i32,
                    gy: gy0 + (i / self.width) as i32,
                    inner: false,
                };
                changed.push((v, h));
            }
        }
        let w = self.width.saturating_sub(1).max(1);
        for (i, (&h, old)) in self.inner.iter().zip(&patch.inner).enumerate() {
            if old.is_some_and(|o| o.to_bits() != h.to_bits()) {
                let v = Vertex {
                    gx: gx0 + (i % w) as i32,
                    gy: gy0 + (i / w) as i32,
                    inner: true,
                };
                changed.push((v, h));
            }
        }
        for (v, h) in changed {
            patch.set(v, h);
        }
    }

    /// The sum of every height the brush may move (weight above 0), outer and inner: what
    /// erosion keeps (up to rounding).
    pub fn material(&self) -> f64 {
        let sum = |h: &[f32], w: &[f32]| -> f64 {
            h.iter()
                .zip(w)
                .filter(|(_, w)| **w > 0.0)
                .map(|(h, _)| f64::from(*h))
                .sum()
        };
        sum(&self.outer, &self.outer_weight) + sum(&self.inner, &self.inner_weight)
    }
}

/// A field of `n`×`n` outer vertices at full weight, heights from `f(x, y)` in vertex steps
/// (the inner vertices at the half steps), for the erosion models' unit tests.
#[cfg(test)]
pub(super) fn test_field(n: usize, f: impl Fn(f32, f32) -> f32) -> Field {
    let outer: Vec<f32> = (0..n * n)
        .map(|i| f((i % n) as f32, (i / n) as f32))
        .collect();
    let m = n - 1;
    let inner: Vec<f32> = (0..m * m)
        .map(|i| f((i % m) as f32 + 0.5, (i / m) as f32 + 0.5))
        .collect();
    Field {
        width: n,
        height: n,
        outer_weight: vec![1.0; outer.len()],
        inner_weight: vec![1.0; inner.len()],
        outer,
        inner,
    }
}
