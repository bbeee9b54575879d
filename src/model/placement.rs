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
        self.scale as f32 / 1024.0
    }
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
