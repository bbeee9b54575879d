//! The map-wide store of layer textures on the GPU: one mipmapped texture array per size class
//! (64, 128, 256 and 512 texels square), a slot per distinct texture path, shared by every tile
//! that names the path. A path shows its procedural stand-in (`assets::procedural`) until its
//! real texture arrives, and keeps it when there is none.
//!
//! Why arrays per size and not per tile: a continent has a few hundred distinct tileset
//! textures, each used by many tiles; at 256×256 a per-tile copy would cost 16 times the
//! 64×64 arrays of before for every tile in view. Here each texture is on the GPU once.
//!
//! Not for: decoding or finding textures (the app's texture worker does), nor choosing which
//! tiles draw which texture (the terrain renderer maps a tile's list onto slots each frame).

use std::collections::HashMap;

use glow::HasContext;

use crate::assets::procedural::{PROCEDURAL_SIDE, procedural_texture};

/// The sides of the size classes, smallest first; a texture goes to the class of its side.
pub const CLASS_SIDES: [usize; 4] = [64, 128, 256, 512];

/// Slots a class starts with; it doubles when full.
const FIRST_CAPACITY: usize = 8;

/// Anisotropy asked for where the driver offers `EXT/ARB_texture_filter_anisotropic` and
/// filters on a GPU (`anisotropy_for`).
const ANISOTROPY: f32 = 8.0;
const TEXTURE_MAX_ANISOTROPY: u32 = 0x84FE;
const MAX_TEXTURE_MAX_ANISOTROPY: u32 = 0x84FF;

/// Where a texture lives: size class and layer of that class's array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Index into `CLASS_SIDES`.
    pub class: usize,
    /// Layer of the class's array.
    pub layer: usize,
}

impl Slot {
    /// The slot packed for the shader: class in the high 16 bits, layer in the low.
    pub fn packed(self) -> u32 {
        ((self.class as u32) << 16) | (self.layer as u32 & 0xFFFF)
    }
}

/// One size class: a texture array and how many of its layers are used.
struct SizeClass {
    side: usize,
    texture: Option<glow::Texture>,
    capacity: usize,
    used: usize,
}

/// The store. Keys are texture paths as `texture_key` normalises them.
pub struct TextureStore {
    classes: Vec<SizeClass>,
    real: HashMap<String, Slot>,
    stand_ins: HashMap<String, Slot>,
    anisotropy: Option<f32>,
}

/// The store's key of a game path: lower case with backslashes, as the client compares paths.
pub fn texture_key(name: &str) -> String {
    name.to_ascii_lowercase().replace('/', "\\")
}

/// The class a square texture of `side` texels belongs to, if any.
pub fn class_of(side: usize) -> Option<usize> {
    CLASS_SIDES.iter().position(|&s| s == side)
}

/// The anisotropy to ask of renderer `renderer` (`GL_RENDERER`), whose limit is `max`: none
/// on Mesa's software rasterizers. llvmpipe filters anisotropically with Heckbert's EWA, a
/// loop over every texel in the bounding box of the pixel's footprint ellipse
/// (`lp_build_sample_aniso`): at grazing angles, where that ellipse is long and lies across
/// the texture's axes, one frame of four terrain layers took seconds to minutes on two cores
/// (the stalls of `--tour`, docs/reliability.md). Without it the same frame took 0.18 s.
pub fn anisotropy_for(renderer: &str, max: f32) -> Option<f32> {
    (!super::is_software_rasterizer(renderer)).then(|| ANISOTROPY.min(max.max(1.0)))
}

/// Mip levels of a square texture of `side` texels, down to 1×1.
pub fn mip_levels(side: usize) -> usize {
    side.max(1).ilog2() as usize + 1
}

impl TextureStore {
    /// An empty store; anisotropic filtering is used when `gl` offers it on a GPU.
    pub fn new(gl: &glow::Context) -> TextureStore {
        let ext = gl.supported_extensions();
        let offered = ext.contains("GL_EXT_texture_filter_anisotropic")
            || ext.contains("GL_ARB_texture_filter_anisotropic");
        // SAFETY: plain queries on the caller's current context.
        let renderer = unsafe { gl.get_parameter_string(glow::RENDERER) };
        let anisotropy = offered
            .then(|| unsafe { gl.get_parameter_f32(MAX_TEXTURE_MAX_ANISOTROPY) })
            .and_then(|max| anisotropy_for(&renderer, max));
        TextureStore {
            classes: CLASS_SIDES
                .iter()
                .map(|&side| SizeClass {
                    side,
                    texture: None,
                    capacity: 0,
                    used: 0,
                })
                .collect(),
            real: HashMap::new(),
            stand_ins: HashMap::new(),
            anisotropy,
        }
    }

    /// The slot a path draws from now: its real texture, else its stand-in, else none (call
    /// `ensure_stand_in` first).
    pub fn slot(&self, key: &str) -> Option<Slot> {
        self.real
            .get(key)
            .or_else(|| self.stand_ins.get(key))
            .copied()
    }

