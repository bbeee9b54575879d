//! Model files become one neutral, GPU-ready description: bind-pose geometry (one vertex and one
//! index buffer per model), draw batches each with a material, the textures they name, and
//! bounding boxes; for WMOs also groups, doodad sets and doodad placements.
//!
//! Formats: M2 (`MD20`, versions 256–264: 1.12 to 3.3.5, skins embedded up to 263 or in
//! `NN.skin` files at 264), MDX (`MDLX` 1300/1400: 0.5.x) and WMO (v14 single file of 0.5.x, v16
//! of 0.6.0, v17 root + group files of 1.x to 3.3.5). All readers are loam's own; why not the
//! `wow-m2` / `wow-wmo` crates is in docs/formats.md, "Models", and `tests/models.rs`.
//!
//! Axes: model space as the files store it, z up (x forward, y left; the client's model space).
//! Nothing is flipped or swapped here; `render/` owns any conversion to its own axes.
//!
//! Animation: an M2's or MDX's bones, their stand-sequence tracks and each vertex's bones come
//! as a [`Rig`] (`animation`, read by `m2_anim` and `mdx_anim`); a skeleton that never moves is
//! posed once here and leaves no rig, so a still model costs nothing per frame.
//!
//! Not for: particles, ribbons, lights, cameras, collision, liquids, portals, lightmaps, LOD
//! selection or finding files (the caller's `fetch` does that); `render/` never parses a file
//! and this module never touches GL.

pub mod animation;
mod bytes;
mod error;
mod m2;
mod m2_anim;
mod mdx;
mod mdx_anim;
mod skin;
pub mod thumbnail;
mod wmo;
pub mod wmo_light;
mod wmo_v14;

use std::ops::Range;

pub use animation::Rig;
pub use error::{ModelError, ModelErrorKind, Result};

/// Fetches the bytes of a companion file (a `.skin`, a WMO group `_NNN.wmo`) or, for
/// [`read_model`], of the model itself; `None` when there is no such file.
pub type Fetch<'a> = &'a dyn Fn(&str) -> Option<Vec<u8>>;

/// One vertex as the GPU takes it (40 bytes, no padding).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Vertex {
    /// Position in model space (z up).
    pub position: [f32; 3],
    /// Unit normal (as stored; not renormalised).
    pub normal: [f32; 3],
    /// First texture coordinate set.
    pub uv: [f32; 2],
    /// Second texture coordinate set (zero when the file has none).
    pub uv2: [f32; 2],
}

/// Triangle list indices into [`ModelMesh::vertices`]: 16-bit when every vertex fits, else
/// 32-bit (a WMO's groups together can pass 65 536 vertices).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Indices {
    /// At most 65 536 vertices.
    U16(Vec<u16>),
    /// More vertices than 16 bits address.
    U32(Vec<u32>),
}

impl Indices {
    /// Number of indices (three per triangle).
    pub fn len(&self) -> usize {
        match self {
            Indices::U16(v) => v.len(),
            Indices::U32(v) => v.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index at `i`, widened.
    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            Indices::U16(v) => v.get(i).map(|&x| u32::from(x)),
            Indices::U32(v) => v.get(i).copied(),
        }
    }

    /// Every index, widened.
    pub fn iter(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        match self {
            Indices::U16(v) => Box::new(v.iter().map(|&x| u32::from(x))),
            Indices::U32(v) => Box::new(v.iter().copied()),
        }
    }
}

/// An axis-aligned box in model space.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Aabb {
    /// Smallest x, y, z.
    pub min: [f32; 3],
    /// Largest x, y, z.
    pub max: [f32; 3],
}

