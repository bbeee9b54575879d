//! Thermal erosion (Musgrave et al. 1989, Olsen 2004): where an edge of the ground the client
//! draws is steeper than the talus angle, material slides from its upper end to its lower one
//! until the edge lies at the talus angle.
//!
//! The edges are those of the drawn triangles: outer to outer along the lattice (one step
//! long) and each inner vertex to its quad's four corners (half a diagonal). Each pass relaxes
//! every edge once, moving half the excess height (scaled by the lesser brush weight of its
//! two ends) from the higher end to the lower: what one vertex loses the other gains, and an
//! edge with an end outside the brush moves nothing. The edges are visited in eight classes
//! of edges that share no vertex (horizontal and vertical ones by parity, the diagonals by
//! which corner they reach), so a class can run on every core and the result is the same
//! whichever runs first. Passes repeat until no edge inside the brush has anything left to
//! move or the iterations run out.

use rayon::prelude::*;

use super::field::Field;
use crate::model::coords::UNIT_SIZE;

/// Below this many outer vertices a pass runs on one core: spreading it costs more.
const PARALLEL_FROM: usize = 64 * 64;

/// Heights (yards, times the lesser weight) a pass may leave unmoved and still count as done.
const SETTLED: f32 = 1e-4;

/// What a thermal erosion did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThermalOutcome {
    /// Passes run.
    pub passes: u32,
    /// Whether it stopped because nothing inside the brush was steeper than the talus angle.
    pub settled: bool,
}

/// Erodes `field` by the talus angle `talus` (degrees) for at most `iterations` passes.
pub fn erode(field: &mut Field, talus: f32, iterations: u32) -> ThermalOutcome {
    let tan = talus.clamp(0.0, 89.9).to_radians().tan();
    // Heights an edge may rise over its length at the talus angle.
    let along = tan * UNIT_SIZE as f32;
    let diagonal = tan * (UNIT_SIZE * std::f64::consts::FRAC_1_SQRT_2) as f32;
    let parallel = field.width * field.height >= PARALLEL_FROM;
    for pass in 0..iterations {
        let moved = pass_once(field, along, diagonal, parallel);
        if moved <= SETTLED {
            return ThermalOutcome {
                passes: pass + 1,
                settled: true,
            };
        }
    }
    ThermalOutcome {
        passes: iterations,
        settled: false,
    }
}

/// Relaxes one edge: half the height above `rise` moves from the higher end to the lower,
/// scaled by the lesser weight. Returns the height moved.
#[inline]
fn relax(a: &mut f32, b: &mut f32, wa: f32, wb: f32, rise: f32) -> f32 {
    let w = wa.min(wb);
    if w <= 0.0 {
        return 0.0;
    }
    let d = *a - *b;
    let excess = d.abs() - rise;
    if excess <= 0.0 {
        return 0.0;
    }
    let m = 0.5 * excess * w;
    if d > 0.0 {
        *a -= m;
        *b += m;
    } else {
        *a += m;
        *b -= m;
    }
    m
}

/// Relaxes the edges of one row between consecutive vertices starting at `first`, every
/// other one.
fn row_pairs(h: &mut [f32], w: &[f32], first: usize, rise: f32) -> f32 {
    let mut most = 0f32;
    let mut x = first;
    while x + 1 < h.len() {
        let (l, r) = h.split_at_mut(x + 1);
        most = most.max(relax(&mut l[x], &mut r[0], w[x], w[x + 1], rise));
        x += 2;
    }
    most
}

/// Relaxes the vertical edges between two rows.
fn between_rows(top: &mut [f32], bottom: &mut [f32], wt: &[f32], wb: &[f32], rise: f32) -> f32 {
    let mut most = 0f32;
    for x in 0..top.len().min(bottom.len()) {
        most = most.max(relax(&mut top[x], &mut bottom[x], wt[x], wb[x], rise));
    }
    most
}

