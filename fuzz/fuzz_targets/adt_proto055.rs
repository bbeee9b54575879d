//! Any bytes given to the 0.5.5 prototype ADT decoder decode or fail with an error; a decoded
//! tile written as a 0.5.5 map (WDT with external tiles + prototype ADT) reads back, and
//! writing that again gives the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loam::format::{alpha, proto055};
use loam::model::coords::TileCoord;
use loam::model::map::Map;
use loam::model::monolithic::MapWideNames;

/// Writes `map` as 0.5.5 with prototype ADTs and reads it back.
fn trip(map: &Map) -> (Vec<u8>, Vec<(TileCoord, Vec<u8>)>, Map) {
    let (wdt, adts) = proto055::write_map(map);
    let mut back = alpha::read_wdt(&wdt, "Fuzz").expect("what loam writes, loam reads (WDT)");
    let mut names = back
        .map_wide_names
        .take()
        .expect("a 0.5.x WDT has map-wide names");
    for (coord, bytes) in &adts {
        let tile = proto055::read_adt(bytes, *coord, &mut names)
            .expect("what loam writes, loam reads (ADT)");
        back.tiles.insert(*coord, tile);
    }
    back.map_wide_names = Some(names);
    (wdt, adts, back)
}

fuzz_target!(|data: &[u8]| {
    let _ = proto055::is_prototype_adt(data);
    let coord = TileCoord::new(31, 32).expect("inside the map");
    // No WDT beside it: name ids index empty map-wide lists.
    let mut names = MapWideNames::default();
    if let Ok(tile) = proto055::read_adt(data, coord, &mut names) {
        let mut map = Map::new("Fuzz");
        map.map_wide_names = Some(names);
        map.tiles.insert(coord, tile);
        let (wdt, adts, back) = trip(&map);
        let (wdt2, adts2, _) = trip(&back);
        assert!(wdt2 == wdt, "a written WDT rewrites to the same bytes");
        assert!(
            adts2 == adts,
            "a written prototype ADT rewrites to the same bytes"
        );
    }
});
