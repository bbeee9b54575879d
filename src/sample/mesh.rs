//! The shapes of the sample's own models: a tree, a boulder and a tower, as triangle meshes in
//! model space (x forward, y left, z up, as M2 and WMO files store them), one run of vertices
//! and indices per material.
//!
//! Like the terrain, every number comes from +, −, ×, ÷, √ and integer hashing, so the bytes
//! written from these meshes are the same on every platform: circles are built by halving
//! angles (the midpoint of two unit vectors, normalised) instead of calling sin and cos.
//! Triangles wind counter-clockwise seen from outside (the cross product of the first two
//! edges points along the normals), as in the corpus's M2 and WMO files.
//!
//! Not for: writing files (`m2`, `wmo`) or anything the editor draws from other models.

use super::lattice_hash;

/// One material's run of a mesh: contiguous vertices and the triangles that use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// First vertex of the run.
    pub first_vertex: usize,
    /// Number of vertices.
    pub vertex_count: usize,
    /// First index of the run (indices are into the whole mesh's vertices).
    pub first_index: usize,
    /// Number of indices (three per triangle).
    pub index_count: usize,
    /// Which of the model's materials draws it.
    pub material: usize,
}

/// A triangle mesh grouped into parts; `indices` index `positions`, `normals` and `uvs`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Vertex positions in yards.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals, one per vertex.
    pub normals: Vec<[f32; 3]>,
    /// Texture coordinates, one per vertex.
    pub uvs: Vec<[f32; 2]>,
    /// Triangle list.
    pub indices: Vec<u16>,
    /// The material runs, in order; together they cover every vertex and index.
    pub parts: Vec<Part>,
}

/// The box around every vertex (`[0; 3]` twice for an empty mesh).
pub fn bounds(mesh: &Mesh) -> ([f32; 3], [f32; 3]) {
    let mut points = mesh.positions.iter();
    let Some(&first) = points.next() else {
        return ([0.0; 3], [0.0; 3]);
    };
    points.fold((first, first), |(lo, hi), p| {
        (
            std::array::from_fn(|i| lo[i].min(p[i])),
            std::array::from_fn(|i| hi[i].max(p[i])),
        )
    })
}

/// The radius of the sphere around the box's centre that holds the whole box.
pub fn bounding_radius(min: [f32; 3], max: [f32; 3]) -> f32 {
    let d: [f64; 3] = std::array::from_fn(|i| (max[i] as f64 - min[i] as f64) / 2.0);
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() as f32
}

type V3 = [f64; 3];

fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: V3, s: f64) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(a: V3) -> V3 {
    let len = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    if len == 0.0 { a } else { scale(a, 1.0 / len) }
}

/// `n` unit vectors around the z axis (n = 4·2^k), counter-clockwise from +x. Each doubling
/// puts the normalised midpoint between neighbours, which halves the angle exactly enough and
/// needs only √.
fn circle(n: usize) -> Vec<[f64; 2]> {
    let mut ring: Vec<[f64; 2]> = vec![[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]];
    while ring.len() < n {
        let mut finer = Vec::with_capacity(ring.len() * 2);
        for (k, &a) in ring.iter().enumerate() {
            let b = ring[(k + 1) % ring.len()];
            let m = [a[0] + b[0], a[1] + b[1]];
            let len = (m[0] * m[0] + m[1] * m[1]).sqrt();
            finer.push(a);
            finer.push([m[0] / len, m[1] / len]);
        }
        ring = finer;
    }
    ring
}

/// Adds a vertex (converted to f32) and returns its index.
fn vertex(mesh: &mut Mesh, p: V3, n: V3, uv: [f64; 2]) -> u16 {
    mesh.positions.push(p.map(|c| c as f32));
    mesh.normals.push(n.map(|c| c as f32));
    mesh.uvs.push(uv.map(|c| c as f32));
    (mesh.positions.len() - 1) as u16
}

/// Runs `build` and records what it added as one part drawn with `material`.
fn part(mesh: &mut Mesh, material: usize, build: impl FnOnce(&mut Mesh)) {
    let (first_vertex, first_index) = (mesh.positions.len(), mesh.indices.len());
    build(mesh);
    mesh.parts.push(Part {
        first_vertex,
        vertex_count: mesh.positions.len() - first_vertex,
        first_index,
        index_count: mesh.indices.len() - first_index,
        material,
    });
}

