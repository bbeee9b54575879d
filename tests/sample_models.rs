//! The sample's own models (`loam::sample::models`) read back as the generator built them,
//! with loam's reader and with the independent `wow-m2` / `wow-wmo` crates, and `loam model`
//! describes the bundled tower.
//!
//! Expected values come from the generator's mesh description (`loam::sample::mesh`) and from
//! counting the shapes by hand, never from the reader under test.

mod common;

use std::collections::HashMap;
use std::io::Cursor;
use std::path::PathBuf;

use loam::assets::models::{self, AnyModel, BlendMode, TextureRef};
use loam::sample::mesh::{self, Mesh};
use loam::sample::models as sample_models;

/// The generator's files by game path, looked up as the client does: case and slash blind.
fn files() -> HashMap<String, Vec<u8>> {
    sample_models::model_files()
        .into_iter()
        .map(|f| (f.name.to_ascii_lowercase(), f.bytes))
        .collect()
}

fn key(path: &str) -> String {
    path.replace('\\', "/").to_ascii_lowercase()
}

/// The box around a mesh's vertices, computed here.
fn box_of(mesh: &Mesh) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::MAX; 3];
    let mut hi = [f32::MIN; 3];
    for p in &mesh.positions {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    (lo, hi)
}

fn file_texture(path: &str) -> TextureRef {
    TextureRef::File(path.to_string())
}

/// What an M2 should read back as.
struct ExpectedM2 {
    path: &'static str,
    mesh: Mesh,
    vertices: usize,
    triangles: usize,
    textures: Vec<&'static str>,
    blends: Vec<BlendMode>,
    two_sided: Vec<bool>,
}

fn expected_m2s() -> Vec<ExpectedM2> {
    vec![
        ExpectedM2 {
            path: sample_models::TREE,
            mesh: mesh::tree(),
            // Trunk: 9 columns × 2 rings, 16 triangles. Each cone: 17 base + 16 apex vertices
            // and 16 triangles for the side, 1 + 16 vertices and 16 triangles underneath.
            vertices: 18 + 3 * (17 + 16 + 17),
            triangles: 16 + 3 * (16 + 16),
            textures: vec![sample_models::BARK, sample_models::LEAVES],
            blends: vec![BlendMode::Opaque, BlendMode::AlphaKey],
            two_sided: vec![false, true],
        },
        ExpectedM2 {
            path: sample_models::BOULDER,
            mesh: mesh::boulder(),
            // An octahedron split twice: 8·4·4 triangles; 6 + 12 + 48 vertices.
            vertices: 66,
            triangles: 128,
            textures: vec![sample_models::STONE],
            blends: vec![BlendMode::Opaque],
            two_sided: vec![false],
        },
    ]
}

