//! `loam model FILE [--client DIR]`: what a model file (M2, MDX or WMO) holds as loam reads it —
//! format and version, vertices, triangles, batches, textures with their blend modes, bounds,
//! and for a WMO its groups, doodad sets and doodads.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::assets::client::ClientData;
use crate::assets::models::{self, Aabb, AnyModel, ModelMesh, TextureRef};
use crate::disk::LoamError;

/// Reads `file` (a file on disk, or with `client` a game path inside that client) and prints
/// what it holds. Companion files (`.skin`, WMO groups) are read beside it the same way.
pub fn run(file: &Path, client: Option<&Path>) -> Result<ExitCode, LoamError> {
    let model = match client {
        Some(dir) => {
            let client = ClientData::open(dir).map_err(|e| LoamError::Usage(e.to_string()))?;
            let fetch = |p: &str| client.read(p).ok().flatten();
            models::read_model(&file.to_string_lossy(), &fetch)
        }
        None => models::read_model(&file.to_string_lossy(), &read_beside),
    }
    .map_err(|e| LoamError::Usage(e.to_string()))?;
    print_model(&model);
    Ok(ExitCode::SUCCESS)
}

/// A file on disk; when the exact name is absent, one in the same folder whose name differs only
/// in case (files extracted from archives keep whatever case the listfile had).
fn read_beside(path: &str) -> Option<Vec<u8>> {
    let path = PathBuf::from(path);
    if let Ok(bytes) = std::fs::read(&path) {
        return Some(bytes);
    }
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .find(|e| e.file_name().to_string_lossy().to_ascii_lowercase() == name)
        .and_then(|e| std::fs::read(e.path()).ok())
}

fn print_model(model: &AnyModel) {
    let mesh = model.mesh();
    println!("format: {} version {}", model.format(), model.version());
    if let AnyModel::Model(m) = model
        && !m.name.is_empty()
    {
        println!("name: {}", m.name);
    }
    println!("vertices: {}", mesh.vertices.len());
    println!("triangles: {}", mesh.triangle_count());
    println!(
        "vertex colours: {}",
        if mesh.colors.is_some() { "yes" } else { "no" }
    );
    println!("batches: {}", mesh.batches.len());
    print_textures(mesh);
    println!("bounds: {}", show_box(&mesh.bounds));
    match model {
        AnyModel::Model(m) => println!("file bounds: {}", show_box(&m.file_bounds)),
        AnyModel::Wmo(w) => {
            println!("wmo bounds: {}", show_box(&w.bounds));
            println!(
                "groups: {} read, {} missing",
                w.groups.len(),
                w.missing_groups.len()
            );
            for g in &w.groups {
                let name = if g.name.is_empty() { "-" } else { &g.name };
                println!(
                    "  {:03} {name}: {} vertices, {} batches, flags 0x{:x}{}",
                    g.index,
                    g.vertices.len(),
                    g.batches.len(),
                    g.flags,
                    if g.has_vertex_colors { ", MOCV" } else { "" }
                );
            }
            if !w.missing_groups.is_empty() {
                let list: Vec<String> =
                    w.missing_groups.iter().map(|i| format!("{i:03}")).collect();
                println!("  missing: {}", list.join(" "));
            }
            println!("doodad sets: {}", w.doodad_sets.len());
            for s in &w.doodad_sets {
                println!("  {}: {} doodads from {}", s.name, s.count, s.first);
            }
            println!("doodads: {}", w.doodads.len());
        }
    }
}

/// Each texture with the blend modes of the batches that draw it.
fn print_textures(mesh: &ModelMesh) {
    println!("textures: {}", mesh.textures.len());
    for (i, t) in mesh.textures.iter().enumerate() {
        let blends: BTreeSet<&str> = mesh
            .batches
            .iter()
            .filter(|b| b.material.texture == Some(i))
            .map(|b| b.material.blend.name())
            .collect();
        let shown = match t {
            TextureRef::File(p) => p.clone(),
            TextureRef::Replaceable(id) => format!("<replaceable {id}>"),
        };
        let blends: Vec<&str> = blends.into_iter().collect();
        println!("  {i:>3}  {shown}  ({})", blends.join(", "));
    }
    let untextured = mesh
        .batches
        .iter()
        .filter(|b| b.material.texture.is_none())
        .count();
    if untextured > 0 {
        println!("  batches without a texture: {untextured}");
    }
}

fn show_box(b: &Aabb) -> String {
    format!(
        "({:.3}, {:.3}, {:.3}) .. ({:.3}, {:.3}, {:.3})",
        b.min[0], b.min[1], b.min[2], b.max[0], b.max[1], b.max[2]
    )
}
