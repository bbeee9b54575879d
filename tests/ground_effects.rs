//! Ground effects (docs/ground-effects.md): after painting, each painted chunk's low-quality
//! texture map — the 16 bytes at MCNK header 0x40, read here straight from the written file
//! (`wow-adt` 0.7 reads only 8 of them) — names in every 8×8 cell the layer whose alpha values,
//! counted here from the decoded MCAL, cover most of it; chunks the paint did not reach keep
//! Blizzard's bytes. `texture_effect` and the ground-effects brush write MCLY effect ids and
//! the `noEffectDoodad` bits (0x50); a map whose texture maps another tool left at zero is
//! flagged by `loam check` and mended by `loam fix --ground-effects`.

mod common;

use std::fs;
use std::path::Path;

use common::{corpus_file, loam, text};

const NORTHREND: &str = "warcraft-net/ADT/Northrend_37_25.adt";

/// One MCNK as the file stores it.
struct RawChunk {
    /// The 16 bytes at header 0x40.
    texture_map: [u8; 16],
    /// The 8 bytes at header 0x50.
    no_effect: [u8; 8],
    /// MCLY records: (texture, flags, offset in MCAL, effect id).
    layers: Vec<[u32; 4]>,
    /// Each layer's 64×64 alpha, decoded from the definition (layer 0: none).
    alpha: Vec<Option<Vec<u8>>>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// MCAL data of one layer, decoded as the ADT documents describe it: RLE when flag 0x200
/// (a count byte: high bit set = repeat the next byte, else copy that many bytes), else 4096
/// bytes (8-bit) or 2048 (4-bit, low nibble first, ×17).
fn decode_alpha(data: &[u8], flags: u32) -> Vec<u8> {
    if flags & 0x200 != 0 {
        common::decode_rle_alpha(data)
    } else if data.len() >= 4096 {
        data[..4096].to_vec()
    } else {
        data[..2048]
            .iter()
            .flat_map(|&b| [(b & 15) * 17, (b >> 4) * 17])
            .collect()
    }
}

/// Every MCNK of the root ADT in `bytes`, in file order (row by row).
fn raw_chunks(bytes: &[u8]) -> Vec<RawChunk> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let size = u32_at(bytes, at + 4) as usize;
        if &bytes[at..at + 4] == b"KNCM" {
            let c = &bytes[at..at + 8 + size];
            let h = 8;
            let n = u32_at(c, h + 0x0C) as usize;
            let (ofs_layer, ofs_alpha) =
                (u32_at(c, h + 0x1C) as usize, u32_at(c, h + 0x24) as usize);
            let size_alpha = u32_at(c, h + 0x28) as usize;
            let layers: Vec<[u32; 4]> = (0..n)
                .map(|i| std::array::from_fn(|k| u32_at(c, ofs_layer + 8 + 16 * i + 4 * k)))
                .collect();
            let mcal = &c[ofs_alpha + 8..ofs_alpha + size_alpha.max(8)];
            let alpha = (0..n)
                .map(|i| {
                    let l = layers[i];
                    (i > 0 && l[1] & 0x100 != 0).then(|| {
                        let end = layers[i + 1..]
                            .iter()
                            .find(|m| m[1] & 0x100 != 0)
                            .map_or(mcal.len(), |m| m[2] as usize);
                        decode_alpha(&mcal[l[2] as usize..end.max(l[2] as usize)], l[1])
                    })
                })
                .collect();
            out.push(RawChunk {
                texture_map: c[h + 0x40..h + 0x50].try_into().unwrap(),
                no_effect: c[h + 0x50..h + 0x58].try_into().unwrap(),
                layers,
                alpha,
            });
        }
        at += 8 + size;
    }
    assert_eq!(out.len(), 256);
    out
}

/// Each layer's alpha summed over cell (`row`, `col`), the base taking 255 less the others at
/// each texel; `None` when a texel's alphas add up to more than 255 (then they do not read as
/// shares).
fn shares(c: &RawChunk, row: usize, col: usize) -> Option<Vec<u32>> {
    let mut s = vec![0u32; c.layers.len()];
    for r in row * 8..row * 8 + 8 {
        for k in col * 8..col * 8 + 8 {
            let mut left = 255u32;
            for (i, a) in c.alpha.iter().enumerate().skip(1) {
                let v = u32::from(a.as_ref().map_or(0, |a| a[r * 64 + k]));
                s[i] += v;
                left = left.checked_sub(v)?;
            }
            s[0] += left;
        }
    }
    Some(s)
}

/// The layer the stored map names for cell (`row`, `col`): two bits per cell, a row's eight
/// cells in one little-endian u16.
fn named(map: &[u8; 16], row: usize, col: usize) -> usize {
    let word = u16::from_le_bytes([map[row * 2], map[row * 2 + 1]]);
    usize::from((word >> (col * 2)) & 3)
}

