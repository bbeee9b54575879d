//! `loam apply`: brush operations from a JSON file, run without a window through the same code
//! as the editor's tools, then saved as a chosen generation.
//!
//! A map that can be read tile by tile is never held whole: only the tiles the operations reach
//! (and the uids of the rest, for new objects) are read; the result is written a tile at a time,
//! the changed tiles from memory and every other one converted from disk as it is read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::ExitCode;

use crate::assets::client::{AssetSource, ClientData};
use crate::assets::models;
use crate::convert::{self, Report};
use crate::disk::{self, LoamError};
use crate::doc::runner::{self, OpTarget, Script, Streamed};
use crate::edit::History;
use crate::edit::objects::{ModelBox, NewUids};
use crate::edit::ops::{self, Operation, OpsFile};
use crate::edit::terrain::liquid::LiquidStyle;
use crate::format::Generation;
use crate::model::TileCoord;
use crate::pipeline::source::{OpenedSource, open_source};
use crate::pipeline::stream::{Overlay, Target, write_map};
use crate::pipeline::{self, MapKind};

/// Runs `loam apply MAP OPS.json --to VERSION OUT [--undo N]`.
pub fn run(
    map_path: &Path,
    ops_path: &Path,
    to: Generation,
    from: Option<Generation>,
    client: Option<&Path>,
    out: &Path,
    undo: usize,
) -> Result<ExitCode, LoamError> {
    let text = std::fs::read_to_string(ops_path).map_err(|source| LoamError::Io {
        path: ops_path.to_path_buf(),
        source,
    })?;
    let file =
        ops::parse(&text).map_err(|e| LoamError::Usage(format!("{}: {e}", ops_path.display())))?;
    let ops = Ops {
        file: &file,
        path: ops_path,
        undo,
    };
    let source = Source {
        map: map_path,
        from,
        client,
    };
    edit_and_write(&source, &ops, to, out)
}

/// The map a command edits: where it is, how to read it, which client gives model boxes.
pub struct Source<'a> {
    /// A .wdt (with its tiles), one .adt, or a folder of tiles.
    pub map: &'a Path,
    /// Read the map as this generation instead of deciding from its bytes.
    pub from: Option<Generation>,
    /// The game client models are read from (after the map's own folder).
    pub client: Option<&'a Path>,
}

/// What edits need besides the map: each model's own box, where new uids come from, the
/// liquid style of the map's generation.
pub struct EditContext<'a> {
    /// Each model path's own box, for object edits.
    pub model_box: &'a dyn Fn(&str) -> Option<ModelBox>,
    /// Where new objects' uniqueIds come from.
    pub uids: &'a NewUids<'a>,
    /// The liquid style of the map's generation.
    pub style: LiquidStyle,
}

/// Edits that `loam apply` and `loam script` run on a map before writing it.
pub trait Edits {
    /// Runs the edits on `target` (which reads the tiles they reach); returns the tiles
    /// changed.
    fn run(
        &self,
        target: &mut impl OpTarget,
        cx: &EditContext,
    ) -> Result<BTreeSet<TileCoord>, LoamError>;
}

/// Reads the map of `source` (tile by tile where it can), runs `edits` on it and writes it
/// as generation `to` into `out`: the changed tiles from memory, the others converted from
/// disk as they are read. Nothing is written when the edits fail.
pub fn edit_and_write(
    source: &Source,
    edits: &impl Edits,
    to: Generation,
    out: &Path,
) -> Result<ExitCode, LoamError> {
    pipeline::check_writable(to)?;
    // Model boxes for object operations: the models in the map's folder (and a game folder
    // above a World/Maps/Name/ folder), then the client's archives when one is given.
    let client = match source.client {
        Some(dir) => Some(std::sync::Arc::new(
            ClientData::open(dir).map_err(|e| LoamError::Usage(e.to_string()))?,
        )),
        None => None,
    };
    let map_path = source.map;
    let folder = map_path
        .parent()
        .filter(|_| map_path.is_file())
        .unwrap_or(map_path)
        .to_path_buf();
    let assets = AssetSource::new(client, Some(folder.clone()));
    let fetch = |p: &str| assets.read(p).ok().flatten();
    let model_box = |path: &str| models::placement_box(path, &fetch);
    let run = Run {
        edits,
        model_box: &model_box,
    };
    match open_source(map_path, source.from)? {
        Some(opened) => run_streamed(opened, &run, &folder, to, out),
        None => run_whole(map_path, source.from, &run, &folder, to, out),
    }
}

/// Edits with the model boxes they place objects with.
struct Run<'a, E> {
    edits: &'a E,
    model_box: &'a dyn Fn(&str) -> Option<ModelBox>,
}

impl<E: Edits> Run<'_, E> {
    fn run(
        &self,
        target: &mut impl OpTarget,
        uids: &NewUids,
        style: LiquidStyle,
    ) -> Result<BTreeSet<TileCoord>, LoamError> {
        let cx = EditContext {
            model_box: self.model_box,
            uids,
            style,
        };
        self.edits.run(target, &cx)
    }
}

/// The operations to run and what they need besides the map.
struct Ops<'a> {
    /// The parsed file.
    file: &'a OpsFile,
    /// Where it was read from (for messages).
    path: &'a Path,
    /// Steps to undo after the operations ran (`--undo`).
    undo: usize,
}