impl Aabb {
    /// The box's six faces as twelve triangles over its [`Aabb::corners`].
    pub const FACE_TRIANGLES: [u16; 36] = {
        // Each face's corners in turn (bit i set: coordinate i at its high end).
        let faces = [
            [0, 1, 3, 2],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 3, 7, 6],
            [0, 2, 6, 4],
            [1, 3, 7, 5],
        ];
        let mut out = [0u16; 36];
        let mut f = 0;
        while f < 6 {
            let q = faces[f];
            let tri = [q[0], q[1], q[2], q[0], q[2], q[3]];
            let mut k = 0;
            while k < 6 {
                out[f * 6 + k] = tri[k];
                k += 1;
            }
            f += 1;
        }
        out
    };

    /// The eight corners, corner k with coordinate i at `max` when bit i of k is set.
    pub fn corners(self) -> [[f32; 3]; 8] {
        std::array::from_fn(|k| {
            std::array::from_fn(|i| {
                if (k >> i) & 1 == 0 {
                    self.min[i]
                } else {
                    self.max[i]
                }
            })
        })
    }

    /// The smallest box holding every point, or `None` for no points. Non-finite coordinates
    /// are left out, so that one damaged vertex cannot make the box infinite.
    pub fn around(points: impl IntoIterator<Item = [f32; 3]>) -> Option<Aabb> {
        let mut out: Option<Aabb> = None;
        for p in points {
            if !p.iter().all(|c| c.is_finite()) {
                continue;
            }
            let b = out.get_or_insert(Aabb { min: p, max: p });
            *b = b.union(Aabb { min: p, max: p });
        }
        out
    }

    /// The smallest box holding both.
    pub fn union(self, other: Aabb) -> Aabb {
        Aabb {
            min: std::array::from_fn(|i| self.min[i].min(other.min[i])),
            max: std::array::from_fn(|i| self.max[i].max(other.max[i])),
        }
    }

    /// True when `p` lies inside, allowing `slack` on every side.
    pub fn contains(&self, p: [f32; 3], slack: f32) -> bool {
        (0..3).all(|i| p[i] >= self.min[i] - slack && p[i] <= self.max[i] + slack)
    }
}

/// Where a batch's texture comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TextureRef {
    /// A file path as the model names it (`WORLD\...\X.BLP`; case and slashes untouched).
    File(String),
    /// Chosen at run time by the game (creature skin, character skin, cape…): the M2 texture
    /// type or the MDX replaceable id (1 body, 2 object skin, 11–13 monster skins…).
    Replaceable(u32),
}

/// How a batch blends with what is behind it: the client's `EGxBlend` states, to which M2
/// blend modes, MDX filter modes and WMO blend modes all map (wowdev wiki, "Rendering").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BlendMode {
    /// Written as is (ONE, ZERO).
    #[default]
    Opaque,
    /// Opaque with an alpha test (texels under the threshold are discarded).
    AlphaKey,
    /// Alpha blending (SRC_ALPHA, ONE_MINUS_SRC_ALPHA).
    Alpha,
    /// Additive weighted by alpha (SRC_ALPHA, ONE).
    Add,
    /// Multiplies what is behind (DST_COLOR, ZERO).
    Mod,
    /// Multiplies by twice (DST_COLOR, SRC_COLOR).
    Mod2x,
    /// (DST_COLOR, ONE).
    ModAdd,
    /// (ONE_MINUS_SRC_ALPHA, ONE).
    InvSrcAlphaAdd,
    /// (ONE_MINUS_SRC_ALPHA, ZERO).
    InvSrcAlphaOpaque,
    /// (SRC_ALPHA, ZERO).
    SrcAlphaOpaque,
    /// Additive ignoring alpha (ONE, ONE).
    NoAlphaAdd,
    /// (CONSTANT_ALPHA, ONE_MINUS_CONSTANT_ALPHA).
    ConstantAlpha,
    /// (ONE_MINUS_DST_COLOR, ONE).
    Screen,
    /// Premultiplied alpha (ONE, ONE_MINUS_SRC_ALPHA).
    BlendAdd,
}

impl BlendMode {
    /// From an `EGxBlend` value (WMO MOMT `blendMode`); values past 13 are drawn opaque.
    pub fn from_egx(value: u32) -> BlendMode {
        use BlendMode::*;
        match value {
            1 => AlphaKey,
            2 => Alpha,
            3 => Add,
            4 => Mod,
            5 => Mod2x,
            6 => ModAdd,
            7 => InvSrcAlphaAdd,
            8 => InvSrcAlphaOpaque,
            9 => SrcAlphaOpaque,
            10 => NoAlphaAdd,
            11 => ConstantAlpha,
            12 => Screen,
            13 => BlendAdd,
            _ => Opaque,
        }
    }

