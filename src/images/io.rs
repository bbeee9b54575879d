//! Image files ⇄ [`Raster`]: any grey, RGB or RGBA image the `image` crate reads (PNG of 8 or
//! 16 bits a channel, TIFF, float formats), and PNG written atomically (16-bit grey for
//! heights, 8-bit grey for alpha maps, 8-bit RGB for vertex colours).

use std::io::Cursor;
use std::path::Path;

use image::{DynamicImage, ImageBuffer, ImageFormat, Luma, Rgb};

use crate::disk::{self, LoamError, Result};
use crate::edit::images::heightmap::{Raster, Samples};

/// The largest image loam reads, in pixels a side: a whole 64×64-tile map at the heightmap's
/// own 256 pixels a tile, and a margin.
pub const MAX_SIDE: u32 = 64 * 256 + 1024;

/// The most memory one decoded image may take, in bytes.
pub const MAX_ALLOC: u64 = 960 << 20;

/// Reads the image at `path` as fractions of its format's full scale: grey images give one
/// channel, colour images three (alpha dropped). Errors name the file.
pub fn read_raster(path: &Path) -> Result<Raster> {
    let bytes = std::fs::read(path).map_err(disk::io_err(path))?;
    decode_raster(&bytes).map_err(|why| LoamError::Usage(format!("{}: {why}", path.display())))
}

/// [`read_raster`] of bytes in memory: any format the `image` crate knows by its bytes, at most
/// [`MAX_SIDE`] pixels a side.
pub fn decode_raster(bytes: &[u8]) -> std::result::Result<Raster, String> {
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    // A whole map's 16-bit grey heightmap (16,385² pixels, 512 MiB) fits; a header claiming
    // more is refused before anything is allocated.
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let image = reader
        .decode()
        .map_err(|e| format!("not an image loam reads ({e})"))?;
    Ok(raster_of(image))
}

/// The samples of a decoded image (see [`read_raster`]): grey images one channel (alpha
/// dropped), colour images three, in their own width. Grey buffers are taken, not copied.
pub fn raster_of(image: DynamicImage) -> Raster {
    let (width, height) = (image.width() as usize, image.height() as usize);
    let (channels, samples) = match image {
        DynamicImage::ImageLuma8(b) => (1, Samples::U8(b.into_raw())),
        DynamicImage::ImageLumaA8(_) => (1, Samples::U8(image.to_luma8().into_raw())),
        DynamicImage::ImageLuma16(b) => (1, Samples::U16(b.into_raw())),
        DynamicImage::ImageLumaA16(_) => (1, Samples::U16(image.to_luma16().into_raw())),
        DynamicImage::ImageRgb16(_) | DynamicImage::ImageRgba16(_) => {
            (3, Samples::U16(image.to_rgb16().into_raw()))
        }
        DynamicImage::ImageRgb32F(_) | DynamicImage::ImageRgba32F(_) => {
            (3, Samples::F32(image.to_rgb32f().into_raw()))
        }
        _ => (3, Samples::U8(image.to_rgb8().into_raw())),
    };
    Raster {
        width,
        height,
        channels,
        samples,
    }
}

/// Writes `values` (row by row, `width` a row) as a 16-bit grey PNG at `path`.
pub fn write_grey16(path: &Path, width: usize, values: &[u16]) -> Result<()> {
    let height = values.len() / width.max(1);
    let buffer: ImageBuffer<Luma<u16>, Vec<u16>> =
        ImageBuffer::from_raw(width as u32, height as u32, values.to_vec())
            .ok_or_else(|| LoamError::Usage(format!("{}: no pixels", path.display())))?;
    write_png(path, &DynamicImage::ImageLuma16(buffer))
}

/// Writes `values` as an 8-bit grey PNG at `path`.
pub fn write_grey8(path: &Path, width: usize, values: &[u8]) -> Result<()> {
    disk::write_atomic(
        path,
        &grey8_png(width, values)
            .map_err(|e| LoamError::Usage(format!("{}: {e}", path.display())))?,
    )
}

