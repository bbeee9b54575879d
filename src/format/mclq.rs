//! Old-style liquid (MCLQ): per-chunk instances of 9×9 vertices and 8×8 tile bytes, one instance
//! for each liquid flag (river, ocean, magma, slime) set on the chunk, in that order.

use super::chunk::{ErrorKind, Reader, Result, Writer};
use crate::model::chunk::{
    FLAG_LIQUID_MAGMA, FLAG_LIQUID_OCEAN, FLAG_LIQUID_RIVER, FLAG_LIQUID_SLIME,
};
use crate::model::liquid::{LiquidLayer, LiquidOrigin, MclqExtras, liquid_type, rectangle_mask};

/// Bytes of the two flow-vector records that end a v18 (and 0.5.x) instance.
pub const FLOW_BYTES: usize = 80;
/// Bytes of one v18 MCLQ instance: height range, 81 vertices, 64 tiles, flow count, 2 flows.
/// The 0.5.x alpha instance (0x324) is the same 804 bytes.
pub const INSTANCE_BYTES: usize = 8 + 81 * 8 + 64 + 4 + FLOW_BYTES;
/// Bytes of one 0.6.0 instance (0x2D4): the v18 instance without the two flow records.
pub const INSTANCE_BYTES_060: usize = INSTANCE_BYTES - FLOW_BYTES;

/// The MCNK liquid flags in instance order, with the liquid type each stands for.
pub const FLAG_ORDER: [(u32, u16); 4] = [
    (FLAG_LIQUID_RIVER, liquid_type::WATER),
    (FLAG_LIQUID_OCEAN, liquid_type::OCEAN),
    (FLAG_LIQUID_MAGMA, liquid_type::MAGMA),
    (FLAG_LIQUID_SLIME, liquid_type::SLIME),
];

/// The MCNK flag for a liquid type (types beyond the classic four count as water).
pub fn flag_for_type(t: u16) -> u32 {
    FLAG_ORDER
        .iter()
        .find(|(_, ty)| *ty == t)
        .map_or(FLAG_LIQUID_RIVER, |(f, _)| *f)
}

/// The low nibble of an MCLQ tile byte for a liquid type, as Blizzard's files hold it: 4 river,
/// 1 ocean, 6 magma, 3 slime (types beyond the classic four count as river).
pub fn tile_kind(t: u16) -> u8 {
    match t {
        liquid_type::OCEAN => 1,
        liquid_type::SLIME => 3,
        liquid_type::MAGMA => 6,
        _ => 4,
    }
}

/// Tile bit meaning "no liquid drawn on this quad".
const TILE_HIDDEN: u8 = 0x08;

/// Reads the instances a chunk with `flags` stores in `r`.
pub fn read(r: &mut Reader, flags: u32) -> Result<Vec<LiquidLayer>> {
    read_with(r, flags, true)
}

