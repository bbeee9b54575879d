//! Erosion under a brush: thermal (material slides down slopes steeper than a talus angle) and
//! hydraulic (droplets carry sediment downhill), as the `erode` operation of an `OPS.json` and
//! the dabs the editor's Erode tool lays. Both keep material (what one vertex loses another
//! gains), move outer and inner vertices alike through the lattice (so shared copies stay
//! equal), scale every change by the brush's falloff and move nothing outside the brush.
//!
//! The room: this module is the operation and the dab; beside it, [`field`] (the ground under
//! the brush as plain arrays), [`thermal`] and [`hydraulic`] (the two rules).
//!
//! Not for: other height brushes (`terrain::sculpt`), texturing by the ground's shape
//! (`terrain::rules`).

pub mod field;
pub mod hydraulic;
pub mod thermal;

use serde::Deserialize;

use super::brush::{
    Brush, Falloff, Shape, stroke_brush, stroke_dabs, stroke_reach, validate_stroke,
};
use crate::edit::history::History;
use crate::edit::lattice::patch::Patch;
use crate::edit::outcome::OpResult;
use crate::edit::stroke::Stroke;
use crate::model::{Map, TileCoord};
use field::Field;
pub use hydraulic::Hydraulic;

/// The `tool` names that select an erosion operation.
pub const NAMES: [&str; 1] = ["erode"];

/// Which erosion, with its settings.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Erosion {
    /// Material slides until no edge is steeper than `talus` degrees, at most `iterations`
    /// passes.
    Thermal {
        /// The talus angle, degrees.
        talus: f32,
        /// Most passes.
        iterations: u32,
    },
    /// Droplets carry sediment downhill.
    Hydraulic(Hydraulic),
}

impl Erosion {
    /// The name shown in the history.
    pub fn name(&self) -> &'static str {
        match self {
            Erosion::Thermal { .. } => "Thermal erosion",
            Erosion::Hydraulic(_) => "Hydraulic erosion",
        }
    }
}

/// Erodes the ground under one dab of `brush` centred on world (`x`, `y`) into `stroke`; the
/// brush's strength (0..1) scales its falloff. `dab` numbers the dab in its stroke, so that
/// each dab of a hydraulic stroke runs droplets of its own, the same every time. Returns the
/// chunks changed.
pub fn dab(
    map: &mut Map,
    brush: &Brush,
    erosion: &Erosion,
    [x, y]: [f64; 2],
    dab: u32,
    stroke: &mut Stroke,
) -> Vec<(TileCoord, usize)> {
    let ([cx, cy], radius, inner) = brush.on_lattice(x, y);
    let mut patch = Patch::around(map, cx, cy, radius + 1.0);
    let strength = brush.strength.clamp(0.0, 1.0);
    let mut field = Field::read(&patch, cx, cy, |_, dx, dy| {
        brush.weight_at(dx, dy, radius, inner) * strength
    });
    match erosion {
        Erosion::Thermal { talus, iterations } => {
            thermal::erode(&mut field, *talus, *iterations);
        }
        Erosion::Hydraulic(params) => {
            let seed = params
                .seed
                .wrapping_add(u64::from(dab).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            hydraulic::erode(&mut field, &Hydraulic { seed, ..*params });
        }
    }
    field.write(&mut patch);
    super::sculpt::commit_heights(map, &patch, stroke)
}

/// The kind of erosion an operation names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErosionKind {
    /// Thermal erosion.
    Thermal,
    /// Hydraulic erosion.
    Hydraulic,
}

/// The tool of an erosion operation (only `erode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErodeToolName {
    /// Erode the ground under the brush.
    Erode,
}

/// The `erode` operation: a brush stroke through `points` that erodes the ground under it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErodeOp {
    /// Always `erode`.
    pub tool: ErodeToolName,
    /// `thermal` or `hydraulic`.
    pub kind: ErosionKind,
    /// World (x, y) points of the stroke; dabs are spaced along the lines between them.
    pub points: Vec<[f64; 2]>,
    /// Brush radius in yards.
    pub radius: f32,
    /// Full-strength radius in yards (default: a third of `radius`).
    pub inner_radius: Option<f32>,
    /// How much of the erosion the brush's centre takes, 0..1 (default 1).
    pub strength: Option<f32>,
    /// Falloff (default smooth).
    pub falloff: Option<Falloff>,
    /// Outline (default circle).
    pub shape: Option<Shape>,
    /// Dab spacing as a fraction of the radius (default 0.25).
    pub spacing: Option<f32>,
    /// thermal: the talus angle, degrees.
    pub talus: Option<f32>,
    /// thermal: most passes per dab.
    pub iterations: Option<u32>,
    /// hydraulic: droplets per dab.
    pub droplets: Option<u32>,
    /// hydraulic: the random stream's seed (default 0).
    pub seed: Option<u64>,
    /// hydraulic: erosion speed (default 0.3).
    pub erosion: Option<f32>,
    /// hydraulic: deposition speed (default 0.3).
    pub deposition: Option<f32>,
    /// hydraulic: evaporation per step (default 0.01).
    pub evaporation: Option<f32>,
    /// hydraulic: inertia (default 0.05).
    pub inertia: Option<f32>,
    /// hydraulic: sediment capacity factor (default 4).
    pub capacity: Option<f32>,
}