/// Northrend_37_25 and the world position of chunk (`cx`, `cy`)'s centre.
fn northrend_chunk_centre(cx: usize, cy: usize) -> [f64; 2] {
    let map = loam::pipeline::open_map(&corpus_file(NORTHREND))
        .unwrap()
        .map;
    let coord = *map.tiles.keys().next().unwrap();
    let [nx, ny] = coord.north_west();
    let chunk = 1600.0 / 3.0 / 16.0;
    [
        nx - (cy as f64 + 0.5) * chunk,
        ny - (cx as f64 + 0.5) * chunk,
    ]
}

fn apply_to_northrend(dir: &Path, ops: &str) -> (Vec<u8>, Vec<u8>, String) {
    let ops_path = dir.join("ops.json");
    fs::write(&ops_path, ops).unwrap();
    let out = dir.join("out");
    let said = common::apply_335(&corpus_file(NORTHREND), &ops_path, &out);
    let before = fs::read(corpus_file(NORTHREND)).unwrap();
    let after = fs::read(out.join("Northrend_37_25.adt")).unwrap();
    (before, after, said)
}

#[test]
fn a_painted_chunk_names_the_layer_that_covers_most_of_each_cell() {
    let map = loam::pipeline::open_map(&corpus_file(NORTHREND))
        .unwrap()
        .map;
    let tile = map.tiles.values().next().unwrap();
    // Chunk (6, 6)'s second layer, painted fully over a circle on its west half.
    let c = tile.chunk(6, 6);
    assert!(c.layers.len() >= 2);
    let texture = tile.textures[c.layers[1].texture as usize].replace('\\', "\\\\");
    let [x, y] = northrend_chunk_centre(6, 6);
    let west = y + 8.0;
    let dir = tempfile::tempdir().unwrap();
    let (before, after, said) = apply_to_northrend(
        dir.path(),
        &format!(
            r#"{{"ops": [{{"tool": "paint", "texture": "{texture}", "points": [[{x}, {west}]], "radius": 10, "inner_radius": 8}}]}}"#
        ),
    );
    assert!(said.contains("op 0: Paint"), "{said}");
    let (a, b) = (raw_chunks(&before), raw_chunks(&after));
    let (mut painted, mut renamed, mut checked) = (0, 0, 0);
    for (i, (ca, cb)) in a.iter().zip(&b).enumerate() {
        if ca.alpha == cb.alpha && ca.layers.len() == cb.layers.len() {
            assert_eq!(
                ca.texture_map, cb.texture_map,
                "chunk {i}: unpainted, Blizzard's kept"
            );
            continue;
        }
        painted += 1;
        for row in 0..8 {
            for col in 0..8 {
                let s = shares(cb, row, col).expect("loam's paint keeps each texel's sum ≤ 255");
                let best = *s.iter().max().unwrap();
                let n = named(&cb.texture_map, row, col);
                assert!(
                    n < s.len(),
                    "chunk {i} cell {row},{col}: names layer {n} of {}",
                    s.len()
                );
                assert_eq!(
                    s[n], best,
                    "chunk {i} cell {row},{col}: shares {s:?}, named {n}"
                );
                renamed += usize::from(n != named(&ca.texture_map, row, col));
                checked += 1;
            }
        }
    }
    assert!(painted >= 1, "the paint changed some chunk's alpha");
    assert!(
        renamed > 0,
        "some cell now grows another layer's effect ({checked} checked)"
    );
}

#[test]
fn the_effect_op_and_the_brush_write_effect_ids_and_off_bits() {
    let map = loam::pipeline::open_map(&corpus_file(NORTHREND))
        .unwrap()
        .map;
    let tile = map.tiles.values().next().unwrap();
    let index = tile.chunk(3, 3).layers[0].texture;
    let texture = tile.textures[index as usize].replace('\\', "\\\\");
    let [x, y] = northrend_chunk_centre(3, 3);
    let dir = tempfile::tempdir().unwrap();
    let (before, after, said) = apply_to_northrend(
        dir.path(),
        &format!(
            r#"{{"ops": [
                {{"tool": "texture_effect", "texture": "{texture}", "effect": 4242, "tiles": [[37, 25]]}},
                {{"tool": "ground_effects", "on": false, "points": [[{x}, {y}]], "radius": 3}}
            ]}}"#
        ),
    );
    assert!(said.contains("op 0: Ground effect"), "{said}");
    assert!(said.contains("op 1: Ground effects off"), "{said}");
    let (a, b) = (raw_chunks(&before), raw_chunks(&after));
    let mut set = 0;
    for (i, (ca, cb)) in a.iter().zip(&b).enumerate() {
        for (la, lb) in ca.layers.iter().zip(&cb.layers) {
            let expect = if la[0] == index { 4242 } else { la[3] };
            assert_eq!(lb[3], expect, "chunk {i}");
            set += usize::from(la[0] == index);
        }
        if i == 3 * 16 + 3 {
            // A 3 yd brush at the chunk's centre reaches the cells whose centres lie within
            // 3 yd: the four around the centre (rows and columns 3 and 4), and no others.
            for row in 0..8 {
                for col in 0..8 {
                    let off = cb.no_effect[row] >> col & 1 == 1;
                    let centre = (3..=4).contains(&row) && (3..=4).contains(&col);
                    assert_eq!(off, centre, "cell {row},{col}");
                }
            }
        } else {
            assert_eq!(ca.no_effect, cb.no_effect, "chunk {i}");
        }
    }
    assert!(set > 0);
}

