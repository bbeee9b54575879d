//! Opens an archive made of fuzzer bytes as a client's only archive, looks up a few names and
//! reads them: nothing may panic past loam, and no allocation may run away.
//!
//! loam wraps wow-mpq's parser and decompressors in `catch_unwind` and turns their panics into
//! errors naming the archive (a panic in the `implode` crate's PKWARE decoder is one). libFuzzer's
//! panic hook would abort on those caught panics too, so this target puts back a hook that only
//! prints: a panic that escapes loam still reaches libfuzzer-sys's own `catch_unwind`, which
//! aborts and reports it as a crash.
#![no_main]

use std::sync::Once;

use libfuzzer_sys::fuzz_target;
use loam::assets::client::ClientData;

static QUIET_CAUGHT_PANICS: Once = Once::new();

fuzz_target!(|data: &[u8]| {
    QUIET_CAUGHT_PANICS.call_once(|| {
        std::panic::set_hook(Box::new(|info| eprintln!("caught inside loam? {info}")));
    });
    let Ok(dir) = tempfile::tempdir() else { return };
    let data_dir = dir.path().join("Data");
    if std::fs::create_dir(&data_dir).is_err()
        || std::fs::write(data_dir.join("common.MPQ"), data).is_err()
    {
        return;
    }
    if let Ok(client) = ClientData::open(dir.path()) {
        for name in [
            "(listfile)",
            "(attributes)",
            "World\\Maps\\Azeroth\\Azeroth.wdt",
            "a",
        ] {
            let _ = client.read(name);
            let _ = client.served_by(name);
        }
        let _ = client.names();
    }
});
