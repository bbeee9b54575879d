//! Biomes: a named kind of ground — texture rules, a scatter palette with its settings and,
//! if wanted, an erosion — laid by one brush stroke as one undo step: first the erosion, then
//! the rules over the eroded ground, then the palette's objects on it. Biomes are kept and
//! moved between machines as brush presets and palettes are (a file `{"biomes": [...]}`); a
//! few ship with loam.
//!
//! Here at the root of `edit` because a biome spans two rooms: the ground (`terrain::erosion`,
//! `terrain::rules_ops`) and the objects (`objects::scatter_ops`).
//!
//! Not for: where biomes are kept or shown in the editor.

use serde::{Deserialize, Serialize};

use crate::edit::history::History;
use crate::edit::objects::scatter_ops::{ObjectBrushOp, PaletteModel, ScatterBrush, ScatterStroke};
use crate::edit::objects::{ModelBox, NewUids};
use crate::edit::outcome::OpResult;
use crate::edit::stroke::Stroke;
use crate::edit::terrain::brush::Brush;
use crate::edit::terrain::erosion::{self, Erosion};
use crate::edit::terrain::rules::Rule;
use crate::edit::terrain::rules_ops;
use crate::model::Map;

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

/// Where a biome's objects come from: each model's own box (`None`: a stand-in) and the
/// allocator of new uids, as scattering takes them.
pub type ObjectSources<'a> = (&'a dyn Fn(&str) -> Option<ModelBox>, &'a NewUids<'a>);

/// Lays `biome` along a stroke of `brush` through `points` (world x, y) as one undo step in
/// `history`: the erosion and the rules dab by dab, then the palette scattered over the
/// stroke's circles with the seed `seed`. `model_box` and `uids` as scattering takes them.
pub fn apply(
    map: &mut Map,
    biome: &Biome,
    (brush, points): (&Brush, &[[f64; 2]]),
    seed: u64,
    history: &mut History,
    (model_box, uids): ObjectSources,
) -> Result<OpResult, String> {
    biome.check()?;
    let name = format!("Biome {}", biome.name);
    let dabs = crate::edit::terrain::brush::stroke_dabs(brush, points);
    let mut stroke = Stroke::new(&name);
    let mut dropped = Vec::new();
    for (i, &p) in dabs.iter().enumerate() {
        if let Some(e) = &biome.erosion {
            erosion::dab(map, brush, e, p, i as u32, &mut stroke);
        }
        if !biome.rules.is_empty() {
            let (_, d) = rules_ops::dab(map, brush, &biome.rules, p[0], p[1], &mut stroke);
            dropped.extend(d);
        }
    }
    let ground = stroke.finish(map);
    let mut objects = None;
    if !biome.palette.is_empty() {
        let op = biome
            .scatter
            .op(&biome.palette, dabs.clone(), f64::from(brush.radius), seed);
        let ObjectBrushOp::Scatter(op) = op else {
            return Err(format!("biome \"{}\": its scatter erases", biome.name));
        };
        let mut scatter = ScatterStroke::new(op.settings()?, seed);
        for &p in &dabs {
            scatter.dab(map, p, model_box, uids);
        }
        objects = scatter.finish(map).0;
    }
    // One step: the ground's chunks first, then the objects (whose reference lists the chunks'
    // after-state predates), so undo and redo restore each in the right order.
    let edit = match (ground, objects) {
        (Some(mut g), Some(o)) => {
            g.objects = o.objects;
            g.bounds.extend(o.bounds);
            g.chunks.extend(o.chunks);
            Some(g)
        }
        (g, o) => g.or(o),
    };
    let mut refused: Vec<_> = dropped.iter().map(|d| (d.tile, d.chunk)).collect();
    refused.sort_unstable();
    refused.dedup();
    let Some(mut edit) = edit else {
        return Ok(OpResult {
            label: name,
            chunks: 0,
            refused,
            tiles: Vec::new(),
        });
    };
    let n = edit.chunks.len();
    edit.label = format!("{name}, {n} chunk{}", if n == 1 { "" } else { "s" });
    if let Some(note) = rules_ops::dropped_note(&dropped) {
        edit.label = format!("{}; {note}", edit.label);
    }
    Ok(OpResult::push(map, edit, history, refused))
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
