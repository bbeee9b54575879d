//! `loam screenshot [PATH] OUT.png [--size WxH] [--tile X Y]`: opens the real window, waits
//! for the tiles in view to be drawn, saves a PNG of the window and exits.

use std::path::PathBuf;
use std::process::ExitCode;

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

/// What the screenshot command was given.
#[derive(Debug, Default)]
pub struct ShotArgs {
    /// The map to open; the bundled sample without one.
    pub path: Option<PathBuf>,
    /// The PNG to write.
    pub out: PathBuf,
    /// Window size.
    pub size: [u32; 2],
    /// A tile to frame (X Y).
    pub tile: Option<[u8; 2]>,
    /// Brush operations to run first.
    pub apply: Option<PathBuf>,
    /// Read the map as this generation.
    pub from: Option<crate::format::Generation>,
    /// The game client to read from.
    pub client: Option<PathBuf>,
    /// Show the asset browser's textures with this filter.
    pub browse: Option<String>,
    /// Camera eye and target (world x y z each).
    pub view: Option<Vec<f64>>,
    /// Objects to select by uniqueId.
    pub select: Vec<u32>,
    /// Frames to time before the shot.
    pub measure: u32,
    /// Hide doodads and WMOs.
    pub no_objects: bool,
    /// View overlays to turn on.
    pub overlays: Vec<String>,
    /// Show this dialog (`export`, `save-as`).
    pub dialog: Option<String>,
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
    let tile = match args.tile {
        Some([x, y]) => Some(
            TileCoord::new(x as usize, y as usize)
                .ok_or_else(|| LoamError::Usage(format!("tile {x} {y} is off the 64×64 grid")))?,
        ),
        None => None,
    };
    let view = match args.view.as_deref() {
        Some([ex, ey, ez, tx, ty, tz]) => Some(([*ex, *ey, *ez], [*tx, *ty, *tz])),
        Some(_) => {
            return Err(LoamError::Usage(
                "--view takes six numbers: eye x y z, target x y z".into(),
            ));
        }
        None => None,
    };
    let out = args.out;
    let frame_times = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let request = crate::app::screenshot::ScreenshotRequest {
        out: out.clone(),
        tile,
        ops,
        browse: args.browse,
        view,
        select: args.select,
        measure: args.measure,
        frame_times: frame_times.clone(),
        hide_objects: args.no_objects,
        overlays: args.overlays,
        dialog: args.dialog,
        outcome: Default::default(),
    };
    crate::app::startup::run_screenshot(args.path, args.size, request, args.from, args.client)
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
    }
}
