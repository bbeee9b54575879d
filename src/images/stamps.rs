//! The stamp brushes loam ships (`resources/sample/stamps/`, written by `loam sample`): grey
//! images drawn from formulas alone, 128×128, white full strength. The editor's tool panel
//! offers them; any other grey image works the same (`edit::terrain::brush::StampMask`).

/// Pixels along a bundled stamp's side.
pub const STAMP_PIXELS: usize = 128;

/// The folder under the sample's that holds them.
pub const STAMP_FOLDER: &str = "stamps";

/// A stamp's strength at (u east, v south), each -1..1 across the image.
type Shape = fn(f64, f64) -> f64;

/// Each bundled stamp: its file name and its PNG bytes.
pub fn bundled_stamps() -> Vec<(String, Vec<u8>)> {
    let shapes: [(&str, Shape); 5] = [
        ("crater.png", crater),
        ("ridge.png", ridge),
        ("mesa.png", mesa),
        ("dunes.png", dunes),
        ("rocks.png", rocks),
    ];
    shapes
        .iter()
        .map(|(name, f)| {
            let n = STAMP_PIXELS;
            let values: Vec<u8> = (0..n * n)
                .map(|i| {
                    // u east, v south, each -1..1 across the image.
                    let u = (i % n) as f64 / (n - 1) as f64 * 2.0 - 1.0;
                    let v = (i / n) as f64 / (n - 1) as f64 * 2.0 - 1.0;
                    (f(u, v).clamp(0.0, 1.0) * 255.0).round() as u8
                })
                .collect();
            let png = super::io::grey8_png(n, &values).expect("a formula's pixels encode");
            (name.to_string(), png)
        })
        .collect()
}

/// Fades to nothing at the image's edge circle, so that a stamp leaves no square mark.
fn fade(u: f64, v: f64) -> f64 {
    let r = (u * u + v * v).sqrt();
    let t = ((1.0 - r) / 0.25).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A raised ring around a hollow.
fn crater(u: f64, v: f64) -> f64 {
    let r = (u * u + v * v).sqrt();
    (-((r - 0.55) / 0.18).powi(2)).exp() * fade(u, v)
}

/// A north–south ridge with a rounded crest, fading at both ends.
fn ridge(u: f64, v: f64) -> f64 {
    let across = (-(u / 0.28).powi(2)).exp();
    let along = 1.0 - (v.abs() / 0.95).powi(4);
    across * along.max(0.0) * fade(u * 0.5, v)
}

/// A flat top with steep, soft sides.
fn mesa(u: f64, v: f64) -> f64 {
    let r = (u * u + v * v).sqrt();
    let t = ((0.75 - r) / 0.2).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Waves running east–west under a round fade.
fn dunes(u: f64, v: f64) -> f64 {
    (0.5 + 0.5 * (v * 9.0 + 1.5 * (u * 3.0).sin()).sin()) * fade(u, v)
}

/// A cluster of round boulders of several sizes.
fn rocks(u: f64, v: f64) -> f64 {
    const BLOBS: [(f64, f64, f64, f64); 7] = [
        (-0.35, -0.3, 0.22, 1.0),
        (0.3, -0.35, 0.16, 0.8),
        (0.1, 0.15, 0.28, 0.95),
        (-0.45, 0.35, 0.14, 0.7),
        (0.5, 0.3, 0.12, 0.6),
        (-0.05, -0.6, 0.1, 0.5),
        (0.6, -0.05, 0.09, 0.55),
    ];
    BLOBS
        .iter()
        .map(|&(x, y, r, h)| {
            h * (1.0 - ((u - x).powi(2) + (v - y).powi(2)) / (r * r))
                .max(0.0)
                .sqrt()
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stamp_is_a_grey_image_black_at_its_corners() {
        for (name, png) in bundled_stamps() {
            let image = image::load_from_memory(&png).unwrap().to_luma8();
            assert_eq!(image.dimensions(), (128, 128), "{name}");
            assert_eq!(image.get_pixel(0, 0).0[0], 0, "{name}: no square mark");
            assert!(
                image.pixels().any(|p| p.0[0] > 200),
                "{name} has a strong part"
            );
        }
    }
}
