//! The liquids a 3.3.5 client knows, for the liquid tools' kind list: the rows of
//! `DBFilesClient\LiquidType.dbc` (id, name, first texture), read with `wow_dbc`'s 3.3.5 table.
//!
//! Only 3.3.5 maps store LiquidType ids (MH2O); 1.12 and older store one of four classic kinds in
//! MCLQ, so older clients' tables are not read: their kind list is the classic four.
//!
//! Not for: the liquid edit itself (see `edit::liquid`).

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
