//! `loam info`: what a map or tile holds, as text or JSON.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use crate::assets::client::AreaNames;
use crate::disk::LoamError;
use crate::format::Generation;
use crate::model::chunk::{FLAG_DO_NOT_FIX_ALPHA, FLAG_HAS_SHADOW, FLAG_IMPASSABLE};
use crate::model::liquid::{LiquidOrigin, liquid_type};
use crate::model::map::*;
use crate::model::{AlphaEncoding, Map, Tile};
use crate::pipeline;

/// Everything `info` reports about a map.
#[derive(Debug, Serialize)]
pub struct MapInfo {
    /// The file described.
    pub path: String,
    /// Client generation of the files ("3.3.5").
    pub generation: String,
    /// How the generation was decided ("MH2O in 12 tiles", "no 3.3.5-only chunk: 1.12
    /// assumed", "as --from / Read as says").
    pub generation_reason: String,
    /// What was opened: "wdt", "monolithic", "folder" (tiles without a WDT) or "tile".
    pub kind: String,
    /// Map name.
    pub name: String,
    /// True when opened from a WDT.
    pub has_wdt: bool,
    /// MPHD flags and their names.
    pub flags: Flags,
    /// Tiles MAIN lists.
    pub tiles_listed: usize,
    /// Tiles MAIN lists that are not on disk, as "X_Y".
    pub tiles_missing: Vec<String>,
    /// Tiles whose file is there but cannot be read, with the reason.
    pub tiles_unreadable: Vec<UnreadableTile>,
    /// The global WMO of a WMO-only map.
    pub global_wmo: Option<String>,
    /// Each tile read.
    pub tiles: Vec<TileInfo>,
}

/// A tile that could not be read.
#[derive(Debug, Serialize)]
pub struct UnreadableTile {
    /// "X_Y" as in the file name.
    pub tile: String,
    /// Why: the file, chunk and byte offset.
    pub error: String,
}

/// A flag word with the names of its set bits.
#[derive(Debug, Serialize)]
pub struct Flags {
    /// The raw value.
    pub value: u32,
    /// Names of the set bits.
    pub names: Vec<String>,
}

/// Everything `info` reports about a tile.
#[derive(Debug, Serialize)]
pub struct TileInfo {
    /// "X_Y" as in the file name.
    pub tile: String,
    /// MHDR flags.
    pub flags: Flags,
    /// Texture paths and how many chunks use each.
    pub textures: Vec<TextureUse>,
    /// Doodad placements (MDDF).
    pub doodads: usize,
    /// Distinct doodad models (MMDX).
    pub doodad_models: usize,
    /// WMO placements (MODF).
    pub wmos: usize,
    /// Distinct WMO models (MWMO).
    pub wmo_models: usize,
    /// Chunks with liquid.
    pub liquid_chunks: usize,
    /// Liquid layers by kind and storage ("water (MH2O)" → count).
    pub liquid_layers: BTreeMap<String, usize>,
    /// Chunks by number of texture layers (index 0..=4).
    pub chunks_by_layer_count: [usize; 5],
    /// Alpha maps by on-disk form.
    pub alpha_maps: BTreeMap<String, usize>,
    /// Chunks with vertex colours.
    pub vertex_color_chunks: usize,
    /// Chunks with a shadow map.
    pub shadow_chunks: usize,
    /// Chunks with at least one hole.
    pub holed_chunks: usize,
    /// Impassable chunks.
    pub impassable_chunks: usize,
    /// Distinct area ids.
    pub area_ids: Vec<u32>,
    /// The zone (and subzone) each area id names in the client's AreaTable.dbc, with
    /// `--client`; ids the table lacks are left out. Empty without a client.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub area_names: BTreeMap<u32, String>,
    /// Distinct ground effect ids the tile's layers grow (GroundEffectTexture rows).
    pub ground_effects: Vec<u32>,
    /// What each effect grows, from the client's GroundEffectTexture and GroundEffectDoodad
    /// tables, with `--client`; ids the table lacks are left out.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub ground_effect_names: BTreeMap<u32, String>,
    /// 8×8 cells whose ground effects are switched off (noEffectDoodad).
    pub effects_off_cells: usize,
    /// Sound emitters.
    pub sound_emitters: usize,
    /// True when the tile has flight bounds (MFBO).
    pub flight_bounds: bool,
    /// Chunks loam does not know, by tag.
    pub unknown_chunks: Vec<String>,
}

/// A texture and its use.
#[derive(Debug, Serialize)]
pub struct TextureUse {
    /// Path.
    pub path: String,
    /// Chunks with a layer of it.
    pub chunks: usize,
}