/// `values` (row by row, `width` a row) as the bytes of an 8-bit grey PNG.
pub fn grey8_png(width: usize, values: &[u8]) -> std::result::Result<Vec<u8>, String> {
    let height = values.len() / width.max(1);
    let buffer: ImageBuffer<Luma<u8>, Vec<u8>> =
        ImageBuffer::from_raw(width as u32, height as u32, values.to_vec())
            .ok_or_else(|| "no pixels".to_string())?;
    let mut bytes = Cursor::new(Vec::new());
    DynamicImage::ImageLuma8(buffer)
        .write_to(&mut bytes, ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(bytes.into_inner())
}

/// Writes `values` as a 32-bit float TIFF at `path`, each value in all three channels (the
/// `image` crate writes float TIFF as RGB only; loam reads the first channel back).
pub fn write_float_tiff(path: &Path, width: usize, values: &[f32]) -> Result<()> {
    let height = values.len() / width.max(1);
    let rgb: Vec<f32> = values.iter().flat_map(|&v| [v, v, v]).collect();
    let buffer: ImageBuffer<Rgb<f32>, Vec<f32>> =
        ImageBuffer::from_raw(width as u32, height as u32, rgb)
            .ok_or_else(|| LoamError::Usage(format!("{}: no pixels", path.display())))?;
    let mut bytes = Cursor::new(Vec::new());
    DynamicImage::ImageRgb32F(buffer)
        .write_to(&mut bytes, ImageFormat::Tiff)
        .map_err(|e| LoamError::Usage(format!("{}: {e}", path.display())))?;
    disk::write_atomic(path, bytes.get_ref())
}

/// Writes `rgb` (three bytes a pixel) as an 8-bit RGB PNG at `path`.
pub fn write_rgb8(path: &Path, width: usize, rgb: &[u8]) -> Result<()> {
    let height = rgb.len() / 3 / width.max(1);
    let buffer: ImageBuffer<Rgb<u8>, Vec<u8>> =
        ImageBuffer::from_raw(width as u32, height as u32, rgb.to_vec())
            .ok_or_else(|| LoamError::Usage(format!("{}: no pixels", path.display())))?;
    write_png(path, &DynamicImage::ImageRgb8(buffer))
}

fn write_png(path: &Path, image: &DynamicImage) -> Result<()> {
    let mut bytes = Cursor::new(Vec::new());
    image
        .write_to(&mut bytes, ImageFormat::Png)
        .map_err(|e| LoamError::Usage(format!("{}: {e}", path.display())))?;
    disk::write_atomic(path, bytes.get_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_bit_grey_round_trips_exactly_and_rgb_reads_as_three_channels() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("h.png");
        let values: Vec<u16> = (0..12).map(|i| i * 5000 + 3).collect();
        write_grey16(&p, 4, &values).unwrap();
        let r = read_raster(&p).unwrap();
        assert_eq!((r.width, r.height, r.channels), (4, 3, 1));
        assert_eq!(r.samples, Samples::U16(values));
        let c = dir.path().join("c.png");
        write_rgb8(&c, 2, &[0, 127, 255, 1, 2, 3]).unwrap();
        let r = read_raster(&c).unwrap();
        assert_eq!((r.width, r.height, r.channels), (2, 1, 3));
        assert_eq!(r.samples, Samples::U8(vec![0, 127, 255, 1, 2, 3]));
    }

    #[test]
    fn a_float_tiff_reads_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("h.tif");
        let pixels = vec![0.25f32, 0.25, 0.25, 0.875, 0.875, 0.875];
        let buffer: ImageBuffer<Rgb<f32>, Vec<f32>> =
            ImageBuffer::from_raw(2, 1, pixels.clone()).unwrap();
        DynamicImage::ImageRgb32F(buffer).save(&p).unwrap();
        let r = read_raster(&p).unwrap();
        assert_eq!(r.samples, Samples::F32(pixels));
        assert_eq!(r.at(1, 0, 0), 0.875);
    }

    #[test]
    fn what_is_not_an_image_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x_1_2_height.png");
        std::fs::write(&p, b"\x89PNG\r\n\x1a\nnot really").unwrap();
        let e = read_raster(&p).unwrap_err().to_string();
        assert!(e.contains("x_1_2_height.png"), "{e}");
    }
}
