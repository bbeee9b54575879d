//! The liquids a 3.3.5 client knows, for the liquid tools' kind list: the rows of
//! `DBFilesClient\LiquidType.dbc` (id, name, first texture), read with `wow_dbc`'s 3.3.5 table.
//!
//! Only 3.3.5 maps store LiquidType ids (MH2O); 1.12 and older store one of four classic kinds in
//! MCLQ, so older clients' tables are not read: their kind list is the classic four.
//!
//! Not for: the liquid edit itself (see `edit::terrain::liquid`).

use wow_dbc::DbcTable;

use super::{ClientData, ClientGeneration};

/// Where the client keeps the liquid table.
pub const LIQUID_TYPE_DBC: &str = "DBFilesClient\\LiquidType.dbc";

/// One row of LiquidType.dbc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientLiquid {
    /// The LiquidType id MH2O stores.
    pub id: u16,
    /// Its name ("Slow Water").
    pub name: String,
    /// Its first texture path, when it names one (`XTextures\river\lake_a.%d.blp`).
    pub texture: Option<String>,
}

/// The rows of a LiquidType.dbc in the 3.3.5 layout, sorted by id; `None` when the bytes are
/// not that table. Ids beyond u16 (which MH2O cannot store) are left out.
pub fn read_liquid_table(bytes: &[u8]) -> Option<Vec<ClientLiquid>> {
    let table = super::dbc::read_guarded(bytes, |bytes| {
        wow_dbc::wrath_tables::liquid_type::LiquidType::read(&mut &bytes[..]).ok()
    })?;
    let mut rows: Vec<ClientLiquid> = table
        .rows()
        .iter()
        .filter_map(|r| {
            Some(ClientLiquid {
                id: u16::try_from(r.id.id).ok()?,
                name: r.name.clone(),
                texture: r.texture.iter().find(|t| !t.is_empty()).cloned(),
            })
        })
        .collect();
    rows.sort_by_key(|r| r.id);
    Some(rows)
}

/// The texture the classic clients draw each kind with (water, ocean, magma, slime), the first
/// frame of each animation: the paths every classic client's LiquidType rows 1 to 4 name.
pub const CLASSIC_TEXTURES: [&str; 4] = [
    "XTextures\\river\\lake_a.1.blp",
    "XTextures\\ocean\\ocean_h.1.blp",
    "XTextures\\lava\\lava.1.blp",
    "XTextures\\slime\\slime.1.blp",
];

/// The texture to draw each classic kind with: the first frame of LiquidType rows 1 to 4's
/// texture when `types` has them (a `%d` in the path is the frame number), else the classic
/// path.
pub fn kind_textures(types: &[ClientLiquid]) -> [String; 4] {
    std::array::from_fn(|k| {
        types
            .iter()
            .find(|t| t.id as usize == k + 1)
            .and_then(|t| t.texture.as_ref())
            .map_or_else(|| CLASSIC_TEXTURES[k].to_string(), |t| t.replace("%d", "1"))
    })
}

/// The classic kinds' texture animations (water, ocean, magma, slime): `%d` is the frame.
pub const CLASSIC_PATTERNS: [&str; 4] = [
    "XTextures\\river\\lake_a.%d.blp",
    "XTextures\\ocean\\ocean_h.%d.blp",
    "XTextures\\lava\\lava.%d.blp",
    "XTextures\\slime\\slime.%d.blp",
];

/// Frames of a liquid texture animation, numbered 1 to 30 in the paths: Noggit3 loads
/// `%d` = 1..=30 of LiquidType's texture (`liquid_render::add_liquid_id`).
pub const LIQUID_FRAMES: u32 = 30;

/// Milliseconds each frame shows: Noggit3's `liquid_render::get_texture_index` takes frame
/// `animtime / 60 % count` of a millisecond clock, a cycle of 1.8 s.
pub const LIQUID_FRAME_MS: f64 = 60.0;

/// The frame number (1..=30, as in the paths) shown `seconds` into the animation.
pub fn liquid_frame(seconds: f64) -> u32 {
    let n = (seconds * 1000.0 / LIQUID_FRAME_MS).floor() as i64;
    n.rem_euclid(i64::from(LIQUID_FRAMES)) as u32 + 1
}

/// A pattern's path for frame `frame` (`%d` replaced; a path without `%d` is one still frame).
pub fn frame_path(pattern: &str, frame: u32) -> String {
    pattern.replace("%d", &frame.to_string())
}

/// Every frame's path of a pattern (just the path when it names no frame).
pub fn frame_paths(pattern: &str) -> Vec<String> {
    if !pattern.contains("%d") {
        return vec![pattern.to_string()];
    }
    (1..=LIQUID_FRAMES)
        .map(|f| frame_path(pattern, f))
        .collect()
}

