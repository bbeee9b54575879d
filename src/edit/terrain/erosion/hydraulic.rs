//! Hydraulic erosion by water droplets, after Hans Theobald Beyer, "Implementation of a method
//! for hydraulic erosion" (2015): each droplet starts at a random place inside the brush, runs
//! downhill with some inertia, picks up sediment where it speeds down a slope (up to a
//! capacity that grows with its speed, water and the drop it just made) and leaves sediment
//! where it slows, fills a pit or evaporates.
//!
//! The ground a droplet runs on is the one the client draws: each lattice quad is four
//! triangles fanning from its inner vertex, and a droplet reads the height and slope of the
//! triangle it is in. It deposits onto that triangle's three vertices (by its barycentric
//! weights) and erodes from every vertex, outer and inner, within [`ERODE_RADIUS`] steps of
//! the outer vertex nearest it (weights falling linearly with distance), as Beyer erodes
//! through a brush so droplets do not dig pits one vertex wide, and no vertex deeper than the
//! height the droplet runs on to (else a pit would catch later droplets and deepen without
//! end). Both are scaled by the brush's weight at each vertex. A droplet that would step onto a triangle with a vertex
//! outside the brush, or reaches the end of its life, drops all it still carries where it
//! is: material is kept. Droplets run one after another from one seeded stream, so the same
//! seed gives the same ground, bit for bit.
//!
//! Heights are taken in lattice steps (yards / [`UNIT_SIZE`]) inside the model, so that a
//! slope of 1 is 45° whatever the map's units: Beyer's parameters keep their meaning.

use super::field::Field;
use crate::model::coords::UNIT_SIZE;

/// Radius, in lattice steps, of the erosion brush around a droplet.
pub const ERODE_RADIUS: f32 = 2.0;
/// Steps a droplet lives at most.
pub const LIFETIME: u32 = 30;
/// Gravity: how much a drop in height speeds a droplet up.
pub const GRAVITY: f32 = 4.0;
/// The least capacity of a droplet, so that flat ground still erodes a little.
pub const MIN_CAPACITY: f32 = 0.01;

/// Beyer's parameters, as the `erode` operation names them.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Hydraulic {
    /// Droplets run.
    pub droplets: u32,
    /// The random stream's seed.
    pub seed: u64,
    /// Fraction of the free capacity a droplet picks up per step (0..=1).
    pub erosion: f32,
    /// Fraction of the sediment over capacity it leaves per step (0..=1).
    pub deposition: f32,
    /// Fraction of its water that evaporates per step (0..=1).
    pub evaporation: f32,
    /// How much of its direction a droplet keeps against the slope (0..=1).
    pub inertia: f32,
    /// Sediment capacity factor: how much a droplet carries per unit of speed, water and drop.
    pub capacity: f32,
}

impl Default for Hydraulic {
    fn default() -> Self {
        Hydraulic {
            droplets: 10_000,
            seed: 0,
            erosion: 0.3,
            deposition: 0.3,
            evaporation: 0.01,
            inertia: 0.05,
            capacity: 4.0,
        }
    }
}

/// A tiny seeded random stream (SplitMix64): fast and the same on every machine.
struct Stream(u64);

impl Stream {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A vertex of the field: outer (row-major in `outer`) or inner.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Slot {
    Outer(usize),
    Inner(usize),
}

/// The triangle a point of the field lies in: its three vertices and the point's
/// barycentric weights on them, with the height there and the triangle's slope (in steps).
struct Under {
    slots: [Slot; 3],
    bary: [f32; 3],
    height: f32,
    gradient: [f32; 2],
}

/// The ground (heights in steps) as the droplets see it.
struct Ground<'a> {
    field: &'a mut Field,
    /// The erosion brush: offsets (dx, dy) from the nearest outer vertex, inner or not, and
    /// weights adding up to 1.
    kernel: Vec<(i32, i32, bool, f32)>,
}

