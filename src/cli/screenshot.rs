//! `loam screenshot [PATH] OUT.png [--size WxH] [--tile X Y] [--time HH:MM]`: opens the real window, waits
//! for the tiles in view to be drawn, saves a PNG of the window and exits.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::app::screenshot::{ShotDialog, ShotOverlay};
use crate::disk::LoamError;
use crate::model::TileCoord;

/// Parses `WxH` ("1280x800").
pub fn parse_size(s: &str) -> Result<[u32; 2], String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("size '{s}' is not WxH"))?;
    let w: u32 = w
        .trim()
        .parse()
        .map_err(|_| format!("bad width in '{s}'"))?;
    let h: u32 = h
        .trim()
        .parse()
        .map_err(|_| format!("bad height in '{s}'"))?;
    if !(64..=8192).contains(&w) || !(64..=8192).contains(&h) {
        return Err(format!("size '{s}' must be 64..8192 on each side"));
    }
    Ok([w, h])
}

/// What the screenshot command was given, as `loam screenshot` parses it.
#[derive(Debug, Default, clap::Args)]
pub struct ShotArgs {
    /// [PATH] OUT.png: the map to open (optional) and the PNG to write.
    #[arg(required = true, num_args = 1..=2, value_names = ["PATH", "OUT"])]
    paths: Vec<PathBuf>,
    /// Window size.
    #[arg(long, value_parser = parse_size, default_value = "1280x800")]
    size: [u32; 2],
    /// Frame this tile (X Y, as in Map_X_Y.adt).
    #[arg(long, num_args = 2, value_names = ["X", "Y"])]
    tile: Option<Vec<u8>>,
    /// Run these brush operations (docs/scripting.md) through the editor first: the shot
    /// shows the result, the last operation's tool and brush, and the history.
    #[arg(long, value_name = "OPS.json")]
    apply: Option<PathBuf>,
    /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
    /// deciding from its bytes.
    #[arg(long, value_parser = super::parse_generation)]
    from: Option<crate::format::Generation>,
    /// Read textures from this game client (the folder holding Data/, or Data/ itself);
    /// without it, only the map's own folders are searched.
    #[arg(long, value_name = "DIR")]
    client: Option<PathBuf>,
    /// Show the asset browser's tileset textures matching these words (folders open,
    /// thumbnails decoded) instead of the tile map; "" shows them all.
    #[arg(long, value_name = "FILTER")]
    browse: Option<String>,
    /// Put the camera at world EYE (x y z) looking at TARGET (x y z) instead of the
    /// default view; e.g. `--view 200 120 90 150 70 40`.
    #[arg(long, num_args = 6, value_names = ["EX", "EY", "EZ", "TX", "TY", "TZ"], allow_negative_numbers = true)]
    view: Option<Vec<f64>>,
    /// Select these objects (by uniqueId) with the object tool: the shot shows the
    /// selection outlined and the object panel.
    #[arg(long, value_name = "UID", num_args = 1..)]
    select: Vec<u32>,
    /// Once the view is drawn, draw and time N more frames and print their times (the
    /// frame-time figures of docs/performance.md).
    #[arg(long, value_name = "N", default_value_t = 0)]
    measure: u32,
    /// Fly the camera over every present tile of the map, row by row, in SECONDS of wall time,
    /// printing the memory in use each second and then `tiles loaded N, dropped M, peak
    /// memory X MB`; the shot is the last frame.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    tour: Option<f64>,
    /// Hide doodads and WMOs (as View ▸ Doodads and WMOs off), e.g. to compare frame times.
    #[arg(long)]
    no_objects: bool,
    /// Draw without the light's fog (as View ▸ Fog off).
    #[arg(long)]
    no_fog: bool,
    /// Draw without the WDL's distant terrain (as View ▸ Horizon off).
    #[arg(long)]
    no_horizon: bool,
    /// Turn on view overlays (as in the View menu).
    #[arg(long, value_name = "NAME", num_args = 1.., value_enum)]
    overlay: Vec<ShotOverlay>,
    /// Draw the sky and light at this time of day (HH:MM, 00:00 to 23:59) instead of noon.
    #[arg(long, value_name = "HH:MM", value_parser = crate::doc::light::DayTime::parse)]
    time: Option<crate::doc::light::DayTime>,
    /// Choose the Script tool with a brush of this Lua script (with `--brush`): the shot shows
    /// the scripts in the tool bar and the brush's settings.
    #[arg(long, value_name = "FILE.lua", requires = "brush")]
    script: Option<PathBuf>,
    /// The brush of `--script` to choose, by the name it declares.
    #[arg(long, value_name = "NAME", requires = "script")]
    brush: Option<String>,
    /// Choose the Lights or Area triggers tool: the shot shows its panel and marks.
    #[arg(long, value_name = "TOOL", value_enum)]
    zone_tool: Option<ShotZoneTool>,
    /// With `--zone-tool`: choose this light or trigger (by its row id).
    #[arg(long, value_name = "ID", requires = "zone_tool")]
    zone_select: Option<u32>,
    /// With `--zone-tool lights`: show this band's keys in the panel (`sky-top`, `fog`,
    /// `fog-end`…).
    #[arg(long, value_name = "BAND", requires = "zone_tool")]
    zone_band: Option<String>,
    /// Show a dialog (for a picture of it).
    #[arg(long, value_name = "NAME", value_enum)]
    dialog: Option<ShotDialog>,
    /// Stage a road with the road tool, not laid: its control points as world `x,y` pairs
    /// separated by `;` (e.g. `--road "-10,20;30,40;60,45"`); the shot shows its curve and
    /// edges.
    #[arg(long, value_name = "X,Y;X,Y;…", value_parser = parse_points, allow_hyphen_values = true)]
    road: Option<Points>,
    /// Select the loaded vertices in the world box X0 Y0 X1 Y1 with the vertex selection
    /// tool; the shot shows them as points.
    #[arg(long, num_args = 4, value_names = ["X0", "Y0", "X1", "Y1"], allow_negative_numbers = true)]
    select_box: Option<Vec<f64>>,
    /// Show the models' stand animations and the liquids at this many seconds, held still
    /// (two shots at different times differ only where something moves).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    anim_time: Option<f64>,
}

