//! An image's pixels as the edit layer reads them (heightmaps, alpha maps, vertex colours,
//! stamps): samples in their own width, read as fractions of full scale, sampled bilinearly.
//! Its own module so that the brush (stamps) and the imports use it without importing each
//! other.

/// An image's samples as stored, row by row, pixel by pixel, channel by channel. Kept in their
/// own width (an 8k×8k heightmap is 128 MB as 16-bit, not 512 MB as f64) and scaled only when
/// read, so that a 16-bit value v reads exactly as v / 65535.
#[derive(Debug, Clone, PartialEq)]
pub enum Samples {
    /// 8-bit samples, full scale 255.
    U8(Vec<u8>),
    /// 16-bit samples, full scale 65535.
    U16(Vec<u16>),
    /// Float samples, read as they are.
    F32(Vec<f32>),
}

/// An image's pixels as loam reads them: each sample a fraction 0..=1 of the format's full
/// scale (16-bit values as v / 65535, 8-bit as v / 255, float as stored).
#[derive(Debug, Clone, PartialEq)]
pub struct Raster {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Samples per pixel (1 grey, 3 RGB).
    pub channels: usize,
    /// The samples.
    pub samples: Samples,
}

impl Raster {
    /// Channel `c` of pixel (`x`, `y`), as a fraction of full scale.
    pub fn at(&self, x: usize, y: usize, c: usize) -> f64 {
        let i = (y * self.width + x) * self.channels + c;
        match &self.samples {
            Samples::U8(v) => f64::from(v[i]) / 255.0,
            Samples::U16(v) => f64::from(v[i]) / 65535.0,
            Samples::F32(v) => f64::from(v[i]),
        }
    }

    /// Channel `c` sampled bilinearly at pixel position (`px`, `py`) (pixel centres at whole
    /// numbers), clamped to the image: exact at whole positions.
    pub fn sample(&self, px: f64, py: f64, c: usize) -> f64 {
        let px = px.clamp(0.0, (self.width - 1) as f64);
        let py = py.clamp(0.0, (self.height - 1) as f64);
        let (x0, y0) = (px.floor() as usize, py.floor() as usize);
        let (x1, y1) = ((x0 + 1).min(self.width - 1), (y0 + 1).min(self.height - 1));
        let (fx, fy) = (px - x0 as f64, py - y0 as f64);
        let v = |x, y| self.at(x, y, c);
        if fx == 0.0 && fy == 0.0 {
            return v(x0, y0);
        }
        let top = v(x0, y0) * (1.0 - fx) + v(x1, y0) * fx;
        let bottom = v(x0, y1) * (1.0 - fx) + v(x1, y1) * fx;
        top * (1.0 - fy) + bottom * fy
    }
}
