//! The bundled sample in `resources/sample/` is exactly what `loam sample` writes today.

use std::path::PathBuf;

#[test]
fn the_bundled_sample_equals_the_generator_output() {
    let bundled = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("resources/sample");
    let mut files = loam::sample::sample_files().expect("the sample encodes");
    let mut names: Vec<String> = std::fs::read_dir(&bundled)
        .expect("resources/sample exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".wdt") || n.ends_with(".adt"))
        .collect();
    names.sort();
    let mut expected: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
    expected.sort();
    assert_eq!(
        names, expected,
        "the bundled files are the generator's files"
    );
    files.extend(loam::sample::texture_files());
    let models = loam::sample::model_files();
    // The models' folder holds the generator's model files and nothing else.
    let model_dir = bundled.join("World/Loam/Sample");
    let mut on_disk: Vec<String> = std::fs::read_dir(&model_dir)
        .expect("resources/sample/World/Loam/Sample exists")
        .filter_map(|e| e.ok())
        .map(|e| format!("World/Loam/Sample/{}", e.file_name().to_string_lossy()))
        .collect();
    on_disk.sort();
    let mut model_names: Vec<String> = models.iter().map(|f| f.name.clone()).collect();
    model_names.sort();
    assert_eq!(
        on_disk, model_names,
        "the bundled models are the generator's"
    );
    files.extend(models);
    for f in &files {
        let on_disk = std::fs::read(bundled.join(&f.name)).expect("bundled file reads");
        assert!(
            on_disk == f.bytes,
            "{} differs from the generator's output; run `loam sample resources/sample`",
            f.name
        );
    }
}

#[test]
fn loam_sample_writes_a_map_that_opens() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_loam"))
        .args(["sample"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let opened = loam::pipeline::open_map(&dir.path().join("Sample.wdt")).unwrap();
    assert_eq!(opened.map.tiles.len(), 4);
    assert!(opened.missing_tiles.is_empty());
    for f in loam::sample::model_files() {
        let written = std::fs::read(dir.path().join(&f.name)).expect("model written");
        assert!(written == f.bytes, "{} written as generated", f.name);
    }
}

#[test]
fn the_bundled_stamps_equal_the_generator_output() {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("resources/sample/stamps");
    let stamps = loam::images::stamps::bundled_stamps();
    let mut on_disk: Vec<String> = std::fs::read_dir(&folder)
        .expect("resources/sample/stamps exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut names: Vec<String> = stamps.iter().map(|(n, _)| n.clone()).collect();
    names.sort();
    assert_eq!(
        on_disk, names,
        "the folder holds the generator's stamps and nothing else"
    );
    for (name, png) in stamps {
        assert!(
            std::fs::read(folder.join(&name)).unwrap() == png,
            "{name} differs from the generator's (regenerate with `loam sample resources/sample`)"
        );
    }
}