fn flag_names(value: u32, table: &[(u32, &str)]) -> Flags {
    let mut names: Vec<String> = table
        .iter()
        .filter(|(b, _)| value & b != 0)
        .map(|(_, n)| n.to_string())
        .collect();
    let known: u32 = table.iter().map(|(b, _)| b).fold(0, |a, b| a | b);
    if value & !known != 0 {
        names.push(format!("unknown 0x{:x}", value & !known));
    }
    Flags { value, names }
}

/// Describes one tile.
pub fn tile_info(tile: &Tile) -> TileInfo {
    let mut uses = vec![0usize; tile.textures.len()];
    let mut by_layers = [0usize; 5];
    let mut alpha = BTreeMap::new();
    let mut liquid_layers = BTreeMap::new();
    let mut areas = std::collections::BTreeSet::new();
    for c in &tile.chunks {
        by_layers[c.layers.len().min(4)] += 1;
        let mut seen = std::collections::BTreeSet::new();
        for l in &c.layers {
            if seen.insert(l.texture)
                && let Some(u) = uses.get_mut(l.texture as usize)
            {
                *u += 1;
            }
            if let Some(a) = &l.alpha {
                let form = match a.source().map(|s| s.encoding) {
                    Some(AlphaEncoding::Rle) => "8-bit RLE",
                    Some(AlphaEncoding::NibbleFixed) => "4-bit 63×63",
                    _ if c.flags & FLAG_DO_NOT_FIX_ALPHA == 0
                        && a.texels().iter().all(|t| t % 17 == 0) =>
                    {
                        "4-bit 63×63"
                    }
                    _ if a.texels().iter().all(|t| t % 17 == 0) => "4-bit",
                    _ => "8-bit",
                };
                *alpha.entry(form.to_string()).or_default() += 1;
            }
        }
        areas.insert(c.area_id);
        for l in c.liquid.iter().flat_map(|l| &l.layers) {
            let kind = match l.liquid_type {
                liquid_type::WATER => "water".to_string(),
                liquid_type::OCEAN => "ocean".to_string(),
                liquid_type::MAGMA => "magma".to_string(),
                liquid_type::SLIME => "slime".to_string(),
                other => format!("type {other}"),
            };
            let store = if matches!(l.origin, LiquidOrigin::Mclq(_)) {
                "MCLQ"
            } else {
                "MH2O"
            };
            *liquid_layers
                .entry(format!("{kind} ({store})"))
                .or_default() += 1;
        }
    }
    TileInfo {
        tile: format!("{}_{}", tile.coord.x, tile.coord.y),
        flags: flag_names(tile.flags, &[(1, "flight bounds (MFBO)"), (2, "northrend")]),
        textures: tile
            .textures
            .iter()
            .zip(uses)
            .map(|(p, chunks)| TextureUse {
                path: p.clone(),
                chunks,
            })
            .collect(),
        doodads: tile.doodads.len(),
        doodad_models: tile.doodad_names.len(),
        wmos: tile.wmos.len(),
        wmo_models: tile.wmo_names.len(),
        liquid_chunks: tile.liquid_chunk_count(),
        liquid_layers,
        chunks_by_layer_count: by_layers,
        alpha_maps: alpha,
        vertex_color_chunks: tile
            .chunks
            .iter()
            .filter(|c| c.vertex_colors.is_some())
            .count(),
        shadow_chunks: tile
            .chunks
            .iter()
            .filter(|c| c.flags & FLAG_HAS_SHADOW != 0)
            .count(),
        holed_chunks: tile.chunks.iter().filter(|c| c.holes != 0).count(),
        impassable_chunks: tile
            .chunks
            .iter()
            .filter(|c| c.flags & FLAG_IMPASSABLE != 0)
            .count(),
        area_ids: areas.into_iter().collect(),
        area_names: BTreeMap::new(),
        ground_effects: tile
            .chunks
            .iter()
            .flat_map(|c| &c.layers)
            .map(|l| l.effect_id)
            .filter(|&e| e != 0 && e != crate::model::chunk::NO_EFFECT)
            .collect::<std::collections::BTreeSet<u32>>()
            .into_iter()
            .collect(),
        ground_effect_names: BTreeMap::new(),
        effects_off_cells: tile
            .chunks
            .iter()
            .flat_map(|c| c.no_effect_doodad)
            .map(|b| b.count_ones() as usize)
            .sum(),
        sound_emitters: tile.chunks.iter().map(|c| c.sound_emitters.len()).sum(),
        flight_bounds: tile.flight_bounds.is_some(),
        unknown_chunks: tile
            .unknown_chunks
            .iter()
            .map(|u| String::from_utf8_lossy(&u.tag).into_owned())
            .collect(),
    }
}

