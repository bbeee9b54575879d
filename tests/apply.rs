//! `loam apply` end to end: a tile sculpted, painted, holed and shaded by the example operations
//! and saved as 3.3.5 reopens with the same content, and a second reader (the wow-adt crate)
//! agrees on heights, layers and holes.

mod common;

use std::process::Command;

use common::*;
use loam::disk;
use loam::edit::{History, ops};

#[test]
fn the_example_operations_save_reopen_and_agree_with_a_second_reader() {
    let src = corpus_file("wowserhq-format/map/continent4229.adt");
    let ops_file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("resources/examples/sculpt-paint.json");
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_loam"))
        .args([
            "apply",
            src.to_str().unwrap(),
            ops_file.to_str().unwrap(),
            "--to",
            "3.3.5",
            out.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    assert!(
        text.contains("op 0: Raise, ") && text.contains("op 6: Add holes, "),
        "{text}"
    );

    // The same operations in memory, through the library.
    let mut expected = disk::open_map(&src).unwrap().map;
    let original = expected.tiles.values().next().unwrap().clone();
    let parsed = ops::parse(&std::fs::read_to_string(&ops_file).unwrap()).unwrap();
    let mut history = History::default();
    for op in &parsed.ops {
        ops::apply(&mut expected, op, &mut history).unwrap();
    }
    let want = expected.tiles.values().next().unwrap();
    assert_ne!(
        want.chunks, original.chunks,
        "the operations changed something"
    );
    assert!(
        want.textures
            .iter()
            .any(|t| t.ends_with("ElwynnGrassBase.blp"))
    );
    assert!(want.chunks.iter().any(|c| c.vertex_colors.is_some()));
    assert!(
        want.chunks.iter().filter(|c| c.holes != 0).count()
            > original.chunks.iter().filter(|c| c.holes != 0).count()
    );

    // loam reads back what it wrote.
    let written = out.path().join("continent4229.adt");
    let back = disk::open_map(&written).unwrap().map;
    let got = back.tiles.values().next().unwrap();
    assert_eq!(got.textures, want.textures);
    for (i, (a, b)) in want.chunks.iter().zip(&got.chunks).enumerate() {
        assert_eq!(a.heights, b.heights, "chunk {i}");
        assert_eq!(a.holes, b.holes, "chunk {i}");
        assert_eq!(a.vertex_colors, b.vertex_colors, "chunk {i}");
        assert_eq!(
            (a.area_id, a.flags & 0x2),
            (b.area_id, b.flags & 0x2),
            "chunk {i}"
        );
        assert_eq!(a.layers.len(), b.layers.len(), "chunk {i}");
        for (la, lb) in a.layers.iter().zip(&b.layers) {
            assert_eq!(la.texture, lb.texture, "chunk {i}");
            if let (Some(x), Some(y)) = (&la.alpha, &lb.alpha) {
                // The tile stores 4-bit alpha: each texel within half a step.
                assert!(
                    x.texels()
                        .iter()
                        .zip(y.texels().iter())
                        .all(|(p, q)| (*p as i32 - *q as i32).abs() <= 8),
                    "chunk {i}"
                );
            }
        }
    }

    // A second, independent reader agrees.
    let mut f = std::io::BufReader::new(std::fs::File::open(&written).unwrap());
    let wow_adt::ParsedAdt::Root(root) = wow_adt::parse_adt(&mut f).unwrap() else {
        panic!("not a root ADT")
    };
    assert_eq!(root.textures, want.textures);
    assert_eq!(root.mcnk_chunks.len(), 256);
    for (i, (mcnk, c)) in root.mcnk_chunks.iter().zip(&want.chunks).enumerate() {
        assert_eq!(mcnk.header.holes_low_res, c.holes, "chunk {i} holes");
        assert_eq!(
            mcnk.header.position[2], c.base_height,
            "chunk {i} base height (stored last)"
        );
        let rel = &mcnk.heights.as_ref().unwrap().heights;
        for (k, (r, h)) in rel.iter().zip(c.heights.iter()).enumerate() {
            assert_eq!(*r, h - c.base_height, "chunk {i} vertex {k}");
        }
        let layers = &mcnk.layers.as_ref().unwrap().layers;
        assert_eq!(
            layers.iter().map(|l| l.texture_id).collect::<Vec<_>>(),
            c.layers.iter().map(|l| l.texture).collect::<Vec<_>>(),
            "chunk {i}"
        );
    }
}