/// Relaxes the edges from each inner vertex of a row to its corner `dx` (0 west, 1 east) in
/// the outer row given.
fn to_corners(
    inner: &mut [f32],
    outer: &mut [f32],
    wi: &[f32],
    wo: &[f32],
    dx: usize,
    rise: f32,
) -> f32 {
    let mut most = 0f32;
    for x in 0..inner.len() {
        most = most.max(relax(
            &mut inner[x],
            &mut outer[x + dx],
            wi[x],
            wo[x + dx],
            rise,
        ));
    }
    most
}

/// Runs `f` on each item, on every core when `parallel`; the largest result.
fn each<T: Send>(items: Vec<T>, parallel: bool, f: impl Fn(T) -> f32 + Sync + Send) -> f32 {
    if parallel {
        items.into_par_iter().map(f).reduce(|| 0.0, f32::max)
    } else {
        items.into_iter().map(f).fold(0.0, f32::max)
    }
}

/// One pass over every edge, class by class. Returns the most any edge moved.
fn pass_once(field: &mut Field, along: f32, diagonal: f32, parallel: bool) -> f32 {
    let (width, height) = (field.width, field.height);
    if width < 2 || height < 2 {
        return 0.0;
    }
    let iw = width - 1;
    let mut most = 0f32;
    // Horizontal edges, even then odd columns: rows are independent.
    for first in 0..2 {
        let rows: Vec<_> = field
            .outer
            .chunks_mut(width)
            .zip(field.outer_weight.chunks(width))
            .collect();
        most = most.max(each(rows, parallel, |(h, w)| row_pairs(h, w, first, along)));
    }
    // Vertical edges, from even then odd rows: pairs of rows are independent.
    for first in 0..2 {
        let start = first * width;
        let pairs: Vec<_> = field.outer[start..]
            .chunks_mut(2 * width)
            .zip(field.outer_weight[start..].chunks(2 * width))
            .filter(|(h, _)| h.len() == 2 * width)
            .collect();
        most = most.max(each(pairs, parallel, |(h, w)| {
            let (top, bottom) = h.split_at_mut(width);
            between_rows(top, bottom, &w[..width], &w[width..], along)
        }));
    }
    // Inner vertices to each of their four corners: inner row y meets outer row y + dy.
    for dy in 0..2 {
        for dx in 0..2 {
            let start = dy * width;
            let rows: Vec<_> = field
                .inner
                .chunks_mut(iw)
                .zip(field.inner_weight.chunks(iw))
                .zip(
                    field.outer[start..]
                        .chunks_mut(width)
                        .zip(field.outer_weight[start..].chunks(width)),
                )
                .collect();
            most = most.max(each(rows, parallel, |((hi, wi), (ho, wo))| {
                to_corners(hi, ho, wi, wo, dx, diagonal)
            }));
        }
    }
    most
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::field::test_field as field;

    #[test]
    fn a_spike_slides_down_to_the_talus_angle_and_keeps_its_material() {
        let mut f = field(33, |x, y| if x == 16.0 && y == 16.0 { 200.0 } else { 0.0 });
        let before = f.material();
        let out = erode(&mut f, 30.0, 2000);
        assert!(out.settled, "{out:?}");
        assert!((f.material() - before).abs() < 1e-2, "{}", f.material());
        let peak = f.outer[16 * 33 + 16];
        assert!(peak < 200.0 && peak > 0.0, "{peak}");
        // Every edge from the peak now rises at most at the talus angle (with rounding).
        let rise = 30f32.to_radians().tan() * UNIT_SIZE as f32;
        assert!(peak - f.outer[16 * 33 + 17] <= rise + 1e-2);
    }

    #[test]
    fn an_edge_with_an_end_outside_the_brush_moves_nothing() {
        let mut f = field(9, |x, _| x * 20.0);
        for (i, w) in f.outer_weight.iter_mut().enumerate() {
            if i % 9 >= 4 {
                *w = 0.0;
            }
        }
        for (i, w) in f.inner_weight.iter_mut().enumerate() {
            if i % 8 >= 4 {
                *w = 0.0;
            }
        }
        let before = f.clone();
        erode(&mut f, 30.0, 50);
        for i in 0..f.outer.len() {
            if before.outer_weight[i] == 0.0 {
                assert_eq!(f.outer[i].to_bits(), before.outer[i].to_bits());
            }
        }
        assert_ne!(f.outer, before.outer);
    }
}
