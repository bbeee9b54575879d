//! `loam info MODEL [--json] [--client DIR]` (also `loam model`): what a model file (M2, MDX or WMO) holds as loam reads it —
//! format and version, vertices, triangles, batches, textures with their blend modes, bounds,
//! and for a WMO its groups, doodad sets and doodads.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::assets::client::ClientData;
use serde::Serialize;

use crate::assets::models::{self, Aabb, AnyModel, ModelMesh, TextureRef};
use crate::disk::LoamError;

/// Reads `file` (a file on disk, or with `client` a game path inside that client) and prints
/// what it holds, as text or (with `json`) as JSON. Companion files (`.skin`, WMO groups) are
/// read beside it the same way.
pub fn run(file: &Path, client: Option<&Path>, json: bool) -> Result<ExitCode, LoamError> {
    let model = match client {
        Some(dir) => {
            let client = ClientData::open(dir).map_err(|e| LoamError::Usage(e.to_string()))?;
            let fetch = |p: &str| client.read(p).ok().flatten();
            models::read_model(&file.to_string_lossy(), &fetch)
        }
        None => models::read_model(&file.to_string_lossy(), &read_beside),
    }
    .map_err(|e| LoamError::Usage(e.to_string()))?;
    let info = model_info(&model);
    super::print_info(&info, json, render_text)
}

/// True when `path` names a model file by its extension (`.m2`, `.mdx`, `.mdl`, `.wmo`), so
/// that `loam info` describes it as a model rather than a map.
pub fn is_model_path(path: &Path) -> bool {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .is_some_and(|e| matches!(e.as_str(), "m2" | "mdx" | "mdl" | "wmo"))
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

/// What `loam info MODEL` reports, for text and JSON alike.
#[derive(Debug, Clone, Serialize)]
pub struct ModelInfo {
    /// `M2`, `MDX` or `WMO`.
    pub format: String,
    /// The file's version.
    pub version: u32,
    /// The name in an M2/MDX header (empty when none).
    pub name: String,
    /// Vertices in the bind pose.
    pub vertices: usize,
    /// Triangles.
    pub triangles: usize,
    /// True when the model has vertex colours.
    pub vertex_colours: bool,
    /// Draw batches.
    pub batches: usize,
    /// Textures with the blend modes of the batches that use them.
    pub textures: Vec<TextureInfo>,
    /// Batches that name no texture.
    pub untextured_batches: usize,
    /// Box around the vertices: min, max.
    pub bounds: [[f32; 3]; 2],
    /// The box the file declares (M2/MDX header; WMO MOHD).
    pub file_bounds: [[f32; 3]; 2],
    /// WMO groups, doodad sets and doodads.
    pub wmo: Option<WmoInfo>,
}

/// One texture of a model.
#[derive(Debug, Clone, Serialize)]
pub struct TextureInfo {
    /// The path, or `<replaceable N>`.
    pub path: String,
    /// Blend modes of the batches that draw it.
    pub blends: Vec<String>,
}

/// The WMO part of [`ModelInfo`].
#[derive(Debug, Clone, Serialize)]
pub struct WmoInfo {
    /// Groups read.
    pub groups: Vec<GroupInfo>,
    /// Groups the root declares whose files were not found.
    pub missing_groups: Vec<u32>,
    /// Doodad sets: name, first doodad, count.
    pub doodad_sets: Vec<(String, u32, u32)>,
    /// Doodads placed inside (all sets).
    pub doodads: usize,
}

/// One WMO group.
#[derive(Debug, Clone, Serialize)]
pub struct GroupInfo {
    /// Group number.
    pub index: u32,
    /// MOGN name.
    pub name: String,
    /// Vertices.
    pub vertices: usize,
    /// Batches.
    pub batches: usize,
    /// MOGP flags.
    pub flags: u32,
    /// True when the group has MOCV colours.
    pub vertex_colours: bool,
}

/// Gathers [`ModelInfo`] from a model read.
pub fn model_info(model: &AnyModel) -> ModelInfo {
    let mesh = model.mesh();
    let to_pair = |b: &Aabb| [b.min, b.max];
    let (name, file_bounds, wmo) = match model {
        AnyModel::Model(m) => (m.name.clone(), m.file_bounds, None),
        AnyModel::Wmo(w) => (
            String::new(),
            w.bounds,
            Some(WmoInfo {
                groups: w
                    .groups
                    .iter()
                    .map(|g| GroupInfo {
                        index: g.index,
                        name: g.name.clone(),
                        vertices: g.vertices.len(),
                        batches: g.batches.len(),
                        flags: g.flags,
                        vertex_colours: g.has_vertex_colors,
                    })
                    .collect(),
                missing_groups: w.missing_groups.clone(),
                doodad_sets: w
                    .doodad_sets
                    .iter()
                    .map(|s| (s.name.clone(), s.first, s.count))
                    .collect(),
                doodads: w.doodads.len(),
            }),
        ),
    };
    ModelInfo {
        format: model.format().to_string(),
        version: model.version(),
        name,
        vertices: mesh.vertices.len(),
        triangles: mesh.triangle_count(),
        vertex_colours: mesh.colors.is_some(),
        batches: mesh.batches.len(),
        textures: texture_infos(mesh),
        untextured_batches: mesh
            .batches
            .iter()
            .filter(|b| b.material.texture.is_none())
            .count(),
        bounds: to_pair(&mesh.bounds),
        file_bounds: to_pair(&file_bounds),
        wmo,
    }
}

/// Each texture with the blend modes of the batches that draw it.
fn texture_infos(mesh: &ModelMesh) -> Vec<TextureInfo> {
    mesh.textures
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let blends: BTreeSet<&str> = mesh
                .batches
                .iter()
                .filter(|b| b.material.texture == Some(i))
                .map(|b| b.material.blend.name())
                .collect();
            TextureInfo {
                path: match t {
                    TextureRef::File(p) => p.clone(),
                    TextureRef::Replaceable(id) => format!("<replaceable {id}>"),
                },
                blends: blends.into_iter().map(String::from).collect(),
            }
        })
        .collect()
}

