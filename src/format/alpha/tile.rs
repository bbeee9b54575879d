//! One alpha tile block — MCIN, MTEX, MDDF, MODF and 256 MCNK — shared by the 0.5.3/0.5.5
//! monolithic WDT (chunks back to back) and the 0.5.5 prototype ADT (8 bytes of padding before
//! each of MCIN, MTEX, MDDF and MODF, and before each MCNK's MCVT). Placement name ids index
//! the map-wide MDNM/MONM lists; the model's per-tile name lists are a view of those.
//!
//! Not for: the MHDR (its field layout differs between the two containers; the callers write
//! it) or the WDT around the tiles.

use std::collections::BTreeMap;

use super::mcnk;
use crate::format::chunk::{
    ErrorKind, FormatError, RawChunk, Result, Tag, Writer, expect_chunk, tags,
};
use crate::format::{names, placement};
use crate::model::coords::TileCoord;
use crate::model::monolithic::MapWideNames;
use crate::model::tile::{Tile, TileQuirks};

/// Disputed: what the MCRF values are. \[wiki\] and \[gp\] read them as MDNM/MONM name indices; the
/// 3.3.5 client and the parp writers as this tile's MDDF/MODF record numbers, which is what the
/// model's `doodad_refs`/`wmo_refs` hold and what `alpha-0.5.3.md` recommends. `true` writes the
/// record numbers unchanged. `false` would write each referenced placement's map-wide name index
/// instead and, reading, take a name index to the tile's first placement with that name.
pub const MCRF_RECORD_NUMBERS: bool = true;

/// Absolute file offsets of a tile block's chunk tags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BlockOffsets {
    /// MCIN.
    pub mcin: usize,
    /// MTEX.
    pub mtex: usize,
    /// MDDF.
    pub mddf: usize,
    /// MODF.
    pub modf: usize,
    /// The first MCNK.
    pub first_mcnk: usize,
}

/// How a tile block lays out its chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockLayout {
    /// Zero bytes before each of MCIN, MTEX, MDDF and MODF.
    pub chunk_pad: usize,
    /// Zero bytes between each MCNK header and its MCVT.
    pub mcnk_lead_pad: usize,
}

/// The monolithic WDT's tile block: chunks back to back.
pub const MONOLITHIC: BlockLayout = BlockLayout {
    chunk_pad: 0,
    mcnk_lead_pad: 0,
};

/// Each tile's names as indices into the map-wide lists, built for a save.
#[derive(Debug, Default)]
pub struct SaveNames {
    /// MDNM.
    pub doodads: Vec<String>,
    /// MONM.
    pub wmos: Vec<String>,
    /// Per tile: the MDNM index of each entry of its `doodad_names`.
    pub tile_doodads: BTreeMap<TileCoord, Vec<u32>>,
    /// Per tile: the MONM index of each entry of its `wmo_names`.
    pub tile_wmos: BTreeMap<TileCoord, Vec<u32>>,
}

/// Index of each of `tile_names` in `list`, appending names it lacks. A kept mapping is reused
/// where it still names the same string, so duplicates in a read file stay where they were.
fn assign(list: &mut Vec<String>, tile_names: &[String], kept: Option<&Vec<u32>>) -> Vec<u32> {
    tile_names
        .iter()
        .enumerate()
        .map(|(j, name)| {
            let kept_index = kept.and_then(|k| k.get(j)).copied();
            if let Some(g) = kept_index.filter(|&g| list.get(g as usize) == Some(name)) {
                return g;
            }
            match list.iter().position(|n| n == name) {
                Some(g) => g as u32,
                None => {
                    list.push(name.clone());
                    (list.len() - 1) as u32
                }
            }
        })
        .collect()
}

