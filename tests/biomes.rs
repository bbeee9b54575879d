//! Biomes (issue 52, item 5): the shipped "Weathered hills" laid by one stroke over the bundled
//! sample erodes the ground, textures it by its rules and scatters its palette, all as one undo
//! step that undo takes back bit for bit and redo lays again bit for bit.

use loam::edit::History;
use loam::edit::biome::{self, BiomeFile};
use loam::edit::objects::NewUids;
use loam::edit::terrain::brush::Brush;

#[test]
fn a_biome_stroke_erodes_textures_and_scatters_as_one_undo_step() {
    let hills = biome::shipped()
        .into_iter()
        .find(|b| b.name == "Weathered hills")
        .unwrap();
    let mut map = loam::sample::sample_map();
    let original = map.clone();
    let mut history = History::default();
    let brush = Brush {
        radius: 60.0,
        inner_radius: 40.0,
        ..Brush::default()
    };
    let points = [[300.0, 280.0], [240.0, 220.0]];
    let r = biome::apply(
        &mut map,
        &hills,
        (&brush, &points),
        7,
        &mut history,
        (&|_| None, &NewUids::default()),
    )
    .unwrap();
    assert!(
        r.label.starts_with("Biome Weathered hills, "),
        "{}",
        r.label
    );
    let count = |m: &loam::model::Map| m.tiles.values().map(|t| t.doodads.len()).sum::<usize>();
    assert!(count(&map) > count(&original), "objects scattered");
    let heights = |m: &loam::model::Map| {
        m.tiles
            .values()
            .flat_map(|t| t.chunks.iter().flat_map(|c| c.heights.iter().copied()))
            .map(f32::to_bits)
            .collect::<Vec<_>>()
    };
    assert_ne!(heights(&map), heights(&original), "the ground eroded");
    let rock = |m: &loam::model::Map| {
        m.tiles
            .values()
            .flat_map(|t| {
                t.chunks.iter().flat_map(move |c| {
                    c.layers
                        .iter()
                        .filter(move |l| t.textures[l.texture as usize].contains("Rock10"))
                        .filter_map(|l| l.alpha.as_ref())
                        .map(|a| a.texels().iter().map(|&v| u64::from(v)).sum::<u64>())
                })
            })
            .sum::<u64>()
    };
    assert_ne!(rock(&map), rock(&original), "the rules textured it");
    let laid = map.clone();
    history.undo(&mut map);
    assert_eq!(map, original, "one undo takes all of it back");
    history.redo(&mut map);
    assert_eq!(map, laid);
    // Saved and read back as a biome file.
    let text = serde_json::to_string(&BiomeFile {
        biomes: vec![hills.clone()],
    })
    .unwrap();
    assert_eq!(BiomeFile::parse(&text).unwrap().biomes, vec![hills]);
}