    /// From an M2 material blending mode or an MDX layer filter mode: both lists are
    /// opaque, alpha key, alpha, no-alpha add, add, mod, mod2x (M2 adds blend-add as 7), which
    /// the client maps through `M2BlendingModeToEGxBlend`. Unknown values are drawn opaque.
    pub fn from_m2(value: u32) -> BlendMode {
        use BlendMode::*;
        match value {
            1 => AlphaKey,
            2 => Alpha,
            3 => NoAlphaAdd,
            4 => Add,
            5 => Mod,
            6 => Mod2x,
            7 => BlendAdd,
            _ => Opaque,
        }
    }

    /// A short lower-case name for listings (`opaque`, `alpha-key`…).
    pub fn name(self) -> &'static str {
        use BlendMode::*;
        match self {
            Opaque => "opaque",
            AlphaKey => "alpha-key",
            Alpha => "alpha",
            Add => "add",
            Mod => "mod",
            Mod2x => "mod2x",
            ModAdd => "mod-add",
            InvSrcAlphaAdd => "inv-src-alpha-add",
            InvSrcAlphaOpaque => "inv-src-alpha-opaque",
            SrcAlphaOpaque => "src-alpha-opaque",
            NoAlphaAdd => "no-alpha-add",
            ConstantAlpha => "constant-alpha",
            Screen => "screen",
            BlendAdd => "blend-add",
        }
    }
}

/// How one batch is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Material {
    /// Index into [`ModelMesh::textures`]; `None` when the batch names no texture.
    pub texture: Option<usize>,
    /// Blending.
    pub blend: BlendMode,
    /// Both faces drawn (no back-face culling).
    pub two_sided: bool,
    /// Not lit (full bright; vertex colours may still apply).
    pub unlit: bool,
    /// Not fogged.
    pub unfogged: bool,
    /// Texture addressing clamps in s (u) instead of repeating.
    pub clamp_s: bool,
    /// Texture addressing clamps in t (v) instead of repeating.
    pub clamp_t: bool,
}

/// A run of indices drawn with one material.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batch {
    /// First index in [`ModelMesh::indices`].
    pub first_index: u32,
    /// Number of indices (a multiple of three).
    pub index_count: u32,
    /// How to draw it.
    pub material: Material,
}

/// Geometry ready for one GPU upload.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelMesh {
    /// Vertices in the bind pose.
    pub vertices: Vec<Vertex>,
    /// Per-vertex RGBA colours when the model has any (WMO MOCV; a WMO group without MOCV gets
    /// opaque white so that it is not tinted).
    pub colors: Option<Vec<[u8; 4]>>,
    /// Triangle list; every index is below `vertices.len()`.
    pub indices: Indices,
    /// Draw calls, in the file's order.
    pub batches: Vec<Batch>,
    /// Textures the batches name.
    pub textures: Vec<TextureRef>,
    /// Box around every vertex (a zero box at the origin when there are none).
    pub bounds: Aabb,
}

impl ModelMesh {
    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Every triangle's corners in model space, for casting shadows.
    pub fn triangles(&self) -> Vec<[[f32; 3]; 3]> {
        let index: Vec<u32> = self.indices.iter().collect();
        index
            .chunks_exact(3)
            .filter_map(|t| {
                let corner = |i: u32| Some(self.vertices.get(i as usize)?.position);
                Some([corner(t[0])?, corner(t[1])?, corner(t[2])?])
            })
            .collect()
    }
}

/// Which file format a model was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelFormat {
    /// `MD20` (1.12 to 3.3.5).
    M2,
    /// `MDLX` (0.5.x).
    Mdx,
    /// World map object.
    Wmo,
}

impl std::fmt::Display for ModelFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ModelFormat::M2 => "M2",
            ModelFormat::Mdx => "MDX",
            ModelFormat::Wmo => "WMO",
        })
    }
}

/// An M2 or MDX model (a doodad, creature or item).
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// M2 or MDX.
    pub format: ModelFormat,
    /// The file's version (M2 256–264, MDX 1300/1400).
    pub version: u32,
    /// The model's name as its header gives it (may be empty).
    pub name: String,
    /// Geometry, batches and textures.
    pub mesh: ModelMesh,
    /// The box the file declares (M2 header bounding box, MDX MODL extent); it may be larger
    /// than the bind pose (it covers animations).
    pub file_bounds: Aabb,
    /// The bones that move the mesh in the stand sequence; `None` for a model whose bones
    /// never move (its still pose is already in [`ModelMesh::vertices`]) or that has none.
    pub rig: Option<Rig>,
}