impl Ground<'_> {
    fn h(&self, s: Slot) -> f32 {
        match s {
            Slot::Outer(i) => self.field.outer[i] / UNIT_SIZE as f32,
            Slot::Inner(i) => self.field.inner[i] / UNIT_SIZE as f32,
        }
    }

    fn w(&self, s: Slot) -> f32 {
        match s {
            Slot::Outer(i) => self.field.outer_weight[i],
            Slot::Inner(i) => self.field.inner_weight[i],
        }
    }

    /// Adds `dh` steps to vertex `s`.
    fn add(&mut self, s: Slot, dh: f32) {
        let dy = dh * UNIT_SIZE as f32;
        match s {
            Slot::Outer(i) => self.field.outer[i] += dy,
            Slot::Inner(i) => self.field.inner[i] += dy,
        }
    }

    /// The triangle under (`x`, `y`) (outer lattice units from the field's corner), if it lies
    /// wholly inside the brush.
    fn under(&self, x: f32, y: f32) -> Option<Under> {
        let (width, height) = (self.field.width, self.field.height);
        if !(x >= 0.0 && y >= 0.0 && x < (width - 1) as f32 && y < (height - 1) as f32) {
            return None;
        }
        let (qx, qy) = (x as usize, y as usize);
        let (fx, fy) = (x - qx as f32, y - qy as f32);
        let corner = |dx: usize, dy: usize| Slot::Outer((qy + dy) * width + qx + dx);
        let m = Slot::Inner(qy * (width - 1) + qx);
        // The edge of the quad whose triangle holds the point: north, south, west or east.
        let (a, b, pa) = if fy <= fx && fy <= 1.0 - fx {
            (corner(0, 0), corner(1, 0), (0.0, 0.0))
        } else if fy >= fx && fy >= 1.0 - fx {
            (corner(0, 1), corner(1, 1), (0.0, 1.0))
        } else if fx < 0.5 {
            (corner(0, 0), corner(0, 1), (0.0, 0.0))
        } else {
            (corner(1, 0), corner(1, 1), (1.0, 0.0))
        };
        let slots = [a, b, m];
        if slots.iter().any(|&s| self.w(s) <= 0.0) {
            return None;
        }
        let (ha, hb, hm) = (self.h(a), self.h(b), self.h(m));
        let north_south = matches!((a, b), (Slot::Outer(i), Slot::Outer(j)) if j == i + 1);
        let gradient = if north_south {
            // a→b runs east; the centre lies half a step east and half south or north of a.
            let gx = hb - ha;
            let gy = if pa.1 == 0.0 {
                2.0 * (hm - ha) - gx
            } else {
                gx - 2.0 * (hm - ha)
            };
            [gx, gy]
        } else {
            // a→b runs south; the centre lies half a step south and east or west of a.
            let gy = hb - ha;
            let gx = if pa.0 == 0.0 {
                2.0 * (hm - ha) - gy
            } else {
                gy - 2.0 * (hm - ha)
            };
            [gx, gy]
        };
        let height = ha + gradient[0] * (fx - pa.0) + gradient[1] * (fy - pa.1);
        // Barycentric weights of the point on a, b and the centre.
        let pb = if north_south {
            (pa.0 + 1.0, pa.1)
        } else {
            (pa.0, pa.1 + 1.0)
        };
        let pm = (0.5f32, 0.5f32);
        let det = (pb.1 - pm.1) * (pa.0 - pm.0) + (pm.0 - pb.0) * (pa.1 - pm.1);
        let la = ((pb.1 - pm.1) * (fx - pm.0) + (pm.0 - pb.0) * (fy - pm.1)) / det;
        let lb = ((pm.1 - pa.1) * (fx - pm.0) + (pa.0 - pm.0) * (fy - pm.1)) / det;
        Some(Under {
            slots,
            bary: [la, lb, 1.0 - la - lb],
            height,
            gradient,
        })
    }

    /// The brush's weight at a point: its triangle's vertices' weights, interpolated.
    fn weight(&self, under: &Under) -> f32 {
        (0..3)
            .map(|k| under.bary[k].max(0.0) * self.w(under.slots[k]))
            .sum()
    }

    /// Lays up to `amount` steps of sediment on the triangle's vertices, by their barycentric
    /// and brush weights; returns what was laid. `all` lays the whole amount (the weights made
    /// to add up to 1): a droplet's last drop.
    fn deposit(&mut self, under: &Under, amount: f32, all: bool) -> f32 {
        let weights = [0, 1, 2].map(|k| under.bary[k].max(0.0) * self.w(under.slots[k]));
        let total: f32 = weights.iter().sum();
        if total <= 0.0 {
            return 0.0;
        }
        let scale = if all { 1.0 / total } else { 1.0 };
        let mut laid = 0.0;
        for (&slot, w) in under.slots.iter().zip(weights) {
            let d = amount * w * scale;
            self.add(slot, d);
            laid += d;
        }
        laid
    }

    /// Kernel entry `k` around the outer vertex (`cx`, `cy`): its vertex, if inside the
    /// field, and its kernel weight.
    fn kernel_at(&self, cx: i32, cy: i32, k: usize) -> Option<(Slot, f32)> {
        let (width, height) = (self.field.width as i32, self.field.height as i32);
        let (dx, dy, inner, kw) = self.kernel[k];
        let (vx, vy) = (cx + dx, cy + dy);
        if inner {
            (vx >= 0 && vy >= 0 && vx < width - 1 && vy < height - 1)
                .then(|| (Slot::Inner((vy * (width - 1) + vx) as usize), kw))
        } else {
            (vx >= 0 && vy >= 0 && vx < width && vy < height)
                .then(|| (Slot::Outer((vy * width + vx) as usize), kw))
        }
    }

    /// Lays all of `amount` steps around (`x`, `y`) through the erosion brush, by kernel and
    /// brush weights made to add up to 1 (a droplet's last drop, spread so that the droplets
    /// ending at the brush's rim leave a bank, not spikes); failing any vertex there, on the
    /// triangle `under`.
    fn deposit_all(&mut self, x: f32, y: f32, under: &Under, amount: f32) {
        let (cx, cy) = (x.round() as i32, y.round() as i32);
        let weight = |g: &Self, k| g.kernel_at(cx, cy, k).map(|(s, kw)| (s, kw * g.w(s)));
        let total: f32 = (0..self.kernel.len())
            .filter_map(|k| weight(self, k))
            .map(|(_, w)| w)
            .sum();
        if total <= 0.0 {
            self.deposit(under, amount, true);
            return;
        }
        for k in 0..self.kernel.len() {
            if let Some((s, w)) = weight(self, k) {
                self.add(s, amount * w / total);
            }
        }
    }

    /// Takes up to `amount` steps from the vertices around (`x`, `y`) through the erosion
    /// brush, scaled by each vertex's brush weight, none below `floor` (where the water runs
    /// to); returns what was taken.
    fn erode(&mut self, x: f32, y: f32, amount: f32, floor: f32) -> f32 {
        let (cx, cy) = (x.round() as i32, y.round() as i32);
        let mut taken = 0.0;
        for k in 0..self.kernel.len() {
            let Some((slot, kw)) = self.kernel_at(cx, cy, k) else {
                continue;
            };
            // Water cuts no deeper than where it runs: a pit it dug would catch the next droplet
            // and deepen without end.
            let d = (amount * kw * self.w(slot)).min(self.h(slot) - floor);
            if d > 0.0 {
                self.add(slot, -d);
                taken += d;
            }
        }
        taken
    }
}

