//! Stand-in textures for when no client data is configured: every texture path gets a stable
//! colour derived from its name and a little grain, so layers stay tellable apart.
//!
//! Used by the editor's texture store and the minimap alike. Not for: decoding real BLP
//! textures (`assets::blp`).

/// Side length of a procedural texture.
pub const PROCEDURAL_SIDE: usize = 64;

/// FNV-1a over the path, case- and slash-insensitive as the client treats paths.
pub fn name_hash(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        let b = match b.to_ascii_lowercase() {
            b'/' => b'\\',
            other => other,
        };
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Converts a hue (0..1), saturation and value to RGB bytes.
fn hsv(h: f32, s: f32, v: f32) -> [u8; 3] {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - f * s), v * (1.0 - (1.0 - f) * s));
    let (r, g, b) = match i as i32 % 6 {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    [r, g, b].map(|c| (c * 255.0).round().clamp(0.0, 255.0) as u8)
}

/// The base colour of a texture path: any hue, muted saturation, mid brightness, so that
/// lighting and vertex colours still read on top of it and neighbours stay tellable apart.
pub fn name_color(name: &str) -> [u8; 3] {
    let h = name_hash(name);
    let hue = (h & 0xFFFF) as f32 / 65536.0;
    let sat = 0.3 + ((h >> 16) & 0xFF) as f32 / 255.0 * 0.35;
    let val = 0.5 + ((h >> 24) & 0xFF) as f32 / 255.0 * 0.3;
    hsv(hue, sat, val)
}

/// A 64×64 RGBA texture for a path: its colour with a hashed grain pattern (±12%) so that
/// surfaces show scale and motion; identical for identical names.
pub fn procedural_texture(name: &str) -> Vec<u8> {
    let base = name_color(name);
    let seed = name_hash(name);
    let mut out = Vec::with_capacity(PROCEDURAL_SIDE * PROCEDURAL_SIDE * 4);
    for y in 0..PROCEDURAL_SIDE {
        for x in 0..PROCEDURAL_SIDE {
            // Coarse 8×8 cells plus fine per-texel noise, both from a cheap integer hash.
            let cell = mix(seed ^ ((x / 8) as u64) << 8 ^ ((y / 8) as u64) << 20);
            let fine = mix(seed ^ (x as u64) << 32 ^ (y as u64) << 44);
            let grain = ((cell & 0xFF) as f32 / 255.0 - 0.5) * 0.16
                + ((fine & 0xFF) as f32 / 255.0 - 0.5) * 0.08;
            for c in base {
                out.push((c as f32 * (1.0 + grain)).round().clamp(0.0, 255.0) as u8);
            }
            out.push(255);
        }
    }
    out
}

/// A 64-bit finaliser (splitmix64) to scatter neighbouring inputs.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_name_gives_the_same_texture() {
        assert_eq!(
            procedural_texture("Tileset\\Grass.blp"),
            procedural_texture("tileset/grass.BLP")
        );
        assert_eq!(procedural_texture("x").len(), 64 * 64 * 4);
    }

    #[test]
    fn different_names_give_different_colours() {
        let names = [
            "Tileset\\Elwynn\\ElwynnGrassBase.blp",
            "Tileset\\Elwynn\\ElwynnDirtBase.blp",
            "Tileset\\Elwynn\\ElwynnRockBase.blp",
            "Tileset\\Elwynn\\ElwynnCobblestoneBase.blp",
        ];
        let colors: Vec<_> = names.iter().map(|n| name_color(n)).collect();
        for i in 0..colors.len() {
            for j in i + 1..colors.len() {
                let d: i32 = (0..3)
                    .map(|c| (colors[i][c] as i32 - colors[j][c] as i32).abs())
                    .sum();
                assert!(d > 20, "{} vs {}", names[i], names[j]);
            }
        }
    }
}
