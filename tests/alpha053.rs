//! The 0.5.3 monolithic WDT codec against the corpus: 3.3.5 tiles written as 0.5.3 read back
//! with the same terrain, the writer is deterministic and exact on its own output, the layout
//! matches the byte tables of `alpha-0.5.3.md`, and damaged files give errors, not panics.

mod alpha_support;
mod common;

use alpha_support::*;
use common::*;
use loam::disk;
use loam::format::alpha;
use loam::format::{ErrorKind, Generation};
use loam::model::coords::outer_then_inner_vertex;
use loam::model::map::TILE_PRESENT;
use loam::model::{Map, Tile};
use loam::pipeline;

/// Every corpus ADT, opened through `pipeline::open_map` and prepared for an old target.
fn prepared_tiles() -> Vec<(&'static str, Tile)> {
    corpus_tiles(&ADTS)
        .into_iter()
        .map(|(rel, _, prepared)| (rel, prepared))
        .collect()
}

/// A map holding `tiles` (each keeps its own coordinate).
fn map_of(tiles: impl IntoIterator<Item = Tile>) -> Map {
    let mut map = Map::new("Test");
    for t in tiles {
        map.tile_flags[t.coord.index()] = TILE_PRESENT;
        map.tiles.insert(t.coord, t);
    }
    map
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn corpus_tiles_survive_a_trip_through_0_5_3() {
    let tiles = prepared_tiles();
    // All four tiles in one map: shared MDNM/MONM across tiles.
    let map = map_of(tiles.iter().map(|(_, t)| t.clone()));
    assert_eq!(
        map.tiles.len(),
        4,
        "the corpus tiles sit at distinct coordinates"
    );
    // The corpus exercises what the comparison checks.
    let all = || map.tiles.values();
    assert!(
        all().map(|t| t.liquid_chunk_count()).sum::<usize>() > 0,
        "liquid"
    );
    assert!(all().map(|t| t.doodads.len()).sum::<usize>() > 0, "doodads");
    assert!(all().map(|t| t.wmos.len()).sum::<usize>() > 0, "wmos");
    assert!(all().flat_map(|t| &t.chunks).any(|c| c.holes != 0), "holes");
    assert!(
        all().flat_map(|t| &t.chunks).any(|c| c.layers.len() > 2),
        "alpha"
    );
    let bytes = alpha::write_wdt(&map);
    let back = alpha::read_wdt(&bytes, "Test").unwrap();
    assert_eq!(back.present_tiles(), map.present_tiles());
    for (rel, tile) in &tiles {
        assert_tile_matches(rel, tile, &back.tiles[&tile.coord]);
    }
    let mut compared = 0;
    for (rel, original, _) in corpus_tiles(&ADTS) {
        compared += assert_alpha_within_one_step(rel, &original, &back.tiles[&original.coord]);
    }
    assert!(compared > 100, "the corpus has alpha maps");
}

#[test]
fn writing_0_5_3_twice_gives_identical_bytes() {
    let map = map_of(prepared_tiles().into_iter().map(|(_, t)| t));
    let first = alpha::write_wdt(&map);
    let read = alpha::read_wdt(&first, "Test").unwrap();
    let second = alpha::write_wdt(&read);
    assert_same_bytes("0.5.3 rewrite", &first, &second);
    // And once more from the re-read model, through the file system and open_map.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Test.wdt");
    disk::write_atomic(&path, &second).unwrap();
    let opened = pipeline::open_map(&path).unwrap();
    assert_eq!(opened.generation, Generation::Alpha053);
    assert_same_bytes("0.5.3 via open_map", &first, &alpha::write_wdt(&opened.map));
}

#[test]
fn a_written_wdt_follows_the_layout_tables() {
    let (_, tile) = prepared_tiles().into_iter().next().unwrap();
    let coord = tile.coord;
    let orig = tile.clone();
    let bytes = alpha::write_wdt(&map_of([tile]));
    // MVER 18, MPHD 128 bytes, MAIN 4096 × 16.
    assert_eq!(&bytes[0..4], b"REVM");
    assert_eq!(u32_at(&bytes, 8), 18);
    assert_eq!(&bytes[12..16], b"DHPM");
    assert_eq!(u32_at(&bytes, 16), 128);
    let mphd = 20;
    let main = mphd + 128;
    assert_eq!(&bytes[main..main + 4], b"NIAM");
    assert_eq!(u32_at(&bytes, main + 4), 65536);
    let mdnm_at = u32_at(&bytes, mphd + 4) as usize;
    let monm_at = u32_at(&bytes, mphd + 12) as usize;
    assert_eq!(mdnm_at, main + 8 + 65536, "MDNM right after MAIN");
    assert_eq!(&bytes[mdnm_at..mdnm_at + 4], b"MNDM");
    assert_eq!(&bytes[monm_at..monm_at + 4], b"MNOM");
    let n_doodads = orig.doodad_names.len() as u32;
    assert_eq!(
        u32_at(&bytes, mphd),
        if n_doodads > 0 { n_doodads + 1 } else { 0 }
    );
    // MAIN points at the tile's MHDR; its size reaches the first MCNK.
    let entry = main + 8 + coord.index() * 16;
    let mhdr = u32_at(&bytes, entry) as usize;
    let size = u32_at(&bytes, entry + 4) as usize;
    assert_eq!(
        mhdr,
        monm_at + 8 + u32_at(&bytes, monm_at + 4) as usize,
        "tile after MONM"
    );
    assert_eq!(&bytes[mhdr..mhdr + 4], b"RDHM");
    assert_eq!(&bytes[mhdr + size..mhdr + size + 4], b"KNCM");
    for i in 0..4096 {
        if i != coord.index() {
            assert_eq!(&bytes[main + 8 + i * 16..main + 24 + i * 16], &[0; 16]);
        }
    }
    // MHDR: offsInfo = 64, then MTEX, MDDF, MODF back to back, offsets to their tags.
    let base = mhdr + 8;
    assert_eq!(u32_at(&bytes, base), 64);
    let mcin = base + 64;
    assert_eq!(&bytes[mcin..mcin + 4], b"NICM");
    let mtex = base + u32_at(&bytes, base + 4) as usize;
    assert_eq!(mtex, mcin + 8 + 4096);
    assert_eq!(&bytes[mtex..mtex + 4], b"XETM");
    assert_eq!(u32_at(&bytes, base + 8), u32_at(&bytes, mtex + 4));
    let mddf = base + u32_at(&bytes, base + 12) as usize;
    assert_eq!(mddf, mtex + 8 + u32_at(&bytes, mtex + 4) as usize);
    assert_eq!(&bytes[mddf..mddf + 4], b"FDDM");
    let modf = base + u32_at(&bytes, base + 20) as usize;
    assert_eq!(modf, mddf + 8 + u32_at(&bytes, mddf + 4) as usize);
    assert_eq!(&bytes[modf..modf + 4], b"FDOM");
    assert_eq!(mhdr + size, modf + 8 + u32_at(&bytes, modf + 4) as usize);
    assert!(bytes[base + 28..base + 64].iter().all(|&b| b == 0));
    // MCIN: absolute offsets of MCNK tags and whole-chunk sizes.
    for i in 0..256 {
        let at = u32_at(&bytes, mcin + 8 + i * 16) as usize;
        let len = u32_at(&bytes, mcin + 12 + i * 16) as usize;
        assert_eq!(&bytes[at..at + 4], b"KNCM", "MCIN {i}");
        assert_eq!(len, 8 + u32_at(&bytes, at + 4) as usize);
        let h = at + 8;
        let data = h + 128;
        assert_eq!(u32_at(&bytes, h + 4), (i % 16) as u32);
        assert_eq!(u32_at(&bytes, h + 8), (i / 16) as u32);
        // Sub-chunk offsets count from the header's end.
        assert_eq!(u32_at(&bytes, h + 0x18), 0, "MCVT first");
        assert_eq!(u32_at(&bytes, h + 0x1C), 580);
        let mcly = data + u32_at(&bytes, h + 0x20) as usize;
        assert_eq!(mcly, data + 1028);
        assert_eq!(&bytes[mcly..mcly + 4], b"YLCM");
        assert_eq!(u32_at(&bytes, mcly + 4), u32_at(&bytes, h + 0x10) * 16);
        let mcrf = data + u32_at(&bytes, h + 0x24) as usize;
        assert_eq!(&bytes[mcrf..mcrf + 4], b"FRCM");
        assert_eq!(
            u32_at(&bytes, mcrf + 4),
            (u32_at(&bytes, h + 0x14) + u32_at(&bytes, h + 0x3C)) * 4
        );
        // MCSH, MCAL, MCLQ follow without headers; 0x5C is the end of the data.
        let shadow = u32_at(&bytes, h + 0x30);
        assert_eq!(
            shadow as usize,
            mcrf + 8 + u32_at(&bytes, mcrf + 4) as usize - data
        );
        assert_eq!(u32_at(&bytes, h + 0x28), shadow + u32_at(&bytes, h + 0x34));
        let liquid = u32_at(&bytes, h + 0x64);
        assert_eq!(liquid, u32_at(&bytes, h + 0x28) + u32_at(&bytes, h + 0x2C));
        let end = u32_at(&bytes, h + 0x5C);
        let flags = u32_at(&bytes, h);
        assert_eq!(
            end - liquid,
            (flags & 0x3C).count_ones() * 804,
            "MCLQ instances"
        );
        assert_eq!(end as usize, len - 8 - 128, "no MCSE written");
        assert_eq!(u32_at(&bytes, h + 0x60), 0);
        assert_eq!(&bytes[h + 0x42..h + 0x44], &[0, 0]);
        assert!(bytes[h + 0x68..h + 0x80].iter().all(|&b| b == 0));
        // MCVT: outer 81 then inner 64, absolute heights.
        let chunk = &orig.chunks[i];
        for k in [0, 8, 9, 80, 81, 100, 144] {
            let v = f32::from_le_bytes(bytes[data + k * 4..data + k * 4 + 4].try_into().unwrap());
            assert_eq!(
                v,
                chunk.heights[outer_then_inner_vertex(k)],
                "chunk {i} MCVT {k}"
            );
        }
        // The radius bounds every vertex from the chunk's centre.
        let r = f32::from_le_bytes(bytes[h + 0x0C..h + 0x10].try_into().unwrap());
        let (lo, hi) = chunk.height_range();
        assert!(r >= 23.57 && r >= (hi - lo) / 2.0, "chunk {i} radius {r}");
    }
}

#[test]
fn damaged_0_5_3_files_give_errors_naming_chunk_and_offset() {
    let (_, tile) = prepared_tiles().into_iter().nth(2).unwrap();
    let bytes = alpha::write_wdt(&map_of([tile]));
    assert!(alpha::read_wdt(&bytes, "T").is_ok());
    let step = bytes.len() / 301 + 1;
    for cut in (0..bytes.len())
        .step_by(step)
        .chain([bytes.len() - 1, 12, 160])
    {
        let err = alpha::read_wdt(&bytes[..cut], "T").expect_err("a truncated file must not read");
        assert!(err.offset <= cut as u64, "cut {cut}: {err}");
        // The error names a real chunk of the layout (the file is intact up to the cut).
        let known = [
            "MVER", "MPHD", "MAIN", "MDNM", "MONM", "MODF", "MHDR", "MCIN", "MTEX", "MDDF", "MCNK",
            "MCVT", "MCNR", "MCLY", "MCRF", "MCSH", "MCAL", "MCLQ", "MCSE",
        ];
        let chunk = err.chunk.to_string();
        assert!(known.contains(&chunk.as_str()), "cut {cut}: {err}");
        assert!(err.to_string().contains(&chunk), "cut {cut}: {err}");
    }
    // Overwrite 4 bytes at many places: whatever happens, no panic, and errors stay in range.
    for at in (0..bytes.len() - 4).step_by(step / 3 + 1) {
        for junk in [0xFFFF_FFFFu32, 0x0000_0000, 0x7FFF_0001] {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&junk.to_le_bytes());
            if let Err(e) = alpha::read_wdt(&b, "T") {
                assert!(e.offset <= b.len() as u64, "at {at}: {e}");
            }
        }
    }
    // A wrong tag where MCIN points is reported as that chunk's problem.
    let mut b = bytes.clone();
    let first_mcnk = b.windows(4).position(|w| w == b"KNCM").unwrap();
    b[first_mcnk..first_mcnk + 4].copy_from_slice(b"XXXX");
    let err = alpha::read_wdt(&b, "T").unwrap_err();
    assert_eq!(err.offset, first_mcnk as u64);
    assert!(matches!(err.kind, ErrorKind::UnexpectedTag { .. }), "{err}");
}