/// `mesh` in the pose of `rig` at time 0 when the rig never moves (and then no rig), else both
/// as they are: a still skeleton costs nothing per frame. A still pose that is the identity
/// (bones without keys, most doodads) leaves the vertices bit for bit as the file stores them.
fn settle(mut mesh: ModelMesh, rig: Option<Rig>) -> (ModelMesh, Option<Rig>) {
    match rig {
        Some(r) if !r.skeleton.moves() => {
            let pose = r.pose(0.0);
            // Bones without keys leave the file's vertices exactly as stored.
            if pose.iter().any(|m| *m != glam::Mat4::IDENTITY) {
                let bind = std::mem::take(&mut mesh.vertices);
                r.skin(&bind, &pose, &mut mesh.vertices);
            }
            (mesh, None)
        }
        other => (mesh, other),
    }
}

/// One WMO group as it lies in [`WmoModel::mesh`].
#[derive(Debug, Clone, PartialEq)]
pub struct WmoGroup {
    /// Group number (`_NNN`).
    pub index: u32,
    /// Name from MOGN (may be empty).
    pub name: String,
    /// MOGP flags (0x8 exterior, 0x2000 interior, 0x4 has MOCV…).
    pub flags: u32,
    /// The group's box as MOGP declares it.
    pub bounds: Aabb,
    /// Its batches in [`ModelMesh::batches`].
    pub batches: Range<usize>,
    /// Its vertices in [`ModelMesh::vertices`].
    pub vertices: Range<u32>,
    /// True when the group has MOCV colours of its own.
    pub has_vertex_colors: bool,
    /// How many of its first vertices belong to transition batches (MOGP transBatchCount, up to
    /// the last one's MOBA maxIndex): the MOCV fix-up treats them apart (`wmo_light`).
    pub trans_vertices: u32,
    /// Doodads of this group (MODR): indices into [`WmoModel::doodads`].
    pub doodad_refs: Vec<u16>,
}

impl WmoGroup {
    /// MOGP flag 0x2000: an indoor group (how it is lit: [`wmo_light::GroupLight::of`]).
    pub fn is_interior(&self) -> bool {
        self.flags & 0x2000 != 0
    }
}

/// A named range of doodads shown together (MODS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoodadSet {
    /// Set name (`Set_$DefaultGlobal`…).
    pub name: String,
    /// First doodad in [`WmoModel::doodads`].
    pub first: u32,
    /// Number of doodads.
    pub count: u32,
}

/// One doodad placed in a WMO (MODD), in the WMO's model space.
#[derive(Debug, Clone, PartialEq)]
pub struct Doodad {
    /// Model path from MODN (`.MDX` names; 1.12–3.3.5 clients load the `.m2` of that name).
    pub model: String,
    /// Position.
    pub position: [f32; 3],
    /// Rotation quaternion (x, y, z, w).
    pub rotation: [f32; 4],
    /// Uniform scale.
    pub scale: f32,
    /// Colour as RGBA (stored BGRA; alpha may be a MOLT light index).
    pub color: [u8; 4],
    /// The flag bits of the record's top byte (0x1 accepts projected textures…).
    pub flags: u8,
}

/// A world map object: all its groups in one mesh, plus what placing it needs.
#[derive(Debug, Clone, PartialEq)]
pub struct WmoModel {
    /// MVER: 14 (0.5.x), 16 (0.6.0) or 17.
    pub version: u32,
    /// Every present group's geometry, concatenated (see [`WmoModel::groups`]).
    pub mesh: ModelMesh,
    /// The groups read, in order.
    pub groups: Vec<WmoGroup>,
    /// Groups the root declares whose files could not be fetched (they are skipped).
    pub missing_groups: Vec<u32>,
    /// Doodad sets (MODS).
    pub doodad_sets: Vec<DoodadSet>,
    /// Doodad placements (MODD with MODN names).
    pub doodads: Vec<Doodad>,
    /// The WMO's box: MOHD's in v16/v17; in v14, which has none, the union of the group boxes
    /// (MOGI), as the 0.5.x client computed it on load. MODF extents derive from this.
    pub bounds: Aabb,
    /// MOHD ambColor (RGBA): the light of its interior groups (`wmo_light`).
    pub ambient: [u8; 4],
    /// MOHD flags (v17; 0 before): the unified render path (0x2), no MOCV fix-up (0x8)…
    pub flags: u16,
}

