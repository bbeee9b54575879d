//! A model's thumbnail, drawn on the CPU: its triangles seen from a three-quarter view above,
//! fitted to its box, with a depth buffer, two-sided lambert shading and its first texture
//! (or a flat colour). Pure data in, RGBA out, so that a worker thread can draw it without a
//! GL context.
//!
//! Not for: caching thumbnails or showing them (the Scatter tool and its panel).

use super::ModelMesh;
use crate::assets::blp::Image;

/// The colour of a model drawn without its texture.
const FLAT: [f32; 3] = [0.72, 0.66, 0.56];

/// Texels at least this opaque are drawn; the rest are holes (leaves, grass blades).
const ALPHA_CUT: u8 = 128;

/// The model in `mesh` drawn into a `side`×`side` RGBA image (unpremultiplied, transparent
/// where no triangle covers), `texture` sampled by the first texture coordinates when given.
pub fn render(mesh: &ModelMesh, texture: Option<&Image>, side: usize) -> Vec<u8> {
    let mut rgba = vec![0u8; side * side * 4];
    let mut depth = vec![f32::NEG_INFINITY; side * side];
    // Looking down from above the model's front right (model x forward, z up).
    let eye = normalize([0.75, -0.55, 0.6]);
    let right = normalize(cross([0.0, 0.0, 1.0], eye));
    let up = cross(eye, right);
    let light = normalize([0.4, -0.8, 1.0]);
    let (min, max) = (mesh.bounds.min, mesh.bounds.max);
    let centre = [0, 1, 2].map(|i| (min[i] + max[i]) / 2.0);
    // The view's extent is the box's corners' (every vertex lies inside them).
    let mut reach = 1e-6f32;
    for k in 0..8 {
        let c = [0, 1, 2].map(|i| if (k >> i) & 1 == 0 { min[i] } else { max[i] } - centre[i]);
        reach = reach.max(dot(c, right).abs()).max(dot(c, up).abs());
    }
    let half = side as f32 / 2.0;
    let scale = half * 0.92 / reach;
    let project = |p: [f32; 3]| {
        let d = [0, 1, 2].map(|i| p[i] - centre[i]);
        [
            half + dot(d, right) * scale,
            half - dot(d, up) * scale,
            dot(d, eye),
        ]
    };
    let index: Vec<u32> = mesh.indices.iter().collect();
    for tri in index.chunks_exact(3) {
        let Some(v) = [tri[0], tri[1], tri[2]].try_map_vertices(mesh) else {
            continue;
        };
        let p = v.map(|v| project(v.position));
        let n = normalize(cross(
            sub(v[1].position, v[0].position),
            sub(v[2].position, v[0].position),
        ));
        // Two-sided: leaves and cards are seen from either side.
        let shade = 0.35 + 0.65 * dot(n, light).abs();
        let area = edge(p[0], p[1], p[2]);
        if area.abs() < 1e-9 {
            continue;
        }
        let x0 = p
            .iter()
            .map(|q| q[0])
            .fold(f32::INFINITY, f32::min)
            .floor()
            .max(0.0) as usize;
        let y0 = p
            .iter()
            .map(|q| q[1])
            .fold(f32::INFINITY, f32::min)
            .floor()
            .max(0.0) as usize;
        let x1 = (p
            .iter()
            .map(|q| q[0])
            .fold(f32::NEG_INFINITY, f32::max)
            .ceil() as usize)
            .min(side.saturating_sub(1));
        let y1 = (p
            .iter()
            .map(|q| q[1])
            .fold(f32::NEG_INFINITY, f32::max)
            .ceil() as usize)
            .min(side.saturating_sub(1));
        for y in y0..=y1 {
            for x in x0..=x1 {
                let s = [x as f32 + 0.5, y as f32 + 0.5, 0.0];
                let w = [
                    edge(p[1], p[2], s) / area,
                    edge(p[2], p[0], s) / area,
                    edge(p[0], p[1], s) / area,
                ];
                if w.iter().any(|&w| w < 0.0) {
                    continue;
                }
                let z = w[0] * p[0][2] + w[1] * p[1][2] + w[2] * p[2][2];
                let at = y * side + x;
                if z <= depth[at] {
                    continue;
                }
                let colour = match texture {
                    Some(t) => {
                        let uv = [0, 1]
                            .map(|i| w[0] * v[0].uv[i] + w[1] * v[1].uv[i] + w[2] * v[2].uv[i]);
                        match sample(t, uv) {
                            Some(c) if c[3] >= ALPHA_CUT => {
                                [c[0], c[1], c[2]].map(|c| f32::from(c) / 255.0)
                            }
                            Some(_) => continue,
                            None => FLAT,
                        }
                    }
                    None => FLAT,
                };
                depth[at] = z;
                let out = &mut rgba[at * 4..at * 4 + 4];
                for (o, c) in out.iter_mut().zip(colour) {
                    *o = (c * shade * 255.0).clamp(0.0, 255.0) as u8;
                }
                out[3] = 255;
            }
        }
    }
    rgba
}

