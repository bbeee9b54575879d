//! The sample's own models as files: the tree and boulder doodads (M2 + skin), the tower
//! (WMO root + group) with its two doodad sets, and the five textures they draw, all under
//! `World\Loam\Sample\`, the folder the sample's tiles name them in.
//!
//! This module decides what the models are (which mesh, which materials and textures, where
//! the tower's doodads stand); `mesh` builds the shapes and `m2` / `wmo` write the bytes.
//!
//! Not for: models of any other map.

use super::m2::{self, M2Material};
use super::mesh;
use super::wmo::{self, WmoDoodad, WmoDoodadSet, WmoMaterial};
use super::{TEXTURE_SIDE, lattice_hash};
use crate::assets::blp::Image;
use crate::pipeline::EncodedFile;

/// The tree as the sample's tiles name it.
pub const TREE: &str = "World\\Loam\\Sample\\Tree01.m2";
/// The boulder as the sample's tiles name it.
pub const BOULDER: &str = "World\\Loam\\Sample\\Boulder01.m2";
/// The boulder as the tower's MODN names it: the WMO page says MODN names "have to be .MDX";
/// the 1.12–3.3.5 clients, and loam's reader, load the `.m2` of that name.
pub const BOULDER_IN_WMO: &str = "World\\Loam\\Sample\\Boulder01.mdx";
/// The tower as the sample's tiles name it.
pub const TOWER: &str = "World\\Loam\\Sample\\Tower.wmo";

/// Bark, on the tree's trunk.
pub const BARK: &str = "World\\Loam\\Sample\\Bark.blp";
/// Leaves with cut-out holes (alpha 0 or 255), on the tree's cones.
pub const LEAVES: &str = "World\\Loam\\Sample\\Leaves.blp";
/// Stone, on the boulder.
pub const STONE: &str = "World\\Loam\\Sample\\Stone.blp";
/// Bricks, on the tower's walls.
pub const WALL: &str = "World\\Loam\\Sample\\TowerWall.blp";
/// Shingles, on the tower's roof and door.
pub const ROOF: &str = "World\\Loam\\Sample\\TowerRoof.blp";

/// Every texture the models draw, in the order [`model_files`] writes them.
pub const MODEL_TEXTURES: [&str; 5] = [BARK, LEAVES, STONE, WALL, ROOF];

/// The tree's materials: opaque bark; leaves alpha-keyed (blend 1) and two-sided (0x4) so
/// that the holes show the far side of the cone.
pub const TREE_MATERIALS: [M2Material; 2] = [
    M2Material {
        texture: BARK,
        render_flags: 0,
        blend: 0,
    },
    M2Material {
        texture: LEAVES,
        render_flags: 0x4,
        blend: 1,
    },
];

/// The boulder's one material: opaque stone.
pub const BOULDER_MATERIALS: [M2Material; 1] = [M2Material {
    texture: STONE,
    render_flags: 0,
    blend: 0,
}];

/// The tower's materials: opaque walls and opaque roof.
pub const TOWER_MATERIALS: [WmoMaterial; 2] = [
    WmoMaterial {
        texture: WALL,
        flags: 0,
        blend: 0,
    },
    WmoMaterial {
        texture: ROOF,
        flags: 0,
        blend: 0,
    },
];

/// The tower's doodad sets: the default set (always shown) with one boulder beside the door,
/// and a second set with two more that a placement can choose.
pub fn tower_doodad_sets() -> Vec<WmoDoodadSet> {
    // Rotations about z by 0°, 90° and 180°: (0, 0, sin ½θ, cos ½θ) with exact values.
    let half = 0.5f32.sqrt();
    vec![
        WmoDoodadSet {
            name: "Set_$DefaultGlobal",
            doodads: vec![WmoDoodad {
                model: BOULDER_IN_WMO,
                position: [5.8, 1.4, -0.1],
                rotation: [0.0, 0.0, 0.0, 1.0],
                scale: 1.0,
            }],
        },
        WmoDoodadSet {
            name: "Set_Boulders",
            doodads: vec![
                WmoDoodad {
                    model: BOULDER_IN_WMO,
                    position: [-1.5, 6.2, -0.1],
                    rotation: [0.0, 0.0, half, half],
                    scale: 0.8,
                },
                WmoDoodad {
                    model: BOULDER_IN_WMO,
                    position: [-5.6, -3.0, -0.1],
                    rotation: [0.0, 0.0, 1.0, 0.0],
                    scale: 1.25,
                },
            ],
        },
    ]
}

/// The tower's box in its model space (MOHD's), which its MODF placement box derives from.
pub fn tower_bounds() -> ([f32; 3], [f32; 3]) {
    mesh::bounds(&mesh::tower())
}

/// The name of companion file `suffix` of `path` (`X.m2` → `X00.skin`, `X.wmo` → `X_000.wmo`).
fn companion(path: &str, suffix: &str) -> String {
    let stem = path.rfind('.').map_or(path, |dot| &path[..dot]);
    format!("{stem}{suffix}")
}

/// A file named by game path, written with `/` like the sample's other files.
fn file(path: &str, bytes: Vec<u8>) -> EncodedFile {
    EncodedFile {
        name: path.replace('\\', "/"),
        bytes,
    }
}