#[test]
fn loam_reads_the_sample_m2s_as_they_were_built() {
    let files = files();
    let fetch = |p: &str| files.get(&key(p)).cloned();
    for e in expected_m2s() {
        let AnyModel::Model(m) = models::read_model(e.path, &fetch).expect(e.path) else {
            panic!("{}: not an M2", e.path)
        };
        assert_eq!(m.version, 264, "{}", e.path);
        assert_eq!(m.mesh.vertices.len(), e.vertices, "{}", e.path);
        assert_eq!(m.mesh.triangle_count(), e.triangles, "{}", e.path);
        assert_eq!(e.mesh.positions.len(), e.vertices);
        // The skin lists every vertex in order, so vertex k is the generator's vertex k.
        for (k, v) in m.mesh.vertices.iter().enumerate() {
            assert_eq!(v.position, e.mesh.positions[k], "{} vertex {k}", e.path);
            assert_eq!(v.normal, e.mesh.normals[k], "{} vertex {k}", e.path);
            assert_eq!(v.uv, e.mesh.uvs[k], "{} vertex {k}", e.path);
            let len = v.normal.iter().map(|c| c * c).sum::<f32>().sqrt();
            assert!((len - 1.0).abs() < 1e-5, "{}: normal {k} not unit", e.path);
        }
        let indices: Vec<u32> = m.mesh.indices.iter().collect();
        let built: Vec<u32> = e.mesh.indices.iter().map(|&i| u32::from(i)).collect();
        assert_eq!(indices, built, "{}", e.path);
        let textures: Vec<TextureRef> = e.textures.iter().map(|t| file_texture(t)).collect();
        assert_eq!(m.mesh.textures, textures, "{}", e.path);
        assert_eq!(m.mesh.batches.len(), e.mesh.parts.len(), "{}", e.path);
        for (k, (b, part)) in m.mesh.batches.iter().zip(&e.mesh.parts).enumerate() {
            assert_eq!(b.first_index as usize, part.first_index);
            assert_eq!(b.index_count as usize, part.index_count);
            assert_eq!(b.material.texture, Some(k), "{}", e.path);
            assert_eq!(b.material.blend, e.blends[k], "{}", e.path);
            assert_eq!(b.material.two_sided, e.two_sided[k], "{}", e.path);
            assert!(!b.material.clamp_s && !b.material.clamp_t, "textures wrap");
        }
        let (lo, hi) = box_of(&e.mesh);
        assert_eq!(
            (m.mesh.bounds.min, m.mesh.bounds.max),
            (lo, hi),
            "{}",
            e.path
        );
        assert_eq!(
            (m.file_bounds.min, m.file_bounds.max),
            (lo, hi),
            "{}",
            e.path
        );
    }
}

#[test]
fn loam_reads_the_sample_tower_with_both_doodad_sets() {
    let files = files();
    let fetch = |p: &str| files.get(&key(p)).cloned();
    let AnyModel::Wmo(w) = models::read_model(sample_models::TOWER, &fetch).unwrap() else {
        panic!("the tower is a WMO")
    };
    let built = mesh::tower();
    assert_eq!(w.version, 17);
    assert_eq!(w.groups.len(), 1);
    assert!(w.missing_groups.is_empty());
    // Walls: 8 quads of 4 vertices; roof: 8 triangles of 3, an underside fan of 1 + 8, a door.
    assert_eq!(w.mesh.vertices.len(), 8 * 4 + 8 * 3 + 9 + 4);
    assert_eq!(w.mesh.triangle_count(), 8 * 2 + 8 + 8 + 2);
    assert_eq!(built.positions.len(), w.mesh.vertices.len());
    for (k, v) in w.mesh.vertices.iter().enumerate() {
        assert_eq!(v.position, built.positions[k], "vertex {k}");
        assert_eq!(v.normal, built.normals[k], "vertex {k}");
    }
    assert_eq!(
        w.mesh.textures,
        [
            file_texture(sample_models::WALL),
            file_texture(sample_models::ROOF)
        ]
    );
    assert_eq!(w.mesh.batches.len(), 2);
    for (k, (b, part)) in w.mesh.batches.iter().zip(&built.parts).enumerate() {
        assert_eq!(
            (b.first_index as usize, b.index_count as usize),
            (part.first_index, part.index_count)
        );
        assert_eq!(b.material.texture, Some(k));
        assert_eq!(b.material.blend, BlendMode::Opaque);
    }
    let g = &w.groups[0];
    assert_eq!(g.name, "Tower");
    assert!(!g.is_interior() && g.flags & 0x8 != 0, "an exterior group");
    assert_eq!(g.doodad_refs, [0, 1, 2]);
    let (lo, hi) = box_of(&built);
    assert_eq!((w.bounds.min, w.bounds.max), (lo, hi));
    assert_eq!((g.bounds.min, g.bounds.max), (lo, hi));
    // About 8 yards across the walls and 25 tall above the ground (z = 0).
    let (radius, ..) = mesh::TOWER;
    assert!((7.5..=8.5).contains(&(2.0 * radius)));
    assert!((24.0..=26.0).contains(&hi[2]));

    let sets: Vec<(&str, u32, u32)> = w
        .doodad_sets
        .iter()
        .map(|s| (s.name.as_str(), s.first, s.count))
        .collect();
    assert_eq!(sets, [("Set_$DefaultGlobal", 0, 1), ("Set_Boulders", 1, 2)]);
    assert_eq!(w.doodads.len(), 3);
    for d in &w.doodads {
        assert_eq!(d.model, sample_models::BOULDER_IN_WMO);
        let q = d.rotation;
        let len = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        assert!((len - 1.0).abs() < 1e-6, "unit quaternion {q:?}");
        // Outside the walls, near the ground.
        let r = (d.position[0] * d.position[0] + d.position[1] * d.position[1]).sqrt();
        assert!(
            r > radius as f32 + 1.0 && d.position[2].abs() < 0.5,
            "{d:?}"
        );
        // The `.mdx` name finds the boulder's `.m2`, as in the client.
        let boulder = models::read_model(&d.model, &fetch).unwrap();
        assert_eq!(boulder.version(), 264);
    }
}

