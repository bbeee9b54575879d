//! Any bytes given to the v18 MCNK decoder as one chunk (header, MCVT, MCNR, MCLY with MCAL in
//! 4-bit, 8-bit and RLE form, MCSH, MCCV, MCLQ, MCSE) decode or fail with an error; a decoded
//! chunk written with the same alpha depth reads back and rewrites to the same bytes. The first
//! byte picks the alpha depth.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::chunk::{Writer, chunk_at, tags};
use loam::format::mcnk_parts::ChunkPlace;
use loam::format::v18::mcnk;
use loam::format::v18::{AlphaDepth, AlphaTarget};
use loam::model::coords::TileCoord;

fuzz_target!(|data: &[u8]| {
    let Some((&first, payload)) = data.split_first() else {
        return;
    };
    let depth = match first % 3 {
        0 => AlphaDepth::Nibble,
        1 => AlphaDepth::Big,
        _ => AlphaDepth::Infer,
    };
    let mut w = Writer::with_capacity(payload.len() + 8);
    w.chunk(tags::MCNK, payload);
    let bytes = w.into_bytes();
    let raw = chunk_at(&bytes, 0, 0, tags::FILE).expect("a whole chunk");
    let tile = TileCoord::new(30, 40).expect("inside the map");
    if let Ok(chunk) = mcnk::read(&raw, place(tile), depth) {
        let big = depth == AlphaDepth::Big;
        let written = write(&chunk, tile, big);
        let back_raw = chunk_at(&written, 0, 0, tags::FILE).expect("a whole chunk");
        let read_depth = if big {
            AlphaDepth::Big
        } else {
            AlphaDepth::Nibble
        };
        let back =
            mcnk::read(&back_raw, place(tile), read_depth).expect("what loam writes, loam reads");
        assert!(
            write(&back, tile, big) == written,
            "a written MCNK rewrites to the same bytes"
        );
    }
});

fn write(chunk: &loam::model::chunk::Chunk, tile: TileCoord, big: bool) -> Vec<u8> {
    let mut w = Writer::with_capacity(1 << 16);
    mcnk::write(&mut w, chunk, place(tile), AlphaTarget { big });
    w.into_bytes()
}

/// Chunk (3, 5) of `tile`.
fn place(tile: TileCoord) -> ChunkPlace {
    ChunkPlace { tile, x: 3, y: 5 }
}