/// Describes a map and its loaded tiles.
pub fn map_info(path: &Path, opened: &pipeline::OpenedMap) -> MapInfo {
    let map: &Map = &opened.map;
    MapInfo {
        path: path.display().to_string(),
        generation: opened.generation.to_string(),
        generation_reason: opened.decision.reason.clone(),
        kind: match opened.kind {
            pipeline::MapKind::SplitWdt => "wdt",
            pipeline::MapKind::Monolithic => "monolithic",
            pipeline::MapKind::Folder => "folder",
            pipeline::MapKind::LoneTile => "tile",
        }
        .to_string(),
        name: map.name.clone(),
        has_wdt: opened.wdt.is_some(),
        flags: flag_names(
            map.flags,
            &[
                (MAP_FLAG_GLOBAL_WMO, "global WMO only"),
                (MAP_FLAG_VERTEX_COLORS, "vertex colours (MCCV)"),
                (MAP_FLAG_BIG_ALPHA, "8-bit alpha"),
                (MAP_FLAG_SORTED_DOODAD_REFS, "sorted doodad refs"),
                (0x10, "MCLV"),
                (0x20, "upside-down ground"),
                (MAP_FLAG_HEIGHT_TEXTURING, "height texturing"),
            ],
        ),
        tiles_listed: map.present_tiles().len(),
        tiles_missing: opened
            .missing_tiles
            .iter()
            .map(|c| format!("{}_{}", c.x, c.y))
            .collect(),
        tiles_unreadable: opened
            .failed
            .iter()
            .map(|(c, e)| UnreadableTile {
                tile: format!("{}_{}", c.x, c.y),
                error: e.clone(),
            })
            .collect(),
        global_wmo: map.global_wmo.as_ref().map(|g| g.name.clone()),
        tiles: map.tiles.values().map(tile_info).collect(),
    }
}

/// Describes the map at `path` tile by tile where it can be read that way (split maps, folders
/// of tiles, 0.5.x WDTs with every tile inside): each tile is read, described and dropped, so a
/// 64×64 map needs the memory of a few tiles, not of all 4096 (22 GB for 4096 of the corpus's
/// largest tile, whole). Lone tiles and 0.5.5 maps with prototype ADTs are opened whole. The
/// result is the one [`map_info`] gives of the whole map opened.
pub fn describe(path: &Path, from: Option<Generation>) -> Result<MapInfo, LoamError> {
    let Some(source) = pipeline::source::open_source_with(path, from, false)? else {
        return Ok(map_info(path, &pipeline::open_map_as(path, from)?));
    };
    let mut infos = Vec::new();
    let failed = source.visit_tiles(|t| (t.coord, tile_info(&t)), |i| infos.push(i));
    // In the map's tile order, as a whole map's tiles are described.
    infos.sort_by_key(|(c, _)| *c);
    let mut info = map_info(path, &source.into_opened(failed));
    info.tiles = infos.into_iter().map(|(_, i)| i).collect();
    Ok(info)
}

/// Runs `loam info PATH [--json] [--from GEN] [--client DIR]`: with a client, each area id
/// is named from its AreaTable.dbc.
pub fn run(
    path: &Path,
    json: bool,
    from: Option<Generation>,
    client: Option<&Path>,
) -> Result<ExitCode, LoamError> {
    let mut info = describe(path, from)?;
    if let Some(dir) = client {
        let client = super::client::open(dir)?;
        name_areas(&mut info, &super::client::area_names(&client, dir));
        let effects = client.ground_effect_names();
        for t in &mut info.tiles {
            t.ground_effect_names = t
                .ground_effects
                .iter()
                .filter_map(|&id| Some((id, effects.describe(id)?)))
                .collect();
        }
    }
    super::print_info(&info, json, render_text)
}

/// Fills each tile's `area_names` from `names`.
pub fn name_areas(info: &mut MapInfo, names: &AreaNames) {
    for t in &mut info.tiles {
        t.area_names = t
            .area_ids
            .iter()
            .filter_map(|id| Some((*id, names.describe(*id)?)))
            .collect();
    }
}