/// The erosion brush: every outer and inner vertex within [`ERODE_RADIUS`] of an outer vertex,
/// weighted by how far inside it lies, the weights adding up to 1.
fn kernel() -> Vec<(i32, i32, bool, f32)> {
    let r = ERODE_RADIUS.ceil() as i32;
    let mut out = Vec::new();
    for dy in -r..=r {
        for dx in -r..=r {
            for inner in [false, true] {
                let half = if inner { 0.5 } else { 0.0 };
                let (ox, oy) = (dx as f32 + half, dy as f32 + half);
                let d = (ox * ox + oy * oy).sqrt();
                if d < ERODE_RADIUS {
                    out.push((dx, dy, inner, ERODE_RADIUS - d));
                }
            }
        }
    }
    let total: f32 = out.iter().map(|k| k.3).sum();
    for k in &mut out {
        k.3 /= total;
    }
    out
}

/// Runs `params.droplets` droplets over `field`, starting at random places inside the brush
/// (where the triangle under them lies wholly in it).
pub fn erode(field: &mut Field, params: &Hydraulic) {
    let (width, height) = (field.width, field.height);
    if width < 2 || height < 2 {
        return;
    }
    let mut ground = Ground {
        field,
        kernel: kernel(),
    };
    let mut stream = Stream(params.seed ^ 0x5EED_0FE2_0510_1100);
    let (erosion, deposition) = (
        params.erosion.clamp(0.0, 1.0),
        params.deposition.clamp(0.0, 1.0),
    );
    let keep_water = 1.0 - params.evaporation.clamp(0.0, 1.0);
    let inertia = params.inertia.clamp(0.0, 1.0);
    let (span_x, span_y) = ((width - 1) as f32, (height - 1) as f32);
    for _ in 0..params.droplets {
        // A start inside the brush: a few tries, then this droplet is skipped (a brush that is
        // mostly outside the loaded ground).
        let mut start = None;
        for _ in 0..16 {
            let (x, y) = (stream.unit() * span_x, stream.unit() * span_y);
            if let Some(u) = ground.under(x, y) {
                start = Some((x, y, u));
                break;
            }
        }
        let Some((mut x, mut y, mut here)) = start else {
            continue;
        };
        let (mut dir_x, mut dir_y) = (0f32, 0f32);
        let (mut speed, mut water, mut sediment) = (1f32, 1f32, 0f32);
        for _ in 0..LIFETIME {
            dir_x = dir_x * inertia - here.gradient[0] * (1.0 - inertia);
            dir_y = dir_y * inertia - here.gradient[1] * (1.0 - inertia);
            let len = (dir_x * dir_x + dir_y * dir_y).sqrt();
            if len <= 1e-12 {
                break;
            }
            dir_x /= len;
            dir_y /= len;
            let (nx, ny) = (x + dir_x, y + dir_y);
            let Some(next) = ground.under(nx, ny) else {
                // Leaving the brush (or the loaded ground): what it carries stays here.
                break;
            };
            let drop = next.height - here.height;
            // The brush's falloff thins what water carries, so that droplets running out of
            // the brush leave their load across the falloff rather than as a bank at its rim.
            let capacity =
                (-drop * speed * water * params.capacity).max(MIN_CAPACITY) * ground.weight(&next);
            if sediment > capacity || drop > 0.0 {
                // Uphill: fill the pit behind it (no more than it carries); else leave a
                // share of what is over capacity.
                let amount = if drop > 0.0 {
                    drop.min(sediment)
                } else {
                    (sediment - capacity) * deposition
                };
                // Laid whole where the brush is weak too: the falloff has already thinned
                // what the droplet may carry there.
                sediment -= ground.deposit(&here, amount, true);
            } else {
                // Never dig deeper than the drop, so the droplet does not carve a pit.
                let amount = ((capacity - sediment) * erosion).min(-drop);
                sediment += ground.erode(x, y, amount, next.height);
            }
            speed = (speed * speed - drop * GRAVITY).max(0.0).sqrt();
            water *= keep_water;
            (x, y) = (nx, ny);
            // The ground moved under the new place: read it again.
            here = match ground.under(x, y) {
                Some(u) => u,
                None => next,
            };
        }
        if sediment > 0.0 {
            ground.deposit_all(x, y, &here, sediment);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cone(n: usize) -> Field {
        let c = (n / 2) as f32;
        super::super::field::test_field(n, |x, y| {
            60.0 - ((x - c).powi(2) + (y - c).powi(2)).sqrt() * 3.0
        })
    }

    #[test]
    fn droplets_keep_material_and_repeat_for_a_seed() {
        let before = cone(33);
        let run = |seed| {
            let mut f = before.clone();
            erode(
                &mut f,
                &Hydraulic {
                    droplets: 2000,
                    seed,
                    ..Hydraulic::default()
                },
            );
            f
        };
        let (a, b, c) = (run(1), run(1), run(2));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, before);
        let moved: f64 = a
            .outer
            .iter()
            .zip(&before.outer)
            .chain(a.inner.iter().zip(&before.inner))
            .map(|(x, y)| f64::from((x - y).abs()))
            .sum();
        assert!(moved > 1.0, "{moved}");
        assert!(
            (a.material() - before.material()).abs() < moved * 1e-3,
            "{} of {moved}",
            a.material() - before.material()
        );
    }
}