/// The model-space box a placement of the model at `path` occupies
/// ([`AnyModel::placement_bounds`]), `None` when it cannot be found or read: object edits then
/// use a stand-in box.
pub fn placement_box(path: &str, fetch: Fetch) -> Option<([f32; 3], [f32; 3])> {
    let b = read_model(path, fetch).ok()?.placement_bounds();
    Some((b.min, b.max))
}

/// Any model [`read_model`] can return.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyModel {
    /// An M2 or MDX.
    Model(Model),
    /// A WMO.
    Wmo(WmoModel),
}

impl AnyModel {
    /// The model-space box a placement of this model occupies, as map tools compute MCRF and
    /// MODF extents from it: the M2/MDX header's box (it covers the animations), the WMO's
    /// MOHD box; the bind pose's box where the file declares an empty one.
    pub fn placement_bounds(&self) -> Aabb {
        let declared = match self {
            AnyModel::Model(m) => m.file_bounds,
            AnyModel::Wmo(w) => w.bounds,
        };
        let empty = (0..3).all(|i| declared.max[i] <= declared.min[i]);
        if empty { self.mesh().bounds } else { declared }
    }

    /// The geometry.
    pub fn mesh(&self) -> &ModelMesh {
        match self {
            AnyModel::Model(m) => &m.mesh,
            AnyModel::Wmo(w) => &w.mesh,
        }
    }

    /// The format read.
    pub fn format(&self) -> ModelFormat {
        match self {
            AnyModel::Model(m) => m.format,
            AnyModel::Wmo(_) => ModelFormat::Wmo,
        }
    }

    /// The file's version.
    pub fn version(&self) -> u32 {
        match self {
            AnyModel::Model(m) => m.version,
            AnyModel::Wmo(w) => w.version,
        }
    }
}

/// Reads an M2 (`MD20`, versions 256–264). Skins: embedded up to 263; at 264 the `NN.skin`
/// beside `path` (`00` first, then the others the header counts) comes through `fetch`.
pub fn read_m2(path: &str, bytes: &[u8], fetch: Fetch) -> Result<Model> {
    m2::read(path, bytes, fetch).map_err(|e| e.in_file(path))
}

/// Reads a 0.5.x MDX (`MDLX`, versions 1300 and 1400).
pub fn read_mdx(path: &str, bytes: &[u8]) -> Result<Model> {
    mdx::read(bytes).map_err(|e| e.in_file(path))
}

/// Reads a WMO: a v14 single file, or a v16/v17 root whose groups `<name>_NNN.wmo` come through
/// `fetch` (a group that cannot be fetched is skipped and listed in `missing_groups`; a group
/// that is there but damaged is an error naming it).
pub fn read_wmo(path: &str, root: &[u8], fetch: Fetch) -> Result<WmoModel> {
    let version = wmo::version(root).map_err(|e| e.in_file(path))?;
    if version == 14 {
        wmo_v14::read(root).map_err(|e| e.in_file(path))
    } else {
        wmo::read(path, root, version, fetch).map_err(|e| e.in_file(path))
    }
}

/// Reads the model file at `path` through `fetch`, choosing the reader from the magic bytes,
/// not the extension: 1.12–3.3.5 ADTs name doodads `.mdx` (and WMOs' MODN sometimes `.mdl`)
/// although the files are M2, so a missing `.mdx` or `.mdl` is looked up again as `.m2` (and a
/// missing `.m2` as `.mdx`).
pub fn read_model(path: &str, fetch: Fetch) -> Result<AnyModel> {
    let (found, bytes) = fetch_either(path, fetch).ok_or_else(|| ModelError::not_found(path))?;
    read_model_bytes(&found, &bytes, fetch)
}

