//! Opening a synthetic 3.3.5 client of 8 archives holding 100,000 files in all, and looking
//! up 10,000 paths in it (targets: open ≤ 300 ms, a lookup ≤ 2 µs; docs/client-data.md);
//! and the asset browser's catalogue of 100,000 names: building it, and the rows of a filter.

use criterion::{Criterion, criterion_group, criterion_main};
use loam::assets::catalog::{AssetKind, Catalog};
use loam::assets::client::ClientData;
use wow_mpq::{ArchiveBuilder, FormatVersion, ListfileOption};

const ARCHIVES: [&str; 8] = [
    "common.MPQ",
    "common-2.MPQ",
    "expansion.MPQ",
    "lichking.MPQ",
    "patch.MPQ",
    "patch-2.MPQ",
    "patch-3.MPQ",
    "patch-4.MPQ",
];
const FILES: usize = 100_000;

fn path(i: usize) -> String {
    format!(
        "World\\Maps\\Zone{}\\Tile_{}_{}.adt",
        i % 97,
        i / 97,
        i % 64
    )
}

/// Builds the client once; every file is a few bytes (the cost measured is the index).
fn synthetic_client() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("Data");
    std::fs::create_dir_all(&data).unwrap();
    let per = FILES / ARCHIVES.len();
    for (a, name) in ARCHIVES.iter().enumerate() {
        let mut b = ArchiveBuilder::new()
            .version(FormatVersion::V1)
            .listfile_option(ListfileOption::None);
        for i in a * per..(a + 1) * per {
            b = b.add_file_data(i.to_le_bytes().to_vec(), &path(i));
        }
        b.build(data.join(name)).unwrap();
    }
    dir
}

fn bench(c: &mut Criterion) {
    let dir = synthetic_client();
    let mut group = c.benchmark_group("client");
    group.sample_size(10);
    group.bench_function("open 8 archives, 100k files", |b| {
        b.iter(|| ClientData::open(dir.path()).unwrap())
    });
    let client = ClientData::open(dir.path()).unwrap();
    let names: Vec<String> = (0..10_000)
        .map(|i| path(i * 7 % FILES).to_ascii_lowercase().replace('\\', "/"))
        .collect();
    group.bench_function("served_by, 10k paths", |b| {
        b.iter(|| {
            names
                .iter()
                .filter(|n| client.served_by(n).is_some())
                .count()
        })
    });
    group.bench_function("read, 10k paths", |b| {
        b.iter(|| {
            names
                .iter()
                .map(|n| client.read(n).unwrap().map_or(0, |v| v.len()))
                .sum::<usize>()
        })
    });
    group.finish();
}

/// 100,000 names as a 3.3.5 listfile spreads them: tileset textures, doodads, WMOs and their
/// groups, and files the browser does not list.
fn listfile_names() -> Vec<String> {
    (0..FILES)
        .map(|i| match i % 5 {
            0 => format!("Tileset\\Zone{}\\Texture{i}.blp", i % 40),
            1 => format!("World\\Generic\\Set{}\\Doodad{i}.m2", i % 300),
            2 => format!("World\\wmo\\Zone{}\\Building{i}.wmo", i % 60),
            3 => format!(
                "World\\wmo\\Zone{}\\Building{}_{:03}.wmo",
                i % 60,
                i - 1,
                i % 7
            ),
            _ => format!("Sound\\Ambience\\Zone{}\\Wind{i}.wav", i % 50),
        })
        .collect()
}

fn bench_catalog(c: &mut Criterion) {
    let names = listfile_names();
    let mut group = c.benchmark_group("catalog");
    group.sample_size(10);
    group.bench_function("build, 100k names", |b| {
        b.iter(|| Catalog::build(names.iter().map(String::as_str)))
    });
    let catalog = Catalog::build(names.iter().map(String::as_str));
    let closed = Default::default();
    group.bench_function("rows, models, all closed", |b| {
        b.iter(|| catalog.rows(AssetKind::Model, "", &closed).len())
    });
    group.bench_function("rows, models, filter 'set12 doodad'", |b| {
        b.iter(|| {
            catalog
                .rows(AssetKind::Model, "set12 doodad", &closed)
                .len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench, bench_catalog);
criterion_main!(benches);
