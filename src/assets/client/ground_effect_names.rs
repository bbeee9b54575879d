//! What a texture layer's ground effect id means, from the client's
//! `DBFilesClient\GroundEffectTexture.dbc` (the effect: up to four detail doodads, a density,
//! a footstep sound) and `GroundEffectDoodad.dbc` (each doodad's model path): the names the
//! Textures dialog, the ground-effects tools and `loam info --client` show beside a bare id.
//!
//! Layouts: 1.12, 2.4.3 and 3.3.5 through the `wow_dbc` crate's typed tables (1.12's doodad
//! ids are unsigned and its rows have no sound; 3.3.5 adds a weight per doodad). The 0.5.x and
//! 0.6.0 tables are not read: their layouts are not published, and loam shows bare ids there.

use std::collections::BTreeMap;

use wow_dbc::DbcTable;

use super::dbc::read_guarded;
use super::{ClientData, ClientGeneration};

/// The effect table's path in the client.
pub const GROUND_EFFECT_TEXTURE_DBC: &str = "DBFilesClient\\GroundEffectTexture.dbc";
/// The doodad table's path in the client.
pub const GROUND_EFFECT_DOODAD_DBC: &str = "DBFilesClient\\GroundEffectDoodad.dbc";

/// One GroundEffectTexture row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroundEffect {
    /// The id an MCLY layer stores.
    pub id: u32,
    /// Its doodads' GroundEffectDoodad ids (0 and negative entries dropped).
    pub doodads: Vec<u32>,
    /// How thickly they grow (the table's density, doodads per cell as the client reads it).
    pub density: i32,
}

/// The client's ground effects and their doodads' model paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroundEffectNames {
    effects: BTreeMap<u32, GroundEffect>,
    doodads: BTreeMap<u32, String>,
    /// Every effect's label by id, made once: the pickers show it every frame.
    labels: Vec<(u32, String)>,
}

impl GroundEffectNames {
    /// The tables in `texture` and `doodad` (the two DBC files) read with `generation`'s
    /// layout; `None` when the effect table fits no layout loam knows. A doodad table that
    /// cannot be read only leaves the model names out.
    pub fn read(
        texture: &[u8],
        doodad: Option<&[u8]>,
        generation: &ClientGeneration,
    ) -> Option<GroundEffectNames> {
        let (effects, doodads) = match generation {
            ClientGeneration::V112 => (vanilla_effects(texture)?, doodad.and_then(vanilla_doodads)),
            ClientGeneration::V243 => (tbc_effects(texture)?, doodad.and_then(tbc_doodads)),
            ClientGeneration::V335 => (wrath_effects(texture)?, doodad.and_then(wrath_doodads)),
            ClientGeneration::Unknown(_) => {
                let e = wrath_effects(texture)
                    .or_else(|| tbc_effects(texture))
                    .or_else(|| vanilla_effects(texture))?;
                let d = doodad.and_then(|d| {
                    wrath_doodads(d)
                        .or_else(|| tbc_doodads(d))
                        .or_else(|| vanilla_doodads(d))
                });
                (e, d)
            }
            ClientGeneration::Alpha | ClientGeneration::V060 => return None,
        };
        let mut names = GroundEffectNames {
            effects: effects.into_iter().map(|e| (e.id, e)).collect(),
            doodads: doodads.unwrap_or_default(),
            labels: Vec::new(),
        };
        names.labels = names
            .effects
            .keys()
            .map(|&id| (id, names.label(id)))
            .collect();
        Some(names)
    }

    /// How many effects the table holds.
    pub fn len(&self) -> usize {
        self.effects.len()
    }

    /// True when no effect is known (no client, or a table loam cannot read).
    pub fn is_empty(&self) -> bool {
        self.effects.is_empty()
    }

    /// The row of effect `id`.
    pub fn get(&self, id: u32) -> Option<&GroundEffect> {
        self.effects.get(&id)
    }

    /// The effect's doodads by model file name ("GrassTuft01, Flower02"), `None` when the
    /// table lacks the id.
    pub fn describe(&self, id: u32) -> Option<String> {
        let e = self.get(id)?;
        let names: Vec<String> = e
            .doodads
            .iter()
            .map(|d| match self.doodads.get(d) {
                Some(path) => file_stem(path),
                None => format!("doodad {d}"),
            })
            .collect();
        Some(if names.is_empty() {
            "no doodads".to_string()
        } else {
            names.join(", ")
        })
    }

    /// An effect id as the user reads it: "1963 (GrassTuft01, Flower02)", "none" for the
    /// no-effect id, or the bare number when the table does not hold it.
    pub fn label(&self, id: u32) -> String {
        if id == u32::MAX {
            return "none".to_string();
        }
        match self.describe(id) {
            Some(d) => format!("{id} ({d})"),
            None => id.to_string(),
        }
    }

    /// Every effect, (id, label), by id: the pickers' list.
    pub fn list(&self) -> &[(u32, String)] {
        &self.labels
    }
}

/// "World\\NoDXT\\Detail\\GrassTuft01.mdx" → "GrassTuft01".
fn file_stem(path: &str) -> String {
    let name = path.rsplit(['\\', '/']).next().unwrap_or(path);
    name.rsplit_once('.')
        .map_or(name, |(stem, _)| stem)
        .to_string()
}

