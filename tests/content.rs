//! Decoded content is right, not merely re-emitted: facts of the corpus checked against an
//! independent walk of the raw bytes, and alpha maps re-encoded from texels alone.

mod common;

use common::*;
use loam::format::mcal;
use loam::format::v18::{self, AlphaDepth, AlphaTarget};
use loam::model::{AlphaEncoding, Tile};
use loam::pipeline;

/// A minimal, independent reader of the raw bytes: every MCNK's payload offset and header.
struct RawMcnk {
    payload: usize,
    word: Box<dyn Fn(usize) -> u32>,
}

fn raw_mcnks(bytes: &'static [u8]) -> Vec<RawMcnk> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        if &bytes[at..at + 4] == b"KNCM" {
            let payload = at + 8;
            out.push(RawMcnk {
                payload,
                word: Box::new(move |o| {
                    u32::from_le_bytes(bytes[payload + o..payload + o + 4].try_into().unwrap())
                }),
            });
        }
        at += 8 + size;
    }
    out
}

fn raw_chunk(bytes: &[u8], tag: &[u8; 4]) -> Option<(usize, usize)> {
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        if &bytes[at..at + 4] == tag {
            return Some((at + 8, size));
        }
        at += 8 + size;
    }
    None
}

fn load(rel: &str) -> (&'static [u8], Tile) {
    let bytes: &'static [u8] =
        Box::leak(std::fs::read(corpus_file(rel)).unwrap().into_boxed_slice());
    let tile = v18::read_adt(bytes, None, v18::sniff_alpha_depth(bytes)).unwrap();
    (bytes, tile)
}

#[test]
fn tile_index_comes_from_the_chunk_positions() {
    for (rel, x, y) in [
        ("wowserhq-format/map/continent4229.adt", 42, 29),
        ("warcraft-net/ADT/Northrend_37_25.adt", 37, 25),
        ("wowserhq-format/map/pvpzone3430.adt", 34, 30),
        ("blizzardry/Azeroth_38_46.adt", 38, 46),
    ] {
        let (_, tile) = load(rel);
        assert_eq!((tile.coord.x, tile.coord.y), (x, y), "{rel}");
    }
}

#[test]
fn continent4229_names_and_counts() {
    let (bytes, tile) = load("wowserhq-format/map/continent4229.adt");
    assert_eq!(tile.textures.len(), 16);
    assert_eq!(
        tile.textures[0],
        "Tileset\\PlagueLandsEast\\EastPlaguedBaseDirt.blp"
    );
    assert_eq!(tile.textures[15], "Tileset\\Wetlands\\Wetlandsdirt01.blp");
    assert_eq!((tile.doodads.len(), tile.doodad_names.len()), (381, 67));
    assert_eq!((tile.wmos.len(), tile.wmo_names.len()), (19, 11));
    // Every placement's name resolves, and the first MDDF record matches the raw bytes.
    assert!(
        tile.doodads
            .iter()
            .all(|d| (d.name_index as usize) < tile.doodad_names.len())
    );
    let (mddf, _) = raw_chunk(bytes, b"FDDM").unwrap();
    let f = |o: usize| f32::from_le_bytes(bytes[mddf + o..mddf + o + 4].try_into().unwrap());
    let d = &tile.doodads[0];
    assert_eq!(
        d.unique_id,
        u32::from_le_bytes(bytes[mddf + 4..mddf + 8].try_into().unwrap())
    );
    // World x = 17066.67 - stored z', world y = 17066.67 - stored x'.
    assert!((d.position[0] - (17066.666666 - f(16) as f64)).abs() < 1e-3);
    assert!((d.position[1] - (17066.666666 - f(8) as f64)).abs() < 1e-3);
    assert_eq!(d.position[2] as f32, f(12));
    // Placements lie on the tile, or overhang it (objects crossing a border are listed in both
    // tiles): a wrong axis or origin would put them kilometres away.
    let [north, west] = tile.coord.north_west();
    let inside = |p: [f64; 3], margin: f64| {
        p[0] <= north + margin
            && p[0] >= north - 533.34 - margin
            && p[1] <= west + margin
            && p[1] >= west - 533.34 - margin
    };
    assert!(tile.doodads.iter().all(|d| inside(d.position, 200.0)));
    assert!(
        tile.doodads
            .iter()
            .filter(|d| inside(d.position, 0.0))
            .count()
            > 381 * 9 / 10
    );
}