    /// True when the path's real texture is on the GPU.
    pub fn has_real(&self, key: &str) -> bool {
        self.real.contains_key(key)
    }

    /// Makes sure a path has its procedural stand-in, for as long as its real texture is not
    /// there.
    pub fn ensure_stand_in(&mut self, gl: &glow::Context, key: &str) -> Result<(), String> {
        if self.stand_ins.contains_key(key) || self.real.contains_key(key) {
            return Ok(());
        }
        let levels = mip_chain(PROCEDURAL_SIDE, procedural_texture(key));
        let slot = self.store(gl, &levels)?;
        self.stand_ins.insert(key.to_string(), slot);
        Ok(())
    }

    /// Puts a path's real texture on the GPU: `levels` is its mip chain, square, level 0 of a
    /// class side (see `mip_chain`). Frees nothing: a stand-in slot is reused by the next one.
    pub fn set_real(
        &mut self,
        gl: &glow::Context,
        key: &str,
        levels: &[Vec<u8>],
    ) -> Result<(), String> {
        let slot = self.store(gl, levels)?;
        self.real.insert(key.to_string(), slot);
        Ok(())
    }

    /// Binds the class arrays to texture units `first_unit..first_unit + 4`.
    pub fn bind(&self, gl: &glow::Context, first_unit: u32) {
        // SAFETY: plain GL calls on the caller's current context with textures it owns.
        unsafe {
            for (i, class) in self.classes.iter().enumerate() {
                gl.active_texture(glow::TEXTURE0 + first_unit + i as u32);
                gl.bind_texture(glow::TEXTURE_2D_ARRAY, class.texture);
            }
        }
    }

    /// Distinct real textures on the GPU.
    pub fn real_count(&self) -> usize {
        self.real.len()
    }

    /// GPU memory the arrays take, mip levels included, in bytes.
    pub fn gpu_bytes(&self) -> usize {
        self.classes
            .iter()
            .map(|c| c.capacity * chain_bytes(c.side))
            .sum()
    }

    /// Frees every array.
    pub fn destroy(&mut self, gl: &glow::Context) {
        for class in &mut self.classes {
            if let Some(t) = class.texture.take() {
                // SAFETY: the texture was created on this context.
                unsafe { gl.delete_texture(t) };
            }
            class.capacity = 0;
            class.used = 0;
        }
        self.real.clear();
        self.stand_ins.clear();
    }

    /// Writes a mip chain into a new layer of its class.
    fn store(&mut self, gl: &glow::Context, levels: &[Vec<u8>]) -> Result<Slot, String> {
        let side = levels
            .first()
            .map(|l| ((l.len() / 4) as f64).sqrt() as usize)
            .unwrap_or(0);
        let class = class_of(side).ok_or_else(|| format!("no texture class for side {side}"))?;
        if levels.len() != mip_levels(side)
            || levels
                .iter()
                .enumerate()
                .any(|(i, l)| l.len() != (side >> i).pow(2) * 4)
        {
            return Err(format!("a {side}×{side} texture needs its whole mip chain"));
        }
        let anisotropy = self.anisotropy;
        let c = &mut self.classes[class];
        if c.used == c.capacity {
            // SAFETY: GL calls on the caller's current context with objects this store owns.
            unsafe { grow(gl, c, anisotropy)? };
        }
        let layer = c.used;
        c.used += 1;
        // SAFETY: the array has `capacity > layer` layers of `levels.len()` levels, each level's
        // bytes were checked above.
        unsafe {
            gl.bind_texture(glow::TEXTURE_2D_ARRAY, c.texture);
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
            for (level, pixels) in levels.iter().enumerate() {
                let s = (side >> level) as i32;
                gl.tex_sub_image_3d(
                    glow::TEXTURE_2D_ARRAY,
                    level as i32,
                    0,
                    0,
                    layer as i32,
                    s,
                    s,
                    1,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    glow::PixelUnpackData::Slice(Some(pixels)),
                );
            }
            gl.bind_texture(glow::TEXTURE_2D_ARRAY, None);
        }
        Ok(Slot { class, layer })
    }
}

/// Bytes of a square RGBA texture of `side` with all its mip levels.
pub fn chain_bytes(side: usize) -> usize {
    (0..mip_levels(side)).map(|l| (side >> l).pow(2) * 4).sum()
}

/// The mip chain of a square RGBA image (`side` a power of two): level 0 as given, each next
/// level the 2×2 box average of the one before, down to 1×1.
pub fn mip_chain(side: usize, level0: Vec<u8>) -> Vec<Vec<u8>> {
    let mut levels = vec![level0];
    let mut s = side;
    while s > 1 {
        let prev = &levels[levels.len() - 1];
        let half = s / 2;
        let mut next = Vec::with_capacity(half * half * 4);
        for y in 0..half {
            for x in 0..half {
                for ch in 0..4 {
                    let at = |dx: usize, dy: usize| {
                        prev[((2 * y + dy) * s + 2 * x + dx) * 4 + ch] as u32
                    };
                    next.push(((at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1) + 2) / 4) as u8);
                }
            }
        }
        levels.push(next);
        s = half;
    }
    levels
}

