//! Biomes (issue 52, item 5): the shipped "Weathered hills" laid by one stroke over the bundled
//! sample erodes the ground, textures it by its rules and scatters its palette, all as one undo
//! step that undo takes back bit for bit and redo lays again bit for bit; the `biome` operation
//! of `loam apply` writes the same into the files, read back with `wow-adt`.

mod common;

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

/// The doodads of a written map folder's tiles as `wow-adt` reads them: (uid, x, y, z).
fn written_doodads(dir: &std::path::Path) -> Vec<(u32, [f32; 3])> {
    let mut out = Vec::new();
    for (tx, ty) in [(31, 31), (32, 31), (31, 32), (32, 32)] {
        let root = common::root_adt(&dir.join(format!("Sample_{tx}_{ty}.adt")));
        for d in &root.doodad_placements {
            out.push((d.unique_id, [d.position[0], d.position[1], d.position[2]]));
        }
    }
    out
}

#[test]
fn loam_apply_lays_a_named_biome_as_the_library_does_and_the_files_hold_its_objects() {
    let dir = tempfile::tempdir().unwrap();
    let map = common::sample_in(dir.path().join("sample")).join("Sample.wdt");
    let before = dir.path().join("before");
    let ops = dir.path().join("none.json");
    std::fs::write(&ops, r#"{"ops": []}"#).unwrap();
    common::apply_335(&map, &ops, &before);
    let ops = dir.path().join("biome.json");
    std::fs::write(
        &ops,
        r#"{"ops": [{"tool": "biome", "biome": "Weathered hills", "points": [[300, 280], [240, 220]], "radius": 60, "inner_radius": 40, "seed": 7}]}"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let said = common::apply_335(&map, &ops, &out);
    assert!(said.contains("op 0: Biome Weathered hills, "), "{said}");
    let (old, new) = (written_doodads(&before), written_doodads(&out));
    assert!(new.len() > old.len(), "{} → {}", old.len(), new.len());
    // The new objects have fresh uids, stand within the stroke's reach and on the ground the
    // library lays (the same stroke run in memory).
    let old_uids: std::collections::HashSet<u32> = old.iter().map(|d| d.0).collect();
    let added: Vec<_> = new.iter().filter(|d| !old_uids.contains(&d.0)).collect();
    assert_eq!(
        added.len(),
        new.len() - old.len(),
        "every old uid kept, the new ones fresh"
    );
    let mut unique: Vec<u32> = new.iter().map(|d| d.0).collect();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), new.len(), "no uid twice");
    let mut laid = loam::sample::sample_map();
    let hills = biome::shipped_named("Weathered hills").unwrap();
    let brush = Brush {
        radius: 60.0,
        inner_radius: 40.0,
        ..Brush::default()
    };
    biome::apply(
        &mut laid,
        &hills,
        (&brush, &[[300.0, 280.0], [240.0, 220.0]]),
        7,
        &mut History::default(),
        (&|_| None, &NewUids::default()),
    )
    .unwrap();
    let in_memory = laid.tiles.values().map(|t| t.doodads.len()).sum::<usize>();
    assert_eq!(
        new.len(),
        in_memory,
        "the files hold what the library placed"
    );
    for (_, p) in added {
        // MDDF positions are in placement axes: x = 17066.67 − world y, z = 17066.67 − world x.
        let (x, y) = (17066.666 - f64::from(p[2]), 17066.666 - f64::from(p[0]));
        let ground = loam::edit::lattice::height_at(&laid, x, y).unwrap();
        assert!(
            (f64::from(p[1]) - f64::from(ground)).abs() < 0.5,
            "on the ground at ({x}, {y})"
        );
    }
}