#[test]
fn northrend_has_vertex_colours_everywhere_and_shadows_where_flagged() {
    let (bytes, tile) = load("warcraft-net/ADT/Northrend_37_25.adt");
    assert!(tile.chunks.iter().all(|c| c.vertex_colors.is_some()));
    let raw = raw_mcnks(bytes);
    for (c, r) in tile.chunks.iter().zip(&raw) {
        let flags = (r.word)(0);
        assert_eq!(c.shadow.is_some(), flags & 1 != 0);
        // MCCV stores BGRA; the model holds RGBA.
        let ofs = (r.word)(0x74) as usize;
        let first = &bytes[r.payload - 8 + ofs + 8..][..4];
        assert_eq!(
            c.vertex_colors.as_ref().unwrap()[0],
            [first[2], first[1], first[0], first[3]]
        );
    }
    assert_eq!(tile.chunks.iter().filter(|c| c.shadow.is_none()).count(), 3);
}

#[test]
fn liquid_is_in_exactly_the_chunks_that_have_it() {
    // MH2O: the header's layer counts.
    for (rel, expected) in [
        ("wowserhq-format/map/continent4229.adt", 9),
        ("warcraft-net/ADT/Northrend_37_25.adt", 17),
    ] {
        let (bytes, tile) = load(rel);
        let (mh2o, _) = raw_chunk(bytes, b"O2HM").unwrap();
        let with: Vec<usize> = (0..256)
            .filter(|i| {
                u32::from_le_bytes(
                    bytes[mh2o + i * 12 + 4..mh2o + i * 12 + 8]
                        .try_into()
                        .unwrap(),
                ) > 0
            })
            .collect();
        assert_eq!(with.len(), expected, "{rel}");
        let decoded: Vec<usize> = (0..256)
            .filter(|&i| {
                tile.chunks[i]
                    .liquid
                    .as_ref()
                    .is_some_and(|l| !l.layers.is_empty())
            })
            .collect();
        assert_eq!(decoded, with, "{rel}");
    }
    // MCLQ: the header's sizeLiquid beyond the empty 8.
    let (bytes, tile) = load("wowserhq-format/map/pvpzone3430.adt");
    let with: Vec<usize> = raw_mcnks(bytes)
        .iter()
        .enumerate()
        .filter(|(_, r)| (r.word)(0x64) > 8)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(with.len(), 16);
    let decoded: Vec<usize> = (0..256)
        .filter(|&i| tile.chunks[i].liquid.is_some())
        .collect();
    assert_eq!(decoded, with);
    let layer = &tile.chunks[with[0]].liquid.as_ref().unwrap().layers[0];
    assert!(
        layer
            .heights
            .as_ref()
            .unwrap()
            .iter()
            .all(|h| *h >= layer.min_height - 0.01 && *h <= layer.max_height + 0.01)
    );
}

/// Each alpha layer's raw bytes, found independently from the MCNK header and MCLY.
fn raw_alpha_spans(bytes: &'static [u8]) -> Vec<Vec<(u32, &'static [u8])>> {
    raw_mcnks(bytes)
        .iter()
        .map(|r| {
            let n = (r.word)(0x0C) as usize;
            let ofs_layer = (r.word)(0x1C) as usize;
            let ofs_alpha = (r.word)(0x24) as usize;
            let size_alpha = (r.word)(0x28) as usize - 8;
            let base = r.payload - 8;
            // Header offsets count from the MCNK tag, so a sub-chunk's payload is at `ofs` from ours.
            let layer = |k: usize, f: usize| (r.word)(ofs_layer + k * 16 + f);
            let alpha = &bytes[base + ofs_alpha + 8..base + ofs_alpha + 8 + size_alpha];
            (1..n)
                .map(|k| {
                    let start = layer(k, 8) as usize;
                    let end = if k + 1 < n {
                        layer(k + 1, 8) as usize
                    } else {
                        size_alpha
                    };
                    (layer(k, 4), &alpha[start..end])
                })
                .collect()
        })
        .collect()
}