/// The human-readable form of [`MapInfo`].
pub fn render_text(info: &MapInfo) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let kind = match info.kind.as_str() {
        "monolithic" => "map (monolithic WDT)",
        "wdt" => "map (WDT + ADTs)",
        "folder" => "map (ADTs without a WDT: one is inferred from the tiles)",
        _ => "tile (ADT, read without its WDT)",
    };
    let _ = writeln!(
        s,
        "{}: {} {kind}, generation {}",
        info.path, info.name, info.generation
    );
    let _ = writeln!(s, "generation decided by: {}", info.generation_reason);
    let _ = writeln!(
        s,
        "map flags: 0x{:x} {}",
        info.flags.value,
        info.flags.names.join(", ")
    );
    if info.kind != "tile" {
        let _ = writeln!(
            s,
            "tiles: {} listed, {} read, {} missing, {} unreadable",
            info.tiles_listed,
            info.tiles.len(),
            info.tiles_missing.len(),
            info.tiles_unreadable.len()
        );
        for u in &info.tiles_unreadable {
            let _ = writeln!(s, "  unreadable {}: {}", u.tile, u.error);
        }
        if !info.tiles_missing.is_empty() {
            let shown: Vec<_> = info.tiles_missing.iter().take(12).cloned().collect();
            let more = info.tiles_missing.len().saturating_sub(shown.len());
            let _ = writeln!(
                s,
                "  missing: {}{}",
                shown.join(" "),
                if more > 0 {
                    format!(" … and {more} more")
                } else {
                    String::new()
                }
            );
        }
    }
    if let Some(w) = &info.global_wmo {
        let _ = writeln!(s, "global WMO: {w}");
    }
    for t in &info.tiles {
        let _ = writeln!(
            s,
            "\ntile {}  (MHDR flags 0x{:x} {})",
            t.tile,
            t.flags.value,
            t.flags.names.join(", ")
        );
        let _ = writeln!(s, "  textures: {}", t.textures.len());
        for (i, tex) in t.textures.iter().enumerate() {
            let _ = writeln!(s, "    {i:>3}  {}  ({} chunks)", tex.path, tex.chunks);
        }
        let _ = writeln!(
            s,
            "  doodads: {} placements of {} models",
            t.doodads, t.doodad_models
        );
        let _ = writeln!(
            s,
            "  WMOs: {} placements of {} models",
            t.wmos, t.wmo_models
        );
        let liquids = counted(&t.liquid_layers);
        let _ = writeln!(
            s,
            "  liquid: {} chunks{}",
            t.liquid_chunks,
            if liquids.is_empty() {
                String::new()
            } else {
                format!(" ({})", liquids.join(", "))
            }
        );
        let l = t.chunks_by_layer_count;
        let _ = writeln!(
            s,
            "  chunks by layer count: 0:{} 1:{} 2:{} 3:{} 4:{}",
            l[0], l[1], l[2], l[3], l[4]
        );
        let alpha = counted(&t.alpha_maps);
        let _ = writeln!(
            s,
            "  alpha maps: {}",
            if alpha.is_empty() {
                "none".to_string()
            } else {
                alpha.join(", ")
            }
        );
        let _ = writeln!(
            s,
            "  vertex colours: {} chunks; shadows: {}; holes: {}; impassable: {}",
            t.vertex_color_chunks, t.shadow_chunks, t.holed_chunks, t.impassable_chunks
        );
        if info.tiles.iter().all(|t| t.area_names.is_empty()) {
            let areas: Vec<String> = t.area_ids.iter().map(u32::to_string).collect();
            let _ = writeln!(s, "  area ids: {}", areas.join(" "));
        } else {
            let _ = writeln!(s, "  areas:");
            for id in &t.area_ids {
                let name = t
                    .area_names
                    .get(id)
                    .map_or("(not in the client's AreaTable.dbc)", String::as_str);
                let _ = writeln!(s, "    {id:>6}  {name}");
            }
        }
        let effects: Vec<String> = t
            .ground_effects
            .iter()
            .map(|id| match t.ground_effect_names.get(id) {
                Some(name) => format!("{id} ({name})"),
                None => id.to_string(),
            })
            .collect();
        let _ = writeln!(
            s,
            "  ground effects: {}; {} cells switched off",
            if effects.is_empty() {
                "none".to_string()
            } else {
                effects.join(", ")
            },
            t.effects_off_cells
        );
        let _ = writeln!(
            s,
            "  sound emitters: {}; flight bounds: {}",
            t.sound_emitters,
            if t.flight_bounds { "yes" } else { "no" }
        );
        if !t.unknown_chunks.is_empty() {
            let _ = writeln!(s, "  unknown chunks kept: {}", t.unknown_chunks.join(" "));
        }
    }
    s
}

/// Each kind with its count, as "3 water".
fn counted(counts: &BTreeMap<String, usize>) -> Vec<String> {
    counts.iter().map(|(k, n)| format!("{n} {k}")).collect()
}