/// The text form of [`ModelInfo`].
pub fn render_text(info: &ModelInfo) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "format: {} version {}", info.format, info.version);
    if !info.name.is_empty() {
        let _ = writeln!(w, "name: {}", info.name);
    }
    let _ = writeln!(w, "vertices: {}", info.vertices);
    let _ = writeln!(w, "triangles: {}", info.triangles);
    let yes_no = if info.vertex_colours { "yes" } else { "no" };
    let _ = writeln!(w, "vertex colours: {yes_no}");
    let _ = writeln!(w, "batches: {}", info.batches);
    let _ = writeln!(w, "textures: {}", info.textures.len());
    for (i, t) in info.textures.iter().enumerate() {
        let _ = writeln!(w, "  {i:>3}  {}  ({})", t.path, t.blends.join(", "));
    }
    if info.untextured_batches > 0 {
        let _ = writeln!(
            w,
            "  batches without a texture: {}",
            info.untextured_batches
        );
    }
    let _ = writeln!(w, "bounds: {}", show_box(&info.bounds));
    let Some(wmo) = &info.wmo else {
        let _ = writeln!(w, "file bounds: {}", show_box(&info.file_bounds));
        return out;
    };
    let _ = writeln!(w, "wmo bounds: {}", show_box(&info.file_bounds));
    let _ = writeln!(
        w,
        "groups: {} read, {} missing",
        wmo.groups.len(),
        wmo.missing_groups.len()
    );
    for g in &wmo.groups {
        let name = if g.name.is_empty() { "-" } else { &g.name };
        let _ = writeln!(
            w,
            "  {:03} {name}: {} vertices, {} batches, flags 0x{:x}{}",
            g.index,
            g.vertices,
            g.batches,
            g.flags,
            if g.vertex_colours { ", MOCV" } else { "" }
        );
    }
    if !wmo.missing_groups.is_empty() {
        let list: Vec<String> = wmo
            .missing_groups
            .iter()
            .map(|i| format!("{i:03}"))
            .collect();
        let _ = writeln!(w, "  missing: {}", list.join(" "));
    }
    let _ = writeln!(w, "doodad sets: {}", wmo.doodad_sets.len());
    for (name, first, count) in &wmo.doodad_sets {
        let _ = writeln!(w, "  {name}: {count} doodads from {first}");
    }
    let _ = writeln!(w, "doodads: {}", wmo.doodads);
    out
}

fn show_box(b: &[[f32; 3]; 2]) -> String {
    format!(
        "({:.3}, {:.3}, {:.3}) .. ({:.3}, {:.3}, {:.3})",
        b[0][0], b[0][1], b[0][2], b[1][0], b[1][1], b[1][2]
    )
}