#[test]
fn four_bit_maps_encode_back_to_their_bytes_from_texels_alone() {
    let (bytes, tile) = load("wowserhq-format/map/continent4229.adt");
    let mut n = 0;
    for (chunk, spans) in tile.chunks.iter().zip(raw_alpha_spans(bytes)) {
        for (layer, (_, raw)) in chunk.layers[1..].iter().zip(spans) {
            let alpha = layer.alpha.as_ref().unwrap();
            assert!(alpha.source().is_none(), "4-bit maps keep no source bytes");
            assert_eq!(&mcal::encode_nibble(alpha.texels())[..], raw);
            n += 1;
        }
    }
    assert_eq!(n, 483);
}

#[test]
fn eight_bit_and_rle_maps_decode_to_what_their_bytes_say() {
    let (bytes, tile) = load("warcraft-net/ADT/Northrend_37_25.adt");
    let (mut plain, mut rle) = (0, 0);
    for (chunk, spans) in tile.chunks.iter().zip(raw_alpha_spans(bytes)) {
        for (layer, (flags, raw)) in chunk.layers[1..].iter().zip(spans) {
            let alpha = layer.alpha.as_ref().unwrap();
            if flags & 0x200 != 0 {
                // Our own encoder's output decodes to the same texels, and the kept source is
                // exactly the file's bytes.
                let ours = mcal::encode_rle(alpha.texels());
                assert_eq!(&mcal::decode_rle(&ours).unwrap().0[..], &alpha.texels()[..]);
                let src = alpha.source().unwrap();
                assert_eq!((src.encoding, &src.bytes[..]), (AlphaEncoding::Rle, raw));
                rle += 1;
            } else {
                assert_eq!(&alpha.texels()[..], raw, "8-bit maps are the bytes");
                plain += 1;
            }
        }
    }
    assert_eq!((plain, rle), (110, 634));
}

#[test]
fn an_edited_alpha_map_is_re_encoded_and_the_rest_stays_exact() {
    let rel = "warcraft-net/ADT/Northrend_37_25.adt";
    let opened = pipeline::open_map(&corpus_file(rel)).unwrap();
    let mut tile = opened.map.tiles.values().next().unwrap().clone();
    let alpha = tile.chunks[5].layers[1].alpha.as_mut().unwrap();
    assert!(alpha.source().is_some());
    alpha.texels_mut()[100] = 77;
    assert!(
        alpha.source().is_none(),
        "editing drops the stale source bytes"
    );
    tile.chunks[7].heights[3] += 10.0;
    let bytes = v18::write_adt(&tile, AlphaTarget { big: true });
    let back = v18::read_adt(&bytes, Some(tile.coord), AlphaDepth::Big).unwrap();
    assert_eq!(
        back.chunks[5].layers[1].alpha.as_ref().unwrap().texels()[100],
        77
    );
    assert_eq!(back.chunks[7].heights[3], tile.chunks[7].heights[3]);
    for (i, (a, b)) in tile.chunks.iter().zip(&back.chunks).enumerate() {
        assert_eq!(a.heights, b.heights, "chunk {i}");
        for (la, lb) in a.layers.iter().zip(&b.layers) {
            assert_eq!(
                la.alpha.as_ref().map(|m| m.texels()),
                lb.alpha.as_ref().map(|m| m.texels()),
                "chunk {i}"
            );
        }
    }
}
