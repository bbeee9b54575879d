//! Biomes: a named kind of ground — texture rules, a scatter palette with its settings and,
//! if wanted, an erosion — laid by one brush stroke as one undo step: first the erosion, then
//! the rules over the eroded ground, then the palette's objects on it. Biomes are kept and
//! moved between machines as brush presets and palettes are (a file `{"biomes": [...]}`); a
//! few ship with loam.
//!
//! Here at the root of `edit` because a biome spans two rooms: the ground (`terrain::erosion`,
//! `terrain::rules_ops`) and the objects (`objects::scatter_ops`). The room: this module is
//! what a biome is, its file and the shipped ones; [`lay`] lays one along a stroke (the
//! editor's dabs and the operation alike); [`op`] is the `biome` operation of an `OPS.json`.
//!
//! Not for: where biomes are kept or shown in the editor.

use serde::{Deserialize, Serialize};

use crate::edit::objects::scatter_ops::{PaletteModel, ScatterBrush};
use crate::edit::terrain::erosion::Erosion;
use crate::edit::terrain::rules::Rule;
use crate::edit::terrain::rules_ops;

pub mod lay;
pub mod op;

pub use lay::{ObjectSources, apply};
pub use op::BiomeOp;

/// A named kind of ground.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Biome {
    /// The name the list shows.
    pub name: String,
    /// The texture rules, the ground first (none: the texturing is left alone).
    #[serde(default)]
    pub rules: Vec<Rule>,
    /// The models scattered (none: no objects).
    #[serde(default)]
    pub palette: Vec<PaletteModel>,
    /// How they are scattered.
    #[serde(default)]
    pub scatter: ScatterBrush,
    /// An erosion run before the rules (none: the heights are left alone).
    #[serde(default)]
    pub erosion: Option<Erosion>,
}

impl Biome {
    /// What is wrong with the biome, if anything.
    pub fn check(&self) -> Result<(), String> {
        if !self.rules.is_empty() {
            rules_ops::check_rules(&self.rules)?;
        }
        if !self.palette.is_empty() {
            use crate::edit::objects::scatter_ops::ObjectBrushOp;
            // The settings are checked as scattering checks them, with a stand-in circle.
            match self.scatter.op(&self.palette, vec![[0.0; 2]], 10.0, 0) {
                ObjectBrushOp::Erase(_) => {
                    return Err(format!(
                        "biome \"{}\": its scatter erases objects; a biome places them",
                        self.name
                    ));
                }
                ObjectBrushOp::Scatter(op) => {
                    op.settings()
                        .map_err(|e| format!("biome \"{}\": {e}", self.name))?;
                }
            }
        }
        if self.rules.is_empty() && self.palette.is_empty() && self.erosion.is_none() {
            return Err(format!(
                "biome \"{}\" has no rules, palette or erosion",
                self.name
            ));
        }
        Ok(())
    }
}

/// A biome file: what Export writes and Import reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BiomeFile {
    /// The biomes, in the list's order.
    pub biomes: Vec<Biome>,
}

impl BiomeFile {
    /// Reads a biome file's text; an error says what the file should look like.
    pub fn parse(text: &str) -> Result<BiomeFile, String> {
        let file: BiomeFile = serde_json::from_str(text).map_err(|e| {
            format!(r#"not a biome file ({e}); a biome file is {{"biomes": [{{"name": ..., "rules": [...], "palette": [...], "scatter": {{...}}, "erosion": {{...}}}}]}}"#)
        })?;
        for b in &file.biomes {
            b.check()?;
        }
        Ok(file)
    }
}

/// The shipped biome named `name` (case aside), if there is one.
pub fn shipped_named(name: &str) -> Option<Biome> {
    shipped()
        .into_iter()
        .find(|b| b.name.eq_ignore_ascii_case(name))
}

/// The biomes loam ships, over the sample's textures and models.
pub fn shipped() -> Vec<Biome> {
    let rule = |texture: &str, slope: Option<[f32; 2]>, height: Option<[f32; 2]>, blend| Rule {
        texture: texture.to_string(),
        slope,
        height,
        noise: None,
        blend,
    };
    let model = |path: &str, weight| PaletteModel {
        model: path.to_string(),
        weight,
        scale: None,
    };
    vec![
        Biome {
            name: "Weathered hills".into(),
            rules: vec![
                rule("Tileset\\Loam\\Sample\\Grass06.blp", None, None, 0.0),
                rule(
                    "Tileset\\Loam\\Sample\\Dirt77.blp",
                    Some([18.0, 90.0]),
                    None,
                    4.0,
                ),
                rule(
                    "Tileset\\Loam\\Sample\\Rock10.blp",
                    Some([32.0, 90.0]),
                    None,
                    6.0,
                ),
            ],
            palette: vec![
                model("World\\Loam\\Sample\\Tree01.m2", 3.0),
                model("World\\Loam\\Sample\\Boulder01.m2", 1.0),
            ],
            scatter: ScatterBrush {
                density: 3.0,
                spacing: 6.0,
                max_slope: Some(25.0),
                ..ScatterBrush::default()
            },
            erosion: Some(Erosion::Thermal {
                talus: 38.0,
                iterations: 60,
            }),
        },
        Biome {
            name: "Sandy shore".into(),
            rules: vec![
                rule("Tileset\\Loam\\Sample\\Sand51.blp", None, None, 0.0),
                rule(
                    "Tileset\\Loam\\Sample\\Grass06.blp",
                    None,
                    Some([6.0, 10_000.0]),
                    3.0,
                ),
            ],
            palette: vec![model("World\\Loam\\Sample\\Boulder01.m2", 1.0)],
            scatter: ScatterBrush {
                density: 0.5,
                spacing: 10.0,
                ..ScatterBrush::default()
            },
            erosion: None,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_biome_file_round_trips_and_a_wrong_one_says_the_shape() {
        let file = BiomeFile { biomes: shipped() };
        let text = serde_json::to_string_pretty(&file).unwrap();
        assert_eq!(BiomeFile::parse(&text).unwrap(), file);
        let e = BiomeFile::parse(r#"{"presets": []}"#).unwrap_err();
        assert!(e.contains(r#"{"biomes": ["#), "{e}");
        let e = BiomeFile::parse(r#"{"biomes": [{"name": "Empty"}]}"#).unwrap_err();
        assert!(e.contains("no rules, palette or erosion"), "{e}");
    }
}
