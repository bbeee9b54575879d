//! The `biome` operation of an `OPS.json`: a brush stroke that lays a biome, named (one loam
//! ships) or given whole, as the editor's Biome tool does:
//!
//! ```json
//! {"tool": "biome", "biome": "Weathered hills", "points": [[x, y]], "radius": 30, "seed": 7}
//! {"tool": "biome", "biome": {"name": "Scree", "rules": [...], "erosion": {...}}, ...}
//! ```
//!
//! Not for: laying it (`biome::lay`).

use serde::Deserialize;

use super::Biome;
use crate::edit::terrain::brush::{
    Brush, Falloff, Shape, stroke_brush, stroke_reach, validate_stroke,
};
use crate::model::TileCoord;

/// The `tool` names that select a biome operation.
pub const NAMES: [&str; 1] = ["biome"];

/// The tool of a biome operation (only `biome`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BiomeToolName {
    /// Lay a biome under the brush.
    Biome,
}

/// Which biome: one loam ships, by name, or a whole biome as a biome file holds it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum BiomeChoice {
    /// A shipped biome's name ("Weathered hills").
    Named(String),
    /// A biome given whole.
    Given(Box<Biome>),
}

/// The `biome` operation: a stroke through `points` laying a biome.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BiomeOp {
    /// Always `biome`.
    pub tool: BiomeToolName,
    /// The biome.
    pub biome: BiomeChoice,
    /// World (x, y) points of the stroke; dabs are spaced along the lines between them.
    pub points: Vec<[f64; 2]>,
    /// Brush radius in yards.
    pub radius: f32,
    /// Full-strength radius in yards (default: a third of `radius`).
    pub inner_radius: Option<f32>,
    /// How much of the erosion and the rules the brush's centre takes, 0..1 (default 1).
    pub strength: Option<f32>,
    /// Falloff (default smooth).
    pub falloff: Option<Falloff>,
    /// Outline (default circle).
    pub shape: Option<Shape>,
    /// Dab spacing as a fraction of the radius (default 0.25).
    pub spacing: Option<f32>,
    /// The scattering's seed (default: the biome's scatter seed).
    pub seed: Option<u64>,
}

impl BiomeOp {
    /// The biome laid; an unknown name lists the shipped ones.
    pub fn biome(&self) -> Result<Biome, String> {
        match &self.biome {
            BiomeChoice::Given(b) => Ok((**b).clone()),
            BiomeChoice::Named(name) => super::shipped_named(name).ok_or_else(|| {
                let names: Vec<String> = super::shipped()
                    .iter()
                    .map(|b| format!("\"{}\"", b.name))
                    .collect();
                format!(
                    "biome: no biome ships as \"{name}\"; the shipped ones are {}, or give one whole",
                    names.join(", ")
                )
            }),
        }
    }

    /// Rejects malformed operations with the field at fault.
    pub fn validate(&self) -> Result<(), String> {
        validate_stroke("biome", &self.points, self.radius, self.strength)?;
        self.biome()?.check().map_err(|e| format!("biome: {e}"))
    }

    /// The brush this operation uses.
    pub fn brush(&self) -> Brush {
        stroke_brush(
            self.radius,
            self.inner_radius,
            self.strength,
            self.falloff,
            self.shape,
            self.spacing,
        )
    }

    /// The tiles this stroke can read or change: its dabs' circles (the objects scattered
    /// lie inside them too).
    pub fn reach(&self) -> Vec<TileCoord> {
        stroke_reach(&self.points, self.radius)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<BiomeOp, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_biome_is_named_or_given_whole_and_a_wrong_name_lists_the_shipped_ones() {
        let named = parse(
            r#"{"tool": "biome", "biome": "weathered hills", "points": [[0, 0]], "radius": 20}"#,
        )
        .unwrap();
        assert_eq!(named.biome().unwrap().name, "Weathered hills");
        named.validate().unwrap();
        let given = parse(
            r#"{"tool": "biome", "biome": {"name": "Scree", "erosion": {"kind": "thermal", "talus": 30, "iterations": 5}}, "points": [[0, 0]], "radius": 20}"#,
        )
        .unwrap();
        assert_eq!(given.biome().unwrap().name, "Scree");
        let unknown =
            parse(r#"{"tool": "biome", "biome": "Tundra", "points": [[0, 0]], "radius": 20}"#)
                .unwrap();
        let e = unknown.validate().unwrap_err();
        assert!(
            e.contains("\"Tundra\"") && e.contains("\"Sandy shore\""),
            "{e}"
        );
        let empty = parse(
            r#"{"tool": "biome", "biome": {"name": "Nothing"}, "points": [[0, 0]], "radius": 20}"#,
        )
        .unwrap();
        assert!(empty.validate().unwrap_err().contains("no rules"));
    }
}