/// Makes a class's array twice as large (or creates it), copying the layers already there
/// level by level through a framebuffer (GL 3.3 has no `glCopyImageSubData`).
unsafe fn grow(
    gl: &glow::Context,
    c: &mut SizeClass,
    anisotropy: Option<f32>,
) -> Result<(), String> {
    unsafe {
        let capacity = (c.capacity * 2).max(FIRST_CAPACITY);
        let levels = mip_levels(c.side);
        let texture = gl.create_texture()?;
        let t = glow::TEXTURE_2D_ARRAY;
        gl.bind_texture(t, Some(texture));
        for level in 0..levels {
            let s = (c.side >> level) as i32;
            gl.tex_image_3d(
                t,
                level as i32,
                glow::RGBA8 as i32,
                s,
                s,
                capacity as i32,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(None),
            );
        }
        gl.tex_parameter_i32(t, glow::TEXTURE_BASE_LEVEL, 0);
        gl.tex_parameter_i32(t, glow::TEXTURE_MAX_LEVEL, levels as i32 - 1);
        // Layer textures repeat across a chunk; trilinear, and anisotropic where offered, so
        // that the ground far away or at a grazing angle does not shimmer or blur.
        gl.tex_parameter_i32(t, glow::TEXTURE_WRAP_S, glow::REPEAT as i32);
        gl.tex_parameter_i32(t, glow::TEXTURE_WRAP_T, glow::REPEAT as i32);
        gl.tex_parameter_i32(
            t,
            glow::TEXTURE_MIN_FILTER,
            glow::LINEAR_MIPMAP_LINEAR as i32,
        );
        gl.tex_parameter_i32(t, glow::TEXTURE_MAG_FILTER, glow::LINEAR as i32);
        if let Some(a) = anisotropy {
            gl.tex_parameter_f32(t, TEXTURE_MAX_ANISOTROPY, a);
        }
        if let Some(old) = c.texture
            && c.used > 0
        {
            let previous = gl.get_parameter_framebuffer(glow::READ_FRAMEBUFFER_BINDING);
            let fbo = gl.create_framebuffer()?;
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(fbo));
            for level in 0..levels {
                let s = (c.side >> level) as i32;
                for layer in 0..c.used {
                    gl.framebuffer_texture_layer(
                        glow::READ_FRAMEBUFFER,
                        glow::COLOR_ATTACHMENT0,
                        Some(old),
                        level as i32,
                        layer as i32,
                    );
                    gl.copy_tex_sub_image_3d(t, level as i32, 0, 0, layer as i32, 0, 0, s, s);
                }
            }
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, previous);
            gl.delete_framebuffer(fbo);
        }
        gl.bind_texture(t, None);
        if let Some(old) = c.texture.replace(texture) {
            gl.delete_texture(old);
        }
        c.capacity = capacity;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_chains_average_down_to_one_texel() {
        let mut level0 = Vec::new();
        for y in 0..4 {
            for x in 0..4 {
                let v = if (x + y) % 2 == 0 { 0 } else { 200 };
                level0.extend([v, v, v, 255]);
            }
        }
        let chain = mip_chain(4, level0);
        assert_eq!(chain.len(), 3);
        assert_eq!(chain[1], [100, 100, 100, 255].repeat(4));
        assert_eq!(chain[2], vec![100, 100, 100, 255]);
        assert_eq!(mip_levels(512), 10);
        assert_eq!(chain_bytes(256), 349_524);
    }

    #[test]
    fn software_rasterizers_get_no_anisotropy() {
        // GL_RENDERER strings as Mesa and NVIDIA's driver report them.
        assert_eq!(
            anisotropy_for("llvmpipe (LLVM 15.0.6, 256 bits)", 16.0),
            None
        );
        assert_eq!(anisotropy_for("softpipe", 16.0), None);
        assert_eq!(
            anisotropy_for("NVIDIA H200/PCIe/SSE2", 16.0),
            Some(ANISOTROPY)
        );
        assert_eq!(
            anisotropy_for("Mesa Intel(R) UHD Graphics 620", 4.0),
            Some(4.0)
        );
    }

    #[test]
    fn keys_ignore_case_and_slashes() {
        assert_eq!(
            texture_key("Tileset/Elwynn\\Grass.BLP"),
            "tileset\\elwynn\\grass.blp"
        );
        assert_eq!(class_of(256), Some(2));
        assert_eq!(class_of(100), None);
        assert_eq!(Slot { class: 3, layer: 5 }.packed(), 0x0003_0005);
    }
}