/// World points (x, y) given as one argument (`x,y;x,y;…`).
#[derive(Debug, Clone, PartialEq)]
pub struct Points(pub Vec<[f64; 2]>);

/// Parses `x,y;x,y;…` into world points.
fn parse_points(s: &str) -> Result<Points, String> {
    s.split(';')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let xy: Vec<f64> = p
                .split(',')
                .map(|c| c.trim().parse::<f64>().map_err(|e| format!("'{p}': {e}")))
                .collect::<Result<_, _>>()?;
            match xy.as_slice() {
                [x, y] if x.is_finite() && y.is_finite() => Ok([*x, *y]),
                _ => Err(format!("'{p}' is not a point x,y")),
            }
        })
        .collect::<Result<_, _>>()
        .map(Points)
}

/// Parses a finite, non-negative number of seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds")),
    }
}

/// Reads an operations file (docs/scripting.md); errors name it.
pub fn read_ops(p: &std::path::Path) -> Result<crate::edit::ops::OpsFile, LoamError> {
    let text = std::fs::read_to_string(p).map_err(|source| LoamError::Io {
        path: p.to_path_buf(),
        source,
    })?;
    let mut file = crate::edit::ops::parse(&text)
        .map_err(|e| LoamError::Usage(format!("{}: {e}", p.display())))?;
    file.folder = p.parent().map(std::path::Path::to_path_buf);
    Ok(file)
}

