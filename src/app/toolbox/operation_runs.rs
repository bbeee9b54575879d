//! Scripted operations run in the editor (`loam --apply`, the screenshot command's `--apply`,
//! and the operations the components hand over: an image import, Edit ▸ Textures…, a paste)
//! through the one op runner `loam apply` uses, each an undo step; then the tool panel and the
//! brush cursor follow the script's last operation.
//!
//! Not for: what an operation does (`edit::ops`, `doc::runner`).

use super::terrain_clipboard::TerrainClipboard;
use crate::app::context::AppCtx;
use crate::doc::editing::Tool;
use crate::edit::ops::{Operation, OpsFile};
use crate::edit::terrain::liquid::LiquidStyle;

/// The uids of the open map's tiles on disk, as new objects must avoid them. The scan started
/// when the map opened may still be running; an edit runs now, so it reads the uids itself
/// rather than go without them.
pub(in crate::app) fn disk_uids(
    cx: &AppCtx,
) -> Option<std::sync::Arc<crate::model::objects::UidTiles>> {
    cx.doc.uids.disk_uids().or_else(|| {
        let s = cx.doc.session.as_ref()?;
        let coords: Vec<_> = s.on_disk.iter().copied().collect();
        Some(std::sync::Arc::new(s.tiles.as_ref()?.uid_tiles(&coords)))
    })
}

/// Reads into `cache` the placement box (`None`: a stand-in) of each of `models` not read yet,
/// from the map's files: the boxes a brush that places objects gives them.
pub(in crate::app) fn cache_boxes<'a>(
    cx: &AppCtx,
    models: impl Iterator<Item = &'a str>,
    cache: &mut std::collections::HashMap<String, Option<crate::edit::objects::ModelBox>>,
) {
    let source = cx.doc.byte_source();
    // Called each frame a brush that places objects is chosen: known paths cost a lookup.
    for m in models {
        if !cache.contains_key(m) {
            let found =
                crate::assets::models::placement_box(m, &|p: &str| source(p).ok().flatten());
            cache.insert(m.to_string(), found);
        }
    }
}

/// Runs `file`'s operations as strokes, each an undo step, reading first the tiles each one
/// reaches; the tool panel then shows the last operation's tool and brush, and the brush
/// cursor sits on its last point. A script's last `paste` without a clipboard of its own is
/// taken up by `clipboard` (its source copied, pasting on).
pub fn run(cx: &mut AppCtx, file: &OpsFile, clipboard: &mut TerrainClipboard) {
    let source = cx.doc.byte_source();
    let model_box = |path: &str| {
        crate::assets::models::placement_box(path, &|p: &str| source(p).ok().flatten())
    };
    let on_disk = disk_uids(cx);
    let uids = crate::edit::objects::NewUids {
        range: cx.doc.uids.range(),
        on_disk: on_disk.as_deref(),
    };
    let Some(s) = &mut cx.doc.session else {
        return;
    };
    let folder = file.folder.clone();
    let read_image = |p: &str| crate::images::read_input(folder.as_deref(), p);
    let script = crate::doc::runner::Script {
        ops: &file.ops,
        cx: crate::edit::ops::OpContext {
            model_box: &model_box,
            uids: &uids,
            style: LiquidStyle::of(s.generation),
            read_image: &read_image,
        },
    };
    let mut touched = Vec::new();
    let mut failure = None;
    let loaded = crate::doc::runner::run(s, &script, &mut cx.doc.editing.history, |_, r| {
        match r {
            Ok(r) => touched.extend(r.tiles.into_iter().map(|t| (t, 0))),
            Err(e) => failure = Some(e),
        }
        true
    });
    if let Some(e) = failure {
        cx.shell.message = Some(e);
    }
    if loaded {
        cx.streams.objects.invalidate();
    }
    cx.after_edit(touched);
    let Some(s) = &mut cx.doc.session else {
        return;
    };
    if let Some(Operation::Paste(op)) = file.ops.last()
        && op.clipboard.is_none()
    {
        if let Err(e) = clipboard.follow_script(&cx.doc, op) {
            cx.shell.message = Some(e);
        }
        cx.doc.editing.settings.tool = Tool::CopyPaste;
        let last = op.points[op.points.len() - 1];
        let map = cx.doc.session.as_ref().map(|s| &s.map);
        let z = map
            .and_then(|m| crate::edit::lattice::height_at(m, last[0], last[1]))
            .unwrap_or(0.0) as f64;
        cx.view.shown_cursor = Some([last[0], last[1], z]);
        return;
    }
    // The erosion, texture-rules and biome strokes show their tool with the script's settings.
    let settings = &mut cx.doc.editing.settings;
    let natural = match file.ops.last() {
        Some(Operation::Erode(op)) => op.erosion().ok().map(|erosion| {
            settings.choose(Tool::Erode);
            settings.erosion = erosion;
            (op.brush(), &op.points)
        }),
        Some(Operation::Rules(op)) => {
            settings.choose(Tool::TextureRules);
            settings.rules = op.rules.clone();
            Some((op.brush(), &op.points))
        }
        Some(Operation::Biome(op)) => op.biome().ok().map(|biome| {
            settings.choose(Tool::Biome);
            settings.biome = biome;
            (op.brush(), &op.points)
        }),
        _ => None,
    };
    if let Some((brush, points)) = natural {
        settings.brush = brush;
        let last = points[points.len() - 1];
        let z = crate::edit::lattice::height_at(&s.map, last[0], last[1]).unwrap_or(0.0) as f64;
        cx.view.shown_cursor = Some([last[0], last[1], z]);
        return;
    }
    if let Some(op) = file.ops.iter().rev().find_map(|o| o.brush()) {
        cx.doc.editing.settings =
            crate::edit::tools::ToolSettings::for_op(op, cx.doc.editing.settings.clone());
        let last = op.points[op.points.len() - 1];
        let z = crate::edit::lattice::height_at(&s.map, last[0], last[1]).unwrap_or(0.0) as f64;
        cx.view.shown_cursor = Some([last[0], last[1], z]);
    }
}
