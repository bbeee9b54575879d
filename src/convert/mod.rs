//! What each target generation keeps, transforms and drops, applied to the model before a
//! codec encodes it, and the report of it.
//!
//! Not for: bytes (the codecs in `format` encode whatever the model holds); this module makes
//! the model fit the target first, so that the codec's output is valid for that client.

pub mod areas;
pub mod blank;
pub mod liquid;
pub mod report;

pub use areas::AreaMap;
pub use report::Report;

use crate::format::Generation;
use crate::model::chunk::{FLAG_HAS_VERTEX_COLORS, LAYER_ALPHA_COMPRESSED};
use crate::model::map::{MAP_FLAG_BIG_ALPHA, MAP_FLAG_HEIGHT_TEXTURING, MAP_FLAG_VERTEX_COLORS};
use crate::model::tile::TILE_FLAG_FLIGHT_BOUNDS;
use crate::model::{Map, Tile};

/// Choices a user makes for a conversion.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Area id translation (`--area-map`); ids it does not list pass through.
    pub area_map: Option<AreaMap>,
    /// The files are for a game client (`--pack`, Export for client): a split WDT without
    /// MWMO gets an empty one, which Blizzard's WDTs have and the servers' extractors require
    /// (azerothcore-wotlk #5135, TrinityCore #26537), instead of keeping the other tool's mark.
    pub for_client: bool,
}

/// True for the generations whose clients load MDX models (0.5.x, 0.6.0).
fn uses_mdx(g: Generation) -> bool {
    g <= Generation::V060
}

/// True for the generations whose area ids are alpha `zone << 16 | subzone` numbers.
fn alpha_area_ids(g: Generation) -> bool {
    g <= Generation::Alpha055
}

/// Makes `map` (header and every loaded tile) fit generation `to`, returning what changed.
/// Converting to the generation a map already has changes nothing (an area map, if given, still
/// applies).
pub fn prepare_map(map: &mut Map, from: Generation, to: Generation) -> Report {
    prepare_map_with(map, from, to, &Options::default())
}

/// [`prepare_map`] with user choices.
pub fn prepare_map_with(
    map: &mut Map,
    from: Generation,
    to: Generation,
    options: &Options,
) -> Report {
    let mut report = prepare_header(map, from, to, options, map.tiles.len());
    for tile in map.tiles.values_mut() {
        report.merge(prepare_tile_with(tile, from, to, options));
    }
    report
}

/// The map-wide part of [`prepare_map_with`]: the WDT header's flags, and the notes that speak
/// for all `tiles` at once. A streaming conversion calls it once, then
/// [`prepare_tile_with`] for each tile as it passes.
pub fn prepare_header(
    map: &mut Map,
    from: Generation,
    to: Generation,
    options: &Options,
    tiles: usize,
) -> Report {
    let mut report = Report::new(from, to);
    if options.for_client
        && to >= Generation::V060
        && map.global_wmo.is_none()
        && !map.empty_wmo_names_chunk
    {
        map.empty_wmo_names_chunk = true;
        map.wdt_quirks
            .retain(|q| q.kind != crate::model::QuirkKind::WdtWithoutMwmo);
        report.note(
            "WDT: empty MWMO written (the servers' map extractors reject WDTs without one)",
            1,
        );
    }
    if options.area_map.is_none() && alpha_area_ids(from) != alpha_area_ids(to) {
        let chunks = tiles as u64 * 256;
        report.note("area ids passed through unchanged (alpha zone<<16|subzone and AreaTable ids differ; see --area-map)", chunks);
    }
    if from == to {
        return report;
    }
    if to < Generation::V335 {
        if map.flags & (MAP_FLAG_BIG_ALPHA | MAP_FLAG_HEIGHT_TEXTURING) != 0 {
            report.note("map: 8-bit alpha flag cleared (alpha maps become 4-bit)", 1);
        }
        if map.flags & MAP_FLAG_VERTEX_COLORS != 0 {
            report.note("map: vertex colour flag cleared", 1);
        }
        map.flags &= !(MAP_FLAG_BIG_ALPHA | MAP_FLAG_HEIGHT_TEXTURING | MAP_FLAG_VERTEX_COLORS);
    }
    report
}