/// Runs the screenshot command.
pub fn run(args: ShotArgs) -> Result<ExitCode, LoamError> {
    let ops = args.apply.as_deref().map(read_ops).transpose()?;
    let tile = match args.tile.as_deref() {
        Some(&[x, y]) => Some(
            TileCoord::new(x as usize, y as usize)
                .ok_or_else(|| LoamError::Usage(format!("tile {x} {y} is off the 64×64 grid")))?,
        ),
        _ => None,
    };
    let mut paths = args.paths;
    let out = paths.pop().unwrap_or_default();
    let path = paths.pop();
    let view = match args.view.as_deref() {
        Some([ex, ey, ez, tx, ty, tz]) => Some(([*ex, *ey, *ez], [*tx, *ty, *tz])),
        Some(_) => {
            return Err(LoamError::Usage(
                "--view takes six numbers: eye x y z, target x y z".into(),
            ));
        }
        None => None,
    };
    let frame_times = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let passes = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    use crate::app::screenshot::{
        ScreenshotRequest, ShotCamera, ShotLight, ShotMeasure, ShotOperations, ShotShown,
    };
    let request = ScreenshotRequest {
        out: out.clone(),
        camera: ShotCamera {
            tile,
            view,
            tour: args.tour,
        },
        light: ShotLight {
            time: args.time,
            anim_time: args.anim_time,
            no_fog: args.no_fog,
            no_horizon: args.no_horizon,
        },
        shown: ShotShown {
            overlays: args.overlay,
            hide_objects: args.no_objects,
            dialog: args.dialog,
            browse: args.browse,
        },
        operations: ShotOperations {
            ops,
            select: args.select,
            road: args.road.map(|p| p.0).unwrap_or_default(),
            select_box: match args.select_box.as_deref() {
                Some(&[x0, y0, x1, y1]) => Some([x0, y0, x1, y1]),
                _ => None,
            },
            script: args.script.zip(args.brush),
            zone: match args.zone_tool {
                None => None,
                Some(t) => Some((
                    match t {
                        ShotZoneTool::Lights => crate::edit::tools::Tool::Lights,
                        ShotZoneTool::AreaTriggers => crate::edit::tools::Tool::Triggers,
                    },
                    args.zone_select,
                    match args.zone_band.as_deref() {
                        None => 0,
                        Some(name) => band_index(name)?,
                    },
                )),
            },
        },
        measure: ShotMeasure {
            frames: args.measure,
            frame_times: frame_times.clone(),
            passes: passes.clone(),
        },
        outcome: Default::default(),
    };
    crate::app::startup::run_screenshot(path, args.size, request, args.from, args.client)
        .map_err(LoamError::Usage)?;
    println!("wrote {}", out.display());
    if let Ok(mut t) = frame_times.lock()
        && !t.is_empty()
    {
        t.sort_by(f32::total_cmp);
        println!(
            "frame time: median {:.1} ms, fastest {:.1} ms, slowest {:.1} ms over {} frames",
            t[t.len() / 2],
            t[0],
            t[t.len() - 1],
            t.len()
        );
        // Where the time went: each pass's median over the measured frames, then the app's
        // own CPU time (`render::pass_timer`).
        if let Ok(p) = passes.lock() {
            let frames: Vec<_> = p.iter().filter_map(|(t, _)| *t).collect();
            let times = crate::render::pass_timer::medians(&frames);
            for line in crate::render::pass_timer::lines(&times) {
                println!("{line}");
            }
            let mut cpu: Vec<f32> = p.iter().map(|(_, c)| *c).collect();
            cpu.sort_by(f32::total_cmp);
            println!(
                "cpu frame {:.3} ms",
                cpu.get(cpu.len() / 2).copied().unwrap_or(0.0)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("1280x800"), Ok([1280, 800]));
        assert!(parse_size("12x800").is_err());
        assert!(parse_size("wide").is_err());
        assert_eq!(parse_seconds("0.5"), Ok(0.5));
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("soon").is_err());
    }

    #[test]
    fn road_points_parse() {
        assert_eq!(
            parse_points("20,-420; 110.5,-330;"),
            Ok(Points(vec![[20.0, -420.0], [110.5, -330.0]]))
        );
        assert!(parse_points("20,-420;110").is_err());
        assert!(parse_points("a,b").is_err());
    }

    #[test]
    fn the_staging_flags_reach_the_request() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            shot: ShotArgs,
        }
        let cli = Cli::try_parse_from([
            "screenshot",
            "out.png",
            "--road",
            "-10,20;30,40",
            "--select-box",
            "-5",
            "6",
            "7",
            "8",
        ])
        .unwrap();
        assert_eq!(
            cli.shot.road,
            Some(Points(vec![[-10.0, 20.0], [30.0, 40.0]]))
        );
        assert_eq!(cli.shot.select_box, Some(vec![-5.0, 6.0, 7.0, 8.0]));
    }
}

/// The tools `loam screenshot --zone-tool` chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ShotZoneTool {
    /// Zone ▸ Lights.
    Lights,
    /// Zone ▸ Area triggers.
    AreaTriggers,
}

/// The Light tool panel's index of band `name` (the colour bands, then the float bands).
fn band_index(name: &str) -> Result<usize, LoamError> {
    use crate::assets::client::{COLOUR_BAND_NAMES, FLOAT_BAND_NAMES};
    COLOUR_BAND_NAMES
        .iter()
        .chain(FLOAT_BAND_NAMES.iter())
        .position(|b| b.eq_ignore_ascii_case(name))
        .ok_or_else(|| LoamError::Usage(format!("--zone-band: no band called {name}")))
}
