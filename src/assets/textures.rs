//! Tileset textures: the pluggable source of a game path's bytes (loose files today, the
//! client's archives later), and bringing a decoded texture to the form the GPU store keeps
//! (square, a power of two from 64 to 512 texels).
//!
//! Not for: decoding (see `blp`) or threads (the app's texture worker calls these).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::blp::{self, Image};

/// The largest side a layer texture keeps on the GPU. Tileset textures are 256×256 (1.12) or
/// up to 512×512 (3.3.5); anything larger is averaged down, which costs no visible detail at
/// eight repeats per chunk and bounds the store at 1.4 MB per texture.
pub const MAX_TEXTURE_SIDE: usize = 512;
/// The smallest side: smaller textures are repeated up (procedural stand-ins are this size).
pub const MIN_TEXTURE_SIDE: usize = 64;

/// The bytes of a game path (`Ok(None)`: no such file; `Err`: it exists but could not be
/// read). Shared with the texture worker thread, hence `Send + Sync`.
pub type ByteSource = Arc<dyn Fn(&str) -> Result<Option<Vec<u8>>, String> + Send + Sync>;

/// A byte source over loose files under `roots` (see `search_roots` and `find`).
pub fn loose_files(roots: Vec<PathBuf>) -> ByteSource {
    Arc::new(move |name: &str| match find(name, &roots) {
        None => Ok(None),
        Some(path) => std::fs::read(&path)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
    })
}

/// Where loose files are looked for: the client data folder (when set), then the map's folder
/// and up to three folders above it (a client's `Data/World/Maps/Name/` lies three below
/// `Data/`, where `Tileset/` is).
pub fn search_roots(client_data: Option<&Path>, map_folder: &Path) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = client_data.map(Path::to_path_buf).into_iter().collect();
    roots.extend(map_folder.ancestors().take(4).map(Path::to_path_buf));
    roots
}

/// The file of game path `name` ("Tileset\\Elwynn\\Grass.blp") under one of `roots`: the path
/// as written, then in lower case (extracted clients differ in case).
pub fn find(name: &str, roots: &[PathBuf]) -> Option<PathBuf> {
    let parts: Vec<&str> = name
        .split(['\\', '/'])
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        .collect();
    if parts.is_empty() {
        return None;
    }
    for root in roots {
        for lower in [false, true] {
            let mut p = root.clone();
            for part in &parts {
                if lower {
                    p.push(part.to_ascii_lowercase());
                } else {
                    p.push(part);
                }
            }
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Averages an image down (or repeats it up) to `side`×`side` RGBA.
pub fn resample(image: &Image, side: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(side * side * 4);
    for y in 0..side {
        let (y0, y1) = (
            y * image.height / side,
            ((y + 1) * image.height / side).max(y * image.height / side + 1),
        );
        for x in 0..side {
            let (x0, x1) = (
                x * image.width / side,
                ((x + 1) * image.width / side).max(x * image.width / side + 1),
            );
            let mut sum = [0u32; 4];
            let mut n = 0;
            for sy in y0..y1.min(image.height) {
                for sx in x0..x1.min(image.width) {
                    let i = (sy * image.width + sx) * 4;
                    for (total, &v) in sum.iter_mut().zip(&image.rgba[i..i + 4]) {
                        *total += v as u32;
                    }
                    n += 1;
                }
            }
            let n = n.max(1);
            out.extend(sum.map(|s| (s / n) as u8));
        }
    }
    out
}

/// The side a texture of `width`×`height` keeps on the GPU: the power of two at or above its
/// larger side, within `MIN_TEXTURE_SIDE..=MAX_TEXTURE_SIDE`.
pub fn gpu_side(width: usize, height: usize) -> usize {
    width
        .max(height)
        .max(1)
        .next_power_of_two()
        .clamp(MIN_TEXTURE_SIDE, MAX_TEXTURE_SIDE)
}

/// A decoded texture as the GPU store keeps it: square RGBA of side `gpu_side`, unchanged when
/// it already is (every tileset texture of the classic clients).
pub fn for_gpu(image: Image) -> (usize, Vec<u8>) {
    let side = gpu_side(image.width, image.height);
    if image.width == side && image.height == side {
        return (side, image.rgba);
    }
    (side, resample(&image, side))
}

/// Reads and decodes a game path's texture for the GPU: `Ok(None)` when the source has no such
/// file, `Err` naming the path when it cannot be read or decoded.
pub fn load_texture(source: &ByteSource, name: &str) -> Result<Option<(usize, Vec<u8>)>, String> {
    let Some(bytes) = source(name)? else {
        return Ok(None);
    };
    let image = blp::decode(&bytes).map_err(|e| format!("{name}: {e}"))?;
    Ok(Some(for_gpu(image)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textures_are_found_by_game_path_in_any_case() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("tileset").join("elwynn");
        std::fs::create_dir_all(&folder).unwrap();
        let image = Image {
            width: 128,
            height: 128,
            rgba: [10u8, 200, 30, 255].repeat(128 * 128),
        };
        std::fs::write(folder.join("grass.blp"), blp::encode_raw(&image)).unwrap();
        std::fs::write(folder.join("broken.blp"), b"BLP2 but not really").unwrap();
        let roots = search_roots(None, &dir.path().join("World").join("Maps").join("X"));
        let source = loose_files(roots.clone());
        let (side, tex) = load_texture(&source, "Tileset\\Elwynn\\Grass.blp")
            .unwrap()
            .unwrap();
        assert_eq!(side, 128, "kept at its real size");
        assert_eq!(tex.len(), 128 * 128 * 4);
        assert_eq!(&tex[..4], &[10, 200, 30, 255]);
        assert_eq!(load_texture(&source, "Tileset\\Elwynn\\Dirt.blp"), Ok(None));
        let err = load_texture(&source, "Tileset\\Elwynn\\Broken.blp").unwrap_err();
        assert!(err.contains("Broken.blp"), "{err}");
        assert!(find("..\\..\\etc\\passwd", &roots).is_none());
    }

    #[test]
    fn gpu_sizes_are_powers_of_two_within_the_caps() {
        assert_eq!(gpu_side(256, 256), 256);
        assert_eq!(gpu_side(1024, 1024), 512);
        assert_eq!(gpu_side(16, 16), 64);
        assert_eq!(gpu_side(300, 128), 512);
        let big = Image {
            width: 1024,
            height: 1024,
            rgba: [9u8, 8, 7, 255].repeat(1024 * 1024),
        };
        let (side, rgba) = for_gpu(big);
        assert_eq!((side, rgba.len()), (512, 512 * 512 * 4));
        assert_eq!(&rgba[..4], &[9, 8, 7, 255]);
    }

    #[test]
    fn resampling_averages() {
        let image = Image {
            width: 2,
            height: 2,
            rgba: vec![
                0, 0, 0, 255, 200, 200, 200, 255, 0, 0, 0, 255, 200, 200, 200, 255,
            ],
        };
        assert_eq!(resample(&image, 1), vec![100, 100, 100, 255]);
        assert_eq!(resample(&image, 4).len(), 64);
    }
}
