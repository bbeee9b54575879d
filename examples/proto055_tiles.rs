//! Writes a map as a 0.5.5 WDT plus prototype ADTs (`format::proto055`), which `loam convert`
//! does not offer: `cargo run --example proto055_tiles -- SRC.wdt DST_FOLDER`. `fuzz/seed.sh`
//! seeds the prototype ADT fuzz target with its output.

use std::path::PathBuf;

use loam::disk;
use loam::format::proto055;
use loam::pipeline;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (Some(src), Some(dst)) = (args.next(), args.next()) else {
        return Err("usage: proto055_tiles SRC.wdt DST_FOLDER".into());
    };
    let opened = pipeline::open_map(&src)?;
    let (wdt, adts) = proto055::write_map(&opened.map);
    std::fs::create_dir_all(&dst)?;
    let name = &opened.map.name;
    disk::write_atomic(&dst.join(format!("{name}.wdt")), &wdt)?;
    for (coord, bytes) in &adts {
        disk::write_atomic(&dst.join(disk::tile_file_name(name, *coord)), bytes)?;
    }
    Ok(())
}