/// The tree's trunk: an 8-sided tapering prism from below the ground into the foliage.
pub const TRUNK: (f64, f64, f64, f64) = (-0.4, 3.0, 0.38, 0.22);
/// The tree's foliage cones: base height, height and base radius, bottom to top.
pub const FOLIAGE: [(f64, f64, f64); 3] = [(2.2, 3.0, 2.5), (3.9, 2.7, 1.95), (5.4, 2.6, 1.35)];

/// The tree: material 0 (bark) is the trunk, material 1 (leaves) three stacked cones with a
/// flat underside each. 8 yards tall at scale 1.
pub fn tree() -> Mesh {
    let mut mesh = Mesh::default();
    let (z0, z1, r0, r1) = TRUNK;
    part(&mut mesh, 0, |m| {
        let ring = circle(8);
        let base = m.positions.len() as u16;
        for k in 0..=8 {
            let [c, s] = ring[k % 8];
            // The side leans inward as it rises, so the normal leans up by the taper.
            let n = normalize([(z1 - z0) * c, (z1 - z0) * s, r0 - r1]);
            let u = k as f64 / 4.0;
            vertex(m, [r0 * c, r0 * s, z0], n, [u, (z1 - z0) / 1.7]);
            vertex(m, [r1 * c, r1 * s, z1], n, [u, 0.0]);
        }
        for k in 0..8u16 {
            let (b0, t0, b1, t1) = (
                base + 2 * k,
                base + 2 * k + 1,
                base + 2 * k + 2,
                base + 2 * k + 3,
            );
            m.indices.extend([b0, b1, t1, b0, t1, t0]);
        }
    });
    part(&mut mesh, 1, |m| {
        // Even entries of the 32-circle are the 16 base corners; odd ones the directions of
        // each side's apex vertex, so an apex normal points between its two corners.
        let ring = circle(32);
        for (zb, h, r) in FOLIAGE {
            let slant = (h * h + r * r).sqrt();
            let side_normal = |[c, s]: [f64; 2]| normalize([h * c, h * s, r]);
            let base = m.positions.len() as u16;
            for k in 0..=16 {
                let d = ring[(2 * k) % 32];
                let u = k as f64 * 3.0 / 16.0;
                vertex(
                    m,
                    [r * d[0], r * d[1], zb],
                    side_normal(d),
                    [u, slant / 2.0],
                );
            }
            let apex = m.positions.len() as u16;
            for k in 0..16 {
                let d = ring[2 * k + 1];
                let u = (k as f64 + 0.5) * 3.0 / 16.0;
                vertex(m, [0.0, 0.0, zb + h], side_normal(d), [u, 0.0]);
            }
            for k in 0..16u16 {
                m.indices.extend([base + k, base + k + 1, apex + k]);
            }
            // The underside, facing down.
            let centre = vertex(m, [0.0, 0.0, zb], [0.0, 0.0, -1.0], [0.0, 0.0]);
            for k in 0..16 {
                let d = ring[2 * k];
                let (x, y) = (r * d[0], r * d[1]);
                vertex(m, [x, y, zb], [0.0, 0.0, -1.0], [x / 2.0, y / 2.0]);
            }
            for k in 0..16u16 {
                let (a, b) = (centre + 1 + k, centre + 1 + (k + 1) % 16);
                m.indices.extend([centre, b, a]);
            }
        }
    });
    mesh
}

/// The boulder's half extents before the lumps (x, y, z) and how far it sinks into the ground.
pub const BOULDER: ([f64; 3], f64) = ([1.0, 0.9, 0.65], 0.2);