impl Edits for Ops<'_> {
    /// Runs every operation on `target` through the shared runner (`doc::runner`), each one
    /// undo step, printing what each did. Returns the tiles changed.
    fn run(
        &self,
        target: &mut impl OpTarget,
        cx: &EditContext,
    ) -> Result<BTreeSet<TileCoord>, LoamError> {
        let mut history = History::default();
        let mut changed = BTreeSet::new();
        let mut failure = None;
        let folder = self.path.parent();
        let read_image = |p: &str| crate::images::read_input(folder, p);
        let script = Script {
            ops: &self.file.ops,
            cx: crate::edit::ops::OpContext {
                model_box: cx.model_box,
                uids: cx.uids,
                style: cx.style,
                read_image: &read_image,
            },
        };
        runner::run(target, &script, &mut history, |i, result| match result {
            Ok(result) => {
                println!("op {i}: {}", result.label);
                let why = match self.file.ops.get(i) {
                    Some(Operation::Texture(_)) => "the chunk already paints the new texture",
                    Some(Operation::Rules(_) | Operation::Biome(_)) => {
                        "more than four textures would show; the weakest was left out (named above)"
                    }
                    Some(Operation::Paste(_)) => {
                        "the paste needs more than four texture layers there; the chunk kept its own"
                    }
                    _ => "four texture layers, none free",
                };
                for (t, c) in &result.refused {
                    println!(
                        "  refused at tile {}_{} chunk {},{}: {why}",
                        t.x,
                        t.y,
                        c % 16,
                        c / 16
                    );
                }
                changed.extend(result.tiles);
                true
            }
            Err(e) => {
                failure = Some(LoamError::Usage(format!(
                    "{}: op {i}: {e}",
                    self.path.display()
                )));
                false
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        // `--undo N`: the history's last N steps undone, as the editor's Undo does; the tiles
        // they touched are still written, now as they were before those steps.
        let (labels, applied) = history.labels();
        if self.undo > applied {
            return Err(LoamError::Usage(format!(
                "--undo {}: the operations made {applied} undo step(s)",
                self.undo
            )));
        }
        for label in labels[applied - self.undo..applied].iter().rev() {
            if history.undo(target.map()).is_none() {
                return Err(LoamError::Usage(format!(
                    "--undo: {label} could not be undone"
                )));
            }
            println!("undone: {label}");
        }
        Ok(changed)
    }
}

/// A map with no tile-by-tile form (a lone tile, a 0.5.5 map with prototype ADTs): read
/// whole, edited, written whole.
fn run_whole(
    map_path: &Path,
    from: Option<Generation>,
    ops: &Run<impl Edits>,
    folder: &Path,
    to: Generation,
    out: &Path,
) -> Result<ExitCode, LoamError> {
    let mut opened = pipeline::open_map_as(map_path, from)?;
    // New objects take uids from the map's range file when it has one (Settings ▸ uniqueId
    // range in the editor).
    let uids = NewUids {
        range: disk::uid_range::read(folder, &opened.map.name)?,
        on_disk: None,
    };
    let style = LiquidStyle::of(opened.generation);
    ops.run(&mut opened.map, &uids, style)?;
    let report = convert::prepare_map(&mut opened.map, opened.generation, to);
    let mut files = pipeline::encode_map(&opened.map, to, opened.writes_wdt(), None)?;
    if let (Some(name), [only]) = (&opened.lone_tile_file, files.as_mut_slice()) {
        only.name = name.clone();
    }
    disk::write_files(out, &files, |_| {})?;
    println!("wrote {} file(s) to {}", files.len(), out.display());
    print!("{report}");
    Ok(super::convert::report_unreadable(
        &opened.map.name,
        &opened.failed,
    ))
}

/// A map read tile by tile: the uids of every tile first (cheaply), then before each operation
/// the tiles it reaches; the result written a tile at a time.
fn run_streamed(
    opened: OpenedSource,
    ops: &Run<impl Edits>,
    folder: &Path,
    to: Generation,
    out: &Path,
) -> Result<ExitCode, LoamError> {
    let OpenedSource {
        header: mut map,
        tiles,
        decision,
        source,
    } = opened;
    let on_disk = tiles.uid_tiles(&tiles.coords());
    let uids = NewUids {
        range: disk::uid_range::read(folder, &map.name)?,
        on_disk: Some(&on_disk),
    };
    let mut failed = BTreeMap::new();
    let mut target = Streamed {
        map: &mut map,
        tiles: &tiles,
        failed: &mut failed,
    };
    let changed = ops.run(&mut target, &uids, LiquidStyle::of(decision.generation))?;
    println!(
        "read {} of the map's {} tile(s) for the operations",
        map.tiles.len() + failed.len(),
        tiles.coords().len()
    );
    let target = Target {
        generation: to,
        folder: out,
        options: &convert::Options::default(),
        all_or_nothing: false,
        edit: None,
    };
    let overlay = Overlay {
        map: &map,
        take: &changed,
    };
    let written = write_map(
        map.header_only(),
        &tiles,
        Some(overlay),
        decision.generation,
        target,
        &|_, _| {},
    )?;
    let mut report: Report = written.report;
    if source.kind == MapKind::Folder {
        report.note(
            "map: WDT written (the source folder had none; inferred from its tiles)",
            1,
        );
    }
    println!("wrote {} file(s) to {}", written.files, out.display());
    print!("{report}");
    failed.extend(written.failed);
    Ok(super::convert::report_unreadable(&written.name, &failed))
}
