//! Finding a tileset texture by its game path among loose files and reducing it to the size the
//! terrain renderer keeps per layer.

use std::path::{Path, PathBuf};

use super::blp::{self, Image};

/// Side length of the layer textures handed to the renderer.
pub const LAYER_TEXTURE_SIDE: usize = 64;

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

/// The layer texture for game path `name` from loose files, ready for the renderer; `None`
/// when no file is found or it does not decode.
pub fn load_layer_texture(name: &str, roots: &[PathBuf]) -> Option<Vec<u8>> {
    let path = find(name, roots)?;
    let bytes = std::fs::read(path).ok()?;
    let image = blp::decode(&bytes).ok()?;
    Some(resample(&image, LAYER_TEXTURE_SIDE))
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
        let roots = search_roots(None, &dir.path().join("World").join("Maps").join("X"));
        let tex = load_layer_texture("Tileset\\Elwynn\\Grass.blp", &roots).unwrap();
        assert_eq!(tex.len(), 64 * 64 * 4);
        assert_eq!(&tex[..4], &[10, 200, 30, 255]);
        assert!(load_layer_texture("Tileset\\Elwynn\\Dirt.blp", &roots).is_none());
        assert!(find("..\\..\\etc\\passwd", &roots).is_none());
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