impl SaveNames {
    /// The map-wide lists for `tiles` (in MAIN order), starting from the lists the map was read
    /// with, plus `extra_wmo` (a WMO-only map's global WMO) whose MONM index is returned.
    pub fn build<'a>(
        kept: Option<&MapWideNames>,
        tiles: impl Iterator<Item = &'a Tile>,
        extra_wmo: Option<&str>,
    ) -> (SaveNames, Option<u32>) {
        let mut out = SaveNames {
            doodads: kept.map(|k| k.doodad_names.clone()).unwrap_or_default(),
            wmos: kept.map(|k| k.wmo_names.clone()).unwrap_or_default(),
            ..SaveNames::default()
        };
        let extra = extra_wmo.map(|name| assign(&mut out.wmos, &[name.to_string()], None)[0]);
        for tile in tiles {
            let d = assign(
                &mut out.doodads,
                &tile.doodad_names,
                kept.and_then(|k| k.tile_doodad_indices.get(&tile.coord)),
            );
            let m = assign(
                &mut out.wmos,
                &tile.wmo_names,
                kept.and_then(|k| k.tile_wmo_indices.get(&tile.coord)),
            );
            out.tile_doodads.insert(tile.coord, d);
            out.tile_wmos.insert(tile.coord, m);
        }
        (out, extra)
    }
}

/// A writer holding an MHDR of `mhdr_bytes` zeros (for the caller to fill in once the offsets
/// are known), then `tile`'s block (see [`write_block`]); with where the MHDR's payload starts
/// and where the block's chunks landed.
pub fn write_under_mhdr(
    tile: &Tile,
    names: &SaveNames,
    layout: BlockLayout,
    mhdr_bytes: usize,
) -> (Writer, usize, BlockOffsets) {
    let mut w = Writer::with_capacity(1 << 20);
    let mhdr = w.begin(tags::MHDR);
    let base = mhdr.payload_offset();
    w.zeros(mhdr_bytes);
    w.end(mhdr);
    let at = write_block(&mut w, tile, names, layout);
    (w, base, at)
}

/// Writes MCIN, MTEX, MDDF, MODF and the 256 MCNKs of `tile`, each of the first four after
/// `layout.chunk_pad` zero bytes; returns where each chunk's tag landed (absolute, when `w`
/// holds the whole file).
pub fn write_block(
    w: &mut Writer,
    tile: &Tile,
    names: &SaveNames,
    layout: BlockLayout,
) -> BlockOffsets {
    let mut at = BlockOffsets::default();
    w.zeros(layout.chunk_pad);
    at.mcin = w.len();
    let mcin = w.begin(tags::MCIN);
    let mcin_data = mcin.payload_offset();
    w.zeros(256 * 16);
    w.end(mcin);

    w.zeros(layout.chunk_pad);
    at.mtex = w.len();
    match &tile.quirks.raw_name_blocks[0] {
        Some(raw) if names::split(raw).0 == tile.textures => w.chunk(tags::MTEX, raw),
        _ => w.chunk(tags::MTEX, &names::join(&tile.textures)),
    }

    let empty = Vec::new();
    let doodad_idx = names.tile_doodads.get(&tile.coord).unwrap_or(&empty);
    let wmo_idx = names.tile_wmos.get(&tile.coord).unwrap_or(&empty);
    let mut doodads = tile.doodads.clone();
    to_map_wide(doodads.iter_mut().map(|d| &mut d.name_index), doodad_idx);
    w.zeros(layout.chunk_pad);
    at.mddf = w.len();
    placement::put_mddf(w, &doodads);
    let mut wmos = tile.wmos.clone();
    to_map_wide(wmos.iter_mut().map(|p| &mut p.name_index), wmo_idx);
    w.zeros(layout.chunk_pad);
    at.modf = w.len();
    placement::put_modf(w, &wmos);

    at.first_mcnk = w.len();
    for (i, chunk) in tile.chunks.iter().enumerate() {
        let start = w.len();
        if MCRF_RECORD_NUMBERS {
            mcnk::write(w, chunk, i % 16, i / 16, layout.mcnk_lead_pad);
        } else {
            let global_name = |records: &[u32], index: &[u32], r: u32| -> u32 {
                records
                    .get(r as usize)
                    .and_then(|&n| index.get(n as usize))
                    .copied()
                    .unwrap_or(r)
            };
            let doodad_names: Vec<u32> = tile.doodads.iter().map(|d| d.name_index).collect();
            let wmo_names: Vec<u32> = tile.wmos.iter().map(|p| p.name_index).collect();
            let mut c = chunk.clone();
            for r in c.doodad_refs.iter_mut() {
                *r = global_name(&doodad_names, doodad_idx, *r);
            }
            for r in c.wmo_refs.iter_mut() {
                *r = global_name(&wmo_names, wmo_idx, *r);
            }
            mcnk::write(w, &c, i % 16, i / 16, layout.mcnk_lead_pad);
        }
        w.patch_u32(mcin_data + i * 16, start as u32);
        w.patch_u32(mcin_data + i * 16 + 4, (w.len() - start) as u32);
    }
    at
}

