//! `texture_swap` (issue 31, its library and `loam apply` part): a swap over a whole tile, read
//! back with the `wow-adt` crate, shows the new texture in every layer that had the old one,
//! with every alpha map unchanged byte for byte.

mod common;

use std::fs;

#[test]
fn a_whole_tile_swap_keeps_every_alpha_map_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::sample_in(dir.path().join("sample"));
    let ops = dir.path().join("ops.json");
    fs::write(
        &ops,
        r#"{"ops": [{"tool": "texture_swap", "from": "tileset\\loam\\sample\\rock10.blp", "to": "Tileset\\Barrens\\BarrensRock01.blp", "tiles": [[31, 31]]}]}"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let said = common::apply_335(&sample.join("Sample.wdt"), &ops, &out);
    assert!(said.contains("op 0: Swap texture"), "{said}");
    let read = common::root_adt;
    let (a, b) = (
        read(&sample.join("Sample_31_31.adt")),
        read(&out.join("Sample_31_31.adt")),
    );
    let names = |r: &wow_adt::RootAdt| -> Vec<String> {
        r.textures.iter().map(|t| t.to_ascii_lowercase()).collect()
    };
    let (old_names, new_names) = (names(&a), names(&b));
    let old = old_names
        .iter()
        .position(|n| n == "tileset\\loam\\sample\\rock10.blp")
        .expect("the sample paints rock") as u32;
    let new = new_names
        .iter()
        .position(|n| n == "tileset\\barrens\\barrensrock01.blp")
        .expect("the new texture is listed") as u32;
    let mut swapped = 0;
    for (ca, cb) in a.mcnk_chunks.iter().zip(&b.mcnk_chunks) {
        let la = &ca.layers.as_ref().unwrap().layers;
        let lb = &cb.layers.as_ref().unwrap().layers;
        assert_eq!(la.len(), lb.len());
        for (x, y) in la.iter().zip(lb) {
            if x.texture_id == old {
                assert_eq!(y.texture_id, new);
                swapped += 1;
            } else {
                assert_eq!(
                    new_names[y.texture_id as usize],
                    old_names[x.texture_id as usize]
                );
            }
            assert_eq!(x.offset_in_mcal, y.offset_in_mcal);
        }
        assert_eq!(
            ca.alpha.as_ref().map(|m| &m.data),
            cb.alpha.as_ref().map(|m| &m.data),
            "alpha maps unchanged"
        );
    }
    assert!(swapped > 0, "some layer painted rock");
}

#[test]
fn removing_a_texture_then_the_unused_ones_leaves_a_list_without_it_and_layers_that_still_name_theirs()
 {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::sample_in(dir.path().join("sample"));
    let ops = dir.path().join("ops.json");
    fs::write(
        &ops,
        r#"{"ops": [
            {"tool": "texture_remove", "texture": "Tileset\\Loam\\Sample\\Dirt77.blp", "tiles": [[31, 31]]},
            {"tool": "texture_remove_unused", "tiles": [[31, 31]]}
        ]}"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    common::apply_335(&sample.join("Sample.wdt"), &ops, &out);
    let (a, b) = (
        common::root_adt(&sample.join("Sample_31_31.adt")),
        common::root_adt(&out.join("Sample_31_31.adt")),
    );
    let lower = |r: &wow_adt::RootAdt| -> Vec<String> {
        r.textures.iter().map(|t| t.to_ascii_lowercase()).collect()
    };
    let (old_names, new_names) = (lower(&a), lower(&b));
    let dirt = "tileset\\loam\\sample\\dirt77.blp";
    assert!(old_names.iter().any(|n| n == dirt));
    assert!(!new_names.iter().any(|n| n == dirt), "{new_names:?}");
    assert_eq!(new_names.len(), old_names.len() - 1);
    for (ca, cb) in a.mcnk_chunks.iter().zip(&b.mcnk_chunks) {
        let before: Vec<&str> = ca
            .layers
            .as_ref()
            .unwrap()
            .layers
            .iter()
            .map(|l| old_names[l.texture_id as usize].as_str())
            .filter(|n| *n != dirt)
            .collect();
        let after: Vec<&str> = cb
            .layers
            .as_ref()
            .unwrap()
            .layers
            .iter()
            .map(|l| new_names[l.texture_id as usize].as_str())
            .collect();
        if before.is_empty() {
            assert_eq!(after, [dirt], "a chunk's only layer stays");
        } else {
            assert_eq!(
                after, before,
                "every other layer keeps its texture, in order"
            );
        }
    }
}
