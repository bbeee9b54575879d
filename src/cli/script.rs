//! `loam script`: one stroke of a Lua brush (docs/scripting.md, "Lua brushes") run on a map
//! without a window, through the same host as the editor's script tools, then written as
//! `loam apply` writes: the same reading of the map, tile by tile where it can, and the same
//! conversion and output.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use super::apply::{EditContext, Edits, Source, edit_and_write};
use crate::disk::LoamError;
use crate::doc::runner::OpTarget;
use crate::doc::script::host::StrokeContext;
use crate::doc::script::{Limits, ParamValue, Script, StrokeRequest};
use crate::edit::History;
use crate::format::Generation;
use crate::model::TileCoord;

/// What `loam script` was asked, besides the map and the output.
pub struct ScriptArgs<'a> {
    /// The script file.
    pub file: &'a Path,
    /// The brush to run.
    pub brush: &'a str,
    /// `x,y;x,y…`: the stroke's points.
    pub points: &'a str,
    /// Radius in yards.
    pub radius: f32,
    /// Strength, 0..=1.
    pub strength: Option<f32>,
    /// `KEY=VALUE` pairs.
    pub params: &'a [String],
    /// The stroke's time limit in seconds.
    pub time_limit: Option<f64>,
}

/// Runs `loam script MAP FILE.lua --brush NAME --points … --radius R --to VERSION OUT`.
pub fn run(
    source: &Source,
    args: &ScriptArgs,
    to: Generation,
    out: &Path,
) -> Result<ExitCode, LoamError> {
    let usage = |m: String| LoamError::Usage(m);
    let points = parse_points(args.points).map_err(usage)?;
    let mut limits = Limits::default();
    if let Some(s) = args.time_limit {
        if !(s > 0.0 && s.is_finite()) {
            return Err(usage(format!(
                "--time-limit: a positive number of seconds, not {s}"
            )));
        }
        limits.time = Duration::from_secs_f64(s);
    }
    let script = Script::load(args.file, limits).map_err(|e| usage(e.to_string()))?;
    for line in script.take_printed() {
        println!("{line}");
    }
    let decl = script
        .brushes()
        .into_iter()
        .find(|b| b.name == args.brush)
        .ok_or_else(|| {
            let names: Vec<String> = script.brushes().into_iter().map(|b| b.name).collect();
            usage(format!(
                "{}: no brush {:?} (it declares {})",
                args.file.display(),
                args.brush,
                names.join(", ")
            ))
        })?;
    let mut params = Vec::new();
    for pair in args.params {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| usage(format!("--param {pair:?}: write KEY=VALUE")))?;
        let p = decl.params.iter().find(|p| p.key == key).ok_or_else(|| {
            let keys: Vec<&str> = decl.params.iter().map(|p| p.key.as_str()).collect();
            usage(format!(
                "--param {key}: brush {:?} has no such parameter (it has: {})",
                decl.name,
                keys.join(", ")
            ))
        })?;
        let value: ParamValue = p.parse(value).map_err(|e| usage(format!("--param {e}")))?;
        params.push((key.to_string(), value));
    }
    let request = StrokeRequest {
        brush: args.brush.to_string(),
        points,
        radius: args.radius,
        inner_radius: None,
        strength: args.strength,
        params,
    };
    let edits = Stroke {
        script: &script,
        request: &request,
    };
    edit_and_write(source, &edits, to, out)
}

/// `x,y;x,y…` as world points.
fn parse_points(text: &str) -> Result<Vec<[f64; 2]>, String> {
    let points: Vec<[f64; 2]> = text
        .split(';')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let (x, y) = p
                .split_once(',')
                .ok_or_else(|| format!("--points: {p:?} is not x,y"))?;
            let n = |s: &str| {
                s.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("--points: {s:?} is not a number"))
            };
            Ok([n(x)?, n(y)?])
        })
        .collect::<Result<_, String>>()?;
    if points.is_empty() {
        return Err("--points: give at least one point, as \"x,y;x,y\"".to_string());
    }
    Ok(points)
}

/// One stroke of a script's brush, as `loam apply`'s runner takes edits.
struct Stroke<'a> {
    script: &'a Script,
    request: &'a StrokeRequest,
}

impl Edits for Stroke<'_> {
    fn run(
        &self,
        target: &mut impl OpTarget,
        cx: &EditContext,
    ) -> Result<BTreeSet<TileCoord>, LoamError> {
        target.load(&self.request.reach());
        let mut history = History::default();
        let stroke_cx = StrokeContext {
            model_box: cx.model_box,
            uids: cx.uids,
        };
        let outcome = self
            .script
            .stroke(target.map(), self.request, &stroke_cx, &mut history)
            .map_err(|e| LoamError::Usage(e.to_string()))?;
        for line in &outcome.printed {
            println!("{line}");
        }
        println!("stroke: {}", outcome.result.label);
        for (t, c) in &outcome.result.refused {
            println!(
                "  refused at tile {}_{} chunk {},{}: four texture layers, none free",
                t.x,
                t.y,
                c % 16,
                c / 16
            );
        }
        Ok(outcome.result.tiles.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_read_and_bad_ones_named() {
        assert_eq!(
            parse_points("1,2; -3.5,4"),
            Ok(vec![[1.0, 2.0], [-3.5, 4.0]])
        );
        assert!(parse_points("1;2").unwrap_err().contains("\"1\""));
        assert!(parse_points("").is_err());
        assert!(parse_points("1,x").unwrap_err().contains("\"x\""));
    }
}