/// The boulder: an octahedron subdivided twice into a sphere (66 vertices, 128 triangles),
/// each vertex pushed in or out by up to 11 % by a hash of where it lies, squashed to about
/// 2 × 1.8 × 1.3 yards and sunk 0.2 yards into the ground. One material (stone).
pub fn boulder() -> Mesh {
    let mut points: Vec<V3> = vec![
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ];
    let mut triangles: Vec<[usize; 3]> = Vec::new();
    for k in 0..4 {
        let (a, b) = (k, (k + 1) % 4);
        triangles.push([a, b, 4]);
        triangles.push([b, a, 5]);
    }
    for _ in 0..2 {
        let mut midpoints = std::collections::BTreeMap::new();
        let mut finer = Vec::with_capacity(triangles.len() * 4);
        for [a, b, c] in triangles {
            let mut mid = |i: usize, j: usize| {
                *midpoints.entry((i.min(j), i.max(j))).or_insert_with(|| {
                    points.push(normalize(add(points[i], points[j])));
                    points.len() - 1
                })
            };
            let (ab, bc, ca) = (mid(a, b), mid(b, c), mid(c, a));
            finer.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        triangles = finer;
    }
    let (half, sink) = BOULDER;
    let lumpy: Vec<V3> = points
        .iter()
        .map(|p| {
            let q = p.map(|c| (c * 64.0).round() as i64);
            let h = lattice_hash(q[0], q[1], 300u32.wrapping_add(q[2] as u32));
            let r = 1.0 + 0.22 * (h as f64 / u32::MAX as f64 - 0.5);
            [
                p[0] * r * half[0],
                p[1] * r * half[1],
                p[2] * r * half[2] + half[2] - sink,
            ]
        })
        .collect();
    // Smooth normals: the sum of the cross products of the triangles around a vertex (larger
    // triangles weigh more), normalised.
    let mut sums = vec![[0.0; 3]; lumpy.len()];
    for &[a, b, c] in &triangles {
        let n = cross(sub(lumpy[b], lumpy[a]), sub(lumpy[c], lumpy[a]));
        for i in [a, b, c] {
            sums[i] = add(sums[i], n);
        }
    }
    let mut mesh = Mesh::default();
    part(&mut mesh, 0, |m| {
        for (p, n) in lumpy.iter().zip(&sums) {
            // A planar projection slanted across all three axes: no seams, and no face of the
            // rock gets a texture stretched to a line.
            let uv = [0.5 * (p[0] - p[1]), 0.5 * (p[2] + 0.5 * (p[0] + p[1]))];
            vertex(m, *p, normalize(*n), uv);
        }
        m.indices
            .extend(triangles.iter().flatten().map(|&i| i as u16));
    });
    mesh
}

/// The tower's corner radius, the bottom and top of its walls, the roof's eave radius, eave
/// height and apex height; the bottom is below the ground so that the walls meet sloping
/// terrain.
pub const TOWER: (f64, f64, f64, f64, f64, f64) = (4.2, -3.0, 18.0, 5.2, 17.5, 25.0);

/// Half width, bottom and top of the door on the tower's +x face.
pub const DOOR: (f64, f64, f64) = (0.8, -0.5, 3.0);

/// The tower: material 0 (stone) is eight flat wall faces, material 1 (roof) an eight-sided
/// cone roof with its underside and a door on the face looking along +x. About 8 yards
/// across and 25 tall.
pub fn tower() -> Mesh {
    let (radius, bottom, top, eave_radius, eave, apex) = TOWER;
    // Corners at 22.5° + k·45° (odd entries), faces looking along the even entries: face 0
    // looks along +x.
    let ring = circle(16);
    let corner = |k: usize| ring[(2 * k + 15) % 16];
    let mut mesh = Mesh::default();
    part(&mut mesh, 0, |m| {
        for k in 0..8 {
            let ([ax, ay], [bx, by]) = (corner(k), corner(k + 1));
            let [nx, ny] = ring[2 * k];
            let n = [nx, ny, 0.0];
            let width = radius * ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).sqrt();
            let (u1, v0) = (width / 4.0, (top - bottom) / 4.0);
            let a0 = vertex(m, [radius * ax, radius * ay, bottom], n, [0.0, v0]);
            let b0 = vertex(m, [radius * bx, radius * by, bottom], n, [u1, v0]);
            let b1 = vertex(m, [radius * bx, radius * by, top], n, [u1, 0.0]);
            let a1 = vertex(m, [radius * ax, radius * ay, top], n, [0.0, 0.0]);
            m.indices.extend([a0, b0, b1, a0, b1, a1]);
        }
    });
    part(&mut mesh, 1, |m| {
        let peak = [0.0, 0.0, apex];
        for k in 0..8 {
            let ([ax, ay], [bx, by]) = (corner(k), corner(k + 1));
            let a = [eave_radius * ax, eave_radius * ay, eave];
            let b = [eave_radius * bx, eave_radius * by, eave];
            let n = normalize(cross(sub(b, a), sub(peak, a)));
            let width = eave_radius * ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).sqrt();
            let slant = (apex - eave) * (apex - eave) + eave_radius * eave_radius;
            let v = slant.sqrt() / 3.0;
            let ia = vertex(m, a, n, [0.0, v]);
            let ib = vertex(m, b, n, [width / 3.0, v]);
            let ip = vertex(m, peak, n, [width / 6.0, 0.0]);
            m.indices.extend([ia, ib, ip]);
        }
        // The underside of the roof, facing down, closes the eaves.
        let down = [0.0, 0.0, -1.0];
        let centre = vertex(m, [0.0, 0.0, eave], down, [0.0, 0.0]);
        for k in 0..8 {
            let [x, y] = corner(k).map(|c| c * eave_radius);
            vertex(m, [x, y, eave], down, [x / 3.0, y / 3.0]);
        }
        for k in 0..8u16 {
            let (a, b) = (centre + 1 + k, centre + 1 + (k + 1) % 8);
            m.indices.extend([centre, b, a]);
        }
        // The door: a quad a hand's breadth in front of face 0.
        let (half, door_bottom, door_top) = DOOR;
        let x = radius * ring[1][0] + 0.05;
        let n = [1.0, 0.0, 0.0];
        let v = (door_top - door_bottom) / 3.0;
        let d0 = vertex(m, [x, -half, door_bottom], n, [0.0, v]);
        let d1 = vertex(m, [x, half, door_bottom], n, [2.0 * half / 3.0, v]);
        let d2 = vertex(m, [x, half, door_top], n, [2.0 * half / 3.0, 0.0]);
        let d3 = vertex(m, [x, -half, door_top], n, [0.0, 0.0]);
        m.indices.extend([d0, d1, d2, d0, d2, d3]);
    });
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle's winding agrees with its vertices' normals (counter-clockwise from
    /// outside), every index is in range and the parts tile the mesh.
    fn check(mesh: &Mesh) {
        let n = mesh.positions.len();
        assert_eq!((mesh.normals.len(), mesh.uvs.len()), (n, n));
        assert!(mesh.indices.iter().all(|&i| usize::from(i) < n));
        for t in mesh.indices.chunks_exact(3) {
            let p = |i: u16| mesh.positions[usize::from(i)].map(f64::from);
            let face = cross(sub(p(t[1]), p(t[0])), sub(p(t[2]), p(t[0])));
            let normals = t.iter().fold([0.0; 3], |s, &i| {
                add(s, mesh.normals[usize::from(i)].map(f64::from))
            });
            let dot: f64 = (0..3).map(|i| face[i] * normals[i]).sum();
            assert!(dot > 0.0, "triangle {t:?} winds against its normals");
        }
        let (mut v, mut i) = (0, 0);
        for p in &mesh.parts {
            assert_eq!((p.first_vertex, p.first_index), (v, i));
            v += p.vertex_count;
            i += p.index_count;
        }
        assert_eq!((v, i), (n, mesh.indices.len()));
    }

    #[test]
    fn circles_are_unit_and_evenly_spaced() {
        let c = circle(16);
        assert_eq!(c.len(), 16);
        assert_eq!(c[4], [0.0, 1.0]);
        // 45°: both coordinates √½.
        assert!((c[2][0] - 0.5f64.sqrt()).abs() < 1e-15 && (c[2][1] - c[2][0]).abs() < 1e-15);
        for w in c.windows(2) {
            let dot = w[0][0] * w[1][0] + w[0][1] * w[1][1];
            // cos 22.5° = √(2 + √2) / 2
            assert!((dot - (2.0 + 2f64.sqrt()).sqrt() / 2.0).abs() < 1e-12);
        }
    }

    #[test]
    fn the_shapes_are_closed_the_right_way_round_and_the_right_size() {
        let (tree, boulder, tower) = (tree(), boulder(), tower());
        for m in [&tree, &boulder, &tower] {
            check(m);
        }
        let (lo, hi) = bounds(&tree);
        assert!(hi[2] > 6.0 && hi[2] < 9.0, "tree height {}", hi[2]);
        assert!(lo[2] < 0.0, "the trunk goes into the ground");
        let (lo, hi) = bounds(&boulder);
        assert!((1.5..=2.5).contains(&(hi[0] - lo[0])), "{lo:?} {hi:?}");
        assert_eq!(boulder.positions.len(), 66);
        assert_eq!(boulder.indices.len(), 128 * 3);
        let (lo, hi) = bounds(&tower);
        assert!(hi[2] > 24.0 && hi[2] < 26.0);
        assert_eq!(tower.parts.len(), 2);
        assert_eq!(
            tree.parts.iter().map(|p| p.material).collect::<Vec<_>>(),
            [0, 1]
        );
        assert!(hi[1] - lo[1] > 8.0 && hi[1] - lo[1] < 11.0);
        assert!(bounding_radius(lo, hi) > 14.0);
    }
}