/// As [`read_model`] for bytes already read from `path`.
pub fn read_model_bytes(path: &str, bytes: &[u8], fetch: Fetch) -> Result<AnyModel> {
    match bytes.get(0..4) {
        Some(b"MD20") => read_m2(path, bytes, fetch).map(AnyModel::Model),
        Some(b"MDLX") => read_mdx(path, bytes).map(AnyModel::Model),
        Some(b"REVM") => read_wmo(path, bytes, fetch).map(AnyModel::Wmo),
        Some(b"MD21") => Err(ModelError::at(
            "header",
            0,
            ModelErrorKind::Invalid(
                "chunked M2 (MD21, 7.x and later) is not a classic model".into(),
            ),
        )
        .in_file(path)),
        Some(m) => Err(ModelError::at(
            "file",
            0,
            ModelErrorKind::UnknownMagic([m[0], m[1], m[2], m[3]]),
        )
        .in_file(path)),
        None => Err(ModelError::at(
            "file",
            0,
            ModelErrorKind::Truncated {
                needed: 4,
                available: bytes.len() as u64,
            },
        )
        .in_file(path)),
    }
}

/// The bytes of `path`, or of the same name with `.m2` for `.mdx` (and back); with the path
/// that answered.
fn fetch_either(path: &str, fetch: Fetch) -> Option<(String, Vec<u8>)> {
    if let Some(b) = fetch(path) {
        return Some((path.to_string(), b));
    }
    let other = swap_extension(path)?;
    fetch(&other).map(|b| (other, b))
}

/// `x.mdx` ⇄ `x.m2` (and `x.mdl`, which older WMOs' MODN name, → `x.m2`), keeping the case of
/// the extension's first letter; `None` for others.
fn swap_extension(path: &str) -> Option<String> {
    let dot = path.rfind('.')?;
    let (stem, ext) = path.split_at(dot);
    let upper = ext.chars().nth(1).is_some_and(|c| c.is_ascii_uppercase());
    let swapped = match ext.to_ascii_lowercase().as_str() {
        ".mdx" | ".mdl" => ".m2",
        ".m2" => ".mdx",
        _ => return None,
    };
    Some(if upper {
        format!("{stem}{}", swapped.to_ascii_uppercase())
    } else {
        format!("{stem}{swapped}")
    })
}

/// Collects one mesh: vertices, optional colours, indices as u32 until [`MeshBuilder::finish`]
/// narrows them.
#[derive(Debug, Default)]
struct MeshBuilder {
    vertices: Vec<Vertex>,
    colors: Option<Vec<[u8; 4]>>,
    indices: Vec<u32>,
    batches: Vec<Batch>,
    textures: Vec<TextureRef>,
}

impl MeshBuilder {
    /// Index of `texture` in the texture list, adding it once.
    fn texture(&mut self, texture: TextureRef) -> usize {
        if let Some(i) = self.textures.iter().position(|t| *t == texture) {
            return i;
        }
        self.textures.push(texture);
        self.textures.len() - 1
    }

    fn finish(self) -> ModelMesh {
        let bounds = Aabb::around(self.vertices.iter().map(|v| v.position)).unwrap_or_default();
        let indices = if self.vertices.len() <= 1 << 16 {
            Indices::U16(self.indices.iter().map(|&i| i as u16).collect())
        } else {
            Indices::U32(self.indices)
        };
        ModelMesh {
            vertices: self.vertices,
            colors: self.colors,
            indices,
            batches: self.batches,
            textures: self.textures,
            bounds,
        }
    }
}

/// Models' triangles by path, each file read once (for casting shadows): M2, MDX and WMO through
/// [`read_model`], companions (skins, WMO groups) through the same fetch.
pub struct ShapeCache {
    fetch: FileFetch,
    shapes: std::sync::Mutex<std::collections::HashMap<String, Option<ShapeTriangles>>>,
}

/// Game path → the file's bytes, shared across threads.
type FileFetch = Box<dyn Fn(&str) -> Option<Vec<u8>> + Send + Sync>;

/// A model's triangles in model space.
pub type ShapeTriangles = std::sync::Arc<Vec<[[f32; 3]; 3]>>;

impl ShapeCache {
    /// A cache reading files through `fetch` (game path → bytes).
    pub fn new(fetch: impl Fn(&str) -> Option<Vec<u8>> + Send + Sync + 'static) -> ShapeCache {
        ShapeCache {
            fetch: Box::new(fetch),
            shapes: Default::default(),
        }
    }

