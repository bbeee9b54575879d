//! Inputs the fuzzers found (tests/data/fuzz), minimised, each run through its target's property
//! so that the bug it showed stays fixed. (The MPQ ones are in `alloc_limits.rs`.)

mod common;

use loam::assets::client::{ClientGeneration, read_liquid_table, read_map_table};
use loam::format::chunk::{Writer, chunk_at, tags};
use loam::format::mcnk_parts::ChunkPlace;
use loam::format::v18::mcnk;
use loam::format::v18::{AlphaDepth, AlphaTarget};
use loam::model::chunk::Chunk;
use loam::model::coords::TileCoord;

fn fuzz_input(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/fuzz")
            .join(name),
    )
    .unwrap()
}

fn write_mcnk(chunk: &Chunk, tile: TileCoord, big: bool) -> Vec<u8> {
    let mut w = Writer::with_capacity(1 << 16);
    mcnk::write(&mut w, chunk, place(tile), AlphaTarget { big });
    w.into_bytes()
}

/// The mcnk_v18 target's property: a decoded MCNK written, read back and written again gives
/// the same bytes.
fn assert_mcnk_rewrites_the_same(data: &[u8]) {
    let (&first, payload) = data.split_first().unwrap();
    let depth = [AlphaDepth::Nibble, AlphaDepth::Big, AlphaDepth::Infer][first as usize % 3];
    let mut w = Writer::with_capacity(payload.len() + 8);
    w.chunk(tags::MCNK, payload);
    let bytes = w.into_bytes();
    let raw = chunk_at(&bytes, 0, 0, tags::FILE).unwrap();
    let tile = TileCoord::new(30, 40).unwrap();
    let chunk = mcnk::read(&raw, place(tile), depth).expect("the input decodes");
    let big = depth == AlphaDepth::Big;
    let written = write_mcnk(&chunk, tile, big);
    let back_raw = chunk_at(&written, 0, 0, tags::FILE).unwrap();
    let read_depth = if big {
        AlphaDepth::Big
    } else {
        AlphaDepth::Nibble
    };
    let back =
        mcnk::read(&back_raw, place(tile), read_depth).expect("what loam writes, loam reads");
    common::assert_same_bytes("rewritten MCNK", &written, &write_mcnk(&back, tile, big));
}

#[test]
fn fuzz_found_mcnk_that_rewrites_to_other_bytes() {
    assert_mcnk_rewrites_the_same(&fuzz_input("mcnk_v18-rewrite-differs.bin"));
}

/// A Map.dbc on which `wow_dbc` indexes past its string block: read with every layout, it is
/// "not this table" (or a table), never a panic out of loam.
#[test]
fn fuzz_found_dbc_whose_string_offset_panics_the_crate_is_no_table() {
    let bytes = fuzz_input("dbc-string-offset-panic.dbc");
    for g in [
        ClientGeneration::V112,
        ClientGeneration::V243,
        ClientGeneration::V335,
        ClientGeneration::Unknown(String::new()),
    ] {
        let _ = read_map_table(&bytes, &g);
    }
    let _ = read_liquid_table(&bytes);
    // The same bytes without loam's guard: the crate itself panics (were it fixed, the guard
    // could go, and this says so).
    use wow_dbc::DbcTable;
    let unguarded = std::panic::catch_unwind(|| {
        let _ = wow_dbc::vanilla_tables::map::Map::read(&mut &bytes[..]);
        let _ = wow_dbc::tbc_tables::map::Map::read(&mut &bytes[..]);
        let _ = wow_dbc::wrath_tables::map::Map::read(&mut &bytes[..]);
        let _ = wow_dbc::wrath_tables::liquid_type::LiquidType::read(&mut &bytes[..]);
    });
    assert!(unguarded.is_err(), "wow_dbc no longer panics on this table");
}

/// Chunk (3, 5) of `tile`.
fn place(tile: TileCoord) -> ChunkPlace {
    ChunkPlace { tile, x: 3, y: 5 }
}
