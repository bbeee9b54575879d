//! Opens an archive made of fuzzer bytes as a client's only archive, looks up a few names and
//! reads them: nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::assets::client::ClientData;

fuzz_target!(|data: &[u8]| {
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