#[test]
fn wow_m2_reads_the_sample_m2s_alike() {
    let files = files();
    for e in expected_m2s() {
        let m2 = &files[&key(e.path)];
        let parsed = wow_m2::parse_m2(&mut Cursor::new(m2)).expect(e.path);
        let theirs = parsed.model();
        assert_eq!(theirs.header.version, 264, "{}", e.path);
        assert_eq!(theirs.header.num_skin_profiles, Some(1), "{}", e.path);
        assert_eq!(theirs.vertices.len(), e.vertices, "{}", e.path);
        assert_eq!(theirs.bones.len(), 1, "{}", e.path);
        assert_eq!(theirs.animations.len(), 1, "{}", e.path);
        let names = common::m2_texture_names(theirs);
        assert_eq!(names, e.textures, "{}", e.path);
        let blends: Vec<BlendMode> = theirs
            .materials
            .iter()
            .map(|m| BlendMode::from_m2(m.blend_mode.bits() as u32))
            .collect();
        assert_eq!(blends, e.blends, "{}", e.path);
        for (k, v) in theirs.vertices.iter().enumerate() {
            let p = e.mesh.positions[k];
            assert_eq!([v.position.x, v.position.y, v.position.z], p, "{}", e.path);
        }

        let skin_path = e.path.replace(".m2", "00.skin");
        let skin =
            wow_m2::parse_skin(&mut Cursor::new(&files[&key(&skin_path)])).expect(&skin_path);
        assert_eq!(skin.submeshes().len(), e.mesh.parts.len(), "{skin_path}");
        assert_eq!(skin.batches().len(), e.mesh.parts.len(), "{skin_path}");
        assert_eq!(skin.indices().len(), e.vertices, "{skin_path}");
        assert_eq!(skin.triangles().len(), 3 * e.triangles, "{skin_path}");
        for (s, part) in skin.submeshes().iter().zip(&e.mesh.parts) {
            assert_eq!(usize::from(s.vertex_start), part.first_vertex);
            assert_eq!(usize::from(s.vertex_count), part.vertex_count);
            assert_eq!(usize::from(s.triangle_start), part.first_index);
            assert_eq!(usize::from(s.triangle_count), part.index_count);
        }
    }
}