/// Reads the instances a chunk with `flags` stores in `r`; `flows` says whether each instance
/// ends with the two 40-byte flow records (v18 and 0.5.x) or not (0.6.0, whose flow records
/// then read as zeros).
pub fn read_with(r: &mut Reader, flags: u32, flows: bool) -> Result<Vec<LiquidLayer>> {
    let size = if flows {
        INSTANCE_BYTES
    } else {
        INSTANCE_BYTES_060
    };
    let mut layers = Vec::new();
    for (flag, ty) in FLAG_ORDER {
        if flags & flag == 0 {
            continue;
        }
        if r.remaining() < size {
            return Err(r.error(ErrorKind::Truncated {
                needed: size,
                available: r.remaining(),
            }));
        }
        let min_height = r.f32()?;
        let max_height = r.f32()?;
        let mut heads = Box::new([[0u8; 4]; 81]);
        let mut heights = Vec::with_capacity(81);
        for head in heads.iter_mut() {
            *head = r.array()?;
            heights.push(r.f32()?);
        }
        let tiles: [u8; 64] = r.array()?;
        let flow_count = r.u32()?;
        let flow_records: [u8; FLOW_BYTES] = if flows { r.array()? } else { [0; FLOW_BYTES] };
        let magma = ty == liquid_type::MAGMA;
        let exists = tiles
            .iter()
            .enumerate()
            .filter(|(_, t)| *t & TILE_HIDDEN == 0)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        layers.push(LiquidLayer {
            liquid_type: ty,
            vertex_format: if magma { 1 } else { 0 },
            min_height,
            max_height,
            x: 0,
            y: 0,
            width: 8,
            height: 8,
            exists,
            exists_omitted: false,
            exists_padding: 0,
            heights: Some(heights),
            depths: (!magma).then(|| heads.iter().map(|h| h[0]).collect()),
            uvs: magma.then(|| {
                heads
                    .iter()
                    .map(|h| {
                        [
                            u16::from_le_bytes([h[0], h[1]]),
                            u16::from_le_bytes([h[2], h[3]]),
                        ]
                    })
                    .collect()
            }),
            origin: LiquidOrigin::Mclq(MclqExtras {
                vertex_heads: heads,
                tiles,
                flow_count,
                flows: Box::new(flow_records),
            }),
        });
    }
    Ok(layers)
}

/// Writes one instance for `layer`, resampled to the full 9×9 grid if it covers less.
pub fn write(w: &mut Writer, layer: &LiquidLayer) {
    write_with(w, layer, true)
}

/// Writes one instance for `layer`; `flows` as in [`read_with`].
pub fn write_with(w: &mut Writer, layer: &LiquidLayer, flows: bool) {
    let extras = match &layer.origin {
        LiquidOrigin::Mclq(e) => Some(e),
        LiquidOrigin::Mh2o => None,
    };
    w.f32(layer.min_height);
    w.f32(layer.max_height);
    let full = layer.x == 0 && layer.y == 0 && layer.width == 8 && layer.height == 8;
    for i in 0..81 {
        let (row, col) = (i / 9, i % 9);
        let mut head = extras.map_or([0; 4], |e| e.vertex_heads[i]);
        // Index into the layer's own grid, clamped: vertices outside its rectangle take the
        // nearest edge value.
        let lr = (row.clamp(layer.y as usize, layer.y as usize + layer.height as usize))
            - layer.y as usize;
        let lc = (col.clamp(layer.x as usize, layer.x as usize + layer.width as usize))
            - layer.x as usize;
        let li = if full {
            i
        } else {
            lr * layer.vertex_columns() + lc
        };
        if let Some(d) = layer.depths.as_ref().and_then(|d| d.get(li)) {
            head[0] = *d;
        } else if let Some(uv) = layer.uvs.as_ref().and_then(|u| u.get(li)) {
            head[..2].copy_from_slice(&uv[0].to_le_bytes());
            head[2..].copy_from_slice(&uv[1].to_le_bytes());
        }
        w.bytes(&head);
        let h = layer
            .heights
            .as_ref()
            .and_then(|h| h.get(li))
            .copied()
            .unwrap_or(layer.max_height);
        w.f32(h);
    }
    let kind = tile_kind(layer.liquid_type);
    let exists = layer.exists & rectangle_mask(layer.x, layer.y, layer.width, layer.height);
    for i in 0..64 {
        let shown = exists >> i & 1 == 1;
        let tile = match extras {
            Some(e) if (e.tiles[i] & TILE_HIDDEN == 0) == shown => e.tiles[i],
            _ if shown => kind,
            _ => 0x0F,
        };
        w.u8(tile);
    }
    match extras {
        Some(e) => {
            w.u32(e.flow_count);
            if flows {
                w.bytes(&e.flows[..]);
            }
        }
        None => {
            w.u32(0);
            if flows {
                w.zeros(FLOW_BYTES);
            }
        }
    }
}