/// The three vertices of a triangle, or `None` when an index is out of range.
trait TriangleVertices {
    fn try_map_vertices(self, mesh: &ModelMesh) -> Option<[&super::Vertex; 3]>;
}

impl TriangleVertices for [u32; 3] {
    fn try_map_vertices(self, mesh: &ModelMesh) -> Option<[&super::Vertex; 3]> {
        let v = |i: u32| mesh.vertices.get(i as usize);
        Some([v(self[0])?, v(self[1])?, v(self[2])?])
    }
}

/// The texel under `uv` (wrapping, nearest), or `None` for an empty image.
fn sample(t: &Image, uv: [f32; 2]) -> Option<[u8; 4]> {
    if t.width == 0 || t.height == 0 {
        return None;
    }
    let wrap = |c: f32, n: usize| ((c - c.floor()) * n as f32).min(n as f32 - 1.0) as usize;
    let at = (wrap(uv[1], t.height) * t.width + wrap(uv[0], t.width)) * 4;
    let px = t.rgba.get(at..at + 4)?;
    Some([px[0], px[1], px[2], px[3]])
}

/// Twice the signed area of the screen triangle a, b, c.
fn edge(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> f32 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(a: [f32; 3]) -> [f32; 3] {
    let l = dot(a, a).sqrt();
    if l > 0.0 { a.map(|c| c / l) } else { a }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::models::{Aabb, Indices, Vertex};

    /// A cube from -1 to 1, twelve triangles.
    fn cube() -> ModelMesh {
        let bounds = Aabb {
            min: [-1.0; 3],
            max: [1.0; 3],
        };
        let vertices: Vec<Vertex> = (bounds.corners().into_iter())
            .map(|position| Vertex {
                position,
                normal: [0.0, 0.0, 1.0],
                uv: [0.0, 0.0],
                uv2: [0.0, 0.0],
            })
            .collect();
        ModelMesh {
            vertices,
            colors: None,
            indices: Indices::U16(Aabb::FACE_TRIANGLES.to_vec()),
            batches: Vec::new(),
            textures: Vec::new(),
            bounds,
        }
    }

    fn alpha(rgba: &[u8], side: usize, x: usize, y: usize) -> u8 {
        rgba[(y * side + x) * 4 + 3]
    }

    #[test]
    fn a_cube_covers_the_centre_and_leaves_the_corners_empty() {
        let side = 96;
        let rgba = render(&cube(), None, side);
        assert_eq!(rgba.len(), side * side * 4);
        assert_eq!(alpha(&rgba, side, side / 2, side / 2), 255);
        for (x, y) in [(0, 0), (side - 1, 0), (0, side - 1), (side - 1, side - 1)] {
            assert_eq!(alpha(&rgba, side, x, y), 0, "corner {x}, {y}");
        }
        // Lit faces differ: the top is not shaded like the sides.
        let shades: std::collections::BTreeSet<u8> = rgba
            .chunks_exact(4)
            .filter(|p| p[3] == 255)
            .map(|p| p[0])
            .collect();
        assert!(shades.len() >= 2, "faces shaded apart: {shades:?}");
    }

    #[test]
    fn a_texture_colours_the_model_and_its_holes_stay_empty() {
        let side = 32;
        let red = Image {
            width: 1,
            height: 1,
            rgba: vec![255, 0, 0, 255],
        };
        let rgba = render(&cube(), Some(&red), side);
        let centre = (side / 2 * side + side / 2) * 4;
        assert!(rgba[centre] > 0 && rgba[centre + 1] == 0 && rgba[centre + 2] == 0);
        let hole = Image {
            width: 1,
            height: 1,
            rgba: vec![255, 0, 0, 0],
        };
        let rgba = render(&cube(), Some(&hole), side);
        assert!(
            rgba.chunks_exact(4).all(|p| p[3] == 0),
            "see-through texels are not drawn"
        );
    }
}
