//! Any bytes given as a client's `Map.dbc` (read with every layout loam knows: 0.5.3 – 0.6.0,
//! 1.12, 2.4.3, 3.3.5), its `LiquidType.dbc` (3.3.5) or its light tables (Light, LightParams,
//! LightIntBand, LightFloatBand in the 1.12 and 3.3.5 layouts) give a table or "not this
//! table", never a panic that escapes loam and never a runaway allocation: a modded client's
//! patch archive can hold tables other tools wrote. The tables are parsed by the `wow_dbc`
//! crate, whose panics loam catches (`assets::client::dbc`); as in `mpq_lookup`, libFuzzer's
//! hook, which would abort on those caught panics too, is replaced by one that only prints (the
//! first few: most inputs panic the crate), and a panic that escapes loam still reaches
//! libfuzzer-sys's `catch_unwind` and is reported as a crash; replaying its input alone prints
//! its message.
#![no_main]

use std::sync::Once;
use std::sync::atomic::{AtomicU32, Ordering};

use libfuzzer_sys::fuzz_target;
use loam::assets::client::{ClientGeneration, LightTables, read_liquid_table, read_map_table};

static QUIET_CAUGHT_PANICS: Once = Once::new();
static PANICS_SHOWN: AtomicU32 = AtomicU32::new(0);

fuzz_target!(|data: &[u8]| {
    QUIET_CAUGHT_PANICS.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            if PANICS_SHOWN.fetch_add(1, Ordering::Relaxed) < 5 {
                eprintln!("caught inside loam? {info}");
            }
        }));
    });
    for g in [
        ClientGeneration::V112,
        ClientGeneration::V243,
        ClientGeneration::V335,
        ClientGeneration::Unknown(String::new()),
        // WoWDBDefs' 0.5.3 – 0.6.0 layout, read by loam itself.
        ClientGeneration::Alpha,
    ] {
        if let Some(rows) = read_map_table(data, &g) {
            // Each row came from a whole record of the bytes.
            assert!(rows.len() <= data.len() / 4);
        }
    }
    if let Some(rows) = read_liquid_table(data) {
        assert!(rows.windows(2).all(|w| w[0].id <= w[1].id), "sorted by id");
    }
    // The same bytes as each of the four light tables, in every layout loam reads them with.
    for g in [
        ClientGeneration::V112,
        ClientGeneration::V335,
        ClientGeneration::Unknown(String::new()),
    ] {
        if let Some(t) = LightTables::read(data, data, data, data, &g) {
            for band in t.int_bands.values() {
                assert_eq!(band.times.len(), band.values.len(), "a value for each time");
            }
        }
    }
});