#[test]
fn wow_wmo_reads_the_sample_tower_alike() {
    let files = files();
    let root_bytes = &files[&key(sample_models::TOWER)];
    let Ok(wow_wmo::ParsedWmo::Root(root)) = wow_wmo::parse_wmo(&mut Cursor::new(root_bytes))
    else {
        panic!("wow-wmo reads the tower's root")
    };
    let built = mesh::tower();
    let (lo, hi) = box_of(&built);
    assert_eq!(root.version, 17);
    assert_eq!(root.n_groups, 1);
    assert_eq!(root.n_materials, 2);
    assert_eq!(root.textures, [sample_models::WALL, sample_models::ROOF]);
    assert_eq!((root.bounding_box_min, root.bounding_box_max), (lo, hi));
    assert_eq!((root.n_doodad_sets, root.n_doodad_defs), (2, 3));
    let sets: Vec<(String, u32, u32)> = root
        .doodad_sets
        .iter()
        .map(|s| {
            let name = String::from_utf8_lossy(&s.name);
            (
                name.trim_end_matches('\0').to_string(),
                s.start_index,
                s.count,
            )
        })
        .collect();
    assert_eq!(
        sets,
        [
            ("Set_$DefaultGlobal".to_string(), 0, 1),
            ("Set_Boulders".to_string(), 1, 2)
        ]
    );
    assert_eq!(root.doodad_defs.len(), 3);
    assert_eq!(root.doodad_names, [sample_models::BOULDER_IN_WMO]);

    let group_path = sample_models::TOWER.replace(".wmo", "_000.wmo");
    let Ok(wow_wmo::ParsedWmo::Group(g)) =
        wow_wmo::parse_wmo(&mut Cursor::new(&files[&key(&group_path)]))
    else {
        panic!("wow-wmo reads the tower's group")
    };
    assert_eq!(g.vertex_positions.len(), built.positions.len());
    assert_eq!(g.vertex_indices.len(), built.indices.len());
    assert_eq!(g.render_batches.len(), built.parts.len());
    assert_eq!(g.flags & 0x8, 0x8, "exterior");
    assert_eq!(g.ext_batch_count as usize, built.parts.len());
    assert_eq!(g.bounding_box, [lo, hi].concat());
    for (k, p) in g.vertex_positions.iter().enumerate() {
        assert_eq!([p.x, p.y, p.z], built.positions[k]);
    }
}

#[test]
fn loam_model_names_both_doodad_sets_of_the_bundled_tower() {
    let tower = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("resources/sample")
        .join(sample_models::TOWER.replace('\\', "/"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_loam"))
        .arg("model")
        .arg(&tower)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("format: WMO version 17"), "{text}");
    assert!(text.contains("groups: 1 read, 0 missing"), "{text}");
    assert!(
        text.contains("Set_$DefaultGlobal: 1 doodads from 0"),
        "{text}"
    );
    assert!(text.contains("Set_Boulders: 2 doodads from 1"), "{text}");
    assert!(text.contains("doodads: 3"), "{text}");
}

#[test]
fn the_sample_places_the_tower_inside_its_box() {
    let map = loam::sample::sample_map();
    let placements: Vec<_> = map.tiles.values().flat_map(|t| &t.wmos).collect();
    assert_eq!(placements.len(), 1);
    let p = placements[0];
    assert_eq!(p.doodad_set, 1, "the placement shows the second set too");
    // The tower's box turned by the placement's yaw (rotation[1], about the up axis) by hand:
    // every corner lies inside the MODF box, and the box is at most 1/16 yard larger.
    let (lo, hi) = box_of(&mesh::tower());
    let yaw = f64::from(p.rotation[1]).to_radians();
    let (s, c) = yaw.sin_cos();
    let mut world_lo = [f64::MAX; 3];
    let mut world_hi = [f64::MIN; 3];
    for corner in 0..8 {
        let pick = |i: usize| f64::from(if corner >> i & 1 == 0 { lo[i] } else { hi[i] });
        let (x, y, z) = (pick(0), pick(1), pick(2));
        let w = [
            p.position[0] + c * x - s * y,
            p.position[1] + s * x + c * y,
            p.position[2] + z,
        ];
        for i in 0..3 {
            world_lo[i] = world_lo[i].min(w[i]);
            world_hi[i] = world_hi[i].max(w[i]);
        }
    }
    for i in 0..3 {
        assert!(
            p.bounds_min[i] <= world_lo[i] + 1e-9 && world_lo[i] - p.bounds_min[i] <= 0.0625,
            "min {i}: {:?} vs {world_lo:?}",
            p.bounds_min
        );
        assert!(
            p.bounds_max[i] >= world_hi[i] - 1e-9 && p.bounds_max[i] - world_hi[i] <= 0.0625,
            "max {i}: {:?} vs {world_hi:?}",
            p.bounds_max
        );
    }
}