impl ErodeOp {
    /// The erosion this operation names, or what is wrong with it.
    pub fn erosion(&self) -> Result<Erosion, String> {
        let thermal_fields = [
            ("talus", self.talus.is_some()),
            ("iterations", self.iterations.is_some()),
        ];
        let hydraulic_fields = [
            ("droplets", self.droplets.is_some()),
            ("seed", self.seed.is_some()),
            ("erosion", self.erosion.is_some()),
            ("deposition", self.deposition.is_some()),
            ("evaporation", self.evaporation.is_some()),
            ("inertia", self.inertia.is_some()),
            ("capacity", self.capacity.is_some()),
        ];
        let (kind, foreign) = match self.kind {
            ErosionKind::Thermal => ("thermal", &hydraulic_fields[..]),
            ErosionKind::Hydraulic => ("hydraulic", &thermal_fields[..]),
        };
        if let Some((name, _)) = foreign.iter().find(|(_, present)| *present) {
            return Err(format!(
                "erode: field `{name}` does not apply to kind \"{kind}\""
            ));
        }
        match self.kind {
            ErosionKind::Thermal => {
                let talus = self
                    .talus
                    .ok_or("erode: kind \"thermal\" needs field `talus` (degrees)")?;
                let iterations = self
                    .iterations
                    .ok_or("erode: kind \"thermal\" needs field `iterations`")?;
                if !(talus > 0.0 && talus < 90.0) {
                    return Err(format!(
                        "erode: `talus` is an angle over 0 and under 90 degrees, not {talus}"
                    ));
                }
                Ok(Erosion::Thermal { talus, iterations })
            }
            ErosionKind::Hydraulic => {
                let d = Hydraulic::default();
                let droplets = self
                    .droplets
                    .ok_or("erode: kind \"hydraulic\" needs field `droplets`")?;
                let params = Hydraulic {
                    droplets,
                    seed: self.seed.unwrap_or(0),
                    erosion: self.erosion.unwrap_or(d.erosion),
                    deposition: self.deposition.unwrap_or(d.deposition),
                    evaporation: self.evaporation.unwrap_or(d.evaporation),
                    inertia: self.inertia.unwrap_or(d.inertia),
                    capacity: self.capacity.unwrap_or(d.capacity),
                };
                for (name, v) in [
                    ("erosion", params.erosion),
                    ("deposition", params.deposition),
                    ("evaporation", params.evaporation),
                    ("inertia", params.inertia),
                ] {
                    if !(0.0..=1.0).contains(&v) {
                        return Err(format!("erode: `{name}` is 0 to 1, not {v}"));
                    }
                }
                if !(params.capacity >= 0.0 && params.capacity.is_finite()) {
                    return Err(format!(
                        "erode: `capacity` is 0 or more, not {}",
                        params.capacity
                    ));
                }
                Ok(Erosion::Hydraulic(params))
            }
        }
    }

    /// Rejects malformed operations with the field at fault.
    pub fn validate(&self) -> Result<(), String> {
        validate_stroke("erode", &self.points, self.radius, self.strength)?;
        self.erosion().map(|_| ())
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

    /// The tiles this stroke can read or change.
    pub fn reach(&self) -> Vec<TileCoord> {
        stroke_reach(&self.points, self.radius)
    }
}

/// Applies an `erode` operation as one undo step in `history`.
pub fn apply(map: &mut Map, op: &ErodeOp, history: &mut History) -> Result<OpResult, String> {
    op.validate()?;
    let erosion = op.erosion()?;
    let brush = op.brush();
    let mut stroke = Stroke::new(erosion.name());
    for (i, p) in stroke_dabs(&brush, &op.points).into_iter().enumerate() {
        dab(map, &brush, &erosion, p, i as u32, &mut stroke);
    }
    Ok(OpResult::record(
        map,
        stroke,
        history,
        erosion.name(),
        Vec::new(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(json: &str) -> ErodeOp {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn bad_fields_are_refused_by_name() {
        let thermal = r#""tool": "erode", "kind": "thermal", "points": [[0, 0]], "radius": 10"#;
        for (extra, says) in [
            ("", "`talus`"),
            (r#", "talus": 30"#, "`iterations`"),
            (r#", "talus": 95, "iterations": 5"#, "`talus` is an angle"),
            (r#", "talus": 30, "iterations": 5, "seed": 1"#, "`seed`"),
            (
                r#", "talus": 30, "iterations": 5, "strength": 2"#,
                "`strength`",
            ),
        ] {
            let e = op(&format!("{{{thermal}{extra}}}")).validate().unwrap_err();
            assert!(e.contains(says), "{extra}: {e}");
        }
        let hydraulic = r#""tool": "erode", "kind": "hydraulic", "points": [[0, 0]], "radius": 10"#;
        for (extra, says) in [
            ("", "`droplets`"),
            (r#", "droplets": 5, "erosion": 2"#, "`erosion` is 0 to 1"),
            (r#", "droplets": 5, "talus": 30"#, "`talus`"),
        ] {
            let e = op(&format!("{{{hydraulic}{extra}}}"))
                .validate()
                .unwrap_err();
            assert!(e.contains(says), "{extra}: {e}");
        }
        assert!(
            serde_json::from_str::<ErodeOp>(&format!("{{{hydraulic}, \"droplet\": 5}}")).is_err()
        );
        assert!(
            serde_json::from_str::<ErodeOp>(
                r#"{"tool": "erode", "kind": "wind", "points": [[0, 0]], "radius": 10}"#
            )
            .is_err()
        );
        assert_eq!(
            op(&format!("{{{hydraulic}, \"droplets\": 5}}")).erosion(),
            Ok(Erosion::Hydraulic(Hydraulic {
                droplets: 5,
                ..Hydraulic::default()
            }))
        );
    }
}