/// Makes one tile fit generation `to` with the user's choices: area ids translated, model
/// paths renamed between `.m2` and `.mdx`, and what the target cannot hold dropped.
pub fn prepare_tile_with(
    tile: &mut Tile,
    from: Generation,
    to: Generation,
    options: &Options,
) -> Report {
    let mut report = Report::new(from, to);
    if let Some(areas) = &options.area_map {
        areas.apply(tile, &mut report);
    }
    if from == to {
        return report;
    }
    rename_doodad_models(&mut tile.doodad_names, from, to, &mut report);
    report.merge(prepare_tile(tile, from, to));
    report
}

/// Renames doodad model paths between `.m2` (1.12 and later) and `.mdx` (0.5.x, 0.6.0) when
/// the two generations' clients load different ones; the only change conversion makes to a
/// tile's model names.
pub fn rename_doodad_models(
    names: &mut [String],
    from: Generation,
    to: Generation,
    report: &mut Report,
) {
    if uses_mdx(from) == uses_mdx(to) {
        return;
    }
    let (old, new) = if uses_mdx(to) {
        (".m2", ".mdx")
    } else {
        (".mdx", ".m2")
    };
    for name in names {
        if name.to_ascii_lowercase().ends_with(old)
            || (old == ".mdx" && name.to_ascii_lowercase().ends_with(".mdl"))
        {
            let stem = &name[..name.rfind('.').unwrap_or(name.len())];
            *name = format!("{stem}{new}");
            report.note(format!("doodad model paths renamed {old} → {new}"), 1);
        }
    }
}

/// Makes one tile fit generation `to`.
pub fn prepare_tile(tile: &mut Tile, from: Generation, to: Generation) -> Report {
    let mut report = Report::new(from, to);
    if from == to {
        return report;
    }
    // A converted file is written fresh: it need not repeat another tool's marks.
    tile.quirks.forget_tool_marks();
    for chunk in &mut tile.chunks {
        chunk.quirks.forget_tool_marks();
    }
    if to < Generation::V335 {
        down_to_vanilla(tile, &mut report);
    } else {
        up_to_wotlk(tile, &mut report);
    }
    report
}

/// 3.3.5 → 1.12 (and older): what the vanilla ADT cannot hold.
fn down_to_vanilla(tile: &mut Tile, report: &mut Report) {
    if tile.texture_flags.take().is_some() {
        report.note("tile: texture flags (MTXF) dropped", 1);
    }
    if tile.flight_bounds.take().is_some() {
        report.note("tile: flight bounds (MFBO) dropped", 1);
    }
    tile.flags &= !TILE_FLAG_FLIGHT_BOUNDS;
    for chunk in &mut tile.chunks {
        if chunk.vertex_colors.take().is_some() {
            report.note("chunks: vertex colours (MCCV) dropped", 1);
        }
        chunk.flags &= !FLAG_HAS_VERTEX_COLORS;
        for layer in &mut chunk.layers {
            let Some(alpha) = layer.alpha.as_mut() else {
                continue;
            };
            layer.flags &= !LAYER_ALPHA_COMPRESSED;
            let narrowed = alpha.texels().iter().any(|&t| t % 17 != 0);
            if narrowed {
                for t in alpha.texels_mut().iter_mut() {
                    *t = crate::format::mcal::to_nibble(*t) * 17;
                }
                report.note("layers: 8-bit alpha rounded to 4-bit", 1);
            } else {
                alpha.forget_source();
            }
        }
        if !chunk.sound_emitters.is_empty() && chunk.quirks.sound_record_size.is_none() {
            report.note(
                "chunks: 3.3.5 sound emitters (28-byte MCSE records) dropped",
                chunk.sound_emitters.len() as u64,
            );
            chunk.sound_emitters.clear();
        }
        liquid::to_mclq(chunk, report);
    }
}

/// 1.12 → 3.3.5: old-style liquid becomes MH2O; everything else 3.3.5 reads as it is.
fn up_to_wotlk(tile: &mut Tile, report: &mut Report) {
    for chunk in &mut tile.chunks {
        liquid::to_mh2o(chunk, report);
    }
}