/// Turns the tile's name indices into the map-wide ones its view `index` gives (one it lacks
/// stays as it is); the opposite of [`tile_view`].
fn to_map_wide<'a>(names: impl Iterator<Item = &'a mut u32>, index: &[u32]) {
    for n in names {
        *n = index.get(*n as usize).copied().unwrap_or(*n);
    }
}

/// The per-tile view of map-wide names: the entries a tile's placements use, in map order,
/// and their map-wide indices. The placements' name indices (`used`, map-wide, one per
/// `record`-byte record of `chunk`) become indices into that view.
fn tile_view(
    global: &[String],
    mut used: Vec<&mut u32>,
    chunk: &RawChunk,
    record: usize,
) -> Result<(Vec<String>, Vec<u32>)> {
    for (i, g) in used.iter().enumerate() {
        if **g as usize >= global.len() {
            return Err(chunk.error(
                i * record,
                ErrorKind::OffsetOutOfRange {
                    offset: **g as u64,
                    limit: global.len() as u64,
                },
            ));
        }
    }
    let mut indices: Vec<u32> = used.iter().map(|g| **g).collect();
    indices.sort_unstable();
    indices.dedup();
    let view = indices
        .iter()
        .map(|&g| global[g as usize].clone())
        .collect();
    for g in used.iter_mut() {
        **g = indices.binary_search(g).unwrap_or(0) as u32;
    }
    Ok((view, indices))
}

/// Reads the tile block whose chunk tags sit at `at` (absolute offsets into `bytes`), mapping
/// name ids through `global` (MDNM, MONM) and recording the tile's view in `kept`.
pub fn read_block(
    bytes: &[u8],
    at: BlockOffsets,
    coord: TileCoord,
    global: &mut MapWideNames,
) -> Result<Tile> {
    read_block_at(bytes, 0, at, coord, global)
}

