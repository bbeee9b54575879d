//! Doodad (M2/MDX) and WMO placements in world coordinates.

/// A placed doodad (MDDF record).
#[derive(Debug, Clone, PartialEq)]
pub struct DoodadPlacement {
    /// Index into the tile's doodad model name list.
    pub name_index: u32,
    /// Map-wide unique id; the client uses it to avoid drawing a placement twice.
    pub unique_id: u32,
    /// World position (x north, y west, z up).
    pub position: [f64; 3],
    /// Rotation in degrees, as the record stores it (about the record's x, y, z axes).
    pub rotation: [f32; 3],
    /// Scale, 1024 = 1.0.
    pub scale: u16,
    /// MDDF flags.
    pub flags: u16,
}

impl DoodadPlacement {
    /// Scale as a factor.
    pub fn scale_factor(&self) -> f32 {
        doodad_scale_factor(self.scale) as f32
    }
}

/// What an MDDF scale of 1024 stands for: the model at its own size.
const DOODAD_SCALE_ONE: f64 = 1024.0;

/// The size factor an MDDF scale stands for (1024 = 1).
pub fn doodad_scale_factor(record: u16) -> f64 {
    f64::from(record) / DOODAD_SCALE_ONE
}

/// The MDDF scale of size factor `factor`, to the nearest 1/1024 and kept within what the
/// field holds; never 0, which the client would not draw.
pub fn doodad_scale_record(factor: f64) -> u16 {
    (factor * DOODAD_SCALE_ONE).round().clamp(1.0, 65535.0) as u16
}

/// True for a size factor an MDDF scale holds, 1/1024 to just under 64; scripts refuse others
/// rather than have them clamped.
pub fn doodad_scale_fits(factor: f64) -> bool {
    factor.is_finite() && (1.0 / DOODAD_SCALE_ONE..64.0).contains(&factor)
}

/// A placed WMO (MODF record).
#[derive(Debug, Clone, PartialEq)]
pub struct WmoPlacement {
    /// Index into the tile's WMO name list (the map's for a WMO-only map).
    pub name_index: u32,
    /// Map-wide unique id.
    pub unique_id: u32,
    /// World position (x north, y west, z up).
    pub position: [f64; 3],
    /// Rotation in degrees, as the record stores it.
    pub rotation: [f32; 3],
    /// World-space bounding box minimum.
    pub bounds_min: [f64; 3],
    /// World-space bounding box maximum.
    pub bounds_max: [f64; 3],
    /// MODF flags.
    pub flags: u16,
    /// Doodad set to show.
    pub doodad_set: u16,
    /// Name set.
    pub name_set: u16,
    /// The last u16 of the record: padding in 3.3.5, scale in later clients.
    pub scale: u16,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doodad_scale_is_stored_in_1024ths_and_never_zero() {
        assert_eq!(doodad_scale_record(1.0), 1024);
        assert_eq!(doodad_scale_record(0.5), 512);
        assert_eq!(
            doodad_scale_record(1.0 + 0.4 / 1024.0),
            1024,
            "to the nearest step"
        );
        assert_eq!(doodad_scale_record(0.0), 1, "the client draws no scale 0");
        assert_eq!(doodad_scale_record(100.0), 65535);
        assert_eq!(doodad_scale_factor(1536), 1.5);
        for record in [1, 512, 1024, 65535] {
            assert_eq!(doodad_scale_record(doodad_scale_factor(record)), record);
        }
    }

    #[test]
    fn only_factors_the_field_holds_fit() {
        assert!(doodad_scale_fits(1.0 / 1024.0) && doodad_scale_fits(63.99));
        assert!(!doodad_scale_fits(64.0) && !doodad_scale_fits(0.0005));
        assert!(!doodad_scale_fits(f64::NAN) && !doodad_scale_fits(f64::INFINITY));
    }
}