#[test]
fn a_wmo_only_map_keeps_its_map_wide_modf() {
    use loam::model::coords::{placement_box_to_world, placement_to_world};
    use loam::model::{GlobalWmo, WmoPlacement};
    let (bounds_min, bounds_max) =
        placement_box_to_world([17000.0, -50.0, 17000.0], [17100.0, 60.0, 17100.0]);
    let mut map = Map::new("Dungeon");
    map.global_wmo = Some(GlobalWmo {
        name: "World\\wmo\\Dungeon\\Razorfen.wmo".into(),
        placement: WmoPlacement {
            name_index: 0,
            unique_id: 7,
            position: placement_to_world([17066.5, 10.25, 17066.75]),
            rotation: [0.0, 180.0, 0.0],
            bounds_min,
            bounds_max,
            flags: 0,
            doodad_set: 1,
            name_set: 0,
            scale: 0,
        },
    });
    let bytes = alpha::write_wdt(&map);
    let mphd = 20;
    assert_eq!(
        u32_at(&bytes, mphd + 8),
        2,
        "one WMO name stored as 2 ([gp]: WMO-only)"
    );
    let monm_at = u32_at(&bytes, mphd + 12) as usize;
    let modf_at = monm_at + 8 + u32_at(&bytes, monm_at + 4) as usize;
    assert_eq!(
        &bytes[modf_at..modf_at + 4],
        b"FDOM",
        "MODF right after MONM"
    );
    assert_eq!(u32_at(&bytes, modf_at + 4), 64);
    assert_eq!(modf_at + 72, bytes.len(), "no tiles");
    let back = alpha::read_wdt(&bytes, "Dungeon").unwrap();
    assert_eq!(back.global_wmo, map.global_wmo);
    assert!(back.tiles.is_empty());
    assert_same_bytes("WMO-only rewrite", &bytes, &alpha::write_wdt(&back));
}