    /// The triangles of the model at `path`; `None` when it cannot be found or read.
    pub fn get(&self, path: &str) -> Option<ShapeTriangles> {
        let key = path.to_ascii_lowercase();
        if let Some(found) = self.shapes.lock().ok()?.get(&key) {
            return found.clone();
        }
        let fetch = |p: &str| (self.fetch)(p);
        let shape = read_model(path, &fetch)
            .ok()
            .map(|m| std::sync::Arc::new(m.mesh().triangles()));
        self.shapes.lock().ok()?.insert(key, shape.clone());
        shape
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The twelve triangles lie on the box's faces, two on each, and cover each face once.
    #[test]
    fn a_boxs_triangles_cover_its_six_faces() {
        let b = Aabb {
            min: [1.0, 2.0, 3.0],
            max: [3.0, 5.0, 7.0],
        };
        let corners = b.corners();
        assert_eq!(corners[0], b.min);
        assert_eq!(corners[7], b.max);
        assert_eq!(corners[2], [1.0, 5.0, 3.0], "bit 1: y at its high end");
        let mut area_on = std::collections::BTreeMap::new();
        for t in Aabb::FACE_TRIANGLES.chunks(3) {
            let [p, q, r] = [0, 1, 2].map(|k| glam::Vec3::from(corners[usize::from(t[k])]));
            let area = (q - p).cross(r - p).length() / 2.0;
            // The face: the axis and end all three corners share.
            let face = (0..3)
                .flat_map(|i| [(i, 0), (i, 1)])
                .find(|&(i, end)| {
                    let v = if end == 0 { b.min[i] } else { b.max[i] };
                    [p, q, r].iter().all(|c| c[i] == v)
                })
                .expect("a triangle on a face");
            *area_on.entry(face).or_insert(0.0) += area;
        }
        let size = [2.0, 3.0, 4.0];
        assert_eq!(area_on.len(), 6);
        for ((axis, _), area) in area_on {
            let want = size[(axis + 1) % 3] * size[(axis + 2) % 3];
            assert!(
                (area - want).abs() < 1e-5,
                "face across axis {axis}: {area}"
            );
        }
    }

    #[test]
    fn mdx_and_m2_names_swap_keeping_case() {
        assert_eq!(swap_extension("a\\B.mdx").as_deref(), Some("a\\B.m2"));
        assert_eq!(swap_extension("a\\B.MDX").as_deref(), Some("a\\B.M2"));
        assert_eq!(swap_extension("b.m2").as_deref(), Some("b.mdx"));
        assert_eq!(swap_extension("d.MDL").as_deref(), Some("d.M2"));
        assert_eq!(swap_extension("c.wmo"), None);
    }

    #[test]
    fn read_model_tries_m2_for_a_missing_mdx_and_dispatches_on_magic() {
        let fetch = |p: &str| (p == "x.m2").then(|| b"MDLX".to_vec());
        // The bytes say MDLX, so the MDX reader runs (and fails: no VERS) on the `.m2` it found.
        let err = read_model("x.mdx", &fetch).unwrap_err();
        assert_eq!(err.file, "x.m2");
        let none = read_model("y.mdx", &fetch).unwrap_err();
        assert_eq!(none.kind, ModelErrorKind::NotFound);
        let junk = read_model_bytes("z.m2", b"JUNKJUNK", &|_| None).unwrap_err();
        assert_eq!(junk.kind, ModelErrorKind::UnknownMagic(*b"JUNK"));
    }

    #[test]
    fn boxes_skip_non_finite_points_and_indices_narrow_when_they_fit() {
        let b = Aabb::around([[1.0, 2.0, 3.0], [f32::NAN, 0.0, 0.0], [-1.0, 5.0, 0.0]]).unwrap();
        assert_eq!(b.min, [-1.0, 2.0, 0.0]);
        assert_eq!(b.max, [1.0, 5.0, 3.0]);
        assert!(b.contains([0.0, 3.0, 1.0], 0.0));
        let m = MeshBuilder {
            vertices: vec![Vertex::default(); 3],
            indices: vec![0, 1, 2],
            ..MeshBuilder::default()
        };
        assert!(matches!(m.finish().indices, Indices::U16(_)));
    }

    #[test]
    fn blend_tables_follow_the_client() {
        assert_eq!(BlendMode::from_m2(3), BlendMode::NoAlphaAdd);
        assert_eq!(BlendMode::from_m2(4), BlendMode::Add);
        assert_eq!(BlendMode::from_egx(3), BlendMode::Add);
        assert_eq!(BlendMode::from_egx(10), BlendMode::NoAlphaAdd);
        assert_eq!(BlendMode::from_egx(99), BlendMode::Opaque);
    }
}