/// [`read_block`] over a window of the file: `bytes[0]` is the file's byte `base`, and `at`
/// and the MCIN offsets stay absolute file offsets (as the file stores them), so a streaming
/// reader need not hold the whole file.
pub fn read_block_at(
    bytes: &[u8],
    base: usize,
    at: BlockOffsets,
    coord: TileCoord,
    global: &mut MapWideNames,
) -> Result<Tile> {
    // An absolute offset before the window cannot be read from it.
    let rel = |abs: usize, tag: Tag| {
        abs.checked_sub(base).ok_or_else(|| {
            FormatError::new(
                tag,
                abs,
                ErrorKind::OffsetOutOfRange {
                    offset: abs as u64,
                    limit: base as u64,
                },
            )
        })
    };
    let mcin = expect_chunk(bytes, rel(at.mcin, tags::MCIN)?, base, tags::MCIN)?;
    if mcin.payload.len() < 256 * 16 {
        return Err(mcin.bad_size("MCIN holds 256 entries of 16 bytes"));
    }
    let mtex = expect_chunk(bytes, rel(at.mtex, tags::MTEX)?, base, tags::MTEX)?;
    let (textures, canonical) = names::split(mtex.payload);
    let mut quirks = TileQuirks::default();
    if !canonical {
        quirks.raw_name_blocks[0] = Some(mtex.payload.to_vec());
    }

    let mddf = expect_chunk(bytes, rel(at.mddf, tags::MDDF)?, base, tags::MDDF)?;
    let mut doodads = placement::read_doodads(&mddf)?;
    let doodad_indices = doodads.iter_mut().map(|d| &mut d.name_index).collect();
    let (doodad_names, doodad_idx) = tile_view(
        &global.doodad_names,
        doodad_indices,
        &mddf,
        placement::DOODAD_RECORD,
    )?;

    let modf = expect_chunk(bytes, rel(at.modf, tags::MODF)?, base, tags::MODF)?;
    let mut wmos = placement::read_wmos(&modf)?;
    let wmo_indices = wmos.iter_mut().map(|p| &mut p.name_index).collect();
    let (wmo_names, wmo_idx) =
        tile_view(&global.wmo_names, wmo_indices, &modf, placement::WMO_RECORD)?;

    let mut ir = mcin.reader();
    let mut chunks = Vec::with_capacity(256);
    for _ in 0..256 {
        let ofs = ir.u32()? as usize;
        let _size = ir.u32()?;
        let _flags = ir.u32()?;
        let _async = ir.u32()?;
        let raw = expect_chunk(bytes, rel(ofs, tags::MCNK)?, base, tags::MCNK).map_err(|e| {
            if e.chunk == tags::MCNK || e.chunk == tags::FILE {
                e
            } else {
                FormatError::new(tags::MCNK, ofs.min(base + bytes.len()), e.kind)
            }
        })?;
        chunks.push(mcnk::read(&raw)?);
    }
    if !MCRF_RECORD_NUMBERS {
        let first_record = |names: &[u32], index: &[u32], g: u32| -> u32 {
            names
                .iter()
                .position(|&n| index.get(n as usize) == Some(&g))
                .map_or(g, |p| p as u32)
        };
        let dn: Vec<u32> = doodads.iter().map(|d| d.name_index).collect();
        let wn: Vec<u32> = wmos.iter().map(|p| p.name_index).collect();
        for c in chunks.iter_mut() {
            for r in c.doodad_refs.iter_mut() {
                *r = first_record(&dn, &doodad_idx, *r);
            }
            for r in c.wmo_refs.iter_mut() {
                *r = first_record(&wn, &wmo_idx, *r);
            }
        }
    }

    global.tile_doodad_indices.insert(coord, doodad_idx);
    global.tile_wmo_indices.insert(coord, wmo_idx);
    Ok(Tile {
        coord,
        flags: 0,
        textures,
        texture_flags: None,
        doodad_names,
        wmo_names,
        doodads,
        wmos,
        chunks,
        flight_bounds: None,
        unknown_chunks: Vec::new(),
        quirks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile_named(x: usize, doodads: &[&str]) -> Tile {
        let coord = TileCoord::new(x, 0).unwrap();
        Tile {
            coord,
            flags: 0,
            textures: vec![],
            texture_flags: None,
            doodad_names: doodads.iter().map(|s| s.to_string()).collect(),
            wmo_names: vec![],
            doodads: vec![],
            wmos: vec![],
            chunks: vec![],
            flight_bounds: None,
            unknown_chunks: vec![],
            quirks: TileQuirks::default(),
        }
    }

    #[test]
    fn names_are_shared_across_tiles_in_first_appearance_order() {
        let a = tile_named(0, &["a.mdx", "b.mdx"]);
        let b = tile_named(1, &["c.mdx", "a.mdx"]);
        let (names, extra) = SaveNames::build(None, [&a, &b].into_iter(), Some("w.wmo"));
        assert_eq!(names.doodads, ["a.mdx", "b.mdx", "c.mdx"]);
        assert_eq!(names.tile_doodads[&b.coord], [2, 0]);
        assert_eq!(
            (names.wmos.clone(), extra),
            (vec!["w.wmo".to_string()], Some(0))
        );
    }

    #[test]
    fn kept_indices_keep_duplicates_and_follow_renames() {
        let a = tile_named(0, &["x.mdx", "y.mdx"]);
        let mut kept = MapWideNames {
            doodad_names: vec!["x.mdx".into(), "unused.mdx".into(), "x.mdx".into()],
            ..MapWideNames::default()
        };
        // The tile's "x.mdx" was the second copy in the file.
        kept.tile_doodad_indices.insert(a.coord, vec![2, 7]);
        let (names, _) = SaveNames::build(Some(&kept), [&a].into_iter(), None);
        assert_eq!(names.doodads, ["x.mdx", "unused.mdx", "x.mdx", "y.mdx"]);
        assert_eq!(names.tile_doodads[&a.coord], [2, 3]);
    }
}