/// The models' files: tree and boulder (`.m2`, `00.skin`), tower (root, `_000` group) and
/// their textures, named by game path with `/`.
pub fn model_files() -> Vec<EncodedFile> {
    let mut files = Vec::new();
    for (path, name, shape, materials) in [
        (TREE, "Tree01", mesh::tree(), &TREE_MATERIALS[..]),
        (
            BOULDER,
            "Boulder01",
            mesh::boulder(),
            &BOULDER_MATERIALS[..],
        ),
    ] {
        // Part 0 (trunk, rock) is what the player bumps into; foliage is walked through.
        let (m2_bytes, skin) = m2::encode(name, &shape, materials, &[0]);
        files.push(file(path, m2_bytes));
        files.push(file(&companion(path, "00.skin"), skin));
    }
    let tower = mesh::tower();
    let sets = tower_doodad_sets();
    let doodads: usize = sets.iter().map(|s| s.doodads.len()).sum();
    files.push(file(TOWER, wmo::root(&tower, &TOWER_MATERIALS, &sets)));
    files.push(file(
        &companion(TOWER, "_000.wmo"),
        wmo::group(&tower, doodads as u16),
    ));
    for (i, path) in MODEL_TEXTURES.iter().enumerate() {
        files.push(file(path, crate::assets::blp::encode_raw(&texture(i))));
    }
    files
}

/// Texture `index` of [`MODEL_TEXTURES`], drawn from integer hashes only.
fn texture(index: usize) -> Image {
    let side = TEXTURE_SIDE as i64;
    let mut rgba = Vec::with_capacity(TEXTURE_SIDE * TEXTURE_SIDE * 4);
    let seed = 500 + index as u32;
    // A value in -1..1 from a hash.
    let signed = |h: u32| (h % 256) as i32 - 128;
    for y in 0..side {
        for x in 0..side {
            let fine = signed(lattice_hash(x, y, seed));
            let (color, alpha): ([i32; 3], u8) = match index {
                // Bark: vertical grooves (cells 2 wide and 16 tall), fine grain.
                0 => {
                    let groove = signed(lattice_hash(x / 2, y / 16, seed + 10));
                    let v = groove / 5 + fine / 12;
                    ([96 + v, 66 + v, 42 + v / 2], 255)
                }
                // Leaves: blotchy greens; a quarter of the 2×2 cells cut out.
                1 => {
                    let cell = lattice_hash(x / 2, y / 2, seed + 10);
                    let v = signed(cell) / 6 + fine / 10;
                    let alpha = if cell % 100 < 25 { 0 } else { 255 };
                    ([50 + v / 2, 112 + v, 36 + v / 3], alpha)
                }
                // Stone: grey with patches and dark flecks.
                2 => {
                    let patch = signed(lattice_hash(x / 8, y / 8, seed + 10));
                    let fleck = if lattice_hash(x, y, seed + 20) % 100 < 6 {
                        -40
                    } else {
                        0
                    };
                    let v = patch / 10 + fine / 10 + fleck;
                    ([122 + v, 119 + v, 112 + v], 255)
                }
                // Bricks 16 × 8 texels, every other row shifted by half a brick, light mortar.
                3 => {
                    let row = y / 8;
                    let shifted = x + if row % 2 == 1 { 8 } else { 0 };
                    let mortar = y % 8 == 7 || shifted % 16 == 15;
                    if mortar {
                        ([168 + fine / 16, 162 + fine / 16, 148 + fine / 16], 255)
                    } else {
                        let brick = signed(lattice_hash(shifted / 16, row, seed + 10)) / 6;
                        let v = brick + fine / 14;
                        ([132 + v, 124 + v, 110 + v], 255)
                    }
                }
                // Shingles 8 × 8, shifted every other row, darker toward each row's lower edge.
                _ => {
                    let row = y / 8;
                    let shifted = x + if row % 2 == 1 { 4 } else { 0 };
                    let shingle = signed(lattice_hash(shifted / 8, row, seed + 10)) / 8;
                    let edge = if shifted % 8 == 7 { -25 } else { 0 };
                    let v = shingle + fine / 14 + edge - 4 * (y % 8) as i32;
                    ([124 + v, 58 + v / 2, 44 + v / 2], 255)
                }
            };
            rgba.extend(color.map(|c| c.clamp(0, 255) as u8));
            rgba.push(alpha);
        }
    }
    Image {
        width: TEXTURE_SIDE,
        height: TEXTURE_SIDE,
        rgba,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_files_are_named_by_game_path_and_the_leaves_have_holes() {
        let files = model_files();
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names[..6],
            [
                "World/Loam/Sample/Tree01.m2",
                "World/Loam/Sample/Tree0100.skin",
                "World/Loam/Sample/Boulder01.m2",
                "World/Loam/Sample/Boulder0100.skin",
                "World/Loam/Sample/Tower.wmo",
                "World/Loam/Sample/Tower_000.wmo",
            ]
        );
        assert_eq!(files.len(), 6 + MODEL_TEXTURES.len());
        let leaves = crate::assets::blp::decode(&files[7].bytes).unwrap();
        let alphas: Vec<u8> = leaves.rgba.iter().skip(3).step_by(4).copied().collect();
        let holes = alphas.iter().filter(|&&a| a == 0).count();
        assert!(
            holes > 400 && holes < 2000,
            "{holes} of 4096 texels cut out"
        );
        assert!(alphas.iter().all(|&a| a == 0 || a == 255));
        let bark = crate::assets::blp::decode(&files[6].bytes).unwrap();
        assert!(bark.rgba.iter().skip(3).step_by(4).all(|&a| a == 255));
    }
}