#[test]
fn texture_maps_another_tool_left_at_zero_are_flagged_and_mended() {
    // Zero the texture maps of every chunk, as a tool that never writes them would.
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = fs::read(corpus_file(NORTHREND)).unwrap();
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let size = u32_at(&bytes, at + 4) as usize;
        if &bytes[at..at + 4] == b"KNCM" {
            bytes[at + 8 + 0x40..at + 8 + 0x50].fill(0);
        }
        at += 8 + size;
    }
    let zeroed = dir.path().join("Northrend_37_25.adt");
    fs::write(&zeroed, &bytes).unwrap();
    let o = loam(&[std::ffi::OsStr::new("check"), zeroed.as_os_str()]);
    let said = text(&o);
    assert!(said.contains("stale ground-effect map"), "{said}");
    assert!(said.contains("loam fix --ground-effects"), "{said}");

    let out = dir.path().join("out");
    let o = common::loam_on(&["fix", "--ground-effects"], &zeroed, &out);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("ground effects: 256 chunks"),
        "{}",
        text(&o)
    );
    let fixed = out.join("Northrend_37_25.adt");
    let o = loam(&[std::ffi::OsStr::new("check"), fixed.as_os_str()]);
    assert!(!text(&o).contains("ground-effect"), "{}", text(&o));
    // Every cell now names a layer whose share is the largest, by the direct count.
    for (i, c) in raw_chunks(&fs::read(&fixed).unwrap()).iter().enumerate() {
        for row in 0..8 {
            for col in 0..8 {
                if let Some(s) = shares(c, row, col) {
                    let n = named(&c.texture_map, row, col);
                    assert_eq!(s[n], *s.iter().max().unwrap(), "chunk {i} cell {row},{col}");
                }
            }
        }
    }
}

#[test]
fn info_with_a_client_names_what_each_effect_grows() {
    // GroundEffectTexture 3.3.5 (published layout: ID, DoodadId[4], DoodadWeight[4], Density,
    // Sound) and GroundEffectDoodad (ID, DoodadPath, Flags): effect 32730 grows two doodads.
    let texture = common::wdbc(
        11,
        &[[32730, 5, 6, 0, 0, 1, 1, 0, 0, 8, 0].map(Ok).to_vec()],
        &[],
    );
    let doodad = common::wdbc(
        3,
        &[vec![Ok(5), Err(0), Ok(0)], vec![Ok(6), Err(1), Ok(0)]],
        &[
            "World\\NoDXT\\Detail\\BorGra01.m2",
            "World\\NoDXT\\Detail\\BorFlo03.m2",
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    let game = common::client_with(
        dir.path(),
        false,
        &[
            ("DBFilesClient\\GroundEffectTexture.dbc", &texture),
            ("DBFilesClient\\GroundEffectDoodad.dbc", &doodad),
        ],
    );
    let o = loam(&[
        std::ffi::OsStr::new("info"),
        corpus_file(NORTHREND).as_os_str(),
        std::ffi::OsStr::new("--client"),
        game.as_os_str(),
    ]);
    let said = text(&o);
    assert!(o.status.success(), "{said}");
    assert!(
        said.contains("32730 (BorGra01, BorFlo03), 32731,"),
        "{said}"
    );
    let o = loam(&[
        std::ffi::OsStr::new("info"),
        corpus_file(NORTHREND).as_os_str(),
        std::ffi::OsStr::new("--json"),
        std::ffi::OsStr::new("--client"),
        game.as_os_str(),
    ]);
    let json: serde_json::Value =
        serde_json::from_str(&String::from_utf8_lossy(&o.stdout)).unwrap();
    let tile = &json["tiles"][0];
    assert_eq!(tile["ground_effect_names"]["32730"], "BorGra01, BorFlo03");
    assert_eq!(tile["ground_effects"].as_array().unwrap().len(), 15);
}