#[test]
fn map_wide_name_order_and_sound_emitters_survive_a_rewrite() {
    use loam::model::SoundEmitter;
    let (_, mut tile) = prepared_tiles().into_iter().next().unwrap();
    tile.chunks[5].sound_emitters = vec![
        SoundEmitter {
            record: (0..52).collect(),
        },
        SoundEmitter {
            record: vec![9; 52],
        },
    ];
    let first = alpha::write_wdt(&map_of([tile.clone()]));
    let mut read = alpha::read_wdt(&first, "Test").unwrap();
    assert_eq!(
        read.tiles[&tile.coord].chunks[5].sound_emitters,
        tile.chunks[5].sound_emitters
    );
    // Reverse the map-wide doodad list: the tile's view follows, the file keeps the new order.
    let names = read.map_wide_names.as_mut().unwrap();
    let n = names.doodad_names.len() as u32;
    names.doodad_names.reverse();
    for idx in names.tile_doodad_indices.values_mut() {
        for i in idx.iter_mut() {
            *i = n - 1 - *i;
        }
    }
    let second = alpha::write_wdt(&read);
    let again = alpha::read_wdt(&second, "Test").unwrap();
    assert_eq!(
        again.map_wide_names.as_ref().unwrap().doodad_names,
        read.map_wide_names.as_ref().unwrap().doodad_names
    );
    assert_tile_matches("reordered", &tile, &again.tiles[&tile.coord]);
    assert_same_bytes("reordered rewrite", &second, &alpha::write_wdt(&again));
}