/// Each classic kind's texture animation: LiquidType rows 1 to 4's texture when `types` has
/// them, else the classic pattern.
pub fn kind_patterns(types: &[ClientLiquid]) -> [String; 4] {
    std::array::from_fn(|k| {
        types
            .iter()
            .find(|t| t.id as usize == k + 1)
            .and_then(|t| t.texture.clone())
            .unwrap_or_else(|| CLASSIC_PATTERNS[k].to_string())
    })
}

impl ClientData {
    /// The liquids of a 3.3.5 (or unrecognised) client's LiquidType.dbc; empty for older
    /// clients and when the table is missing or unreadable.
    pub fn liquid_types(&self) -> Vec<ClientLiquid> {
        if !matches!(
            self.generation(),
            ClientGeneration::V335 | ClientGeneration::Unknown(_)
        ) {
            return Vec::new();
        }
        self.read(LIQUID_TYPE_DBC)
            .ok()
            .flatten()
            .and_then(|b| read_liquid_table(&b))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn liquid_frames_cycle_at_the_clients_rate() {
        assert_eq!(liquid_frame(0.0), 1);
        assert_eq!(liquid_frame(0.059), 1);
        assert_eq!(liquid_frame(0.060), 2);
        // Half a second later: frame 1 + 8 (500 / 60 = 8.3).
        assert_eq!(liquid_frame(0.5), 9);
        // 30 frames of 60 ms: the cycle repeats after 1.8 s.
        assert_eq!(liquid_frame(1.79), 30);
        assert_eq!(liquid_frame(1.8), 1);
        assert_eq!(liquid_frame(-0.01), 30);
        let lake = kind_patterns(&[])[0].clone();
        assert_eq!(lake, "XTextures\\river\\lake_a.%d.blp");
        assert_eq!(frame_path(&lake, 9), "XTextures\\river\\lake_a.9.blp");
        assert_eq!(frame_paths(&lake).len(), 30);
        assert_eq!(frame_paths(&lake)[29], "XTextures\\river\\lake_a.30.blp");
        assert_eq!(
            frame_paths("XTextures\\still.blp"),
            ["XTextures\\still.blp"]
        );
        let own = [ClientLiquid {
            id: 2,
            name: "Ocean".into(),
            texture: Some("XTextures\\custom\\sea.%d.blp".into()),
        }];
        assert_eq!(kind_patterns(&own)[1], "XTextures\\custom\\sea.%d.blp");
        assert_eq!(kind_patterns(&own)[2], CLASSIC_PATTERNS[2]);
    }

    /// A 3.3.5 LiquidType.dbc (45 fields, 180-byte records) laid out as the client's: id, name,
    /// …, the six texture strings at fields 15..21.
    fn liquid_dbc(rows: &[(u32, &str, &str)]) -> Vec<u8> {
        let mut strings = vec![0u8];
        let mut records = Vec::new();
        for (id, name, texture) in rows {
            let mut record = [0u32; 45];
            record[0] = *id;
            record[1] = strings.len() as u32;
            strings.extend_from_slice(name.as_bytes());
            strings.push(0);
            if !texture.is_empty() {
                record[15] = strings.len() as u32;
                strings.extend_from_slice(texture.as_bytes());
                strings.push(0);
            }
            records.extend(record);
        }
        let mut out = b"WDBC".to_vec();
        for v in [rows.len() as u32, 45, 180, strings.len() as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in records {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&strings);
        out
    }

    #[test]
    fn the_rows_come_with_names_and_textures_sorted_by_id() {
        let bytes = liquid_dbc(&[
            (5, "Slow Water", "XTextures\\river\\lake_a.%d.blp"),
            (1, "Water", "XTextures\\river\\lake_a.%d.blp"),
            (100000, "Too big for MH2O", ""),
            (19, "WMO Magma", ""),
        ]);
        let rows = read_liquid_table(&bytes).expect("a 3.3.5 table");
        let ids: Vec<u16> = rows.iter().map(|r| r.id).collect();
        assert_eq!(ids, [1, 5, 19]);
        assert_eq!(rows[1].name, "Slow Water");
        assert_eq!(
            rows[1].texture.as_deref(),
            Some("XTextures\\river\\lake_a.%d.blp")
        );
        assert_eq!(rows[2].texture, None);
        assert_eq!(read_liquid_table(b"WDBC not a table"), None);
        // Row 1 names water's texture; the others fall back to the classic paths.
        let textures = kind_textures(&rows);
        assert_eq!(textures[0], "XTextures\\river\\lake_a.1.blp");
        assert_eq!(textures[2], CLASSIC_TEXTURES[2]);
        let own = [ClientLiquid {
            id: 3,
            name: "Magma".into(),
            texture: Some("XTextures\\custom\\fire.%d.blp".into()),
        }];
        assert_eq!(kind_textures(&own)[2], "XTextures\\custom\\fire.1.blp");
    }
}