/// Doodad ids as rows store them: 0 and negative entries are empty slots.
fn doodad_ids(ids: impl IntoIterator<Item = i64>) -> Vec<u32> {
    ids.into_iter()
        .filter_map(|d| u32::try_from(d).ok().filter(|&d| d != 0))
        .collect()
}

fn vanilla_effects(bytes: &[u8]) -> Option<Vec<GroundEffect>> {
    use wow_dbc::vanilla_tables::ground_effect_texture::GroundEffectTexture;
    let t = read_guarded(bytes, |b| GroundEffectTexture::read(&mut &b[..]).ok())?;
    Some(
        t.rows()
            .iter()
            .map(|r| GroundEffect {
                id: r.id.id,
                doodads: doodad_ids(r.doodad.iter().map(|&d| i64::from(d))),
                density: r.density,
            })
            .collect(),
    )
}

fn vanilla_doodads(bytes: &[u8]) -> Option<BTreeMap<u32, String>> {
    use wow_dbc::vanilla_tables::ground_effect_doodad::GroundEffectDoodad;
    let t = read_guarded(bytes, |b| GroundEffectDoodad::read(&mut &b[..]).ok())?;
    Some(
        t.rows()
            .iter()
            .map(|r| (r.id.id, r.doodad_path.clone()))
            .collect(),
    )
}

/// The 2.4.3 and 3.3.5 rows of both tables, from the crate's module for that generation: the
/// typed effect tables differ in 3.3.5's weights (not read here), the doodad tables not at all
/// in what is read.
macro_rules! later_tables {
    ($effects:ident, $doodads:ident, $module:ident) => {
        fn $effects(bytes: &[u8]) -> Option<Vec<GroundEffect>> {
            use wow_dbc::$module::ground_effect_texture::GroundEffectTexture;
            let t = read_guarded(bytes, |b| GroundEffectTexture::read(&mut &b[..]).ok())?;
            Some(
                t.rows()
                    .iter()
                    .filter_map(|r| {
                        Some(GroundEffect {
                            id: u32::try_from(r.id.id).ok()?,
                            doodads: doodad_ids(r.doodad_id.iter().map(|&d| i64::from(d))),
                            density: r.density,
                        })
                    })
                    .collect(),
            )
        }

        fn $doodads(bytes: &[u8]) -> Option<BTreeMap<u32, String>> {
            use wow_dbc::$module::ground_effect_doodad::GroundEffectDoodad;
            let t = read_guarded(bytes, |b| GroundEffectDoodad::read(&mut &b[..]).ok())?;
            Some(
                t.rows()
                    .iter()
                    .filter_map(|r| Some((u32::try_from(r.id.id).ok()?, r.doodadpath.clone())))
                    .collect(),
            )
        }
    };
}
later_tables!(tbc_effects, tbc_doodads, tbc_tables);
later_tables!(wrath_effects, wrath_doodads, wrath_tables);

impl ClientData {
    /// The client's ground effects; empty when it has no GroundEffectTexture.dbc or loam
    /// cannot read it (the ids then show as bare numbers).
    pub fn ground_effect_names(&self) -> GroundEffectNames {
        let Some(texture) = self.read(GROUND_EFFECT_TEXTURE_DBC).ok().flatten() else {
            return GroundEffectNames::default();
        };
        let doodad = self.read(GROUND_EFFECT_DOODAD_DBC).ok().flatten();
        GroundEffectNames::read(&texture, doodad.as_deref(), self.generation()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::client::dbc::test_table as table;

    #[test]
    fn wrath_tables_name_an_effect_by_its_doodads() {
        // GroundEffectTexture 3.3.5: ID, DoodadId[4], DoodadWeight[4], Density, Sound.
        let texture = table(
            11,
            &[[1963, 10, 11, 0, 0, 1, 1, 0, 0, 12, 3].map(Ok).to_vec()],
            &[],
        );
        // GroundEffectDoodad 3.3.5: ID, DoodadPath, Flags.
        let doodad = table(
            3,
            &[vec![Ok(10), Err(0), Ok(0)], vec![Ok(11), Err(1), Ok(0)]],
            &[
                "World\\NoDXT\\Detail\\ElwGra01.mdx",
                "World\\NoDXT\\Detail\\ElwFlo02.mdx",
            ],
        );
        let names =
            GroundEffectNames::read(&texture, Some(&doodad), &ClientGeneration::V335).unwrap();
        assert_eq!(names.len(), 1);
        assert_eq!(names.label(1963), "1963 (ElwGra01, ElwFlo02)");
        assert_eq!(names.get(1963).unwrap().density, 12);
        assert_eq!(names.label(5), "5");
        assert_eq!(names.label(u32::MAX), "none");
        // The same bytes are not a 1.12 table (which has 7 fields).
        assert_eq!(
            GroundEffectNames::read(&texture, None, &ClientGeneration::V112),
            None
        );
    }

    #[test]
    fn without_the_doodad_table_the_ids_stand_in_for_names() {
        let texture = table(
            11,
            &[[7, 4, 0, 0, 0, 1, 0, 0, 0, 5, 0].map(Ok).to_vec()],
            &[],
        );
        let names = GroundEffectNames::read(&texture, None, &ClientGeneration::V335).unwrap();
        assert_eq!(names.label(7), "7 (doodad 4)");
        assert_eq!(names.list(), [(7, "7 (doodad 4)".to_string())]);
    }
}
